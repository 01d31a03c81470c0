//! Amounts and times as people read them: Norwegian Bokmål (CLDR `nb`: decimal comma, no-break
//! space between thousands, U+2212 minus, `1 234,56 kr`, `22.11.2026 19:44`) or English
//! (`NOK 1,234.56`, `2026-11-22 19:44`), BTC or sats, times on the reader's own clock.

use chrono::{DateTime, NaiveDate, Utc};
use nordlys_money::{Amount, Btc, Nok, NokPerBtc};
use rust_decimal::Decimal;

use crate::time::Tz;
use serde::{Deserialize, Serialize};

/// The UI language, which also decides number format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Locale {
    #[default]
    En,
    Nb,
}

impl Locale {
    /// From an OS locale such as `nb_NO.UTF-8`, `no`, `nn-NO` or `en_US`.
    pub fn from_os(tag: &str) -> Self {
        let lang = tag
            .split(['_', '-', '.'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if matches!(lang.as_str(), "nb" | "no" | "nn") {
            Self::Nb
        } else {
            Self::En
        }
    }
}

/// How bitcoin amounts are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum BtcUnit {
    #[default]
    Btc,
    Sats,
}

const NBSP: char = '\u{a0}';
const MINUS: char = '\u{2212}';

/// Digits of `d` with exactly `decimals` decimals, grouped and separated for `locale`.
pub fn number(d: Decimal, decimals: u32, locale: Locale) -> String {
    let rounded = d.round_dp_with_strategy(
        decimals,
        rust_decimal::RoundingStrategy::MidpointAwayFromZero,
    );
    let negative = rounded.is_sign_negative() && !rounded.is_zero();
    // Not `{:.*}`: rust_decimal's fixed-precision Display panics past 32 characters, which a
    // hostile balance reaches. Rounding leaves at most `decimals` digits; zeros pad the rest.
    let text = rounded.abs().to_string();
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let frac = format!("{frac:0<width$}", width = decimals as usize);
    let (group, point) = match locale {
        Locale::Nb => (NBSP, ','),
        Locale::En => (',', '.'),
    };
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(group);
        }
        grouped.push(c);
    }
    let sign = match (negative, locale) {
        (false, _) => String::new(),
        (true, Locale::Nb) => MINUS.to_string(),
        (true, Locale::En) => "-".to_owned(),
    };
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}{point}{frac}")
    }
}

/// `1 234,56 kr` (nb) or `NOK 1,234.56` (en), rounded to the øre.
pub fn nok(amount: Nok, locale: Locale) -> String {
    kroner(amount.decimal(), locale)
}

/// A price per bitcoin, written as kroner: `987 654,32 kr` or `NOK 987,654.32`.
pub fn price(price: NokPerBtc, locale: Locale) -> String {
    kroner(price.decimal(), locale)
}

/// An amount in its own unit.
pub fn amount(amount: Amount, unit: BtcUnit, locale: Locale) -> String {
    match amount {
        Amount::Btc(b) => btc(b, unit, locale),
        Amount::Nok(n) => nok(n, locale),
    }
}

fn kroner(d: Decimal, locale: Locale) -> String {
    match locale {
        Locale::Nb => format!("{}{NBSP}kr", number(d, 2, locale)),
        Locale::En => format!("NOK{NBSP}{}", number(d, 2, locale)),
    }
}

/// `0,12345678 BTC` or `12 345 678 sats`, rounded to the satoshi.
///
/// Only bitcoin can be handed to it:
///
/// ```compile_fail
/// use nordlys_core::format::{btc, BtcUnit, Locale};
/// let kroner = nordlys_money::Nok::ZERO;
/// btc(kroner, BtcUnit::Btc, Locale::En);
/// ```
pub fn btc(amount: Btc, unit: BtcUnit, locale: Locale) -> String {
    let d = amount.decimal();
    match unit {
        BtcUnit::Btc => format!("{}{NBSP}BTC", number(d, 8, locale)),
        // Beyond 7.9·10^20 BTC sats do not fit a Decimal: only a hostile balance gets there.
        BtcUnit::Sats => match d.checked_mul(Decimal::from(100_000_000)) {
            Some(sats) => format!("{}{NBSP}sats", number(sats, 0, locale)),
            None => btc(amount, BtcUnit::Btc, locale),
        },
    }
}

/// What privacy mode shows in place of a figure: no digit of it, and the same for every amount.
pub const MASK: &str = "\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}";

/// How one view writes money: the language, the bitcoin unit, and whether amounts are hidden.
///
/// Views take their figures from one of these rather than from the functions above, so that
/// privacy mode reaches every amount the backend writes: a hidden amount leaves the backend as
/// [`MASK`] beside its unit, never as digits the window would have to cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    pub locale: Locale,
    pub unit: BtcUnit,
    pub hidden: bool,
}

