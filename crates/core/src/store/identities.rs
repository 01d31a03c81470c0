//! Account identities: whose records these are. An identity is an exchange (its operator, and the
//! address it was last reached at) plus the set of bitcoin account ids a credential sees there,
//! deleted accounts included. Two credentials whose sets share an id see the same account — a
//! rotated key, a new OAuth grant, or the same exchange reached at another address — so they
//! share one identity, and the ids either one sees are added to it.

use std::collections::HashMap;

use chrono::Utc;
use rusqlite::{OptionalExtension, params};

use super::StoreError;

/// The local id of an account identity (a row of `account_identities`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IdentityId(pub i64);

/// One bitcoin account an identity is known by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityAccount {
    pub id: String,
    pub name: String,
    pub deleted: bool,
}

/// An identity as kept: where, and the accounts it is known by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountIdentity {
    pub id: IdentityId,
    /// The exchange's address when the identity was last learned; empty for records made before
    /// identities were kept, until a credential that sees their accounts is used.
    pub base_url: String,
    /// The operator's abbreviation; empty as above.
    pub operator: String,
    pub accounts: Vec<IdentityAccount>,
}

impl AccountIdentity {
    /// Its account ids, sorted.
    pub fn account_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.accounts.iter().map(|a| a.id.clone()).collect();
        ids.sort();
        ids
    }
}

/// The identity learned for each credential in this process: `(base_url, key fingerprint)`,
/// the fingerprint empty for OAuth, whose grant may be another user's next time. A credential
/// whose accounts could not be learned is kept with when it was tried (`None`), so the paths
/// that ask on every look or keystroke do not ask the exchange again each time.
pub(super) type Learned = HashMap<(String, String), Learning>;

#[derive(Debug, Clone, Copy)]
pub(super) enum Learning {
    Known(IdentityId),
    Failed(std::time::Instant),
}

/// How long a failed learning stands before the exchange is asked again.
const RETRY_LEARNING: std::time::Duration = std::time::Duration::from_secs(60);

