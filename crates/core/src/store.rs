//! The local store: one SQLite database per profile, in its data dir, with numbered migrations.
//! It keeps what the API cannot give back later — price samples, the journal of submitted orders —
//! and caches. Never a secret. Money is stored as decimal text, exactly.

use std::path::Path;
use std::str::FromStr;
use std::sync::Mutex;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;

/// Each entry moves the schema one version up; applied in order, once, in a transaction.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE price_samples (
        at_ms INTEGER PRIMARY KEY,
        mid TEXT NOT NULL,
        bid TEXT NOT NULL,
        ask TEXT NOT NULL
    );",
    "CREATE TABLE order_journal (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        sent_at_ms INTEGER NOT NULL,
        order_type TEXT NOT NULL,
        direction TEXT NOT NULL,
        amount TEXT NOT NULL,
        price TEXT,
        account_id TEXT,
        state TEXT NOT NULL,
        order_id TEXT,
        trade_id TEXT,
        note TEXT NOT NULL DEFAULT '',
        balance_before TEXT,
        updated_at_ms INTEGER NOT NULL
    );
    CREATE INDEX order_journal_state ON order_journal(state);",
    "CREATE TABLE invoices (
        id TEXT PRIMARY KEY,
        invoice TEXT NOT NULL,
        account_id TEXT,
        amount_btc TEXT,
        requested TEXT NOT NULL,
        public_description TEXT NOT NULL,
        private_note TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL
    );
    CREATE TABLE recipients (
        identity TEXT PRIMARY KEY,
        destination TEXT NOT NULL,
        label TEXT NOT NULL,
        full_name TEXT NOT NULL,
        country TEXT NOT NULL,
        address TEXT NOT NULL,
        nin TEXT NOT NULL,
        exchange TEXT NOT NULL,
        self_custody INTEGER NOT NULL,
        last_used_ms INTEGER NOT NULL
    );
    CREATE TABLE withdrawal_journal (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        sent_at_ms INTEGER NOT NULL,
        destination TEXT NOT NULL,
        identity TEXT NOT NULL,
        amount_btc TEXT NOT NULL,
        account_id TEXT,
        reference TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL,
        withdrawal_id TEXT,
        status TEXT,
        note TEXT NOT NULL DEFAULT '',
        balance_before TEXT,
        updated_at_ms INTEGER NOT NULL
    );
    CREATE INDEX withdrawal_journal_state ON withdrawal_journal(state);",
    "CREATE TABLE tax_transactions (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        create_time TEXT NOT NULL,
        account_id TEXT NOT NULL,
        type TEXT NOT NULL,
        sub_type TEXT NOT NULL,
        finalize_time TEXT NOT NULL,
        in_amount TEXT NOT NULL,
        in_currency TEXT NOT NULL,
        out_amount TEXT NOT NULL,
        out_currency TEXT NOT NULL,
        fee_amount TEXT NOT NULL,
        fee_currency TEXT NOT NULL,
        rate_market TEXT NOT NULL,
        is_payment INTEGER NOT NULL,
        payment_info TEXT NOT NULL,
        note TEXT NOT NULL,
        usdnok TEXT NOT NULL,
        running_balance_btc TEXT NOT NULL,
        UNIQUE (create_time, id)
    );
    CREATE TABLE tax_malformed (
        id TEXT NOT NULL,
        create_time TEXT NOT NULL,
        reason TEXT NOT NULL,
        raw TEXT NOT NULL,
        UNIQUE (id, raw)
    );
    CREATE TABLE tax_sync (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        after TEXT NOT NULL,
        after_id TEXT NOT NULL,
        synced_at_ms INTEGER NOT NULL
    );
    CREATE TABLE tax_accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        deleted INTEGER NOT NULL
    );
    CREATE TABLE year_end_rates (
        year INTEGER PRIMARY KEY,
        rate TEXT NOT NULL
    );",
];

mod invoices;
mod recipients;
mod tax;
mod withdrawals;

pub use invoices::StoredInvoice;
pub use recipients::Recipient;
pub use tax::{TaxAccountName, TaxCursor, TaxFacets, TaxFilter, TaxPageWrite};
pub use withdrawals::{NewWithdrawalEntry, WithdrawalEntry, WithdrawalState};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    #[error("the local database could not be opened or changed: {0}")]
    Sqlite(rusqlite::Error),
    #[error("the local database holds a value that is not a decimal: {0}")]
    Corrupt(String),
    #[error("the local database is from a newer Nordlys (schema {found}, this one knows {known})")]
    TooNew { found: i64, known: i64 },
}

#[derive(Debug)]
pub struct Store {
    db: Mutex<Connection>,
}

/// One price sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceSample {
    pub at: DateTime<Utc>,
    pub mid: Decimal,
    pub bid: Decimal,
    pub ask: Decimal,
}

