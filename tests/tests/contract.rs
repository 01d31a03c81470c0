//! The client against the sandbox, endpoint by endpoint, and every auth rule.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]

use std::str::FromStr;

use base64::Engine;
use nordlys_exchange::models::*;
use nordlys_exchange::{Credentials, Error, TaxQuery};
use nordlys_money::{NokPerBtc, Quantity};
use nordlys_tests::*;
use rust_decimal::Decimal;

/// A figure in whichever unit its place wants.
fn d<Q: Quantity>(s: &str) -> Q {
    Q::computed(Decimal::from_str(s).unwrap())
}

/// A limit price `factor` times `price`, to the øre.
fn times(price: NokPerBtc, factor: &str) -> NokPerBtc {
    NokPerBtc::computed((price.decimal() * d::<Decimal>(factor)).round_dp(2))
}

#[tokio::test]
async fn every_endpoint_answers_through_the_client() {
    let sb = sandbox().await;
    let keys = &sb.info.api_keys;
    let read = key_client(&sb, &keys.read);
    let trade = key_client(&sb, &keys.trading);
    let send = key_client(&sb, &keys.withdrawal);

    // 7, 8, 9: public.
    let price = read.price(Some(d("10000"))).await.unwrap();
    assert!(price.bid < price.price && price.price < price.ask);
    let vol = read.volume(None).await.unwrap();
    assert!(
        vol.yearly.amount_nok >= vol.monthly.amount_nok
            && vol.monthly.amount_nok >= vol.daily.amount_nok
    );
    let hist = read.volume_historic(None).await.unwrap();
    assert!(hist.daily_volume.len() >= 28);
    let share_sum: Decimal = hist.share_of_total_volume.0.values().copied().sum();
    assert_eq!(share_sum, Decimal::ONE);
    for day in &hist.daily_volume {
        let s: Decimal = day.stats.values().map(|m| m.share_of_total_volume).sum();
        assert!(s == Decimal::ONE || s.is_zero(), "{} sums to {s}", day.date);
    }

    // 10, 11, 13: balances.
    let accounts = read.bitcoin_accounts(false).await.unwrap();
    assert_eq!(accounts.accounts.len(), 2);
    let all = read.bitcoin_accounts(true).await.unwrap();
    assert_eq!(all.accounts.iter().filter(|a| a.is_deleted()).count(), 1);
    let fiat = read.fiat_account().await.unwrap();
    assert!(fiat.available_nok.is_positive());
    let tax = read.tax_balance(true).await.unwrap();
    assert_eq!(tax.bitcoin_accounts.len(), 3);
    assert_eq!(
        read.tax_balance(false)
            .await
            .unwrap()
            .bitcoin_accounts
            .len(),
        2
    );

    // 1: destinations rotate after a deposit, and the old address stays valid.
    let dest = read.deposit_destinations(None).await.unwrap();
    assert!(dest.onchain_address.destination.starts_with("bc1"));
    assert_eq!(dest.onchain_address.network, Network::Bitcoin);
    assert!(dest.lnurl_pay.destination.starts_with("LNURL1"));
    assert!(dest.lightning_address.destination.contains('@'));
    control(
        &sb,
        "/sandbox/deposits",
        serde_json::json!({ "amountBtc": 0.01 }),
    )
    .await;
    let after = read.deposit_destinations(None).await.unwrap();
    assert_ne!(
        after.onchain_address.destination,
        dest.onchain_address.destination
    );

    // 2, 3: invoices, by id and by the invoice itself.
    let inv = read
        .create_invoice(&NewLightningInvoiceRequest {
            account_id: None,
            currency: Currency::Nok,
            amount: d("250"),
            public_description: "kaffe".into(),
            internal_description: "order 17".into(),
        })
        .await
        .unwrap();
    assert!(inv.invoice.starts_with("lnbc"));
    assert_eq!(
        read.invoice(inv.deposit_destination_id.as_str())
            .await
            .unwrap()
            .status,
        InvoiceStatus::Unpaid
    );
    control(
        &sb,
        &format!("/sandbox/invoices/{}/pay", inv.deposit_destination_id),
        serde_json::json!({}),
    )
    .await;
    assert_eq!(
        read.invoice(&inv.invoice).await.unwrap().status,
        InvoiceStatus::Paid
    );
    let any = read
        .create_invoice(&NewLightningInvoiceRequest {
            account_id: None,
            currency: Currency::Btc,
            amount: Decimal::ZERO,
            public_description: String::new(),
            internal_description: String::new(),
        })
        .await
        .unwrap();
    assert!(
        any.invoice.starts_with("lnbc1"),
        "an any-amount invoice has no amount: {}",
        any.invoice
    );

    // 5, 4, 6: orders.
    let market = trade
        .create_order(&NewOrderRequest {
            order_type: OrderType::Market,
            direction: Direction::Buy,
            amount: d("1000"),
            account_id: None,
            description: "test".into(),
            price: None,
        })
        .await
        .unwrap();
    assert!(market.trade_id.is_some());
    let limit = trade
        .create_order(&NewOrderRequest {
            order_type: OrderType::Limit,
            direction: Direction::Sell,
            amount: d("0.001"),
            account_id: None,
            description: String::new(),
            price: Some(times(price.ask, "2")),
        })
        .await
        .unwrap();
    assert!(limit.trade_id.is_none());
    let open = read.open_orders().await.unwrap();
    assert!(open.orders.iter().any(|o| o.order_id == limit.order_id));
    let cancel_market = trade.cancel_order(&market.order_id).await.unwrap_err();
    assert!(
        cancel_market.server_message().unwrap().contains("market"),
        "{cancel_market}"
    );
    trade.cancel_order(&limit.order_id).await.unwrap();
    assert!(read.open_orders().await.unwrap().orders.is_empty());

    // 15, 16: withdrawal settles by itself.
    let w = send
        .create_withdrawal(&SendBitcoinRequest {
            destination: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq".into(),
            amount_btc: Some(d("0.001")),
            account_id: None,
            is_payment: false,
            description: String::new(),
            tfr_info: Some(TravelRuleInfo {
                full_name: "Åse Ødegård".into(),
                country: "NO".into(),
                address: "Storgata 1, 0155 Oslo".into(),
                ..TravelRuleInfo::default()
            }),
        })
        .await
        .unwrap();
    assert_eq!(w.status, WithdrawalStatus::Pending);
    let got = read.withdrawal(&w.withdrawal_id).await.unwrap();
    assert_eq!(got.amount_btc, d("0.001"));
    assert!(got.sent_at.is_none());
    control(
        &sb,
        &format!("/sandbox/withdrawals/{}/complete", w.withdrawal_id),
        serde_json::json!({}),
    )
    .await;
    let done = read.withdrawal(&w.withdrawal_id).await.unwrap();
    assert_eq!(done.status, WithdrawalStatus::Completed);
    assert!(done.sent_at.is_some());

    // 12: revoking an application's consent.
    read.revoke_consent("nordlys-desktop").await.unwrap();
    assert!(read.revoke_consent("no-such-app").await.is_err());

    assert_eq!(control_get(&sb, "/sandbox/audit").await["ok"], true);
}

