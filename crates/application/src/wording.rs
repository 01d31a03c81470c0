//! The sentences the window shows that carry data, from one Fluent catalog per language
//! (`locales/en.ftl`, `locales/nb.ftl`). The domain returns typed problems; this is where they
//! become words, once, for the UI's language. Interface labels live in the UI's own catalog.

use std::sync::LazyLock;
use std::time::{Duration, SystemTime};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use nordlys_core::amount_input::{AmountInputError, AmountProblem};
use nordlys_core::destination::{AddressKind, CreatedInvoiceError, Destination, DestinationError};
use nordlys_core::doubt::{Doubt, Move, WhyUnknown};
use nordlys_core::format::{self, BtcUnit, Figures, Locale};
use nordlys_core::order_form::OrderWarning;
use nordlys_core::orders::SettleRefusal;
use nordlys_core::seen::{Read, Seen};
use nordlys_core::tax::gains::{GainsNote, Method};
use nordlys_core::tax::year_end::RateSource;
use nordlys_core::time::oslo_date;
use nordlys_core::travel_rule::RecipientProblem;

const EN: &str = include_str!("../locales/en.ftl");
const NB: &str = include_str!("../locales/nb.ftl");

/// Both catalogs, parsed once.
struct Catalog {
    en: FluentBundle<FluentResource>,
    nb: FluentBundle<FluentResource>,
}

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| Catalog {
    en: bundle("en", EN),
    nb: bundle("nb", NB),
});

/// A bundle of `source`. The catalogs are part of the build and a test parses them; should one
/// still not parse, what did parse is kept and a missing message shows as its key.
fn bundle(tag: &str, source: &str) -> FluentBundle<FluentResource> {
    let lang = tag.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![lang]);
    // Values are already formatted for the language; no bidi isolation marks around them.
    bundle.set_use_isolating(false);
    let resource =
        FluentResource::try_new(source.to_owned()).unwrap_or_else(|(partial, _)| partial);
    let _overrides = bundle.add_resource(resource);
    bundle
}

/// One message of the catalog: its key and the values it is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub key: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

/// A value of a message: text already formatted for the language, or another message rendered
/// in the same language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    Text(String),
    Message(Message),
}

impl Message {
    pub fn new(key: &'static str) -> Self {
        Self { key, args: vec![] }
    }

    /// Gives the message the value of `$name`, formatted for the language already.
    pub fn with(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.args.push((name, Arg::Text(value.into())));
        self
    }

    /// Gives the message the value of `$name` as another message, in the same language.
    pub fn nest(mut self, name: &'static str, value: Message) -> Self {
        self.args.push((name, Arg::Message(value)));
        self
    }

    /// The message in `locale`.
    pub fn render(&self, locale: Locale) -> String {
        let catalog = &*CATALOG;
        let bundle = match locale {
            Locale::En => &catalog.en,
            Locale::Nb => &catalog.nb,
        };
        let Some(pattern) = bundle.get_message(self.key).and_then(|m| m.value()) else {
            return self.key.to_owned();
        };
        let mut args = FluentArgs::new();
        for (name, value) in &self.args {
            let value = match value {
                Arg::Text(text) => text.clone(),
                Arg::Message(m) => m.render(locale),
            };
            args.set(*name, value);
        }
        let mut errors = vec![];
        bundle
            .format_pattern(pattern, Some(&args), &mut errors)
            .into_owned()
    }
}

/// The message `key`, which takes no values, in `locale`.
pub fn say(key: &'static str, locale: Locale) -> String {
    Message::new(key).render(locale)
}

/// What is wrong with an amount or price field, with bitcoin in the unit of `figures` (that of
/// the form).
pub fn amount_problem(p: &AmountProblem, figures: Figures) -> String {
    let locale = figures.locale;
    let m = match p {
        AmountProblem::Input(e) => amount_input(e, locale),
        AmountProblem::AboveAvailable { available } => {
            Message::new("amount-above-available").with("available", figures.amount(*available))
        }
        AmountProblem::BelowOneSat => Message::new("amount-below-one-sat"),
        AmountProblem::NoPrice => Message::new("amount-no-price"),
        AmountProblem::NoLimitPrice => Message::new("price-missing"),
        AmountProblem::ZeroPrice => Message::new("price-zero"),
    };
    m.render(locale)
}

/// What is wrong with a typed amount, rate or price, before anything else is known of it.
pub fn amount_input_problem(e: AmountInputError, locale: Locale) -> String {
    amount_input(&e, locale).render(locale)
}

fn amount_input(e: &AmountInputError, locale: Locale) -> Message {
    match e {
        AmountInputError::Empty => Message::new("amount-empty"),
        AmountInputError::NotANumber(text) => {
            Message::new("amount-not-a-number").with("text", text.as_str())
        }
        AmountInputError::Negative => Message::new("amount-negative"),
        AmountInputError::Zero => Message::new("amount-zero"),
        AmountInputError::TooManyDecimals { unit, max } => Message::new("amount-too-many-decimals")
            .with("unit", *unit)
            .with("max", max.to_string()),
        AmountInputError::Ambiguous(text) => {
            Message::new("amount-ambiguous").with("text", text.as_str())
        }
        AmountInputError::FractionalSats => Message::new("amount-fractional-sats"),
        AmountInputError::TooLarge { unit, max } => Message::new("amount-too-large")
            .with("unit", *unit)
            .with("max", format::number(*max, 0, locale)),
    }
}

