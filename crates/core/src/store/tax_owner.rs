//! Whose tax history the store holds. A history belongs to one account identity: a sync under
//! another is refused (rows of two accounts never make one card), and the user may set the
//! history aside to start a fresh one for the identity in use. A history set aside is kept
//! whole, never deleted, and listed with the one in use.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{IdentityId, StoreError, time};

/// The tables a tax history is made of, each with its aside copy (made by the migration that
/// added identities, with a `history` column first).
const HISTORY_TABLES: [(&str, &str); 6] = [
    ("tax_transactions", "tax_aside_transactions"),
    ("tax_rows_as_sent", "tax_aside_as_sent"),
    ("tax_malformed", "tax_aside_malformed"),
    ("tax_accounts", "tax_aside_accounts"),
    ("deposit_costs", "tax_aside_costs"),
    ("year_end_choices", "tax_aside_year_end"),
];

/// Whether a sync under an identity may add to the history kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaxOwnership {
    /// The history is this identity's (or had no owner and now has).
    Ours,
    /// The history belongs to another identity.
    Other(IdentityId),
}

/// A tax history: the one in use (`set_aside_at` is `None`) or one set aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxHistory {
    /// The aside history's number; `None` for the one in use.
    pub aside: Option<i64>,
    pub identity: Option<IdentityId>,
    pub rows: u64,
    pub set_aside_at: Option<DateTime<Utc>>,
}

impl super::Tax<'_> {
    /// Claims the history for `here` when it has no owner; says whose it is otherwise.
    pub fn claim_tax_history(&self, here: IdentityId) -> Result<TaxOwnership, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let owner: Option<i64> = tx
            .query_row("SELECT identity_id FROM tax_owner", [], |r| r.get(0))
            .optional()?;
        let found = match owner {
            Some(o) if o != here.0 => TaxOwnership::Other(IdentityId(o)),
            Some(_) => TaxOwnership::Ours,
            None => {
                tx.execute(
                    "INSERT INTO tax_owner (only, identity_id) VALUES (1, ?1)",
                    [here.0],
                )?;
                TaxOwnership::Ours
            }
        };
        tx.commit()?;
        Ok(found)
    }

    /// The identity the history in use belongs to; `None` before its first sync under a known one.
    pub fn tax_history_owner(&self) -> Result<Option<IdentityId>, StoreError> {
        Ok(self
            .db()
            .query_row("SELECT identity_id FROM tax_owner", [], |r| r.get(0))
            .optional()?
            .map(IdentityId))
    }

    /// Sets the history in use aside, whole (rows, names, deposit costs, year-end rates), and
    /// leaves an empty one with no owner, which the next sync claims. Returns the aside
    /// history's number.
    pub fn set_tax_history_aside(&self, now: DateTime<Utc>) -> Result<i64, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let owner: Option<i64> = tx
            .query_row("SELECT identity_id FROM tax_owner", [], |r| r.get(0))
            .optional()?;
        let rows: i64 = tx.query_row("SELECT COUNT(*) FROM tax_transactions", [], |r| r.get(0))?;
        tx.execute(
            "INSERT INTO tax_histories_aside (identity_id, set_aside_at_ms, rows) VALUES (?1, ?2, ?3)",
            params![owner, now.timestamp_millis(), rows],
        )?;
        let aside = tx.last_insert_rowid();
        for (table, copy) in HISTORY_TABLES {
            tx.execute(
                &format!("INSERT INTO {copy} SELECT ?1, * FROM {table}"),
                [aside],
            )?;
            tx.execute(&format!("DELETE FROM {table}"), [])?;
        }
        tx.execute_batch(
            "DELETE FROM tax_sync; DELETE FROM deposit_watch; DELETE FROM tax_owner;",
        )?;
        tx.commit()?;
        drop(db);
        self.tax_changed();
        Ok(aside)
    }

    /// The history in use first, then those set aside, newest first.
    pub fn tax_histories(&self) -> Result<Vec<TaxHistory>, StoreError> {
        let current = TaxHistory {
            aside: None,
            identity: self.tax_history_owner()?,
            rows: self.tax_row_count()?,
            set_aside_at: None,
        };
        let db = self.db();
        let mut q = db.prepare(
            "SELECT id, identity_id, rows, set_aside_at_ms FROM tax_histories_aside ORDER BY id DESC",
        )?;
        let aside = q
            .query_map([], |r| {
                Ok(TaxHistory {
                    aside: Some(r.get(0)?),
                    identity: r.get::<_, Option<i64>>(1)?.map(IdentityId),
                    rows: u64::try_from(r.get::<_, i64>(2)?).unwrap_or_default(),
                    set_aside_at: Some(time(r.get(3)?)),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(std::iter::once(current).chain(aside).collect())
    }

    fn tax_row_count(&self) -> Result<u64, StoreError> {
        let n: i64 = self
            .db()
            .query_row("SELECT COUNT(*) FROM tax_transactions", [], |r| r.get(0))?;
        Ok(u64::try_from(n).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::*;
    use crate::store::IdentityAccount;
    use crate::store::Store;

    fn identity(s: &Store, account: &str) -> IdentityId {
        s.identities()
            .identify(
                "http://x",
                "svc",
                &[IdentityAccount {
                    id: account.into(),
                    name: String::new(),
                    deleted: false,
                }],
            )
            .unwrap()
            .unwrap()
    }

    #[test]
    fn a_history_is_one_identitys_and_set_aside_whole_for_another() {
        let s = Store::in_memory().unwrap();
        let (a, b) = (identity(&s, "acc_a"), identity(&s, "acc_b"));
        assert_eq!(s.tax().claim_tax_history(a).unwrap(), TaxOwnership::Ours);
        assert_eq!(s.tax().claim_tax_history(a).unwrap(), TaxOwnership::Ours);
        assert_eq!(
            s.tax().claim_tax_history(b).unwrap(),
            TaxOwnership::Other(a)
        );
        s.db()
            .execute_batch(
                "INSERT INTO tax_accounts (id, name, deleted) VALUES ('acc_a', 'Spare', 0);
                 INSERT INTO deposit_costs (id, acquired_at, cost_nok) VALUES ('dep_1', '2026-01-01', '10');",
            )
            .unwrap();
        let aside = s.tax().set_tax_history_aside(Utc::now()).unwrap();
        assert_eq!(s.tax().claim_tax_history(b).unwrap(), TaxOwnership::Ours);
        let kept: i64 = s
            .db()
            .query_row(
                "SELECT (SELECT COUNT(*) FROM tax_aside_accounts WHERE history = ?1)
                 + (SELECT COUNT(*) FROM tax_aside_costs WHERE history = ?1)",
                [aside],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(kept, 2, "the old history's names and costs are kept aside");
        let histories = s.tax().tax_histories().unwrap();
        assert_eq!(histories.len(), 2);
        assert_eq!(histories[0].identity, Some(b));
        assert_eq!(histories[1].identity, Some(a));
        assert_eq!(histories[1].aside, Some(aside));
    }
}
