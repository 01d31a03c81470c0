//! The order form's checks, made before anything is sent: amount in the unit the API expects (NOK
//! when buying, BTC when selling), within the available balance, a limit price that is positive
//! and (a warning only) near the market, and the other unit shown as an estimate from the quote.

use nordlys_exchange::ids::AccountId;
use nordlys_exchange::models::NewOrderRequest;
use nordlys_money::{Amount, Btc, Nok, NokPerBtc};
use rust_decimal::Decimal;

use crate::amount_input::{AmountInputError, AmountProblem, parse_btc, parse_nok, parse_price};
use crate::format::Locale;
use crate::order_terms::{Direction, OrderType};

/// What the user typed; the window sends it as it is.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OrderForm {
    pub order_type: OrderType,
    pub direction: Direction,
    pub amount: String,
    pub price: Option<String>,
    pub account_id: Option<String>,
}

/// What the form is checked against.
#[derive(Debug, Clone, Copy)]
pub struct Market {
    pub bid: NokPerBtc,
    pub ask: NokPerBtc,
    pub available_nok: Nok,
    /// Of the chosen account.
    pub available_btc: Btc,
}

/// A limit price that may well be a typo: said, but not refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderWarning {
    /// More than 10 % from the market's mid price, `mid`.
    FarFromMarket { mid: NokPerBtc },
}

/// The outcome: a request ready to confirm, or what is wrong with the fields.
#[derive(Debug, Clone, Default)]
pub struct OrderCheck {
    pub request: Option<NewOrderRequest>,
    pub amount_error: Option<AmountProblem>,
    pub price_error: Option<AmountProblem>,
    pub warning: Option<OrderWarning>,
    /// The other unit, estimated from the quote before fees: BTC (down to the satoshi) when
    /// buying, NOK when selling.
    pub estimate: Option<Amount>,
}

/// How far (as a fraction of the market) a limit price may be before the form warns.
const FAR_FROM_MARKET: Decimal = Decimal::from_parts(10, 0, 0, false, 2);

