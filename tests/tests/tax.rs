#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The tax sync against the sandbox: what is stored is exactly what one `pageSize=0` request
//! returns, a second sync costs one request, and an interrupted or crashed sync resumes without a
//! gap or a duplicate. Rows listed pending are stored once and made final in place. The year-end
//! holding rebuilt from the rows matches endpoint 13.

use std::sync::{Arc, Mutex};

use chrono::Utc;
use nordlys_core::store::{Store, TaxFilter};
use nordlys_core::tax::sync::{self, SyncCancel, SyncEnd, SyncError, SyncProgress};
use nordlys_core::tax::year_end::YearEndBuilder;
use nordlys_exchange::models::TaxTransaction;
use nordlys_exchange::{ExchangeClient, TaxQuery};
use nordlys_money::CheckedSum;
use nordlys_sandbox::RunningSandbox;
use nordlys_tests::*;

async fn everything(client: &ExchangeClient) -> Vec<TaxTransaction> {
    client
        .tax_transactions(&TaxQuery::new(0))
        .await
        .unwrap()
        .transactions
}

fn stored(store: &Store) -> Vec<TaxTransaction> {
    store
        .tax()
        .tax_transactions(&TaxFilter::default(), 0, u32::MAX)
        .unwrap()
}

async fn tax_requests(sandbox: &RunningSandbox) -> u64 {
    control_get(sandbox, "/sandbox/counters").await["requests"]["/v1/tax/transactions"]
        .as_u64()
        .unwrap_or(0)
}

/// Adds a busy past just long enough that a page boundary of 200 falls between two rows created
/// in the same second, so the sync must use `afterId` to get both.
async fn split_a_tie_at_a_page_boundary(sandbox: &RunningSandbox, client: &ExchangeClient) {
    let seeded = everything(client).await;
    let shift = (2..=200).step_by(2).find(|k| {
        (1..=seeded.len() / 200).any(|m| {
            let i = 200 * m - k;
            i > 0 && i < seeded.len() && seeded[i - 1].create_time == seeded[i].create_time
        })
    });
    let shift = shift.expect("the seeded history has rows sharing a second");
    control(
        sandbox,
        "/sandbox/history",
        serde_json::json!({ "transactions": shift }),
    )
    .await;
}

/// The bitcoin endpoint 13 says the user holds today, over every account.
fn held(today: &nordlys_exchange::models::GetTaxBalanceResponse) -> nordlys_money::Btc {
    today
        .bitcoin_accounts
        .iter()
        .map(|a| a.balance_btc)
        .checked_sum()
        .unwrap()
}

#[tokio::test]
async fn a_full_sync_equals_one_page_size_0_fetch_row_for_row() {
    let sandbox = sandbox().await;
    let client = key_client(&sandbox, &sandbox.info.api_keys.read);
    split_a_tie_at_a_page_boundary(&sandbox, &client).await;
    let all = everything(&client).await;
    assert!(all.len() > 1_000, "seeded history: {} rows", all.len());

    let store = Arc::new(Store::in_memory().unwrap());
    let seen = Mutex::new(Vec::<SyncProgress>::new());
    let before = tax_requests(&sandbox).await;
    let end = sync::sync(&client, store.clone(), &SyncCancel::default(), |p| {
        seen.lock().unwrap().push(*p)
    })
    .await
    .unwrap();
    assert_eq!(end, SyncEnd::Complete);
    assert_eq!(stored(&store), all);

    let pages = all.len().div_ceil(200) as u64;
    assert_eq!(tax_requests(&sandbox).await - before, pages);
    let seen = seen.into_inner().unwrap();
    let last = seen.last().unwrap();
    assert_eq!(
        (last.stored, last.received),
        (all.len() as u64, all.len() as u64)
    );
    assert_eq!(last.permille, 1_000);
    assert!(
        seen.windows(2)
            .all(|w| w[0].permille <= w[1].permille && w[0].stored <= w[1].stored)
    );

    // The holding rebuilt from the running balances is what endpoint 13 says today.
    let mut years = YearEndBuilder::default();
    store
        .tax()
        .each_transaction::<nordlys_core::store::StoreError>(&TaxFilter::default(), |t| {
            years.add(t);
            Ok(())
        })
        .unwrap();
    let years = years.finish(Utc::now(), &Default::default());
    let today = client.tax_balance(true).await.unwrap();
    assert_eq!(years.last().unwrap().total_btc, held(&today));
}