#[tokio::test]
async fn paying_another_users_invoice_completes_at_once_and_marks_it_paid() {
    let sb = sandbox().await;
    let send = key_client(&sb, &sb.info.api_keys.withdrawal);
    let other = control(
        &sb,
        "/sandbox/invoices",
        serde_json::json!({ "amountBtc": 0.0001 }),
    )
    .await;
    let invoice = other["invoice"].as_str().unwrap().to_owned();
    let request = SendBitcoinRequest {
        destination: invoice.clone(),
        amount_btc: None,
        account_id: None,
        is_payment: true,
        description: "lunch".into(),
        tfr_info: Some(TravelRuleInfo {
            full_name: "Kari Nordmann".into(),
            address: "Bergen".into(),
            ..TravelRuleInfo::default()
        }),
    };
    let w = send.create_withdrawal(&request).await.unwrap();
    assert_eq!(w.status, WithdrawalStatus::Completed);
    assert_eq!(w.network, Network::Lightning);
    let again = send.create_withdrawal(&request).await.unwrap_err();
    assert!(
        again.server_message().unwrap().contains("already paid"),
        "{again}"
    );
}

#[tokio::test]
async fn travel_rule_data_is_needed_only_for_a_new_destination() {
    let sb = sandbox().await;
    let send = key_client(&sb, &sb.info.api_keys.withdrawal);
    let mut request = SendBitcoinRequest {
        destination: "kari@example.com".into(),
        amount_btc: Some(d("0.0001")),
        account_id: None,
        is_payment: false,
        description: String::new(),
        tfr_info: None,
    };
    let e = send.create_withdrawal(&request).await.unwrap_err();
    assert!(e.server_message().unwrap().contains("tfrInfo"), "{e}");
    request.tfr_info = Some(TravelRuleInfo {
        full_name: "Kari".into(),
        address: "Oslo".into(),
        country: "NO".into(),
        nin: "12345".into(),
        ..TravelRuleInfo::default()
    });
    let e = send.create_withdrawal(&request).await.unwrap_err();
    assert!(
        e.server_message().unwrap().contains("organisation number"),
        "{e}"
    );
    request.tfr_info.as_mut().unwrap().nin = "123456789".into();
    send.create_withdrawal(&request).await.unwrap();
    request.tfr_info = None;
    send.create_withdrawal(&request).await.unwrap();
}

