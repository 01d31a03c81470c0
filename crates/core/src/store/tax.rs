//! The synced tax history (endpoint 14), the cursor that a sync resumes from, the rows the client
//! could not read, the account names of endpoint 13, and year-end rates the user entered.
//!
//! A row is one transaction by its id: a page fetched again updates the rows that changed (a
//! pending row made final, a late fee) and adds the new ones. Rows are read in the server's
//! (createTime, id) order, the order `runningBalanceBtc` was computed in, whatever order they
//! arrived in (a row can be listed late). Amounts are the server's decimal strings, exactly.

use std::collections::BTreeMap;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use nordlys_exchange::models::{
    ListedTaxTransaction, MalformedTaxTransaction, TaxTransaction, TaxTransactionType,
};
use nordlys_money::{NokPerBtc, NokPerUsd, Quantity, UsdPerBtc};
use rusqlite::{OptionalExtension, params};
use rust_decimal::Decimal;

use super::StoreError;
use super::tax_record;
use super::tax_scan::Scan;
use crate::tax::year_end_rate::RateChoice;
use crate::time::{oslo_year, year_start};

/// Where the next sync starts: the `nextAfter`/`nextAfterId` of the last page stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxCursor {
    pub after: DateTime<Utc>,
    pub after_id: String,
}

/// What one page changed in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TaxPageWrite {
    /// Rows new to the store.
    pub inserted: usize,
    /// Rows already stored that the page changed.
    pub updated: usize,
    pub malformed: usize,
}

/// Which rows a list, a report or an export covers. Empty fields do not filter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaxFilter {
    /// A Norwegian calendar year (Europe/Oslo).
    pub year: Option<i32>,
    /// Rows created before this instant: what a tax year's figures rest on, up to its end.
    pub before: Option<DateTime<Utc>>,
    pub account_id: Option<String>,
    pub tx_type: Option<String>,
    pub sub_type: Option<String>,
    /// Found in the note, the payment info or the id; case-insensitive for ASCII.
    pub search: String,
}

/// The values the filters can take, from the stored rows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaxFacets {
    pub years: Vec<i32>,
    pub accounts: Vec<String>,
    pub types: Vec<String>,
    pub sub_types: Vec<String>,
}

/// An account's name from endpoint 13 (`includeDeleted`), so old rows show a name, not an id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxAccountName {
    pub id: String,
    pub name: String,
    pub deleted: bool,
}

/// What a row is read from: the id, the account, the payment info and the note, and its record
/// (tax_record.rs). The creation time is the scan's key after a batch's last row.
pub(super) const COLUMNS: &str = "id, create_time, account_id, payment_info, note, record";

/// The index of the column a query selects after [`COLUMNS`].
pub(super) const AFTER_COLUMNS: usize = 6;

/// What a row is written as: the columns SQL filters, searches and orders by, and its record.
const WRITTEN: &str = "id, create_time, account_id, type, sub_type, finalize_time, rate_market, \
    payment_info, note, record";

/// Every written column but the id, set from the parameters of [`WRITTEN`]'s order.
const CHANGES: &str = "create_time = ?2, account_id = ?3, type = ?4, sub_type = ?5, \
    finalize_time = ?6, rate_market = ?7, payment_info = ?8, note = ?9, record = ?10";

/// A time as stored: fixed width, so text order is time order.
pub(super) fn stamp(t: &DateTime<Utc>) -> String {
    use chrono::{Datelike, Timelike};
    let year = match u32::try_from(t.year()) {
        Ok(year) if year <= 9999 => year,
        // Out of the fixed width: still a time, though not in text order with the others.
        _ => return t.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true),
    };
    // Written out digit by digit: a sync stamps every row, and `format!` was a tenth of what
    // storing a row cost.
    let mut out = String::with_capacity(STAMP_LEN);
    for (value, width, then) in [
        (year, 4, '-'),
        (t.month(), 2, '-'),
        (t.day(), 2, 'T'),
        (t.hour(), 2, ':'),
        (t.minute(), 2, ':'),
        (t.second(), 2, '.'),
        (t.nanosecond(), 9, 'Z'),
    ] {
        push_digits(&mut out, value, width);
        out.push(then);
    }
    out
}

/// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`.
const STAMP_LEN: usize = 30;

/// The last `width` decimal digits of `value`, zero-padded.
fn push_digits(out: &mut String, value: u32, width: u32) {
    for place in (0..width).rev() {
        let digit = value / 10u32.pow(place) % 10;
        out.push(char::from(b'0' + digit as u8));
    }
}

/// A stored time back. A stamp as [`stamp`] writes it is read field by field (reports read
/// two a row); any other RFC 3339 text, as older versions may have stored, is parsed as such.
pub(super) fn unstamp(text: &str) -> Result<DateTime<Utc>, StoreError> {
    unstamp_fixed(text)
        .or_else(|| {
            DateTime::parse_from_rfc3339(text)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        })
        .ok_or_else(|| StoreError::Corrupt(format!("`{text}` is not a time")))
}

fn unstamp_fixed(text: &str) -> Option<DateTime<Utc>> {
    let b = text.as_bytes();
    if b.len() != STAMP_LEN {
        return None;
    }
    let field = |at: usize, width: usize, then: u8| -> Option<u32> {
        let digits = b.get(at..at + width)?;
        if b.get(at + width) != Some(&then) {
            return None;
        }
        digits.iter().try_fold(0u32, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
        })
    };
    let date = chrono::NaiveDate::from_ymd_opt(
        i32::try_from(field(0, 4, b'-')?).ok()?,
        field(5, 2, b'-')?,
        field(8, 2, b'T')?,
    )?;
    let time = date.and_hms_nano_opt(
        field(11, 2, b':')?,
        field(14, 2, b':')?,
        field(17, 2, b'.')?,
        field(20, 9, b'Z')?,
    )?;
    Some(time.and_utc())
}

fn opt_text<T: ToString>(v: Option<&T>) -> String {
    v.map(ToString::to_string).unwrap_or_default()
}

pub(super) fn opt_dec<Q: Quantity>(text: &str) -> Result<Option<Q>, StoreError> {
    if text.is_empty() {
        return Ok(None);
    }
    Decimal::from_str(text)
        .map(|d| Some(Q::computed(d)))
        .map_err(|_| StoreError::Corrupt(format!("`{text}` is not a decimal")))
}

