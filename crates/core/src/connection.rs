//! A profile's live connection: the client, the credentials it uses (an API key, an OAuth grant,
//! or both), and the moves that change them — entering a key, connecting through the browser,
//! refreshing before expiry, disconnecting. Secrets pass only between the store and the client.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use chrono::Utc;
use nordlys_exchange::credentials::{
    BearerCredentials, BearerRenewal, CredentialError, KeyCredentials, RefreshToken, renewal_due,
};
use nordlys_exchange::models::Scope;
use nordlys_exchange::oauth::{OAuthApp, OAuthError, TokenSet, authorization_request};
use nordlys_exchange::{
    AccessToken, ApiKey, ApiSecret, BaseUrl, ClientConfig, Credentials, Error, ExchangeClient,
    KeyPermissions, NonceSource, Operator,
};
use url::Url;

use crate::platform::loopback::{LoopbackError, PageWords, RedirectListener};
use crate::platform::secrets::{
    self, SecretError, SecretItem, SecretOrigin, SecretStore, StoredGrant, StoredKey,
};
use crate::platform::settings::LearnedPermissions;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error(transparent)]
    Credential(#[from] CredentialError),
    #[error(transparent)]
    Exchange(#[from] Error),
    #[error(transparent)]
    Loopback(#[from] LoopbackError),
    #[error(transparent)]
    OAuth(#[from] OAuthError),
    #[error("could not open the browser: {0}")]
    Browser(String),
    #[error("the key was not accepted by the exchange: {}", .0.server_message().map_or_else(|| .0.to_string(), str::to_owned))]
    KeyRejected(Error),
    #[error("the connection to the exchange was lost; connect again")]
    Reconnect,
}

/// Where a profile's exchange is and whose names it uses.
#[derive(Debug, Clone)]
pub struct ExchangeAddress {
    pub api: BaseUrl,
    /// Where its OAuth endpoints are, when not under `api`.
    pub oauth: Option<BaseUrl>,
    /// The abbreviation in header names and key prefixes.
    pub operator: Operator,
}

impl ExchangeAddress {
    /// What a secret entered here is bound to.
    pub fn origin(&self) -> SecretOrigin {
        SecretOrigin {
            api: self.api.to_string(),
            oauth: self.oauth.as_ref().unwrap_or(&self.api).to_string(),
            operator: self.operator.to_string(),
        }
    }
}

/// What is known of an OAuth grant's scopes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantStatus {
    /// What the token response said was granted; `None`: it did not say.
    pub scopes: Option<Vec<Scope>>,
    /// Scopes the exchange refused the token since (a 403).
    pub refused: Vec<Scope>,
}

/// What the UI shows about a connection. No secret is in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionStatus {
    /// An API key is in use (entered by the user, or the sandbox's demo key).
    pub has_key: bool,
    pub key_is_demo: bool,
    pub permissions: LearnedPermissions,
    /// The OAuth grant, when connected through OAuth.
    pub grant: Option<GrantStatus>,
    pub needs_reconnect: bool,
    /// The keyring could not be read, or held a damaged entry: the profile opened without it.
    pub secret_problem: Option<SecretError>,
}

#[derive(Debug)]
pub struct Connection {
    profile: String,
    /// Where this profile's secrets belong; they are stored with it and sent nowhere else.
    origin: SecretOrigin,
    secret_problem: std::sync::Mutex<Option<SecretError>>,
    client: ExchangeClient,
    store: Arc<dyn SecretStore>,
    demo_key: Option<KeyCredentials>,
    grant: tokio::sync::Mutex<Option<StoredGrant>>,
    permissions: std::sync::Mutex<LearnedPermissions>,
    user_key: AtomicBool,
    needs_reconnect: AtomicBool,
    /// One refresh at a time: a second caller waits, then finds the grant fresh. (Two at once
    /// sent the same refresh token twice, and the exchange revokes a grant whose token is reused.)
    refreshing: tokio::sync::Mutex<()>,
}

fn key_credentials(
    stored: &StoredKey,
    permissions: LearnedPermissions,
    operator: &Operator,
) -> Result<KeyCredentials, CredentialError> {
    Ok(KeyCredentials {
        key: ApiKey::parse(&stored.key, operator)?,
        secret: Some(ApiSecret::parse(&stored.secret, operator)?),
        permissions: known(permissions),
    })
}

fn known(p: LearnedPermissions) -> Option<KeyPermissions> {
    match (p.trading, p.withdrawal) {
        (Some(trading), Some(bitcoin_withdrawal)) => Some(KeyPermissions {
            trading,
            bitcoin_withdrawal,
        }),
        _ => None,
    }
}

/// A secret that could not be read counts as absent; the first problem is kept to be shown.
fn or_absent<T>(
    read: Result<Option<T>, SecretError>,
    problem: &mut Option<SecretError>,
) -> Option<T> {
    read.unwrap_or_else(|e| {
        problem.get_or_insert(e);
        None
    })
}

fn damaged(item: SecretItem) -> SecretError {
    SecretError::Damaged(item.name().to_owned())
}

fn bearer(grant: &StoredGrant) -> Result<BearerCredentials, CredentialError> {
    Ok(BearerCredentials {
        token: AccessToken::parse(&grant.access)?,
        scopes: grant
            .scopes
            .as_ref()
            .map(|s| s.iter().map(|s| Scope::from(s.as_str())).collect()),
        refused: std::collections::BTreeSet::new(),
        expires_at: grant.expires_at,
    })
}

/// The client's way back to its connection's grant: a due token is refreshed (and stored) before
/// a request that could carry it.
#[derive(Debug)]
struct Renewal(Weak<Connection>);

impl BearerRenewal for Renewal {
    fn renew(&self) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            if let Some(connection) = self.0.upgrade() {
                // A failure shows as "reconnect" in the status, or the request fails by itself.
                let _ = connection.refresh_if_due().await;
            }
        })
    }
}

