#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! What the sandbox issues, the destination parser understands: round trips.

use std::str::FromStr;
use std::time::SystemTime;

use nordlys_core::destination::{AddressKind, Destination, parse};
use nordlys_core::format::{BtcUnit, Figures, Locale};
use nordlys_exchange::models::{Currency, NewLightningInvoiceRequest};
use nordlys_tests::*;
use rust_decimal::Decimal;

#[tokio::test]
async fn everything_the_sandbox_issues_is_recognised() {
    let sb = sandbox().await;
    let c = key_client(&sb, &sb.info.api_keys.read);
    let d = c.deposit_destinations(None).await.unwrap();
    assert!(matches!(
        parse(&d.onchain_address.destination, SystemTime::now()),
        Ok(Destination::Onchain {
            kind: AddressKind::Segwit,
            ..
        })
    ));
    assert!(matches!(
        parse(&d.lightning_address.destination, SystemTime::now()),
        Ok(Destination::LightningAddress { .. })
    ));
    match parse(&d.lnurl_pay.destination, SystemTime::now()) {
        Ok(Destination::Lnurl { url, .. }) => assert!(url.starts_with("https://"), "{url}"),
        other => panic!("{other:?}"),
    }
    let inv = c
        .create_invoice(&NewLightningInvoiceRequest {
            account_id: None,
            currency: Currency::Btc,
            amount: Decimal::from_str("0.000125").unwrap(),
            public_description: "kaffe".into(),
            internal_description: String::new(),
        })
        .await
        .unwrap();
    let parsed = parse(&inv.invoice, SystemTime::now()).unwrap();
    let Destination::Invoice(info) = &parsed else {
        panic!("{parsed:?}")
    };
    assert_eq!(info.amount_btc, Some(nordlys_money::Btc::from_sats(12_500)));
    assert!(
        info.description.is_none(),
        "the memo is empty; the description goes into the hash"
    );
    let figures = Figures {
        locale: Locale::En,
        unit: BtcUnit::Btc,
        hidden: false,
    };
    let said = nordlys_application::wording::destination(&parsed, SystemTime::now(), figures);
    assert!(said.contains("12,500\u{a0}sats"), "{said}");
}
