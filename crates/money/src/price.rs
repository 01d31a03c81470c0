//! The price of bitcoin in kroner.

use std::fmt;

use rust_decimal::Decimal;

use crate::amount::{Quantity, TooPrecise, Unit, fits};

/// NOK per BTC: a market price, a limit or the rate a trade was made at. Like the amounts, it
/// derives no serde: each field says whether it is exact (a limit, whole øre) or computed (a rate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct NokPerBtc(Decimal);

impl NokPerBtc {
    /// A price a user typed (a limit): whole øre, as the exchange takes it.
    pub fn new(d: Decimal) -> Result<Self, TooPrecise> {
        fits(d, Unit::Nok).map(Self)
    }

    /// A price the exchange or this app computed (a rate), kept as it came.
    pub fn computed(d: Decimal) -> Self {
        Self(d)
    }

    pub fn decimal(self) -> Decimal {
        self.0
    }

    pub fn is_positive(self) -> bool {
        self.0 > Decimal::ZERO
    }

    /// Halfway between two prices (between bid and ask); `None` past `Decimal`'s range (a
    /// hostile quote).
    pub fn mid(self, other: Self) -> Option<Self> {
        self.0
            .checked_add(other.0)
            .map(|sum| Self(sum / Decimal::TWO))
    }

    /// How far this price is from `reference`, as a fraction of it (0.05 is 5 % above);
    /// `None` when `reference` is zero.
    pub fn distance_from(self, reference: Self) -> Option<Decimal> {
        self.0.checked_sub(reference.0)?.checked_div(reference.0)
    }
}

impl Quantity for NokPerBtc {
    fn exact(d: Decimal) -> Result<Self, TooPrecise> {
        Self::new(d)
    }
    fn computed(d: Decimal) -> Self {
        Self(d)
    }
    fn decimal(self) -> Decimal {
        self.0
    }
}

/// The plain decimal text, for wire bodies and the store; people read `format::price`.
impl fmt::Display for NokPerBtc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn p(s: &str) -> NokPerBtc {
        NokPerBtc::new(Decimal::from_str(s).unwrap()).unwrap()
    }

    #[test]
    fn a_limit_in_fractions_of_an_ore_is_refused() {
        assert!(NokPerBtc::new(Decimal::from_str("950000.123").unwrap()).is_err());
        assert!(p("950000.12").is_positive());
    }

    #[test]
    fn distance_and_mid() {
        assert_eq!(
            p("105").distance_from(p("100")),
            Some(Decimal::from_str("0.05").unwrap())
        );
        assert_eq!(p("105").distance_from(p("0")), None);
        assert_eq!(p("100").mid(p("102")), Some(p("101")));
        assert_eq!(NokPerBtc::computed(Decimal::MAX).mid(p("1")), None);
    }
}
