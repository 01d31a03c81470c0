//! The whole pay form as a user could fill it in, against any balance and price: the check must
//! never panic, and a request it gives must carry the amount it summarised.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::format::Locale;
use nordlys_core::pay_form::{self, Known, PayContext, PayForm};
use nordlys_core::travel_rule::RecipientForm;
use nordlys_money::Quantity;
use rust_decimal::Decimal;
use std::time::{Duration, UNIX_EPOCH};

/// Any decimal the context could hold, negative and zero included.
/// Any figure in any unit: the exchange's word, hostile or not.
fn decimal<Q: Quantity>(u: &mut Unstructured) -> Result<Q> {
    let mantissa: i64 = u.arbitrary()?;
    let scale = u.int_in_range(0..=28)?;
    Ok(Q::computed(Decimal::new(mantissa, scale)))
}

fn case(u: &mut Unstructured) -> Result<(PayForm, PayContext, bool)> {
    let form = PayForm {
        destination: u.arbitrary()?,
        amount: u.arbitrary()?,
        unit: *u.choose(&[
            BitcoinAmountUnit::Btc,
            BitcoinAmountUnit::Sats,
            BitcoinAmountUnit::Nok,
        ])?,
        account_id: u.arbitrary()?,
        is_payment: u.arbitrary()?,
        description: u.arbitrary()?,
        recipient: RecipientForm {
            full_name: u.arbitrary()?,
            country: u.arbitrary()?,
            address: u.arbitrary()?,
            nin: u.arbitrary()?,
            organisation: u.arbitrary()?,
            exchange: u.arbitrary()?,
            self_custody: u.arbitrary()?,
        },
    };
    let ctx = PayContext {
        now: UNIX_EPOCH + Duration::from_secs(u.int_in_range(0..=8_000_000_000)?),
        locale: *u.choose(&[Locale::En, Locale::Nb])?,
        price: decimal(u)?,
        available_btc: decimal(u)?,
    };
    Ok((form, ctx, u.arbitrary()?))
}

fuzz_target!(|data: &[u8]| {
    let Ok((form, ctx, used_before)) = case(&mut Unstructured::new(data)) else {
        return;
    };
    let out = pay_form::check(&form, &ctx, |_| Known {
        saved: None,
        used_before,
        own_invoice: false,
        paid_invoice: false,
    });
    if let Some(request) = &out.request {
        assert!(out.amount_error.is_none(), "a request despite an amount error");
        if let Some(amount) = request.amount_btc {
            assert!(amount.is_positive(), "a request for {amount}");
            assert!(amount <= ctx.available_btc, "a request beyond the balance");
        }
    }
});
