//! `startbench NORDLYS NORDLYS_HOOKS EMPTY [RUNS]`: the real window against an empty Tauri window,
//! all release builds, measured in the same run. NORDLYS is the app as `scripts/package` ships
//! it; NORDLYS_HOOKS the same code built with the `bench-hooks` feature, which reads the test
//! switches (a slow embedded exchange, its control API for a long history).
//! - cold start to painted balances, median of RUNS (≤ 1.3× the empty window's start);
//! - idle memory of the app and its WebKit processes 5 s after (≤ 1.1×), and the floor under it:
//!   the empty window showing the app's overview frozen as HTML and CSS, no script;
//! - idle CPU with the live price on over 30 s, the pointer resting over the window (< 1 % of a core);
//! - with every exchange answer delayed 3 s, the navigation painted (≤ 1.3× the empty start);
//! - a scripted scroll of the tax list of `HISTORY` transactions (1,000,000 unless set), from the
//!   first row to the last and to 5 random rows: the 95th percentile and the longest of the
//!   `requestAnimationFrame` intervals, median of 3 runs (≤ 20 ms and ≤ 50 ms).
//!
//! Prints a table whose rows `scripts/perf-table` takes over.
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

/// CPU time (user + system, in clock ticks) of these processes so far.
fn cpu_ticks(pids: &[u32]) -> u64 {
    pids.iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .filter_map(|stat| {
            let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
        })
        .sum()
}

/// Returns once `css` is on `app`'s screen, looked for every 10 ms: at the 100 ms of the tests'
/// waits, a window not ready at the first look (ours) paid up to 100 ms more than one that is
/// (the empty window). A script waiting in the page cannot stand in: WebDriver's first script
/// in a page costs some 250 ms of its own.
async fn shown(app: &App, css: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !app.exists(css).await {
        assert!(Instant::now() < deadline, "{css} shown within 30 s");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Whose window a run starts: Nordlys' is ended by [`App::quit`], which checks what its content
/// security policy blocked; the empty window has no such record.
#[derive(Clone, Copy)]
enum Window {
    Nordlys,
    Empty,
}

/// Milliseconds from launch until `ready` is on screen, and megabytes in use 5 s later, per run.
async fn measure(
    binary: &Path,
    window: Window,
    env: &[(&str, &str)],
    ready: &str,
    runs: usize,
) -> (Vec<f64>, Vec<f64>) {
    let (mut starts, mut memories) = (vec![], vec![]);
    for _ in 0..runs {
        let t0 = Instant::now();
        let app = App::start_binary(binary, env).await;
        shown(&app, ready).await;
        starts.push(t0.elapsed().as_secs_f64() * 1000.0);
        tokio::time::sleep(Duration::from_secs(5)).await;
        memories.push(app.memory() as f64 / 1_048_576.0);
        match window {
            Window::Nordlys => app.quit().await,
            Window::Empty => app.close().await,
        }
    }
    (starts, memories)
}

/// What the empty window shows once painted.
const EMPTY_READY: &str = "#ready";

/// What the overview shows once its balances are painted.
const OVERVIEW_READY: &str = "[data-testid=account-row]";

/// The overview as the app shows it when its memory is measured, frozen: its HTML with the
/// stylesheet inline and every script and link taken out, written to a file in `dir`. Shown by
/// the empty window (`EMPTY_WINDOW_PAGE`), it is what WebKit needs for the same picture with
/// none of the app's code.
async fn frozen_overview(nordlys: &Path, dir: &Path) -> PathBuf {
    let app = App::start_binary(nordlys, &[]).await;
    shown(&app, OVERVIEW_READY).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let html = app
        .script("return document.documentElement.outerHTML;", vec![])
        .await;
    app.quit().await;
    let mut html = html.as_str().unwrap().to_owned();
    for (open, close) in [("<script", "</script>"), ("<link", ">")] {
        while let Some(start) = html.find(open) {
            let end = html[start..].find(close).unwrap() + start + close.len();
            html.replace_range(start..end, "");
        }
    }
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/dist/assets");
    let css: String = std::fs::read_dir(&assets)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "css"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let head = html.find("</head>").unwrap();
    html.insert_str(head, &format!("<style>{css}</style>"));
    let page = dir.join("overview.html");
    std::fs::write(&page, format!("<!DOCTYPE html>{html}")).unwrap();
    page
}

/// Percent of one core `binary` and its WebKit processes use over 30 s in which the pointer
/// comes to rest over the window, as a user's does. A window never pointed at hid a cost:
/// WebKitGTK's overlay scrollbar, on a page that scrolls, drew frames at full speed for some 3 s
/// after every move of the pointer over it (a core's worth under software compositing). The
/// window is started on its own, not under WebDriver: a WebKit window under automation takes no
/// input from the X server, and WebDriver's own pointer does not bring the cost out. Xvfb has no
/// window manager: both windows (1100 × 760) sit at the top left of the screen.
async fn idle_cpu(binary: &Path, env: &[(&str, &str)]) -> f64 {
    let home = tempfile::tempdir().unwrap();
    let mut window = std::process::Command::new(binary)
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Painted, with the first price and chart in, long before this.
    tokio::time::sleep(Duration::from_secs(15)).await;
    let pids = nordlys_e2e::with_descendants(vec![window.id()]);
    // A window that died, or never started WebKit, would read as a perfectly idle one.
    assert!(
        pids.len() > 1,
        "{}: the window's WebKit processes run",
        binary.display()
    );
    let before = cpu_ticks(&pids);
    // From outside the window into it: the pointer enters as a user's does, then rests.
    for (x, y) in [("1250", "880"), ("550", "380")] {
        let moved = std::process::Command::new("xdotool")
            .args(["mousemove", x, y])
            .status()
            .expect("xdotool (scripts/deps)");
        assert!(moved.success(), "xdotool moved the pointer");
    }
    tokio::time::sleep(Duration::from_secs(30)).await;
    let used = cpu_ticks(&pids).saturating_sub(before);
    assert!(
        window.try_wait().unwrap().is_none() && pids.iter().all(|&pid| running(pid)),
        "{}: the window and its processes stayed up while measured",
        binary.display()
    );
    window.kill().unwrap();
    window.wait().unwrap();
    used as f64 / 100.0 / 30.0 * 100.0
}

/// Whether process `pid` exists and has not ended (a zombie has).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            // The state follows the name, which is in parentheses and may hold anything.
            let (_, after_name) = stat.rsplit_once(')')?;
            after_name
                .split_whitespace()
                .next()
                .map(|state| state != "Z")
        })
        .unwrap_or(false)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The `q` quantile of `v` (nearest rank).
