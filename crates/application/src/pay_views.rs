//! What the Pay screen exchanges with the use cases of `pay`: the form and its live checks, the
//! confirmation, payments and their network status, and the address book of recipients.

use chrono::Utc;
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::destination::Destination;
use nordlys_core::format::{Figures, Locale};
use nordlys_core::pay_form;
use nordlys_core::recipient_seal::RecipientDetails;
use nordlys_core::store::{Recipient, WithdrawalEntry, WithdrawalState};
use nordlys_core::travel_rule::{RecipientForm, RecipientProblem};
use nordlys_money::Btc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::msg;
use crate::pay::{PayChecked, Payment, PaymentSent, Payments, SendOutcome};
use crate::present::{Present, Viewer};
use crate::refusals::Refusal;
use crate::shown::{Show, ShownAmount, ShownBtc, ShownNok};
use crate::vocabulary::{DestinationKind, NetworkStatus};
use crate::wording::{self, key};

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PayArgs {
    pub destination: String,
    pub amount: String,
    pub unit: BitcoinAmountUnit,
    pub account_id: Option<String>,
    pub is_payment: bool,
    pub description: String,
    pub recipient: RecipientForm,
    /// Remember the recipient in the address book after the payment is sent.
    pub save_recipient: bool,
    pub label: String,
}

