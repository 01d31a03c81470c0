#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "end-to-end tests: a failed step is the failure being reported"
)]
//! Receiving and paying in the real window against the embedded sandbox.

use nordlys_e2e::*;

async fn withdrawals_created(app: &App) -> u64 {
    app.counters().await["withdrawalsCreated"].as_u64().unwrap()
}

async fn first_account_btc(app: &App) -> String {
    app.attr("[data-testid=account-row]", "data-total-btc")
        .await
        .unwrap()
}

/// Types the destination and waits until the field has understood it.
async fn destination(app: &App, text: &str) {
    app.paste("[data-testid=pay-destination]", text).await;
    app.until("the destination to be recognised", || async {
        app.exists("[data-testid=pay-recognised]").await
    })
    .await;
}

async fn fill_recipient(app: &App) {
    app.fill_form(&[
        ("[data-testid=recipient-name]", "Kari Nordmann"),
        ("[data-testid=recipient-address]", "Storgata 1, 0155 Oslo"),
    ])
    .await;
    app.select("[data-testid=recipient-country]", "NO").await;
}

/// Opens the review once the form allows it.
async fn review(app: &App) {
    app.until("the review button", || async {
        app.attr("[data-testid=pay-review]", "disabled")
            .await
            .is_none()
    })
    .await;
    app.click("[data-testid=pay-review]").await;
    app.text("[data-testid=pay-confirmation]").await;
}

/// The title of Nordlys's native confirmation of a payment, in English.
const SEND_DIALOG: &str = "Nordlys: send ";

/// Presses the web view's Send, then the native dialog's: only the latter sends.
async fn send(app: &App, shot: &str) -> String {
    app.click("[data-testid=pay-confirm]").await;
    app.answer_native_shot(SEND_DIALOG, shot, "alt+s").await
}

/// Review, confirm, and wait for the payment's status card.
async fn confirm(app: &App) {
    review(app).await;
    send(app, "pay-native-confirmation").await;
    app.until("the payment's status or an error", || async {
        app.exists("[data-testid=payment-status]").await
            || app.exists("[data-testid=pay-submit-error]").await
    })
    .await;
    if app.exists("[data-testid=pay-submit-error]").await {
        panic!(
            "refused: {}",
            app.text("[data-testid=pay-submit-error]").await
        );
    }
}

async fn status_is(app: &App, status: &str) -> bool {
    app.attr("[data-testid=payment-status]", "data-status")
        .await
        .as_deref()
        == Some(status)
}

#[tokio::test]
async fn a_nok_invoice_is_paid_by_the_sandbox_and_the_balance_rises() {
    let app = App::start(&[]).await;
    let before = first_account_btc(&app).await;
    app.click("[data-testid=nav-receive]").await;
    let uri = app
        .attr("[data-testid=qr-image-unified]", "data-uri")
        .await
        .unwrap();
    assert!(
        uri.starts_with("BITCOIN:BC1") && uri.contains("?LIGHTNING=LNURL1"),
        "{uri}"
    );
    app.fill("[data-testid=invoice-amount]", "250").await;
    app.select("[data-testid=invoice-unit]", "nok").await;
    app.fill("[data-testid=invoice-publicDescription]", "Kaffe")
        .await;
    app.click("[data-testid=create-invoice]").await;
    let id = app
        .attr("[data-testid=invoice]", "data-invoice-id")
        .await
        .unwrap();
    let qr = app
        .attr("[data-testid=qr-image-invoice]", "data-uri")
        .await
        .unwrap();
    assert!(qr.starts_with("LIGHTNING:LNBC"), "{qr}");
    assert!(!app.text("[data-testid=invoice-countdown]").await.is_empty());
    app.control(
        &format!("/sandbox/invoices/{id}/pay"),
        serde_json::json!({}),
    )
    .await;
    app.until("the invoice to show as paid", || async {
        app.attr("[data-testid=invoice]", "data-status")
            .await
            .as_deref()
            == Some("paid")
    })
    .await;
    assert_eq!(app.text("[data-testid=invoice-status]").await, "Paid");
    app.click("[data-testid=nav-overview]").await;
    app.until("the balance to rise", || async {
        first_account_btc(&app)
            .await
            .parse::<rust_decimal::Decimal>()
            .unwrap()
            > before.parse::<rust_decimal::Decimal>().unwrap()
    })
    .await;
    app.quit().await;
}

#[tokio::test]
async fn a_pasted_invoice_is_paid_with_its_own_amount_and_completes() {
    let app = App::start(&[]).await;
    first_account_btc(&app).await;
    let other = app
        .control(
            "/sandbox/invoices",
            serde_json::json!({ "amountBtc": 0.000125 }),
        )
        .await;
    let invoice = other["invoice"].as_str().unwrap().to_owned();
    app.click("[data-testid=nav-pay]").await;
    destination(&app, &invoice).await;
    assert!(
        app.text("[data-testid=pay-recognised]")
            .await
            .contains("12,500")
    );
    assert!(
        app.text("[data-testid=pay-fixed-amount]")
            .await
            .contains("0.00012500 BTC")
    );
    fill_recipient(&app).await;
    confirm(&app).await;
    app.until("the payment to complete", || status_is(&app, "completed"))
        .await;
    assert_eq!(withdrawals_created(&app).await, 1);
    app.quit().await;
}

