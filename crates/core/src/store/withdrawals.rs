//! The withdrawal journal: every payment is written here before it is sent, so one in flight or
//! with an unknown outcome survives a restart and is resolved by inspecting the account, never by
//! sending it again.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};
use rust_decimal::Decimal;

use super::{Store, StoreError, dec, dec_opt, time};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithdrawalState {
    /// Written before the request left; seen after a crash it means "unknown".
    Sending,
    /// The exchange took it (its network status is tracked separately).
    Sent,
    Rejected,
    /// The request may have reached the exchange; not yet resolved.
    Unknown,
    /// Resolved by inspecting the account: nothing was sent.
    NotSent,
}

impl WithdrawalState {
    pub fn text(self) -> &'static str {
        match self {
            Self::Sending => "sending",
            Self::Sent => "sent",
            Self::Rejected => "rejected",
            Self::Unknown => "unknown",
            Self::NotSent => "not-sent",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "sent" => Self::Sent,
            "rejected" => Self::Rejected,
            "not-sent" => Self::NotSent,
            "sending" => Self::Sending,
            _ => Self::Unknown,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithdrawalEntry {
    pub id: i64,
    pub sent_at: DateTime<Utc>,
    pub destination: String,
    pub identity: String,
    pub amount_btc: Decimal,
    pub account_id: Option<String>,
    /// Put in the request's description, so the withdrawal can be found in the account's
    /// transactions when its answer is lost.
    pub reference: String,
    pub state: WithdrawalState,
    pub withdrawal_id: Option<String>,
    /// The API's status name as last seen (`WITHDRAWAL_STATUS_…`), once known.
    pub status: Option<String>,
    pub note: String,
    /// The account's available BTC just before sending.
    pub balance_before: Option<Decimal>,
}

const SELECT: &str = "SELECT id, sent_at_ms, destination, identity, amount_btc, account_id, reference, state, withdrawal_id, status, note, balance_before FROM withdrawal_journal";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<WithdrawalEntry> {
    Ok(WithdrawalEntry {
        id: r.get(0)?,
        sent_at: time(r.get(1)?),
        destination: r.get(2)?,
        identity: r.get(3)?,
        amount_btc: dec(r, 4)?,
        account_id: r.get(5)?,
        reference: r.get(6)?,
        state: WithdrawalState::parse(&r.get::<_, String>(7)?),
        withdrawal_id: r.get(8)?,
        status: r.get(9)?,
        note: r.get(10)?,
        balance_before: dec_opt(r, 11)?,
    })
}

/// What is known before a withdrawal is sent.
#[derive(Debug, Clone)]
pub struct NewWithdrawalEntry<'a> {
    pub sent_at: DateTime<Utc>,
    pub destination: &'a str,
    pub identity: &'a str,
    pub amount_btc: Decimal,
    pub account_id: Option<&'a str>,
    pub reference: &'a str,
    pub balance_before: Option<Decimal>,
}

impl Store {
    pub fn withdrawal_sending(&self, w: &NewWithdrawalEntry<'_>) -> Result<i64, StoreError> {
        let db = self.db();
        db.execute(
            "INSERT INTO withdrawal_journal (sent_at_ms, destination, identity, amount_btc, account_id, reference, state, balance_before, updated_at_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'sending', ?7, ?1)",
            params![
                w.sent_at.timestamp_millis(),
                w.destination,
                w.identity,
                w.amount_btc.to_string(),
                w.account_id,
                w.reference,
                w.balance_before.map(|b| b.to_string())
            ],
        )?;
        Ok(db.last_insert_rowid())
    }

    pub fn withdrawal_update(
        &self,
        id: i64,
        state: WithdrawalState,
        withdrawal_id: Option<&str>,
        status: Option<&str>,
        note: &str,
    ) -> Result<(), StoreError> {
        self.db().execute(
            "UPDATE withdrawal_journal SET state = ?2, withdrawal_id = COALESCE(?3, withdrawal_id),
             status = COALESCE(?4, status), note = ?5, updated_at_ms = ?6 WHERE id = ?1",
            params![
                id,
                state.text(),
                withdrawal_id,
                status,
                note,
                Utc::now().timestamp_millis()
            ],
        )?;
        Ok(())
    }