impl Figures {
    /// Bitcoin in the user's unit.
    pub fn btc(self, amount: Btc) -> String {
        self.btc_in(amount, self.unit)
    }

    /// Bitcoin in a unit the view fixes (the exchange's own figures in BTC).
    pub fn btc_in(self, amount: Btc, unit: BtcUnit) -> String {
        match (self.hidden, unit) {
            (false, _) => btc(amount, unit, self.locale),
            (true, BtcUnit::Btc) => format!("{MASK}{NBSP}BTC"),
            (true, BtcUnit::Sats) => format!("{MASK}{NBSP}sats"),
        }
    }

    pub fn nok(self, amount: Nok) -> String {
        self.kroner(|| nok(amount, self.locale))
    }

    /// A price is hidden too: next to a hidden amount it would tell the amount's worth.
    pub fn price(self, p: NokPerBtc) -> String {
        self.kroner(|| price(p, self.locale))
    }

    pub fn amount(self, a: Amount) -> String {
        self.amount_in(a, self.unit)
    }

    pub fn amount_in(self, a: Amount, unit: BtcUnit) -> String {
        match a {
            Amount::Btc(b) => self.btc_in(b, unit),
            Amount::Nok(n) => self.nok(n),
        }
    }

    /// An amount in a currency Nordlys does not know, as the exchange wrote it.
    pub fn foreign(self, value: Decimal, code: &str) -> String {
        if self.hidden {
            format!("{MASK} {code}")
        } else {
            format!("{value} {code}")
        }
    }

    /// The exact figure for a machine (a form's value, a data attribute); none while hidden.
    pub fn raw(self, text: impl FnOnce() -> String) -> Option<String> {
        (!self.hidden).then(text)
    }

    fn kroner(self, shown: impl FnOnce() -> String) -> String {
        match (self.hidden, self.locale) {
            (false, _) => shown(),
            (true, Locale::Nb) => format!("{MASK}{NBSP}kr"),
            (true, Locale::En) => format!("NOK{NBSP}{MASK}"),
        }
    }
}

