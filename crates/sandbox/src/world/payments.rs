//! Receiving (standing destinations, BOLT11 invoices) and sending (withdrawals to addresses,
//! invoices, Lightning addresses and LNURLs, with travel-rule data).

use std::str::FromStr;
use std::time::{Duration as StdDuration, SystemTime};

use bitcoin::hashes::{Hash, sha256};
use bitcoin::secp256k1::{Secp256k1, SecretKey};
use chrono::{DateTime, Duration, Utc};
use lightning_invoice::{Bolt11Invoice, Currency as LnCurrency, InvoiceBuilder, PaymentSecret};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::rng::hash;
use super::{ONCHAIN_FEE_BTC, TaxRow, World, btc_floor, nok_round};
use crate::error::ApiError;

/// The domain of the sandbox's Lightning addresses and LNURLs.
pub const LN_DOMAIN: &str = "sandbox.nordlys.invalid";
/// Seconds until an invoice expires.
pub const INVOICE_EXPIRY_SECONDS: i64 = 3600;
/// Minimum on-chain withdrawal.
const ONCHAIN_MIN_BTC: Decimal = Decimal::from_parts(10_000, 0, 0, false, 8);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum InvoiceOwner {
    /// The demo user.
    User,
    /// Another platform user, for the demo user to pay.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum InvoiceState {
    Unpaid,
    Pending,
    Paid,
    Expired,
    Canceled,
}

