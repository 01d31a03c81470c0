//! Holdings over time: the bitcoin held per account and in total after each transaction, exact
//! from the rows' amounts (never from `runningBalanceBtc`, whose meaning is read two ways; see
//! [`super::balances`]), and what it was worth in NOK at each transaction's market rate and
//! at Nordlys' own price samples, with the gains realised along the way.
//!
//! A chart has at most one column per pixel, so the history is kept per column of a [`Frame`]:
//! a column holds the state after its last moment (exact, not averaged) and the sums of what was
//! realised within it. A history of a million rows keeps only as many columns as are drawn.

use chrono::{DateTime, Utc};
use nordlys_exchange::models::TaxTransaction;
use nordlys_money::{Btc, Nok, NokPerBtc};
use rust_decimal::Decimal;

use super::balances::{BalanceBook, Contradiction};
use super::gains::{Disposal, GainsBuilder, Method};
use crate::store::{PriceSample, Store, StoreError, TaxFilter};

/// The time a chart spans and how many columns it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    columns: usize,
}

impl Frame {
    /// From `start` to `end` (at least a second later) in `columns` columns (at least one).
    pub fn new(start: DateTime<Utc>, end: DateTime<Utc>, columns: usize) -> Self {
        Self {
            start,
            end: end.max(start + chrono::Duration::seconds(1)),
            columns: columns.max(1),
        }
    }

    pub fn start(&self) -> DateTime<Utc> {
        self.start
    }

    pub fn end(&self) -> DateTime<Utc> {
        self.end
    }

    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Adds `sample` to `kept` (samples oldest first) in place of a kept one of the same column:
    /// the builder values the holding at the last sample of each column only, so a year of
    /// samples (millions) is read into as many as the chart has columns.
    pub fn keep_last_per_column(&self, kept: &mut Vec<PriceSample>, sample: PriceSample) {
        let column = self.column(sample.at);
        match kept.last_mut() {
            Some(last) if self.column(last.at) == column => *last = sample,
            _ => kept.push(sample),
        }
    }

    /// The column `at` falls in; moments outside the frame fall in its first or last.
    fn column(&self, at: DateTime<Utc>) -> usize {
        let span = (self.end - self.start).num_milliseconds();
        let since = (at - self.start).num_milliseconds().clamp(0, span);
        // Both factors are below 2^63 / 2^32 for any frame a chart asks for: i128 holds the product.
        let column = i128::from(since) * self.columns as i128 / i128::from(span.max(1));
        usize::try_from(column)
            .unwrap_or(usize::MAX)
            .min(self.columns - 1)
    }
}

/// Where a NOK value's rate comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueSource {
    /// The market rate the exchange gave the transaction `id`.
    Transaction { id: String },
    /// Nordlys' own price sample (its mid price).
    Sample,
}

/// The total held valued at one rate, to the øre.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    pub at: DateTime<Utc>,
    pub nok: Nok,
    pub rate: NokPerBtc,
    pub source: ValueSource,
}

/// What was realised within a column, as the gains report computed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Realised {
    pub gains: Nok,
    pub losses: Nok,
    /// Disposals whose gain is not computable (no rate, an unknown cost).
    pub not_computable: u32,
}

/// One column of the chart: the holding after its last moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub index: usize,
    /// The last moment in the column.
    pub at: DateTime<Utc>,
    /// Per account, in [`Holdings::accounts`]' order; an account first seen later is missing
    /// here (it held nothing yet).
    pub balances: Vec<Btc>,
    /// `None` when the balances are too large to add up (a hostile answer).
    pub total_btc: Option<Btc>,
    /// The last valuation at a transaction's market rate in the column.
    pub at_rate: Option<Value>,
    /// The last valuation at one of Nordlys' samples in the column.
    pub at_sample: Option<Value>,
    pub realised: Realised,
}

/// The history as a chart draws it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holdings {
    pub frame: Frame,
    /// Account ids in the order they first appear.
    pub accounts: Vec<String>,
    /// Columns with something in them, oldest first.
    pub columns: Vec<Column>,
    /// The oldest pending row: the figures after it may change.
    pub pending_since: Option<DateTime<Utc>>,
    /// Rows whose running balance contradicts the computed balances under either reading.
    pub contradiction: Option<Contradiction>,
}

