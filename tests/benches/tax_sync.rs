#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::float_arithmetic,
    clippy::panic,
    reason = "a benchmark that prints its ratios; a failed step is the failure reported"
)]
//! Tax sync of a long history against a plain HTTP loop over the same pages, in the same run, and
//! the sync's peak memory for a short and a long history. `cargo bench -p nordlys-tests --bench
//! tax_sync` prints the ratios; the sandbox runs in a process of its own on loopback, as the
//! exchange would.

use std::sync::Arc;
use std::time::{Duration, Instant};

use nordlys_core::store::Store;
use nordlys_core::tax::sync::{self, SyncCancel};
use nordlys_exchange::{
    ApiKey, ApiSecret, BaseUrl, ClientConfig, Credentials, ExchangeClient, KeyCredentials,
};
use nordlys_tests::sandbox_with_history;

/// The cursor fields of a page; the rows are read past, as any client must.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cursor {
    transactions: Vec<serde::de::IgnoredAny>,
    has_more: bool,
    next_after: String,
    next_after_id: String,
}

/// Fetches every page with bare reqwest, the key header and the cursor; returns the row count.
async fn plain_loop(base: &str, key: &str) -> usize {
    let http = reqwest::Client::new();
    let url = format!("{base}/v1/tax/transactions");
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
async fn nordlys_sync(client: &ExchangeClient) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(&dir.path().join("bench.sqlite")).unwrap());
    let mut stored = 0;
    sync::sync(client, store, &SyncCancel::default(), |p| stored = p.stored)
        .await
        .unwrap();
    stored
}

/// The sync's parts without the database: our client's page walk, and the walk with every row
/// decoded as the sync's writer does. Returns the rows seen.
async fn client_walk(client: &ExchangeClient, decode: bool) -> usize {
    let mut query = nordlys_exchange::TaxQuery::new(sync::PAGE_SIZE);
    let mut rows = 0;
    loop {
        let page = client.tax_page(&query).await.unwrap();
        rows += if decode {
            page.rows().iter().filter(|r| r.is_ok()).count()
        } else {
            page.transactions.len()
        };
        match query.after_tax_page(&page).unwrap() {
            Some(next) => query = next,
            None => return rows,
        }
    }
}