impl InvoiceState {
    pub fn wire(self) -> &'static str {
        match self {
            Self::Unpaid => "INVOICE_STATUS_UNPAID",
            Self::Pending => "INVOICE_STATUS_PENDING",
            Self::Paid => "INVOICE_STATUS_PAID",
            Self::Expired => "INVOICE_STATUS_EXPIRED",
            Self::Canceled => "INVOICE_STATUS_CANCELED",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InvoiceRec {
    pub id: String,
    pub bolt11: String,
    pub owner: InvoiceOwner,
    pub account: String,
    /// `None`: any amount.
    pub amount_btc: Option<Decimal>,
    pub created: DateTime<Utc>,
    pub expires: DateTime<Utc>,
    pub state: InvoiceState,
    pub public_description: String,
    pub internal_description: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WithdrawalState {
    Pending,
    Completed,
    Failed,
}

impl WithdrawalState {
    pub fn wire(self) -> &'static str {
        match self {
            Self::Pending => "WITHDRAWAL_STATUS_PENDING",
            Self::Completed => "WITHDRAWAL_STATUS_COMPLETED",
            Self::Failed => "WITHDRAWAL_STATUS_FAILED",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WithdrawalRec {
    pub id: String,
    pub account: String,
    pub destination: String,
    pub kind: DestinationKind,
    pub amount_btc: Decimal,
    pub fee_btc: Decimal,
    pub amount_nok: Decimal,
    pub state: WithdrawalState,
    pub created: DateTime<Utc>,
    pub sent: Option<DateTime<Utc>>,
    pub settle_at: DateTime<Utc>,
    pub is_payment: bool,
    pub description: String,
    /// Taken from `totalBtc` when it was made (the `total` hold reading), not when it completes.
    #[serde(default)]
    pub debited: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DestinationKind {
    Onchain,
    Invoice,
    LightningAddress,
    Lnurl,
    /// An invoice of another platform user: settled at once, inside the platform.
    Internal,
}

impl DestinationKind {
    pub fn network(self) -> &'static str {
        match self {
            Self::Onchain => "NETWORK_BITCOIN",
            _ => "NETWORK_LIGHTNING",
        }
    }

    fn sub_type(self) -> &'static str {
        match self {
            Self::Onchain => "onchain",
            Self::Invoice => "lightning-payment-request",
            Self::LightningAddress => "lightning-address",
            Self::Lnurl => "lightning-lnurl",
            Self::Internal => "internal",
        }
    }
}

/// A destination as the sandbox understands it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    Onchain(String),
    Invoice {
        text: String,
        amount_btc: Option<Decimal>,
        payee: String,
        expired: bool,
    },
    LightningAddress(String),
    Lnurl(String),
}

impl Destination {
    /// Recognises a destination or says precisely why it is not one.
    pub fn parse(text: &str) -> Result<Self, ApiError> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        let bare = lower.strip_prefix("lightning:").unwrap_or(&lower);
        if t.is_empty() {
            return Err(ApiError::invalid("destination is required"));
        }
        if bare.starts_with("lnbc") || bare.starts_with("lntb") || bare.starts_with("lnsb") {
            return parse_invoice(bare);
        }
        if bare.starts_with("lnurl") {
            return parse_lnurl(bare);
        }
        if t.contains('@') {
            return parse_lightning_address(bare);
        }
        let address = bitcoin::Address::from_str(t)
            .map_err(|e| ApiError::invalid(format!("destination is not a valid bitcoin address, invoice, Lightning address or LNURL: {e}")))?;
        let address = address
            .require_network(bitcoin::Network::Bitcoin)
            .map_err(|_| ApiError::invalid("the address is not for bitcoin mainnet"))?;
        Ok(Self::Onchain(address.to_string()))
    }

    /// What the travel rule remembers as "this recipient": the payee of an invoice, otherwise
    /// the destination itself.
    fn identity(&self) -> String {
        match self {
            Self::Onchain(a) => a.clone(),
            Self::Invoice { payee, .. } => format!("node:{payee}"),
            Self::LightningAddress(a) | Self::Lnurl(a) => a.clone(),
        }
    }
}

fn parse_invoice(bare: &str) -> Result<Destination, ApiError> {
    let invoice = Bolt11Invoice::from_str(bare)
        .map_err(|e| ApiError::invalid(format!("the Lightning invoice is malformed: {e}")))?;
    if invoice.currency() != LnCurrency::Bitcoin {
        return Err(ApiError::invalid(
            "the Lightning invoice is not for bitcoin mainnet",
        ));
    }
    let amount_btc = invoice
        .amount_milli_satoshis()
        .map(|msat| Decimal::from(msat) / Decimal::from(100_000_000_000u64));
    Ok(Destination::Invoice {
        text: bare.to_owned(),
        amount_btc,
        payee: invoice.recover_payee_pub_key().to_string(),
        expired: invoice.is_expired(),
    })
}

fn parse_lnurl(bare: &str) -> Result<Destination, ApiError> {
    let (hrp, data) = bech32::decode(bare)
        .map_err(|e| ApiError::invalid(format!("the LNURL is not valid bech32: {e}")))?;
    if hrp.as_str() != "lnurl" {
        return Err(ApiError::invalid("the LNURL has the wrong prefix"));
    }
    let url =
        String::from_utf8(data).map_err(|_| ApiError::invalid("the LNURL does not hold a URL"))?;
    let parsed =
        url::Url::parse(&url).map_err(|_| ApiError::invalid("the LNURL does not hold a URL"))?;
    let onion = parsed.host_str().is_some_and(|h| h.ends_with(".onion"));
    if parsed.scheme() != "https" && !(parsed.scheme() == "http" && onion) {
        return Err(ApiError::invalid("the LNURL must point to an https URL"));
    }
    Ok(Destination::Lnurl(bare.to_owned()))
}

fn parse_lightning_address(bare: &str) -> Result<Destination, ApiError> {
    let (user, domain) = bare
        .split_once('@')
        .ok_or_else(|| ApiError::invalid("not a Lightning address"))?;
    let user_ok = !user.is_empty()
        && user
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c));
    let domain_ok = domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && domain
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    if !user_ok || !domain_ok {
        return Err(ApiError::invalid(format!(
            "`{bare}` is not a valid Lightning address (name@domain)"
        )));
    }
    Ok(Destination::LightningAddress(bare.to_owned()))
}

/// Travel-rule recipient as received.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TravelRule {
    pub full_name: String,
    pub country: String,
    pub address: String,
    pub nin: String,
    pub exchange: String,
    pub self_custody: bool,
}

