//! The tax before you sell: what a sale (or a payment marked `isPayment`) about to be made would
//! realise by the chosen method, from the synced history's lots, and the tax on it at the user's
//! income tax rate (a loss as a reduction). It refuses, with the card's reasons, when the history
//! is not synced or not complete enough to say.

use chrono::{DateTime, Utc};
use nordlys_money::{Btc, Nok, NokPerBtc, Percent};

use super::card::{Blockers, Why};
use super::gains::{DepositCosts, Disposal, GainsBuilder, Holding, Method};
use crate::store::{Store, StoreError, TaxFilter};

/// What the sale would realise, and the tax on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaleTax {
    pub disposal: Disposal,
    /// The gain (negative: a loss) × the rate, to the øre; negative is a reduction.
    pub tax: Nok,
    pub percent: Percent,
}

/// Why the sale's tax cannot be said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaleTaxRefusal {
    /// No tax history is stored.
    NotSynced,
    /// What the card would refuse for (a pending, unknown or unreadable row, a lot of unknown
    /// cost, or more sold than the history shows bought).
    Card(Why),
}

/// The holding as the stored history leaves it, read once and asked for each sale being
/// typed: a form checked at every pause reads the history only when it has changed.
#[derive(Debug, Clone)]
pub struct SaleBasis {
    method: Method,
    /// The store's tax generation the basis was read at.
    generation: u64,
    holding: Result<Holding, SaleTaxRefusal>,
}

impl SaleBasis {
    pub fn read(store: &Store, method: Method) -> Result<Self, StoreError> {
        // Read first: a write during the reading makes the basis stale, never wrongly current.
        let generation = store.tax_generation();
        let holding = if store.tax().oldest()?.is_none() {
            Err(SaleTaxRefusal::NotSynced)
        } else {
            let mut gains = GainsBuilder::new(method)
                .with_deposit_costs(DepositCosts::Entered(store.tax().deposit_costs()?));
            let mut blockers = Blockers::default();
            store
                .tax()
                .each_transaction::<StoreError>(&TaxFilter::default(), |t| {
                    blockers.read(t);
                    gains.add(t);
                    Ok(())
                })?;
            blockers.read_malformed(store, &DateTime::<Utc>::MAX_UTC)?;
            match blockers.first() {
                Some(why) => Err(SaleTaxRefusal::Card(why.clone())),
                None => Ok(gains.into_holding()),
            }
        };
        Ok(Self {
            method,
            generation,
            holding,
        })
    }

    /// Whether the basis still stands for `method` over `store` as it is now.
    pub fn holds_for(&self, store: &Store, method: Method) -> bool {
        self.method == method && self.generation == store.tax_generation()
    }

    /// The tax on selling `btc` at `price` at `now`, at `percent`.
    pub fn tax(
        &self,
        btc: Btc,
        price: NokPerBtc,
        percent: Percent,
        now: DateTime<Utc>,
    ) -> Result<SaleTax, SaleTaxRefusal> {
        let holding = self.holding.as_ref().map_err(Clone::clone)?;
        // Within the form's bounds (21 million BTC, a trillion NOK) the product always fits.
        let proceeds = btc.value_at(price).unwrap_or(Nok::ZERO);
        let disposal = holding.preview(btc, proceeds, now);
        if let Some(why) = Why::of_disposal(&disposal) {
            return Err(SaleTaxRefusal::Card(why));
        }
        let tax = disposal
            .gain_nok
            .scaled(percent.fraction())
            .map_or(Nok::ZERO, Nok::round_to_ore);
        Ok(SaleTax {
            disposal,
            tax,
            percent,
        })
    }
}

