//! Non-secret settings, kept as JSON in the app data dir: language, unit, profiles, and what the
//! app learned about each profile's key. Secrets never go here.

use std::path::Path;

use nordlys_money::{Nok, Percent};
use serde::{Deserialize, Serialize};

use crate::format::{BtcUnit, Locale};

/// Light or dark: the window's colours and the charts drawn for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

/// Which exchange a profile talks to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ProfileKind {
    /// The embedded sandbox exchange, started in-process.
    Sandbox,
    /// A real exchange; base URL and client id come from the operator (an empty client id: none
    /// issued yet, so API keys only).
    #[serde(rename_all = "camelCase")]
    Exchange {
        base_url: String,
        client_id: String,
        /// The operator's abbreviation in header names and key prefixes.
        #[serde(default = "spec_operator")]
        operator: String,
        /// Where its OAuth endpoints are, when not under `base_url`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        oauth_base_url: Option<String>,
        /// The scopes to ask for when connecting through OAuth; every scope of 5.4 when empty.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        scopes: Vec<String>,
    },
}

impl ProfileKind {
    /// The client id OAuth signs in with; none for an exchange whose operator has not issued one
    /// (it connects with an API key only) or for the sandbox (its own demo client).
    pub fn oauth_client_id(&self) -> Option<&str> {
        match self {
            ProfileKind::Exchange { client_id, .. } if !client_id.is_empty() => Some(client_id),
            _ => None,
        }
    }
}

fn spec_operator() -> String {
    nordlys_exchange::Operator::SPEC.to_owned()
}

/// What an API key may do: stated by the user, or learned from the answers to its use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct LearnedPermissions {
    pub trading: Option<bool>,
    pub withdrawal: Option<bool>,
    /// Whether the key may create invoices (the exchange's Receive permission), as its use
    /// showed; a profile saved before this was kept reads as unknown.
    #[serde(default)]
    pub receive: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub kind: ProfileKind,
    #[serde(default)]
    pub key_permissions: Option<LearnedPermissions>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// `None`: follow the OS.
    #[serde(default)]
    pub language: Option<Locale>,
    #[serde(default)]
    pub unit: BtcUnit,
    pub active: String,
    pub profiles: Vec<Profile>,
    /// How long a request may take before its outcome is unknown; `None`: 30 s. Read through
    /// [`Settings::request_timeout_secs`], which keeps it within reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_timeout_secs: Option<u64>,
    /// Light or dark; `None`: follow the OS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<Theme>,
    /// Privacy mode: every amount hidden behind a mask. Remembered across restarts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub privacy: bool,
    /// Start with amounts hidden, whatever privacy mode was when the app last closed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub start_hidden: bool,
    /// The first run's welcome was put away: it is not shown again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub welcomed: bool,
    /// The income tax rate in percent the tax before a sale is worked at; `None`: 22 %.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub income_tax_percent: Option<Percent>,
    /// How lots are matched for the tax before a sale; `None`: FIFO.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_method: Option<crate::tax::gains::Method>,
    /// The NOK amount the user usually trades: the price poller asks endpoint 7 for it, so the
    /// bank and card prices are those the user would pay. `None`: the endpoint's default, 5000.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "nordlys_money::opt_computed"
    )]
    pub usual_amount_nok: Option<Nok>,
    /// A lock password was set (its hash is in the keyring): with a keyring that cannot be read
    /// at start, the app stays locked rather than guess there is none.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lock_set: bool,
    /// Minutes without the user after which the app locks; `None`: 15.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock_idle_minutes: Option<u32>,
    /// Whether a payment asks for the lock's password again (when a lock is set); `None`: yes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock_before_payments: Option<bool>,
    /// Whether closing the window keeps Nordlys running in the tray; `None`: not asked yet (the
    /// first close asks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_to_tray: Option<bool>,
}

/// The ordinary income tax rate on capital income in recent years, when the user has not said.
pub const INCOME_TAX_PERCENT: Percent =
    Percent::new(rust_decimal::Decimal::from_parts(22, 0, 0, false, 0));

impl Settings {
    /// The income tax rate in percent, kept within 0–100.
    pub fn income_tax_percent(&self) -> Percent {
        self.income_tax_percent
            .filter(|p| {
                (rust_decimal::Decimal::ZERO..=rust_decimal::Decimal::ONE_HUNDRED)
                    .contains(&p.decimal())
            })
            .unwrap_or(INCOME_TAX_PERCENT)
    }

    /// The idle time, always within the range the user may choose.
    pub fn lock_idle_minutes(&self) -> u32 {
        self.lock_idle_minutes
            .filter(|m| crate::app_lock::IDLE_MINUTES.contains(m))
            .unwrap_or(crate::app_lock::DEFAULT_IDLE_MINUTES)
    }

