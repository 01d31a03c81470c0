//! One field for every kind of destination, understood before anything is sent: on-chain
//! addresses (checksum and network checked), BOLT11 invoices (amount, expiry, description or its
//! hash, payee, network), Lightning addresses, LNURLs (bech32 without the 90-character limit), and
//! BIP21 URIs (the `lightning=` invoice preferred when present). White space, case and a
//! `lightning:` prefix are forgiven.

use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bitcoin::hex::DisplayHex;
use bitcoin::secp256k1::{Message, PublicKey, Secp256k1, VerifyOnly};
use lightning_invoice::{
    Bolt11SemanticError, Currency, Description, SignedRawBolt11Invoice, TaggedField,
};
use nordlys_money::{Amount, Btc, Nok};

/// What a destination was recognised as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    Onchain { address: String, kind: AddressKind },
    Invoice(InvoiceInfo),
    LightningAddress { user: String, domain: String },
    Lnurl { encoded: String, url: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressKind {
    Legacy,
    NestedSegwit,
    Segwit,
    Taproot,
    OtherWitness,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceInfo {
    /// The invoice as it is sent (lower case, no prefix).
    pub invoice: String,
    /// `None`: any amount (the payer chooses).
    pub amount_btc: Option<Btc>,
    pub expires_at: SystemTime,
    /// The memo, or none when the invoice commits to a description hash only.
    pub description: Option<String>,
    pub description_hash: Option<String>,
    pub payee: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DestinationError {
    #[error("enter an address, invoice, Lightning address or LNURL")]
    Empty,
    #[error("the address's checksum is wrong: a character is mistyped")]
    BadChecksum,
    #[error("this address is for {0}, not bitcoin mainnet")]
    WrongNetwork(&'static str),
    #[error("the Lightning invoice is damaged or cut off: {0}")]
    BadInvoice(String),
    #[error("this Lightning invoice is for {0}, not bitcoin mainnet")]
    InvoiceNetwork(&'static str),
    #[error("this Lightning invoice has expired")]
    Expired,
    #[error(
        "this Lightning invoice says it is valid for {0} seconds, more than a year: it is not a \
         real invoice"
    )]
    AbsurdExpiry(u64),
    #[error("this LNURL is not valid bech32: {0}")]
    BadLnurl(String),
    #[error("`{0}` is not a valid Lightning address (name@domain)")]
    BadLightningAddress(String),
    #[error("the bitcoin: link is malformed: {0}")]
    BadUri(String),
    #[error(
        "not recognised: expected a bitcoin address, a Lightning invoice, a Lightning address or an LNURL"
    )]
    Unknown,
    #[error("this is an invoice you created to receive: it is for the payer, not for you to pay")]
    OwnInvoice,
    /// An invoice is paid once: this one was, from this profile.
    #[error("this Lightning invoice is already paid")]
    AlreadyPaid,
}

/// Parses what the user pasted, as of `now`.
pub fn parse(text: &str, now: SystemTime) -> Result<Destination, DestinationError> {
    // Copied only when there is something to take out or lower: a pasted invoice is long, and
    // is read again on every key the user types.
    let spaced = if text.is_ascii() {
        // `char::is_whitespace` in ASCII: these and the vertical tab.
        text.bytes().any(|b| b.is_ascii_whitespace() || b == 0x0B)
    } else {
        text.contains(char::is_whitespace)
    };
    let t: std::borrow::Cow<str> = if spaced {
        text.split_whitespace().collect::<String>().into()
    } else {
        text.into()
    };
    if t.is_empty() {
        return Err(DestinationError::Empty);
    }
    let lower: std::borrow::Cow<str> = if t.bytes().any(|b| b.is_ascii_uppercase()) {
        t.to_ascii_lowercase().into()
    } else {
        t.as_ref().into()
    };
    if lower.starts_with("bitcoin:") {
        return parse_bip21(&t, now);
    }
    let bare = lower.strip_prefix("lightning:").unwrap_or(&lower);
    // Bech32 is all lower or all upper case (BIP173); a mix means the text was altered.
    let payload = &t[t.len() - bare.len()..];
    let mixed = payload.bytes().any(|b| b.is_ascii_lowercase())
        && payload.bytes().any(|b| b.is_ascii_uppercase());
    if mixed && bare.starts_with("lnurl") {
        return Err(DestinationError::BadLnurl(
            "it mixes upper and lower case".into(),
        ));
    }
    if mixed && bare.starts_with("ln") {
        return Err(DestinationError::BadInvoice(
            "it mixes upper and lower case".into(),
        ));
    }
    if bare.starts_with("lnbc")
        || bare.starts_with("lntb")
        || bare.starts_with("lnbcrt")
        || bare.starts_with("lntbs")
    {
        return parse_invoice(bare, now).map(Destination::Invoice);
    }
    if bare.starts_with("lnurl") {
        return parse_lnurl(bare);
    }
    if t.contains('@') {
        return parse_lightning_address(bare);
    }
    parse_address(&t)
}

fn parse_address(t: &str) -> Result<Destination, DestinationError> {
    // A bech32 address with a mistyped character: say so, rather than "not recognised" (the
    // bitcoin crate falls back to base58 and reports that error instead).
    let lower = t.to_ascii_lowercase();
    let bech32_like =
        lower.starts_with("bc1") || lower.starts_with("tb1") || lower.starts_with("bcrt1");
    if bech32_like
        && let Err(e) = bech32::segwit::decode(t)
        && format!("{e:?}").to_ascii_lowercase().contains("checksum")
    {
        return Err(DestinationError::BadChecksum);
    }
    let unchecked = bitcoin::Address::from_str(t).map_err(|e| {
        // The error's structure names a checksum failure for both base58 and bech32 addresses.
        let detail = format!("{e:?}").to_ascii_lowercase();
        if detail.contains("checksum") {
            DestinationError::BadChecksum
        } else {
            DestinationError::Unknown
        }
    })?;
    if !unchecked.is_valid_for_network(bitcoin::Network::Bitcoin) {
        let network = if unchecked.is_valid_for_network(bitcoin::Network::Regtest)
            && t.to_ascii_lowercase().starts_with("bcrt")
        {
            "regtest"
        } else {
            "testnet"
        };
        return Err(DestinationError::WrongNetwork(network));
    }
    let address = unchecked.assume_checked();
    let kind = match address.address_type() {
        Some(bitcoin::AddressType::P2pkh) => AddressKind::Legacy,
        Some(bitcoin::AddressType::P2sh) => AddressKind::NestedSegwit,
        Some(bitcoin::AddressType::P2wpkh | bitcoin::AddressType::P2wsh) => AddressKind::Segwit,
        Some(bitcoin::AddressType::P2tr) => AddressKind::Taproot,
        _ => AddressKind::OtherWitness,
    };
    Ok(Destination::Onchain {
        address: address.to_string(),
        kind,
    })
}

fn parse_invoice(bare: &str, now: SystemTime) -> Result<InvoiceInfo, DestinationError> {
    let info = read_invoice(bare)?;
    if info.expires_at <= now {
        return Err(DestinationError::Expired);
    }
    Ok(info)
}

/// The longest expiry an invoice may state: wallets use an hour to a week; a year is generous, and
/// keeps every time computed from it within what dates can hold.
const MAX_INVOICE_EXPIRY: Duration = Duration::from_secs(365 * 24 * 3600);

/// Decodes a BOLT11 invoice (lower case, no prefix) for mainnet, expired or not: for showing an
/// invoice the user created, whose expiry is counted down rather than refused. Its signature is
/// checked and its payee known with one public-key recovery, the floor of the work: a key
/// recovered from the signature is one it verifies under, and an explicit payee field (`n`) must
/// name that key.
pub fn read_invoice(bare: &str) -> Result<InvoiceInfo, DestinationError> {
    let bad = |e: &dyn std::fmt::Display| DestinationError::BadInvoice(e.to_string());
    let signed = SignedRawBolt11Invoice::from_str(bare).map_err(|e| bad(&e))?;
    match signed.currency() {
        Currency::Bitcoin => {}
        Currency::BitcoinTestnet => return Err(DestinationError::InvoiceNetwork("testnet")),
        Currency::Regtest => return Err(DestinationError::InvoiceNetwork("regtest")),
        Currency::Simnet => return Err(DestinationError::InvoiceNetwork("simnet")),
        Currency::Signet => return Err(DestinationError::InvoiceNetwork("signet")),
    }
    invoice_fields(&signed).map_err(|e| bad(&e))?;
    let payee = payee(&signed).map_err(|e| bad(&e))?;
    // Checked: an expiry near u64::MAX seconds overflowed the time it was added to (a panic).
    let expiry = signed.expiry_time().map_or(
        Duration::from_secs(lightning_invoice::DEFAULT_EXPIRY_TIME),
        |e| *e.as_duration(),
    );
    if expiry > MAX_INVOICE_EXPIRY {
        return Err(DestinationError::AbsurdExpiry(expiry.as_secs()));
    }
    let expires_at = UNIX_EPOCH
        .checked_add(signed.data.timestamp.as_duration_since_epoch())
        .and_then(|t| t.checked_add(expiry))
        .ok_or(DestinationError::AbsurdExpiry(expiry.as_secs()))?;
    Ok(InvoiceInfo {
        invoice: bare.to_owned(),
        // A whole number of millisatoshis (`invoice_fields`): ten picobitcoin each.
        amount_btc: signed.amount_pico_btc().map(|p| Btc::from_msats(p / 10)),
        expires_at,
        description: signed.description().map(shown),
        description_hash: signed.description_hash().map(|h| h.0.to_string()),
        // The same text as the key's `Display`, written from its bytes at once (that
        // `Display` writes them one `write!` at a time).
        payee: payee.serialize().to_lower_hex_string(),
    })
}

/// An invoice's description made safe to show, exactly as `Description`'s `Display` makes it
/// (control, format, unassigned and line-separator characters replaced), a character at a time:
/// printable ASCII, nearly all of a description, is never replaced and is taken as it is, which
/// saves most of the formatting that otherwise costs as much as a sixth of a recovery.
fn shown(description: &Description) -> String {
    let text = &description.as_inner().0;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            match Description::new(c.to_string()) {
                Ok(one) => out.push_str(&one.to_string()),
                Err(_) => out.push(char::REPLACEMENT_CHARACTER),
            }
        }
    }
    out
}

