//! `startbench NORDLYS EMPTY [RUNS]`: cold start to a painted window (for Nordlys: one showing
//! balances) and idle memory (app plus WebKit processes), each against an empty Tauri window built
//! with the same profile, measured in the same run. Prints a table; targets are start ≤ 1.5× and
//! memory ≤ 1.3×.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::float_arithmetic,
    reason = "a benchmark tool run by a script; timings and megabytes are floats, not money"
)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nordlys_e2e::App;

/// CPU time (user + system, in clock ticks) of the app and its children so far.
fn cpu_ticks(app: &App) -> u64 {
    app.pids()
        .iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .filter_map(|stat| {
            let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
        })
        .sum()
}

async fn measure(binary: &Path, ready: &str, runs: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut starts, mut memories) = (vec![], vec![]);
    for _ in 0..runs {
        let t0 = Instant::now();
        let app = App::start_binary(binary, &[]).await;
        app.text(ready).await;
        starts.push(t0.elapsed().as_secs_f64() * 1000.0);
        tokio::time::sleep(Duration::from_secs(5)).await;
        memories.push(app.memory() as f64 / 1_048_576.0);
        app.quit().await;
    }
    (starts, memories)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nordlys = PathBuf::from(&args[1]);
    let empty = PathBuf::from(&args[2]);
    let runs = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(5);
    let (base_start, base_mem) = measure(&empty, "#ready", runs).await;
    let (start, mem) = measure(&nordlys, "[data-testid=account-row]", runs).await;
    // Idle CPU with the live price on: 30 s of a window left alone on the overview.
    let app = App::start_binary(&nordlys, &[]).await;
    app.text("[data-testid=account-row]").await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let before = cpu_ticks(&app);
    tokio::time::sleep(Duration::from_secs(30)).await;
    let idle_percent = (cpu_ticks(&app) - before) as f64 / 100.0 / 30.0 * 100.0;
    app.quit().await;
    let (bs, bm, s, m) = (
        median(base_start),
        median(base_mem),
        median(start),
        median(mem),
    );
    println!("| what | Nordlys | empty Tauri window | ratio | target |");
    println!("|---|---|---|---|---|");
    println!(
        "| cold start to painted window (median of {runs}) | {s:.0} ms | {bs:.0} ms | {:.2}× | ≤ 1.5× |",
        s / bs
    );
    println!(
        "| idle memory, app + WebKit processes | {m:.0} MB | {bm:.0} MB | {:.2}× | ≤ 1.3× |",
        m / bm
    );
    println!(
        "| idle CPU with the live price on, 30 s | {idle_percent:.2} % of one core | — | — | < 2 % |"
    );
}
