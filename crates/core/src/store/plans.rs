//! Recurring buys, limit ladders and their runs. A slot is recorded once (its key is the plan and the slot);
//! [`Plans::claim`](super::Plans::claim) decides what is due and journals the order in one transaction, so of two
//! processes sharing the store only one ever sends a slot's order.

use chrono::{DateTime, NaiveTime, Timelike, Utc};
use rusqlite::{OptionalExtension, TransactionBehavior, params};
use rust_decimal::Decimal;

use crate::plan_schedule::{Every, Schedule};
use crate::plans::{
    Ladder, Missed, NewPlan, Plan, Recorded, Run, RunState, RungRun, SkipReason, decide,
};

use super::orders::{JournalState, NewOrderEntry, insert_order_entry};
use super::{StoreError, dec, dec_opt, time};

/// What one claim recorded, and the order it journaled for sending, if any.
#[derive(Debug, Default)]
pub struct PlanClaim {
    pub recorded: Vec<Recorded>,
    /// The slot to send and its orders' journal entries ("sending"), in the order given.
    pub send: Option<(DateTime<Utc>, Vec<i64>)>,
    /// The plan was edited, paused or removed after its orders were prepared: nothing was
    /// claimed, and its due slot waits for the next look, which prepares them afresh.
    pub changed: bool,
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
    created_at_ms, active_from_ms, rungs, step_percent, identity_id FROM plans";

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
    let rungs: Option<i64> = r.get(11)?;
    let step: Option<Decimal> = dec_opt(r, 12)?;
    let ladder = match (rungs, step) {
        (None, None) => None,
        (Some(n), Some(step_percent)) => match u8::try_from(n) {
            Ok(rungs) => Some(Ladder {
                rungs,
                step_percent: nordlys_money::Percent::new(step_percent),
            }),
            Err(_) => return Ok(Err(damaged(id, format!("plan rungs {n}")))),
        },
        _ => return Ok(Err(damaged(id, "a ladder's rungs without its step".into()))),
    };
    Ok(Ok(Plan {
        id,
        buy_nok: dec(r, 1)?,
        ladder,
        schedule: Schedule { every, at },
        account_id: r.get(5)?,
        max_price: dec_opt(r, 6)?,
        missed,
        paused: r.get::<_, i64>(8)? != 0,
        created_at: time(r.get(9)?),
        active_from: time(r.get(10)?),
        identity: r.get::<_, Option<i64>>(13)?.map(super::IdentityId),
    }))
}

fn plan_in(db: &rusqlite::Connection, id: i64) -> Result<Option<Plan>, StoreError> {
    db.query_row(&format!("{SELECT} WHERE id = ?1"), [id], plan_row)
        .optional()?
        .transpose()
}

fn journal_run_state(id: i64, state: Option<String>) -> Result<RunState, StoreError> {
    match state {
        Some(s) => JournalState::parse(&s)
            .map(run_state_of)
            .ok_or_else(|| damaged(id, format!("state `{s}`"))),
        // The journal entry is gone (it never is, but a damaged file could): the order may
        // have been sent, so the run is unknown.
        None => Ok(RunState::Unknown),
    }
}

