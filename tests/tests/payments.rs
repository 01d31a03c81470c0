#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! Paying and receiving against the sandbox: the pay form's request is what the exchange accepts,
//! a lost answer ends in exactly one withdrawal (or none), found by the app's own check, and the
//! withdrawal's status is followed to the end.

use nordlys_core::doubt::WhyUnknown;
use std::time::{Duration, SystemTime};

use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::evidence::Rules;
use nordlys_core::format::Locale;
use nordlys_core::pay_form::{self, Known, PayContext, PayForm};
use nordlys_core::store::{Store, WithdrawalEntry, WithdrawalState};
use nordlys_core::travel_rule::RecipientForm;
use nordlys_core::withdrawals::{self, Resolution, Sending};
use nordlys_exchange::ExchangeClient;
use nordlys_exchange::models::{SendBitcoinRequest, WithdrawalStatus};
use nordlys_money::{Btc, NokPerBtc};
use nordlys_sandbox::{FaultKind, FaultRule, RunningSandbox};
use nordlys_tests::*;
use rust_decimal::Decimal;

/// Sends `request` as a script does: on the store's own money turn, and refused while the same
/// payment is unknown.
async fn send(
    client: &ExchangeClient,
    store: &Store,
    request: &SendBitcoinRequest,
    identity: &str,
    amount: Btc,
) -> Result<Sending, withdrawals::WithdrawalError> {
    let turn = store.money_turn().await;
    withdrawals::send(client, store, request, identity, amount, false, &turn).await
}

fn ctx() -> PayContext {
    PayContext {
        now: SystemTime::now(),
        locale: Locale::En,
        price: NokPerBtc::computed(Decimal::from(1_000_000)),
        available_btc: Btc::from_sats(100_000_000),
    }
}

fn kari() -> RecipientForm {
    RecipientForm {
        full_name: "Kari Nordmann".into(),
        country: "NO".into(),
        address: "Storgata 1, 0155 Oslo".into(),
        ..RecipientForm::default()
    }
}

fn request(store: &Store, destination: &str, amount: &str) -> (SendBitcoinRequest, String, Btc) {
    let form = PayForm {
        destination: destination.into(),
        amount: amount.into(),
        unit: BitcoinAmountUnit::Sats,
        account_id: None,
        is_payment: false,
        description: "test".into(),
        recipient: kari(),
    };
    let c = pay_form::check(&form, &ctx(), |dest| Known {
        saved: store.recipients().get(&dest.identity()).unwrap(),
        used_before: store
            .withdrawals()
            .destination_used(&dest.identity())
            .unwrap(),
        own_invoice: false,
        paid_invoice: false,
    });
    let d = c.destination.clone().expect("recognised");
    (
        c.request.expect("ready"),
        d.identity(),
        c.amount_btc.unwrap(),
    )
}

async fn withdrawals_created(sb: &RunningSandbox) -> u64 {
    control_get(sb, "/sandbox/counters").await["withdrawalsCreated"]
        .as_u64()
        .unwrap()
}

#[tokio::test]
async fn a_pasted_invoice_is_paid_with_its_own_amount_and_followed_to_completed() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.withdrawal);
    let store = Store::in_memory().unwrap();
    let other = control(
        &sb,
        "/sandbox/invoices",
        serde_json::json!({"amountBtc": 0.000125}),
    )
    .await;
    let invoice = other["invoice"].as_str().unwrap();
    let (req, identity, amount) =
        request(&store, &format!("lightning:{}", invoice.to_uppercase()), "");
    assert_eq!(amount, Btc::from_sats(12_500));
    assert_eq!(
        req.amount_btc, None,
        "an invoice's amount comes from the invoice"
    );
    let sent = send(&client, &store, &req, &identity, amount)
        .await
        .unwrap();
    let Sending::Sent { journal_id, .. } = sent else {
        panic!("{sent:?}")
    };
    // Another user's invoice may complete at once; otherwise the tracker follows it there.
    let status = |store: &Store| {
        store
            .withdrawals()
            .entry(journal_id)
            .unwrap()
            .unwrap()
            .status
    };
    for _ in 0..50 {
        if status(&store) == Some(WithdrawalStatus::Completed) {
            break;
        }
        withdrawals::track(&client, &store).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(status(&store), Some(WithdrawalStatus::Completed));
    assert!(store.withdrawals().on_the_way().unwrap().is_empty());
    assert!(store.withdrawals().destination_used(&identity).unwrap());
    assert_eq!(
        store
            .withdrawals()
            .entry(journal_id)
            .unwrap()
            .unwrap()
            .state,
        WithdrawalState::Sent
    );
}