#[tokio::test]
async fn a_second_sync_sends_one_request_and_then_only_what_is_new() {
    let sandbox = sandbox().await;
    let client = key_client(&sandbox, &sandbox.info.api_keys.read);
    let store = Arc::new(Store::in_memory().unwrap());
    let cancel = SyncCancel::default();
    sync::sync(&client, store.clone(), &cancel, |_| {})
        .await
        .unwrap();
    let count = stored(&store).len();

    let before = tax_requests(&sandbox).await;
    let mut last = SyncProgress::default();
    sync::sync(&client, store.clone(), &cancel, |p| last = *p)
        .await
        .unwrap();
    assert_eq!(tax_requests(&sandbox).await - before, 1);
    // The trailing window is read again; nothing in it is new or changed.
    assert_eq!((last.stored, last.updated), (0, 0));
    assert_eq!(stored(&store).len(), count);

    // Two trades in the same second as each other are new; only they are fetched and stored.
    let trade = key_client(&sandbox, &sandbox.info.api_keys.trading);
    for _ in 0..2 {
        market_buy(&trade, 500).await;
    }
    sync::sync(&client, store.clone(), &cancel, |p| last = *p)
        .await
        .unwrap();
    assert_eq!(last.stored, 2);
    assert_eq!(stored(&store), everything(&client).await);
}

#[tokio::test]
async fn a_sync_that_fails_mid_way_keeps_what_it_had_and_resumes_without_gaps() {
    let sandbox = sandbox().await;
    let client = key_client(&sandbox, &sandbox.info.api_keys.read);
    let all = everything(&client).await;
    // Three in five requests fail: a page that fails all three attempts ends the sync.
    control(
        &sandbox,
        "/sandbox/faults",
        serde_json::json!({ "path": "/v1/tax/transactions", "kind": "http500", "percent": 60 }),
    )
    .await;
    let store = Arc::new(Store::in_memory().unwrap());
    let cancel = SyncCancel::default();
    let mut runs = 0;
    let mut failed_mid_way = false;
    loop {
        runs += 1;
        match sync::sync(&client, store.clone(), &cancel, |_| {}).await {
            Ok(SyncEnd::Complete) => break,
            Ok(SyncEnd::Cancelled) => panic!("nobody cancelled"),
            Err(SyncError::Exchange { progress, .. }) => {
                let kept = stored(&store).len();
                failed_mid_way |= kept > 0 && kept < all.len();
                assert!(progress.stored as usize <= kept);
                if runs == 3 {
                    reqwest::Client::new()
                        .delete(format!("{}/sandbox/faults", sandbox.base_url()))
                        .header("x-sandbox-token", &sandbox.info.control_token)
                        .json(&serde_json::json!({}))
                        .send()
                        .await
                        .unwrap();
                }
            }
            Err(e) => panic!("{e}"),
        }
        assert!(runs < 10);
    }
    assert!(failed_mid_way, "the faults never stopped a sync part-way");
    assert_eq!(stored(&store), all);
}

