//! What the order and withdrawal journals share: one id sequence (a journal id names one money
//! request, whichever kind), the exchange each request went to, and the evidence every check saw.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{
    IdentityId, JournalEntry, JournalState, Store, StoreError, WithdrawalEntry, WithdrawalState,
    time,
};
use crate::seen::{Read, Seen};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JournalKind {
    Order,
    Withdrawal,
}

impl JournalKind {
    pub fn text(self) -> &'static str {
        match self {
            Self::Order => "order",
            Self::Withdrawal => "withdrawal",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        match s {
            "order" => Some(Self::Order),
            "withdrawal" => Some(Self::Withdrawal),
            _ => None,
        }
    }
}

/// The exchange a request was sent to, with which key, and whose accounts: it is only ever
/// checked there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    pub base_url: String,
    /// A digest of the API key (never the key itself); empty when none was used.
    pub key_fingerprint: String,
    /// The account identity the credential sees; `None` where it could not be learned.
    pub identity: Option<IdentityId>,
}

impl Origin {
    /// Whether both sides are known to be one account identity.
    fn same_identity(&self, other: &Origin) -> bool {
        matches!((self.identity, other.identity), (Some(a), Some(b)) if a == b)
    }

    /// Whether a check through `other` looks at the exchange this entry went to: the same
    /// accounts (wherever the exchange is reached now), or the same address. Entries from
    /// before origins were recorded (empty) belong to whichever exchange the profile has.
    pub fn same_exchange(&self, other: &Origin) -> bool {
        self.same_identity(other) || self.base_url.is_empty() || self.base_url == other.base_url
    }

    /// Whether a look through `other` may judge this entry: one that sees the accounts it was
    /// sent from (another account shows no trace of it, which is no evidence it was not made).
    /// Where either identity is unknown, only the key it was sent with may.
    pub fn judged_through(&self, other: &Origin) -> bool {
        match (self.identity, other.identity) {
            (Some(a), Some(b)) => a == b,
            _ => {
                self.same_exchange(other)
                    && (self.key_fingerprint.is_empty()
                        || self.key_fingerprint == other.key_fingerprint)
            }
        }
    }
}

/// One read made by a check and what it showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub at: DateTime<Utc>,
    pub read: Read,
    pub seen: Seen,
}

impl Evidence {
    /// What it saw in the journal's English words (the CLI's `saw`).
    pub fn saw(&self) -> String {
        self.seen.to_string()
    }
}

/// The outcome of journaling a request before it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Written; send it.
    Journaled(i64),
    /// Not written: the same request is still unresolved as this entry.
    SameAsUnresolved(i64),
}

/// Who settled an entry's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The exchange's own answer to the request.
    Answer,
    /// A check of the account.
    Evidence,
    /// The user, who checked the exchange's history.
    User,
}

impl Decision {
    pub(super) fn text(self) -> &'static str {
        match self {
            Self::Answer => "answer",
            Self::Evidence => "evidence",
            Self::User => "user",
        }
    }
}

/// A new journal id for `kind`, inside the caller's transaction.
pub(super) fn next_id(
    tx: &rusqlite::Transaction<'_>,
    kind: JournalKind,
) -> Result<i64, StoreError> {
    tx.execute("INSERT INTO journal_ids (kind) VALUES (?1)", [kind.text()])?;
    Ok(tx.last_insert_rowid())
}

