//! # Nordlys sandbox exchange
//!
//! A simulated exchange implementing the whole of `shared/spec/exchange-api.md` on 127.0.0.1,
//! OAuth included: the app's default when no real account is configured, and every test's
//! counterpart. Everything follows from a seed; `--state FILE` keeps the world across restarts.
//!
//! ## Errors
//! Every failure of a `/v1/` endpoint has the gRPC-gateway shape
//! `{"code": <gRPC code>, "message": "...", "details": []}`:
//!
//! | HTTP | code | when |
//! |---|---|---|
//! | 400 | 3 `INVALID_ARGUMENT` | bad JSON, wrong types, unknown enum values, missing or invalid fields, both a token and a key, `afterId` without `after`, `pageSize` outside 0–200 |
//! | 400 | 9 `FAILED_PRECONDITION` | insufficient funds, cancelling a filled, cancelled or market order, expired or paid invoice, deleted account |
//! | 401 | 16 `UNAUTHENTICATED` | missing credentials, unknown key, bad signature, nonce not greater than the last accepted, invalid/expired/revoked token |
//! | 403 | 7 `PERMISSION_DENIED` | key lacks trading/withdrawal permission (or Receive, to create an invoice), token lacks the scope, token on a key-only endpoint, Host not loopback |
//! | 404 | 5 `NOT_FOUND` | unknown path, order, withdrawal, invoice, account or OAuth client |
//! | 405 | 12 `UNIMPLEMENTED` | known path, wrong method |
//! | 413 | 8 `RESOURCE_EXHAUSTED` | body over 64 KiB |
//! | 500 | 13 `INTERNAL` | injected fault |
//!
//! OAuth endpoints answer as RFC 6749 says: redirects with `error=` once the redirect URI is
//! trusted, an HTML error page before that, and `{"error", "error_description"}` from the token
//! endpoint.
//!
//! ## World control (`/sandbox/`)
//! Not open to web pages: every request carries the start-up line's `controlToken` in
//! `x-sandbox-token` (else 403), and a POST or DELETE is `Content-Type: application/json`, with
//! `{}` as the body when there is nothing to say (else 415). A page can make neither without a
//! CORS preflight, which the sandbox never answers.
//!
//! | request | effect |
//! |---|---|
//! | `POST /sandbox/invoices/{id}/pay` `{"amountBtc"?}` | someone pays the user's invoice (`ded_` id or invoice) |
//! | `POST /sandbox/invoices/{id}/cancel` | cancels an unpaid invoice |
//! | `POST /sandbox/invoices` `{"amountBtc"?, "description"?}` | another user's invoice, for the user to pay (completes at once) |
//! | `POST /sandbox/deposits` `{"amountBtc", "accountId"?}` | on-chain deposit; the address rotates |
//! | `POST /sandbox/fiat-deposits` `{"amountNok"}` | bank deposit |
//! | `POST /sandbox/price` `{"price"}` or `{"movePercent"}` | sets or moves the mid price; crossed limit orders fill |
//! | `POST /sandbox/withdrawals/{id}/complete` or `/fail` | settles a pending withdrawal (fail refunds) |
//! | `POST /sandbox/orders/{id}/fill` / `GET /sandbox/orders/{id}` | fills a resting limit order / shows any order's state |
//! | `POST /sandbox/oauth/expire-tokens`, `POST /sandbox/oauth/token-ttl` `{"seconds"}` | token lifetime control |
//! | `GET /sandbox/oauth/grants`, `POST /sandbox/oauth/grants` `{"scopes"?, "invalidScope"?, "omitScope"?, "keepRefresh"?}` | what OAuth grants (below); a POST changes only the names it gives, `"scopes": null` is every scope |
//! | `POST /sandbox/faults` `{"path", "method"?, "kind", "count"?, "percent"?, "delayMs"?}` / `DELETE /sandbox/faults` | fault injection; kinds `http500`, `delay`, `drop`, `commit-then-hang`, `commit-then-drop`, `commit-late` (no answer; the operation commits `delayMs` after the client gave up), `rate-limit` (429 with `Retry-After` of `delayMs` in whole seconds and `{"message": "slow down"}`; nothing is done) |
//! | `POST /sandbox/history` `{"transactions"}` | a busy year of buys, each sold again at once, before the seeded past (an even number up to 1,000,000; no later balance changes) |
//! | `GET /sandbox/counters`, `GET /sandbox/audit` | orders/withdrawals created, API requests per path, requests that carried a credential (`credentialsSeen`: `apiKey`, `bearer`); whether the books balance |
//! | `GET /sandbox/made` | every order and withdrawal made (`orders`, `withdrawals`: `id`, `description`) |
//! | `POST /sandbox/reset` | the world as it was at start (readings stay) |
//! | `GET /sandbox/readings`, `POST /sandbox/readings` `{"noNoteEcho"?, "taxLag"?, "withdrawalHold"?, "buyFeePct"?, "splitFills"?, "fillSpread"?, "buySpend"?, "partialFill"?, "clockSkew"?, "errorStyle"?, "pendingRows"?, "lateRows"?, "runningBalance"?, "emptyStyle"?, "buyFee"?, "rateLimitPerMinute"?}` | how the exchange reads what the spec leaves open (see below); a POST changes only the names it gives |
//!
//! ## Readings
//! Where the specification says "not shown", the sandbox offers each plausible behaviour as a
//! switch, at start (`nordlys-sandbox --no-note-echo …`) and through `/sandbox/readings`:
//!
//! | switch | JSON | effect |
//! |---|---|---|
//! | `--no-note-echo` | `noNoteEcho` | order and withdrawal descriptions do not reach tax rows' `note` |
//! | `--tax-lag SECONDS` | `taxLag` | a tax row is listed only SECONDS after its `createTime` |
//! | `--late-rows SECONDS` | `lateRows` | one tax row in three (by its id) is listed only SECONDS after its `createTime`, the others at once: it arrives with a `createTime` before rows already listed |
//! | `--pending-rows [SECONDS]` | `pendingRows` | a tax row is listed pending (empty `finalizeTime`, no fee yet) for SECONDS (5 when not given) after its `createTime`, then final with its fee |
//! | `--withdrawal-hold available\|total` | `withdrawalHold` | a pending withdrawal is held back from `availableBtc` (default), or debited from `totalBtc` at once |
//! | `--running-balance total\|account` | `runningBalance` | a tax row's `runningBalanceBtc` is the user's total over all accounts after it (default, as the operator describes it), or its own account's balance |
//! | `--empty-style omit\|string\|null` | `emptyStyle` | a successful answer leaves out every field whose value is the default (`""`, `0`, `false`, `[]`, an unset time or object: default, as a proto3-JSON service does), writes them with `""` for an unset time, or with `null` |
//! | `--buy-fee inside\|outside` | `buyFee` | a buy row's `outAmount` is the NOK spent, fee included (default, as published), or what bought the bitcoin, the fee beside it |
//! | `--buy-fee-pct P` | `buyFeePct` | a buy's fee is P % of its amount |
//! | `--rate-limit N/min` | `rateLimitPerMinute` | at most N `/v1/` requests a minute; the next are answered 429 with `Retry-After` (seconds until the minute turns) and `{"message": "slow down"}`, and nothing is done |
//! | `--split-fills N` | `splitFills` | a market order fills in N trades (the answer names the first) |
//! | `--fill-spread SECONDS` | `fillSpread` | those N trades are made over SECONDS from the order, evenly apart (default 0: at once); each is listed once its `createTime` has come |
//! | `--buy-spend amount\|sats` | `buySpend` | a buy takes the amount asked in all (default), or only the NOK of the whole satoshis bought (in whole øre) and the fee: up to a satoshi's worth and an øre less per trade |
//! | `--partial-fill P` | `partialFill` | a limit order fills P % at once at its price; the rest stays open with the smaller amount |
//! | `--clock-skew SECONDS` | `clockSkew` | the exchange's clock is SECONDS ahead (negative: behind): every timestamp and the `Date` header |
//! | `--error-style grpc\|string\|nested\|text\|none` | `errorStyle` | `/v1/` error bodies: `{"code": 3, "message"}` (default), `{"code": "INVALID_ARGUMENT", …}`, `{"error": {"code", "message"}}`, the message as plain text, or no body |
//!
//! `--latency-ms MS` (0 to 60,000) is not a reading but a distance: every `/v1/` and OAuth answer
//! waits MS milliseconds, as from an exchange across a network (benchmarks at a distance).
//!
//! ## OAuth as the real exchange serves it
//! | switch | effect |
//! |---|---|
//! | `--control-token TOKEN` | the control API's token instead of a random one (the start-up line's `controlToken` either way) |
//! | `--oauth-port P` | OAuth is served on a second loopback port (0: a free one) and not on the API's; the start-up line's `oauthBaseUrl` says where |
//! | `--oauth-scopes "A B"` | at most these scopes are granted: a request for more is narrowed silently, and the token response's `scope` says what was granted |
//! | `--oauth-invalid-scope` | a request for a scope not granted is refused with `invalid_scope` instead (without `--oauth-scopes`, only `api:accounts:bitcoin:read` is granted) |
//! | `--oauth-omit-scope` | token responses leave out `scope` |
//! | `--oauth-keep-refresh` | a refresh keeps the refresh token, and its answer carries none |
//!
//! As published, a tax row's `paymentInfo` is `<transaction id>:<address>` on an on-chain
//! transfer, `<payment hash>:<destination>` on Lightning, the bank account on a bank transfer,
//! and empty on trades, card deposits, bonuses and internal moves.
//!
//! Withdrawals settle by themselves (Lightning after 2 s, on-chain after 5 s); limit orders fill
//! when the live price, which walks every 2 s, crosses them.