fn quantile(mut v: Vec<f64>, q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// Scrolls the tax list one step a frame: 120 steps from the first row to the last, then to 5
/// rows picked at random (the same ones each run), staying 30 frames on each for its rows to
/// arrive. Returns every `requestAnimationFrame` interval in ms and how many random stops showed
/// their rows drawn at the end of the stay.
const SCROLL: &str = r#"
const done = arguments[arguments.length - 1];
const v = document.querySelector('[data-testid=tax-list]');
const end = v.scrollHeight - v.clientHeight;
const steps = [];
if (arguments[0] === "still") {
  for (let k = 0; k < 300; k++) steps.push({ top: v.scrollTop });
} else {
  for (let k = 0; k <= 120; k++) steps.push({ top: (k / 120) * end });
  for (let k = 0; k < 30; k++) steps.push({ top: end });
  let seed = 20261127;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let r = 0; r < 5; r++) {
    const top = Math.floor(random() * end);
    for (let k = 0; k < 30; k++) steps.push({ top, check: k === 29 });
  }
}
const intervals = [];
let drawn = 0, last = null, i = 0;
function frame(now) {
  if (last !== null) intervals.push(now - last);
  last = now;
  if (i > 0 && steps[i - 1].check) {
    const rows = v.querySelectorAll('[data-testid=tax-row]');
    const top = v.getBoundingClientRect().top;
    if ([...rows].some((row) => Math.abs(row.getBoundingClientRect().top - top) < 60)) drawn++;
  }
  if (i < steps.length) {
    v.scrollTop = steps[i++].top;
    requestAnimationFrame(frame);
  } else {
    done({ intervals, drawn });
  }
}
requestAnimationFrame(frame);
"#;

