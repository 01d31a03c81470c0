//! Every stored tax row a report or an export rests on, read in (createTime, id) order, a batch
//! at a time. A long history on disk is read on both cores: two readers, each on its own connection,
//! take alternate runs of rows by `seq`, and their batches are merged here. Parsing a stored row
//! costs more than the report built from it, so this is most of what a report over a long
//! history waits for.
//!
//! Each batch is its own read, as it was with one reader: a sync writing meanwhile can make
//! the rows read a mix of before and after, which `Store::tax_generation` tells.

use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

use nordlys_exchange::models::TaxTransaction;
use rusqlite::{Connection, OpenFlags, params_from_iter};

use super::at_rest::StoreFile;
use super::tax::{AFTER_COLUMNS, COLUMNS, StoredRow, TaxFilter, stored_row, where_clause};
use super::{Store, StoreError};

/// Rows a batch holds: one statement run per batch, and a reader's batches in flight bound
/// what a scan holds in memory.
const BATCH: usize = 2_000;

/// A reader takes runs of 2^RUN rows by `seq`: rows stored one after another sit on the same
/// pages, so each reader reads its own pages (every other row would have both read every page).
const RUN: u8 = 6;

/// A stored row, parsed, with the text of the column after [`COLUMNS`] (the JSON as sent, or
/// nothing when it was not asked for).
type ScannedRow = (StoredRow, String);

/// What a reader hands over: a batch, or why it could not read one.
type Batch = Result<Vec<ScannedRow>, StoreError>;

/// The query of one scan: every row of a filter, or of the filter and one parity of `seq`, after
/// the (createTime, id) key of the last row read; its values are the filter's, then that key's.
pub(super) struct Scan {
    /// The filter's terms joined by AND, or nothing.
    terms: String,
    as_sent: bool,
    values: Vec<String>,
    sql: String,
}

impl Scan {
    pub(super) fn new(filter: &TaxFilter, as_sent: bool) -> Self {
        let (clause, values) = where_clause(filter);
        let terms = clause
            .strip_prefix(" WHERE ")
            .unwrap_or_default()
            .to_owned();
        Self::with(terms, as_sent, values, None)
    }

    fn with(terms: String, as_sent: bool, values: Vec<String>, parity: Option<u8>) -> Self {
        let (columns, join) = if as_sent {
            (
                format!("{COLUMNS}, COALESCE(raw, '')"),
                " LEFT JOIN tax_rows_as_sent USING (seq)",
            )
        } else {
            (format!("{COLUMNS}, ''"), "")
        };
        let parity = parity.map(|p| format!("(tax_transactions.seq >> {RUN}) % 2 = {p}"));
        let conditions: Vec<&str> = [Some(terms.as_str()), parity.as_deref()]
            .into_iter()
            .flatten()
            .filter(|t| !t.is_empty())
            .chain(["(create_time, id) > (?, ?)"])
            .collect();
        let sql = format!(
            "SELECT {columns} FROM tax_transactions{join} WHERE {} ORDER BY create_time, id LIMIT {BATCH}",
            conditions.join(" AND ")
        );
        Self {
            terms,
            as_sent,
            values,
            sql,
        }
    }

    /// The same scan over the even (`parity` 0) or odd (1) runs of rows by `seq`. SQLite reads
    /// `seq` from the index the scan walks, so a reader skips the other's rows before reading them.
    fn share(&self, parity: u8) -> Self {
        Self::with(
            self.terms.clone(),
            self.as_sent,
            self.values.clone(),
            Some(parity),
        )
    }

    /// Up to [`BATCH`] rows after `after` (createTime, id), into `rows` (emptied first: what it
    /// held is dropped here); `after` becomes the last row's key, as stored, compared as stored:
    /// no round trip through a parsed time.
    fn batch(
        &self,
        db: &Connection,
        after: &mut (String, String),
        rows: &mut Vec<ScannedRow>,
    ) -> Result<(), StoreError> {
        rows.clear();
        let mut q = db.prepare_cached(&self.sql)?;
        let params = self
            .values
            .iter()
            .cloned()
            .chain([after.0.clone(), after.1.clone()]);
        let mut found = q.query(params_from_iter(params))?;
        while let Some(r) = found.next()? {
            rows.push((stored_row(r)?, r.get(AFTER_COLUMNS)?));
            if rows.len() == BATCH {
                after.0 = r.get(1)?;
                after.1 = r.get(0)?;
            }
        }
        Ok(())
    }

    /// Every row of this scan, in order, to `f`, read on the store's own connection. Each
    /// batch starts after the last one's (createTime, id), so no batch skips over the rows before
    /// it again, and the connection is free for `f` between batches.
    pub(super) fn each_alone<E: From<StoreError>>(
        &self,
        store: &Store,
        mut f: impl FnMut(&TaxTransaction, &str) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut after = (String::new(), String::new());
        let mut rows = Vec::with_capacity(BATCH);
        loop {
            self.batch(&store.db(), &mut after, &mut rows)?;
            for (row, raw) in &mut rows {
                f(ok(row)?, raw)?;
            }
            if rows.len() < BATCH {
                return Ok(());
            }
        }
    }

