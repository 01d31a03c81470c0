//! Drives the app's own command handler, the one the window calls, on Tauri's mock runtime: a
//! connected app, one command at a time as the UI sends it, and lanes of mixed operations as
//! users' clicks. Shared by the fault soak, its readings matrix and the Pay window's tests.
#![allow(
    dead_code,
    reason = "each test file that includes this module uses part of it"
)]

use std::sync::Arc;
use std::time::Duration;

use nordlys_core::format::Locale;
use nordlys_core::secrets::MemorySecretStore;
use nordlys_sandbox::world::rng::Rng;
use serde_json::{Value, json};
use tauri::WebviewWindow;
use tauri::test::{INVOKE_KEY, MockRuntime, mock_builder, mock_context, noop_assets};
use tauri::webview::InvokeRequest;

/// Operations run side by side.
pub const LANES: usize = 8;

/// Calls one command as the UI does (`invoke(cmd, { args })`), waiting at most `limit`.
pub async fn call(
    window: &WebviewWindow<MockRuntime>,
    cmd: &str,
    args: Value,
) -> Result<Value, String> {
    let window = window.clone();
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: tauri::ipc::CallbackFn(0),
        error: tauri::ipc::CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: tauri::ipc::InvokeBody::Json(json!({ "args": args })),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    let answer = tokio::time::timeout(
        Duration::from_secs(90),
        tokio::task::spawn_blocking(move || tauri::test::get_ipc_response(&window, request)),
    )
    .await
    .unwrap_or_else(|_| panic!("`{cmd}` did not answer within 90 s"))
    .unwrap();
    match answer {
        Ok(body) => Ok(body.deserialize::<Value>().unwrap()),
        Err(e) => Err(e.to_string()),
    }
}

/// What an operation ended as, as the user saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ended {
    Done,
    Failed,
    /// The answer was lost; the app said so and resolved it from the account.
    Reconciled,
    /// The answer was lost and the app could not tell yet; resolved at the end.
    UnknownForNow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    MarketBuy,
    MarketSell,
    LimitBuy,
    Cancel,
    Invoice,
    Withdrawal,
    Read,
}

/// One lane of operations, in order, as one user's clicks; `LANES` run side by side.
pub async fn lane(
    window: WebviewWindow<MockRuntime>,
    lane: usize,
    count: usize,
    price: rust_decimal::Decimal,
) -> Vec<(Operation, Ended)> {
    let mut rng = Rng::new(1000 + lane as u64);
    let mut ended = Vec::with_capacity(count);
    for i in 0..count {
        // Distinct amounts, so the app's reconciliation can be checked order by order.
        let n = lane * count + i;
        let op = match rng.below(20) {
            0..=2 => Operation::MarketBuy,
            3..=4 => Operation::MarketSell,
            5..=6 => Operation::LimitBuy,
            7 => Operation::Cancel,
            8..=9 => Operation::Invoice,
            10..=12 => Operation::Withdrawal,
            _ => Operation::Read,
        };
        let result = match op {
            Operation::MarketBuy => {
                order(&window, "market", "buy", format!("{}", 100 + n), None).await
            }
            Operation::MarketSell => {
                order(&window, "market", "sell", format!("0.0001{n:04}"), None).await
            }
            Operation::LimitBuy => {
                let p = (price * rust_decimal::Decimal::new(8, 1)).round_dp(2);
                order(
                    &window,
                    "limit",
                    "buy",
                    format!("{}", 100 + n),
                    Some(p.to_string()),
                )
                .await
            }
            Operation::Cancel => cancel(&window).await,
            Operation::Invoice => call(
                &window,
                "create_invoice",
                json!({"accountId": null, "amount": format!("0.0000{n:04}"), "unit": "btc",
                       "publicDescription": "soak", "privateNote": ""}),
            )
            .await
            .map(|_| Ended::Done)
            .or(Ok(Ended::Failed)),
            Operation::Withdrawal => withdrawal(&window, n, rng.chance(50)).await,
            Operation::Read => {
                let cmd = [
                    "balances",
                    "open_orders",
                    "payments",
                    "recent_invoices",
                    "trade_history",
                    "resolve_orders",
                ][rng.below(6) as usize];
                call(&window, cmd, json!({}))
                    .await
                    .map(|_| Ended::Done)
                    .or(Ok(Ended::Failed))
            }
        };
        ended.push((op, result.unwrap_or_else(|e: String| panic!("{e}"))));
    }
    ended
}

async fn order(
    window: &WebviewWindow<MockRuntime>,
    order_type: &str,
    direction: &str,
    amount: String,
    price: Option<String>,
) -> Result<Ended, String> {
    let args = json!({"orderType": order_type, "direction": direction, "amount": amount,
                      "price": price, "accountId": null});
    Ok(match call(window, "place_order", args).await {
        Err(_) => Ended::Failed,
        Ok(v) => match v["outcome"].as_str() {
            Some("placed") => Ended::Done,
            Some("notPlaced") => Ended::Reconciled,
            Some("unknown") => Ended::UnknownForNow,
            other => return Err(format!("place_order said {other:?}: {v}")),
        },
    })
}

