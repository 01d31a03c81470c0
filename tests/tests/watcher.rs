#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The watcher is the app's one poller of money in motion: the screens' reads are reads of the
//! store, and what the exchange says reaches them, the desktop's notifications and the window's
//! `changed` event only through the watcher's looks.

mod app_driver;

use std::sync::{Arc, Mutex};

use app_driver::{app_on, connect};
use nordlys_application::NoArgs;
use nordlys_application::desktop::{Desktop, DesktopError, SaveChoice};
use nordlys_application::receive;
use nordlys_application::receive_views::{InvoiceArgs, InvoiceIdArgs};
use nordlys_application::vocabulary::InvoiceState;
use nordlys_application::watcher::{self, Change};
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::secrets::MemorySecretStore;
use nordlys_tests::*;
use serde_json::json;

/// A desktop that keeps what it was asked to show and tell.
#[derive(Debug, Default)]
struct Recorded {
    notified: Mutex<Vec<String>>,
    changed: Mutex<Vec<Change>>,
}

impl Desktop for Recorded {
    fn notify(&self, title: &str, body: &str) {
        self.notified
            .lock()
            .unwrap()
            .push(format!("{title}: {body}"));
    }
    fn open_url(&self, _url: &str) -> Result<(), DesktopError> {
        Err(DesktopError("no browser in this test".into()))
    }
    fn choose_save_path(&self, _name: &str, chosen: SaveChoice) {
        chosen(Ok(None));
    }
    fn changed(&self, what: Change) {
        self.changed.lock().unwrap().push(what);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_paid_at_the_exchange_reaches_the_screen_through_the_watcher_only() {
    let sb = sandbox().await;
    let dir = tempfile::tempdir().unwrap();
    let desktop = Arc::new(Recorded::default());
    let app = app_on(
        dir.path(),
        Arc::new(MemorySecretStore::default()),
        desktop.clone(),
    );
    connect(&app, &sb).await;
    let invoice = receive::create_invoice(
        &app,
        InvoiceArgs {
            account_id: None,
            amount: "0.0001".into(),
            unit: BitcoinAmountUnit::Btc,
            public_description: "kaffe".into(),
            private_note: String::new(),
        },
    )
    .await
    .unwrap();
    assert!(
        watcher::look(&app).await.unwrap().is_empty(),
        "nothing moved yet"
    );

    control(
        &sb,
        &format!("/sandbox/invoices/{}/pay", invoice.id),
        json!({}),
    )
    .await;
    // A read asks the store, not the exchange: still unpaid until the watcher looks.
    let id = InvoiceIdArgs {
        id: invoice.id.clone(),
    };
    let read = receive::invoice_status(&app, id.clone()).await.unwrap();
    assert_eq!(read.status, InvoiceState::Unpaid);
    assert!(desktop.notified.lock().unwrap().is_empty());

    let changes = watcher::look(&app).await.unwrap();
    assert_eq!(changes, [Change::Invoices]);
    let read = receive::invoice_status(&app, id).await.unwrap();
    assert_eq!(read.status, InvoiceState::Paid);
    let listed = receive::recent_invoices(&app, NoArgs {}).await.unwrap();
    assert_eq!(listed.invoices[0].status, InvoiceState::Paid);
    let notified = desktop.notified.lock().unwrap().clone();
    assert_eq!(notified.len(), 1, "{notified:?}");
    assert!(notified[0].starts_with("Invoice paid: "), "{notified:?}");
    // Announced once: the next look finds nothing new.
    assert!(watcher::look(&app).await.unwrap().is_empty());
    assert_eq!(desktop.notified.lock().unwrap().len(), 1);
}
