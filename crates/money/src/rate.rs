//! The two rates Skatteetaten publishes when it gives bitcoin's year-end value in dollars: USD per
//! BTC and NOK per USD. Only their product is a [`NokPerBtc`], so neither can stand for it.

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::NokPerBtc;

/// US dollars per bitcoin.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct UsdPerBtc(Decimal);

/// Kroner per US dollar.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct NokPerUsd(Decimal);

impl UsdPerBtc {
    pub fn new(d: Decimal) -> Self {
        Self(d)
    }

    pub fn decimal(self) -> Decimal {
        self.0
    }

    /// The price in kroner at `rate`; `None` past what a decimal holds.
    pub fn in_nok(self, rate: NokPerUsd) -> Option<NokPerBtc> {
        self.0.checked_mul(rate.0).map(NokPerBtc::computed)
    }
}

impl NokPerUsd {
    pub fn new(d: Decimal) -> Self {
        Self(d)
    }

    pub fn decimal(self) -> Decimal {
        self.0
    }
}

/// The plain decimal text, for the store; people read `format`'s.
impl fmt::Display for UsdPerBtc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The plain decimal text, for the store; people read `format`'s.
impl fmt::Display for NokPerUsd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_product_of_the_two_rates_is_a_price_in_kroner() {
        let usd = UsdPerBtc::new(Decimal::new(9_354_812, 2));
        let nok = NokPerUsd::new(Decimal::new(113_195, 4));
        assert_eq!(
            usd.in_nok(nok),
            Some(NokPerBtc::computed(
                Decimal::new(9_354_812, 2) * Decimal::new(113_195, 4)
            ))
        );
        assert_eq!(
            UsdPerBtc::new(Decimal::MAX).in_nok(NokPerUsd::new(Decimal::TWO)),
            None
        );
    }
}
