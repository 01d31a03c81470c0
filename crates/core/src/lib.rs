//! Nordlys without a window: the domain's rules (number formats, orders, payments, the journal and
//! its evidence, plans, tax), the local store, and `platform` (what the machine gives: settings,
//! secrets, the OAuth loopback redirect, starting at login). The Tauri shell wires these to
//! commands; the CLI and tests use them directly.

pub mod account_identity;
pub mod alerts;
pub mod amount_input;
pub mod app_lock;
pub mod connection;
pub mod daily_prices;
pub mod destination;
pub mod doubt;
pub mod evidence;
pub mod format;
pub mod journal;
pub mod money_turn;
pub mod order_form;
pub mod order_terms;
pub mod orders;
pub mod pay_form;
pub mod plan_schedule;
pub mod plans;
pub mod platform;
pub mod presets;
pub mod profile_form;
pub mod recheck;
pub mod recipient_seal;
pub mod seen;
pub mod store;
pub mod tax;
pub mod time;
pub mod travel_rule;
pub mod withdrawals;
