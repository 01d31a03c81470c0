//! Price alerts on the price the user would pay: the mid price, the bank or card price to buy or
//! sell the user's usual amount (endpoint 7 asked with it), or the spread. An alert fires once
//! when the price crosses its level and re-arms only once the price has gone back past the level
//! by its hysteresis, so a price hovering at the level never fires twice. One more alert follows
//! the user's own open limit orders: it fires when the nearest comes within a percentage of the
//! market.

use nordlys_exchange::models::PriceResponse;
use nordlys_money::{Nok, NokPerBtc, Percent};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::amount_input::{self, AmountInputError};
use crate::format::Locale;

/// Which price an alert follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Watched {
    Mid,
    BankBuy,
    BankSell,
    CardBuy,
    CardSell,
    /// Ask − bid.
    Spread,
    /// How near, in percent of the market, the nearest open limit order placed in Nordlys is
    /// to being filled (see [`nearest_order_percent`]).
    OpenOrder,
}

impl Watched {
    pub const ALL: [Self; 7] = [
        Self::Mid,
        Self::BankBuy,
        Self::BankSell,
        Self::CardBuy,
        Self::CardSell,
        Self::Spread,
        Self::OpenOrder,
    ];

    /// Its value in one answer of endpoint 7; `None` for a spread past `Decimal`'s range (only
    /// a hostile answer gets there), and for the open orders, which the answer alone does not
    /// give.
    pub fn value(self, p: &PriceResponse) -> Option<Level> {
        Some(match self {
            Self::OpenOrder => return None,
            Self::Mid => Level::Price(p.price),
            Self::BankBuy => Level::Price(p.bank.buy),
            Self::BankSell => Level::Price(p.bank.sell),
            Self::CardBuy => Level::Price(p.card.buy),
            Self::CardSell => Level::Price(p.card.sell),
            Self::Spread => {
                Level::Spread(Nok::computed(p.ask.decimal().checked_sub(p.bid.decimal())?))
            }
        })
    }

    /// As the store keeps it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Mid => "mid",
            Self::BankBuy => "bank-buy",
            Self::BankSell => "bank-sell",
            Self::CardBuy => "card-buy",
            Self::CardSell => "card-sell",
            Self::Spread => "spread",
            Self::OpenOrder => "open-order",
        }
    }

    pub fn from_stored(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|w| w.as_str() == s)
    }
}

/// An alert's level, or a value it reads, in the unit of what it watches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A price to buy or sell at (the mid, the bank's, the card's).
    Price(NokPerBtc),
    /// The spread, ask − bid, in NOK.
    Spread(Nok),
    /// How far the nearest open limit order is from being filled, in percent of the market.
    Percent(Percent),
}

impl Level {
    /// `value` in the unit of what `watched` follows (as the store keeps it: a number).
    pub fn of(watched: Watched, value: Decimal) -> Self {
        match watched {
            Watched::Spread => Self::Spread(Nok::computed(value)),
            Watched::OpenOrder => Self::Percent(Percent::new(value)),
            _ => Self::Price(NokPerBtc::computed(value)),
        }
    }

    /// The number, to compare with another level of the same alert and to keep.
    pub fn decimal(self) -> Decimal {
        match self {
            Self::Price(p) => p.decimal(),
            Self::Spread(n) => n.decimal(),
            Self::Percent(p) => p.decimal(),
        }
    }
}

/// An open limit order placed in Nordlys, at the price it was placed with (the exchange's list
/// of open orders gives no price).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenLimit {
    pub direction: crate::order_terms::Direction,
    pub price: NokPerBtc,
}

/// How far the nearest of `orders` is from being filled, in percent of the market: a buy fills
/// when the ask comes down to its price, a sell when the bid comes up to it. 0 when one is
/// reached; `None` with no order, or no market to measure against.
pub fn nearest_order_percent(orders: &[OpenLimit], p: &PriceResponse) -> Option<Percent> {
    use crate::order_terms::Direction;
    orders
        .iter()
        .filter_map(|o| {
            let (market, gap) = match o.direction {
                Direction::Buy => (
                    p.ask.decimal(),
                    p.ask.decimal().checked_sub(o.price.decimal())?,
                ),
                Direction::Sell => (
                    p.bid.decimal(),
                    o.price.decimal().checked_sub(p.bid.decimal())?,
                ),
            };
            if market <= Decimal::ZERO {
                return None;
            }
            Some(Percent::new(
                (gap.checked_mul(Decimal::ONE_HUNDRED)? / market)
                    .max(Decimal::ZERO)
                    .round_dp(4),
            ))
        })
        .min()
}

