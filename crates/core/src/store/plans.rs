//! Recurring buys and their runs. A slot is recorded once (its key is the plan and the slot);
//! [`Store::plan_claim`] decides what is due and journals the order in one transaction, so of two
//! processes sharing the store only one ever sends a slot's order.

use chrono::{DateTime, NaiveTime, Timelike, Utc};
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use crate::plan_schedule::{Every, Schedule};
use crate::plans::{Missed, NewPlan, Plan, Recorded, Run, RunState, decide};

use super::orders::{JournalState, NewOrderEntry, insert_order_entry};
use super::{Store, StoreError, dec, dec_opt, time};

/// What one claim recorded, and the order it journaled for sending, if any.
#[derive(Debug, Default)]
pub struct PlanClaim {
    pub recorded: Vec<Recorded>,
    /// The slot to send and its journal entry ("sending").
    pub send: Option<(DateTime<Utc>, i64)>,
}

/// A run's state from its order's journal state.
pub fn run_state_of(state: JournalState) -> RunState {
    match state {
        JournalState::Sending => RunState::Sending,
        JournalState::Unknown => RunState::Unknown,
        JournalState::Placed => RunState::Placed,
        JournalState::NotPlaced => RunState::NotPlaced,
        JournalState::Rejected => RunState::Rejected,
    }
}

const SELECT: &str =
    "SELECT id, buy_nok, period, on_day, at_minute, account_id, max_price, missed, paused,
    created_at_ms, active_from_ms FROM plans";

fn damaged(id: i64, detail: String) -> StoreError {
    StoreError::DamagedEntry { id, detail }
}

fn plan_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<Plan, StoreError>> {
    let id: i64 = r.get(0)?;
    let period: String = r.get(2)?;
    let on: Option<String> = r.get(3)?;
    let every = match Every::parse(&period, on.as_deref()) {
        Ok(e) => e,
        Err(e) => return Ok(Err(damaged(id, format!("plan schedule: {e}")))),
    };
    let minute: i64 = r.get(4)?;
    let Some(at) = u32::try_from(minute)
        .ok()
        .and_then(|m| NaiveTime::from_hms_opt(m / 60, m % 60, 0))
    else {
        return Ok(Err(damaged(id, format!("plan time {minute}"))));
    };
    let missed: String = r.get(7)?;
    let Some(missed) = Missed::parse(&missed) else {
        return Ok(Err(damaged(id, format!("plan policy `{missed}`"))));
    };
    Ok(Ok(Plan {
        id,
        buy_nok: dec(r, 1)?,
        schedule: Schedule { every, at },
        account_id: r.get(5)?,
        max_price: dec_opt(r, 6)?,
        missed,
        paused: r.get::<_, i64>(8)? != 0,
        created_at: time(r.get(9)?),
        active_from: time(r.get(10)?),
    }))
}

fn plan_in(db: &rusqlite::Connection, id: i64) -> Result<Option<Plan>, StoreError> {
    db.query_row(&format!("{SELECT} WHERE id = ?1"), [id], plan_row)
        .optional()?
        .transpose()
}