/// `locale` is how the fields were typed.
pub fn check(form: &OrderForm, market: &Market, locale: Locale) -> OrderCheck {
    let buying = form.direction == Direction::Buy;
    let mut out = OrderCheck::default();
    // NOK to spend when buying, BTC to sell when selling.
    let amount = if buying {
        parse_nok(&form.amount, locale).map(Amount::Nok)
    } else {
        parse_btc(&form.amount, locale).map(Amount::Btc)
    };
    let amount = match amount {
        Ok(a) => Some(a),
        Err(e) => {
            out.amount_error = Some(e.into());
            None
        }
    };
    let limit = form.order_type == OrderType::Limit;
    let price = if limit {
        match form.price.as_deref().map(|p| parse_price(p, locale)) {
            Some(Ok(p)) => Some(p),
            Some(Err(AmountInputError::Zero)) => {
                out.price_error = Some(AmountProblem::ZeroPrice);
                None
            }
            Some(Err(e)) => {
                out.price_error = Some(e.into());
                None
            }
            None => {
                out.price_error = Some(AmountProblem::NoLimitPrice);
                None
            }
        }
    } else {
        None
    };
    let reference = if buying { market.ask } else { market.bid };
    let at = price.unwrap_or(reference);
    if let Some(p) = price {
        // Checked: the quote is the exchange's word, and a hostile one must not panic the form.
        let mid = market.bid.mid(market.ask).filter(|mid| mid.is_positive());
        let far = mid.and_then(|mid| {
            let off = p.distance_from(mid)?.abs();
            Some((mid, off > FAR_FROM_MARKET))
        });
        if let Some((mid, true)) = far {
            out.warning = Some(OrderWarning::FarFromMarket { mid });
        }
    }
    if let Some(a) = amount {
        let above = match a {
            Amount::Nok(nok) => {
                (nok > market.available_nok).then_some(Amount::Nok(market.available_nok))
            }
            Amount::Btc(btc) => {
                (btc > market.available_btc).then_some(Amount::Btc(market.available_btc))
            }
        };
        if let Some(available) = above {
            out.amount_error = Some(AmountProblem::AboveAvailable { available });
        } else if at.is_positive() && (!limit || price.is_some()) {
            // A limit order is estimated at its own price, or not at all.
            out.estimate = match a {
                // Down to the satoshi: an estimate never promises more bitcoin than a fill gives.
                Amount::Nok(nok) => nok
                    .buys_at(at)
                    .map(|btc| Amount::Btc(btc.round_down_to_sat())),
                Amount::Btc(btc) => btc.value_at(at).map(Amount::Nok),
            };
        }
    }
    if let (Some(a), None, None) = (amount, &out.amount_error, &out.price_error) {
        out.request = Some(NewOrderRequest {
            order_type: form.order_type.into(),
            direction: form.direction.into(),
            amount: a.decimal(),
            account_id: form
                .account_id
                .as_deref()
                .filter(|s| !s.is_empty())
                .map(AccountId::from),
            description: String::new(),
            price,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn market() -> Market {
        Market {
            bid: NokPerBtc::computed(Decimal::from(980_000)),
            ask: NokPerBtc::computed(Decimal::from(1_000_000)),
            available_nok: Nok::computed(Decimal::from(10_000)),
            available_btc: Btc::computed(Decimal::new(5, 2)),
        }
    }

    fn form(
        order_type: OrderType,
        direction: Direction,
        amount: &str,
        price: Option<&str>,
    ) -> OrderForm {
        OrderForm {
            order_type,
            direction,
            amount: amount.into(),
            price: price.map(Into::into),
            account_id: None,
        }
    }

    #[test]
    fn a_good_market_buy_has_an_estimate_and_a_request() {
        let c = check(
            &form(OrderType::Market, Direction::Buy, "1 000,50", None),
            &market(),
            Locale::Nb,
        );
        assert!(c.amount_error.is_none() && c.price_error.is_none());
        assert_eq!(
            c.estimate,
            Some(Amount::Btc(Btc::computed(d("0.00100050"))))
        );
        assert_eq!(c.request.unwrap().amount, Decimal::new(100050, 2));
    }

    #[test]
    fn each_bad_field_gets_its_own_message() {
        let c = check(
            &form(OrderType::Market, Direction::Buy, "20000", None),
            &market(),
            Locale::En,
        );
        assert_eq!(
            c.amount_error,
            Some(AmountProblem::AboveAvailable {
                available: Amount::Nok(market().available_nok),
            })
        );
        assert!(c.request.is_none());
        let c = check(
            &form(OrderType::Market, Direction::Sell, "0.000000001", None),
            &market(),
            Locale::En,
        );
        assert_eq!(
            c.amount_error,
            Some(AmountProblem::Input(AmountInputError::TooManyDecimals {
                unit: "BTC",
                max: 8
            }))
        );
        let c = check(
            &form(OrderType::Limit, Direction::Sell, "0.01", None),
            &market(),
            Locale::En,
        );
        assert_eq!(c.price_error, Some(AmountProblem::NoLimitPrice));
        let c = check(
            &form(OrderType::Limit, Direction::Sell, "0.01", Some("-5")),
            &market(),
            Locale::En,
        );
        assert_eq!(
            c.price_error,
            Some(AmountProblem::Input(AmountInputError::Negative))
        );
        // A price of zero is said as a price, and a price that is not one gives no estimate.
        for (typed, problem) in [
            ("0", AmountProblem::ZeroPrice),
            (
                "abc",
                AmountProblem::Input(AmountInputError::NotANumber("abc".into())),
            ),
        ] {
            let c = check(
                &form(OrderType::Limit, Direction::Sell, "0.01", Some(typed)),
                &market(),
                Locale::En,
            );
            assert_eq!(c.price_error, Some(problem), "{typed}");
            assert_eq!(c.estimate, None, "{typed}");
        }
        let c = check(
            &form(OrderType::Market, Direction::Buy, "", None),
            &market(),
            Locale::En,
        );
        assert_eq!(
            c.amount_error,
            Some(AmountProblem::Input(AmountInputError::Empty))
        );
    }

    #[test]
    fn a_far_limit_price_warns_but_does_not_block() {
        let c = check(
            &form(OrderType::Limit, Direction::Sell, "0.01", Some("2000000")),
            &market(),
            Locale::En,
        );
        assert!(matches!(
            c.warning,
            Some(OrderWarning::FarFromMarket { mid }) if mid.is_positive()
        ));
        assert!(c.request.is_some());
        assert_eq!(c.estimate, Some(Amount::Nok(Nok::computed(d("20000")))));
    }

    /// Found by the `order_form` fuzz target: the quote is the exchange's word, and quotes at
    /// `Decimal`'s edge overflowed the midpoint and the estimate.
    #[test]
    fn a_hostile_quote_gives_no_estimate_rather_than_a_panic() {
        let hostile = Market {
            bid: NokPerBtc::computed(Decimal::MAX),
            ask: NokPerBtc::computed(Decimal::MAX),
            available_nok: Nok::computed(Decimal::MAX),
            available_btc: Btc::computed(Decimal::from(20_000_000)),
        };
        let sell = check(
            &form(OrderType::Limit, Direction::Sell, "10", Some("0.01")),
            &hostile,
            Locale::En,
        );
        assert!(sell.request.is_some());
        let tiny = Market {
            bid: NokPerBtc::computed(Decimal::new(1, 28)),
            ask: NokPerBtc::computed(Decimal::new(1, 28)),
            ..hostile
        };
        let buy = check(
            &form(OrderType::Market, Direction::Buy, "1000000000", None),
            &tiny,
            Locale::En,
        );
        assert_eq!(buy.estimate, None, "a BTC amount beyond Decimal");
        assert!(buy.request.is_some());
    }
}
