//! The native confirmation's words: a title, one line per fact of the request, and its two
//! buttons, in the user's language with every figure shown.

use chrono::{DateTime, Utc};
use nordlys_core::destination::Destination;
use nordlys_core::format::{BtcUnit, in_fours};

use crate::confirmation::{Confirmation, OrderReview, PaymentReview, PlanReview};
use crate::msg;
use crate::present::{Present, Viewer};
use crate::wording::{self, key};

/// What the desktop's dialog shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmationText {
    pub title: String,
    pub message: String,
    /// The button that sends.
    pub send: String,
    pub cancel: String,
}

impl Present for Confirmation {
    type View = ConfirmationText;

    fn present(self, viewer: &Viewer) -> ConfirmationText {
        let locale = viewer.locale();
        let say = |k| wording::say(k, locale);
        match self {
            Confirmation::Payment(p) => ConfirmationText {
                title: msg!(CONFIRM_PAYMENT_TITLE {
                    amount: viewer.figures.btc_in(p.amount, BtcUnit::Btc)
                })
                .render(locale),
                message: lines(&payment_lines(&p, viewer)),
                send: say(key::CONFIRM_SEND),
                cancel: say(key::CONFIRM_CANCEL),
            },
            Confirmation::Order(o) => ConfirmationText {
                title: say(if o.buying {
                    key::CONFIRM_BUY_TITLE
                } else {
                    key::CONFIRM_SELL_TITLE
                }),
                message: lines(&order_lines(&o, viewer)),
                send: say(key::CONFIRM_PLACE),
                cancel: say(key::CONFIRM_CANCEL),
            },
            Confirmation::Plan(p) => ConfirmationText {
                title: say(key::CONFIRM_PLAN_TITLE),
                message: lines(&plan_lines(&p, viewer)),
                send: say(key::CONFIRM_KEEP_PLAN),
                cancel: say(key::CONFIRM_CANCEL),
            },
        }
    }
}

fn lines(lines: &[(String, String)]) -> String {
    lines
        .iter()
        .map(|(label, value)| format!("{label}: {value}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The destination as it is compared by eye: an address in groups of four, an invoice by its
/// payee and expiry (its amount has a line of its own), a Lightning address whole.
fn destination(d: &Destination, viewer: &Viewer) -> String {
    let locale = viewer.locale();
    match d {
        Destination::Onchain { address, .. } => in_fours(address),
        Destination::Invoice(i) => msg!(CONFIRM_INVOICE {
            payee: in_fours(&i.payee),
            expires: viewer.time_to_second(&DateTime::<Utc>::from(i.expires_at))
        })
        .render(locale),
        Destination::LightningAddress { user, domain } => format!("{user}@{domain}"),
        Destination::Lnurl { url, .. } => url.clone(),
    }
}

fn payment_lines(p: &PaymentReview, viewer: &Viewer) -> Vec<(String, String)> {
    let figures = viewer.figures;
    let locale = viewer.locale();
    let say = |k| wording::say(k, locale);
    let amount = match p.worth {
        Some(nok) => format!(
            "{} (≈ {})",
            figures.btc_in(p.amount, BtcUnit::Btc),
            figures.nok(nok)
        ),
        None => figures.btc_in(p.amount, BtcUnit::Btc),
    };
    let mut out = vec![
        (say(key::SUMMARY_TO), destination(&p.destination, viewer)),
        (say(key::SUMMARY_AMOUNT), amount),
        (say(key::SUMMARY_FROM), p.account.clone()),
    ];
    if let Some((name, country)) = &p.recipient {
        let who = if country.is_empty() {
            name.clone()
        } else {
            format!("{name} ({country})")
        };
        out.push((say(key::SUMMARY_RECIPIENT), who));
    }
    if p.is_payment {
        out.push((say(key::SUMMARY_MARKED_AS), say(key::SUMMARY_PAYMENT)));
    }
    let fee = if p.destination.is_lightning() {
        key::SUMMARY_FEE_LIGHTNING
    } else {
        key::SUMMARY_FEE_ONCHAIN
    };
    out.push((say(key::SUMMARY_FEE), say(fee)));
    out
}

fn order_lines(o: &OrderReview, viewer: &Viewer) -> Vec<(String, String)> {
    let figures = viewer.figures;
    let locale = viewer.locale();
    let say = |k| wording::say(k, locale);
    let mut out = vec![(
        say(key::SUMMARY_AMOUNT),
        figures.amount_in(o.amount, BtcUnit::Btc),
    )];
    out.push((
        say(key::CONFIRM_PRICE),
        match o.price {
            Some(p) => figures.price(p),
            None => say(key::CONFIRM_AT_MARKET),
        },
    ));
    out.push((say(key::SUMMARY_FROM), o.account.clone()));
    out
}

fn plan_lines(p: &PlanReview, viewer: &Viewer) -> Vec<(String, String)> {
    let say = |k| wording::say(k, viewer.locale());
    let account = p
        .account
        .clone()
        .unwrap_or_else(|| say(key::CONFIRM_DEFAULT_ACCOUNT));
    vec![
        (
            say(key::CONFIRM_PLAN_BUYS),
            crate::plan_views::said_of(&p.terms, viewer),
        ),
        (say(key::SUMMARY_FROM), account),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use nordlys_core::format::{Figures, Locale};
    use nordlys_exchange::models::{SendBitcoinRequest, TravelRuleInfo};
    use std::time::SystemTime;

    fn viewer(hidden: bool) -> Viewer {
        Viewer::of(Figures {
            locale: Locale::En,
            unit: BtcUnit::Sats,
            hidden,
        })
    }

    const ADDRESS: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

    fn request() -> SendBitcoinRequest {
        SendBitcoinRequest {
            destination: ADDRESS.into(),
            amount_btc: Some(
                nordlys_money::Btc::new(rust_decimal::Decimal::new(12_345, 8)).unwrap(),
            ),
            account_id: None,
            is_payment: false,
            description: String::new(),
            tfr_info: Some(TravelRuleInfo {
                full_name: "Kari Nordmann".into(),
                country: "NO".into(),
                address: "Storgata 1".into(),
                nin: String::new(),
                exchange: String::new(),
                self_custody: false,
            }),
        }
    }

    #[test]
    fn the_dialog_reads_the_request_back_with_every_figure_shown() {
        let bid = nordlys_money::NokPerBtc::new(rust_decimal::Decimal::from(1_000_000)).ok();
        let review = PaymentReview::of(&request(), "Main", bid, SystemTime::now()).unwrap();
        let text = Confirmation::Payment(review).present(&viewer(true).shown());
        assert!(text.title.contains("0.00012345\u{a0}BTC"), "{}", text.title);
        assert!(
            text.message.contains(&in_fours(ADDRESS)),
            "{}",
            text.message
        );
        assert!(text.message.contains("123.45"), "{}", text.message);
        assert!(text.message.contains("Kari Nordmann (NO)"));
        assert!(text.message.contains("Main"));
        assert_eq!(text.send, wording::say(key::CONFIRM_SEND, Locale::En));
    }

    #[test]
    fn a_request_that_does_not_read_back_as_a_payment_has_no_review() {
        let mut r = request();
        r.destination = "not a destination".into();
        assert!(PaymentReview::of(&r, "Main", None, SystemTime::now()).is_none());
        let mut r = request();
        r.amount_btc = None;
        assert!(PaymentReview::of(&r, "Main", None, SystemTime::now()).is_none());
    }
}
