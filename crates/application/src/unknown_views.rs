//! What the In doubt screen exchanges with the use cases of `unknowns`: orders and payments
//! whose outcome is unknown, with the evidence each check read.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::vocabulary::MoneyState;

/// Which journal an entry is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum MoneyKind {
    Order,
    Withdrawal,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JournalIdArgs {
    #[ts(type = "number")]
    pub journal_id: i64,
}

/// An order in doubt the user saw placed on the exchange; `order_id` names it while it is open.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettlePlacedArgs {
    #[ts(type = "number")]
    pub journal_id: i64,
    pub order_id: Option<String>,
}

/// One read a check made, and what it showed.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvidenceView {
    pub at: String,
    /// What was read, in words.
    pub read: String,
    /// What it saw, in words.
    pub saw: String,
    /// Whether this step ends a check (its conclusion, or the user's word).
    pub ends_check: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnknownEntryView {
    #[ts(type = "number")]
    pub journal_id: i64,
    pub kind: MoneyKind,
    pub state: MoneyState,
    pub sent_at: String,
    pub summary: String,
    /// Still unknown (the user may settle it).
    pub open: bool,
    pub evidence: Vec<EvidenceView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnknownsView {
    /// How many are still unknown.
    pub unresolved: u32,
    /// The unknown ones and those settled in the last day after a lost answer, newest first.
    pub entries: Vec<UnknownEntryView>,
}
