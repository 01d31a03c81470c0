//! Recurring buys and limit ladders: a NOK amount bought on a schedule, at market or as a ladder
//! of limit buys below the ask, each run placed exactly once.
//!
//! A run's identity is its plan and slot. Which slots to run, skip or hold is decided inside the
//! store's transaction that also journals the order ([`crate::store::Plans::claim`]), so two
//! processes sharing a store (the app and `nordlys-cli plans run-due`) cannot both claim a slot,
//! and nothing is sent before its journal entry exists. A lost answer leaves the run "unknown",
//! settled only by evidence; while a run of the plan is sending or unknown, due slots are held.

use chrono::{DateTime, Utc};
use nordlys_exchange::ExchangeClient;
use nordlys_exchange::ids::AccountId;
use nordlys_exchange::models::{Direction, NewOrderRequest, OrderType};
use nordlys_money::{Nok, NokPerBtc, Percent};
use rust_decimal::Decimal;

use crate::amount_input::{self, AmountInputError};
use crate::orders::{OrderError, Placement, Prepared};
use crate::plan_schedule::{Every, Schedule, ScheduleProblem};
use crate::store::{Store, StoreError};

/// What a run of due work does with a slot that was missed (its due time passed unrun).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Missed {
    /// Missed slots are recorded as skipped.
    #[default]
    Skip,
    /// The latest missed slot since the plan's last run is run once.
    Once,
}

impl Missed {
    pub fn text(self) -> &'static str {
        match self {
            Self::Skip => "skip",
            Self::Once => "once",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "skip" => Some(Self::Skip),
            "once" => Some(Self::Once),
            _ => None,
        }
    }
}

/// A run's NOK spread over limit buys below the ask: rung i of 1…n buys for total/n NOK at
/// ask × (1 − i × step %), the price rounded down to whole kroner and the NOK down to whole øre
/// (so the rungs never spend more than the total).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ladder {
    pub rungs: u8,
    /// Percent of the ask between one rung and the next, in (0, 50).
    pub step_percent: Percent,
}

/// One limit buy of a ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rung {
    /// 1…n, from the highest price down.
    pub index: u8,
    pub nok: Nok,
    pub price: NokPerBtc,
}

impl Ladder {
    pub const FEWEST_RUNGS: u8 = 2;
    pub const MOST_RUNGS: u8 = 50;
    pub const WIDEST_STEP: Decimal = Decimal::from_parts(50, 0, 0, false, 0);

    /// The rungs of a run of `total` NOK at `ask`; none when a rung would buy for nothing or be
    /// priced at 0 NOK.
    pub fn rungs_at(self, total: Nok, ask: NokPerBtc) -> Option<Vec<Rung>> {
        let nok = (total.decimal() / Decimal::from(self.rungs))
            .round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero);
        if nok <= Decimal::ZERO {
            return None;
        }
        (1..=self.rungs)
            .map(|index| {
                let below = Decimal::from(index).checked_mul(self.step_percent.fraction())?;
                let price = ask.decimal().checked_mul(Decimal::ONE - below)?.floor();
                (price > Decimal::ZERO).then(|| Rung {
                    index,
                    nok: Nok::computed(nok),
                    price: NokPerBtc::computed(price),
                })
            })
            .collect()
    }
}

/// A recurring buy or limit ladder as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub id: i64,
    /// NOK per run: the market buy's amount, or the ladder's total.
    pub buy_nok: Nok,
    /// None: a market buy.
    pub ladder: Option<Ladder>,
    pub schedule: Schedule,
    pub account_id: Option<String>,
    /// Skip a run when the ask for the amount is above this.
    pub max_price: Option<NokPerBtc>,
    pub missed: Missed,
    pub paused: bool,
    pub created_at: DateTime<Utc>,
    /// Slots before this do not exist: the plan's creation, or its last resume.
    pub active_from: DateTime<Utc>,
    /// The accounts it was made for; it runs only with a credential that sees them. `None`:
    /// made where they could not be learned.
    pub identity: Option<crate::store::IdentityId>,
}

/// A plan before it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPlan {
    pub buy_nok: Nok,
    pub ladder: Option<Ladder>,
    pub schedule: Schedule,
    pub account_id: Option<String>,
    pub max_price: Option<NokPerBtc>,
    pub missed: Missed,
}

/// A plan as the user wrote it, every field as text.
#[derive(Debug, Clone, Default)]
pub struct PlanForm {
    pub buy_nok: String,
    pub every: String,
    pub on: Option<String>,
    pub at: String,
    pub account: Option<String>,
    pub max_price: Option<String>,
    pub missed: Option<String>,
    /// A ladder's number of rungs and step in percent; both or neither.
    pub rungs: Option<String>,
    pub step: Option<String>,
    pub locale: crate::format::Locale,
}

