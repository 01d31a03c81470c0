#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "end-to-end tests: a failed step is the failure being reported"
)]
//! The real window against the embedded sandbox. Run one at a time (the app is single-instance):
//! `scripts/e2e`.

use std::time::Duration;

use nordlys_e2e::*;

#[tokio::test]
async fn first_start_shows_the_sandbox_badge_and_its_real_balances() {
    let app = App::start(&[]).await;
    assert_eq!(app.text("[data-testid=sandbox-badge]").await, "Sandbox");
    app.text("[data-testid=account-row]").await;
    let world = sandbox_keys();
    let read = &world.keys[0].key;
    let accounts = app.api_get("/v1/user/bitcoin-accounts", Some(read)).await;
    for a in accounts["accounts"].as_array().unwrap() {
        let id = a["id"].as_str().unwrap();
        let shown = app
            .attr(&format!("[data-account-id='{id}']"), "data-total-btc")
            .await
            .unwrap();
        assert_eq!(
            shown.parse::<f64>().unwrap(),
            a["totalBtc"].as_f64().unwrap(),
            "{id}"
        );
    }
    let fiat = app.api_get("/v1/user/fiat-account", Some(read)).await;
    let shown = app.attr("[data-testid=fiat]", "data-raw").await.unwrap();
    assert_eq!(
        shown.parse::<f64>().unwrap(),
        fiat["availableNok"].as_f64().unwrap()
    );
    // Said once, across the window, and explained in words rather than a tooltip.
    assert!(
        app.text("[data-testid=sandbox-strip]")
            .await
            .contains("nothing you do here is real"),
        "the strip says what the sandbox is"
    );
    assert_eq!(
        app.script("return document.querySelectorAll('.badge').length;", vec![])
            .await,
        1,
        "no sandbox tag on every card"
    );
    assert!(
        app.exists("[data-testid=welcome]").await,
        "a first start is welcomed"
    );
    let chart = app
        .attr("[data-testid=volume-chart]", "src")
        .await
        .unwrap_or_default();
    assert!(
        chart.starts_with("data:image/svg+xml"),
        "the volume chart is drawn in Rust and shown"
    );
    assert!(app.text("[data-testid=volume]").await.contains("NOK"));
    app.screenshot("overview").await;

    // The navigation guard: a page script cannot take the window elsewhere or open another.
    let own = app.script("return window.location.href;", vec![]).await;
    app.script(
        "window.open('https://example.com/'); window.location.href = 'https://example.com/'; return true;",
        vec![],
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert_eq!(app.window_count().await, 1, "no new window");
    assert_eq!(
        app.script("return window.location.href;", vec![]).await,
        own,
        "still on the app's own page"
    );
    app.text("[data-testid=account-row]").await;
    app.quit().await;
}

#[tokio::test]
async fn a_key_said_read_only_disables_trading_with_its_reason_and_an_unknown_one_may_try() {
    let app = App::start(&[]).await;
    let world = sandbox_keys();
    app.click("[data-testid=nav-connect]").await;
    assert_eq!(
        app.attr("[data-testid=capability-trading]", "data-allowed")
            .await
            .as_deref(),
        Some("true"),
        "the demo key trades"
    );
    let read = world.keys.iter().find(|k| k.name == "read").unwrap();
    let money_requests = || async {
        let c = app.counters().await;
        c["requests"]
            .as_object()
            .unwrap()
            .iter()
            // A cancel, or a new withdrawal (GET /v1/orders lists, and shares its path with a new order).
            .filter(|(p, _)| p.starts_with("/v1/orders/") || *p == "/v1/withdrawals/bitcoin")
            .map(|(_, n)| n.as_u64().unwrap())
            .sum::<u64>()
    };
    let before = money_requests().await;
    app.fill_form(&[
        ("[data-testid=api-key]", &read.key),
        ("[data-testid=api-secret]", &read.secret),
    ])
    .await;
    app.select("[data-testid=key-may-trade]", "no").await;
    app.select("[data-testid=key-may-withdraw]", "no").await;
    app.click("[data-testid=save-key]").await;
    app.text("[data-testid=message-ok]").await;
    assert_eq!(
        app.attr("[data-testid=capability-trading]", "data-allowed")
            .await
            .as_deref(),
        Some("false")
    );
    assert!(
        app.text("[data-testid=capability-trading]")
            .await
            .contains("does not have the trading permission")
    );
    assert!(
        app.text("[data-testid=key-source]")
            .await
            .contains("your API key")
    );
    app.screenshot("connect-read-only-key").await;
    // Every action the key cannot perform is disabled, with the reason next to it.
    app.click("[data-testid=nav-trade]").await;
    assert!(
        app.text("[data-testid=trading-disabled]")
            .await
            .contains("trading permission")
    );
    app.fill("[data-testid=order-amount]", "100").await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        app.attr("[data-testid=order-review]", "disabled")
            .await
            .as_deref(),
        Some("true")
    );
    app.click("[data-testid=nav-connect]").await;
    // A key whose trading is not known may try; the exchange's first answer tells.
    let trading = world.keys.iter().find(|k| k.name == "trading").unwrap();
    app.fill_form(&[
        ("[data-testid=api-key]", &trading.key),
        ("[data-testid=api-secret]", &trading.secret),
    ])
    .await;
    app.select("[data-testid=key-may-withdraw]", "no").await;
    app.click("[data-testid=save-key]").await;
    app.until("trading enabled", || async {
        app.attr("[data-testid=capability-trading]", "data-allowed")
            .await
            .as_deref()
            == Some("true")
    })
    .await;
    assert!(
        app.text("[data-testid=capability-trading]")
            .await
            .contains("not known until first used")
    );
    assert_eq!(
        money_requests().await,
        before,
        "no order or withdrawal request was sent to learn what the keys may do"
    );
    assert_eq!(
        app.attr("[data-testid=capability-withdrawal]", "data-allowed")
            .await
            .as_deref(),
        Some("false")
    );
    assert!(
        keyring_secret("sandbox:api-key").is_some(),
        "the key is in the real keyring"
    );
    // The read key again, its trading not known: the first order is refused by the exchange,
    // and the Trade screen says so at once, without leaving it.
    app.fill_form(&[
        ("[data-testid=api-key]", &read.key),
        ("[data-testid=api-secret]", &read.secret),
    ])
    .await;
    app.select("[data-testid=key-may-trade]", "").await;
    app.click("[data-testid=save-key]").await;
    app.until("trading unknown", || async {
        app.text("[data-testid=capability-trading]")
            .await
            .contains("not known until first used")
    })
    .await;
    app.click("[data-testid=nav-trade]").await;
    app.fill("[data-testid=order-amount]", "100").await;
    // As the trade tests do: the check has answered, then review, then the summary to confirm.
    app.until("the review button", || async {
        app.attr("[data-testid=order-review]", "disabled")
            .await
            .is_none()
    })
    .await;
    app.click("[data-testid=order-review]").await;
    app.text("[data-testid=order-summary]").await;
    app.click("[data-testid=order-confirm]").await;
    app.answer_native_shot("Nordlys: place this", "order-native-read-only", "alt+p")
        .await;
    app.until("the refusal to be shown where it happened", || async {
        app.exists("[data-testid=trading-disabled]").await
    })
    .await;
    assert!(
        app.text("[data-testid=trading-disabled]")
            .await
            .contains("trading permission")
    );
    app.click("[data-testid=nav-connect]").await;
    // A bad secret is refused with a message, and nothing changes.
    app.fill("[data-testid=api-key]", "svc/public/nope").await;
    app.fill("[data-testid=api-secret]", "not base64 at all")
        .await;
    app.click("[data-testid=save-key]").await;
    let error = app.text("[data-testid=message-error]").await;
    assert!(error.contains("svc/apisecret/"), "{error}");
    // The two secrets typed in: only ever in the keyring, never left behind.
    let hits = app.secret_audit(&[read.secret.clone(), trading.secret.clone()]);
    assert!(hits.is_empty(), "secrets left behind: {hits:?}");
    app.click("[data-testid=disconnect]").await;
    app.until("keyring empty", || async {
        keyring_secret("sandbox:api-key").is_none()
    })
    .await;
    app.quit().await;
}

