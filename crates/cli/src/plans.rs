//! `plans`: recurring buys and limit ladders kept in the state directory's store, shared with the app when both use
//! one directory. `run-due` is meant for a systemd user timer or cron: it runs what is due, each
//! slot once however often, and by however many processes, it is started.

use chrono::{DateTime, SecondsFormat, Utc};
use nordlys_application::plans::{self as cases, Keep, PlanCaseError, PlanRecord};
use nordlys_core::plan_schedule::Every;
use nordlys_core::plans::{self, PlanForm, Recorded};
use nordlys_core::store::Store;
use nordlys_exchange::wire;
use nordlys_money::{Nok, NokPerBtc};
use rust_decimal::Decimal;
use serde::Serialize;

use crate::args::{Cli, PlansCommand, time};
use crate::outcome::{Failure, print};
use crate::setup::{client, runtime, store, store_for, stored};
use crate::{credentials, environment};

fn rfc3339(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunJson {
    slot: String,
    state: &'static str,
    journal_id: Option<i64>,
    /// A ladder run's orders; absent for a market buy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rungs: Vec<RungJson>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RungJson {
    rung: u8,
    #[serde(with = "wire::opt_number")]
    price: Option<NokPerBtc>,
    state: &'static str,
    journal_id: i64,
    order_id: Option<String>,
}

/// A ladder's terms: the NOK of each run, its rungs, the step in percent.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LadderJson {
    #[serde(with = "wire::number")]
    total_nok: Nok,
    rungs: u8,
    #[serde(with = "wire::number")]
    step: Decimal,
}

/// A run as `run-due` prints it: which plan, which slot, what became of it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedJson {
    plan_id: i64,
    slot: String,
    state: &'static str,
    journal_id: Option<i64>,
    /// A ladder run's orders, rung 1 first; absent for a market buy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    journal_ids: Vec<i64>,
    #[serde(skip_serializing_if = "String::is_empty")]
    note: String,
}

impl From<&Recorded> for RecordedJson {
    fn from(r: &Recorded) -> Self {
        Self {
            plan_id: r.plan_id,
            slot: rfc3339(&r.slot),
            state: r.state.text(),
            journal_id: r.journal_id,
            journal_ids: if r.journal_ids.len() > 1 {
                r.journal_ids.clone()
            } else {
                Vec::new()
            },
            note: r.skip.as_ref().map(ToString::to_string).unwrap_or_default(),
        }
    }
}

