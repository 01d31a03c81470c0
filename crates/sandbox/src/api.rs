//! The sixteen endpoints of section 4.

use std::str::FromStr;

use axum::Json;
use axum::extract::{Path, State};
use chrono::{Duration, NaiveDate};
use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::auth::{Caller, Permission, Rule, authenticate};
use crate::error::ApiError;
use crate::request::ApiRequest;
use crate::time;
use crate::world::orders_api::{NewOrder, OrderDirection, OrderKind};
use crate::world::payments_api::{NewWithdrawal, TravelRule};
use crate::world::{InvoiceOwner, OrderState, World, btc_floor, market_api};

type Answer = Result<Json<Value>, ApiError>;

/// A decimal as a JSON number (the API's doubles).
pub fn num(d: Decimal) -> Value {
    let n = d.normalize();
    if n.scale() == 0
        && let Ok(i) = i64::try_from(n)
    {
        return json!(i);
    }
    f64::from_str(&n.to_string())
        .map(|f| json!(f))
        .unwrap_or(Value::Null)
}

/// A JSON double from a request as a decimal, via its shortest text.
fn decimal_field(v: &Value, name: &str) -> Result<Option<Decimal>, ApiError> {
    match v.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => {
            let text = n
                .as_f64()
                .filter(|f| f.is_finite())
                .map(|f| f.to_string())
                .unwrap_or_default();
            Decimal::from_str(&text)
                .map(Some)
                .map_err(|_| ApiError::invalid(format!("{name} is out of range")))
        }
        Some(Value::String(s)) => Decimal::from_str(s.trim())
            .map(Some)
            .map_err(|_| ApiError::invalid(format!("{name} must be a number"))),
        Some(_) => Err(ApiError::invalid(format!("{name} must be a number"))),
    }
}

fn string_field(v: &Value, name: &str) -> Result<String, ApiError> {
    match v.get(name) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(ApiError::invalid(format!("{name} must be a string"))),
    }
}

/// A required enum field: one of `values` (wire text, value); the error names the allowed ones.
fn enum_field<T: Copy>(
    v: &Value,
    name: &str,
    what: &str,
    values: &[(&str, T)],
) -> Result<T, ApiError> {
    let text = string_field(v, name)?;
    let allowed = || {
        values
            .iter()
            .map(|(w, _)| *w)
            .collect::<Vec<_>>()
            .join(" or ")
    };
    if text.is_empty() {
        return Err(ApiError::invalid(format!(
            "{name} is required: {}",
            allowed()
        )));
    }
    values
        .iter()
        .find(|(w, _)| *w == text)
        .map(|(_, t)| *t)
        .ok_or_else(|| ApiError::invalid(format!("unknown {what} `{text}`")))
}

fn bool_field(v: &Value, name: &str) -> Result<bool, ApiError> {
    match v.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ApiError::invalid(format!("{name} must be true or false"))),
    }
}

fn object(req: &ApiRequest) -> Result<Value, ApiError> {
    let v: Value = req.json()?;
    if v.is_object() {
        Ok(v)
    } else {
        Err(ApiError::invalid("the request body must be a JSON object"))
    }
}

/// Runs `f` on the world after authentication, with time moved to now.
fn with_world<T>(
    app: &AppState,
    req: &ApiRequest,
    rule: Option<Rule>,
    f: impl FnOnce(&mut World, Caller) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut world = app.world_of(req);
    let now = world.clock();
    world.advance(now);
    let caller = match rule {
        Some(r) => authenticate(&mut world, req, r, now)?,
        None => Caller::Key,
    };
    app.touch();
    f(&mut world, caller)
}

// 1
pub async fn deposit_destinations(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(&app, &req, Some(Rule::Key { scope: None }), |w, _| {
        let i = w.account_index(req.query_str("accountId").unwrap_or_default())?;
        let address = match w.accounts[i].addresses.last() {
            Some(a) => a.clone(),
            None => w.new_address(i),
        };
        Ok(Json(json!({
            "onchainAddress": { "destination": address, "network": "NETWORK_BITCOIN" },
            "lightningAddress": { "destination": w.lightning_address(i), "network": "NETWORK_LIGHTNING" },
            "lnurlPay": { "destination": w.lnurl(i), "network": "NETWORK_LIGHTNING" },
        })))
    })
}