#[tokio::test]
async fn oauth_connect_deny_timeout_and_disconnect() {
    let app = App::start(&[("NORDLYS_OAUTH_TIMEOUT_SECS", "10")]).await;
    app.click("[data-testid=nav-connect]").await;

    // Approve: the app opened the consent page in "the browser"; the test is the browser.
    app.click("[data-testid=connect-oauth]").await;
    app.until("the browser to be opened", || async {
        !app.opened_urls().is_empty()
    })
    .await;
    let url = app.opened_urls().last().cloned().unwrap();
    assert!(
        url.contains("/oauth2/v0/authorize") && url.contains("code_challenge_method=S256"),
        "{url}"
    );
    play_browser(&url, "approve").await;
    let scopes = app.text("[data-testid=oauth-scopes]").await;
    assert!(scopes.contains("See balances"), "{scopes}");
    app.screenshot("connect-oauth").await;
    let grant: serde_json::Value =
        serde_json::from_str(&keyring_secret("sandbox:oauth-grant").expect("grant in keyring"))
            .unwrap();
    let token = grant["access"].as_str().unwrap().to_owned();
    let refresh = grant["refresh"].as_str().unwrap_or_default().to_owned();

    // Disconnect: consent revoked at the sandbox, keyring empty for the profile.
    app.click("[data-testid=disconnect]").await;
    app.text("[data-testid=oauth-none]").await;
    let status = http()
        .get(format!("{}/v1/user/bitcoin-accounts", app.sandbox()))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status.as_u16(), 401, "the sandbox refuses the old token");
    // No credential is left; the key that seals saved recipients stays (it is not one).
    let entries = keyring_entries();
    assert!(
        !entries.contains("sandbox:api-key") && !entries.contains("sandbox:oauth-grant"),
        "keyring holds no credential for the profile: {entries}"
    );

    // Deny.
    app.click("[data-testid=connect-oauth]").await;
    app.until("a second URL", || async { app.opened_urls().len() >= 2 })
        .await;
    play_browser(&app.opened_urls()[1], "deny").await;
    assert!(
        app.text("[data-testid=message-error]")
            .await
            .contains("declined")
    );

    // Timeout: nobody answers.
    app.click("[data-testid=connect-oauth]").await;
    tokio::time::sleep(Duration::from_secs(11)).await;
    assert!(
        app.text("[data-testid=message-error]")
            .await
            .contains("no answer")
    );
    app.text("[data-testid=oauth-none]").await;

    // The secret audit of this run: every API secret of the sandbox (one was typed in) and the
    // OAuth tokens, in no file, crash dump, process environment or command line.
    let world = sandbox_keys();
    let mut needles: Vec<String> = world.keys.iter().map(|k| k.secret.clone()).collect();
    needles.extend([token, refresh]);
    let hits = app.secret_audit(&needles);
    assert!(hits.is_empty(), "secrets left behind: {hits:?}");
    // What it and WebKit wrote (settings, the SQLite files, WebView storage, caches) is its
    // user's alone.
    let open = app.open_to_others();
    assert!(open.is_empty(), "readable by others: {open:?}");
    app.quit().await;
}