/// What BOLT11 asks of an invoice's fields, as `Bolt11Invoice` checks them: exactly one payment
/// hash, one description or description hash, and one payment secret; features that require
/// nothing unknown and support the payment secret; an amount of whole millisatoshis.
fn invoice_fields(signed: &SignedRawBolt11Invoice) -> Result<(), Bolt11SemanticError> {
    let count = |wanted: fn(&TaggedField) -> bool| {
        signed.known_tagged_fields().filter(|f| wanted(f)).count()
    };
    match count(|f| matches!(f, TaggedField::PaymentHash(_))) {
        0 => return Err(Bolt11SemanticError::NoPaymentHash),
        1 => {}
        _ => return Err(Bolt11SemanticError::MultiplePaymentHashes),
    }
    match count(|f| {
        matches!(
            f,
            TaggedField::Description(_) | TaggedField::DescriptionHash(_)
        )
    }) {
        0 => return Err(Bolt11SemanticError::NoDescription),
        1 => {}
        _ => return Err(Bolt11SemanticError::MultipleDescriptions),
    }
    match count(|f| matches!(f, TaggedField::PaymentSecret(_))) {
        0 => return Err(Bolt11SemanticError::NoPaymentSecret),
        1 => {}
        _ => return Err(Bolt11SemanticError::MultiplePaymentSecrets),
    }
    match signed.features() {
        Some(f) if !f.requires_unknown_bits() && f.supports_payment_secret() => {}
        _ => return Err(Bolt11SemanticError::InvalidFeatures),
    }
    if signed.amount_pico_btc().is_some_and(|p| p % 10 != 0) {
        return Err(Bolt11SemanticError::ImpreciseAmount);
    }
    Ok(())
}