mod api;
mod auth;
mod control;
mod empty;
mod error;
mod faults;
mod oauth;
mod request;
mod serve;
mod time;
pub mod world;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::routing::{get, post};
use chrono::Utc;
use serde::Serialize;
use tokio::net::TcpListener;

pub use error::ApiError;
pub use faults::{FaultKind, FaultRule};
pub use oauth::{GrantPolicy, READ_SCOPE};
pub use serve::host_is_loopback;
use world::World;

/// Shared by every handler.
#[derive(Debug, Clone)]
pub struct AppState {
    world: Arc<Mutex<World>>,
    /// A second user of the same exchange, with accounts and keys of its own: what one user's
    /// credential sees of the exchange, another's does not. Reached only with its API keys.
    second: Arc<Mutex<World>>,
    faults: Arc<Mutex<faults::Faults>>,
    /// Requests received per API path, faulted ones included: what a client really sent.
    requests: Arc<Mutex<std::collections::BTreeMap<String, u64>>>,
    /// Requests that carried a credential, by kind (`apiKey`, `bearer`): a host that was never
    /// given one must see none.
    credentials_seen: Arc<Mutex<std::collections::BTreeMap<&'static str, u64>>>,
    /// What every `/sandbox/` request must carry in `x-sandbox-token`.
    control_token: Arc<str>,
    dirty: Arc<AtomicBool>,
    /// How long every API answer waits before it is given: an exchange at a distance.
    latency_ms: Arc<std::sync::atomic::AtomicU64>,
    /// Requests in the current minute, under `--rate-limit N/min`.
    rate: Arc<Mutex<faults::RateWindow>>,
}