#[tokio::test]
async fn the_second_payment_to_an_address_needs_no_recipient_form() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.withdrawal);
    let store = Store::in_memory().unwrap();
    let (first, identity, amount) = request(&store, "Ola@Example.com", "20000");
    assert!(first.tfr_info.is_some());
    send(&client, &store, &first, &identity, amount)
        .await
        .unwrap();
    let (second, _, _) = request(&store, "ola@example.com", "20000");
    assert!(
        second.tfr_info.is_none(),
        "the exchange knows the destination now"
    );
    let again = send(&client, &store, &second, &identity, amount).await;
    assert!(matches!(again, Ok(Sending::Sent { .. })), "{again:?}");
    assert_eq!(withdrawals_created(&sb).await, 2);
    // Both are pending on the network; the tracker reports each change once.
    let mut completed = 0;
    for _ in 0..40 {
        let changes = withdrawals::track(&client, &store).await.unwrap();
        completed += changes
            .iter()
            .filter(|c| c.status == WithdrawalStatus::Completed)
            .count();
        if completed == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(completed, 2);
    assert!(
        withdrawals::track(&client, &store)
            .await
            .unwrap()
            .is_empty()
    );
}

/// A fault on the next withdrawal request only.
fn next_withdrawal(kind: FaultKind) -> FaultRule {
    FaultRule {
        path: "/v1/withdrawals/bitcoin".into(),
        method: Some("POST".into()),
        kind,
        count: Some(1),
        percent: None,
        delay_ms: 0,
    }
}

