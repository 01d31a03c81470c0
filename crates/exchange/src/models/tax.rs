use chrono::{DateTime, Utc};
use nordlys_money::{Btc, Nok, NokPerBtc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{CurrencyCode, TaxSubType, TaxTransactionType};
use crate::ids::{AccountId, TaxTransactionId};
use crate::wire;

/// 2.11
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxAccountBalance {
    #[serde(default)]
    pub id: AccountId,
    #[serde(default)]
    pub name: String,
    #[serde(with = "wire::decimal_string", default)]
    pub balance_btc: Btc,
    #[serde(
        with = "wire::opt_time",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub delete_time: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetTaxBalanceResponse {
    #[serde(with = "wire::decimal_string", default)]
    pub balance_nok: Nok,
    #[serde(default)]
    pub bitcoin_accounts: Vec<TaxAccountBalance>,
}

/// One tax-relevant transaction. Amounts are decimal strings kept at the scale the server wrote;
/// an amount that does not apply (no fee, nothing paid out) may be empty and reads as none.
/// Our reading of fields the specification leaves open: `accountId` is empty for fiat-only rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxTransaction {
    #[serde(default)]
    pub id: TaxTransactionId,
    #[serde(with = "wire::opt_string", default)]
    pub account_id: Option<AccountId>,
    #[serde(rename = "type", default)]
    pub tx_type: TaxTransactionType,
    #[serde(default = "unspecified_sub_type")]
    pub sub_type: TaxSubType,
    #[serde(with = "wire::time")]
    pub create_time: DateTime<Utc>,
    #[serde(
        with = "wire::opt_time",
        default,
        skip_serializing_if = "Option::is_none"
    )]
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
    #[serde(with = "wire::opt_computed_decimal_string", default)]
    pub rate_market: Option<NokPerBtc>,
    #[serde(default)]
    pub is_payment: bool,
    #[serde(default)]
    pub payment_info: String,
    #[serde(default)]
    pub note: String,
    #[serde(with = "wire::opt_computed_decimal_string", default)]
    pub usdnok: Option<Decimal>,
    /// Correct only because listing is oldest first.
    #[serde(with = "wire::decimal_string", default)]
    pub running_balance_btc: Btc,
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
    #[serde(default)]
    pub transactions: Vec<TaxTransaction>,
    #[serde(default)]
    pub has_more: bool,
    #[serde(
        with = "wire::opt_time",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub next_after: Option<DateTime<Utc>>,
    #[serde(default)]
    pub next_after_id: String,
}

/// One page of 14 whose rows are kept as the server's JSON until [`TaxPage::rows`] decodes them,
/// each on its own: a row the client cannot read becomes a [`MalformedTaxTransaction`] with its
/// id, so one bad row never hides the rest, and a sync can walk the cursor (decoded strictly here)
/// while another thread decodes and stores the rows.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxPage {
    #[serde(default)]
    pub transactions: Vec<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    pub has_more: bool,
    #[serde(
        with = "wire::opt_time",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub next_after: Option<DateTime<Utc>>,
    #[serde(default)]
    pub next_after_id: String,
}

impl TaxPage {
    /// Every row, decoded; the slower path that names the bad field runs only for a row that fails.
    pub fn rows(&self) -> Vec<Result<TaxTransaction, MalformedTaxTransaction>> {
        self.transactions
            .iter()
            .map(|raw| {
                serde_json::from_str::<TaxTransaction>(raw.get()).map_err(|_| malformed(raw.get()))
            })
            .collect()
    }

    /// Every row, decoded, with the JSON the server sent for it.
    pub fn listed(&self) -> Vec<Result<ListedTaxTransaction, MalformedTaxTransaction>> {
        self.transactions
            .iter()
            .map(|raw| {
                serde_json::from_str::<TaxTransaction>(raw.get())
                    .map(|transaction| ListedTaxTransaction {
                        transaction,
                        raw: raw.get().to_owned(),
                    })
                    .map_err(|_| malformed(raw.get()))
            })
            .collect()
    }

    /// The creation time of the first (`last` false) or last row, when it can be read.
    pub fn create_time(&self, last: bool) -> Option<DateTime<Utc>> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Created {
            #[serde(with = "wire::time")]
            create_time: DateTime<Utc>,
        }
        let raw = if last {
            self.transactions.last()
        } else {
            self.transactions.first()
        }?;
        serde_json::from_str::<Created>(raw.get())
            .ok()
            .map(|c| c.create_time)
    }
}