/// Why a pasted destination cannot be paid.
pub fn destination_problem(e: &DestinationError, locale: Locale) -> String {
    let m = match e {
        DestinationError::Empty => Message::new("destination-empty"),
        DestinationError::BadChecksum => Message::new("destination-bad-checksum"),
        DestinationError::WrongNetwork(network) => {
            Message::new("destination-wrong-network").with("network", *network)
        }
        DestinationError::BadInvoice(detail) => {
            Message::new("destination-bad-invoice").with("detail", detail.as_str())
        }
        DestinationError::InvoiceNetwork(network) => {
            Message::new("destination-invoice-network").with("network", *network)
        }
        DestinationError::Expired => Message::new("destination-expired"),
        DestinationError::AbsurdExpiry(seconds) => Message::new("destination-absurd-expiry").with(
            "seconds",
            format::number(rust_decimal::Decimal::from(*seconds), 0, locale),
        ),
        DestinationError::BadLnurl(detail) => {
            Message::new("destination-bad-lnurl").with("detail", detail.as_str())
        }
        DestinationError::BadLightningAddress(text) => {
            Message::new("destination-bad-lightning-address").with("text", text.as_str())
        }
        DestinationError::BadUri(detail) => {
            Message::new("destination-bad-uri").with("detail", detail.as_str())
        }
        DestinationError::Unknown => Message::new("destination-unknown"),
        DestinationError::OwnInvoice => Message::new("destination-own-invoice"),
        DestinationError::AlreadyPaid => Message::new("destination-already-paid"),
    };
    m.render(locale)
}

/// What is missing or wrong in a field of the travel-rule recipient.
pub fn recipient_problem(p: &RecipientProblem, locale: Locale) -> String {
    let m = match p {
        RecipientProblem::NameMissing => Message::new("recipient-name-missing"),
        RecipientProblem::OrganisationNameMissing => {
            Message::new("recipient-organisation-name-missing")
        }
        RecipientProblem::AddressMissing => Message::new("recipient-address-missing"),
        RecipientProblem::NotACountry(code) => {
            Message::new("recipient-not-a-country").with("code", code.as_str())
        }
        RecipientProblem::OrganisationNumberDigits => {
            Message::new("recipient-organisation-number-digits")
        }
        RecipientProblem::NationalIdDigits => Message::new("recipient-national-id-digits"),
    };
    m.render(locale)
}

/// A duration a person reads: minutes under an hour, whole hours above.
pub fn duration(seconds: u64, locale: Locale) -> String {
    if seconds >= 3600 {
        Message::new("duration-hours").with("hours", (seconds / 3600).to_string())
    } else {
        Message::new("duration-minutes").with("minutes", seconds.div_ceil(60).to_string())
    }
    .render(locale)
}

/// What a pasted destination was recognised as ("Lightning invoice for 12 500 sats, expires in
/// 9 min"), as of `now`.
pub fn destination(d: &Destination, now: SystemTime, figures: Figures) -> String {
    let locale = figures.locale;
    let m = match d {
        Destination::Onchain { kind, .. } => {
            let kind = say(
                match kind {
                    AddressKind::Legacy => "address-legacy",
                    AddressKind::NestedSegwit => "address-nested-segwit",
                    AddressKind::Segwit => "address-segwit",
                    AddressKind::Taproot => "address-taproot",
                    AddressKind::OtherWitness => "address-witness",
                },
                locale,
            );
            Message::new("destination-onchain").with("kind", kind)
        }
        Destination::Invoice(i) => {
            let left = i
                .expires_at
                .duration_since(now)
                .unwrap_or(Duration::ZERO)
                .as_secs();
            let amount = i.amount_btc.map_or_else(
                || say("invoice-any-amount", locale),
                |a| figures.btc_in(a, BtcUnit::Sats),
            );
            Message::new("destination-invoice")
                .with("amount", amount)
                .with("expiry", duration(left, locale))
        }
        Destination::LightningAddress { user, domain } => {
            Message::new("destination-lightning-address")
                .with("address", format!("{user}@{domain}"))
        }
        Destination::Lnurl { url, .. } => {
            let host = url::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
                .unwrap_or_default();
            Message::new("destination-lnurl").with("host", host)
        }
    };
    m.render(locale)
}

/// Why the entry on screen cannot be settled as not made.
pub fn settle_refusal(why: SettleRefusal, locale: Locale) -> String {
    let m = match why {
        SettleRefusal::Placed => Message::new("settle-refused-placed"),
        SettleRefusal::Sent => Message::new("settle-refused-sent"),
        SettleRefusal::AlreadySettled(_) => Message::new("settle-refused-settled"),
        SettleRefusal::SettledMeanwhile => Message::new("settle-refused-meanwhile"),
        SettleRefusal::InFlight { minutes } => {
            Message::new("settle-refused-in-flight").with("minutes", minutes.to_string())
        }
        SettleRefusal::NotListed(order) => {
            Message::new("settle-refused-not-listed").with("order", order)
        }
        SettleRefusal::NotThisOrder(order) => {
            Message::new("settle-refused-not-this-order").with("order", order)
        }
        SettleRefusal::Claimed { order, .. } => {
            Message::new("settle-refused-claimed").with("order", order)
        }
    };
    m.render(locale)
}

/// Why an invoice the exchange created is not shown: it is not the one asked for.
pub fn created_invoice_problem(e: &CreatedInvoiceError, figures: Figures) -> String {
    let btc = |b: &nordlys_money::Btc| figures.btc(*b);
    let m = match e {
        CreatedInvoiceError::Amount { asked, got } => Message::new("created-invoice-amount")
            .with("asked", btc(asked))
            .with("got", btc(got)),
        CreatedInvoiceError::NoAmount { asked } => {
            Message::new("created-invoice-no-amount").with("asked", figures.amount(*asked))
        }
        CreatedInvoiceError::Unasked { got } => {
            Message::new("created-invoice-unasked").with("got", btc(got))
        }
        CreatedInvoiceError::Description => Message::new("created-invoice-description"),
        _ => Message::new("created-invoice-other"),
    };
    m.render(figures.locale)
}

