//! The order types and directions the app sends, keeps in its journal and shows: closed sets,
//! unlike the exchange's open enums, which may name ones this version does not know.

use nordlys_exchange::models;
use nordlys_money::{Amount, Btc, Nok};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The order types the trade form offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum OrderType {
    Market,
    Limit,
}

impl OrderType {
    /// The app's own; `None` for a type the form does not offer.
    pub fn from_wire(t: &models::OrderType) -> Option<Self> {
        match t {
            models::OrderType::Market => Some(Self::Market),
            models::OrderType::Limit => Some(Self::Limit),
            _ => None,
        }
    }

    /// As the journal keeps it.
    pub fn text(self) -> &'static str {
        match self {
            Self::Market => "market",
            Self::Limit => "limit",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::Market, Self::Limit]
            .into_iter()
            .find(|t| t.text() == s)
    }
}

impl From<OrderType> for models::OrderType {
    fn from(t: OrderType) -> Self {
        match t {
            OrderType::Market => Self::Market,
            OrderType::Limit => Self::Limit,
        }
    }
}

/// Buying spends NOK, selling spends bitcoin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    Buy,
    Sell,
}

impl Direction {
    /// The app's own; `None` for a direction this version does not know.
    pub fn from_wire(d: &models::Direction) -> Option<Self> {
        match d {
            models::Direction::Buy => Some(Self::Buy),
            models::Direction::Sell => Some(Self::Sell),
            _ => None,
        }
    }

    /// Whether the exchange's direction `d` is this one.
    pub fn is(self, d: &models::Direction) -> bool {
        Self::from_wire(d) == Some(self)
    }

    /// As the journal keeps it.
    pub fn text(self) -> &'static str {
        match self {
            Self::Buy => "buy",
            Self::Sell => "sell",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::Buy, Self::Sell].into_iter().find(|d| d.text() == s)
    }

    /// An order's amount in its unit: the NOK a buy spends, the BTC a sell sells.
    pub fn amount(self, amount: Decimal) -> Amount {
        match self {
            Self::Buy => Amount::Nok(Nok::computed(amount)),
            Self::Sell => Amount::Btc(Btc::computed(amount)),
        }
    }

    /// [`Direction::amount`] of an order as the exchange lists it; a direction this version
    /// does not know is read as a buy, in NOK (it says so beside the amount).
    pub fn amount_of(direction: &models::Direction, amount: Decimal) -> Amount {
        Self::from_wire(direction)
            .unwrap_or(Self::Buy)
            .amount(amount)
    }
}

impl From<Direction> for models::Direction {
    fn from(d: Direction) -> Self {
        match d {
            Direction::Buy => Self::Buy,
            Direction::Sell => Self::Sell,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_journal_s_words_read_back_and_nothing_else_does() {
        for t in [OrderType::Market, OrderType::Limit] {
            assert_eq!(OrderType::parse(t.text()), Some(t));
            assert_eq!(OrderType::from_wire(&t.into()), Some(t));
        }
        for d in [Direction::Buy, Direction::Sell] {
            assert_eq!(Direction::parse(d.text()), Some(d));
            assert!(d.is(&d.into()));
        }
        for bad in ["", "Market", "BUY", "stop", "buy "] {
            assert_eq!(OrderType::parse(bad), None, "{bad}");
            assert_eq!(Direction::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_order_type_or_direction_the_app_does_not_know_is_none() {
        let other = models::Direction::Unknown("sideways".into());
        assert_eq!(Direction::from_wire(&other), None);
        assert!(!Direction::Buy.is(&other) && !Direction::Sell.is(&other));
        let other = models::OrderType::Unknown("stop".into());
        assert_eq!(OrderType::from_wire(&other), None);
    }
}
