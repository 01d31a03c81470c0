//! `cargo bench -p nordlys-tests --bench signing`: signing cost, and what signing adds to a real round trip.
//!
//! Baselines are measured in the same run: a bare reqwest GET to the same sandbox, and an
//! unsigned public GET through the client.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "benchmark set-up")]

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use nordlys_exchange::credentials::KeyCredentials;
use nordlys_exchange::nonce::SystemClock;
use nordlys_exchange::{
    ApiKey, ApiSecret, BaseUrl, ClientConfig, Credentials, ExchangeClient, NonceSource, signing,
};

fn sign_1kib(c: &mut Criterion) {
    let vectors: serde_json::Value =
        serde_json::from_str(include_str!("../../../shared/vectors/signatures.json")).unwrap();
    let secret = ApiSecret::parse(
        vectors["cases"][1]["secret"].as_str().unwrap(),
        &nordlys_exchange::Operator::default(),
    )
    .unwrap();
    let body = vec![b'x'; 1024];
    let mut nonce = 1_763_731_200_000u64;
    c.bench_function("sign 1 KiB body", |b| {
        b.iter(|| {
            nonce += 1;
            signing::sign(
                secret.hmac_key(),
                nonce,
                "POST",
                "/v1/withdrawals/bitcoin",
                &body,
            )
        })
    });
}

fn round_trips(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let sandbox = rt
        .block_on(nordlys_sandbox::start(nordlys_sandbox::SandboxConfig {
            seed: 3,
            ..Default::default()
        }))
        .unwrap();
    let base = sandbox.base_url().to_owned();
    let keys = &sandbox.info.api_keys.read;
    let mut config = ClientConfig::new(BaseUrl::parse(&base).unwrap());
    config.credentials = Credentials {
        key: Some(KeyCredentials {
            key: ApiKey::parse(&keys.key, &nordlys_exchange::Operator::default()).unwrap(),
            secret: Some(
                ApiSecret::parse(&keys.secret, &nordlys_exchange::Operator::default()).unwrap(),
            ),
            permissions: None,
        }),
        bearer: None,
    };
    config.sign_reads = true;
    config.nonces = Some(Arc::new(NonceSource::in_memory(Arc::new(SystemClock))));
    let client = ExchangeClient::new(config).unwrap();
    let bare = reqwest::Client::new();
    let url = format!("{base}/v1/user/fiat-account");
    let key = keys.key.clone();
    let mut group = c.benchmark_group("GET /v1/user/fiat-account over loopback");
    group.bench_function("bare reqwest, key header only (baseline)", |b| {
        b.to_async(&rt).iter(|| async {
            bare.get(&url)
                .header("x-svc-api-key", &key)
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap()
        })
    });
    group.bench_function("client, signed", |b| {
        b.to_async(&rt)
            .iter(|| async { client.fiat_account().await.unwrap() })
    });
    group.finish();
    let mut group = c.benchmark_group("sandbox GET /v1/price/nok");
    group.bench_function("client, public (unsigned)", |b| {
        b.to_async(&rt)
            .iter(|| async { client.price(None).await.unwrap() })
    });
    group.finish();
    drop(sandbox);
}

criterion_group!(benches, sign_1kib, round_trips);
criterion_main!(benches);
