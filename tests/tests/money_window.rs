#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! Pay and Trade through the app's own use cases: what was confirmed is what is sent, and
//! an unknown order holds back only the cancels it could concern, and not forever.

mod app_driver;

use nordlys_core::seen::Read;

use app_driver::{connected_app, kari, order, place_form, reviewed_app, send_reviewed};
use nordlys_application::error::ErrorCode;
use nordlys_application::pay_views::{PayArgs, SendPaymentArgs};
use nordlys_application::present::Present;
use nordlys_application::profile_views::SetLanguageArgs;
use nordlys_application::trade_views::{CancelOrderArgs, QuoteArgs};
use nordlys_application::vocabulary::{Direction, OrderOutcome};
use nordlys_application::wording::key;
use nordlys_application::{pay, profiles, trading};
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::format::Locale;
use nordlys_core::store::WithdrawalState;
use nordlys_sandbox::{FaultKind, FaultRule};
use nordlys_tests::*;
use serde_json::{Value, json};

/// A message's words before its first value, in English: how the window's sentence opens.
/// Its values are a marker, to cut at.
fn opening(m: nordlys_application::wording::Message) -> String {
    let words = m.render(Locale::En);
    words.split('\u{1}').next().unwrap_or_default().to_owned()
}

/// The estimate's message `KEY`, its price and time the marker [`opening`] cuts at.
macro_rules! estimate {
    ($key:ident) => {
        nordlys_application::msg!($key {
            price: "\u{1}",
            time: "\u{1}"
        })
    };
}

fn payment(amount: &str, unit: BitcoinAmountUnit) -> PayArgs {
    app_driver::payment("kari@example.com", amount, unit, kari())
}

