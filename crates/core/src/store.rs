//! The local store: one SQLite database per profile, in its data dir, with numbered migrations.
//! It keeps what the API cannot give back later — price samples, the journal of submitted orders —
//! and caches. Never a secret. Money is stored as decimal text, exactly.

use std::path::Path;
use std::str::FromStr;
use std::sync::Mutex;

use chrono::{DateTime, Utc};
use nordlys_money::{NokPerBtc, Quantity};
use rusqlite::{Connection, params};
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
    // One id sequence for orders and withdrawals; where and how each was sent; what every check
    // saw. Verdicts of "not sent / not placed" reached from silence by older rules are re-opened.
    "UPDATE withdrawal_journal SET id = -id;
    UPDATE withdrawal_journal SET id = -id + (SELECT COALESCE(MAX(id), 0) FROM order_journal);
    CREATE TABLE journal_ids (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL);
    INSERT INTO journal_ids (id, kind) SELECT id, 'order' FROM order_journal;
    INSERT INTO journal_ids (id, kind) SELECT id, 'withdrawal' FROM withdrawal_journal;
    CREATE TABLE journal_evidence (
        journal_id INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        read TEXT NOT NULL,
        saw TEXT NOT NULL
    );
    CREATE INDEX journal_evidence_entry ON journal_evidence(journal_id);
    ALTER TABLE order_journal ADD COLUMN base_url TEXT NOT NULL DEFAULT '';
    ALTER TABLE order_journal ADD COLUMN key_fingerprint TEXT NOT NULL DEFAULT '';
    ALTER TABLE order_journal ADD COLUMN request TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE order_journal ADD COLUMN reference TEXT NOT NULL DEFAULT '';
    ALTER TABLE order_journal ADD COLUMN gave_up_at_ms INTEGER;
    ALTER TABLE order_journal ADD COLUMN before TEXT;
    ALTER TABLE order_journal ADD COLUMN claimed TEXT NOT NULL DEFAULT '';
    ALTER TABLE order_journal ADD COLUMN stirred INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE order_journal ADD COLUMN decided_by TEXT NOT NULL DEFAULT '';
    ALTER TABLE withdrawal_journal ADD COLUMN base_url TEXT NOT NULL DEFAULT '';
    ALTER TABLE withdrawal_journal ADD COLUMN key_fingerprint TEXT NOT NULL DEFAULT '';
    ALTER TABLE withdrawal_journal ADD COLUMN request TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE withdrawal_journal ADD COLUMN gave_up_at_ms INTEGER;
    ALTER TABLE withdrawal_journal ADD COLUMN before TEXT;
    ALTER TABLE withdrawal_journal ADD COLUMN claimed TEXT NOT NULL DEFAULT '';
    ALTER TABLE withdrawal_journal ADD COLUMN stirred INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE withdrawal_journal ADD COLUMN decided_by TEXT NOT NULL DEFAULT '';
    UPDATE order_journal SET state = 'unknown', gave_up_at_ms = updated_at_ms WHERE state = 'not-placed';
    UPDATE withdrawal_journal SET state = 'unknown', gave_up_at_ms = updated_at_ms WHERE state = 'not-sent';
    UPDATE order_journal SET gave_up_at_ms = updated_at_ms WHERE state = 'unknown' AND gave_up_at_ms IS NULL;
    UPDATE withdrawal_journal SET gave_up_at_ms = updated_at_ms WHERE state = 'unknown' AND gave_up_at_ms IS NULL;",
    // A tax row is one transaction by its id, whatever it says now: it is updated in place when
    // it changes (pending rows become final), so the newest copy of any duplicate is kept.
    "DELETE FROM tax_transactions WHERE seq NOT IN (SELECT MAX(seq) FROM tax_transactions GROUP BY id);
    CREATE UNIQUE INDEX tax_transactions_by_id ON tax_transactions (id);
    CREATE INDEX tax_transactions_pending ON tax_transactions (create_time) WHERE finalize_time = '';",
    // Saved recipients' details sealed at rest (`recipient_seal`); plaintext rows are sealed by
    // `Recipients::unlock` once the key can be read.
    "ALTER TABLE recipients ADD COLUMN sealed BLOB;",
    // Each tax row's JSON as the server sent it, which tax exports name by its hash. Rows stored
    // before have none: the cursor is dropped so the next sync reads the history again and fills
    // it in (rows are stored by id, so nothing is doubled). Deposits' costs as the user entered them.
    "ALTER TABLE tax_transactions ADD COLUMN raw TEXT NOT NULL DEFAULT '';
    DELETE FROM tax_sync;
    CREATE TABLE deposit_costs (
        id TEXT PRIMARY KEY,
        acquired_at TEXT NOT NULL,
        cost_nok TEXT NOT NULL
    );",
    // The year-end rate's source as the user chose it for each year: Skatteetaten's rate as
    // BTC/NOK (the rates entered before) or as BTC/USD and USD/NOK, the last market rate in the
    // history, or Nordlys' own sample. Only an entered rate has figures of its own.
    "CREATE TABLE year_end_choices (
        year INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        nok_per_btc TEXT,
        usd_per_btc TEXT,
        nok_per_usd TEXT
    );
    INSERT INTO year_end_choices (year, kind, nok_per_btc)
        SELECT year, 'nok-per-btc', rate FROM year_end_rates;
    DROP TABLE year_end_rates;",
    // Price alerts, and whether each is armed (it fired and waits for the price to come back).
    "CREATE TABLE price_alerts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        watched TEXT NOT NULL,
        crossing TEXT NOT NULL,
        level TEXT NOT NULL,
        hysteresis TEXT NOT NULL,
        armed INTEGER NOT NULL
    );",
    // Deposits told to the user, by their tax row's id (and the invoice whose own notice told of
    // one), and where in the stored history the watch for them began: what was stored before is
    // not news.
    "CREATE TABLE deposits_told (
        id TEXT PRIMARY KEY,
        told_at_ms INTEGER NOT NULL,
        invoice_id TEXT
    );
    CREATE TABLE deposit_watch (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        from_seq INTEGER NOT NULL
    );",
    // Recurring buys, and every slot of each recorded once: a run's identity is (plan, slot).
    "CREATE TABLE plans (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        buy_nok TEXT NOT NULL,
        period TEXT NOT NULL,
        on_day TEXT,
        at_minute INTEGER NOT NULL,
        account_id TEXT,
        max_price TEXT,
        missed TEXT NOT NULL,
        paused INTEGER NOT NULL DEFAULT 0,
        created_at_ms INTEGER NOT NULL,
        active_from_ms INTEGER NOT NULL
    );
    CREATE TABLE plan_runs (
        plan_id INTEGER NOT NULL,
        slot_ms INTEGER NOT NULL,
        mark TEXT NOT NULL,
        journal_id INTEGER,
        note TEXT NOT NULL DEFAULT '',
        recorded_at_ms INTEGER NOT NULL,
        PRIMARY KEY (plan_id, slot_ms)
    );",
    // Limit ladders: a plan's rungs and step, and a ladder run's orders, one per rung.
    "ALTER TABLE plans ADD COLUMN rungs INTEGER;
    ALTER TABLE plans ADD COLUMN step_percent TEXT;
    CREATE TABLE plan_rungs (
        plan_id INTEGER NOT NULL,
        slot_ms INTEGER NOT NULL,
        rung INTEGER NOT NULL,
        journal_id INTEGER NOT NULL,
        PRIMARY KEY (plan_id, slot_ms, rung)
    );",
    // The deposit watch begins at the first look, not at the end of the first full read of the
    // history: a deposit made while a long history is first read is news (`since`), and so is
    // every row stored after the history was read whole (`whole_seq`, the old `from_seq`).
    "CREATE TABLE deposit_watch_new (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        since TEXT,
        whole_seq INTEGER
    );
    INSERT INTO deposit_watch_new (only, since, whole_seq) SELECT only, NULL, from_seq FROM deposit_watch;
    DROP TABLE deposit_watch;
    ALTER TABLE deposit_watch_new RENAME TO deposit_watch;",
    // Each tax row's JSON as sent in a table of its own, by the row's `seq`: it is more than half
    // of a row's bytes, and the reports, which read every row, never read it.
    "CREATE TABLE tax_rows_as_sent (
        seq INTEGER PRIMARY KEY,
        raw TEXT NOT NULL
    );
    INSERT INTO tax_rows_as_sent (seq, raw) SELECT seq, raw FROM tax_transactions WHERE raw <> '';
    ALTER TABLE tax_transactions DROP COLUMN raw;",
    // Each tax row's times, kinds and amounts in one record (store/tax_record.rs): a report reads
    // a row from six columns, not eighteen. `tax_record::copy_rows` copies the rows into the new
    // table right after this migration, and the next one puts it in the old table's place.
    "CREATE TABLE tax_transactions_recorded (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        create_time TEXT NOT NULL,
        account_id TEXT NOT NULL,
        type TEXT NOT NULL,
        sub_type TEXT NOT NULL,
        finalize_time TEXT NOT NULL,
        rate_market TEXT NOT NULL,
        payment_info TEXT NOT NULL,
        note TEXT NOT NULL,
        record BLOB NOT NULL,
        UNIQUE (create_time, id)
    );",
    "DROP TABLE tax_transactions;
    ALTER TABLE tax_transactions_recorded RENAME TO tax_transactions;
    CREATE UNIQUE INDEX tax_transactions_by_id ON tax_transactions (id);
    CREATE INDEX tax_transactions_pending ON tax_transactions (create_time) WHERE finalize_time = '';",
    // The NOK amount a payment was typed in: a retry typed the same is the same payment,
    // whatever bitcoin the price now makes of it.
    "ALTER TABLE withdrawal_journal ADD COLUMN typed_nok TEXT;",
    // Account identities (store/identities.rs): every journal entry, plan, saved recipient and
    // the tax history is bound to the accounts it was made for. `identities::adopt_existing`
    // gives what is already kept the profile's identity right after this migration. A tax
    // history set aside for another identity's is kept whole, by its number, in the aside tables.
    "CREATE TABLE account_identities (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        base_url TEXT NOT NULL,
        operator TEXT NOT NULL,
        learned_at_ms INTEGER NOT NULL
    );
    CREATE TABLE identity_accounts (
        identity_id INTEGER NOT NULL,
        account_id TEXT NOT NULL,
        name TEXT NOT NULL,
        deleted INTEGER NOT NULL,
        PRIMARY KEY (identity_id, account_id)
    );
    CREATE INDEX identity_accounts_by_account ON identity_accounts (account_id);
    CREATE TABLE credential_identities (
        base_url TEXT NOT NULL,
        key_fingerprint TEXT NOT NULL,
        identity_id INTEGER NOT NULL,
        PRIMARY KEY (base_url, key_fingerprint)
    );
    ALTER TABLE order_journal ADD COLUMN identity_id INTEGER;
    ALTER TABLE withdrawal_journal ADD COLUMN identity_id INTEGER;
    ALTER TABLE plans ADD COLUMN identity_id INTEGER;
    ALTER TABLE recipients ADD COLUMN identity_id INTEGER;
    CREATE TABLE tax_owner (
        only INTEGER PRIMARY KEY CHECK (only = 1),
        identity_id INTEGER NOT NULL
    );
    CREATE TABLE tax_histories_aside (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        identity_id INTEGER,
        set_aside_at_ms INTEGER NOT NULL,
        rows INTEGER NOT NULL
    );
    CREATE TABLE tax_aside_transactions AS SELECT 0 AS history, * FROM tax_transactions WHERE 0;
    CREATE TABLE tax_aside_as_sent AS SELECT 0 AS history, * FROM tax_rows_as_sent WHERE 0;
    CREATE TABLE tax_aside_malformed AS SELECT 0 AS history, * FROM tax_malformed WHERE 0;
    CREATE TABLE tax_aside_accounts AS SELECT 0 AS history, * FROM tax_accounts WHERE 0;
    CREATE TABLE tax_aside_costs AS SELECT 0 AS history, * FROM deposit_costs WHERE 0;
    CREATE TABLE tax_aside_year_end AS SELECT 0 AS history, * FROM year_end_choices WHERE 0;",
    // A ladder's later rungs wait their turn: journaled with the run, `queued` until the sender
    // takes each (one write, so a rung is either taken or settled "not placed", never both).
    "ALTER TABLE order_journal ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;",
    // An invoice belongs to the accounts it was made for (none: made before identities).
    "ALTER TABLE invoices ADD COLUMN identity_id INTEGER;",
    // How an invoice's amount was asked for, as a fact the window words: `btc`, `sats`, or `nok`
    // with the NOK asked. The old `requested` words stay unread (an invoice made before shows in
    // the user's unit).
    "ALTER TABLE invoices ADD COLUMN asked_unit TEXT NOT NULL DEFAULT 'btc';
    ALTER TABLE invoices ADD COLUMN asked_nok TEXT;",
    // What a check's step saw, as a code and its data (older rows keep only their words).
    "ALTER TABLE journal_evidence ADD COLUMN seen TEXT;",
];

