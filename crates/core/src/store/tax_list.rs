//! The tax list's order, kept between its blocks: the keys of the rows a filter matches, in list
//! order. A block at any offset is then its keys' rows, each looked up by key; `LIMIT … OFFSET`
//! stepped through every row before the block, so a jump to the middle of 1,000,000 rows read
//! 500,000 of them, at every block a scrolled list asked for.

use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension, params_from_iter};

use super::StoreError;
use super::tax::{COLUMNS, StoredRow, TaxFilter, stored_row, where_clause};
use nordlys_exchange::models::TaxTransaction;

/// One filter's rows in list order, and the writes it reflects.
#[derive(Debug)]
pub(super) struct KeptOrder {
    filter: TaxFilter,
    /// This store's tax generation and SQLite's `data_version` (which other connections'
    /// commits change) when the keys were read: any write since reads them again.
    seen: (u64, i64),
    keys: Arc<[i64]>,
}

impl super::Tax<'_> {
    /// How many rows `filter` matches: the length of its kept order, which the list's first
    /// block then reads from (a count of its own walked the same rows again).
    pub fn tax_count(&self, filter: &TaxFilter) -> Result<u64, StoreError> {
        let db = self.db();
        Ok(u64::try_from(self.tax_order(&db, filter)?.len()).unwrap_or(u64::MAX))
    }

    /// `limit` rows from position `offset` of the filtered list, oldest first.
    pub fn tax_transactions(
        &self,
        filter: &TaxFilter,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<TaxTransaction>, StoreError> {
        let db = self.db();
        let keys = self.tax_order(&db, filter)?;
        let start = usize::try_from(offset).map_or(keys.len(), |o| o.min(keys.len()));
        let end =
            usize::try_from(limit).map_or(keys.len(), |l| start.saturating_add(l).min(keys.len()));
        let mut by_key = db.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM tax_transactions WHERE seq = ?1"
        ))?;
        let mut rows: Vec<StoredRow> = Vec::with_capacity(end - start);
        for key in &keys[start..end] {
            if let Some(row) = by_key.query_row([key], stored_row).optional()? {
                rows.push(row);
            }
        }
        rows.into_iter().collect()
    }

    /// The keys (`seq`) of the rows `filter` matches in list order (creation time, then id), as
    /// kept unless a write came since or the filter differs. `db` is held throughout, so the keys
    /// and the rows read with them are of one moment.
    fn tax_order(&self, db: &Connection, filter: &TaxFilter) -> Result<Arc<[i64]>, StoreError> {
        let seen = (
            self.tax_generation(),
            db.pragma_query_value(None, "data_version", |r| r.get(0))?,
        );
        let mut kept = self
            .tax_list
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(k) = kept
            .as_ref()
            .filter(|k| k.seen == seen && k.filter == *filter)
        {
            return Ok(k.keys.clone());
        }
        let (clause, values) = where_clause(filter);
        let mut q = db.prepare_cached(&format!(
            "SELECT seq FROM tax_transactions{clause} ORDER BY create_time, id"
        ))?;
        let keys: Arc<[i64]> = q
            .query_map(params_from_iter(values), |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        *kept = Some(KeptOrder {
            filter: filter.clone(),
            seen,
            keys: keys.clone(),
        });
        Ok(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::tax::tests_support::tx;
    use nordlys_exchange::models::{ListedTaxTransaction, TaxTransactionType};

    /// Row `i`, created `i` minutes after 2025-01-01 00:00 UTC, on account `acc_a` or `acc_b`.
    fn row(
        i: u32,
    ) -> Result<ListedTaxTransaction, nordlys_exchange::models::MalformedTaxTransaction> {
        let at = format!("2025-01-01T{:02}:{:02}:00Z", i / 60, i % 60);
        let account = if i.is_multiple_of(2) {
            "acc_a"
        } else {
            "acc_b"
        };
        Ok(tx(
            &format!("tr_{i:04}"),
            &at,
            account,
            TaxTransactionType::BtcBuy,
            "0",
            "1",
        )
        .into())
    }

    fn ids(rows: &[TaxTransaction]) -> Vec<String> {
        rows.iter().map(|t| t.id.as_str().to_owned()).collect()
    }

    #[test]
    fn a_block_anywhere_in_the_list_is_the_rows_at_its_positions_and_a_late_row_takes_its_place() {
        let s = Store::in_memory().unwrap();
        // Stored out of time order: every second row in a later page.
        let (even, odd): (Vec<u32>, Vec<u32>) = (0..300u32).partition(|i| i.is_multiple_of(2));
        s.tax()
            .add_page(&even.iter().map(|&i| row(i)).collect::<Vec<_>>(), None)
            .unwrap();
        s.tax()
            .add_page(&odd.iter().map(|&i| row(i)).collect::<Vec<_>>(), None)
            .unwrap();
        let all = TaxFilter::default();
        assert_eq!(s.tax().tax_count(&all).unwrap(), 300);
        let block = s.tax().tax_transactions(&all, 150, 3).unwrap();
        assert_eq!(ids(&block), ["tr_0150", "tr_0151", "tr_0152"]);
        assert_eq!(
            ids(&s.tax().tax_transactions(&all, 298, 10).unwrap()),
            ["tr_0298", "tr_0299"]
        );
        assert!(s.tax().tax_transactions(&all, 300, 10).unwrap().is_empty());
        assert!(
            s.tax()
                .tax_transactions(&all, u64::MAX, u32::MAX)
                .unwrap()
                .is_empty()
        );

        // A filter has its own order.
        let b = TaxFilter {
            account_id: Some("acc_b".into()),
            ..TaxFilter::default()
        };
        assert_eq!(
            ids(&s.tax().tax_transactions(&b, 10, 2).unwrap()),
            ["tr_0021", "tr_0023"]
        );
        assert_eq!(s.tax().tax_count(&b).unwrap(), 150);

        // A row that appears late, created before the rest: the kept order is read again.
        let mut early = tx(
            "tr_early",
            "2024-12-31T23:59:00Z",
            "acc_a",
            TaxTransactionType::BtcBuy,
            "0",
            "1",
        );
        early.note = "late".into();
        s.tax().add_page(&[Ok(early.into())], None).unwrap();
        assert_eq!(
            ids(&s.tax().tax_transactions(&all, 0, 2).unwrap()),
            ["tr_early", "tr_0000"]
        );
        assert_eq!(s.tax().tax_count(&all).unwrap(), 301);
        assert_eq!(
            ids(&s.tax().tax_transactions(&all, 151, 1).unwrap()),
            ["tr_0150"]
        );
    }

    #[test]
    fn rows_another_connection_stores_are_listed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        let app = Store::open(&path).unwrap();
        let cli = Store::open(&path).unwrap();
        app.tax().add_page(&[row(1), row(2)], None).unwrap();
        let all = TaxFilter::default();
        assert_eq!(app.tax().tax_transactions(&all, 0, 10).unwrap().len(), 2);
        cli.tax().add_page(&[row(0)], None).unwrap();
        assert_eq!(
            ids(&app.tax().tax_transactions(&all, 0, 10).unwrap()),
            ["tr_0000", "tr_0001", "tr_0002"]
        );
    }

    #[test]
    fn a_damaged_row_in_a_block_stops_it_with_the_reason() {
        let s = Store::in_memory().unwrap();
        s.tax().add_page(&[row(0), row(1)], None).unwrap();
        s.db()
            .execute(
                "UPDATE tax_transactions SET record = x'0160' WHERE id = 'tr_0001'",
                [],
            )
            .unwrap();
        let e = s
            .tax()
            .tax_transactions(&TaxFilter::default(), 0, 2)
            .unwrap_err();
        assert!(
            e.to_string().contains("record is damaged: cut short"),
            "{e}"
        );
    }
}