fn cancel(order_id: &str, anyway: bool) -> CancelOrderArgs {
    CancelOrderArgs {
        order_id: order_id.into(),
        anyway: anyway.then_some(true),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_in_nok_sends_the_btc_amount_confirmed_from_the_account_shown() {
    let sb = sandbox().await;
    let (app, dir) = connected_app(&sb, None).await;
    let nok = BitcoinAmountUnit::Nok;
    let checked = pay::check_payment(&app, payment("150", nok)).await.unwrap();

    // The price moves 10 % after the review: the confirmation no longer holds.
    control(&sb, "/sandbox/price", json!({"movePercent": 10})).await;
    let refused = send_reviewed(&app, &checked.reviewed, false, false)
        .await
        .unwrap_err();
    assert!(refused.says(key::PAYMENT_PRICE_MOVED), "{refused:?}");

    // Reviewed again: exactly the BTC amount shown is sent, from the account shown.
    let checked = pay::check_payment(&app, payment("150", nok)).await.unwrap();
    let confirmed = checked.check.amount_btc.unwrap().to_string();
    control(&sb, "/sandbox/price", json!({"movePercent": 1})).await;
    let sent = send_reviewed(&app, &checked.reviewed, false, false)
        .await
        .unwrap();
    assert_eq!(sent.payment.entry.state, WithdrawalState::Sent, "{sent:?}");
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
    let store = app_driver::profile_db(&app, dir.path(), "exchange");
    let entry = store.withdrawals().recent(1).unwrap().remove(0);
    let request: Value = serde_json::from_str(&entry.request).unwrap();
    assert_eq!(
        request["accountId"],
        first.as_str(),
        "the account was sent, not left to the exchange"
    );
}

/// What you see is what you send: the window names a review by its one-time id and cannot
/// supply the payment; the native confirmation shows the request Rust prepared, and only its
/// "Send" sends it, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_that_changes_the_payment_after_the_review_cannot_get_another_sent() {
    let sb = sandbox().await;
    let (app, _dir, reviewer) = reviewed_app(&sb, None).await;
    let sats = BitcoinAmountUnit::Sats;
    let before = sb.state.lock().withdrawals.len();
    let reviewed = pay::check_payment(&app, payment("1000", sats))
        .await
        .unwrap();
    assert!(reviewed.check.request.is_some(), "{reviewed:?}");

    // A window that puts another amount and destination beside the review's id is refused
    // before anything is read: sending takes the id and the go-aheads, nothing else.
    let tampered = json!({
        "reviewed": reviewed.reviewed,
        "amount": "100000",
        "destination": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    });
    assert!(serde_json::from_value::<SendPaymentArgs>(tampered).is_err());
    // A window that reviews another payment on the side gets that one's own id, and the
    // confirmation of the first still sends the first.
    let other = app_driver::payment(
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "100000",
        sats,
        kari(),
    );
    let side = pay::check_payment(&app, other).await.unwrap();
    assert_ne!(side.reviewed, reviewed.reviewed);
    // A made-up id sends nothing.
    let unknown = send_reviewed(&app, "0123456789abcdef0123456789abcdef", false, false)
        .await
        .unwrap_err();
    assert_eq!(unknown.code, ErrorCode::NotReviewed, "{unknown:?}");

    // Cancelled in the native dialog: nothing sent, and the review can still be confirmed.
    reviewer.cancel(true);
    let cancelled = send_reviewed(&app, &reviewed.reviewed, false, false)
        .await
        .unwrap_err();
    assert_eq!(cancelled.code, ErrorCode::NotConfirmed, "{cancelled:?}");
    assert_eq!(
        sb.state.lock().withdrawals.len(),
        before,
        "nothing was sent"
    );
    reviewer.cancel(false);

    let sent = send_reviewed(&app, &reviewed.reviewed, false, false)
        .await
        .unwrap();
    assert_eq!(sent.payment.entry.state, WithdrawalState::Sent, "{sent:?}");
    {
        let world = sb.state.lock();
        assert_eq!(world.withdrawals.len(), before + 1);
        let made = &world.withdrawals[before];
        assert_eq!(
            made.amount_btc,
            "0.00001".parse::<rust_decimal::Decimal>().unwrap()
        );
        assert_eq!(made.destination, "kari@example.com");
    }
    // Both dialogs showed the payment the review prepared, read back from its request.
    let shown = reviewer.shown();
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(
        shown.iter().all(|t| t.title.contains("0.00001000\u{a0}BTC")
            && t.message.contains("kari@example.com")
            && t.message.contains("Kari Nordmann (NO)")),
        "{shown:?}"
    );
    // The id is used up by the send: the same confirmation never sends twice.
    let twice = send_reviewed(&app, &reviewed.reviewed, false, true)
        .await
        .unwrap_err();
    assert_eq!(twice.code, ErrorCode::NotReviewed, "{twice:?}");
    assert_eq!(sb.state.lock().withdrawals.len(), before + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_held_by_an_unknown_order_may_go_ahead_once_it_has_been_quiet_long_enough() {
    let sb = sandbox().await;
    let (app, _dir, user) = reviewed_app(&sb, Some((chrono::Duration::seconds(3), 5))).await;
    let quote = trading::quote(&app, QuoteArgs::default()).await.unwrap();
    let bid: rust_decimal::Decimal = quote.price.bid.decimal();
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
    let lost = place_form(
        &app,
        order(Direction::Buy, 500, Some(low.to_string())),
        false,
    )
    .await
    .unwrap();
    assert_eq!(lost.outcome(), OrderOutcome::Unknown, "{lost:?}");
    // The same order again is refused, in the user's language (it was English in Norwegian).
    let norwegian = |on: bool| SetLanguageArgs {
        language: Some(if on { Locale::Nb } else { Locale::En }),
    };
    profiles::set_language(&app, norwegian(true)).await.unwrap();
    let again = place_form(
        &app,
        order(Direction::Buy, 500, Some(low.to_string())),
        false,
    )
    .await
    .unwrap_err();
    assert_eq!(again.code, ErrorCode::SameAsUnknown, "{again:?}");
    assert!(again.says(key::ORDER_SAME_AS_UNKNOWN), "{again:?}");
    assert_eq!(user.shown().len(), 1, "asked before the native dialog");
    // Worded in the user's language when the window gets it.
    assert_eq!(
        again.present(&app.viewer()).message,
        again.words(&nordlys_application::present::Viewer::plain(Locale::Nb)),
        "{again:?}"
    );
    profiles::set_language(&app, norwegian(false))
        .await
        .unwrap();
    // Another open buy, of 300, made elsewhere: the lost one could be its rest.
    let client = key_client(&sb, &sb.info.api_keys.trading);
    let other = client
        .create_order(&nordlys_exchange::models::NewOrderRequest {
            order_type: nordlys_exchange::models::OrderType::Limit,
            direction: nordlys_exchange::models::Direction::Buy,
            amount: rust_decimal::Decimal::from(300),
            account_id: None,
            description: String::new(),
            price: Some(nordlys_money::NokPerBtc::computed(low)),
        })
        .await
        .unwrap()
        .order_id
        .to_string();
    let held = trading::cancel_order(&app, &app.money_turn().await, cancel(&other, false))
        .await
        .unwrap_err();
    assert!(held.says(key::CANCEL_STILL_CHECKING), "{held:?}");
    // Quiet for longer than the quiet period: the user may cancel anyway, after a plain warning.
    tokio::time::sleep(std::time::Duration::from_millis(3500)).await;
    let warned = trading::cancel_order(&app, &app.money_turn().await, cancel(&other, false))
        .await
        .unwrap_err();
    assert!(warned.says(key::CANCEL_MAY_BE_UNKNOWN), "{warned:?}");
    trading::cancel_order(&app, &app.money_turn().await, cancel(&other, true))
        .await
        .unwrap();
    assert!(client.open_orders().await.unwrap().orders.is_empty());
}

/// A payment's NOK value is at the bid, what the bitcoin paid away is worth, not at the mid.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_s_nok_value_is_at_the_bid() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let quote = nordlys_application::trading::quote(
        &app,
        nordlys_application::trade_views::QuoteArgs { amount_nok: None },
    )
    .await
    .unwrap();
    let bid: rust_decimal::Decimal = quote.price.bid.decimal();
    let checked = pay::check_payment(&app, payment("0.01", BitcoinAmountUnit::Btc))
        .await
        .unwrap();
    let shown = checked.clone().present(&app.viewer());
    let at_bid = nordlys_core::format::nok(
        nordlys_money::Nok::computed(bid * rust_decimal::Decimal::new(1, 2)),
        nordlys_core::format::Locale::En,
    );
    assert_eq!(
        shown.estimate.as_ref().map(|e| e.text()),
        Some(at_bid.as_str()),
        "{shown:?}"
    );
    // Listed with its worth at the bid of the price last read, as the list reads the store only.
    let sent = send_reviewed(&app, &checked.reviewed, false, false)
        .await
        .unwrap()
        .present(&app.viewer());
    // Until the exchange lists it (then its row's rate of the day, tested in tax_window), and
    // said to be today's.
    use nordlys_application::pay_views::WorthWhen;
    let now = |p: &nordlys_application::pay_views::PaymentView| {
        p.worth
            .as_ref()
            .filter(|w| w.when == WorthWhen::Now)
            .map(|w| w.nok.text().to_owned())
    };
    assert_eq!(now(&sent.payment), Some(at_bid.clone()));
    let listed = pay::payments(&app, nordlys_application::NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    let listed = &listed.payments[0];
    if listed.network_id.is_none() {
        assert_eq!(now(listed), Some(at_bid), "{listed:?}");
    }
}

/// Bitcoin held is valued at the bid, and the overview says at which bid and when.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn holdings_are_valued_at_the_bid_with_its_time() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let shown = nordlys_application::profiles::balances(&app, nordlys_application::NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    let bid: rust_decimal::Decimal = nordlys_application::trading::quote(
        &app,
        nordlys_application::trade_views::QuoteArgs { amount_nok: None },
    )
    .await
    .unwrap()
    .price
    .bid
    .decimal();
    let said = shown.valued_at.clone().unwrap_or_default();
    assert!(
        said.starts_with(&opening(estimate!(VALUED_AT_BID))),
        "{said}"
    );
    for a in shown.accounts.iter().filter(|a| !a.deleted) {
        let btc: rust_decimal::Decimal = a.total_btc.exact().unwrap().decimal();
        let expected = btc * bid;
        let off = (a.total_nok.exact().unwrap().decimal() - expected).abs();
        // The price may take a step (0.015 %) between the two reads; the mid is 0.1 % away.
        assert!(
            off <= expected * rust_decimal::Decimal::new(5, 4) + rust_decimal::Decimal::ONE,
            "{}: {} is not {btc} at the bid {bid}",
            a.name,
            a.total_nok.text()
        );
        // The available part beside it, at the same bid.
        let available = a.available_btc.exact().unwrap().decimal();
        let expected = available * bid;
        let shown_nok = a.available_nok.as_ref().unwrap().exact().unwrap().decimal();
        assert!(
            (shown_nok - expected).abs()
                <= expected * rust_decimal::Decimal::new(5, 4) + rust_decimal::Decimal::ONE,
            "{}: {:?} is not {available} at the bid {bid}",
            a.name,
            a.available_nok
        );
    }
}

