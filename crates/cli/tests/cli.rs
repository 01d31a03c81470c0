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
        assert_eq!(accounts["accounts"][0]["deleteTime"], "");
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
    ] {
        assert!(text.contains(cmd), "{cmd} missing from --help");
    }
}
