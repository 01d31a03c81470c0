#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! Profiles in their own lanes, through the app's own use cases:
//! secrets go only to the exchange they were entered for, a sandbox reset touches only the
//! sandbox's store, a profile switch never lets one exchange's order land in another profile's
//! journal, and a keyring that is locked or holds a damaged entry does not stop the app.

mod app_driver;

use std::sync::Arc;
use std::time::{Duration, Instant};

use app_driver::{
    app_in, app_with, connected_app, order, save_exchange_profile, switch_profile, tax_rows,
    tax_synced, within,
};
use nordlys_application::App;
use nordlys_application::NoArgs;
use nordlys_application::error::ErrorCode;
use nordlys_application::pay_views::{PayArgs, SaveRecipientArgs};
use nordlys_application::present::{Present, Presented};
use nordlys_application::profile_views::{
    ConnectOauthArgs, ExchangeProfileArgs, SetRequestTimeoutArgs,
};
use nordlys_application::vocabulary::{Direction, OrderOutcome, ProfileType};
use nordlys_application::wording::key;
use nordlys_application::{pay, profiles, trading};
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::platform::secrets::{
    LockedSecretStore, MemorySecretStore, SecretError, SecretItem, SecretStore,
};
use nordlys_core::recipient_seal::RecipientSeal;
use nordlys_core::store::{JournalState, Recipient, WithdrawalState};
use nordlys_core::travel_rule::RecipientForm;
use nordlys_tests::*;
use serde_json::json;

fn host(sb: &nordlys_sandbox::RunningSandbox) -> String {
    sb.base_url().trim_start_matches("http://").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_base_url_sends_no_credential_to_the_new_host() {
    let first = sandbox().await;
    let second = sandbox().await;
    let (app, _dir) = connected_app(&first, None).await;
    profiles::balances(&app, NoArgs {}).await.unwrap();
    let seen = control_get(&first, "/sandbox/counters").await;
    assert!(seen["credentialsSeen"]["apiKey"].as_u64().unwrap() > 0);

    let moved = save_exchange_profile(&app, second.base_url())
        .await
        .unwrap();
    // The live connection follows at once, and says where it goes.
    assert!(!moved.status.has_key, "{moved:?}");
    assert_eq!(moved.host, host(&second));
    assert!(moved.present(&app.viewer()).profile.local);
    let refused = profiles::balances(&app, NoArgs {}).await.unwrap_err();
    assert!(refused.says(key::REFUSAL_NO_CREDENTIALS), "{refused:?}");
    let seen = control_get(&second, "/sandbox/counters").await;
    assert_eq!(seen["credentialsSeen"], json!({}), "{seen}");

    // Back to the first: the key was forgotten, not kept for it either.
    let back = save_exchange_profile(&app, first.base_url()).await.unwrap();
    assert!(!back.status.has_key, "{back:?}");
}

/// The exchange picked by name: saved under its name with its published addresses, and with no
/// client id issued it signs in with an API key only. Nothing here contacts its host.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_known_exchange_is_saved_by_name_and_without_a_client_id_offers_no_browser_sign_in() {
    let (app, _dir) = app_with(Arc::new(MemorySecretStore::default()));
    let state = within("app_state", profiles::app_state(&app, NoArgs {}))
        .await
        .unwrap()
        .present(&app.viewer());
    let bare = state
        .presets
        .iter()
        .find(|p| p.id == "bare-bitcoin")
        .cloned()
        .unwrap();
    assert_eq!(
        (bare.base_url.as_str(), bare.operator.as_str()),
        ("https://api.bb.no", "bb")
    );
    assert_eq!(bare.client_id, None);
    let args = ExchangeProfileArgs {
        base_url: bare.base_url.clone(),
        client_id: String::new(),
        operator: Some(bare.operator.clone()),
        oauth_base_url: Some(bare.oauth_base_url.clone()),
        scopes: None,
        password: None,
    };
    let saved = within("save", profiles::save_exchange_profile(&app, args))
        .await
        .unwrap()
        .present(&app.viewer());
    let profile = saved.profiles.iter().find(|p| p.id == "exchange").unwrap();
    assert_eq!(profile.name, "Bare Bitcoin");
    assert_eq!(profile.preset.as_deref(), Some("bare-bitcoin"));
    assert_eq!(profile.client_id, None);
    switch_profile(&app, "exchange").await.unwrap();
    let scopes = vec!["api:accounts:bitcoin:read".to_owned()];
    let refused = within(
        "connect_oauth",
        profiles::connect_oauth(&app, ConnectOauthArgs { scopes }),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidInput, "{refused:?}");
    assert!(refused.says(key::OAUTH_NEEDS_CLIENT_ID), "{refused:?}");
}

