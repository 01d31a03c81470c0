//! Realised gains and losses in NOK: each disposal (a sell, or a payment marked `isPayment`) is
//! matched to acquisitions by FIFO, or by average cost when the user chooses it, fees included,
//! with the lots it consumed. All accounts form one holding, as for the taxpayer. Figures are kept
//! exactly; they are rounded only where they are shown or filed.
//!
//! Where a trade's fee is (the specification does not say) is read from the row itself: a buy's
//! `outAmount` either is the bitcoin's price (the fee beside it) or includes the fee, and a sell's
//! `inAmount` either is net of the fee or not; the row's market rate tells which. A row that does
//! not tell makes the figures it feeds not computable rather than guessed.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use nordlys_exchange::models::{CurrencyCode, TaxSubType, TaxTransaction, TaxTransactionType};
use nordlys_money::{Btc, CheckedSum, Nok, NokPerBtc};
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

/// What a deposit from outside the exchange cost: the history does not say.
#[derive(Debug, Clone, Default)]
pub enum DepositCosts {
    /// Taken at its market value when it arrived, said in a note (the overview's report).
    #[default]
    AtMarket,
    /// Not known unless the user entered it (by the deposit's id): the tax return's figures.
    Entered(BTreeMap<String, EnteredCost>),
}

/// A deposit's acquisition as the user entered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnteredCost {
    pub acquired_at: DateTime<Utc>,
    pub cost_nok: Nok,
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

/// Why a figure the history should give is not known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unknown {
    /// A deposit from outside: its cost is the user's to enter. `at` is when it arrived, which
    /// names it to the user better than its id.
    DepositCost {
        deposit_id: String,
        at: DateTime<Utc>,
    },
    /// The row has no market rate to value it at.
    NoRate { id: String, at: DateTime<Utc> },
    /// The row does not show whether its fee is inside its amount.
    FeePlacement { id: String, at: DateTime<Utc> },
    /// The row's amounts, with what came before, are too large to add up.
    TooLarge { id: String, at: DateTime<Utc> },
}

fn too_large(t: &TaxTransaction) -> Unknown {
    Unknown::TooLarge {
        id: t.id.as_str().to_owned(),
        at: t.create_time,
    }
}

/// The part of one acquisition a disposal consumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchedLot {
    /// The acquisition's transaction id; `None` for the average-cost pool. Shared with the lot
    /// and every other part of it a disposal consumed: a long history matches millions.
    pub acquisition_id: Option<Arc<str>>,
    pub acquired_at: Option<DateTime<Utc>>,
    pub btc: Btc,
    /// Zero when `unknown` says why it is not known.
    pub cost_nok: Nok,
    pub unknown: Option<Unknown>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disposal {
    pub id: String,
    pub account_id: Option<String>,
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
    /// Why the proceeds or a consumed lot's cost are not known: the gain is not computable.
    pub unknown: Vec<Unknown>,
}

impl Disposal {
    /// Whether its proceeds are known: not when its own row is what is not known (no rate, or a
    /// fee of unknown placement).
    pub fn proceeds_known(&self) -> bool {
        !self.unknown.iter().any(|u| match u {
            Unknown::NoRate { id, .. } | Unknown::FeePlacement { id, .. } => *id == self.id,
            // Too large: the cost could not be added up, not the proceeds.
            Unknown::DepositCost { .. } | Unknown::TooLarge { .. } => false,
        })
    }
}

/// Bitcoin received as a bonus: capital income at its market value when received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Income {
    pub id: String,
    pub account_id: Option<String>,
    pub at: DateTime<Utc>,
    pub year: i32,
    pub btc: Btc,
    /// `None` when the row has no market rate.
    pub value_nok: Option<Nok>,
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
    /// Disposals of the year whose gain is not known (a cost or proceeds is not): the year's
    /// totals are not computable while any is, as the tax return's card says.
    pub unknown_disposals: u32,
    /// The year's disposals are too large to add up: its totals are not computable.
    pub too_large: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GainsReport {
    pub method: Method,
    pub disposals: Vec<Disposal>,
    pub income: Vec<Income>,
    pub years: Vec<YearGains>,
    /// What the figures rest on or leave out.
    pub notes: Vec<GainsNote>,
}

