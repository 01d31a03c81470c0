//! The order journal: every order is written here before it is sent, so one in flight or with an
//! unknown outcome survives a restart and is settled by evidence, never by sending it again.

use chrono::{DateTime, Utc};
use nordlys_money::{Amount, NokPerBtc};
use rusqlite::{OptionalExtension, TransactionBehavior, params};
use rust_decimal::Decimal;

use crate::evidence::Balances;
use crate::order_terms::{Direction, OrderType};
use crate::seen::{Read, Seen};

use super::journal::{Claim, Decision, JournalKind, Origin, Table, Which, next_id, split_ids};
use super::{StoreError, dec, dec_opt, time};

/// Where a submitted order stands, as far as the app knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum JournalState {
    /// Written before the request left; seen after a crash it means "unknown".
    Sending,
    /// The exchange made it (it may since have filled, partly filled or been cancelled).
    Placed,
    /// The exchange refused it, or it was refused before it was sent.
    Rejected,
    /// The request may have reached the exchange; not yet settled.
    Unknown,
    /// Settled without the exchange's answer: it never reached the exchange, a long quiet check
    /// found no trace, or the user checked.
    NotPlaced,
}

impl JournalState {
    pub fn text(self) -> &'static str {
        match self {
            Self::Sending => "sending",
            Self::Placed => "placed",
            Self::Rejected => "rejected",
            Self::Unknown => "unknown",
            Self::NotPlaced => "not-placed",
        }
    }

    pub(super) fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "placed" => Self::Placed,
            "rejected" => Self::Rejected,
            "not-placed" => Self::NotPlaced,
            "sending" => Self::Sending,
            "unknown" => Self::Unknown,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalEntry {
    pub id: i64,
    pub sent_at: DateTime<Utc>,
    pub order_type: OrderType,
    pub direction: Direction,
    /// NOK to spend for a buy, bitcoin to sell for a sell: the unit follows the direction.
    pub amount: Amount,
    pub price: Option<NokPerBtc>,
    pub account_id: Option<String>,
    pub state: JournalState,
    pub order_id: Option<String>,
    pub trade_id: Option<String>,
    pub note: String,
    pub origin: Origin,
    /// The JSON body sent.
    pub request: String,
    /// Put in the description, so the order can be recognised if the exchange echoes it.
    pub reference: String,
    /// When the answer was given up on.
    pub gave_up_at: Option<DateTime<Utc>>,
    /// Balances just before sending; `None` when they could not be read (or their stored
    /// text cannot).
    pub before: Option<Balances>,
    /// Ids of open orders and trades that are this entry's evidence.
    pub claimed: Vec<String>,
    /// A check saw the balance move by an amount this entry could explain: silence can then no
    /// longer settle it as not placed.
    pub stirred: bool,
    /// A ladder's rung journaled with its run and not yet taken by the sender: it has not left.
    pub queued: bool,
}

/// What is known of an order before it is sent.
#[derive(Debug, Clone)]
pub struct NewOrderEntry<'a> {
    pub sent_at: DateTime<Utc>,
    pub order_type: OrderType,
    pub direction: Direction,
    pub amount: Amount,
    pub price: Option<NokPerBtc>,
    pub account_id: Option<&'a str>,
    pub origin: &'a Origin,
    pub request: &'a str,
    pub reference: &'a str,
    pub before: Option<&'a Balances>,
}

impl Table for JournalEntry {
    const TABLE: &'static str = "order_journal";
    const COLUMNS: &'static str = "id, sent_at_ms, order_type, direction, amount, price, account_id, state, order_id, trade_id, note,
    base_url, key_fingerprint, request, reference, gave_up_at_ms, before, claimed, stirred, identity_id, queued";