/// An order's estimate says what it is at: the ask with the quote's time when buying, the bid
/// when selling, the limit price for a limit order; an open sell order shows its worth at the bid,
/// and the pay form's available balance its worth beside it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_estimate_says_its_price_and_sells_show_their_worth() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let basis = |args| {
        let app = &app;
        async move {
            trading::check_order(app, args)
                .await
                .unwrap()
                .present(&app.viewer())
                .estimate_basis
                .unwrap_or_default()
        }
    };
    let buy = basis(order(Direction::Buy, "1000", None)).await;
    assert!(
        buy.starts_with(&opening(estimate!(ESTIMATE_AT_ASK))),
        "{buy}"
    );
    let sell = basis(order(Direction::Sell, "0.001", None)).await;
    assert!(
        sell.starts_with(&opening(estimate!(VALUED_AT_BID))),
        "{sell}"
    );
    let limit = basis(order(Direction::Sell, "0.001", Some("2000000".into()))).await;
    assert_eq!(limit, "at your limit price");
    let nothing = trading::check_order(&app, order(Direction::Buy, "", None))
        .await
        .unwrap()
        .present(&app.viewer());
    assert_eq!(nothing.estimate_basis, None);

    // A quote read stores the price sample the lists value bitcoin with.
    trading::quote(&app, QuoteArgs { amount_nok: None })
        .await
        .unwrap();
    let placed = place_form(
        &app,
        order(Direction::Sell, "0.002", Some("9000000".into())),
        false,
    )
    .await
    .unwrap();
    assert_eq!(placed.outcome(), OrderOutcome::Placed, "{placed:?}");
    let open = trading::open_orders(&app, nordlys_application::NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    let sold = open
        .orders
        .iter()
        .find(|o| Some(o.order_id.as_str()) == placed.order_id())
        .unwrap();
    let worth = sold.amount_nok.as_ref().unwrap();
    assert!(worth.text().starts_with("NOK\u{a0}"), "{sold:?}");
    assert!(worth.exact().unwrap().is_positive(), "{sold:?}");
    // What the exchange's list leaves out, from the journal: the limit price and the account.
    let price = sold.price.as_ref().and_then(|p| p.exact()).unwrap();
    assert_eq!(
        price.decimal(),
        rust_decimal::Decimal::from(9_000_000),
        "{sold:?}"
    );
    let sold_from = sb.state.lock().orders.last().unwrap().account.clone();
    assert_eq!(sold.account_id.as_ref(), Some(&sold_from), "{sold:?}");

    let checked = pay::check_payment(&app, payment("0.001", BitcoinAmountUnit::Btc))
        .await
        .unwrap()
        .present(&app.viewer());
    assert!(
        checked.available.text().ends_with("\u{a0}BTC")
            && checked.available.exact().is_some_and(|b| b.is_positive()),
        "{checked:?}"
    );
    let worth = checked.available_nok.as_ref().and_then(|n| n.exact());
    assert!(worth.is_some_and(|n| n.is_positive()), "{checked:?}");
}