impl AppState {
    pub fn new(world: World) -> Self {
        let seed = world.seed;
        let second = World::new(second_seed(seed), Utc::now());
        Self {
            world: Arc::new(Mutex::new(world)),
            second: Arc::new(Mutex::new(second)),
            faults: Arc::new(Mutex::new(faults::Faults::new(seed))),
            requests: Arc::default(),
            credentials_seen: Arc::default(),
            control_token: control::new_token().into(),
            dirty: Arc::new(AtomicBool::new(false)),
            latency_ms: Arc::default(),
            rate: Arc::default(),
        }
    }

    /// Under the rate-limit reading, whether this API request is one too many this minute, and
    /// how long until the next is let through.
    fn rate_limited(&self) -> Option<std::time::Duration> {
        let per_minute = self.lock().readings.rate_limit_per_minute?;
        self.rate
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take(per_minute, std::time::Instant::now())
    }

    /// Every API answer from now on waits `ms` milliseconds (0: none).
    pub fn set_latency_ms(&self, ms: u64) {
        self.latency_ms
            .store(ms, std::sync::atomic::Ordering::Relaxed);
    }

    fn latency(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.latency_ms.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The world, for tests and the embedding app.
    pub fn lock(&self) -> MutexGuard<'_, World> {
        self.world
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The second user's world.
    pub fn lock_second(&self) -> MutexGuard<'_, World> {
        self.second
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The world of the user whose API key `req` carries: the second user's for one of its
    /// keys, the first user's otherwise (tokens, public endpoints, unknown keys).
    fn world_of(&self, req: &request::ApiRequest) -> MutexGuard<'_, World> {
        let second = self.lock_second();
        let header = format!("x-{}-api-key", second.operator);
        if let Some(key) = req.header(&header)
            && second.keys.iter().any(|k| k.key == key)
        {
            return second;
        }
        drop(second);
        self.lock()
    }

