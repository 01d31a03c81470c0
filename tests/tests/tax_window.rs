#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The tax screen through the app's own use cases, against an exchange that lists new rows
//! as pending: the row says so, and the year's figures say they cannot be computed yet.

mod app_driver;

use std::time::Duration;

use app_driver::{connected_app, tax_rows, tax_synced};
use nordlys_application::tax;
use nordlys_application::tax_views::TaxRowView;
use nordlys_application::views::NoArgs;
use nordlys_tests::*;

async fn newest_row(app: &nordlys_application::App) -> TaxRowView {
    let total = tax_rows(app, 0, 1).await.total.unwrap();
    tax_rows(app, total - 1, 1).await.rows.remove(0)
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
    let (app, _dir) = connected_app(&sb, None).await;
    market_buy(&key_client(&sb, &sb.info.api_keys.trading), 500).await;
    tax_synced(&app).await;
    let row = newest_row(&app).await;
    assert!(row.pending, "{row:?}");
    let years = tax::year_end_report(&app, NoArgs {}).await.unwrap();
    let this_year = &years.years[0];
    let total = this_year.total_nok.as_str();
    assert!(
        total.starts_with("not computable: pending since"),
        "{this_year:?}"
    );
    assert_eq!(this_year.not_computable.as_deref(), Some(total));
    assert!(
        years.years[1].not_computable.is_none(),
        "the years before it are final: {years:?}"
    );

    // Final now: read again by the next sync, the same row, and the figures are back.
    tokio::time::sleep(Duration::from_millis(3_100)).await;
    tax_synced(&app).await;
    let again = newest_row(&app).await;
    assert_eq!(again.id, row.id);
    assert!(!again.pending, "{again:?}");
    let years = tax::year_end_report(&app, NoArgs {}).await.unwrap();
    assert!(years.years[0].not_computable.is_none(), "{years:?}");
}