impl super::Identities<'_> {
    /// The identity the accounts `seen` through a credential of the exchange at `base_url`
    /// belong to: one that shares an account id with them, else the identity records made before
    /// identities were kept were given (when it knows no ids yet), else a new one. `None` when
    /// the credential sees no account at all: nothing can tell whose it is.
    pub fn identify(
        &self,
        base_url: &str,
        operator: &str,
        seen: &[IdentityAccount],
    ) -> Result<Option<IdentityId>, StoreError> {
        if seen.is_empty() {
            return Ok(None);
        }
        let mut db = self.db();
        let tx = db.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut shared: Option<i64> = None;
        for a in seen {
            let found: Option<i64> = tx
                .query_row(
                    "SELECT MIN(i.id) FROM identity_accounts a
                     JOIN account_identities i ON i.id = a.identity_id
                     WHERE a.account_id = ?1 AND (i.operator = ?2 OR i.operator = '')",
                    params![a.id, operator],
                    |r| r.get(0),
                )
                .optional()?
                .flatten();
            shared = match (shared, found) {
                (Some(s), Some(f)) => Some(s.min(f)),
                (s, f) => s.or(f),
            };
        }
        let adopted = || -> rusqlite::Result<Option<i64>> {
            tx.query_row(
                "SELECT MIN(id) FROM account_identities i WHERE NOT EXISTS
                 (SELECT 1 FROM identity_accounts a WHERE a.identity_id = i.id)",
                [],
                |r| r.get(0),
            )
        };
        let id = match shared {
            Some(id) => id,
            None => match adopted()? {
                Some(id) => id,
                None => {
                    tx.execute(
                        "INSERT INTO account_identities (base_url, operator, learned_at_ms)
                         VALUES (?1, ?2, ?3)",
                        params![base_url, operator, Utc::now().timestamp_millis()],
                    )?;
                    tx.last_insert_rowid()
                }
            },
        };
        tx.execute(
            "UPDATE account_identities SET base_url = ?2, operator = ?3, learned_at_ms = ?4
             WHERE id = ?1",
            params![id, base_url, operator, Utc::now().timestamp_millis()],
        )?;
        for a in seen {
            tx.execute(
                "INSERT INTO identity_accounts (identity_id, account_id, name, deleted)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (identity_id, account_id) DO UPDATE SET name = ?3, deleted = ?4",
                params![id, a.id, a.name, a.deleted],
            )?;
        }
        tx.commit()?;
        Ok(Some(IdentityId(id)))
    }

    /// Remembers that the credential `(base_url, key_fingerprint)` sees `identity`: for this
    /// process, and for good when it is an API key (a key never moves to another account).
    pub fn remember(
        &self,
        base_url: &str,
        key_fingerprint: &str,
        identity: IdentityId,
    ) -> Result<(), StoreError> {
        self.learned_identities
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(
                (base_url.to_owned(), key_fingerprint.to_owned()),
                Learning::Known(identity),
            );
        if !key_fingerprint.is_empty() {
            self.db().execute(
                "INSERT OR REPLACE INTO credential_identities (base_url, key_fingerprint, identity_id)
                 VALUES (?1, ?2, ?3)",
                params![base_url, key_fingerprint, identity.0],
            )?;
        }
        Ok(())
    }

    /// Remembers that the credential's accounts could not be learned just now.
    pub fn learning_failed(&self, base_url: &str, key_fingerprint: &str) {
        self.learned_identities
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(
                (base_url.to_owned(), key_fingerprint.to_owned()),
                Learning::Failed(std::time::Instant::now()),
            );
    }

    /// Whether learning the credential's accounts failed less than a minute ago.
    pub fn learning_failed_lately(&self, base_url: &str, key_fingerprint: &str) -> bool {
        let key = (base_url.to_owned(), key_fingerprint.to_owned());
        matches!(
            self.learned_identities
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get(&key),
            Some(Learning::Failed(at)) if at.elapsed() < RETRY_LEARNING
        )
    }

    /// The identity the credential was last seen to have: learned in this process, or kept for
    /// an API key.
    pub fn known(
        &self,
        base_url: &str,
        key_fingerprint: &str,
    ) -> Result<Option<IdentityId>, StoreError> {
        let key = (base_url.to_owned(), key_fingerprint.to_owned());
        if let Some(Learning::Known(id)) = self
            .learned_identities
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
        {
            return Ok(Some(*id));
        }
        if key_fingerprint.is_empty() {
            return Ok(None);
        }
        Ok(self
            .db()
            .query_row(
                "SELECT identity_id FROM credential_identities
                 WHERE base_url = ?1 AND key_fingerprint = ?2",
                params![base_url, key_fingerprint],
                |r| r.get(0),
            )
            .optional()?
            .map(IdentityId))
    }

    /// Every identity kept, oldest first, with its accounts.
    pub fn all(&self) -> Result<Vec<AccountIdentity>, StoreError> {
        let db = self.db();
        let mut q =
            db.prepare("SELECT id, base_url, operator FROM account_identities ORDER BY id")?;
        let mut found = q
            .query_map([], |r| {
                Ok(AccountIdentity {
                    id: IdentityId(r.get(0)?),
                    base_url: r.get(1)?,
                    operator: r.get(2)?,
                    accounts: Vec::new(),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut q = db.prepare(
            "SELECT account_id, name, deleted FROM identity_accounts
             WHERE identity_id = ?1 ORDER BY account_id",
        )?;
        for identity in &mut found {
            identity.accounts = q
                .query_map([identity.id.0], |r| {
                    Ok(IdentityAccount {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        deleted: r.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
        }
        Ok(found)
    }

    /// The account ids of `identity`, sorted; empty for one not kept.
    pub fn accounts_of(&self, identity: IdentityId) -> Result<Vec<String>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(
            "SELECT account_id FROM identity_accounts WHERE identity_id = ?1 ORDER BY account_id",
        )?;
        Ok(q.query_map([identity.0], |r| r.get(0))?
            .collect::<Result<Vec<_>, _>>()?)
    }
}

impl super::Identities<'_> {
    /// Each exchange address the journal's entries were sent to, with the accounts they were
    /// sent from (`None` where not learned); entries from before addresses were kept are left out.
    pub fn journal_origins(&self) -> Result<Vec<(String, Option<IdentityId>)>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(
            "SELECT DISTINCT base_url, identity_id FROM order_journal WHERE base_url <> ''
             UNION SELECT DISTINCT base_url, identity_id FROM withdrawal_journal WHERE base_url <> ''",
        )?;
        Ok(q.query_map([], |r| {
            Ok((r.get(0)?, r.get::<_, Option<i64>>(1)?.map(IdentityId)))
        })?
        .collect::<Result<Vec<_>, _>>()?)
    }
}

/// Right after the migration that added identities: records already kept are given the identity
/// of the profile they live in, known by every account id they name (journal entries, their
/// balance snapshots, plans, tax rows and names). Nothing kept, nothing made.
pub(super) fn adopt_existing(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    let kept: i64 = tx.query_row(
        "SELECT (SELECT COUNT(*) FROM order_journal) + (SELECT COUNT(*) FROM withdrawal_journal)
         + (SELECT COUNT(*) FROM plans) + (SELECT COUNT(*) FROM recipients)
         + (SELECT COUNT(*) FROM tax_transactions) + (SELECT COUNT(*) FROM tax_sync)",
        [],
        |r| r.get(0),
    )?;
    if kept == 0 {
        return Ok(());
    }
    let base_url: String = tx
        .query_row(
            "SELECT base_url FROM (SELECT base_url FROM order_journal UNION ALL
             SELECT base_url FROM withdrawal_journal) WHERE base_url <> ''
             GROUP BY base_url ORDER BY COUNT(*) DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or_default();
    tx.execute(
        "INSERT INTO account_identities (base_url, operator, learned_at_ms) VALUES (?1, '', ?2)",
        params![base_url, Utc::now().timestamp_millis()],
    )?;
    let id = tx.last_insert_rowid();
    let mut named: HashMap<String, (String, bool)> = HashMap::new();
    {
        let mut q = tx.prepare(
            "SELECT account_id FROM order_journal WHERE account_id IS NOT NULL
             UNION SELECT account_id FROM withdrawal_journal WHERE account_id IS NOT NULL
             UNION SELECT account_id FROM plans WHERE account_id IS NOT NULL
             UNION SELECT account_id FROM tax_transactions",
        )?;
        for account in q.query_map([], |r| r.get::<_, String>(0))? {
            named.entry(account?).or_default();
        }
        let mut q = tx.prepare(
            "SELECT before FROM order_journal WHERE before IS NOT NULL
             UNION ALL SELECT before FROM withdrawal_journal WHERE before IS NOT NULL",
        )?;
        for before in q.query_map([], |r| r.get::<_, String>(0))? {
            for account in snapshot_accounts(&before?) {
                named.entry(account).or_default();
            }
        }
        let mut q = tx.prepare("SELECT id, name, deleted FROM tax_accounts")?;
        for row in q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))? {
            let (account, name, deleted): (String, String, bool) = row?;
            named.insert(account, (name, deleted));
        }
    }
    for (account, (name, deleted)) in named.into_iter().filter(|(a, _)| !a.is_empty()) {
        tx.execute(
            "INSERT INTO identity_accounts (identity_id, account_id, name, deleted)
             VALUES (?1, ?2, ?3, ?4)",
            params![id, account, name, deleted],
        )?;
    }
    tx.execute_batch(&format!(
        "UPDATE order_journal SET identity_id = {id};
         UPDATE withdrawal_journal SET identity_id = {id};
         UPDATE plans SET identity_id = {id};
         UPDATE recipients SET identity_id = {id};"
    ))?;
    let has_history: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM tax_transactions) OR EXISTS (SELECT 1 FROM tax_sync)",
        [],
        |r| r.get(0),
    )?;
    if has_history {
        tx.execute(
            "INSERT INTO tax_owner (only, identity_id) VALUES (1, ?1)",
            [id],
        )?;
    }
    Ok(())
}

