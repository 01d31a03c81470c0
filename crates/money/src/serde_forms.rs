//! How an amount or price crosses serde, said at each field: [`exact`] refuses more decimals
//! than the unit has (what the exchange holds or a user typed, read back from a file), and
//! [`computed`] keeps a computed value whole. The types derive no serde of their own, so no
//! field skips the choice. Both write the decimal text (`"0.00012000"`) and read text or a
//! number.

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Quantity;

fn write<S: Serializer, Q: Quantity>(q: &Q, s: S) -> Result<S::Ok, S::Error> {
    Serialize::serialize(&q.decimal(), s)
}

/// Exact: more decimals than the unit has is an error, named.
pub mod exact {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Q, s: S) -> Result<S::Ok, S::Error> {
        write(q, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(d: D) -> Result<Q, D::Error> {
        let d = <Decimal as Deserialize>::deserialize(d)?;
        Q::exact(d).map_err(serde::de::Error::custom)
    }
}

/// Computed: kept as it came, full precision.
pub mod computed {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Q, s: S) -> Result<S::Ok, S::Error> {
        write(q, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(d: D) -> Result<Q, D::Error> {
        <Decimal as Deserialize>::deserialize(d).map(Q::computed)
    }
}

/// [`exact`], or none.
pub mod opt_exact {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Option<Q>, s: S) -> Result<S::Ok, S::Error> {
        q.map(Quantity::decimal).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(
        d: D,
    ) -> Result<Option<Q>, D::Error> {
        Option::<Decimal>::deserialize(d)?
            .map(|d| Q::exact(d).map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// [`computed`], or none.
pub mod opt_computed {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Option<Q>, s: S) -> Result<S::Ok, S::Error> {
        q.map(Quantity::decimal).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(
        d: D,
    ) -> Result<Option<Q>, D::Error> {
        Ok(Option::<Decimal>::deserialize(d)?.map(Q::computed))
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use crate::{Btc, Nok, NokPerBtc};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Held {
        #[serde(with = "crate::exact")]
        btc: Btc,
        #[serde(with = "crate::computed")]
        worth: Nok,
        #[serde(with = "crate::opt_exact", default)]
        fee: Option<Nok>,
    }

    #[test]
    fn an_exact_field_refuses_what_its_unit_cannot_hold_and_a_computed_one_keeps_it() {
        let read: Held =
            serde_json::from_str(r#"{"btc":"0.00012000","worth":"12.3456","fee":null}"#).unwrap();
        assert_eq!(read.btc, Btc::from_sats(12_000));
        assert_eq!(read.worth.decimal().to_string(), "12.3456");
        assert_eq!(
            serde_json::to_string(&read).unwrap(),
            r#"{"btc":"0.00012000","worth":"12.3456","fee":null}"#
        );
        let too_fine = serde_json::from_str::<Held>(r#"{"btc":"0.000000001","worth":"1"}"#);
        assert!(too_fine.is_err(), "{too_fine:?}");
        let fee = serde_json::from_str::<Held>(r#"{"btc":1,"worth":1,"fee":"0.001"}"#);
        assert!(fee.is_err(), "a NOK fee past the øre: {fee:?}");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Priced {
        #[serde(with = "crate::opt_exact", default)]
        limit: Option<NokPerBtc>,
        #[serde(with = "crate::computed")]
        rate: NokPerBtc,
    }

    /// A price says its form too: a limit is whole øre, a rate is kept as computed.
    #[test]
    fn a_price_field_says_whether_it_is_exact_or_computed() {
        let read: Priced =
            serde_json::from_str(r#"{"limit":"950000.50","rate":"950000.12345"}"#).unwrap();
        assert_eq!(read.rate.decimal().to_string(), "950000.12345");
        assert_eq!(
            serde_json::to_string(&read).unwrap(),
            r#"{"limit":"950000.50","rate":"950000.12345"}"#
        );
        let too_fine = serde_json::from_str::<Priced>(r#"{"limit":"950000.123","rate":1}"#);
        assert!(too_fine.is_err(), "a limit past the øre: {too_fine:?}");
    }
}
