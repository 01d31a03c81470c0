#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "a stress test: a failed step is the failure being reported, and its figures are printed"
)]
//! Recurring buys and limit ladders placed exactly once. The app's scheduler (`plans::run_plans_at`, what its
//! watcher runs) in this process and `nordlys-cli plans run-due` are started together, again and
//! again, on one state directory, against a sandbox that loses answers and commits after the
//! client gave up. Afterwards every order the sandbox made is held against the journal:
//! - no slot is placed twice: each run has one journal entry, the sandbox made each entry's
//!   reference at most once, and made no more orders than runs were sent;
//! - every order the sandbox made is journaled, and no verdict contradicts it;
//! - every lost answer is settled by evidence or still shown unknown (never "sending").
//!
//! `PLANS_STRESS_ROUNDS` (default 100) sets how often both are started; `PLANS_STRESS_READINGS`
//! (JSON, as the soak matrix's cells: `{"partialFill": 40}`) sets the sandbox's readings of what
//! the spec leaves open; `PLANS_STRESS_VERBOSE` prints each plan's runs and every entry left
//! unresolved with its last evidence.

mod app_driver;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use app_driver::connected_app;
use chrono::{DateTime, TimeZone, Utc};
use nordlys_application::{NoArgs, plans, trading, unknowns, watcher};
use nordlys_core::plans::{PlanForm, RunState};
use nordlys_core::store::JournalState;
use nordlys_sandbox::{FaultKind, FaultRule};
use nordlys_tests::*;

fn cli_binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(std::path::Path::parent).unwrap();
    let path = dir.join("nordlys-cli");
    assert!(
        path.exists(),
        "{} is missing: build it first (cargo build -p nordlys-cli)",
        path.display()
    );
    path
}

fn faults() -> Vec<FaultRule> {
    let rule = |kind, percent, delay_ms| FaultRule {
        path: "/v1/orders".into(),
        method: Some("POST".into()),
        kind,
        count: None,
        percent: Some(percent),
        delay_ms,
    };
    vec![
        rule(FaultKind::CommitLate, 5, 300),
        rule(FaultKind::CommitThenDrop, 6, 0),
        rule(FaultKind::Http500, 4, 0),
        rule(FaultKind::Drop, 3, 0),
    ]
}

