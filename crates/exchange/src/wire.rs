//! Serde adapters for the API's wire formats.
//!
//! The API sends money as JSON doubles (section 2) and, in the tax resources, as decimal strings
//! (2.11). Both become `Decimal` here, at the edge, so no `f64` money exists past decoding. A double
//! is read through its shortest round-trip text, which is the text the server wrote for any value
//! with up to 15 significant digits — every BTC (8 dp) and NOK (2 dp) amount in practice.

use std::str::FromStr;

use chrono::{DateTime, Datelike, NaiveDateTime, SecondsFormat, Utc};
use nordlys_money::Quantity;
use rust_decimal::Decimal;
use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

/// No amount, price or volume the exchange could hold reaches a quadrillion (10^15): bitcoin's
/// supply is 2.1 × 10^7, Norway's money supply some 3 × 10^12 kroner. A number past it is refused
/// here, so that sums of the numbers an answer or a whole history carries stay far inside
/// `Decimal`'s range (7.9 × 10^28): adding and subtracting them cannot overflow (and panic), and
/// every product of two of them is computed with a checked operation.
const LARGEST: Decimal = Decimal::from_parts(0xA4C6_8000, 0x0003_8D7E, 0, false, 0);

fn bounded<E: de::Error>(d: Decimal) -> Result<Decimal, E> {
    if d.abs() < LARGEST {
        Ok(d)
    } else {
        Err(E::custom(format!(
            "`{d}` is larger than any amount, price or volume the exchange could hold"
        )))
    }
}

fn decimal_from_text<E: de::Error>(text: &str) -> Result<Decimal, E> {
    Decimal::from_str(text.trim())
        .or_else(|_| Decimal::from_scientific(text.trim()))
        .map_err(|e| E::custom(format!("`{text}` is not a decimal number: {e}")))
        .and_then(bounded)
}

struct NumberVisitor;

impl Visitor<'_> for NumberVisitor {
    type Value = Decimal;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a number")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Decimal, E> {
        if !v.is_finite() {
            return Err(E::custom("number is not finite"));
        }
        decimal_from_text(&v.to_string())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Decimal, E> {
        bounded(Decimal::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Decimal, E> {
        bounded(Decimal::from(v))
    }

    // Tolerated: a gateway that stringifies doubles. Our reading: the value is still the number.
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Decimal, E> {
        decimal_from_text(v)
    }
}

/// Writes a decimal as a JSON number: an integer when it has no fraction, else the double whose
/// shortest text is the decimal's own text.
fn write_number<S: Serializer>(d: &Decimal, s: S) -> Result<S::Ok, S::Error> {
    let n = d.normalize();
    if n.scale() == 0
        && let Ok(i) = i64::try_from(n)
    {
        return s.serialize_i64(i);
    }
    let f = f64::from_str(&n.to_string()).map_err(serde::ser::Error::custom)?;
    s.serialize_f64(f)
}

/// An exact value: refused past its unit's decimals (a satoshi, an øre).
fn exact<Q: Quantity, E: de::Error>(d: Decimal) -> Result<Q, E> {
    Q::exact(d).map_err(|e| E::custom(format!("`{d}`: {e}")))
}

/// Reads an optional number or decimal string: none for null, absence or (`empty_is_none`) the
/// empty string.
fn read_optional<'de, D: Deserializer<'de>>(
    d: D,
    empty_is_none: bool,
) -> Result<Option<Decimal>, D::Error> {
    struct OptVisitor(bool);
    impl<'de> Visitor<'de> for OptVisitor {
        type Value = Option<Decimal>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a number, a decimal string or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
            d.deserialize_any(self)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            if self.0 && v.trim().is_empty() {
                Ok(None)
            } else {
                decimal_from_text(v).map(Some)
            }
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            NumberVisitor.visit_f64(v).map(Some)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            NumberVisitor.visit_i64(v).map(Some)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            NumberVisitor.visit_u64(v).map(Some)
        }
    }
    d.deserialize_option(OptVisitor(empty_is_none))
}