    /// Hands every batch of this scan to `to`, reading the store's `file` on a connection of
    /// its own, until the last batch, an error, or the other end is gone. A batch read comes
    /// back on `back` to be filled again: its rows are dropped on this thread, and no batch's
    /// memory is asked of the system again.
    fn send_all(&self, file: &StoreFile, to: &SyncSender<Batch>, back: &Receiver<Vec<ScannedRow>>) {
        let db = match reader(file) {
            Ok(db) => db,
            Err(e) => {
                let _ = to.send(Err(e));
                return;
            }
        };
        let mut after = (String::new(), String::new());
        loop {
            let mut rows = back
                .try_recv()
                .unwrap_or_else(|_| Vec::with_capacity(BATCH));
            let batch = self.batch(&db, &mut after, &mut rows).map(|()| rows);
            let done = batch.as_ref().map_or(true, |rows| rows.len() < BATCH);
            if to.send(batch).is_err() || done {
                return;
            }
        }
    }

    /// Every row of this scan from the store's `file`, in order, to `f`, read by two readers.
    pub(super) fn each_merged<E: From<StoreError>>(
        &self,
        file: &StoreFile,
        mut f: impl FnMut(&TaxTransaction, &str) -> Result<(), E>,
    ) -> Result<(), E> {
        std::thread::scope(|scope| {
            let [mut even, mut odd] = [0, 1].map(|parity| {
                // One batch waiting and one being read: a reader stays ahead of the merge
                // without holding much of the history at once.
                let (to, from) = sync_channel(1);
                let (give_back, back) = channel();
                let scan = self.share(parity);
                scope.spawn(move || scan.send_all(file, &to, &back));
                Share::new(from, give_back)
            });
            loop {
                let take_even = match (even.head()?, odd.head()?) {
                    (None, None) => return Ok(()),
                    (Some(_), None) => true,
                    (None, Some(_)) => false,
                    (Some(a), Some(b)) => before(a, b),
                };
                let share = if take_even { &mut even } else { &mut odd };
                if let Some((row, raw)) = share.take() {
                    // A dropped `Share` ends its reader at its next batch.
                    f(ok(row)?, raw)?;
                }
            }
        })
    }
}

/// The row, or the error it carries, taken out: the scan ends at the first damaged row, so its
/// place is never read again.
fn ok(row: &mut StoredRow) -> Result<&TaxTransaction, StoreError> {
    match row {
        Ok(t) => Ok(t),
        Err(e) => Err(std::mem::replace(
            e,
            StoreError::Corrupt("a damaged row read twice".into()),
        )),
    }
}

/// Whether `a` comes before `b` in the stored order. A damaged row comes first, so the error it
/// carries is met as soon as either reader finds one.
fn before(a: &ScannedRow, b: &ScannedRow) -> bool {
    match (&a.0, &b.0) {
        (Ok(a), Ok(b)) => (a.create_time, a.id.as_str()) < (b.create_time, b.id.as_str()),
        (Err(_), _) => true,
        (Ok(_), Err(_)) => false,
    }
}