/// The holdings over `frame` from the stored history and Nordlys' samples, with the gains
/// realised by `method`: one pass over the rows, the samples thinned as they are read.
pub fn read(store: &Store, frame: Frame, method: Method) -> Result<Holdings, StoreError> {
    let mut samples = vec![];
    store.each_price_sample(frame.start, |s| frame.keep_last_per_column(&mut samples, s))?;
    let mut holdings = HoldingsBuilder::new(frame, samples);
    let mut gains = GainsBuilder::new(method);
    store
        .tax()
        .each_transaction::<StoreError>(&TaxFilter::default(), |t| {
            holdings.add(t);
            gains.add(t);
            Ok(())
        })?;
    holdings.realised(&gains.finish().disposals);
    Ok(holdings.finish())
}

/// Reads transactions oldest first, with the price samples over the same time.
#[derive(Debug)]
pub struct HoldingsBuilder {
    frame: Frame,
    samples: Vec<PriceSample>,
    /// The next sample not yet valued.
    next_sample: usize,
    accounts: Vec<String>,
    balances: Vec<Btc>,
    columns: Vec<Column>,
    pending_since: Option<DateTime<Utc>>,
    book: BalanceBook,
    /// Whether a row has been read: samples before the first row value nothing.
    started: bool,
}

impl HoldingsBuilder {
    /// `samples` oldest first.
    pub fn new(frame: Frame, samples: Vec<PriceSample>) -> Self {
        Self {
            frame,
            samples,
            next_sample: 0,
            accounts: vec![],
            balances: vec![],
            columns: vec![],
            pending_since: None,
            book: BalanceBook::default(),
            started: false,
        }
    }

    pub fn add(&mut self, t: &TaxTransaction) {
        self.value_samples_before(t.create_time);
        self.started = true;
        if t.finalize_time.is_none() {
            self.pending_since = self.pending_since.or(Some(t.create_time));
        }
        if let (Some(account), Some(balance)) = (&t.account_id, self.book.add(t)) {
            let account = account.as_str();
            match self.accounts.iter().position(|a| a == account) {
                Some(i) => self.balances[i] = balance,
                None => {
                    self.accounts.push(account.to_owned());
                    self.balances.push(balance);
                }
            }
        }
        let value = t.rate_market.filter(|r| r.is_positive()).and_then(|rate| {
            self.value(
                t.create_time,
                rate,
                ValueSource::Transaction {
                    id: t.id.as_str().to_owned(),
                },
            )
        });
        let column = self.column_at(t.create_time);
        if value.is_some() {
            column.at_rate = value;
        }
    }

    /// Marks what the gains report realised, each disposal in the column of its time.
    pub fn realised(&mut self, disposals: &[Disposal]) {
        for d in disposals {
            let index = self.frame.column(d.at);
            let Ok(i) = self.columns.binary_search_by_key(&index, |c| c.index) else {
                // A disposal is a row, and every row made its column: nothing to mark it on.
                continue;
            };
            let r = &mut self.columns[i].realised;
            let sum = match d.gain_nok.is_negative() {
                _ if !d.unknown.is_empty() => None,
                true => Some(&mut r.losses),
                false => Some(&mut r.gains),
            };
            match sum.and_then(|s| s.checked_add(d.gain_nok).map(|n| (s, n))) {
                Some((s, n)) => *s = n,
                None => r.not_computable += 1,
            }
        }
    }

    /// The columns up to the frame's end, the samples after the last row valued too.
    pub fn finish(mut self) -> Holdings {
        let end = self.frame.end;
        self.value_samples_before(end + chrono::Duration::milliseconds(1));
        Holdings {
            frame: self.frame,
            accounts: self.accounts,
            columns: self.columns,
            pending_since: self.pending_since,
            contradiction: self.book.contradiction().cloned(),
        }
    }

    /// Values the holding at each sample taken before `before` (and after the first row).
    fn value_samples_before(&mut self, before: DateTime<Utc>) {
        while let Some(s) = self.samples.get(self.next_sample).cloned() {
            if s.at >= before {
                break;
            }
            self.next_sample += 1;
            if !self.started || !s.mid.is_positive() {
                continue;
            }
            let value = self.value(s.at, s.mid, ValueSource::Sample);
            let column = self.column_at(s.at);
            if value.is_some() {
                column.at_sample = value;
            }
        }
    }

    fn total(&self) -> Option<Btc> {
        if self.book.overflowed() {
            return None;
        }
        self.balances
            .iter()
            .try_fold(Decimal::ZERO, |sum, b| sum.checked_add(b.decimal()))
            .map(Btc::computed)
    }