/// The key that signed the invoice, recovered once (with a context made once).
fn payee(signed: &SignedRawBolt11Invoice) -> Result<PublicKey, Bolt11SemanticError> {
    static CONTEXT: std::sync::OnceLock<Secp256k1<VerifyOnly>> = std::sync::OnceLock::new();
    let secp = CONTEXT.get_or_init(Secp256k1::verification_only);
    let message = Message::from_digest(*signed.signable_hash());
    let key = secp
        .recover_ecdsa(&message, &signed.signature().0)
        .map_err(|_| Bolt11SemanticError::InvalidSignature)?;
    match signed.payee_pub_key() {
        Some(named) if named.0 != key => Err(Bolt11SemanticError::InvalidSignature),
        _ => Ok(key),
    }
}

fn parse_lnurl(bare: &str) -> Result<Destination, DestinationError> {
    let (hrp, data) =
        bech32::decode(bare).map_err(|e| DestinationError::BadLnurl(e.to_string()))?;
    if hrp.as_str() != "lnurl" {
        return Err(DestinationError::BadLnurl(
            "it does not start with lnurl".into(),
        ));
    }
    let url = String::from_utf8(data)
        .map_err(|_| DestinationError::BadLnurl("it holds no text".into()))?;
    let parsed =
        url::Url::parse(&url).map_err(|_| DestinationError::BadLnurl("it holds no URL".into()))?;
    let onion = parsed.host_str().is_some_and(|h| h.ends_with(".onion"));
    if parsed.scheme() != "https" && !(parsed.scheme() == "http" && onion) {
        return Err(DestinationError::BadLnurl("its URL is not https".into()));
    }
    Ok(Destination::Lnurl {
        encoded: bare.to_ascii_uppercase(),
        url,
    })
}

fn parse_lightning_address(bare: &str) -> Result<Destination, DestinationError> {
    let bad = || DestinationError::BadLightningAddress(bare.to_owned());
    let (user, domain) = bare.split_once('@').ok_or_else(bad)?;
    let user_ok = !user.is_empty()
        && user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c));
    let domain_ok = domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && domain.split('.').all(|l| !l.is_empty())
        && domain
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    if !user_ok || !domain_ok {
        return Err(bad());
    }
    Ok(Destination::LightningAddress {
        user: user.to_owned(),
        domain: domain.to_owned(),
    })
}

/// BIP21: `bitcoin:ADDRESS?amount=…&lightning=…`; the invoice wins when present and valid.
fn parse_bip21(t: &str, now: SystemTime) -> Result<Destination, DestinationError> {
    let rest = &t["bitcoin:".len()..];
    let (address, query) = rest.split_once('?').unwrap_or((rest, ""));
    let pairs: Vec<_> = url::form_urlencoded::parse(query.as_bytes()).collect();
    // BIP21: a `req-` parameter not understood makes the whole URI unusable, wherever it stands
    // (one after `lightning=` was skipped).
    if let Some((name, _)) = pairs.iter().find(|(name, _)| {
        name.get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("req-"))
    }) {
        return Err(DestinationError::BadUri(format!(
            "it requires `{name}`, which Nordlys does not understand"
        )));
    }
    if let Some((_, invoice)) = pairs
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("lightning"))
    {
        let invoice = invoice.to_ascii_lowercase();
        return parse_invoice(invoice.strip_prefix("lightning:").unwrap_or(&invoice), now)
            .map(Destination::Invoice);
    }
    if address.is_empty() {
        return Err(DestinationError::BadUri("it has no address".into()));
    }
    // An amount that is not one makes the URI unusable (BIP21), rather than one paid as typed.
    bip21_amount(&pairs)?;
    parse_address(address)
}

