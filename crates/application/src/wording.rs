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
use nordlys_core::journal::SettleRefusal;
use nordlys_core::order_form::OrderWarning;
use nordlys_core::profile_form::{
    AddressProblem, ClientIdProblem, OperatorProblem, ProfileProblems, ScopeProblem,
};
use nordlys_core::seen::{Read, Seen, Trouble};
use nordlys_core::tax::gains::{GainsNote, Method};
use nordlys_core::tax::year_end::RateSource;
use nordlys_core::time::oslo_date;
use nordlys_core::travel_rule::RecipientProblem;
use nordlys_exchange::BaseUrlError;
use nordlys_money::{Amount, NokPerBtc};

use crate::present::Viewer;

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

/// A message's key in the catalogs. Only [`key`]'s constants, generated from `en.ftl` by the
/// build (which also fails when `nb.ftl` lacks one), make one: a misspelt key does not build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key(&'static str);

impl Key {
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

/// The key of a message that takes no values: the only kind [`Message::new`] takes. A message
/// with values is made from its [`args`] struct, with [`msg!`](crate::msg), so one given too few
/// or too many does not build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bare(Key);

impl Bare {
    pub const fn as_str(self) -> &'static str {
        self.0.0
    }
}

impl From<Bare> for Key {
    fn from(bare: Bare) -> Self {
        bare.0
    }
}

impl PartialEq<Bare> for Key {
    fn eq(&self, other: &Bare) -> bool {
        *self == other.0
    }
}

/// Every message of the catalogs, by its key in upper case (`order-placed` is `ORDER_PLACED`).
pub mod key {
    include!(concat!(env!("OUT_DIR"), "/keys.rs"));
}

/// The values of every message that takes any, one struct per message named as its key, one
/// field per `$variable` of either catalog.
pub mod args {
    include!(concat!(env!("OUT_DIR"), "/args.rs"));
}

/// The message `KEY` given its values by name, as a struct is written:
/// `msg!(ORDER_PLACED { id, amount: btc })`. Each value becomes an [`Arg`] by `From`, or a count
/// where the message picks a plural form by it; a value missing, one the message does not take,
/// or text where a count belongs fails the build.
///
/// ```
/// use nordlys_application::msg;
/// use nordlys_application::wording::key;
/// let m = msg!(DEPOSIT_BODY { amount: "1 BTC", account: "Main" });
/// assert_eq!(m.key(), key::DEPOSIT_BODY);
/// let n: u64 = 2;
/// let _ = msg!(GAINS_NOT_COMPUTABLE_UNKNOWN { count: n });
/// ```
/// A value missing does not build:
/// ```compile_fail,E0063
/// nordlys_application::msg!(DEPOSIT_BODY { amount: "1 BTC" });
/// ```
/// nor one the message does not take:
/// ```compile_fail,E0560
/// nordlys_application::msg!(DEPOSIT_BODY { amount: "1 BTC", account: "Main", fee: "0" });
/// ```
/// nor text where the message picks a plural form:
/// ```compile_fail,E0277
/// nordlys_application::msg!(GAINS_NOT_COMPUTABLE_UNKNOWN { count: "2" });
/// ```
/// nor a message that takes values made without them:
/// ```compile_fail,E0308
/// use nordlys_application::wording::{Message, key};
/// Message::new(key::DEPOSIT_BODY);
/// ```
#[macro_export]
macro_rules! msg {
    ($key:ident { $($name:ident $(: $value:expr)?),* $(,)? }) => {
        $crate::wording::Message::from($crate::wording::args::$key {
            $($name: ::core::convert::Into::into($crate::msg!(@value $name $($value)?))),*
        })
    };
    (@value $name:ident $value:expr) => {
        $value
    };
    (@value $name:ident) => {
        $name
    };
}

/// One message of the catalog: its key and the values it is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    key: Key,
    args: Vec<(&'static str, Arg)>,
}

/// A value of a message: text; a number, an amount or a time, written as the message is written
/// (its language, the user's unit, privacy mode and clock); or another message written the same
/// way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    Text(String),
    /// A count: the catalog picks the language's plural form by it.
    Count(u64),
    /// A number with this many decimals, grouped and pointed as the language writes it.
    Number(rust_decimal::Decimal, u32),
    /// Money, hidden in privacy mode; bitcoin in the user's unit, or in the unit a screen fixes.
    Amount(Amount, Option<BtcUnit>),
    Price(NokPerBtc),
    /// An instant, to the minute, on the user's clock.
    Time(chrono::DateTime<chrono::Utc>),
    Message(Message),
}