    fn value(&self, at: DateTime<Utc>, rate: NokPerBtc, source: ValueSource) -> Option<Value> {
        let nok = self.total()?.value_at(rate)?.round_to_ore();
        Some(Value {
            at,
            nok,
            rate,
            source,
        })
    }

    /// The column `at` falls in, holding the state as it is now.
    fn column_at(&mut self, at: DateTime<Utc>) -> &mut Column {
        let index = self.frame.column(at);
        let total_btc = self.total();
        let balances = self.balances.clone();
        let fresh = self.columns.last().is_none_or(|c| c.index != index);
        if fresh {
            self.columns.push(Column {
                index,
                at,
                balances,
                total_btc,
                at_rate: None,
                at_sample: None,
                realised: Realised::default(),
            });
        } else if let Some(c) = self.columns.last_mut() {
            c.at = at;
            c.balances = balances;
            c.total_btc = total_btc;
        }
        let last = self.columns.len() - 1;
        &mut self.columns[last]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::gains::{GainsBuilder, Method};
    use crate::tax::tests_support::{RowParts, tx};
    use nordlys_exchange::models::TaxTransactionType::{BtcBuy, BtcSell};

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap_or_default()
    }

    fn btc(s: &str) -> Btc {
        Btc::computed(s.parse().unwrap_or_default())
    }

    fn nok(s: &str) -> Nok {
        Nok::computed(s.parse().unwrap_or_default())
    }

    fn sample(t: &str, mid: &str) -> PriceSample {
        let mid = NokPerBtc::computed(mid.parse().unwrap_or_default());
        PriceSample {
            at: at(t),
            mid,
            bid: mid,
            ask: mid,
        }
    }

    /// Two accounts, a sale at a gain and one at a loss, over 2024, in twelve monthly columns.
    fn history() -> Vec<TaxTransaction> {
        vec![
            tx(
                "a1",
                "2024-01-10T10:00:00Z",
                "acc_a",
                BtcBuy,
                "0.5",
                "400000",
            )
            .received("0.5", "BTC")
            .paid("200000", "NOK"),
            tx(
                "b1",
                "2024-03-05T10:00:00Z",
                "acc_b",
                BtcBuy,
                "0.25",
                "480000",
            )
            .received("0.25", "BTC")
            .paid("120000", "NOK"),
            tx(
                "a2",
                "2024-03-20T10:00:00Z",
                "acc_a",
                BtcSell,
                "0.3",
                "600000",
            )
            .paid("0.2", "BTC")
            .received("120000", "NOK"),
            tx(
                "b2",
                "2024-09-15T10:00:00Z",
                "acc_b",
                BtcSell,
                "0.15",
                "300000",
            )
            .paid("0.1", "BTC")
            .received("30000", "NOK"),
        ]
    }

    fn build(rows: &[TaxTransaction], samples: Vec<PriceSample>) -> Holdings {
        let frame = Frame::new(at("2024-01-01T00:00:00Z"), at("2024-12-31T00:00:00Z"), 12);
        let mut b = HoldingsBuilder::new(frame, samples);
        let mut gains = GainsBuilder::new(Method::Fifo);
        for t in rows {
            b.add(t);
            gains.add(t);
        }
        b.realised(&gains.finish().disposals);
        b.finish()
    }

    #[test]
    fn each_column_holds_the_exact_running_balances_after_its_last_row() {
        let h = build(&history(), vec![]);
        assert_eq!(h.accounts, ["acc_a", "acc_b"]);
        let march = h.columns.iter().find(|c| c.index == 2);
        let march = march.unwrap_or_else(|| panic!("no March column in {:?}", h.columns));
        // After a1 (0.5), b1 (0.25) and a2 (0.5 − 0.2 = 0.3): 0.3 + 0.25.
        assert_eq!(march.balances, [btc("0.3"), btc("0.25")]);
        assert_eq!(march.total_btc, Some(btc("0.55")));
        assert_eq!(march.at, at("2024-03-20T10:00:00Z"));
        // Valued at the last row's market rate in the column: 0.55 × 600 000.
        let value = march.at_rate.as_ref().map(|v| (v.nok, v.source.clone()));
        assert_eq!(
            value,
            Some((nok("330000"), ValueSource::Transaction { id: "a2".into() }))
        );
        let january = &h.columns[0];
        assert_eq!(january.balances, [btc("0.5")]);
        assert_eq!(h.columns.len(), 3, "January, March, September");
    }

