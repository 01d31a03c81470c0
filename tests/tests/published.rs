//! The sandbox as the exchange publishes itself: every endpoint's answer, as sent, validated
//! against the operator's published OpenAPI document (`shared/spec/published/openapi.yaml`, by
//! `tests/openapi/validate.py` with the `jsonschema` library), and decoded by the client's models
//! under every `--empty-style`: fields left out (the default, as a proto3-JSON service writes
//! them), written with `""` for an unset time, or with `null`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]

use std::path::PathBuf;

use nordlys_exchange::models::*;
use nordlys_sandbox::world::{EmptyStyle, Readings};
use nordlys_sandbox::{KeyInfo, RunningSandbox, SandboxConfig};
use nordlys_tests::*;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// One answer as a client received it.
#[derive(Debug, serde::Serialize)]
struct Answer {
    method: &'static str,
    path: String,
    status: u16,
    body: Value,
}

/// Calls endpoints with an API key as the specification says (5.1, 5.2), keeping each answer
/// exactly as it came.
struct Raw<'a> {
    sandbox: &'a RunningSandbox,
    http: reqwest::Client,
    nonce: u64,
    answers: Vec<Answer>,
}

impl<'a> Raw<'a> {
    fn new(sandbox: &'a RunningSandbox) -> Self {
        let now_ms = u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap();
        Self {
            sandbox,
            http: reqwest::Client::new(),
            nonce: now_ms,
            answers: vec![],
        }
    }

    /// `method path` with `key`, signed when `body` is given or the method is DELETE; the
    /// answer's JSON (`{}` for an empty body).
    async fn call(
        &mut self,
        method: &'static str,
        path_and_query: &str,
        key: Option<&KeyInfo>,
        body: Option<Value>,
    ) -> Value {
        let url = format!("{}{path_and_query}", self.sandbox.base_url());
        let mut req = self
            .http
            .request(method.parse().unwrap(), &url)
            .header("content-type", "application/json");
        let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
        if let Some(key) = key {
            req = req.header("x-svc-api-key", &key.key);
            if method != "GET" {
                self.nonce += 1;
                let secret =
                    nordlys_exchange::ApiSecret::from_complete_secret(&key.secret).unwrap();
                let path = path_and_query.split('?').next().unwrap();
                let signed = nordlys_exchange::signing::sign(
                    secret.hmac_key(),
                    self.nonce,
                    method,
                    path,
                    &bytes,
                );
                req = req
                    .header("x-svc-api-nonce", signed.nonce.to_string())
                    .header("x-svc-api-hmac", signed.signature);
            }
        }
        let response = req.body(bytes).send().await.unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        assert_eq!(status, 200, "{method} {path_and_query}: {text}");
        let body: Value = if text.trim().is_empty() {
            json!({})
        } else {
            serde_json::from_str(&text).unwrap()
        };
        self.answers.push(Answer {
            method,
            path: path_and_query.split('?').next().unwrap().to_owned(),
            status,
            body: body.clone(),
        });
        body
    }
}

/// `body` decoded by the client's model for its endpoint, or the test fails naming both.
fn decodes<T: DeserializeOwned>(what: &str, style: EmptyStyle, body: &Value) -> T {
    serde_json::from_value(body.clone())
        .unwrap_or_else(|e| panic!("{what} under {style:?} does not decode: {e}\n{body}"))
}

