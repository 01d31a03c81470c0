//! World control under `/sandbox/` (never under `/v1/` or `/oauth2/`): what a test or a curious
//! user does to the world from outside — pay an invoice, deposit, move the price, settle a
//! withdrawal, fill an order, expire tokens, inject faults — and the counters and audit that prove
//! what happened. Loopback only, and not for web pages: each request carries the control token
//! (a page on any site can reach 127.0.0.1, but cannot read the token, nor send a custom header or
//! a JSON body without a CORS preflight the sandbox never answers).

use std::str::FromStr;

use axum::Json;
use axum::extract::{Path, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::api::{num, order_state_json};
use crate::error::ApiError;
use crate::faults::FaultRule;
use crate::world::{InvoiceOwner, World};

type Answer = Result<Json<Value>, ApiError>;

/// The header that carries the control token.
pub const TOKEN_HEADER: &str = "x-sandbox-token";

/// A fresh control token: 128 random bits from the OS, as hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    // Without the OS's randomness there is no secret to be had; a fixed token would be worse
    // than none, so the sandbox would refuse every control request with an empty one.
    if getrandom::fill(&mut bytes).is_err() {
        return String::new();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Lets through `/sandbox/` requests that carry the token, and for POST and DELETE a JSON body.
pub async fn guard(State(app): State<AppState>, req: Request, next: Next) -> Response {
    if !req.uri().path().starts_with("/sandbox/") {
        return next.run(req).await;
    }
    let token = req
        .headers()
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if app.control_token.is_empty() || !same(token.as_bytes(), app.control_token.as_bytes()) {
        return ApiError::denied(format!(
            "world control needs the start-up line's controlToken in {TOKEN_HEADER}"
        ))
        .into_response();
    }
    let writes = matches!(
        *req.method(),
        axum::http::Method::POST | axum::http::Method::DELETE
    );
    let json = req
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if writes && !json {
        return ApiError::unsupported_media(
            "world control takes Content-Type: application/json (send {} when there is no body)",
        )
        .into_response();
    }
    next.run(req).await
}

/// Compares without stopping at the first difference.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn body<T: for<'de> Deserialize<'de> + Default>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::invalid(format!("invalid request body: {e}")))
}

fn amount(v: Option<f64>, name: &str) -> Result<Option<Decimal>, ApiError> {
    v.map(|f| {
        Decimal::from_str(&f.to_string())
            .ok()
            .filter(|d| *d > Decimal::ZERO)
            .ok_or_else(|| ApiError::invalid(format!("{name} must be a positive number")))
    })
    .transpose()
}

fn world<T>(
    app: &AppState,
    f: impl FnOnce(&mut World) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut w = app.lock();
    let now = w.clock();
    w.advance(now);
    app.touch();
    f(&mut w)
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AmountBody {
    amount_btc: Option<f64>,
    amount_nok: Option<f64>,
    account_id: String,
    description: String,
}

/// POST /sandbox/invoices/{id}/pay — someone outside pays the user's invoice.
pub async fn pay_invoice(
    State(app): State<AppState>,
    Path(id): Path<String>,
    raw: axum::body::Bytes,
) -> Answer {
    let b: AmountBody = body(&raw)?;
    world(&app, |w| {
        let i = w
            .invoices
            .iter()
            .position(|x| {
                x.owner == InvoiceOwner::User && (x.id == id || x.bolt11 == id.to_ascii_lowercase())
            })
            .ok_or_else(|| ApiError::not_found("no such invoice of the user"))?;
        let paid = w.settle_invoice(i, amount(b.amount_btc, "amountBtc")?, true, w.clock())?;
        Ok(Json(json!({ "paidBtc": num(paid) })))
    })
}

/// POST /sandbox/invoices/{id}/cancel
pub async fn cancel_invoice(State(app): State<AppState>, Path(id): Path<String>) -> Answer {
    world(&app, |w| {
        let inv = w
            .invoices
            .iter_mut()
            .find(|x| x.id == id)
            .ok_or_else(|| ApiError::not_found("no such invoice"))?;
        if inv.state != crate::world::InvoiceState::Unpaid {
            return Err(ApiError::precondition(
                "only an unpaid invoice can be cancelled",
            ));
        }
        inv.state = crate::world::InvoiceState::Canceled;
        Ok(Json(json!({})))
    })
}

/// POST /sandbox/invoices — another platform user creates an invoice for the demo user to pay.
pub async fn other_invoice(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let b: AmountBody = body(&raw)?;
    world(&app, |w| {
        let btc = amount(b.amount_btc, "amountBtc")?.unwrap_or(Decimal::ZERO);
        let inv = w.create_invoice(
            InvoiceOwner::Other,
            0,
            btc,
            b.description,
            String::new(),
            w.clock(),
        )?;
        Ok(Json(
            json!({ "depositDestinationId": inv.id, "invoice": inv.bolt11 }),
        ))
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DepositBody {
    amount_btc: Option<f64>,
    account_id: String,
    via: crate::world::DepositVia,
}

/// POST /sandbox/deposits — a bitcoin deposit from outside: on-chain to the account's newest
/// address unless `via` says Lightning address or LNURL.
pub async fn deposit(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let b: DepositBody = body(&raw)?;
    world(&app, |w| {
        let i = w.account_index(&b.account_id)?;
        let btc = amount(b.amount_btc, "amountBtc")?
            .ok_or_else(|| ApiError::invalid("amountBtc is required"))?;
        let address = w.deposit_btc(i, btc, b.via, w.clock())?;
        Ok(Json(
            json!({ "address": address, "newAddress": w.accounts[i].addresses.last() }),
        ))
    })
}

/// POST /sandbox/fiat-deposits — a bank transfer in.
pub async fn fiat_deposit(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let b: AmountBody = body(&raw)?;
    world(&app, |w| {
        let nok = amount(b.amount_nok, "amountNok")?
            .ok_or_else(|| ApiError::invalid("amountNok is required"))?;
        w.deposit_nok(crate::world::nok_round(nok), w.clock(), "bank");
        Ok(Json(json!({ "availableNok": num(w.available_nok()) })))
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PriceBody {
    price: Option<f64>,
    move_percent: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct HistoryBody {
    transactions: usize,
}

/// POST /sandbox/history — a busy year of trades before the seeded past, for long histories.
pub async fn busy_past(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let b: HistoryBody = body(&raw)?;
    world(&app, |w| {
        let (from, until) = w.add_busy_past(b.transactions).map_err(ApiError::invalid)?;
        Ok(Json(json!({
            "added": b.transactions,
            "from": crate::time::format(&from),
            "until": crate::time::format(&until),
            "total": w.ledger.len(),
        })))
    })
}

/// POST /sandbox/price — set the mid price, or move it by a percentage.
pub async fn set_price(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let b: PriceBody = body(&raw)?;
    world(&app, |w| {
        let next = match (b.price, b.move_percent) {
            (Some(p), _) => amount(Some(p), "price")?.unwrap_or(w.market.mid),
            (None, Some(m)) => {
                let pct = Decimal::from_str(&m.to_string())
                    .map_err(|_| ApiError::invalid("movePercent must be a number"))?;
                w.market.mid * (Decimal::ONE + pct / Decimal::ONE_HUNDRED)
            }
            (None, None) => return Err(ApiError::invalid("give price or movePercent")),
        };
        w.market.set_mid(next);
        w.advance(w.clock());
        let q = w.market.quote(Decimal::from(5000));
        Ok(Json(
            json!({ "price": num(q.price), "bid": num(q.bid), "ask": num(q.ask) }),
        ))
    })
}

/// POST /sandbox/withdrawals/{id}/complete and /fail
pub async fn finish_withdrawal(
    State(app): State<AppState>,
    Path((id, outcome)): Path<(String, String)>,
) -> Answer {
    let success = match outcome.as_str() {
        "complete" => true,
        "fail" => false,
        _ => return Err(ApiError::not_found("use /complete or /fail")),
    };
    world(&app, |w| {
        let i = w
            .withdrawals
            .iter()
            .position(|x| x.id == id)
            .ok_or_else(|| ApiError::not_found("no such withdrawal"))?;
        w.finish_withdrawal(i, success, w.clock())?;
        Ok(Json(json!({ "status": w.withdrawals[i].state.wire() })))
    })
}

/// POST /sandbox/orders/{id}/fill — fill a resting limit order at its price.
pub async fn fill_order(State(app): State<AppState>, Path(id): Path<String>) -> Answer {
    world(&app, |w| {
        let trade = w.force_fill(&id, w.clock())?;
        Ok(Json(json!({ "tradeId": trade })))
    })
}

/// GET /sandbox/orders/{id} — any order, open or not.
pub async fn order(State(app): State<AppState>, Path(id): Path<String>) -> Answer {
    world(&app, |w| {
        let o = w
            .orders
            .iter()
            .find(|o| o.id == id)
            .ok_or_else(|| ApiError::not_found("no such order"))?;
        Ok(Json(order_state_json(&o.state)))
    })
}

/// POST /sandbox/oauth/expire-tokens
pub async fn expire_tokens(State(app): State<AppState>) -> Answer {
    world(&app, |w| {
        w.oauth.expire_all(Utc::now());
        Ok(Json(json!({})))
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TtlBody {
    seconds: i64,
}

/// POST /sandbox/oauth/token-ttl — lifetime of access tokens issued from now on.
pub async fn token_ttl(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let b: TtlBody = body(&raw)?;
    if !(1..=86_400).contains(&b.seconds) {
        return Err(ApiError::invalid("seconds must be from 1 to 86400"));
    }
    world(&app, |w| {
        w.oauth.token_ttl_seconds = b.seconds;
        Ok(Json(json!({ "seconds": b.seconds })))
    })
}

/// POST /sandbox/faults — add a fault rule; DELETE clears them all.
pub async fn add_fault(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let rule: FaultRule = serde_json::from_slice(&raw)
        .map_err(|e| ApiError::invalid(format!("invalid fault rule: {e}")))?;
    if !rule.path.starts_with('/') {
        return Err(ApiError::invalid("path must start with /"));
    }
    app.faults
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .add(rule);
    Ok(Json(json!({})))
}

pub async fn clear_faults(State(app): State<AppState>) -> Answer {
    app.faults
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clear();
    Ok(Json(json!({})))
}

/// GET /sandbox/counters — orders and withdrawals ever created (both users'), API requests per path, requests
/// that carried a credential, and the injected faults by kind.
pub async fn counters(State(app): State<AppState>) -> Answer {
    let requests = app
        .requests
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let faults = app
        .faults
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .hits()
        .clone();
    let credentials_seen = app
        .credentials_seen
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let other = app.lock_second().counters.clone();
    world(&app, |w| {
        let c = &w.counters;
        Ok(Json(json!({
            "ordersCreated": c.orders_created + other.orders_created,
            "withdrawalsCreated": c.withdrawals_created + other.withdrawals_created,
            "invoicesCreated": c.invoices_created + other.invoices_created,
            "trades": c.trades + other.trades,
            "requests": requests,
            "credentialsSeen": credentials_seen,
            "faults": faults,
        })))
    })
}

/// GET /sandbox/made — every order and withdrawal this exchange made (for both users), with the description it
/// was given: what a client's journal is held against when the client itself cannot be asked.
pub async fn made(State(app): State<AppState>) -> Answer {
    let second = app.lock_second();
    let orders_of = |w: &World| -> Vec<Value> {
        w.orders
            .iter()
            .map(|o| json!({ "id": o.id, "description": o.description }))
            .collect()
    };
    let withdrawals_of = |w: &World| -> Vec<Value> {
        w.withdrawals
            .iter()
            .map(|x| json!({ "id": x.id, "description": x.description }))
            .collect()
    };
    let (second_orders, second_withdrawals) = (orders_of(&second), withdrawals_of(&second));
    drop(second);
    world(&app, |w| {
        let orders: Vec<Value> = orders_of(w).into_iter().chain(second_orders).collect();
        let withdrawals: Vec<Value> = withdrawals_of(w)
            .into_iter()
            .chain(second_withdrawals)
            .collect();
        Ok(Json(
            json!({ "orders": orders, "withdrawals": withdrawals }),
        ))
    })
}

/// GET /sandbox/audit — whether the books balance.
pub async fn audit(State(app): State<AppState>) -> Answer {
    world(&app, |w| {
        Ok(Json(match w.audit() {
            Ok(()) => json!({ "ok": true }),
            Err(detail) => json!({ "ok": false, "detail": detail }),
        }))
    })
}

/// GET /sandbox/readings — how this exchange reads what the specification leaves open.
pub async fn readings(State(app): State<AppState>) -> Answer {
    let r = app.lock().readings.clone();
    serde_json::to_value(r)
        .map(Json)
        .map_err(|e| ApiError::internal(e.to_string()))
}

/// POST /sandbox/readings — changes the named readings (the switches' names in camelCase); the
/// others stay. Answers with all of them.
pub async fn set_readings(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let patch: Value = body(&raw)?;
    let next = app.lock().readings.patched(&patch)?;
    app.configure(|w| w.readings = next.clone());
    app.touch();
    serde_json::to_value(next)
        .map(Json)
        .map_err(|e| ApiError::internal(e.to_string()))
}

/// POST /sandbox/reset — the world as it was at start for this seed; keys stay the same.
pub async fn reset(State(app): State<AppState>) -> Answer {
    app.reset();
    Ok(Json(json!({})))
}

/// GET /sandbox/oauth/grants — what OAuth grants.
pub async fn grants(State(app): State<AppState>) -> Answer {
    Ok(Json(grants_json(&app.lock().oauth.policy)))
}

fn grants_json(p: &crate::GrantPolicy) -> Value {
    json!({
        "scopes": p.scopes.as_ref().map(|s| s.join(" ")),
        "invalidScope": p.invalid_scope,
        "omitScope": p.omit_scope,
        "keepRefresh": p.keep_refresh,
    })
}

/// POST /sandbox/oauth/grants `{"scopes"?: "A B" | null, "invalidScope"?, "omitScope"?, "keepRefresh"?}` —
/// changes the named ones (`scopes` null: every scope); answers with all of them.
pub async fn set_grants(State(app): State<AppState>, raw: axum::body::Bytes) -> Answer {
    let patch: Value = body(&raw)?;
    let Some(fields) = patch.as_object() else {
        return Err(ApiError::invalid("the body must be a JSON object"));
    };
    let mut w = app.lock();
    let mut next = w.oauth.policy.clone();
    for (name, value) in fields {
        match (name.as_str(), value) {
            ("scopes", Value::Null) => next.scopes = None,
            ("scopes", Value::String(s)) => {
                next.scopes = Some(s.split_whitespace().map(str::to_owned).collect());
            }
            ("invalidScope", Value::Bool(b)) => next.invalid_scope = *b,
            ("omitScope", Value::Bool(b)) => next.omit_scope = *b,
            ("keepRefresh", Value::Bool(b)) => next.keep_refresh = *b,
            ("scopes", _) => {
                return Err(ApiError::invalid(
                    "scopes must be space-separated scope names, or null for every scope",
                ));
            }
            ("invalidScope" | "omitScope" | "keepRefresh", _) => {
                return Err(ApiError::invalid(format!("{name} must be true or false")));
            }
            _ => {
                return Err(ApiError::invalid(format!(
                    "unknown field `{name}`; the fields are scopes, invalidScope, omitScope, keepRefresh"
                )));
            }
        }
    }
    next.check().map_err(ApiError::invalid)?;
    w.oauth.policy = next.clone();
    drop(w);
    app.touch();
    Ok(Json(grants_json(&next)))
}
