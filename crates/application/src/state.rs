//! The app's state: settings, the secret store, the embedded sandbox while the sandbox profile is
//! active, and the active profile's session (its connection and store, opened together).

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use nordlys_core::connection::{Connection, ExchangeAddress};
use nordlys_core::format::{Figures, Locale};
use nordlys_core::platform::secrets::{SecretError, SecretItem, SecretStore};
use nordlys_core::platform::settings::{
    LearnedPermissions, Profile, ProfileKind, Settings, SettingsError,
};
use nordlys_core::recipient_seal::RecipientSeal;
use nordlys_core::store::Store;
use nordlys_core::store::profile_store::{self, OpenError};
use nordlys_core::time::Tz;
use nordlys_exchange::credentials::KeyCredentials;
use nordlys_exchange::nonce::SystemClock;
use nordlys_exchange::{ApiKey, ApiSecret, BaseUrl, NonceSource, Operator};
use nordlys_sandbox::{RunningSandbox, SandboxConfig};

use crate::desktop::Desktop;
use crate::error::{AppError, ErrorCode};
use crate::msg;
use crate::test_hooks;
use crate::wording::key;

#[derive(Debug)]
pub struct App {
    pub data_dir: PathBuf,
    pub settings: Mutex<Settings>,
    pub secrets: Arc<dyn SecretStore>,
    pub desktop: Arc<dyn Desktop>,
    pub os_locale: Locale,
    /// The system's time zone: every time the user reads is on this clock.
    pub zone: Tz,
    /// What the user should know that no screen asked for, as a fact; worded when shown.
    pub notice: Mutex<Option<AppNotice>>,
    sandbox: tokio::sync::Mutex<Option<RunningSandbox>>,
    session: tokio::sync::Mutex<Option<ProfileSession>>,
    /// The connection of a session whose store waits for an unlock (its key sealed), by profile:
    /// the locked window's state needs it, and the session takes it once the store opens.
    waiting_connection: tokio::sync::Mutex<Option<(String, Arc<Connection>)>>,
    /// Money commands hold it shared while they run; a profile switch holds it alone, so it
    /// waits for them.
    money: nordlys_core::money_turn::MoneyLock,
    /// Set when the embedded sandbox starts or is reset; see [`App::tax_store`].
    sandbox_world_is_new: std::sync::atomic::AtomicBool,
    /// The evidence rules and request timeout in force; only debug builds can change them.
    timing: Mutex<Timing>,
    /// The tax screens' part: the sync, and what they keep between reads.
    pub(crate) tax: crate::tax::TaxPart,
    /// The watcher's part: what it saw last, and whether anyone is looking.
    pub(crate) watch: crate::watcher::WatchPart,
    /// The market's part: the price chart's daily prices and the accounts forms default to.
    pub(crate) market: crate::market::MarketPart,
    /// The app lock's part.
    pub(crate) lock: crate::lock::LockPart,
    /// Payments and orders reviewed and held for their one send.
    pub(crate) prepared: crate::prepared::PreparedPart,
    /// Store keys sealed under the lock's password, opened at unlock (see `store_key`).
    pub(crate) opened_keys: nordlys_core::store::OpenedKeys,
}

/// Where an exchange profile's exchange is; `None` for the sandbox profile, whose address is
/// known only once it runs.
fn exchange_address(kind: &ProfileKind) -> Result<Option<ExchangeAddress>, AppError> {
    let ProfileKind::Exchange {
        base_url,
        oauth_base_url,
        operator,
        ..
    } = kind
    else {
        return Ok(None);
    };
    let invalid = |e| AppError::new(ErrorCode::InvalidInput, crate::wording::address_problem(&e));
    Ok(Some(ExchangeAddress {
        api: BaseUrl::parse(base_url).map_err(invalid)?,
        oauth: oauth_base_url
            .as_deref()
            .map(BaseUrl::parse)
            .transpose()
            .map_err(invalid)?,
        operator: Operator::parse(operator).map_err(|_| {
            AppError::said(ErrorCode::InvalidInput, key::PROFILE_OPERATOR_MALFORMED)
        })?,
    }))
}

/// Whether two profile settings name the same exchange (where secrets may be sent).
pub fn same_exchange(a: &ProfileKind, b: &ProfileKind) -> bool {
    match (exchange_address(a), exchange_address(b)) {
        (Ok(Some(a)), Ok(Some(b))) => a.origin() == b.origin(),
        (Ok(None), Ok(None)) => true,
        _ => false,
    }
}