/// A gains matching method, as the report names it.
pub fn method_name(m: Method, locale: Locale) -> String {
    say(
        match m {
            Method::Fifo => "gains-method-fifo",
            Method::AverageCost => "gains-method-average",
        },
        locale,
    )
}

/// A notice no screen asked for, in words.
pub fn notice(n: &crate::state::AppNotice, locale: Locale) -> String {
    use crate::state::AppNotice;
    let m = match n {
        AppNotice::SettingsSetAside { detail, aside } => Message::new("notice-settings-set-aside")
            .with("detail", detail.clone())
            .with("aside", aside.display().to_string()),
        AppNotice::SettingsNotSetAside { detail, why } => {
            Message::new("notice-settings-not-set-aside")
                .with("detail", detail.clone())
                .with("why", why.clone())
        }
        AppNotice::SettingsUnreadable { detail } => {
            Message::new("notice-settings-unreadable").with("detail", detail.clone())
        }
        AppNotice::UnresolvedElsewhere { count } => {
            Message::new("unresolved-other-accounts").with("count", count.to_string())
        }
        AppNotice::SampleNotKept { detail } => {
            Message::new("notice-sample-not-kept").with("detail", detail.clone())
        }
    };
    m.render(locale)
}

/// Why a plan's run was skipped, in words.
pub fn skip_reason(why: &nordlys_core::plans::SkipReason, figures: Figures) -> String {
    use nordlys_core::plans::SkipReason;
    let m = match why {
        SkipReason::AboveCap { ask, cap } => Message::new("plan-skip-above-cap")
            .with("ask", figures.price(*ask))
            .with("cap", figures.price(*cap)),
        SkipReason::RungAtZero { ask } => {
            Message::new("plan-skip-rung-at-zero").with("ask", figures.price(*ask))
        }
        SkipReason::Legacy(words) => return words.clone(),
    };
    m.render(figures.locale)
}

/// Where an outcome not known yet is being looked for, and what the last look saw, in words:
/// amounts formatted (and hidden) as every amount is, accounts by their names (`name`).
pub fn why_unknown(w: &WhyUnknown, figures: Figures, name: &dyn Fn(&str) -> String) -> Message {
    match w {
        WhyUnknown::InFlight => Message::new("unknown-in-flight"),
        WhyUnknown::Queued => Message::new("unknown-queued"),
        WhyUnknown::OtherExchange { base_url } => {
            Message::new("unknown-other-exchange").with("url", base_url.clone())
        }
        WhyUnknown::OtherAccounts => Message::new("unknown-other-accounts"),
        WhyUnknown::Doubt(d) => Message::new("unknown-doubt").nest("why", doubt(d, figures, name)),
    }
}

/// What a step of a check read, in words.
pub fn read(r: &Read, locale: Locale) -> String {
    let key = match r {
        Read::Accounts => "read-accounts",
        Read::Fiat => "read-fiat",
        Read::OpenOrders => "read-open-orders",
        Read::Rows => "read-rows",
        Read::PlaceOrder => "read-place-order",
        Read::SendWithdrawal => "read-send-withdrawal",
        Read::Verdict => "read-verdict",
        Read::User => "read-user",
        Read::Queue => "read-queue",
        Read::Other(name) => return name.clone(),
    };
    say(key, locale)
}

/// What a step of a check saw, in words: amounts formatted (and hidden) as every amount is,
/// accounts by their names. Words an older version kept are shown as they were, hidden whole
/// in privacy mode when their read stated balances.
pub fn seen(r: &Read, s: &Seen, figures: Figures, name: &dyn Fn(&str) -> String) -> String {
    let locale = figures.locale;
    let message = match s {
        Seen::Balances { accounts } => {
            return accounts
                .iter()
                .map(|a| {
                    Message::new("seen-account")
                        .with("account", name(&a.id))
                        .with("available", figures.btc(a.available))
                        .with("total", figures.btc(a.total))
                        .render(locale)
                })
                .collect::<Vec<_>>()
                .join("; ");
        }
        Seen::Fiat { available } => {
            Message::new("seen-fiat").with("amount", figures.nok(*available))
        }
        Seen::OpenOrders { count } => {
            Message::new("seen-open-orders").with("count", count.to_string())
        }
        Seen::Rows {
            count,
            incomplete: None,
        } => Message::new("seen-rows").with("count", count.to_string()),
        Seen::Rows {
            count,
            incomplete: Some(error),
        } => Message::new("seen-rows-incomplete")
            .with("count", count.to_string())
            .with("error", error.clone()),
        Seen::Failed { error } => Message::new("seen-failed").with("error", error.clone()),
        Seen::Answered { error } => Message::new("seen-answered").with("error", error.clone()),
        Seen::Made { ids } => Message::new("seen-made").with("ids", ids.join(", ")),
        Seen::NotMade { quiet_minutes } => {
            Message::new("seen-not-made").with("minutes", quiet_minutes.to_string())
        }
        Seen::Unknown { doubt: d } => {
            Message::new("seen-unknown").nest("why", doubt(d, figures, name))
        }
        Seen::UserNotMade { order: true } => Message::new("seen-user-not-placed"),
        Seen::UserNotMade { order: false } => Message::new("seen-user-not-sent"),
        Seen::UserPlaced { open_as: Some(id) } => {
            Message::new("seen-user-placed-open").with("order", id.clone())
        }
        Seen::UserPlaced { open_as: None } => Message::new("seen-user-placed-closed"),
        Seen::NeverSent => Message::new("seen-never-sent"),
        Seen::Legacy { text } => {
            let states_balances = matches!(r, Read::Accounts | Read::Fiat);
            return if figures.hidden && states_balances {
                format::MASK.to_owned()
            } else {
                text.clone()
            };
        }
    };
    message.render(locale)
}

