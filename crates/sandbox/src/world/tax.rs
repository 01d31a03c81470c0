//! The tax ledger: every movement as a tax transaction (2.11), listed oldest first with the
//! cursor of 4.1.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::World;
use super::readings::{BuyFee, Readings, RunningBalance};
use super::rng::{Rng, hash};
use crate::error::ApiError;

/// One ledger row. Amount fields hold the decimal strings sent, empty when they do not apply, in
/// the shape the operator publishes (a buy's `outAmount` includes its fee); the readings change
/// how a row is written, never what is kept.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaxRow {
    pub id: String,
    pub account_id: String,
    pub tx_type: String,
    pub sub_type: String,
    pub create_time: DateTime<Utc>,
    pub finalize_time: Option<DateTime<Utc>>,
    pub in_amount: String,
    pub in_currency: String,
    pub out_amount: String,
    pub out_currency: String,
    pub fee_amount: String,
    pub fee_currency: String,
    pub rate_market: String,
    pub is_payment: bool,
    pub payment_info: String,
    pub note: String,
    pub usdnok: String,
    /// The balance of `accountId` after the row, when it was made; for fiat rows, which have no
    /// bitcoin account, the total of all accounts.
    pub running_balance_btc: Decimal,
    /// The user's total over all accounts after the row, in listing order: every account's
    /// balance as its latest row up to here left it. Kept by [`World::push_row`]; `None` in a
    /// state file written before it existed, until the ledger is counted again.
    #[serde(default)]
    pub total_btc: Option<Decimal>,
}

impl TaxRow {
    /// A row of `account_id` at `at`, final then, with nothing moved yet; the methods below add
    /// what the row carries.
    pub fn new(
        id: String,
        account_id: &str,
        tx_type: &str,
        sub_type: &str,
        at: DateTime<Utc>,
        running_balance_btc: Decimal,
    ) -> Self {
        Self {
            id,
            account_id: account_id.into(),
            tx_type: tx_type.into(),
            sub_type: sub_type.into(),
            create_time: at,
            finalize_time: Some(at),
            in_amount: String::new(),
            in_currency: String::new(),
            out_amount: String::new(),
            out_currency: String::new(),
            fee_amount: String::new(),
            fee_currency: String::new(),
            rate_market: String::new(),
            is_payment: false,
            payment_info: String::new(),
            note: String::new(),
            usdnok: String::new(),
            running_balance_btc,
            total_btc: None,
        }
    }

    /// A fiat movement: no bitcoin account, so the running balance is the total of all accounts.
    pub fn fiat(
        id: String,
        tx_type: &str,
        sub_type: &str,
        at: DateTime<Utc>,
        inflow: Option<Decimal>,
        outflow: Option<Decimal>,
        total_btc: Decimal,
    ) -> Self {
        let row = Self::new(id, "", tx_type, sub_type, at, total_btc);
        let row = match inflow {
            Some(d) => row.received(d, "NOK"),
            None => row,
        };
        match outflow {
            Some(d) => row.paid(d, "NOK"),
            None => row,
        }
    }

    pub fn received(mut self, amount: Decimal, currency: &str) -> Self {
        self.in_amount = money(amount, currency);
        self.in_currency = currency.into();
        self
    }

    pub fn paid(mut self, amount: Decimal, currency: &str) -> Self {
        self.out_amount = money(amount, currency);
        self.out_currency = currency.into();
        self
    }

    pub fn fee(mut self, amount: Decimal, currency: &str) -> Self {
        self.fee_amount = money(amount, currency);
        self.fee_currency = currency.into();
        self
    }

    pub fn rate(mut self, rate: Decimal) -> Self {
        self.rate_market = format!("{rate:.2}");
        self
    }

    pub fn usdnok(mut self, usdnok: String) -> Self {
        self.usdnok = usdnok;
        self
    }

    pub fn payment(mut self, is_payment: bool, info: &str) -> Self {
        self.is_payment = is_payment;
        self.payment_info = info.into();
        self
    }

