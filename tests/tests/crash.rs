#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "a crash test: a failed step is the failure being reported, and its figures are printed"
)]
//! A dying process loses nothing: the app (`nordlys-crash-driver`, its own use cases with the
//! profile's store on disk) is killed with SIGKILL at random moments while it syncs the tax
//! history, places orders and sends payments against a sandbox in its own process
//! (`nordlys-sandbox --state FILE`), and started again each time. After every kill:
//! - the settings file reads and the store opens;
//! - every order or withdrawal the sandbox made carries exactly one journal reference, found in
//!   exactly one journal entry, which is `sending`, `unknown`, `placed` or `sent` (never "not
//!   made"); every `placed`/`sent` entry is one the sandbox made;
//! - every stored tax row is one the sandbox lists, none twice.
//!
//! A last life, not killed, waits out the quiet period, looks at every unknown entry and syncs to
//! the end: then every entry has been looked at since the restart, every verdict is right (one the
//! evidence cannot support yet stays unknown, as the rules of "Money that cannot be lost" say),
//! and every row the sandbox listed before that life is stored.
//!
//! The sandbox changes its reading of `runningBalanceBtc` (the user's total, or the row's
//! account's) and of where a buy's fee is with every life, so one history holds both. Every
//! fifth life, once the history is the user's, runs with the key of the sandbox's second user:
//! its orders and payments are judged only with that user's key, so the last life (the first
//! user's) leaves those it could not judge unknown, and says nothing wrong of them.
//!
//! `NORDLYS_CRASH_KILLS` (50 in CI; `scripts/crash-test` runs 200) and `NORDLYS_CRASH_SEED`.

use std::collections::{HashMap, HashSet};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nordlys_core::platform::secrets::FileSecretStore;
use nordlys_core::platform::settings::Settings;
use nordlys_core::store::profile_store;
use nordlys_core::store::{JournalState, Store, WithdrawalState};
use nordlys_exchange::{BaseUrl, ClientConfig, Credentials, ExchangeClient, TaxQuery};
use nordlys_sandbox::world::rng::Rng;
use serde_json::Value;

/// A binary of this workspace beside the test's own (`target/<profile>/`).
fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps");
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is missing: build it first (cargo build -p nordlys-sandbox)",
        path.display()
    );
    path
}

/// The sandbox in its own process, with its world kept in a file; stopped when dropped.
struct SandboxProcess {
    child: Child,
    info: Value,
}

