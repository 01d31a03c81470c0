//! The simulated exchange: one demo user's accounts, the market, orders, invoices, withdrawals and
//! the tax ledger, all behind one lock and all following from the seed.
//!
//! Money adds up: every movement is booked against the user, the house (the exchange as
//! counterparty), the fee income, or other platform users, and [`World::audit`] checks that the
//! sum of all of them equals deposits minus withdrawals, for BTC and for NOK.

mod history;
mod market;
mod orders;
mod payments;
mod readings;
pub mod rng;
mod tax;

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

pub use market::{Market, Quote, VolumeStats};
pub use orders::{OrderDirection, OrderKind, OrderRec, OrderState, PendingFill};
pub use payments::{
    DepositVia, Destination, InvoiceOwner, InvoiceRec, InvoiceState, WithdrawalRec, WithdrawalState,
};
pub use readings::{
    BuyFee, BuySpend, DefaultAccount, EmptyStyle, ErrorStyle, Readings, RunningBalance,
    WithdrawalHold,
};

/// Request types and tables the HTTP layer needs.
pub mod orders_api {
    pub use super::orders::{NewOrder, OrderDirection, OrderKind};
}
pub mod payments_api {
    pub use super::payments::{NewWithdrawal, TravelRule};
}
pub mod market_api {
    pub use super::market::{MARKETS, VolumeStats, shares};
}
pub use tax::{TaxPage, TaxRow};

use crate::error::ApiError;
use crate::oauth::OAuthState;
use rng::{BASE62, BASE64, ID_CHARS, Rng};

/// Trading fee on every fill.
pub const TRADE_FEE: Decimal = Decimal::from_parts(5, 0, 0, false, 3); // 0.005
/// Network fee charged on an on-chain withdrawal.
pub const ONCHAIN_FEE_BTC: Decimal = Decimal::from_parts(2000, 0, 0, false, 8); // 0.00002000

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Account {
    pub id: String,
    pub name: String,
    pub btc: Decimal,
    pub created: DateTime<Utc>,
    pub deleted: Option<DateTime<Utc>>,
    /// Every on-chain address generated, newest last; all stay valid.
    pub addresses: Vec<String>,
}

/// Permission of an API key besides reading (5.1), and Receive, which the exchange's
/// integrations ask for to create invoices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyPermissions {
    pub trading: bool,
    pub withdrawal: bool,
    /// Kept in a state file written before keys had it: those keys created invoices.
    #[serde(default = "granted")]
    pub receive: bool,
}

fn granted() -> bool {
    true
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KeyRec {
    pub name: String,
    pub key: String,
    pub secret: String,
    pub permissions: KeyPermissions,
    pub last_nonce: u64,
}

/// Where every unit of value is; see [`World::audit`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Books {
    pub house_btc: Decimal,
    pub house_nok: Decimal,
    pub fees_btc: Decimal,
    pub fees_nok: Decimal,
    pub others_btc: Decimal,
    pub deposits_btc: Decimal,
    pub withdrawals_btc: Decimal,
    pub deposits_nok: Decimal,
    pub withdrawals_nok: Decimal,
}