#[tokio::test]
async fn tax_pages_of_any_size_give_the_identical_ordered_list() {
    let sb = sandbox().await;
    let read = key_client(&sb, &sb.info.api_keys.read);
    let everything = read.tax_transactions(&TaxQuery::new(0)).await.unwrap();
    assert!(
        everything.transactions.len() > 2000,
        "{}",
        everything.transactions.len()
    );
    assert!(!everything.has_more);
    let ids = |r: &ListTaxTransactionsResponse| {
        r.transactions
            .iter()
            .map(|t| t.id.clone())
            .collect::<Vec<_>>()
    };
    let want = ids(&everything);
    let times: Vec<_> = everything
        .transactions
        .iter()
        .map(|t| t.create_time)
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first");
    assert!(
        times.windows(2).any(|w| w[0] == w[1]),
        "the seeded history has ties on createTime"
    );
    for size in [1, 7, 200] {
        let all = read
            .all_tax_transactions(TaxQuery::new(size))
            .await
            .unwrap();
        assert_eq!(ids(&all), want, "pageSize {size}");
        assert!(!all.has_more);
    }
    let e = read
        .tax_transactions(&TaxQuery::new(201))
        .await
        .unwrap_err();
    assert!(matches!(e, Error::Invalid(_)), "{e}");
}

async fn raw(
    sb: &nordlys_sandbox::RunningSandbox,
    method: reqwest::Method,
    path: &str,
    headers: &[(&str, String)],
    body: &str,
) -> (u16, serde_json::Value) {
    let mut r = reqwest::Client::new()
        .request(method, format!("{}{path}", sb.base_url()))
        .body(body.to_owned());
    for (k, v) in headers {
        r = r.header(*k, v);
    }
    let resp = r.send().await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(serde_json::Value::Null))
}

fn signed(secret: &str, nonce: u64, method: &str, path: &str, body: &str) -> String {
    let s =
        nordlys_exchange::ApiSecret::parse(secret, &nordlys_exchange::Operator::default()).unwrap();
    nordlys_exchange::signing::sign(s.hmac_key(), nonce, method, path, body.as_bytes()).signature
}