    /// Records a network status; returns the one it replaces, so a change is announced once.
    pub fn withdrawal_set_status(
        &self,
        id: i64,
        status: &str,
    ) -> Result<Option<String>, StoreError> {
        let db = self.db();
        let before: Option<Option<String>> = db
            .query_row(
                "SELECT status FROM withdrawal_journal WHERE id = ?1",
                [id],
                |r| r.get(0),
            )
            .optional()?;
        db.execute(
            "UPDATE withdrawal_journal SET status = ?2, updated_at_ms = ?3 WHERE id = ?1",
            params![id, status, Utc::now().timestamp_millis()],
        )?;
        Ok(before.flatten())
    }

    pub fn withdrawal_entry(&self, id: i64) -> Result<Option<WithdrawalEntry>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!("{SELECT} WHERE id = ?1"))?;
        let mut rows = q.query_map([id], row)?;
        Ok(rows.next().transpose()?)
    }

    /// Entries whose outcome is not known: "unknown", and "sending" left by a crash.
    pub fn withdrawals_unresolved(&self) -> Result<Vec<WithdrawalEntry>, StoreError> {
        self.withdrawals_where("state IN ('unknown', 'sending') ORDER BY id", None)
    }

    /// Sent, and not yet completed or failed on the network.
    pub fn withdrawals_in_flight(&self) -> Result<Vec<WithdrawalEntry>, StoreError> {
        self.withdrawals_where(
            "state = 'sent' AND withdrawal_id IS NOT NULL
             AND (status IS NULL OR status NOT IN ('WITHDRAWAL_STATUS_COMPLETED', 'WITHDRAWAL_STATUS_FAILED')) ORDER BY id",
            None,
        )
    }

    /// Whether a payment to `identity` has gone through before (so the exchange knows it).
    pub fn destination_used(&self, identity: &str) -> Result<bool, StoreError> {
        let n: i64 = self.db().query_row(
            "SELECT COUNT(*) FROM withdrawal_journal WHERE identity = ?1 AND state = 'sent'",
            [identity],
            |r| r.get(0),
        )?;
        Ok(n > 0)
    }

    pub fn withdrawals_recent(&self, limit: u32) -> Result<Vec<WithdrawalEntry>, StoreError> {
        self.withdrawals_where("1 ORDER BY id DESC LIMIT ?1", Some(limit))
    }

    fn withdrawals_where(
        &self,
        clause: &str,
        limit: Option<u32>,
    ) -> Result<Vec<WithdrawalEntry>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!("{SELECT} WHERE {clause}"))?;
        let rows = match limit {
            Some(l) => q.query_map([l], row)?.collect::<Result<_, _>>(),
            None => q.query_map([], row)?.collect::<Result<_, _>>(),
        };
        Ok(rows?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_withdrawal_lives_through_its_states_and_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db");
        let s = Store::open(&path).unwrap();
        let id = s
            .withdrawal_sending(&NewWithdrawalEntry {
                sent_at: Utc::now(),
                destination: "kari@example.com",
                identity: "kari@example.com",
                amount_btc: Decimal::new(12_500, 8),
                account_id: None,
                reference: "nordlys:ab12",
                balance_before: Some(Decimal::ONE),
            })
            .unwrap();
        drop(s);
        let s = Store::open(&path).unwrap();
        assert_eq!(
            s.withdrawals_unresolved().unwrap().len(),
            1,
            "a crash while sending is unresolved"
        );
        assert!(!s.destination_used("kari@example.com").unwrap());
        s.withdrawal_update(
            id,
            WithdrawalState::Sent,
            Some("wi_1"),
            Some("WITHDRAWAL_STATUS_PENDING"),
            "",
        )
        .unwrap();
        assert!(s.withdrawals_unresolved().unwrap().is_empty());
        assert!(s.destination_used("kari@example.com").unwrap());
        assert_eq!(s.withdrawals_in_flight().unwrap().len(), 1);
        assert_eq!(
            s.withdrawal_set_status(id, "WITHDRAWAL_STATUS_COMPLETED")
                .unwrap()
                .as_deref(),
            Some("WITHDRAWAL_STATUS_PENDING")
        );
        assert!(s.withdrawals_in_flight().unwrap().is_empty());
        let e = s.withdrawal_entry(id).unwrap().unwrap();
        assert_eq!(
            (e.state, e.amount_btc.to_string().as_str()),
            (WithdrawalState::Sent, "0.00012500")
        );
        assert_eq!(s.withdrawals_recent(5).unwrap().len(), 1);
    }
}
