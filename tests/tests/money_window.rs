#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! Pay and Trade through the app's own command handler: what was confirmed is what is sent, and
//! an unknown order holds back only the cancels it could concern, and not forever.

mod app_driver;

use app_driver::{call, connected_app};
use nordlys_core::store::Store;
use nordlys_sandbox::{FaultKind, FaultRule};
use nordlys_tests::*;
use serde_json::{Value, json};

/// The form `payment` with the fingerprint of the check `check_payment` gave for `reviewed`.
fn as_reviewed(mut form: Value, reviewed: &Value) -> Value {
    form["reviewed"] = reviewed["reviewed"].clone();
    form
}

fn payment(amount: &str, unit: &str, confirmed: Option<&str>) -> Value {
    let mut args = json!({
        "destination": "kari@example.com", "amount": amount, "unit": unit, "accountId": null,
        "isPayment": false, "description": "",
        "recipient": {"fullName": "Kari Nordmann", "country": "NO", "address": "Storgata 1, Oslo",
                      "nin": "", "organisation": false, "exchange": "", "selfCustody": true},
        "saveRecipient": false, "label": ""
    });
    if let Some(c) = confirmed {
        args["confirmedAmountBtc"] = json!(c);
    }
    args
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_in_nok_sends_the_btc_amount_confirmed_from_the_account_shown() {
    let sb = sandbox().await;
    let (_app, window, dir) = connected_app(&sb, None).await;
    let checked = call(&window, "check_payment", payment("150", "nok", None))
        .await
        .unwrap();
    let confirmed = checked["amountBtcRaw"].as_str().unwrap().to_owned();

    // The price moves 10 % after the review: the confirmation no longer holds.
    control(&sb, "/sandbox/price", json!({"movePercent": 10})).await;
    let refused = call(
        &window,
        "send_payment",
        as_reviewed(payment("150", "nok", Some(&confirmed)), &checked),
    )
    .await
    .unwrap_err();
    assert!(refused.contains("review it again"), "{refused}");

    // Reviewed again: exactly the BTC amount shown is sent, from the account shown.
    let checked = call(&window, "check_payment", payment("150", "nok", None))
        .await
        .unwrap();
    let confirmed = checked["amountBtcRaw"].as_str().unwrap().to_owned();
    control(&sb, "/sandbox/price", json!({"movePercent": 1})).await;
    let sent = call(
        &window,
        "send_payment",
        as_reviewed(payment("150", "nok", Some(&confirmed)), &checked),
    )
    .await
    .unwrap();
    assert_eq!(sent["payment"]["state"], "sent", "{sent}");
    let world = sb.state.lock();
    let w = world.withdrawals.last().unwrap();
    assert_eq!(
        w.amount_btc,
        confirmed.parse::<rust_decimal::Decimal>().unwrap()
    );
    let first = world
        .accounts
        .iter()
        .find(|a| a.deleted.is_none())
        .unwrap()
        .id
        .clone();
    drop(world);
    let store = Store::open(&dir.path().join("profiles/exchange/nordlys.sqlite")).unwrap();
    let entry = store.withdrawals_recent(1).unwrap().remove(0);
    let request: Value = serde_json::from_str(&entry.request).unwrap();
    assert_eq!(
        request["accountId"],
        first.as_str(),
        "the account was sent, not left to the exchange"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmation_sends_only_the_form_it_reviewed() {
    let sb = sandbox().await;
    let (_app, window, _dir) = connected_app(&sb, None).await;
    let before = sb.state.lock().withdrawals.len();
    let reviewed = call(&window, "check_payment", payment("1000", "sats", None))
        .await
        .unwrap();
    assert_eq!(reviewed["ok"], true, "{reviewed}");

    // The amount changed on screen after the review; the confirmation still carries the old check.
    let changed = as_reviewed(payment("100000", "sats", None), &reviewed);
    let refused = call(&window, "send_payment", changed).await.unwrap_err();
    assert!(refused.contains("review it again"), "{refused}");
    // A confirmation with no review at all is refused the same way.
    let unreviewed = call(&window, "send_payment", payment("1000", "sats", None))
        .await
        .unwrap_err();
    assert!(unreviewed.contains("review it again"), "{unreviewed}");
    assert_eq!(
        sb.state.lock().withdrawals.len(),
        before,
        "nothing was sent"
    );

    // The form as reviewed goes through, once.
    let sent = call(
        &window,
        "send_payment",
        as_reviewed(payment("1000", "sats", None), &reviewed),
    )
    .await
    .unwrap();
    assert_eq!(sent["payment"]["state"], "sent", "{sent}");
    let world = sb.state.lock();
    assert_eq!(world.withdrawals.len(), before + 1);
    assert_eq!(
        world.withdrawals[before].amount_btc,
        "0.00001".parse::<rust_decimal::Decimal>().unwrap()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_held_by_an_unknown_order_may_go_ahead_once_it_has_been_quiet_long_enough() {
    let sb = sandbox().await;
    let (_app, window, _dir) = connected_app(&sb, Some((chrono::Duration::seconds(3), 5))).await;
    let quote = call(&window, "quote", json!({"amountNok": null}))
        .await
        .unwrap();
    let bid: rust_decimal::Decimal = quote["bidRaw"].as_str().unwrap().parse().unwrap();
    let low = (bid * rust_decimal::Decimal::new(8, 1)).round_dp(2);
    // A limit buy of 500 whose answer is lost before the exchange took it.
    sb.state.add_fault(FaultRule {
        path: "/v1/orders".into(),
        method: Some("POST".into()),
        kind: FaultKind::Http500,
        count: Some(1),
        percent: None,
        delay_ms: 0,
    });
    let lost = call(
        &window,
        "place_order",
        json!({"orderType": "limit", "direction": "buy", "amount": "500",
               "price": low.to_string(), "accountId": null}),
    )
    .await
    .unwrap();
    assert_eq!(lost["outcome"], "unknown", "{lost}");
    // Another open buy, of 300, made elsewhere: the lost one could be its rest.
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let other = client
        .create_order(&nordlys_exchange::models::NewOrderRequest {
            order_type: nordlys_exchange::models::OrderType::Limit,
            direction: nordlys_exchange::models::Direction::Buy,
            amount: rust_decimal::Decimal::from(300),
            account_id: None,
            description: String::new(),
            price: Some(low),
        })
        .await
        .unwrap()
        .order_id
        .to_string();
    let held = call(&window, "cancel_order", json!({"orderId": other}))
        .await
        .unwrap_err();
    assert!(held.contains("still checking"), "{held}");
    // Quiet for longer than the quiet period: the user may cancel anyway, after a plain warning.
    tokio::time::sleep(std::time::Duration::from_millis(3500)).await;
    let warned = call(&window, "cancel_order", json!({"orderId": other}))
        .await
        .unwrap_err();
    assert!(warned.contains("Cancel anyway"), "{warned}");
    call(
        &window,
        "cancel_order",
        json!({"orderId": other, "anyway": true}),
    )
    .await
    .unwrap();
    assert!(client.open_orders().await.unwrap().orders.is_empty());
}