/// What is wrong with a plan as written; each belongs to one field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanProblem {
    #[error("the amount: {0}")]
    Amount(AmountInputError),
    #[error("the amount must be more than 0 NOK")]
    AmountNotPositive,
    #[error(transparent)]
    Schedule(#[from] ScheduleProblem),
    #[error("the price cap: {0}")]
    MaxPrice(AmountInputError),
    #[error("the price cap must be more than 0 NOK")]
    MaxPriceNotPositive,
    #[error("`{0}` is not a missed-run policy (skip or once)")]
    Missed(String),
    #[error("a ladder needs both its number of rungs and its step")]
    LadderHalfGiven,
    #[error("a ladder has 2 to 50 rungs, not `{0}`")]
    Rungs(String),
    #[error("a ladder's step is a percentage above 0 and below 50, not `{0}`")]
    Step(String),
    #[error("{rungs} rungs {step} % apart would reach a price of 0 NOK")]
    LadderTooDeep { rungs: u8, step: Percent },
    #[error("split over {0} rungs, the amount buys for less than 0.01 NOK a rung")]
    RungTooSmall(u8),
}

/// A percentage as written: `2.5`, `2,5` or `2.5 %`.
fn parse_percent(text: &str) -> Option<Decimal> {
    let t = text.trim().trim_end_matches('%').trim().replace(',', ".");
    t.parse::<Decimal>().ok()
}

fn text_of(field: Option<&str>) -> Option<&str> {
    field.map(str::trim).filter(|s| !s.is_empty())
}

/// The ladder the form's rungs and step describe, if any.
fn ladder_of(
    rungs: Option<&str>,
    step: Option<&str>,
    total: Decimal,
) -> Result<Option<Ladder>, PlanProblem> {
    let (rungs, step) = match (text_of(rungs), text_of(step)) {
        (None, None) => return Ok(None),
        (Some(r), Some(s)) => (r, s),
        _ => return Err(PlanProblem::LadderHalfGiven),
    };
    let n = rungs
        .parse::<u8>()
        .ok()
        .filter(|n| (Ladder::FEWEST_RUNGS..=Ladder::MOST_RUNGS).contains(n))
        .ok_or_else(|| PlanProblem::Rungs(rungs.to_owned()))?;
    let step_percent = parse_percent(step)
        .filter(|p| *p > Decimal::ZERO && *p < Ladder::WIDEST_STEP)
        .ok_or_else(|| PlanProblem::Step(step.to_owned()))?;
    if Decimal::from(n) * step_percent >= Decimal::ONE_HUNDRED {
        return Err(PlanProblem::LadderTooDeep {
            rungs: n,
            step: Percent::new(step_percent),
        });
    }
    if (total / Decimal::from(n)).round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero)
        <= Decimal::ZERO
    {
        return Err(PlanProblem::RungTooSmall(n));
    }
    Ok(Some(Ladder {
        rungs: n,
        step_percent: Percent::new(step_percent.normalize()),
    }))
}

impl PlanForm {
    /// The plan it describes, or the first problem found.
    pub fn parse(&self) -> Result<NewPlan, PlanProblem> {
        let buy_nok = amount_input::parse_nok(&self.buy_nok, self.locale)
            .map_err(PlanProblem::Amount)?
            .decimal();
        if buy_nok <= Decimal::ZERO {
            return Err(PlanProblem::AmountNotPositive);
        }
        let ladder = ladder_of(self.rungs.as_deref(), self.step.as_deref(), buy_nok)?;
        let every = Every::parse(&self.every, self.on.as_deref())?;
        let at = crate::plan_schedule::parse_time(&self.at)?;
        let max_price = match self
            .max_price
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => None,
            Some(text) => {
                let p = amount_input::parse_price(text, self.locale)
                    .map_err(PlanProblem::MaxPrice)?
                    .decimal();
                if p <= Decimal::ZERO {
                    return Err(PlanProblem::MaxPriceNotPositive);
                }
                Some(NokPerBtc::computed(p))
            }
        };
        let missed = match self.missed.as_deref() {
            None => Missed::default(),
            Some(m) => Missed::parse(m).ok_or_else(|| PlanProblem::Missed(m.to_owned()))?,
        };
        Ok(NewPlan {
            buy_nok: Nok::computed(buy_nok),
            ladder,
            schedule: Schedule { every, at },
            account_id: self
                .account
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
            max_price,
            missed,
        })
    }
}

/// Where a run stands. `Sending` to `Rejected` are its order's journal state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum RunState {
    /// Not run: missed, or the ask was above the cap.
    Skipped,
    /// Due while an earlier run was sending or unknown; follows the missed-run policy later.
    Held,
    Sending,
    Unknown,
    Placed,
    NotPlaced,
    Rejected,
}

