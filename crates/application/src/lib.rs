//! The application layer: the session (profile, connection and store taken together) and every
//! use case the window offers, as plain async functions over it with typed arguments and
//! results, the data the UI sees, and the one error type it gets. No Tauri here: the shell turns
//! each use case into a command, and the OS side effects come through [`desktop::Desktop`].

pub mod account_identities;
pub mod account_names;
pub mod alert_views;
pub mod alerts;
pub mod background;
pub mod card;
pub mod card_attachment;
pub mod card_views;
pub mod confirmation;
pub mod confirmation_views;
mod default_account;
mod deposits;
pub mod desktop;
pub mod error;
pub mod error_words;
pub mod holdings_chart;
pub mod journal;
pub mod lock;
pub mod market;
pub mod notices;
pub mod pay;
pub mod pay_views;
pub mod plan_views;
pub mod plans;
pub mod prepared;
pub mod present;
pub mod profile_views;
pub mod profiles;
pub mod receive;
pub mod receive_views;
pub mod refusals;
pub mod sale_tax;
pub mod schedule;
pub mod shown;
mod shown_account;
pub mod state;
pub mod store_key;
pub mod tax;
pub mod tax_card;
pub mod tax_views;
pub mod test_hooks;
pub mod trade_views;
pub mod trading;
pub mod tray;
pub mod unknown_views;
pub mod unknowns;
pub mod vocabulary;
pub mod watcher;
pub mod wording;

pub use state::App;

/// The argument of a use case that takes none.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize, ts_rs::TS)]
pub struct NoArgs {}
