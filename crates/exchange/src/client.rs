//! The client: one async method per endpoint, over one reqwest client.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use bytes::Bytes;
use chrono::{NaiveDate, Utc};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::amount::{self, Unit};
use crate::auth::{self, AuthChoice, Refusal};
use crate::base_url::BaseUrl;
use crate::credentials::{BearerCredentials, BearerRenewal, Credentials, KeyCredentials};
use crate::endpoint::{Access, Endpoint, OAuthAccess, Repeat};
use crate::error::{Check, Error, InvalidRequest};
use crate::ids::{AccountId, OrderId, WithdrawalId};
use crate::models::*;
use crate::nonce::{NonceSource, SystemClock};
use crate::operator::Operator;
use crate::retry::{Failure, RetryPolicy};
use crate::signing;
use crate::tax_query::TaxQuery;
use nordlys_money::Nok;

/// Characters escaped in a path segment: everything but unreserved ones (RFC 3986).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// How a client is set up. The base URL is required; the rest has defaults.
#[derive(Debug)]
pub struct ClientConfig {
    pub base_url: BaseUrl,
    /// Where the OAuth endpoints are, when not under `base_url` (the real exchange serves them
    /// from another host).
    pub oauth_base_url: Option<BaseUrl>,
    /// Whose header names the requests carry (5.1).
    pub operator: Operator,
    pub credentials: Credentials,
    /// Defaults to an in-memory source; give a persistent one so nonces survive restarts.
    pub nonces: Option<Arc<NonceSource>>,
    /// Whole-request timeout; after it an order or withdrawal is "outcome unknown".
    pub timeout: Duration,
    pub connect_timeout: Duration,
    pub retry: RetryPolicy,
    /// Sign every key-authenticated request, not only those 5.1 requires.
    pub sign_reads: bool,
}

impl ClientConfig {
    pub fn new(base_url: BaseUrl) -> Self {
        Self {
            base_url,
            oauth_base_url: None,
            operator: Operator::default(),
            credentials: Credentials::default(),
            nonces: None,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            retry: RetryPolicy::default(),
            sign_reads: false,
        }
    }
}

/// Cheap to clone; clones share the connection pool, credentials and nonce source.
#[derive(Debug, Clone)]
pub struct ExchangeClient {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    http: reqwest::Client,
    base: BaseUrl,
    oauth_base: BaseUrl,
    headers: AuthHeaders,
    operator: Operator,
    /// What the exchange's answers to signed requests showed the key may do.
    learned: std::sync::Mutex<LearnedFromUse>,
    credentials: RwLock<Arc<Credentials>>,
    nonces: Arc<NonceSource>,
    /// Signed requests of this client go one at a time, from taking a nonce until the server has
    /// answered, so the server sees nonces in the order they were issued (5.3).
    signed_lane: tokio::sync::Mutex<()>,
    timeout: Duration,
    retry: RetryPolicy,
    sign_reads: bool,
    /// Asked to renew a due bearer token before a request that could carry it.
    renewal: std::sync::OnceLock<Arc<dyn BearerRenewal>>,
    /// The exchange's clock less ours, as the `Date` header of its last answer showed it.
    clock_offset: std::sync::Mutex<Option<chrono::Duration>>,
    /// Until when the exchange asked not to be asked (its last 429): every request of this
    /// client waits or is refused before it is sent, the watcher's and the screens' alike.
    quiet_until: std::sync::Mutex<Option<tokio::time::Instant>>,
}

/// How long a 429 that did not say when (or not readably) quiets the client.
const UNSAID_RETRY_AFTER: Duration = Duration::from_secs(5);

/// What a key may do as its use showed: a request that needs a permission and is answered 403
/// shows the key lacks it; one answered 200 shows it has it. `None`: not used yet. Nothing is
/// ever sent to find out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LearnedFromUse {
    pub trading: Option<bool>,
    pub bitcoin_withdrawal: Option<bool>,
    /// Creating an invoice with the key: answered 200, or refused (403) for want of Receive.
    pub receive: Option<bool>,
}

/// The header names of 5.1 with the operator's abbreviation in them.
#[derive(Debug)]
struct AuthHeaders {
    key: reqwest::header::HeaderName,
    nonce: reqwest::header::HeaderName,
    hmac: reqwest::header::HeaderName,
}

impl AuthHeaders {
    fn of(operator: &Operator) -> Result<Self, InvalidRequest> {
        let name = |n: String| {
            reqwest::header::HeaderName::try_from(n.as_str())
                .map_err(|e| InvalidRequest::Other(format!("header name {n}: {e}")))
        };
        Ok(Self {
            key: name(operator.key_header())?,
            nonce: name(operator.nonce_header())?,
            hmac: name(operator.hmac_header())?,
        })
    }
}

/// A path with its parameter escaped for the URL and raw for the signature (5.2 signs it decoded).
struct ApiPath {
    encoded: String,
    decoded: String,
}

