#![allow(
    clippy::expect_used,
    clippy::print_stdout,
    reason = "a test driver: a broken set-up stops its life loudly, and it says how far it got"
)]
//! One life of Nordlys for the crash test (`tests/tests/crash.rs`): the app's own use cases, with
//! the profile's store and settings on disk, against a sandbox running in its own process, until
//! the test kills this process with SIGKILL at a moment it chose at random.
//!
//! `nordlys-crash-driver --data DIR --exchange URL --key KEY --secret SECRET --life N [--settle]`
//!
//! A life connects (settings and keyring written, as a user's start does), starts a tax sync and
//! runs two lanes of mixed orders, payments, cancels and reads while the watcher looks every half
//! second. `--settle` is the last life, never killed: it waits out the quiet period, looks until
//! the rules settle every unknown entry, and syncs the tax history to its end.

#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "the tests' own driver of use cases, shared with them: a broken step stops the life"
)]
#[path = "../tests/app_driver/mod.rs"]
mod app_driver;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use nordlys_application::trade_views::QuoteArgs;
use nordlys_application::{NoArgs, tax, trading, watcher};
use nordlys_core::platform::secrets::FileSecretStore;
use nordlys_core::store::{JournalState, Store, WithdrawalState};

/// The quiet period after which a lost request may be judged not made, shortened as debug builds
/// allow.
const QUIET_SECS: i64 = 2;
/// The request timeout, and so the longest a killed sender could have waited for its answer.
const TIMEOUT_SECS: u64 = 3;
/// Operations per lane in one life; a life is usually killed long before they are done.
const OPERATIONS: usize = 200;

struct Args {
    data: std::path::PathBuf,
    exchange: String,
    key: nordlys_sandbox::KeyInfo,
    life: usize,
    settle: bool,
}

fn args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let (mut data, mut exchange, mut key, mut secret, mut life, mut settle) =
        (None, None, None, None, None, false);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--data" => data = Some(value()?),
            "--exchange" => exchange = Some(value()?),
            "--key" => key = Some(value()?),
            "--secret" => secret = Some(value()?),
            "--life" => life = Some(value()?.parse().map_err(|e| format!("--life: {e}"))?),
            "--settle" => settle = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let need = |v: Option<String>, name: &str| v.ok_or(format!("{name} is required"));
    Ok(Args {
        data: need(data, "--data")?.into(),
        exchange: need(exchange, "--exchange")?,
        key: nordlys_sandbox::KeyInfo {
            key: need(key, "--key")?,
            secret: need(secret, "--secret")?,
        },
        life: life.ok_or("--life is required")?,
        settle,
    })
}

pub fn main() -> ExitCode {
    let args = match args() {
        Ok(a) => a,
        Err(why) => {
            eprintln!("nordlys-crash-driver: {why}");
            return ExitCode::from(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(live(args));
    ExitCode::SUCCESS
}

async fn live(args: Args) {
    // The keyring lives as long as the process, like a session's: every life connects again,
    // which writes the settings and the key once more.
    let keyring = FileSecretStore::new(app_driver::keyring_dir(&args.data));
    let app = app_driver::app_in(&args.data, Arc::new(keyring));
    let seconds = chrono::Duration::seconds;
    app.set_timing(nordlys_application::state::Timing {
        rules: nordlys_core::evidence::Rules::with_min_quiet(seconds(QUIET_SECS))
            .with_longest_wait(seconds(TIMEOUT_SECS as i64 + 1)),
        request_timeout_secs: TIMEOUT_SECS,
    });
    app_driver::connect_to(&app, &args.exchange, &args.key).await;
    println!("life {} connected", args.life);
    if args.settle {
        settle(&app, &args.data).await;
        println!("life {} settled", args.life);
        return;
    }
    let _ = tax::start_tax_sync(&app, NoArgs {}).await;
    let quote = trading::quote(&app, QuoteArgs::default()).await;
    let price = quote
        .ok()
        .map(|q| q.price.bid.decimal())
        .unwrap_or(rust_decimal::Decimal::from(1_000_000));
    let looker = {
        let app = app.clone();
        tokio::spawn(async move {
            loop {
                let _ = watcher::look(&app).await;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        })
    };
    // Lanes differ from life to life, so amounts (and the orders' forms) do too.
    let lanes: Vec<_> = (0..2)
        .map(|k| {
            tokio::spawn(app_driver::lane(
                app.clone(),
                args.life * 2 + k,
                OPERATIONS,
                price,
            ))
        })
        .collect();
    for lane in lanes {
        let _ = lane.await;
    }
    looker.abort();
    println!("life {} ran to its end", args.life);
}

/// Waits out the quiet period and looks until nothing is left unknown (at most ten times),
/// then syncs the tax history to its end.
async fn settle(app: &nordlys_application::App, data: &std::path::Path) {
    tokio::time::sleep(Duration::from_secs(QUIET_SECS as u64 + TIMEOUT_SECS + 2)).await;
    let store = app_driver::profile_db(app, data, "exchange");
    for _ in 0..10 {
        let _ = trading::resolve_orders(app, NoArgs {}).await;
        let _ = watcher::look(app).await;
        if open_entries(&store) == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    app_driver::tax_synced(app).await;
}

fn open_entries(store: &Store) -> usize {
    let orders = store.orders().recent(100_000).expect("the journal");
    let payments = store.withdrawals().recent(100_000).expect("the journal");
    orders
        .iter()
        .filter(|e| matches!(e.state, JournalState::Unknown | JournalState::Sending))
        .count()
        + payments
            .iter()
            .filter(|e| matches!(e.state, WithdrawalState::Unknown | WithdrawalState::Sending))
            .count()
}
