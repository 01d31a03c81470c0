#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The backend tells, the window listens: the watcher is the app's one poller of money in motion
//! (the screens' reads are reads of the store, and what the exchange says reaches them, the
//! desktop's notifications and the window's `changed` event only through its looks), and a tax
//! sync tells its progress as it goes.

mod app_driver;

use std::sync::{Arc, Mutex};

use app_driver::{app_on, connect};
use nordlys_application::NoArgs;
use nordlys_application::desktop::{Desktop, DesktopError, SaveChoice};
use nordlys_application::receive;
use nordlys_application::receive_views::{InvoiceArgs, InvoiceIdArgs};
use nordlys_application::tax_views::TaxSyncView;
use nordlys_application::vocabulary::{InvoiceState, SyncState};
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
    synced: Mutex<Vec<TaxSyncView>>,
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
    fn tax_sync(&self, progress: &TaxSyncView) {
        self.synced.lock().unwrap().push(progress.clone());
    }
}

fn recorded_app() -> (
    Arc<nordlys_application::App>,
    Arc<Recorded>,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().unwrap();
    let desktop = Arc::new(Recorded::default());
    let app = app_on(
        dir.path(),
        Arc::new(MemorySecretStore::default()),
        desktop.clone(),
    );
    (app, desktop, dir)
}

/// The window is told the sync's progress page by page and its end, without asking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tax_sync_tells_the_window_each_step_and_its_end() {
    let sb = sandbox().await;
    let (app, desktop, _dir) = recorded_app();
    connect(&app, &sb).await;
    app_driver::tax_synced(&app).await;
    let told = desktop.synced.lock().unwrap().clone();
    let last = told.last().expect("told at least once");
    assert_eq!(last.state, SyncState::Complete, "{told:?}");
    assert!(
        told[..told.len() - 1]
            .iter()
            .all(|v| v.state == SyncState::Running),
        "{told:?}"
    );
    let stored: Vec<u32> = told.iter().map(|v| v.stored).collect();
    assert!(stored.windows(2).all(|w| w[0] <= w[1]), "{stored:?}");
    assert!(last.stored > 0 && told.len() >= 2, "{told:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_paid_at_the_exchange_reaches_the_screen_through_the_watcher_only() {
    let sb = sandbox().await;
    let (app, desktop, _dir) = recorded_app();
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
