#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The backend tells, the window listens: the watcher is the app's one poller of money in motion
//! (the screens' reads are reads of the store, and what the exchange says reaches them, the
//! desktop's notifications and the window's `changed` event only through its looks), and a tax
//! sync tells its progress as it goes.

mod app_driver;

use std::sync::{Arc, Mutex};

use app_driver::{app_on, connect, connected_app, order, save_exchange_profile, switch_profile};
use nordlys_application::NoArgs;
use nordlys_application::desktop::{
    Desktop, DesktopError, LoginStart, Notice, SaveChoice, XdgAutostart,
};
use nordlys_application::notices::{Deposit, Told};
use nordlys_application::receive_views::{InvoiceArgs, InvoiceIdArgs};
use nordlys_application::tax_views::TaxSyncView;
use nordlys_application::trade_views::QuoteArgs;
use nordlys_application::vocabulary::{Direction, InvoiceState, OrderOutcome, SyncState};
use nordlys_application::watcher::{self, Change};
use nordlys_application::wording::key;
use nordlys_application::{profiles, receive, trading, unknowns};
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::platform::secrets::FileSecretStore;
use nordlys_money::Btc;
use nordlys_sandbox::{FaultKind, FaultRule};
use nordlys_tests::*;
use serde_json::json;

/// A desktop that keeps what it was asked to show and tell.
#[derive(Debug, Default)]
struct Recorded {
    notified: Mutex<Vec<Notice>>,
    changed: Mutex<Vec<Change>>,
    synced: Mutex<Vec<TaxSyncView>>,
    /// How often the window was closed as the user's close would.
    closed: Mutex<u32>,
    /// Where this desktop keeps what starts at login.
    autostart: Option<XdgAutostart>,
}

impl Desktop for Recorded {
    fn notify(&self, n: &Notice) {
        self.notified.lock().unwrap().push(n.clone());
    }
    fn open_url(&self, _url: &str) -> Result<(), DesktopError> {
        Err(DesktopError("no browser in this test".into()))
    }
    fn choose_save_path(&self, _name: &str, chosen: SaveChoice) {
        chosen(Ok(None));
    }
    fn confirm(
        &self,
        _text: &nordlys_application::confirmation_views::ConfirmationText,
        answer: nordlys_application::desktop::ConfirmAnswer,
    ) {
        answer(Ok(true));
    }
    fn changed(&self, what: Change) {
        self.changed.lock().unwrap().push(what);
    }
    fn tax_sync(&self, progress: &TaxSyncView) {
        self.synced.lock().unwrap().push(progress.clone());
    }
    fn close_window(&self) {
        *self.closed.lock().unwrap() += 1;
    }
    fn login_start(&self) -> Option<Box<dyn LoginStart + '_>> {
        self.autostart
            .as_ref()
            .map(|x| Box::new(x.clone()) as Box<dyn LoginStart>)
    }
}

fn recorded_app() -> (
    Arc<nordlys_application::App>,
    Arc<Recorded>,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().unwrap();
    let desktop = Arc::new(Recorded::default());
    let app = app_on(
        dir.path(),
        Arc::new(FileSecretStore::new(app_driver::keyring_dir(dir.path()))),
        desktop.clone(),
    );
    (app, desktop, dir)
}

/// The window is told the sync's progress page by page and its end, without asking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tax_sync_tells_the_window_each_step_and_its_end() {
    let sb = sandbox().await;
    let (app, desktop, _dir) = recorded_app();
    connect(&app, &sb).await;
    app_driver::tax_synced(&app).await;
    let told = desktop.synced.lock().unwrap().clone();
    let last = told.last().expect("told at least once");
    assert_eq!(last.state, SyncState::Complete, "{told:?}");
    assert!(
        told[..told.len() - 1]
            .iter()
            .all(|v| v.state == SyncState::Running),
        "{told:?}"
    );
    let stored: Vec<u32> = told.iter().map(|v| v.stored).collect();
    assert!(stored.windows(2).all(|w| w[0] <= w[1]), "{stored:?}");
    assert!(last.stored > 0 && told.len() >= 2, "{told:?}");
}