/// A connection of a reader's own. Read-only: a scan never writes. It maps the file rather than
/// copying each page it reads out of the OS's cache; the map goes when the scan ends.
fn reader(file: &StoreFile) -> Result<Connection, StoreError> {
    let db = file.connect(OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    db.busy_timeout(std::time::Duration::from_secs(10))?;
    db.pragma_update(None, "mmap_size", MAP_BYTES)?;
    Ok(db)
}

/// What a reader maps of the database (SQLite caps it at 2 GB unless built otherwise).
const MAP_BYTES: i64 = 1 << 31;

/// One reader's side of a merge: the rows of its batches as they come, looked at where they lie.
/// A batch read goes back to its reader, rows and all: a parsed row is some 400 bytes, and
/// moving a million of them out, and freeing their text on another thread, was a measurable
/// part of a report.
struct Share {
    from: Receiver<Batch>,
    back: Sender<Vec<ScannedRow>>,
    rows: Vec<ScannedRow>,
    next: usize,
}

impl Share {
    fn new(from: Receiver<Batch>, back: Sender<Vec<ScannedRow>>) -> Self {
        Self {
            from,
            back,
            rows: Vec::new(),
            next: 0,
        }
    }

    /// The row this share gives next, `None` once its reader has given its last.
    fn head(&mut self) -> Result<Option<&ScannedRow>, StoreError> {
        while self.next == self.rows.len() {
            match self.from.recv() {
                Ok(batch) => {
                    let read = std::mem::replace(&mut self.rows, batch?);
                    self.next = 0;
                    // A reader that has ended takes nothing back.
                    let _ = self.back.send(read);
                }
                // The reader has sent its last batch and ended.
                Err(_) => return Ok(None),
            }
        }
        Ok(self.rows.get(self.next))
    }

    fn take(&mut self) -> Option<&mut ScannedRow> {
        let row = self.rows.get_mut(self.next)?;
        self.next += 1;
        Some(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, StoreKey, TaxFilter};
    use crate::tax::tests_support::tx;
    use nordlys_exchange::models::{ListedTaxTransaction, TaxTransactionType};

    /// `n` rows stored a page at a time, pages in a shuffled order, so `seq` order is not
    /// the stored order and both readers' runs interleave across the history.
    fn store_history(s: &Store, n: usize) {
        let rows: Vec<_> = (0..n)
            .map(|i| {
                // Rows a minute apart; every fifth shares its minute with the one before.
                let minute = i - i / 5;
                let at = chrono::DateTime::from_timestamp(1_700_000_000 + 60 * minute as i64, 0)
                    .unwrap_or_default()
                    .to_rfc3339();
                let mut t = tx(
                    &format!("tr_{:05}", n - i),
                    &at,
                    "acc",
                    TaxTransactionType::BtcBuy,
                    "1",
                    "1000",
                );
                t.note = format!("row {i}");
                Ok(ListedTaxTransaction::from(t))
            })
            .collect();
        let mut pages: Vec<_> = rows.chunks(97).collect();
        pages.reverse();
        pages.swap(0, 3);
        for page in pages {
            s.tax().add_page(page, None).unwrap();
        }
    }

    /// A store on disk holding `n` rows as [`store_history`] stores them, encrypted or not.
    fn history_on_disk(n: usize, encrypted: bool) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        let s = match encrypted {
            true => Store::open_encrypted(&path, StoreKey::random().unwrap()).unwrap(),
            false => Store::open(&path).unwrap(),
        };
        store_history(&s, n);
        (dir, s)
    }

    /// Each row's id and JSON as sent, as two readers of its file (`merged`) or the store's
    /// own connection read them.
    fn read(s: &Store, merged: bool, filter: &TaxFilter) -> Vec<(String, String)> {
        let mut out = vec![];
        let scan = Scan::new(filter, true);
        let each = |t: &TaxTransaction, raw: &str| {
            out.push((t.id.as_str().to_owned(), raw.to_owned()));
            Ok::<_, StoreError>(())
        };
        match (merged, &s.file) {
            (true, Some(file)) => scan.each_merged(file, each),
            _ => scan.each_alone(s, each),
        }
        .unwrap();
        out
    }

    #[test]
    fn two_readers_give_every_row_once_in_the_stored_order() {
        // More rows than a batch, and runs of both parities; fewer than the store itself
        // gives two readers, so the scan is asked for them here.
        let in_memory = Store::in_memory().unwrap();
        store_history(&in_memory, 4_500);
        // The readers of an encrypted store open its file with its key.
        for encrypted in [false, true] {
            let (_dir, on_disk) = history_on_disk(4_500, encrypted);
            let merged = read(&on_disk, true, &TaxFilter::default());
            assert_eq!(merged.len(), 4_500);
            assert_eq!(merged, read(&in_memory, false, &TaxFilter::default()));
            assert!(
                merged
                    .iter()
                    .all(|(_, raw)| raw.contains("\"note\":\"row "))
            );
            let filter = TaxFilter {
                search: "row 12".into(),
                ..TaxFilter::default()
            };
            let found = read(&on_disk, true, &filter);
            assert_eq!(found.len(), 111, "row 12, row 120-129, row 1200-1299");
            assert_eq!(found, read(&in_memory, false, &filter));
        }
    }

    #[test]
    fn a_reader_stopped_early_ends_the_scan_with_its_error() {
        let (_dir, store) = history_on_disk(9_000, false);
        let file = store.file.as_ref().unwrap();
        let mut seen = 0;
        let stopped = Scan::new(&TaxFilter::default(), false).each_merged(file, |_, _| {
            seen += 1;
            if seen == 10 {
                return Err(StoreError::Corrupt("enough".into()));
            }
            Ok(())
        });
        assert!(matches!(stopped, Err(StoreError::Corrupt(m)) if m == "enough"));
        assert_eq!(seen, 10);
    }

    #[test]
    fn a_damaged_row_is_an_error_not_a_row() {
        let (_dir, s) = history_on_disk(300, false);
        s.db()
            .execute(
                "UPDATE tax_transactions SET record = x'01' WHERE id = 'tr_00150'",
                [],
            )
            .unwrap();
        let read = Scan::new(&TaxFilter::default(), false)
            .each_merged(s.file.as_ref().unwrap(), |_, _| Ok::<_, StoreError>(()));
        assert!(matches!(read, Err(StoreError::Corrupt(m)) if m.contains("cut short")));
    }
}