/// Space-separated ids as stored in `claimed`.
pub(super) fn split_ids(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// A kind's table in the journal: which columns its entry is read from, and how. One query
/// layer ([`Store::entries`]) reads every kind.
pub(super) trait Table: Sized {
    /// The table's name.
    const TABLE: &'static str;
    /// The columns [`Table::read`] reads, in its order.
    const COLUMNS: &'static str;
    /// An entry from a row of [`Table::COLUMNS`]; a damaged one is an error of its own, never
    /// guessed.
    fn read(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<Self, StoreError>>;
}

/// How a request left its entry when its answer did not say it was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unanswered {
    /// The answer was lost: the request may have been made.
    Lost,
    /// The exchange (or the client, before sending) refused it.
    Refused,
    /// The connection was refused before the request could leave.
    NeverLeft,
}

/// Which entries of a kind a query reads.
#[derive(Debug, Clone, Copy)]
pub(super) enum Which {
    /// The entry of this id.
    Id(i64),
    /// Those whose outcome is not known: "unknown", and "sending" left by a crash; oldest first.
    Unresolved,
    /// The last so many, newest first.
    Recent(u32),
    /// Those sent at or after the instant, oldest first.
    Since(DateTime<Utc>),
}

impl Store {
    /// The entries of kind `T` that `which` names.
    pub(super) fn rows<T: Table>(&self, which: Which) -> Result<Vec<T>, StoreError> {
        let (clause, param) = match which {
            Which::Id(id) => ("id = ?1", Some(id)),
            Which::Unresolved => ("state IN ('unknown', 'sending') ORDER BY id", None),
            Which::Recent(n) => ("1 ORDER BY id DESC LIMIT ?1", Some(i64::from(n))),
            Which::Since(at) => ("sent_at_ms >= ?1 ORDER BY id", Some(at.timestamp_millis())),
        };
        self.rows_where(clause, param)
    }

    /// The entry of kind `T` with id `id`.
    pub(super) fn row<T: Table>(&self, id: i64) -> Result<Option<T>, StoreError> {
        Ok(self.rows(Which::Id(id))?.into_iter().next())
    }

    /// The entries of kind `T` whose rows match `clause` (which may use `?1`, bound to `param`).
    pub(super) fn rows_where<T: Table>(
        &self,
        clause: &str,
        param: Option<i64>,
    ) -> Result<Vec<T>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!(
            "SELECT {} FROM {} WHERE {clause}",
            T::COLUMNS,
            T::TABLE
        ))?;
        let rows: Vec<_> = match param {
            Some(p) => q.query_map([p], T::read)?.collect::<Result<_, _>>()?,
            None => q.query_map([], T::read)?.collect::<Result<_, _>>()?,
        };
        rows.into_iter().collect()
    }

    /// Marks that a check saw a move only entry `id` of kind `T` could explain: silence can no
    /// longer settle it as not made.
    pub(super) fn stir_row<T: Table>(&self, id: i64) -> Result<(), StoreError> {
        self.db().execute(
            &format!("UPDATE {} SET stirred = 1 WHERE id = ?1", T::TABLE),
            [id],
        )?;
        Ok(())
    }
}

