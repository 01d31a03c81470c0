//! Recurring buys and limit ladders in the window: made, edited, paused and removed; each plan's runs with what
//! they bought, their average price and the result so far at the bid; and the watcher's look that
//! runs what is due (the same claim as `nordlys-cli plans run-due`, so both can share a store).

use chrono::{DateTime, Utc, Weekday};
use nordlys_core::format::Figures;
use nordlys_core::plan_schedule::{Every, ScheduleProblem};
use nordlys_core::plans::{self, Missed, Plan, PlanForm, PlanProblem, Run, RunState};
use nordlys_core::store::{JournalEntry, JournalState, Store};
use nordlys_core::tax::gains::buy_cost;
use nordlys_core::time::OSLO;
use nordlys_exchange::models::TaxTransaction;
use nordlys_money::{Btc, Nok, NokPerBtc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::desktop::Notice;
use crate::error::{Answer, AppError, ErrorCode};
use crate::refusals;
use crate::vocabulary::{Change, Screen};
use crate::wording::{self, Message};
use crate::wording::{Key, key};
use crate::{App, NoArgs};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PlanPeriod {
    Day,
    Week,
    Month,
}

/// What a plan's run places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PlanKind {
    /// One market buy.
    Buy,
    /// Limit buys below the ask.
    Ladder,
}