/// The migration after which the tax rows are copied, each with its record made: SQL
/// cannot write the record, so Rust does, in the same transaction.
const RECORDS_MADE_AFTER: usize = 16;

/// The migration after which records already kept are given an account identity.
const IDENTITIES_ADOPTED_AFTER: usize = 19;

mod alerts;
pub mod at_rest;
mod deposits;
mod identities;
mod invoices;
mod journal;
mod orders;
mod plans;
pub mod profile_store;
mod recipients;
pub mod sealed_key;
mod tax;
mod tax_list;
mod tax_owner;
mod tax_record;
mod tax_scan;
mod withdrawals;

pub use at_rest::{KeyEntry, KeyError, StoreKey};
pub use deposits::UntoldDeposit;
pub use identities::{AccountIdentity, IdentityAccount, IdentityId};
pub use invoices::{Asked, StoredInvoice};
pub use journal::{Claim, Decision, Evidence, JournalKind, Origin, Unanswered};
pub use orders::{JournalEntry, JournalState, NewOrderEntry};
pub use plans::{PlanClaim, run_state_of};
pub use recipients::{Recipient, Sealed};
pub use sealed_key::{OpenedKeys, SealError, SealedKey};
pub use tax::{TaxAccountName, TaxCursor, TaxFacets, TaxFilter, TaxPageWrite};
pub use tax_owner::{TaxHistory, TaxOwnership};
pub use withdrawals::{
    NewWithdrawalEntry, PaymentClaim, PaymentLikeness, WithdrawalEntry, WithdrawalState,
};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    #[error("the local database could not be opened or changed: {0}")]
    Sqlite(rusqlite::Error),
    #[error("the local database holds a damaged value: {0}")]
    Corrupt(String),
    #[error("the local database is from a newer Nordlys (schema {found}, this one knows {known})")]
    TooNew { found: i64, known: i64 },
    #[error("the local database holds a damaged journal entry {id}: {detail}")]
    DamagedEntry { id: i64, detail: String },
    #[error(
        "the system keyring is locked, so saved recipients' details can be neither read nor saved"
    )]
    RecipientsLocked,
    #[error("saved recipient details could not be sealed: {0}")]
    Seal(#[from] crate::recipient_seal::SealError),
    /// The file is not a database this key opens: another key's, or damaged.
    #[error("the local database does not open with its key")]
    WrongKey,
    #[error("the local database could not be encrypted: {0}")]
    Migration(#[from] at_rest::MigrationError),
    /// A plain store to encrypt is open in another process (the CLI): it stays plain for now.
    #[error("the local database is open in another Nordlys process; close it and try again")]
    InUse,
    #[error("the local database's files could not be read or moved: {0}")]
    Files(#[from] std::io::Error),
}

/// Declares a part of the store reached from it (`store.orders()`): a view that reads and writes
/// one aggregate through the store's connection, so `Store` itself keeps few methods.
macro_rules! aggregates {
    ($($(#[$doc:meta])* $name:ident => $accessor:ident;)*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy)]
            pub struct $name<'a>(&'a Store);

            impl std::ops::Deref for $name<'_> {
                type Target = Store;

                fn deref(&self) -> &Store {
                    self.0
                }
            }
        )*

        impl Store {
            $(
                $(#[$doc])*
                pub fn $accessor(&self) -> $name<'_> {
                    $name(self)
                }
            )*
        }
    };
}

aggregates! {
    /// The tax history: its rows and cursor, whose it is, deposit costs and year-end choices.
    Tax => tax;
    /// The order journal: every order written before it is sent, and how it was settled.
    Orders => orders;
    /// The withdrawal journal: every payment written before it is sent, and its network status.
    Withdrawals => withdrawals;
    /// What every kind of journal entry shares: its id and kind, and the evidence each check saw.
    Journal => journal;
    /// Recurring buys and ladders, and each run's claim.
    Plans => plans;
    /// Price alerts and whether each is armed.
    Alerts => alerts;
    /// Saved recipients, their details sealed.
    Recipients => recipients;
    /// Account identities: the accounts each credential sees.
    Identities => identities;
    /// Lightning invoices made here, and whether each was paid.
    Invoices => invoices;
    /// Deposits seen, and which are yet to be told.
    Deposits => deposits;
}

#[derive(Debug)]
pub struct Store {
    db: Mutex<Connection>,
    /// The database's file and key, for readers on connections of their own; `None` in memory.
    file: Option<at_rest::StoreFile>,
    /// Journal entries whose request this process is sending now: no other path judges them
    /// until the sender has recorded the answer (or its absence).
    in_flight: Mutex<std::collections::HashSet<i64>>,
    /// The key of saved recipients' details; `None` while the keyring cannot give it.
    recipient_seal: Mutex<Option<crate::recipient_seal::RecipientSeal>>,
    /// The turn to move money for a process with no lock of its own (the CLI, tests).
    money: crate::money_turn::MoneyLock,
    /// Counts this process's writes to what tax figures rest on (rows, deposit costs): a figure
    /// worked out at one count still holds while the count is the same.
    tax_generation: std::sync::atomic::AtomicU64,
    /// The tax list's order for the filter last listed (see tax_list.rs).
    tax_list: Mutex<Option<tax_list::KeptOrder>>,
    /// Each credential's identity as learned in this process (see identities.rs).
    learned_identities: Mutex<identities::Learned>,
    /// Held while the store is open, so no migration starts under it; `None` in memory.
    openers: Option<at_rest::Openers>,
}

/// One price sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceSample {
    pub at: DateTime<Utc>,
    pub mid: NokPerBtc,
    pub bid: NokPerBtc,
    pub ask: NokPerBtc,
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

/// A stored figure, as this app wrote it (a computed one keeps its precision).
fn dec<Q: Quantity>(r: &rusqlite::Row<'_>, column: usize) -> rusqlite::Result<Q> {
    Ok(Q::computed(r.get::<_, StoredDecimal>(column)?.0))
}

fn dec_opt<Q: Quantity>(r: &rusqlite::Row<'_>, column: usize) -> rusqlite::Result<Option<Q>> {
    Ok(r.get::<_, Option<StoredDecimal>>(column)?
        .map(|d| Q::computed(d.0)))
}

fn time(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

impl Store {
    /// Opens (or creates) the plain database at `path` and brings its schema up to date: the
    /// CLI's own store and tests'; a profile's is [`Self::open_encrypted`].
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let openers = at_rest::Openers::shared(path)?;
        if at_rest::found(path)? == at_rest::Found::Encrypted {
            return Err(StoreError::WrongKey);
        }
        let mut store = Self::migrate(Connection::open(path)?)?;
        store.file = Some(at_rest::StoreFile {
            path: path.to_owned(),
            key: None,
        });
        store.openers = Some(openers);
        Ok(store)
    }

    /// Opens (or creates) the database at `path` encrypted with `key`. What an interrupted
    /// migration left is settled first, and a plain store written before encryption is moved
    /// into an encrypted one (see `at_rest`), alone: a process that has the store open keeps it
    /// plain until it closes it ([`StoreError::InUse`]). A file the key does not open is
    /// [`StoreError::WrongKey`]: never replaced by a new store.
    pub fn open_encrypted(path: &Path, key: StoreKey) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if at_rest::needs_moving(path)? {
            let _alone = at_rest::Openers::alone(path)?.ok_or(StoreError::InUse)?;
            at_rest::settle(path)?;
            if at_rest::found(path)? == at_rest::Found::Plain {
                at_rest::migrate(path, &key)?;
            }
        }
        let openers = at_rest::Openers::shared(path)?;
        let file = at_rest::StoreFile {
            path: path.to_owned(),
            key: Some(std::sync::Arc::new(key)),
        };
        let db = file.connect(rusqlite::OpenFlags::default())?;
        match db.query_row("SELECT COUNT(*) FROM sqlite_master", [], |_| Ok(())) {
            Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase) => {
                return Err(StoreError::WrongKey);
            }
            other => other?,
        }
        let mut store = Self::migrate(db)?;
        store.file = Some(file);
        store.openers = Some(openers);
        Ok(store)
    }

    /// A turn to move money through this store, for a process with no lock of its own (the
    /// app takes its own, which also keeps a profile switch out).
    pub async fn money_turn(&self) -> crate::money_turn::MoneyTurn {
        self.money.turn().await
    }

    /// Whether this store lives in memory only (nothing on disk, no key).
    pub fn is_in_memory(&self) -> bool {
        self.file.is_none()
    }

    pub fn in_memory() -> Result<Self, StoreError> {
        Self::migrate(Connection::open_in_memory()?)
    }

    fn migrate(mut db: Connection) -> Result<Self, StoreError> {
        at_rest::temporary_in_memory(&db)?;
        db.pragma_update(None, "journal_mode", "WAL")?;
        // What is deleted or replaced (a recipient's plaintext details, above all) is overwritten
        // with zeros, not left in free pages for anyone who reads the file.
        db.pragma_update(None, "secure_delete", "ON")?;
        // The app and the CLI may share one store: a writer waits for the other's transaction.
        db.busy_timeout(std::time::Duration::from_secs(10))?;
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
            if i + 1 == RECORDS_MADE_AFTER {
                tax_record::copy_rows(&tx)?;
            }
            if i + 1 == IDENTITIES_ADOPTED_AFTER {
                identities::adopt_existing(&tx)?;
            }
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
            tx.commit()?;
        }
        Ok(Self {
            db: Mutex::new(db),
            file: None,
            in_flight: Mutex::default(),
            recipient_seal: Mutex::default(),
            money: crate::money_turn::MoneyLock::default(),
            tax_generation: std::sync::atomic::AtomicU64::new(0),
            tax_list: Mutex::default(),
            learned_identities: Mutex::default(),
            openers: None,
        })
    }

    /// See `tax_generation`: read it before reading the rows a figure rests on.
    pub fn tax_generation(&self) -> u64 {
        self.tax_generation
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Called after each committed write to the tax rows or deposit costs.
    fn tax_changed(&self) {
        self.tax_generation
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn in_flight_set(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<i64>> {
        self.in_flight
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether this process is sending entry `id`'s request now.
    pub fn in_flight(&self, id: i64) -> bool {
        self.in_flight_set().contains(&id)
    }

    pub(crate) fn set_in_flight(&self, id: i64, sending: bool) {
        if sending {
            self.in_flight_set().insert(id);
        } else {
            self.in_flight_set().remove(&id);
        }
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

    /// The sample nearest `at`, if one was taken within `window` either side of it.
    pub fn price_sample_nearest(
        &self,
        at: DateTime<Utc>,
        window: chrono::Duration,
    ) -> Result<Option<PriceSample>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(
            "SELECT at_ms, mid, bid, ask FROM price_samples WHERE at_ms BETWEEN ?1 AND ?2 \
             ORDER BY ABS(at_ms - ?3), at_ms LIMIT 1",
        )?;
        let mut rows = q.query_map(
            params![
                (at - window).timestamp_millis(),
                (at + window).timestamp_millis(),
                at.timestamp_millis()
            ],
            |r| {
                Ok(PriceSample {
                    at: time(r.get(0)?),
                    mid: dec(r, 1)?,
                    bid: dec(r, 2)?,
                    ask: dec(r, 3)?,
                })
            },
        )?;
        Ok(rows.next().transpose()?)
    }

    /// Samples since `since`, oldest first.
    pub fn price_samples(&self, since: DateTime<Utc>) -> Result<Vec<PriceSample>, StoreError> {
        let mut out = vec![];
        self.each_price_sample(since, |s| out.push(s))?;
        Ok(out)
    }

    /// Each sample since `since` through `f`, oldest first, without holding them all: a year of
    /// samples is millions.
    pub fn each_price_sample(
        &self,
        since: DateTime<Utc>,
        mut f: impl FnMut(PriceSample),
    ) -> Result<(), StoreError> {
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
        for s in rows {
            f(s?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What SQLite sorts on the side stays in memory on every connection to an encrypted store,
    /// the store's own and a reader's: a temporary file would hold its rows unencrypted.
    #[test]
    fn every_connection_to_a_store_keeps_its_temporary_tables_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let s = Store::open_encrypted(&path, at_rest::StoreKey::random().unwrap()).unwrap();
        let in_memory = |db: &Connection| {
            db.pragma_query_value(None, "temp_store", |r| r.get::<_, i64>(0))
                .unwrap()
        };
        assert_eq!(in_memory(&s.db()), 2);
        let reader = s
            .file
            .as_ref()
            .unwrap()
            .connect(rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
        assert_eq!(in_memory(&reader), 2);
    }

    #[test]
    fn migrations_run_once_and_data_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let s = Store::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), MIGRATIONS.len() as i64);
        let at = Utc::now();
        s.add_price_sample(&PriceSample {
            at,
            mid: NokPerBtc::computed(Decimal::new(98_243_135, 2)),
            bid: NokPerBtc::computed(Decimal::ONE),
            ask: NokPerBtc::computed(Decimal::TWO),
        })
        .unwrap();
        let origin = Origin::default();
        let Claim::Journaled(id) = s
            .orders()
            .add(
                &NewOrderEntry {
                    sent_at: at,
                    order_type: crate::order_terms::OrderType::Market,
                    direction: crate::order_terms::Direction::Buy,
                    amount: crate::order_terms::Direction::Buy.amount(Decimal::new(100050, 2)),
                    price: None,
                    account_id: None,
                    origin: &origin,
                    request: "{}",
                    reference: "[nordlys 0]",
                    before: None,
                },
                false,
            )
            .unwrap()
        else {
            panic!("refused")
        };
        drop(s);
        let s = Store::open(&path).unwrap();
        let samples = s.price_samples(at - chrono::Duration::seconds(1)).unwrap();
        assert_eq!(samples[0].mid.to_string(), "982431.35");
        let unresolved = s.orders().unresolved().unwrap();
        assert_eq!(
            unresolved.len(),
            1,
            "a 'sending' entry left by a crash counts as unresolved"
        );
        assert_eq!(
            unresolved[0].amount,
            nordlys_money::Amount::Nok(nordlys_money::Nok::computed(Decimal::new(100050, 2)))
        );
        s.orders()
            .answered(id, JournalState::Placed, Some("or_1"), Some("tr_1"), "")
            .unwrap();
        assert!(s.orders().unresolved().unwrap().is_empty());
        assert_eq!(
            s.orders().entry(id).unwrap().unwrap().order_id.as_deref(),
            Some("or_1")
        );
    }

    #[test]
    fn an_upgrade_gives_one_id_sequence_and_reopens_verdicts_reached_from_silence() {
        // A database as the version before the money journal's migration left it.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db");
        let mut db = Connection::open(&path).unwrap();
        {
            let tx = db.transaction().unwrap();
            let before = MIGRATIONS
                .iter()
                .position(|m| m.contains("SET state = 'unknown'"))
                .unwrap();
            for sql in &MIGRATIONS[..before] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", before as i64)
                .unwrap();
            tx.execute_batch(
                "INSERT INTO order_journal (id, sent_at_ms, order_type, direction, amount, state, updated_at_ms)
                 VALUES (1, 0, 'market', 'buy', '500', 'not-placed', 5), (2, 0, 'market', 'buy', '600', 'placed', 5);
                 INSERT INTO withdrawal_journal (id, sent_at_ms, destination, identity, amount_btc, reference, state, updated_at_ms)
                 VALUES (1, 0, 'a@b.c', 'a@b.c', '0.1', 'r1', 'not-sent', 7), (2, 0, 'a@b.c', 'a@b.c', '0.2', 'r2', 'sent', 7);",
            )
            .unwrap();
            tx.commit().unwrap();
        }
        drop(db);
        let s = Store::open(&path).unwrap();
        let ids: Vec<_> = s.journal().ids().unwrap();
        assert_eq!(
            ids,
            vec![
                (1, JournalKind::Order),
                (2, JournalKind::Order),
                (3, JournalKind::Withdrawal),
                (4, JournalKind::Withdrawal)
            ]
        );
        let order = s.orders().entry(1).unwrap().unwrap();
        assert_eq!(order.state, JournalState::Unknown);
        assert!(order.gave_up_at.is_some());
        assert_eq!(
            s.withdrawals().entry(3).unwrap().unwrap().state,
            WithdrawalState::Unknown
        );
        assert_eq!(
            s.withdrawals().entry(4).unwrap().unwrap().state,
            WithdrawalState::Sent
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

    fn sample(at_ms: i64) -> PriceSample {
        PriceSample {
            at: time(at_ms),
            mid: NokPerBtc::computed(Decimal::from(1_000_050)),
            bid: NokPerBtc::computed(Decimal::from(1_000_000)),
            ask: NokPerBtc::computed(Decimal::from(1_000_100)),
        }
    }

    /// A profile's store written before encryption moves into an encrypted one with what it
    /// held, and opens with its key again; another key or none is refused, never a new store.
    #[test]
    fn a_plain_store_becomes_encrypted_with_its_rows_and_opens_only_with_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let plain = Store::open(&path).unwrap();
        plain.add_price_sample(&sample(1_000)).unwrap();
        drop(plain);
        let key = StoreKey::random().unwrap();
        let again = StoreKey::from_hex(&key.to_hex()).unwrap();
        let s = Store::open_encrypted(&path, key).unwrap();
        assert_eq!(s.price_samples(time(0)).unwrap().len(), 1);
        s.add_price_sample(&sample(2_000)).unwrap();
        drop(s);
        assert_eq!(at_rest::found(&path).unwrap(), at_rest::Found::Encrypted);
        let s = Store::open_encrypted(&path, again).unwrap();
        assert_eq!(s.price_samples(time(0)).unwrap().len(), 2);
        assert_eq!(s.schema_version().unwrap(), MIGRATIONS.len() as i64);
        drop(s);
        let before = std::fs::read(&path).unwrap();
        assert!(matches!(
            Store::open_encrypted(&path, StoreKey::random().unwrap()),
            Err(StoreError::WrongKey)
        ));
        assert!(
            Store::open(&path).is_err(),
            "without its key it is not a database"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "nothing was written over"
        );
    }
}
