#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! Every record bound to the accounts it was made for, with two users of one exchange (the
//! sandbox's second user has accounts and keys of its own): a tax history is never read from
//! another user's accounts, and a plan never runs with another user's key.

mod app_driver;

use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use nordlys_core::plans::PlanForm;
use nordlys_core::store::Store;
use nordlys_core::tax::sync::{SyncCancel, SyncError, sync};
use nordlys_exchange::ExchangeClient;
use nordlys_sandbox::KeyInfo;
use nordlys_tests::*;

async fn synced(client: &ExchangeClient, store: &Arc<Store>) -> Result<(), SyncError> {
    sync(client, Arc::clone(store), &SyncCancel::default(), |_| {})
        .await
        .map(drop)
}

fn account_ids_of_rows(store: &Store) -> std::collections::BTreeSet<String> {
    store
        .tax()
        .accounts()
        .unwrap()
        .into_iter()
        .map(|a| a.id)
        .collect()
}

#[tokio::test]
async fn a_tax_history_is_one_users_and_another_starts_afresh_beside_it() {
    let sb = sandbox().await;
    let store = Arc::new(Store::in_memory().unwrap());
    let first = key_client(&sb, &sb.info.api_keys.read);
    synced(&first, &store).await.unwrap();
    let histories = store.tax().tax_histories().unwrap();
    let rows = histories[0].rows;
    assert!(rows > 0, "the seeded history was read");

    let second = key_client(&sb, &sb.info.second_user.api_keys.read);
    let refused = synced(&second, &store).await.unwrap_err();
    let SyncError::OtherAccounts { history, here } = &refused else {
        panic!("{refused:?}")
    };
    assert!(!history.is_empty() && !here.is_empty());
    assert!(history.iter().all(|id| !here.contains(id)));
    assert_eq!(
        store.tax().tax_histories().unwrap()[0].rows,
        rows,
        "nothing was added"
    );

    // Another key of the first user's accounts adds to their history.
    synced(&key_client(&sb, &sb.info.api_keys.trading), &store)
        .await
        .unwrap();

    store.tax().set_tax_history_aside(Utc::now()).unwrap();
    synced(&second, &store).await.unwrap();
    let histories = store.tax().tax_histories().unwrap();
    assert_eq!(histories.len(), 2);
    assert_ne!(histories[0].identity, histories[1].identity);
    assert_eq!(histories[1].rows, rows, "the first history is kept whole");
    assert!(histories[0].rows > 0);
    let ids = store
        .identities()
        .accounts_of(histories[0].identity.unwrap())
        .unwrap();
    assert!(
        account_ids_of_rows(&store).iter().all(|a| ids.contains(a)),
        "the history in use is the second user's alone"
    );
}

fn cli_binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(std::path::Path::parent).unwrap();
    dir.join("nordlys-cli")
}

/// `plans run-due` at `now`, off the runtime that serves the sandbox.
async fn run_due(
    sb: &nordlys_sandbox::RunningSandbox,
    key: &KeyInfo,
    state: &std::path::Path,
    now: DateTime<Utc>,
) -> std::process::Output {
    let mut c = std::process::Command::new(cli_binary());
    c.args(["plans", "run-due", "--now", &now.to_rfc3339()])
        .env("NORDLYS_BASE_URL", sb.base_url())
        .env("NORDLYS_API_KEY", &key.key)
        .env("NORDLYS_API_SECRET", &key.secret)
        .env("NORDLYS_STATE_DIR", state);
    tokio::task::spawn_blocking(move || c.output())
        .await
        .unwrap()
        .unwrap()
}

async fn orders_created(sb: &nordlys_sandbox::RunningSandbox) -> u64 {
    control_get(sb, "/sandbox/counters").await["ordersCreated"]
        .as_u64()
        .unwrap()
}