    pub fn note(mut self, note: &str) -> Self {
        self.note = note.into();
        self
    }

    pub fn finalized(mut self, at: DateTime<Utc>) -> Self {
        self.finalize_time = Some(at);
        self
    }

    /// The row as listed under `readings`: which balance `runningBalanceBtc` is, and where a
    /// buy's fee is.
    pub fn to_json(&self, readings: &Readings) -> serde_json::Value {
        let running = match readings.running_balance {
            RunningBalance::Account => self.running_balance_btc,
            RunningBalance::Total => self.total_btc.unwrap_or(self.running_balance_btc),
        };
        let out_amount = match (readings.buy_fee, self.fee_outside_of_out()) {
            (BuyFee::Outside, Some(paid)) => money(paid, &self.out_currency),
            _ => self.out_amount.clone(),
        };
        serde_json::json!({
            "id": self.id,
            "accountId": self.account_id,
            "type": self.tx_type,
            "subType": self.sub_type,
            "createTime": crate::time::format(&self.create_time),
            "finalizeTime": self.finalize_time.as_ref().map(crate::time::format).unwrap_or_default(),
            "inAmount": self.in_amount,
            "inCurrency": self.in_currency,
            "outAmount": out_amount,
            "outCurrency": self.out_currency,
            "feeAmount": self.fee_amount,
            "feeCurrency": self.fee_currency,
            "rateMarket": self.rate_market,
            "isPayment": self.is_payment,
            "paymentInfo": self.payment_info,
            "note": self.note,
            "usdnok": self.usdnok,
            "runningBalanceBtc": format!("{running:.8}"),
        })
    }

    /// A buy's `outAmount` without its fee, when both are in the same currency.
    fn fee_outside_of_out(&self) -> Option<Decimal> {
        if self.tx_type != "TAX_TRANSACTION_TYPE_BTC_BUY" || self.fee_currency != self.out_currency
        {
            return None;
        }
        let out: Decimal = self.out_amount.parse().ok()?;
        let fee: Decimal = self.fee_amount.parse().ok()?;
        Some(out - fee)
    }

    /// The row as listed while it is pending: no `finalizeTime`, and no fee yet.
    pub fn to_pending_json(&self, readings: &Readings) -> serde_json::Value {
        let mut v = self.to_json(readings);
        v["finalizeTime"] = "".into();
        v["feeAmount"] = "".into();
        v["feeCurrency"] = "".into();
        v
    }

    pub(super) fn key(&self) -> (DateTime<Utc>, &str) {
        (self.create_time, self.id.as_str())
    }
}

/// An amount as the ledger writes it: 8 decimals for BTC, 2 for NOK.
pub fn money(d: Decimal, currency: &str) -> String {
    if currency == "BTC" {
        format!("{d:.8}")
    } else {
        format!("{d:.2}")
    }
}

/// One page of 4.1.
#[derive(Debug, Clone)]
pub struct TaxPage<'a> {
    pub rows: Vec<&'a TaxRow>,
    pub has_more: bool,
}

impl World {
    /// Adds a row in (createTime, id) order, with the user's total after it.
    pub fn push_row(&mut self, row: TaxRow) {
        let at = self.ledger.partition_point(|r| r.key() <= row.key());
        self.ledger.insert(at, row);
        let counted_before = at == 0 || self.ledger[at - 1].total_btc.is_some();
        if at + 1 == self.ledger.len() && counted_before {
            let total = self.total_after(at);
            self.ledger[at].total_btc = Some(total);
        } else {
            self.count_totals();
        }
    }

    /// The total after the last row, `at`, from the total before it: its account's balance
    /// moves from what its latest earlier row left to what this row says.
    fn total_after(&self, at: usize) -> Decimal {
        let row = &self.ledger[at];
        let before = at
            .checked_sub(1)
            .and_then(|i| self.ledger[i].total_btc)
            .unwrap_or_default();
        if row.account_id.is_empty() {
            return before;
        }
        let was = self.ledger[..at]
            .iter()
            .rev()
            .find(|r| r.account_id == row.account_id)
            .map_or(Decimal::ZERO, |r| r.running_balance_btc);
        before - was + row.running_balance_btc
    }

