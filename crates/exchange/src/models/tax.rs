use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{CurrencyCode, TaxSubType, TaxTransactionType};
use crate::ids::{AccountId, TaxTransactionId};
use crate::wire;

/// 2.11
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxAccountBalance {
    pub id: AccountId,
    pub name: String,
    #[serde(with = "wire::decimal_string")]
    pub balance_btc: Decimal,
    #[serde(with = "wire::opt_time", default)]
    pub delete_time: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetTaxBalanceResponse {
    #[serde(with = "wire::decimal_string")]
    pub balance_nok: Decimal,
    pub bitcoin_accounts: Vec<TaxAccountBalance>,
}

/// One tax-relevant transaction. Amounts are decimal strings kept at the scale the server wrote;
/// an amount that does not apply (no fee, nothing paid out) may be empty and reads as none.
/// Our reading of fields the specification leaves open: `accountId` is empty for fiat-only rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxTransaction {
    pub id: TaxTransactionId,
    #[serde(with = "wire::opt_string", default)]
    pub account_id: Option<AccountId>,
    #[serde(rename = "type")]
    pub tx_type: TaxTransactionType,
    #[serde(default = "unspecified_sub_type")]
    pub sub_type: TaxSubType,
    #[serde(with = "wire::time")]
    pub create_time: DateTime<Utc>,
    #[serde(with = "wire::opt_time", default)]
    pub finalize_time: Option<DateTime<Utc>>,
    #[serde(with = "wire::opt_decimal_string", default)]
    pub in_amount: Option<Decimal>,
    #[serde(with = "wire::opt_string", default)]
    pub in_currency: Option<CurrencyCode>,
    #[serde(with = "wire::opt_decimal_string", default)]
    pub out_amount: Option<Decimal>,
    #[serde(with = "wire::opt_string", default)]
    pub out_currency: Option<CurrencyCode>,
    #[serde(with = "wire::opt_decimal_string", default)]
    pub fee_amount: Option<Decimal>,
    #[serde(with = "wire::opt_string", default)]
    pub fee_currency: Option<CurrencyCode>,
    #[serde(with = "wire::opt_decimal_string", default)]
    pub rate_market: Option<Decimal>,
    #[serde(default)]
    pub is_payment: bool,
    #[serde(default)]
    pub payment_info: String,
    #[serde(default)]
    pub note: String,
    #[serde(with = "wire::opt_decimal_string", default)]
    pub usdnok: Option<Decimal>,
    /// Correct only because listing is oldest first.
    #[serde(with = "wire::decimal_string")]
    pub running_balance_btc: Decimal,
}

fn unspecified_sub_type() -> TaxSubType {
    TaxSubType::Empty
}

impl From<String> for CurrencyCode {
    fn from(s: String) -> Self {
        Self::from(s.as_str())
    }
}

impl AsRef<str> for CurrencyCode {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// 2.11. To fetch the next page pass `nextAfter` as `after` and `nextAfterId` as `afterId`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTaxTransactionsResponse {
    pub transactions: Vec<TaxTransaction>,
    pub has_more: bool,
    #[serde(with = "wire::opt_time", default)]
    pub next_after: Option<DateTime<Utc>>,
    #[serde(default)]
    pub next_after_id: String,
}