/// The review's third scenario: a profile's plans, with the CLI pointed at its directory and
/// logged in to another user's account, are skipped and said, not run with that user's money.
#[tokio::test]
async fn a_plan_runs_only_with_a_key_of_the_accounts_it_was_made_for() {
    let sb = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("nordlys.sqlite")).unwrap();
    let owner = key_client(&sb, &sb.info.api_keys.trading);
    let learned = nordlys_core::account_identity::learn(&owner, &store)
        .await
        .unwrap();
    let plan = PlanForm {
        buy_nok: "100".into(),
        every: "day".into(),
        at: "07:00".into(),
        ..PlanForm::default()
    }
    .parse()
    .unwrap();
    let made = Utc.with_ymd_and_hms(2030, 3, 1, 12, 0, 0).unwrap();
    let id = store.plans().add(&plan, learned.identity, made).unwrap();
    drop(store);
    let morning = Utc.with_ymd_and_hms(2030, 3, 2, 6, 30, 0).unwrap();

    let elsewhere = run_due(
        &sb,
        &sb.info.second_user.api_keys.trading,
        dir.path(),
        morning,
    )
    .await;
    let stderr = String::from_utf8_lossy(&elsewhere.stderr);
    assert_eq!(elsewhere.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains(&format!("plan {id}: skipped")), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&elsewhere.stdout).trim(), "[]");
    assert_eq!(orders_created(&sb).await, 0);

    let own = run_due(&sb, &sb.info.api_keys.withdrawal, dir.path(), morning).await;
    assert_eq!(
        own.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&own.stderr)
    );
    assert_eq!(
        orders_created(&sb).await,
        1,
        "{}",
        String::from_utf8_lossy(&own.stdout)
    );
    let listed = std::process::Command::new(cli_binary())
        .args(["plans", "list"])
        .env("NORDLYS_STATE_DIR", dir.path())
        .output()
        .unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let ids: Vec<String> = listed[0]["accountIds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let expected: Vec<String> = learned.accounts.iter().map(|a| a.id.clone()).collect();
    let mut expected = expected;
    expected.sort();
    assert_eq!(ids, expected);

    // Another exchange, with other accounts: its CLI refuses this directory outright.
    let elsewhere = sandbox_with(nordlys_sandbox::SandboxConfig {
        seed: 99,
        ..nordlys_sandbox::SandboxConfig::default()
    })
    .await;
    let refused = run_due(
        &elsewhere,
        &elsewhere.info.api_keys.trading,
        dir.path(),
        morning,
    )
    .await;
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("state directory"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    assert_eq!(orders_created(&elsewhere).await, 0);
}

/// In the app: a second user's key entered over a profile with an unknown order and a synced
/// history. Entering it says so; the tax sync is refused as another's history, then set aside
/// and started afresh; Settings lists both identities and both histories.
#[tokio::test]
async fn a_key_of_other_accounts_in_the_app_is_told_and_never_mixes_their_records() {
    use app_driver::*;
    use nordlys_application::error::ErrorCode;
    use nordlys_application::present::Present;
    use nordlys_application::profile_views::SetApiKeyArgs;
    use nordlys_application::vocabulary::{Direction, SyncState};
    use nordlys_application::{NoArgs, account_identities, profiles, tax};

    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, Some((chrono::Duration::seconds(1), 2))).await;
    tax_synced(&app).await;
    sb.state.add_fault(nordlys_sandbox::FaultRule {
        path: "/v1/orders".into(),
        method: Some("POST".into()),
        kind: nordlys_sandbox::FaultKind::Http500,
        count: Some(1),
        percent: None,
        delay_ms: 0,
    });
    assert_eq!(
        place(&app, order(Direction::Buy, 333, None)).await,
        Ended::UnknownForNow
    );

    let other = &sb.info.second_user.api_keys.withdrawal;
    let view = profiles::set_api_key(
        &app,
        SetApiKeyArgs {
            key: other.key.clone(),
            secret: other.secret.clone(),
            may_trade: None,
            may_withdraw: None,
        },
    )
    .await
    .unwrap();
    assert!(view.notice.is_some(), "the unknown order is told");

    tax::start_tax_sync(&app, NoArgs {}).await.unwrap();
    let refused = loop {
        let s = tax::tax_sync_status(&app, NoArgs {}).await.unwrap();
        if s.state != SyncState::Running {
            break s;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(
        refused.failure.map(|(code, _)| code),
        Some(ErrorCode::OtherAccounts)
    );

    account_identities::set_tax_history_aside(&app, NoArgs {})
        .await
        .unwrap();
    tax_synced(&app).await;
    let listed = account_identities::account_identities(&app, NoArgs {})
        .await
        .unwrap();
    assert_eq!(listed.identities.len(), 2);
    assert_eq!(listed.identities.iter().filter(|i| i.current).count(), 1);
    assert_eq!(listed.histories.len(), 2);
    let in_use = |h: &nordlys_core::store::TaxHistory| h.aside.is_none();
    assert!(in_use(&listed.histories[0].0) && !in_use(&listed.histories[1].0));
    assert!(listed.histories.iter().all(|(h, _)| h.rows > 0));
    // The window keys both lists by what the views carry: one key each.
    let shown = listed.present(&app.viewer());
    let ids: std::collections::HashSet<i64> = shown.identities.iter().map(|i| i.id).collect();
    assert_eq!(ids.len(), 2, "{shown:?}");
    let keys: std::collections::HashSet<Option<i64>> =
        shown.tax_histories.iter().map(|h| h.aside).collect();
    assert_eq!(keys.len(), 2, "{shown:?}");
}

/// An invoice belongs to the accounts it was made for: under another user's key it is neither
/// listed on Receive nor asked about by the watcher (the exchange would not show it), and it is
/// back when the owner's key is.
#[tokio::test]
async fn an_invoice_is_listed_and_followed_only_under_its_own_accounts_key() {
    use app_driver::*;
    use nordlys_application::profile_views::SetApiKeyArgs;
    use nordlys_application::receive_views::InvoiceArgs;
    use nordlys_application::{NoArgs, profiles, receive, watcher};
    use nordlys_core::amount_input::BitcoinAmountUnit;

    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let made = receive::create_invoice(
        &app,
        InvoiceArgs {
            account_id: None,
            amount: "0.0001".into(),
            unit: BitcoinAmountUnit::Btc,
            public_description: "kaffe".into(),
            private_note: String::new(),
        },
    )
    .await
    .unwrap();
    let listed = |app| async move {
        receive::recent_invoices(app, NoArgs {})
            .await
            .unwrap()
            .0
            .into_iter()
            .map(|i| i.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(listed(&app).await, std::slice::from_ref(&made.stored.id));

    let enter = |k: &nordlys_sandbox::KeyInfo| SetApiKeyArgs {
        key: k.key.clone(),
        secret: k.secret.clone(),
        may_trade: None,
        may_withdraw: None,
    };
    profiles::set_api_key(&app, enter(&sb.info.second_user.api_keys.withdrawal))
        .await
        .unwrap();
    assert!(
        listed(&app).await.is_empty(),
        "not the second user's invoice"
    );
    // Were it asked about, this would end the watcher's look.
    sb.state.add_fault(nordlys_sandbox::FaultRule {
        path: format!(
            "/v1/deposit-destinations/bitcoin/invoice/{}",
            made.stored.id
        ),
        method: None,
        kind: nordlys_sandbox::FaultKind::Http500,
        count: None,
        percent: None,
        delay_ms: 0,
    });
    watcher::look(&app).await.unwrap();

    sb.state.clear_faults();
    profiles::set_api_key(&app, enter(&sb.info.api_keys.withdrawal))
        .await
        .unwrap();
    assert_eq!(listed(&app).await, [made.stored.id]);
}