    fn read(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<JournalEntry, StoreError>> {
        let id: i64 = r.get(0)?;
        let state: String = r.get(7)?;
        let Some(state) = JournalState::parse(&state) else {
            return Ok(Err(StoreError::DamagedEntry {
                id,
                detail: format!("unknown state `{state}`"),
            }));
        };
        let order_type: String = r.get(2)?;
        let Some(order_type) = OrderType::parse(&order_type) else {
            return Ok(Err(StoreError::DamagedEntry {
                id,
                detail: format!("unknown order type `{order_type}`"),
            }));
        };
        let direction: String = r.get(3)?;
        let Some(direction) = Direction::parse(&direction) else {
            return Ok(Err(StoreError::DamagedEntry {
                id,
                detail: format!("unknown direction `{direction}`"),
            }));
        };
        Ok(Ok(JournalEntry {
            id,
            sent_at: time(r.get(1)?),
            order_type,
            direction,
            amount: direction.amount(dec(r, 4)?),
            price: dec_opt(r, 5)?,
            account_id: r.get(6)?,
            state,
            order_id: r.get(8)?,
            trade_id: r.get(9)?,
            note: r.get(10)?,
            origin: Origin {
                base_url: r.get(11)?,
                key_fingerprint: r.get(12)?,
                identity: r.get::<_, Option<i64>>(19)?.map(super::IdentityId),
            },
            request: r.get(13)?,
            reference: r.get(14)?,
            gave_up_at: r.get::<_, Option<i64>>(15)?.map(time),
            before: Balances::from_json(r.get::<_, Option<String>>(16)?.as_deref()),
            claimed: split_ids(&r.get::<_, String>(17)?),
            stirred: r.get::<_, i64>(18)? != 0,
            queued: r.get::<_, i64>(20)? != 0,
        }))
    }
}

/// Writes `new` as a "sending" entry inside the caller's transaction.
pub(super) fn insert_order_entry(
    tx: &rusqlite::Transaction<'_>,
    new: &NewOrderEntry<'_>,
) -> Result<i64, StoreError> {
    let id = next_id(tx, JournalKind::Order)?;
    tx.execute(
        "INSERT INTO order_journal (id, sent_at_ms, order_type, direction, amount, price, account_id, state,
         updated_at_ms, base_url, key_fingerprint, request, reference, before, identity_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'sending', ?2, ?8, ?9, ?10, ?11, ?12, ?13)",
        params![
            id,
            new.sent_at.timestamp_millis(),
            new.order_type.text(),
            new.direction.text(),
            new.amount.decimal().to_string(),
            new.price.map(|p| p.to_string()),
            new.account_id,
            new.origin.base_url,
            new.origin.key_fingerprint,
            new.request,
            new.reference,
            new.before.map(Balances::to_json),
            new.origin.identity.map(|i| i.0),
        ],
    )?;
    Ok(id)
}