    /// Changes made to the exchange's behaviour apply to both users.
    pub(crate) fn configure(&self, f: impl Fn(&mut World)) {
        f(&mut self.lock());
        f(&mut self.lock_second());
    }

    fn touch(&self) {
        self.dirty.store(true, Ordering::Relaxed);
    }

    /// The world as it was at start for its seed; token lifetime and keys stay.
    pub fn reset(&self) {
        for mut w in [self.lock(), self.lock_second()] {
            let ttl = w.oauth.token_ttl_seconds;
            let policy = w.oauth.policy.clone();
            let readings = w.readings.clone();
            let operator = w.operator.clone();
            *w = World::new(w.seed, Utc::now());
            w.oauth.token_ttl_seconds = ttl;
            w.oauth.policy = policy;
            w.readings = readings;
            w.use_operator(&operator);
        }
        self.touch();
    }

    pub fn add_fault(&self, rule: FaultRule) {
        self.faults
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .add(rule);
    }

    pub fn clear_faults(&self) {
        self.faults
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }
}

async fn no_route(req: axum::extract::Request) -> ApiError {
    ApiError::not_found(format!("no endpoint {} {}", req.method(), req.uri().path()))
}

async fn wrong_method(req: axum::extract::Request) -> ApiError {
    ApiError::unimplemented(format!(
        "{} is not supported on {}",
        req.method(),
        req.uri().path()
    ))
}

/// The whole sandbox as a router, testable without a socket: the API, OAuth and world control.
pub fn app(state: AppState) -> Router {
    served(api_routes().merge(oauth_routes()), state)
}

/// The OAuth server (5.4) alone, as served on its own port with `--oauth-port`.
fn oauth_routes() -> Router<AppState> {
    Router::new()
        .route(
            "/oauth2/v0/authorize",
            get(oauth::authorize).post(oauth::decide),
        )
        .route("/oauth2/v0/token", post(oauth::token))
}

