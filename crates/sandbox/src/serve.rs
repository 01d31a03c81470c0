//! The serving loop: loopback only, Host checked against DNS rebinding, and a per-connection
//! kill switch so a fault can drop a connection without answering.

use std::future::Future;

use axum::Router;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tower::Service;

use crate::error::ApiError;
use crate::faults::ConnectionKill;

/// Whether a Host header names this machine.
pub fn host_is_loopback(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split_once(']').map(|(h, _)| h).unwrap_or(rest)
    } else {
        host.rsplit_once(':').map(|(h, _)| h).unwrap_or(host)
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Refuses requests whose Host is not loopback.
pub async fn check_host(req: Request, next: Next) -> Response {
    let ok = req
        .headers()
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(host_is_loopback);
    if ok {
        next.run(req).await
    } else {
        ApiError::denied(
            "this server answers only requests addressed to 127.0.0.1, [::1] or localhost",
        )
        .into_response()
    }
}

/// Every answer carries the exchange's own time in `Date`, off by the clock-skew reading as the
/// timestamps in its bodies are.
pub async fn date_header(
    axum::extract::State(app): axum::extract::State<crate::AppState>,
    req: Request,
    next: Next,
) -> Response {
    let mut response = next.run(req).await;
    let now = app.lock().clock();
    let text = now.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
    if let Ok(value) = axum::http::HeaderValue::from_str(&text) {
        response
            .headers_mut()
            .insert(axum::http::header::DATE, value);
    }
    response
}

/// Every answer of the exchange (not of `/sandbox/` control) waits the configured latency, as
/// an exchange at a distance answers: the tax sync is judged against a plain loop at the same
/// distance.
pub async fn latency(
    axum::extract::State(app): axum::extract::State<crate::AppState>,
    req: Request,
    next: Next,
) -> Response {
    let wait = app.latency();
    let control = req.uri().path().starts_with("/sandbox/");
    let response = next.run(req).await;
    if !wait.is_zero() && !control {
        tokio::time::sleep(wait).await;
    }
    response
}

/// Serves `router` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = &mut shutdown => return,
        };
        let Ok((stream, _peer)) = accepted else {
            continue;
        };
        let kill = ConnectionKill::default();
        let router = router.clone();
        let for_requests = kill.clone();
        let service = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(for_requests.clone());
            let mut router = router.clone();
            router.call(req.map(axum::body::Body::new))
        });
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = connection => {}
                () = kill.0.notified() => {}
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_pass() {
        for ok in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:1",
            "[::1]:9000",
            "[::1]",
            "LOCALHOST",
        ] {
            assert!(host_is_loopback(ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:80",
            "10.0.0.1:80",
            "127.0.0.1.evil.example",
            "",
            "[::2]:1",
        ] {
            assert!(!host_is_loopback(bad), "{bad}");
        }
    }
}
