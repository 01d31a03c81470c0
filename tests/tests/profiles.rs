#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! Profiles in their own lanes, through the app's own command handler on Tauri's mock runtime:
//! secrets go only to the exchange they were entered for, a sandbox reset touches only the
//! sandbox's store, a profile switch never lets one exchange's order land in another profile's
//! journal, and a keyring that is locked or holds a damaged entry does not stop the app.

mod app_driver;

use std::sync::Arc;
use std::time::{Duration, Instant};

use app_driver::{
    app_in, app_with, call, connected_app, save_exchange_profile, tax_rows, tax_synced,
};
use nordlys_core::recipient_seal::RecipientSeal;
use nordlys_core::secrets::{MemorySecretStore, SecretError, SecretItem, SecretStore};
use nordlys_core::store::{JournalState, Recipient, Store};
use nordlys_tests::*;
use serde_json::{Value, json};

fn host(sb: &nordlys_sandbox::RunningSandbox) -> String {
    sb.base_url().trim_start_matches("http://").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_base_url_sends_no_credential_to_the_new_host() {
    let first = sandbox().await;
    let second = sandbox().await;
    let (_app, window, _dir) = connected_app(&first, None).await;
    call(&window, "balances", json!({})).await.unwrap();
    let seen = control_get(&first, "/sandbox/counters").await;
    assert!(seen["credentialsSeen"]["apiKey"].as_u64().unwrap() > 0);

    let moved = save_exchange_profile(&window, second.base_url()).await;
    // The live connection follows at once, and says where it goes.
    assert_eq!(moved["connection"]["hasKey"], false, "{moved}");
    assert_eq!(moved["connection"]["host"], host(&second));
    assert_eq!(moved["profile"]["local"], true);
    let refused = call(&window, "balances", json!({})).await.unwrap_err();
    assert!(refused.contains("API key"), "{refused}");
    let seen = control_get(&second, "/sandbox/counters").await;
    assert_eq!(seen["credentialsSeen"], json!({}), "{seen}");

    // Back to the first: the key was forgotten, not kept for it either.
    let back = save_exchange_profile(&window, first.base_url()).await;
    assert_eq!(back["connection"]["hasKey"], false, "{back}");
}

async fn rows(window: &tauri::WebviewWindow<tauri::test::MockRuntime>) -> u64 {
    tax_rows(window, 0, 10).await["total"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_profile_s_tax_rows_survive_a_sandbox_reset() {
    let sb = sandbox().await;
    let (_app, window, _dir) = connected_app(&sb, None).await;
    market_buy(&key_client(&sb, &sb.info.api_keys.withdrawal), 500).await;
    tax_synced(&window).await;
    let before = rows(&window).await;
    assert!(before > 0);
    call(&window, "reset_demo", json!({})).await.unwrap();
    assert_eq!(
        rows(&window).await,
        before,
        "the real profile's history stays"
    );
}

/// The profile whose exchange made each order, judged by the exchanges themselves: every entry
/// in the exchange profile's journal names an order `exchange` made, and no entry in the
/// sandbox profile's does.
async fn check_lanes(dir: &std::path::Path, exchange: &nordlys_sandbox::RunningSandbox) -> usize {
    let placed = |profile: &str| {
        let store = Store::open(&dir.join(format!("profiles/{profile}/nordlys.sqlite"))).unwrap();
        store
            .journal_recent(100_000)
            .unwrap()
            .into_iter()
            .inspect(|e| assert_eq!(e.state, JournalState::Placed, "{e:?}"))
            .filter_map(|e| e.order_id)
            .collect::<Vec<_>>()
    };
    let made_here = |id: String| async move {
        reqwest::Client::new()
            .get(format!("{}/sandbox/orders/{id}", exchange.base_url()))
            .header("x-sandbox-token", &exchange.info.control_token)
            .send()
            .await
            .unwrap()
            .status()
            .is_success()
    };
    let on_exchange = placed("exchange");
    for id in on_exchange.clone() {
        assert!(
            made_here(id.clone()).await,
            "{id} is in the exchange profile's journal"
        );
    }
    let on_sandbox = placed("sandbox");
    for id in on_sandbox.clone() {
        assert!(
            !made_here(id.clone()).await,
            "{id} is in the sandbox's journal"
        );
    }
    let counters = control_get(exchange, "/sandbox/counters").await;
    assert_eq!(
        counters["ordersCreated"].as_u64(),
        Some(on_exchange.len() as u64),
        "every order the exchange made is in the exchange profile's journal"
    );
    on_exchange.len() + on_sandbox.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_switches_raced_against_orders_leave_each_entry_with_its_exchange() {
    let sb = sandbox().await;
    let (_app, window, dir) = connected_app(&sb, None).await;
    const SWITCHES: usize = 1000;
    let switcher = tokio::spawn({
        let window = window.clone();
        async move {
            for i in 0..SWITCHES {
                let id = if i % 2 == 0 { "sandbox" } else { "exchange" };
                call(&window, "switch_profile", json!({"id": id}))
                    .await
                    .unwrap();
            }
        }
    });
    let mut lanes = Vec::new();
    for lane in 0..2 {
        let window = window.clone();
        lanes.push(tokio::spawn(async move {
            let mut placed = 0;
            let mut n = 0;
            loop {
                let args = json!({"orderType": "market", "direction": "buy",
                                  "amount": format!("{}", 100 + lane * 10_000 + n),
                                  "price": null, "accountId": null});
                n += 1;
                let answer: Result<Value, String> = call(&window, "place_order", args).await;
                if let Ok(v) = answer {
                    assert_eq!(v["outcome"], "placed", "{v}");
                    placed += 1;
                }
                if placed >= 150 || n >= 400 {
                    return placed;
                }
            }
        }));
    }
    let mut placed = 0;
    for lane in lanes {
        placed += lane.await.unwrap();
    }
    switcher.await.unwrap();
    assert!(placed >= 200, "only {placed} orders went through");
    assert_eq!(check_lanes(dir.path(), &sb).await, placed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_switch_waits_for_an_order_on_its_way() {
    let sb = sandbox().await;
    let (_app, window, dir) = connected_app(&sb, None).await;
    control(
        &sb,
        "/sandbox/faults",
        json!({"path": "/v1/orders", "method": "POST", "kind": "delay", "count": 1,
               "delayMs": 1500}),
    )
    .await;
    let order = tokio::spawn({
        let window = window.clone();
        async move {
            let args = json!({"orderType": "market", "direction": "buy", "amount": "777",
                              "price": null, "accountId": null});
            let placed = call(&window, "place_order", args).await.unwrap();
            (placed, Instant::now())
        }
    });
    tokio::time::sleep(Duration::from_millis(400)).await;
    call(&window, "switch_profile", json!({"id": "sandbox"}))
        .await
        .unwrap();
    let switched = Instant::now();
    let (placed, ordered) = order.await.unwrap();
    assert_eq!(placed["outcome"], "placed", "{placed}");
    assert!(ordered <= switched, "the switch ended before the order did");
    assert_eq!(check_lanes(dir.path(), &sb).await, 1);
}

/// A keyring that is locked: every call fails.
#[derive(Debug)]
struct LockedKeyring;

impl SecretStore for LockedKeyring {
    fn get(&self, _: &str, _: SecretItem) -> Result<Option<String>, SecretError> {
        Err(SecretError::Unavailable("the collection is locked".into()))
    }
    fn set(&self, _: &str, _: SecretItem, _: &str) -> Result<(), SecretError> {
        Err(SecretError::Unavailable("the collection is locked".into()))
    }
    fn delete(&self, _: &str, _: SecretItem) -> Result<(), SecretError> {
        Err(SecretError::Unavailable("the collection is locked".into()))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_keyring_still_opens_the_sandbox_and_says_how_to_unlock_it() {
    let (_app, window, _dir) = app_with(Arc::new(LockedKeyring));
    let state = call(&window, "app_state", json!({})).await.unwrap();
    assert_eq!(state["profile"]["kind"], "sandbox");
    let problem = state["connection"]["secretProblem"].as_str().unwrap();
    assert!(problem.contains("Unlock"), "{problem}");
    // The sandbox's demo key is not in the keyring: the overview reads as ever.
    let balances = call(&window, "balances", json!({})).await.unwrap();
    assert!(!balances["accounts"].as_array().unwrap().is_empty());
    // Disconnect says the keyring is locked, and the sandbox goes on with its demo key.
    let said = call(&window, "disconnect", json!({})).await.unwrap_err();
    assert!(said.contains("locked"), "{said}");
    let state = call(&window, "app_state", json!({})).await.unwrap();
    assert_eq!(state["connection"]["keyIsDemo"], true, "{state}");
    call(&window, "balances", json!({})).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_entry_is_set_aside_and_disconnect_clears_it() {
    let sb = sandbox().await;
    let secrets = Arc::new(MemorySecretStore::default());
    let (_app, window, _dir) = app_with(secrets.clone());
    save_exchange_profile(&window, sb.base_url()).await;
    secrets
        .set("exchange", SecretItem::ApiKey, "{\"key\": 12")
        .unwrap();
    let state = call(&window, "switch_profile", json!({"id": "exchange"}))
        .await
        .unwrap();
    assert_eq!(state["connection"]["hasKey"], false, "{state}");
    let problem = state["connection"]["secretProblem"].as_str().unwrap();
    assert!(problem.contains("damaged"), "{problem}");
    let cleared = call(&window, "disconnect", json!({})).await.unwrap();
    assert_eq!(cleared["connection"]["secretProblem"], Value::Null);
    assert!(
        secrets
            .get("exchange", SecretItem::ApiKey)
            .unwrap()
            .is_none()
    );
}

fn payment_to(destination: &str, save_as: &str) -> Value {
    json!({
        "destination": destination, "amount": "1000", "unit": "sats", "accountId": null,
        "isPayment": false, "description": "",
        "recipient": {"fullName": "Kari Nordmann", "country": "NO", "address": "Storgata 1, 0155 Oslo",
                      "nin": "01017012345", "organisation": false, "exchange": "", "selfCustody": false},
        "saveRecipient": true, "label": save_as
    })
}

/// Every byte of the sandbox profile's database and its log.
fn store_bytes(dir: &std::path::Path) -> String {
    let base = dir.join("profiles/sandbox/nordlys.sqlite");
    let mut all = std::fs::read(&base).unwrap();
    all.extend(std::fs::read(base.with_extension("sqlite-wal")).unwrap_or_default());
    String::from_utf8_lossy(&all).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_recipients_are_sealed_and_a_locked_keyring_shows_their_labels_only() {
    let keyring = Arc::new(MemorySecretStore::default());
    let (app, window, dir) = app_with(keyring.clone());
    let args = payment_to("kari@example.com", "Kari");
    let checked = call(&window, "check_payment", args.clone()).await.unwrap();
    let mut send = args;
    send["reviewed"] = checked["reviewed"].clone();
    let sent = call(&window, "send_payment", send).await.unwrap();
    assert_eq!(sent["payment"]["state"], "sent", "{sent}");
    let book = call(&window, "recipients", json!({})).await.unwrap();
    assert_eq!(book["recipients"][0]["nin"], "01017012345", "{book}");
    assert_eq!(book["recipients"][0]["locked"], false);
    drop((window, app));
    let bytes = store_bytes(dir.path());
    assert!(bytes.contains("kari@example.com"));
    assert!(
        !bytes.contains("01017012345") && !bytes.contains("Storgata"),
        "the identity number and address are not readable in the file"
    );
    // A second one, saved but never paid: the exchange does not know its recipient yet.
    {
        let store = Store::open(&dir.path().join("profiles/sandbox/nordlys.sqlite")).unwrap();
        store
            .unlock_recipients(RecipientSeal::for_profile(&*keyring, "sandbox").unwrap())
            .unwrap();
        store
            .save_recipient(&Recipient {
                identity: "ola@example.com".into(),
                destination: "ola@example.com".into(),
                label: "Ola".into(),
                full_name: "Ola Nordmann".into(),
                country: "NO".into(),
                address: "Kirkegata 2, 0153 Oslo".into(),
                ..Recipient::default()
            })
            .unwrap();
    }

    // Restarted with the keyring locked: labels only, marked locked; Pay asks again.
    let (app, window) = app_in(dir.path(), Arc::new(LockedKeyring));
    let book = call(&window, "recipients", json!({})).await.unwrap();
    let shown = book["recipients"].as_array().unwrap();
    assert_eq!(shown.len(), 2, "{book}");
    for r in shown {
        assert_eq!(r["locked"], true, "{r}");
        assert_eq!(r["fullName"], "", "{r}");
        assert_eq!(r["nin"], "", "{r}");
        assert!(r["label"] == "Kari" || r["label"] == "Ola", "{r}");
    }
    let mut to_ola = payment_to("ola@example.com", "Ola");
    to_ola["recipient"] = json!({"fullName": "", "country": "", "address": "", "nin": "",
                                 "organisation": false, "exchange": "", "selfCustody": false});
    let check = call(&window, "check_payment", to_ola).await.unwrap();
    assert_eq!(check["needsRecipient"], true, "{check}");
    assert_eq!(check["savedRecipient"], Value::Null, "{check}");
    let mut edit = shown[0].clone();
    edit["fullName"] = json!("Kari Nordmann");
    edit["country"] = json!("NO");
    edit["address"] = json!("Storgata 1, 0155 Oslo");
    let refused = call(&window, "save_recipient", edit).await.unwrap_err();
    assert!(refused.contains("locked"), "{refused}");
    drop((window, app));

    // Unlocked again: every detail is back.
    let (_app, window) = app_in(dir.path(), keyring);
    let book = call(&window, "recipients", json!({})).await.unwrap();
    let names: Vec<&str> = book["recipients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["fullName"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"Kari Nordmann") && names.contains(&"Ola Nordmann"),
        "{book}"
    );
}

/// The value a nonce file holds.
fn nonce_in(path: &std::path::Path) -> u64 {
    std::fs::read_to_string(path)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_keeps_nonces_in_the_file_the_cli_uses_for_the_same_key() {
    let sb = sandbox().await;
    let (_app, window, dir) = connected_app(&sb, None).await;
    let buy = |amount: &str| {
        json!({"orderType": "market", "direction": "buy", "amount": amount,
               "price": null, "accountId": null})
    };
    let placed = call(&window, "place_order", buy("500")).await.unwrap();
    assert_eq!(placed["outcome"], "placed", "{placed}");
    // The CLI, pointed at this profile's directory, uses <dir>/nonces/<fingerprint of the key>.
    let key = &sb.info.api_keys.withdrawal.key;
    let file = dir
        .path()
        .join("profiles/exchange/nonces")
        .join(nordlys_exchange::credentials::key_fingerprint(key));
    // The CLI has just signed with a clock an hour ahead of this one.
    let ahead = nonce_in(&file) + 3_600_000;
    std::fs::write(&file, format!("{ahead:020}\n")).unwrap();
    let placed = call(&window, "place_order", buy("600")).await.unwrap();
    assert_eq!(placed["outcome"], "placed", "{placed}");
    assert!(
        nonce_in(&file) > ahead,
        "the app signed above what the CLI left in the shared file"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_timeout_is_a_setting_within_its_range() {
    let (_app, window, dir) = app_with(Arc::new(MemorySecretStore::default()));
    let state = call(&window, "app_state", json!({})).await.unwrap();
    assert_eq!(state["requestTimeoutSecs"], 30);
    for refused in [0, 4, 121, 100_000] {
        let said = call(&window, "set_request_timeout", json!({"seconds": refused}))
            .await
            .unwrap_err();
        assert!(said.contains("5 to 120 seconds"), "{refused}: {said}");
    }
    let set = call(&window, "set_request_timeout", json!({"seconds": 90}))
        .await
        .unwrap();
    assert_eq!(set["requestTimeoutSecs"], 90);
    let saved = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    assert!(saved.contains("90"), "{saved}");
    // Still connected: the session opens again with it.
    call(&window, "balances", json!({})).await.unwrap();
    let back = call(&window, "set_request_timeout", json!({"seconds": null}))
        .await
        .unwrap();
    assert_eq!(back["requestTimeoutSecs"], 30);
}