/// The largest distance an open-order alert may watch for, in percent.
pub const OPEN_ORDER_PERCENT_MAX: Decimal = Decimal::from_parts(50, 0, 0, false, 0);

/// Which way the price crosses the level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Crossing {
    RisesAbove,
    FallsBelow,
}

impl Crossing {
    /// Whether `value` is at or beyond `level` on this side.
    pub fn reached(self, value: Level, level: Level) -> bool {
        let (value, level) = (value.decimal(), level.decimal());
        match self {
            Self::RisesAbove => value >= level,
            Self::FallsBelow => value <= level,
        }
    }
}

/// The hysteresis when the user does not say, in percent of the level.
pub const HYSTERESIS_PERCENT: Percent = Percent::new(Decimal::from_parts(5, 0, 0, false, 1));

/// One alert as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    pub id: i64,
    pub watched: Watched,
    pub crossing: Crossing,
    /// Positive.
    pub level: Level,
    /// In (0, 10] percent of the level.
    pub hysteresis_percent: Percent,
    /// Fires at the next crossing; false after firing until the price went back far enough.
    pub armed: bool,
}

impl Alert {
    /// Whether `value` is back past the level by the hysteresis: the alert may fire again.
    fn back(&self, value: Level) -> bool {
        let (value, level) = (value.decimal(), self.level.decimal());
        let margin = level * self.hysteresis_percent.fraction();
        match self.crossing {
            Crossing::RisesAbove => value <= level - margin,
            Crossing::FallsBelow => value >= level + margin,
        }
    }

    /// Reads one price: `true` when it fires the alert (which then waits to re-arm).
    pub fn observe(&mut self, value: Level) -> bool {
        if self.armed && self.crossing.reached(value, self.level) {
            self.armed = false;
            return true;
        }
        if !self.armed && self.back(value) {
            self.armed = true;
        }
        false
    }
}

/// A field of the alert form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum AlertField {
    Level,
    Hysteresis,
}

/// What is wrong with a field of the alert form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AlertProblem {
    #[error("the level: {0}")]
    Level(AmountInputError),
    #[error("the hysteresis must be more than 0 % and at most 10 %")]
    Hysteresis,
    #[error("the distance must be more than 0 % and at most 50 %")]
    Distance,
}

impl AlertProblem {
    pub fn field(&self) -> AlertField {
        match self {
            Self::Level(_) | Self::Distance => AlertField::Level,
            Self::Hysteresis => AlertField::Hysteresis,
        }
    }
}

/// An alert as typed, before it is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlertForm<'a> {
    pub watched: Watched,
    pub crossing: Crossing,
    pub level: &'a str,
    /// Empty: [`HYSTERESIS_PERCENT`].
    pub hysteresis: &'a str,
}

/// A checked alert: what the store keeps, without its id and state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAlert {
    pub watched: Watched,
    pub crossing: Crossing,
    pub level: Level,
    pub hysteresis_percent: Percent,
}

