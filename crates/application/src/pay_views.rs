//! What the Pay screen exchanges with the use cases of `pay`: the form and its live checks, the
//! confirmation, payments and their network status, and the address book of recipients.

use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::store::WithdrawalState;
use nordlys_core::travel_rule::RecipientForm;
use nordlys_money::Btc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::vocabulary::{DestinationKind, NetworkStatus};

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PayArgs {
    pub destination: String,
    pub amount: String,
    pub unit: BitcoinAmountUnit,
    pub account_id: Option<String>,
    pub is_payment: bool,
    pub description: String,
    pub recipient: RecipientForm,
    /// Remember the recipient in the address book after the payment is sent.
    pub save_recipient: bool,
    pub label: String,
    /// The user confirmed a second time that the same payment may be sent although one like it
    /// is still unknown.
    #[serde(default)]
    #[ts(optional)]
    pub despite_unknown: Option<bool>,
    /// The user was told the same payment went through within the last day, and pays again.
    #[serde(default)]
    #[ts(optional)]
    pub despite_recent: Option<bool>,
    /// For an amount typed in NOK: the BTC amount the confirmation showed, which is what is sent.
    #[serde(default)]
    #[ts(optional)]
    pub confirmed_amount_btc: Option<String>,
    /// The `reviewed` fingerprint of the check the user confirmed: a payment is sent only if it
    /// is the form that check was for.
    #[serde(default)]
    #[ts(optional)]
    pub reviewed: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecipientErrorsView {
    pub full_name: Option<String>,
    pub country: Option<String>,
    pub address: Option<String>,
    pub nin: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SummaryLine {
    pub label: String,
    pub value: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PayCheckView {
    /// Everything is valid: the send button may be enabled.
    pub ok: bool,
    /// The BTC amount that would be sent: what the confirmation of an amount typed in NOK sends
    /// back as `confirmedAmountBtc` (the form's value, not a figure shown; `estimate` shows it).
    #[ts(type = "string | null")]
    pub amount_btc: Option<Btc>,
    pub destination_error: Option<String>,
    pub recognised: Option<String>,
    pub kind: Option<DestinationKind>,
    /// For an invoice, RFC 3339, for the countdown.
    pub expires_at: Option<String>,
    pub fixed_amount: Option<String>,
    /// A `bitcoin:` link's own amount (plain decimal BTC) and payee label, to fill in what the
    /// user has not typed.
    pub link_amount_btc: Option<String>,
    pub link_label: Option<String>,
    pub amount_error: Option<String>,
    pub estimate: Option<String>,
    /// The account's available bitcoin, with what it is worth at the bid.
    pub available: String,
    pub needs_recipient: bool,
    pub saved_recipient: Option<RecipientView>,
    pub recipient_errors: RecipientErrorsView,
    pub summary: Vec<SummaryLine>,
    /// Names the form this check was for; sending asks for it back.
    pub reviewed: String,
    /// For a payment marked as one: the gain or loss it would realise and the tax on it.
    pub sale_tax: Option<crate::sale_tax::SaleTaxView>,
}

/// A payment's worth in NOK, and which moment it is of: an old payment is never revalued at
/// today's price without saying so.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentWorth {
    pub nok: String,
    pub when: WorthWhen,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum WorthWhen {
    /// At the exchange's rate on the payment's own row.
    Sent,
    /// At today's bid: the exchange has not listed the payment yet.
    Now,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    pub journal_id: String,
    /// When it was sent, on the user's clock.
    pub sent_at: String,
    pub destination: String,
    pub amount: String,
    /// What it was worth: when it left, once the exchange lists it; until then now, at the bid.
    /// None before either is known.
    pub worth: Option<PaymentWorth>,
    /// The fee the exchange took, once it lists the payment.
    pub fee: Option<String>,
    /// What the app knows of the request.
    pub state: WithdrawalState,
    /// The network's side, once sent.
    pub status: Option<NetworkStatus>,
    pub status_text: String,
    pub withdrawal_id: Option<String>,
    /// Its transaction id (on-chain) or payment hash (Lightning), once the exchange lists it
    /// among the account's transactions; read from the stored rows, never looked up.
    pub network_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PaymentsView {
    pub payments: Vec<PaymentView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentResultView {
    pub payment: PaymentView,
    pub message: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecipientView {
    pub identity: String,
    pub destination: String,
    pub label: String,
    pub full_name: String,
    pub country: String,
    pub address: String,
    pub nin: String,
    pub exchange: String,
    pub self_custody: bool,
    /// Its details are sealed and the keyring cannot open them now: only the label is known.
    #[serde(default)]
    pub locked: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct RecipientsView {
    pub recipients: Vec<RecipientView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct IdentityArgs {
    pub identity: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct CountryView {
    pub code: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct CountriesView {
    pub countries: Vec<CountryView>,
}