#[tokio::test]
async fn every_auth_rule_is_enforced() {
    let sb = sandbox().await;
    let t = &sb.info.api_keys.trading;
    let body =
        r#"{"type":"ORDER_TYPE_LIMIT","direction":"DIRECTION_BUY","amount":100,"price":1000}"#;
    let post = |nonce: u64, sig: String, key: &str| {
        vec![
            ("x-svc-api-key", key.to_owned()),
            ("x-svc-api-nonce", nonce.to_string()),
            ("x-svc-api-hmac", sig),
            ("content-type", "application/json".to_owned()),
        ]
    };
    // Valid.
    let (s, _) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders",
        &post(
            100,
            signed(&t.secret, 100, "POST", "/v1/orders", body),
            &t.key,
        ),
        body,
    )
    .await;
    assert_eq!(s, 200);
    // Equal and stale nonces.
    for n in [100, 99] {
        let (s, v) = raw(
            &sb,
            reqwest::Method::POST,
            "/v1/orders",
            &post(n, signed(&t.secret, n, "POST", "/v1/orders", body), &t.key),
            body,
        )
        .await;
        assert_eq!((s, v["code"].as_i64()), (401, Some(16)), "nonce {n}: {v}");
    }
    // Tampered body.
    let (s, _) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders",
        &post(
            101,
            signed(&t.secret, 101, "POST", "/v1/orders", body),
            &t.key,
        ),
        &body.replace("100", "900"),
    )
    .await;
    assert_eq!(s, 401);
    // Wrong secret.
    let wrong = &sb.info.api_keys.read.secret;
    let (s, _) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders",
        &post(102, signed(wrong, 102, "POST", "/v1/orders", body), &t.key),
        body,
    )
    .await;
    assert_eq!(s, 401);
    // Query string signed.
    let (s, _) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders?x=1",
        &post(
            103,
            signed(&t.secret, 103, "POST", "/v1/orders?x=1", body),
            &t.key,
        ),
        body,
    )
    .await;
    assert_eq!(s, 401);
    // A valid signature consumes the nonce even though the operation fails.
    let bad = r#"{"type":"ORDER_TYPE_LIMIT","direction":"DIRECTION_BUY","amount":-1,"price":1000}"#;
    let (s, v) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders",
        &post(
            200,
            signed(&t.secret, 200, "POST", "/v1/orders", bad),
            &t.key,
        ),
        bad,
    )
    .await;
    assert_eq!((s, v["code"].as_i64()), (400, Some(3)), "{v}");
    let (s, _) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders",
        &post(
            200,
            signed(&t.secret, 200, "POST", "/v1/orders", body),
            &t.key,
        ),
        body,
    )
    .await;
    assert_eq!(s, 401, "nonce 200 was consumed by the failed order");
    // Missing permission.
    let r = &sb.info.api_keys.read;
    let (s, v) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders",
        &post(
            300,
            signed(&r.secret, 300, "POST", "/v1/orders", body),
            &r.key,
        ),
        body,
    )
    .await;
    assert_eq!((s, v["code"].as_i64()), (403, Some(7)), "{v}");
    // Missing signature on a signed endpoint.
    let (s, _) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders",
        &[("x-svc-api-key", t.key.clone())],
        body,
    )
    .await;
    assert_eq!(s, 401);
    // Both a token and a key.
    let (s, v) = raw(
        &sb,
        reqwest::Method::GET,
        "/v1/user/bitcoin-accounts",
        &[
            ("x-svc-api-key", r.key.clone()),
            ("authorization", "Bearer x".into()),
        ],
        "",
    )
    .await;
    assert_eq!((s, v["code"].as_i64()), (400, Some(3)), "{v}");
    // Unknown key, no credentials.
    let (s, _) = raw(
        &sb,
        reqwest::Method::GET,
        "/v1/user/fiat-account",
        &[("x-svc-api-key", "svc/public/nope".into())],
        "",
    )
    .await;
    assert_eq!(s, 401);
    let (s, _) = raw(&sb, reqwest::Method::GET, "/v1/user/fiat-account", &[], "").await;
    assert_eq!(s, 401);
    // Malformed input of every kind gets the documented shape, never a hang.
    for (i, (body, word)) in [
        ("{", "invalid"),
        ("[]", "object"),
        (
            r#"{"type":"ORDER_TYPE_X","direction":"DIRECTION_BUY","amount":1}"#,
            "unknown order type",
        ),
        (
            r#"{"type":"ORDER_TYPE_MARKET","direction":"DIRECTION_BUY","amount":"abc"}"#,
            "number",
        ),
        (
            r#"{"type":"ORDER_TYPE_MARKET","direction":"DIRECTION_BUY"}"#,
            "amount is required",
        ),
        (
            r#"{"type":"ORDER_TYPE_MARKET","direction":"DIRECTION_BUY","amount":1e300}"#,
            "range",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let n = 1000 + i as u64;
        let (s, v) = raw(
            &sb,
            reqwest::Method::POST,
            "/v1/orders",
            &post(n, signed(&t.secret, n, "POST", "/v1/orders", body), &t.key),
            body,
        )
        .await;
        assert_eq!(s, 400, "{body}: {v}");
        assert!(v["message"].as_str().unwrap().contains(word), "{body}: {v}");
    }
    let big = "x".repeat(70_000);
    let (s, v) = raw(
        &sb,
        reqwest::Method::POST,
        "/v1/orders",
        &[("x-svc-api-key", t.key.clone())],
        &big,
    )
    .await;
    assert_eq!((s, v["code"].as_i64()), (413, Some(8)));
}

