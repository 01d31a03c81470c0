//! What the Overview, Connect and Settings screens exchange with the use cases of `profiles`:
//! the profile and its connection, balances, and the settings' forms. No secret is in anything
//! sent to the webview.

use nordlys_core::format::{BtcUnit, Locale};
use nordlys_core::platform::secrets::SecretError;
use nordlys_core::platform::settings::Theme;
use nordlys_core::platform::settings::{Profile, ProfileKind, REQUEST_TIMEOUT_RANGE};
use nordlys_core::presets::{ExchangePreset, PRESETS};
use nordlys_core::profile_form::{ProfileProblems, asked_scopes};
use nordlys_exchange::auth::Refusal;
use nordlys_exchange::endpoint::KeyPermission;
use nordlys_exchange::models::BitcoinAccount;
use nordlys_exchange::{BaseUrl, Operator};
use nordlys_money::{Btc, CheckedSum};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error_words::{permission_name, refusal_reason};
use crate::msg;
use crate::present::{Present, Viewer};
use crate::profiles::{AppState, Holdings};
use crate::shown::{Show, ShownBtc, ShownNok, ShownPrice};
use crate::vocabulary::ProfileType;
use crate::wording::{self, Message, key};

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProfileView {
    pub id: String,
    pub name: String,
    pub kind: ProfileType,
    pub base_url: String,
    /// `null` for the sandbox and for an exchange with no client id issued (API key only).
    pub client_id: Option<String>,
    /// The known exchange this profile reaches, by `PresetView.id`.
    pub preset: Option<String>,
    /// The operator's abbreviation (`svc` for the sandbox).
    pub operator: String,
    /// Where OAuth is served; empty when under `baseUrl`.
    pub oauth_base_url: String,
    /// The scopes asked for when connecting through OAuth.
    pub scopes: Vec<String>,
    /// An exchange profile whose exchange runs on this machine (a test server, a second sandbox).
    pub local: bool,
}

