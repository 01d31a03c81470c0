#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! Pay through the app's own command handler: what was confirmed is what is sent.

mod app_driver;

use app_driver::{call, connected_app};
use nordlys_core::store::Store;
use nordlys_tests::*;
use serde_json::{Value, json};

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
        payment("150", "nok", Some(&confirmed)),
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
        payment("150", "nok", Some(&confirmed)),
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
