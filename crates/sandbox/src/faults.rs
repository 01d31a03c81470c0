//! Injected faults, per path: an HTTP 500 without doing anything, a delay, a dropped connection,
//! and "commit, then never answer" (the operation happens, the answer never comes).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use crate::AppState;
use crate::error::ApiError;
use crate::world::rng::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    Http500,
    Delay,
    Drop,
    /// The operation commits; the connection then stays silent until the client gives up.
    CommitThenHang,
    /// The operation commits; the connection is then closed without an answer.
    CommitThenDrop,
    /// No answer; the operation commits only after the client has given up (closed the
    /// connection), `delayMs` later. Its nonce counts from when it arrived.
    CommitLate,
    /// Refused as the exchange rate-limits: HTTP 429, `Retry-After` of `delayMs` in whole
    /// seconds (rounded up), body `{"message": "slow down"}`; nothing is done.
    RateLimit,
}

/// Marks a request replayed by [`FaultKind::CommitLate`]: its nonce was taken when it arrived.
#[derive(Debug, Clone, Copy)]
pub struct LateCommit;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FaultRule {
    /// Applies to requests whose path starts with this.
    pub path: String,
    /// Only this method, when given.
    #[serde(default)]
    pub method: Option<String>,
    pub kind: FaultKind,
    /// How many requests it hits before it is used up; none: until cleared.
    #[serde(default)]
    pub count: Option<u32>,
    /// Chance in percent that a matching request is hit (seeded); none: every one.
    #[serde(default)]
    pub percent: Option<u8>,
    #[serde(default)]
    pub delay_ms: u64,
}

#[derive(Debug)]
pub struct Faults {
    rules: Vec<FaultRule>,
    rng: Rng,
    /// Requests hit, by kind, since the sandbox started: a soak states its fault rate from these.
    hits: BTreeMap<FaultKind, u64>,
}

impl Faults {
    pub fn new(seed: u64) -> Self {
        Self {
            rules: vec![],
            rng: Rng::new(seed ^ 0xfa17),
            hits: BTreeMap::new(),
        }
    }

    pub fn add(&mut self, rule: FaultRule) {
        self.rules.push(rule);
    }

    pub fn clear(&mut self) {
        self.rules.clear();
    }

    pub fn hits(&self) -> &BTreeMap<FaultKind, u64> {
        &self.hits
    }

    /// The first matching rule that hits: each rule that matches gets its own chance, in the
    /// order added, so several kinds of fault can share one path.
    fn pick(&mut self, method: &str, path: &str) -> Option<(FaultKind, u64)> {
        let rng = &mut self.rng;
        let rule = self.rules.iter_mut().find(|r| {
            path.starts_with(&r.path)
                && r.method
                    .as_deref()
                    .is_none_or(|m| m.eq_ignore_ascii_case(method))
                && r.count != Some(0)
                && r.percent.is_none_or(|p| rng.chance(u64::from(p)))
        })?;
        if let Some(c) = rule.count.as_mut() {
            *c -= 1;
        }
        *self.hits.entry(rule.kind).or_default() += 1;
        Some((rule.kind, rule.delay_ms))
    }
}

/// Closes the connection a request came on, without an answer. Set by the serving loop.
#[derive(Debug, Clone, Default)]
pub struct ConnectionKill(pub Arc<Notify>);

impl ConnectionKill {
    pub fn fire(&self) {
        self.0.notify_one();
    }
}

/// How long "never answer" lasts before the sandbox closes the connection itself.
const HANG: Duration = Duration::from_secs(120);

async fn silence(kill: Option<ConnectionKill>) -> Response {
    if let Some(k) = kill {
        k.fire();
    }
    std::future::pending::<()>().await;
    ApiError::internal("unreachable").into_response()
}

pub async fn layer(State(app): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_owned();
    if path.starts_with("/sandbox/") {
        return next.run(req).await;
    }
    *app.requests
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .entry(path.clone())
        .or_default() += 1;
    let headers = req.headers();
    let carried = [
        (
            "apiKey",
            headers
                .keys()
                .any(|name| name.as_str().ends_with("-api-key")),
        ),
        (
            "bearer",
            headers
                .get(axum::http::header::AUTHORIZATION)
                .is_some_and(|v| v.as_bytes().starts_with(b"Bearer ")),
        ),
    ];
    for (kind, _) in carried.iter().filter(|(_, yes)| *yes) {
        *app.credentials_seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(kind)
            .or_default() += 1;
    }
    let picked = app
        .faults
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .pick(req.method().as_str(), &path);
    let kill = req.extensions().get::<ConnectionKill>().cloned();
    if let Some(wait) = app.rate_limited() {
        return slow_down(wait);
    }
    match picked {
        None => next.run(req).await,
        Some((FaultKind::RateLimit, ms)) => slow_down(Duration::from_millis(ms)),
        Some((FaultKind::Http500, _)) => {
            ApiError::internal("injected fault: internal error").into_response()
        }
        Some((FaultKind::Delay, ms)) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            next.run(req).await
        }
        Some((FaultKind::Drop, _)) => silence(kill).await,
        Some((FaultKind::CommitThenDrop, _)) => {
            let _committed = next.run(req).await;
            silence(kill).await
        }
        Some((FaultKind::CommitLate, ms)) => commit_late(&app, req, next, ms, kill).await,
        Some((FaultKind::CommitThenHang, _)) => {
            let _committed = next.run(req).await;
            tokio::time::sleep(HANG).await;
            silence(kill).await
        }
    }
}

