#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::float_arithmetic,
    reason = "end-to-end tests: a failed step is the failure being reported; the price is test data"
)]
//! Trading in the real window against the embedded sandbox.

use nordlys_e2e::*;

/// The title of Nordlys's native confirmation of an order, in English.
const ORDER_DIALOG: &str = "Nordlys: place this";

/// Fills the form, reviews it and confirms it in the window and in the native dialog; returns
/// the warning shown, if any.
async fn order(
    app: &App,
    kind: &str,
    direction: &str,
    amount: &str,
    price: Option<&str>,
) -> Option<String> {
    let warning = confirm_in_window(app, kind, direction, amount, price).await;
    app.answer_native_shot(ORDER_DIALOG, "order-native-confirmation", "alt+p")
        .await;
    warning
}

/// Fills the form, reviews it and presses the window's Confirm, which asks for the native
/// dialog unless the window has a question first; returns the warning shown, if any.
async fn confirm_in_window(
    app: &App,
    kind: &str,
    direction: &str,
    amount: &str,
    price: Option<&str>,
) -> Option<String> {
    app.choose(&format!("[data-testid=type-{kind}]")).await;
    app.choose(&format!("[data-testid=direction-{direction}]"))
        .await;
    if let Some(p) = price {
        app.fill("[data-testid=order-price]", p).await;
    }
    app.fill("[data-testid=order-amount]", amount).await;
    app.until("the review button", || async {
        app.attr("[data-testid=order-review]", "disabled")
            .await
            .is_none()
    })
    .await;
    let warning = if app.exists("[data-testid=order-warning]").await {
        Some(app.text("[data-testid=order-warning]").await)
    } else {
        None
    };
    app.click("[data-testid=order-review]").await;
    // The window rebuilds its page on every update (until the component rebuild of issue 21), so
    // an update landing with the click can swallow it; the user then clicks again, after a second.
    let waited = std::sync::atomic::AtomicU32::new(0);
    app.until("the order summary", || async {
        if app.exists("[data-testid=order-summary]").await {
            return true;
        }
        if waited.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 10 == 9 {
            let again = "const b = document.querySelector('[data-testid=order-review]'); \
                         if (b && !b.disabled) b.click(); return true;";
            app.script(again, vec![]).await;
        }
        false
    })
    .await;
    app.click("[data-testid=order-confirm]").await;
    warning
}