fn doubt(d: &Doubt, figures: Figures, name: &dyn Fn(&str) -> String) -> Message {
    let btc = |b: nordlys_money::Btc| figures.btc(b);
    match d {
        Doubt::Moved(Move::AvailableNok { by }) => {
            Message::new("doubt-moved-nok").with("amount", figures.nok(*by))
        }
        Doubt::Moved(Move::AvailableBtc { account, by }) => Message::new("doubt-moved-available")
            .with("account", name(account))
            .with("amount", btc(*by)),
        Doubt::Moved(Move::TotalBtc { account, by }) => Message::new("doubt-moved-total")
            .with("account", name(account))
            .with("amount", btc(*by)),
        Doubt::SharedMatch => Message::new("doubt-shared-match"),
        Doubt::InFlight => Message::new("doubt-in-flight"),
        Doubt::TooSoon { minutes } => {
            Message::new("doubt-too-soon").with("minutes", minutes.to_string())
        }
        Doubt::MovedBefore => Message::new("doubt-moved-before"),
        Doubt::LimitLeavesNoTrace => Message::new("doubt-limit-no-trace"),
        Doubt::FillsDoNotAddUp => Message::new("doubt-fills"),
        Doubt::ReadFailed => Message::new("doubt-read-failed"),
        Doubt::NoBalancesBefore => Message::new("doubt-no-balances-before"),
        Doubt::HeldBack { held, open_sells } => Message::new("doubt-held-back")
            .with("held", btc(*held))
            .with("sells", btc(*open_sells)),
        Doubt::RowDisagrees {
            account,
            holds,
            row_says,
        } => Message::new("doubt-row-disagrees")
            .with("account", name(account))
            .with("holds", btc(*holds))
            .with("says", btc(*row_says)),
        Doubt::ChangedWithoutRow { account } => {
            Message::new("doubt-changed-without-row").with("account", name(account))
        }
        Doubt::Unaccounted {
            account,
            was,
            holds,
        } => Message::new("doubt-unaccounted")
            .with("account", name(account))
            .with("was", btc(*was))
            .with("holds", btc(*holds)),
    }
}

/// What a gains report rests on or leaves out.
pub fn gains_note(n: &GainsNote, locale: Locale) -> String {
    let m = match n {
        GainsNote::MatchedBy(method) => {
            Message::new("gains-matched-by").with("method", method_name(*method, locale))
        }
        GainsNote::DepositsAtMarket(count) => {
            Message::new("gains-deposits-at-market").with("count", count.to_string())
        }
        GainsNote::MovedOut(count) => {
            Message::new("gains-moved-out").with("count", count.to_string())
        }
        GainsNote::SoldMoreThanBought(count) => {
            Message::new("gains-sold-more").with("count", count.to_string())
        }
        GainsNote::Unpriced(ids) => Message::new("gains-unpriced").with("ids", ids.join(", ")),
        GainsNote::UnknownType { kind, count } => Message::new("gains-unknown-type")
            .with("kind", kind.clone())
            .with("count", count.to_string()),
    };
    m.render(locale)
}

/// Where a year-end rate comes from; the day is Oslo's, as the tax year is.
pub fn rate_source(s: &RateSource, locale: Locale) -> String {
    match s {
        // The transaction's id is for the rows behind the figure, not for these words.
        RateSource::Transaction { at, .. } => Message::new("rate-source-transaction")
            .with("date", format::date(oslo_date(at), locale))
            .render(locale),
        RateSource::Entered => say("rate-source-entered", locale),
        RateSource::EnteredViaUsd {
            usd_per_btc,
            nok_per_usd,
        } => Message::new("rate-source-entered-usd")
            .with("usd", usd_per_btc.normalize().to_string())
            .with("nok", nok_per_usd.normalize().to_string())
            .render(locale),
        RateSource::Sample { at } => Message::new("rate-source-sample")
            .with(
                "time",
                format::time(at, nordlys_core::time::Tz::UTC, locale),
            )
            .render(locale),
        RateSource::Missing => say("rate-source-missing", locale),
    }
}