    pub fn lock_before_payments(&self) -> bool {
        self.lock_before_payments.unwrap_or(true)
    }

    /// The usual amount, always a positive amount of whole øre.
    pub fn usual_amount_nok(&self) -> Nok {
        self.usual_amount_nok
            .filter(|a| a.decimal() > rust_decimal::Decimal::ZERO && a.decimal().scale() <= 2)
            .unwrap_or(Nok::computed(USUAL_AMOUNT_NOK))
    }
}

/// Endpoint 7's default amount, and the usual amount when the user has not said.
pub const USUAL_AMOUNT_NOK: rust_decimal::Decimal =
    rust_decimal::Decimal::from_parts(5000, 0, 0, false, 0);

/// The request timeout when the settings do not say, and the range they may say.
pub const REQUEST_TIMEOUT_SECS: u64 = 30;
pub const REQUEST_TIMEOUT_RANGE: std::ops::RangeInclusive<u64> = 5..=120;

pub const SANDBOX_PROFILE: &str = "sandbox";

impl Default for Settings {
    fn default() -> Self {
        Self {
            language: None,
            unit: BtcUnit::Btc,
            active: SANDBOX_PROFILE.into(),
            profiles: vec![Profile {
                id: SANDBOX_PROFILE.into(),
                name: "Sandbox".into(),
                kind: ProfileKind::Sandbox,
                key_permissions: None,
            }],
            request_timeout_secs: None,
            theme: None,
            privacy: false,
            start_hidden: false,
            welcomed: false,
            income_tax_percent: None,
            tax_method: None,
            usual_amount_nok: None,
            lock_set: false,
            lock_idle_minutes: None,
            lock_before_payments: None,
            close_to_tray: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SettingsError {
    #[error("cannot read settings from {path}: {detail}")]
    Read { path: String, detail: String },
    #[error("the settings in {path} are damaged: {detail}")]
    Damaged { path: String, detail: String },
    #[error("cannot save settings to {path}: {detail}")]
    Write { path: String, detail: String },
}

impl Settings {
    /// Reads the settings; a missing file gives the defaults, a damaged one an error (the user
    /// decides, nothing is overwritten silently).
    pub fn load(path: &Path) -> Result<Self, SettingsError> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| SettingsError::Damaged {
                path: path.display().to_string(),
                detail: e.to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(SettingsError::Read {
                path: path.display().to_string(),
                detail: e.to_string(),
            }),
        }
    }

    /// The settings a start of the app begins with: hidden amounts when the user asked every
    /// start to hide them.
    pub fn started(mut self) -> Self {
        self.privacy |= self.start_hidden;
        self
    }

    /// The request timeout in force: the setting within [`REQUEST_TIMEOUT_RANGE`], else 30 s.
    pub fn request_timeout_secs(&self) -> u64 {
        self.request_timeout_secs
            .map(|s| s.clamp(*REQUEST_TIMEOUT_RANGE.start(), *REQUEST_TIMEOUT_RANGE.end()))
            .unwrap_or(REQUEST_TIMEOUT_SECS)
    }

    /// Moves a damaged settings file aside (`settings.json.damaged-<unix seconds>`) so that the
    /// defaults saved next never overwrite what the user may still want back. Returns where.
    pub fn set_aside(path: &Path, now_secs: i64) -> Result<std::path::PathBuf, SettingsError> {
        let mut aside = path.as_os_str().to_owned();
        aside.push(format!(".damaged-{now_secs}"));
        let aside = std::path::PathBuf::from(aside);
        std::fs::rename(path, &aside).map_err(|e| SettingsError::Write {
            path: aside.display().to_string(),
            detail: e.to_string(),
        })?;
        Ok(aside)
    }

    /// Writes atomically and durably ([`crate::platform::file_write`]): a crash or power cut leaves the
    /// old settings or the new, never none (which would drop the app lock without a word).
    pub fn save(&self, path: &Path) -> Result<(), SettingsError> {
        let err = |e: String| SettingsError::Write {
            path: path.display().to_string(),
            detail: e,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
        }
        let text = serde_json::to_vec_pretty(self).map_err(|e| err(e.to_string()))?;
        crate::platform::file_write::write_replacing(path, &text).map_err(|e| err(e.to_string()))
    }

    pub fn profile(&self, id: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.id == id)
    }

    pub fn profile_mut(&mut self, id: &str) -> Option<&mut Profile> {
        self.profiles.iter_mut().find(|p| p.id == id)
    }

    pub fn active_profile(&self) -> Option<&Profile> {
        self.profile(&self.active)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tax rate and the usual amount, now a `Percent` and a `Nok`, read from the settings
    /// 8982fdb7 wrote (decimal text) and from a number typed by hand, and are written back as
    /// they were.
    #[test]
    fn a_tax_rate_and_usual_amount_written_as_bare_decimals_read_unchanged() {
        let written = r#"{"active":"sandbox","profiles":[],"incomeTaxPercent":"33.5","usualAmountNok":"2500.50"}"#;
        let s: Settings = serde_json::from_str(written).unwrap();
        assert_eq!(
            s.income_tax_percent(),
            Percent::new(rust_decimal::Decimal::new(335, 1))
        );
        assert_eq!(
            s.usual_amount_nok(),
            Nok::computed(rust_decimal::Decimal::new(250_050, 2))
        );
        let again = serde_json::to_value(&s).unwrap();
        assert_eq!(again["incomeTaxPercent"], "33.5");
        assert_eq!(again["usualAmountNok"], "2500.50");
        let by_hand: Settings = serde_json::from_str(
            r#"{"active":"sandbox","profiles":[],"incomeTaxPercent":40,"usualAmountNok":1000}"#,
        )
        .unwrap();
        assert_eq!(by_hand.income_tax_percent(), Percent::new(40.into()));
        assert_eq!(by_hand.usual_amount_nok(), Nok::computed(1000.into()));
    }

    #[test]
    fn round_trips_and_defaults_to_the_sandbox() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let s = Settings::load(&path).unwrap();
        assert_eq!(s.active_profile().unwrap().kind, ProfileKind::Sandbox);
        let mut s2 = s.clone();
        s2.profiles.push(Profile {
            id: "exchange".into(),
            name: "Exchange".into(),
            kind: ProfileKind::Exchange {
                base_url: "https://api.example.no".into(),
                client_id: "nordlys".into(),
                operator: "abc".into(),
                oauth_base_url: Some("https://auth.example.no".into()),
                scopes: vec!["api:accounts:bitcoin:read".into()],
            },
            key_permissions: Some(LearnedPermissions {
                trading: Some(true),
                withdrawal: Some(false),
                receive: None,
            }),
        });
        s2.language = Some(Locale::Nb);
        s2.save(&path).unwrap();
        assert_eq!(Settings::load(&path).unwrap(), s2);
        std::fs::write(&path, "{not json").unwrap();
        assert!(matches!(
            Settings::load(&path),
            Err(SettingsError::Damaged { .. })
        ));
        // Kept aside, byte for byte, before anything is saved over it.
        let aside = Settings::set_aside(&path, 1_700_000_000).unwrap();
        assert!(aside.ends_with("settings.json.damaged-1700000000"));
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), "{not json");
        assert!(!path.exists());
    }

    #[test]
    fn a_theme_is_remembered_and_none_follows_the_system() {
        let older: Settings =
            serde_json::from_str(r#"{"active":"sandbox","profiles":[]}"#).unwrap();
        assert_eq!(
            older.theme, None,
            "settings from before themes follow the system"
        );
        let dark = Settings {
            theme: Some(Theme::Dark),
            ..Settings::default()
        };
        let text = serde_json::to_string(&dark).unwrap();
        assert!(text.contains(r#""theme":"dark""#), "{text}");
        let back: Settings = serde_json::from_str(&text).unwrap();
        assert_eq!(back.theme, Some(Theme::Dark));
        assert!(
            !serde_json::to_string(&Settings::default())
                .unwrap()
                .contains("theme")
        );
    }

    #[test]
    fn privacy_mode_is_remembered_and_can_be_where_every_start_begins() {
        let older: Settings =
            serde_json::from_str(r#"{"active":"sandbox","profiles":[]}"#).unwrap();
        assert!(!older.privacy && !older.start_hidden, "shown by default");
        let hidden = Settings {
            privacy: true,
            ..Settings::default()
        };
        let back: Settings =
            serde_json::from_str(&serde_json::to_string(&hidden).unwrap()).unwrap();
        assert!(
            back.clone().started().privacy,
            "remembered across a restart"
        );
        let shown_at_close = Settings {
            start_hidden: true,
            ..Settings::default()
        };
        assert!(
            shown_at_close.started().privacy,
            "starts hidden when asked to"
        );
        assert!(!Settings::default().started().privacy);
    }

    #[test]
    fn the_request_timeout_stays_within_reason() {
        let mut s = Settings::default();
        assert_eq!(s.request_timeout_secs(), 30);
        for (asked, used) in [(0, 5), (1, 5), (45, 45), (u64::MAX, 120)] {
            s.request_timeout_secs = Some(asked);
            assert_eq!(s.request_timeout_secs(), used, "{asked}");
        }
    }
}
