//! The E2E rig: starts the built app through tauri-driver (WebKitWebDriver underneath) with its
//! own home directory, an embedded sandbox on a port the app picks (and writes down for the rig),
//! and an `xdg-open` that records the URL the app asks
//! the system to open, so a test can play the browser. Run inside `dbus-run-session` with an
//! unlocked gnome-keyring (see `scripts/e2e`), so the real Secret Service keyring is used.
#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::unwrap_used,
    reason = "test rig: a broken set-up must stop the test loudly"
)]

use std::ops::Not;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

/// The sandbox seed the app uses in tests; its API keys follow from it.
pub const SEED: u64 = 1;
/// The embedded sandbox's control token in the E2E runs (debug builds take it from the environment).
pub const CONTROL_TOKEN: &str = "nordlys-e2e-control";

#[allow(
    missing_debug_implementations,
    reason = "holds a WebDriver client and a child process"
)]
pub struct App {
    pub client: Client,
    pub home: tempfile::TempDir,
    /// Where the app writes its embedded sandbox's address once it listens.
    sandbox_file: PathBuf,
    driver: Child,
    opened: PathBuf,
    binary: PathBuf,
}

/// How long one WebDriver command or HTTP request may take before the test fails as hung. A
/// command that never answers would otherwise hold CI until its own limit, with nothing said.
const STEP_LIMIT: Duration = Duration::from_secs(60);

/// Awaits `step`, or records what the machine looked like and fails the test if it takes longer
/// than [`STEP_LIMIT`].
pub async fn bounded<T>(what: &str, step: impl std::future::Future<Output = T>) -> T {
    match tokio::time::timeout(STEP_LIMIT, step).await {
        Ok(v) => v,
        Err(_) => {
            let report = hang_report(what);
            panic!("{what} did not finish within {STEP_LIMIT:?}; {report}");
        }
    }
}

/// `what` as a file name: letters and digits, the rest dashes, at most 60 characters.
fn file_name(what: &str) -> String {
    what.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(60)
        .collect()
}