// 2
pub async fn create_invoice(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(
        &app,
        &req,
        Some(Rule::Receive {
            scope: "api:deposits:lightning:write",
        }),
        |w, _| {
            let body = object(&req)?;
            let i = w.account_index(&string_field(&body, "accountId")?)?;
            let amount = decimal_field(&body, "amount")?.unwrap_or(Decimal::ZERO);
            if amount.is_sign_negative() && !amount.is_zero() {
                return Err(ApiError::invalid("amount cannot be negative"));
            }
            let nok = enum_field(
                &body,
                "currency",
                "currency",
                &[("CURRENCY_BTC", false), ("CURRENCY_NOK", true)],
            )?;
            let (max_dp, unit) = if nok { (2, "NOK") } else { (8, "BTC") };
            if amount.normalize().scale() > max_dp {
                return Err(ApiError::invalid(format!(
                    "amount has more than {max_dp} decimals for {unit}"
                )));
            }
            let btc = if nok {
                btc_floor(amount / w.market.mid)
            } else {
                amount
            };
            if amount > Decimal::ZERO && btc.is_zero() {
                return Err(ApiError::invalid("amount is smaller than one satoshi"));
            }
            if btc > Decimal::from(100) {
                return Err(ApiError::invalid("amount is larger than an invoice may be"));
            }
            let public = string_field(&body, "publicDescription")?;
            let internal = string_field(&body, "internalDescription")?;
            if public.len() > 639 {
                return Err(ApiError::invalid(
                    "publicDescription is longer than 639 bytes",
                ));
            }
            let inv = w.create_invoice(InvoiceOwner::User, i, btc, public, internal, w.clock())?;
            Ok(Json(
                json!({ "depositDestinationId": inv.id, "invoice": inv.bolt11 }),
            ))
        },
    )
}

// 3
pub async fn get_invoice(
    State(app): State<AppState>,
    Path(id): Path<String>,
    req: ApiRequest,
) -> Answer {
    with_world(
        &app,
        &req,
        Some(Rule::Key {
            scope: Some("api:deposits:lightning:read"),
        }),
        |w, _| {
            let inv = w
                .find_invoice(&id)
                .ok_or_else(|| ApiError::not_found("no such invoice"))?;
            Ok(Json(
                json!({ "depositDestinationId": inv.id, "invoice": inv.bolt11, "status": inv.state.wire() }),
            ))
        },
    )
}

// 4
pub async fn list_orders(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(&app, &req, Some(Rule::Key { scope: None }), |w, _| {
        let orders: Vec<Value> = w
            .orders
            .iter()
            .filter(|o| o.is_open())
            .map(|o| {
                json!({
                    "orderId": o.id,
                    "type": kind_wire(o.kind),
                    "direction": direction_wire(o.direction),
                    "amount": num(o.amount),
                    "createdAt": time::format(&o.created),
                })
            })
            .collect();
        Ok(Json(json!({ "orders": orders })))
    })
}

fn kind_wire(k: OrderKind) -> &'static str {
    match k {
        OrderKind::Market => "ORDER_TYPE_MARKET",
        OrderKind::Limit => "ORDER_TYPE_LIMIT",
    }
}

fn direction_wire(d: OrderDirection) -> &'static str {
    match d {
        OrderDirection::Buy => "DIRECTION_BUY",
        OrderDirection::Sell => "DIRECTION_SELL",
    }
}

// 5
pub async fn create_order(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(
        &app,
        &req,
        Some(Rule::Signed(Permission::Trading)),
        |w, _| {
            let body = object(&req)?;
            let kind = enum_field(
                &body,
                "type",
                "order type",
                &[
                    ("ORDER_TYPE_MARKET", OrderKind::Market),
                    ("ORDER_TYPE_LIMIT", OrderKind::Limit),
                ],
            )?;
            let direction = enum_field(
                &body,
                "direction",
                "direction",
                &[
                    ("DIRECTION_BUY", OrderDirection::Buy),
                    ("DIRECTION_SELL", OrderDirection::Sell),
                ],
            )?;
            let amount = decimal_field(&body, "amount")?
                .ok_or_else(|| ApiError::invalid("amount is required and must be positive"))?;
            let price = match kind {
                OrderKind::Limit => decimal_field(&body, "price")?,
                OrderKind::Market => None,
            };
            let new = NewOrder {
                kind,
                direction,
                amount,
                price,
                account_id: string_field(&body, "accountId")?,
                description: string_field(&body, "description")?,
            };
            let (order_id, trade_id) = w.place_order(new, w.clock())?;
            Ok(Json(
                json!({ "orderId": order_id, "tradeId": trade_id.unwrap_or_default() }),
            ))
        },
    )
}