/// A payment in doubt says what it is worth beside its bitcoin, as every listed payment does.
/// The next payment fails before the exchange makes it: its answer is an HTTP 500.
fn lose_the_next_payment(sb: &nordlys_sandbox::RunningSandbox) {
    sb.state.add_fault(FaultRule {
        path: "/v1/withdrawals/bitcoin".into(),
        method: Some("POST".into()),
        kind: FaultKind::Http500,
        count: Some(1),
        percent: None,
        delay_ms: 0,
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_in_doubt_shows_its_nok_worth() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, Some((chrono::Duration::seconds(60), 5))).await;
    trading::quote(&app, QuoteArgs { amount_nok: None })
        .await
        .unwrap();
    lose_the_next_payment(&sb);
    let checked = pay::check_payment(&app, payment("0.001", BitcoinAmountUnit::Btc))
        .await
        .unwrap();
    let sent = send_reviewed(&app, &checked.reviewed, false, false)
        .await
        .unwrap();
    assert_eq!(
        sent.payment.entry.state,
        WithdrawalState::Unknown,
        "{sent:?}"
    );
    let listed = nordlys_application::unknowns::unknowns(&app, nordlys_application::NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    let entry = &listed.entries[0];
    assert!(
        entry
            .summary
            .starts_with("0.00100000\u{a0}BTC (≈ NOK\u{a0}"),
        "{}",
        entry.summary
    );
    // The balances the checks read are amounts too: privacy mode hides them with the rest.
    let balance_reads = |e: &nordlys_application::unknown_views::UnknownEntryView| {
        let balances = [Read::Accounts, Read::Fiat]
            .map(|r| nordlys_application::wording::read(&r, nordlys_core::format::Locale::En));
        e.evidence
            .iter()
            .filter(|seen| balances.contains(&seen.read))
            .map(|seen| seen.saw.clone())
            .collect::<Vec<_>>()
    };
    let shown = balance_reads(entry);
    assert!(
        !shown.is_empty()
            && shown
                .iter()
                .all(|saw| saw.contains("BTC") && saw.chars().any(|c| c.is_ascii_digit())),
        "{:?}",
        entry.evidence
    );
    // The accounts go by the names the exchange gives them, not by id.
    assert!(shown.iter().all(|saw| !saw.contains("acc_")), "{shown:?}");
    profiles::set_privacy(
        &app,
        nordlys_application::profile_views::SetPrivacyArgs { hidden: true },
    )
    .await
    .unwrap();
    let hidden = nordlys_application::unknowns::unknowns(&app, nordlys_application::NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    let masked = balance_reads(&hidden.entries[0]);
    assert_eq!(masked.len(), shown.len());
    // The amounts are masked; what is left is the account's name and the words.
    for (masked, shown) in masked.iter().zip(&shown) {
        assert!(masked.contains(nordlys_core::format::MASK), "{masked}");
        assert_ne!(masked, shown);
        let amounts = |s: &str| {
            s.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
                .filter(|w| {
                    w.chars().any(|c| c.is_ascii_digit()) && (w.contains('.') || w.contains(','))
                })
                .count()
        };
        assert_eq!(amounts(masked), 0, "{masked}");
    }
}

/// With nothing in doubt there is no account to name: opening the list asks the exchange for
/// nothing (it is read at start and on every change of payments).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_in_doubt_list_reads_no_accounts() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let reads = || async {
        control_get(&sb, "/sandbox/counters").await["requests"]["/v1/user/bitcoin-accounts"]
            .as_u64()
            .unwrap_or(0)
    };
    let before = reads().await;
    let listed = nordlys_application::unknowns::unknowns(&app, nordlys_application::NoArgs {})
        .await
        .unwrap();
    assert!(listed.entries.is_empty(), "{listed:?}");
    assert_eq!(reads().await, before);
}

/// A payment typed in NOK whose answer was lost is the same payment when typed again, though the
/// price has moved and the same NOK now buys other bitcoin: the retry needs the second
/// confirmation ("send another one anyway").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_typed_in_nok_again_after_a_lost_answer_needs_the_second_confirmation() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, Some((chrono::Duration::seconds(60), 5))).await;
    lose_the_next_payment(&sb);
    /// 150 NOK to Kari, reviewed and sent: the bitcoin it made and the answer.
    async fn send(
        app: &nordlys_application::App,
    ) -> (
        String,
        Result<nordlys_application::pay::PaymentSent, nordlys_application::error::AppError>,
    ) {
        let nok = BitcoinAmountUnit::Nok;
        let checked = pay::check_payment(app, payment("150", nok)).await.unwrap();
        let confirmed = checked.check.amount_btc.unwrap().to_string();
        (
            confirmed,
            send_reviewed(app, &checked.reviewed, false, false).await,
        )
    }
    let (first_btc, first) = send(&app).await;
    assert_eq!(first.unwrap().payment.entry.state, WithdrawalState::Unknown);
    control(&sb, "/sandbox/price", json!({"movePercent": 1})).await;
    let (second_btc, again) = send(&app).await;
    assert_ne!(first_btc, second_btc, "the price moved");
    let refused = again.unwrap_err();
    assert_eq!(refused.code, ErrorCode::SameAsUnknown, "{refused:?}");
    assert_eq!(
        sb.state.lock().withdrawals.len(),
        0,
        "nothing was sent twice"
    );
}