#[tokio::test]
async fn language_and_unit_switch() {
    let app = App::start(&[]).await;
    app.click("[data-testid=nav-settings]").await;
    app.click("[data-testid=language] option[value=nb]").await;
    app.until("Norwegian", || async {
        app.text("[data-testid=nav-overview]").await == "Oversikt"
    })
    .await;
    app.click("[data-testid=unit] option[value=sats]").await;
    app.click("[data-testid=nav-overview]").await;
    app.until("sats", || async {
        app.text("[data-testid=total-btc]").await.contains("sats")
    })
    .await;
    let fiat = app.text("[data-testid=fiat]").await;
    assert!(
        fiat.ends_with("kr") && fiat.contains(','),
        "nb format: {fiat}"
    );
    app.screenshot("overview-nb-sats").await;
    app.quit().await;
}

/// Settings start Nordlys at login (an XDG autostart entry for this very program, off by
/// default) and keep it in the tray when the window closes.
#[tokio::test]
async fn starting_at_login_is_an_autostart_entry_written_and_removed() {
    let app = App::start(&[]).await;
    let entry = app
        .home
        .path()
        .join("config/autostart/no.nordlys.desktop.desktop");
    app.click("[data-testid=nav-settings]").await;
    assert!(!entry.exists(), "off by default");
    app.click("[data-testid=start-at-login]").await;
    app.until("the autostart entry", || async { entry.exists() })
        .await;
    let text = std::fs::read_to_string(&entry).unwrap();
    assert!(
        text.contains("Exec=\"/") && text.contains("nordlys"),
        "{text}"
    );
    app.click("[data-testid=close-to-tray]").await;
    app.until("kept in the tray", || async {
        app.script(
            "return document.querySelector('[data-testid=close-to-tray]').checked;",
            vec![],
        )
        .await
            == serde_json::json!(true)
    })
    .await;
    app.screenshot("settings-tray-and-login").await;
    app.click("[data-testid=start-at-login]").await;
    app.until("the entry removed", || async { !entry.exists() })
        .await;
    app.quit().await;
}