/// What a `bitcoin:` link asks for besides its destination: the amount and the payee's label.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Requested {
    pub amount_btc: Option<Btc>,
    pub label: Option<String>,
}

/// The amount and label a BIP21 link names for its address (none for other destinations, and
/// none when its Lightning invoice wins: an invoice carries its own amount). Malformed links are
/// [`parse`]'s to refuse.
pub fn requested(text: &str) -> Requested {
    let t = text.trim();
    let Some(rest) = t
        .get(..8)
        .filter(|p| p.eq_ignore_ascii_case("bitcoin:"))
        .map(|_| &t[8..])
    else {
        return Requested::default();
    };
    let query = rest.split_once('?').map_or("", |(_, q)| q);
    let pairs: Vec<_> = url::form_urlencoded::parse(query.as_bytes()).collect();
    if pairs
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("lightning"))
    {
        return Requested::default();
    }
    let label = pairs
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("label"))
        .map(|(_, v)| v.trim().to_owned())
        .filter(|v| !v.is_empty());
    Requested {
        amount_btc: bip21_amount(&pairs).ok().flatten(),
        label,
    }
}

/// The `amount=` of a BIP21 link: decimal BTC, more than zero, at most 8 decimals, written
/// plainly (no exponent, sign or separators).
fn bip21_amount(
    pairs: &[(std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>)],
) -> Result<Option<Btc>, DestinationError> {
    let Some((_, text)) = pairs.iter().find(|(n, _)| n.eq_ignore_ascii_case("amount")) else {
        return Ok(None);
    };
    let bad =
        || DestinationError::BadUri(format!("its amount `{text}` is not an amount of bitcoin"));
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(bad());
    }
    let d = rust_decimal::Decimal::from_str(text).map_err(|_| bad())?;
    let btc = Btc::new(d).map_err(|_| bad())?;
    if !btc.is_positive() || d > rust_decimal::Decimal::from(21_000_000) {
        return Err(bad());
    }
    Ok(Some(btc))
}

/// Why an invoice the exchange created is not the one asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CreatedInvoiceError {
    #[error("it is for {got} BTC, not the {asked} BTC asked for")]
    Amount { asked: Btc, got: Btc },
    #[error("it names no amount, but {} {} was asked for", asked.decimal(), asked.unit().code())]
    NoAmount { asked: Amount },
    #[error("it is for {got} BTC, but an invoice for any amount was asked for")]
    Unasked { got: Btc },
    #[error("it does not commit to the description given (its description hash differs)")]
    Description,
}

/// What was asked of endpoint 2, to hold the invoice it returns against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskedAmount {
    /// An invoice for any amount (sent as 0).
    Any,
    Btc(Btc),
    /// Converted by the exchange: any amount will do, but there must be one.
    Nok(Nok),
}

/// Checks an invoice the exchange created against the request: the amount as asked (to the
/// millisatoshi when asked in BTC), and `publicDescription` committed to through the description
/// hash (2.x: the memo is left empty). A mismatch is never shown as a payment request: the payer
/// would pay what the user did not ask for. The network was checked by [`read_invoice`].
pub fn check_created(
    info: &InvoiceInfo,
    asked: &AskedAmount,
    public_description: &str,
) -> Result<(), CreatedInvoiceError> {
    match (asked, info.amount_btc) {
        (AskedAmount::Any, None) | (AskedAmount::Nok(_), Some(_)) => {}
        (AskedAmount::Btc(a), Some(got)) if got == *a => {}
        (AskedAmount::Btc(a), Some(got)) => {
            return Err(CreatedInvoiceError::Amount { asked: *a, got });
        }
        (AskedAmount::Any, Some(got)) => return Err(CreatedInvoiceError::Unasked { got }),
        (AskedAmount::Btc(a), None) => {
            return Err(CreatedInvoiceError::NoAmount {
                asked: Amount::Btc(*a),
            });
        }
        (AskedAmount::Nok(n), None) => {
            return Err(CreatedInvoiceError::NoAmount {
                asked: Amount::Nok(*n),
            });
        }
    }
    use bitcoin::hashes::{Hash, sha256};
    let expected = sha256::Hash::hash(public_description.as_bytes()).to_string();
    match (&info.description_hash, &info.description) {
        (Some(h), _) if *h == expected => Ok(()),
        // A memo instead of the hash: acceptable only when it is the description itself.
        (None, Some(memo)) if memo == public_description => Ok(()),
        _ => Err(CreatedInvoiceError::Description),
    }
}

impl Destination {
    /// The text sent as the withdrawal's `destination`.
    pub fn wire(&self) -> String {
        match self {
            Self::Onchain { address, .. } => address.clone(),
            Self::Invoice(i) => i.invoice.clone(),
            Self::LightningAddress { user, domain } => format!("{user}@{domain}"),
            Self::Lnurl { encoded, .. } => encoded.to_ascii_lowercase(),
        }
    }

    /// What counts as "the same recipient" for the travel rule and the address book: the address,
    /// the Lightning address, the LNURL's URL, or for an invoice the node that will be paid (every
    /// invoice is new, its payee is not).
    pub fn identity(&self) -> String {
        match self {
            Self::Onchain { address, .. } => address.clone(),
            Self::Invoice(i) => format!("node:{}", i.payee),
            Self::LightningAddress { user, domain } => {
                format!("{user}@{domain}").to_ascii_lowercase()
            }
            Self::Lnurl { url, .. } => url.clone(),
        }
    }