async fn cancel(window: &WebviewWindow<MockRuntime>) -> Result<Ended, String> {
    let Ok(open) = call(window, "open_orders", json!({})).await else {
        return Ok(Ended::Failed);
    };
    let Some(id) = open["orders"][0]["orderId"].as_str() else {
        return Ok(Ended::Done);
    };
    Ok(
        match call(window, "cancel_order", json!({"orderId": id})).await {
            Ok(_) => Ended::Done,
            Err(_) => Ended::Failed,
        },
    )
}

async fn withdrawal(
    window: &WebviewWindow<MockRuntime>,
    n: usize,
    onchain: bool,
) -> Result<Ended, String> {
    let (destination, amount) = if onchain {
        (
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            format!("0.0001{n:04}"),
        )
    } else {
        ("kari@example.com", format!("0.0000{n:04}"))
    };
    let args = json!({
        "destination": destination, "amount": amount, "unit": "btc", "accountId": null,
        "isPayment": true, "description": "soak",
        "recipient": {"fullName": "Kari Nordmann", "country": "NO", "address": "Storgata 1, Oslo",
                      "nin": "", "organisation": false, "exchange": "", "selfCustody": true},
        "saveRecipient": false, "label": ""
    });
    // Reviewed first, as in the window: a payment is sent only with its check's fingerprint.
    let Ok(check) = call(window, "check_payment", args.clone()).await else {
        return Ok(Ended::Failed);
    };
    let mut args = args;
    args["reviewed"] = check["reviewed"].clone();
    Ok(match call(window, "send_payment", args).await {
        Err(_) => Ended::Failed,
        Ok(v) => match v["payment"]["state"].as_str() {
            Some("sent") => Ended::Done,
            Some("notSent") => Ended::Reconciled,
            Some("unknown" | "sending") => Ended::UnknownForNow,
            other => return Err(format!("send_payment said {other:?}: {v}")),
        },
    })
}

/// The app on Tauri's mock runtime as it first starts (the sandbox profile active), with its data
/// in a temporary dir and its secrets in `secrets`.
pub fn app_with(
    secrets: Arc<dyn nordlys_core::secrets::SecretStore>,
) -> (
    tauri::App<MockRuntime>,
    WebviewWindow<MockRuntime>,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app_in(dir.path(), secrets);
    (app, window, dir)
}

/// The app started again on the data in `dir`, as after a restart.
pub fn app_in(
    dir: &std::path::Path,
    secrets: Arc<dyn nordlys_core::secrets::SecretStore>,
) -> (tauri::App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let app = mock_builder()
        .invoke_handler(nordlys_app::handler())
        .build(mock_context(noop_assets()))
        .unwrap();
    nordlys_app::manage_state(
        app.handle(),
        dir.to_path_buf(),
        secrets,
        Locale::En,
        nordlys_core::time::OSLO,
    );
    let window = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    (app, window)
}

/// The app on Tauri's mock runtime, with its data in a temporary dir and its secrets in memory,
/// connected as a user would: an exchange profile, then an API key that may trade and withdraw.
/// `shorten` sets the quiet period and request timeout (seconds) first, as debug builds allow.
pub async fn connected_app(
    sb: &nordlys_sandbox::RunningSandbox,
    shorten: Option<(chrono::Duration, u64)>,
) -> (
    tauri::App<MockRuntime>,
    WebviewWindow<MockRuntime>,
    tempfile::TempDir,
) {
    let (app, window, dir) = app_with(Arc::new(MemorySecretStore::default()));
    if let Some((quiet, timeout)) = shorten {
        nordlys_app::shorten_timing(app.handle(), quiet, timeout);
    }
    let key = &sb.info.api_keys.withdrawal;
    save_exchange_profile(&window, sb.base_url()).await;
    call(&window, "switch_profile", json!({"id": "exchange"}))
        .await
        .unwrap();
    call(
        &window,
        "set_api_key",
        json!({"key": key.key, "secret": key.secret}),
    )
    .await
    .unwrap();
    (app, window, dir)
}

/// Saves the exchange profile at `base_url`, as the settings form does, and returns the app view.
pub async fn save_exchange_profile(window: &WebviewWindow<MockRuntime>, base_url: &str) -> Value {
    call(
        window,
        "save_exchange_profile",
        json!({"baseUrl": base_url, "clientId": "nordlys-soak"}),
    )
    .await
    .unwrap()
}

/// Syncs the tax history as the Sync button does, and waits until it is complete.
pub async fn tax_synced(window: &WebviewWindow<MockRuntime>) {
    call(window, "start_tax_sync", json!({})).await.unwrap();
    for _ in 0..600 {
        let status = call(window, "tax_sync_status", json!({})).await.unwrap();
        match status["state"].as_str() {
            Some("running") => tokio::time::sleep(Duration::from_millis(50)).await,
            Some("complete") => return,
            other => panic!("the sync ended {other:?}: {status}"),
        }
    }
    panic!("the sync did not end");
}

/// One block of the tax list, unfiltered: `total` comes with the block at offset 0.
pub async fn tax_rows(window: &WebviewWindow<MockRuntime>, offset: u64, limit: u64) -> Value {
    let filter =
        json!({"year": null, "accountId": null, "txType": null, "subType": null, "search": ""});
    call(
        window,
        "tax_rows",
        json!({"filter": filter, "offset": offset, "limit": limit}),
    )
    .await
    .unwrap()
}
