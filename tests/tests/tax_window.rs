#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The tax screen through the app's own command handler, against an exchange that lists new rows
//! as pending: the row says so, and the year's figures say they cannot be computed yet.

mod app_driver;

use std::time::Duration;

use app_driver::{call, connected_app};
use nordlys_tests::*;
use serde_json::{Value, json};

async fn synced(window: &tauri::WebviewWindow<tauri::test::MockRuntime>) {
    call(window, "start_tax_sync", json!({})).await.unwrap();
    for _ in 0..200 {
        let status = call(window, "tax_sync_status", json!({})).await.unwrap();
        match status["state"].as_str() {
            Some("running") => tokio::time::sleep(Duration::from_millis(50)).await,
            Some("complete") => return,
            other => panic!("the sync ended {other:?}: {status}"),
        }
    }
    panic!("the sync did not end");
}

async fn newest_row(window: &tauri::WebviewWindow<tauri::test::MockRuntime>) -> Value {
    let filter =
        json!({"year": null, "accountId": null, "txType": null, "subType": null, "search": ""});
    let first = call(
        window,
        "tax_rows",
        json!({"filter": filter, "offset": 0, "limit": 1}),
    )
    .await
    .unwrap();
    let total = first["total"].as_u64().unwrap();
    let last = call(
        window,
        "tax_rows",
        json!({"filter": filter, "offset": total - 1, "limit": 1}),
    )
    .await
    .unwrap();
    last["rows"][0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_row_has_its_badge_and_leaves_its_year_not_computable_until_final() {
    let sb = sandbox_with(nordlys_sandbox::SandboxConfig {
        readings: nordlys_sandbox::world::Readings {
            pending_rows: 3,
            ..Default::default()
        },
        ..Default::default()
    })
    .await;
    let (_app, window, _dir) = connected_app(&sb, None).await;
    market_buy(&key_client(&sb, &sb.info.api_keys.trading), 500).await;
    synced(&window).await;
    let row = newest_row(&window).await;
    assert_eq!(row["pending"], true, "{row}");
    let years = call(&window, "year_end_report", json!({})).await.unwrap();
    let this_year = &years["years"][0];
    let total = this_year["totalNok"].as_str().unwrap();
    assert!(
        total.starts_with("not computable: pending since"),
        "{this_year}"
    );
    assert_eq!(this_year["notComputable"].as_str(), Some(total));
    assert!(
        years["years"][1]["notComputable"].is_null(),
        "the years before it are final: {years}"
    );

    // Final now: read again by the next sync, the same row, and the figures are back.
    tokio::time::sleep(Duration::from_millis(3_100)).await;
    synced(&window).await;
    let again = newest_row(&window).await;
    assert_eq!(again["id"], row["id"]);
    assert_eq!(again["pending"], false, "{again}");
    let years = call(&window, "year_end_report", json!({})).await.unwrap();
    assert!(years["years"][0]["notComputable"].is_null(), "{years}");
}