#[tokio::test]
async fn a_sync_killed_part_way_resumes_from_the_file_without_gaps_or_duplicates() {
    let sandbox = sandbox().await;
    let client = key_client(&sandbox, &sandbox.info.api_keys.read);
    let all = everything(&client).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nordlys.sqlite");

    let store = Arc::new(Store::open(&path).unwrap());
    let (tx, rx) = tokio::sync::oneshot::channel();
    let mut tx = Some(tx);
    let crashed_client = client.clone();
    let task = tokio::spawn(async move {
        sync::sync(&crashed_client, store, &SyncCancel::default(), |p| {
            if p.requests == 4
                && let Some(tx) = tx.take()
            {
                let _ = tx.send(());
            }
        })
        .await
    });
    rx.await.unwrap();
    task.abort();
    let _ = task.await;

    let reopened = Arc::new(Store::open(&path).unwrap());
    let kept = stored(&reopened).len();
    assert!(
        kept < all.len(),
        "the sync was stopped part-way ({kept} rows)"
    );
    sync::sync(&client, reopened.clone(), &SyncCancel::default(), |_| {})
        .await
        .unwrap();
    assert_eq!(stored(&reopened), all);
}

#[tokio::test]
async fn a_cancelled_sync_stops_and_the_next_one_finishes_the_job() {
    let sandbox = sandbox().await;
    let client = key_client(&sandbox, &sandbox.info.api_keys.read);
    let store = Arc::new(Store::in_memory().unwrap());
    let cancel = SyncCancel::default();
    let end = sync::sync(&client, store.clone(), &cancel, |p| {
        if p.requests == 2 {
            cancel.cancel();
        }
    })
    .await
    .unwrap();
    assert_eq!(end, SyncEnd::Cancelled);
    assert_eq!(stored(&store).len(), 400);
    sync::sync(&client, store.clone(), &SyncCancel::default(), |_| {})
        .await
        .unwrap();
    assert_eq!(stored(&store), everything(&client).await);
}

#[tokio::test]
async fn a_row_listed_pending_is_stored_once_and_made_final_by_a_later_sync() {
    let sandbox = sandbox_with(nordlys_sandbox::SandboxConfig {
        readings: nordlys_sandbox::world::Readings {
            pending_rows: 2,
            ..Default::default()
        },
        ..Default::default()
    })
    .await;
    let client = key_client(&sandbox, &sandbox.info.api_keys.read);
    let store = Arc::new(Store::in_memory().unwrap());
    let cancel = SyncCancel::default();
    sync::sync(&client, store.clone(), &cancel, |_| {})
        .await
        .unwrap();
    // A trade now: listed pending, without its fee.
    market_buy(&key_client(&sandbox, &sandbox.info.api_keys.trading), 500).await;
    let mut last = SyncProgress::default();
    sync::sync(&client, store.clone(), &cancel, |p| last = *p)
        .await
        .unwrap();
    assert_eq!(last.stored, 1);
    let pending = stored(&store).last().cloned().unwrap();
    assert_eq!(pending.finalize_time, None);
    assert_eq!(pending.fee_amount, None);
    assert!(store.tax().oldest_pending().unwrap().is_some());
    let count = stored(&store).len();

    // Final once its time has passed: the same row, updated in place, with its fee.
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    sync::sync(&client, store.clone(), &cancel, |p| last = *p)
        .await
        .unwrap();
    assert_eq!((last.stored, last.updated), (0, 1));
    assert_eq!(stored(&store).len(), count);
    let fin = stored(&store)
        .into_iter()
        .find(|t| t.id == pending.id)
        .unwrap();
    assert!(fin.finalize_time.is_some());
    assert!(fin.fee_amount.is_some());
    assert_eq!(store.tax().oldest_pending().unwrap(), None);
    assert_eq!(stored(&store), everything(&client).await);
}