/// Writes a picture of the screen and the state of every process to `target/e2e-screenshots/`
/// (neither needs WebDriver, which is what hung), and says where.
fn hang_report(what: &str) -> String {
    let dir = workspace().join("target/e2e-screenshots");
    let _ = std::fs::create_dir_all(&dir);
    let name = file_name(what);
    let png = dir.join(format!("hang-{name}.png"));
    let _ = Command::new("import")
        .args(["-window", "root"])
        .arg(&png)
        .status();
    let ps = Command::new("ps")
        .args(["-eo", "pid,ppid,stat,wchan:32,etime,time,rss,args"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let txt = dir.join(format!("hang-{name}.txt"));
    let _ = std::fs::write(&txt, &ps);
    eprintln!("processes when {what} hung:\n{ps}");
    format!(
        "screen in {}, processes in {}",
        png.display(),
        txt.display()
    )
}

/// An HTTP client whose requests fail after [`STEP_LIMIT`] instead of waiting for ever.
pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(STEP_LIMIT)
        .build()
        .expect("an HTTP client")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `nordlys-cli`, built when missing (the workspace's tests build it before the E2E suite runs).
pub fn cli_binary() -> PathBuf {
    let path = workspace().join("target/debug/nordlys-cli");
    if !path.exists() {
        let built = Command::new("cargo")
            .args(["build", "--locked", "-q", "-p", "nordlys-cli"])
            .current_dir(workspace())
            .status()
            .unwrap();
        assert!(built.success(), "cargo build -p nordlys-cli");
    }
    path
}

/// The name the kernel knows `binary`'s process by (at most 15 characters).
fn process_name_of(binary: &Path) -> String {
    let name = binary
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.chars().take(15).collect()
}

/// The app binary: `NORDLYS_APP` or the workspace's debug build.
pub fn app_binary() -> PathBuf {
    std::env::var_os("NORDLYS_APP")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/debug/nordlys"))
}

impl App {
    pub async fn start(extra_env: &[(&str, &str)]) -> Self {
        let app = Self::start_binary(&app_binary(), extra_env).await;
        // Tests begin from a loaded app: the navigation and the first balances are on screen (a
        // cold start on a busy machine can take seconds, and a tab clicked before then is lost).
        app.text("[data-testid=total-btc]").await;
        app
    }

    /// Starts `binary` (a Tauri app) in a fresh WebDriver session.
    pub async fn start_binary(binary: &Path, extra_env: &[(&str, &str)]) -> Self {
        // No earlier app may still be running: this one would hand over to it and exit.
        end_all(&process_name_of(binary));
        // reqwest brings ring and fantoccini aws-lc: name one, or rustls refuses to choose.
        let _ = rustls::crypto::ring::default_provider().install_default();
        // Each test starts with no Nordlys secrets in the keyring.
        let _ = Command::new("timeout")
            .args([
                "30",
                "secret-tool",
                "clear",
                "service",
                "no.nordlys.desktop",
            ])
            .status();
        let home = tempfile::tempdir().unwrap();
        let bin = home.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let opened = home.path().join("opened-urls");
        let shim = bin.join("xdg-open");
        std::fs::write(
            &shim,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\n",
                opened.display()
            ),
        )
        .unwrap();
        Command::new("chmod").arg("+x").arg(&shim).status().unwrap();
        let sandbox_file = home.path().join("sandbox-address");
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let spawn_driver = |port: u16, native: u16| {
            let mut cmd = Command::new(
                std::env::var("TAURI_DRIVER").unwrap_or_else(|_| "tauri-driver".into()),
            );
            cmd.arg("--port")
                .arg(port.to_string())
                .arg("--native-port")
                .arg(native.to_string())
                .env("PATH", &path)
                .env("HOME", home.path())
                .env("XDG_DATA_HOME", home.path().join("data"))
                .env("XDG_CONFIG_HOME", home.path().join("config"))
                .env("XDG_CACHE_HOME", home.path().join("cache"))
                .env("NORDLYS_SANDBOX_PORT_FILE", &sandbox_file)
                .env(RIG_MARK, "1")
                .env("NORDLYS_SANDBOX_SEED", SEED.to_string())
                .env("NORDLYS_SANDBOX_CONTROL_TOKEN", CONTROL_TOKEN)
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            for (k, v) in extra_env {
                cmd.env(k, v);
            }
            cmd.spawn()
                .expect("tauri-driver (cargo install tauri-driver --locked)")
        };
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), "wry".into());
        caps.insert(
            "tauri:options".into(),
            serde_json::json!({ "application": binary }),
        );
        // WebKitWebDriver has been seen to hang before it starts the app (it then answers
        // nothing). A hung first session is ended with its drivers and tried once more on new
        // ports; a second hang fails the test with the machine's state, as any hung step does.
        let mut attempt = 0;
        let (client, driver) = loop {
            attempt += 1;
            let port = free_port();
            let mut driver = spawn_driver(port, free_port());
            // A loaded 2-core machine can take a while to start WebKitWebDriver and the app.
            let deadline = Instant::now() + Duration::from_secs(60);
            let session = loop {
                let mut builder = ClientBuilder::rustls().expect("tls");
                builder.capabilities(caps.clone());
                let address = format!("http://127.0.0.1:{port}");
                let connect = builder.connect(&address);
                let answered = if attempt == 1 {
                    tokio::time::timeout(STEP_LIMIT, connect).await.ok()
                } else {
                    Some(bounded("a new WebDriver session", connect).await)
                };
                match answered {
                    Some(Ok(c)) => break Some(c),
                    Some(Err(e)) if Instant::now() < deadline => {
                        let _ = e;
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Some(Err(e)) => panic!("no WebDriver session: {e}"),
                    None => break None,
                }
            };
            match session {
                Some(c) => break (c, driver),
                None => {
                    eprintln!("a new WebDriver session hung; starting the drivers again");
                    let pids = with_descendants(vec![driver.id()]);
                    let _ = Command::new("kill")
                        .arg("-9")
                        .args(pids.iter().map(u32::to_string))
                        .status();
                    let _ = driver.wait();
                    end_all(&process_name_of(binary));
                }
            }
        };
        Self {
            client,
            home,
            sandbox_file,
            driver,
            opened,
            binary: binary.to_path_buf(),
        }
    }

    fn process_name(&self) -> String {
        process_name_of(&self.binary)
    }

    /// The app's process and its descendants (the WebKit helpers).
    pub fn pids(&self) -> Vec<u32> {
        with_descendants(rig_started(&self.process_name()))
    }

    /// Resident memory of the app and its WebKit helper processes, in bytes.
    pub fn memory(&self) -> u64 {
        self.pids()
            .iter()
            .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/status")).ok())
            .filter_map(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            })
            .map(|kb| kb * 1024)
            .sum()
    }

    /// The embedded sandbox's address, as the app wrote it down once it listened (waiting up to
    /// [`STEP_LIMIT`] for it: the app starts its sandbox as it starts).
    pub fn sandbox(&self) -> String {
        let deadline = Instant::now() + STEP_LIMIT;
        loop {
            if let Ok(address) = std::fs::read_to_string(&self.sandbox_file)
                && !address.trim().is_empty()
            {
                return address.trim().trim_end_matches('/').to_owned();
            }
            assert!(
                Instant::now() < deadline,
                "the app never wrote its sandbox's address to {}",
                self.sandbox_file.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs `f` on the element `css` matches, finding it again while a re-render replaces it,
    /// for up to 15 seconds.
    async fn with_element<T, F, Fut>(&self, css: &str, f: F) -> T
    where
        F: Fn(fantoccini::elements::Element) -> Fut,
        Fut: std::future::Future<Output = Result<T, fantoccini::error::CmdError>>,
    {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Ok(e) = bounded(css, self.client.find(Locator::Css(css))).await
                && let Ok(v) = bounded(css, f(e)).await
            {
                return v;
            }
            if Instant::now() >= deadline {
                let seen = self.what_is_shown().await;
                self.screenshot(&format!("missing-{}", file_name(css)))
                    .await;
                panic!("no usable element {css}; the window showed: {seen}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn text(&self, css: &str) -> String {
        self.with_element(css, |e| async move { e.text().await })
            .await
    }

    pub async fn attr(&self, css: &str, name: &str) -> Option<String> {
        self.with_element(css, |e| async move { e.attr(name).await })
            .await
    }

    /// Chooses the radio button `css` and waits until it shows chosen.
    pub async fn choose(&self, css: &str) {
        let checked = "const e = document.querySelector(arguments[0]); return !!(e && e.checked);";
        self.click(css).await;
        self.until(&format!("{css} to show chosen"), || async {
            self.script(checked, vec![css.into()]).await == serde_json::Value::Bool(true)
        })
        .await;
    }

    /// Clicks `css` once it is enabled, as a user waits for a greyed-out button (a click on a
    /// disabled one does nothing, and the test would wait for what never comes), and once it has
    /// stayed in one place on the page for 150 ms: WebDriver clicks at a point, so a button moved
    /// by content arriving above it between the aim and the click is missed (in CI an alert's
    /// "Add alert" was, as the balances and chart filled in over it).
    pub async fn click(&self, css: &str) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline
            && self
                .with_element(css, |e| async move { e.is_enabled().await })
                .await
                .not()
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let place = "const e = document.querySelector(arguments[0]); if (!e) return null; \
                     const r = e.getBoundingClientRect(); \
                     return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];";
        let mut before = serde_json::Value::Null;
        while Instant::now() < deadline {
            let now = self.script(place, vec![css.into()]).await;
            if !now.is_null() && now == before {
                break;
            }
            before = now;
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        self.with_element(css, |e| async move { e.click().await.map(drop) })
            .await;
    }

    /// Types `value` into the field, again if an update between clearing and typing put the old
    /// text back. WebDriver's clear fires no input event, as a user's deleting does: it is told
    /// here, or the screen's state would keep the old text. The field takes the focus before the
    /// first key: WebKitWebDriver's own focusing can lag its keys, which then land in the field
    /// typed before (in CI a lock form's first password field ended 4 characters longer than typed).
    pub async fn fill(&self, css: &str, value: &str) {
        let told = "arguments[0].dispatchEvent(new Event('input', { bubbles: true })); \
                    arguments[0].focus();";
        for _ in 0..5 {
            let client = self.client.clone();
            let typed = self
                .with_element(css, |e| {
                    let client = client.clone();
                    async move {
                        e.clear().await?;
                        let element =
                            serde_json::to_value(&e).map_err(fantoccini::error::CmdError::Json)?;
                        client.execute(told, vec![element]).await?;
                        // WebDriver refuses to send no keys: an empty value is the clearing alone.
                        if !value.is_empty() {
                            e.send_keys(value).await?;
                        }
                        e.prop("value").await
                    }
                })
                .await;
            if typed.as_deref() == Some(value) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("the field {css} does not keep {value:?}");
    }

    /// Types each field's value, then reads them all back once the last is typed, and types the
    /// form again if one changed: a key that lands in the field typed before (see `fill`) alters a
    /// field already checked (in CI a lock form's two passwords then differed).
    pub async fn fill_form(&self, fields: &[(&str, &str)]) {
        for _ in 0..5 {
            for (css, value) in fields {
                self.fill(css, value).await;
            }
            let mut kept = true;
            for (css, value) in fields {
                let now = self
                    .with_element(css, |e| async move { e.prop("value").await })
                    .await;
                kept &= now.as_deref() == Some(*value);
            }
            if kept {
                return;
            }
        }
        panic!("the form does not keep what was typed: {fields:?}");
    }

    /// Puts `text` into the field in one go, as pasting does (typing a 300-character invoice key
    /// by key is not what a user does).
    pub async fn paste(&self, css: &str, text: &str) {
        let script = "const e = document.querySelector(arguments[0]); if (!e) return false; \
                      e.focus(); e.value = arguments[1]; \
                      e.dispatchEvent(new Event('input', { bubbles: true })); return true;";
        let args = vec![serde_json::json!(css), serde_json::json!(text)];
        let deadline = Instant::now() + Duration::from_secs(15);
        while bounded(css, self.client.execute(script, args.clone()))
            .await
            .ok()
            != Some(serde_json::json!(true))
        {
            assert!(Instant::now() < deadline, "no element {css} to paste into");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Presses Tab where the keyboard focus is, as a keyboard user moves through a screen.
    pub async fn press_tab(&self) {
        let tab: char = fantoccini::key::Key::Tab.into();
        let focused = bounded("the focused element", self.client.active_element())
            .await
            .expect("an element with the keyboard focus");
        bounded("pressing Tab", focused.send_keys(&tab.to_string()))
            .await
            .expect("Tab pressed");
    }

    /// Types `text` where the keyboard focus is.
    pub async fn type_keys(&self, text: &str) {
        let focused = bounded("the focused element", self.client.active_element())
            .await
            .expect("an element with the keyboard focus");
        bounded("typing", focused.send_keys(text))
            .await
            .expect("keys typed");
    }

    /// The `data-testid` of the element with the keyboard focus; empty when it is the page.
    pub async fn focused(&self) -> String {
        let js = "const e = document.activeElement; return e && e !== document.body ? (e.dataset.testid ?? e.tagName) : '';";
        match self.script(js, vec![]).await {
            serde_json::Value::String(s) => s,
            other => panic!("no answer about the focus: {other:?}"),
        }
    }

    /// Presses Tab until the element `testid` has the focus; fails after `limit` presses.
    pub async fn tab_to(&self, testid: &str, limit: usize) {
        let mut passed = Vec::new();
        for _ in 0..limit {
            let now = self.focused().await;
            if now == testid {
                return;
            }
            passed.push(now);
            self.press_tab().await;
        }
        panic!("Tab never reached {testid}; it went through {passed:?}");
    }

    /// Picks the option with `value` in the `<select>` `css` matches.
    pub async fn select(&self, css: &str, value: &str) {
        self.with_element(css, |e| async move { e.select_by_value(value).await })
            .await;
    }

    /// The serious and critical WCAG 2.1 A/AA violations axe-core finds in the window as it is,
    /// each as "rule: help — where". axe-core comes from the UI's own dev dependencies.
    pub async fn accessibility_violations(&self) -> Vec<String> {
        let loaded = self
            .script("return typeof window.axe === 'object';", vec![])
            .await;
        if loaded != serde_json::json!(true) {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../ui/node_modules/axe-core/axe.min.js");
            let source = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("axe-core at {}: {e} (npm ci in ui/)", path.display()));
            self.script(&source, vec![]).await;
        }
        let run = r"
            const done = arguments[arguments.length - 1];
            const only = { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] };
            axe.run(document, { runOnly: only, resultTypes: ['violations'] }).then(
              (r) => done(r.violations
                .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                .map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 4)
                  .map((n) => `${n.target.join(' ')} (${(n.failureSummary || '').split('\n').slice(1, 2).join('')})`)
                  .join('; ')}`)),
              (e) => done([`axe-core failed: ${e}`]));";
        let found = bounded("axe-core", self.client.execute_async(run, vec![]))
            .await
            .unwrap();
        serde_json::from_value(found).unwrap_or_else(|e| vec![format!("unreadable: {e}")])
    }

    /// What does not fit the window: the page scrolling sideways, and every shown element with
    /// text of its own that is wider than its box (an ellipsis counts) without scrolling itself.
    pub async fn overflows(&self) -> Vec<String> {
        let found = self
            .script(
                r"
            const out = [];
            const root = document.documentElement;
            if (root.scrollWidth > root.clientWidth + 1)
              out.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
            for (const el of document.body.querySelectorAll('*')) {
              if (el.closest('.visually-hidden') || el.getClientRects().length === 0) continue;
              const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
              if (!text || el.scrollWidth <= el.clientWidth + 1) continue;
              const style = getComputedStyle(el);
              if (style.display === 'inline') continue;
              if (style.overflowX === 'auto' || style.overflowX === 'scroll') continue;
              const id = el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : el.className ? `.${String(el.className).split(' ')[0]}` : '';
              out.push(`${el.tagName.toLowerCase()}${id} '${el.textContent.trim().slice(0, 40)}': ${el.scrollWidth} > ${el.clientWidth}`);
            }
            return out;",
                vec![],
            )
            .await;
        serde_json::from_value(found).unwrap_or_else(|e| vec![format!("unreadable: {e}")])
    }

    /// Whether anything matches `css` right now.
    pub async fn exists(&self, css: &str) -> bool {
        bounded(css, self.client.find(Locator::Css(css)))
            .await
            .is_ok()
    }

    /// Opens the Tax screen and waits for it to have read the sync's state: the screen is drawn
    /// again then, and a click in that moment is lost.
    pub async fn open_tax(&self) {
        self.click("[data-testid=nav-tax]").await;
        self.until("the tax screen to read the sync's state", || async {
            self.attr("[data-testid=tax-sync-state]", "data-state")
                .await
                .is_some_and(|s| s != "loading")
        })
        .await;
    }

    /// Waits up to `limit` for the tax sync to say it is complete.
    pub async fn until_tax_synced(&self, limit: Duration) {
        self.until_within("the sync to finish", limit, || async {
            self.attr("[data-testid=tax-sync-state]", "data-state")
                .await
                .as_deref()
                == Some("complete")
        })
        .await;
    }

    /// Waits until `f` holds, checking every 100 ms, for up to 20 s.
    pub async fn until<F, Fut>(&self, what: &str, f: F)
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = bool>,
    {
        self.until_within(what, Duration::from_secs(20), f).await;
    }

    /// Waits until `f` holds, checking every 100 ms, for up to `limit`.
    pub async fn until_within<F, Fut>(&self, what: &str, limit: Duration, mut f: F)
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = bool>,
    {
        let deadline = Instant::now() + limit;
        while !f().await {
            if Instant::now() >= deadline {
                let seen = self.what_is_shown().await;
                self.screenshot(&format!("timeout-{}", file_name(what)))
                    .await;
                panic!("timed out waiting for {what}; the window showed: {seen}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The screen's heading, its messages and every element's `data-state`, in one line: what a
    /// failed wait tells CI's log (which keeps no screenshots).
    async fn what_is_shown(&self) -> String {
        let js = "const pick = (sel) => [...document.querySelectorAll(sel)]\
            .map((e) => (e.dataset.testid || e.className) + ': ' + (e.dataset.state ?? e.textContent.trim().slice(0, 200)));\
            return [...pick('h1, h2'), ...pick('.message, [role=alert], .field-error'), ...pick('[data-state]')].join(' | ');";
        match tokio::time::timeout(Duration::from_secs(10), self.client.execute(js, vec![])).await {
            Ok(Ok(serde_json::Value::String(s))) => s,
            other => format!("(nothing readable: {other:?})"),
        }
    }

    /// Runs `js` in the window (`arguments[i]` are `args`) and returns what it returns.
    pub async fn script(&self, js: &str, args: Vec<serde_json::Value>) -> serde_json::Value {
        bounded(js, self.client.execute(js, args)).await.unwrap()
    }

    /// How many windows the app has open.
    pub async fn window_count(&self) -> usize {
        bounded("window handles", self.client.windows())
            .await
            .unwrap()
            .len()
    }

    /// World control of the embedded sandbox: `POST /sandbox/...` with a JSON body.
    pub async fn control(&self, path: &str, body: serde_json::Value) -> serde_json::Value {
        let response = http()
            .post(format!("{}{path}", self.sandbox()))
            .header("x-sandbox-token", CONTROL_TOKEN)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status();
        let text = response.text().await.unwrap();
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("{path}: {status} {text}"))
    }

    /// What the sandbox's API answers at `path` to anyone, or with the API key `key` (no
    /// signature: reads only).
    pub async fn api_get(&self, path: &str, key: Option<&str>) -> serde_json::Value {
        let mut request = http().get(format!("{}{path}", self.sandbox()));
        if let Some(key) = key {
            request = request.header("x-svc-api-key", key);
        }
        request.send().await.unwrap().json().await.unwrap()
    }

    /// The sandbox's counters (`GET /sandbox/counters`).
    pub async fn counters(&self) -> serde_json::Value {
        http()
            .get(format!("{}/sandbox/counters", self.sandbox()))
            .header("x-sandbox-token", CONTROL_TOKEN)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// The URLs the app asked the system to open, oldest first.
    pub fn opened_urls(&self) -> Vec<String> {
        std::fs::read_to_string(&self.opened)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Where the suite's screenshot `name` goes.
    pub fn shot_path(name: &str) -> PathBuf {
        let dir = workspace().join("target/e2e-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(format!("{name}.png"))
    }

    /// The native confirmation answered with `key`, pictured as the suite's screenshot `shot`.
    pub async fn answer_native_shot(&self, title: &str, shot: &str, key: &str) -> String {
        self.answer_native(title, &Self::shot_path(shot), key).await
    }

    pub async fn screenshot(&self, name: &str) {
        let dir = workspace().join("target/e2e-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        if let Ok(png) = bounded("a screenshot", self.client.screenshot()).await {
            std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
        }
    }

    /// Answers Nordlys's native confirmation, the GTK dialog outside the web view, as a user at
    /// the keyboard would: waits for the dialog whose title starts with `title`, writes a picture
    /// of the whole screen to `shot` (the dialog is no part of the web view's screenshots), and
    /// presses the button whose shortcut is `key` (`"alt+s"` Send, `"alt+p"` Place order,
    /// `"Escape"` cancels). Returns the dialog's title, which names the amount.
    pub async fn answer_native(&self, title: &str, shot: &Path, key: &str) -> String {
        let Some(id) = self.native_dialog(title).await else {
            // What there is instead: the windows by name, and what the page says.
            let _ = Command::new("import")
                .args(["-window", "root"])
                .arg(shot)
                .status();
            let windows: Vec<String> = xdotool(&["search", "--name", "."])
                .unwrap_or_default()
                .lines()
                .filter_map(|id| xdotool(&["getwindowname", id]))
                .collect();
            let page = self
                .script(
                    "return document.querySelector('main')?.innerText ?? '';",
                    vec![],
                )
                .await;
            panic!(
                "no native dialog titled {title:?} within 20 s; windows {windows:?}; page {page}"
            );
        };
        // Drawn before it is pictured.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let _ = Command::new("import")
            .args(["-window", "root"])
            .arg(shot)
            .status();
        let name = xdotool(&["getwindowname", &id]).unwrap_or_default();
        xdotool(&["windowfocus", "--sync", &id]);
        xdotool(&["key", "--clearmodifiers", key]);
        // Gone once answered.
        let started = Instant::now();
        while self.native_dialog_now(title).is_some() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the native dialog {title:?} stayed open after {key}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        name
    }

    /// Whether a native dialog titled `title…` shows now.
    pub fn native_dialog_now(&self, title: &str) -> Option<String> {
        let pattern = format!("^{}", regex_escape(title));
        xdotool(&["search", "--onlyvisible", "--name", &pattern])
            .and_then(|ids| ids.lines().next().map(str::to_owned))
    }

    async fn native_dialog(&self, title: &str) -> Option<String> {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(20) {
            if let Some(id) = self.native_dialog_now(title) {
                return Some(id);
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        None
    }

    /// Where a secret could be left behind by this app: every file under its home (data, WebView
    /// storage, caches, logs), crash dumps (systemd-coredump's and apport's folders, core files in
    /// the working directory of its processes), and the environment and command line of each of
    /// its processes. Call while it runs.
    pub fn secret_audit(&self, needles: &[String]) -> Vec<String> {
        let mut hits = files_containing(self.home.path(), needles);
        for dir in ["/var/crash", "/var/lib/systemd/coredump"] {
            hits.extend(files_containing(Path::new(dir), needles));
        }
        let pids = self.pids();
        assert!(!pids.is_empty(), "the app is not running");
        for pid in pids {
            for part in ["environ", "cmdline"] {
                let path = PathBuf::from(format!("/proc/{pid}/{part}"));
                if let Ok(bytes) = std::fs::read(&path) {
                    hits.extend(hits_in(&path, &bytes, needles));
                }
            }
            let Ok(cwd) = std::fs::read_link(format!("/proc/{pid}/cwd")) else {
                continue;
            };
            for e in std::fs::read_dir(&cwd).into_iter().flatten().flatten() {
                if e.file_name().to_string_lossy().starts_with("core")
                    && let Ok(bytes) = std::fs::read(e.path())
                {
                    hits.extend(hits_in(&e.path(), &bytes, needles));
                }
            }
        }
        hits
    }

    /// Files and directories under the app's XDG directories (data, config, cache: its own and
    /// WebKit's) that its group or others may use at all, with their modes.
    pub fn open_to_others(&self) -> Vec<String> {
        use std::os::unix::fs::PermissionsExt;
        fn walk(dir: &Path, found: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let Ok(meta) = std::fs::symlink_metadata(e.path()) else {
                    continue;
                };
                if meta.file_type().is_symlink() {
                    continue;
                }
                let mode = meta.permissions().mode() & 0o777;
                if mode & 0o077 != 0 {
                    found.push(format!("{} {mode:o}", e.path().display()));
                }
                if meta.is_dir() {
                    walk(&e.path(), found);
                }
            }
        }
        let mut found = Vec::new();
        for base in ["data", "config", "cache"] {
            walk(&self.home.path().join(base), &mut found);
        }
        found
    }

    /// Ends the session with no check: for a window other than Nordlys (the benchmark's empty one).
    pub async fn close(self) {
        let _ = bounded("closing the session", self.client.clone().close()).await;
    }

    /// Ends the session, failing the test if the content security policy blocked anything the
    /// window tried (a style attribute in a template, an inline script): the window records each
    /// `securitypolicyviolation` from its first script on.
    pub async fn quit(self) {
        let blocked = self
            .script("return window.nordlysPolicyViolations ?? null;", vec![])
            .await;
        self.close().await;
        assert_eq!(
            blocked,
            serde_json::json!([]),
            "the content security policy blocked what the window tried (null: the window never watched)"
        );
    }
}

/// `roots` and every process under them (an app's WebKit helpers).
pub fn with_descendants(roots: Vec<u32>) -> Vec<u32> {
    let mut all = roots;
    let mut i = 0;
    while i < all.len() {
        let children = std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", all[i]))
            .unwrap_or_default();
        all.extend(
            children
                .split_whitespace()
                .filter_map(|c| c.parse::<u32>().ok()),
        );
        i += 1;
    }
    all
}

/// The environment variable every process the rig starts carries (tauri-driver passes it on to
/// WebKitWebDriver and the app), so the rig ends its own apps and never the user's.
const RIG_MARK: &str = "NORDLYS_E2E_RIG";

/// The processes named `name` (exactly: a pattern on the path would also match tools whose
/// arguments name it) that the rig started.
fn rig_started(name: &str) -> Vec<u32> {
    let Ok(out) = Command::new("pgrep").arg("-x").arg(name).output() else {
        return vec![];
    };
    let mark = format!("{RIG_MARK}=1");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim().parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|b| *b == 0).any(|var| var == mark.as_bytes()))
        })
        .collect()
}

/// Waits until no process named `name` that the rig started is left, asking each to end
/// (SIGTERM) and after 10 s forcing it (SIGKILL). The app is single-instance: a next app started
/// while one is still shutting down hands over to it and exits, and WebKitWebDriver then waits
/// for a window that never comes. A Nordlys the user runs is left alone.
fn end_all(name: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let alive = rig_started(name);
        if alive.is_empty() {
            return;
        }
        let signal = if Instant::now() > deadline {
            "-KILL"
        } else {
            "-TERM"
        };
        for pid in alive {
            let _ = Command::new("kill")
                .args([signal, &pid.to_string()])
                .status();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A failed test must not leave its app running (see [`end_all`]), nor the WebKitWebDriver that
/// tauri-driver started.
impl Drop for App {
    fn drop(&mut self) {
        let _ = Command::new("pkill")
            .arg("-P")
            .arg(self.driver.id().to_string())
            .status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        end_all(&self.process_name());
    }
}

/// The sandbox's API keys for [`SEED`] (they follow from the seed alone).
pub fn sandbox_keys() -> nordlys_sandbox::world::World {
    nordlys_sandbox::world::World::new(SEED, chrono::Utc::now())
}

pub use nordlys_tests::play_browser;

/// What the real keyring holds for Nordlys, as `secret-tool` sees it.
pub fn keyring_entries() -> String {
    let out = Command::new("timeout")
        .args([
            "30",
            "secret-tool",
            "search",
            "--all",
            "service",
            "no.nordlys.desktop",
        ])
        .output()
        .expect("secret-tool");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

pub fn keyring_secret(user: &str) -> Option<String> {
    let out = Command::new("timeout")
        .args([
            "30",
            "secret-tool",
            "lookup",
            "service",
            "no.nordlys.desktop",
            "username",
            user,
        ])
        .output()
        .ok()?;
    let s = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    (!s.is_empty()).then_some(s)
}

/// Every file under `dir` that contains one of `needles`, with the needle found.
pub fn files_containing(dir: &Path, needles: &[String]) -> Vec<String> {
    let mut hits = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = std::fs::read(&p) {
                hits.extend(hits_in(&p, &bytes, needles));
            }
        }
    }
    hits
}

/// Each needle found in `bytes`, named by its first characters only.
fn hits_in(place: &Path, bytes: &[u8], needles: &[String]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    needles
        .iter()
        .filter(|n| !n.is_empty() && text.contains(n.as_str()))
        .map(|n| format!("{} contains {}…", place.display(), &n[..n.len().min(12)]))
        .collect()
}

/// Runs xdotool on this display; its output when it succeeded.
fn xdotool(args: &[&str]) -> Option<String> {
    let out = Command::new("xdotool").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// `text` as a POSIX extended regular expression that matches it literally.
fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if "\\.^$|?*+()[]{}".contains(c) {
                format!("\\{c}")
            } else {
                c.to_string()
            }
        })
        .collect()
}