impl Arg {
    /// The amount `amount`, bitcoin in `unit` (a screen's own) rather than the user's.
    pub fn amount_in(amount: impl Into<Amount>, unit: BtcUnit) -> Self {
        Self::Amount(amount.into(), Some(unit))
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Self {
        Self::Text(text)
    }
}

impl From<&String> for Arg {
    fn from(text: &String) -> Self {
        Self::Text(text.clone())
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Self {
        Self::Text(text.to_owned())
    }
}

impl From<u64> for Arg {
    fn from(n: u64) -> Self {
        Self::Count(n)
    }
}

impl From<Amount> for Arg {
    fn from(amount: Amount) -> Self {
        Self::Amount(amount, None)
    }
}

impl From<nordlys_money::Btc> for Arg {
    fn from(btc: nordlys_money::Btc) -> Self {
        Self::Amount(btc.into(), None)
    }
}

impl From<nordlys_money::Nok> for Arg {
    fn from(nok: nordlys_money::Nok) -> Self {
        Self::Amount(nok.into(), None)
    }
}

impl Arg {
    /// `d` with every decimal it has and no trailing zeros, pointed as the language writes a
    /// number: a figure the user entered, or a percentage.
    fn as_entered(d: rust_decimal::Decimal) -> Self {
        let d = d.normalize();
        Self::Number(d, d.scale())
    }
}

impl From<nordlys_money::Percent> for Arg {
    fn from(p: nordlys_money::Percent) -> Self {
        Self::as_entered(p.decimal())
    }
}

impl From<nordlys_money::UsdPerBtc> for Arg {
    fn from(rate: nordlys_money::UsdPerBtc) -> Self {
        Self::as_entered(rate.decimal())
    }
}

impl From<nordlys_money::NokPerUsd> for Arg {
    fn from(rate: nordlys_money::NokPerUsd) -> Self {
        Self::as_entered(rate.decimal())
    }
}

impl From<NokPerBtc> for Arg {
    fn from(price: NokPerBtc) -> Self {
        Self::Price(price)
    }
}

impl From<chrono::DateTime<chrono::Utc>> for Arg {
    fn from(at: chrono::DateTime<chrono::Utc>) -> Self {
        Self::Time(at)
    }
}

impl From<Message> for Arg {
    fn from(message: Message) -> Self {
        Self::Message(message)
    }
}

impl Message {
    /// The message of `key`, which takes no values.
    pub fn new(key: Bare) -> Self {
        Self {
            key: key.0,
            args: vec![],
        }
    }

