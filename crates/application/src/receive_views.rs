//! What the Receive screen exchanges with the use cases of `receive`: standing deposit
//! destinations with their QR codes, and Lightning invoices with their live status.

use nordlys_core::amount_input::BitcoinAmountUnit;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::vocabulary::InvoiceState;

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountArgs {
    /// Empty or none: the first listed, the one the window shows (never the exchange's
    /// unnamed "default account").
    pub account_id: Option<String>,
}

/// A destination ready to show: the text to copy, the URI in the QR code, and the code itself.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QrView {
    pub text: String,
    pub uri: String,
    pub svg: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReceiveView {
    pub onchain: QrView,
    pub lightning_address: QrView,
    pub lnurl: QrView,
    /// Address and LNURL in one BIP21 code, when the address is bech32.
    pub unified: Option<QrView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceArgs {
    pub account_id: Option<String>,
    /// As typed; empty for any amount.
    pub amount: String,
    pub unit: BitcoinAmountUnit,
    pub public_description: String,
    pub private_note: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    pub id: String,
    pub invoice: String,
    /// Only for the invoice on screen, not in lists.
    pub qr: Option<QrView>,
    /// As it was asked for: in NOK or sats when typed so, else in the unit the user prefers; or
    /// "any amount".
    pub amount: String,
    /// The same amount the other way, one figure only: the bitcoin of one asked for in NOK,
    /// else what it is worth now at the bid.
    pub also: Option<String>,
    pub public_description: String,
    pub private_note: String,
    pub status: InvoiceState,
    pub status_text: String,
    /// RFC 3339, for the countdown.
    pub expires_at: String,
    /// When it was made, on the user's clock.
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct InvoicesView {
    pub invoices: Vec<InvoiceView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct InvoiceIdArgs {
    pub id: String,
}
