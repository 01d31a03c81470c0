//! Amounts as people type them. Norwegian: decimal comma or dot, spaces (also no-break spaces)
//! between thousands. English: decimal dot, commas between thousands. Every rejection says what
//! to fix, next to the field.

use std::str::FromStr;

use nordlys_money::{Amount, Btc, Nok, NokPerBtc, Unit};
use rust_decimal::Decimal;

use crate::format::Locale;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountInputError {
    #[error("enter an amount")]
    Empty,
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("the amount cannot be negative")]
    Negative,
    #[error("the amount must be more than zero")]
    Zero,
    #[error("{unit} has at most {max} decimals")]
    TooManyDecimals { unit: &'static str, max: u32 },
    #[error("use one decimal separator: `{0}` is ambiguous")]
    Ambiguous(String),
    #[error("sats are whole numbers")]
    FractionalSats,
    #[error("more than {max} {unit} is not an amount anyone can mean")]
    TooLarge { unit: &'static str, max: Decimal },
}

/// What is wrong with an amount or price field, with its data: the window words it in the
/// user's language (the forms return these, never sentences).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmountProblem {
    /// What was typed is not an amount.
    Input(AmountInputError),
    /// More than the account holds.
    AboveAvailable { available: Amount },
    /// An amount in NOK that is less than one satoshi at the price.
    BelowOneSat,
    /// An amount in NOK with no price yet to convert it.
    NoPrice,
    /// A limit order with no price.
    NoLimitPrice,
    /// A limit price of zero.
    ZeroPrice,
}

impl From<AmountInputError> for AmountProblem {
    fn from(e: AmountInputError) -> Self {
        Self::Input(e)
    }
}

/// The most that can be typed in `unit`: every bitcoin there will ever be, and a trillion kroner
/// (for an amount or a price per bitcoin). Beyond that a typo is likelier than intent, and the
/// checks' arithmetic stays far from `Decimal`'s own limit.
fn ceiling(unit: Unit) -> Decimal {
    match unit {
        Unit::Btc => Decimal::from(21_000_000),
        Unit::Nok => Decimal::from(1_000_000_000_000_i64),
    }
}

/// The unit a bitcoin amount is typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum BitcoinAmountUnit {
    Btc,
    Sats,
    /// NOK, converted to bitcoin with the live price (or by the server, for invoices).
    Nok,
}

impl BitcoinAmountUnit {
    /// `btc`, `sats` or `nok`, as the UI names them.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "btc" => Some(Self::Btc),
            "sats" => Some(Self::Sats),
            "nok" => Some(Self::Nok),
            _ => None,
        }
    }
}

/// Reads an amount typed in BTC, sats or NOK (sats come back as BTC).
pub fn parse_in(
    text: &str,
    unit: BitcoinAmountUnit,
    locale: Locale,
) -> Result<Amount, AmountInputError> {
    match unit {
        BitcoinAmountUnit::Btc => parse_btc(text, locale).map(Amount::Btc),
        BitcoinAmountUnit::Nok => parse_nok(text, locale).map(Amount::Nok),
        BitcoinAmountUnit::Sats => {
            let sats = read(text, locale)?;
            if !sats.fract().is_zero() {
                return Err(AmountInputError::FractionalSats);
            }
            let max = ceiling(Unit::Btc) * SATS_PER_BTC;
            if sats > max {
                return Err(AmountInputError::TooLarge { unit: "sats", max });
            }
            Ok(Amount::Btc(Btc::computed(sats / SATS_PER_BTC)))
        }
    }
}

const SATS_PER_BTC: Decimal = Decimal::from_parts(100_000_000, 0, 0, false, 0);

/// Reads an amount of bitcoin typed in `locale`.
pub fn parse_btc(text: &str, locale: Locale) -> Result<Btc, AmountInputError> {
    parse_amount(text, Unit::Btc, locale).map(Btc::computed)
}

