//! Tax time in Norway: the synced history (`sync`), the year-end holding for wealth tax
//! (`year_end`), realised gains with matched lots (`gains`) and CSV exports (`csv`).
//!
//! Years are Norwegian calendar years (`crate::time`).

pub mod balances;
pub mod card;
pub mod csv;
pub mod gains;
pub mod holdings;
pub mod payment_info;
pub mod sale_tax;
pub mod sync;
pub mod year_end;
pub mod year_end_rate;

use nordlys_exchange::models::CurrencyCode;
use nordlys_money::{Amount, Btc, Nok};
use rust_decimal::Decimal;

/// A row's figure in the unit its currency names; `None` for a currency this app does not know
/// (shown as it came).
pub fn row_amount(value: Decimal, currency: &CurrencyCode) -> Option<Amount> {
    match currency {
        CurrencyCode::Btc => Some(Amount::Btc(Btc::computed(value))),
        CurrencyCode::Nok => Some(Amount::Nok(Nok::computed(value))),
        _ => None,
    }
}

/// Tax rows as tests write them, for this crate's tests and those of crates that draw them.
#[cfg(any(test, feature = "test-support"))]
#[allow(
    clippy::panic,
    reason = "a test's fixture that cannot be made is the failure"
)]
pub mod tests_support {
    use nordlys_exchange::models::{CurrencyCode, TaxSubType, TaxTransaction, TaxTransactionType};

    /// A figure in whichever unit its place wants.
    fn d<Q: nordlys_money::Quantity>(s: &str) -> Q {
        Q::computed(s.parse().unwrap_or_default())
    }

    /// A store holding `rows`, as one synced page.
    pub fn store_of(rows: Vec<TaxTransaction>) -> crate::store::Store {
        let store = crate::store::Store::in_memory().unwrap_or_else(|e| panic!("{e}"));
        let listed: Vec<_> = rows.into_iter().map(|t| Ok(t.into())).collect();
        store
            .tax()
            .add_page(&listed, None)
            .unwrap_or_else(|e| panic!("{e}"));
        store
    }

    /// A row of `account` of `kind` with its running balance and rate.
    pub fn tx(
        id: &str,
        at: &str,
        account: &str,
        kind: TaxTransactionType,
        running: &str,
        rate: &str,
    ) -> TaxTransaction {
        TaxTransaction {
            id: id.into(),
            account_id: Some(account.into()),
            tx_type: kind,
            sub_type: TaxSubType::Market,
            create_time: at.parse().unwrap_or_default(),
            finalize_time: at.parse().ok(),
            in_amount: None,
            in_currency: None,
            out_amount: None,
            out_currency: None,
            fee_amount: None,
            fee_currency: None,
            rate_market: Some(d(rate)),
            is_payment: false,
            payment_info: String::new(),
            note: String::new(),
            usdnok: None,
            running_balance_btc: d(running),
        }
    }

    /// A row's amounts, written in the order they read: `tx(…).received("1", "BTC")
    /// .paid("300000", "NOK").fee("600", "NOK")`.
    pub trait RowParts {
        /// `amount` of `currency` received.
        fn received(self, amount: &str, currency: &str) -> Self;
        /// `amount` of `currency` paid out.
        fn paid(self, amount: &str, currency: &str) -> Self;
        fn fee(self, amount: &str, currency: &str) -> Self;
    }

    impl RowParts for TaxTransaction {
        fn received(mut self, amount: &str, currency: &str) -> Self {
            self.in_amount = Some(d(amount));
            self.in_currency = Some(CurrencyCode::from(currency));
            self
        }

        fn paid(mut self, amount: &str, currency: &str) -> Self {
            self.out_amount = Some(d(amount));
            self.out_currency = Some(CurrencyCode::from(currency));
            self
        }

        fn fee(mut self, amount: &str, currency: &str) -> Self {
            self.fee_amount = Some(d(amount));
            self.fee_currency = Some(CurrencyCode::from(currency));
            self
        }
    }
}
