use chrono::{DateTime, Utc};
use nordlys_money::{Btc, Nok};
use serde::{Deserialize, Serialize};

use crate::ids::AccountId;
use crate::wire;

/// A named bitcoin account (2.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BitcoinAccount {
    #[serde(default)]
    pub id: AccountId,
    /// BTC usable for trading or withdrawals: the total less what open orders and pending
    /// withdrawals reserve.
    #[serde(with = "wire::number", default)]
    pub available_btc: Btc,
    #[serde(with = "wire::number", default)]
    pub total_btc: Btc,
    /// NOK value at request time.
    #[serde(with = "wire::computed_number", default)]
    pub total_nok: Nok,
    #[serde(default)]
    pub name: String,
    #[serde(with = "wire::time")]
    pub create_time: DateTime<Utc>,
    #[serde(
        with = "wire::opt_time",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub delete_time: Option<DateTime<Utc>>,
}

impl BitcoinAccount {
    pub fn is_deleted(&self) -> bool {
        self.delete_time.is_some()
    }
}

/// 2.3
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListBitcoinAccountsResponse {
    #[serde(default)]
    pub accounts: Vec<BitcoinAccount>,
    #[serde(with = "wire::number", default)]
    pub total_btc: Btc,
    #[serde(with = "wire::computed_number", default)]
    pub total_nok: Nok,
}

/// 2.4: the user's one fiat account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetFiatAccountResponse {
    #[serde(with = "wire::number", default)]
    pub available_nok: Nok,
}