/// How many orders and withdrawals were ever created: what fault tests compare with journals.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Counters {
    pub orders_created: u64,
    pub withdrawals_created: u64,
    pub invoices_created: u64,
    pub trades: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct DayVolume {
    pub nok: Decimal,
    pub btc: Decimal,
    pub buys: u64,
    pub trades: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct World {
    pub seed: u64,
    pub rng: Rng,
    pub market: Market,
    pub fiat_nok: Decimal,
    pub accounts: Vec<Account>,
    pub orders: Vec<OrderRec>,
    pub invoices: Vec<InvoiceRec>,
    pub withdrawals: Vec<WithdrawalRec>,
    /// Destinations already paid to (a BOLT11 invoice counts by its payee): the travel rule asks
    /// recipient data only for new ones.
    pub used_destinations: BTreeSet<String>,
    pub ledger: Vec<TaxRow>,
    pub keys: Vec<KeyRec>,
    pub oauth: OAuthState,
    pub books: Books,
    pub counters: Counters,
    pub user_volume: BTreeMap<NaiveDate, DayVolume>,
    pub next_id: u64,
    /// Trades of market orders still to be made under the fill-spread reading, oldest first;
    /// their funds are reserved meanwhile.
    #[serde(default)]
    pub pending_fills: Vec<PendingFill>,
    /// How this exchange behaves where the specification is silent.
    #[serde(default)]
    pub readings: Readings,
    /// The operator's abbreviation in header names and key prefixes (`svc` in the specification).
    #[serde(default = "spec_operator")]
    pub operator: String,
    /// The time of the latest request, on the exchange's own clock.
    #[serde(skip)]
    pub seen: Option<DateTime<Utc>>,
}

fn spec_operator() -> String {
    "svc".to_owned()
}

/// Whether `text` is an abbreviation an operator may have: 1 to 16 lower-case letters or digits.
pub fn is_operator(text: &str) -> bool {
    (1..=16).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

impl World {
    /// Serves as the operator `abbr` (checked with [`is_operator`]): the header names become
    /// `x-<abbr>-api-…` and every key and secret takes its prefixes. A secret keeps its random
    /// part, shortened by up to three characters so the complete secret is still whole Base64.
    pub fn use_operator(&mut self, abbr: &str) {
        let key_prefix = format!("{abbr}/public/");
        let secret_prefix = format!("{abbr}/apisecret/");
        let old_key = format!("{}/public/", self.operator);
        let old_secret = format!("{}/apisecret/", self.operator);
        for k in &mut self.keys {
            let key_rest = k.key.strip_prefix(&old_key).unwrap_or(&k.key).to_owned();
            let mut body = k
                .secret
                .strip_prefix(&old_secret)
                .unwrap_or(&k.secret)
                .to_owned();
            while (secret_prefix.len() + body.len()) % 4 != 0 {
                body.pop();
            }
            k.key = format!("{key_prefix}{key_rest}");
            k.secret = format!("{secret_prefix}{body}");
        }
        abbr.clone_into(&mut self.operator);
    }

    /// A fresh world for `seed` with its seeded history, as of `now`.
    pub fn new(seed: u64, now: DateTime<Utc>) -> Self {
        let mut rng = Rng::new(seed);
        let mut keys: Vec<KeyRec> = ["read", "trading", "withdrawal"]
            .iter()
            .map(|name| KeyRec {
                name: (*name).to_owned(),
                key: format!("svc/public/{}", rng.text(BASE62, 24)),
                // 14 + 38 = 52 characters: whole Base64 quanta, so the complete secret decodes.
                secret: format!("svc/apisecret/{}", rng.text(BASE64, 38)),
                permissions: KeyPermissions {
                    trading: *name != "read",
                    withdrawal: *name == "withdrawal",
                    receive: true,
                },
                last_nonce: 0,
            })
            .collect();
        // A read-only key without Receive, from a generator of its own so that every other
        // seeded value stays as it was.
        let mut own = Rng::new(seed ^ 0x4ece_17e0);
        keys.push(KeyRec {
            name: "noReceive".to_owned(),
            key: format!("svc/public/{}", own.text(BASE62, 24)),
            secret: format!("svc/apisecret/{}", own.text(BASE64, 38)),
            permissions: KeyPermissions {
                trading: false,
                withdrawal: false,
                receive: false,
            },
            last_nonce: 0,
        });
        let oauth = OAuthState::new(&mut rng);
        let mut world = Self {
            seed,
            market: Market::new(seed, now),
            rng,
            fiat_nok: Decimal::ZERO,
            accounts: vec![],
            orders: vec![],
            invoices: vec![],
            withdrawals: vec![],
            used_destinations: BTreeSet::new(),
            pending_fills: Vec::new(),
            ledger: vec![],
            keys,
            oauth,
            books: Books::default(),
            counters: Counters::default(),
            user_volume: BTreeMap::new(),
            next_id: 1,
            readings: Readings::default(),
            operator: spec_operator(),
            seen: None,
        };
        world.seed_history(now);
        world
    }

    /// A new id with `prefix`, unique in this world.
    pub fn new_id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        let tail = self.rng.text(ID_CHARS, 6);
        format!("{prefix}{:06}{tail}", self.next_id)
    }

    pub fn uuid(&mut self) -> String {
        let a = self.rng.next_u64();
        let b = self.rng.next_u64();
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            0x8000 | (b >> 48 & 0x3fff),
            b & 0xffff_ffff_ffff
        )
    }

    /// Moves time to `now`: the price walks, resting orders that the price crossed fill,
    /// withdrawals settle, invoices expire.
    pub fn advance(&mut self, now: DateTime<Utc>) {
        self.seen = Some(now);
        self.make_due_fills(now);
        self.market.advance(now);
        self.fill_crossed_orders(now);
        self.settle_withdrawals(now);
        self.expire_invoices(now);
    }

    /// Now on the exchange's clock, which is off by the clock-skew reading.
    pub fn clock(&self) -> DateTime<Utc> {
        Utc::now() + self.readings.skew()
    }

    /// A description as the tax rows carry it under the note-echo reading.
    fn echoed(&self, description: &str) -> String {
        if self.readings.no_note_echo {
            String::new()
        } else {
            description.to_owned()
        }
    }

    // ---- accounts and balances ----

    /// The account an `accountId` names; empty means the default account, the first or the
    /// last live one as the reading says.
    pub fn account_index(&self, id: &str) -> Result<usize, ApiError> {
        let id = id.trim();
        if id.is_empty() {
            let live = |a: &Account| a.deleted.is_none();
            let default = match self.readings.default_account {
                DefaultAccount::First => self.accounts.iter().position(live),
                DefaultAccount::Last => self.accounts.iter().rposition(live),
            };
            return default
                .ok_or_else(|| ApiError::precondition("the user has no bitcoin account"));
        }
        let i = self
            .accounts
            .iter()
            .position(|a| a.id == id)
            .ok_or_else(|| ApiError::not_found(format!("no bitcoin account with id {id}")))?;
        if self.accounts[i].deleted.is_some() {
            return Err(ApiError::precondition(format!(
                "bitcoin account {id} is deleted"
            )));
        }
        Ok(i)
    }

    pub fn reserved_btc(&self, account_id: &str) -> Decimal {
        let orders: Decimal = self
            .orders
            .iter()
            .filter(|o| {
                o.is_open() && o.account == account_id && o.direction == OrderDirection::Sell
            })
            .map(|o| o.amount)
            .sum::<Decimal>()
            + self
                .pending_fills
                .iter()
                .filter(|f| f.account == account_id && f.direction == OrderDirection::Sell)
                .map(|f| f.btc)
                .sum::<Decimal>();
        let withdrawals: Decimal = self
            .withdrawals
            .iter()
            .filter(|w| {
                w.account == account_id && w.state == WithdrawalState::Pending && !w.debited
            })
            .map(|w| w.amount_btc + w.fee_btc)
            .sum();
        orders + withdrawals
    }

    pub fn available_btc(&self, index: usize) -> Decimal {
        let a = &self.accounts[index];
        a.btc - self.reserved_btc(&a.id)
    }

    pub fn reserved_nok(&self) -> Decimal {
        self.orders
            .iter()
            .filter(|o| o.is_open() && o.direction == OrderDirection::Buy)
            .map(|o| o.amount)
            .sum::<Decimal>()
            + self
                .pending_fills
                .iter()
                .filter(|f| f.direction == OrderDirection::Buy)
                .map(|f| f.nok_gross + f.fee)
                .sum::<Decimal>()
    }

    pub fn available_nok(&self) -> Decimal {
        self.fiat_nok - self.reserved_nok()
    }

    pub fn user_btc(&self) -> Decimal {
        self.accounts.iter().map(|a| a.btc).sum()
    }

    /// Checks that no operation created or destroyed value. `Err` says by how much.
    pub fn audit(&self) -> Result<(), String> {
        let b = &self.books;
        // A pending withdrawal debited at once is on its way out, not yet booked as gone.
        let leaving: Decimal = self
            .withdrawals
            .iter()
            .filter(|w| w.debited && w.state == WithdrawalState::Pending)
            .map(|w| w.amount_btc + w.fee_btc)
            .sum();
        let btc = self.user_btc() + leaving + b.house_btc + b.fees_btc + b.others_btc;
        let want_btc = b.deposits_btc - b.withdrawals_btc;
        let nok = self.fiat_nok + b.house_nok + b.fees_nok;
        let want_nok = b.deposits_nok - b.withdrawals_nok;
        let negative = self
            .accounts
            .iter()
            .any(|a| a.btc.is_sign_negative() && !a.btc.is_zero())
            || (self.fiat_nok.is_sign_negative() && !self.fiat_nok.is_zero());
        match (btc == want_btc, nok == want_nok, negative) {
            (true, true, false) => Ok(()),
            _ => Err(format!(
                "books do not balance: BTC held {btc} vs deposits-withdrawals {want_btc}; NOK held {nok} vs {want_nok}; \
                 negative balance: {negative}"
            )),
        }
    }

    /// Credits fiat from outside (a bank deposit).
    pub fn deposit_nok(&mut self, amount: Decimal, at: DateTime<Utc>, sub_type: &str) {
        self.fiat_nok += amount;
        self.books.deposits_nok += amount;
        // The format of bank-deposit ids is cut off in 2.1; the sandbox uses a UUID.
        let id = self.uuid();
        let row = TaxRow::fiat(
            id,
            "TAX_TRANSACTION_TYPE_FIAT_DEPOSIT",
            sub_type,
            at,
            Some(amount),
            None,
            self.user_btc(),
        );
        // A bank transfer names the counterparty's account; a card deposit names nothing.
        let row = if sub_type == "bank" {
            row.payment(false, &self.bank_account())
        } else {
            row
        };
        self.push_row(row);
    }
}

/// Rounds BTC down to satoshis: the exchange never pays out a fraction it does not have.
pub fn btc_floor(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(8, rust_decimal::RoundingStrategy::ToZero)
}

/// Rounds NOK down to øre.
pub fn nok_floor(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero)
}

pub fn nok_round(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
}