/// A plan's ladder rungs by slot, each slot's in rung order.
fn rungs_in(
    db: &rusqlite::Connection,
    plan_id: i64,
) -> Result<std::collections::HashMap<i64, Vec<RungRun>>, StoreError> {
    let mut q = db.prepare(
        "SELECT g.slot_ms, g.rung, g.journal_id, j.state, j.price, j.order_id FROM plan_rungs g
         LEFT JOIN order_journal j ON j.id = g.journal_id WHERE g.plan_id = ?1
         ORDER BY g.slot_ms, g.rung",
    )?;
    let rows = q.query_map([plan_id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, Option<String>>(3)?,
            dec_opt(r, 4)?,
            r.get::<_, Option<String>>(5)?,
        ))
    })?;
    let mut out: std::collections::HashMap<i64, Vec<RungRun>> = Default::default();
    for row in rows {
        let (slot, rung, journal_id, state, price, order_id) = row?;
        let index =
            u8::try_from(rung).map_err(|_| damaged(journal_id, format!("plan rung {rung}")))?;
        out.entry(slot).or_default().push(RungRun {
            index,
            journal_id,
            state: journal_run_state(journal_id, state)?,
            price,
            order_id,
        });
    }
    Ok(out)
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
    let mut rungs = rungs_in(db, plan_id)?;
    let mut out = Vec::new();
    for row in rows {
        let (slot, mark, journal_id, note, journal_state) = row?;
        let rungs = rungs.remove(&slot).unwrap_or_default();
        let state = match mark.as_str() {
            "skipped" => RunState::Skipped,
            "held" => RunState::Held,
            "sent" if !rungs.is_empty() => RunState::of_rungs(rungs.iter().map(|g| g.state)),
            "sent" => journal_run_state(journal_id.unwrap_or(plan_id), journal_state)?,
            other => return Err(damaged(plan_id, format!("plan run mark `{other}`"))),
        };
        out.push(Run {
            plan_id,
            slot: time(slot),
            state,
            journal_id,
            skip: SkipReason::from_stored(&note),
            rungs,
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
/// account, cap, missed-run policy, rungs, step.
struct Terms(
    String,
    &'static str,
    Option<String>,
    i64,
    Option<String>,
    Option<String>,
    &'static str,
    Option<i64>,
    Option<String>,
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
            plan.ladder.map(|l| i64::from(l.rungs)),
            plan.ladder.map(|l| l.step_percent.to_string()),
        )
    }
}

impl super::Plans<'_> {
    /// Stores a new plan made for the accounts of `identity`, active from `now`; returns its id.
    pub fn add(
        &self,
        plan: &NewPlan,
        identity: Option<super::IdentityId>,
        now: DateTime<Utc>,
    ) -> Result<i64, StoreError> {
        let db = self.db();
        let t = Terms::of(plan);
        db.execute(
            "INSERT INTO plans (buy_nok, period, on_day, at_minute, account_id, max_price, missed,
             paused, created_at_ms, active_from_ms, rungs, step_percent, identity_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?8, ?9, ?10, ?11)",
            params![
                t.0,
                t.1,
                t.2,
                t.3,
                t.4,
                t.5,
                t.6,
                now.timestamp_millis(),
                t.7,
                t.8,
                identity.map(|i| i.0)
            ],
        )?;
        Ok(db.last_insert_rowid())
    }

    /// Binds plan `id`, made where no identity was known, to `identity`; one already bound
    /// stays as it is.
    pub fn bind(&self, id: i64, identity: super::IdentityId) -> Result<(), StoreError> {
        self.db().execute(
            "UPDATE plans SET identity_id = ?2 WHERE id = ?1 AND identity_id IS NULL",
            params![id, identity.0],
        )?;
        Ok(())
    }

    /// Replaces plan `id`'s terms; its runs and the slots it has passed stay. False when there
    /// is no such plan.
    pub fn edit(&self, id: i64, plan: &NewPlan) -> Result<bool, StoreError> {
        let t = Terms::of(plan);
        let n = self.db().execute(
            "UPDATE plans SET buy_nok = ?2, period = ?3, on_day = ?4, at_minute = ?5, account_id = ?6,
             max_price = ?7, missed = ?8, rungs = ?9, step_percent = ?10 WHERE id = ?1",
            params![id, t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7, t.8],
        )?;
        Ok(n > 0)
    }

    pub fn all(&self) -> Result<Vec<Plan>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!("{SELECT} ORDER BY id"))?;
        let rows = q.query_map([], plan_row)?;
        let mut out = Vec::new();
        for r in rows {
            out.push(r??);
        }
        Ok(out)
    }

    pub fn get(&self, id: i64) -> Result<Option<Plan>, StoreError> {
        plan_in(&self.db(), id)
    }

    /// Pauses or resumes plan `id`; false when there is none. A resumed plan starts afresh at
    /// `now`: slots missed while it was paused do not exist.
    pub fn set_paused(
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
    pub fn remove(&self, id: i64) -> Result<bool, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute("DELETE FROM plan_runs WHERE plan_id = ?1", [id])?;
        tx.execute("DELETE FROM plan_rungs WHERE plan_id = ?1", [id])?;
        let n = tx.execute("DELETE FROM plans WHERE id = ?1", [id])?;
        tx.commit()?;
        Ok(n > 0)
    }

    /// Plan `plan_id`'s recorded runs, oldest slot first.
    pub fn runs(&self, plan_id: i64) -> Result<Vec<Run>, StoreError> {
        runs_in(&self.db(), plan_id)
    }

    /// Decides what of plan `prepared_from` is due at `now` and records it, in one transaction:
    /// missed slots skipped, slots held while a run is unknown, and the slot to run with its
    /// orders journaled from `orders` (when the caller has them ready; a ladder's rungs in
    /// order) or skipped with the reason `skip` (the ask was above the plan's cap). A slot
    /// another process recorded first is not recorded again; a due slot with no orders ready is
    /// left for the next look. The orders were prepared from `prepared_from`: when the stored
    /// plan is no longer that (an edit came in between), nothing is claimed (`changed`).
    pub fn claim(
        &self,
        prepared_from: &Plan,
        now: DateTime<Utc>,
        orders: &[NewOrderEntry<'_>],
        skip: Option<&SkipReason>,
    ) -> Result<PlanClaim, StoreError> {
        let plan_id = prepared_from.id;
        let mut db = self.db();
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let plan = plan_in(&tx, plan_id)?;
        let Some(plan) = plan.filter(|p| p == prepared_from) else {
            return Ok(PlanClaim {
                changed: true,
                ..PlanClaim::default()
            });
        };
        let runs = runs_in(&tx, plan_id)?;
        let due = decide(&plan, &runs, now);
        let mut claim = PlanClaim::default();
        let mut recorded = |slot, state, skip: Option<&SkipReason>| {
            claim.recorded.push(Recorded {
                plan_id,
                slot,
                state,
                journal_id: None,
                journal_ids: Vec::new(),
                skip: skip.cloned(),
            });
        };
        for &slot in &due.skip {
            record(&tx, plan_id, slot, "skipped", None, "")?;
            recorded(slot, RunState::Skipped, None);
        }
        for &slot in &due.hold {
            record(&tx, plan_id, slot, "held", None, "")?;
            recorded(slot, RunState::Held, None);
        }
        let mut send = None;
        if let Some(slot) = due.run {
            if let Some(why) = skip {
                record(&tx, plan_id, slot, "skipped", None, &why.stored())?;
                recorded(slot, RunState::Skipped, Some(why));
            } else if !orders.is_empty() {
                let mut ids = Vec::with_capacity(orders.len());
                for order in orders {
                    ids.push(insert_order_entry(&tx, order)?);
                }
                record(&tx, plan_id, slot, "sent", ids.first().copied(), "")?;
                if plan.ladder.is_some() {
                    for (rung, id) in (1_i64..).zip(&ids) {
                        tx.execute(
                            "INSERT INTO plan_rungs (plan_id, slot_ms, rung, journal_id)
                             VALUES (?1, ?2, ?3, ?4)",
                            params![plan_id, slot.timestamp_millis(), rung, id],
                        )?;
                    }
                    // Every rung but the first waits its turn (see `Orders::take`).
                    for id in ids.iter().skip(1) {
                        tx.execute("UPDATE order_journal SET queued = 1 WHERE id = ?1", [id])?;
                    }
                }
                send = Some((slot, ids));
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
    use crate::store::Store;

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
            amount: Direction::Buy.amount(Decimal::from(500)),
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
        let id = a
            .plans()
            .add(&weekly(), None, utc("2026-11-22T12:00:00Z"))
            .unwrap();
        let origin = Origin::default();
        let now = utc("2026-11-23T06:30:00Z");
        let first = a
            .plans()
            .claim(
                &a.plans().get(id).unwrap().unwrap(),
                now,
                std::slice::from_ref(&order(&origin)),
                None,
            )
            .unwrap();
        let second = b
            .plans()
            .claim(
                &b.plans().get(id).unwrap().unwrap(),
                now,
                std::slice::from_ref(&order(&origin)),
                None,
            )
            .unwrap();
        assert!(first.send.is_some());
        assert!(second.send.is_none() && second.recorded.is_empty());
        assert_eq!(
            a.orders().unresolved().unwrap().len(),
            1,
            "one order journaled"
        );
        let runs = b.plans().runs(id).unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].state, RunState::Sending);
        // The next Monday is held while that one is still sending.
        let next = b
            .plans()
            .claim(
                &b.plans().get(id).unwrap().unwrap(),
                utc("2026-11-30T06:30:00Z"),
                std::slice::from_ref(&order(&origin)),
                None,
            )
            .unwrap();
        assert!(next.send.is_none());
        assert_eq!(next.recorded[0].state, RunState::Held);
    }

    #[test]
    fn an_edit_between_preparing_and_claiming_claims_nothing_until_prepared_afresh() {
        let s = Store::in_memory().unwrap();
        let id = s
            .plans()
            .add(&weekly(), None, utc("2026-11-22T12:00:00Z"))
            .unwrap();
        let origin = Origin::default();
        let now = utc("2026-11-23T06:30:00Z");
        // Orders for 500 were prepared; then the plan was cut to 100.
        let prepared_from = s.plans().get(id).unwrap().unwrap();
        let mut smaller = weekly();
        smaller.buy_nok = nordlys_money::Nok::computed(Decimal::from(100));
        assert!(s.plans().edit(id, &smaller).unwrap());
        let stale = s
            .plans()
            .claim(
                &prepared_from,
                now,
                std::slice::from_ref(&order(&origin)),
                None,
            )
            .unwrap();
        assert!(stale.changed && stale.send.is_none() && stale.recorded.is_empty());
        assert!(
            s.orders().unresolved().unwrap().is_empty(),
            "nothing journaled"
        );
        assert!(
            s.plans().runs(id).unwrap().is_empty(),
            "the slot is still due"
        );
        // Prepared afresh from the plan as it is now: claimed.
        let fresh = s
            .plans()
            .claim(
                &s.plans().get(id).unwrap().unwrap(),
                now,
                std::slice::from_ref(&order(&origin)),
                None,
            )
            .unwrap();
        assert!(!fresh.changed && fresh.send.is_some());
        // A plan removed in between is not claimed either.
        let gone = s.plans().get(id).unwrap().unwrap();
        assert!(s.plans().remove(id).unwrap());
        assert!(s.plans().claim(&gone, now, &[], None).unwrap().changed);
    }

    #[test]
    fn an_ask_above_the_cap_skips_the_slot_with_the_reason() {
        let price = |n: i64| nordlys_money::NokPerBtc::computed(Decimal::from(n));
        let above = SkipReason::AboveCap {
            ask: price(1_010_000),
            cap: price(1_000_000),
        };
        let s = Store::in_memory().unwrap();
        let id = s
            .plans()
            .add(&weekly(), None, utc("2026-11-22T12:00:00Z"))
            .unwrap();
        let c = s
            .plans()
            .claim(
                &s.plans().get(id).unwrap().unwrap(),
                utc("2026-11-23T06:30:00Z"),
                &[],
                Some(&above),
            )
            .unwrap();
        assert!(c.send.is_none());
        let runs = s.plans().runs(id).unwrap();
        assert_eq!(runs[0].state, RunState::Skipped);
        // The reason comes back as the fact it was.
        assert_eq!(runs[0].skip, Some(above));
    }

    #[test]
    fn a_resumed_plan_does_not_run_what_it_missed_while_paused() {
        let s = Store::in_memory().unwrap();
        let mut new = weekly();
        new.missed = Missed::Once;
        let id = s
            .plans()
            .add(&new, None, utc("2026-11-22T12:00:00Z"))
            .unwrap();
        assert!(
            s.plans()
                .set_paused(id, true, utc("2026-11-22T13:00:00Z"))
                .unwrap()
        );
        assert!(
            s.plans()
                .claim(
                    &s.plans().get(id).unwrap().unwrap(),
                    utc("2026-11-23T06:30:00Z"),
                    &[],
                    None
                )
                .unwrap()
                .recorded
                .is_empty()
        );
        assert!(
            s.plans()
                .set_paused(id, false, utc("2026-12-01T09:00:00Z"))
                .unwrap()
        );
        let p = s.plans().get(id).unwrap().unwrap();
        assert!(!p.paused);
        let due = decide(&p, &[], utc("2026-12-01T10:00:00Z"));
        assert!(due.is_empty(), "{due:?}");
        assert!(!s.plans().set_paused(99, false, Utc::now()).unwrap());
        assert!(s.plans().remove(id).unwrap());
        assert!(s.plans().all().unwrap().is_empty());
    }

    #[test]
    fn a_damaged_plan_is_an_error_not_a_panic() {
        let s = Store::in_memory().unwrap();
        let id = s.plans().add(&weekly(), None, Utc::now()).unwrap();
        s.db()
            .execute("UPDATE plans SET period = 'fortnight' WHERE id = ?1", [id])
            .unwrap();
        assert!(matches!(
            s.plans().all(),
            Err(StoreError::DamagedEntry { .. })
        ));
        s.db()
            .execute(
                "UPDATE plans SET period = 'week', at_minute = 5000 WHERE id = ?1",
                [id],
            )
            .unwrap();
        assert!(matches!(
            s.plans().get(id),
            Err(StoreError::DamagedEntry { .. })
        ));
    }

    /// A ladder's later rungs wait their turn: each is either taken by its sender or settled
    /// "not placed" (it never left), whichever comes first, and never both.
    #[test]
    fn a_queued_rung_is_taken_or_settled_never_both() {
        let s = Store::in_memory().unwrap();
        let form = PlanForm {
            buy_nok: "900".into(),
            every: "week".into(),
            on: Some("mon".into()),
            at: "07:00".into(),
            rungs: Some("3".into()),
            step: Some("2".into()),
            ..PlanForm::default()
        };
        let id = s
            .plans()
            .add(&form.parse().unwrap(), None, utc("2026-11-22T12:00:00Z"))
            .unwrap();
        let origin = Origin::default();
        let orders = [order(&origin), order(&origin), order(&origin)];
        let claim = s
            .plans()
            .claim(
                &s.plans().get(id).unwrap().unwrap(),
                utc("2026-11-23T06:30:00Z"),
                &orders,
                None,
            )
            .unwrap();
        let (_, ids) = claim.send.unwrap();
        let queued: Vec<bool> = ids
            .iter()
            .map(|i| s.orders().entry(*i).unwrap().unwrap().queued)
            .collect();
        assert_eq!(queued, [false, true, true]);
        assert!(
            s.orders().take(ids[0], Utc::now()).unwrap(),
            "the first is sent at once"
        );
        // The run stops (a quit, a crash); its second rung is settled before its turn.
        assert!(
            s.orders()
                .settle_queued(ids[1], &crate::seen::Seen::NeverSent)
                .unwrap()
        );
        assert!(
            !s.orders().take(ids[1], Utc::now()).unwrap(),
            "settled: never sent"
        );
        assert_eq!(
            s.orders().entry(ids[1]).unwrap().unwrap().state,
            JournalState::NotPlaced
        );
        // The third is taken first: it can no longer be settled from its queue.
        assert!(s.orders().take(ids[2], Utc::now()).unwrap());
        assert!(
            !s.orders()
                .settle_queued(ids[2], &crate::seen::Seen::NeverSent)
                .unwrap()
        );
        assert_eq!(
            s.orders().entry(ids[2]).unwrap().unwrap().state,
            JournalState::Sending
        );
    }

    #[test]
    fn a_ladder_run_journals_every_rung_in_one_claim_and_reads_back_their_states() {
        let s = Store::in_memory().unwrap();
        let mut form = PlanForm {
            buy_nok: "900".into(),
            every: "week".into(),
            on: Some("mon".into()),
            at: "07:00".into(),
            rungs: Some("3".into()),
            step: Some("2".into()),
            ..PlanForm::default()
        };
        let id = s
            .plans()
            .add(&form.parse().unwrap(), None, utc("2026-11-22T12:00:00Z"))
            .unwrap();
        assert_eq!(
            s.plans().get(id).unwrap().unwrap().ladder.map(|l| l.rungs),
            Some(3)
        );
        let origin = Origin::default();
        let orders = [order(&origin), order(&origin), order(&origin)];
        let now = utc("2026-11-23T06:30:00Z");
        let claim = s
            .plans()
            .claim(&s.plans().get(id).unwrap().unwrap(), now, &orders, None)
            .unwrap();
        let (_, ids) = claim.send.unwrap();
        assert_eq!(ids.len(), 3);
        s.orders()
            .answered(ids[0], JournalState::Placed, Some("or_1"), None, "")
            .unwrap();
        s.orders()
            .answered(ids[1], JournalState::Unknown, None, None, "lost")
            .unwrap();
        s.orders()
            .answered(ids[2], JournalState::Placed, Some("or_3"), None, "")
            .unwrap();
        let runs = s.plans().runs(id).unwrap();
        assert_eq!(runs[0].journal_id, Some(ids[0]));
        assert_eq!(
            runs[0].state,
            RunState::Unknown,
            "an unknown rung makes the run unknown"
        );
        let order_ids: Vec<_> = runs[0].rungs.iter().map(|g| g.order_id.clone()).collect();
        assert_eq!(
            order_ids,
            vec![Some("or_1".into()), None, Some("or_3".into())]
        );
        // The next Monday is held while a rung is unknown.
        let next = s
            .plans()
            .claim(
                &s.plans().get(id).unwrap().unwrap(),
                utc("2026-11-30T06:30:00Z"),
                &orders,
                None,
            )
            .unwrap();
        assert!(next.send.is_none());
        assert_eq!(next.recorded[0].state, RunState::Held);
        // An edit to a market buy keeps the recorded rungs; removing the plan removes them.
        form.rungs = None;
        form.step = None;
        assert!(s.plans().edit(id, &form.parse().unwrap()).unwrap());
        assert_eq!(s.plans().get(id).unwrap().unwrap().ladder, None);
        assert_eq!(s.plans().runs(id).unwrap()[0].rungs.len(), 3);
        assert!(s.plans().remove(id).unwrap());
        let left: i64 = s
            .db()
            .query_row("SELECT COUNT(*) FROM plan_rungs", [], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 0);
    }
}
