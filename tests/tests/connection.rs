#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! A profile's connection against the sandbox: key entry checked with one read and permissions
//! learned from use, another operator's names, OAuth through a played browser, deny and timeout,
//! refresh, disconnect.

use std::sync::Arc;
use std::time::Duration;

use nordlys_core::connection::{ConnectError, Connection, ExchangeAddress};
use nordlys_core::platform::loopback::LoopbackError;
use nordlys_core::platform::secrets::{MemorySecretStore, SecretItem, SecretStore};
use nordlys_core::platform::settings::LearnedPermissions;
use nordlys_exchange::models::Scope;
use nordlys_exchange::nonce::SystemClock;
use nordlys_exchange::{BaseUrl, NonceSource, Operator};
use nordlys_tests::*;

fn open(sb: &nordlys_sandbox::RunningSandbox, store: Arc<MemorySecretStore>) -> Arc<Connection> {
    open_as(sb, store, Operator::default())
}

fn open_as(
    sb: &nordlys_sandbox::RunningSandbox,
    store: Arc<MemorySecretStore>,
    operator: Operator,
) -> Arc<Connection> {
    Connection::open(
        "p1",
        ExchangeAddress {
            api: BaseUrl::parse(sb.base_url()).unwrap(),
            oauth: Some(BaseUrl::parse(&sb.info.oauth_base_url).unwrap()),
            operator,
        },
        store,
        None,
        None,
        Arc::new(NonceSource::in_memory(Arc::new(SystemClock))),
        Duration::from_secs(30),
    )
    .unwrap()
}

/// The browser the app opens: the test plays it, in the background.
fn browser(decision: &'static str) -> impl FnOnce(&url::Url) -> Result<(), String> {
    move |url: &url::Url| {
        let url = url.to_string();
        tokio::spawn(async move { play_browser(&url, decision).await });
        Ok(())
    }
}

/// The sign-in page's words, as the app gives them.
fn pages() -> nordlys_core::platform::loopback::PageWords {
    nordlys_application::wording::loopback_pages(nordlys_core::format::Locale::En)
}

const UNKNOWN: LearnedPermissions = LearnedPermissions {
    trading: None,
    withdrawal: None,
    receive: None,
};

/// Requests the sandbox received at order and withdrawal paths.
async fn money_requests(sb: &nordlys_sandbox::RunningSandbox) -> u64 {
    let counters = control_get(sb, "/sandbox/counters").await;
    counters["requests"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, _)| path.starts_with("/v1/orders") || *path == "/v1/withdrawals/bitcoin")
        .map(|(_, n)| n.as_u64().unwrap())
        .sum()
}

#[tokio::test]
async fn a_key_is_checked_with_one_read_and_its_permissions_learned_from_use() {
    let sb = sandbox().await;
    let store = Arc::new(MemorySecretStore::default());
    let c = open(&sb, store.clone());
    let keys = &sb.info.api_keys;
    let p = c
        .set_api_key(&keys.read.key, &keys.read.secret, UNKNOWN)
        .await
        .unwrap();
    assert_eq!(p, UNKNOWN, "nothing is sent to find out");
    assert!(store.get("p1", SecretItem::ApiKey).unwrap().is_some());
    assert_eq!(
        money_requests(&sb).await,
        0,
        "no order or withdrawal request"
    );

    // Used: the exchange's refusal teaches that this key may not trade.
    let refused = c
        .client()
        .cancel_order(&nordlys_exchange::ids::OrderId::new("or_nothing"))
        .await
        .unwrap_err();
    assert!(
        matches!(refused, nordlys_exchange::Error::Http { status: 403, .. }),
        "{refused}"
    );
    assert_eq!(c.permissions().trading, Some(false));
    assert_eq!(c.permissions().withdrawal, None);

    // What the user states is kept until use says otherwise; a new key forgets what was learned.
    let stated = LearnedPermissions {
        trading: Some(true),
        withdrawal: None,
        receive: None,
    };
    let p = c
        .set_api_key(&keys.trading.key, &keys.trading.secret, stated)
        .await
        .unwrap();
    assert_eq!(p, stated);
    assert_eq!(c.permissions(), stated);

    // Bad input never reaches the store.
    let bad = c
        .set_api_key("svc/public/unknown", &keys.read.secret, UNKNOWN)
        .await
        .unwrap_err();
    assert!(matches!(bad, ConnectError::KeyRejected(_)), "{bad}");
    assert!(matches!(
        c.set_api_key("nope", "svc/apisecret/AAAA", UNKNOWN).await,
        Err(ConnectError::Credential(_))
    ));
}