impl Connection {
    /// Opens `profile` against `exchange`, with what the store holds. `demo_key` is the
    /// sandbox's own key, used when the user has not entered one.
    pub fn open(
        profile: &str,
        exchange: ExchangeAddress,
        store: Arc<dyn SecretStore>,
        demo_key: Option<(KeyCredentials, LearnedPermissions)>,
        learned: Option<LearnedPermissions>,
        nonces: Arc<NonceSource>,
        timeout: Duration,
    ) -> Result<Arc<Self>, ConnectError> {
        // A locked keyring or a damaged entry must not keep the profile from opening: it opens
        // without the secret, and says why.
        let origin = exchange.origin();
        let mut problem = None;
        let stored_key = or_absent(
            secrets::read_bound::<StoredKey>(store.as_ref(), profile, SecretItem::ApiKey, &origin),
            &mut problem,
        );
        let user_key = stored_key.and_then(|k| {
            let p = learned.unwrap_or_default();
            let parsed = key_credentials(&k, p, &exchange.operator);
            or_absent(
                parsed
                    .map(|c| Some((c, p)))
                    .map_err(|_| damaged(SecretItem::ApiKey)),
                &mut problem,
            )
        });
        let grant = or_absent(
            secrets::read_bound::<StoredGrant>(
                store.as_ref(),
                profile,
                SecretItem::OAuthGrant,
                &origin,
            ),
            &mut problem,
        );
        let bearer = grant.as_ref().and_then(|g| {
            or_absent(
                bearer(g)
                    .map(Some)
                    .map_err(|_| damaged(SecretItem::OAuthGrant)),
                &mut problem,
            )
        });
        let grant = grant.filter(|_| bearer.is_some());
        let (key, permissions, user_key) = match (user_key, &demo_key) {
            (Some((k, p)), _) => (Some(k), p, true),
            (None, Some((k, p))) => (Some(k.clone()), *p, false),
            (None, None) => (None, LearnedPermissions::default(), false),
        };
        let mut config = ClientConfig::new(exchange.api);
        config.oauth_base_url = exchange.oauth;
        config.operator = exchange.operator;
        config.nonces = Some(nonces);
        config.timeout = timeout;
        config.credentials = Credentials { key, bearer };
        let client = ExchangeClient::new(config)?;
        Ok(Arc::new_cyclic(|me| {
            client.set_renewal(Arc::new(Renewal(me.clone())));
            Self {
                profile: profile.to_owned(),
                origin,
                secret_problem: std::sync::Mutex::new(problem),
                client,
                store,
                demo_key: demo_key.map(|(k, _)| k),
                grant: tokio::sync::Mutex::new(grant),
                permissions: std::sync::Mutex::new(permissions),
                user_key: AtomicBool::new(user_key),
                needs_reconnect: AtomicBool::new(false),
                refreshing: tokio::sync::Mutex::new(()),
            }
        }))
    }

