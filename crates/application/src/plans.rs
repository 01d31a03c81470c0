//! Recurring buys and limit ladders: made, edited, paused and removed; each plan's runs with what
//! they bought; and the run of what is due (the watcher's look and `nordlys-cli plans run-due`
//! share its claim, so both can share a store). Both clients of this layer use these cases: the
//! window through [`crate::plan_views`], the CLI printing the facts as JSON.

use chrono::{DateTime, Utc};
use nordlys_core::money_turn::MoneyTurn;
use nordlys_core::plans::{
    self, DueRun, NewPlan, Plan, PlanError, PlanForm, PlanProblem, Recorded, Run, RunState,
};
use nordlys_core::store::{IdentityId, JournalEntry, JournalState, Store, StoreError};
use nordlys_core::tax::gains::buy_cost;
use nordlys_exchange::ExchangeClient;
use nordlys_exchange::models::TaxTransaction;
use nordlys_money::{Btc, Nok, NokPerBtc};

use crate::confirmation::{self, Confirmation, PlanReview};
use crate::error::{Answer, AppError, ErrorCode};
use crate::notices::{PlanRan, Told};
use crate::plan_views::{PlanArgs, PlanIdArgs, PlanKind, PlanPeriod};
use crate::refusals::Refusal;
use crate::vocabulary::Change;
use crate::wording::key;
use crate::{App, NoArgs};

