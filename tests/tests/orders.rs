#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! Orders that cannot double: faults on placing an order end in one order (or none), found by the
//! app's own check, never by sending again.

use nordlys_core::doubt::WhyUnknown;
use std::str::FromStr;
use std::time::Duration;

use nordlys_core::evidence::Rules;
use nordlys_core::journal::reconcile;
use nordlys_core::orders::{Placement, Resolution, place};
use nordlys_core::store::{JournalEntry, JournalState, Store};
use nordlys_exchange::models::{Direction, NewOrderRequest, OrderType};
use nordlys_money::NokPerBtc;
use nordlys_sandbox::{FaultKind, FaultRule};
use nordlys_tests::*;
use rust_decimal::Decimal;

fn order(
    order_type: OrderType,
    direction: Direction,
    amount: &str,
    price: Option<NokPerBtc>,
) -> NewOrderRequest {
    NewOrderRequest {
        order_type,
        direction,
        amount: Decimal::from_str(amount).unwrap(),
        account_id: None,
        description: String::new(),
        price,
    }
}

fn fault(kind: FaultKind) -> FaultRule {
    FaultRule {
        path: "/v1/orders".into(),
        method: Some("POST".into()),
        kind,
        count: Some(1),
        percent: None,
        delay_ms: 0,
    }
}

/// The quiet period shortened to two seconds, as only a debug build allows.
fn short() -> Rules {
    Rules::with_min_quiet(chrono::Duration::seconds(2))
}

/// Reconciles once the shortened quiet period has passed.
async fn reconcile_when_settled(
    client: &nordlys_exchange::ExchangeClient,
    store: &Store,
    journal_id: i64,
) -> Resolution {
    tokio::time::sleep(Duration::from_millis(2100)).await;
    reconcile::<JournalEntry>(client, store, journal_id, &short())
        .await
        .unwrap()
}

async fn orders_created(sb: &nordlys_sandbox::RunningSandbox) -> u64 {
    control_get(sb, "/sandbox/counters").await["ordersCreated"]
        .as_u64()
        .unwrap()
}

#[tokio::test]
async fn commit_then_no_answer_is_resolved_as_placed_with_exactly_one_order() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    sb.state.add_fault(fault(FaultKind::CommitThenDrop));
    let placement = place(
        &client,
        &store,
        &order(OrderType::Market, Direction::Buy, "1250.50", None),
        false,
        &store.money_turn().await,
    )
    .await
    .unwrap();
    let Placement::Unknown { journal_id, .. } = placement else {
        panic!("{placement:?}")
    };
    assert_eq!(
        store.orders().entry(journal_id).unwrap().unwrap().state,
        JournalState::Unknown
    );
    let resolution = reconcile::<JournalEntry>(&client, &store, journal_id, &Rules::default())
        .await
        .unwrap();
    assert!(
        matches!(
            resolution,
            Resolution::Placed {
                trade_id: Some(_),
                ..
            }
        ),
        "{resolution:?}"
    );
    assert_eq!(orders_created(&sb).await, 1);
    assert_eq!(
        store.orders().entry(journal_id).unwrap().unwrap().state,
        JournalState::Placed
    );
}

#[tokio::test]
async fn a_lost_limit_order_is_found_among_open_orders() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    let price = client.price(None).await.unwrap();
    sb.state.add_fault(fault(FaultKind::CommitThenDrop));
    let placement = place(
        &client,
        &store,
        &order(
            OrderType::Limit,
            Direction::Sell,
            "0.0021",
            Some(NokPerBtc::computed(
                (price.ask.decimal() * Decimal::TWO).round_dp(2),
            )),
        ),
        false,
        &store.money_turn().await,
    )
    .await
    .unwrap();
    let Placement::Unknown { journal_id, .. } = placement else {
        panic!("{placement:?}")
    };
    let resolution = reconcile::<JournalEntry>(&client, &store, journal_id, &Rules::default())
        .await
        .unwrap();
    assert!(
        matches!(
            resolution,
            Resolution::Placed {
                order_id: Some(_),
                ..
            }
        ),
        "{resolution:?}"
    );
    assert_eq!(orders_created(&sb).await, 1);
}

#[tokio::test]
async fn a_failure_before_the_commit_is_resolved_as_not_placed() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    sb.state.add_fault(fault(FaultKind::Http500));
    let placement = place(
        &client,
        &store,
        &order(OrderType::Market, Direction::Buy, "800", None),
        false,
        &store.money_turn().await,
    )
    .await
    .unwrap();
    let Placement::Unknown { journal_id, .. } = placement else {
        panic!("{placement:?}")
    };
    assert_eq!(orders_created(&sb).await, 0);
    // Right away the app cannot tell; after the quiet period, with no trade, it is "not placed".
    let early = reconcile::<JournalEntry>(&client, &store, journal_id, &short())
        .await
        .unwrap();
    assert!(
        matches!(early, Resolution::StillUnknown(_)),
        "silence right away is no evidence: {early:?}"
    );
    assert_eq!(
        reconcile_when_settled(&client, &store, journal_id).await,
        Resolution::NotPlaced
    );
    assert_eq!(orders_created(&sb).await, 0, "nothing was sent again");
}