impl RunState {
    pub fn text(self) -> &'static str {
        match self {
            Self::Skipped => "skipped",
            Self::Held => "held",
            Self::Sending => "sending",
            Self::Unknown => "unknown",
            Self::Placed => "placed",
            Self::NotPlaced => "not-placed",
            Self::Rejected => "rejected",
        }
    }

    /// A run that may have reached the exchange and is not settled: the plan waits for it.
    pub fn blocks(self) -> bool {
        matches!(self, Self::Sending | Self::Unknown)
    }

    /// A ladder run's state from its rungs': sending or unknown while any rung is; placed when
    /// any rung was placed; otherwise rejected when any was refused, else not placed.
    pub fn of_rungs(states: impl IntoIterator<Item = Self>) -> Self {
        let states: Vec<Self> = states.into_iter().collect();
        [Self::Sending, Self::Unknown, Self::Placed, Self::Rejected]
            .into_iter()
            .find(|s| states.contains(s))
            .unwrap_or(Self::NotPlaced)
    }
}

/// One rung of a ladder run as recorded: its order's journal entry and where that stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RungRun {
    pub index: u8,
    pub journal_id: i64,
    pub state: RunState,
    pub price: Option<NokPerBtc>,
    /// The exchange's id once placed.
    pub order_id: Option<String>,
}

/// One recorded slot of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub plan_id: i64,
    pub slot: DateTime<Utc>,
    pub state: RunState,
    /// The order's journal entry (a ladder's first rung's); none when nothing was sent.
    pub journal_id: Option<i64>,
    /// Why it was skipped, when not simply missed.
    pub skip: Option<SkipReason>,
    /// A ladder run's rungs, in order; empty for a market buy.
    pub rungs: Vec<RungRun>,
}

/// What a run of due work does with a plan's slots now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Due {
    pub skip: Vec<DateTime<Utc>>,
    pub hold: Vec<DateTime<Utc>>,
    pub run: Option<DateTime<Utc>>,
}

impl Due {
    pub fn is_empty(&self) -> bool {
        self.skip.is_empty() && self.hold.is_empty() && self.run.is_none()
    }
}

/// The latest slot recorded for good (anything but held): no slot at or before it ever runs.
fn latest_final(runs: &[Run]) -> Option<DateTime<Utc>> {
    runs.iter()
        .filter(|r| r.state != RunState::Held)
        .map(|r| r.slot)
        .max()
}

/// The slots of `plan` at `now` that are neither recorded for good nor before the plan existed.
fn open_slots(plan: &Plan, runs: &[Run], now: DateTime<Utc>) -> Vec<DateTime<Utc>> {
    let floor = latest_final(runs);
    plan.schedule
        .slots_between(plan.active_from, now)
        .into_iter()
        .filter(|s| floor.is_none_or(|f| *s > f))
        .collect()
}

/// Decides, for `plan` with its recorded `runs`, what is due at `now`: the latest open slot
/// runs when it is still due (or, with [`Missed::Once`], when it was missed); the others are
/// skipped. While a run is sending or unknown every open slot is held instead.
pub fn decide(plan: &Plan, runs: &[Run], now: DateTime<Utc>) -> Due {
    if plan.paused {
        return Due::default();
    }
    let open = open_slots(plan, runs, now);
    let Some(&latest) = open.last() else {
        return Due::default();
    };
    if runs.iter().any(|r| r.state.blocks()) {
        let held: Vec<_> = runs
            .iter()
            .filter(|r| r.state == RunState::Held)
            .map(|r| r.slot)
            .collect();
        return Due {
            hold: open.into_iter().filter(|s| !held.contains(s)).collect(),
            ..Due::default()
        };
    }
    let still_due = now < plan.schedule.due_until(latest);
    let run = (still_due || plan.missed == Missed::Once).then_some(latest);
    Due {
        skip: open.into_iter().filter(|s| Some(*s) != run).collect(),
        hold: Vec::new(),
        run,
    }
}

/// The next slot a run of due work would run: one due now and not yet run, else the first one
/// after `now`. None while paused.
pub fn next_slot(plan: &Plan, runs: &[Run], now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    if plan.paused {
        return None;
    }
    let floor = latest_final(runs);
    let open = |s: DateTime<Utc>| s >= plan.active_from && floor.is_none_or(|f| s > f);
    if let Some(s) = plan.schedule.latest_at_or_before(now)
        && open(s)
        && now < plan.schedule.due_until(s)
    {
        return Some(s);
    }
    // The first slot after now, after the latest recorded one, and not before the plan began.
    let mut t = now.max(plan.active_from - chrono::Duration::milliseconds(1));
    if let Some(f) = floor {
        t = t.max(f);
    }
    plan.schedule.next_after(t)
}

