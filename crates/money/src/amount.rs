//! BTC and NOK amounts.

use std::fmt;
use std::ops::{Add, Sub, SubAssign};

use rust_decimal::{Decimal, RoundingStrategy};

use crate::NokPerBtc;

/// The unit an amount is in; each has the precision the exchange keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    Btc,
    Nok,
}

impl Unit {
    pub fn decimals(self) -> u32 {
        match self {
            Self::Btc => 8,
            Self::Nok => 2,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Self::Btc => "BTC",
            Self::Nok => "NOK",
        }
    }

    /// Whether `d` has no more decimals than this unit keeps (trailing zeros do not count):
    /// the one precision rule for what is typed, what the wire carries and what is sent.
    pub fn holds(self, d: Decimal) -> bool {
        d.normalize().scale() <= self.decimals()
    }
}

/// More decimals than the unit has: a satoshi or an øre is the smallest part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{} allows at most {} decimals", unit.code(), unit.decimals())]
pub struct TooPrecise {
    pub unit: Unit,
}

/// What the wire adapters and readers of typed input build: an exact value (at most the
/// unit's decimals) or a computed one (full precision). `Decimal` is one too, for the figures
/// that have no unit (a percentage, a share) or whose unit the row names.
pub trait Quantity: Sized + Copy {
    /// A value the exchange holds or a user typed: refused past the unit's decimals.
    fn exact(d: Decimal) -> Result<Self, TooPrecise>;
    /// A value someone computed (a valuation, a rate), kept as it came.
    fn computed(d: Decimal) -> Self;
    fn decimal(self) -> Decimal;
}

impl Quantity for Decimal {
    fn exact(d: Decimal) -> Result<Self, TooPrecise> {
        Ok(d)
    }
    fn computed(d: Decimal) -> Self {
        d
    }
    fn decimal(self) -> Decimal {
        self
    }
}

/// `d` when `unit` holds it.
pub(crate) fn fits(d: Decimal, unit: Unit) -> Result<Decimal, TooPrecise> {
    if unit.holds(d) {
        Ok(d)
    } else {
        Err(TooPrecise { unit })
    }
}

