//! The whole order form as a user could fill it in, against any quote and balance the exchange
//! could report: the check must never panic, and a request it gives must be one it could place.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use nordlys_core::format::Locale;
use nordlys_core::order_form::{self, Market, OrderForm};
use nordlys_core::order_terms::{Direction, OrderType};
use nordlys_money::Quantity;
use rust_decimal::Decimal;

/// Any decimal a decoded quote or balance could hold, negative and zero included.
/// Any figure in any unit: the exchange's word, hostile or not.
fn decimal<Q: Quantity>(u: &mut Unstructured) -> Result<Q> {
    let mantissa: i64 = u.arbitrary()?;
    let scale = u.int_in_range(0..=28)?;
    Ok(Q::computed(Decimal::new(mantissa, scale)))
}

fn case(u: &mut Unstructured) -> Result<(OrderForm, Market, Locale)> {
    let form = OrderForm {
        order_type: *u.choose(&[OrderType::Market, OrderType::Limit])?,
        direction: *u.choose(&[Direction::Buy, Direction::Sell])?,
        amount: u.arbitrary()?,
        price: u.arbitrary()?,
        account_id: u.arbitrary()?,
    };
    let market = Market {
        bid: decimal(u)?,
        ask: decimal(u)?,
        available_nok: decimal(u)?,
        available_btc: decimal(u)?,
    };
    Ok((form, market, *u.choose(&[Locale::En, Locale::Nb])?))
}

fuzz_target!(|data: &[u8]| {
    let Ok((form, market, locale)) = case(&mut Unstructured::new(data)) else {
        return;
    };
    let out = order_form::check(&form, &market, locale);
    if let Some(request) = &out.request {
        assert!(out.amount_error.is_none() && out.price_error.is_none());
        assert!(request.amount > Decimal::ZERO, "an order for {}", request.amount);
        let available = if form.direction == Direction::Buy {
            market.available_nok.decimal()
        } else {
            market.available_btc.decimal()
        };
        assert!(request.amount <= available, "an order beyond the balance");
    }
});