/// The API of section 4 and world control.
fn api_routes() -> Router<AppState> {
    use axum::routing::delete;
    Router::new()
        .route(
            "/v1/deposit-destinations/bitcoin",
            get(api::deposit_destinations),
        )
        .route(
            "/v1/deposit-destinations/bitcoin/invoice",
            post(api::create_invoice),
        )
        .route(
            "/v1/deposit-destinations/bitcoin/invoice/{id}",
            get(api::get_invoice),
        )
        .route("/v1/orders", get(api::list_orders).post(api::create_order))
        .route("/v1/orders/{id}", delete(api::cancel_order))
        .route("/v1/price/nok", get(api::price))
        .route("/v1/volume", get(api::volume))
        .route("/v1/volume/historic", get(api::volume_historic))
        .route("/v1/user/bitcoin-accounts", get(api::bitcoin_accounts))
        .route("/v1/user/fiat-account", get(api::fiat_account))
        .route(
            "/v1/user/applications/consent/{client_id}",
            delete(api::revoke_consent),
        )
        .route("/v1/tax/balance", get(api::tax_balance))
        .route("/v1/tax/transactions", get(api::tax_transactions))
        .route("/v1/withdrawals/bitcoin", post(api::create_withdrawal))
        .route("/v1/withdrawals/bitcoin/{id}", get(api::get_withdrawal))
        .route("/sandbox/invoices", post(control::other_invoice))
        .route("/sandbox/invoices/{id}/pay", post(control::pay_invoice))
        .route(
            "/sandbox/invoices/{id}/cancel",
            post(control::cancel_invoice),
        )
        .route("/sandbox/deposits", post(control::deposit))
        .route("/sandbox/fiat-deposits", post(control::fiat_deposit))
        .route("/sandbox/price", post(control::set_price))
        .route(
            "/sandbox/withdrawals/{id}/{outcome}",
            post(control::finish_withdrawal),
        )
        .route("/sandbox/orders/{id}", get(control::order))
        .route("/sandbox/orders/{id}/fill", post(control::fill_order))
        .route("/sandbox/oauth/expire-tokens", post(control::expire_tokens))
        .route("/sandbox/oauth/token-ttl", post(control::token_ttl))
        .route(
            "/sandbox/oauth/grants",
            get(control::grants).post(control::set_grants),
        )
        .route(
            "/sandbox/faults",
            post(control::add_fault).delete(control::clear_faults),
        )
        .route("/sandbox/history", post(control::busy_past))
        .route("/sandbox/counters", get(control::counters))
        .route("/sandbox/audit", get(control::audit))
        .route("/sandbox/made", get(control::made))
        .route("/sandbox/reset", post(control::reset))
        .route(
            "/sandbox/readings",
            get(control::readings).post(control::set_readings),
        )
}

/// `routes` with the fallbacks and the layers every answer passes through.
fn served(routes: Router<AppState>, state: AppState) -> Router {
    routes
        .fallback(no_route)
        .method_not_allowed_fallback(wrong_method)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            faults::layer,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            error::restyle,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            empty::restyle,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            serve::date_header,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            serve::latency,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            control::guard,
        ))
        .layer(axum::middleware::from_fn(serve::check_host))
        .with_state(state)
}

