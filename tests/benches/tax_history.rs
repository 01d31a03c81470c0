#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::float_arithmetic,
    clippy::cast_precision_loss,
    reason = "a benchmark that prints its figures; a failed step is the failure reported"
)]
//! What a user with a long history feels: for 10,000, 100,000 and 1,000,000 transactions, the
//! sync writer's cost per row (decode a page's rows and store them, as the sync does, timed
//! alone), the database's size per row, and, at the largest, the year-end and gains reports the
//! Tax screen computes over every stored row. `cargo bench -p nordlys-tests --bench tax_history`
//! (`HISTORY_SIZES=10000,100000` for other sizes); `scripts/perf-table` reads its lines.
//! `HISTORY_ENCRYPTED=1` also stores each history in a store encrypted at rest (SQLCipher, its
//! defaults, a raw key) and reports it beside the plain one, measured in the same run.

use std::time::{Duration, Instant};

use nordlys_core::store::{Store, StoreKey, TaxCursor, TaxFilter};
use nordlys_core::tax::gains::{GainsBuilder, Method};
use nordlys_core::tax::year_end::YearEndBuilder;
use nordlys_core::tax::year_end_rate;
use nordlys_exchange::TaxQuery;
use nordlys_tests::{key_client, sandbox_with_history};

/// What storing one history cost: the writer's time, the rows, the database's bytes.
struct Stored {
    writer: Duration,
    rows: u64,
    bytes: u64,
}

/// Fetches every page of a sandbox holding `extra` more transactions than its seeded past and
/// stores each as the sync does, timing only the decoding and storing. The store is left in `dir`.
async fn store_history(extra: u64, dir: &std::path::Path, key: Option<&StoreKey>) -> Stored {
    let sandbox = sandbox_with_history(extra).await;
    let client = key_client(&sandbox, &sandbox.info.api_keys.read);
    let path = dir.join("history.sqlite");
    let store = open(&path, key);
    let mut query = TaxQuery::new(nordlys_core::tax::sync::PAGE_SIZE);
    let (mut writer, mut rows) = (Duration::ZERO, 0);
    loop {
        let page = client.tax_page(&query).await.unwrap();
        let next = query.after_tax_page(&page).unwrap();
        let t = Instant::now();
        let cursor = page.next_after.map(|after| TaxCursor {
            after,
            after_id: page.next_after_id.clone(),
        });
        let written = store
            .tax()
            .add_page(&page.listed(), cursor.as_ref())
            .unwrap();
        writer += t.elapsed();
        rows += written.inserted as u64;
        match next {
            Some(q) => query = q,
            None => break,
        }
    }
    drop(store);
    let bytes = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.metadata().ok())
        .map(|m| m.len())
        .sum();
    Stored {
        writer,
        rows,
        bytes,
    }
}

/// The store at `path`, encrypted with `key` where one is given.
fn open(path: &std::path::Path, key: Option<&StoreKey>) -> Store {
    match key {
        Some(k) => Store::open_encrypted(path, StoreKey::from_hex(&k.to_hex()).unwrap()).unwrap(),
        None => Store::open(path).unwrap(),
    }
}

/// The year-end and gains reports and the bare read over `store`, in ms (median of 3 each).
fn reports(store: &Store) -> [f64; 4] {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    [
        ms(median_of_3(|| year_end(store))),
        ms(median_of_3(|| gains(store, Method::Fifo))),
        ms(median_of_3(|| gains(store, Method::AverageCost))),
        ms(median_of_3(|| read_alone(store))),
    ]
}

/// SQLite's floor under the writer: the rows `source` holds (their ids, times, records and JSON
/// as sent, bytes as stored) written again into a new store of two tables with the same keys,
/// in transactions of a page's rows, with the store's journal settings. Nothing is decoded,
/// converted or checked, so no writer of these rows can be cheaper per row. Returns the time of
/// the writing only.
fn sqlite_floor(source: &std::path::Path, dir: &std::path::Path) -> Duration {
    let from = rusqlite::Connection::open(source).unwrap();
    let to = rusqlite::Connection::open(dir.join("floor.sqlite")).unwrap();
    to.pragma_update(None, "journal_mode", "WAL").unwrap();
    to.pragma_update(None, "synchronous", "NORMAL").unwrap();
    to.execute_batch(
        "CREATE TABLE rows (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, create_time TEXT NOT NULL,
             record BLOB NOT NULL, UNIQUE (create_time, id));
         CREATE UNIQUE INDEX rows_by_id ON rows (id);
         CREATE TABLE sent (seq INTEGER PRIMARY KEY, raw TEXT NOT NULL);",
    )
    .unwrap();
    let mut read = from
        .prepare(
            "SELECT t.seq, t.id, t.create_time, t.record, s.raw FROM tax_transactions t \
             JOIN tax_rows_as_sent s USING (seq) WHERE t.seq > ?1 ORDER BY t.seq LIMIT ?2",
        )
        .unwrap();
    let (mut after, mut writing) = (0i64, Duration::ZERO);
    loop {
        let page: Vec<(i64, String, String, Vec<u8>, String)> = read
            .query_map(
                rusqlite::params![after, nordlys_core::tax::sync::PAGE_SIZE],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let Some(last) = page.last() else {
            return writing;
        };
        after = last.0;
        let t = Instant::now();
        let tx = to.unchecked_transaction().unwrap();
        {
            let mut row = tx
                .prepare_cached("INSERT INTO rows (id, create_time, record) VALUES (?1, ?2, ?3)")
                .unwrap();
            let mut sent = tx
                .prepare_cached("INSERT INTO sent (seq, raw) VALUES (?1, ?2)")
                .unwrap();
            for (_, id, time, record, raw) in &page {
                row.execute(rusqlite::params![id, time, record]).unwrap();
                sent.execute(rusqlite::params![tx.last_insert_rowid(), raw])
                    .unwrap();
            }
        }
        tx.commit().unwrap();
        writing += t.elapsed();
    }
}

