//! A percentage: a tax rate, a ladder's step, how far an order is from the market. Kept as the
//! number of percent (22 is 22 %), never as a fraction, so it cannot be mistaken for one.

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// So many percent.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Percent(Decimal);

impl Percent {
    pub const fn new(percent: Decimal) -> Self {
        Self(percent)
    }

    /// The number of percent (22 for 22 %).
    pub fn decimal(self) -> Decimal {
        self.0
    }

    /// The same share as a fraction (0.22 for 22 %).
    pub fn fraction(self) -> Decimal {
        self.0 / Decimal::ONE_HUNDRED
    }
}

/// The plain number of percent, for the store; people read `format`'s.
impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percentage_is_kept_as_percent_and_read_as_a_fraction_only_by_name() {
        let p = Percent::new(Decimal::new(22, 0));
        assert_eq!(p.decimal(), Decimal::new(22, 0));
        assert_eq!(p.fraction(), Decimal::new(22, 2));
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"22\"");
    }
}