impl TravelRule {
    fn check(&self) -> Result<(), ApiError> {
        if self.full_name.trim().is_empty() {
            return Err(ApiError::invalid("tfrInfo.fullName is required"));
        }
        if self.address.trim().is_empty() {
            return Err(ApiError::invalid("tfrInfo.address is required"));
        }
        let country = self.country.trim();
        let alpha2 = country.len() == 2 && country.chars().all(|c| c.is_ascii_uppercase());
        if !country.is_empty() && !alpha2 {
            return Err(ApiError::invalid(
                "tfrInfo.country must be an ISO-3166-1 alpha-2 code such as NO",
            ));
        }
        let nin = self.nin.trim();
        // Our reading: in Norway a national identity number has 11 digits and an organisation
        // number 9; a number of any other length cannot be either.
        if !nin.is_empty()
            && country == "NO"
            && !(nin.chars().all(|c| c.is_ascii_digit()) && (nin.len() == 9 || nin.len() == 11))
        {
            return Err(ApiError::invalid(
                "tfrInfo.nin must be an 11-digit national identity number or a 9-digit organisation number",
            ));
        }
        Ok(())
    }
}

/// A validated withdrawal request.
#[derive(Debug, Clone)]
pub struct NewWithdrawal {
    pub destination: String,
    pub amount_btc: Option<Decimal>,
    pub account_id: String,
    pub is_payment: bool,
    pub description: String,
    pub tfr_info: Option<TravelRule>,
}

/// How a bitcoin deposit arrives: to the account's newest on-chain address, or over Lightning
/// to the user's Lightning address or an LNURL (no invoice of theirs involved).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DepositVia {
    #[default]
    Onchain,
    LightningAddress,
    LightningLnurl,
}

impl World {
    fn node_key(&self) -> SecretKey {
        let mut h = hash(&[self.seed, 0x0de]);
        loop {
            let mut bytes = [0u8; 32];
            for (i, chunk) in bytes.chunks_mut(8).enumerate() {
                chunk.copy_from_slice(&super::rng::mix(h.wrapping_add(i as u64)).to_le_bytes());
            }
            if let Ok(k) = SecretKey::from_slice(&bytes) {
                return k;
            }
            h = super::rng::mix(h);
        }
    }

    /// A fresh mainnet P2WPKH address for account `index`.
    pub fn new_address(&mut self, index: usize) -> String {
        let program = self.rng.bytes32();
        let mut h = [0u8; 20];
        h.copy_from_slice(&program[..20]);
        let script = bitcoin::ScriptBuf::new_p2wpkh(&bitcoin::WPubkeyHash::from_byte_array(h));
        let address = bitcoin::Address::from_script(&script, bitcoin::Network::Bitcoin)
            .map(|a| a.to_string())
            .unwrap_or_default();
        self.accounts[index].addresses.push(address.clone());
        address
    }

    pub fn lightning_address(&self, index: usize) -> String {
        let a = &self.accounts[index];
        let tag = a.id.trim_start_matches("acc_").to_ascii_lowercase();
        format!("demo.{tag}@{LN_DOMAIN}")
    }

    pub fn lnurl(&self, index: usize) -> String {
        let (user, _) = self
            .lightning_address(index)
            .split_once('@')
            .map(|(u, d)| (u.to_owned(), d.to_owned()))
            .unwrap_or_default();
        let url = format!("https://{LN_DOMAIN}/.well-known/lnurlp/{user}");
        let hrp = bech32::Hrp::parse_unchecked("lnurl");
        bech32::encode::<bech32::Bech32>(hrp, url.as_bytes())
            .map(|s| s.to_ascii_uppercase())
            .unwrap_or_default()
    }