/// 07:30 in Oslo on the `day`th day after 1 March 2030: every plan below is due.
fn morning(day: i64) -> DateTime<Utc> {
    let date = chrono::NaiveDate::from_ymd_opt(2030, 3, 1).unwrap() + chrono::Duration::days(day);
    nordlys_core::time::OSLO
        .from_local_datetime(&date.and_hms_opt(7, 30, 0).unwrap())
        .earliest()
        .unwrap()
        .with_timezone(&Utc)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_and_the_cli_started_together_place_each_slot_at_most_once() {
    let rounds = env_number("PLANS_STRESS_ROUNDS", 100) as i64;
    let started = Instant::now();
    let sb = sandbox().await;
    if let Ok(text) = std::env::var("PLANS_STRESS_READINGS") {
        let patch: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut world = sb.state.lock();
        world.readings = world.readings.patched(&patch).unwrap();
    }
    let quiet = 1;
    let (app, dir) = connected_app(&sb, Some((chrono::Duration::seconds(quiet), 1))).await;
    let state = dir.path().join("profiles/exchange");
    let store = app_driver::profile_db(&app, dir.path(), "exchange");
    // Three daily buys and a daily ladder of three rungs (each run first cancels the rungs of
    // the one before still open); made the day before the first round.
    for (at, nok, ladder) in [
        ("07:00", "100", false),
        ("07:05", "110", false),
        ("07:10", "120", false),
        // Rungs of 90 NOK: an unknown limit buy makes every market buy below its amount
        // ambiguous (a partial fill could be it), so the ladder's rungs are below the buys.
        ("07:15", "270", true),
    ] {
        let plan = PlanForm {
            buy_nok: nok.into(),
            every: "day".into(),
            at: at.into(),
            rungs: ladder.then(|| "3".into()),
            step: ladder.then(|| "1".into()),
            ..PlanForm::default()
        }
        .parse()
        .unwrap();
        store.plans().add(&plan, None, morning(-1)).unwrap();
    }
    for rule in faults() {
        sb.state.add_fault(rule);
    }
    let key = &sb.info.api_keys.withdrawal;
    let mut exits: HashMap<i32, usize> = HashMap::new();
    let mut settled_by_user = 0;
    let mut seen_placed_by_user = 0;
    for day in 0..rounds {
        let now = morning(day);
        let mut c = std::process::Command::new(cli_binary());
        c.args(["plans", "run-due", "--now", &now.to_rfc3339()])
            .env("NORDLYS_BASE_URL", sb.base_url())
            .env("NORDLYS_API_KEY", &key.key)
            .env("NORDLYS_API_SECRET", &key.secret)
            .env("NORDLYS_STATE_DIR", &state)
            .env(
                "NORDLYS_TEST_KEYRING_DIR",
                app_driver::keyring_dir(dir.path()),
            )
            .env("NORDLYS_TIMEOUT", "1");
        let cli = tokio::task::spawn_blocking(move || c.output());
        let (cli, ours) = tokio::join!(cli, plans::run_plans_at(&app, now));
        let cli = cli.unwrap().unwrap();
        let code = cli.status.code().unwrap_or(-1);
        assert!(
            [0, 3].contains(&code),
            "run-due exited {code}: {}",
            String::from_utf8_lossy(&cli.stderr)
        );
        *exits.entry(code).or_default() += 1;
        // The app's look fails only when the exchange cannot be asked at all; what it sent is
        // in the journal either way.
        drop(ours);
        // A lost answer holds its plan until evidence settles it: the watcher's look at unknown
        // outcomes, once the (shortened) quiet period has passed.
        if !store.orders().unresolved().unwrap().is_empty() {
            trading::resolve_orders(&app, NoArgs {}).await.unwrap();
        }
        if !store.orders().unresolved().unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(quiet as u64 * 1000 + 300)).await;
            trading::resolve_orders(&app, NoArgs {}).await.unwrap();
        }
        // Silence never settles a limit order (one cancelled leaves no trace), so an unknown rung
        // holds its ladder until the user looks at the exchange and settles it: played here from
        // the sandbox's own record. A rung it never made is settled not placed; one it made,
        // placed, named by its order while that is open (so the next run can cancel it).
        let mut never_made = vec![];
        let mut seen_placed = vec![];
        {
            let world = sb.state.lock();
            for e in store.orders().unresolved().unwrap() {
                if e.state != JournalState::Unknown
                    || e.order_type != nordlys_core::order_terms::OrderType::Limit
                {
                    continue;
                }
                match world
                    .orders
                    .iter()
                    .find(|o| reference(&o.description) == Some(e.reference.as_str()))
                {
                    None => never_made.push(e.id),
                    Some(o) => seen_placed.push((e.id, o.is_open().then(|| o.id.clone()))),
                }
            }
        }
        for journal_id in never_made {
            let args = nordlys_application::unknown_views::JournalIdArgs { journal_id };
            if unknowns::settle_unknown(&app, &app.money_turn().await, args)
                .await
                .is_ok()
            {
                settled_by_user += 1;
            }
        }
        for (journal_id, order_id) in seen_placed {
            let args = nordlys_application::unknown_views::SettlePlacedArgs {
                journal_id,
                order_id,
            };
            let settled =
                unknowns::settle_unknown_placed(&app, &app.money_turn().await, args).await;
            // Refused only when evidence settled it meanwhile.
            if settled.is_ok() {
                seen_placed_by_user += 1;
            }
        }
    }
    sb.state.clear_faults();
    tokio::time::sleep(Duration::from_secs(quiet as u64 + 3)).await;
    for _ in 0..2 {
        trading::resolve_orders(&app, NoArgs {}).await.unwrap();
        watcher::look(&app).await.unwrap();
        tokio::time::sleep(Duration::from_secs(1)).await;
    }

    // What the sandbox made, by the reference each order carries.
    let made: HashMap<String, usize> = {
        let world = sb.state.lock();
        let mut made = HashMap::new();
        for o in &world.orders {
            if let Some(r) = reference(&o.description) {
                *made.entry(r.to_owned()).or_default() += 1;
            }
        }
        made
    };
    let created = control_get(&sb, "/sandbox/counters").await["ordersCreated"]
        .as_u64()
        .unwrap_or(0);

    let mut by_state: HashMap<&'static str, usize> = HashMap::new();
    let mut sent_runs = 0;
    let mut sent_orders = 0;
    let mut journaled = std::collections::HashSet::new();
    for plan in store.plans().all().unwrap() {
        let runs = store.plans().runs(plan.id).unwrap();
        // One run per slot: the store's key; and no slot of a plan beyond the rounds.
        let mut slots: Vec<_> = runs.iter().map(|r| r.slot).collect();
        slots.dedup();
        assert_eq!(slots.len(), runs.len());
        if std::env::var_os("PLANS_STRESS_VERBOSE").is_some() {
            let states: Vec<&str> = runs.iter().map(|r| r.state.text()).collect();
            println!(
                "plan {} ladder {:?}: {states:?}",
                plan.id,
                plan.ladder.is_some()
            );
            for e in store.orders().unresolved().unwrap() {
                let last = store
                    .journal()
                    .evidence(e.id)
                    .unwrap()
                    .pop()
                    .map(|v| v.saw());
                let made = made.contains_key(&e.reference);
                println!(
                    "  unresolved {} {:?} {:?} made {made}: {last:?}",
                    e.id, e.order_type, e.amount
                );
            }
        }
        for r in &runs {
            *by_state.entry(r.state.text()).or_default() += 1;
            assert_ne!(r.state, RunState::Sending, "a run left sending: {r:?}");
            let Some(first) = r.journal_id else { continue };
            sent_runs += 1;
            let ids: Vec<i64> = if r.rungs.is_empty() {
                vec![first]
            } else {
                assert_eq!(r.rungs.len(), 3, "a ladder run journals every rung: {r:?}");
                r.rungs.iter().map(|g| g.journal_id).collect()
            };
            for id in ids {
                sent_orders += 1;
                assert!(journaled.insert(id), "journal entry {id} serves two orders");
                let e = store.orders().entry(id).unwrap().unwrap();
                let was_made = made.contains_key(&e.reference);
                match e.state {
                    JournalState::Placed => assert!(was_made, "placed but not made: {e:?}"),
                    JournalState::NotPlaced | JournalState::Rejected => {
                        assert!(!was_made, "made but judged {:?}: {e:?}", e.state)
                    }
                    JournalState::Unknown | JournalState::Sending => {}
                }
            }
        }
    }
    let duplicates = made.values().filter(|n| **n > 1).count();
    // Only the last ladder run's rungs may still be open: each run cancels those before it.
    let open_rungs = sb
        .state
        .lock()
        .orders
        .iter()
        .filter(|o| o.is_open() && o.description.contains("rung"))
        .count();
    let unjournaled = made.len()
        - store
            .orders()
            .since(Utc::now() - chrono::Duration::days(1))
            .unwrap()
            .iter()
            .filter(|e| made.contains_key(&e.reference))
            .count();
    println!(
        "plans stress | {rounds} rounds, app and CLI together | runs {by_state:?} | {sent_runs} runs \
         sent, {sent_orders} orders | {} made ({created} orders in all) | duplicates {duplicates} | \
         unjournaled {unjournaled} | open ladder rungs {open_rungs} | rungs settled by the user \
         {settled_by_user} not placed, {seen_placed_by_user} placed | CLI exits {exits:?} | {:.0} s",
        made.len(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(duplicates, 0, "an order made twice");
    assert_eq!(unjournaled, 0, "an order made without a journal entry");
    assert!(
        created as usize <= sent_orders,
        "{created} orders made for {sent_orders} orders sent: one was sent again"
    );
    assert!(
        open_rungs <= 3,
        "{open_rungs} ladder rungs open: a run did not cancel the rungs before it"
    );
    assert!(sent_runs > 0 && by_state.get("placed").copied().unwrap_or(0) > 0);
}

/// A plan's run holds the money turn, as every other money command does: a profile switch asked
/// for while the run's order is on its way waits until the run has ended, so the order and its
/// journal entry stay with the profile the plan belongs to (the run took no turn before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_switch_waits_for_a_plan_run_in_progress() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let plan = PlanForm {
        buy_nok: "100".into(),
        every: "day".into(),
        at: "07:00".into(),
        ..PlanForm::default()
    }
    .parse()
    .unwrap();
    app.session()
        .await
        .unwrap()
        .store
        .plans()
        .add(&plan, None, morning(-1))
        .unwrap();
    // The order's answer takes a second and a half.
    sb.state.add_fault(FaultRule {
        path: "/v1/orders".into(),
        method: Some("POST".into()),
        kind: FaultKind::Delay,
        count: Some(1),
        percent: None,
        delay_ms: 1_500,
    });
    let run = tokio::spawn({
        let app = app.clone();
        async move {
            let changes = plans::run_plans_at(&app, morning(0)).await;
            (Instant::now(), changes)
        }
    });
    tokio::time::sleep(Duration::from_millis(400)).await;
    app_driver::switch_profile(&app, "sandbox").await.unwrap();
    let switched = Instant::now();
    let (ran, changes) = run.await.unwrap();
    changes.unwrap();
    assert!(
        switched >= ran,
        "the profile switched {:?} before the plan's run ended",
        ran - switched
    );
}