fn api_path(
    endpoint: Endpoint,
    param: Option<(&'static str, &str)>,
) -> Result<ApiPath, InvalidRequest> {
    let template = endpoint.path_template();
    match (template.find('{'), param) {
        (Some(open), Some((name, value))) => {
            if value.trim().is_empty() {
                return Err(InvalidRequest::Empty(name));
            }
            let head = &template[..open];
            Ok(ApiPath {
                encoded: format!("{head}{}", utf8_percent_encode(value, SEGMENT)),
                decoded: format!("{head}{value}"),
            })
        }
        _ => Ok(ApiPath {
            encoded: template.to_owned(),
            decoded: template.to_owned(),
        }),
    }
}

/// A request ready to send: the same bytes on every attempt and with every credential.
struct Prepared {
    endpoint: Endpoint,
    url: url::Url,
    signing_path: String,
    body: Option<Bytes>,
}

/// How sending ended without a decoded answer.
enum Sent {
    /// The token was refused for the endpoint's scope.
    ScopeRefused(Error),
    Failed(Error),
}

impl Sent {
    fn into_error(self) -> Error {
        match self {
            Self::ScopeRefused(e) | Self::Failed(e) => e,
        }
    }
}

/// One attempt that did not produce an HTTP answer.
struct Lost {
    failure: Failure,
    detail: String,
}

impl ExchangeClient {
    pub fn new(config: ClientConfig) -> Result<Self, Error> {
        let mut http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.connect_timeout)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("nordlys/", env!("CARGO_PKG_VERSION")));
        // An exchange on this machine is reached directly: a configured HTTP proxy would see
        // its keys (plain http) or stand between the app and its own sandbox.
        let oauth_local = config
            .oauth_base_url
            .as_ref()
            .is_none_or(BaseUrl::is_loopback);
        if config.base_url.is_loopback() && oauth_local {
            http = http.no_proxy();
        }
        let http = http.build().map_err(|e| Error::Transport {
            endpoint: "client set-up".into(),
            detail: e.to_string(),
        })?;
        let nonces = config
            .nonces
            .unwrap_or_else(|| Arc::new(NonceSource::in_memory(Arc::new(SystemClock))));
        let headers = AuthHeaders::of(&config.operator)?;
        Ok(Self {
            inner: Arc::new(Inner {
                http,
                oauth_base: config
                    .oauth_base_url
                    .unwrap_or_else(|| config.base_url.clone()),
                base: config.base_url,
                headers,
                operator: config.operator,
                learned: std::sync::Mutex::default(),
                credentials: RwLock::new(Arc::new(config.credentials)),
                nonces,
                signed_lane: tokio::sync::Mutex::new(()),
                timeout: config.timeout,
                quiet_until: std::sync::Mutex::default(),
                retry: config.retry,
                sign_reads: config.sign_reads,
                renewal: std::sync::OnceLock::new(),
                clock_offset: std::sync::Mutex::default(),
            }),
        })
    }

    pub fn base_url(&self) -> &BaseUrl {
        &self.inner.base
    }

    /// Now on the exchange's clock, which stamps its rows: ours moved by what the `Date` header
    /// of its last answer showed, at the earliest it can be (see [`clock_offset`]), or ours alone
    /// before an answer carried one.
    pub fn exchange_now(&self) -> chrono::DateTime<chrono::Utc> {
        let offset = self
            .inner
            .clock_offset
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .unwrap_or_default();
        chrono::Utc::now() + offset
    }

    /// Where the OAuth endpoints are: the API's base unless configured otherwise.
    pub fn oauth_base_url(&self) -> &BaseUrl {
        &self.inner.oauth_base
    }

    /// Whose header names and key prefixes this client uses.
    pub fn operator(&self) -> &Operator {
        &self.inner.operator
    }

    /// The HTTP client, for calls beside the API (OAuth token requests).
    pub fn http(&self) -> &reqwest::Client {
        &self.inner.http
    }

    pub fn credentials(&self) -> Arc<Credentials> {
        Arc::clone(
            &self
                .inner
                .credentials
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    pub fn set_credentials(&self, credentials: Credentials) {
        *self
            .inner
            .credentials
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(credentials);
    }

    /// Changes the credentials in place: requests already under way keep the ones they took.
    fn change_credentials(&self, change: impl FnOnce(&mut Credentials)) {
        let mut guard = self
            .inner
            .credentials
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut next = (**guard).clone();
        change(&mut next);
        *guard = Arc::new(next);
    }

    /// Replaces the OAuth grant (after a refresh) and keeps the key.
    /// Who renews a due bearer token (the holder of the grant); set once, later calls are ignored.
    pub fn set_renewal(&self, renewal: Arc<dyn BearerRenewal>) {
        let _ = self.inner.renewal.set(renewal);
    }

    pub fn set_bearer(&self, bearer: Option<BearerCredentials>) {
        self.change_credentials(|c| c.bearer = bearer);
    }

    pub fn set_key(&self, key: Option<KeyCredentials>) {
        self.change_credentials(|c| c.key = key);
        // What was learned was about the key replaced.
        *self.learned_guard() = LearnedFromUse::default();
    }

    /// What the exchange's answers have shown the current key may do.
    pub fn learned(&self) -> LearnedFromUse {
        *self.learned_guard()
    }

    /// Creating an invoice with a key the exchange refused it for: the key lacks Receive.
    fn lacks_receive(&self, endpoint: Endpoint, choice: &AuthChoice<'_>) -> Option<Refusal> {
        (endpoint == Endpoint::CreateInvoice
            && matches!(choice, AuthChoice::Key(_))
            && self.learned().receive == Some(false))
        .then_some(Refusal::KeyLacksPermission {
            endpoint,
            permission: crate::endpoint::KeyPermission::Receive,
        })
    }

    fn learned_guard(&self) -> std::sync::MutexGuard<'_, LearnedFromUse> {
        self.inner
            .learned
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether this client can make `endpoint`'s request with what it holds now: `Ok(true)` when
    /// it knows, `Ok(false)` when only the exchange's answer will tell (a token whose scopes were
    /// not stated, a key whose permissions are unknown), and the refusal otherwise.
    pub fn reach(&self, endpoint: Endpoint) -> Result<bool, Refusal> {
        let credentials = self.credentials();
        let choice = auth::choose(endpoint, &credentials, Utc::now())?;
        if let Some(refusal) = self.lacks_receive(endpoint, &choice) {
            return Err(refusal);
        }
        Ok(match (choice, endpoint.access()) {
            (
                AuthChoice::Bearer(b),
                Access::Key {
                    oauth: OAuthAccess::Scope(s),
                },
            ) => b
                .scopes
                .as_ref()
                .is_some_and(|granted| granted.contains(&s)),
            (AuthChoice::Signed(k), _) => k.permissions.is_some(),
            _ => true,
        })
    }

    /// Learns from an answer: a 403 to a token on an endpoint that needs a scope shows the token
    /// lacks it (returns true); the answers to signed requests show what the key may do.
    fn learn(&self, endpoint: Endpoint, choice: &AuthChoice<'_>, status: u16) -> bool {
        use crate::endpoint::{Access, KeyPermission, OAuthAccess};
        if let (
            Access::Key {
                oauth: OAuthAccess::Scope(scope),
            },
            AuthChoice::Bearer(_),
            403,
        ) = (endpoint.access(), choice, status)
        {
            self.refuse_scope(scope);
            return true;
        }
        if endpoint == Endpoint::CreateInvoice
            && let AuthChoice::Key(_) = choice
        {
            match status {
                200 => self.learned_guard().receive = Some(true),
                403 => self.learned_guard().receive = Some(false),
                _ => {}
            }
            return false;
        }
        let (Access::Signed(permission), AuthChoice::Signed(_)) = (endpoint.access(), choice)
        else {
            return false;
        };
        let allowed = match status {
            200 => true,
            403 => false,
            _ => return false,
        };
        let mut learned = self.learned_guard();
        match permission {
            KeyPermission::Trading => learned.trading = Some(allowed),
            KeyPermission::BitcoinWithdrawal => learned.bitcoin_withdrawal = Some(allowed),
            KeyPermission::Receive => learned.receive = Some(allowed),
        }
        false
    }

    fn refuse_scope(&self, scope: Scope) {
        self.change_credentials(|c| {
            if let Some(b) = c.bearer.as_mut() {
                b.refused.insert(scope);
            }
        });
    }

    // ---- endpoints, in the order of the section 4 table ----

    /// 1. Standing deposit destinations; `None` means the default account.
    pub async fn deposit_destinations(
        &self,
        account: Option<&AccountId>,
    ) -> Result<DepositDestinationsResponse, Error> {
        let query = vec![(
            "accountId",
            account.map(|a| a.to_string()).unwrap_or_default(),
        )];
        self.call(Endpoint::DepositDestinations, None, &query, None::<&()>)
            .await
    }

    /// 2. A BOLT11 invoice; an amount of 0 accepts any amount.
    pub async fn create_invoice(
        &self,
        request: &NewLightningInvoiceRequest,
    ) -> Result<NewLightningInvoiceResponse, Error> {
        let unit = if request.currency == Currency::Nok {
            Unit::Nok
        } else {
            Unit::Btc
        };
        amount::check_non_negative(request.amount, unit, "the invoice amount")
            .map_err(InvalidRequest::from)?;
        if !request.currency.is_known() {
            return Err(InvalidRequest::Other(format!(
                "unknown invoice currency `{}`",
                request.currency
            ))
            .into());
        }
        self.call(Endpoint::CreateInvoice, None, &[], Some(request))
            .await
    }

    /// 3. An invoice by its `ded_` id or by the invoice itself.
    pub async fn invoice(&self, id_or_invoice: &str) -> Result<GetLightningInvoiceResponse, Error> {
        self.call(
            Endpoint::GetInvoice,
            Some(("id", id_or_invoice.trim())),
            &[],
            None::<&()>,
        )
        .await
    }

    /// 4. Every open order of the user.
    pub async fn open_orders(&self) -> Result<OpenOrdersResponse, Error> {
        self.call(Endpoint::ListOrders, None, &[], None::<&()>)
            .await
    }

    /// Whether `request` could be sent as an order with these credentials: refused here, before
    /// anything is read or sent, when it is invalid or nothing here may sign it.
    pub fn may_create_order(&self, request: &NewOrderRequest) -> Result<(), Error> {
        let unit = match request.direction {
            Direction::Buy => Unit::Nok,
            Direction::Sell => Unit::Btc,
            Direction::Unknown(ref d) => {
                return Err(InvalidRequest::Other(format!("unknown direction `{d}`")).into());
            }
        };
        if !request.order_type.is_known() {
            return Err(InvalidRequest::Other(format!(
                "unknown order type `{}`",
                request.order_type
            ))
            .into());
        }
        amount::check_positive(request.amount, unit, "the order amount")
            .map_err(InvalidRequest::from)?;
        match (&request.order_type, request.price) {
            (OrderType::Limit, None) => {
                return Err(InvalidRequest::Other("a limit order needs a price".into()).into());
            }
            (OrderType::Limit, Some(p)) => {
                amount::check_positive(p.decimal(), Unit::Nok, "the limit price")
                    .map_err(InvalidRequest::from)?;
            }
            (_, Some(_)) => {
                return Err(InvalidRequest::Other(
                    "a market order takes no price; use a limit order".into(),
                )
                .into());
            }
            _ => {}
        }
        auth::choose(Endpoint::CreateOrder, &self.credentials(), Utc::now())?;
        Ok(())
    }

    /// 5. Places an order. Never retried; a lost answer is [`Error::OutcomeUnknown`].
    pub async fn create_order(&self, request: &NewOrderRequest) -> Result<NewOrderResponse, Error> {
        self.may_create_order(request)?;
        self.call(Endpoint::CreateOrder, None, &[], Some(request))
            .await
    }

    /// 6. Cancels a pending order.
    pub async fn cancel_order(&self, id: &OrderId) -> Result<(), Error> {
        self.call::<Empty>(
            Endpoint::CancelOrder,
            Some(("orderId", id.as_str())),
            &[],
            None::<&()>,
        )
        .await
        .map(drop)
    }

    /// 7. The price for trading `amount_nok` (server default 5000).
    pub async fn price(&self, amount_nok: Option<Nok>) -> Result<PriceResponse, Error> {
        let mut query = vec![];
        if let Some(a) = amount_nok {
            amount::check_positive(a.decimal(), Unit::Nok, "the quote amount")
                .map_err(InvalidRequest::from)?;
            query.push(("amount", a.decimal().normalize().to_string()));
        }
        self.call(Endpoint::Price, None, &query, None::<&()>).await
    }

    /// 8. Volume statistics for `date` (server default today).
    pub async fn volume(&self, date: Option<NaiveDate>) -> Result<VolumeResponse, Error> {
        let query: Vec<_> = date.map(|d| ("date", d.to_string())).into_iter().collect();
        self.call(Endpoint::Volume, None, &query, None::<&()>).await
    }

    /// 9. Daily volume from `date` until today (server default one month ago).
    pub async fn volume_historic(
        &self,
        date: Option<NaiveDate>,
    ) -> Result<VolumeHistoricResponse, Error> {
        let query: Vec<_> = date.map(|d| ("date", d.to_string())).into_iter().collect();
        self.call(Endpoint::VolumeHistoric, None, &query, None::<&()>)
            .await
    }

    /// 10.
    pub async fn bitcoin_accounts(
        &self,
        include_deleted: bool,
    ) -> Result<ListBitcoinAccountsResponse, Error> {
        let query = vec![("includeDeleted", include_deleted.to_string())];
        self.call(Endpoint::BitcoinAccounts, None, &query, None::<&()>)
            .await
    }

    /// 11.
    pub async fn fiat_account(&self) -> Result<GetFiatAccountResponse, Error> {
        self.call(Endpoint::FiatAccount, None, &[], None::<&()>)
            .await
    }

    /// 12. Removes an OAuth application's access.
    pub async fn revoke_consent(&self, client_id: &str) -> Result<(), Error> {
        self.call::<Empty>(
            Endpoint::RevokeConsent,
            Some(("clientId", client_id.trim())),
            &[],
            None::<&()>,
        )
        .await
        .map(drop)
    }

    /// 13.
    pub async fn tax_balance(&self, include_deleted: bool) -> Result<GetTaxBalanceResponse, Error> {
        let query = vec![("includeDeleted", include_deleted.to_string())];
        self.call(Endpoint::TaxBalance, None, &query, None::<&()>)
            .await
    }

    /// 14. One page whose rows decode one by one, for a sync that must not stop at a bad row.
    pub async fn tax_page(&self, query: &TaxQuery) -> Result<TaxPage, Error> {
        query.validate()?;
        self.call(
            Endpoint::TaxTransactions,
            None,
            &query.to_pairs(),
            None::<&()>,
        )
        .await
    }

    /// 14. One page; see [`Self::tax_transaction_pages`] to walk them all.
    pub async fn tax_transactions(
        &self,
        query: &TaxQuery,
    ) -> Result<ListTaxTransactionsResponse, Error> {
        query.validate()?;
        self.call(
            Endpoint::TaxTransactions,
            None,
            &query.to_pairs(),
            None::<&()>,
        )
        .await
    }

    /// Whether `request` could be sent as a withdrawal with these credentials: refused here,
    /// before anything is read or sent, when it is invalid or nothing here may sign it.
    pub fn may_create_withdrawal(&self, request: &SendBitcoinRequest) -> Result<(), Error> {
        if request.destination.trim().is_empty() {
            return Err(InvalidRequest::Empty("the destination").into());
        }
        if let Some(a) = request.amount_btc {
            amount::check_positive(a.decimal(), Unit::Btc, "the amount")
                .map_err(InvalidRequest::from)?;
        }
        if let Some(info) = &request.tfr_info {
            if info.full_name.trim().is_empty() {
                return Err(InvalidRequest::Empty("the recipient's full name").into());
            }
            if info.address.trim().is_empty() {
                return Err(InvalidRequest::Empty("the recipient's address").into());
            }
        }
        auth::choose(Endpoint::CreateWithdrawal, &self.credentials(), Utc::now())?;
        Ok(())
    }

    /// 15. Starts a withdrawal. Never retried; a lost answer is [`Error::OutcomeUnknown`].
    pub async fn create_withdrawal(
        &self,
        request: &SendBitcoinRequest,
    ) -> Result<SendBitcoinResponse, Error> {
        self.may_create_withdrawal(request)?;
        self.call(Endpoint::CreateWithdrawal, None, &[], Some(request))
            .await
    }

    /// 16.
    pub async fn withdrawal(
        &self,
        id: &WithdrawalId,
    ) -> Result<GetBitcoinWithdrawalResponse, Error> {
        self.call(
            Endpoint::GetWithdrawal,
            Some(("withdrawalId", id.as_str())),
            &[],
            None::<&()>,
        )
        .await
    }

    // ---- the one place requests are made ----

    async fn call<T: DeserializeOwned>(
        &self,
        endpoint: Endpoint,
        param: Option<(&'static str, &str)>,
        query: &[(&str, String)],
        body: Option<&impl Serialize>,
    ) -> Result<T, Error> {
        let path = api_path(endpoint, param)?;
        // Serialized once: these bytes are signed and these bytes are sent.
        let body = body
            .map(|b| serde_json::to_vec(b).map(Bytes::from))
            .transpose()
            .map_err(|e| InvalidRequest::Other(format!("request body: {e}")))?;
        let mut url = self.inner.base.join(&path.encoded);
        if !query.is_empty() {
            url.query_pairs_mut()
                .extend_pairs(query.iter().map(|(k, v)| (*k, v.as_str())));
        }
        let signing_path = format!("{}{}", self.inner.base.path_prefix(), path.decoded);
        let request = Prepared {
            endpoint,
            url,
            signing_path,
            body,
        };
        self.renew_if_due(endpoint).await;
        let credentials = self.credentials();
        let choice = auth::choose(endpoint, &credentials, Utc::now())?;
        if let Some(refusal) = self.lacks_receive(endpoint, &choice) {
            return Err(Error::Refused(refusal));
        }
        self.wait_out_rate_limit(endpoint).await?;
        match self.send(&request, &choice).await {
            // The token lacks the scope, which is now known; a key reads instead when there is
            // one (a 403 is a positive refusal: nothing happened, so asking again is safe).
            Err(Sent::ScopeRefused(e)) => {
                let credentials = self.credentials();
                match auth::choose(endpoint, &credentials, Utc::now()) {
                    Ok(key @ AuthChoice::Key(_)) => {
                        self.send(&request, &key).await.map_err(Sent::into_error)
                    }
                    _ => Err(e),
                }
            }
            other => other.map_err(Sent::into_error),
        }
    }

    /// While the exchange asked not to be asked, a read waits when the rest of the wait fits in
    /// its timeout; anything else is refused before it is sent (nothing is made).
    async fn wait_out_rate_limit(&self, endpoint: Endpoint) -> Result<(), Error> {
        let until = *self
            .inner
            .quiet_until
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(left) = until.map(|u| u.saturating_duration_since(tokio::time::Instant::now()))
        else {
            return Ok(());
        };
        if left.is_zero() {
            return Ok(());
        }
        if endpoint.repeat() == Repeat::Safe && left < self.inner.timeout {
            tokio::time::sleep(left).await;
            return Ok(());
        }
        Err(Error::RateLimited {
            endpoint: endpoint.name(),
            retry_after: Some(left),
        })
    }

    /// A 429 quiets every request of this client until the exchange's `Retry-After`.
    fn quiet_for(&self, wait: Option<Duration>) {
        let until = tokio::time::Instant::now() + wait.unwrap_or(UNSAID_RETRY_AFTER);
        let mut quiet = self
            .inner
            .quiet_until
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *quiet = Some(quiet.map_or(until, |q| q.max(until)));
    }

    /// Every request a bearer token could carry renews a due token first, not only the calls
    /// that remember to (a long tax sync outlived its token).
    async fn renew_if_due(&self, endpoint: Endpoint) {
        let accepts_token = matches!(
            endpoint.access(),
            Access::Key { oauth } if oauth != OAuthAccess::NotAccepted
        );
        let due = || {
            self.credentials()
                .bearer
                .as_ref()
                .is_some_and(|b| b.is_due(Utc::now()))
        };
        if let Some(renewal) = self.inner.renewal.get()
            && accepts_token
            && due()
        {
            renewal.renew().await;
        }
    }

    /// Sends a prepared request with `choice`, repeating it as the retry policy allows.
    async fn send<T: DeserializeOwned>(
        &self,
        request: &Prepared,
        choice: &AuthChoice<'_>,
    ) -> Result<T, Sent> {
        let Prepared {
            endpoint,
            url,
            signing_path,
            body,
        } = request;
        let endpoint = *endpoint;
        let name = endpoint.name();
        let mut attempt = 1;
        // A read told to wait waits once, when the wait fits in its timeout.
        let mut waited_as_told = false;
        // A read whose nonce another app on the key overtook is sent once more.
        let mut nonce_renewed = false;
        loop {
            let outcome = self
                .attempt(endpoint, choice, url, signing_path, body.as_ref())
                .await;
            if let Ok((status, bytes, _)) = &outcome
                && self.learn(endpoint, choice, *status)
            {
                return Err(Sent::ScopeRefused(
                    self.status_error(endpoint, *status, bytes),
                ));
            }
            if let Ok((401, bytes, _)) = &outcome
                && let Some(key) = self.signing_key(choice)
                && let Some(message) = stale_nonce(&name, bytes)
            {
                if let Some(accepted) = largest_number(&message) {
                    // Past what the exchange last accepted, so the next nonce can pass.
                    let _ = self.inner.nonces.move_past(key.key.expose(), accepted);
                }
                if endpoint.repeat() == Repeat::Safe && !nonce_renewed {
                    nonce_renewed = true;
                    continue;
                }
                return Err(Sent::Failed(Error::StaleNonce {
                    endpoint: name,
                    message,
                }));
            }
            if let Ok((429, _, retry_after)) = &outcome {
                self.quiet_for(*retry_after);
                let fits = retry_after.is_some_and(|d| d < self.inner.timeout);
                if endpoint.repeat() == Repeat::Safe && fits && !waited_as_told {
                    waited_as_told = true;
                    tokio::time::sleep(retry_after.unwrap_or_default()).await;
                    continue;
                }
                // Nothing was done: a positive refusal, for an order or withdrawal too.
                return Err(Sent::Failed(Error::RateLimited {
                    endpoint: name,
                    retry_after: *retry_after,
                }));
            }
            let failure = match &outcome {
                Ok((status, _, _)) if *status == 200 => None,
                Ok((status, _, _)) => Some(Failure::Status(*status)),
                Err(lost) => Some(lost.failure),
            };
            if let Some(f) = failure
                && let Some(delay) = self.inner.retry.next_delay(endpoint.repeat(), f, attempt)
            {
                attempt += 1;
                tokio::time::sleep(delay).await;
                continue;
            }
            if let Ok((403, _, _)) = &outcome
                && let Some(refusal) = self.lacks_receive(endpoint, choice)
            {
                return Err(Sent::Failed(Error::Refused(refusal)));
            }
            return match outcome {
                Ok((200, bytes, _)) => self.decode(endpoint, &bytes),
                Ok((status, bytes, _)) => Err(self.status_error(endpoint, status, &bytes)),
                Err(lost) => Err(self.lost_error(endpoint, url, lost, &name)),
            }
            .map_err(Sent::Failed);
        }
    }

    /// The key a request made with `choice` is signed with, if it is signed.
    fn signing_key<'c>(&self, choice: &AuthChoice<'c>) -> Option<&'c KeyCredentials> {
        match choice {
            AuthChoice::Signed(k) => Some(k),
            AuthChoice::Key(k) if self.inner.sign_reads && k.secret.is_some() => Some(k),
            _ => None,
        }
    }

    async fn attempt(
        &self,
        endpoint: Endpoint,
        choice: &AuthChoice<'_>,
        url: &url::Url,
        signing_path: &str,
        body: Option<&Bytes>,
    ) -> Result<(u16, Bytes, Option<Duration>), Lost> {
        let method = endpoint.method();
        let mut request = self.inner.http.request(method.clone(), url.clone());
        if let Some(b) = body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(b.clone());
        }
        let sign_with = match choice {
            AuthChoice::None => None,
            AuthChoice::Bearer(b) => {
                request = request.bearer_auth(b.token.expose());
                None
            }
            AuthChoice::Signed(k) => Some(*k),
            AuthChoice::Key(k) if self.inner.sign_reads && k.secret.is_some() => Some(*k),
            AuthChoice::Key(k) => {
                request = request.header(&self.inner.headers.key, k.key.expose());
                None
            }
        };
        // When the request left, for what the answer's `Date` can tell of the exchange's clock.
        let mut sent = chrono::Utc::now();
        let response = match sign_with {
            None => request.send().await,
            Some(key) => {
                let Some(secret) = &key.secret else {
                    return Err(Lost {
                        failure: Failure::Connect,
                        detail: "no secret".into(),
                    });
                };
                let _turn = self.inner.signed_lane.lock().await;
                sent = chrono::Utc::now();
                let nonce = self.inner.nonces.next(key.key.expose()).map_err(|e| Lost {
                    failure: Failure::Connect,
                    detail: e.to_string(),
                })?;
                let body_bytes: &[u8] = body.map(|b| b.as_ref()).unwrap_or_default();
                let signed = signing::sign(
                    secret.hmac_key(),
                    nonce,
                    method.as_str(),
                    signing_path,
                    body_bytes,
                );
                request
                    .header(&self.inner.headers.key, key.key.expose())
                    .header(&self.inner.headers.nonce, signed.nonce.to_string())
                    .header(&self.inner.headers.hmac, signed.signature)
                    .send()
                    .await
            }
        };
        let response = response.map_err(classify)?;
        let date = response
            .headers()
            .get(reqwest::header::DATE)
            .and_then(http_date);
        if let Some(date) = date {
            *self
                .inner
                .clock_offset
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) =
                Some(clock_offset(date, sent, chrono::Utc::now()));
        }
        let status = response.status().as_u16();
        let retry_after = (status == 429)
            .then(|| response.headers().get(reqwest::header::RETRY_AFTER))
            .flatten()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| crate::retry::retry_after(v, date, chrono::Utc::now()));
        let bytes = crate::body::read_limited(response, crate::body::MOST_API_BYTES)
            .await
            .map_err(|e| match e {
                crate::body::BodyError::Transport(e) => classify(e),
                too_large => Lost {
                    failure: Failure::Transport,
                    detail: too_large.to_string(),
                },
            })?;
        Ok((status, bytes, retry_after))
    }

    fn decode<T: DeserializeOwned>(&self, endpoint: Endpoint, bytes: &[u8]) -> Result<T, Error> {
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            bytes
        };
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let decoded = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| {
                let field = match e.path().to_string() {
                    p if p == "." || p.is_empty() => "(the whole body)".to_owned(),
                    p => p,
                };
                (field, e.into_inner().to_string())
            })
            .and_then(|v| {
                de.end()
                    .map(|()| v)
                    .map_err(|e| ("(after the body)".to_owned(), e.to_string()))
            });
        decoded.map_err(|(field, reason)| {
            if endpoint.repeat() == Repeat::MovesMoney {
                Error::OutcomeUnknown {
                    endpoint: endpoint.name(),
                    reason: format!("the exchange answered 200 but its answer could not be read at `{field}`: {reason}"),
                    check: check_hint(endpoint),
                }
            } else {
                Error::Decode { endpoint: endpoint.name(), field, reason }
            }
        })
    }

    fn status_error(&self, endpoint: Endpoint, status: u16, bytes: &[u8]) -> Error {
        let err = Error::http(endpoint.name(), status, bytes);
        if endpoint.repeat() == Repeat::MovesMoney && status >= 500 {
            return Error::OutcomeUnknown {
                endpoint: endpoint.name(),
                reason: format!(
                    "the exchange failed with HTTP {status} ({})",
                    err_message(&err)
                ),
                check: check_hint(endpoint),
            };
        }
        err
    }

    fn lost_error(&self, endpoint: Endpoint, url: &url::Url, lost: Lost, name: &str) -> Error {
        match (endpoint.repeat(), lost.failure) {
            (_, Failure::Connect) => Error::Connect {
                endpoint: name.to_owned(),
                url: origin(url),
                detail: lost.detail,
            },
            (Repeat::MovesMoney, Failure::Timeout) => Error::OutcomeUnknown {
                endpoint: name.to_owned(),
                reason: format!("no answer within {} s", self.inner.timeout.as_secs()),
                check: check_hint(endpoint),
            },
            (Repeat::MovesMoney, _) => Error::OutcomeUnknown {
                endpoint: name.to_owned(),
                reason: format!(
                    "the connection was lost before an answer came ({})",
                    lost.detail
                ),
                check: check_hint(endpoint),
            },
            (_, Failure::Timeout) => Error::Timeout {
                endpoint: name.to_owned(),
                seconds: self.inner.timeout.as_secs(),
            },
            _ => Error::Transport {
                endpoint: name.to_owned(),
                detail: lost.detail,
            },
        }
    }
}

