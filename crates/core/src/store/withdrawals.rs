//! The withdrawal journal: every payment is written here before it is sent, so one in flight or
//! with an unknown outcome survives a restart and is resolved by inspecting the account, never by
//! sending it again.

use chrono::{DateTime, Utc};
use nordlys_exchange::models::WithdrawalStatus;
use nordlys_money::{Btc, Nok};
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use crate::evidence::Balances;

use super::journal::{Decision, JournalKind, Origin, Table, Which, next_id, split_ids};
use super::{StoreError, dec, dec_opt, time};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum WithdrawalState {
    /// Written before the request left; seen after a crash it means "unknown".
    Sending,
    /// The exchange took it (its network status is tracked separately).
    Sent,
    Rejected,
    /// The request may have reached the exchange; not yet resolved.
    Unknown,
    /// Settled without the exchange's answer: it never reached the exchange, a long quiet check
    /// found no trace, or the user checked.
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

    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "sent" => Self::Sent,
            "rejected" => Self::Rejected,
            "not-sent" => Self::NotSent,
            "sending" => Self::Sending,
            "unknown" => Self::Unknown,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithdrawalEntry {
    pub id: i64,
    pub sent_at: DateTime<Utc>,
    pub destination: String,
    pub identity: String,
    pub amount_btc: Btc,
    pub account_id: Option<String>,
    /// Put in the request's description, so the withdrawal can be found in the account's
    /// transactions when its answer is lost.
    pub reference: String,
    pub state: WithdrawalState,
    pub withdrawal_id: Option<String>,
    /// The network status as last seen (unknown names kept as they are), once known.
    pub status: Option<WithdrawalStatus>,
    pub note: String,
    pub origin: Origin,
    /// The JSON body sent.
    pub request: String,
    pub gave_up_at: Option<DateTime<Utc>>,
    /// Balances just before sending; `None` when they could not be read (or their stored
    /// text cannot).
    pub before: Option<Balances>,
    /// Ids of tax rows that are this entry's evidence.
    pub claimed: Vec<String>,
    /// A check saw a balance move only this entry could explain.
    pub stirred: bool,
}

impl Table for WithdrawalEntry {
    const TABLE: &'static str = "withdrawal_journal";
    const COLUMNS: &'static str = "id, sent_at_ms, destination, identity, amount_btc, account_id, reference, state, withdrawal_id, status, note,
    base_url, key_fingerprint, request, gave_up_at_ms, before, claimed, stirred, identity_id";

    fn read(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<WithdrawalEntry, StoreError>> {
        let id: i64 = r.get(0)?;
        let state: String = r.get(7)?;
        let Some(state) = WithdrawalState::parse(&state) else {
            return Ok(Err(StoreError::DamagedEntry {
                id,
                detail: format!("unknown state `{state}`"),
            }));
        };
        Ok(Ok(WithdrawalEntry {
            id,
            sent_at: time(r.get(1)?),
            destination: r.get(2)?,
            identity: r.get(3)?,
            amount_btc: dec(r, 4)?,
            account_id: r.get(5)?,
            reference: r.get(6)?,
            state,
            withdrawal_id: r.get(8)?,
            status: r
                .get::<_, Option<String>>(9)?
                .map(|s| WithdrawalStatus::from(s.as_str())),
            note: r.get(10)?,
            origin: Origin {
                base_url: r.get(11)?,
                key_fingerprint: r.get(12)?,
                identity: r.get::<_, Option<i64>>(18)?.map(super::IdentityId),
            },
            request: r.get(13)?,
            gave_up_at: r.get::<_, Option<i64>>(14)?.map(time),
            before: Balances::from_json(r.get::<_, Option<String>>(15)?.as_deref()),
            claimed: split_ids(&r.get::<_, String>(16)?),
            stirred: r.get::<_, i64>(17)? != 0,
        }))
    }
}

/// What is known before a withdrawal is sent.
#[derive(Debug, Clone)]
pub struct NewWithdrawalEntry<'a> {
    pub sent_at: DateTime<Utc>,
    pub destination: &'a str,
    pub identity: &'a str,
    pub amount_btc: Btc,
    pub account_id: Option<&'a str>,
    pub reference: &'a str,
    pub origin: &'a Origin,
    pub request: &'a str,
    pub before: Option<&'a Balances>,
    /// The amount in NOK, when the user typed it in NOK.
    pub typed_nok: Option<Nok>,
}

/// What journaling a payment did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentClaim {
    /// Written; send it.
    Journaled(i64),
    /// Not written: the same payment is still unresolved as this entry.
    SameAsUnresolved(i64),
    /// Not written: the same payment was sent as this entry, at this time, within the last day.
    SameAsRecent(i64, DateTime<Utc>),
}

