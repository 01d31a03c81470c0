//! What crosses IPC for plans, and the presenters that word a plan's facts for the window: its
//! schedule in a sentence, its runs with what they bought and why, and a form's problems at
//! their field.

use chrono::Weekday;
use nordlys_core::plan_schedule::{Every, ScheduleProblem};
use nordlys_core::plans::{Missed, NewPlan, Plan, PlanProblem, RunState};
use nordlys_money::{Btc, Nok, NokPerBtc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::msg;
use crate::plans::{EntryFacts, PlanFacts, PlanList, RunFacts, SavedPlan};
use crate::present::{Present, Viewer};
use crate::shown::{Show, ShownBtc, ShownNok, ShownPrice};
use crate::wording::{self, Bare, Message, key};

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
    pub bought: ShownBtc,
    /// What those cost in NOK, fees included.
    pub cost: ShownNok,
    pub average_price: Option<ShownPrice>,
    /// Their worth at the bid less their cost; none without a recent price or any buy seen.
    pub result: Option<ShownNok>,
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
    pub price: Option<ShownPrice>,
    pub btc: Option<ShownBtc>,
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
    pub price: Option<ShownPrice>,
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

fn weekday_key(d: Weekday) -> Bare {
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

/// The plan in a sentence: "NOK 500.00 every Monday at 07:00".
fn said(plan: &Plan, viewer: &Viewer) -> String {
    let terms = NewPlan {
        buy_nok: plan.buy_nok,
        ladder: plan.ladder,
        schedule: plan.schedule,
        account_id: plan.account_id.clone(),
        max_price: plan.max_price,
        missed: plan.missed,
    };
    said_of(&terms, viewer)
}

/// A plan's terms in a sentence, before or after it is kept.
pub(crate) fn said_of(plan: &NewPlan, viewer: &Viewer) -> String {
    let (figures, locale) = (viewer.figures, viewer.locale());
    let at = plan.schedule.at.format("%H:%M").to_string();
    let amount = figures.nok(plan.buy_nok);
    let mut m = match plan.schedule.every {
        Every::Day => msg!(PLAN_SAID_DAY { amount, at }),
        Every::Week(d) => {
            let weekday = wording::say(weekday_key(d), locale);
            msg!(PLAN_SAID_WEEK {
                amount,
                weekday,
                at
            })
        }
        Every::Month(d) => msg!(PLAN_SAID_MONTH {
            amount,
            day: d.to_string(),
            at
        }),
    };
    if let Some(ladder) = plan.ladder {
        m = msg!(PLAN_SAID_LADDER {
            said: m.render(locale),
            rungs: ladder.rungs.to_string(),
            step: ladder.step_percent
        });
    }
    if let Some(cap) = plan.max_price {
        m = msg!(PLAN_SAID_CAPPED {
            said: m.render(locale),
            cap: figures.price(cap)
        });
    }
    m.render(locale)
}

/// NOK per BTC paid: `nok` for `btc`.
fn price_of(btc: Btc, nok: Nok) -> Option<NokPerBtc> {
    btc.is_positive()
        .then(|| NokPerBtc::computed(nok.decimal() / btc.decimal()))
}

/// What shows a sent order's state: its id on the exchange, the exchange's refusal, or the
/// journal entry to look at.
fn entry_words(e: &EntryFacts, locale: nordlys_core::format::Locale) -> String {
    match (&e.order_id, &e.refused) {
        (Some(o), _) => msg!(PLAN_RUN_ORDER {
            order: o.clone(),
            entry: e.id.to_string()
        })
        .render(locale),
        (None, Some(refusal)) => msg!(PLAN_RUN_REFUSED {
            reason: refusal.words(locale),
            entry: e.id.to_string()
        })
        .render(locale),
        (None, None) => msg!(PLAN_RUN_ENTRY {
            entry: e.id.to_string()
        })
        .render(locale),
    }
}

fn evidence_words(run: &RunFacts, viewer: &Viewer) -> String {
    let locale = viewer.locale();
    match (run.run.state, &run.entry) {
        (RunState::Skipped, _) => match &run.run.skip {
            Some(why) => wording::skip_reason(why, viewer.figures),
            None => wording::say(key::PLAN_RUN_MISSED, locale),
        },
        (RunState::Held, _) => wording::say(key::PLAN_RUN_HELD, locale),
        (_, _) if !run.run.rungs.is_empty() => msg!(PLAN_RUN_RUNGS {
            rungs: run.run.rungs.len().to_string()
        })
        .render(locale),
        (_, Some(e)) => entry_words(e, locale),
        (_, None) => String::new(),
    }
}

/// The plan's fields as stored, to edit.
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
            .map(|l| l.step_percent.decimal().normalize().to_string())
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

fn run_view(run: &RunFacts, viewer: &Viewer) -> PlanRunView {
    let figures = viewer.figures;
    PlanRunView {
        slot: viewer.time(&run.run.slot),
        state: run.run.state,
        price: run
            .got
            .and_then(|(b, n)| price_of(b, n))
            .map(|p| figures.shown_price(p)),
        btc: run.got.map(|(b, _)| figures.shown_btc(b)),
        evidence: evidence_words(run, viewer),
        journal_id: run.run.journal_id,
        rungs: run
            .run
            .rungs
            .iter()
            .zip(&run.rungs)
            .map(|(g, entry)| PlanRungView {
                index: g.index,
                price: g.price.map(|p| figures.shown_price(p)),
                state: g.state,
                evidence: entry
                    .as_ref()
                    .map(|e| entry_words(e, viewer.locale()))
                    .unwrap_or_default(),
            })
            .collect(),
    }
}

impl Present for PlanFacts {
    type View = PlanView;

    fn present(self, viewer: &Viewer) -> PlanView {
        let figures = viewer.figures;
        let plan = &self.record.plan;
        let (bought, cost) = self.bought.unwrap_or_default();
        let result = self.result();
        PlanView {
            id: plan.id,
            said: said(plan, viewer),
            paused: plan.paused,
            next_run: self.record.next_slot.map(|t| viewer.time(&t)),
            runs: self.runs.iter().map(|r| run_view(r, viewer)).collect(),
            bought: figures.shown_btc(bought),
            cost: figures.shown_nok(cost),
            average_price: self
                .bought
                .and_then(|(b, n)| price_of(b, n))
                .map(|p| figures.shown_price(p)),
            result: result.map(|r| figures.shown_nok(r)),
            result_negative: result.is_some_and(|r| r.is_negative()),
            limit_fills_may_be_missing: self
                .record
                .runs
                .iter()
                .flat_map(|r| &r.rungs)
                .any(|g| g.state == RunState::Placed),
            form: form_of(plan),
        }
    }
}

impl Present for PlanList {
    type View = PlansView;

    fn present(self, viewer: &Viewer) -> PlansView {
        PlansView {
            plans: self.plans.into_iter().map(|p| p.present(viewer)).collect(),
        }
    }
}

/// A form's problem at its field, as the catalog's message.
pub(crate) fn problem_message(p: &PlanProblem) -> (PlanField, Message) {
    match p {
        PlanProblem::Amount(e) => (PlanField::Amount, wording::amount_input(e)),
        PlanProblem::AmountNotPositive => {
            (PlanField::Amount, Message::new(key::PLAN_AMOUNT_POSITIVE))
        }
        PlanProblem::MaxPrice(e) => (PlanField::MaxPrice, wording::amount_input(e)),
        PlanProblem::MaxPriceNotPositive => {
            (PlanField::MaxPrice, Message::new(key::PLAN_CAP_POSITIVE))
        }
        PlanProblem::Schedule(ScheduleProblem::NoSuchTime(_)) => {
            (PlanField::At, Message::new(key::PLAN_TIME))
        }
        PlanProblem::Schedule(ScheduleProblem::NoWeekday | ScheduleProblem::NoSuchWeekday(_)) => {
            (PlanField::On, Message::new(key::PLAN_WEEKDAY))
        }
        PlanProblem::Schedule(_) | PlanProblem::Missed(_) => {
            (PlanField::On, Message::new(key::PLAN_MONTH_DAY))
        }
        PlanProblem::LadderHalfGiven | PlanProblem::Rungs(_) => {
            (PlanField::Rungs, Message::new(key::PLAN_RUNGS))
        }
        PlanProblem::Step(_) => (PlanField::Step, Message::new(key::PLAN_STEP)),
        PlanProblem::LadderTooDeep { rungs, step } => (
            PlanField::Step,
            msg!(PLAN_LADDER_TOO_DEEP {
                rungs: rungs.to_string(),
                step: *step
            }),
        ),
        PlanProblem::RungTooSmall(rungs) => (
            PlanField::Amount,
            msg!(PLAN_RUNG_TOO_SMALL {
                rungs: rungs.to_string()
            }),
        ),
    }
}

/// A form's problem at its field, in the user's language.
fn problem_view(p: &PlanProblem, locale: nordlys_core::format::Locale) -> PlanProblemView {
    let (field, message) = problem_message(p);
    PlanProblemView {
        field,
        message: message.render(locale),
    }
}

impl Present for SavedPlan {
    type View = SavePlanView;

    fn present(self, viewer: &Viewer) -> SavePlanView {
        let locale = viewer.locale();
        SavePlanView {
            problems: self
                .problem
                .iter()
                .map(|p| problem_view(p, locale))
                .collect(),
            warning: self.above_available.map(|a| {
                msg!(PLAN_ABOVE_AVAILABLE {
                    available: viewer.figures.nok(a)
                })
                .render(locale)
            }),
            plans: self.plans.present(viewer),
        }
    }
}