/// An invoice for 0.0001 BTC, "kaffe", made in the app.
async fn coffee_invoice(app: &nordlys_application::App) -> nordlys_application::receive::Invoice {
    receive::create_invoice(
        app,
        InvoiceArgs {
            account_id: None,
            amount: "0.0001".into(),
            unit: BitcoinAmountUnit::Btc,
            public_description: "kaffe".into(),
            private_note: String::new(),
        },
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_paid_at_the_exchange_reaches_the_screen_through_the_watcher_only() {
    let sb = sandbox().await;
    let (app, desktop, _dir) = recorded_app();
    connect(&app, &sb).await;
    let invoice = coffee_invoice(&app).await;
    assert!(
        watcher::look(&app).await.unwrap().is_empty(),
        "nothing moved yet"
    );

    control(
        &sb,
        &format!("/sandbox/invoices/{}/pay", invoice.stored.id),
        json!({}),
    )
    .await;
    // A read asks the store, not the exchange: still unpaid until the watcher looks.
    let id = InvoiceIdArgs {
        id: invoice.stored.id.clone(),
    };
    let state = |i: &nordlys_application::receive::Invoice| InvoiceState::from(&i.stored.status);
    let read = receive::invoice_status(&app, id.clone()).await.unwrap();
    assert_eq!(state(&read), InvoiceState::Unpaid);
    assert!(desktop.notified.lock().unwrap().is_empty());

    let changes = watcher::look(&app).await.unwrap();
    assert_eq!(changes, [Change::Invoices]);
    let read = receive::invoice_status(&app, id).await.unwrap();
    assert_eq!(state(&read), InvoiceState::Paid);
    let listed = receive::recent_invoices(&app, NoArgs {}).await.unwrap();
    assert_eq!(InvoiceState::from(&listed.0[0].status), InvoiceState::Paid);
    let notified = desktop.notified.lock().unwrap().clone();
    assert_eq!(notified.len(), 1, "{notified:?}");
    assert!(
        matches!(notified[0].told, Told::InvoicePaid { .. }),
        "{notified:?}"
    );
    // Announced once: the next look finds nothing new.
    assert!(watcher::look(&app).await.unwrap().is_empty());
    assert_eq!(desktop.notified.lock().unwrap().len(), 1);
}

fn price_reads(counters: &serde_json::Value) -> u64 {
    counters["requests"]["/v1/price/nok"].as_u64().unwrap_or(0)
}

/// The price the window reads is the watcher's last look, not a request of its own; a balance
/// that changed is told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_reads_what_the_watcher_saw_and_is_told_what_moved() {
    let sb = sandbox().await;
    let (app, _desktop, _dir) = recorded_app();
    connect(&app, &sb).await;

    assert_eq!(
        watcher::look_at_price(&app).await.unwrap(),
        [Change::Price],
        "the first price is news to the window"
    );
    let before = price_reads(&control_get(&sb, "/sandbox/counters").await);
    let quote = trading::quote(&app, QuoteArgs { amount_nok: None })
        .await
        .unwrap();
    assert!(quote.price.price.decimal() > rust_decimal::Decimal::ZERO);
    assert_eq!(
        price_reads(&control_get(&sb, "/sandbox/counters").await),
        before,
        "the window's read asked the exchange again"
    );
    // A quote for an amount is the exchange's to give.
    trading::quote(
        &app,
        QuoteArgs {
            amount_nok: Some("1000".into()),
        },
    )
    .await
    .unwrap();
    assert_eq!(
        price_reads(&control_get(&sb, "/sandbox/counters").await),
        before + 1
    );
    control(&sb, "/sandbox/price", json!({"movePercent": 10})).await;
    assert_eq!(watcher::look_at_price(&app).await.unwrap(), [Change::Price]);

    assert!(
        watcher::look_at_balances(&app).await.unwrap().is_empty(),
        "a first look is not a change"
    );
    control(&sb, "/sandbox/price", json!({"movePercent": 5})).await;
    assert!(
        watcher::look_at_balances(&app).await.unwrap().is_empty(),
        "the exchange's NOK value of the bitcoin moved with the price; what the user holds did not"
    );
    assert!(watcher::look_at_market(&app).await.unwrap().is_empty());
    control(&sb, "/sandbox/deposits", json!({ "amountBtc": 0.01 })).await;
    // A balance that rose has the history's tail read at once: the deposit's row is there.
    assert_eq!(
        watcher::look_at_balances(&app).await.unwrap(),
        [Change::Balances, Change::History]
    );
}

/// Looks at the history until `count` deposits were told (rows may come late), at most 10 s.
async fn told_after_looks(
    app: &nordlys_application::App,
    desktop: &Recorded,
    count: usize,
) -> Vec<Told> {
    for _ in 0..40 {
        watcher::look_at_history(app).await.unwrap();
        if desktop.notified.lock().unwrap().len() >= count {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    told(desktop)
}

/// What the desktop was told, as facts.
fn told(desktop: &Recorded) -> Vec<Told> {
    desktop
        .notified
        .lock()
        .unwrap()
        .iter()
        .map(|n| n.told.clone())
        .collect()
}

/// Deposits that land in the history are announced once each, with amount and account, however
/// they came (on-chain, Lightning address, LNURL) and under every reading of how rows arrive
/// (at once, pending first, some late); what was in the history when the app first read it is
/// not news; a balance that rose has the tail read at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deposits_are_announced_once_each_under_every_reading_of_how_rows_arrive() {
    for readings in [
        json!({}),
        json!({ "pendingRows": 600 }),
        json!({ "lateRows": 2 }),
    ] {
        let sb = sandbox().await;
        control(&sb, "/sandbox/readings", readings.clone()).await;
        let (app, desktop, _dir) = recorded_app();
        connect(&app, &sb).await;
        control(&sb, "/sandbox/deposits", json!({ "amountBtc": 0.02 })).await;
        // In the history when first read: a row listed late is not there yet, and is news when
        // it comes.
        if let Some(late) = readings.get("lateRows").and_then(serde_json::Value::as_u64) {
            tokio::time::sleep(std::time::Duration::from_millis(late * 1000 + 200)).await;
        }
        assert!(
            told_after_looks(&app, &desktop, 1).await.is_empty(),
            "{readings}: old news"
        );
        watcher::look_at_balances(&app).await.unwrap();

        for (btc, via) in [
            (0.015, "onchain"),
            (0.001, "lightning-address"),
            (0.002, "lightning-lnurl"),
        ] {
            control(
                &sb,
                "/sandbox/deposits",
                json!({ "amountBtc": btc, "via": via }),
            )
            .await;
        }
        // The balance rose: the tail is read at once, not at the history's own pace.
        let changes = watcher::look_at_balances(&app).await.unwrap();
        assert!(
            changes.contains(&Change::History),
            "{readings}: {changes:?}"
        );
        let mut told = told_after_looks(&app, &desktop, 3).await;
        told.sort_by_key(|t| match t {
            Told::Deposit(d) => d.amount,
            _ => Btc::ZERO,
        });
        let pending = readings.get("pendingRows").is_some();
        let want: Vec<Told> = [100_000, 200_000, 1_500_000]
            .into_iter()
            .map(|sats| {
                Told::Deposit(Deposit {
                    amount: Btc::from_sats(sats),
                    account: "Hovedkonto".into(),
                    pending,
                })
            })
            .collect();
        assert_eq!(told, want, "{readings}");
        for _ in 0..3 {
            watcher::look_at_history(&app).await.unwrap();
        }
        assert_eq!(
            desktop.notified.lock().unwrap().len(),
            3,
            "{readings}: once each"
        );
    }
}

/// A deposit made while the history is first read (oldest first, so the read stores it before
/// it ends) is told once; one made just before that read began is history, not news. Whose clock
/// stamps the rows is the exchange's: the watch begins on it (as its `Date` header shows), so an
/// exchange a few minutes behind or ahead of this machine changes neither verdict.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deposit_during_the_first_read_of_the_history_is_news_on_either_clock() {
    for skew in [0, -300, 300] {
        let sb = sandbox().await;
        control(&sb, "/sandbox/readings", json!({ "clockSkew": skew })).await;
        let (app, desktop, _dir) = recorded_app();
        connect(&app, &sb).await;
        control(&sb, "/sandbox/deposits", json!({ "amountBtc": 0.02 })).await;
        // More than the second an HTTP date can tell apart.
        tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
        // The first pages are slow: the read is still running when the next deposit is made.
        control(
            &sb,
            "/sandbox/faults",
            json!({ "path": "/v1/tax/transactions", "kind": "delay", "delayMs": 500, "count": 2 }),
        )
        .await;
        nordlys_application::tax::begin_sync(&app).await.unwrap();
        control(&sb, "/sandbox/deposits", json!({ "amountBtc": 0.0123 })).await;
        let told = told_after_looks(&app, &desktop, 1).await;
        assert_eq!(
            told,
            [Told::Deposit(Deposit {
                amount: Btc::from_sats(1_230_000),
                account: "Hovedkonto".into(),
                pending: false,
            })],
            "clock skew {skew}"
        );
    }
}

/// A first read of the history cancelled part way has not read it whole: the deposits of the
/// rest, read later, are history, not news (they were once all told as received).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rest_of_a_cancelled_first_read_is_not_news() {
    let sb = sandbox().await;
    let (app, desktop, _dir) = recorded_app();
    connect(&app, &sb).await;
    control(
        &sb,
        "/sandbox/faults",
        json!({ "path": "/v1/tax/transactions", "kind": "delay", "delayMs": 300, "count": 3 }),
    )
    .await;
    // A look is following the first read when the user cancels it.
    let looking = tokio::spawn({
        let app = Arc::clone(&app);
        async move { watcher::look_at_history(&app).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    let status = || async {
        nordlys_application::tax::tax_sync_status(&app, NoArgs {})
            .await
            .unwrap()
    };
    nordlys_application::tax::cancel_tax_sync(&app, NoArgs {})
        .await
        .unwrap();
    while status().await.state == SyncState::Running {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let cancelled = status().await;
    assert_eq!(cancelled.state, SyncState::Cancelled, "{cancelled:?}");
    looking.await.unwrap().unwrap();
    watcher::look_at_history(&app).await.unwrap();
    let whole = status().await;
    assert_eq!(whole.state, SyncState::Complete, "{whole:?}");
    assert!(whole.progress.stored > 0, "{whole:?}");
    watcher::look_at_history(&app).await.unwrap();
    let told = desktop.notified.lock().unwrap().clone();
    assert!(told.is_empty(), "{told:?}");
}

/// What arrived while the app was closed is told in one summary at the first look after start;
/// a restart after that tells nothing again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deposits_made_while_the_app_was_closed_are_summed_up_once_on_start() {
    let sb = sandbox().await;
    let (app, desktop, dir) = recorded_app();
    connect(&app, &sb).await;
    watcher::look_at_history(&app).await.unwrap();
    drop(app);
    for btc in [0.01, 0.02, 0.03, 0.04] {
        control(&sb, "/sandbox/deposits", json!({ "amountBtc": btc })).await;
    }
    let start = || {
        app_on(
            dir.path(),
            Arc::new(FileSecretStore::new(app_driver::keyring_dir(dir.path()))),
            desktop.clone(),
        )
    };
    let restarted = start();
    connect(&restarted, &sb).await;
    watcher::look_at_history(&restarted).await.unwrap();
    let told = told(&desktop);
    assert_eq!(told.len(), 1, "{told:?}");
    let Told::DepositsWhileClosed {
        count,
        total,
        named,
        more,
    } = &told[0]
    else {
        panic!("one summary: {told:?}");
    };
    assert_eq!(
        (*count, *total, named.len(), *more),
        (4, Some(Btc::from_sats(10_000_000)), 3, 1),
        "{told:?}"
    );
    drop(restarted);

    let again = start();
    connect(&again, &sb).await;
    watcher::look_at_history(&again).await.unwrap();
    assert_eq!(
        desktop.notified.lock().unwrap().len(),
        1,
        "a restart repeats none"
    );
}

/// The Unknowns list is a read of the journal: checking again is the watcher's work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_order_is_settled_by_the_watcher_and_the_window_told() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, Some((chrono::Duration::seconds(1), 5))).await;
    // A market buy whose answer is lost before the exchange took it.
    sb.state.add_fault(FaultRule {
        path: "/v1/orders".into(),
        method: Some("POST".into()),
        kind: FaultKind::Http500,
        count: Some(1),
        percent: None,
        delay_ms: 0,
    });
    let lost = app_driver::place_form(&app, order(Direction::Buy, 100, None), false)
        .await
        .unwrap();
    assert_eq!(lost.outcome(), OrderOutcome::Unknown, "{lost:?}");
    let unresolved = || async {
        unknowns::unknowns(&app, NoArgs {})
            .await
            .unwrap()
            .unresolved()
    };
    assert_eq!(unresolved().await, 1);
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(
        unresolved().await,
        1,
        "a read settled it without the watcher"
    );
    let mut told = vec![];
    for _ in 0..50 {
        told.extend(watcher::look(&app).await.unwrap());
        if unresolved().await == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(unresolved().await, 0);
    assert!(told.contains(&Change::Unknowns), "{told:?}");
}

/// Paying one's own invoice is refused when it is pasted, before the recipient form, not by the
/// exchange after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_s_own_invoice_is_refused_when_pasted() {
    use nordlys_application::pay;
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let invoice = coffee_invoice(&app).await;
    let pasted = format!("  {}  ", invoice.stored.invoice.to_ascii_uppercase());
    let check = pay::check_payment(
        &app,
        app_driver::payment(&pasted, "", BitcoinAmountUnit::Btc, Default::default()),
    )
    .await
    .unwrap();
    assert!(check.check.request.is_none());
    assert!(
        !check.check.needs_recipient,
        "no recipient form for it: {check:?}"
    );
    assert!(
        check.check.destination_error
            == Some(nordlys_core::destination::DestinationError::OwnInvoice),
        "{check:?}"
    );
}

/// A price alert fires once when the sandbox's price crosses its level, not again while the
/// price stays beyond it or hovers back within the hysteresis, and again after it came back far
/// enough and crossed once more; a restart (a new app on the same store) repeats nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_price_alert_fires_once_per_crossing_through_the_watcher() {
    use nordlys_application::alert_views::AlertArgs;
    use nordlys_application::alerts;
    use nordlys_core::alerts::{Crossing, Watched};

    let sb = sandbox().await;
    let (app, desktop, dir) = recorded_app();
    connect(&app, &sb).await;
    let price = |v: serde_json::Value| v["price"].as_f64().unwrap();
    let start = price(control(&sb, "/sandbox/price", json!({"movePercent": 0})).await);
    watcher::look_at_price(&app).await.unwrap();
    // 5 % above the mid price now, 1 % hysteresis.
    let level = (start * 1.05).round();
    let saved = alerts::save_alert(
        &app,
        AlertArgs {
            id: None,
            watched: Watched::Mid,
            crossing: Crossing::RisesAbove,
            level: level.to_string(),
            hysteresis: "1".into(),
        },
    )
    .await
    .unwrap();
    assert!(saved.problems.is_empty(), "{:?}", saved.problems);
    assert!(
        saved.alerts.alerts[0].armed,
        "not beyond its level when made"
    );
    let alerts_told = || {
        desktop
            .notified
            .lock()
            .unwrap()
            .iter()
            .filter(|n| matches!(n.told, Told::AlertFired { .. }))
            .count()
    };
    let set = |p: f64| control(&sb, "/sandbox/price", json!({ "price": p }));
    for (p, told) in [
        (level - 10.0, 0),
        (level + 10.0, 1),
        (level + 500.0, 1),
        (level * 0.995, 1), // back by 0.5 %: within the hysteresis
        (level + 1.0, 1),
        (level * 0.985, 1), // back by 1.5 %: re-armed
        (level + 2.0, 2),
    ] {
        set(p).await;
        watcher::look_at_price(&app).await.unwrap();
        assert_eq!(alerts_told(), told, "at {p}");
    }
    let restarted = app_on(
        dir.path(),
        Arc::new(FileSecretStore::new(app_driver::keyring_dir(dir.path()))),
        desktop.clone(),
    );
    connect(&restarted, &sb).await;
    watcher::look_at_price(&restarted).await.unwrap();
    assert_eq!(alerts_told(), 2, "a restart fires nothing again");
    let last = desktop.notified.lock().unwrap().last().cloned().unwrap();
    assert!(
        matches!(
            &last.told,
            Told::AlertFired { alert, .. }
                if alert.watched == Watched::Mid && alert.crossing == Crossing::RisesAbove
        ),
        "{last:?}"
    );
    // The poller asks endpoint 7 for the usual amount (5000 unless set).
    let bad = alerts::set_usual_amount(
        &restarted,
        nordlys_application::alert_views::UsualAmountArgs {
            amount: "-3".into(),
        },
    )
    .await;
    assert!(bad.is_err());
}

/// An alert on open orders fires once when the market comes within its distance of a limit order
/// placed in Nordlys, read through the watcher's look at open orders; a connection that cannot
/// list open orders (no API key) is told why, and nothing is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_order_alert_fires_when_the_market_comes_near_a_limit_order() {
    use nordlys_application::alert_views::AlertArgs;
    use nordlys_application::alerts;
    use nordlys_core::alerts::{Crossing, Watched};

    let sb = sandbox().await;
    let (app, desktop, _dir) = recorded_app();
    connect(&app, &sb).await;
    let quote = trading::quote(&app, QuoteArgs::default()).await.unwrap();
    let ask: f64 = quote.price.ask.to_string().parse().unwrap();
    let limit = (ask * 0.96).round();
    let placed = app_driver::place_form(
        &app,
        order(Direction::Buy, 500, Some(limit.to_string())),
        false,
    )
    .await
    .unwrap();
    assert_eq!(placed.outcome(), OrderOutcome::Placed);
    let within = |level: &str| AlertArgs {
        id: None,
        watched: Watched::OpenOrder,
        crossing: Crossing::RisesAbove,
        level: level.into(),
        hysteresis: String::new(),
    };
    let saved = alerts::save_alert(&app, within("2")).await.unwrap();
    assert!(saved.problems.is_empty(), "{:?}", saved.problems);
    assert!(!saved.alerts.open_orders_need_key);
    assert_eq!(
        saved.alerts.alerts[0].level,
        nordlys_core::alerts::Level::Percent(nordlys_money::Percent::new(
            rust_decimal::Decimal::TWO
        )),
        "{:?}",
        saved.alerts.alerts[0]
    );
    let told = || {
        desktop
            .notified
            .lock()
            .unwrap()
            .iter()
            .filter(|n| {
                matches!(&n.told, Told::AlertFired { alert, .. } if alert.watched == Watched::OpenOrder)
            })
            .count()
    };
    let look = || async {
        watcher::look_at_price(&app).await.unwrap();
        watcher::look_at_orders(&app).await.unwrap();
    };
    look().await;
    assert_eq!(told(), 0, "4 % away");
    control(&sb, "/sandbox/price", json!({ "price": limit / 0.985 })).await;
    look().await;
    look().await;
    assert_eq!(told(), 1, "1.5 % away: once");

    let (no_key, _, _dir2) = recorded_app();
    save_exchange_profile(&no_key, sb.base_url()).await.unwrap();
    switch_profile(&no_key, "exchange").await.unwrap();
    let refused = alerts::save_alert(&no_key, within("2")).await.unwrap_err();
    assert!(refused.says(key::ALERT_OPEN_ORDER_NEEDS_KEY), "{refused:?}");
    let view = alerts::alerts(&no_key, NoArgs {}).await.unwrap();
    assert!(view.alerts.is_empty());
    assert!(view.open_orders_need_key);
}