/// The account ids in a journal entry's balance snapshot (`evidence::Balances` as JSON); none
/// from one that does not read.
fn snapshot_accounts(json: &str) -> Vec<String> {
    serde_json::from_str::<crate::evidence::Balances>(json)
        .map(|b| b.accounts.into_iter().map(|h| h.id).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::*;
    use crate::store::Store;

    fn seen(ids: &[&str]) -> Vec<IdentityAccount> {
        ids.iter()
            .map(|id| IdentityAccount {
                id: (*id).to_owned(),
                name: format!("name of {id}"),
                deleted: false,
            })
            .collect()
    }

    #[test]
    fn sets_that_share_an_id_are_one_identity_and_others_are_not() {
        let s = Store::in_memory().unwrap();
        let a = s
            .identities()
            .identify("http://x", "svc", &seen(&["acc_1", "acc_2"]))
            .unwrap();
        let rotated = s
            .identities()
            .identify("http://x", "svc", &seen(&["acc_2", "acc_3"]))
            .unwrap();
        let other = s
            .identities()
            .identify("http://x", "svc", &seen(&["acc_9"]))
            .unwrap();
        let moved = s
            .identities()
            .identify("http://y", "svc", &seen(&["acc_1"]))
            .unwrap();
        assert_eq!(a, rotated);
        assert_eq!(a, moved, "the same accounts at another address");
        assert_ne!(a, other);
        let ids = s.identities().accounts_of(a.unwrap()).unwrap();
        assert_eq!(ids, ["acc_1", "acc_2", "acc_3"], "new ids are added to it");
        assert_eq!(
            s.identities().identify("http://x", "svc", &[]).unwrap(),
            None
        );
        let another_operator = s
            .identities()
            .identify("http://x", "abc", &seen(&["acc_1"]))
            .unwrap();
        assert_ne!(a, another_operator);
    }

    #[test]
    fn a_key_is_remembered_for_good_and_oauth_for_this_process_only() {
        let path = std::env::temp_dir().join(format!(
            "nordlys-identity-{}-{}.sqlite",
            std::process::id(),
            Utc::now().timestamp_nanos_opt().unwrap_or_default()
        ));
        let s = Store::open(&path).unwrap();
        let id = s
            .identities()
            .identify("http://x", "svc", &seen(&["acc_1"]))
            .unwrap()
            .unwrap();
        s.identities().remember("http://x", "fp", id).unwrap();
        s.identities().remember("http://x", "", id).unwrap();
        drop(s);
        let s = Store::open(&path).unwrap();
        assert_eq!(s.identities().known("http://x", "fp").unwrap(), Some(id));
        assert_eq!(s.identities().known("http://x", "").unwrap(), None);
        assert_eq!(s.identities().known("http://y", "fp").unwrap(), None);
        s.identities().learning_failed("http://y", "fp");
        assert!(s.identities().learning_failed_lately("http://y", "fp"));
        assert!(!s.identities().learning_failed_lately("http://x", "fp"));
        let _ = std::fs::remove_file(&path);
    }

    /// Records kept before identities take the profile's identity, known by every account id
    /// they name; a credential that sees one of those ids is that identity.
    #[test]
    fn an_upgrade_binds_what_is_kept_to_the_profiles_accounts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db");
        let mut db = rusqlite::Connection::open(&path).unwrap();
        let before = crate::evidence::Balances {
            accounts: vec![crate::evidence::Holding {
                id: "acc_snap".into(),
                available: nordlys_money::Btc::ZERO,
                total: nordlys_money::Btc::ZERO,
            }],
            fiat: None,
        }
        .to_json();
        {
            let tx = db.transaction().unwrap();
            let last = super::super::IDENTITIES_ADOPTED_AFTER - 1;
            for sql in &super::super::MIGRATIONS[..last] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", last as i64).unwrap();
            tx.execute(
                "INSERT INTO order_journal (sent_at_ms, order_type, direction, amount, state,
                 updated_at_ms, base_url, before) VALUES (0, 'market', 'buy', '500', 'unknown', 0,
                 'https://x.example/', ?1)",
                [&before],
            )
            .unwrap();
            tx.execute_batch(
                "INSERT INTO plans (buy_nok, period, at_minute, account_id, missed, created_at_ms,
                 active_from_ms) VALUES ('100', 'day', 420, 'acc_plan', 'skip', 0, 0);
                 INSERT INTO tax_accounts (id, name, deleted) VALUES ('acc_named', 'Savings', 1);",
            )
            .unwrap();
            tx.commit().unwrap();
        }
        drop(db);
        let s = Store::open(&path).unwrap();
        let all = s.identities().all().unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].base_url, "https://x.example/");
        assert_eq!(all[0].account_ids(), ["acc_named", "acc_plan", "acc_snap"]);
        let entry = &s.orders().unresolved().unwrap()[0];
        assert_eq!(entry.origin.identity, Some(all[0].id));
        assert_eq!(s.plans().all().unwrap()[0].identity, Some(all[0].id));
        assert_eq!(
            s.identities()
                .identify("https://x.example/", "svc", &seen(&["acc_snap", "acc_new"]))
                .unwrap(),
            Some(all[0].id)
        );
        assert_ne!(
            s.identities()
                .identify("https://x.example/", "svc", &seen(&["acc_else"]))
                .unwrap(),
            Some(all[0].id),
            "another user's accounts are another identity"
        );
    }

    #[test]
    fn an_empty_store_is_given_no_identity() {
        let s = Store::in_memory().unwrap();
        assert!(s.identities().all().unwrap().is_empty());
    }

    #[test]
    fn a_damaged_snapshot_names_no_account() {
        assert!(snapshot_accounts("not json").is_empty());
        assert!(snapshot_accounts("{}").is_empty());
    }
}