/// Reconciles until the answer is known, or 10 s have passed, with the quiet period shortened to
/// 2 s. Lightning settles after 2 s in the sandbox; until then the reserve shows, and the app
/// waits.
async fn reconcile_until_known(
    client: &ExchangeClient,
    store: &Store,
    journal_id: i64,
) -> Resolution {
    let rules = Rules::with_min_quiet(chrono::Duration::seconds(2));
    let mut resolution =
        nordlys_core::journal::reconcile::<WithdrawalEntry>(client, store, journal_id, &rules)
            .await
            .unwrap();
    for _ in 0..40 {
        if !matches!(resolution, Resolution::StillUnknown(_)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        resolution =
            nordlys_core::journal::reconcile::<WithdrawalEntry>(client, store, journal_id, &rules)
                .await
                .unwrap();
    }
    resolution
}

async fn after_fault(kind: FaultKind) -> (RunningSandbox, Store, i64, Resolution) {
    let sb = sandbox().await;
    let mut client = key_client(&sb, &sb.info.api_keys.withdrawal);
    if kind == FaultKind::CommitThenHang {
        let mut config = nordlys_exchange::ClientConfig::new(
            nordlys_exchange::BaseUrl::parse(sb.base_url()).unwrap(),
        );
        config.credentials = nordlys_exchange::Credentials {
            key: Some(key(&sb.info.api_keys.withdrawal)),
            bearer: None,
        };
        config.timeout = Duration::from_secs(1);
        client = nordlys_exchange::ExchangeClient::new(config).unwrap();
    }
    let store = Store::in_memory().unwrap();
    sb.state.add_fault(next_withdrawal(kind));
    let (req, identity, amount) = request(&store, "kari@example.com", "5000");
    let sent = send(&client, &store, &req, &identity, amount)
        .await
        .unwrap();
    let Sending::Unknown { journal_id, .. } = sent else {
        panic!("{sent:?}")
    };
    let resolution = reconcile_until_known(&client, &store, journal_id).await;
    (sb, store, journal_id, resolution)
}

#[tokio::test]
async fn commit_then_never_answer_ends_with_exactly_one_withdrawal() {
    let (sb, store, journal_id, resolution) = after_fault(FaultKind::CommitThenHang).await;
    assert!(
        matches!(resolution, Resolution::Sent { .. }),
        "{resolution:?}"
    );
    assert_eq!(withdrawals_created(&sb).await, 1);
    assert_eq!(
        store
            .withdrawals()
            .entry(journal_id)
            .unwrap()
            .unwrap()
            .state,
        WithdrawalState::Sent
    );
}

#[tokio::test]
async fn a_lost_request_that_never_committed_is_resolved_as_not_sent() {
    let (sb, store, journal_id, resolution) = after_fault(FaultKind::Http500).await;
    assert_eq!(resolution, Resolution::NotSent);
    assert_eq!(withdrawals_created(&sb).await, 0);
    assert_eq!(
        store
            .withdrawals()
            .entry(journal_id)
            .unwrap()
            .unwrap()
            .state,
        WithdrawalState::NotSent
    );
}

#[tokio::test]
async fn an_invoice_created_in_nok_is_paid_by_the_sandbox() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.read);
    let created = client
        .create_invoice(&nordlys_exchange::models::NewLightningInvoiceRequest {
            account_id: None,
            currency: nordlys_exchange::models::Currency::Nok,
            amount: Decimal::from(250),
            public_description: "Kaffe".into(),
            internal_description: "bord 4".into(),
        })
        .await
        .unwrap();
    let parsed = nordlys_core::destination::parse(&created.invoice, SystemTime::now()).unwrap();
    let nordlys_core::destination::Destination::Invoice(info) = parsed else {
        panic!()
    };
    assert!(
        info.amount_btc.unwrap().is_positive(),
        "NOK became a fixed BTC amount"
    );
    control(
        &sb,
        &format!("/sandbox/invoices/{}/pay", created.deposit_destination_id),
        serde_json::json!({}),
    )
    .await;
    let status = client
        .invoice(created.deposit_destination_id.as_str())
        .await
        .unwrap()
        .status;
    assert_eq!(status.to_string(), "INVOICE_STATUS_PAID");
}

#[tokio::test]
async fn a_lost_withdrawal_is_resolved_although_another_one_moved_the_balance() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.withdrawal);
    let store = Store::in_memory().unwrap();
    sb.state.add_fault(next_withdrawal(FaultKind::Http500));
    let (req, identity, amount) = request(&store, "kari@example.com", "5000");
    let Sending::Unknown { journal_id, .. } = send(&client, &store, &req, &identity, amount)
        .await
        .unwrap()
    else {
        panic!("not lost")
    };
    // A second payment goes through and completes: the available balance is no longer the one
    // before the lost request, yet nothing of the lost one is pending or completed.
    let (req, identity, amount) = request(&store, "kari@example.com", "7000");
    send(&client, &store, &req, &identity, amount)
        .await
        .unwrap();
    let resolution = reconcile_until_known(&client, &store, journal_id).await;
    assert_eq!(resolution, Resolution::NotSent);
    assert_eq!(withdrawals_created(&sb).await, 1);
}