/// While the app is locked the watcher goes on, and its notifications say nothing of the money.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_app_notifies_without_amounts() {
    let sb = sandbox().await;
    let (app, desktop, _dir) = recorded_app();
    connect(&app, &sb).await;
    watcher::look_at_history(&app).await.unwrap();
    lock_with_a_password(&app).await;
    assert_eq!(desktop.changed.lock().unwrap().last(), Some(&Change::Lock));
    control(&sb, "/sandbox/deposits", json!({ "amountBtc": 0.015 })).await;
    watcher::look_at_history(&app).await.unwrap();
    let notified = desktop.notified.lock().unwrap().clone();
    assert_eq!(notified.len(), 1, "{notified:?}");
    assert_eq!(
        notified[0].told,
        Told::WhileLocked {
            opens: nordlys_application::vocabulary::Screen::Tax
        }
    );
    let words = format!("{} {}", notified[0].title, notified[0].body);
    assert!(
        !words.contains("BTC") && !words.chars().any(|c| c.is_ascii_digit()),
        "{words}"
    );
}

/// Every request the sandbox answered under `/v1/` so far.
fn api_requests(counters: &serde_json::Value) -> u64 {
    counters["requests"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, _)| path.starts_with("/v1/"))
        .map(|(_, n)| n.as_u64().unwrap())
        .sum()
}

