//! The app's state: settings, the secret store, the embedded sandbox when the sandbox profile is
//! active, and the active profile's connection.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use nordlys_core::connection::{Connection, ExchangeAddress};
use nordlys_core::format::Locale;
use nordlys_core::secrets::SecretStore;
use nordlys_core::settings::{LearnedPermissions, ProfileKind, Settings};
use nordlys_core::store::Store;
use nordlys_exchange::credentials::KeyCredentials;
use nordlys_exchange::nonce::SystemClock;
use nordlys_exchange::{ApiKey, ApiSecret, BaseUrl, NonceSource, Operator};
use nordlys_sandbox::{RunningSandbox, SandboxConfig};

use crate::error::{ErrorCode, IpcError};

/// The app's state, as every command reaches it.
pub fn app<R: tauri::Runtime>(handle: &tauri::AppHandle<R>) -> tauri::State<'_, App> {
    use tauri::Manager;
    handle.state::<App>()
}

#[derive(Debug)]
pub struct App {
    pub data_dir: PathBuf,
    pub settings: Mutex<Settings>,
    pub secrets: Arc<dyn SecretStore>,
    pub os_locale: Locale,
    pub notice: Mutex<Option<String>>,
    sandbox: tokio::sync::Mutex<Option<RunningSandbox>>,
    connection: tokio::sync::Mutex<Option<Arc<Connection>>>,
    database: tokio::sync::Mutex<Option<Arc<Store>>>,
    /// Set when the embedded sandbox starts or is reset; see [`App::tax_store`].
    sandbox_world_is_new: std::sync::atomic::AtomicBool,
    /// The tax sync of the active profile, while it runs and how it ended.
    pub tax_sync: Mutex<crate::tax::SyncSlot>,
    /// The evidence rules and request timeout in force; only debug builds can change them.
    timing: Mutex<Timing>,
}

/// How long silence must last before it settles a lost request, and how long a request may take.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub rules: nordlys_core::evidence::Rules,
    pub request_timeout_secs: u64,
}

impl App {
    pub fn new(data_dir: PathBuf, secrets: Arc<dyn SecretStore>, os_locale: Locale) -> Self {
        let path = data_dir.join("settings.json");
        let (settings, notice) = match Settings::load(&path) {
            Ok(s) => (s, None),
            Err(e) => (
                Settings::default(),
                Some(format!("{e}; using defaults until you change a setting")),
            ),
        };
        Self {
            data_dir,
            settings: Mutex::new(settings),
            secrets,
            os_locale,
            notice: Mutex::new(notice),
            sandbox: tokio::sync::Mutex::new(None),
            connection: tokio::sync::Mutex::new(None),
            database: tokio::sync::Mutex::new(None),
            sandbox_world_is_new: std::sync::atomic::AtomicBool::new(false),
            tax_sync: Mutex::default(),
            timing: Mutex::new(Timing {
                rules: nordlys_core::evidence::Rules::from_env(),
                // After this long without an answer an order is "outcome unknown".
                request_timeout_secs: std::env::var("NORDLYS_REQUEST_TIMEOUT_SECS")
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .filter(|s| (1..=600).contains(s))
                    .unwrap_or(30),
            }),
        }
    }