#[tokio::test]
async fn a_rejected_order_is_journaled_as_rejected() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    let e = place(
        &client,
        &store,
        &order(OrderType::Market, Direction::Buy, "999999999", None),
        false,
        &store.money_turn().await,
    )
    .await
    .unwrap_err();
    assert!(e.to_string().contains("insufficient funds"), "{e}");
    assert_eq!(
        store.orders().recent(1).unwrap()[0].state,
        JournalState::Rejected
    );
}

#[tokio::test]
async fn a_lost_order_is_not_credited_with_another_orders_trade() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    let buy = order(OrderType::Market, Direction::Buy, "700", None);
    let first = place(&client, &store, &buy, false, &store.money_turn().await)
        .await
        .unwrap();
    assert!(matches!(first, Placement::Placed { .. }), "{first:?}");
    // The same order again, lost before the exchange took it: the first one's trade matches its
    // direction, amount and time, but it is the first entry's.
    sb.state.add_fault(fault(FaultKind::Http500));
    let Placement::Unknown { journal_id, .. } =
        place(&client, &store, &buy, false, &store.money_turn().await)
            .await
            .unwrap()
    else {
        panic!("not lost")
    };
    assert_eq!(
        reconcile_when_settled(&client, &store, journal_id).await,
        Resolution::NotPlaced
    );
    assert_eq!(orders_created(&sb).await, 1);
}

#[tokio::test]
async fn a_lost_order_is_resolved_although_other_trades_moved_the_balance() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    sb.state.add_fault(fault(FaultKind::Http500));
    let lost = order(OrderType::Market, Direction::Buy, "650", None);
    let Placement::Unknown { journal_id, .. } =
        place(&client, &store, &lost, false, &store.money_turn().await)
            .await
            .unwrap()
    else {
        panic!("not lost")
    };
    // Another purchase spends from the same NOK balance before the app looks.
    let other = order(OrderType::Market, Direction::Buy, "400", None);
    place(&client, &store, &other, false, &store.money_turn().await)
        .await
        .unwrap();
    assert_eq!(
        reconcile_when_settled(&client, &store, journal_id).await,
        Resolution::NotPlaced
    );
    assert_eq!(orders_created(&sb).await, 1);
}

/// As the exchange publishes it, a market buy can fill in several trades at different instants,
/// each taking only the NOK of its whole satoshis. A lost one is placed by those rows once they
/// add up, and never "not placed" while they are still coming in.
#[tokio::test]
async fn a_lost_market_buy_filled_at_several_instants_is_placed_from_its_rows() {
    let sb = sandbox().await;
    {
        let mut world = sb.state.lock();
        let patch = serde_json::json!({
            "noNoteEcho": true, "splitFills": 3, "fillSpread": 4, "buySpend": "sats"
        });
        world.readings = world.readings.patched(&patch).unwrap();
    }
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    sb.state.add_fault(fault(FaultKind::CommitThenDrop));
    let buy = order(OrderType::Market, Direction::Buy, "1250.50", None);
    let Placement::Unknown { journal_id, .. } =
        place(&client, &store, &buy, false, &store.money_turn().await)
            .await
            .unwrap()
    else {
        panic!("not lost")
    };
    // The first fill is listed, the others are still to come: not placed, not "not placed".
    let early = reconcile::<JournalEntry>(&client, &store, journal_id, &short())
        .await
        .unwrap();
    assert!(matches!(early, Resolution::StillUnknown(_)), "{early:?}");
    tokio::time::sleep(Duration::from_secs(4)).await;
    let resolution = reconcile_when_settled(&client, &store, journal_id).await;
    assert!(
        matches!(resolution, Resolution::Placed { .. }),
        "{resolution:?}"
    );
    let entry = store.orders().entry(journal_id).unwrap().unwrap();
    assert_eq!(entry.claimed.len(), 3, "{:?}", entry.claimed);
    assert_eq!(orders_created(&sb).await, 1);
}