    /// A message with its values, for the generated [`args`] structs alone.
    fn of(key: Key, args: Vec<(&'static str, Arg)>) -> Self {
        Self { key, args }
    }

    /// Which message this is.
    pub fn key(&self) -> Key {
        self.key
    }

    /// Whether this message is `key`'s or holds it among its values: which problem it tells of,
    /// however it is framed.
    pub fn mentions(&self, key: impl Into<Key>) -> bool {
        let key = key.into();
        self.key == key
            || self
                .args
                .iter()
                .any(|(_, arg)| matches!(arg, Arg::Message(m) if m.mentions(key)))
    }

    /// The message in `locale`, its amounts shown in BTC and its times on Oslo's clock: for a
    /// message with neither, and for logs and the CLI. The window's are [`Message::write`]n.
    pub fn render(&self, locale: Locale) -> String {
        self.write(&Viewer::plain(locale))
    }

    /// The message as `viewer` writes it: its language, unit, privacy mode and clock.
    pub fn write(&self, viewer: &Viewer) -> String {
        let locale = viewer.locale();
        let catalog = &*CATALOG;
        let bundle = match locale {
            Locale::En => &catalog.en,
            Locale::Nb => &catalog.nb,
        };
        let Some(pattern) = bundle.get_message(self.key.0).and_then(|m| m.value()) else {
            return self.key.0.to_owned();
        };
        let mut args = FluentArgs::new();
        for (name, value) in &self.args {
            match value {
                Arg::Text(text) => args.set(*name, text.clone()),
                Arg::Count(n) => args.set(*name, *n),
                Arg::Number(n, dp) => args.set(*name, format::number(*n, *dp, locale)),
                Arg::Amount(a, None) => args.set(*name, viewer.figures.amount(*a)),
                Arg::Amount(a, Some(unit)) => args.set(*name, viewer.figures.amount_in(*a, *unit)),
                Arg::Price(p) => args.set(*name, viewer.figures.price(*p)),
                Arg::Time(at) => args.set(*name, viewer.time(at)),
                Arg::Message(m) => args.set(*name, m.write(viewer)),
            }
        }
        let mut errors = vec![];
        bundle
            .format_pattern(pattern, Some(&args), &mut errors)
            .into_owned()
    }
}

/// The message `key`, which takes no values, in `locale`.
pub fn say(key: Bare, locale: Locale) -> String {
    Message::new(key).render(locale)
}

/// What is wrong with an amount or price field, with bitcoin in the unit of `figures` (that of
/// the form).
pub fn amount_problem(p: &AmountProblem, figures: Figures) -> String {
    amount_problem_message(p, Some(figures.unit)).write(&Viewer::of(figures))
}

/// The same, as the catalog's message: bitcoin in `unit` (a form's own), else the user's.
pub fn amount_problem_message(p: &AmountProblem, unit: Option<BtcUnit>) -> Message {
    match p {
        AmountProblem::Input(e) => amount_input(e),
        AmountProblem::AboveAvailable { available } => {
            let available = match unit {
                Some(unit) => Arg::amount_in(*available, unit),
                None => Arg::from(*available),
            };
            msg!(AMOUNT_ABOVE_AVAILABLE { available })
        }
        AmountProblem::BelowOneSat => Message::new(key::AMOUNT_BELOW_ONE_SAT),
        AmountProblem::NoPrice => Message::new(key::AMOUNT_NO_PRICE),
        AmountProblem::NoLimitPrice => Message::new(key::PRICE_MISSING),
        AmountProblem::ZeroPrice => Message::new(key::PRICE_ZERO),
    }
}

/// What is wrong with a typed amount, rate or price, before anything else is known of it.
pub fn amount_input_problem(e: AmountInputError, locale: Locale) -> String {
    amount_input(&e).render(locale)
}

/// What is wrong with a typed amount, as the catalog's message.
pub fn amount_input(e: &AmountInputError) -> Message {
    match e {
        AmountInputError::Empty => Message::new(key::AMOUNT_EMPTY),
        AmountInputError::NotANumber(text) => {
            msg!(AMOUNT_NOT_A_NUMBER {
                text: text.as_str()
            })
        }
        AmountInputError::Negative => Message::new(key::AMOUNT_NEGATIVE),
        AmountInputError::Zero => Message::new(key::AMOUNT_ZERO),
        AmountInputError::TooManyDecimals { unit, max } => {
            msg!(AMOUNT_TOO_MANY_DECIMALS {
                unit: *unit,
                max: max.to_string()
            })
        }
        AmountInputError::Ambiguous(text) => {
            msg!(AMOUNT_AMBIGUOUS {
                text: text.as_str()
            })
        }
        AmountInputError::FractionalSats => Message::new(key::AMOUNT_FRACTIONAL_SATS),
        AmountInputError::TooLarge { unit, max } => msg!(AMOUNT_TOO_LARGE {
            unit: *unit,
            max: Arg::Number(*max, 0)
        }),
    }
}

/// Why an exchange's address is not one Nordlys sends requests to.
pub fn address_problem(e: &BaseUrlError) -> Message {
    match e {
        BaseUrlError::Malformed(text) => {
            msg!(PROFILE_ADDRESS_MALFORMED {
                text: text.as_str()
            })
        }
        BaseUrlError::Scheme(scheme) => {
            msg!(PROFILE_ADDRESS_SCHEME {
                scheme: scheme.as_str()
            })
        }
        BaseUrlError::InsecureRemote(text) => {
            msg!(PROFILE_ADDRESS_INSECURE {
                text: text.as_str()
            })
        }
        BaseUrlError::ExtraParts => Message::new(key::PROFILE_ADDRESS_EXTRA),
        // One the client adds later: said as its own words are.
        other => msg!(PROFILE_ADDRESS_MALFORMED {
            text: other.to_string()
        }),
    }
}

/// What is wrong with each field of the exchange profile form, as the catalog's messages.
pub fn profile_problems(p: &ProfileProblems) -> [Option<Message>; 5] {
    let address = |a: &AddressProblem| match a {
        AddressProblem::Url(e) => address_problem(e),
        AddressProblem::Path(path) => {
            msg!(PROFILE_ADDRESS_PATH {
                path: path.as_str()
            })
        }
    };
    [
        p.base_url.as_ref().map(address),
        p.oauth_base_url.as_ref().map(address),
        p.operator
            .as_ref()
            .map(|OperatorProblem::Malformed| Message::new(key::PROFILE_OPERATOR_MALFORMED)),
        p.client_id
            .as_ref()
            .map(|ClientIdProblem::Spaces| Message::new(key::PROFILE_CLIENT_ID_SPACES)),
        p.scopes.as_ref().map(|s| match s {
            ScopeProblem::None => Message::new(key::PROFILE_SCOPES_NONE),
            ScopeProblem::Unknown(scope) => {
                msg!(PROFILE_SCOPE_UNKNOWN {
                    scope: scope.as_str()
                })
            }
        }),
    ]
}

/// Why a pasted destination cannot be paid.
pub fn destination_problem(e: &DestinationError, locale: Locale) -> String {
    destination_problem_message(e).render(locale)
}

/// The same, as the catalog's message.
pub fn destination_problem_message(e: &DestinationError) -> Message {
    match e {
        DestinationError::Empty => Message::new(key::DESTINATION_EMPTY),
        DestinationError::BadChecksum => Message::new(key::DESTINATION_BAD_CHECKSUM),
        DestinationError::WrongNetwork(network) => {
            msg!(DESTINATION_WRONG_NETWORK { network: *network })
        }
        DestinationError::BadInvoice(detail) => {
            msg!(DESTINATION_BAD_INVOICE {
                detail: detail.as_str()
            })
        }
        DestinationError::InvoiceNetwork(network) => {
            msg!(DESTINATION_INVOICE_NETWORK { network: *network })
        }
        DestinationError::Expired => Message::new(key::DESTINATION_EXPIRED),
        DestinationError::AbsurdExpiry(seconds) => msg!(DESTINATION_ABSURD_EXPIRY {
            seconds: Arg::Number(rust_decimal::Decimal::from(*seconds), 0)
        }),
        DestinationError::BadLnurl(detail) => {
            msg!(DESTINATION_BAD_LNURL {
                detail: detail.as_str()
            })
        }
        DestinationError::BadLightningAddress(text) => {
            msg!(DESTINATION_BAD_LIGHTNING_ADDRESS {
                text: text.as_str()
            })
        }
        DestinationError::BadUri(detail) => {
            msg!(DESTINATION_BAD_URI {
                detail: detail.as_str()
            })
        }
        DestinationError::Unknown => Message::new(key::DESTINATION_UNKNOWN),
        DestinationError::OwnInvoice => Message::new(key::DESTINATION_OWN_INVOICE),
        DestinationError::AlreadyPaid => Message::new(key::DESTINATION_ALREADY_PAID),
    }
}

/// What is missing or wrong in a field of the travel-rule recipient.
pub fn recipient_problem(p: &RecipientProblem, locale: Locale) -> String {
    recipient_problem_message(p).render(locale)
}

/// The same, as the catalog's message.
pub fn recipient_problem_message(p: &RecipientProblem) -> Message {
    match p {
        RecipientProblem::NameMissing => Message::new(key::RECIPIENT_NAME_MISSING),
        RecipientProblem::OrganisationNameMissing => {
            Message::new(key::RECIPIENT_ORGANISATION_NAME_MISSING)
        }
        RecipientProblem::AddressMissing => Message::new(key::RECIPIENT_ADDRESS_MISSING),
        RecipientProblem::NotACountry(code) => {
            msg!(RECIPIENT_NOT_A_COUNTRY {
                code: code.as_str()
            })
        }
        RecipientProblem::OrganisationNumberDigits => {
            Message::new(key::RECIPIENT_ORGANISATION_NUMBER_DIGITS)
        }
        RecipientProblem::NationalIdDigits => Message::new(key::RECIPIENT_NATIONAL_ID_DIGITS),
    }
}

/// A duration a person reads: minutes under an hour, whole hours above.
pub fn duration(seconds: u64, locale: Locale) -> String {
    duration_message(seconds).render(locale)
}

/// A duration in whole hours, or minutes rounded up, as the catalog's message.
pub fn duration_message(seconds: u64) -> Message {
    if seconds >= 3600 {
        msg!(DURATION_HOURS {
            hours: (seconds / 3600).to_string()
        })
    } else {
        msg!(DURATION_MINUTES {
            minutes: seconds.div_ceil(60).to_string()
        })
    }
}

/// What a pasted destination was recognised as ("Lightning invoice for 12 500 sats, expires in
/// 9 min"), as of `now`.
pub fn destination(d: &Destination, now: SystemTime, figures: Figures) -> String {
    let locale = figures.locale;
    let m = match d {
        Destination::Onchain { kind, .. } => {
            let kind = say(
                match kind {
                    AddressKind::Legacy => key::ADDRESS_LEGACY,
                    AddressKind::NestedSegwit => key::ADDRESS_NESTED_SEGWIT,
                    AddressKind::Segwit => key::ADDRESS_SEGWIT,
                    AddressKind::Taproot => key::ADDRESS_TAPROOT,
                    AddressKind::OtherWitness => key::ADDRESS_WITNESS,
                },
                locale,
            );
            msg!(DESTINATION_ONCHAIN { kind: kind })
        }
        Destination::Invoice(i) => {
            let left = i
                .expires_at
                .duration_since(now)
                .unwrap_or(Duration::ZERO)
                .as_secs();
            let amount = i.amount_btc.map_or_else(
                || say(key::INVOICE_ANY_AMOUNT, locale),
                |a| figures.btc_in(a, BtcUnit::Sats),
            );
            msg!(DESTINATION_INVOICE {
                amount: amount,
                expiry: duration(left, locale)
            })
        }
        Destination::LightningAddress { user, domain } => {
            msg!(DESTINATION_LIGHTNING_ADDRESS {
                address: format!("{user}@{domain}")
            })
        }
        Destination::Lnurl { url, .. } => {
            let host = url::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
                .unwrap_or_default();
            msg!(DESTINATION_LNURL { host: host })
        }
    };
    m.render(locale)
}

/// What the sign-in's page in the browser says, in `locale`.
pub fn loopback_pages(locale: Locale) -> nordlys_core::platform::loopback::PageWords {
    use nordlys_core::platform::loopback::Page;
    std::sync::Arc::new(move |page| {
        let (title, text) = match page {
            Page::NotFound => (key::LOOPBACK_NOT_FOUND_TITLE, key::LOOPBACK_NOT_FOUND_TEXT),
            Page::NotThisSignIn => (key::LOOPBACK_NOT_THIS_TITLE, key::LOOPBACK_NOT_THIS_TEXT),
            Page::Connected => (key::LOOPBACK_CONNECTED_TITLE, key::LOOPBACK_CONNECTED_TEXT),
            Page::Declined => (key::LOOPBACK_NOT_CONNECTED, key::LOOPBACK_DECLINED_TEXT),
            Page::Failed => (key::LOOPBACK_NOT_CONNECTED, key::LOOPBACK_FAILED_TEXT),
        };
        (say(title, locale), say(text, locale))
    })
}

/// A step's trouble as a message's `$error`: its kind in the language, or, for an error with no
/// kind, the words it came with.
fn why(error: &str, trouble: Option<&Trouble>) -> Arg {
    match trouble {
        Some(t) => Arg::Message(self::trouble(t)),
        None => Arg::from(error),
    }
}

/// What kind of trouble a read or a request met.
pub fn trouble(t: &Trouble) -> Message {
    match t {
        Trouble::Timeout { seconds } => {
            msg!(TROUBLE_TIMEOUT {
                seconds: seconds.to_string()
            })
        }
        Trouble::Unreachable => Message::new(key::TROUBLE_UNREACHABLE),
        Trouble::ConnectionBroke => Message::new(key::TROUBLE_CONNECTION_BROKE),
        Trouble::AnswerLost => Message::new(key::TROUBLE_ANSWER_LOST),
        Trouble::Status { status, message } => msg!(TROUBLE_STATUS {
            status: status.to_string(),
            message: message.as_str()
        }),
        Trouble::RateLimited => Message::new(key::TROUBLE_RATE_LIMITED),
        Trouble::NotPermitted => Message::new(key::TROUBLE_NOT_PERMITTED),
        Trouble::Unreadable => Message::new(key::TROUBLE_UNREADABLE),
        Trouble::UnreadableRows { count } => {
            msg!(TROUBLE_UNREADABLE_ROWS { count: *count })
        }
    }
}

/// Why the entry on screen cannot be settled as not made.
pub fn settle_refusal(why: SettleRefusal) -> Message {
    match why {
        SettleRefusal::Placed => Message::new(key::SETTLE_REFUSED_PLACED),
        SettleRefusal::Sent => Message::new(key::SETTLE_REFUSED_SENT),
        SettleRefusal::AlreadySettled(_) => Message::new(key::SETTLE_REFUSED_SETTLED),
        SettleRefusal::SettledMeanwhile => Message::new(key::SETTLE_REFUSED_MEANWHILE),
        SettleRefusal::InFlight { minutes } => {
            msg!(SETTLE_REFUSED_IN_FLIGHT {
                minutes: minutes.to_string()
            })
        }
        SettleRefusal::NotListed(order) => {
            msg!(SETTLE_REFUSED_NOT_LISTED { order: order })
        }
        SettleRefusal::NotThisOrder(order) => {
            msg!(SETTLE_REFUSED_NOT_THIS_ORDER { order: order })
        }
        SettleRefusal::Claimed { order, .. } => {
            msg!(SETTLE_REFUSED_CLAIMED { order: order })
        }
    }
}

/// Why an invoice the exchange created is not shown: it is not the one asked for.
pub fn created_invoice_problem(e: &CreatedInvoiceError) -> Message {
    match e {
        CreatedInvoiceError::Amount { asked, got } => msg!(CREATED_INVOICE_AMOUNT {
            asked: *asked,
            got: *got
        }),
        CreatedInvoiceError::NoAmount { asked } => {
            msg!(CREATED_INVOICE_NO_AMOUNT { asked: *asked })
        }
        CreatedInvoiceError::Unasked { got } => {
            msg!(CREATED_INVOICE_UNASKED { got: *got })
        }
        CreatedInvoiceError::Description => Message::new(key::CREATED_INVOICE_DESCRIPTION),
        _ => Message::new(key::CREATED_INVOICE_OTHER),
    }
}

/// A gains matching method, as the report names it.
pub fn method_name(m: Method, locale: Locale) -> String {
    say(
        match m {
            Method::Fifo => key::GAINS_METHOD_FIFO,
            Method::AverageCost => key::GAINS_METHOD_AVERAGE,
        },
        locale,
    )
}

/// A notice no screen asked for, in words.
pub fn notice(n: &crate::state::AppNotice, locale: Locale) -> String {
    use crate::state::AppNotice;
    let m = match n {
        AppNotice::SettingsSetAside { detail, aside } => {
            msg!(NOTICE_SETTINGS_SET_ASIDE {
                detail: detail.clone(),
                aside: aside.display().to_string()
            })
        }
        AppNotice::SettingsNotSetAside { detail, why } => {
            msg!(NOTICE_SETTINGS_NOT_SET_ASIDE {
                detail: detail.clone(),
                why: why.clone()
            })
        }
        AppNotice::SettingsUnreadable { detail } => {
            msg!(NOTICE_SETTINGS_UNREADABLE {
                detail: detail.clone()
            })
        }
        AppNotice::UnresolvedElsewhere { count } => {
            msg!(UNRESOLVED_OTHER_ACCOUNTS {
                count: count.to_string()
            })
        }
        AppNotice::SampleNotKept { detail } => {
            msg!(NOTICE_SAMPLE_NOT_KEPT {
                detail: detail.clone()
            })
        }
    };
    m.render(locale)
}

/// Why a plan's run was skipped, in words.
pub fn skip_reason(why: &nordlys_core::plans::SkipReason, figures: Figures) -> String {
    use nordlys_core::plans::SkipReason;
    let m = match why {
        SkipReason::AboveCap { ask, cap } => msg!(PLAN_SKIP_ABOVE_CAP {
            ask: figures.price(*ask),
            cap: figures.price(*cap)
        }),
        SkipReason::RungAtZero { ask } => {
            msg!(PLAN_SKIP_RUNG_AT_ZERO {
                ask: figures.price(*ask)
            })
        }
        SkipReason::Legacy(words) => return words.clone(),
    };
    m.render(figures.locale)
}

/// Where an outcome not known yet is being looked for, and what the last look saw, in words:
/// amounts formatted (and hidden) as every amount is, accounts by their names (`name`).
pub fn why_unknown(w: &WhyUnknown, figures: Figures, name: &dyn Fn(&str) -> String) -> Message {
    match w {
        WhyUnknown::InFlight => Message::new(key::UNKNOWN_IN_FLIGHT),
        WhyUnknown::Queued => Message::new(key::UNKNOWN_QUEUED),
        WhyUnknown::OtherExchange { base_url } => {
            msg!(UNKNOWN_OTHER_EXCHANGE {
                url: base_url.clone()
            })
        }
        WhyUnknown::OtherAccounts => Message::new(key::UNKNOWN_OTHER_ACCOUNTS),
        WhyUnknown::Doubt(d) => {
            msg!(UNKNOWN_DOUBT {
                why: doubt(d, figures, name)
            })
        }
    }
}

/// What a step of a check read, in words.
pub fn read(r: &Read, locale: Locale) -> String {
    let key = match r {
        Read::Accounts => key::READ_ACCOUNTS,
        Read::Fiat => key::READ_FIAT,
        Read::OpenOrders => key::READ_OPEN_ORDERS,
        Read::Rows => key::READ_ROWS,
        Read::PlaceOrder => key::READ_PLACE_ORDER,
        Read::SendWithdrawal => key::READ_SEND_WITHDRAWAL,
        Read::Verdict => key::READ_VERDICT,
        Read::User => key::READ_USER,
        Read::Queue => key::READ_QUEUE,
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
                    msg!(SEEN_ACCOUNT {
                        account: name(&a.id),
                        available: figures.btc(a.available),
                        total: figures.btc(a.total)
                    })
                    .render(locale)
                })
                .collect::<Vec<_>>()
                .join("; ");
        }
        Seen::Fiat { available } => {
            msg!(SEEN_FIAT {
                amount: figures.nok(*available)
            })
        }
        Seen::OpenOrders { count } => {
            msg!(SEEN_OPEN_ORDERS {
                count: count.to_string()
            })
        }
        Seen::Rows {
            count,
            incomplete: None,
            ..
        } => msg!(SEEN_ROWS {
            count: count.to_string()
        }),
        Seen::Rows {
            count,
            incomplete: Some(error),
            trouble,
        } => msg!(SEEN_ROWS_INCOMPLETE {
            count: count.to_string(),
            error: why(error, trouble.as_ref())
        }),
        Seen::Failed { error, trouble } => msg!(SEEN_FAILED {
            error: why(error, trouble.as_ref())
        }),
        Seen::Answered { error, trouble } => msg!(SEEN_ANSWERED {
            error: why(error, trouble.as_ref())
        }),
        Seen::Made { ids } => msg!(SEEN_MADE {
            ids: ids.join(", ")
        }),
        Seen::NotMade { quiet_minutes } => {
            msg!(SEEN_NOT_MADE {
                minutes: quiet_minutes.to_string()
            })
        }
        Seen::Unknown { doubt: d } => {
            msg!(SEEN_UNKNOWN {
                why: doubt(d, figures, name)
            })
        }
        Seen::UserNotMade { order: true } => Message::new(key::SEEN_USER_NOT_PLACED),
        Seen::UserNotMade { order: false } => Message::new(key::SEEN_USER_NOT_SENT),
        Seen::UserPlaced { open_as: Some(id) } => {
            msg!(SEEN_USER_PLACED_OPEN { order: id.clone() })
        }
        Seen::UserPlaced { open_as: None } => Message::new(key::SEEN_USER_PLACED_CLOSED),
        Seen::NeverSent => Message::new(key::SEEN_NEVER_SENT),
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
            msg!(DOUBT_MOVED_NOK {
                amount: figures.nok(*by)
            })
        }
        Doubt::Moved(Move::AvailableBtc { account, by }) => {
            msg!(DOUBT_MOVED_AVAILABLE {
                account: name(account),
                amount: btc(*by)
            })
        }
        Doubt::Moved(Move::TotalBtc { account, by }) => msg!(DOUBT_MOVED_TOTAL {
            account: name(account),
            amount: btc(*by)
        }),
        Doubt::SharedMatch => Message::new(key::DOUBT_SHARED_MATCH),
        Doubt::InFlight => Message::new(key::DOUBT_IN_FLIGHT),
        Doubt::TooSoon { minutes } => {
            msg!(DOUBT_TOO_SOON {
                minutes: minutes.to_string()
            })
        }
        Doubt::MovedBefore => Message::new(key::DOUBT_MOVED_BEFORE),
        Doubt::LimitLeavesNoTrace => Message::new(key::DOUBT_LIMIT_NO_TRACE),
        Doubt::FillsDoNotAddUp => Message::new(key::DOUBT_FILLS),
        Doubt::ReadFailed => Message::new(key::DOUBT_READ_FAILED),
        Doubt::TooLarge => Message::new(key::DOUBT_TOO_LARGE),
        Doubt::NoBalancesBefore => Message::new(key::DOUBT_NO_BALANCES_BEFORE),
        Doubt::HeldBack { held, open_sells } => msg!(DOUBT_HELD_BACK {
            held: btc(*held),
            sells: btc(*open_sells)
        }),
        Doubt::RowDisagrees {
            account,
            holds,
            row_says,
        } => msg!(DOUBT_ROW_DISAGREES {
            account: name(account),
            holds: btc(*holds),
            says: btc(*row_says)
        }),
        Doubt::ChangedWithoutRow { account } => {
            msg!(DOUBT_CHANGED_WITHOUT_ROW {
                account: name(account)
            })
        }
        Doubt::Unaccounted {
            account,
            was,
            holds,
        } => msg!(DOUBT_UNACCOUNTED {
            account: name(account),
            was: btc(*was),
            holds: btc(*holds)
        }),
    }
}