/// Reads an amount of kroner typed in `locale`.
pub fn parse_nok(text: &str, locale: Locale) -> Result<Nok, AmountInputError> {
    parse_amount(text, Unit::Nok, locale).map(Nok::computed)
}

/// Reads a price per bitcoin (a limit, a year-end rate) typed in `locale`: whole øre.
pub fn parse_price(text: &str, locale: Locale) -> Result<NokPerBtc, AmountInputError> {
    parse_amount(text, Unit::Nok, locale).map(NokPerBtc::computed)
}

/// Reads an exchange rate as published (USD per BTC, NOK per USD) typed in `locale`: positive,
/// with as many decimals as the table gives, and below a trillion.
pub fn parse_rate(text: &str, locale: Locale) -> Result<Decimal, AmountInputError> {
    let value = read(text, locale)?;
    let max = ceiling(Unit::Nok);
    if value > max {
        return Err(AmountInputError::TooLarge { unit: "", max });
    }
    Ok(value)
}

/// Reads a typed amount in `locale`, at most `unit`'s decimals (so the typed constructors above
/// hold exact values). Zero and negative amounts are errors here: an order or a payment of
/// nothing is never what a user means.
fn parse_amount(text: &str, unit: Unit, locale: Locale) -> Result<Decimal, AmountInputError> {
    let value = read(text, locale)?;
    if !unit.holds(value) {
        return Err(AmountInputError::TooManyDecimals {
            unit: unit.code(),
            max: unit.decimals(),
        });
    }
    if value > ceiling(unit) {
        return Err(AmountInputError::TooLarge {
            unit: unit.code(),
            max: ceiling(unit),
        });
    }
    Ok(value)
}