/// Sets the lock's password "correct horse", which locks the app.
async fn lock_with_a_password(app: &nordlys_application::App) {
    let args = nordlys_application::lock::NewPasswordArgs {
        password: "correct horse".into(),
        confirm: "correct horse".into(),
        current: String::new(),
    };
    let set = nordlys_application::lock::set_lock_password(app, args)
        .await
        .unwrap();
    assert!(set.app.lock.locked, "{set:?}");
}

/// An app connected to a sandbox of its own, its history synced and looked at once, with the
/// window `shown`, `hidden` or the app `locked`: what the budget is measured from.
async fn app_in_mode(
    mode: &str,
) -> (
    nordlys_sandbox::RunningSandbox,
    Arc<nordlys_application::App>,
    tempfile::TempDir,
) {
    let sb = sandbox().await;
    let (app, _desktop, dir) = recorded_app();
    connect(&app, &sb).await;
    app_driver::tax_synced(&app).await;
    watcher::look_at_history(&app).await.unwrap();
    // The budget includes following open orders for an alert.
    let alert = nordlys_application::alert_views::AlertArgs {
        id: None,
        watched: nordlys_core::alerts::Watched::OpenOrder,
        crossing: nordlys_core::alerts::Crossing::FallsBelow,
        level: "2".into(),
        hysteresis: String::new(),
    };
    nordlys_application::alerts::save_alert(&app, alert)
        .await
        .unwrap();
    match mode {
        "hidden" => app.set_window_shown(false),
        "locked" => lock_with_a_password(&app).await,
        _ => {}
    }
    (sb, app, dir)
}

