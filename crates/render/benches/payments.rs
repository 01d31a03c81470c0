//! `cargo bench -p nordlys-render --bench payments`: the QR code of a 400-character invoice as SVG
//! (target ≤ 1 ms) and parsing a destination (target ≤ 50 µs), each beside a baseline measured in
//! the same run: the `qrcode` crate making the matrix alone (with its own mask choice), and the
//! bech32 checksum alone.
#![allow(clippy::unwrap_used, reason = "benchmark set-up")]

use std::time::{Duration, SystemTime};

use bitcoin::hashes::{Hash, sha256};
use bitcoin::secp256k1::{Secp256k1, SecretKey};
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use lightning_invoice::{Currency, InvoiceBuilder, PaymentSecret};
use nordlys_core::destination;
use nordlys_render::qr;

/// A signed mainnet invoice of about 400 characters.
fn invoice() -> String {
    let key = SecretKey::from_slice(&[0x21; 32]).unwrap();
    let text = InvoiceBuilder::new(Currency::Bitcoin)
        .description(
            "Nordlys benchmark: 2 x kaffe, 1 x skolebolle, bord 4, takk for besøket og velkommen tilbake!".into(),
        )
        .payment_hash(sha256::Hash::hash(b"bench"))
        .payment_secret(PaymentSecret([3; 32]))
        .amount_milli_satoshis(12_500_000)
        .current_timestamp()
        .min_final_cltv_expiry_delta(144)
        .expiry_time(Duration::from_secs(3600))
        .build_signed(|m| Secp256k1::new().sign_ecdsa_recoverable(m, &key))
        .unwrap()
        .to_string();
    assert!((380..=440).contains(&text.len()), "{}", text.len());
    text
}

fn payments(c: &mut Criterion) {
    let inv = invoice();
    let uri = qr::lightning_uri(&inv);
    c.bench_function("QR SVG of a 400-character invoice", |b| {
        b.iter(|| qr::svg(black_box(&uri)).unwrap())
    });
    c.bench_function(
        "baseline: the qrcode crate alone, matrix only, same invoice",
        |b| {
            b.iter(|| {
                qrcode::QrCode::with_error_correction_level(black_box(&uri), qrcode::EcLevel::L)
                    .unwrap()
            })
        },
    );
    let now = SystemTime::now();
    c.bench_function("parse a pasted invoice", |b| {
        b.iter(|| destination::parse(black_box(&inv), now).unwrap())
    });
    c.bench_function("parse a bech32 address", |b| {
        b.iter(|| {
            destination::parse(black_box("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"), now)
                .unwrap()
        })
    });
    let secp = bitcoin::secp256k1::Secp256k1::verification_only();
    let key = SecretKey::from_slice(&[0x21; 32]).unwrap();
    let msg = bitcoin::secp256k1::Message::from_digest([7; 32]);
    let sig = bitcoin::secp256k1::Secp256k1::new().sign_ecdsa_recoverable(&msg, &key);
    c.bench_function("baseline: one ECDSA public-key recovery", |b| {
        b.iter(|| {
            secp.recover_ecdsa(black_box(&msg), black_box(&sig))
                .unwrap()
        })
    });
    c.bench_function("baseline: bech32 checksum of the same invoice", |b| {
        b.iter(|| {
            bech32::primitives::decode::CheckedHrpstring::new::<bech32::NoChecksum>(black_box(&inv))
                .unwrap()
        })
    });
}

criterion_group!(benches, payments);
criterion_main!(benches);
