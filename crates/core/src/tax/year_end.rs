//! The holding at 31 December for wealth tax, per account and in total, computed from each row's
//! amounts (the balance endpoint has no date; `runningBalanceBtc` is only a cross-check, see
//! [`super::balances`]), valued at a year-end rate whose source is stated: the last market rate
//! in the transactions up to year end, or one the user entered.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use nordlys_exchange::models::TaxTransaction;
use nordlys_money::{Btc, CheckedSum, Nok, NokPerBtc, NokPerUsd, UsdPerBtc};

use super::balances::{BalanceBook, Contradiction};
use super::year_end_rate::{NoRate, YearEndRate};
use crate::time::oslo_year;

/// Where a year's rate comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RateSource {
    /// The market rate of the last transaction on or before year end.
    Transaction { id: String, at: DateTime<Utc> },
    /// Skatteetaten's rate, entered by the user as NOK per BTC.
    Entered,
    /// Skatteetaten's rates, entered by the user as USD per BTC and NOK per USD.
    EnteredViaUsd {
        usd_per_btc: UsdPerBtc,
        nok_per_usd: NokPerUsd,
    },
    /// Nordlys' own price sample taken at `at`.
    Sample { at: DateTime<Utc> },
    /// No transaction up to year end carries a rate, and none was entered.
    Missing,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountHolding {
    pub account_id: String,
    pub balance_btc: Btc,
    /// `balance_btc` × the year's rate, to the øre.
    pub value_nok: Option<Nok>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YearEnd {
    pub year: i32,
    /// Whether 31 December of this year has passed; if not, the figures are "so far".
    pub complete: bool,
    pub rate_nok: Option<NokPerBtc>,
    pub source: RateSource,
    pub accounts: Vec<AccountHolding>,
    pub total_btc: Btc,
    pub total_nok: Option<Nok>,
    /// The oldest row up to this year's end that is still pending: the figures may change, so
    /// they are not computable yet.
    pub pending_since: Option<DateTime<Utc>>,
    /// Rows up to this year's end whose running balance the computed balances contradict under
    /// either reading: the holding is not computable.
    pub contradiction: Option<Contradiction>,
    /// The amounts up to this year's end are too large to add up (a hostile answer): the
    /// holding is not computable.
    pub overflowed: bool,
}

impl YearEnd {
    /// Whether the holding is a figure to report: nothing pending, contradicted or overflowed.
    pub fn computable(&self) -> bool {
        self.pending_since.is_none() && self.contradiction.is_none() && !self.overflowed
    }
}

/// Reads transactions oldest first and closes each year as the next one begins.
#[derive(Debug, Default)]
pub struct YearEndBuilder {
    book: BalanceBook,
    last_rate: Option<(NokPerBtc, String, DateTime<Utc>)>,
    year: Option<i32>,
    closed: Vec<Snapshot>,
    /// The first pending row read (rows come oldest first).
    pending_since: Option<DateTime<Utc>>,
}

#[derive(Debug)]
struct Snapshot {
    year: i32,
    /// Account and balance, in account id order.
    balances: Vec<(String, Btc)>,
    contradiction: Option<Contradiction>,
    overflowed: bool,
    rate: Option<(NokPerBtc, String, DateTime<Utc>)>,
    pending_since: Option<DateTime<Utc>>,
}

impl YearEndBuilder {
    pub fn add(&mut self, t: &TaxTransaction) {
        self.close_until(oslo_year(&t.create_time));
        if t.finalize_time.is_none() {
            self.pending_since = self.pending_since.or(Some(t.create_time));
        }
        // Every row passes here, a million for a long history: an account's balance and the
        // last rate's id are written over in place, not made anew.
        self.book.add(t);
        if let Some(rate) = t.rate_market.filter(|r| r.is_positive()) {
            match &mut self.last_rate {
                Some((last, id, at)) => {
                    *last = rate;
                    id.clear();
                    id.push_str(t.id.as_str());
                    *at = t.create_time;
                }
                None => self.last_rate = Some((rate, t.id.as_str().to_owned(), t.create_time)),
            }
        }
    }

    /// Closes every year before `year` that has not been closed yet.
    fn close_until(&mut self, year: i32) {
        let Some(mut open) = self.year else {
            self.year = Some(year);
            return;
        };
        while open < year {
            let mut balances: Vec<(String, Btc)> = self
                .book
                .balances()
                .into_iter()
                .flatten()
                .map(|(a, b)| (a.to_owned(), b))
                .collect();
            balances.sort_by(|a, b| a.0.cmp(&b.0));
            self.closed.push(Snapshot {
                year: open,
                balances,
                contradiction: self.book.contradiction().cloned(),
                overflowed: self.book.overflowed(),
                rate: self.last_rate.clone(),
                pending_since: self.pending_since,
            });
            open += 1;
        }
        self.year = Some(open);
    }

    /// One [`YearEnd`] for every year from the first transaction's to `now`'s; the rates the
    /// user chose replace the transactions' rate for their years (a chosen source that gives no
    /// rate leaves the year without one).
    pub fn finish(
        mut self,
        now: DateTime<Utc>,
        chosen: &BTreeMap<i32, Result<YearEndRate, NoRate>>,
    ) -> Vec<YearEnd> {
        let this_year = oslo_year(&now);
        if self.year.is_some() {
            self.close_until(this_year + 1);
        }
        self.closed
            .into_iter()
            .map(|s| {
                let (rate_nok, source) = match (chosen.get(&s.year), s.rate) {
                    (Some(Ok(r)), _) => (Some(r.nok_per_btc), r.source.clone()),
                    (Some(Err(_)), _) => (None, RateSource::Missing),
                    (None, Some((r, id, at))) => (Some(r), RateSource::Transaction { id, at }),
                    (None, None) => (None, RateSource::Missing),
                };
                // A tax figure: to the øre. `None` also past `Decimal`'s range (a hostile rate).
                let value = |btc: Btc| {
                    rate_nok
                        .and_then(|r| btc.value_at(r))
                        .map(Nok::round_to_ore)
                };
                let accounts: Vec<_> = s
                    .balances
                    .into_iter()
                    .map(|(account_id, balance_btc)| AccountHolding {
                        account_id,
                        balance_btc,
                        value_nok: value(balance_btc),
                    })
                    .collect();
                let total_btc = accounts.iter().map(|a| a.balance_btc).checked_sum();
                YearEnd {
                    year: s.year,
                    complete: s.year < this_year,
                    rate_nok,
                    source,
                    accounts,
                    total_btc: total_btc.unwrap_or_default(),
                    total_nok: total_btc.and_then(value),
                    pending_since: s.pending_since,
                    contradiction: s.contradiction,
                    overflowed: s.overflowed || total_btc.is_none(),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;
    use crate::tax::tests_support::{RowParts, tx};
    use nordlys_exchange::models::TaxTransactionType;

    /// Two accounts, each row with its amounts; `running` is each row's `runningBalanceBtc`
    /// under one reading of it.
    fn two_accounts(running: [&str; 5]) -> [TaxTransaction; 5] {
        [
            tx(
                "a1",
                "2023-03-01T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcBuy,
                running[0],
                "300000",
            )
            .received("0.5", "BTC")
            .paid("150000", "NOK"),
            tx(
                "b1",
                "2023-06-01T10:00:00Z",
                "acc_b",
                TaxTransactionType::BtcBuy,
                running[1],
                "320000",
            )
            .received("0.25", "BTC")
            .paid("80000", "NOK"),
            // 31 Dec 23:30 UTC is already 2024 in Oslo.
            tx(
                "a2",
                "2023-12-31T22:30:00Z",
                "acc_a",
                TaxTransactionType::BtcSell,
                running[2],
                "400000",
            )
            .received("40000", "NOK")
            .paid("0.1", "BTC"),
            tx(
                "a3",
                "2023-12-31T23:30:00Z",
                "acc_a",
                TaxTransactionType::BtcBuy,
                running[3],
                "410000",
            )
            .received("1", "BTC")
            .paid("410000", "NOK"),
            tx(
                "b2",
                "2025-02-01T10:00:00Z",
                "acc_b",
                TaxTransactionType::BtcSell,
                running[4],
                "900000",
            )
            .received("225000", "NOK")
            .paid("0.25", "BTC"),
        ]
    }

    #[test]
    fn each_year_ends_with_each_accounts_computed_balance_under_either_reading() {
        let per_account = two_accounts(["0.5", "0.25", "0.4", "1.4", "0"]);
        let total = two_accounts(["0.5", "0.75", "0.65", "1.65", "1.4"]);
        for rows in [per_account, total] {
            each_year_ends_with_the_balances_and_the_last_rate(&rows);
        }
    }

    fn each_year_ends_with_the_balances_and_the_last_rate(rows: &[TaxTransaction]) {
        let mut b = YearEndBuilder::default();
        for r in rows {
            b.add(r);
        }
        let now = "2025-06-01T00:00:00Z".parse().unwrap();
        let entered = BTreeMap::from([(
            2024,
            Ok(YearEndRate {
                nok_per_btc: NokPerBtc::computed(Decimal::from(1_000_000)),
                source: RateSource::Entered,
            }),
        )]);
        let years = b.finish(now, &entered);
        assert_eq!(
            years.iter().map(|y| y.year).collect::<Vec<_>>(),
            [2023, 2024, 2025]
        );

        let y23 = &years[0];
        assert!(y23.complete);
        assert_eq!(
            y23.rate_nok,
            Some(NokPerBtc::computed(Decimal::from(400_000)))
        );
        assert_eq!(
            y23.source,
            RateSource::Transaction {
                id: "a2".into(),
                at: "2023-12-31T22:30:00Z".parse().unwrap()
            }
        );
        // a: 0.4 after a2; b: 0.25. Total 0.65 at 400 000 = 260 000.
        assert_eq!(
            y23.accounts[0].balance_btc,
            Btc::computed(Decimal::new(4, 1))
        );
        assert_eq!(
            y23.accounts[0].value_nok,
            Some(Nok::computed(Decimal::from(160_000)))
        );
        assert_eq!(y23.total_btc, Btc::computed(Decimal::new(65, 2)));
        assert_eq!(y23.total_nok, Some(Nok::computed(Decimal::from(260_000))));

        // 2024 has no transaction of its own after a3: the holding carries over, rate entered.
        let y24 = &years[1];
        assert_eq!(y24.source, RateSource::Entered);
        assert_eq!(y24.total_btc, Btc::computed(Decimal::new(165, 2)));
        assert_eq!(y24.total_nok, Some(Nok::computed(Decimal::from(1_650_000))));

        let y25 = &years[2];
        assert!(!y25.complete);
        assert_eq!(y25.total_btc, Btc::computed(Decimal::new(14, 1)));
        assert!(years.iter().all(YearEnd::computable));
    }

    #[test]
    fn a_running_balance_neither_reading_explains_leaves_the_holding_not_computable() {
        // b1 says 0.3: neither b's 0.25 nor the total 0.75.
        let rows = two_accounts(["0.5", "0.3", "0.4", "1.4", "0"]);
        let mut b = YearEndBuilder::default();
        rows.iter().for_each(|r| b.add(r));
        let years = b.finish("2025-06-01T00:00:00Z".parse().unwrap(), &BTreeMap::new());
        assert!(years.iter().all(|y| !y.computable()));
        assert_eq!(
            years[0].contradiction.as_ref().map(|c| c.ids.clone()),
            Some(vec!["b1".to_owned()])
        );
    }

    #[test]
    fn no_rate_anywhere_is_said_and_leaves_values_empty() {
        let mut row = tx(
            "a1",
            "2023-03-01T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcDeposit,
            "0.5",
            "0",
        );
        row.rate_market = None;
        let mut b = YearEndBuilder::default();
        b.add(&row);
        let years = b.finish("2024-02-01T00:00:00Z".parse().unwrap(), &BTreeMap::new());
        assert_eq!(years[0].source, RateSource::Missing);
        assert_eq!(years[0].total_nok, None);
    }

    #[test]
    fn a_pending_row_leaves_its_year_and_the_later_ones_not_computable() {
        let done = tx(
            "a1",
            "2023-03-01T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcBuy,
            "0.5",
            "300000",
        );
        let mut pending = tx(
            "a2",
            "2024-05-01T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcBuy,
            "0.6",
            "310000",
        );
        pending.finalize_time = None;
        let mut b = YearEndBuilder::default();
        b.add(&done);
        b.add(&pending);
        let years = b.finish("2025-02-01T00:00:00Z".parse().unwrap(), &BTreeMap::new());
        let since: Vec<_> = years.iter().map(|y| (y.year, y.pending_since)).collect();
        assert_eq!(
            since,
            [
                (2023, None),
                (2024, Some(pending.create_time)),
                (2025, Some(pending.create_time))
            ]
        );
    }
}