/// Whether an action is possible, and why not.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Capability {
    pub allowed: bool,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionView {
    pub has_key: bool,
    pub key_is_demo: bool,
    pub trading: Capability,
    pub withdrawal: Capability,
    /// Creating invoices: a key needs the exchange's Receive permission.
    pub receive: Capability,
    /// The OAuth grant, when connected through OAuth.
    pub oauth: Option<GrantView>,
    /// What each reading feature can do with these credentials, and what it needs when not.
    pub features: Vec<FeatureView>,
    pub needs_reconnect: bool,
    /// Where requests go, `host[:port]`, shown beside the connection state.
    pub host: String,
    /// The keyring could not be read, or held a damaged entry, and what to do about it.
    pub secret_problem: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GrantView {
    /// What the exchange said it granted; `null` when it did not say (use tells).
    pub scopes: Option<Vec<String>>,
    /// Scopes the exchange has refused the token since.
    pub refused: Vec<String>,
}

/// A feature that reads from the exchange, by the credential it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Feature {
    Balances,
    NokBalance,
    DepositAddresses,
    LightningInvoices,
    OrderHistory,
    TaxHistory,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FeatureView {
    pub feature: Feature,
    pub allowed: bool,
    /// Why not, and what would allow it; or that only the exchange's first answer will tell.
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppView {
    pub profile: ProfileView,
    pub profiles: Vec<ProfileView>,
    /// The language in use.
    pub language: Locale,
    /// `None`: follows the OS.
    pub language_setting: Option<Locale>,
    pub unit: BtcUnit,
    /// Light or dark; `None`: follows the OS.
    pub theme_setting: Option<Theme>,
    /// Privacy mode: every amount arrives masked.
    pub privacy: bool,
    /// Every start begins in privacy mode.
    pub start_hidden: bool,
    /// Closing the window keeps Nordlys in the tray; `None`: not asked yet.
    pub close_to_tray: Option<bool>,
    /// Nordlys starts at login; `None`: it cannot on this desktop.
    pub start_at_login: Option<bool>,
    /// Why the switch is off, in words, when it cannot start at login here.
    pub start_at_login_unavailable: Option<String>,
    /// The first run's welcome is to be shown: on the sandbox, until put away.
    pub welcome: bool,
    /// How long a request to the exchange may take, in seconds; the setting, else the default.
    pub request_timeout_secs: u32,
    /// The range the setting takes.
    pub request_timeout_min_secs: u32,
    pub request_timeout_max_secs: u32,
    /// The income tax rate the tax before a sale is worked at, in percent, as a plain decimal.
    pub income_tax_percent: String,
    /// How lots are matched for the tax before a sale.
    pub tax_method: nordlys_core::tax::gains::Method,
    pub connection: ConnectionView,
    /// A problem the user should know about (settings or keyring).
    pub notice: Option<String>,
    pub lock: crate::lock::LockView,
    /// The exchanges Nordlys knows by name, to fill the exchange profile form with.
    pub presets: Vec<PresetView>,
}

/// A known exchange: what its profile is filled with, and the company behind it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PresetView {
    pub id: String,
    pub name: String,
    pub base_url: String,
    pub oauth_base_url: String,
    pub operator: String,
    /// `null` until the operator issues Nordlys one: the profile then connects with an API key only.
    pub client_id: Option<String>,
    pub organisation_name: String,
    pub organisation_number: String,
    pub organisation_address: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    pub id: String,
    pub name: String,
    pub total_btc: ShownBtc,
    pub available_btc: ShownBtc,
    /// What the available bitcoin would sell for now, at the bid; none without a quote (the
    /// exchange states no value for it).
    pub available_nok: Option<ShownNok>,
    /// The part of the total not available, named: what open sells (or a payment on its way)
    /// hold; none when all of it is available.
    pub reserved: Option<String>,
    /// What it would sell for now, at the bid.
    pub total_nok: ShownNok,
    pub deleted: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BalancesView {
    pub accounts: Vec<AccountView>,
    pub total_btc: ShownBtc,
    /// The bitcoin accounts' worth.
    pub total_nok: ShownNok,
    /// The bitcoin accounts' worth and the NOK account together; `None` when the NOK account
    /// cannot be read (a total that leaves it out would not be one).
    pub grand_total_nok: Option<ShownNok>,
    /// The exchange's default account, as learned from it; `None` when not known, and then the
    /// first listed is the one a form shows (and sends from) when none is chosen.
    pub default_account: Option<String>,
    /// `None` with `fiatReason` when the credentials cannot read the fiat account.
    pub fiat: Option<ShownNok>,
    pub fiat_reason: Option<String>,
    pub price: Option<ShownPrice>,
    /// What the NOK values are at: "at the bid NOK …, <time>"; none when no quote could be read
    /// and the values are the exchange's own.
    pub valued_at: Option<String>,
}

/// Holds a secret: its `Debug` (in a log, a panic message, an error) shows neither key nor secret.
/// Wiped from memory when dropped: the secret passes through here on its way to the keyring.
#[derive(Clone, Serialize, Deserialize, TS, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
#[serde(rename_all = "camelCase")]
pub struct SetApiKeyArgs {
    pub key: String,
    pub secret: String,
    /// What the user says the key may do; unknown until used when not said.
    #[serde(default)]
    #[ts(optional)]
    #[zeroize(skip)]
    pub may_trade: Option<bool>,
    #[serde(default)]
    #[ts(optional)]
    #[zeroize(skip)]
    pub may_withdraw: Option<bool>,
}

impl std::fmt::Debug for SetApiKeyArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetApiKeyArgs")
            .field("key", &"[redacted]")
            .field("secret", &"[redacted]")
            .field("may_trade", &self.may_trade)
            .field("may_withdraw", &self.may_withdraw)
            .finish()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct ConnectOauthArgs {
    pub scopes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SetLanguageArgs {
    /// None to follow the OS.
    pub language: Option<Locale>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SetUnitArgs {
    pub unit: BtcUnit,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SetThemeArgs {
    /// None to follow the OS.
    pub theme: Option<Theme>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SetPrivacyArgs {
    pub hidden: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetStartHiddenArgs {
    pub start_hidden: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetTaxRulesArgs {
    /// Percent as typed, 0 to 100.
    pub income_tax_percent: String,
    pub tax_method: nordlys_core::tax::gains::Method,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetRequestTimeoutArgs {
    /// `None`: back to the default.
    pub seconds: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExchangeProfileArgs {
    pub base_url: String,
    pub client_id: String,
    /// The operator's abbreviation in header names and key prefixes; `svc` when not given.
    #[serde(default)]
    #[ts(optional)]
    pub operator: Option<String>,
    /// Where OAuth is served, when not under `baseUrl`.
    #[serde(default)]
    #[ts(optional)]
    pub oauth_base_url: Option<String>,
    /// The scopes to ask for; every scope of 5.4 when not given.
    #[serde(default)]
    #[ts(optional)]
    pub scopes: Option<Vec<String>>,
    /// The lock's password, when a lock is set and the saved exchange's address changes.
    #[serde(default)]
    #[ts(optional)]
    pub password: Option<crate::lock::LockPassword>,
}

/// What is wrong with each field of the exchange profile form; all `null` when it can be saved.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProfileProblemsView {
    pub base_url: Option<String>,
    pub oauth_base_url: Option<String>,
    pub operator: Option<String>,
    pub client_id: Option<String>,
    pub scopes: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SwitchProfileArgs {
    pub id: String,
}

impl Present for Holdings {
    type View = BalancesView;

    fn present(self, viewer: &Viewer) -> BalancesView {
        let figures = viewer.figures;
        let quote = self.quote;
        let fiat_nok = self.fiat.as_ref().ok().copied();
        let (fiat, fiat_reason) = match &self.fiat {
            Ok(nok) => (Some(figures.shown_nok(*nok)), None),
            Err(e) => (None, Some(e.words(viewer))),
        };
        // Bitcoin held is worth what it would sell for: the bid, said with its time. Without a
        // quote, the exchange's own figure, whose price it does not state.
        let at_bid = |btc: Btc| quote.as_ref().and_then(|q| btc.value_at(q.bid));
        let worth = |a: &BitcoinAccount| at_bid(a.total_btc).unwrap_or(a.total_nok);
        let valued_at = quote.as_ref().map(|q| {
            msg!(VALUED_AT_BID {
                price: figures.price(q.bid),
                time: viewer.time_to_second(&q.timestamp)
            })
            .render(figures.locale)
        });
        let live: Vec<_> = self.accounts.iter().filter(|a| !a.is_deleted()).collect();
        let total_btc = live.iter().map(|a| a.total_btc).checked_sum();
        let total_nok = live.iter().map(|a| worth(a)).checked_sum();
        BalancesView {
            accounts: self
                .accounts
                .iter()
                .map(|a| AccountView {
                    id: a.id.to_string(),
                    name: a.name.clone(),
                    total_btc: figures.shown_btc(a.total_btc),
                    available_btc: figures.shown_btc(a.available_btc),
                    // The exchange states no value for the available part: none without a quote.
                    available_nok: at_bid(a.available_btc).map(|n| figures.shown_nok(n)),
                    reserved: (a.total_btc > a.available_btc).then(|| {
                        msg!(ACCOUNT_RESERVED {
                            btc: figures.btc(a.total_btc - a.available_btc)
                        })
                        .render(figures.locale)
                    }),
                    total_nok: figures.shown_nok(worth(a)),
                    deleted: a.is_deleted(),
                })
                .collect(),
            total_btc: figures.shown_btc_sum(total_btc),
            total_nok: figures.shown_nok_sum(total_nok),
            grand_total_nok: fiat_nok
                .map(|f| figures.shown_nok_sum(total_nok.and_then(|n| n.checked_add(f)))),
            default_account: self.default_account,
            fiat,
            fiat_reason,
            price: quote.as_ref().map(|p| figures.shown_price(p.price)),
            valued_at,
        }
    }
}

fn capability(
    known: Option<bool>,
    has_key: bool,
    permission: KeyPermission,
    locale: Locale,
) -> Capability {
    let what = || permission_name(permission);
    let (allowed, reason) = match (has_key, known) {
        (_, Some(true)) => (true, None),
        (false, _) => (false, Some(msg!(CAPABILITY_OAUTH_CANNOT { what: what() }))),
        (true, Some(false)) => (false, Some(msg!(CAPABILITY_KEY_LACKS { what: what() }))),
        // Unknown until used: nothing is sent to find out, and the first refusal teaches it.
        (true, None) => (true, Some(Message::new(key::CAPABILITY_UNKNOWN_UNTIL_USED))),
    };
    Capability {
        allowed,
        reason: reason.map(|m| m.render(locale)),
    }
}

fn feature_view(feature: Feature, reach: Result<bool, Refusal>, locale: Locale) -> FeatureView {
    let (allowed, reason) = match reach {
        Ok(true) => (true, None),
        Ok(false) => (
            true,
            Some(wording::say(key::FEATURE_UNKNOWN_UNTIL_USED, locale)),
        ),
        Err(refusal) => (false, Some(refusal_reason(&refusal).render(locale))),
    };
    FeatureView {
        feature,
        allowed,
        reason,
    }
}

/// What the user reads when the keyring let the profile down, and what to do.
fn secret_problem(problem: &SecretError, locale: Locale) -> String {
    match problem {
        SecretError::Unavailable(_) => wording::say(key::SECRET_KEYRING_LOCKED, locale),
        _ => wording::say(key::SECRET_DAMAGED, locale),
    }
}

impl Present for AppState {
    type View = AppView;

    fn present(self, viewer: &Viewer) -> AppView {
        let locale = viewer.locale();
        let settings = &self.settings;
        let status = self.status;
        let profile = &self.profile;
        AppView {
            profile: profile_view(profile),
            profiles: settings.profiles.iter().map(profile_view).collect(),
            language: locale,
            language_setting: settings.language,
            unit: settings.unit,
            theme_setting: settings.theme,
            privacy: settings.privacy,
            start_hidden: settings.start_hidden,
            close_to_tray: settings.close_to_tray,
            start_at_login: self.start_at_login,
            start_at_login_unavailable: self
                .start_at_login
                .is_none()
                .then(|| wording::say(key::AUTOSTART_UNAVAILABLE, locale)),
            welcome: !settings.welcomed && matches!(profile.kind, ProfileKind::Sandbox),
            request_timeout_secs: u32::try_from(settings.request_timeout_secs())
                .unwrap_or(u32::MAX),
            request_timeout_min_secs: u32::try_from(*REQUEST_TIMEOUT_RANGE.start()).unwrap_or(0),
            request_timeout_max_secs: u32::try_from(*REQUEST_TIMEOUT_RANGE.end())
                .unwrap_or(u32::MAX),
            income_tax_percent: settings
                .income_tax_percent()
                .decimal()
                .normalize()
                .to_string(),
            tax_method: settings.tax_method.unwrap_or_default(),
            connection: ConnectionView {
                has_key: status.has_key,
                key_is_demo: status.key_is_demo,
                trading: capability(
                    status.permissions.trading,
                    status.has_key,
                    KeyPermission::Trading,
                    locale,
                ),
                withdrawal: capability(
                    status.permissions.withdrawal,
                    status.has_key,
                    KeyPermission::BitcoinWithdrawal,
                    locale,
                ),
                // A key may lack Receive; without a key, what the token may do decides.
                receive: if status.has_key {
                    capability(
                        status.permissions.receive,
                        true,
                        KeyPermission::Receive,
                        locale,
                    )
                } else {
                    let f = feature_view(Feature::LightningInvoices, self.invoices.clone(), locale);
                    Capability {
                        allowed: f.allowed,
                        reason: f.reason,
                    }
                },
                oauth: status.grant.map(|g| GrantView {
                    scopes: g
                        .scopes
                        .map(|s| s.iter().map(ToString::to_string).collect()),
                    refused: g.refused.iter().map(ToString::to_string).collect(),
                }),
                features: self
                    .features
                    .iter()
                    .map(|(feature, reach)| feature_view(*feature, reach.clone(), locale))
                    .collect(),
                needs_reconnect: status.needs_reconnect,
                host: self.host.clone(),
                secret_problem: status.secret_problem.map(|p| secret_problem(&p, locale)),
            },
            notice: self.notice.as_ref().map(|n| wording::notice(n, locale)),
            presets: PRESETS.iter().map(preset_view).collect(),
            lock: crate::lock::lock_view(&self.lock, locale),
        }
    }
}

pub(crate) fn profile_view(p: &Profile) -> ProfileView {
    let scopes = asked_scopes(&p.kind)
        .iter()
        .map(ToString::to_string)
        .collect();
    let (kind, base_url, client_id, operator, oauth_base_url) = match &p.kind {
        ProfileKind::Sandbox => (
            ProfileType::Sandbox,
            String::new(),
            None,
            Operator::SPEC.to_owned(),
            String::new(),
        ),
        ProfileKind::Exchange {
            base_url,
            client_id,
            operator,
            oauth_base_url,
            ..
        } => (
            ProfileType::Exchange,
            base_url.clone(),
            Some(client_id.clone()).filter(|id| !id.is_empty()),
            operator.clone(),
            oauth_base_url.clone().unwrap_or_default(),
        ),
    };
    let local = matches!(p.kind, ProfileKind::Exchange { .. })
        && BaseUrl::parse(&base_url).is_ok_and(|b| b.is_loopback());
    ProfileView {
        id: p.id.clone(),
        name: p.name.clone(),
        kind,
        base_url,
        client_id,
        preset: ExchangePreset::of(&p.kind).map(|k| k.id.to_owned()),
        operator,
        oauth_base_url,
        scopes,
        local,
    }
}

fn preset_view(p: &ExchangePreset) -> PresetView {
    PresetView {
        id: p.id.to_owned(),
        name: p.name.to_owned(),
        base_url: p.base_url.to_owned(),
        oauth_base_url: p.oauth_base_url.to_owned(),
        operator: p.operator.to_owned(),
        client_id: p.client_id.map(str::to_owned),
        organisation_name: p.organisation.name.to_owned(),
        organisation_number: p.organisation.number.to_owned(),
        organisation_address: p.organisation.address.to_owned(),
    }
}

impl Present for ProfileProblems {
    type View = ProfileProblemsView;

    fn present(self, viewer: &Viewer) -> ProfileProblemsView {
        let [base_url, oauth_base_url, operator, client_id, scopes] =
            wording::profile_problems(&self).map(|m| m.map(|m| m.write(viewer)));
        ProfileProblemsView {
            base_url,
            oauth_base_url,
            operator,
            client_id,
            scopes,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use super::*;

    #[test]
    fn the_key_entry_never_shows_its_secret_in_debug() {
        let args = SetApiKeyArgs {
            key: "svc/public/abc123".into(),
            // Put together here: not a secret-looking literal in the code.
            secret: ["svc", "apisecret", "topsecret"].join("/"),
            may_trade: Some(true),
            may_withdraw: None,
        };
        let shown = format!("{args:?} {args:#?}");
        assert!(
            !shown.contains("abc123") && !shown.contains("topsecret"),
            "{shown}"
        );
        assert!(shown.contains("[redacted]"));
    }

    /// Found reviewing the presenters: the exchange form's problems were the core's English
    /// `Display` on a Norwegian screen. Each is the catalog's, in the window's language.
    #[test]
    fn the_exchange_form_says_what_is_wrong_in_the_window_s_language() {
        use nordlys_core::profile_form::{AddressProblem, OperatorProblem, ScopeProblem};
        let problems = ProfileProblems {
            base_url: Some(AddressProblem::Path("/v1".into())),
            oauth_base_url: Some(AddressProblem::Url(
                nordlys_exchange::BaseUrlError::ExtraParts,
            )),
            operator: Some(OperatorProblem::Malformed),
            client_id: None,
            scopes: Some(ScopeProblem::None),
        };
        let shown = |locale| problems.clone().present(&Viewer::plain(locale));
        let (en, nb) = (shown(Locale::En), shown(Locale::Nb));
        assert!(en.client_id.is_none() && nb.client_id.is_none());
        let english = [
            problems.base_url.as_ref().map(ToString::to_string),
            problems.oauth_base_url.as_ref().map(ToString::to_string),
            problems.operator.as_ref().map(ToString::to_string),
            problems.scopes.as_ref().map(ToString::to_string),
        ];
        let norwegian = [nb.base_url, nb.oauth_base_url, nb.operator, nb.scopes];
        for (nb, en) in norwegian.iter().zip(&english) {
            let (nb, en) = (nb.as_deref().unwrap(), en.as_deref().unwrap());
            assert!(!nb.is_empty() && nb != en, "{nb} / {en}");
        }
        assert!(norwegian[0].as_deref().unwrap().contains("/v1"));
        assert_eq!(
            en.scopes,
            Some(wording::say(key::PROFILE_SCOPES_NONE, Locale::En))
        );
    }
}
