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

use app_driver::{call, connected_app, tax_rows, tax_synced};
use nordlys_tests::*;
use serde_json::{Value, json};

async fn newest_row(window: &tauri::WebviewWindow<tauri::test::MockRuntime>) -> Value {
    let total = tax_rows(window, 0, 1).await["total"].as_u64().unwrap();
    tax_rows(window, total - 1, 1).await["rows"][0].clone()
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
    tax_synced(&window).await;
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
    tax_synced(&window).await;
    let again = newest_row(&window).await;
    assert_eq!(again["id"], row["id"]);
    assert_eq!(again["pending"], false, "{again}");
    let years = call(&window, "year_end_report", json!({})).await.unwrap();
    assert!(years["years"][0]["notComputable"].is_null(), "{years}");
}
