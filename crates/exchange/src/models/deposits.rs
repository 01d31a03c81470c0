use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{Currency, InvoiceStatus, Network};
use crate::ids::{AccountId, DepositDestinationId};
use crate::wire;

/// One standing deposit destination (2.5).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DepositDestination {
    #[serde(default)]
    pub destination: String,
    #[serde(default)]
    pub network: Network,
}

/// 2.5: destinations that are always valid and accept any amount. The on-chain address is the
/// newest; earlier ones stay valid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DepositDestinationsResponse {
    #[serde(default)]
    pub onchain_address: DepositDestination,
    #[serde(default)]
    pub lightning_address: DepositDestination,
    #[serde(default)]
    pub lnurl_pay: DepositDestination,
}

/// 2.6. An amount of 0 creates an invoice accepting any amount.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewLightningInvoiceRequest {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub account_id: Option<AccountId>,
    pub currency: Currency,
    #[serde(with = "wire::number")]
    pub amount: Decimal,
    /// Committed to through the description hash; most wallets do not show it to the payer.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub public_description: String,
    /// Visible only to the creator.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub internal_description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewLightningInvoiceResponse {
    #[serde(default)]
    pub deposit_destination_id: DepositDestinationId,
    #[serde(default)]
    pub invoice: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetLightningInvoiceResponse {
    #[serde(default)]
    pub deposit_destination_id: DepositDestinationId,
    #[serde(default)]
    pub invoice: String,
    #[serde(default)]
    pub status: InvoiceStatus,
}