/// With the app lock on, a locked app refuses what shows the user's money, and a payment needs
/// the lock's password given for it: without it nothing is journaled or sent. A restart starts
/// locked; deleting the keyring entry removes the lock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lock_hides_money_and_a_payment_needs_its_password() {
    use nordlys_application::lock::{
        self, LockField, NewPasswordArgs, PasswordArgs, PaymentPasswordArgs,
    };
    use nordlys_core::platform::secrets::SecretItem;

    let sb = sandbox().await;
    let (app, dir) = connected_app(&sb, None).await;
    let new = |p: &str, c: &str| NewPasswordArgs {
        password: p.into(),
        confirm: c.into(),
        current: String::new(),
    };
    let password = |p: &str| PasswordArgs { password: p.into() };
    for (p, c, field) in [
        ("seven77", "seven77", LockField::Password),
        ("correct horse", "correct horsE", LockField::Confirm),
    ] {
        let refused = lock::set_lock_password(&app, new(p, c)).await.unwrap();
        assert_eq!(refused.problems[0].0, field, "{p}");
        assert!(!refused.app.lock.set && !app.is_locked(), "nothing saved");
    }
    let set = lock::set_lock_password(&app, new("correct horse", "correct horse"))
        .await
        .unwrap();
    assert!(set.problems.is_empty() && set.app.lock.locked, "{set:?}");
    let phc = app.secrets.get("", SecretItem::AppLock).unwrap().unwrap();
    assert!(phc.starts_with("$argon2id$"), "only the hash is kept");
    assert_eq!(
        lock::admit(&app, "balances").unwrap_err().code,
        ErrorCode::Locked
    );
    assert!(lock::admit(&app, "app_state").is_ok());
    // Nothing typed is asked for, not called wrong (nor counted as a guess).
    let empty = lock::unlock(&app, password("")).await.unwrap();
    assert_eq!(
        empty.problems[0],
        (
            LockField::Password,
            nordlys_application::lock::LockRefusal::Missing
        )
    );
    let wrong = lock::unlock(&app, password("correct cow")).await.unwrap();
    assert_eq!(
        wrong.problems[0],
        (
            LockField::Password,
            nordlys_application::lock::LockRefusal::Wrong
        )
    );
    assert!(app.is_locked());
    // Guesses made side by side wait their turn, each wrong one longer than the last (the first
    // wrong guess above waited 1 s; these three 2, 4 and 8 s).
    let started = std::time::Instant::now();
    let guesses = futures_util::future::join_all(
        ["cow one", "cow two", "cow three"].map(|p| lock::unlock(&app, password(p))),
    )
    .await;
    assert!(
        guesses
            .iter()
            .all(|g| !g.as_ref().unwrap().problems.is_empty())
    );
    assert!(
        started.elapsed() >= std::time::Duration::from_secs(14),
        "{:?}",
        started.elapsed()
    );
    assert!(app.is_locked());
    let opened = lock::unlock(&app, password("correct horse")).await.unwrap();
    assert!(opened.problems.is_empty() && !app.is_locked());
    assert!(lock::admit(&app, "balances").is_ok());

    let sats = BitcoinAmountUnit::Sats;
    let before = sb.state.lock().withdrawals.len();
    let reviewed = pay::check_payment(&app, payment("1000", sats))
        .await
        .unwrap();
    let send = || send_reviewed(&app, &reviewed.reviewed, false, false);
    let for_it = |p: &str| PaymentPasswordArgs {
        password: p.into(),
        reviewed: reviewed.reviewed.clone(),
    };
    assert_eq!(send().await.unwrap_err().code, ErrorCode::PasswordNeeded);
    let wrong = lock::allow_payment(&app, for_it("correct cow"))
        .await
        .unwrap();
    assert!(!wrong.problems.is_empty());
    assert_eq!(send().await.unwrap_err().code, ErrorCode::PasswordNeeded);
    let store = app_driver::profile_db(&app, dir.path(), "exchange");
    assert!(
        store.withdrawals().recent(1).unwrap().is_empty(),
        "nothing journaled"
    );
    assert_eq!(sb.state.lock().withdrawals.len(), before, "nothing sent");
    // The password given for another payment allows not this one, and is used up.
    let elsewhere = PaymentPasswordArgs {
        password: "correct horse".into(),
        reviewed: "another payment's review".into(),
    };
    assert!(
        lock::allow_payment(&app, elsewhere)
            .await
            .unwrap()
            .problems
            .is_empty()
    );
    assert_eq!(send().await.unwrap_err().code, ErrorCode::PasswordNeeded);
    let allowed = lock::allow_payment(&app, for_it("correct horse"))
        .await
        .unwrap();
    assert!(allowed.problems.is_empty());
    assert_eq!(
        send().await.unwrap().payment.entry.state,
        WithdrawalState::Sent
    );
    assert_eq!(
        send().await.unwrap_err().code,
        ErrorCode::NotReviewed,
        "the review is used up"
    );
    let again = pay::check_payment(&app, payment("1000", sats))
        .await
        .unwrap();
    assert_eq!(
        send_reviewed(&app, &again.reviewed, false, true)
            .await
            .unwrap_err()
            .code,
        ErrorCode::PasswordNeeded,
        "one payment per password"
    );
    assert_eq!(sb.state.lock().withdrawals.len(), before + 1);

    // Weakening the lock takes its password; strengthening it does not.
    let settings = |idle: &str, before_payments: bool, p: Option<&str>| lock::LockSettingsArgs {
        idle_minutes: idle.into(),
        before_payments,
        password: p.map(Into::into),
    };
    for weaker in [settings("15", false, None), settings("240", true, None)] {
        let refused = lock::set_lock_settings(&app, weaker).await.unwrap();
        assert_eq!(
            refused.problems[0],
            (
                LockField::Current,
                nordlys_application::lock::LockRefusal::NeededToLoosen
            )
        );
        assert!(refused.app.lock.before_payments && refused.app.lock.idle_minutes == 15);
    }
    let wrong = lock::set_lock_settings(&app, settings("240", false, Some("correct cow")))
        .await
        .unwrap();
    assert_eq!(
        wrong.problems[0],
        (
            LockField::Current,
            nordlys_application::lock::LockRefusal::Wrong
        )
    );
    let stricter = lock::set_lock_settings(&app, settings("5", true, None))
        .await
        .unwrap();
    assert!(stricter.problems.is_empty() && stricter.app.lock.idle_minutes == 5);
    let weakened = lock::set_lock_settings(&app, settings("240", false, Some("correct horse")))
        .await
        .unwrap();
    assert!(weakened.problems.is_empty() && !weakened.app.lock.before_payments);

    // A new or larger plan, and another exchange address, take the password too.
    use nordlys_application::plan_views::PlanArgs;
    use nordlys_application::plans::save_plan;
    let plan = |amount: &str, id: Option<i64>, p: Option<&str>| PlanArgs {
        id,
        kind: nordlys_application::plan_views::PlanKind::Buy,
        amount: amount.into(),
        rungs: String::new(),
        step: String::new(),
        account: String::new(),
        every: nordlys_application::plan_views::PlanPeriod::Day,
        on: String::new(),
        at: "07:00".into(),
        max_price: String::new(),
        missed: nordlys_core::plans::Missed::Skip,
        password: p.map(|p| lock::LockPassword(p.into())),
    };
    for p in [None, Some("correct cow")] {
        let refused = save_plan(&app, plan("100", None, p)).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::PasswordNeeded);
    }
    let made = save_plan(&app, plan("100", None, Some("correct horse")))
        .await
        .unwrap();
    let id = made.plans.plans[0].record.plan.id;
    assert!(
        save_plan(&app, plan("50", Some(id), None)).await.is_ok(),
        "smaller: no password"
    );
    assert_eq!(
        save_plan(&app, plan("500", Some(id), None))
            .await
            .unwrap_err()
            .code,
        ErrorCode::PasswordNeeded
    );
    let moved = nordlys_application::profile_views::ExchangeProfileArgs {
        base_url: "https://elsewhere.example".into(),
        client_id: "nordlys-soak".into(),
        operator: None,
        oauth_base_url: None,
        scopes: None,
        password: None,
    };
    assert_eq!(
        profiles::save_exchange_profile(&app, moved)
            .await
            .unwrap_err()
            .code,
        ErrorCode::PasswordNeeded
    );
    let kept = app.settings().profile("exchange").map(|p| p.kind.clone());
    assert!(
        matches!(
            kept,
            Some(nordlys_core::platform::settings::ProfileKind::Exchange { ref base_url, .. })
                if base_url.as_str() == sb.base_url()
        ),
        "the address is unchanged: {kept:?}"
    );

    let start = || app_driver::app_in(dir.path(), app.secrets.clone());
    assert!(start().is_locked(), "a restart starts locked");
    app.secrets.delete("", SecretItem::AppLock).unwrap();
    let unlocked = start();
    assert!(
        !unlocked.is_locked(),
        "deleting the keyring entry removes the lock"
    );
    let view = profiles::app_state(&unlocked, nordlys_application::NoArgs {})
        .await
        .unwrap();
    assert!(!view.lock.set);
}