/// What a gains report rests on or leaves out.
pub fn gains_note(n: &GainsNote, locale: Locale) -> String {
    let m = match n {
        GainsNote::MatchedBy(method) => {
            msg!(GAINS_MATCHED_BY {
                method: method_name(*method, locale)
            })
        }
        GainsNote::DepositsAtMarket(count) => {
            msg!(GAINS_DEPOSITS_AT_MARKET {
                count: count.to_string()
            })
        }
        GainsNote::MovedOut(count) => {
            msg!(GAINS_MOVED_OUT {
                count: count.to_string()
            })
        }
        GainsNote::SoldMoreThanBought(count) => {
            msg!(GAINS_SOLD_MORE {
                count: count.to_string()
            })
        }
        GainsNote::Unpriced(ids) => msg!(GAINS_UNPRICED {
            ids: ids.join(", ")
        }),
        GainsNote::UnknownType { kind, count } => msg!(GAINS_UNKNOWN_TYPE {
            kind: kind.clone(),
            count: count.to_string()
        }),
    };
    m.render(locale)
}

/// Where a year-end rate comes from; the day is Oslo's, as the tax year is.
pub fn rate_source(s: &RateSource, locale: Locale) -> String {
    match s {
        // The transaction's id is for the rows behind the figure, not for these words.
        RateSource::Transaction { at, .. } => msg!(RATE_SOURCE_TRANSACTION {
            date: format::date(oslo_date(at), locale)
        })
        .render(locale),
        RateSource::Entered => say(key::RATE_SOURCE_ENTERED, locale),
        RateSource::EnteredViaUsd {
            usd_per_btc,
            nok_per_usd,
        } => msg!(RATE_SOURCE_ENTERED_USD {
            usd: *usd_per_btc,
            nok: *nok_per_usd
        })
        .render(locale),
        RateSource::Sample { at } => msg!(RATE_SOURCE_SAMPLE {
            time: format::time(at, nordlys_core::time::Tz::UTC, locale)
        })
        .render(locale),
        RateSource::Missing => say(key::RATE_SOURCE_MISSING, locale),
    }
}