#[tokio::test]
async fn the_client_refuses_locally_what_cannot_succeed() {
    let sb = sandbox().await;
    let none = client(&sb, Credentials::default());
    assert!(matches!(none.fiat_account().await, Err(Error::Refused(_))));
    let trade = key_client(&sb, &sb.info.api_keys.trading);
    for (amount, word) in [
        ("0", "more than zero"),
        ("-1", "negative"),
        ("10.001", "decimals"),
    ] {
        let e = trade
            .create_order(&NewOrderRequest {
                order_type: OrderType::Market,
                direction: Direction::Buy,
                amount: d(amount),
                account_id: None,
                description: String::new(),
                price: None,
            })
            .await
            .unwrap_err();
        assert!(e.to_string().contains(word), "{amount}: {e}");
    }
    let counters = control_get(&sb, "/sandbox/counters").await;
    assert_eq!(counters["ordersCreated"], 0, "nothing reached the sandbox");
}

#[tokio::test]
async fn a_lost_answer_to_an_order_is_outcome_unknown_and_never_resent() {
    let sb = sandbox().await;
    sb.state.add_fault(nordlys_sandbox::FaultRule {
        path: "/v1/orders".into(),
        method: Some("POST".into()),
        kind: nordlys_sandbox::FaultKind::CommitThenDrop,
        count: Some(1),
        percent: None,
        delay_ms: 0,
    });
    let trade = key_client(&sb, &sb.info.api_keys.trading);
    let e = trade
        .create_order(&NewOrderRequest {
            order_type: OrderType::Market,
            direction: Direction::Buy,
            amount: d("500"),
            account_id: None,
            description: "lost".into(),
            price: None,
        })
        .await
        .unwrap_err();
    assert!(e.is_outcome_unknown(), "{e}");
    assert_eq!(
        control_get(&sb, "/sandbox/counters").await["ordersCreated"],
        1
    );
    // An injected 500 on a read is retried and succeeds.
    sb.state.add_fault(nordlys_sandbox::FaultRule {
        path: "/v1/user/fiat-account".into(),
        method: None,
        kind: nordlys_sandbox::FaultKind::Http500,
        count: Some(1),
        percent: None,
        delay_ms: 0,
    });
    trade.fiat_account().await.unwrap();
}

