//! The closed sets the window and the use cases speak in: each an enum that crosses IPC as a
//! TypeScript union of its names (serde refuses any other value). The exchange's own enums stay
//! open (`nordlys_exchange::models`); these are what the app offers and shows.

use nordlys_core::store::{JournalState, WithdrawalState};
use nordlys_exchange::models;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Whose exchange a profile talks to: the embedded sandbox, or a real (or self-run) exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ProfileType {
    Sandbox,
    Exchange,
}

pub use nordlys_core::order_terms::{Direction, OrderType};

/// What placing an order came to, as far as the app can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum OrderOutcome {
    Placed,
    NotPlaced,
    /// The answer was lost and nothing yet shows either way.
    Unknown,
}

/// An invoice's status as the receive screen shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum InvoiceState {
    Unpaid,
    Pending,
    Paid,
    Expired,
    Canceled,
    /// A status this version does not know; its text shows the exchange's own name.
    Other,
}

impl From<&models::InvoiceStatus> for InvoiceState {
    fn from(s: &models::InvoiceStatus) -> Self {
        match s {
            models::InvoiceStatus::Unpaid => Self::Unpaid,
            models::InvoiceStatus::Pending => Self::Pending,
            models::InvoiceStatus::Paid => Self::Paid,
            models::InvoiceStatus::Expired => Self::Expired,
            models::InvoiceStatus::Canceled => Self::Canceled,
            _ => Self::Other,
        }
    }
}

/// A journal entry's state, for an order or a payment alike (the unknowns screen lists both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum MoneyState {
    Sending,
    Unknown,
    Placed,
    NotPlaced,
    Sent,
    NotSent,
    Rejected,
}

impl From<JournalState> for MoneyState {
    fn from(s: JournalState) -> Self {
        match s {
            JournalState::Sending => Self::Sending,
            JournalState::Placed => Self::Placed,
            JournalState::Rejected => Self::Rejected,
            JournalState::Unknown => Self::Unknown,
            JournalState::NotPlaced => Self::NotPlaced,
        }
    }
}

impl From<WithdrawalState> for MoneyState {
    fn from(s: WithdrawalState) -> Self {
        match s {
            WithdrawalState::Sending => Self::Sending,
            WithdrawalState::Sent => Self::Sent,
            WithdrawalState::Rejected => Self::Rejected,
            WithdrawalState::Unknown => Self::Unknown,
            WithdrawalState::NotSent => Self::NotSent,
        }
    }
}

/// A sent payment on the network's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum NetworkStatus {
    Pending,
    Completed,
    Failed,
    /// A status this version does not know; the payment's text shows the exchange's own name.
    Other,
}

impl From<&models::WithdrawalStatus> for NetworkStatus {
    fn from(s: &models::WithdrawalStatus) -> Self {
        match s {
            models::WithdrawalStatus::Pending => Self::Pending,
            models::WithdrawalStatus::Completed => Self::Completed,
            models::WithdrawalStatus::Failed => Self::Failed,
            _ => Self::Other,
        }
    }
}

/// What a pasted destination was recognised as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum DestinationKind {
    Onchain,
    Invoice,
    LightningAddress,
    Lnurl,
}

/// Where the tax history's sync stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum SyncState {
    #[default]
    Idle,
    Running,
    Complete,
    Cancelled,
    Failed,
}

/// How far back the price chart reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum ChartRange {
    #[serde(rename = "1h")]
    Hour,
    #[serde(rename = "24h")]
    Day,
    #[serde(rename = "7d")]
    Week,
    #[serde(rename = "30d")]
    Month,
    #[serde(rename = "all")]
    All,
}

/// The tax screen's reports, each with its CSV export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Report {
    Transactions,
    YearEnd,
    Gains,
}

/// A screen of the window, for what a notification opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Screen {
    Overview,
    Trade,
    Receive,
    Pay,
    Tax,
    Unknowns,
    Connect,
    Settings,
}

/// What changed in the store, for the window to read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Change {
    /// An invoice's status changed (paid, expired…).
    Invoices,
    /// A payment was settled or ended on its network.
    Payments,
    /// An order or payment of unknown outcome was looked at again (and perhaps settled).
    Unknowns,
    /// The price moved.
    Price,
    /// A balance changed.
    Balances,
    /// The volume statistics changed.
    Market,
    /// Rows new to the history were stored: a trade, payment or deposit.
    History,
    /// The app locked or unlocked itself (idle time, tray, another window).
    Lock,
    /// Privacy mode was switched outside the window (the tray).
    Privacy,
    /// The tray asked to lock before a password was set: the window asks for one.
    LockAsked,
    /// The window was closed for the first time: it asks whether Nordlys stays in the tray.
    CloseAsked,
    /// A plan ran (or skipped or held a slot).
    Plans,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_outside_a_set_is_refused_not_guessed() {
        assert!(serde_json::from_str::<OrderType>("\"stop\"").is_err());
        assert!(
            serde_json::from_str::<Direction>(
                &serde_json::to_string(&models::Direction::Buy).unwrap_or_default()
            )
            .is_err(),
            "the wire name is not the window's"
        );
        assert!(serde_json::from_str::<Report>("\"taxes\"").is_err());
        assert!(serde_json::from_str::<nordlys_core::tax::gains::Method>("\"lifo\"").is_err());
        assert_eq!(
            serde_json::from_str::<nordlys_core::tax::gains::Method>("\"average\"").ok(),
            Some(nordlys_core::tax::gains::Method::AverageCost)
        );
        assert_eq!(
            serde_json::from_str::<OrderType>("\"limit\"").ok(),
            Some(OrderType::Limit)
        );
    }

    #[test]
    fn an_invoice_status_this_version_does_not_know_is_other() {
        let unknown = models::InvoiceStatus::Unknown("a status added later".into());
        assert_eq!(InvoiceState::from(&unknown), InvoiceState::Other);
        assert_eq!(
            InvoiceState::from(&models::InvoiceStatus::Paid),
            InvoiceState::Paid
        );
    }
}