/// The exchange as the real one is for third-party apps: OAuth on another host, granting only
/// `api:accounts:bitcoin:read`. Set up in the profile form (a wrong field first), then connected.
#[tokio::test]
async fn an_exchange_granting_only_balances_shows_them_and_says_what_needs_a_key() {
    let exchange = nordlys_sandbox::start(nordlys_sandbox::SandboxConfig {
        seed: 7,
        oauth_port: Some(0),
        grants: nordlys_sandbox::GrantPolicy {
            scopes: Some(vec![nordlys_sandbox::READ_SCOPE.into()]),
            ..Default::default()
        },
        ..Default::default()
    })
    .await
    .unwrap();
    let api = exchange.base_url().to_owned();
    let oauth = exchange.info.oauth_base_url.clone();
    let app = App::start(&[]).await;
    app.click("[data-testid=nav-settings]").await;

    // Wrong fields: a message at each, and nothing saved.
    app.fill("[data-testid=exchange-base-url]", &format!("{api}/v1"))
        .await;
    app.fill("[data-testid=exchange-operator]", "SVC").await;
    app.fill("[data-testid=exchange-client-id]", "two words")
        .await;
    app.click("[data-testid=save-exchange]").await;
    let path = app.text("[data-testid=exchange-base-url-error]").await;
    assert!(path.contains("without a path"), "{path}");
    app.text("[data-testid=exchange-operator-error]").await;
    app.text("[data-testid=exchange-client-id-error]").await;
    assert!(!app.exists("[data-testid=use-profile-exchange]").await);
    app.screenshot("settings-profile-errors").await;

    app.fill("[data-testid=exchange-base-url]", &api).await;
    app.fill("[data-testid=exchange-oauth-base-url]", &oauth)
        .await;
    app.fill("[data-testid=exchange-operator]", "").await;
    app.fill(
        "[data-testid=exchange-client-id]",
        &exchange.info.oauth_clients.public.client_id,
    )
    .await;
    app.click("[data-testid=save-exchange]").await;
    app.click("[data-testid=use-profile-exchange]").await;

    // Every scope asked for; the exchange grants balances only, and the app says so.
    app.click("[data-testid=nav-connect]").await;
    app.click("[data-testid=connect-oauth]").await;
    app.until("the browser to be opened", || async {
        !app.opened_urls().is_empty()
    })
    .await;
    let url = app.opened_urls().last().cloned().unwrap();
    assert!(
        url.starts_with(&format!("{oauth}/oauth2/v0/authorize")),
        "{url}"
    );
    play_browser(&url, "approve").await;
    app.until("the grant to be shown", || async {
        app.exists("[data-testid=oauth-scopes]").await
    })
    .await;
    let granted = app.text("[data-testid=oauth-scopes]").await;
    assert!(granted.contains("See balances"), "{granted}");
    assert!(!granted.contains("tax"), "{granted}");
    assert_eq!(
        app.attr("[data-testid=capability-balances]", "data-allowed")
            .await
            .as_deref(),
        Some("true")
    );
    assert_eq!(
        app.attr("[data-testid=capability-taxHistory]", "data-allowed")
            .await
            .as_deref(),
        Some("false")
    );
    let tax = app.text("[data-testid=capability-taxHistory]").await;
    assert!(tax.contains("api:tax:transactions:read"), "{tax}");
    let trading = app.text("[data-testid=capability-trading]").await;
    assert!(trading.contains("API key"), "{trading}");
    app.screenshot("connect-read-only-oauth").await;

    // An exchange that refuses instead of narrowing: the app offers once to ask for balances alone.
    exchange.state.lock().oauth.policy.invalid_scope = true;
    app.click("[data-testid=connect-oauth]").await;
    app.until("the browser to be opened again", || async {
        app.opened_urls().len() >= 2
    })
    .await;
    play_browser(&app.opened_urls()[1], "approve").await;
    app.text("[data-testid=offer-read-only]").await;
    app.click("[data-testid=connect-oauth-read-only]").await;
    app.until("a third sign-in", || async { app.opened_urls().len() >= 3 })
        .await;
    let third = app.opened_urls()[2].clone();
    let asked: Vec<String> = url::Url::parse(&third)
        .unwrap()
        .query_pairs()
        .filter(|(k, _)| k == "scope")
        .map(|(_, v)| v.into_owned())
        .collect();
    assert_eq!(asked, [nordlys_sandbox::READ_SCOPE]);
    play_browser(&third, "approve").await;
    app.until("connected again", || async {
        app.attr("[data-testid=connect-oauth]", "disabled")
            .await
            .is_none()
    })
    .await;
    assert!(!app.exists("[data-testid=offer-read-only]").await);
    assert!(!app.exists("[data-testid=message-error]").await);
    assert!(
        app.text("[data-testid=oauth-scopes]")
            .await
            .contains("See balances")
    );

    // The overview shows the exchange's balances, and what else needs a key.
    app.click("[data-testid=nav-overview]").await;
    // Its own accounts (ids of another seed than the embedded sandbox's).
    let accounts: Vec<String> = exchange
        .state
        .lock()
        .accounts
        .iter()
        .filter(|a| a.deleted.is_none())
        .map(|a| a.id.clone())
        .collect();
    assert!(!accounts.is_empty());
    for id in &accounts {
        app.text(&format!(
            "[data-testid=account-row][data-account-id='{id}']"
        ))
        .await;
    }
    let needs = app.text("[data-testid=needs-key]").await;
    assert!(
        needs.contains("NOK balance") && needs.contains("API key"),
        "{needs}"
    );
    // Not the sandbox's play money, but not the real exchange either: an exchange on this machine
    // is badged "Local", and the host requests go to is shown.
    let badge = app
        .script(
            "const b = document.querySelector('[data-testid=sandbox-badge]'); return getComputedStyle(b).display + ' ' + b.textContent;",
            vec![],
        )
        .await;
    assert!(
        badge
            .as_str()
            .is_some_and(|b| b.ends_with(" Local") && !b.starts_with("none")),
        "{badge}"
    );
    assert!(!app.exists("[data-testid=strip-connect]").await);
    let host = app.text("[data-testid=connected-host]").await;
    assert_eq!(format!("http://{host}"), api);
    app.screenshot("overview-read-only-oauth").await;
    app.quit().await;
}

