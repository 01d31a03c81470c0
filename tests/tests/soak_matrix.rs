#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "a soak test: a failed step is the failure being reported, and its figures are printed"
)]
//! The fault soak under every reading of what the specification leaves open: each sandbox
//! switch alone, the commit-late fault, and all of them at once. In each cell the app's own
//! use cases run mixed operations against a sandbox that faults about one request in
//! five; afterwards every journal entry is held against what the sandbox made, by the reference
//! each request carries in its description:
//! - duplicates: a request the sandbox made twice, or made without a journal entry;
//! - wrong verdicts: "placed/sent" for a request it did not make, "not placed/not sent" (or
//!   rejected) for one it made;
//! - unknown: entries still unknown, and how many of those the sandbox did make.
//!
//! The first two must be 0. The CI form runs 150 operations per cell with the quiet period
//! shortened (debug builds only); `scripts/soak-matrix` runs 1,000 per cell with the real one.
//! The cells run side by side, each with its own sandbox and app.

mod app_driver;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use app_driver::{LANES, connected_app, lane};
use nordlys_application::NoArgs;
use nordlys_application::trade_views::QuoteArgs;
use nordlys_application::{trading, watcher};
use nordlys_core::store::{JournalState, Store, WithdrawalState};
use nordlys_sandbox::{FaultKind, FaultRule};
use nordlys_tests::*;
use serde_json::{Value, json};

/// The cells: a name, the readings, and whether requests that move money may commit late.
fn cells(lag: u64) -> Vec<(&'static str, Value, bool)> {
    vec![
        ("no-note-echo", json!({"noNoteEcho": true}), false),
        ("tax-lag", json!({"taxLag": lag}), false),
        (
            "withdrawal-hold total",
            json!({"withdrawalHold": "total"}),
            false,
        ),
        ("buy-fee-pct 1", json!({"buyFeePct": 1}), false),
        ("split-fills 3", json!({"splitFills": 3}), false),
        // A market order's fills at different instants, each buy taking only the NOK of its
        // whole satoshis: the published shape, read "placed" from the rows that add up.
        (
            "fill-spread 40 & buy-spend sats",
            json!({"splitFills": 3, "fillSpread": 40, "buySpend": "sats"}),
            false,
        ),
        ("partial-fill 40", json!({"partialFill": 40}), false),
        ("clock-skew +90", json!({"clockSkew": 90}), false),
        ("clock-skew -90", json!({"clockSkew": -90}), false),
        ("commit-late", json!({}), true),
        // The sandbox's defaults are what the exchange publishes (the user's total as the
        // running balance, unset fields left out, a buy's fee inside its amount); these cells
        // hold the other readings.
        (
            "running-balance account",
            json!({"runningBalance": "account"}),
            false,
        ),
        (
            "empty-style string & buy-fee outside",
            json!({"emptyStyle": "string", "buyFee": "outside"}),
            false,
        ),
        (
            "all at once",
            json!({"noNoteEcho": true, "taxLag": lag, "withdrawalHold": "total", "buyFeePct": 1,
                   "splitFills": 3, "fillSpread": 20, "buySpend": "sats", "partialFill": 40,
                   "clockSkew": -90, "runningBalance": "account", "emptyStyle": "null",
                   "buyFee": "outside"}),
            true,
        ),
    ]
}

fn faults(commit_late: bool) -> Vec<FaultRule> {
    let rule = |method: Option<&str>, path: &str, kind, percent| FaultRule {
        path: path.into(),
        method: method.map(str::to_owned),
        kind,
        count: None,
        percent: Some(percent),
        delay_ms: 150,
    };
    let mut rules = vec![];
    if commit_late {
        for path in ["/v1/orders", "/v1/withdrawals"] {
            rules.push(FaultRule {
                delay_ms: 300,
                ..rule(Some("POST"), path, FaultKind::CommitLate, 6)
            });
        }
    }
    rules.extend([
        rule(None, "/v1/", FaultKind::Http500, 6),
        rule(None, "/v1/", FaultKind::Delay, 5),
        rule(None, "/v1/", FaultKind::Drop, 4),
        rule(None, "/v1/", FaultKind::CommitThenDrop, 5),
    ]);
    rules
}