    /// Creates a BOLT11 invoice signed by the sandbox node. `amount_btc` of zero accepts any amount.
    pub fn create_invoice(
        &mut self,
        owner: InvoiceOwner,
        account_index: usize,
        amount_btc: Decimal,
        public_description: String,
        internal_description: String,
        now: DateTime<Utc>,
    ) -> Result<InvoiceRec, ApiError> {
        let preimage = self.rng.bytes32();
        let secret = self.rng.bytes32();
        let payment_hash = sha256::Hash::hash(&preimage);
        let description_hash = sha256::Hash::hash(public_description.as_bytes());
        let timestamp = SystemTime::UNIX_EPOCH
            + StdDuration::from_secs(u64::try_from(now.timestamp()).unwrap_or(0));
        let mut builder = InvoiceBuilder::new(LnCurrency::Bitcoin)
            .description_hash(description_hash)
            .payment_hash(payment_hash)
            .payment_secret(PaymentSecret(secret))
            .timestamp(timestamp)
            .min_final_cltv_expiry_delta(144)
            .expiry_time(StdDuration::from_secs(INVOICE_EXPIRY_SECONDS as u64));
        let amount = (amount_btc > Decimal::ZERO).then_some(amount_btc);
        if let Some(a) = amount {
            let msat = u64::try_from((a * Decimal::from(100_000_000_000u64)).trunc())
                .map_err(|_| ApiError::invalid("amount is out of range"))?;
            builder = builder.amount_milli_satoshis(msat);
        }
        let key = self.node_key();
        let secp = Secp256k1::new();
        let invoice = builder
            .build_signed(|m| secp.sign_ecdsa_recoverable(m, &key))
            .map_err(|e| ApiError::internal(format!("could not create the invoice: {e}")))?;
        let rec = InvoiceRec {
            id: self.new_id("ded_"),
            bolt11: invoice.to_string(),
            owner,
            account: self.accounts[account_index].id.clone(),
            amount_btc: amount,
            created: now,
            expires: now + Duration::seconds(INVOICE_EXPIRY_SECONDS),
            state: InvoiceState::Unpaid,
            public_description,
            internal_description,
        };
        self.counters.invoices_created += 1;
        self.invoices.push(rec.clone());
        Ok(rec)
    }

    /// The user's invoice by `ded_` id or by the invoice text.
    pub fn find_invoice(&self, id_or_invoice: &str) -> Option<&InvoiceRec> {
        let t = id_or_invoice.trim();
        let bare = t.to_ascii_lowercase();
        let bare = bare.strip_prefix("lightning:").unwrap_or(&bare).to_owned();
        self.invoices
            .iter()
            .find(|i| i.owner == InvoiceOwner::User && (i.id == t || i.bolt11 == bare))
    }

    /// Pays invoice `index` with `amount` (its own amount when it has one). World control and
    /// internal payments.
    pub fn settle_invoice(
        &mut self,
        index: usize,
        amount: Option<Decimal>,
        from_outside: bool,
        now: DateTime<Utc>,
    ) -> Result<Decimal, ApiError> {
        let inv = &self.invoices[index];
        match inv.state {
            InvoiceState::Unpaid | InvoiceState::Pending => {}
            InvoiceState::Paid => {
                return Err(ApiError::precondition("the invoice is already paid"));
            }
            InvoiceState::Expired => return Err(ApiError::precondition("the invoice has expired")),
            InvoiceState::Canceled => {
                return Err(ApiError::precondition("the invoice is cancelled"));
            }
        }
        if inv.expires <= now {
            self.invoices[index].state = InvoiceState::Expired;
            return Err(ApiError::precondition("the invoice has expired"));
        }
        let paid = match (inv.amount_btc, amount) {
            (Some(a), _) => a,
            (None, Some(a)) if a > Decimal::ZERO => btc_floor(a),
            (None, _) => {
                return Err(ApiError::invalid(
                    "an amount is needed to pay an invoice for any amount",
                ));
            }
        };
        let account = inv.account.clone();
        let owner = inv.owner;
        let id = inv.id.clone();
        self.invoices[index].state = InvoiceState::Paid;
        if owner == InvoiceOwner::User {
            if from_outside {
                self.books.deposits_btc += paid;
            } else {
                self.books.others_btc -= paid;
            }
            if let Some(i) = self.accounts.iter().position(|a| a.id == account) {
                self.accounts[i].btc += paid;
                let running = self.accounts[i].btc;
                let usdnok = self.usdnok(now.date_naive());
                let rate = self.market.mid;
                let row_id = format!("de_{}", id.trim_start_matches("ded_"));
                let info = self.transfer_info(&row_id, &self.invoices[index].bolt11);
                self.push_row(
                    TaxRow::new(
                        row_id,
                        &account,
                        "TAX_TRANSACTION_TYPE_BTC_DEPOSIT",
                        "lightning",
                        now,
                        running,
                    )
                    .received(paid, "BTC")
                    .rate(rate)
                    .usdnok(usdnok)
                    .payment(false, &info)
                    .note(&self.invoices[index].internal_description),
                );
            }
        } else {
            self.books.others_btc += paid;
        }
        Ok(paid)
    }