/// What a stored row reads back as: the API's type, or why its text is damaged.
pub(super) type StoredRow = Result<TaxTransaction, StoreError>;

/// A row of [`COLUMNS`] back as the API's type. Only what stays text (the ids, the note, the
/// payment info) is copied out of SQLite; the rest is read from the row's record.
pub(super) fn stored_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredRow> {
    let text = |column: usize| -> rusqlite::Result<&str> {
        r.get_ref(column)?.as_str().map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Text, e.into())
        })
    };
    let (id, account, payment_info, note) = (text(0)?, text(2)?, text(3)?, text(4)?);
    let record = r.get_ref(5)?.as_blob().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(5, rusqlite::types::Type::Blob, e.into())
    })?;
    Ok(tax_record::decode(
        record,
        tax_record::RowText {
            id: id.into(),
            account_id: (!account.is_empty()).then(|| account.into()),
            payment_info: payment_info.to_owned(),
            note: note.to_owned(),
        },
    ))
}

/// The WHERE clause of `filter` and its parameters, all text.
pub(super) fn where_clause(filter: &TaxFilter) -> (String, Vec<String>) {
    let mut terms = vec![];
    let mut values = vec![];
    if let Some(y) = filter.year {
        terms.push("create_time >= ? AND create_time < ?");
        values.push(stamp(&year_start(y)));
        values.push(stamp(&year_start(y + 1)));
    }
    if let Some(end) = &filter.before {
        terms.push("create_time < ?");
        values.push(stamp(end));
    }
    for (column, value) in [
        ("account_id = ?", &filter.account_id),
        ("type = ?", &filter.tx_type),
        ("sub_type = ?", &filter.sub_type),
    ] {
        if let Some(v) = value {
            terms.push(column);
            values.push(v.clone());
        }
    }
    let search = filter.search.trim();
    if !search.is_empty() {
        terms.push(
            "(note LIKE ? ESCAPE '\\' OR payment_info LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\')",
        );
        let escaped = search
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        let pattern = format!("%{escaped}%");
        values.extend([pattern.clone(), pattern.clone(), pattern]);
    }
    if terms.is_empty() {
        (String::new(), values)
    } else {
        (format!(" WHERE {}", terms.join(" AND ")), values)
    }
}

