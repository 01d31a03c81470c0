//! The pay form's checks, run on every keystroke and once more before sending: the destination is
//! understood, the amount is read in the user's unit and fits the account, and the travel-rule
//! recipient is complete when the destination is new. Only a form that passes gives a request.

use std::time::SystemTime;

use nordlys_exchange::ids::AccountId;
use nordlys_exchange::models::SendBitcoinRequest;
use nordlys_money::{Amount, Btc, Nok, NokPerBtc};

use crate::amount_input::{AmountProblem, BitcoinAmountUnit, parse_in};
use crate::destination::{self, Destination, DestinationError};
use crate::format::Locale;
use crate::store::Recipient;
use crate::travel_rule::{self, RecipientErrors, RecipientForm};

#[derive(Debug, Clone)]
pub struct PayForm {
    pub destination: String,
    pub amount: String,
    pub unit: BitcoinAmountUnit,
    pub account_id: Option<String>,
    pub is_payment: bool,
    pub description: String,
    pub recipient: RecipientForm,
}

/// What the form is checked against.
#[derive(Debug, Clone)]
pub struct PayContext {
    pub now: SystemTime,
    /// How the amount was typed.
    pub locale: Locale,
    /// NOK per BTC at the bid (what the bitcoin paid is worth), for NOK input and the NOK value
    /// shown.
    pub price: NokPerBtc,
    pub available_btc: Btc,
}

/// What the app knows about a destination's recipient.
#[derive(Debug, Clone, Default)]
pub struct Known {
    pub saved: Option<Recipient>,
    /// A payment to it has gone through before, so the exchange has its recipient already.
    pub used_before: bool,
    /// An invoice the user created to receive: paying it from the same user moves nothing, and
    /// the exchange refuses it only after the recipient form.
    pub own_invoice: bool,
    /// An invoice this profile has already paid (sent, by answer or evidence).
    pub paid_invoice: bool,
}

#[derive(Debug, Clone, Default)]
pub struct PayCheck {
    pub destination: Option<Destination>,
    pub destination_error: Option<DestinationError>,
    /// The invoice's own amount, when it has one: the amount field is then not used.
    pub fixed_amount: Option<Btc>,
    pub amount_error: Option<AmountProblem>,
    pub amount_btc: Option<Btc>,
    /// The amount in the other unit: BTC when typed in NOK, else its NOK value at the bid.
    pub estimate: Option<Amount>,
    pub needs_recipient: bool,
    pub saved_recipient: Option<Recipient>,
    pub recipient_errors: RecipientErrors,
    pub request: Option<SendBitcoinRequest>,
}

pub fn check(form: &PayForm, ctx: &PayContext, known: impl Fn(&Destination) -> Known) -> PayCheck {
    let mut out = PayCheck::default();
    let dest = match destination::parse(&form.destination, ctx.now) {
        Ok(d) => d,
        Err(e) => {
            if !form.destination.trim().is_empty() {
                out.destination_error = Some(e);
            }
            return out;
        }
    };
    let k = known(&dest);
    if k.own_invoice {
        out.destination_error = Some(DestinationError::OwnInvoice);
        return out;
    }
    if k.paid_invoice {
        out.destination_error = Some(DestinationError::AlreadyPaid);
        return out;
    }
    let fixed = match &dest {
        Destination::Invoice(i) => i.amount_btc,
        _ => None,
    };
    let amount = match fixed {
        Some(a) => {
            out.fixed_amount = Some(a);
            Some(a)
        }
        None => match parse_in(&form.amount, form.unit, ctx.locale) {
            Ok(Amount::Btc(b)) => Some(b),
            Ok(Amount::Nok(n)) if ctx.price.is_positive() => {
                // What is sent: to the satoshi. Checked: the price is the exchange's word, and a
                // hostile one must not panic.
                let b = n.buys_at(ctx.price).unwrap_or(Btc::ZERO).round_to_sat();
                if b.is_zero() {
                    out.amount_error = Some(AmountProblem::BelowOneSat);
                    None
                } else {
                    Some(b)
                }
            }
            Ok(Amount::Nok(_)) => {
                out.amount_error = Some(AmountProblem::NoPrice);
                None
            }
            Err(e) => {
                out.amount_error = Some(e.into());
                None
            }
        },
    };
    if let Some(a) = amount {
        if a > ctx.available_btc {
            out.amount_error = Some(AmountProblem::AboveAvailable {
                available: Amount::Btc(ctx.available_btc),
            });
        }
        out.estimate = if form.unit == BitcoinAmountUnit::Nok && fixed.is_none() {
            Some(Amount::Btc(a))
        } else {
            nok_value(a, ctx).map(Amount::Nok)
        };
        out.amount_btc = Some(a);
    }
    // An invoice is never a recipient: it is paid once, and its payee node serves many people.
    out.saved_recipient = match dest {
        Destination::Invoice(_) => None,
        _ => k.saved.clone(),
    };
    let attached = out.saved_recipient.as_ref();
    out.needs_recipient = attached.is_none() && !k.used_before;
    let tfr_info = match attached {
        // One whose details are sealed out of reach is not offered (see `Known::saved`).
        Some(r) => r.details.open().map(Into::into),
        None if out.needs_recipient => match travel_rule::check(&form.recipient) {
            Ok(info) => Some(info),
            Err(errors) => {
                out.recipient_errors = errors;
                None
            }
        },
        None => None,
    };
    let ready = out.amount_error.is_none()
        && amount.is_some()
        && (!out.needs_recipient || tfr_info.is_some());
    if ready && let Some(a) = amount {
        out.request = Some(SendBitcoinRequest {
            destination: dest.wire(),
            amount_btc: if fixed.is_some() { None } else { Some(a) },
            account_id: form
                .account_id
                .as_deref()
                .filter(|a| !a.is_empty())
                .map(AccountId::from),
            is_payment: form.is_payment,
            description: form.description.trim().to_owned(),
            tfr_info,
        });
    }
    out.destination = Some(dest);
    out
}