#[tokio::test]
async fn another_operator_s_header_names_and_key_prefixes_are_used_throughout() {
    let sb = sandbox_with(nordlys_sandbox::SandboxConfig {
        operator: Some("abc".into()),
        ..Default::default()
    })
    .await;
    let keys = &sb.info.api_keys;
    assert!(keys.withdrawal.key.starts_with("abc/public/"));
    assert!(keys.withdrawal.secret.starts_with("abc/apisecret/"));
    assert_eq!(sb.info.operator, "abc");

    let c = open_as(
        &sb,
        Arc::new(MemorySecretStore::default()),
        Operator::parse("abc").unwrap(),
    );
    c.set_api_key(&keys.withdrawal.key, &keys.withdrawal.secret, UNKNOWN)
        .await
        .unwrap();
    // A signed request carries x-abc-api-* headers, and the sandbox takes it.
    let placed = c
        .client()
        .create_order(&nordlys_exchange::models::NewOrderRequest {
            order_type: nordlys_exchange::models::OrderType::Market,
            direction: nordlys_exchange::models::Direction::Buy,
            amount: "1000".parse().unwrap(),
            account_id: None,
            description: String::new(),
            price: None,
        })
        .await;
    assert!(placed.is_ok(), "{placed:?}");
    assert_eq!(c.permissions().trading, Some(true));

    // The specification's own names are not this operator's.
    let svc = open(&sb, Arc::new(MemorySecretStore::default()));
    assert!(matches!(
        svc.set_api_key(&keys.read.key, &keys.read.secret, UNKNOWN)
            .await,
        Err(ConnectError::Credential(_))
    ));
}

#[tokio::test]
async fn oauth_connects_refreshes_and_disconnects() {
    let sb = sandbox().await;
    let store = Arc::new(MemorySecretStore::default());
    let c = open(&sb, store.clone());
    let client_id = sb.info.oauth_clients.public.client_id.clone();
    let scopes = Scope::KNOWN.to_vec();
    let granted = c
        .connect_oauth(
            &client_id,
            &scopes,
            browser("approve"),
            Duration::from_secs(10),
            pages(),
        )
        .await
        .unwrap();
    assert_eq!(granted.map(|g| g.len()), Some(5));
    c.client().bitcoin_accounts(false).await.unwrap();
    let first = store.get("p1", SecretItem::OAuthGrant).unwrap().unwrap();

    // Expired at the server: the app refreshes before use and stores the rotated token.
    control(
        &sb,
        "/sandbox/oauth/token-ttl",
        serde_json::json!({ "seconds": 30 }),
    )
    .await;
    let granted = c
        .connect_oauth(
            &client_id,
            &scopes,
            browser("approve"),
            Duration::from_secs(10),
            pages(),
        )
        .await
        .unwrap();
    assert_eq!(granted.map(|g| g.len()), Some(5));
    c.refresh_if_due().await.unwrap();
    let rotated = store.get("p1", SecretItem::OAuthGrant).unwrap().unwrap();
    assert_ne!(rotated, first);
    c.client().bitcoin_accounts(false).await.unwrap();

    let token: serde_json::Value = serde_json::from_str(&rotated).unwrap();
    let token = token["access"].as_str().unwrap().to_owned();
    c.disconnect().await.unwrap();
    assert!(store.get("p1", SecretItem::OAuthGrant).unwrap().is_none());
    assert!(store.get("p1", SecretItem::ApiKey).unwrap().is_none());
    let old = reqwest::Client::new()
        .get(format!("{}/v1/user/bitcoin-accounts", sb.base_url()))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(
        old.status().as_u16(),
        401,
        "the sandbox refuses the old token"
    );
}