/// The sync's writer alone: every page fetched first, then decoded and stored one after another
/// with nothing else running. Returns the time of the writing only.
async fn writer_alone(client: &ExchangeClient) -> Duration {
    let mut query = nordlys_exchange::TaxQuery::new(sync::PAGE_SIZE);
    let mut pages = vec![];
    loop {
        let page = client.tax_page(&query).await.unwrap();
        let next = query.after_tax_page(&page).unwrap();
        pages.push(page);
        match next {
            Some(q) => query = q,
            None => break,
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("bench.sqlite")).unwrap();
    let t = Instant::now();
    for page in &pages {
        let cursor = page.next_after.map(|after| nordlys_core::store::TaxCursor {
            after,
            after_id: page.next_after_id.clone(),
        });
        store
            .tax()
            .add_page(&page.listed(), cursor.as_ref())
            .unwrap();
    }
    t.elapsed()
}

fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// How far away the exchange is: every answer waits this long (`TAX_SYNC_LATENCY_MS`, 20 unless
/// set), so the sync is judged where it runs, not against a server on the same two cores.
fn latency_ms() -> u64 {
    std::env::var("TAX_SYNC_LATENCY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

/// Child process, `serve N`: a sandbox with N extra transactions; prints its URL and read key.
async fn serve(rows: u64) {
    let sandbox = sandbox_with_history(rows).await;
    sandbox.state.set_latency_ms(latency_ms());
    println!("{} {}", sandbox.base_url(), sandbox.info.api_keys.read.key);
    println!("{}", sandbox.info.api_keys.read.secret);
    std::future::pending::<()>().await;
}

/// Child process, `measure URL KEY SECRET`: one full sync, then how far the peak resident memory
/// of this process rose above its size before the sync, in KiB. Nothing else ran here before.
fn read_client(url: &str, key: &str, secret: &str) -> ExchangeClient {
    let mut config = ClientConfig::new(BaseUrl::parse(url).unwrap());
    config.credentials = Credentials {
        key: Some(KeyCredentials {
            key: ApiKey::parse(key, &nordlys_exchange::Operator::default()).unwrap(),
            secret: Some(ApiSecret::parse(secret, &nordlys_exchange::Operator::default()).unwrap()),
            permissions: None,
        }),
        bearer: None,
    };
    ExchangeClient::new(config).unwrap()
}

async fn measure(url: &str, key: &str, secret: &str) {
    let client = read_client(url, key, secret);
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(&dir.path().join("bench.sqlite")).unwrap());
    let before = status_kib("VmRSS:");
    sync::sync(&client, store, &SyncCancel::default(), |_| {})
        .await
        .unwrap();
    println!("{}", status_kib("VmHWM:").saturating_sub(before));
}

/// A sandbox in its own process, as the exchange is: the child, its URL, read key and secret.
fn exchange_process(rows: u64) -> (std::process::Child, String, String, String) {
    use std::io::BufRead;
    let mut server = std::process::Command::new(std::env::current_exe().unwrap())
        .env("TAX_SYNC_CHILD", format!("serve {rows}"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(server.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let secret = lines.next().unwrap().unwrap();
    let (url, key) = first.split_once(' ').unwrap();
    (server, url.to_owned(), key.to_owned(), secret)
}

/// The peak memory rise of a sync of `rows` extra transactions, each side in its own process.
fn peak_rise(rows: u64) -> u64 {
    let (mut server, url, key, secret) = exchange_process(rows);
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .env("TAX_SYNC_CHILD", format!("measure {url} {key} {secret}"))
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if let Ok(child) = std::env::var("TAX_SYNC_CHILD") {
        let args: Vec<&str> = child.split(' ').collect();
        match args[..] {
            ["serve", n] => serve(n.parse().unwrap()).await,
            ["measure", url, key, secret] => measure(url, key, secret).await,
            _ => panic!("unknown child {child}"),
        }
        return;
    }
    let rows = std::env::var("ROWS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100_000);
    let (mut server, url, key, secret) = exchange_process(rows);
    let client = read_client(&url, &key, &secret);
    let (mut plain, mut ours) = (vec![], vec![]);
    for _ in 0..3 {
        let t = Instant::now();
        let n = plain_loop(&url, &key).await;
        plain.push(t.elapsed());
        let t = Instant::now();
        let stored = nordlys_sync(&client).await;
        ours.push(t.elapsed());
        assert_eq!(stored as usize, n);
    }
    let (mut walk, mut decoded) = (vec![], vec![]);
    for _ in 0..3 {
        let t = Instant::now();
        client_walk(&client, false).await;
        walk.push(t.elapsed());
        let t = Instant::now();
        client_walk(&client, true).await;
        decoded.push(t.elapsed());
    }
    let writer = median(vec![
        writer_alone(&client).await,
        writer_alone(&client).await,
        writer_alone(&client).await,
    ]);
    println!(
        "where it goes: our client's page walk {:.2} s; with every row decoded {:.2} s; decoding and storing every page alone, nothing else running, {:.2} s",
        median(walk).as_secs_f64(),
        median(decoded).as_secs_f64(),
        writer.as_secs_f64()
    );
    let (plain, ours) = (median(plain), median(ours));
    println!(
        "tax sync of {} transactions: {:.2} s; plain HTTP loop over the same pages: {:.2} s; ratio {:.2}× (target ≤ 1.05×, every answer {} ms away)",
        rows,
        ours.as_secs_f64(),
        plain.as_secs_f64(),
        ours.as_secs_f64() / plain.as_secs_f64(),
        latency_ms()
    );
    let _ = server.kill();
    let _ = server.wait();

    let small = rows / 10;
    let (low, high) = (peak_rise(small), peak_rise(rows));
    println!(
        "peak memory rise during the sync, each side in its own process: {:.1} MiB for {small} transactions, {:.1} MiB for {rows}; ratio {:.2}× for 10× the history (target: bounded, independent of history size)",
        low as f64 / 1024.0,
        high as f64 / 1024.0,
        high as f64 / low.max(1) as f64
    );
}