    /// Whether it goes over Lightning (no on-chain minimum or fee).
    pub fn is_lightning(&self) -> bool {
        !matches!(self, Self::Onchain { .. })
    }
}

#[cfg(test)]
mod tests {
    use bitcoin::hashes::{Hash, sha256};
    use bitcoin::secp256k1::{Secp256k1, SecretKey};
    use lightning_invoice::{
        Bolt11Invoice, Bolt11InvoiceDescriptionRef, InvoiceBuilder, PaymentSecret,
    };

    use super::*;
    use rust_decimal::Decimal;

    fn now() -> SystemTime {
        SystemTime::now()
    }

    fn invoice(
        currency: Currency,
        msat: Option<u64>,
        created: SystemTime,
        expiry_secs: u64,
    ) -> String {
        let key = SecretKey::from_slice(&[0x11; 32]).unwrap();
        let mut b = InvoiceBuilder::new(currency)
            .description_hash(sha256::Hash::hash(b"kaffe"))
            .payment_hash(sha256::Hash::hash(b"preimage"))
            .payment_secret(PaymentSecret([7; 32]))
            .timestamp(created)
            .min_final_cltv_expiry_delta(144)
            .expiry_time(Duration::from_secs(expiry_secs));
        if let Some(m) = msat {
            b = b.amount_milli_satoshis(m);
        }
        b.build_signed(|m| Secp256k1::new().sign_ecdsa_recoverable(m, &key))
            .unwrap()
            .to_string()
    }

    #[test]
    fn an_invoice_the_exchange_made_is_held_against_the_request() {
        // The test invoices commit to sha256("kaffe").
        let read = |msat| read_invoice(&invoice(Currency::Bitcoin, msat, now(), 3600)).unwrap();
        let btc = |s: &str| AskedAmount::Btc(Btc::new(Decimal::from_str(s).unwrap()).unwrap());
        assert_eq!(
            check_created(&read(Some(1_000_000)), &btc("0.00001"), "kaffe"),
            Ok(())
        );
        assert_eq!(
            check_created(&read(None), &AskedAmount::Any, "kaffe"),
            Ok(())
        );
        let nok = AskedAmount::Nok(Nok::new(Decimal::from(100)).unwrap());
        assert_eq!(check_created(&read(Some(1_234_000)), &nok, "kaffe"), Ok(()));
        assert!(matches!(
            check_created(&read(Some(2_000_000)), &btc("0.00001"), "kaffe"),
            Err(CreatedInvoiceError::Amount { .. })
        ));
        assert!(matches!(
            check_created(&read(Some(1_000_000)), &AskedAmount::Any, "kaffe"),
            Err(CreatedInvoiceError::Unasked { .. })
        ));
        assert!(matches!(
            check_created(&read(None), &nok, "kaffe"),
            Err(CreatedInvoiceError::NoAmount { .. })
        ));
        assert_eq!(
            check_created(&read(Some(1_000_000)), &btc("0.00001"), "te"),
            Err(CreatedInvoiceError::Description)
        );
    }

    #[test]
    fn a_required_parameter_not_understood_refuses_the_uri_wherever_it_stands() {
        let inv = invoice(Currency::Bitcoin, Some(1000), now(), 3600);
        let addr = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
        for uri in [
            format!("bitcoin:{addr}?req-somethingelse=1"),
            format!("bitcoin:{addr}?lightning={inv}&req-pop=x"),
            format!("bitcoin:{addr}?REQ-pop=x&lightning={inv}"),
            format!("bitcoin:?lightning={inv}&Req-x=1"),
        ] {
            assert!(
                matches!(parse(&uri, now()), Err(DestinationError::BadUri(_))),
                "{uri}"
            );
        }
        // A name that is not ASCII where `req-` would end is just another name, never a panic.
        for uri in [
            format!("bitcoin:{addr}?req\u{e9}=1"),
            format!("bitcoin:{addr}?r\u{e9}q-x=1"),
        ] {
            assert!(
                matches!(parse(&uri, now()), Ok(Destination::Onchain { .. })),
                "{uri}"
            );
        }
        // Not required: ignored, as BIP21 says.
        let fine = format!("bitcoin:{addr}?label=Kari&lightning={inv}&somethingelse=1");
        assert!(matches!(parse(&fine, now()), Ok(Destination::Invoice(_))));
    }

    #[test]
    fn an_invoice_with_an_absurd_expiry_is_refused_not_a_panic() {
        for secs in [u64::MAX / 2, 10_000_000_000_000, 365 * 24 * 3600 + 1] {
            let text = invoice(Currency::Bitcoin, Some(1000), now(), secs);
            assert!(
                matches!(parse(&text, now()), Err(DestinationError::AbsurdExpiry(_))),
                "{secs}"
            );
            assert!(matches!(
                read_invoice(&text),
                Err(DestinationError::AbsurdExpiry(_))
            ));
        }
        // A week is an invoice as wallets make them.
        let week = invoice(Currency::Bitcoin, Some(1000), now(), 7 * 24 * 3600);
        assert!(parse(&week, now()).is_ok());
    }