/// The order a market-buy run places: the plan's amount.
pub fn order_of(plan: &Plan) -> NewOrderRequest {
    NewOrderRequest {
        order_type: OrderType::Market,
        direction: Direction::Buy,
        amount: plan.buy_nok.decimal(),
        account_id: plan.account_id.clone().map(AccountId::from),
        description: format!("Nordlys plan {}", plan.id),
        price: None,
    }
}

/// The limit buy a ladder run places for `rung`.
pub fn rung_order(plan: &Plan, rung: &Rung) -> NewOrderRequest {
    NewOrderRequest {
        order_type: OrderType::Limit,
        direction: Direction::Buy,
        amount: rung.nok.decimal(),
        account_id: plan.account_id.clone().map(AccountId::from),
        description: format!("Nordlys plan {} rung {}", plan.id, rung.index),
        price: Some(rung.price),
    }
}

/// What [`run_due`] recorded for one slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub plan_id: i64,
    pub slot: DateTime<Utc>,
    pub state: RunState,
    /// The run's first order's journal entry; none when nothing was sent.
    pub journal_id: Option<i64>,
    /// Every order's journal entry, a ladder's rungs in order.
    pub journal_ids: Vec<i64>,
    /// Why it was skipped, when not simply missed.
    pub skip: Option<SkipReason>,
}

/// Why due work could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Order(#[from] OrderError),
    #[error("no plan {0}")]
    NoSuchPlan(i64),
}

/// Why a due run was skipped rather than sent: facts the window words. Kept in the store as a
/// code with its data (JSON); `Display` is the English of logs and the CLI.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "code", rename_all = "camelCase")]
pub enum SkipReason {
    /// The ask was above the plan's cap.
    AboveCap {
        #[serde(with = "nordlys_money::computed")]
        ask: NokPerBtc,
        #[serde(with = "nordlys_money::computed")]
        cap: NokPerBtc,
    },
    /// At this ask the ladder's lowest rung would be priced at 0 NOK.
    RungAtZero {
        #[serde(with = "nordlys_money::computed")]
        ask: NokPerBtc,
    },
    /// Kept as words by a version before reasons were facts.
    #[serde(skip)]
    Legacy(String),
}

impl SkipReason {
    /// The reason as the store keeps it.
    pub fn stored(&self) -> String {
        match self {
            Self::Legacy(words) => words.clone(),
            typed => serde_json::to_string(typed).unwrap_or_default(),
        }
    }

    /// A stored reason: a typed one from its code and data, else the words kept; none for none.
    pub fn from_stored(text: &str) -> Option<Self> {
        if text.is_empty() {
            return None;
        }
        Some(serde_json::from_str(text).unwrap_or_else(|_| Self::Legacy(text.to_owned())))
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::AboveCap { ask, cap } => {
                write!(f, "the ask, {ask} NOK, was above the cap of {cap} NOK")
            }
            Self::RungAtZero { ask } => write!(
                f,
                "at an ask of {ask} NOK the ladder's lowest rung would be priced at 0 NOK"
            ),
            Self::Legacy(words) => f.write_str(words),
        }
    }
}

/// What a due slot of a plan gets before it is claimed.
enum Ready {
    /// The orders to journal and send.
    Orders(Vec<Prepared>),
    /// Not run, for this reason.
    Skip(SkipReason),
    /// Not yet: a price could not be read, or an earlier ladder's rungs are still open.
    NotYet,
}

/// Cancels the plan's earlier ladder rungs still open on the exchange; true once none is (a
/// filled or cancelled rung is settled). Only the latest ladder run's can be open: a run is
/// claimed only once every rung before it is closed, and an unknown rung (which could turn out
/// placed and open) holds the plan before this is reached.
async fn earlier_rungs_closed(client: &ExchangeClient, runs: &[Run]) -> bool {
    let placed: Vec<&str> = runs
        .iter()
        .rev()
        .find(|r| !r.rungs.is_empty())
        .into_iter()
        .flat_map(|r| &r.rungs)
        .filter_map(|g| g.order_id.as_deref())
        .collect();
    if placed.is_empty() {
        return true;
    }
    let still_open = |list: &nordlys_exchange::models::OpenOrdersResponse| -> Vec<String> {
        list.orders
            .iter()
            .map(|o| o.order_id.to_string())
            .filter(|id| placed.contains(&id.as_str()))
            .collect()
    };
    let Ok(list) = client.open_orders().await else {
        return false;
    };
    let open = still_open(&list);
    if open.is_empty() {
        return true;
    }
    for id in &open {
        // An error here (already filled, a lost answer) is judged by the list read next.
        let _ = client
            .cancel_order(&nordlys_exchange::ids::OrderId::from(id.as_str()))
            .await;
    }
    client
        .open_orders()
        .await
        .is_ok_and(|list| still_open(&list).is_empty())
}