fn err_message(e: &Error) -> String {
    match e {
        Error::Http { message, .. } => message.clone(),
        other => other.to_string(),
    }
}

fn check_hint(endpoint: Endpoint) -> Check {
    match endpoint {
        Endpoint::CreateWithdrawal => Check::Withdrawals,
        _ => Check::OpenOrders,
    }
}

fn origin(url: &url::Url) -> String {
    url.origin().ascii_serialization()
}

fn classify(e: reqwest::Error) -> Lost {
    let failure = if e.is_connect() {
        Failure::Connect
    } else if e.is_timeout() {
        Failure::Timeout
    } else {
        Failure::Transport
    };
    let mut detail = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        detail.push_str(": ");
        detail.push_str(&s.to_string());
        source = s.source();
    }
    Lost { failure, detail }
}

/// An HTTP date (`Wed, 25 Nov 2026 04:25:49 GMT`); anything else is no date.
/// The exchange's message when a 401 speaks of the nonce (in any error shape); a 401 with no
/// message, or about something else, is an ordinary 401.
fn stale_nonce(endpoint: &str, body: &[u8]) -> Option<String> {
    let e = Error::http(endpoint.to_owned(), 401, body);
    let message = match &e {
        Error::Http { api: Some(api), .. } => api.message.clone(),
        Error::Http { body, .. } => body.trim().to_owned(),
        _ => String::new(),
    };
    message
        .to_ascii_lowercase()
        .contains("nonce")
        .then_some(message)
}