/// A required JSON double: an amount the exchange holds, refused past its unit's decimals.
pub mod number {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Q, s: S) -> Result<S::Ok, S::Error> {
        write_number(&q.decimal(), s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(d: D) -> Result<Q, D::Error> {
        exact(d.deserialize_any(NumberVisitor)?)
    }
}

/// A required JSON double the exchange computed (a valuation, a price, volume): kept at the
/// precision it came with.
pub mod computed_number {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Q, s: S) -> Result<S::Ok, S::Error> {
        write_number(&q.decimal(), s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(d: D) -> Result<Q, D::Error> {
        d.deserialize_any(NumberVisitor).map(Q::computed)
    }
}

/// An optional JSON double (request fields that are left out when unset).
pub mod opt_number {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Option<Q>, s: S) -> Result<S::Ok, S::Error> {
        match q {
            Some(q) => write_number(&q.decimal(), s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(
        d: D,
    ) -> Result<Option<Q>, D::Error> {
        read_optional(d, false)?.map(exact).transpose()
    }
}

/// A required stringified decimal (tax resources), kept with the scale the server wrote.
pub mod decimal_string {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Q, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&q.decimal().to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(d: D) -> Result<Q, D::Error> {
        exact(d.deserialize_any(NumberVisitor)?)
    }
}

/// An optional stringified decimal: the empty string (or null, or absence) reads as none.
pub mod opt_decimal_string {
    use super::*;

    pub fn serialize<S: Serializer, Q: Quantity>(q: &Option<Q>, s: S) -> Result<S::Ok, S::Error> {
        match q {
            Some(q) => s.serialize_str(&q.decimal().to_string()),
            None => s.serialize_str(""),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(
        d: D,
    ) -> Result<Option<Q>, D::Error> {
        read_optional(d, true)?.map(exact).transpose()
    }
}

/// [`opt_decimal_string`] for a figure the exchange computed (a rate), kept as it came.
pub mod opt_computed_decimal_string {
    use super::*;

    pub use super::opt_decimal_string::serialize;

    pub fn deserialize<'de, D: Deserializer<'de>, Q: Quantity>(
        d: D,
    ) -> Result<Option<Q>, D::Error> {
        Ok(read_optional(d, true)?.map(Q::computed))
    }
}

/// Parses an ISO 8601 date-time: RFC 3339, or a bare local form read as UTC. Years past 9999
/// are refused: time arithmetic near the end of `chrono`'s range would overflow (and panic).
pub fn parse_time(text: &str) -> Result<DateTime<Utc>, String> {
    let t = text.trim();
    let parsed = match DateTime::parse_from_rfc3339(t) {
        Ok(dt) => dt.with_timezone(&Utc),
        Err(_) => NaiveDateTime::parse_from_str(t, "%Y-%m-%dT%H:%M:%S%.f")
            .map(|n| n.and_utc())
            .map_err(|_| format!("`{t}` is not an ISO 8601 date-time"))?,
    };
    if (0..=9999).contains(&parsed.year()) {
        Ok(parsed)
    } else {
        Err(format!(
            "`{t}` is not a date-time between the years 0 and 9999"
        ))
    }
}

/// Formats a time the way the API writes it: RFC 3339 in UTC with `Z`.
pub fn format_time(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// A required date-time.
pub mod time {
    use super::*;

    pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_time(t))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let text: String = serde::Deserialize::deserialize(d)?;
        parse_time(&text).map_err(de::Error::custom)
    }
}

/// An optional date-time: the empty string (or null, or absence) reads as none. The models leave
/// a none out when they are written (as the exchange does); written alone it is the empty string.
pub mod opt_time {
    use super::*;

    pub fn serialize<S: Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_str(&format_time(t)),
            None => s.serialize_str(""),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        let text: Option<String> = serde::Deserialize::deserialize(d)?;
        match text.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => parse_time(t).map(Some).map_err(de::Error::custom),
        }
    }
}

/// An optional string where the empty string means none (ids such as `tradeId`).
pub mod opt_string {
    use super::*;

    pub fn serialize<S: Serializer, T: AsRef<str>>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.as_ref().map(AsRef::as_ref).unwrap_or(""))
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: From<String>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        let text: Option<String> = serde::Deserialize::deserialize(d)?;
        Ok(text.filter(|t| !t.is_empty()).map(T::from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug)]
    struct N {
        #[serde(with = "number")]
        v: Decimal,
    }