/// A day: `22.11.2026` (nb) or `2026-11-22` (en).
/// `text` in groups of four characters, a space between: how a key or an address is read and
/// compared by eye.
pub fn in_fours(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn date(d: NaiveDate, locale: Locale) -> String {
    match locale {
        Locale::Nb => d.format("%d.%m.%Y").to_string(),
        Locale::En => d.format("%Y-%m-%d").to_string(),
    }
}

/// An instant to the minute on the clock of `zone`: `22.11.2026 19:44` or `2026-11-22 19:44`.
pub fn time(t: &DateTime<Utc>, zone: Tz, locale: Locale) -> String {
    let local = t.with_timezone(&zone);
    format!(
        "{} {}",
        date(local.date_naive(), locale),
        local.format("%H:%M")
    )
}

/// [`time`] to the second, where seconds matter (what a check read, and when).
pub fn time_to_second(t: &DateTime<Utc>, zone: Tz, locale: Locale) -> String {
    let local = t.with_timezone(&zone);
    format!(
        "{} {}",
        date(local.date_naive(), locale),
        local.format("%H:%M:%S")
    )
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn norwegian_format_follows_cldr_nb() {
        assert_eq!(
            nok(Nok::computed(d("-1234567.5")), Locale::Nb),
            "\u{2212}1\u{a0}234\u{a0}567,50\u{a0}kr"
        );
        assert_eq!(
            nok(Nok::computed(d("1234.56")), Locale::Nb),
            "1\u{a0}234,56\u{a0}kr"
        );
        assert_eq!(nok(Nok::computed(d("0")), Locale::Nb), "0,00\u{a0}kr");
        assert_eq!(
            btc(Btc::computed(d("0.1234")), BtcUnit::Btc, Locale::Nb),
            "0,12340000\u{a0}BTC"
        );
        assert_eq!(
            btc(Btc::computed(d("0.12345678")), BtcUnit::Sats, Locale::Nb),
            "12\u{a0}345\u{a0}678\u{a0}sats"
        );
    }

    #[test]
    fn english_format() {
        assert_eq!(
            nok(Nok::computed(d("1234567.505")), Locale::En),
            "NOK\u{a0}1,234,567.51"
        );
        assert_eq!(nok(Nok::computed(d("-5")), Locale::En), "NOK\u{a0}-5.00");
        assert_eq!(
            btc(Btc::computed(d("21")), BtcUnit::Btc, Locale::En),
            "21.00000000\u{a0}BTC"
        );
        // What is shown is rounded to the satoshi and the øre, half away from zero.
        assert_eq!(
            btc(Btc::computed(d("0.000000015")), BtcUnit::Btc, Locale::En),
            "0.00000002\u{a0}BTC"
        );
        assert_eq!(
            price(NokPerBtc::computed(d("987654.325")), Locale::En),
            "NOK\u{a0}987,654.33"
        );
        assert_eq!(number(d("999"), 0, Locale::En), "999");
        assert_eq!(number(d("1000"), 0, Locale::En), "1,000");
    }

    #[test]
    fn os_locales_map_to_a_language() {
        for (tag, want) in [
            ("nb_NO.UTF-8", Locale::Nb),
            ("no", Locale::Nb),
            ("nn-NO", Locale::Nb),
            ("en_US.UTF-8", Locale::En),
            ("C", Locale::En),
            ("", Locale::En),
        ] {
            assert_eq!(Locale::from_os(tag), want, "{tag}");
        }
    }

    #[test]
    fn hidden_figures_show_their_unit_and_no_digit() {
        let hidden = |locale| Figures {
            locale,
            unit: BtcUnit::Sats,
            hidden: true,
        };
        let written = [
            hidden(Locale::Nb).btc(Btc::computed(d("0.5"))),
            hidden(Locale::Nb).btc_in(Btc::computed(d("0.5")), BtcUnit::Btc),
            hidden(Locale::Nb).nok(Nok::computed(d("1234"))),
            hidden(Locale::En).price(NokPerBtc::computed(d("987654"))),
            hidden(Locale::En).amount(Amount::Nok(Nok::computed(d("-5")))),
        ];
        assert_eq!(
            written,
            [
                "\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{a0}sats",
                "\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{a0}BTC",
                "\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{a0}kr",
                "NOK\u{a0}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}",
                "NOK\u{a0}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}",
            ]
        );
        assert_eq!(hidden(Locale::En).raw(|| "0.5".into()), None);
        assert_eq!(
            hidden(Locale::En).foreign(d("12"), "ETH"),
            "\u{2022}\u{2022}\u{2022}\u{2022}\u{2022} ETH"
        );
        let shown = Figures {
            hidden: false,
            ..hidden(Locale::Nb)
        };
        assert_eq!(shown.nok(Nok::computed(d("1234"))), "1\u{a0}234,00\u{a0}kr");
        assert_eq!(shown.raw(|| "0.5".into()).as_deref(), Some("0.5"));
    }

    #[test]
    fn sats_beyond_decimal_are_shown_in_btc() {
        assert!(btc(Btc::computed(Decimal::MAX), BtcUnit::Sats, Locale::En).ends_with("BTC"));
    }

    /// Instants on both sides of each daylight-saving change in Oslo (last Sunday of March and
    /// of October 2026): every screen shows them through [`time`], so this table is theirs.
    #[test]
    fn times_follow_daylight_saving_on_the_readers_clock() {
        let oslo = crate::time::OSLO;
        let at = |s: &str| DateTime::parse_from_rfc3339(s).map(|t| t.with_timezone(&Utc));
        let table = [
            (
                "2026-03-29T00:59:00Z",
                "29.03.2026 01:59",
                "2026-03-29 01:59",
            ),
            (
                "2026-03-29T01:00:00Z",
                "29.03.2026 03:00",
                "2026-03-29 03:00",
            ),
            (
                "2026-07-15T12:54:00Z",
                "15.07.2026 14:54",
                "2026-07-15 14:54",
            ),
            (
                "2026-10-25T00:59:00Z",
                "25.10.2026 02:59",
                "2026-10-25 02:59",
            ),
            (
                "2026-10-25T01:00:00Z",
                "25.10.2026 02:00",
                "2026-10-25 02:00",
            ),
            (
                "2026-11-22T12:54:00Z",
                "22.11.2026 13:54",
                "2026-11-22 13:54",
            ),
            (
                "2026-12-31T23:30:00Z",
                "01.01.2027 00:30",
                "2027-01-01 00:30",
            ),
        ];
        for (utc, nb, en) in table {
            let t = at(utc).unwrap();
            assert_eq!(time(&t, oslo, Locale::Nb), nb, "{utc}");
            assert_eq!(time(&t, oslo, Locale::En), en, "{utc}");
        }
        let t = at("2026-07-15T12:54:07Z").unwrap();
        assert_eq!(time_to_second(&t, oslo, Locale::Nb), "15.07.2026 14:54:07");
        let utc = crate::time::zone("UTC").unwrap();
        assert_eq!(time(&t, utc, Locale::En), "2026-07-15 12:54");
    }

    #[test]
    fn text_is_grouped_in_fours_with_the_rest_last() {
        assert_eq!(in_fours("bc1qw508d6qe"), "bc1q w508 d6qe");
        assert_eq!(in_fours("abcdef"), "abcd ef");
        assert_eq!(in_fours(""), "");
    }
}