/// The polling budget of ARCH.md, kept by the watcher's own pacing and looks over 10 minutes of
/// a virtual clock, with the window shown, hidden, and the app locked, an alert following open
/// orders: requests counted by the sandbox, after the first sync of the history (which reads it
/// all once).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watcher_keeps_its_polling_budget_shown_hidden_and_locked() {
    for (mode, per_minute) in [("shown", 24), ("hidden", 6), ("locked", 3)] {
        let (sb, app, _dir) = app_in_mode(mode).await;
        let before = api_requests(&control_get(&sb, "/sandbox/counters").await);
        watcher::run_virtually(&app, 600).await;
        let used = api_requests(&control_get(&sb, "/sandbox/counters").await) - before;
        println!("{mode}: {used} requests in 10 virtual minutes ({per_minute}/min allowed)");
        assert!(used <= per_minute * 10, "{mode}: {used} requests");
        assert!(used > 0, "{mode}: the watcher looked at nothing");
    }
}

/// The polling budget over real time (`scripts/budget`, not part of `./scripts/test`): the app's
/// own watcher, as the shell runs it, for `NORDLYS_BUDGET_SECONDS` (600 unless set) with the
/// window shown, hidden and the app locked side by side, each against a sandbox of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "runs for 10 real minutes: scripts/budget"]
async fn the_polling_budget_over_real_minutes() {
    let seconds: u64 = std::env::var("NORDLYS_BUDGET_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let one = |mode: &'static str, per_minute: u64| async move {
        let (sb, app, _dir) = app_in_mode(mode).await;
        let before = api_requests(&control_get(&sb, "/sandbox/counters").await);
        let run = watcher::run(&app);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(seconds), run).await;
        let used = api_requests(&control_get(&sb, "/sandbox/counters").await) - before;
        let rate = used as f64 * 60.0 / seconds as f64;
        (mode, used, rate, per_minute)
    };
    let results = tokio::join!(one("shown", 24), one("hidden", 6), one("locked", 3));
    println!("| mode | requests in {seconds} s | per minute | budget per minute | verdict |");
    println!("|---|---|---|---|---|");
    let mut over = vec![];
    for (mode, used, rate, budget) in [results.0, results.1, results.2] {
        let met = rate <= budget as f64;
        println!(
            "| {mode} | {used} | {rate:.1} | {budget} | {} |",
            if met { "met" } else { "missed" }
        );
        if !met {
            over.push(mode);
        }
    }
    assert!(over.is_empty(), "over budget: {over:?}");
}