fn runs_in(db: &rusqlite::Connection, plan_id: i64) -> Result<Vec<Run>, StoreError> {
    let mut q = db.prepare(
        "SELECT r.slot_ms, r.mark, r.journal_id, r.note, j.state FROM plan_runs r
         LEFT JOIN order_journal j ON j.id = r.journal_id WHERE r.plan_id = ?1 ORDER BY r.slot_ms",
    )?;
    let rows = q.query_map([plan_id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Option<i64>>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, Option<String>>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (slot, mark, journal_id, note, journal_state) = row?;
        let state = match (mark.as_str(), journal_state) {
            ("skipped", _) => RunState::Skipped,
            ("held", _) => RunState::Held,
            ("sent", Some(s)) => JournalState::parse(&s)
                .map(run_state_of)
                .ok_or_else(|| damaged(journal_id.unwrap_or(plan_id), format!("state `{s}`")))?,
            // The journal entry is gone (it never is, but a damaged file could): the order may
            // have been sent, so the run is unknown.
            ("sent", None) => RunState::Unknown,
            (other, _) => return Err(damaged(plan_id, format!("plan run mark `{other}`"))),
        };
        out.push(Run {
            plan_id,
            slot: time(slot),
            state,
            journal_id,
            note,
        });
    }
    Ok(out)
}

fn record(
    tx: &rusqlite::Transaction<'_>,
    plan_id: i64,
    slot: DateTime<Utc>,
    mark: &str,
    journal_id: Option<i64>,
    note: &str,
) -> Result<(), StoreError> {
    // A held slot becomes skipped or sent; nothing else is ever recorded twice.
    tx.execute(
        "INSERT INTO plan_runs (plan_id, slot_ms, mark, journal_id, note, recorded_at_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (plan_id, slot_ms) DO UPDATE SET mark = excluded.mark,
           journal_id = excluded.journal_id, note = excluded.note, recorded_at_ms = excluded.recorded_at_ms
         WHERE plan_runs.mark = 'held'",
        params![
            plan_id,
            slot.timestamp_millis(),
            mark,
            journal_id,
            note,
            Utc::now().timestamp_millis()
        ],
    )?;
    Ok(())
}

/// A plan's terms as its columns store them: amount, period, weekday or day, minute of the day,
/// account, cap, missed-run policy.
struct Terms(
    String,
    &'static str,
    Option<String>,
    i64,
    Option<String>,
    Option<String>,
    &'static str,
);

impl Terms {
    fn of(plan: &NewPlan) -> Self {
        let at = plan.schedule.at;
        Self(
            plan.buy_nok.to_string(),
            plan.schedule.every.period_text(),
            plan.schedule.every.on_text(),
            i64::from(at.hour() * 60 + at.minute()),
            plan.account_id.clone(),
            plan.max_price.map(|p| p.to_string()),
            plan.missed.text(),
        )
    }
}

impl Store {
    /// Stores a new plan, active from `now`; returns its id.
    pub fn add_plan(&self, plan: &NewPlan, now: DateTime<Utc>) -> Result<i64, StoreError> {
        let db = self.db();
        let t = Terms::of(plan);
        db.execute(
            "INSERT INTO plans (buy_nok, period, on_day, at_minute, account_id, max_price, missed,
             paused, created_at_ms, active_from_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?8)",
            params![t.0, t.1, t.2, t.3, t.4, t.5, t.6, now.timestamp_millis()],
        )?;
        Ok(db.last_insert_rowid())
    }

    /// Replaces plan `id`'s terms; its runs and the slots it has passed stay. False when there
    /// is no such plan.
    pub fn edit_plan(&self, id: i64, plan: &NewPlan) -> Result<bool, StoreError> {
        let t = Terms::of(plan);
        let n = self.db().execute(
            "UPDATE plans SET buy_nok = ?2, period = ?3, on_day = ?4, at_minute = ?5, account_id = ?6,
             max_price = ?7, missed = ?8 WHERE id = ?1",
            params![id, t.0, t.1, t.2, t.3, t.4, t.5, t.6],
        )?;
        Ok(n > 0)
    }

    pub fn plans(&self) -> Result<Vec<Plan>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!("{SELECT} ORDER BY id"))?;
        let rows = q.query_map([], plan_row)?;
        let mut out = Vec::new();
        for r in rows {
            out.push(r??);
        }
        Ok(out)
    }

    pub fn plan(&self, id: i64) -> Result<Option<Plan>, StoreError> {
        plan_in(&self.db(), id)
    }

    /// Pauses or resumes plan `id`; false when there is none. A resumed plan starts afresh at
    /// `now`: slots missed while it was paused do not exist.
    pub fn set_plan_paused(
        &self,
        id: i64,
        paused: bool,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let db = self.db();
        if paused {
            db.execute("UPDATE plans SET paused = 1 WHERE id = ?1", [id])?;
        } else {
            db.execute(
                "UPDATE plans SET paused = 0, active_from_ms = ?2 WHERE id = ?1 AND paused = 1",
                params![id, now.timestamp_millis()],
            )?;
        }
        let n: i64 = db.query_row("SELECT COUNT(*) FROM plans WHERE id = ?1", [id], |r| {
            r.get(0)
        })?;
        Ok(n > 0)
    }

    /// Removes plan `id` and the record of its runs (their orders stay in the journal).
    pub fn remove_plan(&self, id: i64) -> Result<bool, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute("DELETE FROM plan_runs WHERE plan_id = ?1", [id])?;
        let n = tx.execute("DELETE FROM plans WHERE id = ?1", [id])?;
        tx.commit()?;
        Ok(n > 0)
    }

    /// Plan `plan_id`'s recorded runs, oldest slot first.
    pub fn plan_runs(&self, plan_id: i64) -> Result<Vec<Run>, StoreError> {
        runs_in(&self.db(), plan_id)
    }

    /// Decides what of plan `plan_id` is due at `now` and records it, in one transaction: missed
    /// slots skipped, slots held while a run is unknown, and the slot to run with its order
    /// journaled from `order` (when the caller has one ready) or skipped with `above_cap` (the
    /// ask was above the plan's cap). A slot another process recorded first is not recorded
    /// again; a due slot with no order ready is left for the next look.
    pub fn plan_claim(
        &self,
        plan_id: i64,
        now: DateTime<Utc>,
        order: Option<&NewOrderEntry<'_>>,
        above_cap: Option<&str>,
    ) -> Result<PlanClaim, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let Some(plan) = plan_in(&tx, plan_id)? else {
            return Ok(PlanClaim::default());
        };
        let runs = runs_in(&tx, plan_id)?;
        let due = decide(&plan, &runs, now);
        let mut claim = PlanClaim::default();
        let mut recorded = |slot, state, journal_id, note: &str| {
            claim.recorded.push(Recorded {
                plan_id,
                slot,
                state,
                journal_id,
                note: note.to_owned(),
            });
        };
        for &slot in &due.skip {
            record(&tx, plan_id, slot, "skipped", None, "")?;
            recorded(slot, RunState::Skipped, None, "");
        }
        for &slot in &due.hold {
            record(&tx, plan_id, slot, "held", None, "")?;
            recorded(slot, RunState::Held, None, "");
        }
        let mut send = None;
        if let Some(slot) = due.run {
            if let Some(why) = above_cap {
                record(&tx, plan_id, slot, "skipped", None, why)?;
                recorded(slot, RunState::Skipped, None, why);
            } else if let Some(order) = order {
                let id = insert_order_entry(&tx, order)?;
                record(&tx, plan_id, slot, "sent", Some(id), "")?;
                send = Some((slot, id));
            }
        }
        tx.commit()?;
        claim.send = send;
        Ok(claim)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use crate::order_terms::{Direction, OrderType};
    use crate::plans::PlanForm;
    use crate::store::Origin;
    use rust_decimal::Decimal;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn weekly() -> NewPlan {
        PlanForm {
            buy_nok: "500".into(),
            every: "week".into(),
            on: Some("mon".into()),
            at: "07:00".into(),
            ..PlanForm::default()
        }
        .parse()
        .unwrap()
    }

    fn order<'a>(origin: &'a Origin) -> NewOrderEntry<'a> {
        NewOrderEntry {
            sent_at: Utc::now(),
            order_type: OrderType::Market,
            direction: Direction::Buy,
            amount: Decimal::from(500),
            price: None,
            account_id: None,
            origin,
            request: "{}",
            reference: "ref",
            before: None,
        }
    }

    #[test]
    fn a_slot_is_claimed_once_across_two_stores_on_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        let a = Store::open(&path).unwrap();
        let b = Store::open(&path).unwrap();
        let id = a.add_plan(&weekly(), utc("2026-11-22T12:00:00Z")).unwrap();
        let origin = Origin::default();
        let now = utc("2026-11-23T06:30:00Z");
        let first = a.plan_claim(id, now, Some(&order(&origin)), None).unwrap();
        let second = b.plan_claim(id, now, Some(&order(&origin)), None).unwrap();
        assert!(first.send.is_some());
        assert!(second.send.is_none() && second.recorded.is_empty());
        assert_eq!(
            a.journal_unresolved().unwrap().len(),
            1,
            "one order journaled"
        );
        let runs = b.plan_runs(id).unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].state, RunState::Sending);
        // The next Monday is held while that one is still sending.
        let next = b
            .plan_claim(id, utc("2026-11-30T06:30:00Z"), Some(&order(&origin)), None)
            .unwrap();
        assert!(next.send.is_none());
        assert_eq!(next.recorded[0].state, RunState::Held);
    }

    #[test]
    fn an_ask_above_the_cap_skips_the_slot_with_the_reason() {
        let s = Store::in_memory().unwrap();
        let id = s.add_plan(&weekly(), utc("2026-11-22T12:00:00Z")).unwrap();
        let c = s
            .plan_claim(id, utc("2026-11-23T06:30:00Z"), None, Some("above"))
            .unwrap();
        assert!(c.send.is_none());
        let runs = s.plan_runs(id).unwrap();
        assert_eq!(runs[0].state, RunState::Skipped);
        assert_eq!(runs[0].note, "above");
    }

    #[test]
    fn a_resumed_plan_does_not_run_what_it_missed_while_paused() {
        let s = Store::in_memory().unwrap();
        let mut new = weekly();
        new.missed = Missed::Once;
        let id = s.add_plan(&new, utc("2026-11-22T12:00:00Z")).unwrap();
        assert!(
            s.set_plan_paused(id, true, utc("2026-11-22T13:00:00Z"))
                .unwrap()
        );
        assert!(
            s.plan_claim(id, utc("2026-11-23T06:30:00Z"), None, None)
                .unwrap()
                .recorded
                .is_empty()
        );
        assert!(
            s.set_plan_paused(id, false, utc("2026-12-01T09:00:00Z"))
                .unwrap()
        );
        let p = s.plan(id).unwrap().unwrap();
        assert!(!p.paused);
        let due = decide(&p, &[], utc("2026-12-01T10:00:00Z"));
        assert!(due.is_empty(), "{due:?}");
        assert!(!s.set_plan_paused(99, false, Utc::now()).unwrap());
        assert!(s.remove_plan(id).unwrap());
        assert!(s.plans().unwrap().is_empty());
    }

    #[test]
    fn a_damaged_plan_is_an_error_not_a_panic() {
        let s = Store::in_memory().unwrap();
        let id = s.add_plan(&weekly(), Utc::now()).unwrap();
        s.db()
            .execute("UPDATE plans SET period = 'fortnight' WHERE id = ?1", [id])
            .unwrap();
        assert!(matches!(s.plans(), Err(StoreError::DamagedEntry { .. })));
        s.db()
            .execute(
                "UPDATE plans SET period = 'week', at_minute = 5000 WHERE id = ?1",
                [id],
            )
            .unwrap();
        assert!(matches!(s.plan(id), Err(StoreError::DamagedEntry { .. })));
    }
}