impl super::Tax<'_> {
    pub fn cursor(&self) -> Result<Option<TaxCursor>, StoreError> {
        let found = self
            .db()
            .query_row("SELECT after, after_id FROM tax_sync", [], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })
            .optional()?;
        found
            .map(|(after, after_id)| {
                Ok(TaxCursor {
                    after: unstamp(&after)?,
                    after_id,
                })
            })
            .transpose()
    }

    /// Stores one page and the cursor after it in one transaction: after a crash either both are
    /// there or neither, so a resumed sync has no gap and no duplicate.
    pub fn add_page(
        &self,
        rows: &[Result<ListedTaxTransaction, MalformedTaxTransaction>],
        cursor: Option<&TaxCursor>,
    ) -> Result<TaxPageWrite, StoreError> {
        let mut db = self.db();
        // A page the disk loses in a power cut is fetched again by the next sync, since its
        // cursor goes with it; so these commits skip the flush that journals of money keep.
        db.pragma_update(None, "synchronous", "NORMAL")?;
        let written = Self::insert_tax_page(&mut db, rows, cursor);
        db.pragma_update(None, "synchronous", "FULL")?;
        drop(db);
        self.tax_changed();
        written
    }

    fn insert_tax_page(
        db: &mut rusqlite::Connection,
        rows: &[Result<ListedTaxTransaction, MalformedTaxTransaction>],
        cursor: Option<&TaxCursor>,
    ) -> Result<TaxPageWrite, StoreError> {
        let tx = db.transaction()?;
        let mut written = TaxPageWrite::default();
        {
            // A new row costs two statements (its columns, its JSON as sent); a row read again
            // costs two more, which write only when something differs.
            let mut insert = tx.prepare_cached(&format!(
                "INSERT OR IGNORE INTO tax_transactions ({WRITTEN}) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
            ))?;
            let mut sent = tx.prepare_cached(
                "INSERT OR REPLACE INTO tax_rows_as_sent (seq, raw) VALUES (?1, ?2)",
            )?;
            let mut update = tx.prepare_cached(&format!(
                "UPDATE tax_transactions SET {CHANGES} WHERE id = ?1 AND ({}) <> ({})",
                &WRITTEN["id, ".len()..],
                (2..=10)
                    .map(|i| format!("?{i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))?;
            let mut resent = tx.prepare_cached(
                "INSERT INTO tax_rows_as_sent (seq, raw) SELECT seq, ?2 FROM tax_transactions WHERE id = ?1 \
                 ON CONFLICT (seq) DO UPDATE SET raw = excluded.raw WHERE raw <> excluded.raw",
            )?;
            let mut bad = tx.prepare_cached(
                "INSERT OR IGNORE INTO tax_malformed (id, create_time, reason, raw) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for row in rows {
                match row {
                    Ok(ListedTaxTransaction {
                        transaction: t,
                        raw,
                    }) => {
                        let values = params![
                            t.id.as_str(),
                            stamp(&t.create_time),
                            opt_text(t.account_id.as_ref()),
                            t.tx_type.as_str(),
                            t.sub_type.as_str(),
                            t.finalize_time.as_ref().map(stamp).unwrap_or_default(),
                            opt_text(t.rate_market.as_ref()),
                            t.payment_info,
                            t.note,
                            tax_record::encode(t),
                        ];
                        if insert.execute(values)? == 1 {
                            sent.execute(params![tx.last_insert_rowid(), raw])?;
                            written.inserted += 1;
                        } else {
                            let changed = update.execute(values)?
                                + resent.execute(params![t.id.as_str(), raw])?;
                            written.updated += usize::from(changed > 0);
                        }
                    }
                    Err(m) => {
                        written.malformed += bad.execute(params![
                            m.id,
                            m.create_time.as_ref().map(stamp).unwrap_or_default(),
                            m.reason,
                            m.raw
                        ])?;
                    }
                }
            }
        }
        if let Some(c) = cursor {
            tx.execute(
                "INSERT OR REPLACE INTO tax_sync (only, after, after_id, synced_at_ms) VALUES (1, ?1, ?2, ?3)",
                params![stamp(&c.after), c.after_id, Utc::now().timestamp_millis()],
            )?;
        }
        tx.commit()?;
        Ok(written)
    }

    /// The creation time of the oldest stored row.
    pub fn oldest(&self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let first: Option<String> = self
            .db()
            .query_row(
                "SELECT create_time FROM tax_transactions ORDER BY create_time, id LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        first.as_deref().map(unstamp).transpose()
    }

    /// The rows of some orders, read in one pass: those whose id is one of `ids` (their trades),
    /// and those whose note carries one of `references` (when the exchange echoes descriptions;
    /// all references have one length), oldest first.
    pub fn rows_of_orders(
        &self,
        ids: &[String],
        references: &[String],
    ) -> Result<Vec<TaxTransaction>, StoreError> {
        let raw = {
            let db = self.db();
            let mut q = db.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM tax_transactions WHERE id IN (SELECT value FROM json_each(?1))
                 OR (instr(note, '[nordlys ') > 0
                     AND substr(note, instr(note, '[nordlys '), ?3) IN (SELECT value FROM json_each(?2)))
                 ORDER BY create_time, id"
            ))?;
            let json = |v: &[String]| serde_json::to_string(v).unwrap_or_else(|_| "[]".to_owned());
            let length = references.first().map_or(0, |r| r.chars().count() as i64);
            q.query_map(params![json(ids), json(references), length], stored_row)?
                .collect::<Result<Vec<_>, _>>()?
        };
        raw.into_iter().collect()
    }

    /// The bitcoin withdrawals made at or after `since` that name where they went (their
    /// `paymentInfo`), oldest first, at most 500: what a payment's transaction id is read from.
    pub fn transfers_out_since(
        &self,
        since: DateTime<Utc>,
    ) -> Result<Vec<TaxTransaction>, StoreError> {
        let raw = {
            let db = self.db();
            let mut q = db.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM tax_transactions WHERE type = ?1 AND create_time >= ?2
                 AND payment_info <> '' ORDER BY create_time, id LIMIT 500"
            ))?;
            q.query_map(
                params![TaxTransactionType::BtcWithdrawal.as_str(), stamp(&since)],
                stored_row,
            )?
            .collect::<Result<Vec<_>, _>>()?
        };
        raw.into_iter().collect()
    }

    /// The newest `limit` buys and sells, newest first: Trade history.
    pub fn trades_newest(&self, limit: u32) -> Result<Vec<TaxTransaction>, StoreError> {
        let raw = {
            let db = self.db();
            let mut q = db.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM tax_transactions WHERE type IN (?1, ?2) ORDER BY create_time DESC, id DESC LIMIT ?3"
            ))?;
            q.query_map(
                params![
                    TaxTransactionType::BtcBuy.as_str(),
                    TaxTransactionType::BtcSell.as_str(),
                    limit
                ],
                stored_row,
            )?
            .collect::<Result<Vec<_>, _>>()?
        };
        raw.into_iter().collect()
    }

    /// The market rate of each stored row made at or after `since`, oldest first, without reading
    /// the rest of the row: the price chart's daily prices take them from the user's history.
    pub fn market_rates_since(
        &self,
        since: DateTime<Utc>,
    ) -> Result<Vec<(DateTime<Utc>, NokPerBtc)>, StoreError> {
        let raw = {
            let db = self.db();
            let mut q = db.prepare_cached(
                "SELECT create_time, rate_market FROM tax_transactions \
                 WHERE create_time >= ?1 AND rate_market != '' ORDER BY create_time, id",
            )?;
            q.query_map([stamp(&since)], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?
        };
        raw.into_iter()
            .filter_map(
                |(at, rate)| match (unstamp(&at), opt_dec::<NokPerBtc>(&rate)) {
                    (Ok(at), Ok(Some(rate))) => Some(Ok((at, rate))),
                    (Err(e), _) | (_, Err(e)) => Some(Err(e)),
                    (Ok(_), Ok(None)) => None,
                },
            )
            .collect()
    }

    /// Where the stored history ends now: rows stored later come after this mark.
    pub fn mark(&self) -> Result<i64, StoreError> {
        Ok(self.db().query_row(
            "SELECT COALESCE(MAX(seq), 0) FROM tax_transactions",
            [],
            |r| r.get(0),
        )?)
    }

    /// Every filtered row, oldest first, a bounded batch at a time: reports and exports of any
    /// history size without holding it all. Each row is lent, where it was read, not handed over.
    pub fn each_transaction<E: From<StoreError>>(
        &self,
        filter: &TaxFilter,
        mut f: impl FnMut(&TaxTransaction) -> Result<(), E>,
    ) -> Result<(), E> {
        self.each_row(filter, false, |t, _| f(t))
    }

    /// [`Self::each_transaction`] with each row's JSON as the server sent it (the row written
    /// out again for one stored before Nordlys kept it), for what names the rows it rests on by
    /// their hash.
    pub fn each_row_as_sent<E: From<StoreError>>(
        &self,
        filter: &TaxFilter,
        mut f: impl FnMut(&TaxTransaction, &str) -> Result<(), E>,
    ) -> Result<(), E> {
        self.each_row(filter, true, |t, raw| {
            if raw.is_empty() {
                f(t, &ListedTaxTransaction::json_of(t))
            } else {
                f(t, raw)
            }
        })
    }

    /// The rows with these ids, each with its JSON as the server sent it (the row written out
    /// again for one stored before Nordlys kept it), in the order asked; an id not stored is
    /// left out.
    pub fn rows_as_sent(&self, ids: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let found = {
                let db = self.db();
                let mut q = db.prepare_cached(&format!(
                    "SELECT {COLUMNS}, COALESCE(raw, '') FROM tax_transactions \
                     LEFT JOIN tax_rows_as_sent USING (seq) WHERE id = ?1"
                ))?;
                q.query_map([id], |r| {
                    Ok((stored_row(r)?, r.get::<_, String>(AFTER_COLUMNS)?))
                })?
                .next()
                .transpose()?
            };
            if let Some((row, raw)) = found {
                let raw = if raw.is_empty() {
                    ListedTaxTransaction::json_of(&row?)
                } else {
                    raw
                };
                out.push((id.clone(), raw));
            }
        }
        Ok(out)
    }

    /// The JSON as sent is read only when asked for. A long history on disk is read by two
    /// readers (`tax_scan`); they cost two connections and two threads, which a short one, read
    /// in a few milliseconds, does not repay.
    fn each_row<E: From<StoreError>>(
        &self,
        filter: &TaxFilter,
        as_sent: bool,
        f: impl FnMut(&TaxTransaction, &str) -> Result<(), E>,
    ) -> Result<(), E> {
        /// Rows stored (by `seq`) from which two readers read them.
        const TWO_READERS_FROM: i64 = 20_000;
        let scan = Scan::new(filter, as_sent);
        match &self.file {
            Some(file) if self.mark()? >= TWO_READERS_FROM => scan.each_merged(file, f),
            _ => scan.each_alone(self, f),
        }
    }

    /// Rows the client could not read, created before `end` or at an unknown time: each makes
    /// the figures up to `end` not computable.
    pub fn malformed_before(
        &self,
        end: &DateTime<Utc>,
    ) -> Result<Vec<MalformedTaxTransaction>, StoreError> {
        Ok(self
            .malformed()?
            .into_iter()
            .filter(|m| m.create_time.is_none_or(|t| t < *end))
            .collect())
    }

    /// What the user entered for a deposit from outside: when it was acquired and what it cost.
    pub fn set_deposit_cost(
        &self,
        id: &str,
        cost: Option<&crate::tax::gains::EnteredCost>,
    ) -> Result<(), StoreError> {
        let db = self.db();
        match cost {
            Some(c) => db.execute(
                "INSERT OR REPLACE INTO deposit_costs (id, acquired_at, cost_nok) VALUES (?1, ?2, ?3)",
                params![id, stamp(&c.acquired_at), c.cost_nok.to_string()],
            )?,
            None => db.execute("DELETE FROM deposit_costs WHERE id = ?1", [id])?,
        };
        drop(db);
        self.tax_changed();
        Ok(())
    }

    pub fn deposit_costs(
        &self,
    ) -> Result<BTreeMap<String, crate::tax::gains::EnteredCost>, StoreError> {
        let db = self.db();
        let mut q = db.prepare("SELECT id, acquired_at, cost_nok FROM deposit_costs")?;
        let rows = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(id, at, cost)| {
                Ok((
                    id,
                    crate::tax::gains::EnteredCost {
                        acquired_at: unstamp(&at)?,
                        cost_nok: opt_dec(&cost)?.unwrap_or_default(),
                    },
                ))
            })
            .collect()
    }

    /// The creation time of the oldest row that is still pending (no `finalizeTime`).
    pub fn oldest_pending(&self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let first: Option<String> = self
            .db()
            .query_row(
                "SELECT MIN(create_time) FROM tax_transactions WHERE finalize_time = ''",
                [],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        first.as_deref().map(unstamp).transpose()
    }

    pub fn facets(&self) -> Result<TaxFacets, StoreError> {
        let db = self.db();
        let distinct = |column: &str| -> Result<Vec<String>, StoreError> {
            let mut q = db.prepare(&format!(
                "SELECT DISTINCT {column} FROM tax_transactions ORDER BY {column}"
            ))?;
            let values = q
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(values)
        };
        let span: Option<(String, String)> = db.query_row(
            "SELECT MIN(create_time), MAX(create_time) FROM tax_transactions",
            [],
            |r| {
                Ok(r.get::<_, Option<String>>(0)?
                    .zip(r.get::<_, Option<String>>(1)?))
            },
        )?;
        let years = match span {
            Some((first, last)) => {
                (oslo_year(&unstamp(&first)?)..=oslo_year(&unstamp(&last)?)).collect()
            }
            None => vec![],
        };
        Ok(TaxFacets {
            years,
            accounts: distinct("account_id")?
                .into_iter()
                .filter(|a| !a.is_empty())
                .collect(),
            types: distinct("type")?,
            sub_types: distinct("sub_type")?,
        })
    }

    /// Rows the client could not read, in the order they arrived.
    pub fn malformed(&self) -> Result<Vec<MalformedTaxTransaction>, StoreError> {
        let db = self.db();
        let mut q =
            db.prepare("SELECT id, create_time, reason, raw FROM tax_malformed ORDER BY rowid")?;
        let raw = q
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        raw.into_iter()
            .map(|(id, created, reason, raw)| {
                Ok(MalformedTaxTransaction {
                    id,
                    create_time: if created.is_empty() {
                        None
                    } else {
                        Some(unstamp(&created)?)
                    },
                    reason,
                    raw,
                })
            })
            .collect()
    }

    /// Forgets the synced history, its cursor and account names (not the user's own rates): for a
    /// world that no longer exists, such as a sandbox started afresh.
    pub fn forget_history(&self) -> Result<(), StoreError> {
        self.db().execute_batch(
            "BEGIN;
             DELETE FROM tax_transactions;
             DELETE FROM tax_rows_as_sent;
             DELETE FROM tax_malformed;
             DELETE FROM tax_sync;
             DELETE FROM tax_accounts;
             DELETE FROM deposit_watch;
             DELETE FROM tax_owner;
             COMMIT;",
        )?;
        self.tax_changed();
        Ok(())
    }

    /// Replaces the known account names with what endpoint 13 returned.
    pub fn set_accounts(&self, accounts: &[TaxAccountName]) -> Result<(), StoreError> {
        let mut db = self.db();
        let tx = db.transaction()?;
        for a in accounts {
            tx.execute(
                "INSERT OR REPLACE INTO tax_accounts (id, name, deleted) VALUES (?1, ?2, ?3)",
                params![a.id, a.name, a.deleted],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    pub fn accounts(&self) -> Result<Vec<TaxAccountName>, StoreError> {
        let db = self.db();
        let mut q =
            db.prepare("SELECT id, name, deleted FROM tax_accounts ORDER BY deleted, name")?;
        let rows = q.query_map([], |r| {
            Ok(TaxAccountName {
                id: r.get(0)?,
                name: r.get(1)?,
                deleted: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The year-end rate's source the user chose for `year`, or `None` to choose none.
    pub fn set_year_end_choice(
        &self,
        year: i32,
        choice: Option<&RateChoice>,
    ) -> Result<(), StoreError> {
        let db = self.db();
        let Some(choice) = choice else {
            db.execute("DELETE FROM year_end_choices WHERE year = ?1", [year])?;
            return Ok(());
        };
        let text = |d: Decimal| Some(d.to_string());
        let (kind, nok_per_btc, usd_per_btc, nok_per_usd) = match choice {
            RateChoice::Entered(r) => ("nok-per-btc", text(r.decimal()), None, None),
            RateChoice::ViaUsd {
                usd_per_btc,
                nok_per_usd,
            } => (
                "via-usd",
                None,
                text(usd_per_btc.decimal()),
                text(nok_per_usd.decimal()),
            ),
            RateChoice::LastTransaction => ("last-transaction", None, None, None),
            RateChoice::Sample => ("sample", None, None, None),
        };
        db.execute(
            "INSERT OR REPLACE INTO year_end_choices (year, kind, nok_per_btc, usd_per_btc, \
             nok_per_usd) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![year, kind, nok_per_btc, usd_per_btc, nok_per_usd],
        )?;
        Ok(())
    }

    /// Each year's chosen source of its year-end rate.
    pub fn year_end_choices(&self) -> Result<BTreeMap<i32, RateChoice>, StoreError> {
        let raw = {
            let db = self.db();
            let mut q = db.prepare(
                "SELECT year, kind, nok_per_btc, usd_per_btc, nok_per_usd FROM year_end_choices",
            )?;
            q.query_map([], |r| {
                Ok((
                    r.get::<_, i32>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                    r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                    r.get::<_, Option<String>>(4)?.unwrap_or_default(),
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?
        };
        let number = |text: &str| {
            Decimal::from_str(text)
                .map_err(|_| StoreError::Corrupt(format!("`{text}` is not a decimal")))
        };
        raw.into_iter()
            .map(|(year, kind, nok_per_btc, usd_per_btc, nok_per_usd)| {
                let choice = match kind.as_str() {
                    "nok-per-btc" => {
                        RateChoice::Entered(NokPerBtc::computed(number(&nok_per_btc)?))
                    }
                    "via-usd" => RateChoice::ViaUsd {
                        usd_per_btc: UsdPerBtc::new(number(&usd_per_btc)?),
                        nok_per_usd: NokPerUsd::new(number(&nok_per_usd)?),
                    },
                    "last-transaction" => RateChoice::LastTransaction,
                    "sample" => RateChoice::Sample,
                    other => {
                        return Err(StoreError::Corrupt(format!(
                            "`{other}` is not a year-end rate's source"
                        )));
                    }
                };
                Ok((year, choice))
            })
            .collect()
    }

    /// The last stored row before `end` with a positive market rate: its id, time and rate.
    pub fn last_market_rate_before(
        &self,
        end: &DateTime<Utc>,
    ) -> Result<Option<(String, DateTime<Utc>, NokPerBtc)>, StoreError> {
        let db = self.db();
        let mut q = db.prepare_cached(
            "SELECT id, create_time, rate_market FROM tax_transactions \
             WHERE create_time < ?1 AND rate_market != '' ORDER BY create_time DESC, id DESC",
        )?;
        let mut rows = q.query([stamp(end)])?;
        while let Some(r) = rows.next()? {
            let (id, at, rate): (String, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
            if let Some(rate) = opt_dec::<NokPerBtc>(&rate)?.filter(|r| r.is_positive()) {
                return Ok(Some((id, unstamp(&at)?, rate)));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::tax::tests_support::{RowParts, tx};
    use nordlys_exchange::models::TaxTransactionType;

    fn page() -> Vec<Result<TaxTransaction, MalformedTaxTransaction>> {
        let mut a = tx(
            "tr_1",
            "2024-12-31T22:59:59Z",
            "acc_a",
            TaxTransactionType::BtcBuy,
            "0.5",
            "1",
        )
        .received("0.50000000", "BTC");
        a.note = "100% kaffe_penger".into();
        vec![
            Ok(a),
            // Same second as the next one: both kept, told apart by id.
            Ok(tx(
                "tr_2",
                "2024-12-31T23:00:00Z",
                "acc_b",
                TaxTransactionType::BtcSell,
                "0",
                "1",
            )),
            Ok(tx(
                "tr_3",
                "2024-12-31T23:00:00Z",
                "acc_b",
                TaxTransactionType::Unknown("a kind added later".into()),
                "0",
                "1",
            )),
            Err(MalformedTaxTransaction {
                id: "tr_4".into(),
                create_time: None,
                reason: "inAmount: not a decimal".into(),
                raw: "{}".into(),
            }),
        ]
    }

    /// Rows as a page lists them, each with its JSON.
    fn listed(
        rows: &[Result<TaxTransaction, MalformedTaxTransaction>],
    ) -> Vec<Result<ListedTaxTransaction, MalformedTaxTransaction>> {
        rows.iter().cloned().map(|r| r.map(Into::into)).collect()
    }

    fn cursor() -> TaxCursor {
        TaxCursor {
            after: "2024-12-31T23:00:00Z".parse().unwrap(),
            after_id: "tr_4".into(),
        }
    }

    #[test]
    fn rows_stored_after_a_mark_are_the_new_ones_not_those_read_again() {
        let s = Store::in_memory().unwrap();
        assert_eq!(s.tax().mark().unwrap(), 0);
        let rows = page();
        s.tax().add_page(&listed(&rows[..1]), None).unwrap();
        let mark = s.tax().mark().unwrap();
        // The first row again (changed) and two new ones.
        let mut again = rows.clone();
        if let Ok(t) = &mut again[0] {
            t.note = "final now".into();
        }
        s.tax().add_page(&listed(&again), Some(&cursor())).unwrap();
        // What the deposit watch reads: rows by the order they were first stored.
        let stored_after = |mark: i64| -> (Vec<String>, i64) {
            let db = s.db();
            let mut q = db
                .prepare("SELECT id, seq FROM tax_transactions WHERE seq > ?1 ORDER BY seq")
                .unwrap();
            let rows: Vec<(String, i64)> = q
                .query_map([mark], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            let next = rows.last().map_or(mark, |(_, seq)| *seq);
            (rows.into_iter().map(|(id, _)| id).collect(), next)
        };
        let (ids, next) = stored_after(mark);
        assert_eq!(ids, ["tr_2", "tr_3"]);
        assert_eq!(next, s.tax().mark().unwrap());
        assert!(stored_after(next).0.is_empty());
    }

    #[test]
    fn an_orders_rows_are_found_by_trade_id_or_by_the_reference_its_note_echoes() {
        let s = Store::in_memory().unwrap();
        let mut rows = page();
        if let Ok(t) = &mut rows[1] {
            t.note = "Nordlys plan 1 [nordlys ref00001]".into();
        }
        if let Ok(t) = &mut rows[2] {
            t.note = "Nordlys plan 2 [nordlys ref00002]".into();
        }
        s.tax().add_page(&listed(&rows), Some(&cursor())).unwrap();
        let ids = |found: Vec<TaxTransaction>| -> Vec<String> {
            found.into_iter().map(|t| t.id.to_string()).collect()
        };
        let found = s
            .tax()
            .rows_of_orders(&["tr_1".into()], &["[nordlys ref00001]".into()])
            .unwrap();
        assert_eq!(ids(found), ["tr_1", "tr_2"], "oldest first");
        let none = s.tax().rows_of_orders(&[], &[]).unwrap();
        assert!(none.is_empty());
        // A note that merely mentions another reference is not this order's.
        let other = s
            .tax()
            .rows_of_orders(&[], &["[nordlys ref00003]".into()])
            .unwrap();
        assert!(other.is_empty());
    }

    #[test]
    fn market_rates_are_read_from_a_time_on_without_the_rows_that_have_none() {
        let s = Store::in_memory().unwrap();
        let mut rows = page();
        if let Ok(t) = &mut rows[2] {
            t.rate_market = None;
        }
        s.tax().add_page(&listed(&rows), Some(&cursor())).unwrap();
        let since = "2024-12-31T23:00:00Z".parse().unwrap();
        let rates = s.tax().market_rates_since(since).unwrap();
        let times: Vec<String> = rates.iter().map(|(t, _)| t.to_rfc3339()).collect();
        assert_eq!(
            times,
            ["2024-12-31T23:00:00+00:00"],
            "the row before and the row without a rate are left out"
        );
        let all = s
            .tax()
            .market_rates_since(DateTime::<Utc>::MIN_UTC)
            .unwrap();
        assert_eq!(all.len(), 2);
    }

    #[test]
    fn trade_history_is_the_buys_and_sells_newest_first() {
        let s = Store::in_memory().unwrap();
        s.tax().add_page(&listed(&page()), Some(&cursor())).unwrap();
        let ids: Vec<String> = s
            .tax()
            .trades_newest(10)
            .unwrap()
            .iter()
            .map(|t| t.id.to_string())
            .collect();
        assert_eq!(ids, ["tr_2", "tr_1"], "the unknown kind is not a trade");
        assert_eq!(s.tax().trades_newest(1).unwrap().len(), 1);
    }

    #[test]
    fn a_page_stored_twice_is_stored_once_and_reads_back_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        {
            let s = Store::open(&path).unwrap();
            let first = s.tax().add_page(&listed(&page()), Some(&cursor())).unwrap();
            assert_eq!(
                first,
                TaxPageWrite {
                    inserted: 3,
                    updated: 0,
                    malformed: 1
                }
            );
            let again = s.tax().add_page(&listed(&page()), Some(&cursor())).unwrap();
            assert_eq!(again, TaxPageWrite::default());
        }
        let s = Store::open(&path).unwrap();
        assert_eq!(s.tax().cursor().unwrap(), Some(cursor()));
        let all = s
            .tax()
            .tax_transactions(&TaxFilter::default(), 0, 10)
            .unwrap();
        let expected: Vec<_> = page().into_iter().filter_map(Result::ok).collect();
        assert_eq!(all, expected);
        assert_eq!(all[0].in_amount.unwrap().to_string(), "0.50000000");
        assert_eq!(s.tax().malformed().unwrap()[0].id, "tr_4");
        assert_eq!(s.tax().oldest().unwrap(), Some(expected[0].create_time));
    }

    #[test]
    fn a_row_that_changes_is_updated_in_place_and_a_late_one_takes_its_place_in_time() {
        let s = Store::in_memory().unwrap();
        let mut rows: Vec<TaxTransaction> = page().into_iter().filter_map(Result::ok).collect();
        for r in &mut rows {
            r.finalize_time = Some(r.create_time);
        }
        // tr_2 is pending when first listed: no finalizeTime, no fee yet.
        let pending_at = rows[1].create_time;
        rows[1].finalize_time = None;
        s.tax()
            .add_page(
                &listed(&rows.iter().cloned().map(Ok).collect::<Vec<_>>()),
                None,
            )
            .unwrap();
        assert_eq!(s.tax().oldest_pending().unwrap(), Some(pending_at));

        // Final now, with its fee; and a row listed late, older than every stored one.
        let mut fin = rows[1].clone();
        fin.finalize_time = Some(pending_at + chrono::TimeDelta::seconds(5));
        fin.fee_amount = Some(Decimal::new(1, 4));
        fin.fee_currency = Some(nordlys_exchange::models::CurrencyCode::Btc);
        let mut late = rows[0].clone();
        late.id = "tr_0".into();
        late.create_time = "2024-06-01T00:00:00Z".parse().unwrap();
        late.finalize_time = Some(late.create_time);
        let write = s
            .tax()
            .add_page(
                &listed(&[Ok(fin.clone()), Ok(rows[2].clone()), Ok(late.clone())]),
                None,
            )
            .unwrap();
        assert_eq!(
            write,
            TaxPageWrite {
                inserted: 1,
                updated: 1,
                malformed: 0
            }
        );
        assert_eq!(s.tax().oldest_pending().unwrap(), None);
        let all = s
            .tax()
            .tax_transactions(&TaxFilter::default(), 0, 10)
            .unwrap();
        assert_eq!(all.len(), 4, "each transaction once");
        assert_eq!(all[0], late, "in time order, not arrival order");
        assert_eq!(all[2], fin, "the stored row is the final one");
        let mut seen = Vec::new();
        s.tax()
            .each_transaction::<StoreError>(&TaxFilter::default(), |t| {
                seen.push(t.id.as_str().to_owned());
                Ok(())
            })
            .unwrap();
        assert_eq!(seen, ["tr_0", "tr_1", "tr_2", "tr_3"]);
        assert_eq!(s.tax().oldest().unwrap(), Some(late.create_time));
    }

    #[test]
    fn filters_use_norwegian_years_and_search_takes_wildcards_literally() {
        let s = Store::in_memory().unwrap();
        s.tax().add_page(&listed(&page()), None).unwrap();
        assert_eq!(s.tax().cursor().unwrap(), None);
        let count = |f: TaxFilter| s.tax().tax_count(&f).unwrap();
        assert_eq!(
            count(TaxFilter {
                year: Some(2024),
                ..TaxFilter::default()
            }),
            1
        );
        assert_eq!(
            count(TaxFilter {
                year: Some(2025),
                ..TaxFilter::default()
            }),
            2
        );
        assert_eq!(
            count(TaxFilter {
                account_id: Some("acc_b".into()),
                ..TaxFilter::default()
            }),
            2
        );
        assert_eq!(
            count(TaxFilter {
                tx_type: Some("a kind added later".into()),
                ..TaxFilter::default()
            }),
            1
        );
        assert_eq!(
            count(TaxFilter {
                search: "100%".into(),
                ..TaxFilter::default()
            }),
            1
        );
        assert_eq!(
            count(TaxFilter {
                search: "KAFFE_".into(),
                ..TaxFilter::default()
            }),
            1
        );
        assert_eq!(
            count(TaxFilter {
                search: "1_0".into(),
                ..TaxFilter::default()
            }),
            0
        );
        let second = s
            .tax()
            .tax_transactions(&TaxFilter::default(), 1, 1)
            .unwrap();
        assert_eq!(second[0].id.as_str(), "tr_2");
        let facets = s.tax().facets().unwrap();
        assert_eq!(facets.years, [2024, 2025]);
        assert_eq!(facets.accounts, ["acc_a", "acc_b"]);
        assert_eq!(facets.types.len(), 3);
    }

    #[test]
    fn a_damaged_row_is_reported_not_read_as_zero() {
        let s = Store::in_memory().unwrap();
        s.tax().add_page(&listed(&page()), None).unwrap();
        s.db()
            .execute(
                "UPDATE tax_transactions SET record = x'01' WHERE id = 'tr_1'",
                [],
            )
            .unwrap();
        let err = s
            .tax()
            .tax_transactions(&TaxFilter::default(), 0, 10)
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Corrupt(ref v) if v.contains("record is damaged")),
            "{err}"
        );
    }

    /// Reports read the history a batch at a time; rows sharing one second across a batch's end
    /// are each read once, in (createTime, id) order, and a damaged one stops the read.
    #[test]
    fn every_row_is_read_once_in_order_across_batches() {
        let s = Store::in_memory().unwrap();
        // 4,500 rows, three to a second: batches of 2,000 end inside a second.
        let rows: Vec<_> = (0..4_500)
            .map(|i| {
                let at = chrono::DateTime::from_timestamp(1_700_000_000 + i / 3, 0).unwrap();
                let mut t = tx(
                    &format!("tr_{:05}", 4_500 - i),
                    &at.to_rfc3339(),
                    "acc_a",
                    TaxTransactionType::BtcDeposit,
                    "1",
                    "1",
                );
                t.note = format!("row {i}");
                Ok(t)
            })
            .collect();
        s.tax().add_page(&listed(&rows), None).unwrap();
        let mut read = vec![];
        s.tax()
            .each_transaction::<StoreError>(&TaxFilter::default(), |t| {
                read.push((t.create_time, t.id.as_str().to_owned(), t.note.clone()));
                Ok(())
            })
            .unwrap();
        let mut expected: Vec<_> = rows
            .iter()
            .flatten()
            .map(|t| (t.create_time, t.id.as_str().to_owned(), t.note.clone()))
            .collect();
        expected.sort();
        assert_eq!(read.len(), 4_500);
        assert_eq!(read, expected);

        s.db()
            .execute(
                "UPDATE tax_transactions SET record = x'09' WHERE id = 'tr_00002'",
                [],
            )
            .unwrap();
        let err = s
            .tax()
            .each_transaction::<StoreError>(&TaxFilter::default(), |_| Ok(()))
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Corrupt(ref v) if v.contains("record version 9")),
            "{err}"
        );
    }

    #[test]
    fn forgetting_the_history_starts_the_next_sync_from_the_beginning() {
        let s = Store::in_memory().unwrap();
        s.tax().add_page(&listed(&page()), Some(&cursor())).unwrap();
        s.tax()
            .set_year_end_choice(2024, Some(&RateChoice::Sample))
            .unwrap();
        s.tax().forget_history().unwrap();
        assert_eq!(s.tax().cursor().unwrap(), None);
        assert_eq!(s.tax().tax_count(&TaxFilter::default()).unwrap(), 0);
        assert!(s.tax().malformed().unwrap().is_empty());
        assert_eq!(s.tax().year_end_choices().unwrap().len(), 1);
    }

    #[test]
    fn each_source_of_a_year_end_rate_is_kept_exactly_and_removed() {
        let s = Store::in_memory().unwrap();
        let choices = [
            RateChoice::Entered(NokPerBtc::computed(Decimal::new(104_821_355, 2))),
            RateChoice::ViaUsd {
                usd_per_btc: UsdPerBtc::new(Decimal::new(934_292, 1)),
                nok_per_usd: NokPerUsd::new(Decimal::new(11_3521, 4)),
            },
            RateChoice::LastTransaction,
            RateChoice::Sample,
        ];
        for (year, c) in (2021..).zip(&choices) {
            s.tax().set_year_end_choice(year, Some(c)).unwrap();
        }
        let kept = s.tax().year_end_choices().unwrap();
        assert_eq!(kept.values().cloned().collect::<Vec<_>>(), choices);
        s.tax().set_year_end_choice(2021, None).unwrap();
        assert!(!s.tax().year_end_choices().unwrap().contains_key(&2021));
    }

    #[test]
    fn a_row_stored_before_its_json_was_kept_is_written_out_again_wherever_it_is_read() {
        let s = Store::in_memory().unwrap();
        let row = tx(
            "tr_bare",
            "2024-03-01T10:00:00Z",
            "acc",
            TaxTransactionType::BtcBuy,
            "1",
            "1000",
        );
        s.tax()
            .add_page(&[Ok(ListedTaxTransaction::from(row.clone()))], None)
            .unwrap();
        s.db().execute("DELETE FROM tax_rows_as_sent", []).unwrap();
        let own = ListedTaxTransaction::json_of(&row);
        assert_eq!(
            s.tax().rows_as_sent(&["tr_bare".into()]).unwrap(),
            [("tr_bare".to_owned(), own.clone())]
        );
        let mut read = vec![];
        s.tax()
            .each_row_as_sent::<StoreError>(&TaxFilter::default(), |_, raw| {
                read.push(raw.to_owned());
                Ok(())
            })
            .unwrap();
        assert_eq!(read, [own]);
    }

    #[test]
    fn rows_stored_with_their_json_in_the_same_table_keep_it_when_it_moves_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        let row = tx(
            "tr_old",
            "2024-03-01T10:00:00Z",
            "acc",
            TaxTransactionType::BtcBuy,
            "1",
            "1000",
        );
        {
            let before = crate::store::MIGRATIONS
                .iter()
                .position(|m| m.contains("CREATE TABLE tax_rows_as_sent"))
                .unwrap();
            let db = rusqlite::Connection::open(&path).unwrap();
            for m in &crate::store::MIGRATIONS[..before] {
                db.execute_batch(m).unwrap();
            }
            db.pragma_update(None, "user_version", before as i64)
                .unwrap();
            db.execute(
                &format!(
                    "INSERT INTO tax_transactions ({}, raw) VALUES \
                     ('tr_old', ?1, 'acc', ?2, ?3, ?1, '', '', '', '', '', '', '1000', 0, '', '', '', '1', '{{\"id\":\"tr_old\"}}')",
                    tax_record::OLD_COLUMNS
                ),
                [
                    stamp(&row.create_time),
                    row.tx_type.as_str().to_owned(),
                    row.sub_type.as_str().to_owned(),
                ],
            )
            .unwrap();
        }
        let s = Store::open(&path).unwrap();
        assert_eq!(
            s.tax().rows_as_sent(&["tr_old".into()]).unwrap(),
            [("tr_old".to_owned(), r#"{"id":"tr_old"}"#.to_owned())]
        );
        let mut read = vec![];
        s.tax()
            .each_row_as_sent::<StoreError>(&TaxFilter::default(), |t, raw| {
                read.push((t.clone(), raw.to_owned()));
                Ok(())
            })
            .unwrap();
        assert_eq!(read, [(row, r#"{"id":"tr_old"}"#.to_owned())]);
    }

    #[test]
    fn a_rate_entered_before_the_sources_were_offered_is_kept_as_entered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        {
            let db = rusqlite::Connection::open(&path).unwrap();
            // The schema as it was just before the year-end choices replaced the rates.
            let before = crate::store::MIGRATIONS
                .iter()
                .position(|m| m.contains("CREATE TABLE year_end_choices"))
                .unwrap();
            for m in &crate::store::MIGRATIONS[..before] {
                db.execute_batch(m).unwrap();
            }
            db.pragma_update(None, "user_version", before as i64)
                .unwrap();
            db.execute(
                "INSERT INTO year_end_rates (year, rate) VALUES (2024, '1000000.5')",
                [],
            )
            .unwrap();
        }
        let s = Store::open(&path).unwrap();
        assert_eq!(
            s.tax().year_end_choices().unwrap().get(&2024),
            Some(&RateChoice::Entered(NokPerBtc::computed(Decimal::new(
                10_000_005, 1
            ))))
        );
    }

    #[test]
    fn the_last_positive_market_rate_before_year_end_is_found() {
        let s = Store::in_memory().unwrap();
        let mut zero = tx(
            "z",
            "2024-12-31T22:00:00Z",
            "a",
            TaxTransactionType::BtcDeposit,
            "1",
            "0",
        );
        zero.rate_market = Some(NokPerBtc::computed(Decimal::ZERO));
        let rows = vec![
            tx(
                "r1",
                "2024-12-30T10:00:00Z",
                "a",
                TaxTransactionType::BtcBuy,
                "1",
                "990000",
            ),
            zero,
            // 23:30 UTC on 31 December is already next year in Oslo.
            tx(
                "r2",
                "2024-12-31T23:30:00Z",
                "a",
                TaxTransactionType::BtcBuy,
                "2",
                "995000",
            ),
        ];
        s.tax()
            .add_page(&listed(&rows.into_iter().map(Ok).collect::<Vec<_>>()), None)
            .unwrap();
        let (id, _, rate) = s
            .tax()
            .last_market_rate_before(&year_start(2025))
            .unwrap()
            .unwrap();
        assert_eq!(
            (id.as_str(), rate),
            ("r1", NokPerBtc::computed(Decimal::from(990_000)))
        );
        assert_eq!(
            s.tax().last_market_rate_before(&year_start(2024)).unwrap(),
            None
        );
    }
}

#[cfg(test)]
mod stamp_tests {
    use super::*;

    #[test]
    fn stamps_are_fixed_width_and_read_back() {
        let t: DateTime<Utc> = "2024-03-05T07:08:09.012Z".parse().unwrap();
        assert_eq!(stamp(&t), "2024-03-05T07:08:09.012000000Z");
        assert_eq!(unstamp(&stamp(&t)).unwrap(), t);
        let far: DateTime<Utc> = "+10000-01-01T00:00:00Z".parse().unwrap();
        assert!(
            stamp(&far).starts_with("+10000-01-01"),
            "not cut to four digits"
        );
        for text in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z"] {
            let t: DateTime<Utc> = text.parse().unwrap();
            assert_eq!(
                stamp(&t),
                t.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true)
            );
            assert_eq!(unstamp(&stamp(&t)).unwrap(), t);
        }
    }

    #[test]
    fn times_stored_otherwise_are_read_as_rfc3339_and_damage_is_an_error() {
        let t: DateTime<Utc> = "2024-03-05T07:08:09.012Z".parse().unwrap();
        for old in [
            "2024-03-05T07:08:09.012Z",
            "2024-03-05T08:08:09.012000000+01:00",
        ] {
            assert_eq!(unstamp(old).unwrap(), t, "{old}");
        }
        for bad in [
            "",
            "2024-13-05T07:08:09.012000000Z",
            "2024-02-30T07:08:09.012000000Z",
            "2024-03-05T25:08:09.012000000Z",
            "2024-03-05T07:08:09.01200000xZ",
            "+024-03-05T07:08:09.012000000Z",
            "2024-03-05T07:08:09.012000000Zjunk",
            "2024-03-05T07:08:09.0120000ÆZ",
        ] {
            assert!(matches!(unstamp(bad), Err(StoreError::Corrupt(_))), "{bad}");
        }
    }
}