/// The tray menu's actions through the functions the menu calls, and its tooltip: the live price
/// and which way it moved, nothing but "locked" while locked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tray_menu_opens_hides_amounts_locks_and_quits() {
    use nordlys_application::lock::{self, PasswordArgs};
    use nordlys_application::tray::{self, ShellDoes, TrayAction};

    let sb = sandbox().await;
    let (app, desktop, _dir) = recorded_app();
    connect(&app, &sb).await;
    let last_change = || desktop.changed.lock().unwrap().last().copied();
    assert_eq!(tray::act(&app, TrayAction::Open), ShellDoes::ShowWindow);
    assert_eq!(tray::act(&app, TrayAction::Privacy), ShellDoes::Nothing);
    assert!(app.settings().privacy);
    assert_eq!(last_change(), Some(Change::Privacy));
    tray::act(&app, TrayAction::Privacy);
    assert!(!app.settings().privacy);
    // No password yet: the window is shown to ask for one.
    assert_eq!(tray::act(&app, TrayAction::Lock), ShellDoes::ShowWindow);
    assert_eq!(last_change(), Some(Change::LockAsked));
    assert!(!app.is_locked());

    lock_with_a_password(&app).await;
    let unlock = || {
        lock::unlock(
            &app,
            PasswordArgs {
                password: "correct horse".into(),
            },
        )
    };
    unlock().await.unwrap();
    assert_eq!(tray::act(&app, TrayAction::Lock), ShellDoes::Nothing);
    assert!(app.is_locked());
    assert_eq!(
        tray::tooltip(&app),
        nordlys_application::wording::say(key::TRAY_LOCKED, nordlys_core::format::Locale::En)
    );
    tray::act(&app, TrayAction::Privacy);
    assert!(!app.settings().privacy, "no switch while locked");
    unlock().await.unwrap();

    watcher::look_at_price(&app).await.unwrap();
    assert!(
        tray::tooltip(&app).starts_with("Nordlys · NOK"),
        "{}",
        tray::tooltip(&app)
    );
    control(&sb, "/sandbox/price", json!({ "movePercent": 2 })).await;
    watcher::look_at_price(&app).await.unwrap();
    assert!(
        tray::tooltip(&app).ends_with('▲'),
        "{}",
        tray::tooltip(&app)
    );
    assert_eq!(tray::act(&app, TrayAction::Quit), ShellDoes::Quit);
    assert_eq!(TrayAction::from_id("quit"), Some(TrayAction::Quit));
    assert_eq!(TrayAction::from_id("other"), None);
}