/// Reads what a due run of `plan` needs: the ask (for a cap or a ladder), the earlier rungs
/// closed, and its orders marked and ready.
async fn ready(
    client: &ExchangeClient,
    store: &Store,
    plan: &Plan,
    runs: &[Run],
) -> Result<Ready, PlanError> {
    let ask = if plan.max_price.is_some() || plan.ladder.is_some() {
        match client.price(Some(plan.buy_nok)).await {
            Ok(p) => Some(p.ask),
            Err(_) => return Ok(Ready::NotYet),
        }
    } else {
        None
    };
    if let (Some(cap), Some(ask)) = (plan.max_price, ask)
        && ask > cap
    {
        return Ok(Ready::Skip(SkipReason::AboveCap { ask, cap }));
    }
    let requests = match (plan.ladder, ask) {
        (Some(ladder), Some(ask)) => {
            if !earlier_rungs_closed(client, runs).await {
                return Ok(Ready::NotYet);
            }
            let Some(rungs) = ladder.rungs_at(plan.buy_nok, ask) else {
                return Ok(Ready::Skip(SkipReason::RungAtZero { ask }));
            };
            rungs.iter().map(|r| rung_order(plan, r)).collect()
        }
        _ => vec![order_of(plan)],
    };
    Ok(Ready::Orders(
        Prepared::read_all(client, store, &requests).await?,
    ))
}

/// Runs what is due at `now` for every plan that is not paused, each slot once, and returns
/// what it recorded. A process that finds a slot claimed by another records nothing for it.
/// A price that cannot be read for a plan with a cap or a ladder, or an earlier ladder's rungs
/// still open, leaves its slot due, for the next look.
pub async fn run_due(
    client: &ExchangeClient,
    store: &Store,
    now: DateTime<Utc>,
    turn: &crate::money_turn::MoneyTurn,
) -> Result<DueRun, PlanError> {
    let mut out = Vec::new();
    let mut elsewhere = Vec::new();
    let mut here = None;
    for mut plan in store.plans().all()? {
        if plan.paused {
            continue;
        }
        if here.is_none() {
            here = Some(crate::account_identity::origin_here(client, store).await?);
        }
        let seen = here.as_ref().and_then(|o| o.identity);
        match (plan.identity, seen) {
            (Some(made_for), seen) if seen != Some(made_for) => {
                if !decide(&plan, &store.plans().runs(plan.id)?, now).is_empty() {
                    elsewhere.push(Elsewhere {
                        plan_id: plan.id,
                        account_ids: store.identities().accounts_of(made_for)?,
                        credential_sees: seen.is_some(),
                    });
                }
                continue;
            }
            // Made with no credential at hand: it belongs to the accounts it first runs for.
            (None, Some(seen)) => {
                store.plans().bind(plan.id, seen)?;
                plan.identity = Some(seen);
            }
            _ => {}
        }
        let runs = store.plans().runs(plan.id)?;
        let due = decide(&plan, &runs, now);
        if due.is_empty() {
            continue;
        }
        let (prepared, skip) = if due.run.is_some() {
            match ready(client, store, &plan, &runs).await? {
                Ready::Orders(p) => (p, None),
                Ready::Skip(why) => (Vec::new(), Some(why)),
                Ready::NotYet => continue,
            }
        } else {
            (Vec::new(), None)
        };
        let sent_at = Utc::now();
        let entries: Vec<_> = prepared.iter().map(|p| p.entry(sent_at)).collect();
        // Claimed only if the plan is still what the orders were prepared from.
        let claimed = store.plans().claim(&plan, now, &entries, skip.as_ref())?;
        out.extend(claimed.recorded);
        let Some((slot, journal_ids)) = claimed.send else {
            continue;
        };
        // Every order of the run was journaled together; each is sent once, whatever became of
        // the one before (a ladder's rungs are separate orders).
        let mut states = Vec::new();
        let mut failed = None;
        for (prepared, &journal_id) in prepared.into_iter().zip(&journal_ids) {
            let state = match prepared.send(client, store, journal_id, turn).await {
                Ok(Placement::Placed { .. }) => RunState::Placed,
                Ok(Placement::Unknown { .. }) => RunState::Unknown,
                Err(OrderError::Exchange(_) | OrderError::SettledBeforeSent(_)) => store
                    .orders()
                    .entry(journal_id)?
                    .map_or(RunState::Rejected, |e| crate::store::run_state_of(e.state)),
                Err(e) => {
                    failed.get_or_insert(e);
                    RunState::Unknown
                }
            };
            states.push(state);
        }
        if let Some(e) = failed {
            return Err(e.into());
        }
        out.push(Recorded {
            plan_id: plan.id,
            slot,
            state: RunState::of_rungs(states),
            journal_id: journal_ids.first().copied(),
            journal_ids,
            skip: None,
        });
    }
    Ok(DueRun {
        recorded: out,
        elsewhere,
    })
}