/// Why a plan case did not do what was asked; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum PlanCaseError {
    /// A field of the form is wrong.
    #[error(transparent)]
    Problem(#[from] PlanProblem),
    #[error("no plan {0}")]
    NoSuchPlan(i64),
    #[error("the plans: {0}")]
    Store(#[from] StoreError),
    #[error(transparent)]
    Run(#[from] PlanError),
}

impl From<PlanCaseError> for AppError {
    fn from(e: PlanCaseError) -> Self {
        match e {
            PlanCaseError::NoSuchPlan(_) => AppError::said(ErrorCode::InvalidInput, key::PLAN_GONE),
            PlanCaseError::Store(e) | PlanCaseError::Run(PlanError::Store(e)) => e.into(),
            PlanCaseError::Run(PlanError::Order(nordlys_core::orders::OrderError::Exchange(e))) => {
                AppError::of(e)
            }
            PlanCaseError::Problem(p) => AppError::new(
                ErrorCode::InvalidInput,
                crate::plan_views::problem_message(&p).1,
            ),
            // Nordlys' own fault: its detail is technical.
            other => AppError::fault(other),
        }
    }
}

/// A plan with its runs, as both clients list it.
#[derive(Debug, Clone)]
pub struct PlanRecord {
    pub plan: Plan,
    /// Oldest first.
    pub runs: Vec<Run>,
    /// The accounts it was made for (its identity's ids; empty until learned).
    pub account_ids: Vec<String>,
    pub next_slot: Option<DateTime<Utc>>,
}

/// Every plan with its runs, at `now`.
pub fn records(store: &Store, now: DateTime<Utc>) -> Result<Vec<PlanRecord>, StoreError> {
    store
        .plans()
        .all()?
        .into_iter()
        .map(|plan| {
            let runs = store.plans().runs(plan.id)?;
            let account_ids = match plan.identity {
                Some(i) => store.identities().accounts_of(i)?,
                None => Vec::new(),
            };
            Ok(PlanRecord {
                next_slot: plans::next_slot(&plan, &runs, now),
                plan,
                runs,
                account_ids,
            })
        })
        .collect()
}

/// Where a plan's terms go: a new plan (bound to `identity`, when known), or plan `id`.
#[derive(Debug, Clone, Copy)]
pub enum Keep {
    New { identity: Option<IdentityId> },
    Edit(i64),
}

/// Keeps a checked plan; answers its id.
pub fn keep(
    store: &Store,
    plan: &NewPlan,
    at: Keep,
    now: DateTime<Utc>,
) -> Result<i64, PlanCaseError> {
    match at {
        Keep::New { identity } => Ok(store.plans().add(plan, identity, now)?),
        Keep::Edit(id) => match store.plans().edit(id, plan)? {
            true => Ok(id),
            false => Err(PlanCaseError::NoSuchPlan(id)),
        },
    }
}

/// Pauses or resumes plan `id`; a resumed plan's slots start now.
pub fn set_paused(
    store: &Store,
    id: i64,
    paused: bool,
    now: DateTime<Utc>,
) -> Result<(), PlanCaseError> {
    match store.plans().set_paused(id, paused, now)? {
        true => Ok(()),
        false => Err(PlanCaseError::NoSuchPlan(id)),
    }
}

/// Removes plan `id` with its runs.
pub fn remove(store: &Store, id: i64) -> Result<(), PlanCaseError> {
    match store.plans().remove(id)? {
        true => Ok(()),
        false => Err(PlanCaseError::NoSuchPlan(id)),
    }
}

/// The NOK available now, when it is less than `buy`: the plan is kept, and its runs are refused
/// until there is enough. None when there is enough, or the exchange did not say.
pub async fn above_available(client: &ExchangeClient, buy: Nok) -> Option<Nok> {
    short_of(buy, client.fiat_account().await.ok()?.available_nok)
}

/// `available`, when a run of `buy` would need more.
fn short_of(buy: Nok, available: Nok) -> Option<Nok> {
    (buy > available).then_some(available)
}

/// Runs what is due at `now`, each slot once, in the caller's money turn.
pub async fn run_due(
    client: &ExchangeClient,
    store: &Store,
    now: DateTime<Utc>,
    turn: &MoneyTurn,
) -> Result<DueRun, PlanCaseError> {
    Ok(plans::run_due(client, store, now, turn).await?)
}

/// A run recorded now that was sent and whose outcome is unknown, if any.
pub fn unknown_run(recorded: &[Recorded]) -> Option<&Recorded> {
    recorded
        .iter()
        .find(|r| r.journal_id.is_some() && r.state.blocks())
}

/// What the window shows of the plans.
#[derive(Debug, Clone)]
pub struct PlanList {
    pub plans: Vec<PlanFacts>,
}

/// A plan with what its runs bought, as far as the synced history shows them.
#[derive(Debug, Clone)]
pub struct PlanFacts {
    pub record: PlanRecord,
    /// Newest first.
    pub runs: Vec<RunFacts>,
    /// BTC bought by its runs and what they cost in NOK, fees included.
    pub bought: Option<(Btc, Nok)>,
    /// The bid the result is taken at; none without a recent price.
    pub bid: Option<NokPerBtc>,
}

impl PlanFacts {
    /// What was bought is worth at the bid less its cost.
    pub fn result(&self) -> Option<Nok> {
        let (btc, nok) = self.bought.filter(|(b, _)| b.is_positive())?;
        Some(btc.value_at(self.bid?)? - nok)
    }
}

/// One run, with what it bought and the journal entries that show its state.
#[derive(Debug, Clone)]
pub struct RunFacts {
    pub run: Run,
    pub got: Option<(Btc, Nok)>,
    /// A market buy's order, or a ladder's first rung's.
    pub entry: Option<EntryFacts>,
    /// A ladder's rungs' orders, as `run.rungs`.
    pub rungs: Vec<Option<EntryFacts>>,
}

/// What shows a sent order's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryFacts {
    pub id: i64,
    /// The exchange's id, once placed.
    pub order_id: Option<String>,
    /// Why the exchange refused it, when it did and said why.
    pub refused: Option<Refusal>,
}

impl EntryFacts {
    fn of(e: &JournalEntry, store: &Store) -> Self {
        Self {
            id: e.id,
            order_id: e.order_id.clone(),
            refused: (e.order_id.is_none()
                && e.state == JournalState::Rejected
                && !e.note.is_empty())
            .then(|| Refusal::of(store, e.id, &e.note)),
        }
    }
}

/// What one run bought and cost, from its order's rows among `rows`.
fn bought_by(e: &JournalEntry, rows: &[TaxTransaction]) -> Option<(Btc, Nok)> {
    let own = |r: &&TaxTransaction| {
        let id = r.id.as_str();
        e.trade_id.as_deref() == Some(id)
            || e.claimed.iter().any(|c| c == id)
            || (!e.reference.is_empty() && r.note.contains(&e.reference))
    };
    rows.iter()
        .filter(own)
        .filter_map(buy_cost)
        .reduce(|(b, n), (b2, n2)| (b + b2, n + n2))
}

fn facts(
    store: &Store,
    record: PlanRecord,
    bid: Option<NokPerBtc>,
) -> Result<PlanFacts, StoreError> {
    let mut entries = std::collections::HashMap::new();
    let journal_ids = record.runs.iter().flat_map(|r| {
        r.journal_id
            .into_iter()
            .chain(r.rungs.iter().map(|g| g.journal_id))
    });
    for id in journal_ids {
        if let Some(e) = store.orders().entry(id)? {
            entries.insert(id, e);
        }
    }
    // The rows of every run's order, in one read of the history.
    let ids: Vec<String> = entries
        .values()
        .flat_map(|e| e.claimed.iter().cloned().chain(e.trade_id.clone()))
        .collect();
    let references: Vec<String> = entries
        .values()
        .map(|e| e.reference.clone())
        .filter(|r| !r.is_empty())
        .collect();
    let rows = if entries.is_empty() {
        Vec::new()
    } else {
        store.tax().rows_of_orders(&ids, &references)?
    };
    let mut runs = Vec::new();
    let mut total: Option<(Btc, Nok)> = None;
    for run in record.runs.iter().rev() {
        let entry = run.journal_id.and_then(|id| entries.get(&id));
        let got = if run.rungs.is_empty() {
            entry.and_then(|e| bought_by(e, &rows))
        } else {
            run.rungs
                .iter()
                .filter_map(|g| bought_by(entries.get(&g.journal_id)?, &rows))
                .reduce(|(b, n), (b2, n2)| (b + b2, n + n2))
        };
        if let Some((b, n)) = got {
            let (tb, tn) = total.unwrap_or_default();
            total = Some((tb + b, tn + n));
        }
        runs.push(RunFacts {
            run: run.clone(),
            got,
            entry: entry.map(|e| EntryFacts::of(e, store)),
            rungs: run
                .rungs
                .iter()
                .map(|g| entries.get(&g.journal_id).map(|e| EntryFacts::of(e, store)))
                .collect(),
        });
    }
    Ok(PlanFacts {
        record,
        runs,
        bought: total,
        bid,
    })
}

fn list(app: &App, store: &Store) -> Answer<PlanList> {
    let bid = app.listing_bid(store);
    Ok(PlanList {
        plans: records(store, scheduler_now())?
            .into_iter()
            .map(|r| facts(store, r, bid))
            .collect::<Result<_, _>>()?,
    })
}

pub async fn plans(app: &App, _args: NoArgs) -> Answer<PlanList> {
    let session = app.session().await?;
    list(app, &session.store)
}

/// A plan kept, or the problem of its form at its field (then nothing was kept).
#[derive(Debug, Clone)]
pub struct SavedPlan {
    pub problem: Option<PlanProblem>,
    /// Kept, but more than the NOK available now (this much).
    pub above_available: Option<Nok>,
    pub plans: PlanList,
}

/// The form the window filled in, read in the user's language.
fn form(args: &PlanArgs, locale: nordlys_core::format::Locale) -> PlanForm {
    PlanForm {
        buy_nok: args.amount.clone(),
        every: match args.every {
            PlanPeriod::Day => "day",
            PlanPeriod::Week => "week",
            PlanPeriod::Month => "month",
        }
        .to_owned(),
        on: Some(args.on.clone()).filter(|_| args.every != PlanPeriod::Day),
        at: args.at.clone(),
        account: Some(args.account.clone()),
        max_price: Some(args.max_price.clone()),
        missed: Some(args.missed.text().to_owned()),
        rungs: Some(args.rungs.clone()).filter(|_| args.kind == PlanKind::Ladder),
        step: Some(args.step.clone()).filter(|_| args.kind == PlanKind::Ladder),
        locale,
    }
}

/// Keeps a new or edited plan, or says what is wrong at its field and keeps nothing. An amount
/// above the NOK available now is kept, with a warning.
pub async fn save_plan(app: &App, args: PlanArgs) -> Answer<SavedPlan> {
    let session = app.session().await?;
    // A ladder with its rungs or step left empty is not a market buy.
    let unladdered = (args.kind == PlanKind::Ladder)
        .then(|| {
            if args.rungs.trim().is_empty() {
                Some(PlanProblem::Rungs(String::new()))
            } else if args.step.trim().is_empty() {
                Some(PlanProblem::Step(String::new()))
            } else {
                None
            }
        })
        .flatten();
    let new = match unladdered.map_or_else(|| form(&args, app.input_locale()).parse(), Err) {
        Ok(n) => n,
        Err(p) => {
            return Ok(SavedPlan {
                problem: Some(p),
                above_available: None,
                plans: list(app, &session.store)?,
            });
        }
    };
    // A new plan, or one that buys more, spends more of the user's money unattended.
    let enlarges = match args.id {
        None => true,
        Some(id) => session
            .store
            .plans()
            .get(id)?
            .is_none_or(|old| new.buy_nok > old.buy_nok),
    };
    if enlarges {
        crate::lock::require_password(app, args.password.as_ref()).await?;
        // What it will spend is approved outside the window, as it is kept.
        let account = match &new.account_id {
            Some(id) => Some(
                crate::account_names::of(app, &session, [id.as_str()])
                    .await
                    .name(id),
            ),
            None => None,
        };
        let review = PlanReview {
            terms: new.clone(),
            account,
        };
        confirmation::ask(app, Confirmation::Plan(review)).await?;
    }
    let at = match args.id {
        Some(id) => Keep::Edit(id),
        None => Keep::New {
            identity: nordlys_core::account_identity::origin_here(
                session.connection.client(),
                &session.store,
            )
            .await?
            .identity,
        },
    };
    keep(&session.store, &new, at, scheduler_now())?;
    Ok(SavedPlan {
        problem: None,
        above_available: above_available(session.connection.client(), new.buy_nok).await,
        plans: list(app, &session.store)?,
    })
}

async fn paused(app: &App, id: i64, paused: bool) -> Answer<PlanList> {
    let session = app.session().await?;
    set_paused(&session.store, id, paused, scheduler_now())?;
    list(app, &session.store)
}

pub async fn pause_plan(app: &App, args: PlanIdArgs) -> Answer<PlanList> {
    paused(app, args.id, true).await
}

pub async fn resume_plan(app: &App, args: PlanIdArgs) -> Answer<PlanList> {
    paused(app, args.id, false).await
}

/// Removes the plan; one already gone (removed from the CLI) is not an error.
pub async fn remove_plan(app: &App, args: PlanIdArgs) -> Answer<PlanList> {
    let session = app.session().await?;
    match remove(&session.store, args.id) {
        Ok(()) | Err(PlanCaseError::NoSuchPlan(_)) => {}
        Err(e) => return Err(e.into()),
    }
    list(app, &session.store)
}

/// The scheduler's clock: now, moved by the test switch [`crate::test_hooks::clock_offset`]
/// (tests make a slot due with it; a release build ignores it).
pub fn scheduler_now() -> DateTime<Utc> {
    Utc::now() + crate::test_hooks::clock_offset()
}

/// The watcher's look at the plans: runs what is due now, each slot once, and tells of refused
/// and unknown runs. No request while nothing is due.
pub async fn look_at_plans(app: &App) -> Answer<Vec<Change>> {
    run_plans_at(app, scheduler_now()).await
}

/// Runs what is due at `now` (the watcher's clock; a test's own), and keeps the tray's next run.
pub async fn run_plans_at(app: &App, now: DateTime<Utc>) -> Answer<Vec<Change>> {
    // Taken before the session is looked up: a profile switch waits for the run to end.
    let turn = app.money_turn().await;
    let session = app.session().await?;
    let next = next_run(&session.store);
    crate::watcher::set_next_plan_run(app, &session.profile.id, next);
    tell_inactive_profiles_plans(app, &session.profile.id);
    if session.store.plans().all()?.iter().all(|p| p.paused) {
        return Ok(vec![]);
    }
    let due = run_due(session.connection.client(), &session.store, now, &turn).await?;
    let elsewhere: Vec<i64> = due.elsewhere.iter().map(|e| e.plan_id).collect();
    for plan in crate::watcher::untold_elsewhere(app, &session.profile.id, &elsewhere) {
        app.tell(Told::PlanElsewhere { plan });
    }
    let recorded = due.recorded;
    if recorded.is_empty() {
        return Ok(vec![]);
    }
    let next = next_run(&session.store);
    crate::watcher::set_next_plan_run(app, &session.profile.id, next);
    // As after an order from the form: the history's tail is read, so the run's price and
    // bitcoin show soon.
    if recorded.iter().any(|r| r.journal_id.is_some()) {
        crate::tax::begin_sync(app).await.ok();
    }
    for r in &recorded {
        let ran = match r.state {
            RunState::Rejected => PlanRan::Refused,
            RunState::Unknown => PlanRan::Unknown,
            RunState::Placed if r.journal_ids.len() > 1 => PlanRan::LadderPlaced,
            RunState::Placed => PlanRan::Placed,
            _ => continue,
        };
        app.tell(Told::PlanRan(ran));
    }
    Ok(vec![Change::Plans, Change::Balances, Change::Unknowns])
}

/// Plans run only for the active profile (its exchange is the one connected): another
/// profile's plans that are not paused are never skipped silently. Each such profile is told
/// once while this one is active.
fn tell_inactive_profiles_plans(app: &App, active: &str) {
    let others: Vec<(String, String)> = app
        .settings()
        .profiles
        .iter()
        .filter(|p| p.id != active)
        .map(|p| (p.id.clone(), p.name.clone()))
        .collect();
    for (id, name) in others {
        if !crate::watcher::untold_inactive(app, active, &id) {
            continue;
        }
        let path = app.store_path(&id);
        if !path.exists() {
            continue;
        }
        // Each profile's store opens with its own key.
        let waiting = nordlys_core::store::profile_store::open_with(
            &*app.secrets,
            &id,
            &path,
            &app.opened_keys,
        )
        .ok()
        .and_then(|s| s.plans().all().ok())
        .map(|plans| plans.iter().filter(|p| !p.paused).count())
        .unwrap_or(0);
        if waiting > 0 {
            app.tell(Told::PlansWaitingElsewhere {
                profile: name,
                count: waiting,
            });
        }
    }
}

/// The next run of any plan, for the tray; none without plans.
pub fn next_run(store: &Store) -> Option<DateTime<Utc>> {
    let now = scheduler_now();
    store
        .plans()
        .all()
        .ok()?
        .iter()
        .filter_map(|p| plans::next_slot(p, &store.plans().runs(p.id).ok()?, now))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    #[test]
    fn only_an_unknown_sent_run_is_unknown() {
        let slot = Utc::now();
        let r = |state, journal_id| Recorded {
            plan_id: 1,
            slot,
            state,
            journal_id,
            journal_ids: Vec::new(),
            skip: None,
        };
        assert!(unknown_run(&[r(RunState::Held, None), r(RunState::Placed, Some(3))]).is_none());
        assert!(unknown_run(&[r(RunState::Unknown, Some(4))]).is_some());
    }

    #[test]
    fn a_plan_above_the_nok_available_says_what_is_available() {
        let nok = |n: i64| Nok::computed(Decimal::from(n));
        assert_eq!(short_of(nok(10), nok(1)), Some(nok(1)));
        assert_eq!(short_of(nok(1), nok(1)), None);
    }
}