    pub(super) fn expire_invoices(&mut self, now: DateTime<Utc>) {
        for inv in &mut self.invoices {
            if matches!(inv.state, InvoiceState::Unpaid) && inv.expires <= now {
                inv.state = InvoiceState::Expired;
            }
        }
    }

    /// An on-chain deposit from outside to the newest address of account `index`; the account
    /// then gets a new address, and the old ones stay valid.
    /// A bitcoin deposit to account `index`; an on-chain one goes to its newest address, which
    /// is then used, so a new one is made. Answers the address it went to (empty for Lightning).
    pub fn deposit_btc(
        &mut self,
        index: usize,
        amount: Decimal,
        via: DepositVia,
        now: DateTime<Utc>,
    ) -> Result<String, ApiError> {
        if amount <= Decimal::ZERO || amount.normalize().scale() > 8 {
            return Err(ApiError::invalid(
                "amountBtc must be positive with at most 8 decimals",
            ));
        }
        let (sub, address) = match via {
            DepositVia::Onchain => (
                "onchain",
                self.accounts[index]
                    .addresses
                    .last()
                    .cloned()
                    .unwrap_or_default(),
            ),
            DepositVia::LightningAddress => ("lightning-address", String::new()),
            DepositVia::LightningLnurl => ("lightning-lnurl", String::new()),
        };
        let info_destination = match via {
            DepositVia::Onchain => address.clone(),
            DepositVia::LightningAddress | DepositVia::LightningLnurl => {
                self.lightning_address(index)
            }
        };
        self.accounts[index].btc += amount;
        self.books.deposits_btc += amount;
        let running = self.accounts[index].btc;
        let id = self.new_id("de_");
        let usdnok = self.usdnok(now.date_naive());
        let rate = self.market.mid;
        let account_id = self.accounts[index].id.clone();
        let info = self.transfer_info(&id, &info_destination);
        self.push_row(
            TaxRow::new(
                id,
                &account_id,
                "TAX_TRANSACTION_TYPE_BTC_DEPOSIT",
                sub,
                now,
                running,
            )
            .received(amount, "BTC")
            .rate(rate)
            .usdnok(usdnok)
            .payment(false, &info),
        );
        if via == DepositVia::Onchain {
            self.new_address(index);
        }
        Ok(address)
    }

