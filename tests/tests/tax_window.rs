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
use nordlys_application::NoArgs;
use nordlys_application::present::Present;
use nordlys_application::tax;
use nordlys_application::tax_views::TaxRowView;
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
    let newest = years.years.last().unwrap();
    assert!(newest.pending_since.is_some(), "{newest:?}");
    let before = &years.years[years.years.len() - 2];
    assert!(
        before.pending_since.is_none(),
        "the years before it are final: {years:?}"
    );
    // The window says so in place of the year's figures.
    let shown = years.present(&app.viewer());
    let this_year = &shown.years[0];
    assert!(this_year.not_computable.is_some(), "{this_year:?}");
    assert_eq!(
        this_year.not_computable.as_deref(),
        Some(this_year.total_nok.text())
    );
    assert_eq!(
        this_year.total_nok.exact(),
        None,
        "no amount behind words that say why"
    );
    assert!(shown.years[1].not_computable.is_none(), "{shown:?}");

    // Final now: read again by the next sync, the same row, and the figures are back.
    tokio::time::sleep(Duration::from_millis(3_100)).await;
    tax_synced(&app).await;
    let again = newest_row(&app).await;
    assert_eq!(again.id, row.id);
    assert!(!again.pending, "{again:?}");
    let years = tax::year_end_report(&app, NoArgs {}).await.unwrap();
    let newest = years.years.last().unwrap();
    assert!(newest.pending_since.is_none(), "{years:?}");
    assert!(
        years.present(&app.viewer()).years[0]
            .not_computable
            .is_none()
    );
}

/// Found trying the app as a new user: a trade just placed did not show in Trade history, and a
/// payment just sent did not reach the tax list until "Sync" was pressed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trade_or_payment_just_made_shows_without_pressing_sync() {
    use app_driver::{kari, order, payment};
    use nordlys_application::vocabulary::{Direction, OrderOutcome, SyncState};
    use nordlys_application::{market, pay, watcher};
    use nordlys_core::amount_input::BitcoinAmountUnit;

    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let before = market::trade_history(&app, NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer())
        .trades;
    let placed = app_driver::place_form(&app, order(Direction::Buy, 777, None), false)
        .await
        .unwrap();
    assert_eq!(placed.outcome(), OrderOutcome::Placed, "{placed:?}");
    let after = market::trade_history(&app, NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer())
        .trades;
    let newest = &after[0];
    assert!(
        before.iter().all(|t| t.id != newest.id),
        "the newest trade is the one just placed: {newest:?}"
    );
    assert_eq!(newest.direction, Direction::Buy);
    // 777 kroner spent: the amount bought with plus the fee.
    assert_eq!(
        (
            newest.nok.as_ref().map(|n| n.text()),
            newest.fee.as_ref().map(|f| f.text())
        ),
        (Some("NOK\u{a0}773.13"), Some("NOK\u{a0}3.87"))
    );

    let rows = tax_rows(&app, 0, 1).await.total.unwrap();
    let args = payment("kari@example.com", 1000, BitcoinAmountUnit::Sats, kari());
    app_driver::pay_form(&app, args).await.unwrap();
    // The exchange lists a payment once it has left; the watcher follows it there, and the
    // history's tail is read then. The Tax screen sees that read end.
    let mut rows_now = rows;
    for _ in 0..200 {
        watcher::look(&app).await.unwrap();
        let status = tax::tax_sync_status(&app, NoArgs {}).await.unwrap();
        rows_now = tax_rows(&app, 0, 1).await.total.unwrap();
        if status.state != SyncState::Running && rows_now > rows {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(rows_now, rows + 1, "the payment's row is in the tax list");
    // Its payment hash, as that row names it, is the payment's on the Pay screen: read from
    // the stored row, with no lookup anywhere else.
    let listed = pay::payments(&app, NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    let hash = listed.payments[0]
        .network_id
        .clone()
        .expect("a payment hash");
    let world = sb.state.lock();
    let row = world
        .ledger
        .iter()
        .rev()
        .find(|r| r.payment_info.starts_with(&hash));
    let row = row.filter(|r| r.payment_info.ends_with(":kari@example.com"));
    let row = row.unwrap_or_else(|| panic!("no row of {hash}"));
    // Found trying the app as a new user: a payment showed no fee, and its worth was today's.
    // Both are the exchange's row's now: the fee it took and the rate of the day it left.
    let paid = &listed.payments[0];
    let worth = paid.worth.as_ref().expect("a worth");
    assert_eq!(worth.when, nordlys_application::pay_views::WorthWhen::Sent);
    let rate: rust_decimal::Decimal = row.rate_market.parse().unwrap();
    let at_its_rate = (rate * rust_decimal::Decimal::new(1, 5)).round_dp(2);
    assert_eq!(
        worth.nok.exact().map(|n| n.round_to_ore().decimal()),
        Some(at_its_rate),
        "{worth:?} at {rate}"
    );
    let fee: rust_decimal::Decimal = row.fee_amount.parse().unwrap_or_default();
    assert_eq!(paid.fee.is_some(), !fee.is_zero(), "{paid:?} fee {fee}");
}

/// The list's balance column is each row's account balance after it, computed from the
/// amounts, whichever balance `runningBalanceBtc` holds: at the end of the history each account
/// shows what endpoint 13 says it holds. The seeded user has two funded accounts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lists_balance_is_the_accounts_under_either_reading() {
    use nordlys_sandbox::world::RunningBalance;
    for reading in [RunningBalance::Total, RunningBalance::Account] {
        let sb = sandbox_reading(reading).await;
        let (app, _dir) = connected_app(&sb, None).await;
        tax_synced(&app).await;
        let total = tax_rows(&app, 0, 1).await.total.unwrap();
        let mut last = std::collections::HashMap::new();
        let mut offset = 0;
        while offset < total {
            for r in tax_rows(&app, offset, 500).await.rows {
                if r.account != "NOK" {
                    last.insert(r.account.clone(), r.running_balance.clone());
                }
            }
            offset += 500;
        }
        let held = key_client(&sb, &sb.info.api_keys.read)
            .tax_balance(true)
            .await
            .unwrap();
        let figures = app.figures();
        let funded = held
            .bitcoin_accounts
            .iter()
            .filter(|a| a.balance_btc.is_positive())
            .count();
        assert!(funded >= 2);
        for a in held
            .bitcoin_accounts
            .iter()
            .filter(|a| a.balance_btc.is_positive())
        {
            assert_eq!(
                last.get(&a.name).and_then(|b| b.as_ref()).map(|b| b.text()),
                Some(figures.btc(a.balance_btc).as_str()),
                "{reading:?}: {}",
                a.name
            );
        }
    }
}
