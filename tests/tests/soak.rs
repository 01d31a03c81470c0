#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "a soak test: a failed step is the failure being reported, and its figures are printed"
)]
//! The fault soak: 1,000 mixed operations (orders, cancels, invoices, withdrawals, reads) through
//! the app's own use cases, the ones the window's commands call, against a
//! sandbox on loopback that faults about one request in five: 500s, delays, dropped connections,
//! and "commit, then never answer". Afterwards the sandbox's counters must equal the app's
//! journals (no order or withdrawal made twice, none lost), every operation must have ended as
//! done, failed or reconciled, the books must balance, the app's balances must be the exchange's,
//! and nothing may have panicked.

mod app_driver;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use app_driver::{Ended, LANES, connected_app, lane, order, within};
use nordlys_application::NoArgs;
use nordlys_application::error::ErrorCode;
use nordlys_application::trade_views::{CancelOrderArgs, QuoteArgs};
use nordlys_application::vocabulary::{Direction, OrderOutcome};
use nordlys_application::wording::key;
use nordlys_application::{profiles, trading, watcher};
use nordlys_core::store::{JournalState, WithdrawalState};
use nordlys_sandbox::{FaultKind, FaultRule};
use nordlys_tests::*;
use serde_json::Value;

const OPERATIONS: usize = 1000;

static PANICS: AtomicU64 = AtomicU64::new(0);

fn faults() -> Vec<FaultRule> {
    let rule = |method: Option<&str>, path: &str, kind, percent, count| FaultRule {
        path: path.into(),
        method: method.map(str::to_owned),
        kind,
        count,
        percent: Some(percent),
        delay_ms: 150,
    };
    vec![
        // One withdrawal that commits and then hangs until the client's 30 s timeout. It holds
        // the client's signed lane (nonces must arrive in order) for those 30 s, so it is one.
        rule(
            Some("POST"),
            "/v1/withdrawals",
            FaultKind::CommitThenHang,
            3,
            Some(1),
        ),
        // Then, on every API path, about 20 % in all: 1 - 0.94 * 0.95 * 0.96 * 0.95.
        rule(None, "/v1/", FaultKind::Http500, 6, None),
        rule(None, "/v1/", FaultKind::Delay, 5, None),
        rule(None, "/v1/", FaultKind::Drop, 4, None),
        rule(None, "/v1/", FaultKind::CommitThenDrop, 5, None),
    ]
}

/// Found by the soak: a cancel went ahead although the app could not look for an order whose
/// answer was lost, cancelled that very order, and the order was then taken as never placed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_waits_while_a_lost_order_cannot_be_looked_for() {
    let sb = sandbox().await;
    let (app, dir) = connected_app(&sb, None).await;
    let quote = trading::quote(&app, QuoteArgs::default()).await.unwrap();
    let bid: rust_decimal::Decimal = quote.price.bid.decimal();
    let low = (bid * rust_decimal::Decimal::new(8, 1))
        .round_dp(2)
        .to_string();
    let open_orders_fail = || FaultRule {
        path: "/v1/orders".into(),
        method: Some("GET".into()),
        kind: FaultKind::Http500,
        count: None,
        percent: None,
        delay_ms: 0,
    };
    // The order is made, its answer lost, and the open orders cannot be read to look for it.
    sb.state.add_fault(FaultRule {
        method: Some("POST".into()),
        kind: FaultKind::CommitThenDrop,
        count: Some(1),
        ..open_orders_fail()
    });
    sb.state.add_fault(open_orders_fail());
    let args = order(Direction::Buy, 321, Some(low));
    // A lost answer whose check also failed is "unknown", never an error the user would answer
    // by ordering again.
    let placed = within("place_order", app_driver::place_form(&app, args, false))
        .await
        .unwrap();
    assert_eq!(placed.outcome(), OrderOutcome::Unknown, "{placed:?}");
    sb.state.clear_faults();
    let client = key_client(&sb, &sb.info.api_keys.withdrawal);
    let open = client.open_orders().await.unwrap();
    let made = open.orders[0].order_id.to_string();

    // Cancelling it while the app still cannot look is refused, and the order stays.
    sb.state.add_fault(open_orders_fail());
    let cancel = CancelOrderArgs {
        order_id: made.clone(),
        anyway: None,
    };
    let refused = trading::cancel_order(&app, &app.money_turn().await, cancel.clone())
        .await
        .unwrap_err();
    assert!(refused.says(key::CANCEL_STILL_CHECKING), "{refused:?}");
    assert_eq!(refused.code, ErrorCode::Network, "{refused:?}");
    sb.state.clear_faults();
    assert_eq!(client.open_orders().await.unwrap().orders.len(), 1);

    // Once it can look, the lost order is found, and the cancel goes through.
    trading::cancel_order(&app, &app.money_turn().await, cancel)
        .await
        .unwrap();
    let store = app_driver::profile_db(&app, dir.path(), "exchange");
    let journal = store.orders().recent(10).unwrap();
    assert_eq!(journal[0].state, JournalState::Placed, "{journal:?}");
    assert_eq!(journal[0].order_id.as_deref(), Some(made.as_str()));
    let counters = control_get(&sb, "/sandbox/counters").await;
    assert_eq!(counters["ordersCreated"], 1);
}

