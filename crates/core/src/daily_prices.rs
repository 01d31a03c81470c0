//! A price per day for the times before Nordlys sampled any: the API keeps no price history,
//! but its public daily volume gives each day's NOK over BTC traded, and the user's own
//! transactions carry the market rate they were made at.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use nordlys_exchange::models::VolumeHistoricResponse;
use nordlys_money::NokPerBtc;
use rust_decimal::Decimal;

use crate::time::oslo_date;

/// Where a day's price comes from; the chart says which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DailySource {
    /// The day's NOK volume over its BTC volume, all markets together (endpoint 9).
    ExchangeVolume,
    /// The mean market rate of the user's own transactions that day.
    OwnTransactions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyPrice {
    /// The day, in Oslo.
    pub day: NaiveDate,
    pub price: NokPerBtc,
    pub source: DailySource,
}

/// Each day of the volume history with bitcoin traded, at its NOK volume over its BTC volume;
/// a day without BTC volume says nothing about the price and is skipped.
pub fn from_volume(history: &VolumeHistoricResponse) -> Vec<DailyPrice> {
    history
        .daily_volume
        .iter()
        .filter_map(|d| {
            let nok: Decimal = d.stats.values().map(|m| m.volume_nok.decimal()).sum();
            let btc: Decimal = d.stats.values().map(|m| m.volume_btc.decimal()).sum();
            let price = nok.checked_div(btc).filter(|_| btc > Decimal::ZERO)?;
            (price > Decimal::ZERO).then(|| DailyPrice {
                day: d.date,
                price: NokPerBtc::computed(price),
                source: DailySource::ExchangeVolume,
            })
        })
        .collect()
}

/// The mean of the market rates on each Oslo day of `rates`; a rate that is not positive is
/// not a price and is left out.
pub fn from_rates(rates: &[(DateTime<Utc>, NokPerBtc)]) -> Vec<DailyPrice> {
    let mut days: BTreeMap<NaiveDate, (Decimal, u32)> = BTreeMap::new();
    for (at, rate) in rates.iter().filter(|(_, r)| r.is_positive()) {
        let day = days.entry(oslo_date(at)).or_default();
        if let Some(sum) = day.0.checked_add(rate.decimal()) {
            *day = (sum, day.1 + 1);
        }
    }
    days.into_iter()
        .filter(|(_, (_, n))| *n > 0)
        .filter_map(|(day, (sum, n))| {
            Some(DailyPrice {
                day,
                price: NokPerBtc::computed(sum.checked_div(Decimal::from(n))?),
                source: DailySource::OwnTransactions,
            })
        })
        .collect()
}

/// One price per day, oldest first: the exchange's volume where it has the day, the user's own
/// rates where it does not.
pub fn merged(volume: Vec<DailyPrice>, own: Vec<DailyPrice>) -> Vec<DailyPrice> {
    let mut days: BTreeMap<NaiveDate, DailyPrice> = own.into_iter().map(|p| (p.day, p)).collect();
    days.extend(volume.into_iter().map(|p| (p.day, p)));
    days.into_values().collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use super::*;

    fn history(json: &str) -> VolumeHistoricResponse {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_day_s_price_is_its_nok_volume_over_its_btc_volume_across_markets() {
        let h = history(
            r##"{"dailyVolume":[
            {"date":"2026-11-01","stats":{
              "App":{"name":"App","color":"#f7931a","volumeNok":9000,"volumeBtc":0.009,"shareOfTotalVolume":0.9},
              "OTC":{"name":"OTC","color":"#000000","volumeNok":3000,"volumeBtc":0.003,"shareOfTotalVolume":0.1}}},
            {"date":"2026-11-02","stats":{
              "App":{"name":"App","color":"#f7931a","volumeNok":0,"volumeBtc":0,"shareOfTotalVolume":0}}},
            {"date":"2026-11-03","stats":{}}],
            "shareOfTotalVolume":{"App":0.9,"OTC":0.1}}"##,
        );
        let days = from_volume(&h);
        assert_eq!(
            days.len(),
            1,
            "days without bitcoin traded are skipped: {days:?}"
        );
        assert_eq!(days[0].day.to_string(), "2026-11-01");
        assert_eq!(days[0].price.decimal(), Decimal::from(1_000_000));
        assert_eq!(days[0].source, DailySource::ExchangeVolume);
    }

    #[test]
    fn own_rates_are_averaged_per_oslo_day_and_fill_days_the_volume_lacks() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        let rate = |n: i64| NokPerBtc::computed(Decimal::from(n));
        let own = from_rates(&[
            (at("2026-10-30T10:00:00Z"), rate(900_000)),
            (at("2026-10-30T12:00:00Z"), rate(910_000)),
            // 23:30 UTC on 31 October is 1 November in Oslo.
            (at("2026-10-31T23:30:00Z"), rate(950_000)),
            (at("2026-10-31T12:00:00Z"), rate(0)),
        ]);
        let days: Vec<_> = own
            .iter()
            .map(|p| (p.day.to_string(), p.price.decimal()))
            .collect();
        assert_eq!(
            days,
            [
                ("2026-10-30".to_owned(), Decimal::from(905_000)),
                ("2026-11-01".to_owned(), Decimal::from(950_000)),
            ]
        );
        let volume = vec![DailyPrice {
            day: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
            price: rate(1_000_000),
            source: DailySource::ExchangeVolume,
        }];
        let all = merged(volume, own);
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].source, DailySource::OwnTransactions);
        assert_eq!(
            (all[1].source, all[1].price.decimal()),
            (DailySource::ExchangeVolume, Decimal::from(1_000_000)),
            "the exchange's figure wins on a day both have"
        );
    }
}
