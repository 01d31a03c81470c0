//! Nonces under concurrency and restarts, and the money invariant under random operations.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{Duration, Utc};
use nordlys_exchange::nonce::{Clock, NonceSource, SystemClock};
use nordlys_exchange::{Credentials, Error};
use nordlys_sandbox::world::World;
use nordlys_tests::*;
use rust_decimal::Decimal;

#[derive(Debug)]
struct BehindClock(AtomicU64);

impl Clock for BehindClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_thousand_signed_requests_from_32_tasks_and_a_restart_with_the_clock_back() {
    let sb = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nonce");
    let creds = || Credentials {
        key: Some(key(&sb.info.api_keys.read)),
        bearer: None,
    };
    let nonces = Arc::new(NonceSource::persistent(&path, Arc::new(SystemClock)).unwrap());
    let c = client_with_nonces(&sb, creds(), nonces, true);
    let rejected = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = (0..32)
        .map(|i| {
            let c = c.clone();
            let rejected = rejected.clone();
            tokio::spawn(async move {
                for _ in 0..(10_000 / 32 + usize::from(i < 10_000 % 32)) {
                    if let Err(e) = c.fiat_account().await {
                        rejected.fetch_add(1, Ordering::Relaxed);
                        eprintln!("{e}");
                    }
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!(rejected.load(Ordering::Relaxed), 0);
    // Restart: a new process would read the same file; its clock is an hour behind.
    let behind = (Utc::now() - Duration::hours(1)).timestamp_millis() as u64;
    let restarted = Arc::new(
        NonceSource::persistent(&path, Arc::new(BehindClock(AtomicU64::new(behind)))).unwrap(),
    );
    let c = client_with_nonces(&sb, creds(), restarted, true);
    for _ in 0..20 {
        c.fiat_account().await.unwrap();
    }
    // Without the file the same clock is refused: the check is real. The exchange names the
    // last nonce it accepted, so the read moves past it and is sent once more.
    let fiat_requests = || async {
        control_get(&sb, "/sandbox/counters").await["requests"]["/v1/user/fiat-account"]
            .as_u64()
            .unwrap_or(0)
    };
    let forgetful = Arc::new(NonceSource::in_memory(Arc::new(BehindClock(
        AtomicU64::new(behind),
    ))));
    let c = client_with_nonces(&sb, creds(), forgetful, true);
    let before = fiat_requests().await;
    c.fiat_account().await.unwrap();
    assert_eq!(fiat_requests().await - before, 2);
}

/// Another app on the same key (here: one whose clock is a day ahead) leaves nonces this one
/// cannot exceed. An order is then refused, typed and not "unknown", and nothing is made; the
/// client moved past the nonce the exchange named, so the next order goes through.
#[tokio::test]
async fn an_order_refused_for_a_nonce_another_app_overtook_is_not_placed_and_the_next_is() {
    let sb = sandbox().await;
    let trading = || Credentials {
        key: Some(key(&sb.info.api_keys.trading)),
        bearer: None,
    };
    let ahead = (Utc::now() + Duration::days(1)).timestamp_millis() as u64;
    let other_app = client_with_nonces(
        &sb,
        trading(),
        Arc::new(NonceSource::in_memory(Arc::new(BehindClock(
            AtomicU64::new(ahead),
        )))),
        true,
    );
    other_app.fiat_account().await.unwrap();
    let ours = client_with_nonces(
        &sb,
        trading(),
        Arc::new(NonceSource::in_memory(Arc::new(SystemClock))),
        false,
    );
    let order = nordlys_exchange::models::NewOrderRequest {
        order_type: nordlys_exchange::models::OrderType::Market,
        direction: nordlys_exchange::models::Direction::Buy,
        amount: Decimal::from(500),
        account_id: None,
        description: String::new(),
        price: None,
    };
    let e = ours.create_order(&order).await.unwrap_err();
    assert!(matches!(e, Error::StaleNonce { .. }), "{e}");
    assert!(!e.is_outcome_unknown());
    assert!(e.to_string().contains("same API key"), "{e}");
    let made = control_get(&sb, "/sandbox/made").await;
    assert_eq!(made["orders"].as_array().map_or(0, Vec::len), 0);
    ours.create_order(&order).await.unwrap();
}

#[test]
fn books_balance_after_a_thousand_random_operations() {
    use nordlys_sandbox::world::rng::Rng;
    let mut now = Utc::now();
    let mut w = World::new(11, now);
    w.audit().unwrap();
    let mut rng = Rng::new(99);
    let dec = |s: &str| Decimal::from_str(s).unwrap();
    for _ in 0..1000 {
        now += Duration::seconds(i64::try_from(rng.below(20)).unwrap());
        w.advance(now);
        let _ = match rng.below(8) {
            0 => w
                .place_order(order(true, dec("750.50"), None), now)
                .map(drop),
            1 => w
                .place_order(order(false, dec("0.0013"), None), now)
                .map(drop),
            2 => {
                let p = w.market.mid * dec("0.999");
                w.place_order(
                    order(rng.chance(50), dec("0.002"), Some(p.round_dp(2))),
                    now,
                )
                .map(drop)
            }
            3 => {
                let open: Vec<String> = w
                    .orders
                    .iter()
                    .filter(|o| o.is_open())
                    .map(|o| o.id.clone())
                    .collect();
                match open.first() {
                    Some(id) => w.cancel_order(id, now),
                    None => Ok(()),
                }
            }
            4 => w
                .deposit_btc(
                    0,
                    dec("0.005"),
                    nordlys_sandbox::world::DepositVia::Onchain,
                    now,
                )
                .map(drop),
            5 => {
                let m =
                    w.market.mid * (Decimal::ONE + (rng.unit() - dec("0.5")) / Decimal::from(50));
                w.market.set_mid(m);
                Ok(())
            }
            6 => w.create_withdrawal(withdrawal(&mut rng), now).map(drop),
            _ => {
                let inv = w.create_invoice(
                    nordlys_sandbox::world::InvoiceOwner::User,
                    0,
                    dec("0.0002"),
                    String::new(),
                    String::new(),
                    now,
                );
                let i = w.invoices.len() - 1;
                inv.and_then(|_| w.settle_invoice(i, None, true, now))
                    .map(drop)
            }
        };
        if let Err(e) = w.audit() {
            panic!("{e}");
        }
    }
    assert!(w.counters.trades > 100, "{}", w.counters.trades);
}

fn order(
    buy: bool,
    amount: Decimal,
    price: Option<Decimal>,
) -> nordlys_sandbox::world::orders_api::NewOrder {
    use nordlys_sandbox::world::orders_api::{NewOrder, OrderDirection, OrderKind};
    let (direction, amount) = if buy {
        (
            OrderDirection::Buy,
            amount.round_dp(2).max(Decimal::from(100)),
        )
    } else {
        (OrderDirection::Sell, amount)
    };
    NewOrder {
        kind: if price.is_some() {
            OrderKind::Limit
        } else {
            OrderKind::Market
        },
        direction,
        amount: if buy && price.is_some() {
            Decimal::from(500)
        } else {
            amount
        },
        price,
        account_id: String::new(),
        description: String::new(),
    }
}

fn withdrawal(
    rng: &mut nordlys_sandbox::world::rng::Rng,
) -> nordlys_sandbox::world::payments_api::NewWithdrawal {
    let destination = if rng.chance(50) {
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
    } else {
        "kari@example.com"
    };
    nordlys_sandbox::world::payments_api::NewWithdrawal {
        destination: destination.into(),
        amount_btc: Some(Decimal::new(30_000, 8)),
        account_id: String::new(),
        is_payment: false,
        description: String::new(),
        tfr_info: serde_json::from_value(
            serde_json::json!({"fullName": "Kari", "address": "Oslo"}),
        )
        .ok(),
    }
}