/// An order journaled and not yet answered (on its way, here or in another process) cannot be
/// settled "not placed": it could still arrive. Nor can one sent with another key be judged by
/// this one's account: it stays unknown, to be checked with the key it was sent with.
#[tokio::test]
async fn what_may_still_arrive_or_was_sent_with_another_key_is_never_settled_not_placed() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    let buy = order(OrderType::Market, Direction::Buy, "300", None);
    let ready = nordlys_core::orders::Prepared::read(&client, &store, &buy)
        .await
        .unwrap();
    let nordlys_core::store::Claim::Journaled(id) = store
        .orders()
        .add(&ready.entry(chrono::Utc::now()), false)
        .unwrap()
    else {
        panic!("not journaled")
    };
    let refused = nordlys_core::journal::settle_not_made(&client, &store, id, &short())
        .await
        .unwrap_err();
    assert!(
        matches!(
            refused,
            nordlys_core::journal::SettleError::Refused {
                why: nordlys_core::journal::SettleRefusal::InFlight { .. },
                ..
            }
        ),
        "{refused:?}"
    );
    assert_eq!(
        store.orders().entry(id).unwrap().unwrap().state,
        JournalState::Sending
    );

    // Lost with the trading key, then checked with another user's key: no judgement. Another
    // key of the same accounts (a rotated one) sees them, and judges.
    sb.state.add_fault(fault(FaultKind::Http500));
    let lost = order(OrderType::Market, Direction::Buy, "450", None);
    let Placement::Unknown { journal_id, .. } =
        place(&client, &store, &lost, false, &store.money_turn().await)
            .await
            .unwrap()
    else {
        panic!("not lost")
    };
    let other_user = key_client(&sb, &sb.info.second_user.api_keys.withdrawal);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let seen = reconcile::<JournalEntry>(&other_user, &store, journal_id, &short())
        .await
        .unwrap();
    assert!(
        matches!(&seen, Resolution::StillUnknown(WhyUnknown::OtherAccounts)),
        "{seen:?}"
    );
    let rotated = key_client(&sb, &sb.info.api_keys.withdrawal);
    assert_eq!(
        reconcile::<JournalEntry>(&rotated, &store, journal_id, &short())
            .await
            .unwrap(),
        Resolution::NotPlaced
    );
}

/// A quit or crash mid-ladder: the rungs whose turn had not come never left. Once their run
/// would have given up they are settled "not placed" (not held for good), and a sender that
/// comes back for one finds it settled and sends nothing.
#[tokio::test]
async fn a_ladder_stopped_mid_run_leaves_its_unsent_rungs_not_placed() {
    use chrono::TimeZone;
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let store = Store::in_memory().unwrap();
    let plan = nordlys_core::plans::PlanForm {
        buy_nok: "900".into(),
        every: "day".into(),
        at: "07:00".into(),
        rungs: Some("3".into()),
        step: Some("2".into()),
        ..nordlys_core::plans::PlanForm::default()
    }
    .parse()
    .unwrap();
    let made = chrono::Utc.with_ymd_and_hms(2030, 3, 1, 12, 0, 0).unwrap();
    let plan_id = store.plans().add(&plan, None, made).unwrap();
    let low = |amount| {
        order(
            OrderType::Limit,
            Direction::Buy,
            amount,
            Some(NokPerBtc::computed(Decimal::from(100_000))),
        )
    };
    let requests = [low("300"), low("301"), low("302")];
    let ready = nordlys_core::orders::Prepared::read_all(&client, &store, &requests)
        .await
        .unwrap();
    let entries: Vec<_> = ready.iter().map(|p| p.entry(chrono::Utc::now())).collect();
    let morning = chrono::Utc.with_ymd_and_hms(2030, 3, 2, 6, 30, 0).unwrap();
    let (_, ids) = store
        .plans()
        .claim(
            &store.plans().get(plan_id).unwrap().unwrap(),
            morning,
            &entries,
            None,
        )
        .unwrap()
        .send
        .unwrap();
    let mut ready = ready.into_iter();
    // The first rung is sent; then the run stops, its other rungs still queued.
    let first = ready.next().unwrap();
    assert!(matches!(
        first
            .send(&client, &store, ids[0], &store.money_turn().await)
            .await
            .unwrap(),
        Placement::Placed { .. }
    ));
    let rules = short().with_longest_wait(chrono::Duration::seconds(1));
    assert!(matches!(
        reconcile::<JournalEntry>(&client, &store, ids[1], &rules)
            .await
            .unwrap(),
        Resolution::StillUnknown(_)
    ));
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let looked =
        nordlys_core::recheck::recheck(&client, &store, &rules, nordlys_core::recheck::Due::All)
            .await
            .unwrap();
    assert!(looked.iter().any(|(id, _)| *id == ids[1]), "{looked:?}");
    for id in &ids[1..] {
        assert_eq!(
            store.orders().entry(*id).unwrap().unwrap().state,
            JournalState::NotPlaced
        );
    }
    // The sender, back for its second rung, sends nothing.
    let second = ready.next().unwrap();
    assert!(matches!(
        second
            .send(&client, &store, ids[1], &store.money_turn().await)
            .await,
        Err(nordlys_core::orders::OrderError::SettledBeforeSent(_))
    ));
    assert_eq!(
        control_get(&sb, "/sandbox/counters").await["ordersCreated"],
        1
    );
}