/// A warning on the order form.
pub fn order_warning(w: &OrderWarning, figures: Figures) -> String {
    match w {
        OrderWarning::FarFromMarket { mid } => Message::new("order-far-from-market")
            .with("mid", figures.price(*mid))
            .render(figures.locale),
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::panic,
        reason = "tests: a failed step is the failure"
    )]
    use nordlys_money::{Amount, Btc, Nok, NokPerBtc};
    use rust_decimal::Decimal;

    use super::*;

    /// Figures shown, as outside privacy mode.
    fn shown(locale: Locale, unit: BtcUnit) -> Figures {
        Figures {
            locale,
            unit,
            hidden: false,
        }
    }

    /// Found in the issue on facts and words: an unknown order's reason was English prose from
    /// the domain inside the Norwegian sentence, with raw decimals and account ids. Each reason
    /// now reads in either language, amounts formatted for it and hidden in privacy mode, and
    /// accounts by name.
    #[test]
    fn every_reason_an_outcome_is_unknown_reads_in_both_languages_and_hides_its_amounts() {
        let btc = |s: &str| Btc::computed(s.parse().unwrap());
        let account = || "acc_1".to_owned();
        let doubts = [
            Doubt::Moved(Move::AvailableNok {
                by: Nok::computed(Decimal::new(150_050, 2)),
            }),
            Doubt::Moved(Move::AvailableBtc {
                account: account(),
                by: btc("0.0012"),
            }),
            Doubt::Moved(Move::TotalBtc {
                account: account(),
                by: btc("0.0012"),
            }),
            Doubt::SharedMatch,
            Doubt::InFlight,
            Doubt::TooSoon { minutes: 10 },
            Doubt::MovedBefore,
            Doubt::LimitLeavesNoTrace,
            Doubt::FillsDoNotAddUp,
            Doubt::ReadFailed,
            Doubt::NoBalancesBefore,
            Doubt::HeldBack {
                held: btc("0.2"),
                open_sells: btc("0.1"),
            },
            Doubt::RowDisagrees {
                account: account(),
                holds: btc("0.3"),
                row_says: btc("0.4"),
            },
            Doubt::ChangedWithoutRow { account: account() },
            Doubt::Unaccounted {
                account: account(),
                was: btc("0.3"),
                holds: btc("0.5"),
            },
        ];
        let whys = [
            WhyUnknown::InFlight,
            WhyUnknown::Queued,
            WhyUnknown::OtherExchange {
                base_url: "https://api.example".into(),
            },
            WhyUnknown::OtherAccounts,
        ]
        .into_iter()
        .chain(doubts.into_iter().map(WhyUnknown::Doubt));
        let name = |id: &str| {
            if id == "acc_1" {
                "Sparing".to_owned()
            } else {
                id.to_owned()
            }
        };
        for why in whys {
            let say = |locale, hidden| {
                Message::new("order-unknown")
                    .nest(
                        "what",
                        why_unknown(
                            &why,
                            Figures {
                                hidden,
                                ..shown(locale, BtcUnit::Btc)
                            },
                            &name,
                        ),
                    )
                    .render(locale)
            };
            let (en, nb) = (say(Locale::En, false), say(Locale::Nb, false));
            for text in [&en, &nb] {
                assert!(
                    !text.contains('{') && !text.contains("acc_1"),
                    "{why:?}: {text}"
                );
            }
            assert_ne!(en, nb, "{why:?}");
            // No English phrase of the domain's log inside the Norwegian sentence.
            assert!(!nb.contains(&why.to_string()), "{why:?}: {nb}");
            for locale in [Locale::En, Locale::Nb] {
                let hidden = say(locale, true);
                let amounts = ["1,500.50", "1 500,50", "0.0012", "0,0012", "0.2", "0,2"];
                assert!(
                    amounts.iter().all(|a| !hidden.contains(a)),
                    "{why:?} shows an amount in privacy mode: {hidden}"
                );
            }
        }
        // The minutes of waiting are said in words, never as "silence counts".
        let nb = why_unknown(
            &WhyUnknown::Doubt(Doubt::TooSoon { minutes: 10 }),
            shown(Locale::Nb, BtcUnit::Btc),
            &name,
        )
        .render(Locale::Nb);
        assert!(nb.contains("10 minutter"), "{nb}");
    }

    /// Every step of a check on the In doubt screen reads in both languages, amounts formatted
    /// for the language and hidden in privacy mode, accounts by name, never the journal's English.
    #[test]
    fn every_step_of_a_check_reads_in_both_languages_and_hides_its_amounts() {
        use nordlys_core::seen::AccountSeen;
        let btc = |s: &str| Btc::computed(s.parse().unwrap());
        let steps = [
            (
                Read::Accounts,
                Seen::Balances {
                    accounts: vec![AccountSeen {
                        id: "acc_1".into(),
                        available: btc("0.0012"),
                        total: btc("0.2"),
                    }],
                },
            ),
            (
                Read::Fiat,
                Seen::Fiat {
                    available: Nok::computed(Decimal::new(150_050, 2)),
                },
            ),
            (Read::OpenOrders, Seen::OpenOrders { count: 3 }),
            (
                Read::Rows,
                Seen::Rows {
                    count: 4,
                    incomplete: None,
                },
            ),
            (
                Read::Rows,
                Seen::Rows {
                    count: 4,
                    incomplete: Some("HTTP 502".into()),
                },
            ),
            (
                Read::OpenOrders,
                Seen::Failed {
                    error: "HTTP 502".into(),
                },
            ),
            (
                Read::PlaceOrder,
                Seen::Answered {
                    error: "HTTP 400".into(),
                },
            ),
            (
                Read::Verdict,
                Seen::Made {
                    ids: vec!["or_1".into()],
                },
            ),
            (Read::Verdict, Seen::NotMade { quiet_minutes: 12 }),
            (
                Read::Verdict,
                Seen::Unknown {
                    doubt: Doubt::HeldBack {
                        held: btc("0.2"),
                        open_sells: btc("0.0012"),
                    },
                },
            ),
            (Read::User, Seen::UserNotMade { order: true }),
            (Read::User, Seen::UserNotMade { order: false }),
            (
                Read::User,
                Seen::UserPlaced {
                    open_as: Some("or_1".into()),
                },
            ),
            (Read::User, Seen::UserPlaced { open_as: None }),
            (Read::Queue, Seen::NeverSent),
        ];
        let name = |id: &str| {
            if id == "acc_1" {
                "Sparing".to_owned()
            } else {
                id.to_owned()
            }
        };
        for (r, step) in &steps {
            let say = |locale, hidden| {
                let figures = Figures {
                    hidden,
                    ..shown(locale, BtcUnit::Btc)
                };
                (read(r, locale), seen(r, step, figures, &name))
            };
            let (en, nb) = (say(Locale::En, false), say(Locale::Nb, false));
            for (what, saw) in [&en, &nb] {
                assert!(
                    !what.contains("GET") && !what.contains("POST"),
                    "{r:?}: {what}"
                );
                assert!(
                    !saw.contains('{') && !saw.contains("acc_1"),
                    "{step:?}: {saw}"
                );
            }
            assert_ne!(en, nb, "{step:?}");
            assert_ne!(
                nb.1,
                step.to_string(),
                "{step:?} reads as the journal's English"
            );
            for locale in [Locale::En, Locale::Nb] {
                let (_, hidden) = say(locale, true);
                let amounts = ["1,500.50", "1 500,50", "0.0012", "0,0012", "0.2", "0,2"];
                assert!(
                    amounts.iter().all(|a| !hidden.contains(a)),
                    "{step:?} shows an amount in privacy mode: {hidden}"
                );
            }
        }
        // Words an older version kept are shown as they were, and hidden whole when they
        // stated balances.
        let old = Seen::Legacy {
            text: "acc_1 available 0.1 total 0.2".into(),
        };
        let hidden = Figures {
            hidden: true,
            ..shown(Locale::Nb, BtcUnit::Btc)
        };
        assert_eq!(seen(&Read::Accounts, &old, hidden, &name), format::MASK);
        assert_eq!(
            seen(
                &Read::Accounts,
                &old,
                shown(Locale::Nb, BtcUnit::Btc),
                &name
            ),
            "acc_1 available 0.1 total 0.2"
        );
    }

    /// A plan's skipped run said in the user's language with prices formatted for it, never the
    /// domain's English.
    #[test]
    fn a_skipped_run_reads_in_both_languages() {
        use nordlys_core::plans::SkipReason;
        let price = |n: i64| NokPerBtc::computed(Decimal::from(n));
        let why = SkipReason::AboveCap {
            ask: price(1_010_000),
            cap: price(1_000_000),
        };
        let nb = skip_reason(&why, shown(Locale::Nb, BtcUnit::Btc));
        let en = skip_reason(&why, shown(Locale::En, BtcUnit::Btc));
        assert!(
            nb.starts_with("Hoppet over") && nb.contains("1\u{a0}010\u{a0}000"),
            "{nb}"
        );
        assert!(
            en.starts_with("Skipped") && en.contains("1,010,000"),
            "{en}"
        );
        // Words an earlier version kept are shown as they are.
        let old = SkipReason::Legacy("the ask was above the cap".into());
        assert_eq!(
            skip_reason(&old, shown(Locale::Nb, BtcUnit::Btc)),
            "the ask was above the cap"
        );
    }

    /// Every problem the forms can return, one of each kind, with data.
    fn every_problem(locale: Locale) -> Vec<(String, String)> {
        let inputs = [
            AmountInputError::Empty,
            AmountInputError::NotANumber("12x".into()),
            AmountInputError::Negative,
            AmountInputError::Zero,
            AmountInputError::TooManyDecimals {
                unit: "BTC",
                max: 8,
            },
            AmountInputError::Ambiguous("1.234,5".into()),
            AmountInputError::FractionalSats,
            AmountInputError::TooLarge {
                unit: "BTC",
                max: Decimal::from(21_000_000),
            },
        ];
        let amounts = inputs.into_iter().map(AmountProblem::Input).chain([
            AmountProblem::AboveAvailable {
                available: Amount::Nok(Nok::computed(Decimal::new(1250, 2))),
            },
            AmountProblem::AboveAvailable {
                available: Amount::Btc(Btc::from_sats(1_500_000)),
            },
            AmountProblem::BelowOneSat,
            AmountProblem::NoPrice,
            AmountProblem::NoLimitPrice,
            AmountProblem::ZeroPrice,
        ]);
        let destinations = [
            DestinationError::Empty,
            DestinationError::BadChecksum,
            DestinationError::WrongNetwork("testnet"),
            DestinationError::BadInvoice("bad checksum".into()),
            DestinationError::InvoiceNetwork("signet"),
            DestinationError::Expired,
            DestinationError::AbsurdExpiry(99_999_999),
            DestinationError::BadLnurl("bad checksum".into()),
            DestinationError::BadLightningAddress("kari@".into()),
            DestinationError::BadUri("no address".into()),
            DestinationError::Unknown,
            DestinationError::OwnInvoice,
            DestinationError::AlreadyPaid,
        ];
        let recipients = [
            RecipientProblem::NameMissing,
            RecipientProblem::OrganisationNameMissing,
            RecipientProblem::AddressMissing,
            RecipientProblem::NotACountry("XX".into()),
            RecipientProblem::OrganisationNumberDigits,
            RecipientProblem::NationalIdDigits,
        ];
        let mut out: Vec<(String, String)> = amounts
            .map(|p| {
                (
                    format!("{p:?}"),
                    amount_problem(&p, shown(locale, BtcUnit::Btc)),
                )
            })
            .collect();
        out.extend(
            destinations
                .iter()
                .map(|e| (format!("{e:?}"), destination_problem(e, locale))),
        );
        out.extend(
            recipients
                .iter()
                .map(|p| (format!("{p:?}"), recipient_problem(p, locale))),
        );
        let far = OrderWarning::FarFromMarket {
            mid: NokPerBtc::computed(Decimal::from(1_000_000)),
        };
        out.push((
            format!("{far:?}"),
            order_warning(&far, shown(locale, BtcUnit::Btc)),
        ));
        out
    }

    /// Why a created invoice is not shown, in both languages, with its amounts in the unit
    /// the user reads.
    #[test]
    fn a_created_invoice_that_is_not_the_one_asked_for_says_why_in_both_languages() {
        let errors = [
            CreatedInvoiceError::Amount {
                asked: Btc::from_sats(12_500),
                got: Btc::from_sats(12_000),
            },
            CreatedInvoiceError::NoAmount {
                asked: Amount::Nok(Nok::computed(Decimal::from(100))),
            },
            CreatedInvoiceError::Unasked {
                got: Btc::from_sats(1),
            },
            CreatedInvoiceError::Description,
        ];
        for e in &errors {
            let en = created_invoice_problem(e, shown(Locale::En, BtcUnit::Sats));
            let nb = created_invoice_problem(e, shown(Locale::Nb, BtcUnit::Sats));
            assert!(en != nb && !en.contains("created-invoice"), "{en} / {nb}");
        }
        assert_eq!(
            created_invoice_problem(&errors[0], shown(Locale::Nb, BtcUnit::Sats)),
            "Børsens faktura gjelder 12\u{a0}000\u{a0}sats, ikke de 12\u{a0}500\u{a0}sats som ble bedt om; den vises ikke."
        );
    }

    /// Every note a gains report can carry and every source of a year-end rate, in both
    /// languages; the English reads as the report did before it had a catalog.
    #[test]
    fn the_tax_reports_notes_and_rate_sources_read_in_both_languages() {
        let notes = [
            GainsNote::MatchedBy(Method::Fifo),
            GainsNote::MatchedBy(Method::AverageCost),
            GainsNote::DepositsAtMarket(2),
            GainsNote::MovedOut(1),
            GainsNote::SoldMoreThanBought(1),
            GainsNote::Unpriced(vec!["tr_1".into(), "tr_2".into()]),
            GainsNote::UnknownType {
                kind: "staking".into(),
                count: 3,
            },
        ];
        // A new note must be listed above: this match stops compiling without it.
        let listed = |n: &GainsNote| match n {
            GainsNote::MatchedBy(_)
            | GainsNote::DepositsAtMarket(_)
            | GainsNote::MovedOut(_)
            | GainsNote::SoldMoreThanBought(_)
            | GainsNote::Unpriced(_)
            | GainsNote::UnknownType { .. } => true,
        };
        let at = "2024-12-31T23:30:00Z".parse().unwrap();
        let sources = [
            RateSource::Transaction {
                id: "tr_9".into(),
                at,
            },
            RateSource::Entered,
            RateSource::EnteredViaUsd {
                usd_per_btc: "93429.2".parse().unwrap(),
                nok_per_usd: "11.3521".parse().unwrap(),
            },
            RateSource::Sample { at },
            RateSource::Missing,
        ];
        let mut words: Vec<(String, String)> = notes
            .iter()
            .filter(|n| listed(n))
            .map(|n| (gains_note(n, Locale::En), gains_note(n, Locale::Nb)))
            .collect();
        words.extend(
            sources
                .iter()
                .map(|s| (rate_source(s, Locale::En), rate_source(s, Locale::Nb))),
        );
        for (en, nb) in &words {
            assert!(
                en.contains(' ') && nb.contains(' ') && en != nb,
                "{en} / {nb}"
            );
        }
        assert_eq!(words[0].0, "Lots matched by FIFO (first in, first out).");
        assert_eq!(words[1].0, "Lots matched by average cost.");
        assert_eq!(words[5].0, "No market rate on tr_1, tr_2: valued at zero.");
        // The last day of 2024 in Oslo, where 23:30 UTC is already 2025.
        assert_eq!(
            words[7].0,
            "the market rate of your last transaction, on 2025-01-01"
        );
        assert_eq!(
            words[7].1,
            "markedskursen for din siste transaksjon, den 01.01.2025"
        );
        assert_eq!(
            words[9].0,
            "Skatteetaten's rates, entered by you: 93429.2 USD per BTC × 11.3521 NOK per USD"
        );
        assert_eq!(
            words[10].1,
            "Nordlys' egen kursmåling 31.12.2024 23:30 UTC (midtkurs)"
        );
        assert_eq!(words[11].0, "no rate: enter one");
    }

    /// A new variant must be added to `every_problem`: these matches stop compiling without it.
    #[test]
    fn every_problem_lists_each_kind() {
        let counted = every_problem(Locale::En).len();
        let kinds = |p: &AmountProblem| match p {
            AmountProblem::Input(e) => match e {
                AmountInputError::Empty
                | AmountInputError::NotANumber(_)
                | AmountInputError::Negative
                | AmountInputError::Zero
                | AmountInputError::TooManyDecimals { .. }
                | AmountInputError::Ambiguous(_)
                | AmountInputError::FractionalSats
                | AmountInputError::TooLarge { .. } => 8,
            },
            // AboveAvailable is listed in both units.
            AmountProblem::AboveAvailable { .. }
            | AmountProblem::BelowOneSat
            | AmountProblem::NoPrice
            | AmountProblem::NoLimitPrice
            | AmountProblem::ZeroPrice => 6,
        };
        let destinations = |e: &DestinationError| match e {
            DestinationError::Empty
            | DestinationError::BadChecksum
            | DestinationError::WrongNetwork(_)
            | DestinationError::BadInvoice(_)
            | DestinationError::InvoiceNetwork(_)
            | DestinationError::Expired
            | DestinationError::AbsurdExpiry(_)
            | DestinationError::BadLnurl(_)
            | DestinationError::BadLightningAddress(_)
            | DestinationError::BadUri(_)
            | DestinationError::Unknown
            | DestinationError::OwnInvoice
            | DestinationError::AlreadyPaid => 13,
        };
        let recipients = |p: &RecipientProblem| match p {
            RecipientProblem::NameMissing
            | RecipientProblem::OrganisationNameMissing
            | RecipientProblem::AddressMissing
            | RecipientProblem::NotACountry(_)
            | RecipientProblem::OrganisationNumberDigits
            | RecipientProblem::NationalIdDigits => 6,
        };
        let warnings = |w: &OrderWarning| match w {
            OrderWarning::FarFromMarket { .. } => 1,
        };
        let expected = kinds(&AmountProblem::NoPrice)
            + kinds(&AmountProblem::Input(AmountInputError::Empty))
            + destinations(&DestinationError::Empty)
            + recipients(&RecipientProblem::NameMissing)
            + warnings(&OrderWarning::FarFromMarket {
                mid: NokPerBtc::computed(Decimal::ONE),
            });
        assert_eq!(counted, expected);
    }

    /// Entries whose Norwegian is rightly the English, each with its reason.
    const SAME_IN_BOTH: &[(&str, &str)] = &[
        (
            "duration-minutes",
            "`min` is the abbreviation for minutes in both languages",
        ),
        ("tax-kind-bonus", "Norwegian says bonus too"),
        ("tax-sub-onchain", "on-chain is the word in Norwegian too"),
        ("tax-sub-lightning", "the network's name"),
        ("tax-sub-lightning-lnurl", "the protocol's name"),
        (
            "error-refused",
            "only its two parts, each a message translated on its own",
        ),
        (
            "address-taproot",
            "the name of an address type, not translated",
        ),
        (
            "address-witness",
            "the name of an address type, not translated",
        ),
    ];

    /// The message keys of a catalog's source, in order.
    fn keys(source: &str) -> Vec<&str> {
        source
            .lines()
            .filter_map(|l| l.split_once(" = ").map(|(k, _)| k))
            .filter(|k| !k.starts_with('#') && !k.starts_with(' '))
            .collect()
    }

    /// Every message of the catalogs, outcomes included, rendered in both languages with each
    /// of its values set: none is missing, and none reads the same in both unless listed.
    #[test]
    fn every_message_reads_differently_in_norwegian_and_english() {
        for key in keys(EN) {
            let line = EN
                .lines()
                .find(|l| l.starts_with(&format!("{key} = ")))
                .unwrap();
            let mut m = Message {
                key: Box::leak(key.to_owned().into_boxed_str()),
                args: vec![],
            };
            for name in line
                .split("{ $")
                .skip(1)
                .filter_map(|r| r.split(' ').next())
            {
                m = m.with(Box::leak(name.to_owned().into_boxed_str()), "7");
            }
            let (en, nb) = (m.render(Locale::En), m.render(Locale::Nb));
            for text in [&en, &nb] {
                assert!(text != key && !text.contains('{'), "{key}: {text}");
            }
            let allowed = SAME_IN_BOTH.iter().any(|(k, _)| *k == key);
            assert!(allowed || en != nb, "{key} reads the same in both: {en}");
        }
    }

    #[test]
    fn every_problem_reads_in_norwegian_and_english_and_they_differ() {
        let en = every_problem(Locale::En);
        let nb = every_problem(Locale::Nb);
        for ((what, en), (_, nb)) in en.iter().zip(&nb) {
            for text in [en, nb] {
                // A missing message shows as its key, which has no space.
                assert!(text.contains(' '), "{what} has no message: {text}");
            }
            let allowed = SAME_IN_BOTH.iter().any(|(k, _)| what.starts_with(k));
            assert!(allowed || en != nb, "{what} reads the same in both: {en}");
        }
    }

    #[test]
    fn the_catalogs_parse_and_have_the_same_keys() {
        fn sorted_keys(source: &str) -> Vec<&str> {
            if let Err((_, e)) = FluentResource::try_new(source.to_owned()) {
                panic!("{e:?}");
            }
            let mut keys = keys(source);
            keys.sort_unstable();
            keys
        }
        assert_eq!(sorted_keys(EN), sorted_keys(NB));
    }

    #[test]
    fn a_destination_reads_as_what_it_is_in_both_languages() {
        let now = SystemTime::now();
        let invoice = |amount_btc, seconds| {
            Destination::Invoice(nordlys_core::destination::InvoiceInfo {
                invoice: "lnbc1".into(),
                amount_btc,
                expires_at: now + Duration::from_secs(seconds),
                description: None,
                description_hash: None,
                payee: "02ab".into(),
            })
        };
        let cases = [
            (
                invoice(Some(Btc::from_sats(12_500)), 600),
                "Lightning invoice for 12,500\u{a0}sats, expires in 10 min",
                "Lightning-faktura for 12\u{a0}500\u{a0}sats, utløper om 10 min",
            ),
            (
                invoice(None, 7200),
                "Lightning invoice for any amount, expires in 2 h",
                "Lightning-faktura for valgfritt beløp, utløper om 2 t",
            ),
            (
                // Expired already, and for more bitcoin than exists: words, not a panic.
                invoice(Some(Btc::computed(Decimal::MAX)), 0),
                "",
                "",
            ),
            (
                Destination::Onchain {
                    address: "bc1q".into(),
                    kind: AddressKind::Segwit,
                },
                "Bitcoin address (native segwit), on-chain",
                "Bitcoin-adresse (segwit), on-chain",
            ),
            (
                Destination::LightningAddress {
                    user: "kari".into(),
                    domain: "example.com".into(),
                },
                "Lightning address kari@example.com",
                "Lightning-adresse kari@example.com",
            ),
            (
                Destination::Lnurl {
                    encoded: "lnurl1".into(),
                    url: "https://pay.example.com/x".into(),
                },
                "LNURL payment to pay.example.com",
                "LNURL-betaling til pay.example.com",
            ),
        ];
        for (d, en, nb) in cases {
            let (said_en, said_nb) = (
                destination(&d, now, shown(Locale::En, BtcUnit::Btc)),
                destination(&d, now, shown(Locale::Nb, BtcUnit::Btc)),
            );
            if en.is_empty() {
                assert!(said_en.contains("expires in 0 min"), "{said_en}");
                continue;
            }
            assert_eq!((said_en.as_str(), said_nb.as_str()), (en, nb));
        }
    }

    #[test]
    fn a_problem_carries_its_data_into_the_sentence() {
        let p = AmountProblem::AboveAvailable {
            available: Amount::Nok(Nok::computed(Decimal::new(150050, 2))),
        };
        assert_eq!(
            amount_problem(&p, shown(Locale::Nb, BtcUnit::Btc)),
            "mer enn tilgjengelig (1\u{a0}500,50\u{a0}kr)"
        );
        assert_eq!(
            amount_problem(&p, shown(Locale::En, BtcUnit::Btc)),
            "more than available (NOK\u{a0}1,500.50)"
        );
        assert_eq!(
            recipient_problem(&RecipientProblem::NotACountry("XX".into()), Locale::Nb),
            "«XX» er ikke en landkode (ISO 3166-1, f.eks. NO)"
        );
    }
}
