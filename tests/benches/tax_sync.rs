#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    reason = "a benchmark that prints its table; a failed step is the failure reported"
)]
//! Tax sync of a long history against a plain HTTP loop over the same pages, in the same run, and
//! the sync's peak memory for a short and a long history. `cargo bench -p nordlys-tests --bench
//! tax_sync` prints the ratios; the sandbox runs in this process on loopback.

use std::sync::Arc;
use std::time::{Duration, Instant};

use nordlys_core::store::Store;
use nordlys_core::tax::sync::{self, SyncCancel};
use nordlys_sandbox::{RunningSandbox, SandboxConfig};
use nordlys_tests::{control, key_client, sandbox_with};

/// The cursor fields of a page; the rows are read past, as any client must.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cursor {
    transactions: Vec<serde::de::IgnoredAny>,
    has_more: bool,
    next_after: String,
    next_after_id: String,
}

async fn with_history(rows: u64) -> RunningSandbox {
    let sandbox = sandbox_with(SandboxConfig {
        seed: 11,
        ..SandboxConfig::default()
    })
    .await;
    control(
        &sandbox,
        "/sandbox/history",
        serde_json::json!({ "transactions": rows }),
    )
    .await;
    sandbox
}

/// Fetches every page with bare reqwest, the key header and the cursor; returns the row count.
async fn plain_loop(sandbox: &RunningSandbox) -> usize {
    let http = reqwest::Client::new();
    let key = &sandbox.info.api_keys.read.key;
    let url = format!("{}/v1/tax/transactions", sandbox.base_url());
    let mut query = vec![("pageSize", "200".to_owned())];
    let mut rows = 0;
    loop {
        let bytes = http
            .get(&url)
            .query(&query)
            .header("x-svc-api-key", key)
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let page: Cursor = serde_json::from_slice(&bytes).unwrap();
        rows += page.transactions.len();
        if !page.has_more {
            return rows;
        }
        query = vec![
            ("pageSize", "200".to_owned()),
            ("after", page.next_after),
            ("afterId", page.next_after_id),
        ];
    }
}

/// A full sync into a fresh database file; returns the rows stored.
async fn nordlys_sync(sandbox: &RunningSandbox) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(&dir.path().join("bench.sqlite")).unwrap());
    let client = key_client(sandbox, &sandbox.info.api_keys.read);
    let mut stored = 0;
    sync::sync(&client, store, &SyncCancel::default(), |p| {
        stored = p.stored
    })
    .await
    .unwrap();
    stored
}

fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// How far the process's peak resident memory rose above where it was while `f` ran, in MiB.
async fn peak_rise<F: std::future::Future<Output = u64>>(f: F) -> u64 {
    // Writing 5 resets the peak (VmHWM) to the current resident size (Linux ≥ 4.0).
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = status_kib("VmRSS:");
    f.await;
    status_kib("VmHWM:").saturating_sub(before) / 1024
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let rows = std::env::var("ROWS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100_000);
    let sandbox = with_history(rows).await;
    let (mut plain, mut ours) = (vec![], vec![]);
    for _ in 0..3 {
        let t = Instant::now();
        let n = plain_loop(&sandbox).await;
        plain.push(t.elapsed());
        let t = Instant::now();
        let stored = nordlys_sync(&sandbox).await;
        ours.push(t.elapsed());
        assert_eq!(stored as usize, n);
    }
    let (plain, ours) = (median(plain), median(ours));
    println!(
        "tax sync of {} transactions: {:.2} s; plain HTTP loop over the same pages: {:.2} s; ratio {:.2}× (target ≤ 1.2×)",
        rows,
        ours.as_secs_f64(),
        plain.as_secs_f64(),
        ours.as_secs_f64() / plain.as_secs_f64()
    );
    drop(sandbox);

    let mut rises = vec![];
    for n in [rows / 10, rows] {
        let sandbox = with_history(n).await;
        rises.push((n, peak_rise(nordlys_sync(&sandbox)).await));
    }
    println!(
        "peak memory rise during the sync: {} MiB for {} transactions, {} MiB for {} (target: bounded, independent of history size)",
        rises[0].1, rises[0].0, rises[1].1, rises[1].0
    );
}