/// A limit sell lowers the available balance when placed: the overview names the part it holds
/// beside its account.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_overview_names_what_an_open_sell_holds() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let shown = profiles::balances(&app, nordlys_application::NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    assert!(
        shown.accounts.iter().all(|a| a.reserved.is_none()),
        "{shown:?}"
    );
    let ask: rust_decimal::Decimal = trading::quote(&app, QuoteArgs { amount_nok: None })
        .await
        .unwrap()
        .price
        .ask
        .decimal();
    let price = (ask * rust_decimal::Decimal::TWO).round_dp(0).to_string();
    let placed = place_form(&app, order(Direction::Sell, "0.001", Some(price)), false)
        .await
        .unwrap();
    assert_eq!(placed.outcome(), OrderOutcome::Placed, "{placed:?}");
    let shown = profiles::balances(&app, nordlys_application::NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    let reserved: Vec<_> = shown
        .accounts
        .iter()
        .filter_map(|a| a.reserved.clone())
        .collect();
    assert_eq!(reserved.len(), 1, "{shown:?}");
    let held = nordlys_application::msg!(ACCOUNT_RESERVED {
        btc: "0.00100000\u{a0}BTC"
    })
    .render(Locale::En);
    assert_eq!(reserved, [held]);
}

/// Nothing published says which account an empty `accountId` means, but the exchange shows it:
/// the standing destinations asked for with no account are the default's. Under either reading
/// (the first live account or the last), the app learns the default, the window is told it, and
/// a buy, an address and an invoice with no account chosen all belong to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_account_chosen_the_exchange_s_default_account_is_shown_and_used() {
    use nordlys_application::receive;
    use nordlys_application::receive_views::{AccountArgs, InvoiceArgs};
    for reading in ["first", "last"] {
        let sb = sandbox().await;
        control(
            &sb,
            "/sandbox/readings",
            json!({ "defaultAccount": reading }),
        )
        .await;
        let (app, _dir) = connected_app(&sb, None).await;
        let (first, last) = {
            let world = sb.state.lock();
            let live: Vec<_> = world
                .accounts
                .iter()
                .filter(|a| a.deleted.is_none())
                .map(|a| a.id.clone())
                .collect();
            (live[0].clone(), live[live.len() - 1].clone())
        };
        assert_ne!(first, last, "the sandbox's user has two live accounts");
        let default = if reading == "first" { &first } else { &last };

        let shown = profiles::balances(&app, nordlys_application::NoArgs {})
            .await
            .unwrap()
            .present(&app.viewer());
        assert_eq!(shown.default_account.as_ref(), Some(default), "{reading}");

        let placed = place_form(&app, order(Direction::Buy, "1000", None), false)
            .await
            .unwrap();
        assert_eq!(placed.outcome(), OrderOutcome::Placed, "{placed:?}");
        let bought_into = sb.state.lock().orders.last().unwrap().account.clone();
        assert_eq!(&bought_into, default, "{reading}: the account shown bought");

        let destinations = receive::receive_destinations(&app, AccountArgs { account_id: None })
            .await
            .unwrap();
        let owner = sb
            .state
            .lock()
            .accounts
            .iter()
            .find(|a| a.addresses.iter().any(|x| x == &destinations.onchain.text))
            .map(|a| a.id.clone());
        assert_eq!(owner.as_ref(), Some(default), "{reading}");
        // The unified tab copies the whole code: the address and the LNURL, not the address alone.
        let unified = destinations
            .unified
            .expect("a bech32 address has a unified code");
        assert_eq!(unified.text, unified.uri.to_ascii_lowercase());
        assert!(
            unified.text.starts_with(&format!(
                "bitcoin:{}?lightning=lnurl1",
                destinations.onchain.text.to_ascii_lowercase()
            )),
            "{unified:?}"
        );

        receive::create_invoice(
            &app,
            InvoiceArgs {
                account_id: None,
                amount: "0.0001".into(),
                unit: BitcoinAmountUnit::Btc,
                public_description: String::new(),
                private_note: String::new(),
            },
        )
        .await
        .unwrap();
        let invoiced = sb.state.lock().invoices.last().unwrap().account.clone();
        assert_eq!(&invoiced, default, "{reading}");
    }
}

/// An invoice is paid once: paying one saves nothing in the address book, and pasting it again
/// is refused at the field, before any review.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paid_invoice_is_refused_at_the_field_and_never_becomes_a_recipient() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let other = control(&sb, "/sandbox/invoices", json!({"amountBtc": 0.0001})).await;
    let invoice = other["invoice"].as_str().unwrap().to_owned();
    let mut form = app_driver::payment(&invoice, "", BitcoinAmountUnit::Btc, kari());
    form.save_recipient = true;
    form.label = "Kaffe".into();
    let checked = pay::check_payment(&app, form.clone()).await.unwrap();
    assert!(checked.check.request.is_some(), "{checked:?}");
    let sent = send_reviewed(&app, &checked.reviewed, false, false)
        .await
        .unwrap();
    assert_eq!(sent.payment.entry.state, WithdrawalState::Sent, "{sent:?}");
    let book = pay::recipients(&app, nordlys_application::NoArgs {})
        .await
        .unwrap();
    assert!(book.recipients.is_empty(), "{book:?}");

    let again = pay::check_payment(&app, form).await.unwrap();
    assert!(again.check.request.is_none());
    assert!(
        again.check.destination_error
            == Some(nordlys_core::destination::DestinationError::AlreadyPaid),
        "{again:?}"
    );
}