/// A row as listed: what the client read, and the JSON the server sent for it, exactly, which
/// tax exports name by its hash.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedTaxTransaction {
    pub transaction: TaxTransaction,
    pub raw: String,
}

impl ListedTaxTransaction {
    /// `t`'s own JSON, which stands for the server's where that is not known: a row made here
    /// rather than listed, or one stored before Nordlys kept what was sent.
    pub fn json_of(t: &TaxTransaction) -> String {
        serde_json::to_string(t).unwrap_or_default()
    }
}

impl From<TaxTransaction> for ListedTaxTransaction {
    /// A row made here rather than listed (tests, benchmarks).
    fn from(transaction: TaxTransaction) -> Self {
        let raw = Self::json_of(&transaction);
        Self { transaction, raw }
    }
}

/// A transaction the client could not read, with what was wrong and the JSON as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MalformedTaxTransaction {
    /// Empty when even the id was unreadable.
    pub id: String,
    pub create_time: Option<DateTime<Utc>>,
    pub reason: String,
    pub raw: String,
}

impl MalformedTaxTransaction {
    fn from_value(value: &serde_json::Value, reason: String) -> Self {
        let text = |k: &str| value.get(k).and_then(serde_json::Value::as_str);
        Self {
            id: text("id").unwrap_or_default().to_owned(),
            create_time: text("createTime")
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .map(|t| t.with_timezone(&Utc)),
            reason,
            raw: value.to_string(),
        }
    }
}

fn malformed(raw: &str) -> MalformedTaxTransaction {
    let value: serde_json::Value = serde_json::from_str(raw).unwrap_or(serde_json::Value::Null);
    let reason = match serde_path_to_error::deserialize::<_, TaxTransaction>(&value) {
        Err(e) => format!("{}: {}", e.path(), e.inner()),
        Ok(_) => "could not be read".to_owned(),
    };
    MalformedTaxTransaction::from_value(&value, reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, amount: &str) -> serde_json::Value {
        serde_json::json!({
            "id": id, "accountId": "acc_1", "type": "TAX_TRANSACTION_TYPE_BTC_BUY",
            "subType": "market", "createTime": "2025-01-02T10:00:00Z",
            "finalizeTime": "2025-01-02T10:00:00Z", "inAmount": amount, "inCurrency": "BTC",
            "outAmount": "100.00", "outCurrency": "NOK", "feeAmount": "", "feeCurrency": "",
            "rateMarket": "1000000.00", "isPayment": false, "paymentInfo": "", "note": "",
            "usdnok": "10.5", "runningBalanceBtc": "0.00010000"
        })
    }

    #[test]
    fn a_bad_row_is_kept_with_its_id_and_the_rest_still_read() {
        let body = serde_json::json!({
            "transactions": [row("tr_1", "0.0001"), row("tr_2", "lots"), 7, row("tr_3", "0.0002")],
            "hasMore": true, "nextAfter": "2025-01-02T10:00:00Z", "nextAfterId": "tr_3"
        });
        let page: TaxPage = serde_json::from_str(&body.to_string()).unwrap();
        assert_eq!(
            page.create_time(true).map(|t| t.to_rfc3339()).as_deref(),
            Some("2025-01-02T10:00:00+00:00")
        );
        let rows = page.rows();
        assert_eq!(rows.len(), 4);
        // Kept as the server sent it, for the exports' hash.
        let listed = page.listed();
        assert_eq!(
            listed[0].as_ref().map(|l| l.raw.as_str()).ok(),
            Some(body["transactions"][0].to_string().as_str())
        );
        assert!(rows[0].is_ok());
        let bad = rows[1].as_ref().unwrap_err();
        assert_eq!(bad.id, "tr_2");
        assert!(bad.reason.starts_with("inAmount"), "{}", bad.reason);
        assert_eq!(
            bad.create_time.map(|t| t.to_rfc3339()).as_deref(),
            Some("2025-01-02T10:00:00+00:00")
        );
        let not_an_object = rows[2].as_ref().unwrap_err();
        assert_eq!(not_an_object.id, "");
        assert_eq!(not_an_object.raw, "7");
        assert!(rows[3].is_ok());
    }

    #[test]
    fn a_page_without_a_readable_cursor_is_refused() {
        let body = serde_json::json!({"transactions": [], "hasMore": "yes"});
        assert!(serde_json::from_str::<TaxPage>(&body.to_string()).is_err());
    }
}