    #[test]
    fn bip173_and_bip350_addresses() {
        for (a, kind) in [
            (
                "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
                AddressKind::Segwit,
            ),
            (
                "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
                AddressKind::Segwit,
            ),
            (
                "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
                AddressKind::Taproot,
            ),
            ("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", AddressKind::Legacy),
            (
                "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
                AddressKind::NestedSegwit,
            ),
        ] {
            assert!(
                matches!(parse(a, now()), Ok(Destination::Onchain { kind: k, .. }) if k == kind),
                "{a}"
            );
        }
        assert_eq!(
            parse("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", now()),
            Err(DestinationError::BadChecksum)
        );
        assert_eq!(
            parse("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", now()),
            Err(DestinationError::WrongNetwork("testnet"))
        );
        assert_eq!(
            parse("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", now()),
            Err(DestinationError::WrongNetwork("regtest"))
        );
        assert_eq!(parse("   ", now()), Err(DestinationError::Empty));
        assert_eq!(parse("hello world", now()), Err(DestinationError::Unknown));
    }

    #[test]
    fn bolt11_invoices_are_decoded_and_checked() {
        let text = invoice(Currency::Bitcoin, Some(12_500_000), now(), 600);
        let Ok(Destination::Invoice(i)) =
            parse(&format!("  LIGHTNING:{}  ", text.to_uppercase()), now())
        else {
            panic!()
        };
        assert_eq!(i.amount_btc, Some(Btc::from_sats(12_500)));
        assert_eq!(
            i.description_hash.as_deref(),
            Some(sha256::Hash::hash(b"kaffe").to_string().as_str())
        );
        assert!(i.description.is_none());
        // Ten minutes from its creation, which the invoice keeps to the second.
        let left = i.expires_at.duration_since(now()).unwrap_or_default();
        assert!((599..=600).contains(&left.as_secs()), "{left:?}");
        let any = invoice(Currency::Bitcoin, None, now(), 3600);
        assert!(matches!(
            parse(&any, now()),
            Ok(Destination::Invoice(InvoiceInfo {
                amount_btc: None,
                ..
            }))
        ));
        let old = invoice(
            Currency::Bitcoin,
            Some(1000),
            now() - Duration::from_secs(7200),
            3600,
        );
        assert_eq!(parse(&old, now()), Err(DestinationError::Expired));
        let testnet = invoice(Currency::BitcoinTestnet, Some(1000), now(), 3600);
        assert_eq!(
            parse(&testnet, now()),
            Err(DestinationError::InvoiceNetwork("testnet"))
        );
        let cut = &text[..text.len() - 20];
        assert!(matches!(
            parse(cut, now()),
            Err(DestinationError::BadInvoice(_))
        ));
    }