/// The first close asks; the answer is kept and closes the window again, which then stays in the
/// tray or quits as answered. With no tray it always quits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_window_asks_once_then_keeps_nordlys_in_the_tray_or_quits() {
    use nordlys_application::background::{self, KeepInTrayArgs};
    use nordlys_application::tray::ShellDoes;

    let (app, desktop, dir) = recorded_app();
    assert_eq!(background::window_closing(&app, false), ShellDoes::Quit);
    assert_eq!(
        background::window_closing(&app, true),
        ShellDoes::ShowWindow
    );
    assert_eq!(
        desktop.changed.lock().unwrap().last(),
        Some(&Change::CloseAsked)
    );
    background::answer_close(&app, KeepInTrayArgs { keep_in_tray: true })
        .await
        .unwrap();
    assert_eq!(*desktop.closed.lock().unwrap(), 1);
    assert_eq!(
        background::window_closing(&app, true),
        ShellDoes::HideWindow
    );
    // Kept across a restart, and changed in Settings.
    drop(app);
    let again = app_on(
        dir.path(),
        Arc::new(FileSecretStore::new(app_driver::keyring_dir(dir.path()))),
        desktop.clone(),
    );
    assert_eq!(
        background::window_closing(&again, true),
        ShellDoes::HideWindow
    );
    let view = background::set_close_to_tray(
        &again,
        KeepInTrayArgs {
            keep_in_tray: false,
        },
    )
    .await
    .unwrap();
    assert_eq!(view.settings.close_to_tray, Some(false));
    assert_eq!(background::window_closing(&again, true), ShellDoes::Quit);
}