macro_rules! amount {
    ($(#[$doc:meta])* $name:ident, $unit:expr) => {
        $(#[$doc])*
        /// No serde of its own: each field says [`exact`](crate::exact) or
        /// [`computed`](crate::computed).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(Decimal);

        impl $name {
            pub const ZERO: Self = Self(Decimal::ZERO);
            pub const UNIT: Unit = $unit;

            /// An amount the exchange holds or a user typed; refused past the unit's decimals.
            pub fn new(d: Decimal) -> Result<Self, TooPrecise> {
                fits(d, Self::UNIT).map(Self)
            }

            /// A computed amount (full precision until it is rounded at a named point).
            pub fn computed(d: Decimal) -> Self {
                Self(d)
            }

            pub fn decimal(self) -> Decimal {
                self.0
            }

            pub fn is_zero(self) -> bool {
                self.0.is_zero()
            }

            /// More than zero.
            pub fn is_positive(self) -> bool {
                self.0 > Decimal::ZERO
            }

            /// Less than zero.
            pub fn is_negative(self) -> bool {
                self.0 < Decimal::ZERO
            }

            /// This amount scaled by a plain number (a share of a lot, a fee rate).
            pub fn scaled(self, factor: Decimal) -> Option<Self> {
                self.0.checked_mul(factor).map(Self)
            }

            /// This amount and `other`; `None` past `Decimal`'s range (about 7.9·10^28), where the
            /// `+` operator would panic (and a release build abort).
            pub fn checked_add(self, other: Self) -> Option<Self> {
                self.0.checked_add(other.0).map(Self)
            }

            /// This amount less `other`; `None` past `Decimal`'s range.
            pub fn checked_sub(self, other: Self) -> Option<Self> {
                self.0.checked_sub(other.0).map(Self)
            }

            /// How many times `other` goes into this amount; `None` when `other` is zero.
            pub fn ratio(self, other: Self) -> Option<Decimal> {
                self.0.checked_div(other.0)
            }

            /// Rounded half away from zero to the unit's smallest part.
            fn rounded(self) -> Self {
                Self(
                    self.0
                        .round_dp_with_strategy(Self::UNIT.decimals(), RoundingStrategy::MidpointAwayFromZero)
                        .normalize(),
                )
            }
        }

        impl Quantity for $name {
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

        /// Two figures. A fold over many (rows, lots, accounts) is [`CheckedSum::checked_sum`] or
        /// [`Self::checked_add`]: there a hostile history could pass `Decimal`'s range, so there
        /// is no `Sum` and no `+=`.
        impl Add for $name {
            type Output = Self;
            fn add(self, other: Self) -> Self {
                Self(self.0 + other.0)
            }
        }

        impl Sub for $name {
            type Output = Self;
            fn sub(self, other: Self) -> Self {
                Self(self.0 - other.0)
            }
        }

        impl SubAssign for $name {
            fn sub_assign(&mut self, other: Self) {
                self.0 -= other.0;
            }
        }

        impl Summable for $name {
            fn checked_add(self, other: Self) -> Option<Self> {
                $name::checked_add(self, other)
            }
        }

        /// The plain decimal text, without a unit: for wire bodies, the store and logs. What
        /// people read goes through `format`.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

/// An amount that sums are taken of, checked at each step.
pub trait Summable: Copy + Default {
    fn checked_add(self, other: Self) -> Option<Self>;
}

/// The sum of many amounts, checked: `None` once it passes `Decimal`'s range. Every fold over
/// rows, lots or accounts goes through this (or [`Btc::checked_add`]), so a history whose
/// figures cannot be added up is "not computable", never a panic.
pub trait CheckedSum: Iterator + Sized
where
    Self::Item: Summable,
{
    fn checked_sum(mut self) -> Option<Self::Item> {
        self.try_fold(Self::Item::default(), Summable::checked_add)
    }
}

impl<I: Iterator> CheckedSum for I where I::Item: Summable {}

amount!(
    /// An amount of bitcoin.
    Btc,
    Unit::Btc
);

amount!(
    /// An amount of Norwegian kroner.
    Nok,
    Unit::Nok
);

const SATS_PER_BTC: i64 = 100_000_000;

impl Btc {
    pub fn from_sats(sats: i64) -> Self {
        Self(Decimal::new(sats, 8))
    }

    /// A Lightning amount: millisatoshis are finer than the satoshi the exchange keeps, so this
    /// is a computed amount (shown, compared and checked, never sent as it is).
    pub fn from_msats(msats: u64) -> Self {
        Self(Decimal::from(msats) / Decimal::from(1_000 * SATS_PER_BTC))
    }

    /// Rounded to the satoshi (half away from zero): what is sent, and what is stored for it.
    pub fn round_to_sat(self) -> Self {
        self.rounded()
    }

    /// Rounded toward zero to the satoshi: an estimate that never promises more bitcoin than
    /// a fill gives.
    pub fn round_down_to_sat(self) -> Self {
        Self(
            self.0
                .round_dp_with_strategy(Unit::Btc.decimals(), RoundingStrategy::ToZero)
                .normalize(),
        )
    }

    /// What this much bitcoin is worth at `price`, unrounded; `None` past `Decimal`'s range.
    pub fn value_at(self, price: NokPerBtc) -> Option<Nok> {
        self.0.checked_mul(price.decimal()).map(Nok)
    }
}

impl Nok {
    /// Rounded to the øre (half away from zero): what is sent, and each tax figure.
    pub fn round_to_ore(self) -> Self {
        self.rounded()
    }

    /// Rounded to whole kroner (half away from zero): what the tax return's card takes.
    pub fn round_to_krone(self) -> Self {
        Self(
            self.0
                .round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero)
                .normalize(),
        )
    }

    /// How much bitcoin this buys at `price`, unrounded; `None` when the price is zero.
    pub fn buys_at(self, price: NokPerBtc) -> Option<Btc> {
        self.0.checked_div(price.decimal()).map(Btc)
    }
}

/// An amount in either unit, where which one is the user's or the row's choice (an amount
/// typed in BTC or NOK, a balance a form compares with).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Amount {
    Btc(Btc),
    Nok(Nok),
}

impl From<Btc> for Amount {
    fn from(b: Btc) -> Self {
        Self::Btc(b)
    }
}

impl From<Nok> for Amount {
    fn from(n: Nok) -> Self {
        Self::Nok(n)
    }
}

impl Amount {
    pub fn unit(self) -> Unit {
        match self {
            Self::Btc(_) => Unit::Btc,
            Self::Nok(_) => Unit::Nok,
        }
    }

    pub fn decimal(self) -> Decimal {
        match self {
            Self::Btc(b) => b.decimal(),
            Self::Nok(n) => n.decimal(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn an_amount_past_the_units_precision_is_refused() {
        assert!(Btc::new(d("0.00000001")).is_ok());
        assert!(
            Btc::new(d("1.500000000")).is_ok(),
            "trailing zeros do not count"
        );
        assert_eq!(
            Btc::new(d("0.000000001")),
            Err(TooPrecise { unit: Unit::Btc })
        );
        assert!(Nok::new(d("100.25")).is_ok());
        assert_eq!(Nok::new(d("1.001")), Err(TooPrecise { unit: Unit::Nok }));
        assert_eq!(
            TooPrecise { unit: Unit::Nok }.to_string(),
            "NOK allows at most 2 decimals"
        );
    }

    #[test]
    fn sums_keep_full_precision_and_one_unit() {
        let third = Btc::computed(d("1") / d("3"));
        let sum = [third, third, third].into_iter().checked_sum().unwrap();
        assert_eq!(sum.round_to_sat(), Btc::from_sats(100_000_000));
        assert_eq!(
            Nok::new(d("10.10")).unwrap() - Nok::new(d("0.20")).unwrap(),
            Nok::new(d("9.9")).unwrap()
        );
    }

    #[test]
    fn a_sum_past_the_decimal_range_is_none_not_a_panic() {
        let most = Nok::computed(Decimal::MAX);
        assert_eq!(most.checked_add(Nok::computed(Decimal::ONE)), None);
        assert_eq!(
            Nok::computed(Decimal::MIN).checked_sub(Nok::computed(Decimal::ONE)),
            None
        );
        assert_eq!([most, most].into_iter().checked_sum(), None);
        assert_eq!(
            [Btc::from_sats(1), Btc::from_sats(2)]
                .into_iter()
                .checked_sum(),
            Some(Btc::from_sats(3))
        );
        assert_eq!(std::iter::empty::<Nok>().checked_sum(), Some(Nok::ZERO));
        assert_eq!(
            [most, Nok::computed(-Decimal::MAX)]
                .into_iter()
                .checked_sum(),
            Some(Nok::ZERO),
            "each step is checked, not the order of the terms"
        );
    }

    #[test]
    fn whole_kroner_are_rounded_half_away_from_zero() {
        let k = |s: &str| Nok::computed(s.parse().unwrap_or_default()).round_to_krone();
        assert_eq!(k("1234.5"), k("1235"));
        assert_eq!(k("1234.49"), k("1234"));
        assert_eq!(k("-0.5"), k("-1"));
        assert_eq!(k("2.5").to_string(), "3");
    }

    #[test]
    fn rounding_to_the_satoshi_and_the_ore_is_half_away_from_zero() {
        assert_eq!(
            Btc::computed(d("0.000000005")).round_to_sat(),
            Btc::from_sats(1)
        );
        assert_eq!(
            Btc::computed(d("-0.000000005")).round_to_sat(),
            Btc::from_sats(-1)
        );
        assert_eq!(
            Btc::computed(d("0.000000015")).round_to_sat(),
            Btc::from_sats(2)
        );
        assert_eq!(
            Btc::computed(d("0.000000019")).round_down_to_sat(),
            Btc::from_sats(1)
        );
        assert_eq!(
            Nok::computed(d("2.345")).round_to_ore(),
            Nok::new(d("2.35")).unwrap()
        );
        let msat = Btc::from_msats(1);
        assert!(Btc::new(msat.decimal()).is_err(), "finer than a satoshi");
        assert_eq!(msat.decimal().to_string(), "0.00000000001");
    }

    #[test]
    fn amount_times_price_is_the_way_across_units() {
        let price = NokPerBtc::new(d("1000000")).unwrap();
        let btc = Btc::new(d("0.0015")).unwrap();
        assert_eq!(btc.value_at(price), Some(Nok::new(d("1500")).unwrap()));
        let nok = Nok::new(d("100")).unwrap();
        assert_eq!(nok.buys_at(price), Some(Btc::from_sats(10_000)));
        assert_eq!(nok.buys_at(NokPerBtc::computed(Decimal::ZERO)), None);
        let third = Nok::new(d("100"))
            .unwrap()
            .buys_at(NokPerBtc::new(d("3")).unwrap());
        assert_eq!(
            third.map(Btc::round_to_sat),
            Some(Btc::new(d("33.33333333")).unwrap())
        );
    }
}