impl super::Journal<'_> {
    /// Records that entry `id`'s request (of `kind`) was not answered as made: "unknown" when
    /// the answer was lost (its sender gave up now), "rejected", or not made. The sender's answer
    /// wins over whatever a check wrote meanwhile.
    pub fn record_unanswered(
        &self,
        kind: JournalKind,
        id: i64,
        how: Unanswered,
        note: &str,
    ) -> Result<(), StoreError> {
        let (table, not_made) = match kind {
            JournalKind::Order => (JournalEntry::TABLE, JournalState::NotPlaced.text()),
            JournalKind::Withdrawal => (WithdrawalEntry::TABLE, WithdrawalState::NotSent.text()),
        };
        let state = match how {
            Unanswered::Lost => "unknown",
            Unanswered::Refused => "rejected",
            Unanswered::NeverLeft => not_made,
        };
        let now = Utc::now().timestamp_millis();
        let gave_up = (how == Unanswered::Lost).then_some(now);
        self.db().execute(
            &format!(
                "UPDATE {table} SET state = ?2, note = ?3, updated_at_ms = ?4,
                 gave_up_at_ms = COALESCE(?5, gave_up_at_ms), decided_by = ?6 WHERE id = ?1"
            ),
            params![id, state, note, now, gave_up, Decision::Answer.text()],
        )?;
        Ok(())
    }

    /// Which journal holds `id`.
    pub fn kind(&self, id: i64) -> Result<Option<JournalKind>, StoreError> {
        let kind: Option<String> = self
            .db()
            .query_row("SELECT kind FROM journal_ids WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        kind.map(|k| {
            JournalKind::parse(&k).ok_or(StoreError::DamagedEntry {
                id,
                detail: format!("unknown kind `{k}`"),
            })
        })
        .transpose()
    }

    /// Every journal id with its kind, oldest first.
    pub fn ids(&self) -> Result<Vec<(i64, JournalKind)>, StoreError> {
        let db = self.db();
        let mut q = db.prepare("SELECT id, kind FROM journal_ids ORDER BY id")?;
        let rows = q.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, kind) = row?;
            let kind = JournalKind::parse(&kind).ok_or(StoreError::DamagedEntry {
                id,
                detail: format!("unknown kind `{kind}`"),
            })?;
            out.push((id, kind));
        }
        Ok(out)
    }

    pub fn add_evidence(&self, journal_id: i64, seen: &[Evidence]) -> Result<(), StoreError> {
        let mut db = self.db();
        let tx = db.transaction()?;
        insert_evidence(&tx, journal_id, seen)?;
        tx.commit()?;
        Ok(())
    }

    /// When entry `journal_id` was last checked against the exchange.
    pub fn last_checked(&self, journal_id: i64) -> Result<Option<DateTime<Utc>>, StoreError> {
        let at: Option<i64> = self.db().query_row(
            "SELECT MAX(at_ms) FROM journal_evidence WHERE journal_id = ?1 AND read = 'verdict'",
            [journal_id],
            |r| r.get(0),
        )?;
        Ok(at.map(time))
    }

    /// Records one check of entry `journal_id` (its reads, then its verdict). A check that saw
    /// exactly what the one before it saw only moves that one's time forward: an entry in doubt
    /// for days is checked thousands of times, and the same rows again add nothing.
    pub fn add_check(&self, journal_id: i64, seen: &[Evidence]) -> Result<(), StoreError> {
        let mut db = self.db();
        let tx = db.transaction()?;
        let last: Vec<(i64, String, String)> = {
            let mut q = tx.prepare(
                "SELECT rowid, read, saw FROM journal_evidence WHERE journal_id = ?1
                 ORDER BY rowid DESC LIMIT ?2",
            )?;
            let rows = q.query_map(params![journal_id, seen.len() as i64], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
            rows.collect::<Result<_, _>>()?
        };
        let same = last.len() == seen.len()
            && last
                .iter()
                .rev()
                .zip(seen)
                .all(|((_, read, saw), e)| read == e.read.as_str() && *saw == e.saw());
        if same {
            for ((rowid, _, _), e) in last.iter().rev().zip(seen) {
                tx.execute(
                    "UPDATE journal_evidence SET at_ms = ?2 WHERE rowid = ?1",
                    params![rowid, e.at.timestamp_millis()],
                )?;
            }
        } else {
            insert_evidence(&tx, journal_id, seen)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// What every check of entry `journal_id` saw, oldest first.
    pub fn evidence(&self, journal_id: i64) -> Result<Vec<Evidence>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(
            "SELECT at_ms, read, saw, seen FROM journal_evidence WHERE journal_id = ?1
             ORDER BY rowid",
        )?;
        let rows = q.query_map([journal_id], |r| {
            let read: String = r.get(1)?;
            let saw: String = r.get(2)?;
            let seen: Option<String> = r.get(3)?;
            Ok(Evidence {
                at: time(r.get(0)?),
                read: Read::parse(&read),
                seen: Seen::stored(seen.as_deref(), &saw),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

fn insert_evidence(
    tx: &rusqlite::Transaction<'_>,
    journal_id: i64,
    seen: &[Evidence],
) -> Result<(), StoreError> {
    for e in seen {
        tx.execute(
            "INSERT INTO journal_evidence (journal_id, at_ms, read, saw, seen)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                journal_id,
                e.at.timestamp_millis(),
                e.read.as_str(),
                e.saw(),
                e.seen.to_json()
            ],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(at: i64, verdict: Seen) -> Vec<Evidence> {
        let at = time(at);
        vec![
            Evidence {
                at,
                read: Read::OpenOrders,
                seen: Seen::OpenOrders { count: 0 },
            },
            Evidence {
                at,
                read: Read::Verdict,
                seen: verdict,
            },
        ]
    }

    fn in_flight() -> Seen {
        Seen::Unknown {
            doubt: crate::doubt::Doubt::InFlight,
        }
    }

    #[test]
    fn a_check_that_saw_the_same_only_moves_the_time_forward() {
        let s = Store::in_memory().unwrap();
        s.journal().add_check(7, &seen(1_000, in_flight())).unwrap();
        s.journal().add_check(7, &seen(2_000, in_flight())).unwrap();
        let e = s.journal().evidence(7).unwrap();
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[1].at, time(2_000));
        assert_eq!(s.journal().last_checked(7).unwrap(), Some(time(2_000)));
        let made = Seen::Made {
            ids: vec!["u-1".into()],
        };
        s.journal()
            .add_check(7, &seen(3_000, made.clone()))
            .unwrap();
        let e = s.journal().evidence(7).unwrap();
        assert_eq!(e.len(), 4, "a new sight is kept");
        assert_eq!(e[3].seen, made, "kept as a fact");
    }

    /// A step an older version wrote has only its words: it reads as them, and the CLI's
    /// `saw` is what it was.
    #[test]
    fn a_step_written_before_steps_were_facts_reads_as_its_words() {
        let s = Store::in_memory().unwrap();
        s.db()
            .execute(
                "INSERT INTO journal_evidence (journal_id, at_ms, read, saw)
                 VALUES (3, 1000, 'verdict', 'unknown: no trace yet; silence counts after 10 min')",
                [],
            )
            .unwrap();
        let e = s.journal().evidence(3).unwrap();
        assert_eq!(e[0].read, Read::Verdict);
        assert_eq!(
            e[0].seen,
            Seen::Legacy {
                text: "unknown: no trace yet; silence counts after 10 min".into()
            }
        );
        assert_eq!(
            e[0].saw(),
            "unknown: no trace yet; silence counts after 10 min"
        );
    }
}