// 6
pub async fn cancel_order(
    State(app): State<AppState>,
    Path(id): Path<String>,
    req: ApiRequest,
) -> Answer {
    with_world(
        &app,
        &req,
        Some(Rule::Signed(Permission::Trading)),
        |w, _| {
            w.cancel_order(&id, w.clock())?;
            Ok(Json(json!({})))
        },
    )
}

// 7
pub async fn price(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(&app, &req, None, |w, _| {
        let amount = match req
            .query_str("amount")
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => Decimal::from(5000),
            Some(a) => {
                let d = Decimal::from_str(a)
                    .or_else(|_| Decimal::from_scientific(a))
                    .map_err(|_| ApiError::invalid("amount must be a number"))?;
                if d <= Decimal::ZERO {
                    return Err(ApiError::invalid("amount must be positive"));
                }
                if d > Decimal::from(1_000_000_000) {
                    return Err(ApiError::invalid("amount is too large"));
                }
                d
            }
        };
        let q = w.market.quote(amount);
        Ok(Json(json!({
            "price": num(q.price),
            "bid": num(q.bid),
            "ask": num(q.ask),
            "timestamp": time::format(&w.clock()),
            "card": { "buy": num(q.card_buy), "sell": num(q.card_sell) },
            "bank": { "buy": num(q.bank_buy), "sell": num(q.bank_sell) },
        })))
    })
}

fn date_param(req: &ApiRequest, default: NaiveDate) -> Result<NaiveDate, ApiError> {
    match req
        .query_str("date")
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => Ok(default),
        Some(d) => NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map_err(|_| ApiError::invalid("date must be YYYY-MM-DD")),
    }
}

fn stats_json(s: &market_api::VolumeStats) -> Value {
    json!({
        "amountNok": num(s.nok),
        "amountBtc": num(s.btc),
        "buyPercentage": num(s.buy_percentage()),
        "numberOfTrades": s.trades,
    })
}

// 8
pub async fn volume(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(&app, &req, None, |w, _| {
        let now = w.clock();
        let today = now.date_naive();
        let date = date_param(&req, today)?;
        if date > today {
            return Err(ApiError::invalid("date is in the future"));
        }
        use chrono::Datelike;
        let month_start = date.with_day(1).unwrap_or(date);
        let year_start = date.with_ordinal(1).unwrap_or(date);
        let daily = w.market.total(date, date, now, &w.user_volume);
        let monthly = w.market.total(month_start, date, now, &w.user_volume);
        let yearly = w.market.total(year_start, date, now, &w.user_volume);
        // The 24 hours before `date`'s end (or before now, for today).
        let yesterday = w.market.total(
            date - Duration::days(1),
            date - Duration::days(1),
            now,
            &w.user_volume,
        );
        let elapsed = if date == today {
            use chrono::Timelike;
            Decimal::from(now.num_seconds_from_midnight()) / Decimal::from(86_400)
        } else {
            Decimal::ONE
        };
        let rest = Decimal::ONE - elapsed;
        let scale = |n: u64| u64::try_from((Decimal::from(n) * rest).trunc()).unwrap_or(0);
        let last24h = market_api::VolumeStats {
            nok: crate::world::nok_round(daily.nok + yesterday.nok * rest),
            btc: btc_floor(daily.btc + yesterday.btc * rest),
            buys: daily.buys + scale(yesterday.buys),
            trades: daily.trades + scale(yesterday.trades),
        };
        Ok(Json(json!({
            "daily": stats_json(&daily),
            "monthly": stats_json(&monthly),
            "yearly": stats_json(&yearly),
            "last24h": stats_json(&last24h),
        })))
    })
}