/// The largest whole number written in `text`: the last nonce the exchange accepted, when its
/// message names it (it also names the refused one, which is smaller).
fn largest_number(text: &str) -> Option<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty() && w.len() <= 19)
        .filter_map(|w| w.parse::<u64>().ok())
        .max()
}

/// How far the exchange's clock is from ours, as far as one answer can tell: its `Date` is whole
/// seconds, read some time between `sent` and `received`, so the exchange's clock then showed
/// from `date` to a second later. When that window holds zero the clocks cannot be told apart
/// (a second's truncation plus a slow answer is not a skew) and none is taken; otherwise the
/// earliest the window allows, so that "now" on the exchange's clock errs early: what it made
/// from then on is all later.
fn clock_offset(
    date: chrono::DateTime<chrono::Utc>,
    sent: chrono::DateTime<chrono::Utc>,
    received: chrono::DateTime<chrono::Utc>,
) -> chrono::Duration {
    let least = date - received;
    let most = date + chrono::Duration::seconds(1) - sent;
    if least <= chrono::Duration::zero() && most >= chrono::Duration::zero() {
        chrono::Duration::zero()
    } else {
        least
    }
}

fn http_date(value: &reqwest::header::HeaderValue) -> Option<chrono::DateTime<chrono::Utc>> {
    let text = value.to_str().ok()?;
    chrono::DateTime::parse_from_rfc2822(text)
        .ok()
        .map(|d| d.with_timezone(&chrono::Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answers_date_moves_the_clock_only_by_what_it_proves() {
        let at = |ms: i64| chrono::DateTime::from_timestamp_millis(ms).unwrap();
        let date = at(1_000_000);
        // Stamped 950 ms into its second and read 70 ms later: the second's truncation and the
        // wait together exceed a second, yet the clocks may well agree.
        assert_eq!(
            clock_offset(date, at(1_000_940), at(1_001_020)),
            chrono::Duration::zero()
        );
        // Five minutes behind: sent and read well after the second the exchange named.
        assert_eq!(
            clock_offset(date, at(1_300_000), at(1_300_050)),
            chrono::Duration::milliseconds(-300_050)
        );
        // Five minutes ahead.
        assert_eq!(
            clock_offset(date, at(700_000), at(700_050)),
            chrono::Duration::milliseconds(299_950)
        );
    }

    #[test]
    fn a_401_about_the_nonce_is_told_from_other_401s_in_every_error_shape() {
        let grpc = br#"{"code": 16, "message": "nonce 5 is not greater than the last accepted nonce 1732792800123", "details": []}"#;
        let nested = br#"{"error": {"code": 16, "message": "Nonce too low"}}"#;
        let text = b"invalid nonce";
        assert!(stale_nonce("x", grpc).is_some());
        assert!(stale_nonce("x", nested).is_some());
        assert!(stale_nonce("x", text).is_some());
        assert_eq!(stale_nonce("x", b""), None);
        assert_eq!(
            stale_nonce("x", br#"{"code": 16, "message": "invalid signature"}"#),
            None
        );
        let said = stale_nonce("x", grpc).unwrap_or_default();
        assert_eq!(largest_number(&said), Some(1_732_792_800_123));
        assert_eq!(largest_number("Nonce too low"), None);
        // A number too long for a nonce is not taken for one.
        assert_eq!(largest_number("nonce 99999999999999999999999"), None);
    }

    #[test]
    fn an_http_date_is_read_and_anything_else_is_no_date() {
        let date = |s: &str| http_date(&reqwest::header::HeaderValue::from_str(s).unwrap());
        assert_eq!(
            date("Wed, 25 Nov 2026 04:25:49 GMT"),
            Some("2026-11-25T04:25:49Z".parse().unwrap())
        );
        for bad in [
            "",
            "yesterday",
            "2026-11-25T04:25:49Z",
            "Wed, 31 Feb 2026 04:25:49 GMT",
        ] {
            assert_eq!(date(bad), None, "{bad:?}");
        }
        let opaque = reqwest::header::HeaderValue::from_bytes(b"\xff\xfe").unwrap();
        assert_eq!(http_date(&opaque), None);
    }

    #[test]
    fn path_parameters_are_escaped_for_the_url_and_raw_for_the_signature() {
        let p = api_path(Endpoint::CancelOrder, Some(("orderId", "or_a/b"))).unwrap();
        assert_eq!(p.encoded, "/v1/orders/or_a%2Fb");
        assert_eq!(p.decoded, "/v1/orders/or_a/b");
        assert!(matches!(
            api_path(Endpoint::CancelOrder, Some(("orderId", " "))),
            Err(InvalidRequest::Empty("orderId"))
        ));
    }
}