#[tokio::test]
async fn only_the_first_payment_to_an_address_asks_for_the_recipient_and_a_repeat_asks_again() {
    let app = App::start(&[]).await;
    let address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
    app.click("[data-testid=nav-pay]").await;
    destination(&app, address).await;
    app.select("[data-testid=pay-unit]", "btc").await;
    app.fill("[data-testid=pay-amount]", "0.001").await;
    app.until("the recipient form", || async {
        app.exists("[data-testid=recipient-form]").await
    })
    .await;
    assert!(
        app.attr("[data-testid=pay-review]", "disabled")
            .await
            .is_some(),
        "no sending without the recipient"
    );
    fill_recipient(&app).await;
    confirm(&app).await;
    app.until("the payment to be sent", || async {
        app.attr("[data-testid=payment-status]", "data-state")
            .await
            .as_deref()
            == Some("sent")
    })
    .await;
    app.text("[data-testid=saved-recipient]").await;
    destination(&app, address).await;
    app.fill("[data-testid=pay-amount]", "0.001").await;
    app.until("the saved recipient", || async {
        app.exists("[data-testid=pay-saved-recipient]").await
    })
    .await;
    assert!(!app.exists("[data-testid=recipient-form]").await);
    // The same payment again today: asked once more in the window before any native dialog;
    // the second word shows the dialog, which sends it.
    review(&app).await;
    app.click("[data-testid=pay-confirm]").await;
    app.text("[data-testid=pay-recent]").await;
    assert!(
        app.native_dialog_now(SEND_DIALOG).is_none(),
        "the journal's question comes before the native dialog"
    );
    assert_eq!(withdrawals_created(&app).await, 1, "nothing sent yet");
    app.screenshot("pay-same-again").await;
    app.click("[data-testid=pay-despite-recent]").await;
    app.answer_native_shot(SEND_DIALOG, "pay-native-pay-again", "alt+s")
        .await;
    app.until("two withdrawals", || async {
        withdrawals_created(&app).await == 2
    })
    .await;
    app.quit().await;
}

#[tokio::test]
async fn an_expired_invoice_is_refused_in_the_field() {
    let app = App::start(&[]).await;
    app.click("[data-testid=nav-pay]").await;
    // The BOLT #11 "coffee beans" example: valid, and expired since 2017.
    let coffee = "lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq67gye39hfg3zd8rgc80k32tvy9xk2xunwm5lzexnvpx6fd77en8qaq424dxgt56cag2dpt359k3ssyhetktkpqh24jqnjyw6uqd08sgptq44qu";
    app.paste("[data-testid=pay-destination]", coffee).await;
    let error = app.text("[data-testid=pay-destination-error]").await;
    assert!(error.contains("expired"), "{error}");
    assert!(
        app.attr("[data-testid=pay-review]", "disabled")
            .await
            .is_some()
    );
    app.fill(
        "[data-testid=pay-destination]",
        "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
    )
    .await;
    app.until("the checksum message", || async {
        app.text("[data-testid=pay-destination-error]")
            .await
            .contains("checksum")
    })
    .await;
    app.quit().await;
}

#[tokio::test]
async fn commit_then_never_answer_ends_with_exactly_one_withdrawal() {
    let app = App::start(&[("NORDLYS_REQUEST_TIMEOUT_SECS", "3")]).await;
    first_account_btc(&app).await;
    app.control("/sandbox/faults",
        serde_json::json!({ "path": "/v1/withdrawals/bitcoin", "method": "POST", "kind": "commit-then-hang", "count": 1 }),
    )
    .await;
    app.click("[data-testid=nav-pay]").await;
    destination(&app, "kari@example.com").await;
    app.fill("[data-testid=pay-amount]", "5000").await;
    fill_recipient(&app).await;
    confirm(&app).await;
    app.until("the app's own check to find the payment", || async {
        app.attr("[data-testid=payment-status]", "data-state")
            .await
            .as_deref()
            == Some("sent")
    })
    .await;
    assert_eq!(withdrawals_created(&app).await, 1);
    app.until("the payment to complete", || status_is(&app, "completed"))
        .await;
    assert_eq!(withdrawals_created(&app).await, 1, "never sent again");
    app.quit().await;
}