// 9
pub async fn volume_historic(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(&app, &req, None, |w, _| {
        let now = w.clock();
        let today = now.date_naive();
        let from = date_param(
            &req,
            today
                .checked_sub_months(chrono::Months::new(1))
                .unwrap_or(today),
        )?;
        if from > today {
            return Err(ApiError::invalid("date is in the future"));
        }
        if (today - from).num_days() > 1_100 {
            return Err(ApiError::invalid("the period may be at most 1100 days"));
        }
        let mut days = vec![];
        let mut totals = vec![Decimal::ZERO; market_api::MARKETS.len()];
        let mut d = from;
        while d <= today {
            let per: Vec<_> = (0..market_api::MARKETS.len())
                .map(|m| w.market.day(d, m, now, w.user_volume.get(&d)))
                .collect();
            let day_total: Decimal = per.iter().map(|v| v.nok).sum();
            let shares =
                market_api::shares(&per.iter().map(|v| v.nok).collect::<Vec<_>>(), day_total);
            let mut stats = serde_json::Map::new();
            for (m, v) in per.iter().enumerate() {
                let (name, color, _) = market_api::MARKETS[m];
                totals[m] += v.nok;
                stats.insert(
                    name.into(),
                    json!({
                        "name": name,
                        "color": color,
                        "volumeNok": num(v.nok),
                        "volumeBtc": num(v.btc),
                        "shareOfTotalVolume": num(shares[m]),
                    }),
                );
            }
            days.push(json!({ "date": d.to_string(), "stats": stats }));
            d += Duration::days(1);
        }
        let grand: Decimal = totals.iter().copied().sum();
        let overall = market_api::shares(&totals, grand);
        let share_map: serde_json::Map<String, Value> = market_api::MARKETS
            .iter()
            .zip(overall)
            .map(|((name, _, _), s)| ((*name).to_owned(), num(s)))
            .collect();
        Ok(Json(
            json!({ "dailyVolume": days, "shareOfTotalVolume": share_map }),
        ))
    })
}

fn accounts_json(w: &World, include_deleted: bool) -> Value {
    let quote = w.market.mid;
    let accounts: Vec<Value> = w
        .accounts
        .iter()
        .enumerate()
        .filter(|(_, a)| include_deleted || a.deleted.is_none())
        .map(|(i, a)| {
            json!({
                "id": a.id,
                "availableBtc": num(w.available_btc(i)),
                "totalBtc": num(a.btc),
                "totalNok": num(crate::world::nok_round(a.btc * quote)),
                "name": a.name,
                "createTime": time::format(&a.created),
                "deleteTime": a.deleted.as_ref().map(time::format).unwrap_or_default(),
            })
        })
        .collect();
    let total: Decimal = w
        .accounts
        .iter()
        .filter(|a| include_deleted || a.deleted.is_none())
        .map(|a| a.btc)
        .sum();
    json!({ "accounts": accounts, "totalBtc": num(total), "totalNok": num(crate::world::nok_round(total * quote)) })
}

// 10
pub async fn bitcoin_accounts(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(
        &app,
        &req,
        Some(Rule::Key {
            scope: Some("api:accounts:bitcoin:read"),
        }),
        |w, _| Ok(Json(accounts_json(w, req.query_bool("includeDeleted")?))),
    )
}

// 11
pub async fn fiat_account(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(&app, &req, Some(Rule::Key { scope: None }), |w, _| {
        Ok(Json(json!({ "availableNok": num(w.available_nok()) })))
    })
}

// 12
pub async fn revoke_consent(
    State(app): State<AppState>,
    Path(client_id): Path<String>,
    req: ApiRequest,
) -> Answer {
    with_world(&app, &req, Some(Rule::KeyOrAnyToken), |w, _| {
        if w.oauth.revoke_client(&client_id) {
            Ok(Json(json!({})))
        } else {
            Err(ApiError::not_found(format!(
                "no application with client id {client_id}"
            )))
        }
    })
}

// 13
pub async fn tax_balance(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(
        &app,
        &req,
        Some(Rule::Key {
            scope: Some("api:accounts:bitcoin:read"),
        }),
        |w, _| {
            let include_deleted = req.query_bool("includeDeleted")?;
            let accounts: Vec<Value> = w
                .accounts
                .iter()
                .filter(|a| include_deleted || a.deleted.is_none())
                .map(|a| {
                    json!({
                        "id": a.id,
                        "name": a.name,
                        "balanceBtc": format!("{:.8}", a.btc),
                        "deleteTime": a.deleted.as_ref().map(time::format).unwrap_or_default(),
                    })
                })
                .collect();
            Ok(Json(
                json!({ "balanceNok": format!("{:.2}", w.fiat_nok), "bitcoinAccounts": accounts }),
            ))
        },
    )
}

