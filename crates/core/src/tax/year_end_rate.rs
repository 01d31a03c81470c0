//! The year-end rate a holding's wealth value is computed at, from the source the user chose for
//! that year: Skatteetaten's published rate for 1 January (as BTC/NOK, or as BTC/USD and
//! USD/NOK), the last market rate in their own history, or Nordlys' own price sample at
//! 31 December 23:00 UTC (midnight in Oslo). Nothing is chosen for a year until the user chooses.

use std::collections::BTreeMap;

use chrono::Duration;
use nordlys_money::{NokPerBtc, NokPerUsd, UsdPerBtc};

use super::year_end::RateSource;
use crate::store::{Store, StoreError};
use crate::time::year_start;

/// Where the user said a year's rate comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RateChoice {
    /// Skatteetaten's rate as NOK per BTC.
    Entered(NokPerBtc),
    /// Skatteetaten's rates as USD per BTC and NOK per USD; the rate is their product.
    ViaUsd {
        usd_per_btc: UsdPerBtc,
        nok_per_usd: NokPerUsd,
    },
    /// The market rate of the last row in the history before the year ended.
    LastTransaction,
    /// Nordlys' own price sample (the mid) nearest the year's end.
    Sample,
}

/// The rate the holding is valued at on 31 December, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YearEndRate {
    pub nok_per_btc: NokPerBtc,
    pub source: RateSource,
}

/// Why a year has no rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRate {
    /// The user has not chosen a source for this year.
    NotChosen,
    /// No row before the year's end carries a market rate.
    NoTransaction,
    /// Nordlys took no price sample within [`SAMPLE_WINDOW`] of the year's end.
    NoSample,
    /// The two entered rates multiply past what a decimal holds.
    OutOfRange,
}

/// How far from the year's end a price sample may be taken and still stand for it.
pub const SAMPLE_WINDOW: Duration = Duration::minutes(10);

/// The rate `choice` gives for `year`.
pub fn resolve(
    store: &Store,
    year: i32,
    choice: Option<&RateChoice>,
) -> Result<Result<YearEndRate, NoRate>, StoreError> {
    let end = year_start(year + 1);
    Ok(match choice {
        None => Err(NoRate::NotChosen),
        Some(RateChoice::Entered(r)) => Ok(YearEndRate {
            nok_per_btc: *r,
            source: RateSource::Entered,
        }),
        Some(RateChoice::ViaUsd {
            usd_per_btc,
            nok_per_usd,
        }) => usd_per_btc
            .in_nok(*nok_per_usd)
            .map(|nok_per_btc| YearEndRate {
                nok_per_btc,
                source: RateSource::EnteredViaUsd {
                    usd_per_btc: *usd_per_btc,
                    nok_per_usd: *nok_per_usd,
                },
            })
            .ok_or(NoRate::OutOfRange),
        Some(RateChoice::LastTransaction) => store
            .tax()
            .last_market_rate_before(&end)?
            .map(|(id, at, r)| YearEndRate {
                nok_per_btc: r,
                source: RateSource::Transaction { id, at },
            })
            .ok_or(NoRate::NoTransaction),
        Some(RateChoice::Sample) => store
            .price_sample_nearest(end, SAMPLE_WINDOW)?
            .map(|s| YearEndRate {
                nok_per_btc: s.mid,
                source: RateSource::Sample { at: s.at },
            })
            .ok_or(NoRate::NoSample),
    })
}

/// The rate the store's choice gives for `year`.
pub fn stored(store: &Store, year: i32) -> Result<Result<YearEndRate, NoRate>, StoreError> {
    let choices = store.tax().year_end_choices()?;
    resolve(store, year, choices.get(&year))
}

/// Every year the user chose a source for, with what it gives.
pub fn chosen(store: &Store) -> Result<BTreeMap<i32, Result<YearEndRate, NoRate>>, StoreError> {
    store
        .tax()
        .year_end_choices()?
        .iter()
        .map(|(year, c)| Ok((*year, resolve(store, *year, Some(c))?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::PriceSample;

    fn n(s: &str) -> NokPerBtc {
        NokPerBtc::computed(s.parse().unwrap_or_default())
    }

    fn sample(store: &Store, at: &str, mid: &str) {
        store
            .add_price_sample(&PriceSample {
                at: at.parse().unwrap_or_default(),
                mid: n(mid),
                bid: n("1"),
                ask: n("2"),
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn skatteetatens_usd_rates_multiply_exactly() {
        let store = Store::in_memory().unwrap_or_else(|e| panic!("{e}"));
        let via = RateChoice::ViaUsd {
            usd_per_btc: UsdPerBtc::new("93429.2".parse().unwrap_or_default()),
            nok_per_usd: NokPerUsd::new("11.3521".parse().unwrap_or_default()),
        };
        let r = resolve(&store, 2025, Some(&via))
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        // 93 429.2 × 11 = 1 027 721.2 and 93 429.2 × 0.3521 = 32 896.42132: 1 060 617.62132.
        assert_eq!(r.nok_per_btc, n("1060617.62132"));
    }

    #[test]
    fn the_sample_nearest_midnight_in_oslo_stands_for_the_year_end() {
        let store = Store::in_memory().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            resolve(&store, 2025, Some(&RateChoice::Sample)).unwrap_or_else(|e| panic!("{e}")),
            Err(NoRate::NoSample)
        );
        // 31 December 2025 23:00 UTC is 1 January 2026 00:00 in Oslo.
        sample(&store, "2025-12-31T22:48:00Z", "1000000");
        assert_eq!(
            resolve(&store, 2025, Some(&RateChoice::Sample)).unwrap_or_else(|e| panic!("{e}")),
            Err(NoRate::NoSample),
            "12 minutes before is too far"
        );
        sample(&store, "2025-12-31T22:57:00Z", "1010000");
        sample(&store, "2025-12-31T23:02:00Z", "1020000");
        let r = resolve(&store, 2025, Some(&RateChoice::Sample))
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(r.nok_per_btc, n("1020000"));
        assert_eq!(
            r.source,
            RateSource::Sample {
                at: "2025-12-31T23:02:00Z".parse().unwrap_or_default()
            }
        );
    }

    #[test]
    fn no_choice_gives_no_rate_and_the_last_transaction_may_have_none() {
        let store = Store::in_memory().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            stored(&store, 2025).unwrap_or_else(|e| panic!("{e}")),
            Err(NoRate::NotChosen)
        );
        store
            .tax()
            .set_year_end_choice(2025, Some(&RateChoice::LastTransaction))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            chosen(&store).unwrap_or_else(|e| panic!("{e}")),
            BTreeMap::from([(2025, Err(NoRate::NoTransaction))])
        );
    }
}