/// Where a submitted order stands, as far as the app knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JournalState {
    /// Written before the request left; seen after a crash it means "unknown".
    Sending,
    Placed,
    Rejected,
    /// The request may have reached the exchange; not yet resolved.
    Unknown,
    /// Resolved by inspecting the account: the order was not made.
    NotPlaced,
}

impl JournalState {
    fn text(self) -> &'static str {
        match self {
            Self::Sending => "sending",
            Self::Placed => "placed",
            Self::Rejected => "rejected",
            Self::Unknown => "unknown",
            Self::NotPlaced => "not-placed",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "placed" => Self::Placed,
            "rejected" => Self::Rejected,
            "not-placed" => Self::NotPlaced,
            "sending" => Self::Sending,
            _ => Self::Unknown,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalEntry {
    pub id: i64,
    pub sent_at: DateTime<Utc>,
    /// `market` or `limit`.
    pub order_type: String,
    /// `buy` or `sell`.
    pub direction: String,
    pub amount: Decimal,
    pub price: Option<Decimal>,
    pub account_id: Option<String>,
    pub state: JournalState,
    pub order_id: Option<String>,
    pub trade_id: Option<String>,
    pub note: String,
    /// The available balance the order spends from, just before it was sent.
    pub balance_before: Option<Decimal>,
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        if let rusqlite::Error::FromSqlConversionFailure(_, _, inner) = &e
            && let Some(bad) = inner.downcast_ref::<NotADecimal>()
        {
            return Self::Corrupt(bad.0.clone());
        }
        Self::Sqlite(e)
    }
}

/// A stored money value that does not read back as a decimal.
#[derive(Debug)]
struct NotADecimal(String);

impl std::fmt::Display for NotADecimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is not a decimal", self.0)
    }
}

impl std::error::Error for NotADecimal {}

/// Money is stored as decimal text, exactly; reading it back goes through here.
struct StoredDecimal(Decimal);

impl rusqlite::types::FromSql for StoredDecimal {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        Decimal::from_str(text).map(Self).map_err(|_| {
            rusqlite::types::FromSqlError::Other(Box::new(NotADecimal(text.to_owned())))
        })
    }
}

fn dec(r: &rusqlite::Row<'_>, column: usize) -> rusqlite::Result<Decimal> {
    Ok(r.get::<_, StoredDecimal>(column)?.0)
}

fn dec_opt(r: &rusqlite::Row<'_>, column: usize) -> rusqlite::Result<Option<Decimal>> {
    Ok(r.get::<_, Option<StoredDecimal>>(column)?.map(|d| d.0))
}

