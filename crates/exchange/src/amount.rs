//! Amount checks made before anything is sent: positive, and no more decimals than the unit has.

use rust_decimal::Decimal;

pub use nordlys_money::Unit;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AmountError {
    #[error("{what} must be more than zero")]
    NotPositive { what: &'static str },
    #[error("{what} cannot be negative")]
    Negative { what: &'static str },
    #[error("{what} has more than {max} decimals; {unit} allows at most {max}")]
    TooManyDecimals {
        what: &'static str,
        unit: &'static str,
        max: u32,
    },
}

/// A strictly positive amount with at most the unit's decimals.
pub fn check_positive(amount: Decimal, unit: Unit, what: &'static str) -> Result<(), AmountError> {
    if amount.is_sign_negative() && !amount.is_zero() {
        return Err(AmountError::Negative { what });
    }
    if amount.is_zero() {
        return Err(AmountError::NotPositive { what });
    }
    check_decimals(amount, unit, what)
}

/// Zero or more (zero has a meaning, e.g. an invoice for any amount).
pub fn check_non_negative(
    amount: Decimal,
    unit: Unit,
    what: &'static str,
) -> Result<(), AmountError> {
    if amount.is_sign_negative() && !amount.is_zero() {
        return Err(AmountError::Negative { what });
    }
    check_decimals(amount, unit, what)
}

fn check_decimals(amount: Decimal, unit: Unit, what: &'static str) -> Result<(), AmountError> {
    if unit.holds(amount) {
        return Ok(());
    }
    Err(AmountError::TooManyDecimals {
        what,
        unit: unit.code(),
        max: unit.decimals(),
    })
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn positive_amounts_with_the_units_precision_pass() {
        assert!(check_positive(d("0.00000001"), Unit::Btc, "amount").is_ok());
        assert!(
            check_positive(d("1.500000000"), Unit::Btc, "amount").is_ok(),
            "trailing zeros do not count"
        );
        assert!(check_positive(d("100.25"), Unit::Nok, "amount").is_ok());
    }

    #[test]
    fn bad_amounts_are_named() {
        assert_eq!(
            check_positive(d("0"), Unit::Nok, "amount"),
            Err(AmountError::NotPositive { what: "amount" })
        );
        assert_eq!(
            check_positive(d("-1"), Unit::Nok, "amount"),
            Err(AmountError::Negative { what: "amount" })
        );
        assert!(matches!(
            check_positive(d("0.000000001"), Unit::Btc, "amount"),
            Err(AmountError::TooManyDecimals { max: 8, .. })
        ));
        assert!(matches!(
            check_positive(d("1.001"), Unit::Nok, "amount"),
            Err(AmountError::TooManyDecimals { max: 2, .. })
        ));
        assert!(check_non_negative(d("0"), Unit::Btc, "amount").is_ok());
        assert!(check_non_negative(d("-0.1"), Unit::Btc, "amount").is_err());
    }
}