/// What the screen said after confirming: the outcome's test id and its text, or the error.
async fn outcome(app: &App) -> (String, String) {
    for _ in 0..200 {
        for id in [
            "order-placed",
            "order-notPlaced",
            "order-unknown",
            "order-error",
        ] {
            let css = format!("[data-testid={id}]");
            if app.exists(&css).await {
                return (id.to_owned(), app.text(&css).await);
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("nothing was shown within 20 s of confirming the order");
}

#[tokio::test]
async fn a_market_buy_changes_the_balances_shown() {
    let app = App::start(&[]).await;
    let before: f64 = app
        .attr("[data-testid=fiat]", "data-raw")
        .await
        .unwrap()
        .parse()
        .unwrap();
    app.click("[data-testid=nav-trade]").await;
    let default_quote = app.text("[data-testid=quote]").await;
    let newest_before = app.text("[data-testid=trade-row]").await;
    // A quote for the amount the user means to trade: larger amounts move the price.
    app.fill("[data-testid=quote-amount]", "2000000").await;
    app.until("the quote for 2,000,000", || async {
        app.text("[data-testid=quote-for]")
            .await
            .contains("2,000,000.00")
    })
    .await;
    app.until("a wider quote", || async {
        app.text("[data-testid=quote]").await != default_quote
    })
    .await;
    app.fill("[data-testid=order-amount]", "99999999").await;
    assert!(
        app.text("[data-testid=order-amount-error]")
            .await
            .contains("more than available")
    );
    app.fill("[data-testid=order-amount]", "1,000.5").await;
    app.until("the estimate", || async {
        app.text("[data-testid=order-estimate]")
            .await
            .contains("BTC")
    })
    .await;
    order(&app, "market", "buy", "1000.50", None).await;
    let (shown, text) = outcome(&app).await;
    assert_eq!(shown, "order-placed", "{text}");
    assert!(text.contains("placed"), "{text}");
    // The fill is in the trade history without leaving the screen, on the user's clock.
    app.until("the buy in the trade history", || async {
        let newest = app.text("[data-testid=trade-row]").await;
        newest != newest_before && newest.contains("Buy")
    })
    .await;
    // The outcome says what was bought, for how much, and the fee, from the trade the order made.
    app.until("what the buy bought", || async {
        let fill = app.text("[data-testid=order-fill]").await;
        fill.contains("Bought") && fill.contains("BTC") && fill.contains("NOK")
    })
    .await;
    app.click("[data-testid=nav-overview]").await;
    app.until("the fiat balance to drop by the amount", || async {
        let now: f64 = app
            .attr("[data-testid=fiat]", "data-raw")
            .await
            .unwrap_or_default()
            .parse()
            .unwrap_or(before);
        (before - now - 1000.5).abs() < 0.001
    })
    .await;
    app.screenshot("trade-after-buy").await;
    app.quit().await;
}

#[tokio::test]
async fn a_limit_sell_rests_is_cancelled_and_a_crossed_one_fills() {
    let app = App::start(&[]).await;
    app.click("[data-testid=nav-trade]").await;
    app.text("[data-testid=quote]").await;
    let warning = order(&app, "limit", "sell", "0.001", Some("5000000")).await;
    assert!(
        warning.unwrap_or_default().contains("far from the market"),
        "a far price warns, does not block"
    );
    app.text("[data-testid=open-order]").await;
    let id = app
        .attr("[data-testid=open-order]", "data-order-id")
        .await
        .unwrap();
    app.screenshot("trade-open-order").await;
    app.click(&format!("[data-testid=cancel-{id}]")).await;
    app.click(&format!("[data-testid=cancel-{id}]")).await;
    app.text("[data-testid=no-open-orders]").await;

    // A resting sell just above the market, then the sandbox price moves across it.
    let quote = app.api_get("/v1/price/nok", None).await;
    let near = format!("{:.2}", quote["ask"].as_f64().unwrap() * 1.02);
    order(&app, "limit", "sell", "0.002", Some(&near)).await;
    app.text("[data-testid=open-order]").await;
    app.control("/sandbox/price", serde_json::json!({ "movePercent": 10 }))
        .await;
    app.click("[data-testid=nav-overview]").await;
    app.click("[data-testid=nav-trade]").await;
    app.text("[data-testid=no-open-orders]").await;
    // The fill shows: the newest trade is this sell of 0.002 BTC.
    app.until("the fill in the trade history", || async {
        let newest = app.text("[data-testid=trade-row]").await;
        newest.contains("Sell") && newest.contains("0.00200000")
    })
    .await;
    app.quit().await;
}

#[tokio::test]
async fn commit_then_never_answer_ends_as_placed_with_exactly_one_order() {
    let app = App::start(&[("NORDLYS_REQUEST_TIMEOUT_SECS", "3")]).await;
    app.click("[data-testid=nav-trade]").await;
    app.text("[data-testid=quote]").await;
    app.control("/sandbox/faults", serde_json::json!({ "path": "/v1/orders", "method": "POST", "kind": "commit-then-hang", "count": 1 })).await;
    order(&app, "market", "buy", "500", None).await;
    let text = app.text("[data-testid=order-placed]").await;
    assert!(text.contains("placed"), "{text}");
    assert_eq!(
        app.counters().await["ordersCreated"],
        1,
        "the app checked, it did not send again"
    );
    app.text("[data-testid=journal-entry][data-state=placed]")
        .await;
    app.quit().await;
}

/// An order's answer is lost and the check that follows cannot read the account either: the
/// window says "unknown", nothing is left armed to order again, and the same order needs a second,
/// plainly worded confirmation.
#[tokio::test]
async fn nothing_is_armed_after_a_lost_order_whose_check_also_failed() {
    let app = App::start(&[]).await;
    app.click("[data-testid=nav-trade]").await;
    app.text("[data-testid=quote]").await;
    app.control(
        "/sandbox/faults",
        serde_json::json!({ "path": "/v1/orders", "method": "POST", "kind": "commit-then-drop", "count": 1 }),
    )
    .await;
    // The look that follows, and every later one: open orders and tax rows cannot be read.
    for path in ["/v1/orders", "/v1/tax/transactions"] {
        app.control(
            "/sandbox/faults",
            serde_json::json!({ "path": path, "method": "GET", "kind": "http500" }),
        )
        .await;
    }
    order(&app, "market", "buy", "777", None).await;
    // The screen's own refreshes fail meanwhile too, and say so; the order's outcome is what
    // matters here.
    app.until("the order's outcome: unknown", || async {
        app.exists("[data-testid=order-unknown]").await
    })
    .await;
    assert!(!app.exists("[data-testid=order-notPlaced]").await);
    assert!(
        !app.exists("[data-testid=order-confirm]").await,
        "Confirm stayed armed after doubt"
    );
    // The same order again: asked in the window, before any native dialog.
    confirm_in_window(&app, "market", "buy", "777", None).await;
    app.text("[data-testid=order-doubt]").await;
    assert!(
        app.native_dialog_now(ORDER_DIALOG).is_none(),
        "the journal's question comes before the native dialog"
    );
    assert_eq!(
        app.counters().await["ordersCreated"],
        1,
        "nothing sent again"
    );
    app.quit().await;
}

/// An alert made on the Overview fires as a desktop notification, once, when the sandbox's price
/// is moved across its level; the notice opens the Trade screen.
#[tokio::test]
async fn a_price_alert_is_notified_once_when_the_price_crosses_it() {
    let log = tempfile::tempdir().unwrap();
    let path = log.path().join("notices.jsonl");
    let app = App::start(&[("NORDLYS_NOTIFY_LOG", path.to_str().unwrap())]).await;
    let quote = app.api_get("/v1/price/nok", None).await;
    let level = format!("{:.0}", quote["price"].as_f64().unwrap() * 1.05);
    app.fill("[data-testid=alert-level]", &level).await;
    app.click("[data-testid=alert-save]").await;
    app.text("[data-testid=alert]").await;
    app.screenshot("price-alerts").await;
    app.control("/sandbox/price", serde_json::json!({ "movePercent": 10 }))
        .await;
    let alerts = || {
        std::fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|n| n["title"] == "Price alert")
            .collect::<Vec<_>>()
    };
    app.until("the alert to be notified", || async {
        !alerts().is_empty()
    })
    .await;
    // Two more reads of the price, still above the level: nothing more.
    tokio::time::sleep(std::time::Duration::from_secs(11)).await;
    let told = alerts();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0]["opens"], "trade");
    assert!(
        told[0]["body"].as_str().unwrap().contains("rises above"),
        "{told:?}"
    );
    app.quit().await;
}