    #[test]
    fn gains_and_losses_are_marked_in_the_column_they_were_realised() {
        let h = build(&history(), vec![]);
        let realised: Vec<_> = h.columns.iter().map(|c| (c.index, c.realised)).collect();
        // a2: 0.2 BTC for 120 000 against 0.2 × 400 000 = 80 000: a gain of 40 000.
        // b2: 0.1 BTC for 30 000 against 0.1 × 400 000 (FIFO: a1's lot) = 40 000: a loss of 10 000.
        assert_eq!(realised[1].1.gains, nok("40000"));
        assert_eq!(realised[2].1.losses, nok("-10000"));
        assert_eq!(
            realised[0].1,
            Realised::default(),
            "nothing sold in January"
        );
    }

    #[test]
    fn samples_value_the_total_held_at_their_time_and_none_before_the_first_row() {
        let samples = vec![
            sample("2024-01-05T00:00:00Z", "390000"),
            sample("2024-02-01T00:00:00Z", "410000"),
            sample("2024-03-21T00:00:00Z", "610000"),
            sample("2024-11-01T00:00:00Z", "700000"),
        ];
        let h = build(&history(), samples);
        let valued: Vec<_> = h
            .columns
            .iter()
            .filter_map(|c| c.at_sample.as_ref().map(|v| (c.index, v.nok)))
            .collect();
        assert_eq!(
            valued,
            [
                // 0.5 × 410 000 in February; 0.55 × 610 000 in March; 0.45 × 700 000 in November.
                (1, nok("205000")),
                (2, nok("335500")),
                (10, nok("315000")),
            ]
        );
        // A sample's column keeps the holding as it was then.
        let november = h.columns.iter().find(|c| c.index == 10);
        assert_eq!(november.and_then(|c| c.total_btc), Some(btc("0.45")));
    }

    #[test]
    fn the_last_sample_of_each_column_values_the_holding_as_every_sample_would() {
        let start = at("2024-01-01T00:00:00Z");
        let every: Vec<_> = (0..2_150)
            .map(|i| {
                let t = (start + chrono::Duration::hours(i * 4)).to_rfc3339();
                sample(&t, &(400_000 + (i % 37) * 1_000).to_string())
            })
            .collect();
        let frame = Frame::new(start, at("2024-12-31T00:00:00Z"), 12);
        let mut kept = vec![];
        for s in every.iter().cloned() {
            frame.keep_last_per_column(&mut kept, s);
        }
        assert_eq!(kept.len(), 12, "one per month");
        assert_eq!(build(&history(), kept), build(&history(), every.clone()));
        // The same through the store, which thins them as it reads.
        let store = crate::tax::tests_support::store_of(history());
        for s in &every {
            store.add_price_sample(s).unwrap_or_else(|e| panic!("{e}"));
        }
        let read = read(&store, frame, Method::Fifo).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read, build(&history(), every));
    }

    #[test]
    fn a_pending_row_is_said_and_a_hostile_balance_leaves_the_total_unknown() {
        let mut rows = history();
        rows[3].finalize_time = None;
        let h = build(&rows, vec![]);
        assert_eq!(h.pending_since, Some(at("2024-09-15T10:00:00Z")));

        let max = Decimal::MAX.to_string();
        let huge = [
            tx("c", "2024-05-01T00:00:00Z", "acc_c", BtcBuy, &max, "1").received(&max, "BTC"),
            tx("d", "2024-07-01T00:00:00Z", "acc_d", BtcBuy, &max, "1").received(&max, "BTC"),
        ];
        let h = build(&huge, vec![]);
        assert_eq!(h.columns[1].total_btc, None);
        assert_eq!(h.columns[1].at_rate, None);
    }

    #[test]
    fn a_frame_of_one_moment_or_no_columns_still_places_every_row() {
        let t = at("2024-01-01T00:00:00Z");
        let frame = Frame::new(t, t, 0);
        assert_eq!(frame.column(t - chrono::Duration::days(1)), 0);
        assert_eq!(frame.column(t + chrono::Duration::days(400)), 0);
        let frame = Frame::new(t, t + chrono::Duration::days(10), 10);
        assert_eq!(frame.column(t + chrono::Duration::days(10)), 9);
        assert_eq!(frame.column(t + chrono::Duration::hours(36)), 1);
    }
}