    pub fn client(&self) -> &ExchangeClient {
        &self.client
    }

    pub async fn status(&self) -> ConnectionStatus {
        let grant = self.grant.lock().await;
        let creds = self.client.credentials();
        ConnectionStatus {
            has_key: creds.key.is_some(),
            key_is_demo: creds.key.is_some() && !self.user_key.load(Ordering::Relaxed),
            permissions: self.permissions(),
            grant: grant.as_ref().map(|g| GrantStatus {
                scopes: g
                    .scopes
                    .as_ref()
                    .map(|s| s.iter().map(|s| Scope::from(s.as_str())).collect()),
                refused: creds
                    .bearer
                    .as_ref()
                    .map(|b| b.refused.iter().cloned().collect())
                    .unwrap_or_default(),
            }),
            needs_reconnect: self.needs_reconnect.load(Ordering::Relaxed),
            secret_problem: self
                .secret_problem
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone(),
        }
    }

    /// A secret stored or cleared since: what the keyring held at opening no longer matters.
    fn clear_secret_problem(&self) {
        *self
            .secret_problem
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }

    /// What the key may do: what its use has shown, else what was known before (stated by the
    /// user or learned in an earlier session).
    pub fn permissions(&self) -> LearnedPermissions {
        let before = *self
            .permissions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let used = self.client.learned();
        LearnedPermissions {
            trading: used.trading.or(before.trading),
            withdrawal: used.bitcoin_withdrawal.or(before.withdrawal),
            receive: used.receive.or(before.receive),
        }
    }

    /// Checks a pasted key and secret with one read, and only then stores it. What the key may
    /// do beyond reading is `stated` by the user, or unknown until used: nothing is sent to an
    /// order or withdrawal endpoint to find out.
    pub async fn set_api_key(
        &self,
        key: &str,
        secret: &str,
        stated: LearnedPermissions,
    ) -> Result<LearnedPermissions, ConnectError> {
        let stored = StoredKey {
            key: key.trim().to_owned(),
            secret: secret.trim().to_owned(),
            origin: Some(self.origin.clone()),
        };
        let creds = key_credentials(&stored, stated, self.client.operator())?;
        let mut config = ClientConfig::new(self.client.base_url().clone());
        config.operator = self.client.operator().clone();
        config.credentials = Credentials {
            key: Some(creds.clone()),
            bearer: None,
        };
        let probe = ExchangeClient::new(config)?;
        probe
            .fiat_account()
            .await
            .map_err(ConnectError::KeyRejected)?;
        let learned = stated;
        secrets::write(
            self.store.as_ref(),
            &self.profile,
            SecretItem::ApiKey,
            &stored,
        )?;
        self.client.set_key(Some(KeyCredentials {
            permissions: known(learned),
            ..creds
        }));
        *self
            .permissions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = learned;
        self.user_key.store(true, Ordering::Relaxed);
        self.clear_secret_problem();
        Ok(learned)
    }

    /// Connects through the browser: a loopback listener, the authorize URL with PKCE S256 and a
    /// fresh state, exactly one redirect, the code exchanged, the grant stored before use. Returns
    /// the scopes granted, `None` when the exchange did not say (then use tells).
    pub async fn connect_oauth(
        &self,
        client_id: &str,
        scopes: &[Scope],
        open_browser: impl FnOnce(&Url) -> Result<(), String>,
        timeout: Duration,
        pages: PageWords,
    ) -> Result<Option<Vec<String>>, ConnectError> {
        let listener = RedirectListener::bind(pages).await?;
        let app = OAuthApp {
            client_id: client_id.to_owned(),
            client_secret: None,
            redirect_uri: listener.redirect_uri().clone(),
        };
        let request = authorization_request(self.client.oauth_base_url(), &app, scopes)?;
        open_browser(&request.url).map_err(ConnectError::Browser)?;
        let code = listener.wait(request.state.secret(), timeout).await?;
        let tokens = self
            .client
            .exchange_code(&app, &code, request.verifier)
            .await?;
        // A response without `scope` is not taken to mean "all asked for": a 403 will tell.
        let granted = tokens
            .scopes
            .as_ref()
            .map(|s| s.iter().map(ToString::to_string).collect());
        self.install_grant(client_id, &tokens, granted).await
    }

