#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The `nordlys-sandbox` binary as other tools start it: its first line, and its OAuth switches.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the binary with `args` and returns it with its first line.
fn start(args: &[&str]) -> (Running, serde_json::Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nordlys-sandbox"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (Running(child), serde_json::from_str(&line).unwrap())
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn authorize(base: &str, scope: &str) -> reqwest::Response {
    http()
        .get(format!("{base}/oauth2/v0/authorize"))
        .query(&[
            ("response_type", "code"),
            ("client_id", "nordlys-partner"),
            ("redirect_uri", "http://127.0.0.1:1/callback"),
            ("scope", scope),
            ("state", "s1"),
        ])
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_first_line_keeps_its_keys_and_says_where_oauth_is() {
    let (_sb, info) = start(&["--oauth-scopes", "api:accounts:bitcoin:read"]);
    for key in [
        "baseUrl",
        "apiKeys",
        "oauthClients",
        "operator",
        "oauthBaseUrl",
        "controlToken",
    ] {
        assert!(info.get(key).is_some(), "{key} in {info}");
    }
    assert_eq!(info["oauthBaseUrl"], info["baseUrl"]);
    // Narrowed silently: the consent page lists only what will be granted.
    let page = authorize(
        info["baseUrl"].as_str().unwrap(),
        "api:accounts:bitcoin:read api:tax:transactions:read",
    )
    .await
    .text()
    .await
    .unwrap();
    assert!(
        page.contains("<code>api:accounts:bitcoin:read</code>"),
        "{page}"
    );
    assert!(!page.contains("api:tax:transactions:read"), "{page}");
}

#[tokio::test]
async fn oauth_on_its_own_port_is_not_on_the_api_s() {
    let (_sb, info) = start(&["--oauth-port", "0", "--oauth-invalid-scope"]);
    let api = info["baseUrl"].as_str().unwrap();
    let oauth = info["oauthBaseUrl"].as_str().unwrap();
    assert_ne!(api, oauth);
    assert_eq!(
        authorize(api, "api:accounts:bitcoin:read")
            .await
            .status()
            .as_u16(),
        404
    );
    let price = http()
        .get(format!("{oauth}/v1/price/nok"))
        .send()
        .await
        .unwrap();
    assert_eq!(price.status().as_u16(), 404);
    assert_eq!(
        authorize(oauth, "api:accounts:bitcoin:read")
            .await
            .status()
            .as_u16(),
        200
    );
    // More than it grants: refused with invalid_scope, back at the redirect URI.
    let refused = authorize(oauth, "api:accounts:bitcoin:read api:trades:read").await;
    assert_eq!(refused.status().as_u16(), 303);
    let location = refused.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.contains("error=invalid_scope"), "{location}");
}

#[test]
fn a_scope_that_does_not_exist_is_refused_at_start() {
    let out = Command::new(env!("CARGO_BIN_EXE_nordlys-sandbox"))
        .args(["--oauth-scopes", "api:everything"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("api:everything"), "{err}");
}

#[test]
fn a_latency_that_is_not_a_number_of_milliseconds_up_to_a_minute_is_refused_at_start() {
    for bad in ["-5", "60001", "20ms", ""] {
        let out = Command::new(env!("CARGO_BIN_EXE_nordlys-sandbox"))
            .arg(format!("--latency-ms={bad}"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--latency-ms"), "{bad:?}: {err}");
    }
}

#[tokio::test]
async fn pending_rows_is_a_switch_with_an_optional_value() {
    let (_sb, info) = start(&["--pending-rows"]);
    let base = info["baseUrl"].as_str().unwrap();
    let readings: serde_json::Value = http()
        .get(format!("{base}/sandbox/readings"))
        .header("x-sandbox-token", info["controlToken"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(readings["pendingRows"], 5);
    let (_sb, info) = start(&["--pending-rows", "30"]);
    let base = info["baseUrl"].as_str().unwrap();
    let readings: serde_json::Value = http()
        .get(format!("{base}/sandbox/readings"))
        .header("x-sandbox-token", info["controlToken"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(readings["pendingRows"], 30);
}

#[tokio::test]
async fn the_grants_control_takes_only_what_it_knows() {
    let (_sb, info) = start(&[]);
    let base = info["baseUrl"].as_str().unwrap();
    let token = info["controlToken"].as_str().unwrap().to_owned();
    let post = |body: &'static str| {
        let url = format!("{base}/sandbox/oauth/grants");
        let token = token.clone();
        async move {
            let r = http()
                .post(url)
                .header("x-sandbox-token", token)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    for bad in [
        r#"{"scopes": "api:everything"}"#,
        r#"{"scopes": ""}"#,
        r#"{"scopes": 3}"#,
        r#"{"invalidScope": "yes"}"#,
        r#"{"grantAll": true}"#,
        r#"[1, 2]"#,
        r#"{not json"#,
    ] {
        let (status, text) = post(bad).await;
        assert_eq!(status, 400, "{bad}: {text}");
    }
    let (status, text) =
        post(r#"{"scopes": "api:accounts:bitcoin:read", "omitScope": true}"#).await;
    assert_eq!(status, 200, "{text}");
    let now: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(now["scopes"], "api:accounts:bitcoin:read");
    assert_eq!(now["omitScope"], true);
    assert_eq!(now["invalidScope"], false);
    // Nothing half-applied by a refused change.
    let (status, _) = post(r#"{"invalidScope": true, "scopes": "nope"}"#).await;
    assert_eq!(status, 400);
    let (_, text) = post("{}").await;
    let now: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(now["invalidScope"], false);
}

#[tokio::test]
async fn a_web_page_cannot_drive_the_world() {
    let (_sb, info) = start(&[]);
    let base = info["baseUrl"].as_str().unwrap();
    let token = info["controlToken"].as_str().unwrap();
    assert_eq!(token.len(), 32, "128 random bits, as hex");
    let (_other, again) = start(&[]);
    assert_ne!(again["controlToken"], info["controlToken"]);
    let status = |r: reqwest::Response| r.status().as_u16();
    // A form post from any site: no token, a simple content type.
    let form = http()
        .post(format!("{base}/sandbox/fiat-deposits"))
        .header("content-type", "text/plain")
        .body(r#"{"amountNok": "1000000"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(status(form), 403);
    let reading = http()
        .get(format!("{base}/sandbox/counters"))
        .send()
        .await
        .unwrap();
    assert_eq!(status(reading), 403);
    let wrong = http()
        .get(format!("{base}/sandbox/counters"))
        .header("x-sandbox-token", "0".repeat(32))
        .send()
        .await
        .unwrap();
    assert_eq!(status(wrong), 403);
    // The token, but not JSON: refused as well.
    let plain = http()
        .post(format!("{base}/sandbox/fiat-deposits"))
        .header("x-sandbox-token", token)
        .header("content-type", "text/plain")
        .body(r#"{"amountNok": "1000000"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(status(plain), 415);
    let bare = http()
        .delete(format!("{base}/sandbox/faults"))
        .header("x-sandbox-token", token)
        .send()
        .await
        .unwrap();
    assert_eq!(status(bare), 415);
    // As tests and tools send it: taken.
    let ok = http()
        .post(format!("{base}/sandbox/fiat-deposits"))
        .header("x-sandbox-token", token)
        .json(&serde_json::json!({"amountNok": 1000}))
        .send()
        .await
        .unwrap();
    assert_eq!(status(ok), 200);
    // The exchange's own API is as ever.
    let price = http()
        .get(format!("{base}/v1/price/nok"))
        .send()
        .await
        .unwrap();
    assert_eq!(status(price), 200);
}
