//! Realised gains and losses in NOK: each disposal (a sell, or a payment marked `isPayment`) is
//! matched to acquisitions by FIFO, or by average cost when the user chooses it, fees included,
//! with the lots it consumed. All accounts form one holding, as for the taxpayer.
//!
//! Our reading of the amounts (the specification does not say): `inAmount` is what arrived after
//! any fee and `outAmount` what left before it. So a buy costs `outAmount` + a NOK fee, a sell
//! yields `inAmount`, and a fee in BTC leaves the holding besides `outAmount`.

use std::collections::{BTreeMap, VecDeque};

use chrono::{DateTime, Utc};
use nordlys_exchange::models::{CurrencyCode, TaxSubType, TaxTransaction, TaxTransactionType};
use nordlys_money::{Btc, Nok};
use rust_decimal::Decimal;

use crate::time::oslo_year;

/// How disposals are matched to acquisitions; named in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Method {
    #[default]
    Fifo,
    #[serde(rename = "average")]
    AverageCost,
}

/// What the figures rest on or leave out; the application layer words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GainsNote {
    /// How lots were matched.
    MatchedBy(Method),
    /// Deposits from outside the exchange, taken at their market value when they arrived.
    DepositsAtMarket(u32),
    /// Withdrawals not marked as payments: they left the holding with their cost, no gain.
    MovedOut(u32),
    /// Disposals that sold more than the history shows was bought (that part at zero cost).
    SoldMoreThanBought(u32),
    /// Rows with no market rate, valued at zero.
    Unpriced(Vec<String>),
    /// Rows of a type this version does not know, not counted.
    UnknownType { kind: String, count: u32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum DisposalKind {
    Sale,
    /// Paying with bitcoin counts as a sale at the market rate.
    Payment,
}

/// The part of one acquisition a disposal consumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchedLot {
    /// The acquisition's transaction id; `None` for the average-cost pool.
    pub acquisition_id: Option<String>,
    pub acquired_at: Option<DateTime<Utc>>,
    pub btc: Btc,
    pub cost_nok: Nok,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disposal {
    pub id: String,
    pub at: DateTime<Utc>,
    pub year: i32,
    pub kind: DisposalKind,
    /// BTC that left, a BTC fee included.
    pub btc: Btc,
    pub proceeds_nok: Nok,
    pub cost_nok: Nok,
    pub gain_nok: Nok,
    pub lots: Vec<MatchedLot>,
    /// BTC for which no acquisition was found (history incomplete); counted at zero cost.
    pub unmatched_btc: Btc,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct YearGains {
    pub year: i32,
    pub disposals: u32,
    pub proceeds_nok: Nok,
    pub cost_nok: Nok,
    /// Sum of the disposals with a gain.
    pub gains_nok: Nok,
    /// Sum of the disposals with a loss, as a negative number.
    pub losses_nok: Nok,
    pub net_nok: Nok,
    /// The oldest row up to this year's end that is still pending: a disposal or the cost of a
    /// lot may change, so the year's figures are not computable yet.
    pub pending_since: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GainsReport {
    pub method: Method,
    pub disposals: Vec<Disposal>,
    pub years: Vec<YearGains>,
    /// What the figures rest on or leave out.
    pub notes: Vec<GainsNote>,
}

#[derive(Debug, Clone)]
struct Lot {
    id: String,
    at: DateTime<Utc>,
    btc: Btc,
    cost: Nok,
}

/// Reads transactions oldest first.
#[derive(Debug, Default)]
pub struct GainsBuilder {
    method: Method,
    lots: VecDeque<Lot>,
    disposals: Vec<Disposal>,
    deposits_at_market: u32,
    moved_out: u32,
    unpriced: Vec<String>,
    unknown_types: BTreeMap<String, u32>,
    /// The first pending row read (rows come oldest first).
    pending_since: Option<DateTime<Utc>>,
}

pub(crate) fn amount(
    value: Option<Decimal>,
    currency: Option<&CurrencyCode>,
    want: &CurrencyCode,
) -> Decimal {
    match (value, currency) {
        (Some(v), Some(c)) if c == want => v,
        _ => Decimal::ZERO,
    }
}

impl GainsBuilder {
    pub fn new(method: Method) -> Self {
        Self {
            method,
            ..Self::default()
        }
    }

    pub fn add(&mut self, t: &TaxTransaction) {
        if t.finalize_time.is_none() {
            self.pending_since = self.pending_since.or(Some(t.create_time));
        }
        let btc =
            |v, c: &Option<CurrencyCode>| Btc::computed(amount(v, c.as_ref(), &CurrencyCode::Btc));
        let nok =
            |v, c: &Option<CurrencyCode>| Nok::computed(amount(v, c.as_ref(), &CurrencyCode::Nok));
        let btc_in = btc(t.in_amount, &t.in_currency);
        let btc_out = btc(t.out_amount, &t.out_currency);
        let btc_fee = btc(t.fee_amount, &t.fee_currency);
        let nok_fee = nok(t.fee_amount, &t.fee_currency);
        let internal = t.sub_type == TaxSubType::Internal;
        match &t.tx_type {
            TaxTransactionType::BtcBuy => {
                let cost = nok(t.out_amount, &t.out_currency) + nok_fee;
                self.acquire(t, btc_in, cost);
            }
            TaxTransactionType::BtcSell => {
                let proceeds = nok(t.in_amount, &t.in_currency);
                self.dispose(t, DisposalKind::Sale, btc_out + btc_fee, proceeds);
            }
            TaxTransactionType::BtcWithdrawal if internal => {}
            TaxTransactionType::BtcWithdrawal if t.is_payment => {
                let proceeds = self.market_value(t, btc_out);
                self.dispose(t, DisposalKind::Payment, btc_out + btc_fee, proceeds);
            }
            TaxTransactionType::BtcWithdrawal => {
                self.moved_out += 1;
                self.take(btc_out + btc_fee);
            }
            TaxTransactionType::BtcDeposit if internal => {}
            TaxTransactionType::BtcDeposit
            | TaxTransactionType::BtcBonus
            | TaxTransactionType::BtcAdjustment => {
                if btc_in.is_positive() {
                    if t.tx_type == TaxTransactionType::BtcDeposit {
                        self.deposits_at_market += 1;
                    }
                    let cost = self.market_value(t, btc_in);
                    self.acquire(t, btc_in, cost);
                }
                if btc_out.is_positive() {
                    self.moved_out += 1;
                    self.take(btc_out);
                }
            }
            TaxTransactionType::FiatDeposit
            | TaxTransactionType::FiatWithdrawal
            | TaxTransactionType::FiatAdjustment => {}
            other => {
                *self
                    .unknown_types
                    .entry(other.as_str().to_owned())
                    .or_default() += 1;
            }
        }
    }

    fn market_value(&mut self, t: &TaxTransaction, btc: Btc) -> Nok {
        match t
            .rate_market
            .filter(|r| r.is_positive())
            .and_then(|r| btc.value_at(r))
        {
            Some(value) => value,
            None => {
                self.unpriced.push(t.id.as_str().to_owned());
                Nok::ZERO
            }
        }
    }

    fn acquire(&mut self, t: &TaxTransaction, btc: Btc, cost: Nok) {
        if !btc.is_positive() {
            return;
        }
        let lot = Lot {
            id: t.id.as_str().to_owned(),
            at: t.create_time,
            btc,
            cost,
        };
        match (self.method, self.lots.back_mut()) {
            (Method::AverageCost, Some(pool)) => {
                pool.btc += lot.btc;
                pool.cost += lot.cost;
            }
            _ => self.lots.push_back(lot),
        }
    }

    /// Removes `btc` from the holding, oldest lots first (average cost: from the one pool).
    fn take(&mut self, mut btc: Btc) -> (Vec<MatchedLot>, Btc) {
        let mut matched = vec![];
        while btc.is_positive() {
            let Some(lot) = self.lots.front_mut() else {
                break;
            };
            let part = btc.min(lot.btc);
            let cost = if part == lot.btc {
                lot.cost
            } else {
                // The consumed share of the lot's cost; a hostile figure past `Decimal`'s range
                // costs nothing rather than panicking.
                part.ratio(lot.btc)
                    .and_then(|share| lot.cost.scaled(share))
                    .unwrap_or(Nok::ZERO)
            };
            lot.btc -= part;
            lot.cost -= cost;
            btc -= part;
            let (id, at) = match self.method {
                Method::Fifo => (Some(lot.id.clone()), Some(lot.at)),
                Method::AverageCost => (None, None),
            };
            matched.push(MatchedLot {
                acquisition_id: id,
                acquired_at: at,
                btc: part,
                // A tax figure: to the øre.
                cost_nok: cost.round_to_ore(),
            });
            if !lot.btc.is_positive() {
                self.lots.pop_front();
            }
        }
        (matched, btc)
    }

    fn dispose(&mut self, t: &TaxTransaction, kind: DisposalKind, btc: Btc, proceeds: Nok) {
        let (lots, unmatched) = self.take(btc);
        let cost: Nok = lots.iter().map(|l| l.cost_nok).sum();
        // A tax figure: to the øre.
        let proceeds = proceeds.round_to_ore();
        self.disposals.push(Disposal {
            id: t.id.as_str().to_owned(),
            at: t.create_time,
            year: oslo_year(&t.create_time),
            kind,
            btc,
            proceeds_nok: proceeds,
            cost_nok: cost,
            gain_nok: proceeds - cost,
            lots,
            unmatched_btc: unmatched,
        });
    }

    pub fn finish(self) -> GainsReport {
        let mut years: BTreeMap<i32, YearGains> = BTreeMap::new();
        for d in &self.disposals {
            let y = years.entry(d.year).or_insert_with(|| YearGains {
                year: d.year,
                ..YearGains::default()
            });
            y.disposals += 1;
            y.proceeds_nok += d.proceeds_nok;
            y.cost_nok += d.cost_nok;
            if !d.gain_nok.is_negative() {
                y.gains_nok += d.gain_nok;
            } else {
                y.losses_nok += d.gain_nok;
            }
            y.net_nok += d.gain_nok;
        }
        if let Some(since) = self.pending_since {
            for y in years.values_mut() {
                if oslo_year(&since) <= y.year {
                    y.pending_since = Some(since);
                }
            }
        }
        let mut notes = vec![GainsNote::MatchedBy(self.method)];
        if self.deposits_at_market > 0 {
            notes.push(GainsNote::DepositsAtMarket(self.deposits_at_market));
        }
        if self.moved_out > 0 {
            notes.push(GainsNote::MovedOut(self.moved_out));
        }
        let unmatched = self
            .disposals
            .iter()
            .filter(|d| d.unmatched_btc.is_positive())
            .count();
        if unmatched > 0 {
            notes.push(GainsNote::SoldMoreThanBought(
                u32::try_from(unmatched).unwrap_or(u32::MAX),
            ));
        }
        if !self.unpriced.is_empty() {
            notes.push(GainsNote::Unpriced(self.unpriced));
        }
        for (kind, count) in self.unknown_types {
            notes.push(GainsNote::UnknownType { kind, count });
        }
        GainsReport {
            method: self.method,
            disposals: self.disposals,
            years: years.into_values().collect(),
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::tests_support::{fee, paid, received, tx};
    use nordlys_exchange::models::TaxTransactionType;

    /// A figure in whichever unit the comparison wants.
    fn d<Q: nordlys_money::Quantity>(s: &str) -> Q {
        Q::computed(s.parse().unwrap())
    }

    /// A small scripted history; the expectations below are worked out by hand.
    fn history() -> Vec<TaxTransaction> {
        let mut pay = fee(
            paid(
                tx(
                    "p1",
                    "2025-02-01T10:00:00Z",
                    "acc_a",
                    TaxTransactionType::BtcWithdrawal,
                    "0.1999",
                    "600000",
                ),
                "0.2",
                "BTC",
            ),
            "0.0001",
            "BTC",
        );
        pay.is_payment = true;
        let mut internal_out = paid(
            tx(
                "m1",
                "2024-08-01T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcWithdrawal,
                "0",
                "550000",
            ),
            "0.4",
            "BTC",
        );
        internal_out.sub_type = TaxSubType::Internal;
        let mut internal_in = received(
            tx(
                "m2",
                "2024-08-01T10:00:00Z",
                "acc_b",
                TaxTransactionType::BtcDeposit,
                "0.4",
                "550000",
            ),
            "0.4",
            "BTC",
        );
        internal_in.sub_type = TaxSubType::Internal;
        vec![
            fee(
                paid(
                    received(
                        tx(
                            "b1",
                            "2024-01-10T10:00:00Z",
                            "acc_a",
                            TaxTransactionType::BtcBuy,
                            "1",
                            "300000",
                        ),
                        "1",
                        "BTC",
                    ),
                    "300000",
                    "NOK",
                ),
                "600",
                "NOK",
            ),
            fee(
                paid(
                    received(
                        tx(
                            "b2",
                            "2024-03-01T10:00:00Z",
                            "acc_a",
                            TaxTransactionType::BtcBuy,
                            "1.5",
                            "400000",
                        ),
                        "0.5",
                        "BTC",
                    ),
                    "200000",
                    "NOK",
                ),
                "400",
                "NOK",
            ),
            fee(
                paid(
                    received(
                        tx(
                            "s1",
                            "2024-06-01T10:00:00Z",
                            "acc_a",
                            TaxTransactionType::BtcSell,
                            "0.3",
                            "500000",
                        ),
                        "600000",
                        "NOK",
                    ),
                    "1.2",
                    "BTC",
                ),
                "1200",
                "NOK",
            ),
            received(
                tx(
                    "g1",
                    "2024-07-01T10:00:00Z",
                    "acc_a",
                    TaxTransactionType::BtcBonus,
                    "0.4",
                    "500000",
                ),
                "0.1",
                "BTC",
            ),
            internal_out,
            internal_in,
            received(
                tx(
                    "f1",
                    "2024-09-01T10:00:00Z",
                    "",
                    TaxTransactionType::FiatDeposit,
                    "0.4",
                    "0",
                ),
                "10000",
                "NOK",
            ),
            pay,
        ]
    }

    fn run(method: Method) -> GainsReport {
        let mut b = GainsBuilder::new(method);
        for t in history() {
            b.add(&t);
        }
        b.finish()
    }

    #[test]
    fn fifo_matches_the_oldest_lots_first_with_fees_in_the_cost() {
        let r = run(Method::Fifo);
        assert_eq!(r.disposals.len(), 2);
        let s1 = &r.disposals[0];
        // 1.0 of b1 (300 600) + 0.2 of b2 (200 400 × 0.2 / 0.5 = 80 160).
        assert_eq!(s1.lots.len(), 2);
        assert_eq!(s1.lots[0].acquisition_id.as_deref(), Some("b1"));
        assert_eq!((s1.lots[0].btc, s1.lots[0].cost_nok), (d("1"), d("300600")));
        assert_eq!(
            (s1.lots[1].btc, s1.lots[1].cost_nok),
            (d("0.2"), d("80160"))
        );
        assert_eq!(s1.proceeds_nok, d("600000"));
        assert_eq!(s1.gain_nok, d("219240"));
        // The payment: 0.2 + 0.0001 fee from what is left of b2 (0.3 for 120 240), at 600 000.
        let p1 = &r.disposals[1];
        assert_eq!(p1.kind, DisposalKind::Payment);
        assert_eq!(p1.btc, d("0.2001"));
        assert_eq!(p1.lots[0].acquisition_id.as_deref(), Some("b2"));
        assert_eq!(p1.cost_nok, d("80200.08"));
        assert_eq!(p1.proceeds_nok, d("120000"));
        assert_eq!(p1.gain_nok, d("39799.92"));
        assert_eq!(p1.unmatched_btc, Btc::ZERO);
        assert_eq!(r.years.len(), 2);
        assert_eq!((r.years[0].year, r.years[0].net_nok), (2024, d("219240")));
        assert_eq!((r.years[1].year, r.years[1].net_nok), (2025, d("39799.92")));
        assert_eq!(r.notes[0], GainsNote::MatchedBy(Method::Fifo));
    }

    #[test]
    fn average_cost_spreads_the_cost_of_the_whole_holding() {
        let r = run(Method::AverageCost);
        // Pool 1.5 BTC for 501 000: 1.2 cost 400 800.
        assert_eq!(r.disposals[0].cost_nok, d("400800"));
        assert_eq!(r.disposals[0].gain_nok, d("199200"));
        // Left 0.3 for 100 200, + bonus 0.1 at 50 000: 0.4 for 150 200; 0.2001 costs 75 137.55.
        assert_eq!(r.disposals[1].cost_nok, d("75137.55"));
        assert_eq!(r.disposals[1].gain_nok, d("44862.45"));
        assert_eq!(r.disposals[1].lots[0].acquisition_id, None);
        assert_eq!(r.notes[0], GainsNote::MatchedBy(Method::AverageCost));
    }

    /// Each tax figure is rounded to the øre half away from zero: half of a lot that cost
    /// 0,01 kr costs 0,01 (banker's rounding made it 0,00), and proceeds of 0,125 are 0,13.
    #[test]
    fn a_lots_cost_and_the_proceeds_are_rounded_to_the_ore_half_away_from_zero() {
        let mut b = GainsBuilder::new(Method::Fifo);
        let buy = tx(
            "b1",
            "2024-01-10T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcBuy,
            "2",
            "1",
        );
        b.add(&paid(received(buy, "2", "BTC"), "0.01", "NOK"));
        let sell = tx(
            "s1",
            "2024-02-10T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcSell,
            "1",
            "1",
        );
        b.add(&paid(received(sell, "0.125", "NOK"), "1", "BTC"));
        let r = b.finish();
        assert_eq!(r.disposals[0].lots[0].cost_nok, d("0.01"));
        assert_eq!(r.disposals[0].proceeds_nok, d("0.13"));
        assert_eq!(r.disposals[0].gain_nok, d("0.12"));
    }

    #[test]
    fn selling_more_than_was_bought_is_reported_not_hidden() {
        let mut b = GainsBuilder::new(Method::Fifo);
        b.add(&paid(
            received(
                tx(
                    "b1",
                    "2024-01-10T10:00:00Z",
                    "acc_a",
                    TaxTransactionType::BtcBuy,
                    "0.1",
                    "1",
                ),
                "0.1",
                "BTC",
            ),
            "1000",
            "NOK",
        ));
        b.add(&paid(
            received(
                tx(
                    "s1",
                    "2024-02-10T10:00:00Z",
                    "acc_a",
                    TaxTransactionType::BtcSell,
                    "0",
                    "1",
                ),
                "5000",
                "NOK",
            ),
            "0.5",
            "BTC",
        ));
        b.add(&tx(
            "x1",
            "2024-02-11T10:00:00Z",
            "acc_a",
            TaxTransactionType::Unknown("staking, a kind added later".into()),
            "0",
            "1",
        ));
        let r = b.finish();
        assert_eq!(r.disposals[0].unmatched_btc, d("0.4"));
        assert_eq!(r.disposals[0].gain_nok, d("4000"));
        assert!(r.notes.contains(&GainsNote::SoldMoreThanBought(1)));
        assert!(r.notes.contains(&GainsNote::UnknownType {
            kind: "staking, a kind added later".into(),
            count: 1
        }));
    }
}