// 14
pub async fn tax_transactions(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(
        &app,
        &req,
        Some(Rule::Key {
            scope: Some("api:tax:transactions:read"),
        }),
        |w, _| {
            let page_size = match req
                .query_str("pageSize")
                .map(str::trim)
                .filter(|s| !s.is_empty())
            {
                None => 0,
                Some(p) => p
                    .parse::<i64>()
                    .ok()
                    .filter(|n| (0..=200).contains(n))
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| {
                        ApiError::invalid("pageSize must be an integer from 0 to 200")
                    })?,
            };
            let opt = |k: &str| req.query_str(k).map(str::trim).filter(|s| !s.is_empty());
            let after = opt("after").map(|t| time::parse("after", t)).transpose()?;
            let before = opt("before")
                .map(|t| time::parse("before", t))
                .transpose()?;
            let now = w.clock();
            let readings = w.readings.clone();
            let page = w.tax_page(page_size, after, opt("afterId"), before)?;
            let last = page.rows.last();
            let listed = |r: &&crate::world::TaxRow| {
                if readings.is_pending(r.create_time, now) {
                    r.to_pending_json(&readings)
                } else {
                    r.to_json(&readings)
                }
            };
            Ok(Json(json!({
                "transactions": page.rows.iter().map(listed).collect::<Vec<_>>(),
                "hasMore": page.has_more,
                "nextAfter": last.map(|r| time::format(&r.create_time)).unwrap_or_default(),
                "nextAfterId": last.map(|r| r.id.clone()).unwrap_or_default(),
            })))
        },
    )
}

#[derive(Debug, Deserialize)]
struct TfrShape {
    #[serde(rename = "tfrInfo", default)]
    tfr_info: Option<TravelRule>,
}

// 15
pub async fn create_withdrawal(State(app): State<AppState>, req: ApiRequest) -> Answer {
    with_world(
        &app,
        &req,
        Some(Rule::Signed(Permission::Withdrawal)),
        |w, _| {
            let body = object(&req)?;
            let tfr: TfrShape = serde_json::from_value(body.clone())
                .map_err(|e| ApiError::invalid(format!("invalid tfrInfo: {e}")))?;
            let new = NewWithdrawal {
                destination: string_field(&body, "destination")?,
                amount_btc: decimal_field(&body, "amountBtc")?,
                account_id: string_field(&body, "accountId")?,
                is_payment: bool_field(&body, "isPayment")?,
                description: string_field(&body, "description")?,
                tfr_info: tfr.tfr_info,
            };
            let rec = w.create_withdrawal(new, w.clock())?;
            Ok(Json(
                json!({ "withdrawalId": rec.id, "network": rec.kind.network(), "status": rec.state.wire() }),
            ))
        },
    )
}

// 16
pub async fn get_withdrawal(
    State(app): State<AppState>,
    Path(id): Path<String>,
    req: ApiRequest,
) -> Answer {
    with_world(&app, &req, Some(Rule::Key { scope: None }), |w, _| {
        let rec = w
            .withdrawals
            .iter()
            .find(|x| x.id == id)
            .ok_or_else(|| ApiError::not_found(format!("no withdrawal with id {id}")))?;
        Ok(Json(json!({
            "withdrawalId": rec.id,
            "destination": rec.destination,
            "network": rec.kind.network(),
            "amountBtc": num(rec.amount_btc),
            "amountNok": num(rec.amount_nok),
            "status": rec.state.wire(),
            "createdAt": time::format(&rec.created),
            "sentAt": rec.sent.as_ref().map(time::format).unwrap_or_default(),
        })))
    })
}

/// Used by the control API to report an order's fill.
pub fn order_state_json(state: &OrderState) -> Value {
    match state {
        OrderState::Open => json!({ "state": "open" }),
        OrderState::Filled { trade_id, at } => {
            json!({ "state": "filled", "tradeId": trade_id, "at": time::format(at) })
        }
        OrderState::Cancelled { at } => json!({ "state": "cancelled", "at": time::format(at) }),
    }
}