/// `amount` in NOK at the context's price; none when the product does not fit a `Decimal`
/// (only a hostile price gets there).
pub fn nok_value(amount: Btc, ctx: &PayContext) -> Option<Nok> {
    amount.value_at(ctx.price)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipient_seal::RecipientDetails;
    use crate::store::Sealed;
    use rust_decimal::Decimal;

    const ADDRESS: &str = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

    fn ctx() -> PayContext {
        PayContext {
            now: SystemTime::now(),
            locale: Locale::En,
            price: NokPerBtc::computed(Decimal::from(1_000_000)),
            available_btc: Btc::from_sats(1_000_000),
        }
    }

    fn form(dest: &str, amount: &str, unit: BitcoinAmountUnit) -> PayForm {
        PayForm {
            destination: dest.into(),
            amount: amount.into(),
            unit,
            account_id: None,
            is_payment: true,
            description: String::new(),
            recipient: RecipientForm::default(),
        }
    }

    fn unknown(_: &Destination) -> Known {
        Known::default()
    }

    #[test]
    fn a_new_destination_needs_the_recipient_form() {
        let mut f = form(ADDRESS, "500", BitcoinAmountUnit::Nok);
        let c = check(&f, &ctx(), unknown);
        assert!(c.needs_recipient && c.request.is_none());
        assert!(c.recipient_errors.full_name.is_some());
        assert_eq!(
            c.amount_btc,
            Some(Btc::from_sats(50_000)),
            "500 NOK at 1 000 000"
        );
        f.recipient = RecipientForm {
            full_name: "Kari Nordmann".into(),
            address: "Storgata 1".into(),
            ..RecipientForm::default()
        };
        let c = check(&f, &ctx(), unknown);
        let r = c.request.unwrap();
        assert_eq!(r.amount_btc, Some(Btc::from_sats(50_000)));
        assert_eq!(r.tfr_info.unwrap().full_name, "Kari Nordmann");
    }

    /// What is sent is rounded to the satoshi half away from zero: 0,05 kr at 2 000 000 is
    /// 2.5 sats and sends 3 (banker's rounding sent 2), and 1 øre is half a satoshi and sends one.
    #[test]
    fn a_payment_typed_in_nok_sends_whole_satoshis_rounded_half_away_from_zero() {
        let at = PayContext {
            price: NokPerBtc::computed(Decimal::from(2_000_000)),
            ..ctx()
        };
        let known = |_: &Destination| Known {
            saved: None,
            used_before: true,
            own_invoice: false,
            paid_invoice: false,
        };
        let sent = |nok: &str| {
            check(&form(ADDRESS, nok, BitcoinAmountUnit::Nok), &at, known)
                .request
                .and_then(|r| r.amount_btc)
        };
        assert_eq!(sent("0.05"), Some(Btc::from_sats(3)));
        assert_eq!(sent("0.01"), Some(Btc::from_sats(1)));
        assert_eq!(sent("0.03"), Some(Btc::from_sats(2)));
    }

    #[test]
    fn a_known_destination_needs_nothing_more() {
        let f = form(ADDRESS, "12500", BitcoinAmountUnit::Sats);
        let c = check(&f, &ctx(), |_| Known {
            saved: None,
            used_before: true,
            own_invoice: false,
            paid_invoice: false,
        });
        assert!(!c.needs_recipient);
        assert!(c.request.unwrap().tfr_info.is_none());
        let saved = Recipient {
            details: Sealed::Open(RecipientDetails {
                full_name: "Ola".into(),
                address: "Gata 2".into(),
                ..RecipientDetails::default()
            }),
            ..Recipient::default()
        };
        let c = check(&f, &ctx(), |_| Known {
            saved: Some(saved.clone()),
            used_before: false,
            own_invoice: false,
            paid_invoice: false,
        });
        assert_eq!(
            c.request.unwrap().tfr_info.unwrap().full_name,
            "Ola",
            "saved data is sent"
        );
    }

    #[test]
    fn an_invoice_never_takes_a_saved_recipient_and_a_paid_one_is_refused_at_the_field() {
        // The BOLT #11 "coffee beans" example, read at its own time.
        let coffee = "lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq67gye39hfg3zd8rgc80k32tvy9xk2xunwm5lzexnvpx6fd77en8qaq424dxgt56cag2dpt359k3ssyhetktkpqh24jqnjyw6uqd08sgptq44qu";
        let then = PayContext {
            now: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_496_314_700),
            available_btc: Btc::from_sats(100_000_000),
            ..ctx()
        };
        let mut f = form(coffee, "", BitcoinAmountUnit::Sats);
        let saved = Recipient {
            details: Sealed::Open(RecipientDetails {
                full_name: "Ola".into(),
                address: "Gata 2".into(),
                ..RecipientDetails::default()
            }),
            ..Recipient::default()
        };
        let known = |_: &Destination| Known {
            saved: Some(saved.clone()),
            used_before: false,
            own_invoice: false,
            paid_invoice: false,
        };
        let c = check(&f, &then, known);
        assert!(c.needs_recipient, "the form is asked for");
        assert!(
            c.saved_recipient.is_none(),
            "and nothing is taken from the book"
        );
        assert!(c.request.is_none(), "nothing is sent unasked");
        f.recipient = RecipientForm {
            full_name: "Kari Nordmann".into(),
            address: "Storgata 1".into(),
            ..RecipientForm::default()
        };
        let c = check(&f, &then, known);
        assert_eq!(
            c.request.unwrap().tfr_info.unwrap().full_name,
            "Kari Nordmann"
        );
        let paid = check(&f, &then, |_: &Destination| Known {
            paid_invoice: true,
            ..known(&Destination::Lnurl {
                encoded: String::new(),
                url: String::new(),
            })
        });
        assert_eq!(paid.destination_error, Some(DestinationError::AlreadyPaid));
        assert!(paid.request.is_none());
    }

    #[test]
    fn each_field_gets_its_own_message() {
        let c = check(
            &form("bc1qnope", "1", BitcoinAmountUnit::Btc),
            &ctx(),
            unknown,
        );
        assert!(c.destination_error.is_some() && c.request.is_none());
        let c = check(
            &form(ADDRESS, "0.5", BitcoinAmountUnit::Btc),
            &ctx(),
            unknown,
        );
        assert_eq!(
            c.amount_error,
            Some(AmountProblem::AboveAvailable {
                available: Amount::Btc(ctx().available_btc),
            })
        );
        let c = check(&form(ADDRESS, "", BitcoinAmountUnit::Btc), &ctx(), unknown);
        assert_eq!(
            c.amount_error,
            Some(AmountProblem::Input(
                crate::amount_input::AmountInputError::Empty
            ))
        );
        let c = check(&form("", "1", BitcoinAmountUnit::Btc), &ctx(), unknown);
        assert!(
            c.destination_error.is_none(),
            "an empty field is not yet an error"
        );
    }

    /// Found by the `pay_form` fuzz target: a price at `Decimal`'s edge overflowed the NOK value.
    #[test]
    fn a_hostile_price_gives_no_value_rather_than_a_panic() {
        let huge = PayContext {
            price: NokPerBtc::computed(Decimal::MAX),
            available_btc: Btc::from_sats(1_000_000_000),
            ..ctx()
        };
        let c = check(&form(ADDRESS, "2", BitcoinAmountUnit::Btc), &huge, |_| {
            Known {
                used_before: true,
                ..Known::default()
            }
        });
        assert_eq!(c.estimate, None);
        assert!(
            c.request.is_some(),
            "sent at the amount typed, its value unknown"
        );
        let tiny = PayContext {
            price: NokPerBtc::computed(Decimal::new(1, 28)),
            ..ctx()
        };
        let c = check(
            &form(ADDRESS, "1000", BitcoinAmountUnit::Nok),
            &tiny,
            unknown,
        );
        assert!(c.amount_error.is_some(), "more than is available");
    }
}