    /// Starts a withdrawal. Internal payments complete at once; others settle a few seconds later.
    pub fn create_withdrawal(
        &mut self,
        new: NewWithdrawal,
        now: DateTime<Utc>,
    ) -> Result<WithdrawalRec, ApiError> {
        let account_index = self.account_index(&new.account_id)?;
        let destination = Destination::parse(&new.destination)?;
        if let Some(a) = new.amount_btc {
            if a <= Decimal::ZERO {
                return Err(ApiError::invalid("amountBtc must be positive"));
            }
            if a.normalize().scale() > 8 {
                return Err(ApiError::invalid("amountBtc has more than 8 decimals"));
            }
        }
        let (kind, amount, text) = match &destination {
            Destination::Invoice {
                text,
                amount_btc,
                expired,
                ..
            } => {
                if *expired {
                    return Err(ApiError::precondition("the Lightning invoice has expired"));
                }
                let own = self.invoices.iter().position(|i| &i.bolt11 == text);
                if let Some(i) = own {
                    let inv = &self.invoices[i];
                    if inv.owner == InvoiceOwner::User {
                        return Err(ApiError::precondition(
                            "this is your own invoice; it cannot be paid from the same user",
                        ));
                    }
                    match inv.state {
                        InvoiceState::Paid => {
                            return Err(ApiError::precondition("the invoice is already paid"));
                        }
                        InvoiceState::Canceled => {
                            return Err(ApiError::precondition("the invoice is cancelled"));
                        }
                        InvoiceState::Expired => {
                            return Err(ApiError::precondition(
                                "the Lightning invoice has expired",
                            ));
                        }
                        _ => {}
                    }
                }
                let amount = match (amount_btc, new.amount_btc) {
                    (Some(inv), Some(given)) if *inv != given => {
                        return Err(ApiError::invalid(format!(
                            "amountBtc {given} differs from the invoice amount {inv}; leave it out for an invoice with an amount"
                        )));
                    }
                    (Some(inv), _) => *inv,
                    (None, Some(given)) => given,
                    (None, None) => {
                        return Err(ApiError::invalid(
                            "amountBtc is required for an invoice without an amount",
                        ));
                    }
                };
                let kind = if own.is_some() {
                    DestinationKind::Internal
                } else {
                    DestinationKind::Invoice
                };
                (kind, amount, text.clone())
            }
            other => {
                let amount = new.amount_btc.ok_or_else(|| {
                    ApiError::invalid("amountBtc is required for this destination")
                })?;
                match other {
                    Destination::Onchain(a) => {
                        if amount < ONCHAIN_MIN_BTC {
                            return Err(ApiError::invalid(format!(
                                "the minimum on-chain withdrawal is {ONCHAIN_MIN_BTC} BTC"
                            )));
                        }
                        (DestinationKind::Onchain, amount, a.clone())
                    }
                    Destination::LightningAddress(a) => {
                        (DestinationKind::LightningAddress, amount, a.clone())
                    }
                    Destination::Lnurl(a) => (DestinationKind::Lnurl, amount, a.clone()),
                    Destination::Invoice { .. } => unreachable_kind()?,
                }
            }
        };
        let identity = destination.identity();
        if !self.used_destinations.contains(&identity) {
            let info = new.tfr_info.as_ref().ok_or_else(|| {
                ApiError::invalid("tfrInfo is required for a destination not used before: fullName and address at least")
            })?;
            info.check()?;
        } else if let Some(info) = &new.tfr_info {
            info.check()?;
        }
        let fee = if kind == DestinationKind::Onchain {
            ONCHAIN_FEE_BTC
        } else {
            Decimal::ZERO
        };
        let available = self.available_btc(account_index);
        if amount + fee > available {
            return Err(ApiError::precondition(format!(
                "insufficient funds: {} BTC needed including fees, {available} BTC available",
                amount + fee
            )));
        }
        self.used_destinations.insert(identity);
        self.counters.withdrawals_created += 1;
        let settle_after = if kind == DestinationKind::Onchain {
            5
        } else {
            2
        };
        let rec = WithdrawalRec {
            id: self.new_id("wi_"),
            account: self.accounts[account_index].id.clone(),
            destination: text,
            kind,
            amount_btc: amount,
            fee_btc: fee,
            amount_nok: nok_round(amount * self.market.mid),
            state: WithdrawalState::Pending,
            created: now,
            sent: None,
            settle_at: now + Duration::seconds(settle_after),
            is_payment: new.is_payment,
            description: new.description,
            debited: self.readings.withdrawal_hold == super::WithdrawalHold::Total,
        };
        if rec.debited {
            self.accounts[account_index].btc -= amount + fee;
        }
        self.withdrawals.push(rec);
        let index = self.withdrawals.len() - 1;
        if kind == DestinationKind::Internal {
            self.finish_withdrawal(index, true, now)?;
        }
        Ok(self.withdrawals[index].clone())
    }