/// A start that fails says why and tries again, instead of "Loading…" for good: the embedded
/// sandbox's port is taken at first, then freed. The rig ends only the apps it started.
#[tokio::test]
async fn a_failed_start_is_shown_and_tried_again() {
    // A Nordlys the user runs (a process of that name the rig did not start) outlives the test.
    let theirs_dir = tempfile::tempdir().unwrap();
    let theirs = theirs_dir.path().join("nordlys");
    std::fs::copy("/bin/sleep", &theirs).unwrap();
    let mut users_own = std::process::Command::new(&theirs)
        .arg("600")
        .spawn()
        .unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let app = App::start_binary(&app_binary(), &[("NORDLYS_SANDBOX_PORT", &port)]).await;
    app.until("the failure to be shown", || async {
        app.exists("[data-testid=message-error]").await
    })
    .await;
    let said = app.text("[data-testid=message-error]").await;
    assert!(
        said.contains("could not start") && said.contains(&port),
        "{said}"
    );
    app.screenshot("start-failed").await;
    drop(taken);
    app.until_within("the start to succeed", Duration::from_secs(30), || async {
        app.exists("[data-testid=total-btc]").await
    })
    .await;
    assert!(!app.exists("[data-testid=message-error]").await);
    app.quit().await;
    assert!(
        users_own.try_wait().unwrap().is_none(),
        "the user's own Nordlys was ended"
    );
    users_own.kill().unwrap();
    users_own.wait().unwrap();
}