    async fn install_grant(
        &self,
        client_id: &str,
        tokens: &TokenSet,
        scopes: Option<Vec<String>>,
    ) -> Result<Option<Vec<String>>, ConnectError> {
        let grant = StoredGrant {
            client_id: client_id.to_owned(),
            access: tokens.access.expose().to_owned(),
            refresh: tokens.refresh.as_ref().map(|r| r.expose().to_owned()),
            expires_at: tokens.expires_at,
            scopes: scopes.clone(),
            origin: Some(self.origin.clone()),
        };
        // Stored first: a rotated refresh token that is lost is a dead grant.
        secrets::write(
            self.store.as_ref(),
            &self.profile,
            SecretItem::OAuthGrant,
            &grant,
        )?;
        self.client.set_bearer(Some(bearer(&grant)?));
        *self.grant.lock().await = Some(grant);
        self.needs_reconnect.store(false, Ordering::Relaxed);
        self.clear_secret_problem();
        Ok(scopes)
    }

    /// Refreshes the access token when it expires within a minute. A dead grant moves the profile
    /// to "reconnect": the grant is removed and no refresh is tried again.
    pub async fn refresh_if_due(&self) -> Result<(), ConnectError> {
        let _one = self.refreshing.lock().await;
        let Some(grant) = self.grant.lock().await.clone() else {
            return Ok(());
        };
        if !renewal_due(grant.expires_at, Utc::now()) {
            return Ok(());
        }
        let Some(refresh) = grant.refresh.clone() else {
            return self.drop_grant_if_still(&grant).await;
        };
        let app = OAuthApp {
            client_id: grant.client_id.clone(),
            client_secret: None,
            redirect_uri: Url::parse("http://127.0.0.1/callback")
                .map_err(|e| ConnectError::Browser(e.to_string()))?,
        };
        match self
            .client
            .refresh_token(&app, &RefreshToken::new(refresh.clone()))
            .await
        {
            Ok(mut tokens) => {
                // An answer without a refresh token leaves the old one in force (RFC 6749 §6).
                if tokens.refresh.is_none() {
                    tokens.refresh = Some(RefreshToken::new(refresh));
                }
                let scopes = tokens
                    .scopes
                    .as_ref()
                    .map(|s| s.iter().map(ToString::to_string).collect())
                    .or_else(|| grant.scopes.clone());
                self.install_grant(&grant.client_id, &tokens, scopes)
                    .await
                    .map(drop)
            }
            Err(e) if e.needs_reconnect() => self.drop_grant_if_still(&grant).await,
            Err(e) => Err(e.into()),
        }
    }

    /// Drops `refused` when it is still the grant in force: one connected anew while the refresh
    /// was on its way is not the one the exchange refused.
    async fn drop_grant_if_still(&self, refused: &StoredGrant) -> Result<(), ConnectError> {
        let mut grant = self.grant.lock().await;
        if grant.as_ref().map(|g| &g.access) != Some(&refused.access) {
            return Ok(());
        }
        self.store.delete(&self.profile, SecretItem::OAuthGrant)?;
        *grant = None;
        self.client.set_bearer(None);
        self.needs_reconnect.store(true, Ordering::Relaxed);
        Err(ConnectError::Reconnect)
    }

    /// Revokes the OAuth consent (endpoint 12) and deletes the profile's secrets. The sandbox
    /// falls back to its demo key.
    pub async fn disconnect(&self) -> Result<(), ConnectError> {
        // A token about to lapse could not revoke; a refused refresh leaves nothing to revoke.
        let _ = self.refresh_if_due().await;
        let grant = self.grant.lock().await.take();
        let revoked = match &grant {
            Some(g) => self
                .client
                .revoke_consent(&g.client_id)
                .await
                .map_err(ConnectError::from),
            None => Ok(()),
        };
        // This session stops using them whatever the keyring says; what it could not delete
        // (locked) is reported, and stays bound to this exchange only.
        self.client.set_bearer(None);
        self.client.set_key(self.demo_key.clone());
        self.user_key.store(false, Ordering::Relaxed);
        self.needs_reconnect.store(false, Ordering::Relaxed);
        let demo = if self.demo_key.is_some() {
            LearnedPermissions {
                trading: Some(true),
                withdrawal: Some(true),
                receive: Some(true),
            }
        } else {
            LearnedPermissions::default()
        };
        *self
            .permissions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = demo;
        self.store.delete(&self.profile, SecretItem::OAuthGrant)?;
        self.store.delete(&self.profile, SecretItem::ApiKey)?;
        self.clear_secret_problem();
        revoked
    }
}
