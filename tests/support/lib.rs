//! Shared set-up for the cross-crate tests: a sandbox on a free loopback port and clients for it.
#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "test support: a broken set-up must stop the test loudly"
)]

use std::sync::Arc;

use nordlys_exchange::credentials::{BearerCredentials, KeyCredentials};
use nordlys_exchange::{
    ApiKey, ApiSecret, BaseUrl, ClientConfig, Credentials, ExchangeClient, NonceSource,
};
use nordlys_sandbox::{KeyInfo, RunningSandbox, SandboxConfig};

pub async fn sandbox() -> RunningSandbox {
    sandbox_with(SandboxConfig {
        seed: 7,
        ..SandboxConfig::default()
    })
    .await
}

pub async fn sandbox_with(config: SandboxConfig) -> RunningSandbox {
    match nordlys_sandbox::start(config).await {
        Ok(s) => s,
        Err(e) => panic!("sandbox did not start: {e}"),
    }
}

/// The seeded sandbox (a user with two funded accounts) whose `runningBalanceBtc` holds
/// `reading`: one account's balance or the user's total. A figure must not depend on which.
pub async fn sandbox_reading(reading: nordlys_sandbox::world::RunningBalance) -> RunningSandbox {
    sandbox_with(SandboxConfig {
        readings: nordlys_sandbox::world::Readings {
            running_balance: reading,
            ..Default::default()
        },
        ..SandboxConfig::default()
    })
    .await
}

/// A sandbox whose history holds `transactions` more rows before its seeded past (an even
/// number, at most `MAX_BUSY_PAST`): the long histories of the benchmarks.
pub async fn sandbox_with_history(transactions: u64) -> RunningSandbox {
    let sandbox = sandbox_with(SandboxConfig {
        seed: 11,
        ..SandboxConfig::default()
    })
    .await;
    control(
        &sandbox,
        "/sandbox/history",
        serde_json::json!({ "transactions": transactions }),
    )
    .await;
    sandbox
}

pub fn key(info: &KeyInfo) -> KeyCredentials {
    KeyCredentials {
        key: ApiKey::parse(&info.key, &nordlys_exchange::Operator::default()).expect("sandbox key"),
        secret: Some(
            ApiSecret::parse(&info.secret, &nordlys_exchange::Operator::default())
                .expect("sandbox secret"),
        ),
        permissions: None,
    }
}

pub fn client(sandbox: &RunningSandbox, credentials: Credentials) -> ExchangeClient {
    let mut config = ClientConfig::new(BaseUrl::parse(sandbox.base_url()).expect("base url"));
    config.credentials = credentials;
    ExchangeClient::new(config).expect("client")
}

pub fn client_with_nonces(
    sandbox: &RunningSandbox,
    credentials: Credentials,
    nonces: Arc<NonceSource>,
    sign_reads: bool,
) -> ExchangeClient {
    let mut config = ClientConfig::new(BaseUrl::parse(sandbox.base_url()).expect("base url"));
    config.credentials = credentials;
    config.nonces = Some(nonces);
    config.sign_reads = sign_reads;
    ExchangeClient::new(config).expect("client")
}

pub fn key_client(sandbox: &RunningSandbox, info: &KeyInfo) -> ExchangeClient {
    client(
        sandbox,
        Credentials {
            key: Some(key(info)),
            bearer: None,
        },
    )
}

pub fn bearer(token: nordlys_exchange::oauth::TokenSet) -> Credentials {
    let b: BearerCredentials = token.bearer();
    Credentials {
        key: None,
        bearer: Some(b),
    }
}

/// Calls world control: `POST /sandbox/...` with a JSON body.
pub async fn control(
    sandbox: &RunningSandbox,
    path: &str,
    body: serde_json::Value,
) -> serde_json::Value {
    let response = reqwest::Client::new()
        .post(format!("{}{path}", sandbox.base_url()))
        .header("x-sandbox-token", &sandbox.info.control_token)
        .json(&body)
        .send()
        .await
        .expect("control request");
    response.json().await.expect("control answer")
}

pub async fn control_get(sandbox: &RunningSandbox, path: &str) -> serde_json::Value {
    reqwest::Client::new()
        .get(format!("{}{path}", sandbox.base_url()))
        .header("x-sandbox-token", &sandbox.info.control_token)
        .send()
        .await
        .expect("control request")
        .json()
        .await
        .expect("json")
}

/// Plays the user on the sandbox's consent page at `url`: checks the page lists the scopes,
/// presses `decision` (`approve` or `deny`), and returns where the sandbox sends the browser next
/// (at once when the request is refused before any page is shown).
pub async fn consent(url: &str, decision: &str) -> url::Url {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("http");
    let first = http.get(url).send().await.expect("consent page");
    // Refused before any page (`invalid_scope`): the browser goes straight back to the app.
    if first.status().is_redirection() {
        let location = first.headers()["location"].to_str().expect("location");
        return url::Url::parse(location).expect("redirect URL");
    }
    let page = first.text().await.expect("consent page text");
    assert!(
        page.contains("<ul id=\"scopes\"><li>"),
        "the consent page lists the scopes"
    );
    let consent = page
        .split("name=\"consent\" value=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("consent id");
    let mut post = url::Url::parse(url).expect("authorize URL");
    post.set_query(None);
    let answer = http
        .post(post)
        .form(&[("consent", consent), ("decision", decision)])
        .send()
        .await
        .expect("decision");
    assert_eq!(answer.status().as_u16(), 303);
    let location = answer.headers()["location"]
        .to_str()
        .expect("location")
        .to_owned();
    url::Url::parse(&location).expect("redirect URL")
}

/// The whole browser: consent, then follow the redirect to the app's loopback listener.
pub async fn play_browser(url: &str, decision: &str) {
    let next = consent(url, decision).await;
    let _ = reqwest::get(next).await;
}

/// A market buy of `nok` NOK from the default account: a trade, so a tax row.
pub async fn market_buy(client: &ExchangeClient, nok: i64) {
    client
        .create_order(&nordlys_exchange::models::NewOrderRequest {
            order_type: nordlys_exchange::models::OrderType::Market,
            direction: nordlys_exchange::models::Direction::Buy,
            amount: rust_decimal::Decimal::from(nok),
            account_id: None,
            description: String::new(),
            price: None,
        })
        .await
        .expect("market buy");
}

/// A size or seed a long run sets in the environment; `default` for the tests' short form.
pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The `[nordlys …]` reference a journaled request carries in its description.
pub fn reference(text: &str) -> Option<&str> {
    let start = text.find("[nordlys ")?;
    let end = start + text[start..].find(']')?;
    Some(&text[start..=end])
}

/// A raw connection to `profile`'s encrypted store at `path`, keyed from `secrets`: for tests that
/// read the store's tables beside the app's own connection.
pub fn keyed_connection(
    path: &std::path::Path,
    secrets: &dyn nordlys_core::platform::secrets::SecretStore,
    profile: &str,
) -> Option<rusqlite::Connection> {
    let key = nordlys_core::store::StoreKey::read(secrets, profile).ok()??;
    let db = rusqlite::Connection::open(path).ok()?;
    db.execute_batch(&format!("PRAGMA key = \"x'{}'\";", key.to_hex().as_str()))
        .ok()?;
    Some(db)
}