    #[test]
    fn a_number_past_any_amount_the_exchange_could_hold_is_refused_not_added_up_later() {
        assert_eq!(LARGEST, Decimal::from(1_000_000_000_000_000_i64));
        for json in [
            "1e15",
            "-1e15",
            "1000000000000000",
            "79228162514264337593543950335",
            "\"1e20\"",
            "18446744073709551615",
        ] {
            let e = serde_json::from_str::<N>(&format!("{{\"v\":{json}}}")).unwrap_err();
            let e = e.to_string();
            assert!(
                e.contains("larger than any amount") || e.contains("is not a decimal number"),
                "{json}: {e}"
            );
        }
        for json in ["999999999999999", "-999999999999999", "2100000000000000e-8"] {
            assert!(
                serde_json::from_str::<N>(&format!("{{\"v\":{json}}}")).is_ok(),
                "{json}"
            );
        }
        #[derive(Deserialize, Debug)]
        struct O {
            #[serde(with = "opt_decimal_string", default)]
            #[allow(dead_code, reason = "read only to be refused")]
            v: Option<Decimal>,
        }
        assert!(serde_json::from_str::<O>(r#"{"v":"1e16"}"#).is_err());
        assert!(serde_json::from_str::<O>(r#"{"v":10000000000000000}"#).is_err());
    }

    #[test]
    fn times_past_the_year_9999_are_refused() {
        assert!(parse_time("9999-12-31T23:59:59Z").is_ok());
        assert!(parse_time("+262143-12-31T23:59:59").is_err());
        assert!(parse_time("10000-01-01T00:00:00").is_err());
    }

    #[test]
    fn doubles_become_the_decimal_the_server_wrote() {
        for (json, want) in [
            ("0.1", "0.1"),
            ("0.00150000", "0.0015"),
            ("1500.5", "1500.5"),
            ("1e-8", "0.00000001"),
            ("21000000", "21000000"),
            ("987654.32", "987654.32"),
            ("-3.75", "-3.75"),
        ] {
            let n: N = serde_json::from_str(&format!("{{\"v\":{json}}}")).unwrap();
            assert_eq!(n.v.to_string(), want, "{json}");
        }
    }

    #[test]
    fn decimals_are_written_as_plain_json_numbers() {
        for (d, want) in [
            ("100", "100"),
            ("1500.50", "1500.5"),
            ("0.00000001", "1e-8"),
            ("0.0015", "0.0015"),
        ] {
            let n = N {
                v: Decimal::from_str(d).unwrap(),
            };
            let text = serde_json::to_string(&n).unwrap();
            assert_eq!(text, format!("{{\"v\":{want}}}"));
            let back: N = serde_json::from_str(&text).unwrap();
            assert_eq!(back.v, n.v);
        }
    }

    #[test]
    fn malformed_numbers_are_errors_not_panics() {
        for json in ["\"abc\"", "true", "[]", "{}", "\"1e999\"", "1e300"] {
            assert!(
                serde_json::from_str::<N>(&format!("{{\"v\":{json}}}")).is_err(),
                "{json}"
            );
        }
    }

    #[test]
    fn a_held_amount_past_its_units_decimals_is_refused_and_a_computed_one_kept() {
        use nordlys_money::{Btc, Nok};
        #[derive(Deserialize)]
        struct Balance {
            #[serde(with = "number")]
            btc: Btc,
            #[serde(with = "computed_number")]
            value: Nok,
            #[serde(with = "opt_decimal_string", default)]
            fee: Option<Nok>,
        }
        let ok: Balance =
            serde_json::from_str(r#"{"btc":0.00000001,"value":0.123456,"fee":"1.50"}"#).unwrap();
        assert_eq!(ok.btc, Btc::from_sats(1));
        assert_eq!(ok.value.decimal().to_string(), "0.123456");
        assert_eq!(
            ok.fee.map(Nok::decimal).map(|d| d.to_string()).as_deref(),
            Some("1.50")
        );
        let err = serde_json::from_str::<Balance>(r#"{"btc":1e-9,"value":1}"#)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("BTC allows at most 8 decimals"), "{err}");
        assert!(serde_json::from_str::<Balance>(r#"{"btc":1,"value":1,"fee":"0.001"}"#).is_err());
        let none: Balance = serde_json::from_str(r#"{"btc":1,"value":1,"fee":""}"#).unwrap();
        assert_eq!(none.fee, None);
    }

    #[test]
    fn times_accept_rfc3339_and_empty_as_none() {
        #[derive(Deserialize)]
        struct T {
            #[serde(with = "opt_time", default)]
            t: Option<DateTime<Utc>>,
        }
        let t: T = serde_json::from_str(r#"{"t":""}"#).unwrap();
        assert!(t.t.is_none());
        let t: T = serde_json::from_str(r#"{}"#).unwrap();
        assert!(t.t.is_none());
        let t: T = serde_json::from_str(r#"{"t":null}"#).unwrap();
        assert!(t.t.is_none());
        let t: T = serde_json::from_str(r#"{"t":"2025-01-02T03:04:05+01:00"}"#).unwrap();
        assert_eq!(format_time(&t.t.unwrap()), "2025-01-02T02:04:05Z");
        assert!(serde_json::from_str::<T>(r#"{"t":"yesterday"}"#).is_err());
        assert!(serde_json::from_str::<T>(r#"{"t":5}"#).is_err());
    }
}