/// How to start a sandbox.
#[derive(Debug, Clone, Default)]
pub struct SandboxConfig {
    /// 0 picks a free port.
    pub port: u16,
    pub seed: u64,
    /// Where the world is kept across restarts.
    pub state_file: Option<PathBuf>,
    /// Access-token lifetime; the default is one hour.
    pub token_ttl_seconds: Option<i64>,
    /// How the exchange behaves where the specification is silent.
    pub readings: world::Readings,
    /// The operator's abbreviation in header names and key prefixes; `svc` when `None`.
    pub operator: Option<String>,
    /// Serve OAuth on this second loopback port (0: a free one) and not on the API's.
    pub oauth_port: Option<u16>,
    /// The control API's token; `None`: a random one. Printed in the start-up line.
    pub control_token: Option<String>,
    /// What OAuth grants.
    pub grants: oauth::GrantPolicy,
    /// How long every API answer waits before it is given (an exchange at a distance).
    pub latency_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct KeyInfo {
    pub key: String,
    pub secret: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeys {
    pub read: KeyInfo,
    pub trading: KeyInfo,
    pub withdrawal: KeyInfo,
    /// Reads only: no trading, no withdrawal, and no Receive (it cannot create invoices).
    pub no_receive: KeyInfo,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SecondUser {
    pub api_keys: ApiKeys,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PublicClient {
    pub client_id: String,
    pub redirect_uris: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfidentialClient {
    pub client_id: String,
    pub client_secret: String,
    pub redirect_uris: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OAuthClients {
    pub public: PublicClient,
    pub confidential: ConfidentialClient,
}

/// What a client needs to talk to the sandbox: the start-up line of the binary.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartupInfo {
    pub base_url: String,
    /// Where the OAuth endpoints are: `baseUrl` unless started with `--oauth-port`.
    pub oauth_base_url: String,
    pub api_keys: ApiKeys,
    /// Another user of the same exchange, with accounts of its own, reached with these keys
    /// only (OAuth always signs in the first user).
    pub second_user: SecondUser,
    pub oauth_clients: OAuthClients,
    /// The abbreviation in header names and key prefixes.
    pub operator: String,
    /// What `/sandbox/` requests carry in `x-sandbox-token`.
    pub control_token: String,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    #[error("the control token must not be empty")]
    ControlToken,
    #[error("the operator's abbreviation must be 1 to 16 lower-case letters or digits; got `{0}`")]
    Operator(String),
    #[error("the OAuth grants: {0}")]
    Grants(String),
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind { port: u16, source: std::io::Error },
    #[error("cannot read the state file {path}: {detail}")]
    State { path: PathBuf, detail: String },
}

/// A sandbox serving on loopback until dropped or shut down.
#[derive(Debug)]
pub struct RunningSandbox {
    pub state: AppState,
    pub info: StartupInfo,
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    state_file: Option<PathBuf>,
}

impl RunningSandbox {
    pub fn base_url(&self) -> &str {
        &self.info.base_url
    }

    /// Stops serving and writes the state file.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        save(&self.state, self.state_file.as_deref());
    }
}

impl Drop for RunningSandbox {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn save(state: &AppState, path: Option<&std::path::Path>) {
    let Some(path) = path else { return };
    if !state.dirty.swap(false, Ordering::Relaxed) {
        return;
    }
    let Ok(json) = serde_json::to_vec(&*state.lock()) else {
        return;
    };
    let tmp = path.with_extension("tmp");
    if std::fs::write(&tmp, json).is_ok() {
        let _ = std::fs::rename(&tmp, path);
    }
}

/// The second user's world comes from a seed of its own: other account ids, other keys.
fn second_seed(seed: u64) -> u64 {
    seed ^ 0x5ec0_4d05_e200_0002
}

fn api_keys_of(world: &World) -> ApiKeys {
    let key = |name: &str| {
        let k = world.keys.iter().find(|k| k.name == name);
        KeyInfo {
            key: k.map(|k| k.key.clone()).unwrap_or_default(),
            secret: k.map(|k| k.secret.clone()).unwrap_or_default(),
        }
    };
    ApiKeys {
        read: key("read"),
        trading: key("trading"),
        withdrawal: key("withdrawal"),
        no_receive: key("noReceive"),
    }
}

fn info_of(world: &World, addr: SocketAddr, oauth_addr: SocketAddr) -> StartupInfo {
    let o = &world.oauth;
    StartupInfo {
        base_url: format!("http://{addr}"),
        oauth_base_url: format!("http://{oauth_addr}"),
        api_keys: api_keys_of(world),
        second_user: SecondUser {
            api_keys: api_keys_of(world),
        },
        oauth_clients: OAuthClients {
            public: PublicClient {
                client_id: o.public_client.client_id.clone(),
                redirect_uris: o.public_client.redirect_uris.clone(),
            },
            confidential: ConfidentialClient {
                client_id: o.confidential_client.client_id.clone(),
                client_secret: o
                    .confidential_client
                    .client_secret
                    .clone()
                    .unwrap_or_default(),
                redirect_uris: o.confidential_client.redirect_uris.clone(),
            },
        },
        operator: world.operator.clone(),
        control_token: String::new(),
    }
}

async fn listen(port: u16) -> Result<(TcpListener, SocketAddr), StartError> {
    let bind = |source| StartError::Bind { port, source };
    let listener = TcpListener::bind(("127.0.0.1", port)).await.map_err(bind)?;
    let addr = listener.local_addr().map_err(bind)?;
    Ok((listener, addr))
}

/// Starts a sandbox on 127.0.0.1.
pub async fn start(config: SandboxConfig) -> Result<RunningSandbox, StartError> {
    let world = match &config.state_file {
        Some(path) if path.exists() => {
            let bytes = std::fs::read(path).map_err(|e| StartError::State {
                path: path.clone(),
                detail: e.to_string(),
            })?;
            let mut world: World =
                serde_json::from_slice(&bytes).map_err(|e| StartError::State {
                    path: path.clone(),
                    detail: e.to_string(),
                })?;
            // A state file written before rows kept the user's total.
            world.count_totals();
            world
        }
        _ => World::new(config.seed, Utc::now()),
    };
    if let Some(op) = &config.operator
        && !world::is_operator(op)
    {
        return Err(StartError::Operator(op.clone()));
    }
    let mut state = AppState::new(world);
    if let Some(token) = &config.control_token {
        if token.trim().is_empty() {
            return Err(StartError::ControlToken);
        }
        state.control_token = token.as_str().into();
    }
    state.configure(|w| w.readings = config.readings.clone());
    state.set_latency_ms(config.latency_ms);
    if let Some(op) = &config.operator {
        state.configure(|w| w.use_operator(op));
    }
    if let Some(ttl) = config.token_ttl_seconds {
        state.configure(|w| w.oauth.token_ttl_seconds = ttl);
    }
    config.grants.check().map_err(StartError::Grants)?;
    state.configure(|w| w.oauth.policy = config.grants.clone());
    let (listener, addr) = listen(config.port).await?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (router, oauth, oauth_addr) = match config.oauth_port {
        Some(port) => {
            let (listener, oauth_addr) = listen(port).await?;
            let router = served(oauth_routes(), state.clone());
            (
                served(api_routes(), state.clone()),
                Some((listener, router)),
                oauth_addr,
            )
        }
        None => (app(state.clone()), None, addr),
    };
    let mut info = info_of(&state.lock(), addr, oauth_addr);
    info.second_user = SecondUser {
        api_keys: api_keys_of(&state.lock_second()),
    };
    info.control_token = state.control_token.to_string();
    let saver = state.clone();
    let file = config.state_file.clone();
    let task = tokio::spawn(async move {
        let stopped = async {
            let _ = stopped.await;
        };
        let serving = async {
            match oauth {
                Some((listener2, router2)) => {
                    let (tx, rx) = tokio::sync::watch::channel(());
                    let both = tokio::spawn(serve::serve(listener2, router2, async move {
                        let mut rx = rx;
                        let _ = rx.changed().await;
                    }));
                    serve::serve(listener, router, stopped).await;
                    drop(tx);
                    let _ = both.await;
                }
                None => serve::serve(listener, router, stopped).await,
            }
        };
        let saving = async {
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                save(&saver, file.as_deref());
            }
        };
        tokio::select! {
            () = serving => {}
            () = saving => {}
        }
    });
    Ok(RunningSandbox {
        state,
        info,
        addr,
        stop: Some(stop),
        task: Some(task),
        state_file: config.state_file,
    })
}