/// One profile's connection and store, opened together and used together: a command that looked
/// them up one by one could, across a profile switch, journal one exchange's order in another
/// profile's store.
#[derive(Debug, Clone)]
pub struct ProfileSession {
    /// The profile as it was when the session opened.
    pub profile: Profile,
    pub connection: Arc<Connection>,
    pub store: Arc<Store>,
}

/// Held by a money command while it runs: a profile switch waits for it to end.
pub use nordlys_core::money_turn::MoneyTurn;

/// How long silence must last before it settles a lost request, and how long a request may take.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub rules: nordlys_core::evidence::Rules,
    pub request_timeout_secs: u64,
}

/// What the user should know that no screen asked for: facts, worded by `wording::notice`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppNotice {
    /// The settings file was damaged: kept as `aside`, and the defaults are in use. `detail` is
    /// the reader's (English) account of the damage.
    SettingsSetAside { detail: String, aside: PathBuf },
    /// The settings file was damaged and could not be moved aside (`why`).
    SettingsNotSetAside { detail: String, why: String },
    /// The settings file could not be read; the defaults are in use until a setting changes.
    SettingsUnreadable { detail: String },
    /// Orders or payments of other accounts are still unknown.
    UnresolvedElsewhere { count: usize },
    /// A price sample could not be kept (the store's error).
    SampleNotKept { detail: String },
}

impl App {
    pub fn new(
        data_dir: PathBuf,
        secrets: Arc<dyn SecretStore>,
        desktop: Arc<dyn Desktop>,
        os_locale: Locale,
        zone: Tz,
    ) -> Self {
        let path = data_dir.join("settings.json");
        let (settings, notice) = match Settings::load(&path) {
            Ok(s) => (s.started(), None),
            // Kept aside, so that the defaults saved next cannot overwrite it.
            Err(SettingsError::Damaged { detail, .. }) => {
                let kept = Settings::set_aside(&path, chrono::Utc::now().timestamp());
                let notice = match kept {
                    Ok(aside) => AppNotice::SettingsSetAside { detail, aside },
                    Err(moved) => AppNotice::SettingsNotSetAside {
                        detail,
                        why: moved.to_string(),
                    },
                };
                (Settings::default(), Some(notice))
            }
            Err(e) => (
                Settings::default(),
                Some(AppNotice::SettingsUnreadable {
                    detail: e.to_string(),
                }),
            ),
        };
        let mut settings = settings;
        // An entry deleted from the keyring removes the lock.
        let stored_lock = crate::lock::stored_at_start(secrets.as_ref(), settings.lock_set);
        if let Ok(found) = &stored_lock {
            settings.lock_set = found.is_some();
        }
        let lock = crate::lock::LockState::at_start(
            &stored_lock,
            settings.lock_set,
            settings.lock_idle_minutes(),
        );
        let request_timeout_secs = test_hooks::number("NORDLYS_REQUEST_TIMEOUT_SECS", 1..=600)
            .unwrap_or_else(|| settings.request_timeout_secs());
        Self {
            data_dir,
            settings: Mutex::new(settings),
            secrets,
            desktop,
            os_locale,
            zone,
            notice: Mutex::new(notice),
            sandbox: tokio::sync::Mutex::new(None),
            session: tokio::sync::Mutex::new(None),
            waiting_connection: tokio::sync::Mutex::new(None),
            money: nordlys_core::money_turn::MoneyLock::default(),
            sandbox_world_is_new: std::sync::atomic::AtomicBool::new(false),
            timing: Mutex::new(Timing {
                rules: test_hooks::evidence_rules(),
                // After this long without an answer an order is "outcome unknown".
                request_timeout_secs,
            }),
            tax: crate::tax::TaxPart::default(),
            watch: crate::watcher::WatchPart::default(),
            market: crate::market::MarketPart::default(),
            lock: crate::lock::LockPart::new(lock),
            prepared: Default::default(),
            opened_keys: Default::default(),
        }
    }

    pub fn window_shown(&self) -> bool {
        self.watch.window_shown.load(Ordering::Relaxed)
    }

    /// The window was shown or hidden (told by the window itself, or by the tray).
    pub fn set_window_shown(&self, shown: bool) {
        self.watch.window_shown.store(shown, Ordering::Relaxed);
    }