/// A warning on the order form.
pub fn order_warning(w: &OrderWarning, figures: Figures) -> String {
    match w {
        OrderWarning::FarFromMarket { mid } => msg!(ORDER_FAR_FROM_MARKET {
            mid: figures.price(*mid)
        })
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

    /// Skatteetaten's dollar rates, as entered, read with the language's decimal mark: a
    /// Norwegian sentence never shows "11.3521".
    #[test]
    fn entered_dollar_rates_are_written_as_the_language_writes_a_number() {
        let source = RateSource::EnteredViaUsd {
            usd_per_btc: nordlys_money::UsdPerBtc::new(Decimal::new(934_292, 1)),
            nok_per_usd: nordlys_money::NokPerUsd::new(Decimal::new(113_521, 4)),
        };
        let nb = rate_source(&source, Locale::Nb);
        assert!(nb.contains("11,3521") && !nb.contains("11.3521"), "{nb}");
        assert!(rate_source(&source, Locale::En).contains("11.3521"));
    }

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
            Doubt::TooLarge,
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
                msg!(ORDER_UNKNOWN {
                    what: why_unknown(
                        &why,
                        Figures {
                            hidden,
                            ..shown(locale, BtcUnit::Btc)
                        },
                        &name,
                    )
                })
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
                    trouble: None,
                },
            ),
            (
                Read::Rows,
                Seen::Rows {
                    count: 4,
                    incomplete: Some("2 rows could not be read".into()),
                    trouble: Some(Trouble::UnreadableRows { count: 2 }),
                },
            ),
            (
                Read::OpenOrders,
                Seen::Failed {
                    error: "GET /v1/orders: no answer within 20 s".into(),
                    trouble: Some(Trouble::Timeout { seconds: 20 }),
                },
            ),
            (
                Read::PlaceOrder,
                Seen::Answered {
                    error: "POST /v1/orders: the exchange answered HTTP 400: insufficient funds"
                        .into(),
                    trouble: Some(Trouble::Status {
                        status: 400,
                        message: "insufficient funds".into(),
                    }),
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
            // A step's trouble reads in the language, not in the client's English.
            assert!(
                ["no answer", "could not be read", "exchange answered"]
                    .iter()
                    .all(|english| !nb.1.contains(english)),
                "{step:?}: {}",
                nb.1
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

    /// A count picks the language's plural form: never "disposal(s)".
    #[test]
    fn a_count_reads_in_the_plural_form_of_its_language() {
        let said = |n: u64, locale| msg!(GAINS_NOT_COMPUTABLE_UNKNOWN { count: n }).render(locale);
        for (n, locale, form) in [
            (1, Locale::En, "one disposal uses"),
            (37, Locale::En, "37 disposals use"),
            (1, Locale::Nb, "én avhending bruker"),
            (37, Locale::Nb, "37 avhendinger bruker"),
        ] {
            assert!(said(n, locale).contains(form), "{}", said(n, locale));
        }
        for n in [1, 37] {
            for locale in [Locale::En, Locale::Nb] {
                assert!(!said(n, locale).contains('('), "{}", said(n, locale));
            }
        }
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
        let written = |e, locale| {
            created_invoice_problem(e).write(&Viewer {
                figures: shown(locale, BtcUnit::Sats),
                zone: nordlys_core::time::OSLO,
            })
        };
        for e in &errors {
            let en = written(e, Locale::En);
            let nb = written(e, Locale::Nb);
            assert!(en != nb && !en.contains("created-invoice"), "{en} / {nb}");
        }
        assert_eq!(
            written(&errors[0], Locale::Nb),
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
                usd_per_btc: nordlys_money::UsdPerBtc::new("93429.2".parse().unwrap()),
                nok_per_usd: nordlys_money::NokPerUsd::new("11.3521".parse().unwrap()),
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
        // Grouped and pointed as every number of the language (it read "93429.2" before).
        assert_eq!(
            words[9].0,
            "Skatteetaten's rates, entered by you: 93,429.2 USD per BTC × 11.3521 NOK per USD"
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
            key::DURATION_MINUTES.as_str(),
            "`min` is the abbreviation for minutes in both languages",
        ),
        (key::TAX_KIND_BONUS.as_str(), "Norwegian says bonus too"),
        (
            key::CONFIRM_SEND.as_str(),
            "the imperative of sende is send",
        ),
        (
            key::TAX_SUB_ONCHAIN.as_str(),
            "on-chain is the word in Norwegian too",
        ),
        (key::TAX_SUB_LIGHTNING.as_str(), "the network's name"),
        (key::TAX_SUB_LIGHTNING_LNURL.as_str(), "the protocol's name"),
        (
            key::ERROR_REFUSED.as_str(),
            "only its two parts, each a message translated on its own",
        ),
        (
            key::ADDRESS_TAPROOT.as_str(),
            "the name of an address type, not translated",
        ),
        (
            key::ADDRESS_WITNESS.as_str(),
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
            // The message's lines: its first, and a select's variants and closing brace.
            let line = EN
                .lines()
                .skip_while(|l| !l.starts_with(&format!("{key} = ")))
                .enumerate()
                .take_while(|(i, l)| *i == 0 || l.starts_with(' ') || l.starts_with('}'))
                .map(|(_, l)| l)
                .collect::<Vec<_>>()
                .join("\n");
            let mut m = Message {
                key: Key(Box::leak(key.to_owned().into_boxed_str())),
                args: vec![],
            };
            for name in line
                .split("{ $")
                .skip(1)
                .filter_map(|r| r.split(' ').next())
            {
                m.args
                    .push((Box::leak(name.to_owned().into_boxed_str()), Arg::from("7")));
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