    pub fn timing(&self) -> Timing {
        *self
            .timing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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

    pub fn save_settings(&self) -> Result<(), IpcError> {
        let path = self.data_dir.join("settings.json");
        self.settings().save(&path).map_err(IpcError::internal)
    }

    pub fn locale(&self) -> Locale {
        self.settings().language.unwrap_or(self.os_locale)
    }

    /// The active profile's connection, opened on first use.
    pub async fn connection(&self) -> Result<Arc<Connection>, IpcError> {
        let mut slot = self.connection.lock().await;
        if let Some(c) = slot.as_ref() {
            return Ok(Arc::clone(c));
        }
        let profile = self
            .settings()
            .active_profile()
            .cloned()
            .ok_or_else(|| IpcError::new(ErrorCode::Internal, "no active profile"))?;
        let invalid = |e: String| IpcError::new(ErrorCode::InvalidInput, e);
        let (exchange, demo) = match &profile.kind {
            ProfileKind::Sandbox => {
                let (api, oauth, key) = self.sandbox_started().await?;
                let address = ExchangeAddress {
                    api,
                    oauth: Some(oauth),
                    operator: Operator::default(),
                };
                let all = LearnedPermissions {
                    trading: Some(true),
                    withdrawal: Some(true),
                };
                (address, Some((key, all)))
            }
            ProfileKind::Exchange {
                base_url,
                oauth_base_url,
                operator,
                ..
            } => {
                let address = ExchangeAddress {
                    api: BaseUrl::parse(base_url).map_err(|e| invalid(e.to_string()))?,
                    oauth: oauth_base_url
                        .as_deref()
                        .map(BaseUrl::parse)
                        .transpose()
                        .map_err(|e| invalid(e.to_string()))?,
                    operator: Operator::parse(operator).map_err(|e| invalid(e.to_string()))?,
                };
                (address, None)
            }
        };
        let nonce_file = self
            .data_dir
            .join("profiles")
            .join(&profile.id)
            .join("nonce");
        let nonces = NonceSource::persistent(nonce_file, Arc::new(SystemClock))
            .map_err(IpcError::internal)?;
        let timeout = self.timing().request_timeout_secs;
        let c = Connection::open(
            &profile.id,
            exchange,
            Arc::clone(&self.secrets),
            demo,
            profile.key_permissions,
            Arc::new(nonces),
            std::time::Duration::from_secs(timeout),
        )?;
        *slot = Some(Arc::clone(&c));
        Ok(c)
    }

    /// Forgets the connection and store (after a profile switch); the next use opens them again.
    pub async fn close_connection(&self) {
        *self.connection.lock().await = None;
        *self.database.lock().await = None;
    }

    /// The active profile's local database, in its own folder of the data dir.
    pub async fn store(&self) -> Result<Arc<Store>, IpcError> {
        let mut slot = self.database.lock().await;
        if let Some(s) = slot.as_ref() {
            return Ok(Arc::clone(s));
        }
        let id = self.settings().active.clone();
        let path = self
            .data_dir
            .join("profiles")
            .join(id)
            .join("nordlys.sqlite");
        let s = Arc::new(Store::open(&path).map_err(IpcError::internal)?);
        *slot = Some(Arc::clone(&s));
        Ok(s)
    }

    /// The mid price: the sample the price poller stored in the last 30 s, else a fresh quote. Form
    /// checks and status polls run often; they need not each ask the exchange again.
    pub async fn mid_price(&self) -> Result<rust_decimal::Decimal, IpcError> {
        let since = chrono::Utc::now() - chrono::Duration::seconds(30);
        let recent = self
            .store()
            .await?
            .price_samples(since)
            .map_err(IpcError::internal)?;
        match recent.last() {
            Some(s) => Ok(s.mid),
            None => Ok(self.connection().await?.client().price(None).await?.price),
        }
    }

    /// Starts the embedded sandbox once, on a random loopback port (or `NORDLYS_SANDBOX_PORT`),
    /// and returns its address and demo key. Its world lives in memory only, so its keys are
    /// never written to disk.
    async fn sandbox_started(&self) -> Result<(BaseUrl, BaseUrl, KeyCredentials), IpcError> {
        let mut slot = self.sandbox.lock().await;
        if slot.is_none() {
            let port = std::env::var("NORDLYS_SANDBOX_PORT")
                .ok()
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            let seed = std::env::var("NORDLYS_SANDBOX_SEED")
                .ok()
                .and_then(|p| p.parse().ok())
                .unwrap_or(1);
            // OAuth on a port of its own, as the real exchange serves it from another host.
            let started = nordlys_sandbox::start(SandboxConfig {
                port,
                seed,
                oauth_port: Some(0),
                ..SandboxConfig::default()
            })
            .await
            .map_err(|e| {
                IpcError::new(
                    ErrorCode::Internal,
                    format!("the sandbox did not start: {e}"),
                )
            })?;
            *slot = Some(started);
            self.sandbox_world_is_new.store(true, Ordering::SeqCst);
        }
        let sandbox = slot
            .as_ref()
            .ok_or_else(|| IpcError::new(ErrorCode::Internal, "the sandbox is not running"))?;
        let bad = |e: String| IpcError::new(ErrorCode::Internal, e);
        let base = BaseUrl::parse(sandbox.base_url()).map_err(|e| bad(e.to_string()))?;
        let oauth = BaseUrl::parse(&sandbox.info.oauth_base_url).map_err(|e| bad(e.to_string()))?;
        let k = &sandbox.info.api_keys.withdrawal;
        let key = KeyCredentials {
            key: ApiKey::parse(&k.key, &Operator::default()).map_err(|e| bad(e.to_string()))?,
            secret: Some(
                ApiSecret::parse(&k.secret, &Operator::default())
                    .map_err(|e| bad(e.to_string()))?,
            ),
            permissions: None,
        };
        Ok((base, oauth, key))
    }

    /// Puts the demo world back as it was at start.
    pub async fn reset_sandbox(&self) -> Result<(), IpcError> {
        if let Some(s) = self.sandbox.lock().await.as_ref() {
            s.state.reset();
        }
        self.sandbox_world_is_new.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// The store, for the tax screens. A sandbox started afresh or reset is a new world: the
    /// history synced from the old one is forgotten here, on first use, not on the start-up path.
    pub async fn tax_store(&self) -> Result<Arc<Store>, IpcError> {
        let store = self.store().await?;
        if self.sandbox_world_is_new.swap(false, Ordering::SeqCst) {
            store.forget_tax_history().map_err(IpcError::internal)?;
        }
        Ok(store)
    }
}