#[tokio::test]
async fn deny_and_timeout_end_cleanly() {
    let sb = sandbox().await;
    let store = Arc::new(MemorySecretStore::default());
    let c = open(&sb, store.clone());
    let client_id = sb.info.oauth_clients.public.client_id.clone();
    let e = c
        .connect_oauth(
            &client_id,
            &[Scope::AccountsBitcoinRead],
            browser("deny"),
            Duration::from_secs(10),
            pages(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(e, ConnectError::Loopback(LoopbackError::Denied)),
        "{e}"
    );
    let e = c
        .connect_oauth(
            &client_id,
            &[Scope::AccountsBitcoinRead],
            |_| Ok(()),
            Duration::from_millis(300),
            pages(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(e, ConnectError::Loopback(LoopbackError::Timeout(_))),
        "{e}"
    );
    assert!(store.get("p1", SecretItem::OAuthGrant).unwrap().is_none());
    assert!(c.status().await.grant.is_none());
}

#[tokio::test]
async fn a_dead_refresh_token_asks_for_reconnect_once() {
    let sb = sandbox().await;
    let store = Arc::new(MemorySecretStore::default());
    let c = open(&sb, store.clone());
    let client_id = sb.info.oauth_clients.public.client_id.clone();
    control(
        &sb,
        "/sandbox/oauth/token-ttl",
        serde_json::json!({ "seconds": 30 }),
    )
    .await;
    c.connect_oauth(
        &client_id,
        &[Scope::AccountsBitcoinRead],
        browser("approve"),
        Duration::from_secs(10),
        pages(),
    )
    .await
    .unwrap();
    // Consent revoked elsewhere: the refresh fails, the grant goes, the profile says reconnect.
    let key = key_client(&sb, &sb.info.api_keys.read);
    key.revoke_consent(&client_id).await.unwrap();
    assert!(matches!(
        c.refresh_if_due().await,
        Err(ConnectError::Reconnect)
    ));
    assert!(c.status().await.needs_reconnect);
    assert!(store.get("p1", SecretItem::OAuthGrant).unwrap().is_none());
    c.refresh_if_due().await.unwrap();
}

/// Requests the sandbox received at `path`.
async fn requests_at(sb: &nordlys_sandbox::RunningSandbox, path: &str) -> u64 {
    control_get(sb, "/sandbox/counters").await["requests"][path]
        .as_u64()
        .unwrap_or(0)
}

#[tokio::test]
async fn narrow_grants_from_another_host_are_what_the_app_uses() {
    let sb = sandbox_with(nordlys_sandbox::SandboxConfig {
        oauth_port: Some(0),
        grants: nordlys_sandbox::GrantPolicy {
            scopes: Some(vec![nordlys_sandbox::READ_SCOPE.into()]),
            ..Default::default()
        },
        ..Default::default()
    })
    .await;
    assert_ne!(sb.info.oauth_base_url, sb.base_url());
    let c = open(&sb, Arc::new(MemorySecretStore::default()));
    let client_id = sb.info.oauth_clients.public.client_id.clone();
    let connect = |scopes: Vec<Scope>| {
        let c = &c;
        let client_id = client_id.clone();
        async move {
            c.connect_oauth(
                &client_id,
                &scopes,
                browser("approve"),
                Duration::from_secs(10),
                pages(),
            )
            .await
        }
    };

    // Asked for all five, granted one: the app uses what it got and says what the rest needs.
    let granted = connect(Scope::KNOWN.to_vec()).await.unwrap();
    assert_eq!(granted, Some(vec![nordlys_sandbox::READ_SCOPE.to_owned()]));
    c.client().bitcoin_accounts(false).await.unwrap();
    let tax = nordlys_exchange::Endpoint::TaxTransactions;
    assert!(matches!(
        c.client().reach(tax),
        Err(nordlys_exchange::auth::Refusal::MissingScope { .. })
    ));
    let before = requests_at(&sb, "/v1/tax/transactions").await;
    assert!(
        c.client()
            .tax_page(&nordlys_exchange::TaxQuery::new(10))
            .await
            .is_err()
    );
    assert_eq!(
        requests_at(&sb, "/v1/tax/transactions").await,
        before,
        "refused before sending"
    );

    // A token response without `scope`: unknown until used, and a 403 teaches it.
    control(
        &sb,
        "/sandbox/oauth/grants",
        serde_json::json!({ "omitScope": true }),
    )
    .await;
    assert_eq!(connect(Scope::KNOWN.to_vec()).await.unwrap(), None);
    assert_eq!(c.client().reach(tax), Ok(false), "not known until used");
    let refused = c
        .client()
        .tax_page(&nordlys_exchange::TaxQuery::new(10))
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("403"), "{refused}");
    assert!(c.client().reach(tax).is_err(), "the refusal was learned");
    let status = c.status().await.grant.unwrap();
    assert_eq!(status.scopes, None);
    assert_eq!(status.refused, vec![Scope::TaxTransactionsRead]);
    let sent = requests_at(&sb, "/v1/tax/transactions").await;
    assert!(
        c.client()
            .tax_page(&nordlys_exchange::TaxQuery::new(10))
            .await
            .is_err()
    );
    assert_eq!(requests_at(&sb, "/v1/tax/transactions").await, sent);

    // With a key beside the token, a refused token reads with the key in the same call.
    let key = &sb.info.api_keys.read;
    c.set_api_key(&key.key, &key.secret, UNKNOWN).await.unwrap();
    assert_eq!(connect(Scope::KNOWN.to_vec()).await.unwrap(), None);
    let sent = requests_at(&sb, "/v1/tax/transactions").await;
    c.client()
        .tax_page(&nordlys_exchange::TaxQuery::new(10))
        .await
        .unwrap();
    assert_eq!(
        requests_at(&sb, "/v1/tax/transactions").await,
        sent + 2,
        "the token, refused, then the key"
    );

    // `invalid_scope` instead of narrowing: refused, and asking for balances alone works.
    control(
        &sb,
        "/sandbox/oauth/grants",
        serde_json::json!({ "invalidScope": true, "omitScope": false }),
    )
    .await;
    assert!(matches!(
        connect(Scope::KNOWN.to_vec()).await,
        Err(ConnectError::Loopback(LoopbackError::InvalidScope(_)))
    ));
    assert_eq!(
        connect(vec![Scope::AccountsBitcoinRead]).await.unwrap(),
        Some(vec![nordlys_sandbox::READ_SCOPE.to_owned()])
    );
}

/// Connects `c` to `sb` with every scope, with tokens that are due for refresh at once.
async fn connected_due(c: &Connection, sb: &nordlys_sandbox::RunningSandbox) {
    connected_for(c, sb, 30).await;
}

/// Connects `c` to `sb` with every scope, with tokens that live `seconds`.
async fn connected_for(c: &Connection, sb: &nordlys_sandbox::RunningSandbox, seconds: i64) {
    control(
        sb,
        "/sandbox/oauth/token-ttl",
        serde_json::json!({ "seconds": seconds }),
    )
    .await;
    c.connect_oauth(
        &sb.info.oauth_clients.public.client_id,
        Scope::KNOWN,
        browser("approve"),
        Duration::from_secs(10),
        pages(),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn two_refreshes_at_once_make_one_and_the_grant_lives() {
    let sb = sandbox().await;
    let c = open(&sb, Arc::new(MemorySecretStore::default()));
    connected_due(&c, &sb).await;
    // The refreshed token lives an hour: whoever comes second finds it fresh.
    control(
        &sb,
        "/sandbox/oauth/token-ttl",
        serde_json::json!({ "seconds": 3600 }),
    )
    .await;
    let before = requests_at(&sb, "/oauth2/v0/token").await;
    let (a, b) = tokio::join!(c.refresh_if_due(), c.refresh_if_due());
    a.unwrap();
    b.unwrap();
    assert_eq!(
        requests_at(&sb, "/oauth2/v0/token").await,
        before + 1,
        "one refresh; the other caller found the grant fresh"
    );
    c.client().bitcoin_accounts(false).await.unwrap();
    assert!(!c.status().await.needs_reconnect);
}

#[tokio::test]
async fn a_refresh_answer_without_a_refresh_token_keeps_the_old_one() {
    let sb = sandbox().await;
    control(
        &sb,
        "/sandbox/oauth/grants",
        serde_json::json!({ "keepRefresh": true }),
    )
    .await;
    let c = open(&sb, Arc::new(MemorySecretStore::default()));
    connected_due(&c, &sb).await;
    // Still due after each (30 s tokens, refreshed a minute early): two refreshes in a row.
    c.refresh_if_due().await.unwrap();
    c.refresh_if_due().await.unwrap();
    c.client().bitcoin_accounts(false).await.unwrap();
    assert!(!c.status().await.needs_reconnect);
}

#[tokio::test]
async fn every_request_a_token_could_carry_refreshes_a_due_token_first() {
    let sb = sandbox().await;
    let store = Arc::new(MemorySecretStore::default());
    let c = open(&sb, store.clone());
    connected_due(&c, &sb).await;
    let first = store.get("p1", SecretItem::OAuthGrant).unwrap().unwrap();
    let before = requests_at(&sb, "/oauth2/v0/token").await;
    // Not balances, which refreshed by itself: a tax page, as a long sync asks for.
    c.client()
        .tax_page(&nordlys_exchange::TaxQuery::new(10))
        .await
        .unwrap();
    assert_eq!(requests_at(&sb, "/oauth2/v0/token").await, before + 1);
    let renewed = store.get("p1", SecretItem::OAuthGrant).unwrap().unwrap();
    assert_ne!(renewed, first, "the renewed grant is stored before use");
}

#[tokio::test]
async fn a_disconnect_refreshes_a_lapsed_token_so_that_it_can_revoke() {
    let sb = sandbox().await;
    let store = Arc::new(MemorySecretStore::default());
    let c = open(&sb, store.clone());
    connected_for(&c, &sb, 1).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let refresh: serde_json::Value =
        serde_json::from_str(&store.get("p1", SecretItem::OAuthGrant).unwrap().unwrap()).unwrap();
    c.disconnect().await.unwrap();
    assert!(store.get("p1", SecretItem::OAuthGrant).unwrap().is_none());
    // The consent is gone at the exchange: not even the old refresh token's family lives on.
    let answer = reqwest::Client::new()
        .post(format!("{}/oauth2/v0/token", sb.info.oauth_base_url))
        .form(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh["refresh"].as_str().unwrap()),
            ("client_id", sb.info.oauth_clients.public.client_id.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 400);
}

#[tokio::test]
async fn a_refused_refresh_drops_only_the_grant_it_refused() {
    let sb = sandbox().await;
    let store = Arc::new(MemorySecretStore::default());
    let c = open(&sb, store.clone());
    connected_due(&c, &sb).await;
    let client_id = sb.info.oauth_clients.public.client_id.clone();
    // Consent revoked elsewhere; the refresh that will be refused is slow to be answered...
    key_client(&sb, &sb.info.api_keys.read)
        .revoke_consent(&client_id)
        .await
        .unwrap();
    control(
        &sb,
        "/sandbox/faults",
        serde_json::json!({"path": "/oauth2/v0/token", "method": "POST", "kind": "delay",
                           "count": 1, "delayMs": 2000}),
    )
    .await;
    let refreshing = tokio::spawn({
        let c = Arc::clone(&c);
        async move { c.refresh_if_due().await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    // ...and meanwhile the user connects anew, with tokens that last.
    connected_for(&c, &sb, 3600).await;
    let _ = refreshing.await.unwrap();
    assert!(!c.status().await.needs_reconnect);
    assert!(store.get("p1", SecretItem::OAuthGrant).unwrap().is_some());
    c.client().bitcoin_accounts(false).await.unwrap();
}