    pub fn timing(&self) -> Timing {
        *self
            .timing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The request timeout the user chose in Settings. Takes effect on the next connection.
    pub fn set_request_timeout(&self, seconds: u64) {
        self.timing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .request_timeout_secs = seconds;
    }

    /// Debug builds only: tests shorten the quiet period and the request timeout. Takes effect
    /// on the next connection.
    #[cfg(debug_assertions)]
    pub fn set_timing(&self, timing: Timing) {
        *self
            .timing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = timing;
    }

    pub fn settings(&self) -> std::sync::MutexGuard<'_, Settings> {
        self.settings
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn save_settings(&self) -> Result<(), AppError> {
        let path = self.data_dir.join("settings.json");
        self.settings().save(&path).map_err(AppError::fault)
    }

    pub fn locale(&self) -> Locale {
        self.settings().language.unwrap_or(self.os_locale)
    }

    /// The language what the user typed is read in (decimal comma or point): the window's.
    /// Reading a form is not presenting, so a use case may ask for it.
    pub fn input_locale(&self) -> Locale {
        self.locale()
    }

    /// How views write amounts now: language, unit and privacy mode.
    pub fn figures(&self) -> Figures {
        let settings = self.settings();
        Figures {
            locale: settings.language.unwrap_or(self.os_locale),
            unit: settings.unit,
            hidden: settings.privacy,
        }
    }

    /// How views write now: [`App::figures`] and the system's time zone.
    pub fn viewer(&self) -> crate::present::Viewer {
        crate::present::Viewer {
            figures: self.figures(),
            zone: self.zone,
        }
    }

    /// Where `profile`'s store is kept.
    pub(crate) fn store_path(&self, profile: &str) -> PathBuf {
        self.data_dir
            .join("profiles")
            .join(profile)
            .join("nordlys.sqlite")
    }

    /// The active profile's session, opened on first use.
    pub async fn session(&self) -> Result<ProfileSession, AppError> {
        let mut slot = self.session.lock().await;
        if let Some(s) = slot.as_ref() {
            return Ok(s.clone());
        }
        let profile = self
            .settings()
            .active_profile()
            .cloned()
            .ok_or_else(|| AppError::said(ErrorCode::Internal, key::NO_ACTIVE_PROFILE))?;
        // A file per key, as the CLI keeps them, so both can share this directory; the single
        // file of earlier versions is where each key's file starts from.
        let profile_dir = self.data_dir.join("profiles").join(&profile.id);
        let nonces = NonceSource::per_key(
            profile_dir.join("nonces"),
            Some(profile_dir.join("nonce")),
            Arc::new(SystemClock),
        )
        .map_err(AppError::fault)?;
        let waiting = self
            .waiting_connection
            .lock()
            .await
            .take()
            .filter(|(id, _)| *id == profile.id);
        let connection = match waiting {
            Some((_, connection)) => connection,
            None => self.open_connection(&profile, nonces).await?,
        };
        let opened = open_store(
            &*self.secrets,
            &self.opened_keys,
            &profile,
            &self.store_path(&profile.id),
        );
        let store = match opened {
            Ok(store) => Arc::new(store),
            Err(OpenError::KeySealed) => {
                *self.waiting_connection.lock().await = Some((profile.id.clone(), connection));
                return Err(AppError::of(OpenError::KeySealed));
            }
            Err(e) => return Err(AppError::of(e)),
        };
        // A locked keyring (or a damaged entry) leaves saved recipients sealed: they show their
        // labels only, and Pay asks for their details again, until a later session can unlock.
        if let Ok(seal) = RecipientSeal::for_profile(&*self.secrets, &profile.id) {
            store.recipients().unlock(seal)?;
        }
        let session = ProfileSession {
            profile,
            connection,
            store,
        };
        *slot = Some(session.clone());
        Ok(session)
    }

    /// The active profile's connection, for what needs no store: the session's, or, while its
    /// store waits for an unlock, the connection opened for it.
    pub(crate) async fn connection(&self) -> Result<Arc<Connection>, AppError> {
        let refused = match self.session().await {
            Ok(session) => return Ok(session.connection),
            Err(e) => e,
        };
        let active = self.settings().active.clone();
        match self.waiting_connection.lock().await.as_ref() {
            Some((id, connection)) if *id == active => Ok(connection.clone()),
            _ => Err(refused),
        }
    }

    /// A connection to `profile`'s exchange, with its stored secrets.
    async fn open_connection(
        &self,
        profile: &Profile,
        nonces: NonceSource,
    ) -> Result<Arc<Connection>, AppError> {
        let (exchange, demo) = match exchange_address(&profile.kind)? {
            Some(address) => (address, None),
            None => {
                let (api, oauth, key) = self.sandbox_started().await?;
                let address = ExchangeAddress {
                    api,
                    oauth: Some(oauth),
                    operator: Operator::default(),
                };
                let all = LearnedPermissions {
                    trading: Some(true),
                    withdrawal: Some(true),
                    receive: Some(true),
                };
                (address, Some((key, all)))
            }
        };
        let timeout = self.timing().request_timeout_secs;
        Connection::open(
            &profile.id,
            exchange,
            Arc::clone(&self.secrets),
            demo,
            profile.key_permissions,
            Arc::new(nonces),
            std::time::Duration::from_secs(timeout),
        )
        .map_err(AppError::of)
    }

    /// Revokes what it can of `old`'s secrets and forgets them: they belong to the exchange its
    /// settings named, and its settings are about to name another. The session closes, so the
    /// live connection follows the new settings at once.
    pub async fn forget_secrets(&self, old: &Profile) {
        let _alone = self.money.alone().await;
        let open = self.session.lock().await.take();
        *self.waiting_connection.lock().await = None;
        let connection = match open {
            Some(s) if s.profile.id == old.id => Some(s.connection),
            // Nothing signed goes out while forgetting: a nonce source in memory does.
            _ => self
                .open_connection(old, NonceSource::in_memory(Arc::new(SystemClock)))
                .await
                .ok(),
        };
        // Disconnect deletes them even when revoking fails (offline, the token long dead).
        match connection {
            Some(c) => {
                let _ = c.disconnect().await;
            }
            None => {
                for item in [SecretItem::OAuthGrant, SecretItem::ApiKey] {
                    let _ = self.secrets.delete(&old.id, item);
                }
            }
        }
    }

    /// Taken first by a command that moves money: until it is dropped no profile switch
    /// happens, so every session the command looks up is the same profile's, from its checks to
    /// its journal entry.
    pub async fn money_turn(&self) -> MoneyTurn {
        self.money.turn().await
    }

    /// Makes `id` the active profile once no money command is running, and closes the old
    /// session; the next use opens the new one. The embedded sandbox runs only while its
    /// profile is active.
    pub async fn switch_profile(&self, id: &str) -> Result<(), AppError> {
        let _alone = self.money.alone().await;
        let kind = {
            let mut settings = self.settings();
            let kind = settings
                .profile(id)
                .map(|p| p.kind.clone())
                .ok_or_else(|| {
                    AppError::new(
                        ErrorCode::InvalidInput,
                        msg!(NO_SUCH_PROFILE { id: id.to_owned() }),
                    )
                })?;
            settings.active = id.to_owned();
            kind
        };
        self.save_settings()?;
        *self.session.lock().await = None;
        *self.waiting_connection.lock().await = None;
        if kind != ProfileKind::Sandbox
            && let Some(sandbox) = self.sandbox.lock().await.take()
        {
            sandbox.shutdown().await;
        }
        Ok(())
    }

    /// Closes the session after the active profile's settings changed; the next use opens it
    /// with the new ones.
    pub async fn reopen_session(&self) {
        let _alone = self.money.alone().await;
        *self.session.lock().await = None;
        *self.waiting_connection.lock().await = None;
    }

    /// The bid lists value payments at: the price poller's last sample of the past five minutes.
    pub fn listing_bid(&self, store: &Store) -> Option<nordlys_money::NokPerBtc> {
        self.stored_bid(store, chrono::Duration::minutes(5))
    }

    /// The bid of the price poller's last sample within `recent`, from the store alone: views the
    /// window reads on every change value bitcoin with it without asking the exchange.
    fn stored_bid(
        &self,
        store: &Store,
        recent: chrono::Duration,
    ) -> Option<nordlys_money::NokPerBtc> {
        let since = chrono::Utc::now() - recent;
        store.price_samples(since).ok()?.last().map(|s| s.bid)
    }

    /// The bid, what bitcoin held or paid is worth: from the sample the price poller stored in the
    /// last 30 s, else a fresh quote. Form checks and status polls run often; they need not each
    /// ask the exchange again.
    pub async fn bid_price(&self) -> Result<nordlys_money::NokPerBtc, AppError> {
        let session = self.session().await?;
        match self.stored_bid(&session.store, chrono::Duration::seconds(30)) {
            Some(bid) => Ok(bid),
            None => Ok(session
                .connection
                .client()
                .price(None)
                .await
                .map_err(AppError::of)?
                .bid),
        }
    }

    /// Starts the embedded sandbox once, on a random loopback port (or `NORDLYS_SANDBOX_PORT`),
    /// and returns its address and demo key. Its world lives in memory only, so its keys are
    /// never written to disk.
    async fn sandbox_started(&self) -> Result<(BaseUrl, BaseUrl, KeyCredentials), AppError> {
        let mut slot = self.sandbox.lock().await;
        if slot.is_none() {
            let port = test_hooks::number("NORDLYS_SANDBOX_PORT", 1024..=u16::MAX).unwrap_or(0);
            let seed = test_hooks::number("NORDLYS_SANDBOX_SEED", 0..=u64::MAX).unwrap_or(1);
            // OAuth on a port of its own, as the real exchange serves it from another host. Tests
            // drive the embedded sandbox's world; only a debug build lets them name the control
            // token, a release build keeps a random one nobody is told.
            let control_token = test_hooks::text("NORDLYS_SANDBOX_CONTROL_TOKEN");
            // An exchange at a distance: every answer waits this long (the start-up benchmark).
            let latency_ms =
                test_hooks::number("NORDLYS_SANDBOX_LATENCY_MS", 0..=60_000).unwrap_or(0);
            let started = nordlys_sandbox::start(SandboxConfig {
                port,
                seed,
                oauth_port: Some(0),
                control_token,
                latency_ms,
                ..SandboxConfig::default()
            })
            .await
            .map_err(|e| {
                AppError::new(
                    ErrorCode::Internal,
                    msg!(SANDBOX_DID_NOT_START {
                        reason: e.to_string()
                    }),
                )
            })?;
            // Where a test rig reads the port back: the app picks it, so no other process can
            // take it between a rig's choice and the app's bind.
            if let Some(file) = test_hooks::text("NORDLYS_SANDBOX_PORT_FILE") {
                tell_port(std::path::Path::new(&file), started.base_url());
            }
            *slot = Some(started);
            self.sandbox_world_is_new.store(true, Ordering::SeqCst);
        }
        let sandbox = slot
            .as_ref()
            .ok_or_else(|| AppError::said(ErrorCode::Internal, key::SANDBOX_NOT_RUNNING))?;
        let base = BaseUrl::parse(sandbox.base_url()).map_err(AppError::fault)?;
        let oauth = BaseUrl::parse(&sandbox.info.oauth_base_url).map_err(AppError::fault)?;
        let k = &sandbox.info.api_keys.withdrawal;
        let key = KeyCredentials {
            key: ApiKey::parse(&k.key, &Operator::default()).map_err(AppError::fault)?,
            secret: Some(
                ApiSecret::parse(&k.secret, &Operator::default()).map_err(AppError::fault)?,
            ),
            permissions: None,
        };
        Ok((base, oauth, key))
    }

    /// Puts the demo world back as it was at start.
    pub async fn reset_sandbox(&self) -> Result<(), AppError> {
        if let Some(s) = self.sandbox.lock().await.as_ref() {
            s.state.reset();
        }
        self.sandbox_world_is_new.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// The session, for the tax screens. A sandbox started afresh or reset is a new world: the
    /// history synced from the old one is forgotten here, on first use, not on the start-up path,
    /// and only in the sandbox profile's own store.
    pub async fn tax_session(&self) -> Result<ProfileSession, AppError> {
        let session = self.session().await?;
        if session.profile.kind == ProfileKind::Sandbox
            && self.sandbox_world_is_new.swap(false, Ordering::SeqCst)
        {
            session.store.tax().forget_history()?;
        }
        Ok(session)
    }
}

/// Writes the embedded sandbox's address to `file` whole (a temporary file renamed over it), for
/// a test rig that polls it. A file that cannot be written is the rig's failure to report (it
/// says it never appeared); the app runs on.
fn tell_port(file: &std::path::Path, base_url: &str) {
    let part = file.with_extension("part");
    std::fs::write(&part, base_url)
        .and_then(|()| std::fs::rename(&part, file))
        .ok();
}

/// `profile`'s store at `path`, encrypted with its key from the keyring. The sandbox's play money
/// lives in memory when no keyring can be reached, so the sandbox still works there; a real
/// exchange's profile never falls back (see `profile_store`).
fn open_store(
    secrets: &dyn SecretStore,
    opened: &nordlys_core::store::OpenedKeys,
    profile: &Profile,
    path: &std::path::Path,
) -> Result<Store, OpenError> {
    match profile_store::open_with(secrets, &profile.id, path, opened) {
        Err(OpenError::Keyring(SecretError::Unavailable(_)))
            if profile.kind == ProfileKind::Sandbox =>
        {
            Store::in_memory().map_err(OpenError::Store)
        }
        other => other,
    }
}