/// A keyboard user moves through the overview, Pay and Trade while prices arrive every few
/// seconds: the focus stays where they left it, on a button too, and what they type stays typed;
/// Ctrl+<n> opens a screen.
/// Before the window moved to components, a price redraw replaced the screen's buttons and threw
/// the focus back to the page.
#[tokio::test]
async fn the_keyboard_focus_stays_put_through_live_prices() {
    let app = App::start(&[]).await;
    let quote = || async { app.text("[data-testid=quote]").await };
    let stays = |testid: &'static str, what: &'static str| {
        let app = &app;
        async move {
            tokio::time::sleep(Duration::from_secs(10)).await;
            assert_eq!(app.focused().await, testid, "the focus left {what}");
        }
    };

    // A button on a screen the price redraws.
    app.tab_to("chart-24h", 60).await;
    stays("chart-24h", "the chart's range button").await;

    app.click("[data-testid=nav-pay]").await;
    app.tab_to("pay-destination", 40).await;
    app.type_keys("bc1q").await;
    app.press_tab().await;
    let next = app.focused().await;
    assert_ne!(next, "", "Tab from the destination went nowhere");
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(app.focused().await, next, "the focus left Pay's form");
    assert_eq!(
        app.script(
            "return document.querySelector('[data-testid=pay-destination]').value;",
            vec![]
        )
        .await,
        serde_json::json!("bc1q")
    );

    app.click("[data-testid=nav-trade]").await;
    let first = quote().await;
    app.tab_to("order-amount", 60).await;
    app.type_keys("5000").await;
    app.until("the order to be checked", || async {
        app.script(
            "return !document.querySelector('[data-testid=order-review]').disabled;",
            vec![],
        )
        .await
            == serde_json::json!(true)
    })
    .await;
    app.tab_to("order-review", 10).await;
    stays("order-review", "Trade's review button").await;
    assert_eq!(
        app.script(
            "return document.querySelector('[data-testid=order-amount]').value;",
            vec![]
        )
        .await,
        serde_json::json!("5000")
    );
    // Prices did arrive meanwhile: the quote moved.
    app.until("the quote to move", || async { quote().await != first })
        .await;
    assert_eq!(app.focused().await, "order-review");

    // Ctrl+5 opens the fifth screen of the navigation, Tax.
    let control: char = fantoccini::key::Key::Control.into();
    app.type_keys(&format!("{control}5")).await;
    app.until("Ctrl+5 to open Tax", || async {
        app.attr("[data-testid=nav-tax]", "aria-current")
            .await
            .as_deref()
            == Some("page")
    })
    .await;
    app.text("[data-testid=tax-sync]").await;
    app.quit().await;
}