/// "Start Nordlys when I log in" writes and removes the XDG autostart entry; a desktop without one
/// says so and writes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn starting_at_login_writes_and_removes_the_autostart_entry() {
    use nordlys_application::background::{self, StartAtLoginArgs};

    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("config/autostart");
    let desktop = Arc::new(Recorded {
        autostart: Some(XdgAutostart {
            folder: folder.clone(),
            program: "/opt/Nordlys App/nordlys".into(),
        }),
        ..Recorded::default()
    });
    let app = app_on(
        dir.path(),
        Arc::new(FileSecretStore::new(app_driver::keyring_dir(dir.path()))),
        desktop.clone(),
    );
    let on = |on| background::set_start_at_login(&app, StartAtLoginArgs { start_at_login: on });
    assert_eq!(
        profiles::app_state(&app, NoArgs {})
            .await
            .unwrap()
            .start_at_login,
        Some(false),
        "off by default"
    );
    assert_eq!(on(true).await.unwrap().start_at_login, Some(true));
    let entry =
        std::fs::read_to_string(folder.join(nordlys_core::platform::autostart::FILE_NAME)).unwrap();
    assert!(
        entry.contains("Exec=\"/opt/Nordlys App/nordlys\""),
        "{entry}"
    );
    assert_eq!(on(false).await.unwrap().start_at_login, Some(false));
    assert!(
        !folder
            .join(nordlys_core::platform::autostart::FILE_NAME)
            .exists()
    );

    let (none, _, _dir) = recorded_app();
    let refused = background::set_start_at_login(
        &none,
        StartAtLoginArgs {
            start_at_login: true,
        },
    )
    .await
    .unwrap_err();
    assert!(refused.says(key::AUTOSTART_UNAVAILABLE), "{refused:?}");
    assert_eq!(
        profiles::app_state(&none, NoArgs {})
            .await
            .unwrap()
            .start_at_login,
        None
    );
}

/// Plans run only for the active profile: another profile's waiting plans are told, once, never
/// skipped silently; a profile with none, or paused ones only, is not told.
#[tokio::test]
async fn plans_of_a_profile_not_in_use_are_told_once() {
    let sb = sandbox().await;
    let (app, desktop, dir) = recorded_app();
    connect(&app, &sb).await;
    let sandbox_store = app_driver::profile_db(&app, dir.path(), "sandbox");
    let plan = nordlys_core::plans::PlanForm {
        buy_nok: "100".into(),
        every: "day".into(),
        at: "07:00".into(),
        ..nordlys_core::plans::PlanForm::default()
    }
    .parse()
    .unwrap();
    sandbox_store
        .plans()
        .add(&plan, None, chrono::Utc::now())
        .unwrap();
    let before = desktop.notified.lock().unwrap().len();
    for _ in 0..2 {
        nordlys_application::plans::run_plans_at(&app, chrono::Utc::now())
            .await
            .unwrap();
    }
    let told = desktop.notified.lock().unwrap()[before..].to_vec();
    assert_eq!(told.len(), 1, "{told:?}");
}