/// The median of three timings of `report`.
fn median_of_3(mut report: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..3)
        .map(|_| {
            let t = Instant::now();
            report();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[1]
}

/// Every stored row read back, oldest first, and nothing done with it: what the reports rest on.
fn read_alone(store: &Store) {
    store
        .tax()
        .each_transaction::<nordlys_core::store::StoreError>(&TaxFilter::default(), |t| {
            std::hint::black_box(t);
            Ok(())
        })
        .unwrap();
}

/// The year-end report as the Tax screen computes it: every stored row, oldest first.
fn year_end(store: &Store) {
    let chosen = year_end_rate::chosen(store).unwrap();
    let mut builder = YearEndBuilder::default();
    store
        .tax()
        .each_transaction::<nordlys_core::store::StoreError>(&TaxFilter::default(), |t| {
            builder.add(t);
            Ok(())
        })
        .unwrap();
    std::hint::black_box(builder.finish(chrono::Utc::now(), &chosen));
}

/// The realised gains by `method` as the Tax screen computes them.
fn gains(store: &Store, method: Method) {
    let mut builder = GainsBuilder::new(method);
    store
        .tax()
        .each_transaction::<nordlys_core::store::StoreError>(&TaxFilter::default(), |t| {
            builder.add(t);
            Ok(())
        })
        .unwrap();
    std::hint::black_box(builder.finish());
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let sizes: Vec<u64> = std::env::var("HISTORY_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000, 100_000, 1_000_000]);
    let key = std::env::var("HISTORY_ENCRYPTED")
        .is_ok_and(|v| v == "1")
        .then(|| StoreKey::random().unwrap());
    let mut first_per_row = None;
    let mut largest = None;
    for &size in &sizes {
        let dir = tempfile::tempdir().unwrap();
        let stored = store_history(size, dir.path(), None).await;
        let per_row = stored.writer.as_secs_f64() * 1e6 / stored.rows as f64;
        let base = *first_per_row.get_or_insert(per_row);
        let floor = sqlite_floor(
            &dir.path().join("history.sqlite"),
            tempfile::tempdir().unwrap().path(),
        );
        println!(
            "history of {} transactions: the writer {per_row:.2} µs a row ({:.2} s in all); ratio {:.2}× the first size; database {:.0} bytes a row; SQLite's floor {:.2} µs a row",
            stored.rows,
            stored.writer.as_secs_f64(),
            per_row / base,
            stored.bytes as f64 / stored.rows as f64,
            floor.as_secs_f64() * 1e6 / stored.rows as f64,
        );
        let encrypted = match &key {
            Some(key) => {
                let at = tempfile::tempdir().unwrap();
                let sealed = store_history(size, at.path(), Some(key)).await;
                let sealed_per_row = sealed.writer.as_secs_f64() * 1e6 / sealed.rows as f64;
                println!(
                    "history of {} transactions, encrypted: the writer {sealed_per_row:.2} µs a row; ratio {:.2}× plain in the same run; database {:.0} bytes a row",
                    sealed.rows,
                    sealed_per_row / per_row,
                    sealed.bytes as f64 / sealed.rows as f64,
                );
                Some(at)
            }
            None => None,
        };
        largest = Some((stored.rows, dir, encrypted));
    }
    let Some((rows, dir, encrypted)) = largest else {
        return;
    };
    let plain = reports(&open(&dir.path().join("history.sqlite"), None));
    println!(
        "reports over {rows} transactions: year-end {:.0} ms; gains FIFO {:.0} ms; gains average cost {:.0} ms; reading every row alone {:.0} ms (median of 3; target ≤ 1 s each)",
        plain[0], plain[1], plain[2], plain[3],
    );
    if let (Some(key), Some(at)) = (&key, encrypted) {
        let sealed = reports(&open(&at.path().join("history.sqlite"), Some(key)));
        let ratio = |i: usize| sealed[i] / plain[i];
        println!(
            "reports over {rows} transactions, encrypted: year-end {:.0} ms ({:.2}×); gains FIFO {:.0} ms ({:.2}×); gains average cost {:.0} ms ({:.2}×); reading every row alone {:.0} ms ({:.2}×), against plain in the same run",
            sealed[0],
            ratio(0),
            sealed[1],
            ratio(1),
            sealed[2],
            ratio(2),
            sealed[3],
            ratio(3),
        );
    }
}
