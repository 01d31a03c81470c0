use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use nordlys_money::{Btc, Nok, NokPerBtc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::wire;

/// Effective prices for a payment method (2.9).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserPrice {
    #[serde(with = "wire::computed_number", default)]
    pub buy: NokPerBtc,
    #[serde(with = "wire::computed_number", default)]
    pub sell: NokPerBtc,
}

/// 2.9. `bid` and `ask` are without fees; `card` and `bank` are what a user pays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PriceResponse {
    #[serde(with = "wire::computed_number", default)]
    pub price: NokPerBtc,
    #[serde(with = "wire::computed_number", default)]
    pub bid: NokPerBtc,
    #[serde(with = "wire::computed_number", default)]
    pub ask: NokPerBtc,
    #[serde(with = "wire::time")]
    pub timestamp: DateTime<Utc>,
    #[serde(default)]
    pub card: UserPrice,
    #[serde(default)]
    pub bank: UserPrice,
}

/// 2.10
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeStats {
    #[serde(with = "wire::computed_number", default)]
    pub amount_nok: Nok,
    #[serde(with = "wire::computed_number", default)]
    pub amount_btc: Btc,
    /// Percent, 0..100.
    #[serde(with = "wire::number", default)]
    pub buy_percentage: Decimal,
    #[serde(default)]
    pub number_of_trades: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeResponse {
    #[serde(default)]
    pub daily: VolumeStats,
    #[serde(default)]
    pub monthly: VolumeStats,
    #[serde(default)]
    pub yearly: VolumeStats,
    #[serde(default)]
    pub last24h: VolumeStats,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketStats {
    #[serde(default)]
    pub name: String,
    /// Hex colour, e.g. `#f7931a`.
    #[serde(default)]
    pub color: String,
    #[serde(with = "wire::computed_number", default)]
    pub volume_nok: Nok,
    #[serde(with = "wire::computed_number", default)]
    pub volume_btc: Btc,
    /// Fraction 0..1.
    #[serde(with = "wire::number", default)]
    pub share_of_total_volume: Decimal,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyVolume {
    pub date: NaiveDate,
    #[serde(default)]
    pub stats: BTreeMap<String, MarketStats>,
}

/// A map from market name to its share of total volume.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    #[serde(default)]
    pub daily_volume: Vec<DailyVolume>,
    #[serde(default)]
    pub share_of_total_volume: Shares,
}