/// Sends the payment reviewed: by the review's one-time id only, so the window cannot supply
/// another payment after the review.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SendPaymentArgs {
    /// The `reviewed` id of the check the user confirmed.
    pub reviewed: String,
    /// The user confirmed a second time that the same payment may be sent although one like it
    /// is still unknown.
    #[serde(default)]
    #[ts(optional)]
    pub despite_unknown: Option<bool>,
    /// The user was told the same payment went through within the last day, and pays again.
    #[serde(default)]
    #[ts(optional)]
    pub despite_recent: Option<bool>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecipientErrorsView {
    pub full_name: Option<String>,
    pub country: Option<String>,
    pub address: Option<String>,
    pub nin: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct SummaryLine {
    pub label: String,
    pub value: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PayCheckView {
    /// Everything is valid: the send button may be enabled.
    pub ok: bool,
    /// The BTC amount that would be sent: for an amount typed in NOK, what the review holds and
    /// sends (the form's value, not a figure shown; `estimate` shows it).
    #[ts(type = "string | null")]
    #[serde(with = "nordlys_money::opt_exact")]
    pub amount_btc: Option<Btc>,
    pub destination_error: Option<String>,
    pub recognised: Option<String>,
    pub kind: Option<DestinationKind>,
    /// For an invoice, RFC 3339, for the countdown.
    pub expires_at: Option<String>,
    /// An invoice's own amount.
    pub fixed_amount: Option<ShownBtc>,
    /// A `bitcoin:` link's own amount and payee label, to fill in what the user has not typed
    /// (a form's value: the link's exact amount, shown or not).
    #[ts(type = "Exact<\"BTC\"> | null")]
    #[serde(with = "nordlys_money::opt_computed")]
    pub link_amount_btc: Option<Btc>,
    pub link_label: Option<String>,
    pub amount_error: Option<String>,
    /// What the amount typed comes to in the other unit, about.
    pub estimate: Option<ShownAmount>,
    /// The account's available bitcoin, and what it is worth at the bid (none without a price).
    pub available: ShownBtc,
    pub available_nok: Option<ShownNok>,
    pub needs_recipient: bool,
    pub saved_recipient: Option<RecipientView>,
    pub recipient_errors: RecipientErrorsView,
    pub summary: Vec<SummaryLine>,
    /// The one-time id that sends the payment as this check read it; empty while it cannot be
    /// sent.
    pub reviewed: String,
    /// For a payment marked as one: the gain or loss it would realise and the tax on it.
    pub sale_tax: Option<crate::sale_tax::SaleTaxView>,
}

/// A payment's worth in NOK, and which moment it is of: an old payment is never revalued at
/// today's price without saying so.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentWorth {
    /// About: at a rate, not what was paid.
    pub nok: ShownNok,
    pub when: WorthWhen,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum WorthWhen {
    /// At the exchange's rate on the payment's own row.
    Sent,
    /// At today's bid: the exchange has not listed the payment yet.
    Now,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    pub journal_id: String,
    /// When it was sent, on the user's clock.
    pub sent_at: String,
    pub destination: String,
    pub amount: ShownBtc,
    /// What it was worth: when it left, once the exchange lists it; until then now, at the bid.
    /// None before either is known.
    pub worth: Option<PaymentWorth>,
    /// The fee the exchange took, once it lists the payment.
    pub fee: Option<ShownAmount>,
    /// What the app knows of the request.
    pub state: WithdrawalState,
    /// The network's side, once sent.
    pub status: Option<NetworkStatus>,
    pub status_text: String,
    pub withdrawal_id: Option<String>,
    /// Its transaction id (on-chain) or payment hash (Lightning), once the exchange lists it
    /// among the account's transactions; read from the stored rows, never looked up.
    pub network_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct PaymentsView {
    pub payments: Vec<PaymentView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentResultView {
    pub payment: PaymentView,
    pub message: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecipientView {
    pub identity: String,
    pub destination: String,
    pub label: String,
    /// Absent while they are sealed and the keyring cannot open them: only the label is known.
    pub details: Option<RecipientDetails>,
}

/// An edit of a saved recipient: its label and travel-rule details (its destination is fixed).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SaveRecipientArgs {
    pub identity: String,
    pub destination: String,
    pub label: String,
    pub details: RecipientDetails,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct RecipientsView {
    pub recipients: Vec<RecipientView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct IdentityArgs {
    pub identity: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct CountryView {
    pub code: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct CountriesView {
    pub countries: Vec<CountryView>,
}

pub(crate) fn recipient_view(r: &Recipient) -> RecipientView {
    RecipientView {
        identity: r.identity.clone(),
        destination: r.destination.clone(),
        label: r.label.clone(),
        details: r.details.open().cloned(),
    }
}

/// The confirmation's lines, for a form ready to send: what goes where, from which account.
fn summary(p: &PayChecked, figures: Figures) -> Vec<SummaryLine> {
    let (c, ctx, form) = (&p.check, &p.ctx, &p.form);
    let (Some(request), Some(dest), Some(amount)) = (&c.request, &c.destination, c.amount_btc)
    else {
        return vec![];
    };
    let locale = figures.locale;
    let line = |label, value| SummaryLine {
        label: wording::say(label, locale),
        value,
    };
    let to = wording::destination(dest, ctx.now, figures);
    let wire = dest.wire();
    // The destination as sent, unless "To" already says it whole (a Lightning address).
    let wire = (!to.contains(&wire)).then(|| line(key::SUMMARY_DESTINATION, wire));
    let mut lines = vec![
        line(key::SUMMARY_AMOUNT, figures.btc(amount)),
        line(
            key::SUMMARY_VALUE,
            pay_form::nok_value(amount, ctx)
                .map_or_else(|| "—".to_owned(), |nok| format!("≈ {}", figures.nok(nok))),
        ),
        line(key::SUMMARY_TO, to),
    ];
    lines.extend(wire);
    lines.push(line(key::SUMMARY_FROM, p.account_name.clone()));
    if let Some(r) = &request.tfr_info {
        let country = if r.country.is_empty() {
            String::new()
        } else {
            format!(" ({})", r.country)
        };
        lines.push(line(
            key::SUMMARY_RECIPIENT,
            format!("{}{country}", r.full_name),
        ));
    }
    if form.is_payment {
        lines.push(line(
            key::SUMMARY_MARKED_AS,
            wording::say(key::SUMMARY_PAYMENT, locale),
        ));
    }
    // The API states no fee before a withdrawal is sent: the confirmation says so rather than
    // leave the fee out.
    lines.push(line(
        key::SUMMARY_FEE,
        wording::say(
            if dest.is_lightning() {
                key::SUMMARY_FEE_LIGHTNING
            } else {
                key::SUMMARY_FEE_ONCHAIN
            },
            locale,
        ),
    ));
    lines
}

impl Present for PayChecked {
    type View = PayCheckView;

    fn present(self, viewer: &Viewer) -> PayCheckView {
        let figures = viewer.figures;
        let (c, ctx, form) = (&self.check, &self.ctx, &self.form);
        let (kind, expires_at) = match &c.destination {
            Some(Destination::Onchain { .. }) => (Some(DestinationKind::Onchain), None),
            Some(Destination::Invoice(i)) => (
                Some(DestinationKind::Invoice),
                Some(chrono::DateTime::<Utc>::from(i.expires_at).to_rfc3339()),
            ),
            Some(Destination::LightningAddress { .. }) => {
                (Some(DestinationKind::LightningAddress), None)
            }
            Some(Destination::Lnurl { .. }) => (Some(DestinationKind::Lnurl), None),
            _ => (None, None),
        };
        let link = match &c.destination {
            Some(Destination::Onchain { .. }) => {
                nordlys_core::destination::requested(&form.destination)
            }
            _ => nordlys_core::destination::Requested::default(),
        };
        let e = &c.recipient_errors;
        let locale = figures.locale;
        let field = |p: &Option<RecipientProblem>| {
            p.as_ref().map(|p| wording::recipient_problem(p, locale))
        };
        PayCheckView {
            ok: c.request.is_some(),
            amount_btc: c.amount_btc,
            destination_error: c
                .destination_error
                .as_ref()
                .map(|e| wording::destination_problem(e, locale)),
            recognised: c
                .destination
                .as_ref()
                .map(|d| wording::destination(d, ctx.now, figures)),
            kind,
            expires_at,
            fixed_amount: c.fixed_amount.map(|a| figures.shown_btc(a)),
            link_amount_btc: link.amount_btc,
            link_label: link.label,
            amount_error: c
                .amount_error
                .as_ref()
                .map(|p| wording::amount_problem(p, figures)),
            estimate: c.estimate.map(|a| figures.shown_amount(a)),
            available: figures.shown_btc(ctx.available_btc),
            available_nok: pay_form::nok_value(ctx.available_btc, ctx)
                .map(|n| figures.shown_nok(n)),
            needs_recipient: c.needs_recipient,
            saved_recipient: c.saved_recipient.as_ref().map(recipient_view),
            recipient_errors: RecipientErrorsView {
                full_name: field(&e.full_name),
                country: field(&e.country),
                address: field(&e.address),
                nin: field(&e.nin),
            },
            summary: summary(&self, figures),
            reviewed: self.reviewed.clone(),
            sale_tax: self.sale_tax.clone().map(|t| t.present(viewer)),
        }
    }
}

fn status_words(
    e: &WithdrawalEntry,
    refused: Option<&Refusal>,
    locale: Locale,
) -> (Option<NetworkStatus>, String) {
    let say = |key| wording::say(key, locale);
    let status = e.status.as_ref().map(NetworkStatus::from);
    let text = match (e.state, status) {
        (WithdrawalState::Sent, Some(NetworkStatus::Completed)) => {
            say(key::PAYMENT_STATUS_COMPLETED)
        }
        (WithdrawalState::Sent, Some(NetworkStatus::Failed)) => say(key::PAYMENT_STATUS_FAILED),
        (WithdrawalState::Sent, Some(NetworkStatus::Pending) | None) => {
            say(key::PAYMENT_STATUS_PENDING)
        }
        (WithdrawalState::Sent, Some(NetworkStatus::Other)) => e
            .status
            .as_ref()
            .map(|s| s.as_str().to_owned())
            .unwrap_or_default(),
        (WithdrawalState::Sending | WithdrawalState::Unknown, _) => {
            say(key::PAYMENT_STATUS_UNKNOWN)
        }
        (WithdrawalState::NotSent, _) => say(key::PAYMENT_STATUS_NOT_SENT),
        (WithdrawalState::Rejected, _) => msg!(PAYMENT_STATUS_REFUSED {
            reason: refused
                .map(|r| r.words(locale))
                .unwrap_or_else(|| e.note.clone())
        })
        .render(locale),
    };
    (status, text)
}

/// A payment as listed; the bid values its amount in NOK, as bitcoin paid away is worth, until
/// the exchange's row gives the rate of its day.
fn payment_view(p: &Payment, viewer: &Viewer) -> PaymentView {
    let figures = viewer.figures;
    let e = &p.entry;
    let (status, status_text) = status_words(e, p.refused.as_ref(), figures.locale);
    let listed = p.listed.as_ref();
    let when_sent = listed
        .and_then(|(row, _)| row.rate_market)
        .and_then(|rate| e.amount_btc.value_at(rate))
        .map(|nok| (nok, WorthWhen::Sent));
    let now = || {
        p.bid
            .and_then(|b| e.amount_btc.value_at(b))
            .map(|nok| (nok, WorthWhen::Now))
    };
    PaymentView {
        journal_id: e.id.to_string(),
        sent_at: viewer.time(&e.sent_at),
        destination: e.destination.clone(),
        amount: figures.shown_btc(e.amount_btc),
        worth: when_sent.or_else(now).map(|(nok, when)| PaymentWorth {
            nok: figures.shown_nok(nok),
            when,
        }),
        fee: listed.and_then(|(row, _)| match (row.fee_amount, &row.fee_currency) {
            (Some(f), Some(c)) if !f.is_zero() => Some(figures.shown_row_amount(f, c)),
            _ => None,
        }),
        state: e.state,
        status,
        status_text,
        withdrawal_id: e.withdrawal_id.clone(),
        network_id: listed.map(|(_, id)| id.clone()),
    }
}

impl Present for Payments {
    type View = PaymentsView;

    fn present(self, viewer: &Viewer) -> PaymentsView {
        PaymentsView {
            payments: self.0.iter().map(|p| payment_view(p, viewer)).collect(),
        }
    }
}

impl Present for PaymentSent {
    type View = PaymentResultView;

    fn present(self, viewer: &Viewer) -> PaymentResultView {
        let locale = viewer.locale();
        let message = match &self.outcome {
            SendOutcome::Sent {
                unrecorded,
                recipient_not_saved,
            } => {
                let mut m = match unrecorded {
                    None => wording::say(key::PAYMENT_SENT, locale),
                    Some(w) => msg!(PAYMENT_SENT_NOT_RECORDED { reason: w.clone() }).render(locale),
                };
                if let Some(e) = recipient_not_saved {
                    m.push(' ');
                    m.push_str(
                        &msg!(PAYMENT_RECIPIENT_NOT_SAVED { reason: e.clone() }).render(locale),
                    );
                }
                m
            }
            SendOutcome::FoundSent => wording::say(key::PAYMENT_FOUND_SENT, locale),
            SendOutcome::NotSent => wording::say(key::PAYMENT_NOT_SENT, locale),
            SendOutcome::Unknown => wording::say(key::PAYMENT_UNKNOWN, locale),
        };
        PaymentResultView {
            payment: payment_view(&self.payment, viewer),
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use std::time::SystemTime;

    use nordlys_core::amount_input::BitcoinAmountUnit;
    use nordlys_core::format::BtcUnit;
    use nordlys_core::pay_form::{Known, PayContext, PayForm};
    use nordlys_core::travel_rule::RecipientForm;

    use super::*;

    fn ctx(locale: Locale, price: rust_decimal::Decimal) -> PayContext {
        PayContext {
            now: SystemTime::now(),
            locale,
            price: nordlys_money::NokPerBtc::computed(price),
            available_btc: Btc::from_sats(1_000_000_000),
        }
    }

    fn figures(locale: Locale) -> Figures {
        Figures {
            locale,
            unit: BtcUnit::Btc,
            hidden: false,
        }
    }

    fn form(amount: &str, is_payment: bool) -> PayForm {
        PayForm {
            destination: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4".into(),
            amount: amount.into(),
            unit: BitcoinAmountUnit::Btc,
            account_id: None,
            is_payment,
            description: String::new(),
            recipient: RecipientForm::default(),
        }
    }

    fn lines(
        locale: Locale,
        price: rust_decimal::Decimal,
        amount: &str,
        is_payment: bool,
    ) -> Vec<(String, String)> {
        let (f, c) = (form(amount, is_payment), ctx(locale, price));
        summary_of(&f, &c)
            .into_iter()
            .map(|l| (l.label, l.value))
            .collect()
    }

    /// The confirmation's lines for `f`, to a destination paid before and not saved.
    fn summary_of(f: &PayForm, c: &PayContext) -> Vec<SummaryLine> {
        let known = |_: &Destination| Known {
            saved: None,
            used_before: true,
            own_invoice: false,
            paid_invoice: false,
        };
        let checked = PayChecked {
            form: f.clone(),
            check: pay_form::check(f, c, known),
            ctx: c.clone(),
            account_name: "Hovedkonto".into(),
            reviewed: String::new(),
            sale_tax: None,
        };
        summary(&checked, figures(c.locale))
    }

    #[test]
    fn the_confirmation_says_what_goes_where_in_the_user_s_language() {
        let nb = lines(
            Locale::Nb,
            rust_decimal::Decimal::from(1_000_000),
            "0.01",
            true,
        );
        let labels: Vec<&str> = nb.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "Beløp",
                "Verdi",
                "Til",
                "Mottaker-ID",
                "Fra",
                "Merket som",
                "Gebyr"
            ]
        );
        assert!(
            nb[6].1.starts_with("oppgis ikke av børsen"),
            "the fee the exchange does not state is said to be unstated: {}",
            nb[6].1
        );
        assert_eq!(nb[1].1, "≈ 10\u{a0}000,00\u{a0}kr");
        assert_eq!(nb[2].1, "Bitcoin-adresse (segwit), on-chain");
        let en = lines(
            Locale::En,
            rust_decimal::Decimal::from(1_000_000),
            "0.01",
            false,
        );
        assert_eq!(
            en[0],
            ("Amount".to_owned(), "0.01000000\u{a0}BTC".to_owned())
        );
        assert!(en.iter().all(|(l, _)| l != "Marked as"));
    }

    #[test]
    fn a_lightning_address_is_said_once_not_as_to_and_destination_both() {
        let f = PayForm {
            destination: "kari@example.com".into(),
            ..form("0.0001", false)
        };
        let c = ctx(Locale::En, rust_decimal::Decimal::from(1_000_000));
        let said: Vec<String> = summary_of(&f, &c)
            .into_iter()
            .map(|l| format!("{}: {}", l.label, l.value))
            .collect();
        assert_eq!(
            said.iter()
                .filter(|l| l.contains("kari@example.com"))
                .count(),
            1,
            "{said:?}"
        );
        // An address is not in the words for its kind: it keeps its own line.
        let onchain = lines(
            Locale::En,
            rust_decimal::Decimal::from(1_000_000),
            "0.01",
            false,
        );
        assert!(
            onchain.iter().any(|(_, v)| v.starts_with("bc1q")),
            "{onchain:?}"
        );
    }

    /// Found by the `pay_form` fuzz target: a price at `Decimal`'s edge has no NOK value to show.
    #[test]
    fn a_value_beyond_reckoning_shows_as_a_dash() {
        let en = lines(Locale::En, rust_decimal::Decimal::MAX, "2", false);
        assert_eq!(en[1], ("Value".to_owned(), "—".to_owned()));
    }
}