/// What makes two payments the same one for the journal's two asks: the exchange, the
/// destination in any case, the amount (in the unit it was typed in) and the account.
#[derive(Debug, Clone, Copy)]
pub struct PaymentLikeness<'a> {
    pub at: DateTime<Utc>,
    pub base_url: &'a str,
    pub destination: &'a str,
    pub amount_btc: Btc,
    pub typed_nok: Option<Nok>,
    pub account_id: Option<&'a str>,
}

impl NewWithdrawalEntry<'_> {
    /// What the journal compares this entry by, before and as it is written.
    pub fn likeness(&self) -> PaymentLikeness<'_> {
        PaymentLikeness {
            at: self.sent_at,
            base_url: &self.origin.base_url,
            destination: self.destination,
            amount_btc: self.amount_btc,
            typed_nok: self.typed_nok,
            account_id: self.account_id,
        }
    }
}

/// The newest payment sent (by its answer or by evidence) in the day before `w`, the same as
/// typed: same exchange, destination in any case and account, and the same BTC, or the same NOK
/// where `w` was typed in NOK.
fn sent_in_the_last_day(
    db: &rusqlite::Connection,
    w: &PaymentLikeness<'_>,
) -> Result<Option<(i64, DateTime<Utc>)>, StoreError> {
    let since = w.at - chrono::Duration::days(1);
    let mut q = db.prepare(
        "SELECT id, sent_at_ms, destination, amount_btc, typed_nok, account_id FROM withdrawal_journal
         WHERE state = 'sent' AND base_url = ?1 AND sent_at_ms >= ?2 ORDER BY id DESC",
    )?;
    let rows = q
        .query_map(params![w.base_url, since.timestamp_millis()], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                dec::<Btc>(r, 3)?,
                dec_opt::<Nok>(r, 4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows
        .into_iter()
        .find(|(_, _, d, btc, nok, account)| {
            let typed_alike = match w.typed_nok {
                Some(typed) => *nok == Some(typed),
                None => nok.is_none() && *btc == w.amount_btc,
            };
            d.eq_ignore_ascii_case(w.destination)
                && account.as_deref() == w.account_id
                && typed_alike
        })
        .map(|(id, at, ..)| (id, time(at))))
}

/// The same payment still unresolved: the same bitcoin to the same place, or the same NOK typed
/// for it from the same account (the price since makes other bitcoin of it).
fn unresolved_alike(
    db: &rusqlite::Connection,
    w: &PaymentLikeness<'_>,
) -> Result<Option<i64>, StoreError> {
    let mut q = db.prepare(
        "SELECT id, destination, amount_btc, typed_nok, account_id FROM withdrawal_journal
         WHERE state IN ('sending', 'unknown') AND base_url = ?1 ORDER BY id",
    )?;
    let same = q
        .query_map([w.base_url], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                dec::<Btc>(r, 2)?,
                dec_opt::<Nok>(r, 3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .find(|(_, d, btc, nok, account)| {
            d.eq_ignore_ascii_case(w.destination)
                && (*btc == w.amount_btc
                    || (nok.is_some() && *nok == w.typed_nok && account.as_deref() == w.account_id))
        });
    Ok(same.map(|(id, ..)| id))
}

/// The journal's ask about a payment, if it has one (see [`super::Withdrawals::add`]).
fn ask_about(
    db: &rusqlite::Connection,
    w: &PaymentLikeness<'_>,
    despite_unresolved: bool,
    ask_if_recent: bool,
) -> Result<Option<PaymentClaim>, StoreError> {
    if ask_if_recent && let Some((id, at)) = sent_in_the_last_day(db, w)? {
        return Ok(Some(PaymentClaim::SameAsRecent(id, at)));
    }
    if !despite_unresolved && let Some(id) = unresolved_alike(db, w)? {
        return Ok(Some(PaymentClaim::SameAsUnresolved(id)));
    }
    Ok(None)
}

impl super::Withdrawals<'_> {
    /// What [`Self::add`] would answer instead of journaling, asked before the user is: the
    /// payment's confirmation then comes after the journal's own questions, not before them.
    /// Never [`PaymentClaim::Journaled`]; `add` still asks again in its own transaction.
    pub fn would_ask(
        &self,
        w: &PaymentLikeness<'_>,
        despite_unresolved: bool,
        ask_if_recent: bool,
    ) -> Result<Option<PaymentClaim>, StoreError> {
        ask_about(&self.db(), w, despite_unresolved, ask_if_recent)
    }

    /// Writes the journal entry of a withdrawal about to be sent, unless the same payment (same
    /// exchange, destination in any case, and amount) is still unresolved and
    /// `despite_unresolved` is false, or (`ask_if_recent`) the same payment as typed (destination,
    /// amount in its unit, account) was sent in the last day. The look and the write are one
    /// transaction.
    pub fn add(
        &self,
        w: &NewWithdrawalEntry<'_>,
        despite_unresolved: bool,
        ask_if_recent: bool,
    ) -> Result<PaymentClaim, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if let Some(ask) = ask_about(&tx, &w.likeness(), despite_unresolved, ask_if_recent)? {
            return Ok(ask);
        }
        let id = next_id(&tx, JournalKind::Withdrawal)?;
        tx.execute(
            "INSERT INTO withdrawal_journal (id, sent_at_ms, destination, identity, amount_btc, account_id, reference, state,
             updated_at_ms, base_url, key_fingerprint, request, before, typed_nok, identity_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'sending', ?2, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                id,
                w.sent_at.timestamp_millis(),
                w.destination,
                w.identity,
                w.amount_btc.to_string(),
                w.account_id,
                w.reference,
                w.origin.base_url,
                w.origin.key_fingerprint,
                w.request,
                w.before.map(Balances::to_json),
                w.typed_nok.map(|n| n.decimal().to_string()),
                w.origin.identity.map(|i| i.0),
            ],
        )?;
        tx.commit()?;
        Ok(PaymentClaim::Journaled(id))
    }

    /// Records the exchange's own answer (or its absence); the sender's answer wins.
    pub fn answered(
        &self,
        id: i64,
        state: WithdrawalState,
        withdrawal_id: Option<&str>,
        status: Option<&WithdrawalStatus>,
        note: &str,
    ) -> Result<(), StoreError> {
        let now = Utc::now().timestamp_millis();
        let gave_up = (state == WithdrawalState::Unknown).then_some(now);
        self.db().execute(
            "UPDATE withdrawal_journal SET state = ?2, withdrawal_id = COALESCE(?3, withdrawal_id),
             status = COALESCE(?4, status), note = ?5, updated_at_ms = ?6, gave_up_at_ms = COALESCE(?7, gave_up_at_ms),
             decided_by = ?8 WHERE id = ?1",
            params![
                id,
                state.text(),
                withdrawal_id,
                status.map(WithdrawalStatus::as_str),
                note,
                now,
                gave_up,
                Decision::Answer.text()
            ],
        )?;
        Ok(())
    }

    /// Settles an entry that is still `unknown` or `sending`; false when something else settled
    /// it first.
    pub fn decide(
        &self,
        id: i64,
        state: WithdrawalState,
        claimed: &[String],
        status: Option<&WithdrawalStatus>,
        note: &str,
        by: Decision,
    ) -> Result<bool, StoreError> {
        let n = self.db().execute(
            "UPDATE withdrawal_journal SET state = ?2, claimed = ?3, status = COALESCE(?4, status), note = ?5,
             updated_at_ms = ?6, decided_by = ?7 WHERE id = ?1 AND state IN ('unknown', 'sending')",
            params![
                id,
                state.text(),
                claimed.join(" "),
                status.map(WithdrawalStatus::as_str),
                note,
                Utc::now().timestamp_millis(),
                by.text()
            ],
        )?;
        Ok(n == 1)
    }

    pub fn stir(&self, id: i64) -> Result<(), StoreError> {
        self.stir_row::<WithdrawalEntry>(id)
    }

    /// Tax-row ids that entries other than `except` hold as theirs.
    pub fn claimed_ids(
        &self,
        except: i64,
    ) -> Result<std::collections::HashSet<String>, StoreError> {
        let db = self.db();
        let mut q = db.prepare("SELECT claimed FROM withdrawal_journal WHERE id != ?1")?;
        let rows = q.query_map([except], |r| r.get::<_, String>(0))?;
        let mut ids = std::collections::HashSet::new();
        for r in rows {
            ids.extend(split_ids(&r?));
        }
        Ok(ids)
    }

    /// Records a network status; returns the one it replaces, so a change is announced once.
    pub fn set_status(
        &self,
        id: i64,
        status: &WithdrawalStatus,
    ) -> Result<Option<WithdrawalStatus>, StoreError> {
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
            params![id, status.as_str(), Utc::now().timestamp_millis()],
        )?;
        Ok(before.flatten().map(|s| WithdrawalStatus::from(s.as_str())))
    }

    pub fn entry(&self, id: i64) -> Result<Option<WithdrawalEntry>, StoreError> {
        self.row(id)
    }

    /// Entries whose outcome is not known: "unknown", and "sending" left by a crash.
    pub fn unresolved(&self) -> Result<Vec<WithdrawalEntry>, StoreError> {
        self.rows(Which::Unresolved)
    }

    /// Sent, and not yet completed or failed on the network.
    pub fn on_the_way(&self) -> Result<Vec<WithdrawalEntry>, StoreError> {
        let settled = |s: &WithdrawalStatus| {
            matches!(s, WithdrawalStatus::Completed | WithdrawalStatus::Failed)
        };
        Ok(self
            .rows_where::<WithdrawalEntry>(
                "state = 'sent' AND withdrawal_id IS NOT NULL ORDER BY id",
                None,
            )?
            .into_iter()
            .filter(|e| !e.status.as_ref().is_some_and(settled))
            .collect())
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

    /// Whether the invoice `invoice` (as sent: lower case) was paid from this profile.
    pub fn invoice_paid(&self, invoice: &str) -> Result<bool, StoreError> {
        let n: i64 = self.db().query_row(
            "SELECT COUNT(*) FROM withdrawal_journal WHERE destination = ?1 AND state = 'sent'",
            [invoice],
            |r| r.get(0),
        )?;
        Ok(n > 0)
    }

    pub fn recent(&self, limit: u32) -> Result<Vec<WithdrawalEntry>, StoreError> {
        self.rows(Which::Recent(limit))
    }

    /// Entries sent at or after `since`, oldest first.
    pub fn since(&self, since: DateTime<Utc>) -> Result<Vec<WithdrawalEntry>, StoreError> {
        self.rows(Which::Since(since))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn the_same_payment_as_typed_sent_within_a_day_is_asked_about_whoever_settled_it() {
        let s = Store::in_memory().unwrap();
        let origin = Origin::default();
        let now = Utc::now();
        let new =
            |reference: &'static str, btc: i64, nok: Option<i64>, account: Option<&'static str>| {
                NewWithdrawalEntry {
                    sent_at: now,
                    destination: "kari@example.com",
                    identity: "kari@example.com",
                    amount_btc: Btc::from_sats(btc),
                    account_id: account,
                    reference,
                    origin: &origin,
                    request: "{}",
                    before: None,
                    typed_nok: nok.map(|n| Nok::computed(rust_decimal::Decimal::from(n))),
                }
            };
        let PaymentClaim::Journaled(id) = s
            .withdrawals()
            .add(&new("r1", 20_000, Some(150), None), false, true)
            .unwrap()
        else {
            panic!("refused")
        };
        s.withdrawals()
            .answered(id, WithdrawalState::Unknown, None, None, "lost")
            .unwrap();
        // Found sent by evidence after its answer was lost.
        assert!(
            s.withdrawals()
                .decide(id, WithdrawalState::Sent, &[], None, "", Decision::Evidence)
                .unwrap()
        );
        // 150 NOK again makes other bitcoin at today's price: still the same payment.
        assert_eq!(
            s.withdrawals()
                .add(&new("r2", 19_000, Some(150), None), false, true)
                .unwrap(),
            PaymentClaim::SameAsRecent(id, time(now.timestamp_millis()))
        );
        // Other NOK, another account, or the script's own send: not asked.
        for (other, ask) in [
            (new("r3", 20_000, Some(151), None), true),
            (new("r4", 20_000, Some(150), Some("acc_2")), true),
            (new("r5", 20_000, None, None), true),
            (new("r6", 20_000, Some(150), None), false),
        ] {
            assert!(
                matches!(
                    s.withdrawals().add(&other, true, ask).unwrap(),
                    PaymentClaim::Journaled(_)
                ),
                "{}",
                other.reference
            );
        }
        // A day later it is a new payment.
        let tomorrow = NewWithdrawalEntry {
            sent_at: now + chrono::Duration::hours(25),
            ..new("r7", 20_000, Some(150), None)
        };
        s.withdrawals()
            .answered(id, WithdrawalState::Sent, None, None, "")
            .unwrap();
        assert!(matches!(
            s.withdrawals().add(&tomorrow, true, true).unwrap(),
            PaymentClaim::Journaled(_)
        ));
    }

    /// The question asked before the native dialog is the one `add` would ask, and asking it
    /// writes nothing.
    #[test]
    fn would_ask_answers_as_add_would_and_writes_nothing() {
        let s = Store::in_memory().unwrap();
        let origin = Origin::default();
        let now = Utc::now();
        let entry = |reference| NewWithdrawalEntry {
            sent_at: now,
            destination: "kari@example.com",
            identity: "kari@example.com",
            amount_btc: Btc::from_sats(20_000),
            account_id: None,
            reference,
            origin: &origin,
            request: "{}",
            before: None,
            typed_nok: None,
        };
        let first = entry("r1");
        let w = s.withdrawals();
        assert_eq!(w.would_ask(&first.likeness(), false, true).unwrap(), None);
        assert!(w.recent(10).unwrap().is_empty(), "asking wrote nothing");
        let PaymentClaim::Journaled(id) = w.add(&first, false, true).unwrap() else {
            panic!("refused")
        };
        // Still sending, so unresolved: asked unless the user said go ahead anyway.
        let again = entry("r2");
        assert_eq!(
            w.would_ask(&again.likeness(), false, true).unwrap(),
            Some(PaymentClaim::SameAsUnresolved(id))
        );
        assert_eq!(
            w.add(&again, false, true).unwrap(),
            PaymentClaim::SameAsUnresolved(id)
        );
        assert_eq!(w.would_ask(&again.likeness(), true, true).unwrap(), None);
        // Sent: asked as a repeat within the day, unless the caller does not ask.
        w.answered(id, WithdrawalState::Sent, None, None, "")
            .unwrap();
        assert_eq!(
            w.would_ask(&again.likeness(), false, true).unwrap(),
            Some(PaymentClaim::SameAsRecent(id, time(now.timestamp_millis())))
        );
        assert_eq!(w.would_ask(&again.likeness(), false, false).unwrap(), None);
        assert_eq!(w.recent(10).unwrap().len(), 1);
    }

    #[test]
    fn a_withdrawal_lives_through_its_states_and_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db");
        let s = Store::open(&path).unwrap();
        let origin = Origin::default();
        let new = NewWithdrawalEntry {
            sent_at: Utc::now(),
            destination: "kari@example.com",
            identity: "kari@example.com",
            amount_btc: Btc::from_sats(12_500),
            account_id: None,
            reference: "nordlys:ab12",
            origin: &origin,
            request: "{}",
            before: None,
            typed_nok: None,
        };
        let PaymentClaim::Journaled(id) = s.withdrawals().add(&new, false, false).unwrap() else {
            panic!("refused")
        };
        let upper = NewWithdrawalEntry {
            destination: "KARI@EXAMPLE.COM",
            reference: "nordlys:cd34",
            ..new.clone()
        };
        assert_eq!(
            s.withdrawals().add(&upper, false, false).unwrap(),
            PaymentClaim::SameAsUnresolved(id),
            "the same payment in other letters is the same payment"
        );
        drop(s);
        let s = Store::open(&path).unwrap();
        assert_eq!(
            s.withdrawals().unresolved().unwrap().len(),
            1,
            "a crash while sending is unresolved"
        );
        assert!(
            !s.withdrawals()
                .destination_used("kari@example.com")
                .unwrap()
        );
        s.withdrawals()
            .answered(
                id,
                WithdrawalState::Sent,
                Some("wi_1"),
                Some(&WithdrawalStatus::Pending),
                "",
            )
            .unwrap();
        assert!(s.withdrawals().unresolved().unwrap().is_empty());
        assert!(
            s.withdrawals()
                .destination_used("kari@example.com")
                .unwrap()
        );
        assert_eq!(s.withdrawals().on_the_way().unwrap().len(), 1);
        assert_eq!(
            s.withdrawals()
                .set_status(id, &WithdrawalStatus::Completed)
                .unwrap(),
            Some(WithdrawalStatus::Pending)
        );
        assert!(s.withdrawals().on_the_way().unwrap().is_empty());
        let e = s.withdrawals().entry(id).unwrap().unwrap();
        assert_eq!(
            (e.state, e.amount_btc.to_string().as_str()),
            (WithdrawalState::Sent, "0.00012500")
        );
        assert_eq!(s.withdrawals().recent(5).unwrap().len(), 1);
    }
}