/// Checks made while a payment is still on its way (other screens, polls) judge nothing: the
/// sender's own answer decides, and it is never "not sent" in between.
#[tokio::test(flavor = "multi_thread")]
async fn a_slow_payment_checked_on_its_way_ends_sent_and_never_not_sent() {
    let sb = sandbox().await;
    let client = std::sync::Arc::new(key_client(&sb, &sb.info.api_keys.withdrawal));
    let store = std::sync::Arc::new(Store::in_memory().unwrap());
    sb.state.add_fault(FaultRule {
        delay_ms: 1500,
        ..next_withdrawal(FaultKind::Delay)
    });
    let (req, identity, amount) = request(&store, "kari@example.com", "6000");
    let sender = {
        let (client, store) = (client.clone(), store.clone());
        tokio::spawn(async move { send(&client, &store, &req, &identity, amount).await })
    };
    // Even with no quiet period at all, nothing is concluded while it is on its way.
    let eager = Rules::with_min_quiet(chrono::Duration::zero());
    let mut looked = 0;
    while !sender.is_finished() {
        for e in store.withdrawals().unresolved().unwrap() {
            let r =
                nordlys_core::journal::reconcile::<WithdrawalEntry>(&client, &store, e.id, &eager)
                    .await
                    .unwrap();
            assert_ne!(r, Resolution::NotSent, "judged while on its way");
            looked += 1;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(looked > 0, "no check ran while the payment was on its way");
    let sent = sender.await.unwrap().unwrap();
    let Sending::Sent { journal_id, .. } = sent else {
        panic!("{sent:?}")
    };
    assert_eq!(
        store
            .withdrawals()
            .entry(journal_id)
            .unwrap()
            .unwrap()
            .state,
        WithdrawalState::Sent
    );
}

/// The exchange took the payment, then the journal could not be written (another process held
/// the database): the answer is still "sent", with a warning, and the next check records it.
#[tokio::test(flavor = "multi_thread")]
async fn a_failing_local_write_after_the_exchange_took_it_still_says_sent() {
    let sb = sandbox().await;
    let client = std::sync::Arc::new(key_client(&sb, &sb.info.api_keys.withdrawal));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nordlys.sqlite");
    let store = std::sync::Arc::new(Store::open(&path).unwrap());
    // The answer comes 3 s after the journal's entry: time for the other process to take the
    // database first even on a loaded machine (800 ms was missed once with two test binaries
    // beside the crash test's fsyncs, and the write then went through).
    sb.state.add_fault(FaultRule {
        delay_ms: 3_000,
        ..next_withdrawal(FaultKind::Delay)
    });
    let (req, identity, amount) = request(&store, "kari@example.com", "6500");
    let sender = {
        let (client, store) = (client.clone(), store.clone());
        tokio::spawn(async move { send(&client, &store, &req, &identity, amount).await })
    };
    while store.withdrawals().unresolved().unwrap().is_empty() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Another process takes the database for longer than a writer waits (10 s) after the
    // answer.
    let holder = std::thread::spawn(move || {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.execute_batch("BEGIN EXCLUSIVE").unwrap();
        std::thread::sleep(Duration::from_secs(14));
        db.execute_batch("COMMIT").unwrap();
    });
    let sent = sender.await.unwrap().unwrap();
    let Sending::Sent {
        journal_id,
        warning,
        ..
    } = sent
    else {
        panic!("a failed local write was reported as {sent:?}")
    };
    assert!(warning.is_some(), "the failed write is not mentioned");
    holder.join().unwrap();
    let rules = Rules::with_min_quiet(chrono::Duration::seconds(2));
    let mut r = Resolution::NotSent;
    for _ in 0..20 {
        r = nordlys_core::journal::reconcile::<WithdrawalEntry>(
            &client, &store, journal_id, &rules,
        )
        .await
        .unwrap();
        if matches!(r, Resolution::Sent { .. }) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(matches!(r, Resolution::Sent { .. }), "{r:?}");
    assert_eq!(withdrawals_created(&sb).await, 1);
}

/// The window re-checks unknown entries every 15 s: one look at the account serves all of them,
/// and one long in doubt is looked at every ten minutes, not on every tick.
#[tokio::test]
async fn one_look_serves_every_unknown_entry_and_old_doubts_wait_their_turn() {
    use nordlys_core::recheck::{Due, recheck};
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.withdrawal);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nordlys.sqlite");
    let store = Store::open(&path).unwrap();
    for amount in ["5100", "5200"] {
        sb.state.add_fault(next_withdrawal(FaultKind::Http500));
        let (req, identity, amount) = request(&store, "kari@example.com", amount);
        let sent = send(&client, &store, &req, &identity, amount)
            .await
            .unwrap();
        assert!(matches!(sent, Sending::Unknown { .. }), "{sent:?}");
    }
    let reads = |counters: &serde_json::Value, path: &str| counters["requests"][path].as_u64();
    let before = control_get(&sb, "/sandbox/counters").await;
    let rules = Rules::default();
    let looked = recheck(&client, &store, &rules, Due::Now).await.unwrap();
    assert_eq!(looked.len(), 2);
    let after = control_get(&sb, "/sandbox/counters").await;
    for path in [
        "/v1/tax/transactions",
        "/v1/user/bitcoin-accounts",
        "/v1/orders",
    ] {
        assert_eq!(
            reads(&after, path).unwrap_or_default() - reads(&before, path).unwrap_or_default(),
            1,
            "{path} read once for both"
        );
    }
    // Given up on two hours ago, and just checked: not due again yet, unless asked.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE withdrawal_journal SET gave_up_at_ms = gave_up_at_ms - 7200000",
            [],
        )
        .unwrap();
    assert!(
        recheck(&client, &store, &rules, Due::Now)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        recheck(&client, &store, &rules, Due::All)
            .await
            .unwrap()
            .len(),
        2
    );
}

/// The review's first scenario: a payment's answer is lost, and the user then enters the key of
/// their other account at the same exchange. That account shows no trace of the payment, which
/// is no evidence: however long the quiet, it stays unknown (never "not sent", which would make
/// the user pay again), the watcher passes it by, and entering the key says so. A key of its own
/// accounts (another of the same user's) judges it.
#[tokio::test]
async fn a_lost_payment_is_never_judged_through_another_accounts_key() {
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.withdrawal);
    let store = Store::in_memory().unwrap();
    sb.state.add_fault(next_withdrawal(FaultKind::Http500));
    let (req, identity, amount) = request(&store, "kari@example.com", "5000");
    let sent = send(&client, &store, &req, &identity, amount)
        .await
        .unwrap();
    let Sending::Unknown { journal_id, .. } = sent else {
        panic!("{sent:?}")
    };
    let other = key_client(&sb, &sb.info.second_user.api_keys.withdrawal);
    let rules = Rules::with_min_quiet(chrono::Duration::seconds(1));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for _ in 0..3 {
        let seen =
            nordlys_core::journal::reconcile::<WithdrawalEntry>(&other, &store, journal_id, &rules)
                .await
                .unwrap();
        assert!(
            matches!(&seen, Resolution::StillUnknown(WhyUnknown::OtherAccounts)),
            "{seen:?}"
        );
    }
    let looked =
        nordlys_core::recheck::recheck(&other, &store, &rules, nordlys_core::recheck::Due::All)
            .await
            .unwrap();
    assert!(looked.is_empty(), "{looked:?}");
    let here = nordlys_core::account_identity::origin_here(&other, &store)
        .await
        .unwrap();
    assert_eq!(
        nordlys_core::account_identity::unresolved_elsewhere(&store, &here).unwrap(),
        1
    );
    assert_ne!(
        store
            .withdrawals()
            .entry(journal_id)
            .unwrap()
            .unwrap()
            .state,
        WithdrawalState::NotSent
    );
    let own = key_client(&sb, &sb.info.api_keys.read);
    assert_eq!(
        nordlys_core::journal::reconcile::<WithdrawalEntry>(&own, &store, journal_id, &rules)
            .await
            .unwrap(),
        Resolution::NotSent
    );
    assert_eq!(withdrawals_created(&sb).await, 0);
}