/// What one look at the due plans did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DueRun {
    pub recorded: Vec<Recorded>,
    /// Due plans made for accounts this credential does not see: not run, and said.
    pub elsewhere: Vec<Elsewhere>,
}

/// A due plan left alone because it was made for other accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elsewhere {
    pub plan_id: i64,
    /// The accounts it was made for.
    pub account_ids: Vec<String>,
    /// False when the credential's own accounts could not be read (the exchange did not
    /// answer): whose they are is unknown, so nothing runs.
    pub credential_sees: bool,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use chrono::Weekday;

    /// A reason is kept as a code with its data and comes back the same; words kept by an
    /// earlier version come back as those words.
    #[test]
    fn a_skip_reason_is_stored_as_a_fact_and_old_words_are_kept() {
        let price = |n: i64| NokPerBtc::computed(Decimal::from(n));
        for why in [
            SkipReason::AboveCap {
                ask: price(1_010_000),
                cap: price(1_000_000),
            },
            SkipReason::RungAtZero { ask: price(3) },
        ] {
            let stored = why.stored();
            assert!(stored.starts_with("{\"code\":"), "{stored}");
            assert_eq!(SkipReason::from_stored(&stored), Some(why));
        }
        let old = "the ask, 1010000 NOK, was above the cap of 1000000 NOK";
        assert_eq!(
            SkipReason::from_stored(old),
            Some(SkipReason::Legacy(old.to_owned()))
        );
        assert_eq!(SkipReason::from_stored(""), None);
        // As 7c3d1de1 wrote it, when a price still derived serde of its own.
        let written = r#"{"code":"aboveCap","ask":"1010000.5","cap":"1000000"}"#;
        let read = SkipReason::AboveCap {
            ask: NokPerBtc::computed(Decimal::new(10_100_005, 1)),
            cap: price(1_000_000),
        };
        assert_eq!(SkipReason::from_stored(written), Some(read.clone()));
        assert_eq!(read.stored(), written);
    }

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    /// A weekly plan, Mondays 07:00 Oslo (06:00 UTC in winter), made on Sunday 22 November 2026.
    fn weekly(missed: Missed) -> Plan {
        Plan {
            id: 1,
            buy_nok: Nok::computed(Decimal::from(500)),
            schedule: Schedule {
                every: Every::Week(Weekday::Mon),
                at: chrono::NaiveTime::from_hms_opt(7, 0, 0).unwrap(),
            },
            account_id: None,
            ladder: None,
            max_price: None,
            missed,
            paused: false,
            created_at: utc("2026-11-22T12:00:00Z"),
            active_from: utc("2026-11-22T12:00:00Z"),
            identity: None,
        }
    }

    fn run(slot: &str, state: RunState) -> Run {
        Run {
            plan_id: 1,
            slot: utc(slot),
            state,
            journal_id: None,
            skip: None,
            rungs: Vec::new(),
        }
    }

    #[test]
    fn a_due_slot_runs_once_and_not_again() {
        let p = weekly(Missed::Skip);
        let now = utc("2026-11-23T06:10:00Z");
        let due = decide(&p, &[], now);
        assert_eq!(due.run, Some(utc("2026-11-23T06:00:00Z")));
        assert!(due.skip.is_empty());
        let ran = [run("2026-11-23T06:00:00Z", RunState::Placed)];
        assert!(
            decide(&p, &ran, now).is_empty(),
            "the same slot twice is one run"
        );
        // Whatever time a later look is given, a slot at or before the latest recorded never runs.
        assert!(decide(&p, &ran, utc("2026-11-23T05:00:00Z")).is_empty());
    }

    #[test]
    fn nothing_before_the_slot_or_before_the_plan_existed() {
        let p = weekly(Missed::Once);
        assert!(decide(&p, &[], utc("2026-11-23T05:59:59Z")).is_empty());
        // Monday 16 November is before the plan was made.
        assert!(decide(&p, &[], utc("2026-11-22T13:00:00Z")).is_empty());
    }

    #[test]
    fn a_slot_is_missed_six_hours_later_and_skipped_by_default() {
        let p = weekly(Missed::Skip);
        let late = utc("2026-11-23T12:00:00Z");
        let due = decide(&p, &[], late);
        assert_eq!(due.run, None);
        assert_eq!(due.skip, vec![utc("2026-11-23T06:00:00Z")]);
        let just_in_time = decide(&p, &[], utc("2026-11-23T11:59:59Z"));
        assert_eq!(just_in_time.run, Some(utc("2026-11-23T06:00:00Z")));
    }

    #[test]
    fn with_once_the_latest_missed_slot_runs_once_and_earlier_ones_are_skipped() {
        let p = weekly(Missed::Once);
        // Three Mondays later, on a Wednesday.
        let now = utc("2026-12-09T10:00:00Z");
        let due = decide(&p, &[], now);
        assert_eq!(due.run, Some(utc("2026-12-07T06:00:00Z")));
        assert_eq!(
            due.skip,
            vec![utc("2026-11-23T06:00:00Z"), utc("2026-11-30T06:00:00Z")]
        );
        // The default skips every one of them.
        let due = decide(&weekly(Missed::Skip), &[], now);
        assert_eq!(due.run, None);
        assert_eq!(due.skip.len(), 3);
    }

    #[test]
    fn a_due_slot_is_held_while_a_run_is_unknown_and_follows_the_policy_once_settled() {
        let p = weekly(Missed::Once);
        let unknown = run("2026-11-23T06:00:00Z", RunState::Unknown);
        let now = utc("2026-11-30T06:05:00Z");
        let due = decide(&p, std::slice::from_ref(&unknown), now);
        assert_eq!(due.run, None);
        assert_eq!(due.hold, vec![utc("2026-11-30T06:00:00Z")]);
        let held = run("2026-11-30T06:00:00Z", RunState::Held);
        // Held once is not held again.
        assert!(decide(&p, &[unknown.clone(), held.clone()], now).is_empty());
        // Settled a day later: the held slot, missed now, runs once under `once`…
        let settled = run("2026-11-23T06:00:00Z", RunState::Placed);
        let later = utc("2026-12-01T09:00:00Z");
        let due = decide(&p, &[settled.clone(), held.clone()], later);
        assert_eq!(due.run, Some(utc("2026-11-30T06:00:00Z")));
        // …and is skipped under `skip`.
        let due = decide(&weekly(Missed::Skip), &[settled, held], later);
        assert_eq!(due.run, None);
        assert_eq!(due.skip, vec![utc("2026-11-30T06:00:00Z")]);
    }

    #[test]
    fn a_paused_plan_does_nothing_and_has_no_next_run() {
        let mut p = weekly(Missed::Once);
        p.paused = true;
        assert!(decide(&p, &[], utc("2026-12-09T10:00:00Z")).is_empty());
        assert_eq!(next_slot(&p, &[], utc("2026-12-09T10:00:00Z")), None);
    }

    #[test]
    fn the_next_run_is_the_due_slot_until_it_runs() {
        let p = weekly(Missed::Skip);
        let now = utc("2026-11-23T07:00:00Z");
        assert_eq!(next_slot(&p, &[], now), Some(utc("2026-11-23T06:00:00Z")));
        let ran = [run("2026-11-23T06:00:00Z", RunState::Placed)];
        assert_eq!(next_slot(&p, &ran, now), Some(utc("2026-11-30T06:00:00Z")));
        assert_eq!(
            next_slot(&p, &[], utc("2026-11-22T12:00:00Z")),
            Some(utc("2026-11-23T06:00:00Z"))
        );
        // A run recorded ahead of the clock (by `run-due --now`) moves the next run past it.
        let ahead = [run("2026-12-14T06:00:00Z", RunState::Skipped)];
        assert_eq!(
            next_slot(&p, &ahead, now),
            Some(utc("2026-12-21T06:00:00Z"))
        );
    }

    #[test]
    fn a_plan_form_refuses_what_would_not_work() {
        let form = |amount: &str, every: &str, on: Option<&str>, at: &str| PlanForm {
            buy_nok: amount.into(),
            every: every.into(),
            on: on.map(Into::into),
            at: at.into(),
            ..PlanForm::default()
        };
        assert!(matches!(
            form("0", "week", Some("mon"), "07:00").parse(),
            Err(PlanProblem::Amount(_) | PlanProblem::AmountNotPositive)
        ));
        assert!(matches!(
            form("-5", "week", Some("mon"), "07:00").parse(),
            Err(PlanProblem::Amount(_) | PlanProblem::AmountNotPositive)
        ));
        assert!(matches!(
            form("abc", "week", Some("mon"), "07:00").parse(),
            Err(PlanProblem::Amount(_))
        ));
        assert!(matches!(
            form("500", "week", None, "07:00").parse(),
            Err(PlanProblem::Schedule(ScheduleProblem::NoWeekday))
        ));
        assert!(matches!(
            form("500", "day", None, "25:00").parse(),
            Err(PlanProblem::Schedule(ScheduleProblem::NoSuchTime(_)))
        ));
        let mut f = form("500", "day", None, "07:00");
        f.max_price = Some("0".into());
        assert!(matches!(
            f.parse(),
            Err(PlanProblem::MaxPrice(_) | PlanProblem::MaxPriceNotPositive)
        ));
        f.max_price = Some("900000".into());
        f.missed = Some("twice".into());
        assert!(matches!(f.parse(), Err(PlanProblem::Missed(_))));
        f.missed = Some("once".into());
        let ok = f.parse().unwrap();
        assert_eq!(ok.missed, Missed::Once);
        assert_eq!(ok.buy_nok.decimal(), Decimal::from(500));
    }

    fn ladder_form(total: &str, rungs: Option<&str>, step: Option<&str>) -> PlanForm {
        PlanForm {
            buy_nok: total.into(),
            every: "week".into(),
            on: Some("mon".into()),
            at: "07:00".into(),
            rungs: rungs.map(Into::into),
            step: step.map(Into::into),
            ..PlanForm::default()
        }
    }

    #[test]
    fn a_ladders_rungs_step_below_the_ask_rounded_down() {
        let ladder = Ladder {
            rungs: 3,
            step_percent: Percent::new(Decimal::new(15, 1)),
        };
        let ask = NokPerBtc::computed(Decimal::new(100_099_999, 2));
        let rungs = ladder
            .rungs_at(Nok::computed(Decimal::from(1000)), ask)
            .unwrap();
        let prices: Vec<_> = rungs.iter().map(|r| r.price.decimal()).collect();
        // 1 000 999.99 × 0.985, × 0.97, × 0.955, each down to whole kroner.
        assert_eq!(
            prices,
            vec![
                Decimal::from(985_984),
                Decimal::from(970_969),
                Decimal::from(955_954)
            ]
        );
        // 1000 / 3 down to øre: the rungs never spend more than the total.
        assert!(
            rungs
                .iter()
                .all(|r| r.nok.decimal() == Decimal::new(33_333, 2))
        );
        assert_eq!(
            rungs.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        // An ask so low the lowest rung rounds down to 0 NOK gives no ladder.
        let tiny = NokPerBtc::computed(Decimal::ONE);
        assert!(
            ladder
                .rungs_at(Nok::computed(Decimal::from(1000)), tiny)
                .is_none()
        );
    }

    #[test]
    fn a_ladder_form_refuses_what_would_not_work() {
        let refused = |rungs: Option<&str>, step: Option<&str>| {
            ladder_form("1000", rungs, step).parse().unwrap_err()
        };
        assert_eq!(refused(Some("5"), None), PlanProblem::LadderHalfGiven);
        assert_eq!(refused(None, Some("1")), PlanProblem::LadderHalfGiven);
        assert!(matches!(
            refused(Some("1"), Some("1")),
            PlanProblem::Rungs(_)
        ));
        assert!(matches!(
            refused(Some("51"), Some("1")),
            PlanProblem::Rungs(_)
        ));
        assert!(matches!(
            refused(Some("two"), Some("1")),
            PlanProblem::Rungs(_)
        ));
        assert!(matches!(
            refused(Some("5"), Some("0")),
            PlanProblem::Step(_)
        ));
        assert!(matches!(
            refused(Some("5"), Some("50")),
            PlanProblem::Step(_)
        ));
        assert!(matches!(
            refused(Some("5"), Some("-1")),
            PlanProblem::Step(_)
        ));
        assert!(matches!(
            refused(Some("5"), Some("abc")),
            PlanProblem::Step(_)
        ));
        assert!(matches!(
            refused(Some("4"), Some("25")),
            PlanProblem::LadderTooDeep { rungs: 4, .. }
        ));
        assert_eq!(
            ladder_form("0.05", Some("10"), Some("1"))
                .parse()
                .unwrap_err(),
            PlanProblem::RungTooSmall(10)
        );
        let ok = ladder_form("1000", Some("50"), Some("1,5 %"))
            .parse()
            .unwrap();
        assert_eq!(
            ok.ladder,
            Some(Ladder {
                rungs: 50,
                step_percent: Percent::new(Decimal::new(15, 1))
            })
        );
        let ok = ladder_form("1000", Some("2"), Some("49.9"))
            .parse()
            .unwrap();
        assert_eq!(ok.ladder.map(|l| l.rungs), Some(2));
        assert_eq!(
            ladder_form("1000", None, Some(" ")).parse().unwrap().ladder,
            None
        );
    }

    #[test]
    fn a_ladder_runs_state_is_the_least_settled_of_its_rungs() {
        use RunState::*;
        assert_eq!(RunState::of_rungs([Placed, Unknown, Placed]), Unknown);
        assert_eq!(RunState::of_rungs([Placed, Sending, Unknown]), Sending);
        assert_eq!(RunState::of_rungs([Rejected, Placed]), Placed);
        assert_eq!(RunState::of_rungs([Rejected, NotPlaced]), Rejected);
        assert_eq!(RunState::of_rungs([NotPlaced]), NotPlaced);
        assert!(
            RunState::of_rungs([Placed, Unknown]).blocks(),
            "an unknown rung blocks the plan"
        );
    }
}