async fn rows(app: &App) -> u32 {
    tax_rows(app, 0, 10).await.total.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_profile_s_tax_rows_survive_a_sandbox_reset() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    market_buy(&key_client(&sb, &sb.info.api_keys.withdrawal), 500).await;
    tax_synced(&app).await;
    let before = rows(&app).await;
    assert!(before > 0);
    profiles::reset_demo(&app, NoArgs {}).await.unwrap();
    assert_eq!(rows(&app).await, before, "the real profile's history stays");
}

/// The profile whose exchange made each order, judged by the exchanges themselves: every entry
/// in the exchange profile's journal names an order `exchange` made, and no entry in the
/// sandbox profile's does.
async fn check_lanes(
    app: &App,
    dir: &std::path::Path,
    exchange: &nordlys_sandbox::RunningSandbox,
) -> usize {
    let placed = |profile: &str| {
        let store = app_driver::profile_db(app, dir, profile);
        store
            .orders()
            .recent(100_000)
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
    let (app, dir) = connected_app(&sb, None).await;
    const SWITCHES: usize = 1000;
    let switcher = tokio::spawn({
        let app = app.clone();
        async move {
            for i in 0..SWITCHES {
                let id = if i % 2 == 0 { "sandbox" } else { "exchange" };
                switch_profile(&app, id).await.unwrap();
            }
        }
    });
    let mut lanes = Vec::new();
    for lane in 0..2 {
        let app = app.clone();
        lanes.push(tokio::spawn(async move {
            let mut placed = 0;
            let mut n = 0;
            loop {
                let args = order(Direction::Buy, 100 + lane * 10_000 + n, None);
                n += 1;
                if let Ok(v) = app_driver::place_form(&app, args, false).await {
                    assert_eq!(v.outcome(), OrderOutcome::Placed, "{v:?}");
                    placed += 1;
                }
                // A review made under one profile is never placed under another: most tries
                // while the switches race are refused so, and the lane tries again. Once the
                // switches end every try goes through, so a slow machine only takes longer.
                if placed >= 100 || n >= 100_000 {
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
    assert_eq!(placed, 200, "every lane got its orders through");
    assert_eq!(check_lanes(&app, dir.path(), &sb).await, placed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_switch_waits_for_an_order_on_its_way() {
    let sb = sandbox().await;
    let (app, dir) = connected_app(&sb, None).await;
    control(
        &sb,
        "/sandbox/faults",
        json!({"path": "/v1/orders", "method": "POST", "kind": "delay", "count": 1,
               "delayMs": 1500}),
    )
    .await;
    let placing = tokio::spawn({
        let app = app.clone();
        async move {
            let args = order(Direction::Buy, 777, None);
            let placed = app_driver::place_form(&app, args, false).await.unwrap();
            (placed, Instant::now())
        }
    });
    tokio::time::sleep(Duration::from_millis(400)).await;
    switch_profile(&app, "sandbox").await.unwrap();
    let switched = Instant::now();
    let (placed, ordered) = placing.await.unwrap();
    assert_eq!(placed.outcome(), OrderOutcome::Placed, "{placed:?}");
    assert!(ordered <= switched, "the switch ended before the order did");
    assert_eq!(check_lanes(&app, dir.path(), &sb).await, 1);
}

/// A keyring that gives the store's key but, locked since, not the recipients' seal.
#[derive(Debug)]
struct SealLocked(Arc<MemorySecretStore>);

impl SecretStore for SealLocked {
    fn get(&self, profile: &str, item: SecretItem) -> Result<Option<String>, SecretError> {
        match item {
            SecretItem::StoreKey => self.0.get(profile, item),
            _ => LockedSecretStore.get(profile, item),
        }
    }
    fn set(&self, profile: &str, item: SecretItem, value: &str) -> Result<(), SecretError> {
        LockedSecretStore.set(profile, item, value)
    }
    fn delete(&self, profile: &str, item: SecretItem) -> Result<(), SecretError> {
        LockedSecretStore.delete(profile, item)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_keyring_still_opens_the_sandbox_and_says_how_to_unlock_it() {
    let (app, _dir) = app_with(Arc::new(LockedSecretStore));
    let state = profiles::app_state(&app, NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    assert_eq!(state.profile.kind, ProfileType::Sandbox);
    let problem = state.connection.secret_problem.unwrap();
    let unlock = nordlys_application::wording::say(key::SECRET_KEYRING_LOCKED, state.language);
    assert_eq!(problem, unlock);
    // The sandbox's demo key is not in the keyring: the overview reads as ever.
    let balances = profiles::balances(&app, NoArgs {}).await.unwrap();
    assert!(!balances.accounts.is_empty());
    // Disconnect says the keyring is locked, and the sandbox goes on with its demo key.
    let said = profiles::disconnect(&app, NoArgs {}).await.unwrap_err();
    assert!(said.says(key::SECRET_KEYRING_LOCKED), "{said:?}");
    let state = profiles::app_state(&app, NoArgs {}).await.unwrap();
    assert!(state.status.key_is_demo, "{state:?}");
    profiles::balances(&app, NoArgs {}).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_entry_is_set_aside_and_disconnect_clears_it() {
    let sb = sandbox().await;
    let secrets = Arc::new(MemorySecretStore::default());
    let (app, _dir) = app_with(secrets.clone());
    save_exchange_profile(&app, sb.base_url()).await.unwrap();
    secrets
        .set("exchange", SecretItem::ApiKey, "{\"key\": 12")
        .unwrap();
    let state = switch_profile(&app, "exchange")
        .await
        .unwrap()
        .present(&app.viewer());
    assert!(!state.connection.has_key, "{state:?}");
    let problem = state.connection.secret_problem.unwrap();
    let damaged = nordlys_application::wording::say(key::SECRET_DAMAGED, state.language);
    assert_eq!(problem, damaged);
    let cleared = profiles::disconnect(&app, NoArgs {}).await.unwrap();
    assert_eq!(cleared.status.secret_problem, None);
    assert!(
        secrets
            .get("exchange", SecretItem::ApiKey)
            .unwrap()
            .is_none()
    );
}

fn payment_to(destination: &str, save_as: &str) -> PayArgs {
    let kari = RecipientForm {
        full_name: "Kari Nordmann".into(),
        country: "NO".into(),
        address: "Storgata 1, 0155 Oslo".into(),
        nin: "01017012345".into(),
        ..RecipientForm::default()
    };
    let mut args = app_driver::payment(destination, 1000, BitcoinAmountUnit::Sats, kari);
    args.save_recipient = true;
    args.label = save_as.into();
    args
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
    let (app, dir) = app_with(keyring.clone());
    let args = payment_to("kari@example.com", "Kari");
    let sent = app_driver::pay_form(&app, args).await.unwrap();
    assert_eq!(sent.payment.entry.state, WithdrawalState::Sent, "{sent:?}");
    let book = pay::recipients(&app, NoArgs {}).await.unwrap();
    let details = book.recipients[0].details.as_ref();
    assert_eq!(
        details.map(|d| d.nin.as_str()),
        Some("01017012345"),
        "{book:?}"
    );
    drop(app);
    let bytes = store_bytes(dir.path());
    assert!(
        !bytes.contains("kari@example.com")
            && !bytes.contains("01017012345")
            && !bytes.contains("Storgata"),
        "neither the recipient nor their details are readable in the file"
    );
    // A second one, saved but never paid: the exchange does not know its recipient yet.
    {
        let path = dir.path().join("profiles/sandbox/nordlys.sqlite");
        let store = nordlys_core::store::profile_store::open(&*keyring, "sandbox", &path).unwrap();
        store
            .recipients()
            .unlock(RecipientSeal::for_profile(&*keyring, "sandbox").unwrap())
            .unwrap();
        store
            .recipients()
            .save(&Recipient {
                identity: "ola@example.com".into(),
                destination: "ola@example.com".into(),
                label: "Ola".into(),
                details: nordlys_core::store::Sealed::Open(
                    nordlys_core::recipient_seal::RecipientDetails {
                        full_name: "Ola Nordmann".into(),
                        country: "NO".into(),
                        address: "Kirkegata 2, 0153 Oslo".into(),
                        ..Default::default()
                    },
                ),
                ..Recipient::default()
            })
            .unwrap();
    }

    // Restarted with the keyring locked since the store opened: labels only, marked locked; Pay
    // asks again.
    let app = app_in(dir.path(), Arc::new(SealLocked(keyring.clone())));
    let book = pay::recipients(&app, NoArgs {}).await.unwrap();
    let shown = &book.recipients;
    assert_eq!(shown.len(), 2, "{book:?}");
    for r in shown {
        assert!(r.details.is_none(), "locked: {r:?}");
        assert!(r.label == "Kari" || r.label == "Ola", "{r:?}");
    }
    let mut to_ola = payment_to("ola@example.com", "Ola");
    to_ola.recipient = RecipientForm::default();
    let check = pay::check_payment(&app, to_ola).await.unwrap();
    assert!(check.check.needs_recipient, "{check:?}");
    assert!(check.check.saved_recipient.is_none(), "{check:?}");
    let edit = SaveRecipientArgs {
        identity: shown[0].identity.clone(),
        destination: shown[0].destination.clone(),
        label: shown[0].label.clone(),
        details: nordlys_core::recipient_seal::RecipientDetails {
            full_name: "Kari Nordmann".into(),
            country: "NO".into(),
            address: "Storgata 1, 0155 Oslo".into(),
            ..Default::default()
        },
    };
    let refused = pay::save_recipient(&app, edit).await.unwrap_err();
    assert!(refused.says(key::SECRET_KEYRING_LOCKED), "{refused:?}");
    drop(app);

    // Unlocked again: every detail is back.
    let app = app_in(dir.path(), keyring);
    let book = pay::recipients(&app, NoArgs {}).await.unwrap();
    let names: Vec<&str> = book
        .recipients
        .iter()
        .filter_map(|r| r.details.as_ref())
        .map(|d| d.full_name.as_str())
        .collect();
    assert!(
        names.contains(&"Kari Nordmann") && names.contains(&"Ola Nordmann"),
        "{book:?}"
    );
    // An edit cannot move a recipient's identity to another destination.
    let kari = book
        .recipients
        .iter()
        .find(|r| r.identity == "kari@example.com")
        .unwrap();
    let moved = SaveRecipientArgs {
        identity: kari.identity.clone(),
        destination: "mallory@example.com".into(),
        label: kari.label.clone(),
        details: kari.details.clone().unwrap(),
    };
    let refused = pay::save_recipient(&app, moved).await.unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidInput, "{refused:?}");
    let book = pay::recipients(&app, NoArgs {}).await.unwrap();
    assert!(
        book.recipients
            .iter()
            .all(|r| r.destination != "mallory@example.com"),
        "{book:?}"
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
    let (app, dir) = connected_app(&sb, None).await;
    let buy = |amount: u32| order(Direction::Buy, amount, None);
    let placed = app_driver::place_form(&app, buy(500), false).await.unwrap();
    assert_eq!(placed.outcome(), OrderOutcome::Placed, "{placed:?}");
    // The CLI, pointed at this profile's directory, uses <dir>/nonces/<fingerprint of the key>.
    let key = &sb.info.api_keys.withdrawal.key;
    let file = dir
        .path()
        .join("profiles/exchange/nonces")
        .join(nordlys_exchange::credentials::key_fingerprint(key));
    // The CLI has just signed with a clock an hour ahead of this one.
    let ahead = nonce_in(&file) + 3_600_000;
    std::fs::write(&file, format!("{ahead:020}\n")).unwrap();
    let placed = app_driver::place_form(&app, buy(600), false).await.unwrap();
    assert_eq!(placed.outcome(), OrderOutcome::Placed, "{placed:?}");
    assert!(
        nonce_in(&file) > ahead,
        "the app signed above what the CLI left in the shared file"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_timeout_is_a_setting_within_its_range() {
    let (app, dir) = app_with(Arc::new(MemorySecretStore::default()));
    let timeout = |seconds: Option<u32>| SetRequestTimeoutArgs { seconds };
    let viewer = app.viewer();
    let state = profiles::app_state(&app, NoArgs {})
        .await
        .unwrap()
        .present(&viewer);
    assert_eq!(state.request_timeout_secs, 30);
    assert!(state.welcome, "a first start on the sandbox is welcomed");
    let state = profiles::dismiss_welcome(&app, NoArgs {})
        .await
        .unwrap()
        .present(&viewer);
    assert!(!state.welcome, "put away");
    let saved = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    assert!(saved.contains(r#""welcomed": true"#), "for good: {saved}");
    for refused in [0, 4, 121, 100_000] {
        let said = profiles::set_request_timeout(&app, timeout(Some(refused)))
            .await
            .unwrap_err();
        assert!(said.says(key::REQUEST_TIMEOUT_RANGE), "{refused}: {said:?}");
    }
    let set = profiles::set_request_timeout(&app, timeout(Some(90)))
        .await
        .unwrap();
    assert_eq!(set.settings.request_timeout_secs(), 90);
    let saved = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    assert!(saved.contains("90"), "{saved}");
    // Still connected: the session opens again with it.
    profiles::balances(&app, NoArgs {}).await.unwrap();
    let back = profiles::set_request_timeout(&app, timeout(None))
        .await
        .unwrap();
    assert_eq!(back.settings.request_timeout_secs(), 30);
}

/// A figure as privacy mode writes it: its unit beside a mask, and not one digit of it.
fn hidden_figure(figure: &str) -> bool {
    figure.contains(nordlys_core::format::MASK) && !figure.chars().any(|c| c.is_ascii_digit())
}

/// A shown figure of any unit, as a test reads it: its words, and whether an amount is behind.
trait Figure {
    fn words(&self) -> String;
    fn has_exact(&self) -> bool;
}

macro_rules! figure {
    ($($t:ty),*) => {$(
        impl Figure for $t {
            fn words(&self) -> String {
                self.text().to_owned()
            }
            fn has_exact(&self) -> bool {
                self.exact().is_some()
            }
        }
    )*};
}
use nordlys_application::shown::{ShownAmount, ShownBtc, ShownNok, ShownPrice};
figure!(ShownBtc, ShownNok, ShownPrice, ShownAmount);

/// Hidden: a mask for words, and no amount behind them.
fn is_hidden(f: &dyn Figure) -> bool {
    hidden_figure(&f.words()) && !f.has_exact()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn privacy_mode_hides_every_amount_the_views_carry_and_outlives_a_restart() {
    use nordlys_application::profile_views::{SetPrivacyArgs, SetStartHiddenArgs};
    use nordlys_application::tax_views::GainsArgs;
    use nordlys_application::trade_views::QuoteArgs;
    use nordlys_application::{market, tax};

    let secrets: Arc<dyn SecretStore> = Arc::new(MemorySecretStore::default());
    let (app, dir) = app_with(secrets.clone());
    tax_synced(&app).await;
    let on = profiles::set_privacy(&app, SetPrivacyArgs { hidden: true })
        .await
        .unwrap();
    assert!(on.settings.privacy);

    let b = profiles::balances(&app, NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    // Every figure's words are a mask, and no exact amount leaves the backend.
    let mut figures: Vec<Box<dyn Figure>> =
        vec![Box::new(b.total_btc.clone()), Box::new(b.total_nok.clone())];
    figures.extend(b.fiat.clone().map(|f| Box::new(f) as Box<dyn Figure>));
    figures.extend(b.price.clone().map(|f| Box::new(f) as Box<dyn Figure>));
    for a in &b.accounts {
        figures.push(Box::new(a.total_btc.clone()));
        figures.push(Box::new(a.available_btc.clone()));
        figures.push(Box::new(a.total_nok.clone()));
    }
    let q = trading::quote(&app, QuoteArgs { amount_nok: None })
        .await
        .unwrap()
        .present(&app.viewer());
    for p in [q.price, q.bid, q.ask, q.bank_buy, q.card_sell] {
        figures.push(Box::new(p));
    }
    let v = market::volume(&app, NoArgs {})
        .await
        .unwrap()
        .present(&app.viewer());
    figures.push(Box::new(v.daily.amount_nok));
    figures.push(Box::new(v.daily.amount_btc));
    let rows = tax_rows(&app, 0, 200).await.rows;
    assert!(!rows.is_empty(), "the sandbox has a history to hide");
    for r in rows {
        // A bank row has no account, so no account balance after it.
        figures.extend(r.running_balance.map(|f| Box::new(f) as Box<dyn Figure>));
        figures.extend(r.btc.map(|f| Box::new(f) as Box<dyn Figure>));
        figures.extend(r.nok.map(|f| Box::new(f) as Box<dyn Figure>));
        figures.extend(r.fee.map(|f| Box::new(f) as Box<dyn Figure>));
        figures.extend(r.rate.map(|f| Box::new(f) as Box<dyn Figure>));
    }
    let gains = tax::gains_report(
        &app,
        GainsArgs {
            method: nordlys_core::tax::gains::Method::Fifo,
        },
    )
    .await
    .unwrap()
    .present(&app.viewer());
    // A year or disposal that is not computable says so in words (and how many disposals), with
    // no amount to hide.
    for y in gains.years.iter().filter(|y| y.not_computable.is_none()) {
        figures.push(Box::new(y.proceeds.clone()));
        figures.push(Box::new(y.cost.clone()));
        figures.push(Box::new(y.net.clone()));
    }
    let mut results = Vec::new();
    for d in &gains.disposals {
        figures.push(Box::new(d.btc.clone()));
        figures.push(Box::new(d.proceeds.clone()));
        if d.result.contains(nordlys_core::format::MASK)
            || d.result.chars().any(|c| c.is_ascii_digit())
        {
            results.push(d.result.clone());
        }
    }
    let shown: Vec<_> = figures
        .iter()
        .filter(|f| !is_hidden(f.as_ref()))
        .map(|f| f.words())
        .chain(results.into_iter().filter(|r| !hidden_figure(r)))
        .collect();
    assert!(shown.is_empty(), "amounts shown in privacy mode: {shown:?}");

    // Remembered across a restart; then shown again, and hidden at every start when asked.
    drop(app);
    let again = app_in(dir.path(), secrets.clone());
    let state = profiles::app_state(&again, NoArgs {}).await.unwrap();
    assert!(state.settings.privacy, "privacy mode is remembered");
    profiles::set_privacy(&again, SetPrivacyArgs { hidden: false })
        .await
        .unwrap();
    let b = profiles::balances(&again, NoArgs {})
        .await
        .unwrap()
        .present(&again.viewer());
    assert!(
        !is_hidden(&b.total_btc) && b.fiat.as_ref().is_some_and(|f| f.exact().is_some()),
        "{b:?}"
    );
    profiles::set_start_hidden(&again, SetStartHiddenArgs { start_hidden: true })
        .await
        .unwrap();
    drop(again);
    let third = app_in(dir.path(), secrets);
    let state = profiles::app_state(&third, NoArgs {}).await.unwrap();
    assert!(
        state.settings.privacy && state.settings.start_hidden,
        "{state:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_price_chart_starts_from_daily_prices_and_its_readout_names_each_point() {
    use nordlys_application::market;
    use nordlys_application::profile_views::SetPrivacyArgs;
    use nordlys_application::trade_views::PriceChartArgs;
    use nordlys_application::vocabulary::ChartRange;

    let (app, _dir) = app_with(Arc::new(MemorySecretStore::default()));
    let chart = |range| {
        let app = &app;
        async move {
            let args = PriceChartArgs {
                range,
                width: 800,
                height: 260,
                dark: false,
            };
            market::price_chart(app, args)
                .await?
                .presented(&app.viewer())
        }
    };
    // A first start has no sample of its own: the hour is still collecting.
    // A label as the chart writes it: the catalog's words up to any apostrophe (escaped in SVG).
    let label = |k| {
        let words = nordlys_application::wording::say(k, nordlys_core::format::Locale::En);
        words.split('\'').next().unwrap_or_default().to_owned()
    };
    let collecting = label(key::CHART_COLLECTING);
    let hour = chart(ChartRange::Hour).await.unwrap();
    assert!(hour.svg.contains(&collecting), "{}", &hour.svg[..200]);
    assert!(hour.readout.is_empty());
    let month = chart(ChartRange::Month).await.unwrap();
    assert!(
        month.daily >= 2,
        "days from the exchange's volume: {}",
        month.daily
    );
    assert!(!month.svg.contains(&collecting));
    assert!(
        month.svg.contains(&label(key::CHART_DAILY)),
        "labelled as such"
    );
    assert!(month.readout.len() >= 2);
    assert!(
        month
            .readout
            .iter()
            .all(|p| p.price.text().starts_with("NOK") && p.price.exact().is_some()),
        "{:?}",
        month.readout
    );
    assert!(0.0 < month.plot_left && month.plot_left < month.plot_right && month.plot_right < 1.0);
    // The week is the month's last days, read from the same kept year.
    let week = chart(ChartRange::Week).await.unwrap();
    assert!(
        1 <= week.daily && week.daily <= 8 && week.daily < month.daily,
        "{} {}",
        week.daily,
        month.daily
    );
    profiles::set_privacy(&app, SetPrivacyArgs { hidden: true })
        .await
        .unwrap();
    let hidden = chart(ChartRange::Month).await.unwrap();
    assert!(
        hidden.readout.iter().all(|p| is_hidden(&p.price)),
        "the readout hides its prices: {:?}",
        hidden.readout
    );
}

/// A damaged settings file is kept aside and said in the user's language: the notice was built
/// in English inside `App::new`, whatever the language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damaged_settings_are_kept_aside_and_said_in_the_users_language() {
    use nordlys_application::profile_views::SetLanguageArgs;
    use nordlys_core::format::Locale;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("settings.json"), b"{ not json").unwrap();
    let app = app_in(
        dir.path(),
        Arc::new(nordlys_core::platform::secrets::MemorySecretStore::default()),
    );
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("settings.json.damaged-"))
        .collect();
    assert_eq!(kept.len(), 1, "the damaged file is kept aside");
    let say = |language| {
        let app = app.clone();
        async move {
            profiles::set_language(
                &app,
                SetLanguageArgs {
                    language: Some(language),
                },
            )
            .await
            .unwrap()
            .present(&app.viewer())
            .notice
            .unwrap_or_default()
        }
    };
    let en = say(Locale::En).await;
    let nb = say(Locale::Nb).await;
    assert!(
        en.contains(&kept[0]) && nb.contains(&kept[0]),
        "{en} / {nb}"
    );
    let notice = profiles::app_state(&app, NoArgs {}).await.unwrap().notice;
    assert!(
        matches!(&notice, Some(nordlys_application::state::AppNotice::SettingsSetAside { aside, .. })
            if aside.to_string_lossy().contains(&kept[0])),
        "{notice:?}"
    );
    let worded = |l| nordlys_application::wording::notice(notice.as_ref().unwrap(), l);
    assert_eq!(
        (en.as_str(), nb.as_str()),
        (worded(Locale::En).as_str(), worded(Locale::Nb).as_str())
    );
    assert_ne!(en, nb);
}
