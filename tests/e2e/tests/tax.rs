#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "end-to-end tests: a failed step is the failure being reported"
)]
//! Tax history in the real window: a sync of 100 000 transactions with its progress bar, the
//! virtualised list scrolled to its end, a year filter, and a CSV export compared with the API.

use std::time::Duration;

use nordlys_e2e::*;

const BUSY_PAST: u64 = 100_000;

/// Every transaction as the API lists it (`pageSize=0`), as JSON.
async fn api_rows(app: &App) -> Vec<serde_json::Value> {
    let world = sandbox_keys();
    let key = world.keys.iter().find(|k| k.name == "read").unwrap();
    let body: serde_json::Value = http()
        .get(format!("{}/v1/tax/transactions?pageSize=0", app.sandbox()))
        .header("x-svc-api-key", &key.key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    body["transactions"].as_array().unwrap().clone()
}

async fn total_shown(app: &App) -> u64 {
    app.attr("[data-testid=tax-count]", "data-total")
        .await
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

/// Splits one CSV line of the export (RFC 4180) into its fields.
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().unwrap().push(c),
        }
    }
    out
}

fn json_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[tokio::test]
async fn a_long_history_syncs_scrolls_filters_and_exports_exactly() {
    let exports = tempfile::tempdir().unwrap();
    let dir = exports.path().to_str().unwrap().to_owned();
    let app = App::start(&[("NORDLYS_EXPORT_DIR", &dir)]).await;
    app.control(
        "/sandbox/history",
        serde_json::json!({ "transactions": BUSY_PAST }),
    )
    .await;
    let all = api_rows(&app).await;
    assert!(all.len() as u64 > BUSY_PAST);

    app.open_tax().await;
    app.click("[data-testid=tax-sync]").await;
    // The bar moves while pages arrive.
    app.until("the progress bar to move", || async {
        let v: u32 = app
            .attr("[data-testid=tax-progress]", "value")
            .await
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        v > 0
    })
    .await;
    app.screenshot("tax-sync-running").await;
    app.until_tax_synced(Duration::from_secs(180)).await;
    app.until("the list to count every transaction", || async {
        total_shown(&app).await == all.len() as u64
    })
    .await;
    assert!(
        app.text("[data-testid=tax-sync-counts]")
            .await
            .starts_with(&all.len().to_string())
    );

    // Scrolled to the very end, the last transaction is drawn, and only a screenful of rows is.
    // (Scrolled again every 5 s while waiting, as a user would if the list were still settling.)
    let last_id = json_text(&all.last().unwrap()["id"]);
    let last_row = format!("[data-testid=tax-row][data-id='{last_id}']");
    let mut drawn_at_end = false;
    for _ in 0..4 {
        app.script(
            "const v = document.querySelector('[data-testid=tax-list]'); v.scrollTop = v.scrollHeight; return true;",
            vec![],
        )
        .await;
        for _ in 0..50 {
            drawn_at_end = app.exists(&last_row).await;
            if drawn_at_end {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        if drawn_at_end {
            break;
        }
    }
    assert!(
        drawn_at_end,
        "the last row was not drawn after scrolling to the end"
    );
    let drawn = app
        .script(
            "return document.querySelectorAll('[data-testid=tax-row]').length;",
            vec![],
        )
        .await;
    assert!(drawn.as_u64().unwrap() < 100, "{drawn} rows in the DOM");
    app.screenshot("tax-list-end").await;

    // One year, then its export: the API's rows of that year, field for field.
    let in_2025: Vec<_> = all
        .iter()
        .filter(|t| {
            let at: chrono::DateTime<chrono::Utc> = json_text(&t["createTime"]).parse().unwrap();
            at.with_timezone(&chrono::FixedOffset::east_opt(3_600).unwrap())
                .format("%Y")
                .to_string()
                == "2025"
        })
        .collect();
    app.select("[data-testid=tax-year]", "2025").await;
    app.until("the year filter", || async {
        total_shown(&app).await == in_2025.len() as u64
    })
    .await;
    app.click("[data-testid=tax-export]").await;
    app.text("[data-testid=tax-export-result]").await;
    let csv =
        std::fs::read_to_string(exports.path().join("nordlys-transactions-2025.csv")).unwrap();
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    let header = fields(lines[0]);
    assert_eq!(header[0], "id");
    assert_eq!(header.len(), 18);
    assert_eq!(lines.len() - 1, in_2025.len());
    for (line, api) in lines[1..].iter().zip(&in_2025) {
        let got = fields(line);
        for (name, value) in header.iter().zip(&got) {
            // The exchange leaves out a field whose value is the default; the CSV writes it.
            let want = match (&api[name.as_str()], name.as_str()) {
                (serde_json::Value::Null, "isPayment") => "false".to_owned(),
                (serde_json::Value::Null, _) => String::new(),
                (v, _) => json_text(v),
            };
            if name.ends_with("Time") && !want.is_empty() {
                let a: chrono::DateTime<chrono::Utc> = want.parse().unwrap();
                let b: chrono::DateTime<chrono::Utc> = value.parse().unwrap();
                assert_eq!(a, b, "{name} of {}", got[0]);
            } else {
                assert_eq!(value, &want, "{name} of {}", got[0]);
            }
        }
    }
    // The same data gives the same bytes.
    app.click("[data-testid=tax-export]").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let again =
        std::fs::read_to_string(exports.path().join("nordlys-transactions-2025.csv")).unwrap();
    assert_eq!(again, csv);
    app.screenshot("tax-2025").await;

    // A second sync finds nothing new with one request of its own. The exchange may count one
    // more: the watcher reads the history's tail on its own clock.
    let requests = |c: serde_json::Value| c["requests"]["/v1/tax/transactions"].as_u64().unwrap();
    let before = requests(app.counters().await);
    app.click("[data-testid=tax-sync]").await;
    app.until("the second sync to finish", || async {
        app.attr("[data-testid=tax-sync-state]", "data-state")
            .await
            .as_deref()
            == Some("complete")
            && requests(app.counters().await) > before
    })
    .await;
    let counts = app.text("[data-testid=tax-sync-counts]").await;
    assert!(
        counts.split(" · ").any(|part| part == "1 request"),
        "{counts}"
    );
    assert!(requests(app.counters().await) <= before + 2);
    app.quit().await;
}

/// The card as the window shows it: each field's schema name and its value (`None`: refused).
async fn card_in_window(app: &App) -> Vec<(String, Option<String>)> {
    let fields = app
        .script(
            "return [...document.querySelectorAll('[data-testid=card-field]')].map(f => [\
               f.dataset.field,\
               f.querySelector('[data-testid=card-refusal]') ? null :\
                 f.querySelector('[data-testid=card-value]')?.textContent ?? null]);",
            vec![],
        )
        .await;
    serde_json::from_value(fields).unwrap()
}

#[tokio::test]
async fn the_card_in_the_window_matches_the_clis_field_by_field() {
    let app = App::start(&[]).await;
    app.open_tax().await;
    app.click("[data-testid=tax-sync]").await;
    app.until_tax_synced(Duration::from_secs(120)).await;
    app.click("[data-testid=tax-section-card]").await;
    app.until("the card to show", || async {
        app.exists("[data-testid=card-entry]").await
    })
    .await;
    // No rate chosen yet: the wealth value says why instead of a number.
    let before = card_in_window(&app).await;
    assert!(
        before.contains(&("formuesverdiForVirtuellEiendel".to_owned(), None)),
        "{before:?}"
    );
    app.fill("[data-testid=card-nok-per-btc]", "1000000").await;
    app.click("[data-testid=card-rate-nokPerBtc]").await;
    app.until("the card to file the wealth value", || async {
        card_in_window(&app)
            .await
            .iter()
            .any(|(f, v)| f == "formuesverdiForVirtuellEiendel" && v.is_some())
    })
    .await;
    app.screenshot("tax-card").await;
    let window = card_in_window(&app).await;
    let year = app
        .script(
            "return document.querySelector('[data-testid=card-year]').value;",
            vec![],
        )
        .await;
    let year = year.as_str().unwrap().to_owned();
    let exchange = window
        .iter()
        .find(|(f, _)| f == "boersnavn")
        .and_then(|(_, v)| v.clone())
        .unwrap();

    // The CLI, on its own store synced from the same sandbox, for the same year and rate.
    let world = sandbox_keys();
    let key = world.keys.iter().find(|k| k.name == "read").unwrap();
    let state = tempfile::tempdir().unwrap();
    let cli = |args: &[&str]| {
        let out = std::process::Command::new(cli_binary())
            .args(args)
            .env("NORDLYS_BASE_URL", app.sandbox())
            .env("NORDLYS_API_KEY", &key.key)
            .env("NORDLYS_API_SECRET", &key.secret)
            .env("NORDLYS_STATE_DIR", state.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    cli(&["tax", "sync"]);
    let card = cli(&[
        "tax",
        "card",
        "--year",
        &year,
        "--year-end-rate",
        "1000000",
        "--exchange-name",
        &exchange,
    ]);
    let entry = &card["virtuellEiendel"][0];
    let refused: Vec<&str> = card["notComputable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["field"].as_str().unwrap())
        .collect();
    for (field, shown) in &window {
        let from_cli = if field == "boersnavn" {
            entry["boers"][0]["boersnavn"].as_str()
        } else {
            entry[field.as_str()].as_str()
        };
        assert_eq!(
            shown.as_deref(),
            from_cli,
            "{field}: window {shown:?}, CLI {from_cli:?} ({card})"
        );
        assert_eq!(
            shown.is_none(),
            refused.contains(&field.as_str()),
            "{field}"
        );
    }
    assert_eq!(window.len(), 8, "{window:?}");

    // Holdings over time end at the balance the exchange reports, and privacy mode hides them.
    app.click("[data-testid=tax-section-balances]").await;
    let balance = app.text("[data-testid=tax-balances] tr.total td.num").await;
    app.click("[data-testid=tax-section-holdings]").await;
    assert_eq!(app.text("[data-testid=holdings-total]").await, balance);
    app.screenshot("tax-holdings").await;
    app.click("[data-testid=privacy]").await;
    app.until("privacy mode to hide the holdings", || async {
        app.exists("[data-testid=holdings-hidden]").await
            && !app.exists("[data-testid=holdings-chart]").await
    })
    .await;
    app.click("[data-testid=privacy]").await;
}

/// Money arriving while a new profile first reads its history (oldest first, for most of a
/// minute here) is told once, with its amount; the history around it is not news, and the end of
/// the read (where the history becomes whole) tells nothing more.
#[tokio::test]
async fn a_deposit_made_during_the_first_read_of_the_history_is_notified_once() {
    let log = tempfile::tempdir().unwrap();
    let path = log.path().join("notices.jsonl");
    let app = App::start(&[("NORDLYS_NOTIFY_LOG", path.to_str().unwrap())]).await;
    let tax_reads = || async {
        app.counters().await["requests"]["/v1/tax/transactions"]
            .as_u64()
            .unwrap_or(0)
    };
    app.open_tax().await;
    app.click("[data-testid=tax-sync]").await;
    app.until("the first read of the history", || async {
        tax_reads().await > 0
    })
    .await;
    app.control(
        "/sandbox/deposits",
        serde_json::json!({ "amountBtc": 0.0123 }),
    )
    .await;
    let notices = || {
        std::fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .collect::<Vec<_>>()
    };
    app.until_within(
        "the deposit to be notified",
        Duration::from_secs(180),
        || async { !notices().is_empty() },
    )
    .await;
    app.until_tax_synced(Duration::from_secs(120)).await;
    // The look that followed the read tells what it found at the end, at once.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let told = notices();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0]["title"], "Bitcoin received", "{told:?}");
    assert_eq!(told[0]["opens"], "tax");
    assert!(
        told[0]["body"].as_str().unwrap().contains("0.01230000"),
        "{told:?}"
    );
}