    /// The examples of BOLT #11, read at a moment when the 2017 ones had not expired yet.
    #[test]
    fn bolt11_spec_examples() {
        let then = UNIX_EPOCH + Duration::from_secs(1_496_314_700);
        let coffee = "lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq67gye39hfg3zd8rgc80k32tvy9xk2xunwm5lzexnvpx6fd77en8qaq424dxgt56cag2dpt359k3ssyhetktkpqh24jqnjyw6uqd08sgptq44qu";
        for text in [
            coffee.to_owned(),
            coffee.to_uppercase(),
            format!("lightning:{coffee}"),
        ] {
            let Ok(Destination::Invoice(i)) = parse(&text, then) else {
                panic!("{text}")
            };
            assert_eq!(i.amount_btc, Some(Btc::from_sats(2_500_000)));
            assert_eq!(i.description.as_deref(), Some("coffee beans"));
        }
        let p2wsh = "lnbc20m1pvjluezhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfp4qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q28j0v3rwgy9pvjnd48ee2pl8xrpxysd5g44td63g6xcjcu003j3qe8878hluqlvl3km8rm92f5stamd3jw763n3hck0ct7p8wwj463cql26ava";
        let store = "lnbc9678785340p1pwmna7lpp5gc3xfm08u9qy06djf8dfflhugl6p7lgza6dsjxq454gxhj9t7a0sd8dgfkx7cmtwd68yetpd5s9xar0wfjn5gpc8qhrsdfq24f5ggrxdaezqsnvda3kkum5wfjkzmfqf3jkgem9wgsyuctwdus9xgrcyqcjcgpzgfskx6eqf9hzqnteypzxz7fzypfhg6trddjhygrcyqezcgpzfysywmm5ypxxjemgw3hxjmn8yptk7untd9hxwg3q2d6xjcmtv4ezq7pqxgsxzmnyyqcjqmt0wfjjq6t5v4khxxqyjw5qcqp2rzjq0gxwkzc8w6323m55m4jyxcjwmy7stt9hwkwe2qxmy8zpsgg7jcuwz87fcqqeuqqqyqqqqlgqqqqn3qq9qn07ytgrxxzad9hc4xt3mawjjt8znfv8xzscs7007v9gh9j569lencxa8xeujzkxs0uamak9aln6ez02uunw6rd2ht2sqe4hz8thcdagpleym0j";
        // The oldest examples predate the mandatory payment secret (`s`); today's nodes refuse to
        // pay them, and so does Nordlys, saying why.
        let store_then = UNIX_EPOCH + Duration::from_secs(1_572_468_703 + 60);
        for (text, at) in [(p2wsh, then), (store, store_then)] {
            match parse(text, at) {
                Err(DestinationError::BadInvoice(why)) => {
                    assert!(why.contains("payment secret"), "{why}")
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(parse(coffee, now()), Err(DestinationError::Expired));
        let invalid = [
            // unknown required feature 100
            "lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q4psqqqqqqqqqqqqqqqpqsqq40wa3khl49yue3zsgm26jrepqr2eghqlx86rttutve3ugd05em86nsefzh4pfurpd9ek9w2vp95zxqnfe2u7ckudyahsa52q66tgzcp6t2dyk",
            // bad checksum
            "lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrnt",
            // mixed case
            "LNBC2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny",
            // signature not recoverable
            "lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpuaxtrnwngzn3kdzw5hydlzf03qdgm2hdq27cqv3agm2awhz5se903vruatfhq77w3ls4evs3ch9zw97j25emudupq63nyw24cg27h2rspk28uwq",
            // too short
            "lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6na6hlh",
            // invalid multiplier
            "lnbc2500x1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpujr6jxr9gq9pv6g46y7d20jfkegkg4gljz2ea2a3m9lmvvr95tq2s0kvu70u3axgelz3kyvtp2ywwt0y8hkx2869zq5dll9nelr83zzqqpgl2zg",
            // sub-millisatoshi precision
            "lnbc2500000001p1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu7hqtk93pkf7sw55rdv4k9z2vj050rxdr6za9ekfs3nlt5lr89jqpdmxsmlj9urqumg0h9wzpqecw7th56tdms40p2ny9q4ddvjsedzcplva53s",
        ];
        for text in invalid {
            assert!(
                matches!(parse(text, then), Err(DestinationError::BadInvoice(_))),
                "{text}: {:?}",
                parse(text, then)
            );
        }
        // No `1` separator: not an invoice at all.
        let no_separator = "pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnqpnl2jfll544esqchsrny";
        assert!(parse(no_separator, then).is_err());
    }

    /// One recovery where `Bolt11Invoice` makes two: the same verdict and the same reading on
    /// the BOLT11 examples, valid and invalid, and on invoices with an explicit payee field that
    /// names the signer or another key.
    #[test]
    fn invoices_are_read_as_bolt11invoice_reads_them() {
        let signer = SecretKey::from_slice(&[0x11; 32]).unwrap();
        let other = SecretKey::from_slice(&[0x22; 32]).unwrap();
        let secp = Secp256k1::new();
        let with_payee = |named: &SecretKey| {
            InvoiceBuilder::new(Currency::Bitcoin)
                .description("n".into())
                .payment_hash(sha256::Hash::hash(b"preimage"))
                .payment_secret(PaymentSecret([7; 32]))
                .payee_pub_key(named.public_key(&secp))
                .current_timestamp()
                .min_final_cltv_expiry_delta(144)
                .amount_milli_satoshis(1_000)
                .build_signed(|m| secp.sign_ecdsa_recoverable(m, &signer))
                .unwrap()
                .to_string()
        };
        let mut texts = vec![
            invoice(Currency::Bitcoin, Some(1_234_000), now(), 3600),
            invoice(Currency::Bitcoin, None, now(), 60),
            with_payee(&signer),
            with_payee(&other),
        ];
        texts.extend(
            [
                "lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq67gye39hfg3zd8rgc80k32tvy9xk2xunwm5lzexnvpx6fd77en8qaq424dxgt56cag2dpt359k3ssyhetktkpqh24jqnjyw6uqd08sgptq44qu",
                "lnbc20m1pvjluezhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfp4qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q28j0v3rwgy9pvjnd48ee2pl8xrpxysd5g44td63g6xcjcu003j3qe8878hluqlvl3km8rm92f5stamd3jw763n3hck0ct7p8wwj463cql26ava",
                "lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q4psqqqqqqqqqqqqqqqpqsqq40wa3khl49yue3zsgm26jrepqr2eghqlx86rttutve3ugd05em86nsefzh4pfurpd9ek9w2vp95zxqnfe2u7ckudyahsa52q66tgzcp6t2dyk",
                "lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpuaxtrnwngzn3kdzw5hydlzf03qdgm2hdq27cqv3agm2awhz5se903vruatfhq77w3ls4evs3ch9zw97j25emudupq63nyw24cg27h2rspk28uwq",
                "lnbc2500000001p1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu7hqtk93pkf7sw55rdv4k9z2vj050rxdr6za9ekfs3nlt5lr89jqpdmxsmlj9urqumg0h9wzpqecw7th56tdms40p2ny9q4ddvjsedzcplva53s",
                "lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6na6hlh",
            ]
            .map(str::to_owned),
        );
        for text in &texts {
            let ours = read_invoice(text);
            match (Bolt11Invoice::from_str(text), &ours) {
                (Ok(theirs), Ok(i)) => {
                    assert_eq!(i.payee, theirs.recover_payee_pub_key().to_string());
                    assert_eq!(
                        i.amount_btc,
                        theirs.amount_milli_satoshis().map(Btc::from_msats)
                    );
                    assert_eq!(
                        i.expires_at,
                        UNIX_EPOCH + theirs.duration_since_epoch() + theirs.expiry_time()
                    );
                    let (d, h) = match theirs.description() {
                        Bolt11InvoiceDescriptionRef::Direct(d) => (Some(d.to_string()), None),
                        Bolt11InvoiceDescriptionRef::Hash(h) => (None, Some(h.0.to_string())),
                    };
                    assert_eq!((&i.description, &i.description_hash), (&d, &h));
                }
                (Err(_), Err(DestinationError::BadInvoice(_))) => {}
                (theirs, ours) => panic!("{text}: theirs {theirs:?}, ours {ours:?}"),
            }
        }
        assert!(read_invoice(&texts[2]).is_ok(), "the signer named");
        assert!(read_invoice(&texts[3]).is_err(), "another key named");
    }

    #[test]
    fn white_space_of_every_kind_pasted_into_an_invoice_is_taken_out() {
        let text = invoice(Currency::Bitcoin, Some(1_000), now(), 3600);
        let (head, tail) = text.split_at(40);
        for gap in [
            " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{A0}", "\u{2003}",
        ] {
            let pasted = format!("{gap}{head}{gap}{tail}{gap}");
            assert!(
                matches!(parse(&pasted, now()), Ok(Destination::Invoice(_))),
                "{gap:?}: {:?}",
                parse(&pasted, now())
            );
        }
    }

    #[test]
    fn a_description_is_shown_as_its_display_shows_it() {
        for text in [
            "2 x kaffe, 1 x skolebolle",
            "besøket på Ålesund 🙂",
            "tab\tand\nnew line",
            "right-to-left \u{202E}override",
            "line\u{2028}separator \u{0}nul \u{7F}del",
            "unassigned \u{0378} and private \u{E000}",
            "",
        ] {
            let d = Description::new(text.to_owned()).unwrap();
            assert_eq!(shown(&d), d.to_string(), "{text:?}");
        }
    }

    #[test]
    fn lud01_lnurl_and_lightning_addresses() {
        let lud01 = "LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS";
        match parse(lud01, now()) {
            Ok(Destination::Lnurl { url, .. }) => {
                assert_eq!(
                    url,
                    "https://service.com/api?q=3fc3645b439ce8e7f2553a69e5267081d96dcd340693afabe04be7b0ccd178df"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse("lnurl1abc", now()),
            Err(DestinationError::BadLnurl(_))
        ));
        assert!(matches!(
            parse("Kari@Example.com", now()),
            Ok(Destination::LightningAddress { .. })
        ));
        assert!(
            parse(" ka ri@x.no ", now()).is_ok(),
            "white space is forgiven"
        );
        for bad in [
            "@example.com",
            "kari@",
            "kari@nodot",
            "kari@x..no",
            "ka/ri@x.no",
        ] {
            assert!(parse(bad, now()).is_err(), "{bad}");
        }
    }

    #[test]
    fn bip21_prefers_the_lightning_invoice() {
        assert!(matches!(
            parse(
                "bitcoin:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2?somethingyoudontunderstand=50",
                now()
            ),
            Ok(Destination::Onchain { .. })
        ));
        assert!(matches!(
            parse(
                "bitcoin:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2?req-somethingyoudontunderstand=50",
                now()
            ),
            Err(DestinationError::BadUri(_))
        ));
        let inv = invoice(Currency::Bitcoin, Some(5_000_000), now(), 600);
        let uri = format!(
            "BITCOIN:BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4?amount=0.00005&lightning={}",
            inv.to_uppercase()
        );
        assert!(matches!(parse(&uri, now()), Ok(Destination::Invoice(_))));
        assert!(matches!(
            parse("bitcoin:?amount=1", now()),
            Err(DestinationError::BadUri(_))
        ));
    }

    #[test]
    fn a_bip21_link_gives_its_amount_and_label_and_a_bad_amount_refuses_it() {
        let addr = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
        let asked = requested(&format!(
            "bitcoin:{addr}?amount=0.001&label=Kari%20Nordmann"
        ));
        assert_eq!(asked.amount_btc, Some(Btc::from_sats(100_000)));
        assert_eq!(asked.label.as_deref(), Some("Kari Nordmann"));
        assert!(
            parse(
                &format!("BITCOIN:{}?AMOUNT=0.001", addr.to_uppercase()),
                now()
            )
            .is_ok()
        );
        assert_eq!(
            requested(&format!("BITCOIN:{addr}?AMOUNT=0.001")).amount_btc,
            Some(Btc::from_sats(100_000))
        );
        assert_eq!(requested(addr), Requested::default());
        assert_eq!(requested(&format!("bitcoin:{addr}")), Requested::default());
        for bad in [
            "0",
            "-1",
            "1e-3",
            "0,001",
            "0.000000001",
            "abc",
            "",
            "21000001",
            "1%20000",
        ] {
            let uri = format!("bitcoin:{addr}?amount={bad}");
            assert!(
                matches!(parse(&uri, now()), Err(DestinationError::BadUri(_))),
                "{bad}"
            );
            assert_eq!(requested(&uri).amount_btc, None, "{bad}");
        }
        // With an invoice, the invoice's own amount stands.
        let inv = invoice(Currency::Bitcoin, Some(5_000_000), now(), 600);
        assert_eq!(
            requested(&format!("bitcoin:{addr}?amount=0.001&lightning={inv}")),
            Requested::default()
        );
    }
}