#[tokio::test]
async fn rows_listed_late_before_the_cursor_are_found_by_the_next_sync() {
    let sandbox = sandbox_with(nordlys_sandbox::SandboxConfig {
        readings: nordlys_sandbox::world::Readings {
            late_rows: 2,
            ..Default::default()
        },
        ..Default::default()
    })
    .await;
    let client = key_client(&sandbox, &sandbox.info.api_keys.read);
    let trade = key_client(&sandbox, &sandbox.info.api_keys.trading);
    let store = Arc::new(Store::in_memory().unwrap());
    let cancel = SyncCancel::default();
    // Enough trades that some are listed late and some after them at once.
    for _ in 0..9 {
        market_buy(&trade, 200).await;
    }
    sync::sync(&client, store.clone(), &cancel, |_| {})
        .await
        .unwrap();
    let first = stored(&store).len();
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let all = everything(&client).await;
    assert!(all.len() > first, "some rows were listed late");
    let cursor = store.tax().cursor().unwrap().unwrap();
    let have: std::collections::BTreeSet<String> = stored(&store)
        .iter()
        .map(|t| t.id.as_str().to_owned())
        .collect();
    assert!(
        all.iter()
            .any(|t| t.create_time < cursor.after && !have.contains(t.id.as_str())),
        "a late row is older than the cursor"
    );
    let mut last = SyncProgress::default();
    sync::sync(&client, store.clone(), &cancel, |p| last = *p)
        .await
        .unwrap();
    assert_eq!(last.stored as usize, all.len() - first);
    assert_eq!(stored(&store), all, "every row once, in time order");
}

/// The seeded user holds bitcoin in two accounts (and had a third, deleted). Under either
/// reading of `runningBalanceBtc` (the user's total, as the operator describes it, or the row's
/// own account's) the holding computed from the rows' amounts is what endpoint 13 says today,
/// account by account; nothing is marked contradicted; and the running year's card holds the
/// same total, per account too.
#[tokio::test]
async fn the_holding_is_each_accounts_balance_under_either_reading_of_the_running_balance() {
    use nordlys_core::tax::card::{CardRequest, card};
    use nordlys_core::tax::gains::Method;
    use nordlys_core::tax::year_end::RateSource;
    use nordlys_core::tax::year_end_rate::YearEndRate;
    use nordlys_sandbox::world::RunningBalance;
    for reading in [RunningBalance::Total, RunningBalance::Account] {
        let sandbox = sandbox_reading(reading).await;
        let client = key_client(&sandbox, &sandbox.info.api_keys.read);
        let store = Arc::new(Store::in_memory().unwrap());
        sync::sync(&client, store.clone(), &SyncCancel::default(), |_| {})
            .await
            .unwrap();
        let mut years = YearEndBuilder::default();
        store
            .tax()
            .each_transaction::<nordlys_core::store::StoreError>(&TaxFilter::default(), |t| {
                years.add(t);
                Ok(())
            })
            .unwrap();
        let now = Utc::now();
        let years = years.finish(now, &Default::default());
        let last = years.last().unwrap();
        assert!(last.computable(), "{reading:?}: {:?}", last.contradiction);
        let today = client.tax_balance(true).await.unwrap();
        let funded: Vec<_> = today
            .bitcoin_accounts
            .iter()
            .filter(|a| a.balance_btc.is_positive())
            .collect();
        assert!(funded.len() >= 2, "two funded accounts");
        for a in &today.bitcoin_accounts {
            let computed = last
                .accounts
                .iter()
                .find(|h| h.account_id == a.id.as_str())
                .map(|h| h.balance_btc)
                .unwrap_or_default();
            assert_eq!(computed, a.balance_btc, "{reading:?}: {}", a.id);
        }
        let total = held(&today);
        assert_eq!(last.total_btc, total, "{reading:?}");

        let rate = YearEndRate {
            nok_per_btc: nordlys_money::NokPerBtc::computed(rust_decimal::Decimal::from(1_000_000)),
            source: RateSource::Entered,
        };
        for per_account in [false, true] {
            let c = card(
                &store,
                &CardRequest {
                    year: last.year,
                    method: Method::Fifo,
                    per_account,
                    rate: Ok(rate.clone()),
                    now,
                },
            )
            .unwrap();
            let on_card: nordlys_money::Btc = c
                .entries
                .iter()
                .filter_map(|e| e.antall)
                .checked_sum()
                .unwrap();
            assert_eq!(on_card, total, "{reading:?}, per account: {per_account}");
            assert!(
                !c.not_computable.iter().any(|n| matches!(
                    n.why,
                    nordlys_core::tax::card::Why::BalanceContradicted { .. }
                )),
                "{reading:?}"
            );
        }
    }
}