impl SandboxProcess {
    fn start(state: &Path) -> Self {
        let mut child = Command::new(workspace_binary("nordlys-sandbox"))
            .args(["--seed", "7", "--state"])
            .arg(state)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the sandbox starts");
        let stdout = child.stdout.take().expect("its stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("its first line");
        let info = serde_json::from_str(&line).expect("its startup JSON");
        Self { child, info }
    }

    fn text(&self, pointer: &str) -> String {
        self.info
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{pointer} in {}", self.info))
            .to_owned()
    }

    fn base_url(&self) -> String {
        self.text("/baseUrl")
    }

    /// Changes how the sandbox reads what the specification leaves open.
    async fn set_readings(&self, readings: Value) {
        let answer = reqwest::Client::new()
            .post(format!("{}/sandbox/readings", self.base_url()))
            .header("x-sandbox-token", self.text("/controlToken"))
            .json(&readings)
            .send()
            .await
            .expect("the sandbox answers");
        assert!(answer.status().is_success(), "readings {readings}");
    }

    async fn made(&self) -> Value {
        reqwest::Client::new()
            .get(format!("{}/sandbox/made", self.base_url()))
            .header("x-sandbox-token", self.text("/controlToken"))
            .send()
            .await
            .expect("the sandbox answers")
            .json()
            .await
            .expect("its JSON")
    }

    /// Every tax row the sandbox lists: its id, when it was created, and what it is for a
    /// message.
    async fn tax_rows(&self) -> Vec<(String, (chrono::DateTime<chrono::Utc>, String))> {
        let info = nordlys_sandbox::KeyInfo {
            key: self.text("/apiKeys/read/key"),
            secret: self.text("/apiKeys/read/secret"),
        };
        let mut config = ClientConfig::new(BaseUrl::parse(&self.base_url()).expect("its URL"));
        config.credentials = Credentials {
            key: Some(nordlys_tests::key(&info)),
            bearer: None,
        };
        let client = ExchangeClient::new(config).expect("a client");
        let mut ids = vec![];
        let mut query = Some(TaxQuery::new(200));
        while let Some(q) = query {
            let page = client.tax_transactions(&q).await.expect("a page");
            ids.extend(page.transactions.iter().map(|t| {
                let what = format!(
                    "{:?} created {} final {:?}",
                    t.tx_type, t.create_time, t.finalize_time
                );
                (t.id.as_str().to_owned(), (t.create_time, what))
            }));
            query = q.next_page(&page).expect("the next page");
        }
        ids
    }
}

impl Drop for SandboxProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the journal says of one entry: made (`Some(true)`), not made, or not known yet.
struct Entry {
    id: i64,
    reference: String,
    verdict: Option<bool>,
    what: String,
}

fn journal(store: &Store) -> Vec<Entry> {
    let orders = store.orders().recent(1_000_000).expect("the order journal");
    let payments = store
        .withdrawals()
        .recent(1_000_000)
        .expect("the payment journal");
    let orders = orders.into_iter().map(|e| Entry {
        id: e.id,
        verdict: match e.state {
            JournalState::Placed => Some(true),
            JournalState::NotPlaced | JournalState::Rejected => Some(false),
            JournalState::Unknown | JournalState::Sending => None,
        },
        what: format!("order entry {} {} ({})", e.id, e.state.text(), e.note),
        reference: e.reference,
    });
    let payments = payments.into_iter().map(|e| Entry {
        id: e.id,
        verdict: match e.state {
            WithdrawalState::Sent => Some(true),
            WithdrawalState::NotSent | WithdrawalState::Rejected => Some(false),
            WithdrawalState::Unknown | WithdrawalState::Sending => None,
        },
        what: format!("payment entry {} {} ({})", e.id, e.state.text(), e.note),
        reference: e.reference,
    });
    orders.chain(payments).collect()
}

#[derive(Debug, Default)]
struct Figures {
    entries: usize,
    made: usize,
    open: usize,
    rows: usize,
    /// Made but in no journal entry; listed but not stored after the last sync.
    lost: usize,
    /// Made twice, journaled twice, stored twice.
    doubled: usize,
    /// A wrong verdict, a row stored that the sandbox does not list, a damaged file, an entry
    /// left unknown that the rules should have settled.
    wrong: usize,
    /// Each of the above, said.
    said: Vec<String>,
}

impl Figures {
    fn lost(&mut self, what: String) {
        self.lost += 1;
        self.said.push(what);
    }

    fn doubled(&mut self, what: String) {
        self.doubled += 1;
        self.said.push(what);
    }