/// The exchange's answer to a client that asks too often: 429, when to try again in whole
/// seconds, and its message, as its integrations meet it.
pub fn slow_down(wait: Duration) -> Response {
    let seconds = wait.as_millis().div_ceil(1000);
    (
        axum::http::StatusCode::TOO_MANY_REQUESTS,
        [(axum::http::header::RETRY_AFTER, seconds.to_string())],
        axum::Json(serde_json::json!({ "message": "slow down" })),
    )
        .into_response()
}

/// Requests counted in the current minute, for `--rate-limit N/min`.
#[derive(Debug, Default)]
pub struct RateWindow {
    started: Option<std::time::Instant>,
    count: u32,
}

impl RateWindow {
    /// Counts one request at `now` against `per_minute`; the wait until the window turns when
    /// it is over the limit (it is then not counted).
    pub fn take(&mut self, per_minute: u32, now: std::time::Instant) -> Option<Duration> {
        const MINUTE: Duration = Duration::from_secs(60);
        let started = match self.started {
            Some(t) if now.duration_since(t) < MINUTE => t,
            _ => {
                self.started = Some(now);
                self.count = 0;
                now
            }
        };
        if self.count >= per_minute {
            return Some(MINUTE.saturating_sub(now.duration_since(started)));
        }
        self.count += 1;
        None
    }
}

/// Takes the request's nonce now, as a server that queued the request would, then stays silent;
/// once the client has given up (this future is dropped with its connection) the request is
/// committed `delay_ms` later.
async fn commit_late(
    app: &AppState,
    req: Request,
    next: Next,
    delay_ms: u64,
    kill: Option<ConnectionKill>,
) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 1 << 20).await else {
        return ApiError::invalid("the request body could not be read").into_response();
    };
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let op = app.lock().operator.clone();
    if let (Some(key), Some(nonce)) = (
        header(&format!("x-{op}-api-key")),
        header(&format!("x-{op}-api-nonce")).and_then(|n| n.trim().parse::<u64>().ok()),
    ) {
        let mut w = app.lock();
        if let Some(k) = w.keys.iter_mut().find(|k| k.key == key) {
            k.last_nonce = k.last_nonce.max(nonce);
        }
    }
    let mut replay = Request::from_parts(parts, axum::body::Body::from(bytes));
    replay.extensions_mut().insert(LateCommit);
    let (given_up, wait) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let _ = tokio::time::timeout(HANG, wait).await;
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        let _committed = next.run(replay).await;
    });
    // Dropped with this future, when the client closes the connection: that starts the commit.
    let _given_up = given_up;
    tokio::time::sleep(HANG).await;
    silence(kill).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(kind: FaultKind, percent: Option<u8>) -> FaultRule {
        FaultRule {
            path: "/v1/orders".into(),
            method: Some("POST".into()),
            kind,
            count: None,
            percent,
            delay_ms: 0,
        }
    }

    #[test]
    fn the_rate_window_lets_n_a_minute_through_and_says_how_long_to_wait() {
        let start = std::time::Instant::now();
        let mut w = RateWindow::default();
        assert_eq!(w.take(2, start), None);
        assert_eq!(w.take(2, start + Duration::from_secs(10)), None);
        assert_eq!(
            w.take(2, start + Duration::from_secs(15)),
            Some(Duration::from_secs(45))
        );
        assert_eq!(w.take(2, start + Duration::from_secs(61)), None);
    }

    #[tokio::test]
    async fn slow_down_is_a_429_with_retry_after_in_whole_seconds() {
        let r = slow_down(Duration::from_millis(1_200));
        assert_eq!(r.status(), axum::http::StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(r.headers()[axum::http::header::RETRY_AFTER], "2");
        let body = axum::body::to_bytes(r.into_body(), 1024)
            .await
            .unwrap_or_default();
        assert_eq!(&body[..], br#"{"message":"slow down"}"#);
    }

    #[test]
    fn a_rule_that_misses_its_chance_leaves_the_request_to_the_next_rule() {
        let mut faults = Faults::new(7);
        faults.add(rule(FaultKind::Http500, Some(0)));
        faults.add(rule(FaultKind::CommitThenDrop, None));
        assert_eq!(
            faults.pick("POST", "/v1/orders"),
            Some((FaultKind::CommitThenDrop, 0))
        );
        assert_eq!(faults.pick("GET", "/v1/orders"), None);
    }

    #[test]
    fn several_kinds_share_one_path_in_about_their_shares() {
        let mut faults = Faults::new(7);
        faults.add(rule(FaultKind::Http500, Some(10)));
        faults.add(rule(FaultKind::Drop, Some(10)));
        let picks: Vec<_> = (0..2000)
            .map(|_| faults.pick("POST", "/v1/orders").map(|(k, _)| k))
            .collect();
        let count = |k| picks.iter().filter(|p| **p == Some(k)).count();
        // 10 % of all, then 10 % of the other 90 %: about 200 and 180.
        let (errors, drops) = (count(FaultKind::Http500), count(FaultKind::Drop));
        assert!((150..250).contains(&errors), "{errors} errors");
        assert!((130..230).contains(&drops), "{drops} drops");
    }
}