/// The tax on selling `btc` at `price` now, from the history as stored.
pub fn sale_tax(
    store: &Store,
    method: Method,
    btc: Btc,
    price: NokPerBtc,
    percent: Percent,
    now: DateTime<Utc>,
) -> Result<Result<SaleTax, SaleTaxRefusal>, StoreError> {
    Ok(SaleBasis::read(store, method)?.tax(btc, price, percent, now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::tests_support::{RowParts, store_of, tx};
    use nordlys_exchange::models::TaxTransactionType::{BtcBuy, BtcSell};

    fn d<Q: nordlys_money::Quantity>(s: &str) -> Q {
        Q::computed(s.parse().unwrap_or_default())
    }

    fn now() -> DateTime<Utc> {
        "2026-05-01T12:00:00Z".parse().unwrap_or_default()
    }

    /// 0.5 BTC for 200 000, then 0.5 for 300 000; 0.2 of the first sold for 90 000.
    fn history() -> Vec<nordlys_exchange::models::TaxTransaction> {
        vec![
            tx("b1", "2025-01-10T10:00:00Z", "a", BtcBuy, "0.5", "400000")
                .received("0.5", "BTC")
                .paid("200000", "NOK"),
            tx("b2", "2025-06-10T10:00:00Z", "a", BtcBuy, "1", "600000")
                .received("0.5", "BTC")
                .paid("300000", "NOK"),
            tx("s1", "2025-09-10T10:00:00Z", "a", BtcSell, "0.8", "450000")
                .received("90000", "NOK")
                .paid("0.2", "BTC"),
        ]
    }

    #[test]
    fn a_sale_consumes_the_oldest_lots_and_is_taxed_at_the_rate() {
        let store = store_of(history());
        let t = sale_tax(
            &store,
            Method::Fifo,
            d("0.4"),
            d("700000"),
            Percent::new(22.into()),
            now(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("{e:?}"));
        // 0.3 left of b1 (cost 120 000) and 0.1 of b2 (60 000): cost 180 000; proceeds 0.4 ×
        // 700 000 = 280 000; gain 100 000; tax 22 000.
        let lots: Vec<_> = t
            .disposal
            .lots
            .iter()
            .map(|l| {
                (
                    l.acquisition_id.as_deref().unwrap_or_default().to_owned(),
                    l.btc,
                    l.cost_nok,
                )
            })
            .collect();
        assert_eq!(
            lots,
            [
                ("b1".to_owned(), d("0.3"), d("120000")),
                ("b2".to_owned(), d("0.1"), d("60000"))
            ]
        );
        assert_eq!(t.disposal.gain_nok, d("100000"));
        assert_eq!(t.tax, d("22000"));
        // The holding is untouched: the same preview again gives the same lots.
        let again = sale_tax(
            &store,
            Method::Fifo,
            d("0.4"),
            d("700000"),
            Percent::new(22.into()),
            now(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(again, t);
    }

    #[test]
    fn a_loss_is_a_reduction_and_average_cost_pools_the_lots() {
        let store = store_of(history());
        // Pool after s1: 0.8 BTC at 500 000 − 0.2 × 500 000 / 1.0 … by hand: 1.0 BTC cost
        // 500 000, 0.2 sold takes 100 000, leaving 0.8 at 400 000. Selling 0.4 at 300 000:
        // proceeds 120 000, cost 200 000, loss 80 000, tax −17 600 at 22 %.
        let t = sale_tax(
            &store,
            Method::AverageCost,
            d("0.4"),
            d("300000"),
            Percent::new(22.into()),
            now(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(t.disposal.gain_nok, d("-80000"));
        assert_eq!(t.tax, d("-17600"));
    }

    #[test]
    fn a_basis_stands_until_the_rows_or_deposit_costs_change_or_another_method_is_asked() {
        let store = store_of(history());
        let basis = SaleBasis::read(&store, Method::Fifo).unwrap_or_else(|e| panic!("{e}"));
        assert!(basis.holds_for(&store, Method::Fifo));
        assert!(!basis.holds_for(&store, Method::AverageCost));
        store
            .tax()
            .add_page(&[], None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!basis.holds_for(&store, Method::Fifo), "a page was stored");
        let basis = SaleBasis::read(&store, Method::Fifo).unwrap_or_else(|e| panic!("{e}"));
        store
            .tax()
            .set_deposit_cost("d1", None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !basis.holds_for(&store, Method::Fifo),
            "a deposit's cost changed"
        );
    }

    #[test]
    fn no_history_a_pending_row_or_an_oversell_is_refused() {
        let empty = Store::in_memory().unwrap_or_else(|e| panic!("{e}"));
        let refused = |store: &Store, btc: &str| {
            sale_tax(
                store,
                Method::Fifo,
                d(btc),
                d("700000"),
                Percent::new(22.into()),
                now(),
            )
            .unwrap_or_else(|e| panic!("{e}"))
            .err()
        };
        assert_eq!(refused(&empty, "0.1"), Some(SaleTaxRefusal::NotSynced));
        assert!(matches!(
            refused(&store_of(history()), "0.9"),
            Some(SaleTaxRefusal::Card(Why::SoldMoreThanBought { .. }))
        ));
        let mut rows = history();
        rows[2].finalize_time = None;
        assert!(matches!(
            refused(&store_of(rows), "0.1"),
            Some(SaleTaxRefusal::Card(Why::Pending { .. }))
        ));
    }
}