#[tokio::test]
async fn malformed_responses_are_decode_errors_naming_endpoint_and_field() {
    use axum::routing::get;
    let app = axum::Router::new()
        .route("/v1/user/fiat-account", get(|| async { r#"{"availableNok":"lots"}"# }))
        .route("/v1/price/nok", get(|| async { "not json" }))
        .route("/v1/orders", get(|| async { r#"{"orders":[{"orderId":"or_1","type":"ORDER_TYPE_FUTURE","direction":"DIRECTION_BUY","amount":1,"createdAt":""}]}"# }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let mut config = nordlys_exchange::ClientConfig::new(
        nordlys_exchange::BaseUrl::parse(&format!("http://{addr}")).unwrap(),
    );
    config.credentials = Credentials {
        key: Some(key(&nordlys_sandbox::KeyInfo {
            key: "svc/public/a".into(),
            secret: "svc/apisecret/Q2hhbmdlTWVQbGVhc2VOb3RBUmVhbFNlY3JldA".into(),
        })),
        bearer: None,
    };
    let c = nordlys_exchange::ExchangeClient::new(config).unwrap();
    match c.fiat_account().await.unwrap_err() {
        Error::Decode {
            endpoint, field, ..
        } => {
            assert_eq!(endpoint, "GET /v1/user/fiat-account");
            assert_eq!(field, "availableNok");
        }
        other => panic!("{other}"),
    }
    assert!(matches!(
        c.price(None).await.unwrap_err(),
        Error::Decode { .. }
    ));
    match c.open_orders().await.unwrap_err() {
        Error::Decode { field, .. } => assert_eq!(
            field, "orders[0].createdAt",
            "unknown enum kept, empty required time refused"
        ),
        other => panic!("{other}"),
    }
    let _ = base64::engine::general_purpose::STANDARD.encode("x");
}

#[tokio::test]
async fn a_resting_limit_order_fills_when_the_price_crosses_it() {
    let sb = sandbox().await;
    let trade = key_client(&sb, &sb.info.api_keys.trading);
    let price = trade.price(None).await.unwrap();
    let limit = trade
        .create_order(&NewOrderRequest {
            order_type: OrderType::Limit,
            direction: Direction::Sell,
            amount: d("0.001"),
            account_id: None,
            description: String::new(),
            price: Some(times(price.bid, "1.05")),
        })
        .await
        .unwrap();
    let before = trade.bitcoin_accounts(false).await.unwrap().accounts[0].clone();
    assert_eq!(
        before.total_btc - before.available_btc,
        d("0.001"),
        "the open sell reserves its BTC"
    );
    control(
        &sb,
        "/sandbox/price",
        serde_json::json!({ "movePercent": 10 }),
    )
    .await;
    assert!(trade.open_orders().await.unwrap().orders.is_empty());
    let state = control_get(&sb, &format!("/sandbox/orders/{}", limit.order_id)).await;
    assert_eq!(state["state"], "filled", "{state}");
    let after = trade.bitcoin_accounts(false).await.unwrap().accounts[0].clone();
    assert_eq!(after.total_btc, before.total_btc - d("0.001"));
    assert_eq!(
        trade
            .cancel_order(&limit.order_id)
            .await
            .unwrap_err()
            .server_message(),
        Some(format!("order {} is already filled", limit.order_id).as_str())
    );
}

#[tokio::test]
async fn the_world_survives_a_restart_with_a_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let config = nordlys_sandbox::SandboxConfig {
        seed: 5,
        state_file: Some(dir.path().join("world.json")),
        ..Default::default()
    };
    let sb = sandbox_with(config.clone()).await;
    let trade = key_client(&sb, &sb.info.api_keys.trading);
    trade
        .create_order(&NewOrderRequest {
            order_type: OrderType::Market,
            direction: Direction::Buy,
            amount: d("2000"),
            account_id: None,
            description: String::new(),
            price: None,
        })
        .await
        .unwrap();
    let before = trade.bitcoin_accounts(true).await.unwrap();
    let fiat = trade.fiat_account().await.unwrap();
    sb.shutdown().await;
    let sb = sandbox_with(config).await;
    let trade = key_client(&sb, &sb.info.api_keys.trading);
    let after = trade.bitcoin_accounts(true).await.unwrap();
    assert_eq!(after.total_btc, before.total_btc);
    assert_eq!(
        trade.fiat_account().await.unwrap().available_nok,
        fiat.available_nok
    );
    assert_eq!(
        control_get(&sb, "/sandbox/counters").await["ordersCreated"],
        1
    );
}

#[tokio::test]
async fn every_error_style_gives_the_user_the_server_s_own_words() {
    let sb = sandbox().await;
    let c = key_client(&sb, &sb.info.api_keys.trading);
    let missing = nordlys_exchange::ids::OrderId::new("or_missing");
    let said = |e: Error| e.server_message().map(str::to_owned);
    let grpc = said(c.cancel_order(&missing).await.unwrap_err()).unwrap();
    assert!(grpc.contains("or_missing"), "{grpc}");
    for (style, want) in [
        ("string", grpc.clone()),
        ("nested", grpc.clone()),
        ("text", grpc.clone()),
        ("none", "Not Found".to_owned()),
    ] {
        control(
            &sb,
            "/sandbox/readings",
            serde_json::json!({ "errorStyle": style }),
        )
        .await;
        let e = c.cancel_order(&missing).await.unwrap_err();
        assert!(matches!(e, Error::Http { status: 404, .. }), "{style}: {e}");
        assert_eq!(said(e).as_deref(), Some(want.as_str()), "{style}");
    }
}

/// `--latency-ms`: every answer of the exchange waits that long, as from an exchange at a
/// distance; the sandbox's own control answers at once.
#[tokio::test]
async fn an_exchange_at_a_distance_answers_each_request_that_much_later() {
    let sb = sandbox_with(nordlys_sandbox::SandboxConfig {
        seed: 7,
        latency_ms: 300,
        ..nordlys_sandbox::SandboxConfig::default()
    })
    .await;
    let http = reqwest::Client::new();
    let started = std::time::Instant::now();
    let price = http
        .get(format!("{}/v1/price/nok", sb.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(price.status(), 200);
    assert!(started.elapsed() >= std::time::Duration::from_millis(300));
    let started = std::time::Instant::now();
    control_get(&sb, "/sandbox/counters").await;
    assert!(started.elapsed() < std::time::Duration::from_millis(300));
}

/// A key without the exchange's Receive permission reads as any key, but creating an invoice is
/// refused with that reason, typed; from then on the client knows and refuses before sending.
#[tokio::test]
async fn a_key_without_receive_cannot_create_invoices_and_the_client_learns_it() {
    use nordlys_exchange::auth::Refusal;
    use nordlys_exchange::endpoint::KeyPermission;
    let sb = sandbox().await;
    let client = key_client(&sb, &sb.info.api_keys.no_receive);
    client.fiat_account().await.unwrap();
    assert_eq!(
        client.reach(nordlys_exchange::Endpoint::CreateInvoice),
        Ok(true)
    );
    let request = NewLightningInvoiceRequest {
        account_id: None,
        currency: Currency::Btc,
        amount: d("0.0001"),
        public_description: String::new(),
        internal_description: String::new(),
    };
    let lacks = |e: &Error| {
        matches!(
            e,
            Error::Refused(Refusal::KeyLacksPermission {
                permission: KeyPermission::Receive,
                ..
            })
        )
    };
    let e = client.create_invoice(&request).await.unwrap_err();
    assert!(lacks(&e), "{e}");
    assert!(e.to_string().contains("the Receive permission"), "{e}");
    assert_eq!(client.learned().receive, Some(false));
    assert!(
        client
            .reach(nordlys_exchange::Endpoint::CreateInvoice)
            .is_err()
    );
    let requests = control_get(&sb, "/sandbox/counters").await["requests"]
        ["/v1/deposit-destinations/bitcoin/invoice"]
        .as_u64();
    let again = client.create_invoice(&request).await.unwrap_err();
    assert!(lacks(&again));
    assert_eq!(
        control_get(&sb, "/sandbox/counters").await["requests"]["/v1/deposit-destinations/bitcoin/invoice"].as_u64(),
        requests,
        "refused before sending"
    );
    // The read key has it.
    let read = key_client(&sb, &sb.info.api_keys.read);
    read.create_invoice(&request).await.unwrap();
    assert_eq!(read.learned().receive, Some(true));
}

/// Requests the sandbox received at `path`.
async fn received(sb: &nordlys_sandbox::RunningSandbox, path: &str) -> u64 {
    control_get(sb, "/sandbox/counters").await["requests"][path]
        .as_u64()
        .unwrap_or(0)
}

/// A 429 is not retried by the backoff: a read waits what `Retry-After` says when it fits in
/// its timeout and asks once more; an order is refused, typed (nothing was made, never
/// "unknown"), and the client stays quiet for the whole exchange until the wait is over.
#[tokio::test]
async fn a_rate_limit_is_waited_out_by_reads_and_refuses_an_order_with_when() {
    let sb = sandbox().await;
    let read = key_client(&sb, &sb.info.api_keys.read);
    control(
        &sb,
        "/sandbox/faults",
        serde_json::json!({ "path": "/v1/price/nok", "kind": "rate-limit", "delayMs": 1000, "count": 1 }),
    )
    .await;
    let started = std::time::Instant::now();
    read.price(None).await.unwrap();
    assert!(started.elapsed() >= std::time::Duration::from_millis(950));
    assert_eq!(
        received(&sb, "/v1/price/nok").await,
        2,
        "asked again once, after the wait"
    );

    let trade = key_client(&sb, &sb.info.api_keys.trading);
    control(
        &sb,
        "/sandbox/faults",
        serde_json::json!({ "path": "/v1/orders", "method": "POST", "kind": "rate-limit", "delayMs": 120000, "count": 1 }),
    )
    .await;
    let e = trade
        .create_order(&NewOrderRequest {
            order_type: OrderType::Market,
            direction: Direction::Buy,
            amount: d("1000"),
            account_id: None,
            description: String::new(),
            price: None,
        })
        .await
        .unwrap_err();
    match &e {
        Error::RateLimited { retry_after, .. } => {
            assert_eq!(*retry_after, Some(std::time::Duration::from_secs(120)));
        }
        other => panic!("{other}"),
    }
    assert!(!e.is_outcome_unknown());
    assert!(e.to_string().contains("try again in 120 s"), "{e}");
    assert_eq!(
        received(&sb, "/v1/orders").await,
        1,
        "an order is never sent again"
    );
    let made = control_get(&sb, "/sandbox/made").await;
    assert_eq!(made["orders"].as_array().map_or(0, Vec::len), 0);
    // The whole client is quiet: a read now would wait past its timeout, so it is refused
    // before it is sent.
    let before = received(&sb, "/v1/orders").await;
    let e = trade.open_orders().await.unwrap_err();
    assert!(matches!(e, Error::RateLimited { .. }), "{e}");
    assert_eq!(received(&sb, "/v1/orders").await, before);
}

/// `--rate-limit N/min`: the N+1st request of a minute is answered 429 with `Retry-After` and
/// the exchange's message, and nothing is done.
#[tokio::test]
async fn the_sandbox_rate_limits_as_the_exchange_does() {
    let sb = sandbox().await;
    control(
        &sb,
        "/sandbox/readings",
        serde_json::json!({ "rateLimitPerMinute": 2 }),
    )
    .await;
    let http = reqwest::Client::new();
    let url = format!("{}/v1/price/nok", sb.base_url());
    for _ in 0..2 {
        assert_eq!(http.get(&url).send().await.unwrap().status(), 200);
    }
    let r = http.get(&url).send().await.unwrap();
    assert_eq!(r.status(), 429);
    let wait: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body, serde_json::json!({ "message": "slow down" }));
}