/// An amount as the window would write one: digits beside a unit, or NOK before digits.
const AMOUNT_ON_SCREEN: &str = r"
    const text = document.body.innerText;
    const found = text.match(/\d[\d\u00a0 .,\u2212-]*\u00a0(BTC|sats|kr)|NOK\u00a0[\u2212-]?\d/);
    return found ? found[0] : '';";

/// What a chart drawn by the backend says about money, from its image.
const CHART_AMOUNTS: &str = r"
    const img = document.querySelector(arguments[0]);
    if (!img) return 'no chart';
    const svg = decodeURIComponent(img.getAttribute('src').split(',')[1] ?? '');
    return /kr|NOK/.test(svg) ? svg.slice(0, 200) : '';";

#[tokio::test]
async fn privacy_mode_hides_every_amount_on_every_screen() {
    let app = App::start(&[]).await;
    app.text("[data-testid=account-row]").await;
    app.click("[data-testid=nav-tax]").await;
    app.click("[data-testid=tax-sync]").await;
    app.text("[data-testid=tax-row]").await;
    // An invoice on Receive and a last payment on Pay, each with its amounts, stay on screen.
    app.click("[data-testid=nav-receive]").await;
    app.fill("[data-testid=invoice-amount]", "2500").await;
    app.click("[data-testid=create-invoice]").await;
    app.text("[data-testid=invoice-status]").await;
    app.click("[data-testid=nav-pay]").await;
    app.paste("[data-testid=pay-destination]", "kari@example.com")
        .await;
    app.fill("[data-testid=pay-amount]", "5000").await;
    app.fill_form(&[
        ("[data-testid=recipient-name]", "Kari Nordmann"),
        ("[data-testid=recipient-address]", "Storgata 1, 0155 Oslo"),
    ])
    .await;
    app.select("[data-testid=recipient-country]", "NO").await;
    // A click waits for the button to be enabled: the review once the form is checked.
    app.click("[data-testid=pay-review]").await;
    app.click("[data-testid=pay-confirm]").await;
    app.answer_native_shot("Nordlys: send ", "pay-native-privacy", "alt+s")
        .await;
    app.text("[data-testid=payment-status]").await;
    app.click("[data-testid=nav-overview]").await;
    assert_ne!(
        app.script(AMOUNT_ON_SCREEN, vec![]).await,
        serde_json::json!(""),
        "amounts are shown before"
    );

    app.click("[data-testid=privacy]").await;
    app.until("the balances to be hidden", || async {
        app.text("[data-testid=total-btc]")
            .await
            .contains('\u{2022}')
    })
    .await;
    assert_eq!(
        app.attr("[data-testid=privacy]", "aria-pressed")
            .await
            .as_deref(),
        Some("true")
    );
    for screen in [
        "overview", "trade", "receive", "pay", "tax", "unknowns", "connect", "settings",
    ] {
        app.click(&format!("[data-testid=nav-{screen}]")).await;
        tokio::time::sleep(Duration::from_millis(700)).await;
        assert_eq!(
            app.script(AMOUNT_ON_SCREEN, vec![]).await,
            serde_json::json!(""),
            "an amount on {screen} in privacy mode"
        );
        if screen == "receive" {
            // The invoice carries its amount: folded until the user asks to show it.
            assert!(app.exists("[data-testid=invoice-folded]").await);
        }
        app.screenshot(&format!("privacy-{screen}")).await;
    }
    app.click("[data-testid=nav-overview]").await;
    app.until("the charts to be drawn without amounts", || async {
        app.script(
            CHART_AMOUNTS,
            vec![serde_json::json!("[data-testid=price-chart]")],
        )
        .await
            == serde_json::json!("")
            && app
                .script(
                    CHART_AMOUNTS,
                    vec![serde_json::json!("[data-testid=volume-chart]")],
                )
                .await
                == serde_json::json!("")
    })
    .await;

    // Ctrl+Shift+H shows them again.
    let control: char = fantoccini::key::Key::Control.into();
    let shift: char = fantoccini::key::Key::Shift.into();
    app.type_keys(&format!("{control}{shift}h")).await;
    app.until("the balances to be shown again", || async {
        !app.text("[data-testid=total-btc]")
            .await
            .contains('\u{2022}')
    })
    .await;
    app.quit().await;
}

