use chrono::{DateTime, Utc};
use nordlys_money::{Btc, Nok};
use serde::{Deserialize, Serialize};

use super::{Network, WithdrawalStatus};
use crate::ids::{AccountId, WithdrawalId};
use crate::wire;

/// Travel-rule recipient (2.7). `fullName` and `address` are always required.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TravelRuleInfo {
    pub full_name: String,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub country: String,
    pub address: String,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub nin: String,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub exchange: String,
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub self_custody: bool,
}

/// 2.7. `amountBtc` is required except for a BOLT11 invoice, whose amount the invoice fixes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendBitcoinRequest {
    pub destination: String,
    #[serde(
        with = "wire::opt_number",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub amount_btc: Option<Btc>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub account_id: Option<AccountId>,
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub is_payment: bool,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tfr_info: Option<TravelRuleInfo>,
}

/// A 200 means initiated, not completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendBitcoinResponse {
    #[serde(default)]
    pub withdrawal_id: WithdrawalId,
    #[serde(default)]
    pub network: Network,
    #[serde(default)]
    pub status: WithdrawalStatus,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetBitcoinWithdrawalResponse {
    #[serde(default)]
    pub withdrawal_id: WithdrawalId,
    #[serde(default)]
    pub destination: String,
    #[serde(default)]
    pub network: Network,
    #[serde(with = "wire::number", default)]
    pub amount_btc: Btc,
    #[serde(with = "wire::computed_number", default)]
    pub amount_nok: Nok,
    #[serde(default)]
    pub status: WithdrawalStatus,
    #[serde(with = "wire::time")]
    pub created_at: DateTime<Utc>,
    /// Empty until the platform has sent it.
    #[serde(
        with = "wire::opt_time",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub sent_at: Option<DateTime<Utc>>,
}