impl AlertForm<'_> {
    /// Every problem of the form, each at its field; nothing is kept unless there is none.
    /// An open-order alert's level is a percentage, and it always fires as the distance falls.
    pub fn check(&self, locale: Locale) -> Result<NewAlert, Vec<AlertProblem>> {
        let (level, crossing) = match self.watched {
            Watched::OpenOrder => (
                amount_input::parse_rate(self.level, locale)
                    .ok()
                    .filter(|p| *p > Decimal::ZERO && *p <= OPEN_ORDER_PERCENT_MAX)
                    .ok_or(AlertProblem::Distance),
                Crossing::FallsBelow,
            ),
            _ => (
                amount_input::parse_price(self.level, locale)
                    .map(|p| p.decimal())
                    .map_err(AlertProblem::Level),
                self.crossing,
            ),
        };
        let hysteresis = if self.hysteresis.trim().is_empty() {
            Ok(HYSTERESIS_PERCENT)
        } else {
            amount_input::parse_rate(self.hysteresis, locale)
                .ok()
                .filter(|h| *h > Decimal::ZERO && *h <= Decimal::TEN)
                .map(Percent::new)
                .ok_or(AlertProblem::Hysteresis)
        };
        match (level, hysteresis) {
            (Ok(level), Ok(hysteresis_percent)) => Ok(NewAlert {
                watched: self.watched,
                crossing,
                level: Level::of(self.watched, level),
                hysteresis_percent,
            }),
            (level, hysteresis) => Err(level.err().into_iter().chain(hysteresis.err()).collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap_or_default()
    }

    fn price_level(v: &str) -> Level {
        Level::Price(NokPerBtc::computed(d(v)))
    }

    fn alert(crossing: Crossing, level: &str, armed: bool) -> Alert {
        Alert {
            id: 1,
            watched: Watched::Mid,
            crossing,
            level: price_level(level),
            hysteresis_percent: Percent::new(d("0.5")),
            armed,
        }
    }

    /// The prices at which `a` fires along `path`.
    fn fired_on(mut a: Alert, path: &[&str]) -> Vec<String> {
        path.iter()
            .filter(|v| a.observe(price_level(v)))
            .map(|v| (*v).to_owned())
            .collect()
    }

    #[test]
    fn an_alert_fires_once_per_crossing_and_rearms_after_the_hysteresis() {
        // Rises above 1 000 000, hysteresis 0.5 %: re-armed at or below 995 000.
        let a = alert(Crossing::RisesAbove, "1000000", true);
        let path = [
            "990000", "1000000", // fires at the level itself
            "1004000", "996000", "1001000", // hovering: not back far enough, no second alert
            "995000",  // back by 0.5 %: re-armed
            "999999", "1000001", // crosses again: fires
        ];
        assert_eq!(fired_on(a, &path), ["1000000", "1000001"]);
    }

    #[test]
    fn a_falling_alert_mirrors_it() {
        let a = alert(Crossing::FallsBelow, "500000", true);
        let path = ["510000", "499000", "502000", "502500", "498000"];
        // Re-armed at 502 500 (500 000 + 0.5 %), then fires again at 498 000.
        assert_eq!(fired_on(a, &path), ["499000", "498000"]);
    }

    #[test]
    fn an_alert_made_while_the_price_is_beyond_its_level_waits_for_the_price_to_come_back() {
        let a = alert(Crossing::RisesAbove, "1000000", false);
        assert_eq!(
            fired_on(a, &["1100000", "1050000", "990000", "1000500"]),
            ["1000500"]
        );
    }

    #[test]
    fn the_spread_and_the_users_prices_are_read_from_the_answer() {
        let p: PriceResponse = serde_json::from_value(serde_json::json!({
            "price": 1000.0, "bid": 990.0, "ask": 1012.5, "timestamp": "2026-11-24T10:00:00Z",
            "card": {"buy": 1030.0, "sell": 970.0}, "bank": {"buy": 1020.0, "sell": 980.0}
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        let values: Vec<_> = Watched::ALL.iter().map(|w| w.value(&p)).collect();
        let mut want: Vec<_> = ["1000", "1020", "980", "1030", "970"]
            .map(|v| Some(price_level(v)))
            .to_vec();
        want.push(Some(Level::Spread(Nok::computed(d("22.5")))));
        want.push(None);
        assert_eq!(values, want);
        let mut hostile = p.clone();
        hostile.ask = nordlys_money::NokPerBtc::computed(Decimal::MAX);
        hostile.bid = nordlys_money::NokPerBtc::computed(Decimal::MIN);
        assert_eq!(Watched::Spread.value(&hostile), None, "no panic, no value");
        for w in Watched::ALL {
            assert_eq!(Watched::from_stored(w.as_str()), Some(w));
        }
        assert_eq!(Watched::from_stored("moon"), None);
    }

    #[test]
    fn a_level_that_is_not_a_positive_amount_or_a_hysteresis_outside_its_range_is_refused_at_its_field()
     {
        let form = |level, hysteresis| AlertForm {
            watched: Watched::BankBuy,
            crossing: Crossing::FallsBelow,
            level,
            hysteresis,
        };
        let fields = |level, hysteresis| -> Vec<AlertField> {
            form(level, hysteresis)
                .check(Locale::En)
                .err()
                .unwrap_or_default()
                .iter()
                .map(AlertProblem::field)
                .collect()
        };
        assert_eq!(fields("-5", "0.5"), [AlertField::Level]);
        assert_eq!(fields("0", "0.5"), [AlertField::Level]);
        assert_eq!(
            fields("abc", "11"),
            [AlertField::Level, AlertField::Hysteresis]
        );
        assert_eq!(fields("900000", "0"), [AlertField::Hysteresis]);
        assert_eq!(fields("900000", "-1"), [AlertField::Hysteresis]);
        assert_eq!(fields("900000", "10.01"), [AlertField::Hysteresis]);
        let ok = form("900,000.50", "").check(Locale::En);
        assert_eq!(
            ok.map(|a| (a.level, a.hysteresis_percent)),
            Ok((price_level("900000.50"), Percent::new(d("0.5"))))
        );
        assert_eq!(
            form("900 000,5", "10")
                .check(Locale::Nb)
                .map(|a| a.hysteresis_percent),
            Ok(Percent::new(d("10")))
        );
    }

    fn price(bid: &str, ask: &str) -> PriceResponse {
        serde_json::from_value(serde_json::json!({
            "price": 1000.0, "bid": d(bid), "ask": d(ask), "timestamp": "2026-11-24T10:00:00Z",
            "card": {"buy": 1030.0, "sell": 970.0}, "bank": {"buy": 1020.0, "sell": 980.0}
        }))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_nearest_open_order_is_measured_from_the_side_that_fills_it() {
        use crate::order_terms::Direction;
        let buy = OpenLimit {
            direction: Direction::Buy,
            price: NokPerBtc::computed(d("950")),
        };
        let sell = OpenLimit {
            direction: Direction::Sell,
            price: NokPerBtc::computed(d("1010")),
        };
        let p = price("990", "1000");
        // The buy waits for the ask to fall 5 %; the sell for the bid to rise 2.0202 %.
        let percent = |s: &str| Some(Percent::new(d(s)));
        assert_eq!(nearest_order_percent(&[buy], &p), percent("5"));
        assert_eq!(nearest_order_percent(&[buy, sell], &p), percent("2.0202"));
        assert_eq!(
            nearest_order_percent(&[buy], &price("900", "940")),
            percent("0"),
            "reached: 0, never below"
        );
        assert_eq!(nearest_order_percent(&[], &p), None);
        assert_eq!(nearest_order_percent(&[buy], &price("0", "0")), None);
        // Within 3 %, hysteresis 0.5 % of the level: fires at 2.0202, re-arms at 3.015.
        let mut a = Alert {
            id: 1,
            watched: Watched::OpenOrder,
            crossing: Crossing::FallsBelow,
            level: Level::Percent(Percent::new(d("3"))),
            hysteresis_percent: Percent::new(d("0.5")),
            armed: true,
        };
        let percent = |v| Level::Percent(Percent::new(d(v)));
        assert!(!a.observe(percent("5")));
        assert!(a.observe(percent("2.0202")));
        assert!(!a.observe(percent("3.01")));
        assert!(!a.observe(percent("2.5")));
        assert!(!a.observe(percent("3.015")));
        assert!(a.observe(percent("2.9")));
    }

    #[test]
    fn an_open_order_alert_takes_a_percentage_up_to_50_and_always_watches_the_distance_fall() {
        let form = |level| AlertForm {
            watched: Watched::OpenOrder,
            crossing: Crossing::RisesAbove,
            level,
            hysteresis: "",
        };
        let ok = form("2,5").check(Locale::Nb);
        assert_eq!(
            ok.map(|a| (a.level, a.crossing)),
            Ok((Level::Percent(Percent::new(d("2.5"))), Crossing::FallsBelow))
        );
        for bad in ["0", "-1", "50.5", "abc", ""] {
            assert_eq!(
                form(bad).check(Locale::En),
                Err(vec![AlertProblem::Distance]),
                "{bad}"
            );
        }
    }
}
