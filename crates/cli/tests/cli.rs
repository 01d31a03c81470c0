//! `nordlys-cli` end to end against a sandbox: every command, stdout as the API's object.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]

use std::process::Command;

use nordlys_tests::*;

struct Cli<'a> {
    base: &'a str,
    env: Vec<(&'static str, String)>,
}

impl Cli<'_> {
    fn run(&self, args: &[&str]) -> (i32, serde_json::Value, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_nordlys-cli"))
            .arg("--base-url")
            .arg(self.base)
            .args(args)
            .env_remove("NORDLYS_API_KEY")
            .env_remove("NORDLYS_API_SECRET")
            .env_remove("NORDLYS_ACCESS_TOKEN")
            .env(
                "XDG_STATE_HOME",
                std::env::temp_dir().join("nordlys-cli-test-state"),
            )
            .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
            .envs(self.env.iter().map(|(k, v)| (*k, v.as_str())))
            .output()
            .expect("run nordlys-cli");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let json = serde_json::from_str(stdout.trim()).unwrap_or(serde_json::Value::Null);
        (
            out.status.code().unwrap_or(-1),
            json,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn ok(&self, args: &[&str]) -> serde_json::Value {
        let (code, json, err) = self.run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        json
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_command_prints_the_apis_object() {
    let sb = sandbox().await;
    let keys = &sb.info.api_keys;
    let cli = Cli {
        base: sb.base_url(),
        env: vec![
            ("NORDLYS_API_KEY", keys.withdrawal.key.clone()),
            ("NORDLYS_API_SECRET", keys.withdrawal.secret.clone()),
        ],
    };
    let base = sb.base_url().to_owned();
    let result = tokio::task::spawn_blocking(move || {
        let cli = Cli {
            base: &base,
            env: cli.env,
        };
        let price = cli.ok(&["price", "--amount", "20000"]);
        for field in ["price", "bid", "ask", "timestamp", "card", "bank"] {
            assert!(!price[field].is_null(), "price.{field}");
        }
        assert!(price["ask"].is_number() && price["card"]["buy"].is_number());
        assert!(cli.ok(&["volume"])["last24h"]["numberOfTrades"].is_u64());
        assert!(cli.ok(&["volume", "--date", "2025-06-01"])["daily"]["amountNok"].is_number());
        assert!(cli.ok(&["volume-historic", "--date", "2026-01-01"])["dailyVolume"].is_array());
        let accounts = cli.ok(&["accounts", "--include-deleted"]);
        assert_eq!(accounts["accounts"].as_array().unwrap().len(), 3);
        // An unset time is left out, as the exchange does; never printed as "".
        assert!(
            accounts["accounts"][0].get("deleteTime").is_none(),
            "{accounts}"
        );
        assert!(
            accounts["accounts"][2]["deleteTime"].is_string(),
            "{accounts}"
        );
        let account = accounts["accounts"][1]["id"].as_str().unwrap().to_owned();
        assert!(cli.ok(&["fiat"])["availableNok"].is_number());
        assert!(cli.ok(&["deposit-destinations", "--account", &account])["onchainAddress"]["destination"].is_string());
        let inv = cli.ok(&[
            "invoice",
            "create",
            "--amount",
            "0.0001",
            "--currency",
            "BTC",
            "--public-description",
            "kaffe",
        ]);
        let id = inv["depositDestinationId"].as_str().unwrap().to_owned();
        assert_eq!(
            cli.ok(&["invoice", "get", &id])["status"],
            "INVOICE_STATUS_UNPAID"
        );
        let market = cli.ok(&[
            "orders",
            "create",
            "--type",
            "market",
            "--direction",
            "buy",
            "--amount",
            "500",
        ]);
        assert!(market["tradeId"].as_str().unwrap().starts_with("tr_"));
        let limit = cli.ok(&[
            "orders",
            "create",
            "--type",
            "limit",
            "--direction",
            "sell",
            "--amount",
            "0.0001",
            "--price",
            "9999999",
        ]);
        assert_eq!(limit["tradeId"], "");
        let oid = limit["orderId"].as_str().unwrap().to_owned();
        assert_eq!(
            cli.ok(&["orders", "list"])["orders"][0]["orderId"],
            oid.as_str()
        );
        assert_eq!(cli.ok(&["orders", "cancel", &oid]), serde_json::json!({}));
        let w = cli.ok(&[
            "withdraw",
            "--destination",
            "kari@example.com",
            "--amount-btc",
            "0.0002",
            "--payment",
            "--description",
            "lunsj",
            "--tfr-full-name",
            "Kari Nordmann",
            "--tfr-address",
            "Bryggen 1, Bergen",
            "--tfr-country",
            "NO",
        ]);
        let wid = w["withdrawalId"].as_str().unwrap().to_owned();
        let got = cli.ok(&["withdrawal", "get", &wid]);
        assert_eq!(got["amountBtc"], 0.0002);
        assert!(
            cli.ok(&["tax", "balance", "--include-deleted"])["bitcoinAccounts"][0]["balanceBtc"]
                .is_string()
        );
        let page = cli.ok(&["tax", "transactions", "--page-size", "5"]);
        assert_eq!(page["transactions"].as_array().unwrap().len(), 5);
        assert_eq!(page["hasMore"], true);
        let after = page["nextAfter"].as_str().unwrap().to_owned();
        let after_id = page["nextAfterId"].as_str().unwrap().to_owned();
        let next = cli.ok(&[
            "tax",
            "transactions",
            "--page-size",
            "5",
            "--after",
            &after,
            "--after-id",
            &after_id,
        ]);
        assert_ne!(next["transactions"][0]["id"], page["transactions"][0]["id"]);
        let all = cli.ok(&["tax", "transactions", "--all"]);
        let zero = cli.ok(&["tax", "transactions", "--page-size", "0"]);
        assert_eq!(all["hasMore"], false);
        assert_eq!(all["transactions"], zero["transactions"]);
        assert_eq!(
            cli.ok(&["consent", "revoke", "nordlys-desktop"]),
            serde_json::json!({})
        );

        // Errors: stderr and a non-zero exit, with the server's message.
        let (code, _, err) = cli.run(&["orders", "cancel", "or_missing"]);
        assert_eq!(code, 1);
        assert!(err.contains("no order with id or_missing"), "{err}");
        let (code, _, err) = cli.run(&[
            "orders",
            "create",
            "--type",
            "market",
            "--direction",
            "buy",
            "--amount",
            "-5",
        ]);
        assert_ne!(code, 0);
        assert!(err.contains("negative"), "{err}");
        let (code, _, err) = cli.run(&["tax", "transactions", "--after-id", "x"]);
        assert_ne!(code, 0);
        assert!(err.contains("afterId"), "{err}");
        let (code, _, err) = cli.run(&["tax", "transactions", "--page-size", "500"]);
        assert_ne!(code, 0);
        assert!(err.contains("pageSize"), "{err}");
        let insecure = Cli {
            base: "http://example.com",
            env: vec![],
        };
        let (code, _, err) = insecure.run(&["price"]);
        assert_eq!(code, 2);
        assert!(err.contains("https"), "{err}");
        let bad_secret = Cli {
            base: cli.base,
            env: vec![
                ("NORDLYS_API_KEY", "svc/public/x".into()),
                ("NORDLYS_API_SECRET", "svc/apisecret/***".into()),
            ],
        };
        let (code, _, err) = bad_secret.run(&["fiat"]);
        assert_eq!(code, 2);
        assert!(err.contains("Base64"), "{err}");
        let read_only = Cli {
            base: cli.base,
            env: vec![],
        };
        let (code, _, err) = read_only.run(&["fiat"]);
        assert_eq!(code, 1);
        assert!(err.contains("needs credentials"), "{err}");
    });
    result.await.unwrap();
}

/// A proxy in the environment is not where requests to this machine go: it would see the key of
/// a plain-http sandbox, and here it does not even answer.
#[tokio::test(flavor = "multi_thread")]
async fn a_configured_proxy_is_bypassed_for_an_exchange_on_this_machine() {
    let sb = sandbox().await;
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy = format!("http://127.0.0.1:{}", dead.local_addr().unwrap().port());
    drop(dead);
    let cli = Cli {
        base: sb.base_url(),
        env: [
            "HTTP_PROXY",
            "http_proxy",
            "HTTPS_PROXY",
            "https_proxy",
            "ALL_PROXY",
            "all_proxy",
        ]
        .into_iter()
        .map(|k| (k, proxy.clone()))
        .chain([("NO_PROXY", String::new()), ("no_proxy", String::new())])
        .collect(),
    };
    let price = cli.ok(&["price"]);
    assert!(price["price"].is_number(), "{price}");
}

#[test]
fn help_documents_every_command() {
    let out = Command::new(env!("CARGO_BIN_EXE_nordlys-cli"))
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for cmd in [
        "price",
        "volume",
        "volume-historic",
        "accounts",
        "fiat",
        "deposit-destinations",
        "invoice",
        "orders",
        "withdraw",
        "withdrawal",
        "tax",
        "consent",
        "login",
        "logout",
        "plans",
    ] {
        assert!(text.contains(cmd), "{cmd} missing from --help");
    }
}

/// Every order and withdrawal is journaled; a lost answer exits 3 with the journal id; the same
/// request is refused while unknown; `journal check|settle|list` judge by evidence, against a
/// sandbox that does not echo descriptions, fills market orders in three trades with the fee
/// inside `outAmount`, and commits late.
#[tokio::test(flavor = "multi_thread")]
async fn the_journal_settles_lost_answers_by_evidence_only() {
    let sb = sandbox().await;
    {
        let mut world = sb.state.lock();
        world.readings = world
            .readings
            .patched(&serde_json::json!({"noNoteEcho": true, "splitFills": 3, "buyFeePct": 1}))
            .unwrap();
    }
    let fault = |path: &str, kind| nordlys_sandbox::FaultRule {
        path: path.into(),
        method: Some("POST".into()),
        kind,
        count: Some(1),
        percent: None,
        delay_ms: 200,
    };
    let state = tempfile::tempdir().unwrap();
    let keys = sb.info.api_keys.withdrawal.clone();
    let env = vec![
        ("NORDLYS_API_KEY", keys.key.clone()),
        ("NORDLYS_API_SECRET", keys.secret.clone()),
        ("NORDLYS_STATE_DIR", state.path().display().to_string()),
    ];
    let base = sb.base_url().to_owned();
    let state_ref = sb.state.clone();
    let made = move || {
        let w = state_ref.lock();
        (w.counters.orders_created, w.counters.withdrawals_created)
    };
    sb.state.add_fault(fault(
        "/v1/orders",
        nordlys_sandbox::FaultKind::CommitThenDrop,
    ));
    let buy = [
        "orders",
        "create",
        "--type",
        "market",
        "--direction",
        "buy",
        "--amount",
        "1000",
    ];
    // The recipient, identity number included, from a file: never on the command line.
    let recipient = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        recipient.path(),
        r#"{"fullName": "Kari Nordmann", "address": "Bryggen 1, Bergen", "country": "NO", "nin": "01017012345"}"#,
    )
    .unwrap();
    let recipient_path: &'static str = Box::leak(
        recipient
            .path()
            .to_string_lossy()
            .into_owned()
            .into_boxed_str(),
    );
    let pay = move |amount: &'static str| {
        vec![
            "withdraw",
            "--destination",
            "kari@example.com",
            "--amount-btc",
            amount,
            "--tfr-from-file",
            recipient_path,
        ]
    };
    let sb_state = sb.state.clone();
    tokio::task::spawn_blocking(move || {
        let cli = Cli { base: &base, env };
        let raw = |args: &[&str]| {
            let out = Command::new(env!("CARGO_BIN_EXE_nordlys-cli"))
                .arg("--base-url")
                .arg(cli.base)
                .args(args)
                .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
                .envs(cli.env.iter().map(|(k, v)| (*k, v.as_str())))
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned()
        };

        // Lost after the commit: exit 3 and exactly the journal id; the same order is refused.
        let (code, json, _) = cli.run(&buy);
        assert_eq!(code, 3);
        assert_eq!(
            json,
            serde_json::json!({"journalId": 1, "state": "unknown"})
        );
        let (code, _, err) = cli.run(&buy);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("journal entry 1"), "{err}");
        assert_eq!(made().0, 1, "nothing was sent again");

        // The check finds the three fills without the reference, and settles nothing else.
        let checked = cli.ok(&["journal", "check", "1", "--timeout", "10"]);
        assert_eq!(checked[0]["state"], "placed", "{checked}");
        assert_eq!(checked[0]["kind"], "order");
        let evidence = checked[0]["evidence"].as_array().unwrap();
        assert!(evidence.len() >= 4);
        // Each step keeps `at`, `read` and `saw`, and adds its fact as `code` and `data`.
        let last = evidence.last().unwrap();
        assert_eq!(last["read"], "verdict", "{last}");
        assert_eq!(last["code"], "made", "{last}");
        assert!(
            last["data"]["ids"]
                .as_array()
                .is_some_and(|ids| !ids.is_empty()),
            "{last}"
        );
        assert!(
            last["saw"]
                .as_str()
                .is_some_and(|s| s.starts_with("made: ")),
            "{last}"
        );
        assert!(last["at"].is_string(), "{last}");
        let balances = &evidence[0];
        assert_eq!(balances["code"], "balances", "{balances}");
        assert!(balances["data"]["accounts"].is_array(), "{balances}");
        let (code, _, err) = cli.run(&[
            "journal",
            "settle",
            "1",
            "--not-sent",
            "--checked-on-exchange",
        ]);
        assert_eq!(code, 1, "{err}");
        let (code, _, _) = cli.run(&["journal", "settle", "1", "--not-sent"]);
        assert_eq!(code, 2, "both flags are required");
        let (code, _, _) = cli.run(&["journal", "check", "99"]);
        assert_eq!(code, 1);

        // Lost before the commit: unknown, and silence settles nothing within the quiet period;
        // the user may settle it, and only then is the same payment sent again.
        sb_state.add_fault(fault(
            "/v1/withdrawals",
            nordlys_sandbox::FaultKind::Http500,
        ));
        let (code, json, _) = cli.run(&pay("0.0003"));
        assert_eq!(code, 3);
        assert_eq!(
            json,
            serde_json::json!({"journalId": 2, "state": "unknown"})
        );
        assert_eq!(cli.ok(&["journal", "check"])[0]["state"], "unknown");
        let (code, _, _) = cli.run(&pay("0.0003"));
        assert_eq!(code, 1, "refused while unknown");
        let settled = cli.ok(&[
            "journal",
            "settle",
            "2",
            "--not-sent",
            "--checked-on-exchange",
        ]);
        assert_eq!(settled.as_array().unwrap().len(), 1);
        assert_eq!(settled[0]["state"], "not-sent");
        let again = cli.ok(&pay("0.0003"));
        assert!(again["withdrawalId"].as_str().unwrap().starts_with("wi_"));
        assert_eq!(made().1, 1);

        // Committed only after the client gave up: unknown, then found by its amount.
        sb_state.add_fault(fault(
            "/v1/withdrawals",
            nordlys_sandbox::FaultKind::CommitLate,
        ));
        let stdout = raw(&[&["--timeout", "1"][..], &pay("0.0004")].concat());
        assert_eq!(stdout.trim(), r#"{"journalId":4,"state":"unknown"}"#);
        std::thread::sleep(std::time::Duration::from_secs(3));
        let checked = cli.ok(&["journal", "check", "4"]);
        assert_eq!(checked[0]["state"], "sent", "{checked}");

        let list = cli.ok(&["journal", "list"]);
        let list = list.as_array().unwrap();
        let states: Vec<_> = list.iter().map(|e| e["state"].as_str().unwrap()).collect();
        assert_eq!(states, ["placed", "not-sent", "sent", "sent"]);
        for e in list {
            assert_eq!(e["baseUrl"], cli.base.trim_end_matches('/'));
            assert!(e["createdAt"].as_str().unwrap().ends_with('Z'));
        }
        assert_eq!(list[1]["kind"], "withdrawal");
        assert_eq!(list[1]["request"]["tfrInfo"]["nin"], "***");
        assert_eq!(list[0]["request"]["direction"], "DIRECTION_BUY");
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn another_operator_is_named_with_operator_or_its_environment_variable() {
    let sb = sandbox_with(nordlys_sandbox::SandboxConfig {
        operator: Some("abc".into()),
        ..Default::default()
    })
    .await;
    let keys = &sb.info.api_keys;
    let state = tempfile::tempdir().unwrap();
    let mut cli = Cli {
        base: sb.base_url(),
        env: vec![
            ("NORDLYS_API_KEY", keys.trading.key.clone()),
            ("NORDLYS_API_SECRET", keys.trading.secret.clone()),
            ("NORDLYS_STATE_DIR", state.path().display().to_string()),
        ],
    };
    // Without it, the key's prefix is not the specification's: bad usage, nothing sent.
    let (code, _, err) = cli.run(&["accounts"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("svc/public/"), "{err}");

    // A signed request with x-abc-api-* headers, through the flag.
    let placed = cli.ok(&[
        "--operator",
        "abc",
        "orders",
        "create",
        "--type",
        "market",
        "--direction",
        "buy",
        "--amount",
        "500",
    ]);
    assert!(placed["tradeId"].as_str().unwrap().starts_with("tr_"));
    // And through the environment.
    cli.env.push(("NORDLYS_OPERATOR", "abc".into()));
    assert_eq!(
        cli.ok(&["accounts"])["accounts"].as_array().unwrap().len(),
        2
    );
    // An abbreviation that cannot be one is bad usage.
    let (code, _, err) = cli.run(&["--operator", "A-B", "accounts"]);
    assert_eq!(code, 2, "{err}");
}

/// `tax sync` then `tax card`: the card of the running year in the schema's field names, whole
/// kroner and 10 decimals; its XML valid against the v14 schema's `VirtuellEiendel`; and clear
/// refusals for a year outside the history (1), a bad rate or method (2), and nothing synced (1).
#[tokio::test(flavor = "multi_thread")]
async fn the_tax_card_comes_from_the_synced_history() {
    let sb = sandbox().await;
    let state = tempfile::tempdir().unwrap();
    let keys = sb.info.api_keys.read.clone();
    let cli = Cli {
        base: sb.base_url(),
        env: vec![
            ("NORDLYS_API_KEY", keys.key.clone()),
            ("NORDLYS_API_SECRET", keys.secret.clone()),
            ("NORDLYS_STATE_DIR", state.path().display().to_string()),
        ],
    };
    let year = nordlys_core::time::oslo_year(&chrono::Utc::now()).to_string();
    let (code, _, err) = cli.run(&["tax", "card", "--year", &year]);
    assert_eq!(code, 1, "nothing synced yet: {err}");
    assert!(err.contains("sync"), "{err}");

    let synced = cli.ok(&["tax", "sync"]);
    assert!(synced["stored"].as_u64().unwrap() > 0, "{synced}");
    let card_args = [
        "tax",
        "card",
        "--year",
        &year,
        "--year-end-rate",
        "1000000",
        "--exchange-name",
        "Sandbox exchange",
    ];
    let card = cli.ok(&card_args);
    assert_eq!(card["year"].to_string(), year);
    assert_eq!(card["method"], "fifo");
    assert_eq!(card["final"], false);
    assert_eq!(card["yearEndRate"]["nokPerBtc"], "1000000");
    assert_eq!(card["rowsSha256"].as_str().unwrap().len(), 64);
    assert!(card["notComputable"].is_array());
    let entry = &card["virtuellEiendel"][0];
    assert_eq!(entry["landkode"], "NO");
    assert_eq!(entry["navn"], "Bitcoin");
    assert_eq!(entry["boers"][0]["boersnavn"], "Sandbox exchange");
    assert!(entry.get("gjelderFlereVirtuelleEiendeler").is_none());
    let antall = entry["antall"].as_str().unwrap();
    assert_eq!(antall.split('.').nth(1).map(str::len), Some(10), "{antall}");
    // The wealth value is the units at the rate, in whole kroner, half away from zero.
    let units: rust_decimal::Decimal = antall.parse().unwrap();
    let wealth = (units * rust_decimal::Decimal::from(1_000_000))
        .round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    assert_eq!(
        entry["formuesverdiForVirtuellEiendel"],
        wealth.normalize().to_string()
    );
    // The same history gives the same card, hash included.
    let again = cli.ok(&card_args);
    assert_eq!(again, card);

    // Per account, as XML valid against the schema.
    let out = Command::new(env!("CARGO_BIN_EXE_nordlys-cli"))
        .args([
            "tax",
            "card",
            "--year",
            &year,
            "--year-end-rate",
            "1000000",
            "--per-account",
            "--xml",
        ])
        .env("NORDLYS_STATE_DIR", state.path())
        .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(xml.matches("<virtuellEiendel ").count() >= 1, "{xml}");
    // Without a year-end rate the wealth value is left out, and stderr says so.
    let unrated = Command::new(env!("CARGO_BIN_EXE_nordlys-cli"))
        .args(["tax", "card", "--year", &year, "--xml"])
        .env("NORDLYS_STATE_DIR", state.path())
        .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&unrated.stderr);
    assert!(unrated.status.success(), "{said}");
    assert!(
        said.contains("formuesverdiForVirtuellEiendel") && said.contains("left out of the XML"),
        "{said}"
    );
    assert!(!String::from_utf8_lossy(&unrated.stdout).contains("<formuesverdi"));
    let wrapped = state.path().join("card.xml");
    std::fs::write(
        &wrapped,
        format!(
            "<virtuelleEiendeler xmlns=\"{}\">{xml}</virtuelleEiendeler>",
            nordlys_application::tax_card::NAMESPACE
        ),
    )
    .unwrap();
    let schema = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/skattemelding-v14/virtuell_eiendel.xsd"
    );
    let lint = Command::new("xmllint")
        .args(["--noout", "--schema", schema])
        .arg(&wrapped)
        .output()
        .expect("xmllint (Debian libxml2-utils) runs");
    assert!(
        lint.status.success(),
        "{}\n{xml}",
        String::from_utf8_lossy(&lint.stderr)
    );

    for (args, expected) in [
        (vec!["tax", "card", "--year", "1999"], 1),
        (
            vec!["tax", "card", "--year", &year, "--year-end-rate", "0"],
            2,
        ),
        (
            vec!["tax", "card", "--year", &year, "--year-end-rate", "-5"],
            2,
        ),
        (vec!["tax", "card", "--year", &year, "--method", "lifo"], 2),
    ] {
        let (code, _, err) = cli.run(&args);
        assert_eq!(code, expected, "{args:?}: {err}");
        assert!(!err.trim().is_empty(), "{args:?} says why");
    }
}

/// `plans`: a plan refused at its field stores nothing (exit 2); `run-due` without credentials
/// exits 1; a slot whose ask is above the cap is skipped with the reason; a due slot runs once
/// (exit 0) however often `run-due` is started for the same moment; pause and resume.
#[tokio::test(flavor = "multi_thread")]
async fn plans_run_each_due_slot_once_and_say_why_not() {
    let sb = sandbox().await;
    let keys = &sb.info.api_keys;
    let state = tempfile::tempdir().unwrap();
    let dir = state.path().to_string_lossy().into_owned();
    let bare = Cli {
        base: sb.base_url(),
        env: vec![("NORDLYS_STATE_DIR", dir.clone())],
    };
    let cli = Cli {
        base: sb.base_url(),
        env: vec![
            ("NORDLYS_STATE_DIR", dir),
            ("NORDLYS_API_KEY", keys.trading.key.clone()),
            ("NORDLYS_API_SECRET", keys.trading.secret.clone()),
        ],
    };
    for bad in [
        "--buy-nok 0 --every day --at 07:00",
        "--buy-nok 500 --every week --at 07:00",
        "--buy-nok 500 --every month --on 32 --at 07:00",
        "--buy-nok 500 --every day --at 7.00",
        "--buy-nok 500 --every day --at 07:00 --missed twice",
    ] {
        let (code, _, err) = cli.run(&format!("plans add {bad}").split(' ').collect::<Vec<_>>());
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
    assert_eq!(cli.ok(&["plans", "list"]), serde_json::json!([]));

    let add = |line: &str| cli.ok(&line.split(' ').collect::<Vec<_>>());
    let capped = add("plans add --buy-nok 500 --every day --at 07:00 --max-price 1");
    let weekly = add("plans add --buy-nok 700 --every week --on tue --at 09:15");
    let (code, _, err) = bare.run(&["plans", "run-due"]);
    assert_eq!(code, 1, "{err}");

    // Tuesday 9:20 in Oslo, a week from now at the latest: both are due.
    let now = chrono::Utc::now();
    let oslo = nordlys_core::time::OSLO;
    let mut day = now.with_timezone(&oslo).date_naive() + chrono::Duration::days(1);
    while chrono::Datelike::weekday(&day) != chrono::Weekday::Tue {
        day += chrono::Duration::days(1);
    }
    let due = chrono::TimeZone::from_local_datetime(&oslo, &day.and_hms_opt(9, 20, 0).unwrap())
        .earliest()
        .unwrap()
        .with_timezone(&chrono::Utc)
        .to_rfc3339();
    let ran = cli.ok(&["plans", "run-due", "--now", &due]);
    let of = |plan: &serde_json::Value| -> Vec<serde_json::Value> {
        ran.as_array()
            .unwrap()
            .iter()
            .filter(|r| r["planId"] == plan["planId"])
            .cloned()
            .collect()
    };
    let weekly_runs = of(&weekly);
    assert_eq!(weekly_runs.len(), 1, "{ran}");
    assert_eq!(weekly_runs[0]["state"], "placed");
    assert!(weekly_runs[0]["journalId"].is_i64());
    let capped_runs = of(&capped);
    let last = capped_runs.last().unwrap();
    assert_eq!(last["state"], "skipped", "{ran}");
    assert!(
        last["note"].as_str().unwrap().contains("above the cap"),
        "{ran}"
    );
    assert!(last["journalId"].is_null());
    // Started again for the same moment: nothing more.
    assert_eq!(
        cli.ok(&["plans", "run-due", "--now", &due]),
        serde_json::json!([])
    );
    let listed = cli.ok(&["plans", "list"]);
    let w = &listed.as_array().unwrap()[1];
    assert_eq!(w["on"], "tue");
    assert_eq!(w["runs"].as_array().unwrap().len(), 1);

    let id = weekly["planId"].to_string();
    cli.ok(&["plans", "pause", &id]);
    assert_eq!(
        cli.ok(&["plans", "list"])[1]["nextSlot"],
        serde_json::Value::Null
    );
    cli.ok(&["plans", "resume", &id]);
    assert!(cli.ok(&["plans", "list"])[1]["nextSlot"].is_string());
    let (code, _, _) = cli.run(&["plans", "remove", "999"]);
    assert_eq!(code, 1);
}

/// The next Tuesday at 09:20 in Oslo, a week from now at the latest, as RFC 3339.
fn next_tuesday_0920(weeks_later: i64) -> String {
    let oslo = nordlys_core::time::OSLO;
    let mut day = chrono::Utc::now().with_timezone(&oslo).date_naive() + chrono::Duration::days(1);
    while chrono::Datelike::weekday(&day) != chrono::Weekday::Tue {
        day += chrono::Duration::days(1);
    }
    day += chrono::Duration::weeks(weeks_later);
    chrono::TimeZone::from_local_datetime(&oslo, &day.and_hms_opt(9, 20, 0).unwrap())
        .earliest()
        .unwrap()
        .with_timezone(&chrono::Utc)
        .to_rfc3339()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_ladder_places_its_rungs_below_the_ask_and_cancels_the_open_ones_before_the_next() {
    let sb = sandbox().await;
    let keys = &sb.info.api_keys;
    let state = tempfile::tempdir().unwrap();
    let cli = Cli {
        base: sb.base_url(),
        env: vec![
            (
                "NORDLYS_STATE_DIR",
                state.path().to_string_lossy().into_owned(),
            ),
            ("NORDLYS_API_KEY", keys.trading.key.clone()),
            ("NORDLYS_API_SECRET", keys.trading.secret.clone()),
        ],
    };
    let when = "--every week --on tue --at 09:15";
    for bad in [
        "--ladder-nok 3000 --rungs 1 --step 1",
        "--ladder-nok 3000 --rungs 51 --step 1",
        "--ladder-nok 3000 --rungs 5 --step 0",
        "--ladder-nok 3000 --rungs 5 --step 50",
        "--ladder-nok 3000 --rungs 5 --step 20",
        "--ladder-nok 3000 --rungs 5",
        "--ladder-nok -3000 --rungs 5 --step 1",
        "--buy-nok 500 --ladder-nok 3000 --rungs 5 --step 1",
        "--buy-nok 500 --rungs 5 --step 1",
    ] {
        let line = format!("plans add {bad} {when}");
        let (code, _, err) = cli.run(&line.split(' ').collect::<Vec<_>>());
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
    assert_eq!(cli.ok(&["plans", "list"]), serde_json::json!([]));

    let line = format!("plans add --ladder-nok 3000 --rungs 3 --step 1 {when}");
    let id = cli.ok(&line.split(' ').collect::<Vec<_>>())["planId"].to_string();
    let listed = cli.ok(&["plans", "list"]);
    assert_eq!(listed[0]["buyNok"], serde_json::Value::Null);
    assert_eq!(
        listed[0]["ladder"],
        serde_json::json!({"totalNok": 3000, "rungs": 3, "step": 1})
    );

    let ask = |cli: &Cli| -> f64 {
        cli.ok(&["price", "--amount", "3000"])["ask"]
            .as_f64()
            .unwrap()
    };
    let before = ask(&cli);
    let first = next_tuesday_0920(0);
    let ran = cli.ok(&["plans", "run-due", "--now", &first]);
    let after = ask(&cli);
    assert_eq!(ran.as_array().unwrap().len(), 1, "{ran}");
    assert_eq!(ran[0]["state"], "placed", "{ran}");
    assert_eq!(ran[0]["journalIds"].as_array().unwrap().len(), 3);

    let runs = cli.ok(&["plans", "list"])[0]["runs"].clone();
    let rungs = runs[0]["rungs"].as_array().unwrap().clone();
    assert_eq!(rungs.len(), 3);
    let (low, high) = (before.min(after), before.max(after));
    for (i, rung) in rungs.iter().enumerate() {
        let below = 1.0 - 0.01 * (i as f64 + 1.0);
        let price = rung["price"].as_f64().unwrap();
        assert_eq!(price, price.floor(), "whole kroner: {rung}");
        assert!(
            (low * below).floor() - 1.0 <= price && price <= (high * below).floor() + 1.0,
            "rung {i} at {price}, the ask between {low} and {high}"
        );
        assert_eq!(rung["state"], "placed");
    }
    let order_ids: Vec<String> = rungs
        .iter()
        .map(|r| r["orderId"].as_str().unwrap().to_owned())
        .collect();
    let state_of = |id: &str| {
        let sb = &sb;
        let path = format!("/sandbox/orders/{id}");
        async move { control_get(sb, &path).await["state"].clone() }
    };
    for id in &order_ids {
        assert_eq!(state_of(id).await, "open");
    }
    // The first rung fills; a week later the other two are cancelled before the new ladder.
    control(
        &sb,
        &format!("/sandbox/orders/{}/fill", order_ids[0]),
        serde_json::json!({}),
    )
    .await;
    let second = next_tuesday_0920(1);
    let ran = cli.ok(&["plans", "run-due", "--now", &second]);
    assert_eq!(ran[0]["state"], "placed", "{ran}");
    assert_eq!(state_of(&order_ids[0]).await, "filled");
    assert_eq!(state_of(&order_ids[1]).await, "cancelled");
    assert_eq!(state_of(&order_ids[2]).await, "cancelled");
    let runs = cli.ok(&["plans", "list"])[0]["runs"].clone();
    assert_eq!(runs.as_array().unwrap().len(), 2);
    for rung in runs[1]["rungs"].as_array().unwrap() {
        assert_eq!(state_of(rung["orderId"].as_str().unwrap()).await, "open");
    }
    assert_eq!(
        cli.ok(&["plans", "run-due", "--now", &second]),
        serde_json::json!([]),
        "never twice"
    );

    // Edited into a market buy: its ladder runs stay in its history.
    cli.ok(&[
        "plans",
        "edit",
        &id,
        "--buy-nok",
        "100",
        "--every",
        "day",
        "--at",
        "08:00",
    ]);
    let edited = cli.ok(&["plans", "list"]);
    assert_eq!(edited[0]["buyNok"], 100);
    assert_eq!(edited[0]["ladder"], serde_json::Value::Null);
    assert_eq!(edited[0]["runs"].as_array().unwrap().len(), 2);
    let (code, _, _) = cli.run(&[
        "plans",
        "edit",
        &id,
        "--buy-nok",
        "0",
        "--every",
        "day",
        "--at",
        "08:00",
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        cli.ok(&["plans", "list"])[0]["buyNok"],
        100,
        "a refused edit changes nothing"
    );
    let (code, _, _) = cli.run(&[
        "plans",
        "edit",
        "999",
        "--buy-nok",
        "5",
        "--every",
        "day",
        "--at",
        "08:00",
    ]);
    assert_eq!(code, 1);
}

/// A lost limit sell that filled at once, on an exchange that echoes no description and lists
/// its rows late: within the quiet period nothing the exchange shows can tell whether it was made,
/// so it stays unknown. The user who sees it filled on the exchange settles it as placed (closed:
/// no order number); a number that is not an open order, or is another entry's, is refused and
/// changes nothing; nothing is ever sent.
#[tokio::test(flavor = "multi_thread")]
async fn an_order_the_user_sees_placed_is_settled_as_placed() {
    let sb = sandbox().await;
    {
        let mut world = sb.state.lock();
        world.readings = world
            .readings
            .patched(&serde_json::json!({"noNoteEcho": true, "taxLag": 600}))
            .unwrap();
    }
    let keys = sb.info.api_keys.withdrawal.clone();
    let ours = tempfile::tempdir().unwrap();
    let env = vec![
        ("NORDLYS_API_KEY", keys.key.clone()),
        ("NORDLYS_API_SECRET", keys.secret.clone()),
        ("NORDLYS_STATE_DIR", ours.path().display().to_string()),
    ];
    let base = sb.base_url().to_owned();
    let state = sb.state.clone();
    tokio::task::spawn_blocking(move || {
        let cli = Cli { base: &base, env };
        let sell = |price: &'static str| {
            [
                "orders",
                "create",
                "--type",
                "limit",
                "--direction",
                "sell",
                "--amount",
                "0.0001",
                "--price",
                price,
            ]
        };
        // Resting, and known by its order id.
        let resting = cli.ok(&sell("9999999"))["orderId"]
            .as_str()
            .unwrap()
            .to_owned();
        state.add_fault(nordlys_sandbox::FaultRule {
            path: "/v1/orders".into(),
            method: Some("POST".into()),
            kind: nordlys_sandbox::FaultKind::CommitThenDrop,
            count: Some(1),
            percent: None,
            delay_ms: 0,
        });
        let (code, lost, _) = cli.run(&sell("1"));
        assert_eq!(code, 3);
        let id = lost["journalId"].as_i64().unwrap().to_string();
        let checked = cli.ok(&["journal", "check", &id]);
        assert_eq!(checked[0]["state"], "unknown", "{checked}");
        let sent = state.lock().counters.orders_created;

        let settle = |extra: &[&str]| {
            let args = [
                &["journal", "settle", id.as_str(), "--checked-on-exchange"][..],
                extra,
            ]
            .concat();
            cli.run(&args)
        };
        let (code, _, err) = settle(&["--placed", "--order-id", "or_nothing"]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("not among the open orders"), "{err}");
        let (code, _, err) = settle(&["--placed", "--order-id", &resting]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("journal entry 1"), "{err}");
        let (code, _, _) = settle(&["--order-id", &resting]);
        assert_eq!(code, 2, "--order-id needs --placed");
        let (code, _, _) = settle(&["--placed", "--not-sent"]);
        assert_eq!(code, 2, "one answer");
        let (code, _, _) = settle(&[]);
        assert_eq!(code, 2, "an answer");
        let listed = cli.ok(&["journal", "list"]);
        assert_eq!(listed[1]["state"], "unknown", "{listed}");

        let settled = settle(&["--placed"]);
        assert_eq!(settled.0, 0, "{}", settled.2);
        assert_eq!(settled.1[0]["state"], "placed", "{}", settled.1);
        assert_eq!(settled.1[0]["orderId"], serde_json::Value::Null);
        let (code, _, err) = settle(&["--placed"]);
        assert_eq!(code, 1, "settled already: {err}");
        assert_eq!(state.lock().counters.orders_created, sent, "nothing sent");
    })
    .await
    .unwrap();
}

/// A key without the Receive permission cannot create invoices, and the CLI says why (exit 1).
#[tokio::test(flavor = "multi_thread")]
async fn creating_an_invoice_without_the_receive_permission_says_so() {
    let sb = sandbox().await;
    let key = sb.info.api_keys.no_receive.clone();
    let base = sb.base_url().to_owned();
    tokio::task::spawn_blocking(move || {
        let cli = Cli {
            base: &base,
            env: vec![
                ("NORDLYS_API_KEY", key.key.clone()),
                ("NORDLYS_API_SECRET", key.secret.clone()),
            ],
        };
        // It reads as any key does.
        assert!(cli.ok(&["fiat"])["availableNok"].is_number());
        let (code, _, err) = cli.run(&[
            "invoice",
            "create",
            "--amount",
            "0.0001",
            "--currency",
            "BTC",
        ]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("Receive permission"), "{err}");
    })
    .await
    .unwrap();
}

/// All API requests the sandbox has seen.
async fn requests_seen(sb: &nordlys_sandbox::RunningSandbox) -> u64 {
    control_get(sb, "/sandbox/counters").await["requests"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(serde_json::Value::as_u64)
        .sum()
}

/// A description the user typed is sent as typed (the reference only fills an empty one), and a
/// request that cannot be sent (no secret to sign it, an amount of 0 or below) is refused before
/// the CLI touches the network.
#[tokio::test(flavor = "multi_thread")]
async fn the_cli_sends_what_it_is_told_and_refuses_before_any_request() {
    let sb = sandbox().await;
    let keys = sb.info.api_keys.clone();
    let base = sb.base_url().to_owned();
    let state = tempfile::tempdir().unwrap();
    let state_dir = state.path().to_string_lossy().into_owned();
    // The CLI with a key (and its secret, when given) and this test's state directory.
    let with_key = |key: nordlys_sandbox::KeyInfo, signs: bool| {
        let (base, state_dir) = (base.clone(), state_dir.clone());
        move |args: Vec<&'static str>| {
            let mut env = vec![
                ("NORDLYS_API_KEY", key.key.clone()),
                ("NORDLYS_STATE_DIR", state_dir.clone()),
            ];
            if signs {
                env.push(("NORDLYS_API_SECRET", key.secret.clone()));
            }
            Cli { base: &base, env }.run(&args)
        }
    };
    let signing = with_key(keys.withdrawal.clone(), true);
    let typed = signing.clone();
    tokio::task::spawn_blocking(move || {
        let (code, _, err) = typed(vec![
            "withdraw",
            "--destination",
            "kari@example.com",
            "--amount-btc",
            "0.0002",
            "--description",
            "rent",
            "--tfr-full-name",
            "Kari Nordmann",
            "--tfr-address",
            "Bryggen 1, Bergen",
        ]);
        assert_eq!(code, 0, "{err}");
        let (code, _, err) = typed(vec![
            "orders",
            "create",
            "--type",
            "market",
            "--direction",
            "buy",
            "--amount",
            "100",
            "--description",
            "monthly",
        ]);
        assert_eq!(code, 0, "{err}");
        // A bitcoin: link: its address is sent, with its amount.
        let (code, _, err) = typed(vec![
            "withdraw",
            "--destination",
            "bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0003&label=Kari",
            "--tfr-full-name",
            "Kari Nordmann",
            "--tfr-address",
            "Bryggen 1, Bergen",
        ]);
        assert_eq!(code, 0, "{err}");
        let (code, _, err) = typed(vec![
            "orders",
            "create",
            "--type",
            "market",
            "--direction",
            "buy",
            "--amount",
            "100",
        ]);
        assert_eq!(code, 0, "{err}");
    })
    .await
    .unwrap();
    let made = control_get(&sb, "/sandbox/made").await;
    let descriptions: Vec<&str> = ["withdrawals", "orders"]
        .iter()
        .flat_map(|k| made[*k].as_array().unwrap())
        .map(|m| m["description"].as_str().unwrap_or_default())
        .collect();
    assert!(descriptions.contains(&"rent"), "{descriptions:?}");
    {
        let world = sb.state.lock();
        let linked = world.withdrawals.last().unwrap();
        assert_eq!(
            (linked.destination.as_str(), linked.amount_btc),
            (
                "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
                rust_decimal::Decimal::new(3, 4)
            )
        );
    }
    assert!(descriptions.contains(&"monthly"), "{descriptions:?}");
    assert!(
        descriptions.iter().any(|d| d.starts_with("[nordlys ")),
        "{descriptions:?}"
    );

    let before = requests_seen(&sb).await;
    let key_only = with_key(keys.read.clone(), false);
    tokio::task::spawn_blocking(move || {
        let buy = |amount: &'static str| {
            vec![
                "orders",
                "create",
                "--type",
                "market",
                "--direction",
                "buy",
                "--amount",
                amount,
            ]
        };
        for (code, what) in [
            (key_only(buy("100")).0, "a key without its secret"),
            (signing(buy("0")).0, "an amount of 0"),
            (signing(buy("-5")).0, "a negative amount"),
            (
                key_only(vec![
                    "withdraw",
                    "--destination",
                    "kari@example.com",
                    "--amount-btc",
                    "0.0002",
                ])
                .0,
                "a payment without a secret",
            ),
        ] {
            assert_ne!(code, 0, "{what}");
            assert_ne!(code, 3, "{what}");
        }
        // An identity number on the command line: bad usage, and the file to use instead.
        let (code, _, err) = signing(vec![
            "withdraw",
            "--destination",
            "kari@example.com",
            "--amount-btc",
            "0.0002",
            "--tfr-full-name",
            "Kari Nordmann",
            "--tfr-address",
            "Bryggen 1",
            "--tfr-nin",
            "01017012345",
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("--tfr-from-file"), "{err}");
        // A link whose amount is not one, or that disagrees with the amount given: bad usage.
        for (link, amount) in [
            (
                "bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=1e-3",
                None,
            ),
            (
                "bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0003",
                Some("0.0004"),
            ),
        ] {
            let mut args = vec!["withdraw", "--destination", link];
            if let Some(a) = amount {
                args.extend(["--amount-btc", a]);
            }
            let (code, _, err) = signing(args);
            assert_eq!(code, 2, "{link}: {err}");
        }
    })
    .await
    .unwrap();
    assert_eq!(requests_seen(&sb).await, before, "nothing was asked");
}

/// Pointed at an app profile's directory, the CLI opens its encrypted store with the app's key
/// (here the tests' keyring double), and backs the key up and puts it back.
#[test]
fn an_app_profiles_store_opens_with_the_apps_key_and_its_key_is_backed_up() {
    let home = tempfile::tempdir().unwrap();
    let profile = home.path().join("profiles/p1");
    let keyring = home.path().join("keyring");
    let run = |args: &[&str], keyring: &std::path::Path, stdin: &str| {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_nordlys-cli"))
            .args(args)
            .env("NORDLYS_STATE_DIR", &profile)
            .env("NORDLYS_TEST_KEYRING_DIR", keyring)
            .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
        (
            out.status.code().unwrap_or(-1),
            json,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // No key and no store yet: nothing to export.
    assert_eq!(run(&["store", "export-key"], &keyring, "").0, 1);
    let (code, plans, err) = run(&["plans", "list"], &keyring, "");
    assert_eq!((code, plans), (0, serde_json::json!([])), "{err}");
    let store = profile.join("nordlys.sqlite");
    assert!(
        !std::fs::read(&store)
            .unwrap()
            .starts_with(b"SQLite format 3")
    );
    let (code, exported, err) = run(&["store", "export-key"], &keyring, "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(exported["profile"], "p1");
    let key = exported["key"].as_str().unwrap().to_owned();
    assert_eq!(key.len(), 64);

    // The keyring lost: the store is refused, never replaced by a new one.
    let lost = home.path().join("lost");
    let before = std::fs::read(&store).unwrap();
    let (code, _, err) = run(&["plans", "list"], &lost, "");
    assert_eq!(code, 1);
    assert!(err.contains("holds no key"), "{err}");
    assert_eq!(std::fs::read(&store).unwrap(), before);
    // Another key, and a line that is not a key, are refused; the backup puts it back.
    let other = "ab".repeat(32);
    let (code, _, err) = run(&["store", "import-key"], &lost, &format!("{other}\n"));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("does not open"), "{err}");
    assert_eq!(run(&["store", "import-key"], &lost, "not a key\n").0, 2);
    let (code, imported, err) = run(&["store", "import-key"], &lost, &format!("{key}\n"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(imported["imported"], true);
    assert_eq!(run(&["plans", "list"], &lost, "").0, 0);

    // Sealed under the app lock's password (the app's Settings): the CLI cannot open the store,
    // and says so, `plans run-due` included; nothing is changed.
    use nordlys_core::store::{KeyEntry, SealedKey, StoreKey};
    let secrets = nordlys_core::platform::secrets::FileSecretStore::new(lost.clone());
    let plain = StoreKey::from_hex(&key).unwrap();
    let sealed = SealedKey::seal(&plain, "correct horse", "p1").unwrap();
    KeyEntry::Sealed(sealed).write(&secrets, "p1").unwrap();
    let before = std::fs::read(&store).unwrap();
    for args in [
        &["plans", "run-due"][..],
        &["plans", "list"],
        &["store", "export-key"],
    ] {
        let (code, _, err) = run(args, &lost, "");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("sealed under the app lock's password"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(std::fs::read(&store).unwrap(), before);
}

/// The CLI's own directory keeps a plain store, and has no key to export.
#[test]
fn the_clis_own_store_has_no_key_to_export() {
    let state = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nordlys-cli"))
        .args(["store", "export-key"])
        .env("NORDLYS_STATE_DIR", state.path())
        .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an app profile"));
}