fn time(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

impl Store {
    /// Opens (or creates) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        Self::migrate(Connection::open(path)?)
    }

    pub fn in_memory() -> Result<Self, StoreError> {
        Self::migrate(Connection::open_in_memory()?)
    }

    fn migrate(mut db: Connection) -> Result<Self, StoreError> {
        db.pragma_update(None, "journal_mode", "WAL")?;
        let version: i64 = db.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::TooNew {
                found: version,
                known,
            });
        }
        for (i, sql) in MIGRATIONS
            .iter()
            .enumerate()
            .skip(usize::try_from(version).unwrap_or(0))
        {
            let tx = db.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
            tx.commit()?;
        }
        Ok(Self { db: Mutex::new(db) })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .db()
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    pub fn add_price_sample(&self, s: &PriceSample) -> Result<(), StoreError> {
        self.db().execute(
            "INSERT OR REPLACE INTO price_samples (at_ms, mid, bid, ask) VALUES (?1, ?2, ?3, ?4)",
            params![
                s.at.timestamp_millis(),
                s.mid.to_string(),
                s.bid.to_string(),
                s.ask.to_string()
            ],
        )?;
        Ok(())
    }

    /// Samples since `since`, oldest first.
    pub fn price_samples(&self, since: DateTime<Utc>) -> Result<Vec<PriceSample>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(
            "SELECT at_ms, mid, bid, ask FROM price_samples WHERE at_ms >= ?1 ORDER BY at_ms",
        )?;
        let rows = q.query_map([since.timestamp_millis()], |r| {
            Ok(PriceSample {
                at: time(r.get(0)?),
                mid: dec(r, 1)?,
                bid: dec(r, 2)?,
                ask: dec(r, 3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes the journal entry of an order about to be sent; returns its id.
    #[allow(
        clippy::too_many_arguments,
        reason = "one journal row has this many parts"
    )]
    pub fn journal_sending(
        &self,
        sent_at: DateTime<Utc>,
        order_type: &str,
        direction: &str,
        amount: Decimal,
        price: Option<Decimal>,
        account_id: Option<&str>,
        balance_before: Option<Decimal>,
    ) -> Result<i64, StoreError> {
        let db = self.db();
        db.execute(
            "INSERT INTO order_journal (sent_at_ms, order_type, direction, amount, price, account_id, state, balance_before, updated_at_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'sending', ?7, ?1)",
            params![
                sent_at.timestamp_millis(),
                order_type,
                direction,
                amount.to_string(),
                price.map(|p| p.to_string()),
                account_id,
                balance_before.map(|b| b.to_string())
            ],
        )?;
        Ok(db.last_insert_rowid())
    }

    pub fn journal_update(
        &self,
        id: i64,
        state: JournalState,
        order_id: Option<&str>,
        trade_id: Option<&str>,
        note: &str,
    ) -> Result<(), StoreError> {
        self.db().execute(
            "UPDATE order_journal SET state = ?2, order_id = COALESCE(?3, order_id), trade_id = COALESCE(?4, trade_id),
             note = ?5, updated_at_ms = ?6 WHERE id = ?1",
            params![id, state.text(), order_id, trade_id, note, Utc::now().timestamp_millis()],
        )?;
        Ok(())
    }

    pub fn journal_entry(&self, id: i64) -> Result<Option<JournalEntry>, StoreError> {
        let db = self.db();
        Ok(db
            .query_row(
                &format!("{JOURNAL_SELECT} WHERE id = ?1"),
                [id],
                journal_row,
            )
            .optional()?)
    }

    /// Entries whose outcome is not known: "unknown", and "sending" left by a crash.
    pub fn journal_unresolved(&self) -> Result<Vec<JournalEntry>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!(
            "{JOURNAL_SELECT} WHERE state IN ('unknown', 'sending') ORDER BY id"
        ))?;
        let rows = q.query_map([], journal_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Order and trade ids recorded by every journal entry but `except`: an open order or a trade
    /// already explained by one entry is not evidence for another.
    pub fn journal_claimed_ids(
        &self,
        except: i64,
    ) -> Result<std::collections::HashSet<String>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(
            "SELECT order_id FROM order_journal WHERE id != ?1 AND order_id IS NOT NULL
             UNION SELECT trade_id FROM order_journal WHERE id != ?1 AND trade_id IS NOT NULL",
        )?;
        let rows = q.query_map([except], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn journal_recent(&self, limit: u32) -> Result<Vec<JournalEntry>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!("{JOURNAL_SELECT} ORDER BY id DESC LIMIT ?1"))?;
        let rows = q.query_map([limit], journal_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

const JOURNAL_SELECT: &str = "SELECT id, sent_at_ms, order_type, direction, amount, price, account_id, state, order_id, trade_id, note, balance_before FROM order_journal";

fn journal_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<JournalEntry> {
    Ok(JournalEntry {
        id: r.get(0)?,
        sent_at: time(r.get(1)?),
        order_type: r.get(2)?,
        direction: r.get(3)?,
        amount: dec(r, 4)?,
        price: dec_opt(r, 5)?,
        account_id: r.get(6)?,
        state: JournalState::parse(&r.get::<_, String>(7)?),
        order_id: r.get(8)?,
        trade_id: r.get(9)?,
        note: r.get(10)?,
        balance_before: dec_opt(r, 11)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_run_once_and_data_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let s = Store::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), MIGRATIONS.len() as i64);
        let at = Utc::now();
        s.add_price_sample(&PriceSample {
            at,
            mid: Decimal::new(98_243_135, 2),
            bid: Decimal::ONE,
            ask: Decimal::TWO,
        })
        .unwrap();
        let id = s
            .journal_sending(
                at,
                "market",
                "buy",
                Decimal::new(100050, 2),
                None,
                None,
                Some(Decimal::from(5000)),
            )
            .unwrap();
        drop(s);
        let s = Store::open(&path).unwrap();
        let samples = s.price_samples(at - chrono::Duration::seconds(1)).unwrap();
        assert_eq!(samples[0].mid.to_string(), "982431.35");
        let unresolved = s.journal_unresolved().unwrap();
        assert_eq!(
            unresolved.len(),
            1,
            "a 'sending' entry left by a crash counts as unresolved"
        );
        assert_eq!(unresolved[0].amount.to_string(), "1000.50");
        s.journal_update(id, JournalState::Placed, Some("or_1"), Some("tr_1"), "")
            .unwrap();
        assert!(s.journal_unresolved().unwrap().is_empty());
        assert_eq!(
            s.journal_entry(id).unwrap().unwrap().order_id.as_deref(),
            Some("or_1")
        );
    }

    #[test]
    fn a_newer_schema_is_refused_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db");
        let db = Connection::open(&path).unwrap();
        db.pragma_update(None, "user_version", 99).unwrap();
        drop(db);
        assert!(matches!(
            Store::open(&path),
            Err(StoreError::TooNew { found: 99, .. })
        ));
    }

    #[test]
    fn a_damaged_value_is_an_error_not_a_panic() {
        let s = Store::in_memory().unwrap();
        s.db()
            .execute("INSERT INTO price_samples VALUES (1, 'x', '1', '1')", [])
            .unwrap();
        assert!(matches!(
            s.price_samples(time(0)),
            Err(StoreError::Corrupt(_))
        ));
    }
}