/// The same payment again within a day (same destination, amount as typed, account) is asked
/// about once more, with when the first went; the user's second word sends it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_payment_again_the_same_day_is_asked_about_once_more() {
    let sb = sandbox().await;
    let (app, _dir, user) = reviewed_app(&sb, None).await;
    let pay_kari = || async {
        let form = payment("20000", BitcoinAmountUnit::Sats);
        pay::check_payment(&app, form).await.unwrap().reviewed
    };
    let first = send_reviewed(&app, &pay_kari().await, false, false)
        .await
        .unwrap();
    assert_eq!(
        first.payment.entry.state,
        WithdrawalState::Sent,
        "{first:?}"
    );
    let again = send_reviewed(&app, &pay_kari().await, false, false)
        .await
        .unwrap_err();
    assert_eq!(again.code, ErrorCode::SameAsRecent, "{again:?}");
    assert_eq!(withdrawals_made(&sb), 1, "nothing sent the second time");
    assert_eq!(
        user.shown().len(),
        1,
        "asked before the native dialog, which then sends"
    );
    // Another amount is another payment.
    app_driver::pay_form(&app, payment("20001", BitcoinAmountUnit::Sats))
        .await
        .unwrap();
    let second = send_reviewed(&app, &pay_kari().await, false, true)
        .await
        .unwrap();
    assert_eq!(
        second.payment.entry.state,
        WithdrawalState::Sent,
        "{second:?}"
    );
    assert_eq!(withdrawals_made(&sb), 3);
    assert_eq!(user.shown().len(), 3, "one dialog for each payment sent");
}

fn withdrawals_made(sb: &nordlys_sandbox::RunningSandbox) -> usize {
    sb.state.lock().withdrawals.len()
}

/// Found trying the app as a new user: an invoice typed in sats was shown in BTC, and one
/// showed three amounts. It is shown as it was asked for, with one other figure: the bitcoin of
/// one asked in NOK, else its worth now; and so it stays in the list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_is_shown_as_it_was_asked_for_with_one_other_figure() {
    use nordlys_application::receive;
    use nordlys_application::receive_views::InvoiceArgs;
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let ask = |amount: &str, unit| InvoiceArgs {
        account_id: None,
        amount: amount.into(),
        unit,
        public_description: String::new(),
        private_note: String::new(),
    };
    let sats = receive::create_invoice(&app, ask("2500", BitcoinAmountUnit::Sats))
        .await
        .unwrap()
        .present(&app.viewer());
    assert_eq!(sats.amount.text(), "2,500\u{a0}sats");
    assert!(
        sats.also_nok
            .as_ref()
            .is_some_and(|a| a.text().starts_with("NOK"))
            && sats.also_btc.is_none(),
        "{sats:?}"
    );
    let nok = receive::create_invoice(&app, ask("100", BitcoinAmountUnit::Nok))
        .await
        .unwrap()
        .present(&app.viewer());
    assert_eq!(nok.amount.text(), "NOK\u{a0}100.00");
    assert!(
        nok.also_btc
            .as_ref()
            .is_some_and(|a| a.text().ends_with("BTC"))
            && nok.also_nok.is_none(),
        "{nok:?}"
    );
    let listed = receive::recent_invoices(&app, nordlys_application::NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    let shown: Vec<&str> = listed.invoices.iter().map(|i| i.amount.text()).collect();
    assert_eq!(shown[..2], ["NOK\u{a0}100.00", "2,500\u{a0}sats"]);
}

/// The native dialog for a plan names the account it buys into as the user knows it, not by the
/// exchange's id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plans_native_dialog_names_its_account() {
    use nordlys_application::plan_views::{PlanArgs, PlanKind, PlanPeriod};
    let sb = sandbox().await;
    let (app, _dir, user) = reviewed_app(&sb, None).await;
    let (id, name) = {
        let world = sb.state.lock();
        let a = world.accounts.iter().find(|a| a.deleted.is_none()).unwrap();
        (a.id.clone(), a.name.clone())
    };
    let args = PlanArgs {
        id: None,
        kind: PlanKind::Buy,
        amount: "100".into(),
        rungs: String::new(),
        step: String::new(),
        account: id.clone(),
        every: PlanPeriod::Day,
        on: String::new(),
        at: "07:00".into(),
        max_price: String::new(),
        missed: nordlys_core::plans::Missed::Skip,
        password: None,
    };
    nordlys_application::plans::save_plan(&app, args)
        .await
        .unwrap();
    let shown = user.shown();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].message.contains(&name) && !shown[0].message.contains(&id),
        "{shown:?}"
    );
}

