#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! A profile's connection against the sandbox: key entry with learned permissions, OAuth through
//! a played browser, deny and timeout, refresh, disconnect.

use std::sync::Arc;
use std::time::Duration;

use nordlys_core::connection::{ConnectError, Connection};
use nordlys_core::loopback::LoopbackError;
use nordlys_core::secrets::{MemorySecretStore, SecretItem, SecretStore};
use nordlys_exchange::models::Scope;
use nordlys_exchange::nonce::SystemClock;
use nordlys_exchange::{BaseUrl, NonceSource};
use nordlys_tests::*;

fn open(sb: &nordlys_sandbox::RunningSandbox, store: Arc<MemorySecretStore>) -> Connection {
    Connection::open(
        "p1",
        BaseUrl::parse(sb.base_url()).unwrap(),
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

#[tokio::test]
async fn keys_are_checked_and_their_permissions_learned() {
    let sb = sandbox().await;
    let store = Arc::new(MemorySecretStore::default());
    let c = open(&sb, store.clone());
    let keys = &sb.info.api_keys;
    let p = c
        .set_api_key(&keys.read.key, &keys.read.secret)
        .await
        .unwrap();
    assert_eq!((p.trading, p.withdrawal), (Some(false), Some(false)));
    assert!(store.get("p1", SecretItem::ApiKey).unwrap().is_some());
    let p = c
        .set_api_key(&keys.trading.key, &keys.trading.secret)
        .await
        .unwrap();
    assert_eq!((p.trading, p.withdrawal), (Some(true), Some(false)));
    let p = c
        .set_api_key(&keys.withdrawal.key, &keys.withdrawal.secret)
        .await
        .unwrap();
    assert_eq!((p.trading, p.withdrawal), (Some(true), Some(true)));
    assert_eq!(
        control_get(&sb, "/sandbox/counters").await["withdrawalsCreated"],
        0,
        "probing moved no money"
    );
    // Bad input never reaches the store.
    let bad = c
        .set_api_key("svc/public/unknown", &keys.read.secret)
        .await
        .unwrap_err();
    assert!(matches!(bad, ConnectError::KeyRejected(_)), "{bad}");
    assert!(matches!(
        c.set_api_key("nope", "svc/apisecret/AAAA").await,
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
        )
        .await
        .unwrap();
    assert_eq!(granted.len(), 5);
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
        )
        .await
        .unwrap();
    assert_eq!(granted.len(), 5);
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
        )
        .await
        .unwrap_err();
    assert!(
        matches!(e, ConnectError::Loopback(LoopbackError::Timeout(_))),
        "{e}"
    );
    assert!(store.get("p1", SecretItem::OAuthGrant).unwrap().is_none());
    assert!(c.status().await.oauth_scopes.is_none());
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