#[derive(Debug, Clone)]
struct Lot {
    id: Arc<str>,
    at: DateTime<Utc>,
    btc: Btc,
    cost: Nok,
    /// Why `cost` is not known; in the average-cost pool, the first such lot poured in.
    unknown: Option<Unknown>,
}

/// The lots the history leaves, by a method: what a sale not yet made would consume.
#[derive(Debug, Clone)]
pub struct Holding {
    method: Method,
    lots: VecDeque<Lot>,
}

impl Holding {
    /// What disposing of `btc` at `at` for `proceeds` would realise; the holding itself is not
    /// touched.
    pub fn preview(&self, btc: Btc, proceeds: Nok, at: DateTime<Utc>) -> Disposal {
        let mut scratch = GainsBuilder {
            method: self.method,
            lots: self.lots.clone(),
            ..GainsBuilder::default()
        };
        let (lots, unmatched_btc) = scratch.take(btc);
        let mut unknown: Vec<Unknown> = lots.iter().filter_map(|l| l.unknown.clone()).collect();
        let cost = lots
            .iter()
            .map(|l| l.cost_nok)
            .checked_sum()
            .unwrap_or_else(|| {
                unknown.push(Unknown::TooLarge {
                    id: String::new(),
                    at,
                });
                Nok::ZERO
            });
        unknown.dedup();
        Disposal {
            id: String::new(),
            account_id: None,
            at,
            year: oslo_year(&at),
            kind: DisposalKind::Sale,
            btc,
            proceeds_nok: proceeds,
            cost_nok: cost,
            gain_nok: proceeds - cost,
            lots,
            unmatched_btc,
            unknown,
        }
    }
}

/// Reads transactions oldest first.
#[derive(Debug, Default)]
pub struct GainsBuilder {
    method: Method,
    deposits: DepositCosts,
    lots: VecDeque<Lot>,
    disposals: Vec<Disposal>,
    income: Vec<Income>,
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

/// Whether a trade's NOK fee is inside its NOK amount, from its market rate: the reading whose
/// rest is nearer the bitcoin's worth, when one is clearly nearer (within a quarter of the fee).
/// `None` when the row cannot tell; `Some(false)` for a row without a fee.
fn fee_inside(btc: Btc, nok: Nok, fee: Nok, rate: Option<NokPerBtc>, buying: bool) -> Option<bool> {
    if !fee.is_positive() {
        return Some(false);
    }
    let worth = btc.value_at(rate.filter(|r| r.is_positive())?)?;
    // Buying: `nok` is the worth, or the worth and the fee. Selling: `nok` is the worth less the
    // fee (inside), or the worth.
    let (beside, inside) = if buying {
        (nok - worth, nok - fee - worth)
    } else {
        (nok - worth, nok + fee - worth)
    };
    let (beside, inside) = (beside.decimal().abs(), inside.decimal().abs());
    let near = fee.decimal() / Decimal::from(4);
    match (inside < beside, inside.min(beside) <= near) {
        (_, false) => None,
        (inside_nearer, true) => Some(inside_nearer),
    }
}

/// What a buy row bought and what it cost, its fee included wherever the row puts it; `None`
/// for a row that is not a buy or does not show where its fee is.
pub fn buy_cost(t: &TaxTransaction) -> Option<(Btc, Nok)> {
    if t.tx_type != TaxTransactionType::BtcBuy {
        return None;
    }
    let btc = Btc::computed(amount(
        t.in_amount,
        t.in_currency.as_ref(),
        &CurrencyCode::Btc,
    ));
    let paid = Nok::computed(amount(
        t.out_amount,
        t.out_currency.as_ref(),
        &CurrencyCode::Nok,
    ));
    let fee = Nok::computed(amount(
        t.fee_amount,
        t.fee_currency.as_ref(),
        &CurrencyCode::Nok,
    ));
    match fee_inside(btc, paid, fee, t.rate_market, true)? {
        true => Some((btc, paid)),
        false => Some((btc, paid + fee)),
    }
}

/// What a trade's bitcoin was exchanged for in NOK, its fee apart, wherever the row puts the
/// fee (inside its NOK amount, as the exchange publishes, or beside it); `None` for a row that
/// is not a trade or does not show where its fee is.
pub fn trade_worth(t: &TaxTransaction) -> Option<Nok> {
    let buying = match t.tx_type {
        TaxTransactionType::BtcBuy => true,
        TaxTransactionType::BtcSell => false,
        _ => return None,
    };
    let side = |v, c: &Option<CurrencyCode>, want| amount(v, c.as_ref(), want);
    let (btc, nok) = if buying {
        (
            side(t.in_amount, &t.in_currency, &CurrencyCode::Btc),
            side(t.out_amount, &t.out_currency, &CurrencyCode::Nok),
        )
    } else {
        (
            side(t.out_amount, &t.out_currency, &CurrencyCode::Btc),
            side(t.in_amount, &t.in_currency, &CurrencyCode::Nok),
        )
    };
    let (btc, nok) = (Btc::computed(btc), Nok::computed(nok));
    let fee = Nok::computed(side(t.fee_amount, &t.fee_currency, &CurrencyCode::Nok));
    Some(
        match (fee_inside(btc, nok, fee, t.rate_market, buying)?, buying) {
            (false, _) => nok,
            (true, true) => nok - fee,
            (true, false) => nok + fee,
        },
    )
}

impl GainsBuilder {
    pub fn new(method: Method) -> Self {
        Self {
            method,
            ..Self::default()
        }
    }

