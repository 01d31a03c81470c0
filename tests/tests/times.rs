#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The same instant reads the same on every screen that shows it, on the user's clock, across
//! both daylight-saving changes of the year: the tax list, the payments list and the invoices
//! list (Trade history shares the tax list's rows and formatter).

mod app_driver;

use app_driver::{connected_app, tax_rows};
use chrono::{DateTime, Utc};
use nordlys_application::present::Present;
use nordlys_application::profile_views::SetLanguageArgs;
use nordlys_application::{NoArgs, pay, profiles, receive};
use nordlys_core::format::Locale;
use nordlys_core::store::{NewWithdrawalEntry, Origin, StoredInvoice};
use nordlys_exchange::models::{InvoiceStatus, TaxTransaction};
use nordlys_tests::*;

/// Around Oslo's changes in 2026: 29 March, 02:00 → 03:00, and 25 October, 03:00 → 02:00.
/// Each instant with how it reads in Norwegian and in English.
const TABLE: [(&str, &str, &str); 4] = [
    (
        "2026-03-29T00:30:00Z",
        "29.03.2026 01:30",
        "2026-03-29 01:30",
    ),
    (
        "2026-03-29T01:30:00Z",
        "29.03.2026 03:30",
        "2026-03-29 03:30",
    ),
    (
        "2026-10-25T00:30:00Z",
        "25.10.2026 02:30",
        "2026-10-25 02:30",
    ),
    // An hour later, and the same wall-clock time: the hour repeats.
    (
        "2026-10-25T01:30:00Z",
        "25.10.2026 02:30",
        "2026-10-25 02:30",
    ),
];

fn row(id: &str, at: &str) -> TaxTransaction {
    serde_json::from_value(serde_json::json!({
        "id": id, "accountId": "acc_1", "type": "TAX_TRANSACTION_TYPE_BTC_DEPOSIT",
        "subType": "", "createTime": at, "finalizeTime": at,
        "inAmount": "0.001", "inCurrency": "BTC", "outAmount": "", "outCurrency": "",
        "feeAmount": "", "feeCurrency": "", "rateMarket": "", "isPayment": false,
        "paymentInfo": "", "note": "", "usdnok": "", "runningBalanceBtc": "0.001",
    }))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instant_reads_the_same_on_every_screen_across_daylight_saving() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let store = app.session().await.unwrap().store;
    let origin = Origin {
        base_url: "http://127.0.0.1:1/".into(),
        key_fingerprint: String::new(),
        identity: None,
    };
    let rows: Vec<_> = TABLE
        .iter()
        .enumerate()
        .map(|(n, (at, _, _))| Ok(row(&format!("tr_{n}"), at).into()))
        .collect();
    store.tax().add_page(&rows, None).unwrap();
    for (n, (at, _, _)) in TABLE.iter().enumerate() {
        let at: DateTime<Utc> = at.parse().unwrap();
        let destination = format!("kari{n}@example.com");
        let reference = format!("ref{n}");
        store
            .withdrawals()
            .add(
                &NewWithdrawalEntry {
                    sent_at: at,
                    destination: &destination,
                    identity: &destination,
                    amount_btc: nordlys_money::Btc::from_sats(10_000),
                    account_id: None,
                    reference: &reference,
                    origin: &origin,
                    request: "{}",
                    before: None,
                    typed_nok: None,
                },
                true,
                false,
            )
            .unwrap();
        store
            .invoices()
            .add(&StoredInvoice {
                id: format!("ded_{n}"),
                invoice: format!("lnbc{n}"),
                account_id: None,
                amount_btc: None,
                asked: Default::default(),
                public_description: String::new(),
                private_note: String::new(),
                status: InvoiceStatus::Paid,
                created_at: at,
                expires_at: at,
                account_identity: None,
            })
            .unwrap();
    }

    for locale in [Locale::Nb, Locale::En] {
        let language = SetLanguageArgs {
            language: Some(locale),
        };
        profiles::set_language(&app, language).await.unwrap();
        let expected: Vec<&str> = TABLE
            .iter()
            .map(|(_, nb, en)| if locale == Locale::Nb { *nb } else { *en })
            .collect();
        // Oldest first in the tax list; newest first in the other two.
        let tax: Vec<String> = tax_rows(&app, 0, 10)
            .await
            .rows
            .into_iter()
            .map(|r| r.time)
            .collect();
        let mut paid: Vec<String> = pay::payments(&app, NoArgs {})
            .await
            .unwrap()
            .present(&app.viewer())
            .payments
            .into_iter()
            .map(|p| p.sent_at)
            .collect();
        let mut asked: Vec<String> = receive::recent_invoices(&app, NoArgs {})
            .await
            .unwrap()
            .present(&app.viewer())
            .invoices
            .into_iter()
            .map(|i| i.created_at)
            .collect();
        paid.reverse();
        asked.reverse();
        assert_eq!(tax, expected, "the tax list, {locale:?}");
        assert_eq!(paid, expected, "payments, {locale:?}");
        assert_eq!(asked, expected, "invoices, {locale:?}");
    }
}
