//! What crosses IPC for tax and history, in the UI's camelCase shapes. Amounts are formatted for
//! the user's locale here; exports carry the exact decimals instead.

use nordlys_core::tax::gains::{DisposalKind, Method};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::vocabulary::{Report, SyncState};

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxFilterArgs {
    pub year: Option<i32>,
    pub account_id: Option<String>,
    pub tx_type: Option<String>,
    pub sub_type: Option<String>,
    pub search: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxRowsArgs {
    pub filter: TaxFilterArgs,
    pub offset: u32,
    /// At most 500.
    pub limit: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxRowView {
    pub id: String,
    /// Oslo time, `2025-01-02 10:00`.
    pub time: String,
    pub account: String,
    pub account_deleted: bool,
    /// In words for known kinds, the API's value as it is for unknown ones.
    pub kind: String,
    /// In words, as `kind`; empty for none.
    pub sub_type: String,
    /// BTC in minus BTC out, signed; empty when no BTC moved.
    pub btc: String,
    /// NOK in minus NOK out, signed; empty when no NOK moved.
    pub nok: String,
    pub fee: String,
    pub rate: String,
    pub running_balance: String,
    pub note: String,
    /// `paymentInfo` as sent.
    pub payment_info: String,
    /// What `paymentInfo` says, read by the row's kind.
    pub payment: PaymentInfoView,
    pub is_payment: bool,
    /// No `finalizeTime` yet: the row may still change.
    pub pending: bool,
}

/// A tax row's `paymentInfo`, read as the operator publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum PaymentInfoView {
    None,
    /// A bitcoin transfer: its transaction id (on-chain) or payment hash (Lightning), and the
    /// address or destination.
    Transfer {
        #[serde(rename = "networkId")]
        network_id: String,
        destination: String,
    },
    /// A bank transfer's counterparty account.
    BankAccount {
        account: String,
    },
    /// Not in the published shape for its kind: shown as it came.
    Unreadable {
        text: String,
    },
    /// Text on a row whose kind has no published `paymentInfo`.
    Text {
        text: String,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxRowsView {
    /// Rows matching the filter, all of them, for the list's scroll height; given with the block
    /// at offset 0 only.
    pub total: Option<u32>,
    pub offset: u32,
    pub rows: Vec<TaxRowView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChoiceView {
    pub value: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MalformedView {
    pub id: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxFacetsView {
    pub years: Vec<i32>,
    pub accounts: Vec<ChoiceView>,
    pub types: Vec<ChoiceView>,
    pub sub_types: Vec<ChoiceView>,
    /// Rows the exchange sent that could not be read, with their ids.
    pub malformed: Vec<MalformedView>,
    pub stored: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxSyncView {
    pub state: SyncState,
    pub requests: u32,
    pub received: u32,
    pub stored: u32,
    pub malformed: u32,
    /// 0–1000: the share of the time from the first transaction to now already covered.
    pub permille: u16,
    /// The date reached, for "synced up to …".
    pub reached: String,
    /// Why a sync failed, or a short summary of one that ended.
    pub message: String,
    /// What kind of failure it was (`otherAccounts` offers to set the history aside).
    pub failure: Option<crate::error::ErrorCode>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxBalancesArgs {
    pub include_deleted: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxBalanceView {
    pub id: String,
    pub name: String,
    pub balance: String,
    /// Empty unless the account is deleted.
    pub deleted: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxBalancesView {
    pub fiat: String,
    pub accounts: Vec<TaxBalanceView>,
    pub total_btc: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HoldingView {
    pub account: String,
    pub deleted: bool,
    pub balance: String,
    pub value: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct YearEndView {
    pub year: i32,
    /// False for the current year: its figures are "so far".
    pub complete: bool,
    pub rate: String,
    pub rate_source: String,
    /// The rate was entered by the user; it can be removed again.
    pub entered: bool,
    pub accounts: Vec<HoldingView>,
    pub total_btc: String,
    pub total_nok: String,
    /// "not computable: pending since …" when a pending row touches the figures (then they say
    /// so too); `null` otherwise.
    pub not_computable: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct YearEndsView {
    pub years: Vec<YearEndView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GainsArgs {
    pub method: Method,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LotView {
    pub id: String,
    pub time: String,
    pub btc: String,
    pub cost: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DisposalView {
    pub id: String,
    pub time: String,
    pub kind: DisposalKind,
    pub btc: String,
    pub proceeds: String,
    pub cost: String,
    /// "gain NOK 100.00" or "loss NOK 231.57": a loss is called one, not a negative gain.
    pub result: String,
    pub lots: Vec<LotView>,
    /// BTC sold beyond what the history shows was bought; empty when none.
    pub unmatched: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct YearGainsView {
    pub year: i32,
    pub disposals: u32,
    pub proceeds: String,
    pub cost: String,
    pub gains: String,
    pub losses: String,
    pub net: String,
    /// "not computable: pending since …" when a pending row touches the figures (then they say
    /// so too); `null` otherwise.
    pub not_computable: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GainsView {
    pub method: String,
    pub years: Vec<YearGainsView>,
    /// The newest first, at most 500; the export has them all.
    pub disposals: Vec<DisposalView>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportArgs {
    pub kind: Report,
    /// For `transactions`.
    pub filter: TaxFilterArgs,
    /// For `gains`.
    pub method: Method,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportView {
    /// Where the file went; none when the user closed the dialog.
    pub path: Option<String>,
    pub lines: u32,
    pub bytes: u32,
    /// What the file leaves out and why (a card's figures that are not computable): said
    /// beside "Saved", so a file that is not the whole return is never taken for one.
    #[serde(default)]
    #[ts(optional)]
    pub left_out: Option<String>,
}