/// A payment whose answer is lost, on an exchange that does not copy descriptions into its tax
/// rows: the window says "unknown", shows the banner and what Nordlys checked, and later "sent",
/// never "not sent" on the way.
#[tokio::test]
async fn a_lost_payment_is_shown_unknown_with_its_evidence_then_sent() {
    let app = App::start(&[]).await;
    first_account_btc(&app).await;
    app.control(
        "/sandbox/readings",
        serde_json::json!({ "noNoteEcho": true }),
    )
    .await;
    app.control(
        "/sandbox/faults",
        serde_json::json!({ "path": "/v1/withdrawals", "method": "POST",
                            "kind": "commit-then-drop", "count": 1 }),
    )
    .await;
    app.click("[data-testid=nav-pay]").await;
    destination(&app, "kari@example.com").await;
    app.fill("[data-testid=pay-amount]", "4321").await;
    fill_recipient(&app).await;
    confirm(&app).await;
    app.until("the banner", || async {
        app.exists("[data-testid=unknowns-banner]").await
    })
    .await;
    app.click("[data-testid=unknowns-banner-open]").await;
    app.until("the entry with what was checked", || async {
        app.exists("[data-testid=unknown-entry] [data-testid=unknown-evidence]")
            .await
    })
    .await;
    app.click("[data-testid=unknown-evidence] summary").await;
    app.screenshot("unknown-payment").await;
    // What each check read and saw is in the user's words, not the API's paths, and accounts
    // go by their names.
    let steps = app
        .script(
            "return document.querySelector('[data-testid=unknown-evidence]').textContent;",
            vec![],
        )
        .await;
    let steps = steps.as_str().unwrap_or_default();
    assert!(
        !steps.contains("GET /v1") && !steps.contains("acc_") && steps.contains("Bitcoin balances"),
        "{steps}"
    );
    app.until_within(
        "the payment to be found as sent",
        std::time::Duration::from_secs(60),
        || async {
            let state = app
                .attr("[data-testid=unknown-entry]", "data-state")
                .await
                .unwrap_or_default();
            assert_ne!(state, "notSent", "called not sent on the way");
            state == "sent"
        },
    )
    .await;
    assert!(!app.exists("[data-testid=unknowns-banner]").await);
    assert_eq!(withdrawals_created(&app).await, 1);
    app.quit().await;
}

/// The header's lock asks for a password first, then hides every amount until unlocked; the
/// keyring holds only its Argon2id hash; a payment asks for the password again, and without the
/// right one nothing is sent; the screen's lock locks the app.
#[tokio::test]
async fn the_lock_hides_every_amount_and_asks_for_the_password_before_a_payment() {
    let app = App::start(&[]).await;
    first_account_btc(&app).await;
    app.click("[data-testid=lock]").await;
    app.fill_form(&[
        ("[data-testid=new-password]", "correct horse"),
        ("[data-testid=new-password-confirm]", "correct horse"),
    ])
    .await;
    app.screenshot("lock-setup").await;
    app.click("[data-testid=new-password-save]").await;
    app.until("the locked window", || async {
        app.exists("[data-testid=unlock-password]").await
    })
    .await;
    app.screenshot("locked").await;
    assert!(!app.exists("[data-testid=total-btc]").await);
    let shown = app.text("body").await;
    assert!(
        !shown.contains("BTC") && !shown.contains("NOK"),
        "an amount while locked: {shown}"
    );
    let hash = keyring_secret("app-lock").expect("the lock's entry");
    assert!(hash.starts_with("$argon2id$"), "{hash}");

    app.fill("[data-testid=unlock-password]", "correct horse")
        .await;
    app.click("[data-testid=unlock]").await;
    first_account_btc(&app).await;

    app.click("[data-testid=nav-pay]").await;
    destination(&app, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4").await;
    app.select("[data-testid=pay-unit]", "btc").await;
    app.fill("[data-testid=pay-amount]", "0.001").await;
    fill_recipient(&app).await;
    review(&app).await;
    app.fill("[data-testid=payment-password]", "wrong horse")
        .await;
    app.click("[data-testid=pay-confirm]").await;
    // Said at the password field, the confirmation still open.
    let refused = app.text("[data-testid=payment-password-error]").await;
    assert!(refused.contains("password"), "{refused}");
    assert_eq!(withdrawals_created(&app).await, 0, "nothing sent");
    app.fill("[data-testid=payment-password]", "correct horse")
        .await;
    send(&app, "pay-native-after-password").await;
    app.until("the payment to be sent", || async {
        withdrawals_created(&app).await == 1
    })
    .await;

    // The screen locks (the session's screensaver says so on D-Bus): the app locks with it.
    let said = std::process::Command::new("dbus-send")
        .args([
            "--session",
            "--type=signal",
            "/org/freedesktop/ScreenSaver",
            "org.freedesktop.ScreenSaver.ActiveChanged",
            "boolean:true",
        ])
        .status()
        .expect("dbus-send");
    assert!(said.success());
    app.until("the app to lock with the screen", || async {
        app.exists("[data-testid=unlock-password]").await
    })
    .await;
    app.quit().await;
}