#[derive(Debug, Default)]
struct Figures {
    entries: usize,
    made: usize,
    duplicates: usize,
    unjournaled: usize,
    wrong_made: usize,
    wrong_not_made: usize,
    unknown: usize,
    unknown_made: usize,
    /// What the journal said of each wrong verdict, to find the rule that gave it.
    wrong: Vec<String>,
}

/// What the sandbox holds under each id a wrong verdict names, to find the rule that gave it.
fn evidence_seen(sb: &nordlys_sandbox::RunningSandbox, what: &str) -> String {
    let world = sb.state.lock();
    let words = what.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    words
        .filter_map(|id| {
            let order = world.orders.iter().find(|o| o.id == id).map(|o| {
                format!(
                    "{id}: {:?} {:?} {} at {} '{}' {:?}",
                    o.kind, o.direction, o.amount, o.created, o.description, o.state
                )
            });
            let row = world.ledger.iter().find(|r| r.id == id).map(|r| {
                format!(
                    "{id}: {} at {} in {} {} out {} {} fee {} '{}'",
                    r.tx_type,
                    r.create_time,
                    r.in_amount,
                    r.in_currency,
                    r.out_amount,
                    r.out_currency,
                    r.fee_amount,
                    r.note
                )
            });
            order.or(row)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn judge(sb: &nordlys_sandbox::RunningSandbox, store: &Store) -> Figures {
    let world = sb.state.lock();
    let mut made: HashMap<String, usize> = HashMap::new();
    let descriptions = world
        .orders
        .iter()
        .map(|o| o.description.as_str())
        .chain(world.withdrawals.iter().map(|w| w.description.as_str()));
    let mut figures = Figures::default();
    for d in descriptions {
        figures.made += 1;
        match nordlys_tests::reference(d) {
            Some(r) => *made.entry(r.to_owned()).or_default() += 1,
            None => figures.unjournaled += 1,
        }
    }
    drop(world);
    figures.duplicates = made.values().filter(|n| **n > 1).count();
    let mut journaled = std::collections::HashSet::new();
    let orders = store.orders().recent(100_000).unwrap();
    let payments = store.withdrawals().recent(100_000).unwrap();
    let states = orders
        .iter()
        .map(|e| {
            let verdict = match e.state {
                JournalState::Placed => Some(true),
                JournalState::NotPlaced | JournalState::Rejected => Some(false),
                JournalState::Unknown | JournalState::Sending => None,
            };
            (
                e.reference.clone(),
                verdict,
                format!(
                    "order {} {} {}: {}",
                    e.id,
                    e.state.text(),
                    e.amount.decimal(),
                    e.note
                ),
            )
        })
        .chain(payments.iter().map(|e| {
            let verdict = match e.state {
                WithdrawalState::Sent => Some(true),
                WithdrawalState::NotSent | WithdrawalState::Rejected => Some(false),
                WithdrawalState::Unknown | WithdrawalState::Sending => None,
            };
            (
                e.reference.clone(),
                verdict,
                format!(
                    "withdrawal {} {} {}: {}",
                    e.id,
                    e.state.text(),
                    e.amount_btc,
                    e.note
                ),
            )
        }));
    for (r, verdict, what) in states {
        figures.entries += 1;
        let was_made = made.contains_key(&r);
        journaled.insert(r);
        match verdict {
            Some(true) if !was_made => {
                figures.wrong_made += 1;
                figures
                    .wrong
                    .push(format!("{what} | {}", evidence_seen(sb, &what)));
            }
            Some(false) if was_made => {
                figures.wrong_not_made += 1;
                figures.wrong.push(what);
            }
            None => {
                figures.unknown += 1;
                figures.unknown_made += usize::from(was_made);
            }
            _ => {}
        }
    }
    figures.unjournaled += made.keys().filter(|r| !journaled.contains(*r)).count();
    figures
}

/// One cell: a sandbox with these readings, the app connected to it, `operations` mixed
/// operations under faults, then the quiet period; returns its line of figures, or why it failed.
async fn cell(
    name: &'static str,
    readings: Value,
    commit_late: bool,
    operations: usize,
    quiet: u64,
    lag: u64,
) -> Result<String, String> {
    let started = Instant::now();
    let sb = sandbox().await;
    {
        let mut world = sb.state.lock();
        world.readings = world.readings.patched(&readings).unwrap();
    }
    let shorten = (chrono::Duration::seconds(quiet as i64), 3);
    let (app, dir) = connected_app(&sb, Some(shorten)).await;
    let quote = trading::quote(&app, QuoteArgs::default()).await.unwrap();
    let price: rust_decimal::Decimal = quote.price.bid.decimal();
    for rule in faults(commit_late) {
        sb.state.add_fault(rule);
    }
    let lanes: Vec<_> = (0..LANES)
        .map(|l| tokio::spawn(lane(app.clone(), l, operations / LANES, price)))
        .collect();
    for l in lanes {
        l.await.unwrap();
    }
    sb.state.clear_faults();
    // Late commits land, late rows are listed, the quiet period passes; then the app looks
    // again, as the Trade and Pay screens do.
    tokio::time::sleep(Duration::from_secs(quiet + lag + 6)).await;
    let store = app_driver::profile_db(&app, dir.path(), "exchange");
    for _ in 0..2 {
        trading::resolve_orders(&app, NoArgs {}).await.unwrap();
        watcher::look(&app).await.unwrap();
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    let f = judge(&sb, &store);
    let audit = control_get(&sb, "/sandbox/audit").await;
    let line = format!(
        "soak matrix | {name} | {operations} ops | {} entries, {} made | duplicates {} | unjournaled {} | \
         wrong placed/sent {} | wrong not placed/sent {} | unknown {} ({} of them made) | {:.0} s",
        f.entries,
        f.made,
        f.duplicates,
        f.unjournaled,
        f.wrong_made,
        f.wrong_not_made,
        f.unknown,
        f.unknown_made,
        started.elapsed().as_secs_f64()
    );
    if f.duplicates + f.unjournaled + f.wrong_made + f.wrong_not_made > 0 || audit["ok"] != true {
        return Err(format!("{line}\n{f:?} {audit}"));
    }
    Ok(line)
}

/// The cells run side by side: most of a cell's time is the quiet period, spent waiting.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_reading_of_the_open_questions_leaves_no_duplicate_and_no_wrong_verdict() {
    let operations = nordlys_tests::env_number("SOAK_MATRIX_OPERATIONS", 150) as usize;
    let quiet = nordlys_tests::env_number("SOAK_MATRIX_QUIET_SECS", 3);
    let lag = nordlys_tests::env_number("SOAK_MATRIX_LAG_SECS", 2);
    let started = Instant::now();
    let only = std::env::var("SOAK_MATRIX_CELLS").unwrap_or_default();
    let cells: Vec<_> = cells(lag)
        .into_iter()
        .filter(|(name, _, _)| only.is_empty() || only.split(',').any(|o| o == *name))
        .map(|(name, readings, late)| {
            tokio::spawn(cell(name, readings, late, operations, quiet, lag))
        })
        .collect();
    let count = cells.len();
    let mut failures = vec![];
    for c in cells {
        match c.await.unwrap() {
            Ok(line) => println!("{line}"),
            Err(why) => {
                println!("{why}");
                failures.push(why);
            }
        }
    }
    println!(
        "soak matrix: {count} cells side by side in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