    pub(super) fn settle_withdrawals(&mut self, now: DateTime<Utc>) {
        for i in 0..self.withdrawals.len() {
            let w = &self.withdrawals[i];
            if w.state == WithdrawalState::Pending && w.settle_at <= now {
                let at = w.settle_at;
                // Cannot fail for a pending withdrawal of an existing account.
                let _ = self.finish_withdrawal(i, true, at);
            }
        }
    }

    /// Completes (or fails and refunds) a pending withdrawal.
    pub fn finish_withdrawal(
        &mut self,
        index: usize,
        success: bool,
        now: DateTime<Utc>,
    ) -> Result<(), ApiError> {
        let w = self.withdrawals[index].clone();
        if w.state != WithdrawalState::Pending {
            return Err(ApiError::precondition(format!(
                "withdrawal {} is no longer pending",
                w.id
            )));
        }
        let Some(a) = self.accounts.iter().position(|a| a.id == w.account) else {
            return Err(ApiError::internal("the withdrawal's account is gone"));
        };
        if !success {
            // Nothing left the account: the reservation is released (or the debit credited
            // back), which is the refund.
            if w.debited {
                self.accounts[a].btc += w.amount_btc + w.fee_btc;
            }
            self.withdrawals[index].state = WithdrawalState::Failed;
            return Ok(());
        }
        if w.kind == DestinationKind::Internal {
            let inv = self.invoices.iter().position(|i| i.bolt11 == w.destination);
            if let Some(i) = inv {
                self.settle_invoice(i, Some(w.amount_btc), false, now)?;
            }
        } else {
            self.books.withdrawals_btc += w.amount_btc;
        }
        if !w.debited {
            self.accounts[a].btc -= w.amount_btc + w.fee_btc;
        }
        self.books.fees_btc += w.fee_btc;
        self.withdrawals[index].state = WithdrawalState::Completed;
        self.withdrawals[index].sent = Some(now);
        let running = self.accounts[a].btc;
        let id = self.uuid();
        let usdnok = self.usdnok(now.date_naive());
        let rate = self.market.mid;
        let info = self.transfer_info(&id, &w.destination);
        self.push_row({
            let row = TaxRow::new(
                id,
                &w.account,
                "TAX_TRANSACTION_TYPE_BTC_WITHDRAWAL",
                w.kind.sub_type(),
                now,
                running,
            )
            .paid(w.amount_btc, "BTC")
            .rate(rate)
            .usdnok(usdnok)
            .payment(w.is_payment, &info)
            .note(&self.echoed(&w.description));
            if w.fee_btc.is_zero() {
                row
            } else {
                row.fee(w.fee_btc, "BTC")
            }
        });
        Ok(())
    }
}

fn unreachable_kind() -> Result<(DestinationKind, Decimal, String), ApiError> {
    Err(ApiError::internal("destination kind mismatch"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_are_recognised() {
        assert!(matches!(
            Destination::parse("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
            Ok(Destination::Onchain(_))
        ));
        assert!(matches!(
            Destination::parse("BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ"),
            Ok(Destination::Onchain(_))
        ));
        assert!(matches!(
            Destination::parse("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"),
            Ok(Destination::Onchain(_))
        ));
        assert!(matches!(
            Destination::parse("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"),
            Ok(Destination::Onchain(_))
        ));
        assert!(matches!(
            Destination::parse("kari@example.com"),
            Ok(Destination::LightningAddress(_))
        ));
        let lud01 = "LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS";
        assert!(matches!(
            Destination::parse(lud01),
            Ok(Destination::Lnurl(_))
        ));
    }

    #[test]
    fn bad_destinations_say_why() {
        for (bad, word) in [
            ("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp", "not a valid"),
            ("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "mainnet"),
            ("lnbc1notaninvoice", "malformed"),
            ("lnurl1abc", "bech32"),
            ("@nowhere", "Lightning address"),
            ("hello", "not a valid"),
            ("", "required"),
        ] {
            let e = Destination::parse(bad).unwrap_err();
            assert!(e.message.contains(word), "{bad}: {}", e.message);
        }
    }
}