/// A positive number as typed in `locale`, before any unit's rules.
fn read(text: &str, locale: Locale) -> Result<Decimal, AmountInputError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(AmountInputError::Empty);
    }
    if t.starts_with('-') || t.starts_with('\u{2212}') {
        return Err(AmountInputError::Negative);
    }
    let compact: String = t
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}'))
        .collect();
    let normalized = match locale {
        Locale::Nb => {
            let separators = compact.chars().filter(|c| matches!(c, ',' | '.')).count();
            if separators > 1 {
                return Err(AmountInputError::Ambiguous(t.to_owned()));
            }
            compact.replace(',', ".")
        }
        Locale::En => {
            // One comma and no point, not followed by exactly three digits, cannot be grouping:
            // it is a decimal comma (`0,5`, `12,50`, `950 000,50`), read as typed.
            let commas = compact.matches(',').count();
            let decimal_comma = commas == 1
                && !compact.contains('.')
                && compact.split_once(',').is_some_and(|(int, frac)| {
                    frac.len() != 3 || int.is_empty() || int.starts_with('0')
                });
            if decimal_comma {
                compact.replace(',', ".")
            } else if compact.contains(',') {
                let int = compact.split('.').next().unwrap_or_default();
                let groups: Vec<&str> = int.split(',').collect();
                // Thousands never follow a leading zero: `0,500` is a decimal comma typed in
                // English, and reading it as 500 would be a thousand times what was meant.
                let grouped = groups.len() > 1
                    && (1..=3).contains(&groups[0].len())
                    && !groups[0].starts_with('0')
                    && groups[1..].iter().all(|g| g.len() == 3);
                if !grouped {
                    return Err(AmountInputError::Ambiguous(t.to_owned()));
                }
                compact.replace(',', "")
            } else {
                compact
            }
        }
    };
    if normalized.is_empty()
        || !normalized.chars().all(|c| c.is_ascii_digit() || c == '.')
        || normalized == "."
    {
        return Err(AmountInputError::NotANumber(t.to_owned()));
    }
    let value =
        Decimal::from_str(&normalized).map_err(|_| AmountInputError::NotANumber(t.to_owned()))?;
    if value.is_zero() {
        return Err(AmountInputError::Zero);
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_published_rate_keeps_its_decimals_and_is_positive() {
        use super::*;
        assert_eq!(
            parse_rate("11,3521", Locale::Nb),
            Ok(Decimal::new(113_521, 4))
        );
        assert_eq!(
            parse_rate("93,429.20", Locale::En),
            Ok(Decimal::new(9_342_920, 2))
        );
        assert_eq!(parse_rate("0", Locale::En), Err(AmountInputError::Zero));
        assert_eq!(
            parse_rate("-1", Locale::En),
            Err(AmountInputError::Negative)
        );
        assert!(matches!(
            parse_rate("1e5", Locale::En),
            Err(AmountInputError::NotANumber(_))
        ));
        assert!(matches!(
            parse_rate("10000000000000", Locale::En),
            Err(AmountInputError::TooLarge { .. })
        ));
    }

    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn norwegian_input_takes_comma_or_dot() {
        assert_eq!(
            parse_amount("1 234,56", Unit::Nok, Locale::Nb),
            Ok(d("1234.56"))
        );
        assert_eq!(
            parse_amount("1\u{a0}234.5", Unit::Nok, Locale::Nb),
            Ok(d("1234.5"))
        );
        assert_eq!(
            parse_amount(" 0,00012345 ", Unit::Btc, Locale::Nb),
            Ok(d("0.00012345"))
        );
        assert_eq!(parse_amount("500", Unit::Nok, Locale::Nb), Ok(d("500")));
    }

    #[test]
    fn english_input_takes_dot_and_grouping_commas() {
        assert_eq!(
            parse_amount("1,234.56", Unit::Nok, Locale::En),
            Ok(d("1234.56"))
        );
        assert_eq!(parse_amount("0.5", Unit::Btc, Locale::En), Ok(d("0.5")));
        // One comma that cannot be grouping is a decimal comma, in English too.
        for (typed, read) in [
            ("1,5", "1.5"),
            ("0,5", "0.5"),
            ("12,50", "12.50"),
            ("950 000,50", "950000.50"),
            ("22,5", "22.5"),
            ("0,500", "0.5"),
        ] {
            assert_eq!(
                parse_amount(typed, Unit::Nok, Locale::En),
                Ok(d(read)),
                "{typed}"
            );
        }
        // Grouping stays grouping; what fits neither is refused.
        assert_eq!(parse_amount("1,500", Unit::Nok, Locale::En), Ok(d("1500")));
        assert_eq!(
            parse_amount("1,234.56", Unit::Nok, Locale::En),
            Ok(d("1234.56"))
        );
        for typed in ["1,50,000", "1,5.5", "12,34,5"] {
            assert_eq!(
                parse_amount(typed, Unit::Nok, Locale::En),
                Err(AmountInputError::Ambiguous(typed.into())),
                "{typed}"
            );
        }
    }

    #[test]
    fn sats_and_nok_are_read_in_their_own_terms() {
        assert_eq!(
            parse_in("12 500", BitcoinAmountUnit::Sats, Locale::Nb),
            Ok(Amount::Btc(Btc::from_sats(12_500)))
        );
        assert_eq!(
            parse_in("1.5", BitcoinAmountUnit::Sats, Locale::En),
            Err(AmountInputError::FractionalSats)
        );
        assert_eq!(
            parse_in("250,50", BitcoinAmountUnit::Nok, Locale::Nb),
            Ok(Amount::Nok(Nok::new(d("250.50")).unwrap()))
        );
        assert_eq!(
            BitcoinAmountUnit::parse("sats"),
            Some(BitcoinAmountUnit::Sats)
        );
        assert_eq!(BitcoinAmountUnit::parse("SATS"), None);
    }

    #[test]
    fn bad_input_says_what_to_fix() {
        assert_eq!(
            parse_amount("", Unit::Nok, Locale::Nb),
            Err(AmountInputError::Empty)
        );
        assert_eq!(
            parse_amount("-5", Unit::Nok, Locale::Nb),
            Err(AmountInputError::Negative)
        );
        assert_eq!(
            parse_amount("\u{2212}5", Unit::Nok, Locale::Nb),
            Err(AmountInputError::Negative)
        );
        assert_eq!(
            parse_amount("0,00", Unit::Nok, Locale::Nb),
            Err(AmountInputError::Zero)
        );
        assert_eq!(
            parse_amount("1,234", Unit::Nok, Locale::Nb),
            Err(AmountInputError::TooManyDecimals {
                unit: "NOK",
                max: 2
            })
        );
        assert_eq!(
            parse_amount("0.123456789", Unit::Btc, Locale::En),
            Err(AmountInputError::TooManyDecimals {
                unit: "BTC",
                max: 8
            })
        );
        assert_eq!(
            parse_amount("1.234,5", Unit::Nok, Locale::Nb),
            Err(AmountInputError::Ambiguous("1.234,5".into()))
        );
        for junk in ["abc", "1e5", "NaN", "inf", ".", "1..2", "12kr", "0x10"] {
            assert!(parse_amount(junk, Unit::Nok, Locale::En).is_err(), "{junk}");
        }
    }

    #[test]
    fn ambiguous_inputs_are_refused_and_the_rest_read_as_meant() {
        use Locale::{En, Nb};
        let d = |s: &str| Decimal::from_str(s).unwrap();
        let table: [(&str, Locale, Option<&str>); 18] = [
            // English: commas group thousands, and only as thousands are grouped; one comma
            // that cannot be grouping is a decimal comma.
            ("0,500", En, Some("0.5")),
            ("00,500", En, Some("0.5")),
            ("0,5", En, Some("0.5")),
            ("1,5", En, Some("1.5")),
            ("1,50", En, Some("1.50")),
            ("1,000.5", En, Some("1000.5")),
            ("1,000", En, Some("1000")),
            ("12,345,678", En, Some("12345678")),
            ("1.000,5", En, None),
            ("0.500", En, Some("0.5")),
            // Norwegian: one decimal separator, comma or dot; spaces group thousands.
            ("0,500", Nb, Some("0.5")),
            ("1 000,5", Nb, Some("1000.5")),
            ("1.000,5", Nb, None),
            ("1,000.5", Nb, None),
            ("1\u{a0}000", Nb, Some("1000")),
            ("0.5", Nb, Some("0.5")),
            ("1,2,3", Nb, None),
            ("1..2", Nb, None),
        ];
        for (text, locale, meant) in table {
            let read = parse_amount(text, Unit::Nok, locale);
            match meant {
                Some(m) => assert_eq!(read, Ok(d(m)), "{text} in {locale:?}"),
                None => assert!(
                    matches!(read, Err(AmountInputError::Ambiguous(_))),
                    "{text} in {locale:?}: {read:?}"
                ),
            }
        }
    }

    #[test]
    fn amounts_beyond_all_bitcoin_or_a_trillion_kroner_are_refused() {
        assert_eq!(
            parse_amount("21000000", Unit::Btc, Locale::En),
            Ok(d("21000000"))
        );
        assert!(matches!(
            parse_amount("21000000.00000001", Unit::Btc, Locale::En),
            Err(AmountInputError::TooLarge { unit: "BTC", .. })
        ));
        assert_eq!(
            parse_in("30 000 000", BitcoinAmountUnit::Sats, Locale::Nb),
            Ok(Amount::Btc(Btc::from_sats(30_000_000)))
        );
        assert!(matches!(
            parse_in("2100000000000001", BitcoinAmountUnit::Sats, Locale::En),
            Err(AmountInputError::TooLarge { unit: "sats", .. })
        ));
        assert!(matches!(
            parse_amount("1000000000000.01", Unit::Nok, Locale::Nb),
            Err(AmountInputError::TooLarge { unit: "NOK", .. })
        ));
    }
}