    /// Deposits from outside cost what `deposits` says.
    pub fn with_deposit_costs(mut self, deposits: DepositCosts) -> Self {
        self.deposits = deposits;
        self
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
        let unclear = || Unknown::FeePlacement {
            id: t.id.as_str().to_owned(),
            at: t.create_time,
        };
        match &t.tx_type {
            TaxTransactionType::BtcBuy => {
                let paid = nok(t.out_amount, &t.out_currency);
                match fee_inside(btc_in, paid, nok_fee, t.rate_market, true) {
                    Some(true) => self.acquire(t, btc_in, Ok(paid)),
                    Some(false) => self.acquire(t, btc_in, Ok(paid + nok_fee)),
                    None => self.acquire(t, btc_in, Err(unclear())),
                }
            }
            TaxTransactionType::BtcSell => {
                let got = nok(t.in_amount, &t.in_currency);
                let proceeds = match fee_inside(btc_out, got, nok_fee, t.rate_market, false) {
                    Some(true) => Ok(got),
                    Some(false) => Ok(got - nok_fee),
                    None => Err(unclear()),
                };
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
                    let cost = self.cost_on_arrival(t, btc_in);
                    if t.tx_type == TaxTransactionType::BtcBonus {
                        self.income.push(Income {
                            id: t.id.as_str().to_owned(),
                            account_id: t.account_id.as_ref().map(|a| a.as_str().to_owned()),
                            at: t.create_time,
                            year: oslo_year(&t.create_time),
                            btc: btc_in,
                            value_nok: cost.clone().ok(),
                        });
                    }
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

    /// What bitcoin arriving from outside a trade cost: a deposit what the user entered (or, for
    /// the overview's report, its market value); a bonus or an adjustment its market value.
    fn cost_on_arrival(&mut self, t: &TaxTransaction, btc: Btc) -> Result<Nok, Unknown> {
        if t.tx_type != TaxTransactionType::BtcDeposit {
            return self.market_value(t, btc);
        }
        match &self.deposits {
            DepositCosts::AtMarket => {
                self.deposits_at_market += 1;
                self.market_value(t, btc)
            }
            DepositCosts::Entered(entered) => entered
                .get(t.id.as_str())
                .map(|e| e.cost_nok)
                .ok_or_else(|| Unknown::DepositCost {
                    deposit_id: t.id.as_str().to_owned(),
                    at: t.create_time,
                }),
        }
    }

    fn market_value(&mut self, t: &TaxTransaction, btc: Btc) -> Result<Nok, Unknown> {
        t.rate_market
            .filter(|r| r.is_positive())
            .and_then(|r| btc.value_at(r))
            .ok_or_else(|| {
                self.unpriced.push(t.id.as_str().to_owned());
                Unknown::NoRate {
                    id: t.id.as_str().to_owned(),
                    at: t.create_time,
                }
            })
    }

    fn acquire(&mut self, t: &TaxTransaction, btc: Btc, cost: Result<Nok, Unknown>) {
        if !btc.is_positive() {
            return;
        }
        let acquired_at = match (&self.deposits, &t.tx_type) {
            (DepositCosts::Entered(e), TaxTransactionType::BtcDeposit) => e
                .get(t.id.as_str())
                .map_or(t.create_time, |e| e.acquired_at),
            _ => t.create_time,
        };
        let (cost, unknown) = match cost {
            Ok(c) => (c, None),
            Err(u) => (Nok::ZERO, Some(u)),
        };
        match (self.method, self.lots.back_mut()) {
            (Method::AverageCost, Some(pool)) => {
                match (pool.btc.checked_add(btc), pool.cost.checked_add(cost)) {
                    (Some(b), Some(c)) => (pool.btc, pool.cost) = (b, c),
                    // The pool's cost is no longer a figure: every sale from it says so.
                    _ => pool.unknown = Some(too_large(t)),
                }
                pool.unknown = pool.unknown.take().or(unknown);
            }
            _ => self.lots.push_back(Lot {
                id: t.id.as_str().into(),
                at: acquired_at,
                btc,
                cost,
                unknown,
            }),
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
                // The consumed share of the lot's cost, multiplied before it is divided so that a
                // share that divides evenly stays exact; a hostile figure past `Decimal`'s range
                // costs nothing rather than panicking.
                lot.cost
                    .scaled(part.decimal())
                    .and_then(|c| c.decimal().checked_div(lot.btc.decimal()))
                    .map_or(Nok::ZERO, Nok::computed)
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
                cost_nok: cost,
                unknown: lot.unknown.clone(),
            });
            if !lot.btc.is_positive() {
                self.lots.pop_front();
            }
        }
        (matched, btc)
    }

    fn dispose(
        &mut self,
        t: &TaxTransaction,
        kind: DisposalKind,
        btc: Btc,
        proceeds: Result<Nok, Unknown>,
    ) {
        let (lots, unmatched) = self.take(btc);
        let mut unknown: Vec<Unknown> = lots.iter().filter_map(|l| l.unknown.clone()).collect();
        let cost = lots
            .iter()
            .map(|l| l.cost_nok)
            .checked_sum()
            .unwrap_or_else(|| {
                unknown.push(too_large(t));
                Nok::ZERO
            });
        let proceeds = proceeds.unwrap_or_else(|u| {
            unknown.insert(0, u);
            Nok::ZERO
        });
        unknown.dedup();
        self.disposals.push(Disposal {
            id: t.id.as_str().to_owned(),
            account_id: t.account_id.as_ref().map(|a| a.as_str().to_owned()),
            at: t.create_time,
            year: oslo_year(&t.create_time),
            kind,
            btc,
            proceeds_nok: proceeds,
            cost_nok: cost,
            gain_nok: proceeds - cost,
            lots,
            unmatched_btc: unmatched,
            unknown,
        });
    }

    /// The lots left once every row is read, for sales not yet made.
    pub fn into_holding(self) -> Holding {
        Holding {
            method: self.method,
            lots: self.lots,
        }
    }

    pub fn finish(self) -> GainsReport {
        let mut years: BTreeMap<i32, YearGains> = BTreeMap::new();
        for d in &self.disposals {
            let y = years.entry(d.year).or_insert_with(|| YearGains {
                year: d.year,
                ..YearGains::default()
            });
            y.disposals += 1;
            if !d.unknown.is_empty() {
                y.unknown_disposals += 1;
            }
            let (gains, losses) = match d.gain_nok.is_negative() {
                false => (d.gain_nok, Nok::ZERO),
                true => (Nok::ZERO, d.gain_nok),
            };
            let sums = [
                (&mut y.proceeds_nok, d.proceeds_nok),
                (&mut y.cost_nok, d.cost_nok),
                (&mut y.gains_nok, gains),
                (&mut y.losses_nok, losses),
                (&mut y.net_nok, d.gain_nok),
            ];
            for (sum, add) in sums {
                match sum.checked_add(add) {
                    Some(s) => *sum = s,
                    None => y.too_large = true,
                }
            }
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
            income: self.income,
            years: years.into_values().collect(),
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::tests_support::{RowParts, tx};
    use nordlys_exchange::models::TaxTransactionType;

    /// A figure in whichever unit the comparison wants.
    fn d<Q: nordlys_money::Quantity>(s: &str) -> Q {
        Q::computed(s.parse().unwrap())
    }

    /// 0.001 BTC at 773 130 is worth 773.13; the fee of 3.87 inside the amount (777, as
    /// published) or beside it (773.13) gives the same worth, bought or sold.
    #[test]
    fn a_trades_worth_is_the_same_wherever_its_fee_is() {
        use TaxTransactionType::{BtcBuy, BtcSell};
        let at = "2026-01-01T10:00:00Z";
        let buy = |out: &str| {
            tx("b", at, "a", BtcBuy, "0.001", "773130")
                .received("0.001", "BTC")
                .paid(out, "NOK")
                .fee("3.87", "NOK")
        };
        let sell = |received: &str| {
            tx("s", at, "a", BtcSell, "0", "773130")
                .received(received, "NOK")
                .paid("0.001", "BTC")
                .fee("3.87", "NOK")
        };
        for row in [buy("777"), buy("773.13"), sell("769.26"), sell("773.13")] {
            assert_eq!(trade_worth(&row), Some(d("773.13")), "{:?}", row.out_amount);
        }
        // No rate: the row cannot tell where its fee is.
        let mut unknown = buy("777");
        unknown.rate_market = None;
        assert_eq!(trade_worth(&unknown), None);
    }

    /// A small scripted history; the expectations below are worked out by hand.
    fn history() -> Vec<TaxTransaction> {
        let mut pay = tx(
            "p1",
            "2025-02-01T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcWithdrawal,
            "0.1999",
            "600000",
        )
        .paid("0.2", "BTC")
        .fee("0.0001", "BTC");
        pay.is_payment = true;
        let mut internal_out = tx(
            "m1",
            "2024-08-01T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcWithdrawal,
            "0",
            "550000",
        )
        .paid("0.4", "BTC");
        internal_out.sub_type = TaxSubType::Internal;
        let mut internal_in = tx(
            "m2",
            "2024-08-01T10:00:00Z",
            "acc_b",
            TaxTransactionType::BtcDeposit,
            "0.4",
            "550000",
        )
        .received("0.4", "BTC");
        internal_in.sub_type = TaxSubType::Internal;
        vec![
            tx(
                "b1",
                "2024-01-10T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcBuy,
                "1",
                "300000",
            )
            .received("1", "BTC")
            .paid("300000", "NOK")
            .fee("600", "NOK"),
            tx(
                "b2",
                "2024-03-01T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcBuy,
                "1.5",
                "400000",
            )
            .received("0.5", "BTC")
            .paid("200000", "NOK")
            .fee("400", "NOK"),
            tx(
                "s1",
                "2024-06-01T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcSell,
                "0.3",
                "500000",
            )
            .received(
                // 1.2 at 500 000 less the fee, as the exchange nets a sale's fee.
                "598800", "NOK",
            )
            .paid("1.2", "BTC")
            .fee("1200", "NOK"),
            tx(
                "g1",
                "2024-07-01T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcBonus,
                "0.4",
                "500000",
            )
            .received("0.1", "BTC"),
            internal_out,
            internal_in,
            tx(
                "f1",
                "2024-09-01T10:00:00Z",
                "",
                TaxTransactionType::FiatDeposit,
                "0.4",
                "0",
            )
            .received("10000", "NOK"),
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
        assert_eq!(s1.proceeds_nok, d("598800"));
        assert_eq!(s1.gain_nok, d("218040"));
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
        assert_eq!((r.years[0].year, r.years[0].net_nok), (2024, d("218040")));
        assert_eq!((r.years[1].year, r.years[1].net_nok), (2025, d("39799.92")));
        assert_eq!(r.notes[0], GainsNote::MatchedBy(Method::Fifo));
    }

    #[test]
    fn average_cost_spreads_the_cost_of_the_whole_holding() {
        let r = run(Method::AverageCost);
        // Pool 1.5 BTC for 501 000: 1.2 cost 400 800.
        assert_eq!(r.disposals[0].cost_nok, d("400800"));
        assert_eq!(r.disposals[0].gain_nok, d("198000"));
        // Left 0.3 for 100 200, + bonus 0.1 at 50 000: 0.4 for 150 200; 0.2001 costs 75 137.55.
        assert_eq!(r.disposals[1].cost_nok, d("75137.55"));
        assert_eq!(r.disposals[1].gain_nok, d("44862.45"));
        assert_eq!(r.disposals[1].lots[0].acquisition_id, None);
        assert_eq!(r.notes[0], GainsNote::MatchedBy(Method::AverageCost));
    }

    /// Figures are kept exactly: half of a lot that cost 0,01 kr costs 0,005, and proceeds of
    /// 0,125 stay 0,125; they are rounded only where shown or filed.
    #[test]
    fn a_lots_cost_and_the_proceeds_are_kept_exactly() {
        let mut b = GainsBuilder::new(Method::Fifo);
        let buy = tx(
            "b1",
            "2024-01-10T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcBuy,
            "2",
            "1",
        );
        b.add(&buy.received("2", "BTC").paid("0.01", "NOK"));
        let sell = tx(
            "s1",
            "2024-02-10T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcSell,
            "1",
            "1",
        );
        b.add(&sell.received("0.125", "NOK").paid("1", "BTC"));
        let r = b.finish();
        assert_eq!(r.disposals[0].lots[0].cost_nok, d("0.005"));
        assert_eq!(r.disposals[0].proceeds_nok, d("0.125"));
        assert_eq!(r.disposals[0].gain_nok, d("0.12"));
    }

    /// A buy of 0.01 BTC at 1 000 000 with a fee of 50: `outAmount` 10 000 is the price with the
    /// fee beside it (cost 10 050), 10 050 has the fee inside (cost 10 050 too); 10 025 sits
    /// between the readings and is refused. A sale's `inAmount` of 9 950 is net (proceeds
    /// 9 950), of 10 000 gross (proceeds 9 950).
    #[test]
    fn a_trade_s_fee_is_placed_by_what_its_row_shows_or_the_figure_is_refused() {
        let buy = |id: &str, out: &str| {
            tx(
                id,
                "2024-01-10T10:00:00Z",
                "a",
                TaxTransactionType::BtcBuy,
                "0",
                "1000000",
            )
            .received("0.01", "BTC")
            .paid(out, "NOK")
            .fee("50", "NOK")
        };
        let sell = |id: &str, got: &str| {
            tx(
                id,
                "2024-02-10T10:00:00Z",
                "a",
                TaxTransactionType::BtcSell,
                "0",
                "1000000",
            )
            .received(got, "NOK")
            .paid("0.01", "BTC")
            .fee("50", "NOK")
        };
        for (out, got) in [("10000", "9950"), ("10050", "10000")] {
            let mut b = GainsBuilder::new(Method::Fifo);
            b.add(&buy("b", out));
            b.add(&sell("s", got));
            let r = b.finish();
            let s = &r.disposals[0];
            assert_eq!(
                (s.cost_nok, s.proceeds_nok),
                (d("10050"), d("9950")),
                "{out} {got}"
            );
            assert!(s.unknown.is_empty());
        }
        let mut b = GainsBuilder::new(Method::Fifo);
        b.add(&buy("b", "10025"));
        b.add(&sell("s", "10025"));
        let r = b.finish();
        assert_eq!(
            r.disposals[0].unknown,
            vec![
                Unknown::FeePlacement {
                    id: "s".into(),
                    at: sell("s", "10025").create_time
                },
                Unknown::FeePlacement {
                    id: "b".into(),
                    at: buy("b", "10025").create_time
                }
            ]
        );
    }

    /// For the tax return a deposit from outside has no cost until the user enters one, and a
    /// sale that uses it is not computable; the entered cost and date make it so.
    #[test]
    fn a_deposit_from_outside_costs_what_the_user_entered_or_is_unknown() {
        let rows = [
            tx(
                "de_1",
                "2024-01-10T10:00:00Z",
                "a",
                TaxTransactionType::BtcDeposit,
                "0.1",
                "500000",
            )
            .received("0.1", "BTC"),
            tx(
                "s1",
                "2024-03-10T10:00:00Z",
                "a",
                TaxTransactionType::BtcSell,
                "0",
                "600000",
            )
            .received("60000", "NOK")
            .paid("0.1", "BTC"),
        ];
        let run = |deposits: DepositCosts| {
            let mut b = GainsBuilder::new(Method::Fifo).with_deposit_costs(deposits);
            rows.iter().for_each(|t| b.add(t));
            b.finish()
        };
        let unknown = run(DepositCosts::Entered(BTreeMap::new()));
        assert_eq!(
            unknown.disposals[0].unknown,
            vec![Unknown::DepositCost {
                deposit_id: "de_1".into(),
                at: "2024-01-10T10:00:00Z".parse().unwrap(),
            }]
        );
        let entered = run(DepositCosts::Entered(BTreeMap::from([(
            "de_1".to_owned(),
            EnteredCost {
                acquired_at: "2021-05-01T00:00:00Z".parse().unwrap(),
                cost_nok: d("35000"),
            },
        )])));
        let s = &entered.disposals[0];
        assert!(s.unknown.is_empty());
        assert_eq!((s.cost_nok, s.gain_nok), (d("35000"), d("25000")));
        assert_eq!(s.lots[0].acquired_at, "2021-05-01T00:00:00Z".parse().ok());
        // The overview's report takes it at its market value when it arrived, and says so.
        let market = run(DepositCosts::AtMarket);
        assert_eq!(market.disposals[0].gain_nok, d("10000"));
        assert!(market.notes.contains(&GainsNote::DepositsAtMarket(1)));
    }

    /// Figures a hostile history could send, each in range, whose sums are not: the sale is
    /// not computable with the reason, never a panic and never a wrong figure.
    #[test]
    fn costs_and_gains_too_large_to_add_up_are_not_computable() {
        use TaxTransactionType::{BtcBuy, BtcSell};
        let huge = "50000000000000000000000000000";
        let buy = |id: &str, at: &str, rate: &str| {
            tx(id, at, "a", BtcBuy, "1", rate)
                .received("1", "BTC")
                .paid(rate, "NOK")
        };
        let sell = |id: &str, at: &str, btc: &str, rate: &str| {
            tx(id, at, "a", BtcSell, "0", rate)
                .received(rate, "NOK")
                .paid(btc, "BTC")
        };
        // Two lots whose costs each fit, sold together.
        for method in [Method::Fifo, Method::AverageCost] {
            let mut b = GainsBuilder::new(method);
            b.add(&buy("b1", "2024-01-01T10:00:00Z", huge));
            b.add(&buy("b2", "2024-01-02T10:00:00Z", huge));
            b.add(&sell("s1", "2024-02-01T10:00:00Z", "2", "1"));
            let report = b.finish();
            let sale = &report.disposals[0];
            assert!(
                sale.unknown
                    .iter()
                    .any(|u| matches!(u, Unknown::TooLarge { .. })),
                "{method:?}: {sale:?}"
            );
            assert!(
                sale.proceeds_known(),
                "{method:?}: the proceeds are a figure"
            );
            assert_eq!(report.years[0].unknown_disposals, 1, "{method:?}");
        }
        // Two sales whose gains each fit: the year's totals do not.
        let mut b = GainsBuilder::new(Method::Fifo);
        b.add(&buy("b1", "2024-01-01T10:00:00Z", "1"));
        b.add(&buy("b2", "2024-01-02T10:00:00Z", "1"));
        b.add(&sell("s1", "2024-02-01T10:00:00Z", "1", huge));
        b.add(&sell("s2", "2024-02-02T10:00:00Z", "1", huge));
        let report = b.finish();
        assert!(report.disposals.iter().all(|d| d.unknown.is_empty()));
        assert!(report.years[0].too_large, "{:?}", report.years[0]);
        assert_eq!(report.years[0].unknown_disposals, 0);
    }

    #[test]
    fn selling_more_than_was_bought_is_reported_not_hidden() {
        let mut b = GainsBuilder::new(Method::Fifo);
        b.add(
            &tx(
                "b1",
                "2024-01-10T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcBuy,
                "0.1",
                "1",
            )
            .received("0.1", "BTC")
            .paid("1000", "NOK"),
        );
        b.add(
            &tx(
                "s1",
                "2024-02-10T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcSell,
                "0",
                "1",
            )
            .received("5000", "NOK")
            .paid("0.5", "BTC"),
        );
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