/// The same order still unresolved: same exchange, direction and amount.
fn unresolved_alike(
    db: &rusqlite::Connection,
    base_url: &str,
    direction: Direction,
    amount: Amount,
) -> Result<Option<i64>, StoreError> {
    let mut q = db.prepare(
        "SELECT id, amount FROM order_journal WHERE state IN ('sending', 'unknown')
         AND base_url = ?1 AND direction = ?2 ORDER BY id",
    )?;
    let same = q
        .query_map(params![base_url, direction.text()], |r| {
            Ok((r.get::<_, i64>(0)?, dec::<Decimal>(r, 1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .find(|(_, a)| *a == amount.decimal());
    Ok(same.map(|(id, _)| id))
}

impl super::Orders<'_> {
    /// The unresolved entry [`Self::add`] would refuse `new` for, asked before the user
    /// confirms the order; `add` asks again in its own transaction.
    pub fn unresolved_like(
        &self,
        base_url: &str,
        direction: Direction,
        amount: Amount,
    ) -> Result<Option<i64>, StoreError> {
        unresolved_alike(&self.db(), base_url, direction, amount)
    }

    /// Writes the journal entry of an order about to be sent, unless the same order (same
    /// exchange, direction and amount) is still unresolved and `despite_unresolved` is false.
    /// The look and the write are one transaction, so two processes cannot both pass.
    pub fn add(
        &self,
        new: &NewOrderEntry<'_>,
        despite_unresolved: bool,
    ) -> Result<Claim, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        if !despite_unresolved
            && let Some(id) =
                unresolved_alike(&tx, &new.origin.base_url, new.direction, new.amount)?
        {
            return Ok(Claim::SameAsUnresolved(id));
        }
        let id = insert_order_entry(&tx, new)?;
        tx.commit()?;
        Ok(Claim::Journaled(id))
    }

    /// Records the exchange's own answer to the request (or its absence). The sender's answer
    /// wins over whatever a check wrote meanwhile.
    pub fn answered(
        &self,
        id: i64,
        state: JournalState,
        order_id: Option<&str>,
        trade_id: Option<&str>,
        note: &str,
    ) -> Result<(), StoreError> {
        let now = Utc::now().timestamp_millis();
        let gave_up = (state == JournalState::Unknown).then_some(now);
        self.db().execute(
            "UPDATE order_journal SET state = ?2, order_id = COALESCE(?3, order_id), trade_id = COALESCE(?4, trade_id),
             note = ?5, updated_at_ms = ?6, gave_up_at_ms = COALESCE(?7, gave_up_at_ms), decided_by = ?8 WHERE id = ?1",
            params![id, state.text(), order_id, trade_id, note, now, gave_up, Decision::Answer.text()],
        )?;
        Ok(())
    }

    /// Settles an entry that is still `unknown` or `sending`; returns false (and writes
    /// nothing) when something else settled it first. The first `or_` id among `claimed` becomes
    /// its order id, the first other its trade id.
    pub fn decide(
        &self,
        id: i64,
        state: JournalState,
        claimed: &[String],
        note: &str,
        by: Decision,
    ) -> Result<bool, StoreError> {
        let order_id = claimed.iter().find(|i| i.starts_with("or_"));
        let trade_id = claimed.iter().find(|i| !i.starts_with("or_"));
        let n = self.db().execute(
            "UPDATE order_journal SET state = ?2, claimed = ?3, note = ?4, updated_at_ms = ?5, decided_by = ?6,
             order_id = COALESCE(?7, order_id), trade_id = COALESCE(?8, trade_id)
             WHERE id = ?1 AND state IN ('unknown', 'sending')",
            params![
                id,
                state.text(),
                claimed.join(" "),
                note,
                Utc::now().timestamp_millis(),
                by.text(),
                order_id,
                trade_id
            ],
        )?;
        Ok(n == 1)
    }

    /// The sender takes entry `id` to send it now: false when it was queued and settled "not
    /// placed" meanwhile (it must then not be sent). An entry never queued is taken as it is.
    /// Taking it dates it: a rung leaves when it is taken, not when its run was journaled.
    pub fn take(&self, id: i64, now: DateTime<Utc>) -> Result<bool, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let taken = tx.execute(
            "UPDATE order_journal SET queued = 0, sent_at_ms = ?2, updated_at_ms = ?2
             WHERE id = ?1 AND queued = 1 AND state = 'sending'",
            params![id, now.timestamp_millis()],
        )? == 1;
        let never_queued = taken
            || tx
                .query_row(
                    "SELECT queued = 0 AND state = 'sending' FROM order_journal WHERE id = ?1",
                    [id],
                    |r| r.get::<_, bool>(0),
                )
                .optional()?
                .unwrap_or(false);
        tx.commit()?;
        Ok(never_queued)
    }

    /// Settles queued entry `id` "not placed": it never left, and now never will (a sender
    /// that comes for it later finds it settled). False when the sender took it first.
    pub fn settle_queued(&self, id: i64, note: &Seen) -> Result<bool, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let now = Utc::now().timestamp_millis();
        let settled = tx.execute(
            "UPDATE order_journal SET state = 'not-placed', decided_by = 'evidence', note = ?2,
             updated_at_ms = ?3 WHERE id = ?1 AND queued = 1 AND state = 'sending'",
            params![id, note.to_string(), now],
        )? == 1;
        if settled {
            tx.execute(
                "INSERT INTO journal_evidence (journal_id, at_ms, read, saw, seen)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    id,
                    now,
                    Read::Queue.as_str(),
                    note.to_string(),
                    note.to_json()
                ],
            )?;
        }
        tx.commit()?;
        Ok(settled)
    }

    /// Marks that a check saw a move only this entry could explain.
    pub fn stir(&self, id: i64) -> Result<(), StoreError> {
        self.stir_row::<JournalEntry>(id)
    }

    pub fn entry(&self, id: i64) -> Result<Option<JournalEntry>, StoreError> {
        self.row(id)
    }

    /// The entry that placed the exchange's order `order_id`, if it was placed from here.
    pub fn by_order_id(&self, order_id: &str) -> Result<Option<JournalEntry>, StoreError> {
        let db = self.db();
        let columns = JournalEntry::COLUMNS;
        db.query_row(
            &format!("SELECT {columns} FROM order_journal WHERE order_id = ?1 ORDER BY id LIMIT 1"),
            [order_id],
            JournalEntry::read,
        )
        .optional()?
        .transpose()
    }

    /// Entries whose outcome is not known: "unknown", and "sending" left by a crash.
    pub fn unresolved(&self) -> Result<Vec<JournalEntry>, StoreError> {
        self.rows(Which::Unresolved)
    }

    /// Order and trade ids that entries other than `except` hold as theirs: an open order or a
    /// trade already explained by one entry is not evidence for another.
    pub fn claimed_ids(
        &self,
        except: i64,
    ) -> Result<std::collections::HashSet<String>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(
            "SELECT COALESCE(order_id, ''), COALESCE(trade_id, ''), claimed FROM order_journal WHERE id != ?1",
        )?;
        let rows = q.query_map([except], |r| {
            Ok([
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ])
        })?;
        let mut ids = std::collections::HashSet::new();
        for r in rows {
            for text in r? {
                ids.extend(split_ids(&text));
            }
        }
        Ok(ids)
    }

    pub fn recent(&self, limit: u32) -> Result<Vec<JournalEntry>, StoreError> {
        self.rows(Which::Recent(limit))
    }

    /// Entries sent at or after `since`, oldest first.
    pub fn since(&self, since: DateTime<Utc>) -> Result<Vec<JournalEntry>, StoreError> {
        self.rows(Which::Since(since))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn new<'a>(origin: &'a Origin, amount: i64) -> NewOrderEntry<'a> {
        NewOrderEntry {
            sent_at: Utc::now(),
            order_type: OrderType::Market,
            direction: Direction::Buy,
            amount: Direction::Buy.amount(Decimal::from(amount)),
            price: None,
            account_id: None,
            origin,
            request: "{}",
            reference: "[nordlys 1]",
            before: None,
        }
    }

    #[test]
    fn the_same_order_is_refused_while_one_is_unresolved_and_ids_are_shared_with_withdrawals() {
        let s = Store::in_memory().unwrap();
        let here = Origin {
            base_url: "https://x.example".into(),
            key_fingerprint: "ab".into(),
            identity: None,
        };
        let Claim::Journaled(first) = s.orders().add(&new(&here, 500), false).unwrap() else {
            panic!("first order refused")
        };
        assert_eq!(
            s.orders().add(&new(&here, 500), false).unwrap(),
            Claim::SameAsUnresolved(first)
        );
        let other = Origin {
            base_url: "https://y.example".into(),
            ..here.clone()
        };
        assert!(matches!(
            s.orders().add(&new(&other, 500), false).unwrap(),
            Claim::Journaled(_)
        ));
        assert!(matches!(
            s.orders().add(&new(&here, 500), true).unwrap(),
            Claim::Journaled(_)
        ));
        s.orders()
            .answered(first, JournalState::Placed, Some("or_1"), None, "")
            .unwrap();
        assert!(
            !s.orders()
                .decide(first, JournalState::NotPlaced, &[], "", Decision::Evidence)
                .unwrap(),
            "a check never overwrites the exchange's answer"
        );
        assert_eq!(
            s.orders().entry(first).unwrap().unwrap().state,
            JournalState::Placed
        );
        let ids: Vec<_> = s
            .journal()
            .ids()
            .unwrap()
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        assert_eq!(ids, vec![1, 2, 3]);
    }

    /// A snapshot written by 8982fdb7 (JSON text in `before`) reads as the same balances, and
    /// one that cannot be read reads as none: silence then never settles its entry.
    #[test]
    fn balances_written_before_they_were_typed_read_unchanged() {
        let s = Store::in_memory().unwrap();
        let here = Origin::default();
        let written = r#"{"accounts":[{"id":"acc_1","available":"0.10000000","total":"0.20000000"}],"fiat":"1500.00"}"#;
        for (text, expected) in [
            (
                written,
                Some(Balances {
                    accounts: vec![crate::evidence::Holding {
                        id: "acc_1".into(),
                        available: nordlys_money::Btc::computed(Decimal::new(1, 1)),
                        total: nordlys_money::Btc::computed(Decimal::new(2, 1)),
                    }],
                    fiat: Some(nordlys_money::Nok::computed(Decimal::new(1500, 0))),
                }),
            ),
            ("{not json", None),
        ] {
            let Claim::Journaled(id) = s.orders().add(&new(&here, 30), true).unwrap() else {
                panic!("refused")
            };
            s.db()
                .execute(
                    "UPDATE order_journal SET before = ?2 WHERE id = ?1",
                    params![id, text],
                )
                .unwrap();
            assert_eq!(
                s.orders().entry(id).unwrap().unwrap().before,
                expected,
                "{text}"
            );
        }
    }

    #[test]
    fn a_damaged_state_is_reported_not_read_as_settled() {
        let s = Store::in_memory().unwrap();
        let here = Origin::default();
        let Claim::Journaled(id) = s.orders().add(&new(&here, 7), false).unwrap() else {
            panic!("refused")
        };
        s.db()
            .execute(
                "UPDATE order_journal SET state = 'gone' WHERE id = ?1",
                [id],
            )
            .unwrap();
        assert!(matches!(
            s.orders().entry(id),
            Err(StoreError::DamagedEntry { .. })
        ));
        assert!(s.orders().unresolved().is_ok());
    }

    #[test]
    fn a_damaged_order_type_or_direction_is_reported_not_guessed() {
        let s = Store::in_memory().unwrap();
        let here = Origin::default();
        for (i, set) in ["order_type = 'stop'", "direction = 'Sell'"]
            .iter()
            .enumerate()
        {
            let Claim::Journaled(id) = s.orders().add(&new(&here, 10 + i as i64), false).unwrap()
            else {
                panic!("refused")
            };
            s.db()
                .execute(
                    &format!("UPDATE order_journal SET {set} WHERE id = ?1"),
                    [id],
                )
                .unwrap();
            assert!(
                matches!(s.orders().entry(id), Err(StoreError::DamagedEntry { .. })),
                "{set}"
            );
        }
        let Claim::Journaled(id) = s.orders().add(&new(&here, 20), false).unwrap() else {
            panic!("refused")
        };
        let e = s.orders().entry(id).unwrap().unwrap();
        assert_eq!(
            (e.order_type, e.direction),
            (OrderType::Market, Direction::Buy)
        );
    }
}