/// Every screen in both themes and both languages passes axe-core (no serious or critical WCAG
/// 2.1 A/AA violation), and at 720×520 and 1920×1080 nothing is cut off or scrolls the page
/// sideways.
#[tokio::test]
async fn every_screen_is_accessible_and_fits_from_720x520_to_1920x1080() {
    const SCREENS: [&str; 8] = [
        "overview", "trade", "receive", "pay", "tax", "unknowns", "connect", "settings",
    ];
    const TAX_SECTIONS: [&str; 5] = ["balances", "yearEnd", "gains", "holdings", "card"];
    let app = App::start(&[]).await;
    app.text("[data-testid=account-row]").await;
    app.click("[data-testid=nav-tax]").await;
    app.click("[data-testid=tax-sync]").await;
    app.text("[data-testid=tax-row]").await;
    let mut found = vec![];
    for (theme, language) in [
        ("light", "en"),
        ("dark", "nb"),
        ("light", "nb"),
        ("dark", "en"),
    ] {
        app.click("[data-testid=nav-settings]").await;
        app.select("[data-testid=theme]", theme).await;
        app.select("[data-testid=language]", language).await;
        app.until("the language and theme to apply", || async {
            app.script("return document.documentElement.dataset.theme + ' ' + document.documentElement.lang;", vec![])
                .await
                .as_str()
                .is_some_and(|s| s.starts_with(theme))
        })
        .await;
        for screen in SCREENS {
            app.click(&format!("[data-testid=nav-{screen}]")).await;
            tokio::time::sleep(Duration::from_millis(500)).await;
            for v in app.accessibility_violations().await {
                found.push(format!("{screen}, {theme}, {language}: {v}"));
            }
        }
    }
    for (width, height) in [(720, 520), (1920, 1080)] {
        bounded("resizing", app.client.set_window_size(width, height))
            .await
            .unwrap();
        // The resize is applied after the command answers: a loaded machine shows the old size
        // for a moment.
        app.until("the window to take the size", || async {
            app.script("return [window.innerWidth, window.innerHeight];", vec![])
                .await
                == serde_json::json!([width, height])
        })
        .await;
        for language in ["nb", "en"] {
            app.click("[data-testid=nav-settings]").await;
            app.select("[data-testid=language]", language).await;
            tokio::time::sleep(Duration::from_millis(500)).await;
            for screen in SCREENS {
                app.click(&format!("[data-testid=nav-{screen}]")).await;
                tokio::time::sleep(Duration::from_millis(500)).await;
                for o in app.overflows().await {
                    found.push(format!("{screen} at {width}×{height}, {language}: {o}"));
                }
            }
            // The Tax screen's other sections: tables, reports and a chart of their own.
            for section in TAX_SECTIONS {
                app.click("[data-testid=nav-tax]").await;
                app.click(&format!("[data-testid=tax-section-{section}]"))
                    .await;
                tokio::time::sleep(Duration::from_millis(1_000)).await;
                for o in app.overflows().await {
                    found.push(format!(
                        "tax, {section}, at {width}×{height}, {language}: {o}"
                    ));
                }
            }
            app.click("[data-testid=tax-section-transactions]").await;
        }
    }
    assert!(
        found.is_empty(),
        "{} problems:\n{}",
        found.len(),
        found.join("\n")
    );
    app.quit().await;
}