    /// Counts every row's total again, in listing order: after a row is put between others.
    pub fn count_totals(&mut self) {
        let mut balances: std::collections::BTreeMap<String, Decimal> = Default::default();
        let mut total = Decimal::ZERO;
        for row in &mut self.ledger {
            if !row.account_id.is_empty() {
                let was = balances
                    .insert(row.account_id.clone(), row.running_balance_btc)
                    .unwrap_or_default();
                total = total - was + row.running_balance_btc;
            }
            row.total_btc = Some(total);
        }
    }

    /// Rows after the cursor and before `before`, oldest first. `page_size` 0 means all.
    pub fn tax_page(
        &self,
        page_size: usize,
        after: Option<DateTime<Utc>>,
        after_id: Option<&str>,
        before: Option<DateTime<Utc>>,
    ) -> Result<TaxPage<'_>, ApiError> {
        if after_id.is_some() && after.is_none() {
            return Err(ApiError::invalid("afterId requires after"));
        }
        let start = match (after, after_id) {
            (Some(t), Some(id)) => self.ledger.partition_point(|r| r.key() <= (t, id)),
            (Some(t), None) => self.ledger.partition_point(|r| r.create_time <= t),
            (None, _) => 0,
        };
        let end = match before {
            Some(b) => self.ledger.partition_point(|r| r.create_time < b),
            None => self.ledger.len(),
        };
        // Under the tax-lag reading a row is listed only once it is old enough.
        let end = match self.seen {
            Some(now) if self.readings.tax_lag > 0 => {
                let listed_until = now - chrono::Duration::seconds(self.readings.tax_lag as i64);
                end.min(
                    self.ledger
                        .partition_point(|r| r.create_time <= listed_until),
                )
            }
            _ => end,
        };
        let limit = if page_size == 0 {
            usize::MAX
        } else {
            page_size
        };
        // Under the late-rows reading some rows are not listed yet. One row past the page says
        // whether there are more, without walking the rest of the ledger.
        let mut rows: Vec<&TaxRow> = self
            .ledger
            .get(start..end.max(start))
            .unwrap_or_default()
            .iter()
            .filter(|r| {
                self.seen
                    .is_none_or(|now| !self.readings.is_late(&r.id, r.create_time, now))
            })
            .take(limit.saturating_add(1))
            .collect();
        let has_more = rows.len() > limit;
        rows.truncate(limit);
        Ok(TaxPage { rows, has_more })
    }

    /// A bitcoin transfer's `paymentInfo` as the operator publishes it:
    /// `<network id>:<destination>`, the network id being a transaction id on-chain or a
    /// payment hash on Lightning (64 hex digits either way, stable for the row's id).
    pub fn transfer_info(&self, row_id: &str, destination: &str) -> String {
        let seed = row_id
            .bytes()
            .fold(self.seed, |h, b| hash(&[h, u64::from(b)]));
        let network_id: String = (0..4)
            .map(|i| format!("{:016x}", hash(&[seed, i])))
            .collect();
        format!("{network_id}:{destination}")
    }

    /// The user's bank account, as a bank transfer's `paymentInfo` names it (a Norwegian
    /// account number, stable for the seed).
    pub fn bank_account(&self) -> String {
        let n = hash(&[self.seed, 0xba4c]);
        format!(
            "{:04}.{:02}.{:05}",
            1000 + n % 9000,
            (n >> 16) % 100,
            (n >> 24) % 100_000
        )
    }

    /// USD/NOK on `date`, between 9.5 and 11.5.
    pub fn usdnok(&self, date: NaiveDate) -> String {
        let mut rng = Rng::new(hash(&[self.seed, 0x05d, date.num_days_from_ce() as u64]));
        let base = Decimal::new(105, 1) + (rng.unit() - Decimal::new(5, 1)) * Decimal::from(2);
        format!("{:.4}", base)
    }
}
