//! Builds the Tauri context from the root `tauri.conf.json` and registers the app's commands, so
//! capabilities govern each of them.

/// Every command the UI may call; `src/ipc.rs` checks this list against its own.
const COMMANDS: &[&str] = &[
    "app_state",
    "balances",
    "set_api_key",
    "connect_oauth",
    "disconnect",
    "reset_demo",
    "set_language",
    "set_unit",
    "set_request_timeout",
    "check_exchange_profile",
    "save_exchange_profile",
    "switch_profile",
    "quote",
    "check_order",
    "place_order",
    "resolve_orders",
    "open_orders",
    "cancel_order",
    "volume",
    "trade_history",
    "price_chart",
    "volume_chart",
    "receive_destinations",
    "create_invoice",
    "invoice_status",
    "recent_invoices",
    "check_payment",
    "send_payment",
    "payments",
    "recipients",
    "save_recipient",
    "delete_recipient",
    "countries",
    "start_tax_sync",
    "tax_sync_status",
    "cancel_tax_sync",
    "tax_rows",
    "tax_facets",
    "tax_balances",
    "year_end_report",
    "set_year_end_rate",
    "gains_report",
    "export_csv",
    "unknowns",
    "settle_unknown",
];

fn main() {
    println!("cargo:rerun-if-changed=../tauri.conf.json");
    println!("cargo:rerun-if-changed=../ui/dist");
    println!("cargo:rerun-if-changed=capabilities");
    let attributes = tauri_build::Attributes::new()
        .config_path("../tauri.conf.json")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        println!("cargo:warning=tauri build failed: {e:#}");
        std::process::exit(1);
    }
}
