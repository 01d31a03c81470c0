use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use nordlys_money::{Btc, Nok, NokPerBtc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::wire;

/// Effective prices for a payment method (2.9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserPrice {
    #[serde(with = "wire::computed_number")]
    pub buy: NokPerBtc,
    #[serde(with = "wire::computed_number")]
    pub sell: NokPerBtc,
}

/// 2.9. `bid` and `ask` are without fees; `card` and `bank` are what a user pays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PriceResponse {
    #[serde(with = "wire::computed_number")]
    pub price: NokPerBtc,
    #[serde(with = "wire::computed_number")]
    pub bid: NokPerBtc,
    #[serde(with = "wire::computed_number")]
    pub ask: NokPerBtc,
    #[serde(with = "wire::time")]
    pub timestamp: DateTime<Utc>,
    pub card: UserPrice,
    pub bank: UserPrice,
}

/// 2.10
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeStats {
    #[serde(with = "wire::computed_number")]
    pub amount_nok: Nok,
    #[serde(with = "wire::computed_number")]
    pub amount_btc: Btc,
    /// Percent, 0..100.
    #[serde(with = "wire::number")]
    pub buy_percentage: Decimal,
    pub number_of_trades: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeResponse {
    pub daily: VolumeStats,
    pub monthly: VolumeStats,
    pub yearly: VolumeStats,
    pub last24h: VolumeStats,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketStats {
    pub name: String,
    /// Hex colour, e.g. `#f7931a`.
    pub color: String,
    #[serde(with = "wire::computed_number")]
    pub volume_nok: Nok,
    #[serde(with = "wire::computed_number")]
    pub volume_btc: Btc,
    /// Fraction 0..1.
    #[serde(with = "wire::number")]
    pub share_of_total_volume: Decimal,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyVolume {
    pub date: NaiveDate,
    pub stats: BTreeMap<String, MarketStats>,
}

/// A map from market name to its share of total volume.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Shares(#[serde(with = "share_map")] pub BTreeMap<String, Decimal>);

mod share_map {
    use std::collections::BTreeMap;

    use rust_decimal::Decimal;
    use serde::ser::SerializeMap;
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    struct Share(#[serde(with = "crate::wire::number")] Decimal);

    pub fn serialize<S: Serializer>(
        m: &BTreeMap<String, Decimal>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        struct N<'a>(&'a Decimal);
        impl serde::Serialize for N<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                crate::wire::number::serialize(self.0, s)
            }
        }
        let mut map = s.serialize_map(Some(m.len()))?;
        for (k, v) in m {
            map.serialize_entry(k, &N(v))?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, Decimal>, D::Error> {
        let raw: BTreeMap<String, Share> = Deserialize::deserialize(d)?;
        Ok(raw.into_iter().map(|(k, v)| (k, v.0)).collect())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeHistoricResponse {
    pub daily_volume: Vec<DailyVolume>,
    pub share_of_total_volume: Shares,
}