/// Every endpoint once (the tax list twice: a full page and the last), each answer decoded.
async fn every_answer(style: EmptyStyle) -> Vec<Answer> {
    let sb = sandbox_with(SandboxConfig {
        readings: Readings {
            empty_style: style,
            ..Readings::default()
        },
        ..SandboxConfig::default()
    })
    .await;
    let keys = sb.info.api_keys.clone();
    let client_id = sb.info.oauth_clients.public.client_id.clone();
    let mut raw = Raw::new(&sb);
    let s = style;

    let _: DepositDestinationsResponse = decodes(
        "1",
        s,
        &raw.call(
            "GET",
            "/v1/deposit-destinations/bitcoin",
            Some(&keys.read),
            None,
        )
        .await,
    );
    let invoice: NewLightningInvoiceResponse = decodes(
        "2",
        s,
        &raw.call(
            "POST",
            "/v1/deposit-destinations/bitcoin/invoice",
            Some(&keys.read),
            Some(json!({ "currency": "CURRENCY_BTC", "amount": 0.0001 })),
        )
        .await,
    );
    let path = format!(
        "/v1/deposit-destinations/bitcoin/invoice/{}",
        invoice.deposit_destination_id
    );
    let _: GetLightningInvoiceResponse = decodes(
        "3",
        s,
        &raw.call("GET", &path, Some(&keys.read), None).await,
    );
    // No open orders yet: under the default style the answer is `{}`.
    let none: OpenOrdersResponse = decodes(
        "4",
        s,
        &raw.call("GET", "/v1/orders", Some(&keys.read), None).await,
    );
    assert!(none.orders.is_empty());
    let price: PriceResponse = decodes("7", s, &raw.call("GET", "/v1/price/nok", None, None).await);
    let low = (price.bid.decimal() / rust_decimal::Decimal::TWO).round_dp(0);
    let placed: NewOrderResponse = decodes(
        "5",
        s,
        &raw.call(
            "POST",
            "/v1/orders",
            Some(&keys.trading),
            Some(json!({
                "type": "ORDER_TYPE_LIMIT", "direction": "DIRECTION_BUY",
                "amount": 1000, "price": low.to_string().parse::<f64>().unwrap()
            })),
        )
        .await,
    );
    assert_eq!(placed.trade_id, None, "a resting limit order has no trade");
    let open: OpenOrdersResponse = decodes(
        "4",
        s,
        &raw.call("GET", "/v1/orders", Some(&keys.read), None).await,
    );
    assert_eq!(open.orders.len(), 1);
    let path = format!("/v1/orders/{}", placed.order_id);
    raw.call("DELETE", &path, Some(&keys.trading), None).await;
    let _: VolumeResponse = decodes("8", s, &raw.call("GET", "/v1/volume", None, None).await);
    let _: VolumeHistoricResponse = decodes(
        "9",
        s,
        &raw.call("GET", "/v1/volume/historic", None, None).await,
    );
    let accounts: ListBitcoinAccountsResponse = decodes(
        "10",
        s,
        &raw.call(
            "GET",
            "/v1/user/bitcoin-accounts?includeDeleted=true",
            Some(&keys.read),
            None,
        )
        .await,
    );
    assert_eq!(
        accounts.accounts.iter().filter(|a| a.is_deleted()).count(),
        1
    );
    let _: GetFiatAccountResponse = decodes(
        "11",
        s,
        &raw.call("GET", "/v1/user/fiat-account", Some(&keys.read), None)
            .await,
    );
    let path = format!("/v1/user/applications/consent/{client_id}");
    raw.call("DELETE", &path, Some(&keys.read), None).await;
    let tax: GetTaxBalanceResponse = decodes(
        "13",
        s,
        &raw.call(
            "GET",
            "/v1/tax/balance?includeDeleted=true",
            Some(&keys.read),
            None,
        )
        .await,
    );
    assert_eq!(tax.bitcoin_accounts.len(), 3);
    let page: ListTaxTransactionsResponse = decodes(
        "14",
        s,
        &raw.call(
            "GET",
            "/v1/tax/transactions?pageSize=200",
            Some(&keys.read),
            None,
        )
        .await,
    );
    assert!(page.has_more);
    let last = page.transactions.last().unwrap();
    let path = format!(
        "/v1/tax/transactions?pageSize=0&after={}&afterId={}",
        nordlys_exchange::wire::format_time(&last.create_time),
        last.id
    );
    // The last page: `hasMore` false, so left out under the default style.
    let rest: ListTaxTransactionsResponse = decodes(
        "14",
        s,
        &raw.call("GET", &path, Some(&keys.read), None).await,
    );
    assert!(!rest.has_more);
    let sent: SendBitcoinResponse = decodes(
        "15",
        s,
        &raw.call(
            "POST",
            "/v1/withdrawals/bitcoin",
            Some(&keys.withdrawal),
            Some(json!({
                "destination": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                "amountBtc": 0.001,
                "tfrInfo": { "fullName": "Kari Nordmann", "address": "Storgata 1, Oslo", "selfCustody": true }
            })),
        )
        .await,
    );
    let path = format!("/v1/withdrawals/bitcoin/{}", sent.withdrawal_id);
    // Pending: `sentAt` is unset.
    let status: GetBitcoinWithdrawalResponse = decodes(
        "16",
        s,
        &raw.call("GET", &path, Some(&keys.read), None).await,
    );
    assert_eq!(status.sent_at, None);
    raw.answers
}

fn shared(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(path)
}

#[tokio::test]
async fn every_answer_validates_against_the_published_openapi_document() {
    let answers = every_answer(EmptyStyle::Omit).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("answers.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&answers).unwrap()).unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openapi/validate.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(shared("spec/published/openapi.yaml"))
        .arg(&file)
        // Published after the document (`shared/spec/notes.md`): reported, not failed.
        .args([
            "TAX_TRANSACTION_TYPE_BTC_ADJUSTMENT",
            "TAX_TRANSACTION_TYPE_FIAT_ADJUSTMENT",
        ])
        .output()
        .expect("python3 runs tests/openapi/validate.py (./scripts/deps installs its packages)");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "answers break the published schema:\n{report}"
    );
    assert!(report.contains(&format!("{} answers checked, 0 failed", answers.len() - 1)));
}

#[tokio::test]
async fn every_answer_decodes_when_unset_times_are_empty_strings() {
    every_answer(EmptyStyle::String).await;
}

#[tokio::test]
async fn every_answer_decodes_when_unset_times_are_null() {
    every_answer(EmptyStyle::Null).await;
}

/// The schema check itself: an unset time written `""` breaks the document's `date-time`.
#[test]
fn the_validator_refuses_an_empty_string_as_a_date_time() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("answers.json");
    let answers = json!([{
        "method": "GET", "path": "/v1/user/bitcoin-accounts", "status": 200,
        "body": { "accounts": [{ "id": "acc_1", "createTime": "2026-01-01T00:00:00Z", "deleteTime": "" }] }
    }]);
    std::fs::write(&file, answers.to_string()).unwrap();
    let out = std::process::Command::new("python3")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openapi/validate.py"))
        .arg(shared("spec/published/openapi.yaml"))
        .arg(&file)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{report}");
    assert!(report.contains("accounts/0/deleteTime"), "{report}");
}