/// With a lock set, the data key may be sealed under the lock's password: the CLI's way of
/// opening the store then says why it cannot, a restart opens the store only at unlock, a new
/// lock password still opens it, and removing the lock puts the key back in the keyring.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sealed_store_key_opens_the_store_only_at_unlock() {
    use nordlys_application::NoArgs;
    use nordlys_application::lock::{self, LockPassword, NewPasswordArgs, PasswordArgs};
    use nordlys_application::store_key::{self, SealStoreKeyArgs, StoreSeal};
    use nordlys_core::store::profile_store::{self, OpenError};

    let sb = sandbox().await;
    let (app, dir) = connected_app(&sb, None).await;
    let seal = |sealed: bool, p: &str| SealStoreKeyArgs {
        password: Some(LockPassword(p.into())),
        sealed,
    };
    let password = |p: &str| PasswordArgs { password: p.into() };
    let set = |p: &str, current: &str| NewPasswordArgs {
        password: p.into(),
        confirm: p.into(),
        current: current.into(),
    };
    let no_lock = store_key::seal_store_key(&app, seal(true, "correct horse"))
        .await
        .unwrap_err();
    assert_eq!(no_lock.code, ErrorCode::InvalidInput, "{no_lock:?}");
    lock::set_lock_password(&app, set("correct horse", ""))
        .await
        .unwrap();
    lock::unlock(&app, password("correct horse")).await.unwrap();
    let wrong = store_key::seal_store_key(&app, seal(true, "correct cow"))
        .await
        .unwrap_err();
    assert_eq!(wrong.code, ErrorCode::PasswordNeeded, "{wrong:?}");
    assert_eq!(
        store_key::store_seal(&app, NoArgs {}).await.unwrap(),
        StoreSeal::Keyring
    );
    assert_eq!(
        store_key::seal_store_key(&app, seal(true, "correct horse"))
            .await
            .unwrap(),
        StoreSeal::Sealed
    );
    let path = dir.path().join("profiles/exchange/nordlys.sqlite");
    let cli_opens = || profile_store::open(&*app.secrets, "exchange", &path).map(drop);
    assert!(
        matches!(cli_opens(), Err(OpenError::KeySealed)),
        "the CLI cannot"
    );

    let restarted = app_driver::app_in(dir.path(), app.secrets.clone());
    assert!(restarted.is_locked());
    // The locked window still gets its state, to show the lock.
    let locked = profiles::app_state(&restarted, NoArgs {}).await.unwrap();
    assert!(locked.lock.locked, "{:?}", locked.lock);
    let before_unlock = restarted.session().await.unwrap_err();
    assert!(
        before_unlock.says(key::STORE_KEY_SEALED),
        "{before_unlock:?}"
    );
    lock::unlock(&restarted, password("correct horse"))
        .await
        .unwrap();
    assert!(restarted.session().await.is_ok(), "opened at unlock");

    // A new lock password: the key is sealed again under it.
    lock::set_lock_password(&restarted, set("battery staple", "correct horse"))
        .await
        .unwrap();
    let again = app_driver::app_in(dir.path(), app.secrets.clone());
    lock::unlock(&again, password("battery staple"))
        .await
        .unwrap();
    assert!(
        again.session().await.is_ok(),
        "opens under the new password"
    );

    // The lock's entry deleted: the key stays sealed until the lock is set again to its password.
    use nordlys_core::platform::secrets::SecretItem;
    app.secrets.delete("", SecretItem::AppLock).unwrap();
    let reset = app_driver::app_in(dir.path(), app.secrets.clone());
    assert!(reset.session().await.is_err(), "still sealed");
    lock::set_lock_password(&reset, set("battery staple", ""))
        .await
        .unwrap();
    lock::unlock(&reset, password("battery staple"))
        .await
        .unwrap();
    assert!(reset.session().await.is_ok());

    // No lock, no password to open it with: the key goes back to the keyring first.
    lock::remove_lock(&reset, password("battery staple"))
        .await
        .unwrap();
    assert!(cli_opens().is_ok());
    assert_eq!(
        store_key::store_seal(&reset, NoArgs {}).await.unwrap(),
        StoreSeal::Keyring
    );
}

/// A store whose key is gone stops the window from starting, with what to do; the window can put
/// the backed-up key back (only the store's own key is taken) or start a fresh store, the old one
/// kept aside whole, never silently replaced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_without_its_key_is_mended_from_the_backup_or_set_aside() {
    use nordlys_application::NoArgs;
    use nordlys_application::store_key::{self, RestoreStoreKeyArgs, StoreKeyArgs, StoreKeyView};
    use nordlys_core::platform::secrets::SecretItem;

    let sb = sandbox().await;
    let (app, dir) = connected_app(&sb, None).await;
    let StoreKeyView::Key { groups } = store_key::store_key(&app, StoreKeyArgs::default())
        .await
        .unwrap()
    else {
        panic!("a key on disk");
    };
    let restore = |key: &str| RestoreStoreKeyArgs { key: key.into() };
    let opens = store_key::restore_store_key(&app, restore(&groups))
        .await
        .unwrap_err();
    assert!(opens.says(key::STORE_OPENS), "{opens:?}");

    let lose_key = || {
        app.secrets
            .delete("exchange", SecretItem::StoreKey)
            .unwrap()
    };
    lose_key();
    let restarted = app_driver::app_in(dir.path(), app.secrets.clone());
    let refused = profiles::app_state(&restarted, NoArgs {})
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::StoreKey, "{refused:?}");
    for (key, said) in [
        ("not a key", key::STORE_KEY_NOT_A_KEY),
        (&"ab".repeat(32), key::STORE_KEY_DOES_NOT_OPEN),
    ] {
        let wrong = store_key::restore_store_key(&restarted, restore(key))
            .await
            .unwrap_err();
        assert!(wrong.says(said), "{wrong:?}");
    }
    assert!(
        app.secrets
            .get("exchange", SecretItem::StoreKey)
            .unwrap()
            .is_none(),
        "nothing written"
    );
    store_key::restore_store_key(&restarted, restore(&groups))
        .await
        .unwrap();
    assert!(profiles::app_state(&restarted, NoArgs {}).await.is_ok());

    lose_key();
    let again = app_driver::app_in(dir.path(), app.secrets.clone());
    let fresh = store_key::start_fresh_store(&again, NoArgs {})
        .await
        .unwrap();
    let aside = std::path::PathBuf::from(fresh.set_aside.unwrap());
    assert!(aside.exists(), "kept aside: {aside:?}");
    assert!(profiles::app_state(&again, NoArgs {}).await.is_ok());
    // The old store still opens with its key where it was kept.
    let old_key = nordlys_core::store::StoreKey::from_hex(&groups).unwrap();
    assert!(nordlys_core::store::Store::open_encrypted(&aside, old_key).is_ok());
}
