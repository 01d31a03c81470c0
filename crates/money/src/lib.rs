//! Money as types. A [`Btc`] amount, a [`Nok`] amount and a [`NokPerBtc`] price cannot be mixed
//! up: sums take one unit, and the only ways across units are [`Btc::value_at`] and
//! [`Nok::buys_at`]. Dollar rates ([`UsdPerBtc`], [`NokPerUsd`]) meet only in their product, and
//! a [`Percent`] is never a fraction.
//!
//! Precision: what a user types and what the exchange holds has at most 8 (BTC) or 2 (NOK)
//! decimals, and [`Btc::new`]/[`Nok::new`]/[`NokPerBtc::new`] refuse more. A value the exchange
//! or this app *computes* (a NOK valuation, an amount bought at a price) keeps full precision
//! ([`Quantity::computed`]) until it is rounded at a named point: [`Btc::round_to_sat`] for what
//! is sent, `format` for what is shown, [`Nok::round_to_ore`] for each tax figure.
//!
//! Range: a fold over many amounts is checked ([`CheckedSum::checked_sum`], [`Btc::checked_add`])
//! and says `None` past `Decimal`'s range; a history that large is "not computable", not a panic.

mod amount;
mod percent;
mod price;
mod rate;
mod serde_forms;

pub use amount::{Amount, Btc, CheckedSum, Nok, Quantity, Summable, TooPrecise, Unit};
pub use percent::Percent;
pub use price::NokPerBtc;
pub use rate::{NokPerUsd, UsdPerBtc};
pub use serde_forms::{computed, exact, opt_computed, opt_exact};
