//! Nordlys domain logic that needs no window: number formats, profiles and settings, where secrets
//! are kept, the OAuth loopback redirect, and a profile's connection to the exchange. The Tauri
//! shell wires these to commands; the CLI and tests use them directly.

pub mod account_identity;
pub mod alerts;
pub mod amount_input;
pub mod app_lock;
pub mod autostart;
pub mod connection;
pub mod daily_prices;
pub mod destination;
pub mod doubt;
pub mod evidence;
pub mod file_write;
pub mod format;
pub mod journal;
pub mod loopback;
pub mod money_turn;
pub mod order_form;
pub mod order_terms;
pub mod orders;
pub mod pay_form;
pub mod plan_schedule;
pub mod plans;
pub mod presets;
pub mod profile_form;
pub mod recheck;
pub mod recipient_seal;
pub mod secrets;
pub mod seen;
pub mod settings;
pub mod store;
pub mod tax;
pub mod time;
pub mod travel_rule;
pub mod withdrawals;