/// Enters `other` after 3 s and `own` again 5 s later, as a user pasting keys in Connect would
/// (each tried until the exchange, under faults, lets it be saved).
async fn switch_keys(
    app: std::sync::Arc<nordlys_application::App>,
    other: nordlys_sandbox::KeyInfo,
    own: nordlys_sandbox::KeyInfo,
) {
    for (wait, key) in [(3, other), (5, own)] {
        tokio::time::sleep(Duration::from_secs(wait)).await;
        for _ in 0..20 {
            let args = nordlys_application::profile_views::SetApiKeyArgs {
                key: key.key.clone(),
                secret: key.secret.clone(),
                may_trade: None,
                may_withdraw: None,
            };
            if within("set_api_key", profiles::set_api_key(&app, args))
                .await
                .is_ok()
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_operations_under_faults_leave_no_duplicate_and_no_wrong_verdict() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default_hook(info);
    }));
    let started = Instant::now();
    let sb = sandbox().await;
    let (app, dir) = connected_app(&sb, None).await;
    let key = &sb.info.api_keys.withdrawal;
    let quote = trading::quote(&app, QuoteArgs::default()).await.unwrap();
    let price: rust_decimal::Decimal = quote.price.bid.decimal();

    for rule in faults() {
        sb.state.add_fault(rule);
    }
    let lanes: Vec<_> = (0..LANES)
        .map(|l| tokio::spawn(lane(app.clone(), l, OPERATIONS / LANES, price)))
        .collect();
    // A key switch in the middle: another user's key for a while, then the user's own again.
    // What was lost under one must never be judged through the other.
    let switched = tokio::spawn(switch_keys(
        app.clone(),
        sb.info.second_user.api_keys.withdrawal.clone(),
        key.clone(),
    ));
    let mut ended = vec![];
    for l in lanes {
        ended.extend(l.await.unwrap());
    }
    switched.await.unwrap();
    let soak_time = started.elapsed();
    sb.state.clear_faults();

    // Quiet now: withdrawals settle within 5 s at the sandbox; then the app resolves what it
    // could not tell, as the journal and payments screens do.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let store = app_driver::profile_db(&app, dir.path(), "exchange");
    for _ in 0..5 {
        trading::resolve_orders(&app, NoArgs {}).await.unwrap();
        watcher::look(&app).await.unwrap();
        if store.orders().unresolved().unwrap().is_empty()
            && store.withdrawals().unresolved().unwrap().is_empty()
        {
            break;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }

    // Every operation ended as done, failed or reconciled. What the evidence cannot settle yet
    // (a lost limit order cancelled since, silence shorter than the quiet period) stays unknown.
    assert_eq!(ended.len(), OPERATIONS);
    let unresolved_orders = store.orders().unresolved().unwrap().len() as u64;
    let unresolved_payments = store.withdrawals().unresolved().unwrap().len() as u64;

    // The exchange made exactly what the journals say: no duplicate, none lost.
    let counters = control_get(&sb, "/sandbox/counters").await;
    let journal = store.orders().recent(10_000).unwrap();
    let payments = store.withdrawals().recent(10_000).unwrap();
    let placed = journal
        .iter()
        .filter(|e| e.state == JournalState::Placed)
        .count() as u64;
    let sent = payments
        .iter()
        .filter(|e| e.state == WithdrawalState::Sent)
        .count() as u64;
    // No wrong verdict: every "placed" or "sent" is one the exchange made (no more than it
    // made), and every one it made is placed, sent or still unknown (none "not placed/sent").
    let made_orders = counters["ordersCreated"].as_u64().unwrap_or_default();
    let made_payments = counters["withdrawalsCreated"].as_u64().unwrap_or_default();
    assert!(
        placed <= made_orders && made_orders <= placed + unresolved_orders,
        "orders: {placed} placed, {unresolved_orders} unknown, {made_orders} made"
    );
    assert!(
        sent <= made_payments && made_payments <= sent + unresolved_payments,
        "withdrawals: {sent} sent, {unresolved_payments} unknown, {made_payments} made"
    );
    let mut ids: Vec<&str> = journal
        .iter()
        .flat_map(|e| {
            let mut own: Vec<&str> = [e.order_id.as_deref(), e.trade_id.as_deref()]
                .into_iter()
                .flatten()
                .chain(e.claimed.iter().map(String::as_str))
                .collect();
            own.sort_unstable();
            own.dedup();
            own
        })
        .collect();
    let all = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all, "an order or trade claimed by two entries");

    // The books balance, and the app shows the exchange's balances.
    let audit = control_get(&sb, "/sandbox/audit").await;
    assert_eq!(audit["ok"], true, "{audit}");
    let shown = profiles::balances(&app, NoArgs {}).await.unwrap();
    let client = key_client(&sb, key);
    let accounts = client.bitcoin_accounts(false).await.unwrap();
    for a in &accounts.accounts {
        let view = shown
            .accounts
            .iter()
            .find(|v| v.id == a.id)
            .unwrap_or_else(|| panic!("{} not shown: {shown:?}", a.id));
        assert_eq!(view.total_btc, a.total_btc, "{shown:?}");
    }
    assert_eq!(
        shown.fiat.as_ref().ok(),
        Some(&client.fiat_account().await.unwrap().available_nok)
    );
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "a panic happened");

    // The figures, for the note.
    let requests: u64 = counters["requests"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(Value::as_u64)
        .sum();
    let faulted: u64 = counters["faults"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(Value::as_u64)
        .sum();
    let share = faulted * 100 / requests.max(1);
    let mut tally = std::collections::BTreeMap::new();
    for e in &ended {
        *tally.entry(format!("{:?}/{:?}", e.0, e.1)).or_insert(0u32) += 1;
    }
    println!(
        "soak: {OPERATIONS} operations in {:.1} s; {requests} requests, {faulted} faulted ({share} %): {}; \
         orders placed {placed} of {} journaled ({unresolved_orders} unknown), withdrawals sent {sent} of {} \
         ({unresolved_payments} unknown); {tally:?}",
        soak_time.as_secs_f64(),
        counters["faults"],
        journal.len(),
        payments.len(),
    );
    assert!((12..=30).contains(&share), "{share} % of requests faulted");
    assert!(
        ended
            .iter()
            .any(|e| e.1 == Ended::Reconciled || e.1 == Ended::UnknownForNow),
        "no lost answer was exercised"
    );
}