    fn wrong(&mut self, what: String) {
        self.wrong += 1;
        self.said.push(what);
    }
}

/// Holds the store and settings on disk against what the sandbox made and lists.
/// `synced_from`: the last life's start; every row created before it must be stored after its
/// complete sync (pending withdrawals complete on their own, and their rows may come later).
async fn judge(
    sandbox: &SandboxProcess,
    data: &Path,
    synced_from: Option<chrono::DateTime<chrono::Utc>>,
) -> Figures {
    let mut figures = Figures::default();
    if let Err(e) = Settings::load(&data.join("settings.json")) {
        figures.wrong(format!("settings: {e}"));
    }
    let store_path = data.join("profiles/exchange/nordlys.sqlite");
    if !store_path.exists() {
        // Killed before the profile's store was first opened.
        return figures;
    }
    let keyring = FileSecretStore::new(data.join("keyring"));
    let store = match profile_store::open(&keyring, "exchange", &store_path) {
        Ok(s) => s,
        Err(e) => {
            figures.wrong(format!("the store does not open: {e}"));
            return figures;
        }
    };
    let made = sandbox.made().await;
    let mut made_refs: HashMap<String, usize> = HashMap::new();
    for kind in ["orders", "withdrawals"] {
        for m in made[kind].as_array().expect("a list") {
            figures.made += 1;
            let description = m["description"].as_str().unwrap_or_default();
            match nordlys_tests::reference(description) {
                Some(r) => *made_refs.entry(r.to_owned()).or_default() += 1,
                None => figures.lost(format!("{kind} {} made without a journal entry", m["id"])),
            }
        }
    }
    for (r, n) in &made_refs {
        if *n > 1 {
            figures.doubled(format!("{r} made {n} times"));
        }
    }
    let entries = journal(&store);
    figures.entries = entries.len();
    let owner = history_owner(data);
    let db = nordlys_tests::keyed_connection(&store_path, &keyring, "exchange")
        .expect("the store, read on its own");
    let mut journaled: HashMap<&str, usize> = HashMap::new();
    for e in &entries {
        *journaled.entry(&e.reference).or_default() += 1;
        let was_made = made_refs.contains_key(&e.reference);
        match e.verdict {
            Some(true) if !was_made => figures.wrong(format!("{}: said made, never made", e.what)),
            Some(false) if was_made => {
                figures.wrong(format!("{}: said not made, was made", e.what));
            }
            None => {
                figures.open += 1;
                // Left unknown only where the rules say the evidence cannot tell yet, and only
                // once the last life has looked.
                let looked = store
                    .journal()
                    .evidence(e.id)
                    .unwrap_or_default()
                    .iter()
                    .map(|seen| seen.at)
                    .max();
                // One made under the other user's key is never judged with this one's.
                let elsewhere = entry_identity(&db, &e.reference)
                    .is_some_and(|made_for| Some(made_for) != owner);
                if let Some(from) = synced_from
                    && !elsewhere
                    && looked.is_none_or(|at| at < from)
                {
                    figures.wrong(format!("{} was not looked at after the restart", e.what));
                }
            }
            _ => {}
        }
    }
    for r in made_refs.keys() {
        match journaled.get(r.as_str()) {
            None => figures.lost(format!("{r} was made but is in no journal entry")),
            Some(n) if *n > 1 => figures.doubled(format!("{r} is in {n} journal entries")),
            _ => {}
        }
    }
    let stored: Vec<String> = db
        .prepare("SELECT id FROM tax_transactions")
        .and_then(|mut q| q.query_map([], |r| r.get(0))?.collect())
        .expect("the stored tax rows");
    figures.rows = stored.len();
    let listed: HashMap<_, _> = sandbox.tax_rows().await.into_iter().collect();
    let distinct: HashSet<&String> = stored.iter().collect();
    if distinct.len() != stored.len() {
        figures.doubled(format!(
            "{} tax rows stored twice",
            stored.len() - distinct.len()
        ));
    }
    for id in &stored {
        if !listed.contains_key(id) {
            figures.wrong(format!(
                "tax row {id} is stored but the sandbox does not list it"
            ));
        }
    }
    if let Some(from) = synced_from {
        let before = listed.iter().filter(|(_, (created, _))| *created < from);
        for (id, (_, what)) in before.filter(|(id, _)| !distinct.contains(id)) {
            figures.lost(format!(
                "tax row {id} ({what}) is listed but not stored after the last sync"
            ));
        }
    }
    figures
}

/// The tax history's owner: the identity of the accounts it was read from, once a sync stored it.
fn history_owner(data: &Path) -> Option<i64> {
    let keyring = FileSecretStore::new(data.join("keyring"));
    let path = data.join("profiles/exchange/nordlys.sqlite");
    let db = nordlys_tests::keyed_connection(&path, &keyring, "exchange")?;
    db.query_row("SELECT identity_id FROM tax_owner", [], |r| r.get(0))
        .ok()
}

/// The identity a journal entry was made under (`None`: not learned when it was made).
fn entry_identity(db: &rusqlite::Connection, reference: &str) -> Option<i64> {
    ["order_journal", "withdrawal_journal"]
        .iter()
        .find_map(|table| {
            db.query_row(
                &format!("SELECT identity_id FROM {table} WHERE reference = ?1"),
                [reference],
                |r| r.get::<_, Option<i64>>(0),
            )
            .ok()
            .flatten()
        })
}

fn driver(sandbox: &SandboxProcess, data: &Path, life: u64, settle: bool, other: bool) -> Child {
    let user = if other { "/secondUser" } else { "" };
    let mut command = Command::new(env!("CARGO_BIN_EXE_nordlys-crash-driver"));
    command
        .arg("--data")
        .arg(data)
        .args(["--exchange", &sandbox.base_url()])
        .args([
            "--key",
            &sandbox.text(&format!("{user}/apiKeys/withdrawal/key")),
        ])
        .args([
            "--secret",
            &sandbox.text(&format!("{user}/apiKeys/withdrawal/secret")),
        ])
        .args(["--life", &life.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if settle {
        command.arg("--settle").stderr(Stdio::inherit());
    }
    command.spawn().expect("the driver starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_at_random_moments_nothing_is_lost_doubled_or_wrong() {
    let kills = nordlys_tests::env_number("NORDLYS_CRASH_KILLS", 50);
    let mut rng = Rng::new(nordlys_tests::env_number("NORDLYS_CRASH_SEED", 20));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = dir.path().join("app");
    let sandbox = SandboxProcess::start(&dir.path().join("sandbox.json"));
    let started = Instant::now();
    let (mut killed, mut ended_first, mut switched) = (0, 0, 0);
    let mut total = Figures::default();
    let mut add = |f: Figures, when: String| {
        total.lost += f.lost;
        total.doubled += f.doubled;
        total.wrong += f.wrong;
        total
            .said
            .extend(f.said.into_iter().map(|w| format!("{when}: {w}")));
        (f.entries, f.made, f.rows, f.open)
    };
    for life in 0..kills {
        // Both readings of `runningBalanceBtc`, and of where a buy's fee is, a life each in
        // turn: one history holds rows written under each, and no figure may depend on it.
        let (running, fee) = if life % 2 == 0 {
            ("total", "inside")
        } else {
            ("account", "outside")
        };
        sandbox
            .set_readings(serde_json::json!({ "runningBalance": running, "buyFee": fee }))
            .await;
        // Another user's key, as a user who pastes the wrong one does.
        let other = life % 5 == 4 && history_owner(&data).is_some();
        switched += u64::from(other);
        let mut child = driver(&sandbox, &data, life, false, other);
        // From the first moments (settings, keyring, store opening) to well into its work.
        let wait = Duration::from_millis(50 + rng.below(2500));
        tokio::time::sleep(wait).await;
        if child.try_wait().expect("the driver's state").is_some() {
            ended_first += 1;
        } else {
            child.kill().expect("SIGKILL");
            killed += 1;
        }
        child.wait().expect("the driver is gone");
        add(
            judge(&sandbox, &data, None).await,
            format!("after life {life}"),
        );
    }
    let last_started = chrono::Utc::now();
    let settled = driver(&sandbox, &data, kills, true, false)
        .wait()
        .expect("the last life");
    assert!(settled.success(), "the last life failed: {settled}");
    let (entries, made, rows, open) = add(
        judge(&sandbox, &data, Some(last_started)).await,
        "at the end".into(),
    );
    println!(
        "crash test | {kills} lives ({switched} with another user's key), {killed} killed, {ended_first} ended first | {entries} journal entries, \
         {made} made by the sandbox, {open} left unknown by the rules | {rows} tax rows | lost {} doubled {} wrong {} | {:.0} s",
        total.lost,
        total.doubled,
        total.wrong,
        started.elapsed().as_secs_f64()
    );
    assert!(total.said.is_empty(), "{:#?}", total.said);
}

/// A plain store, as a version before encryption left a profile's, with `samples` price samples:
/// enough rows that moving them into an encrypted store takes a while to kill.
fn plain_profile_store(path: &Path, samples: i64) {
    drop(Store::open(path).expect("a plain store"));
    let mut db = rusqlite::Connection::open(path).expect("the plain store");
    let tx = db.transaction().expect("a transaction");
    for i in 0..samples {
        tx.execute(
            "INSERT INTO price_samples (at_ms, mid, bid, ask) VALUES (?1, '900000', '899000', '901000')",
            [1_700_000_000_000 + i * 1000],
        )
        .expect("a sample");
    }
    tx.commit().expect("the samples");
}

/// The one migration into an encrypted store, killed with SIGKILL at any moment (the CLI opening
/// an app profile's plain store, started again each time): the store then opens with the key
/// the keyring holds, with every row, encrypted, and no plain copy left beside it.
/// `NORDLYS_CRASH_MIGRATION_KILLS` (12 in CI; `scripts/crash-test` runs 60).
#[test]
fn a_migration_killed_at_any_moment_loses_nothing() {
    const SAMPLES: i64 = 30_000;
    let kills = nordlys_tests::env_number("NORDLYS_CRASH_MIGRATION_KILLS", 12);
    let mut rng = Rng::new(nordlys_tests::env_number("NORDLYS_CRASH_SEED", 20));
    let home = tempfile::tempdir().expect("a directory");
    let template = home.path().join("template.sqlite");
    plain_profile_store(&template, SAMPLES);
    let data = home.path().join("data");
    let profile_dir = data.join("profiles/exchange");
    let store = profile_dir.join("nordlys.sqlite");
    let keyring = data.join("keyring");
    let start = |keyring: &Path| {
        Command::new(workspace_binary("nordlys-cli"))
            .args(["plans", "list"])
            .env("NORDLYS_STATE_DIR", &profile_dir)
            .env("NORDLYS_TEST_KEYRING_DIR", keyring)
            .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the CLI")
    };
    let fresh = || {
        let _ = std::fs::remove_dir_all(&data);
        std::fs::create_dir_all(&profile_dir).expect("the profile's directory");
        std::fs::copy(&template, &store).expect("the plain store");
    };
    // Once to its end, to know how long a migration takes here.
    fresh();
    let began = Instant::now();
    assert!(start(&keyring).wait().expect("the CLI").success());
    let whole = began.elapsed();
    let mut cut = 0;
    for _ in 0..kills {
        fresh();
        let mut child = start(&keyring);
        let at = u64::try_from(whole.as_millis()).unwrap_or(u64::MAX).max(1);
        std::thread::sleep(Duration::from_millis(rng.below(at + at / 4)));
        if child.try_wait().expect("the CLI").is_none() {
            cut += 1;
        }
        let _ = child.kill();
        let _ = child.wait();
        let secrets = FileSecretStore::new(&keyring);
        let opened = profile_store::open(&secrets, "exchange", &store)
            .unwrap_or_else(|e| panic!("after the kill the store does not open: {e}"));
        let samples = opened
            .price_samples(chrono::DateTime::from_timestamp(0, 0).expect("1970"))
            .expect("the samples");
        assert_eq!(samples.len() as i64, SAMPLES, "rows lost");
        drop(opened);
        let head = std::fs::read(&store).expect("the store's bytes");
        assert!(!head.starts_with(b"SQLite format 3"), "still plain");
        for leftover in [".plain", ".encrypting", ".plain-wal"] {
            let mut name = store.as_os_str().to_owned();
            name.push(leftover);
            assert!(
                !Path::new(&name).exists(),
                "{leftover} left beside the store"
            );
        }
    }
    println!(
        "crash test (migration): {kills} kills, {cut} of them during it (a whole one takes {} ms): nothing lost",
        whole.as_millis()
    );
}