/// Syncs `history` transactions into the app, then runs [`SCROLL`] three times. Returns each
/// run's 95th percentile and longest interval, the random stops drawn in all runs, the 95th
/// percentile of the frames of the list left alone, and the same two figures for a static list
/// scrolled the same way (the baseline: what this display gives).
async fn scroll(binary: &Path, history: u64) -> (Vec<(f64, f64)>, u64, f64, Vec<(f64, f64)>) {
    let app = App::start_binary(binary, &[]).await;
    app.text("[data-testid=total-btc]").await;
    app.control(
        "/sandbox/history",
        serde_json::json!({ "transactions": history }),
    )
    .await;
    app.open_tax().await;
    let t0 = Instant::now();
    app.click("[data-testid=tax-sync]").await;
    app.until_tax_synced(Duration::from_secs(1800)).await;
    eprintln!(
        "synced {history} transactions in the window in {:.0} s",
        t0.elapsed().as_secs_f64()
    );
    // The window settles after the sync (the list and its facets read again): measured after.
    tokio::time::sleep(Duration::from_secs(10)).await;
    let (mut runs, mut drawn) = (vec![], 0);
    for _ in 0..3 {
        let (intervals, stops) = frames(&app, "scroll").await;
        drawn += stops;
        let longest = intervals.iter().copied().fold(0.0, f64::max);
        runs.push((quantile(intervals, 0.95), longest));
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
    app.screenshot("bench-tax-list-scrolled").await;
    tokio::time::sleep(Duration::from_secs(10)).await;
    let (still, _) = frames(&app, "still").await;
    // The floor: 3,000 copies of a drawn row in a plain scrolling box of the list's size and
    // style, nothing virtual, no script, no backend, scrolled the same way. What every frame of
    // a moving list costs this display (software rendering under Xvfb here).
    let copies = app.script(STATIC_LIST, vec![]).await;
    assert_eq!(copies.as_u64(), Some(3000), "the static list was not made");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut floor = vec![];
    for _ in 0..3 {
        let (intervals, _) = frames(&app, "scroll").await;
        let longest = intervals.iter().copied().fold(0.0, f64::max);
        floor.push((quantile(intervals, 0.95), longest));
    }
    app.quit().await;
    (runs, drawn, quantile(still, 0.95), floor)
}

/// Puts a plain copy of the list in its place: the same box, 3,000 copies of its first row.
const STATIC_LIST: &str = r#"
const v = document.querySelector('[data-testid=tax-list]');
const copy = document.createElement('div');
copy.className = v.className;
copy.setAttribute('data-testid', 'tax-list');
const rows = document.createElement('div');
const first = v.querySelector('[data-testid=tax-row]');
for (let i = 0; i < 3000; i++) rows.appendChild(first.cloneNode(true));
copy.appendChild(rows);
v.parentNode.replaceChild(copy, v);
return copy.querySelectorAll('[data-testid=tax-row]').length;
"#;

/// 300 `requestAnimationFrame` intervals of a window left alone, in ms.
const STILL: &str = r#"
const done = arguments[arguments.length - 1];
const intervals = [];
let last = null;
function frame(now) {
  if (last !== null) intervals.push(now - last);
  last = now;
  if (intervals.length < 300) requestAnimationFrame(frame);
  else done(intervals);
}
requestAnimationFrame(frame);
"#;

/// The 95th percentile of the frame intervals of the empty window left alone: what this display
/// gives at best.
async fn empty_frames(binary: &Path) -> f64 {
    let app = App::start_binary(binary, &[]).await;
    app.text(EMPTY_READY).await;
    let answer = tokio::time::timeout(
        Duration::from_secs(120),
        app.client.execute_async(STILL, vec![]),
    )
    .await
    .expect("the frames ended within 2 minutes")
    .expect("the frame script ran");
    app.close().await;
    let intervals = answer
        .as_array()
        .expect("intervals")
        .iter()
        .filter_map(serde_json::Value::as_f64)
        .collect();
    quantile(intervals, 0.95)
}

/// Runs [`SCROLL`] in `mode` ("scroll", or "still": 300 frames of the list left alone).
async fn frames(app: &App, mode: &str) -> (Vec<f64>, u64) {
    let answer = tokio::time::timeout(
        Duration::from_secs(120),
        app.client.execute_async(SCROLL, vec![mode.into()]),
    )
    .await
    .expect("the scroll ended within 2 minutes")
    .expect("the scroll script ran");
    let intervals = answer["intervals"]
        .as_array()
        .expect("intervals")
        .iter()
        .filter_map(serde_json::Value::as_f64)
        .collect();
    (intervals, answer["drawn"].as_u64().unwrap_or(0))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nordlys = PathBuf::from(&args[1]);
    let hooks = PathBuf::from(&args[2]);
    let empty = PathBuf::from(&args[3]);
    let runs = args.get(4).and_then(|r| r.parse().ok()).unwrap_or(10);
    let history: u64 = std::env::var("HISTORY")
        .ok()
        .and_then(|h| h.parse().ok())
        .unwrap_or(1_000_000);

    let (base_start, base_mem) = measure(&empty, Window::Empty, &[], EMPTY_READY, runs).await;
    let (start, mem) = measure(&nordlys, Window::Nordlys, &[], OVERVIEW_READY, runs).await;
    let frozen_dir = tempfile::tempdir().unwrap();
    let frozen = frozen_overview(&nordlys, frozen_dir.path()).await;
    let frozen = frozen.to_str().unwrap();
    let (_, frozen_mem) = measure(
        &empty,
        Window::Empty,
        &[("EMPTY_WINDOW_PAGE", frozen)],
        OVERVIEW_READY,
        runs,
    )
    .await;
    let slow = [("NORDLYS_SANDBOX_LATENCY_MS", "3000")];
    let (slow_start, _) = measure(
        &hooks,
        Window::Nordlys,
        &slow,
        "[data-testid=nav-tax]",
        runs.min(5),
    )
    .await;

    // Idle CPU with the live price on: 30 s of a window left alone on the overview, the pointer
    // over it. Two baselines, measured the same way: the empty window left alone (what WebKit
    // takes doing nothing), and the empty window showing one number that changes every 5 s, as
    // the live price does (the floor of what a live price costs this display).
    let idle_percent = idle_cpu(&nordlys, &[]).await;
    let empty_idle_percent = idle_cpu(&empty, &[]).await;
    let ticking_percent = idle_cpu(&empty, &[("EMPTY_WINDOW_TICKING", "1")]).await;

    let (scrolls, drawn, still, floor) = scroll(&hooks, history).await;
    let empty_still = empty_frames(&empty).await;
    let p95 = median(scrolls.iter().map(|s| s.0).collect());
    let longest = median(scrolls.iter().map(|s| s.1).collect());
    let floor_p95 = median(floor.iter().map(|s| s.0).collect());
    let floor_longest = median(floor.iter().map(|s| s.1).collect());

    let (bs, bm, s, m, slow, fm) = (
        median(base_start),
        median(base_mem),
        median(start),
        median(mem),
        median(slow_start),
        median(frozen_mem),
    );
    println!("| what | Nordlys | empty Tauri window | ratio | target |");
    println!("|---|---|---|---|---|");
    println!(
        "| cold start to painted balances, release (median of {runs}) | {s:.0} ms | {bs:.0} ms | {:.2}× | ≤ 1.3× |",
        s / bs
    );
    println!(
        "| idle memory, app + WebKit processes, release | {m:.0} MB | {bm:.0} MB | {:.2}× | ≤ 1.1× |",
        m / bm
    );
    println!(
        "| idle memory's floor: the empty window showing the overview frozen as HTML and CSS, no script | {fm:.0} MB | {bm:.0} MB | {:.2}× | — |",
        fm / bm
    );
    println!(
        "| idle CPU with the live price on, pointer over the window, 30 s, release | {idle_percent:.2} % of one core | the empty window with one number changing every 5 s: {ticking_percent:.2} % (left alone: {empty_idle_percent:.2} %) | {:.2}× | < 1 % |",
        idle_percent / ticking_percent
    );
    println!(
        "| navigation painted with every exchange answer 3 s late (median of {}) | {slow:.0} ms | {bs:.0} ms | {:.2}× | ≤ 1.3× |",
        runs.min(5),
        slow / bs
    );
    println!(
        "| tax list of {history} rows scrolled first → last → 5 random rows: 95th percentile frame interval (median of 3; {drawn} of 15 stops drawn; the list left alone {still:.0} ms, the empty window {empty_still:.0} ms) | {p95:.1} ms | 3,000 plain rows in the same box, scrolled the same way: {floor_p95:.1} ms | {:.2}× | ≤ 20 ms |",
        p95 / floor_p95
    );
    println!(
        "| the same scroll: longest frame interval (median of 3) | {longest:.1} ms | the plain rows: {floor_longest:.1} ms | {:.2}× | ≤ 50 ms |",
        longest / floor_longest
    );
}