/// The weekday as text, the day of the month as a number.
#[derive(Serialize)]
#[serde(untagged)]
enum On {
    Weekday(String),
    Day(u32),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanJson {
    plan_id: i64,
    /// None for a ladder.
    #[serde(with = "wire::opt_number")]
    buy_nok: Option<Nok>,
    ladder: Option<LadderJson>,
    every: &'static str,
    on: Option<On>,
    at: String,
    account: Option<String>,
    /// The accounts the plan was made for (its identity's ids; empty until learned).
    account_ids: Vec<String>,
    #[serde(with = "wire::opt_number")]
    max_price: Option<NokPerBtc>,
    missed: &'static str,
    paused: bool,
    next_slot: Option<String>,
    runs: Vec<RunJson>,
}

fn plan_json(record: PlanRecord) -> PlanJson {
    let PlanRecord {
        plan,
        runs,
        account_ids,
        next_slot,
    } = record;
    PlanJson {
        account_ids,
        plan_id: plan.id,
        buy_nok: plan.ladder.is_none().then_some(plan.buy_nok),
        ladder: plan.ladder.map(|l| LadderJson {
            total_nok: plan.buy_nok,
            rungs: l.rungs,
            step: l.step_percent.decimal(),
        }),
        every: plan.schedule.every.period_text(),
        on: match plan.schedule.every {
            Every::Day => None,
            Every::Week(_) => plan.schedule.every.on_text().map(On::Weekday),
            Every::Month(d) => Some(On::Day(d)),
        },
        at: plan.schedule.at.format("%H:%M").to_string(),
        account: plan.account_id.clone(),
        max_price: plan.max_price,
        missed: plan.missed.text(),
        paused: plan.paused,
        next_slot: next_slot.map(|t| rfc3339(&t)),
        runs: runs
            .iter()
            .map(|r| RunJson {
                slot: rfc3339(&r.slot),
                state: r.state.text(),
                journal_id: r.journal_id,
                rungs: r
                    .rungs
                    .iter()
                    .map(|g| RungJson {
                        rung: g.index,
                        price: g.price,
                        state: g.state.text(),
                        journal_id: g.journal_id,
                        order_id: g.order_id.clone(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Every plan with its runs, as `plans list` prints them.
pub fn list(store: &Store, now: DateTime<Utc>) -> Result<Vec<PlanJson>, String> {
    Ok(cases::records(store, now)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(plan_json)
        .collect())
}

/// Checks and stores a plan; returns its id. Nothing is stored when a field is wrong.
/// The plan is made with no credential at hand (the CLI's `plans` commands are offline): it is
/// bound to the accounts of the first credential that runs it.
pub fn add(store: &Store, form: &PlanForm, now: DateTime<Utc>) -> Result<i64, String> {
    let plan = form.parse().map_err(|e| e.to_string())?;
    cases::keep(store, &plan, Keep::New { identity: None }, now).map_err(|e| e.to_string())
}

/// Why `plans edit` changed nothing.
pub enum Refusal {
    /// A field is wrong (exit 2).
    Field(String),
    /// No such plan, or the store failed.
    Store(String),
}

/// Replaces plan `id`'s terms; nothing changes when a field is wrong or there is no such plan.
pub fn edit(store: &Store, id: i64, form: &PlanForm) -> Result<(), Refusal> {
    let plan = form.parse().map_err(|e| Refusal::Field(e.to_string()))?;
    cases::keep(store, &plan, Keep::Edit(id), Utc::now())
        .map(|_| ())
        .map_err(|e| Refusal::Store(e.to_string()))
}

/// The line `plans run-due` gives on stderr for a due plan it did not run.
pub fn elsewhere_line(e: &plans::Elsewhere) -> String {
    let accounts = if e.account_ids.is_empty() {
        "accounts not known here".to_owned()
    } else {
        e.account_ids.join(", ")
    };
    if e.credential_sees {
        format!(
            "plan {}: skipped: it was made for other accounts ({accounts}) than these credentials see",
            e.plan_id
        )
    } else {
        format!(
            "plan {}: skipped: the accounts these credentials see could not be read, and it was made for {accounts}",
            e.plan_id
        )
    }
}

/// The warning `plans add` gives for an amount above what the fiat account holds now.
fn above_available(buy: Nok, available: Nok) -> String {
    format!(
        "warning: {buy} NOK is more than the {available} NOK available now; runs will be refused \
         until there is enough"
    )
}

/// `plans …`: the store alone, except `run-due` (and `add`'s look at the NOK available).
pub(crate) fn command(cli: &Cli, command: &PlansCommand) -> Result<(), Failure> {
    let now = Utc::now();
    let store = store()?;
    match command {
        PlansCommand::List => print(&list(&store, now).map_err(Failure::Refused)?),
        PlansCommand::Add(a) | PlansCommand::Edit { plan: a, .. } => {
            let form = nordlys_core::plans::PlanForm {
                buy_nok: a
                    .buy_nok
                    .clone()
                    .or_else(|| a.ladder_nok.clone())
                    .unwrap_or_default(),
                every: a.every.clone(),
                on: a.on.clone(),
                at: a.at.clone(),
                account: a.account.clone(),
                max_price: a.max_price.clone(),
                missed: a.missed.clone(),
                rungs: a.rungs.clone(),
                step: a.step.clone(),
                locale: nordlys_core::format::Locale::En,
            };
            let id = match command {
                PlansCommand::Edit { id, .. } => {
                    edit(&store, *id, &form).map_err(|e| match e {
                        Refusal::Field(m) => Failure::Usage(m),
                        Refusal::Store(m) => Failure::Refused(m),
                    })?;
                    *id
                }
                _ => add(&store, &form, now).map_err(Failure::Usage)?,
            };
            if let Some(plan) = store.plans().get(id).map_err(stored)?
                && let Some(available) = available_nok(cli, plan.buy_nok)
            {
                eprintln!("nordlys-cli: {}", above_available(plan.buy_nok, available));
            }
            print(&serde_json::json!({ "planId": id }))
        }
        PlansCommand::Pause { id } | PlansCommand::Resume { id } | PlansCommand::Remove { id } => {
            match command {
                PlansCommand::Remove { .. } => cases::remove(&store, *id),
                PlansCommand::Pause { .. } => cases::set_paused(&store, *id, true, now),
                _ => cases::set_paused(&store, *id, false, now),
            }
            .map_err(|e| match e {
                PlanCaseError::Store(e) => stored(e),
                other => Failure::Refused(other.to_string()),
            })?;
            print(&serde_json::json!({ "planId": id }))
        }
        PlansCommand::RunDue { now: at } => {
            let at = time("now", at.clone())
                .map_err(Failure::Usage)?
                .unwrap_or(now);
            let creds = credentials::load(
                &cli.operator,
                cli.base_url.as_deref(),
                &credentials::OsKeyring,
                environment::EnvCredentials::read(),
            )
            .map_err(Failure::Refused)?;
            if creds.key.is_none() && creds.bearer.is_none() {
                return Err(Failure::Refused(
                    "no credentials: set NORDLYS_API_KEY and NORDLYS_API_SECRET, or run `login`"
                        .into(),
                ));
            }
            let client = client(cli, creds)?;
            let runtime = runtime()?;
            let store = runtime.block_on(store_for(&client))?;
            let due = runtime
                .block_on(async {
                    let turn = store.money_turn().await;
                    cases::run_due(&client, &store, at, &turn).await
                })
                .map_err(|e| Failure::Refused(e.to_string()))?;
            for e in &due.elsewhere {
                eprintln!("nordlys-cli: {}", elsewhere_line(e));
            }
            let recorded = due.recorded;
            let shown: Vec<RecordedJson> = recorded.iter().map(Into::into).collect();
            print(&shown)?;
            if let Some(r) = cases::unknown_run(&recorded) {
                eprintln!(
                    "nordlys-cli: plan {}: the order of journal entry {} may or may not have been placed; `journal check` looks again",
                    r.plan_id,
                    r.journal_id.unwrap_or_default()
                );
                return Err(Failure::Silent(3));
            }
            Ok(())
        }
    }
}

/// The NOK available now when it is less than `buy`, when credentials and a base URL are at
/// hand; none otherwise.
fn available_nok(cli: &Cli, buy: Nok) -> Option<Nok> {
    cli.base_url.as_ref()?;
    let creds = credentials::load(
        &cli.operator,
        cli.base_url.as_deref(),
        &credentials::OsKeyring,
        environment::EnvCredentials::read(),
    )
    .ok()?;
    creds.key.as_ref()?;
    let client = client(cli, creds).ok()?;
    let runtime = runtime().ok()?;
    runtime.block_on(cases::above_available(&client, buy))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    #[test]
    fn a_plan_prints_in_the_documented_shape() {
        let store = Store::in_memory().unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-24T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let form = PlanForm {
            buy_nok: "500".into(),
            every: "week".into(),
            on: Some("mon".into()),
            at: "07:00".into(),
            max_price: Some("1000000".into()),
            ..PlanForm::default()
        };
        let id = add(&store, &form, now).unwrap();
        let month = PlanForm {
            buy_nok: "250.5".into(),
            every: "month".into(),
            on: Some("31".into()),
            at: "12:00".into(),
            ..PlanForm::default()
        };
        add(&store, &month, now).unwrap();
        let v = serde_json::to_value(list(&store, now).unwrap()).unwrap();
        assert_eq!(
            v[0],
            serde_json::json!({
                "planId": id, "buyNok": 500, "ladder": null, "every": "week", "on": "mon", "at": "07:00",
                "account": null, "accountIds": [], "maxPrice": 1000000, "missed": "skip", "paused": false,
                "nextSlot": "2026-11-30T06:00:00Z", "runs": []
            })
        );
        assert_eq!(v[1]["on"], 31);
        assert_eq!(v[1]["buyNok"], 250.5);
        assert_eq!(v[1]["nextSlot"], "2026-11-30T11:00:00Z");
    }

    #[test]
    fn a_wrong_plan_is_refused_and_nothing_is_stored() {
        let store = Store::in_memory().unwrap();
        let form = PlanForm {
            buy_nok: "-1".into(),
            every: "week".into(),
            on: Some("mon".into()),
            at: "07:00".into(),
            ..PlanForm::default()
        };
        assert!(add(&store, &form, Utc::now()).is_err());
        assert!(store.plans().all().unwrap().is_empty());
    }
}