/// The title of Nordlys's native confirmation of a new or larger plan, in English.
const PLAN_DIALOG: &str = "Nordlys: keep this recurring buy";

/// A weekly plan made in the window runs once when its slot is due: `nordlys-cli plans run-due
/// --now` on the profile's directory (as a timer would start it) places one order, a second start
/// for the same moment records nothing, and the plan's history in the window shows the run.
#[tokio::test]
async fn a_weekly_plan_made_in_the_window_runs_once_and_its_run_is_shown() {
    use chrono::{Datelike, TimeZone};
    let app = App::start(&[]).await;
    app.click("[data-testid=nav-trade]").await;
    app.fill("[data-testid=plan-amount]", "500").await;
    app.select("[data-testid=plan-every]", "week").await;
    app.select("[data-testid=plan-on]", "mon").await;
    app.fill("[data-testid=plan-at]", "07:00").await;
    // Cancelled in the native dialog: nothing is kept, and the window says so.
    app.click("[data-testid=plan-save]").await;
    app.answer_native_shot(PLAN_DIALOG, "plan-native-cancelled", "Escape")
        .await;
    app.until("the plan's refusal", || async {
        app.exists("[data-testid=plans-error]").await
    })
    .await;
    assert!(
        !app.exists("[data-testid=plan]").await,
        "a cancelled plan is not kept"
    );
    // Approved there: kept.
    app.click("[data-testid=plan-save]").await;
    app.answer_native_shot(PLAN_DIALOG, "plan-native-confirmation", "alt+k")
        .await;
    app.until("the plan is listed", || async {
        app.exists("[data-testid=plan-next]").await
    })
    .await;
    assert!(!app.exists("[data-testid=plans-error]").await);
    assert!(app.text("[data-testid=plan]").await.contains("Monday"));
    let before = app.counters().await["ordersCreated"].as_u64().unwrap();

    // 07:30 in Oslo on the next Monday: the slot is due.
    let oslo = nordlys_core::time::OSLO;
    let today = chrono::Utc::now().with_timezone(&oslo).date_naive();
    let monday =
        today + chrono::Duration::days(7 - i64::from(today.weekday().num_days_from_monday()));
    let due = oslo
        .from_local_datetime(&monday.and_hms_opt(7, 30, 0).unwrap())
        .earliest()
        .unwrap()
        .with_timezone(&chrono::Utc);
    let world = sandbox_keys();
    let key = world.keys.iter().find(|k| k.name == "trading").unwrap();
    let state = app
        .home
        .path()
        .join("data/no.nordlys.desktop/profiles/sandbox");
    let run_due_at = |due: chrono::DateTime<chrono::Utc>| {
        let out = std::process::Command::new(cli_binary())
            .args(["plans", "run-due", "--now", &due.to_rfc3339()])
            .env("NORDLYS_BASE_URL", app.sandbox())
            .env("NORDLYS_API_KEY", &key.key)
            .env("NORDLYS_API_SECRET", &key.secret)
            .env("NORDLYS_STATE_DIR", &state)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let run_due = || run_due_at(due);
    let ran = run_due();
    assert_eq!(ran.as_array().unwrap().len(), 1, "{ran}");
    assert_eq!(ran[0]["state"], "placed", "{ran}");
    assert_eq!(
        run_due(),
        serde_json::json!([]),
        "the same slot twice is one run"
    );
    assert_eq!(
        app.counters().await["ordersCreated"].as_u64().unwrap(),
        before + 1
    );

    // The window reads the plans again when the screen is opened.
    app.click("[data-testid=nav-overview]").await;
    app.click("[data-testid=nav-trade]").await;
    app.until("the run in the plan's history", || async {
        app.attr("[data-testid=plan-run]", "data-state")
            .await
            .as_deref()
            == Some("placed")
    })
    .await;
    assert!(app.text("[data-testid=plan-run]").await.contains("or_"));
    app.script(
        "document.querySelector('[data-testid=plans]').scrollIntoView()",
        vec![],
    )
    .await;
    app.screenshot("trade-recurring-buy").await;

    // Edited in the window into a ladder of three limit buys: the next Monday places three
    // orders below the ask, each shown with its limit price.
    app.click("[data-testid=plan-edit]").await;
    app.select("[data-testid=plan-kind]", "ladder").await;
    app.fill("[data-testid=plan-rungs-count]", "3").await;
    app.fill("[data-testid=plan-step]", "1").await;
    app.click("[data-testid=plan-save]").await;
    app.until("the plan says it is a ladder", || async {
        app.text("[data-testid=plan]").await.contains("limit buys")
    })
    .await;
    let ran = run_due_at(due + chrono::Duration::weeks(1));
    assert_eq!(ran[0]["state"], "placed", "{ran}");
    assert_eq!(ran[0]["journalIds"].as_array().unwrap().len(), 3, "{ran}");
    assert_eq!(
        app.counters().await["ordersCreated"].as_u64().unwrap(),
        before + 4
    );
    app.click("[data-testid=nav-overview]").await;
    app.click("[data-testid=nav-trade]").await;
    app.until("the ladder's rungs in the plan's history", || async {
        app.script(
            "return document.querySelectorAll('[data-testid=plan-rung][data-state=placed]').length",
            vec![],
        )
        .await
            == 3
    })
    .await;
    assert!(
        app.exists("[data-testid=plan-limit-fills]").await,
        "the plan says its limit buys' fills may not be counted"
    );
    app.click("[data-testid=plan-rungs] summary").await;
    app.script(
        "document.querySelector('[data-testid=plan-rungs]').scrollIntoView()",
        vec![],
    )
    .await;
    app.screenshot("trade-limit-ladder").await;
}