/// The plan form's fields, for a problem's place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PlanField {
    Amount,
    On,
    At,
    MaxPrice,
    Rungs,
    Step,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlansView {
    pub plans: Vec<PlanView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlanView {
    #[ts(type = "number")]
    pub id: i64,
    /// "NOK 500.00 every Monday at 07:00".
    pub said: String,
    pub paused: bool,
    /// When it runs next (Oslo time); none while paused.
    pub next_run: Option<String>,
    /// Newest first.
    pub runs: Vec<PlanRunView>,
    /// BTC bought by its runs, as far as the synced history shows them.
    pub bought: String,
    /// What those cost in NOK, fees included.
    pub cost: String,
    pub average_price: Option<String>,
    /// Their worth at the bid less their cost; none without a recent price or any buy seen.
    pub result: Option<String>,
    pub result_negative: bool,
    /// Some of its runs placed limit buys: their fills count above only when the history names
    /// their order (a tax row carries no order id), so the window says so.
    pub limit_fills_may_be_missing: bool,
    /// The fields as stored, to edit.
    pub form: PlanArgs,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlanRunView {
    /// The slot, Oslo time.
    pub slot: String,
    pub state: RunState,
    /// Price paid and BTC bought, from the synced history; none until its rows are there.
    pub price: Option<String>,
    pub btc: Option<String>,
    /// What shows the state: the order id, the exchange's refusal, why it was skipped.
    pub evidence: String,
    #[ts(type = "number | null")]
    pub journal_id: Option<i64>,
    /// A ladder run's limit buys, rung 1 first; empty for a market buy.
    pub rungs: Vec<PlanRungView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlanRungView {
    pub index: u8,
    /// The rung's limit price.
    pub price: Option<String>,
    pub state: RunState,
    pub evidence: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlanArgs {
    /// `None`: a new plan.
    #[ts(type = "number | null")]
    pub id: Option<i64>,
    pub kind: PlanKind,
    /// NOK per run: the market buy's, or the ladder's total.
    pub amount: String,
    /// A ladder's number of rungs (2–50) and step in percent; ignored for a market buy.
    pub rungs: String,
    pub step: String,
    /// The bitcoin account bought into; empty: the default account.
    pub account: String,
    pub every: PlanPeriod,
    /// `mon`…`sun` for a week, 1–31 for a month, empty for a day.
    pub on: String,
    /// HH:MM, Oslo time.
    pub at: String,
    /// Empty: no cap.
    pub max_price: String,
    pub missed: Missed,
    /// The lock's password, when a lock is set and the plan is new or buys more than before.
    #[serde(default)]
    #[ts(optional)]
    pub password: Option<crate::lock::LockPassword>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlanProblemView {
    pub field: PlanField,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SavePlanView {
    /// Empty when the plan was kept; otherwise nothing was.
    pub problems: Vec<PlanProblemView>,
    /// Kept, but more than the NOK available now.
    pub warning: Option<String>,
    pub plans: PlansView,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PlanIdArgs {
    #[ts(type = "number")]
    pub id: i64,
}

fn weekday_key(d: Weekday) -> Key {
    match d {
        Weekday::Mon => key::WEEKDAY_MON,
        Weekday::Tue => key::WEEKDAY_TUE,
        Weekday::Wed => key::WEEKDAY_WED,
        Weekday::Thu => key::WEEKDAY_THU,
        Weekday::Fri => key::WEEKDAY_FRI,
        Weekday::Sat => key::WEEKDAY_SAT,
        Weekday::Sun => key::WEEKDAY_SUN,
    }
}

fn said(plan: &Plan, figures: Figures) -> String {
    let locale = figures.locale;
    let at = plan.schedule.at.format("%H:%M").to_string();
    let amount = figures.nok(plan.buy_nok);
    let mut m = match plan.schedule.every {
        Every::Day => Message::new(key::PLAN_SAID_DAY),
        Every::Week(d) => {
            Message::new(key::PLAN_SAID_WEEK).with("weekday", wording::say(weekday_key(d), locale))
        }
        Every::Month(d) => Message::new(key::PLAN_SAID_MONTH).with("day", d.to_string()),
    }
    .with("amount", amount)
    .with("at", at);
    if let Some(ladder) = plan.ladder {
        m = Message::new(key::PLAN_SAID_LADDER)
            .with("said", m.render(locale))
            .with("rungs", ladder.rungs.to_string())
            .with(
                "step",
                nordlys_core::format::number(
                    ladder.step_percent,
                    ladder.step_percent.normalize().scale(),
                    locale,
                ),
            );
    }
    if let Some(cap) = plan.max_price {
        m = Message::new(key::PLAN_SAID_CAPPED)
            .with("said", m.render(locale))
            .with("cap", figures.price(cap));
    }
    m.render(locale)
}

/// NOK per BTC paid: `nok` for `btc`.
fn price_of(btc: Btc, nok: Nok) -> Option<NokPerBtc> {
    btc.is_positive()
        .then(|| NokPerBtc::computed(nok.decimal() / btc.decimal()))
}

fn when(t: &DateTime<Utc>, figures: Figures) -> String {
    nordlys_core::format::time(t, OSLO, figures.locale)
}

/// What one run bought and cost, from its order's rows among `rows`.
fn bought_by(e: &JournalEntry, rows: &[TaxTransaction]) -> Option<(Btc, Nok)> {
    let mut total: Option<(Btc, Nok)> = None;
    let own = |r: &&TaxTransaction| {
        let id = r.id.as_str();
        e.trade_id.as_deref() == Some(id)
            || e.claimed.iter().any(|c| c == id)
            || (!e.reference.is_empty() && r.note.contains(&e.reference))
    };
    for r in rows.iter().filter(own) {
        if let Some((btc, nok)) = buy_cost(r) {
            let (b, n) = total.unwrap_or_default();
            total = Some((b + btc, n + nok));
        }
    }
    total
}

/// What shows a sent order's state: its id on the exchange, the exchange's refusal (in the
/// language, from its answer), or the journal entry to look at.
fn entry_words(e: &JournalEntry, store: &Store, figures: Figures) -> String {
    let locale = figures.locale;
    match (&e.order_id, e.state) {
        (Some(o), _) => Message::new(key::PLAN_RUN_ORDER)
            .with("order", o.clone())
            .with("entry", e.id.to_string())
            .render(locale),
        (None, JournalState::Rejected) if !e.note.is_empty() => Message::new(key::PLAN_RUN_REFUSED)
            .with("reason", refusals::reason(store, e.id, &e.note, locale))
            .with("entry", e.id.to_string())
            .render(locale),
        (None, _) => Message::new(key::PLAN_RUN_ENTRY)
            .with("entry", e.id.to_string())
            .render(locale),
    }
}

fn evidence_words(
    run: &Run,
    entry: Option<&JournalEntry>,
    store: &Store,
    figures: Figures,
) -> String {
    let locale = figures.locale;
    match (run.state, entry) {
        (RunState::Skipped, _) => match &run.skip {
            Some(why) => wording::skip_reason(why, figures),
            None => wording::say(key::PLAN_RUN_MISSED, locale),
        },
        (RunState::Held, _) => wording::say(key::PLAN_RUN_HELD, locale),
        (_, _) if !run.rungs.is_empty() => Message::new(key::PLAN_RUN_RUNGS)
            .with("rungs", run.rungs.len().to_string())
            .render(locale),
        (_, Some(e)) => entry_words(e, store, figures),
        (_, None) => String::new(),
    }
}

fn form_of(plan: &Plan) -> PlanArgs {
    let (every, on) = match plan.schedule.every {
        Every::Day => (PlanPeriod::Day, String::new()),
        Every::Week(_) => (
            PlanPeriod::Week,
            plan.schedule.every.on_text().unwrap_or_default(),
        ),
        Every::Month(d) => (PlanPeriod::Month, d.to_string()),
    };
    PlanArgs {
        id: Some(plan.id),
        kind: if plan.ladder.is_some() {
            PlanKind::Ladder
        } else {
            PlanKind::Buy
        },
        amount: plan.buy_nok.decimal().normalize().to_string(),
        rungs: plan.ladder.map(|l| l.rungs.to_string()).unwrap_or_default(),
        step: plan
            .ladder
            .map(|l| l.step_percent.normalize().to_string())
            .unwrap_or_default(),
        account: plan.account_id.clone().unwrap_or_default(),
        every,
        on,
        at: plan.schedule.at.format("%H:%M").to_string(),
        max_price: plan
            .max_price
            .map(|p| p.decimal().normalize().to_string())
            .unwrap_or_default(),
        missed: plan.missed,
        password: None,
    }
}

fn plan_view(
    store: &Store,
    plan: &Plan,
    bid: Option<NokPerBtc>,
    figures: Figures,
    now: DateTime<Utc>,
) -> Answer<PlanView> {
    let runs = store.plan_runs(plan.id)?;
    let mut entries = std::collections::HashMap::new();
    let journal_ids = runs.iter().flat_map(|r| {
        r.journal_id
            .into_iter()
            .chain(r.rungs.iter().map(|g| g.journal_id))
    });
    for id in journal_ids {
        if let Some(e) = store.journal_entry(id)? {
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
        store.tax_rows_of_orders(&ids, &references)?
    };
    let mut views = Vec::new();
    let mut total: Option<(Btc, Nok)> = None;
    for run in runs.iter().rev() {
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
        views.push(PlanRunView {
            slot: when(&run.slot, figures),
            state: run.state,
            price: got
                .and_then(|(b, n)| price_of(b, n))
                .map(|p| figures.price(p)),
            btc: got.map(|(b, _)| figures.btc(b)),
            evidence: evidence_words(run, entry, store, figures),
            journal_id: run.journal_id,
            rungs: run
                .rungs
                .iter()
                .map(|g| PlanRungView {
                    index: g.index,
                    price: g.price.map(|p| figures.price(p)),
                    state: g.state,
                    evidence: entries
                        .get(&g.journal_id)
                        .map(|e| entry_words(e, store, figures))
                        .unwrap_or_default(),
                })
                .collect(),
        });
    }
    let (bought, cost) = total.unwrap_or_default();
    let result = total
        .filter(|(b, _)| b.is_positive())
        .and_then(|(b, n)| Some(b.value_at(bid?)? - n));
    Ok(PlanView {
        id: plan.id,
        said: said(plan, figures),
        paused: plan.paused,
        next_run: plans::next_slot(plan, &runs, now).map(|t| when(&t, figures)),
        runs: views,
        bought: figures.btc(bought),
        cost: figures.nok(cost),
        average_price: total
            .and_then(|(b, n)| price_of(b, n))
            .map(|p| figures.price(p)),
        result: result.map(|r| figures.nok(r)),
        result_negative: result.is_some_and(|r| r.is_negative()),
        limit_fills_may_be_missing: runs
            .iter()
            .flat_map(|r| &r.rungs)
            .any(|g| g.state == RunState::Placed),
        form: form_of(plan),
    })
}

fn view(app: &App, store: &Store) -> Answer<PlansView> {
    let figures = app.figures();
    let bid = app.listing_bid(store);
    let now = scheduler_now();
    Ok(PlansView {
        plans: store
            .plans()?
            .iter()
            .map(|p| plan_view(store, p, bid, figures, now))
            .collect::<Result<_, _>>()?,
    })
}

pub async fn plans(app: &App, _args: NoArgs) -> Answer<PlansView> {
    let session = app.session().await?;
    view(app, &session.store)
}

fn problem_view(p: &PlanProblem, locale: nordlys_core::format::Locale) -> PlanProblemView {
    let (field, message) = match p {
        PlanProblem::Amount(e) => (
            PlanField::Amount,
            wording::amount_input_problem(e.clone(), locale),
        ),
        PlanProblem::AmountNotPositive => (
            PlanField::Amount,
            wording::say(key::PLAN_AMOUNT_POSITIVE, locale),
        ),
        PlanProblem::MaxPrice(e) => (
            PlanField::MaxPrice,
            wording::amount_input_problem(e.clone(), locale),
        ),
        PlanProblem::MaxPriceNotPositive => (
            PlanField::MaxPrice,
            wording::say(key::PLAN_CAP_POSITIVE, locale),
        ),
        PlanProblem::Schedule(ScheduleProblem::NoSuchTime(_)) => {
            (PlanField::At, wording::say(key::PLAN_TIME, locale))
        }
        PlanProblem::Schedule(ScheduleProblem::NoWeekday | ScheduleProblem::NoSuchWeekday(_)) => {
            (PlanField::On, wording::say(key::PLAN_WEEKDAY, locale))
        }
        PlanProblem::Schedule(_) | PlanProblem::Missed(_) => {
            (PlanField::On, wording::say(key::PLAN_MONTH_DAY, locale))
        }
        PlanProblem::LadderHalfGiven | PlanProblem::Rungs(_) => {
            (PlanField::Rungs, wording::say(key::PLAN_RUNGS, locale))
        }
        PlanProblem::Step(_) => (PlanField::Step, wording::say(key::PLAN_STEP, locale)),
        PlanProblem::LadderTooDeep { rungs, step } => (
            PlanField::Step,
            Message::new(key::PLAN_LADDER_TOO_DEEP)
                .with("rungs", rungs.to_string())
                .with("step", step.normalize().to_string())
                .render(locale),
        ),
        PlanProblem::RungTooSmall(rungs) => (
            PlanField::Amount,
            Message::new(key::PLAN_RUNG_TOO_SMALL)
                .with("rungs", rungs.to_string())
                .render(locale),
        ),
    };
    PlanProblemView { field, message }
}

/// Keeps a new or edited plan, or says what is wrong at its field and keeps nothing. An amount
/// above the NOK available now is kept, with a warning.
pub async fn save_plan(app: &App, args: PlanArgs) -> Answer<SavePlanView> {
    let session = app.session().await?;
    let locale = app.locale();
    let form = PlanForm {
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
    };
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
    let new = match unladdered.map_or_else(|| form.parse(), Err) {
        Ok(n) => n,
        Err(p) => {
            return Ok(SavePlanView {
                problems: vec![problem_view(&p, locale)],
                warning: None,
                plans: view(app, &session.store)?,
            });
        }
    };
    // A new plan, or one that buys more, spends more of the user's money unattended.
    let enlarges = match args.id {
        None => true,
        Some(id) => session
            .store
            .plan(id)?
            .is_none_or(|old| new.buy_nok > old.buy_nok),
    };
    if enlarges {
        crate::lock::require_password(app, args.password.as_ref()).await?;
    }
    match args.id {
        Some(id) => {
            if !session.store.edit_plan(id, &new)? {
                return Err(AppError::said(ErrorCode::InvalidInput, key::PLAN_GONE));
            }
        }
        None => {
            let here = nordlys_core::account_identity::origin_here(
                session.connection.client(),
                &session.store,
            )
            .await?;
            session
                .store
                .add_plan(&new, here.identity, scheduler_now())?;
        }
    }
    let available = session
        .connection
        .client()
        .fiat_account()
        .await
        .ok()
        .map(|f| f.available_nok);
    let warning = available.filter(|a| new.buy_nok > *a).map(|a| {
        Message::new(key::PLAN_ABOVE_AVAILABLE)
            .with("available", app.figures().nok(a))
            .render(locale)
    });
    Ok(SavePlanView {
        problems: vec![],
        warning,
        plans: view(app, &session.store)?,
    })
}

async fn paused(app: &App, id: i64, paused: bool) -> Answer<PlansView> {
    let session = app.session().await?;
    if !session.store.set_plan_paused(id, paused, scheduler_now())? {
        return Err(AppError::said(ErrorCode::InvalidInput, key::PLAN_GONE));
    }
    view(app, &session.store)
}

pub async fn pause_plan(app: &App, args: PlanIdArgs) -> Answer<PlansView> {
    paused(app, args.id, true).await
}

pub async fn resume_plan(app: &App, args: PlanIdArgs) -> Answer<PlansView> {
    paused(app, args.id, false).await
}

pub async fn remove_plan(app: &App, args: PlanIdArgs) -> Answer<PlansView> {
    let session = app.session().await?;
    session.store.remove_plan(args.id)?;
    view(app, &session.store)
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
    let next = next_run(&session.store, app.figures());
    crate::watcher::set_next_plan_run(app, &session.profile.id, next);
    tell_inactive_profiles_plans(app, &session.profile.id);
    if session.store.plans()?.iter().all(|p| p.paused) {
        return Ok(vec![]);
    }
    let due = plans::run_due(session.connection.client(), &session.store, now, &turn)
        .await
        .map_err(|e| match e {
            plans::PlanError::Store(e) => e.into(),
            plans::PlanError::Order(nordlys_core::orders::OrderError::Exchange(e)) => {
                AppError::of(e)
            }
            other => AppError::worded(ErrorCode::Fault, other),
        })?;
    let elsewhere: Vec<i64> = due.elsewhere.iter().map(|e| e.plan_id).collect();
    for id in crate::watcher::untold_elsewhere(app, &session.profile.id, &elsewhere) {
        app.notify(&Notice {
            title: wording::say(key::PLAN_NOTICE_TITLE, app.locale()),
            body: crate::wording::Message::new(key::PLAN_ELSEWHERE)
                .with("plan", id.to_string())
                .render(app.locale()),
            opens: Screen::Trade,
        });
    }
    let recorded = due.recorded;
    if recorded.is_empty() {
        return Ok(vec![]);
    }
    let next = next_run(&session.store, app.figures());
    crate::watcher::set_next_plan_run(app, &session.profile.id, next);
    // As after an order from the form: the history's tail is read, so the run's price and
    // bitcoin show soon.
    if recorded.iter().any(|r| r.journal_id.is_some()) {
        crate::tax::begin_sync(app).await.ok();
    }
    let locale = app.locale();
    for r in &recorded {
        let key = match r.state {
            RunState::Rejected => key::PLAN_REJECTED,
            RunState::Unknown => key::PLAN_UNKNOWN,
            RunState::Placed if r.journal_ids.len() > 1 => key::PLAN_LADDER_PLACED,
            RunState::Placed => key::PLAN_PLACED,
            _ => continue,
        };
        app.notify(&Notice {
            title: wording::say(key::PLAN_NOTICE_TITLE, locale),
            body: wording::say(key, locale),
            opens: Screen::Trade,
        });
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
        let path = app
            .data_dir
            .join("profiles")
            .join(&id)
            .join("nordlys.sqlite");
        if !path.exists() {
            continue;
        }
        let waiting = Store::open(&path)
            .and_then(|s| s.plans())
            .map(|plans| plans.iter().filter(|p| !p.paused).count())
            .unwrap_or(0);
        if waiting > 0 {
            app.notify(&Notice {
                title: wording::say(key::PLAN_NOTICE_TITLE, app.locale()),
                body: Message::new(key::PLANS_OF_INACTIVE_PROFILE)
                    .with("profile", name)
                    .with("count", waiting.to_string())
                    .render(app.locale()),
                opens: Screen::Settings,
            });
        }
    }
}

/// The next run of any plan, for the tray; none without plans.
pub fn next_run(store: &Store, figures: Figures) -> Option<String> {
    let now = scheduler_now();
    store
        .plans()
        .ok()?
        .iter()
        .filter_map(|p| plans::next_slot(p, &store.plan_runs(p.id).ok()?, now))
        .min()
        .map(|t| when(&t, figures))
}
