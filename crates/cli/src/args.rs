//! The command line as clap reads it: every subcommand, flag and value parser, and nothing
//! that runs.

use std::str::FromStr;

use chrono::NaiveDate;
use clap::{Args, Parser, Subcommand, ValueEnum};
use nordlys_exchange::Operator;
use nordlys_exchange::ids::AccountId;
use rust_decimal::Decimal;

use crate::environment;

#[derive(Debug, Parser)]
#[command(
    name = "nordlys-cli",
    version,
    about = "Talk to the exchange API from a terminal: one subcommand per endpoint.",
    after_help = "Credentials: NORDLYS_API_KEY and NORDLYS_API_SECRET (signed calls), or NORDLYS_ACCESS_TOKEN \
                  (OAuth), or the OS keyring (service `nordlys-cli`, entries api-key, api-secret, access-token). \
                  Exit codes: 0 ok, 1 failed or refused, 2 bad usage, 3 outcome unknown (inspect before retrying)."
)]
pub(crate) struct Cli {
    /// The exchange's base URL (https, or http to 127.0.0.1); needed by commands that talk to it.
    #[arg(long, env = environment::BASE_URL, global = true)]
    pub(crate) base_url: Option<String>,
    /// Seconds every HTTP request may take, reads included (1–600).
    #[arg(long, env = environment::TIMEOUT, global = true, default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=600))]
    pub(crate) timeout: u64,
    /// The operator's abbreviation in header names and key prefixes (1–16 lower-case letters or
    /// digits).
    #[arg(long, env = environment::OPERATOR, global = true, default_value = "svc")]
    pub(crate) operator: Operator,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Current BTC/NOK price (endpoint 7).
    Price {
        /// NOK amount to quote for (server default 5000).
        #[arg(long, value_parser = decimal, allow_hyphen_values = true)]
        amount: Option<Decimal>,
    },
    /// Trade volume statistics (endpoint 8).
    Volume {
        /// YYYY-MM-DD (server default today).
        #[arg(long)]
        date: Option<NaiveDate>,
    },
    /// Daily volume per market from a date until today (endpoint 9).
    VolumeHistoric {
        /// YYYY-MM-DD, first day (server default one month ago).
        #[arg(long)]
        date: Option<NaiveDate>,
    },
    /// Bitcoin accounts (endpoint 10).
    Accounts {
        #[arg(long)]
        include_deleted: bool,
    },
    /// The fiat account (endpoint 11).
    Fiat,
    /// Standing deposit destinations (endpoint 1).
    DepositDestinations {
        /// Account id; the default account when left out.
        #[arg(long)]
        account: Option<String>,
    },
    /// Lightning invoices (endpoints 2, 3).
    #[command(subcommand)]
    Invoice(InvoiceCommand),
    /// Orders (endpoints 4, 5, 6).
    #[command(subcommand)]
    Orders(OrdersCommand),
    /// Send bitcoin (endpoint 15). Never retried.
    Withdraw(WithdrawArgs),
    /// Withdrawals (endpoint 16).
    #[command(subcommand)]
    Withdrawal(WithdrawalCommand),
    /// Tax data (endpoints 13, 14).
    #[command(subcommand)]
    Tax(TaxCommand),
    /// OAuth consent (endpoint 12).
    #[command(subcommand)]
    Consent(ConsentCommand),
    /// The journal of orders and withdrawals sent from this state directory.
    #[command(subcommand)]
    Journal(JournalCommand),
    /// Recurring buys, run by `plans run-due` (from a timer) or by the app, each slot once.
    #[command(subcommand)]
    Plans(PlansCommand),
    /// Stores an API key and secret (or with --token an OAuth access token) in the OS keyring
    /// for --base-url and --operator, read from the terminal (hidden) or one line each on
    /// standard input. Checked first; replaces what was stored.
    Login {
        #[arg(long)]
        token: bool,
    },
    /// Removes what `login` stored from the OS keyring.
    Logout,
    /// The key an app profile's encrypted store opens with (NORDLYS_STATE_DIR is the profile's
    /// directory, `…/profiles/<id>`).
    #[command(subcommand)]
    Store(StoreCommand),
}

#[derive(Debug, Subcommand)]
pub(crate) enum StoreCommand {
    /// Prints {"profile": ID, "key": HEX}: the store's key, to keep somewhere safe. Lost, the key
    /// takes the store with it, and the journal's evidence for payments whose outcome is unknown.
    ExportKey,
    /// Puts a backed-up key (64 hexadecimal digits, one line on standard input) back in the
    /// keyring, after checking that it opens the store; prints {"profile": ID, "imported": true}.
    ImportKey,
}

#[derive(Debug, Subcommand)]
pub(crate) enum JournalCommand {
    /// Every entry, as a JSON array.
    List,
    /// Looks at the exchange now for entries whose outcome is unknown (or for entry ID) and
    /// prints the entries looked at.
    Check { id: Option<i64> },
    /// Records that you checked the exchange's history and entry ID was not sent (not placed,
    /// for an order), or, with --placed, that you see the order placed on the exchange (nothing
    /// is sent either way). Refused when the entry is not unknown, the exchange shows otherwise,
    /// or --order-id names an order that is not this entry's open order.
    Settle {
        id: i64,
        #[arg(long, required_unless_present = "placed", conflicts_with = "placed")]
        not_sent: bool,
        /// The order was placed (an order only); --order-id names it while it is still open.
        #[arg(long)]
        placed: bool,
        #[arg(long, requires = "placed")]
        order_id: Option<String>,
        #[arg(long, required = true)]
        checked_on_exchange: bool,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum PlansCommand {
    /// Adds a recurring market buy (--buy-nok) or limit ladder (--ladder-nok, --rungs, --step);
    /// prints {"planId": N}. Times are wall-clock in Europe/Oslo.
    Add(PlanArgs),
    /// Replaces plan ID's terms with those given (as for `add`); its recorded runs stay.
    Edit {
        id: i64,
        #[command(flatten)]
        plan: PlanArgs,
    },
    /// Every plan with its next slot and its runs.
    List,
    /// Stops a plan from running until it is resumed.
    Pause { id: i64 },
    /// Runs a paused plan again from now; slots missed while paused are not run.
    Resume { id: i64 },
    /// Removes a plan (its orders stay in the journal).
    Remove { id: i64 },
    /// Runs what is due now (or at --now) and prints the runs it recorded. Exit 3 when a run it
    /// sent has an unknown outcome; 1 when credentials or the store are unavailable.
    RunDue {
        /// RFC 3339: the moment to run for, for tests and back-fills; a slot never runs twice.
        #[arg(long)]
        now: Option<String>,
    },
}

#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    /// NOK to buy for at market at each run.
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "ladder_nok"
    )]
    pub(crate) buy_nok: Option<String>,
    /// NOK to spread over a ladder of limit buys below the ask at each run: rung i of 1…n buys
    /// for total/n NOK at ask × (1 − i × step %), rounded down to whole kroner. A run first
    /// cancels the previous run's rungs still open.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "buy_nok", requires_all = ["rungs", "step"])]
    pub(crate) ladder_nok: Option<String>,
    /// The ladder's number of rungs, 2–50 (only with --ladder-nok).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "buy_nok")]
    pub(crate) rungs: Option<String>,
    /// Percent of the ask between rungs, above 0 and below 50 (only with --ladder-nok).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "buy_nok")]
    pub(crate) step: Option<String>,
    /// day, week or month.
    #[arg(long)]
    pub(crate) every: String,
    /// mon…sun for a weekly plan, 1–31 for a monthly one (the month's last day when shorter).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) on: Option<String>,
    /// HH:MM, wall-clock time in Europe/Oslo.
    #[arg(long)]
    pub(crate) at: String,
    #[arg(long)]
    pub(crate) account: Option<String>,
    /// Skip a run when the ask for the amount is above this many NOK per BTC.
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) max_price: Option<String>,
    /// What a missed slot does: skip (default), or run the latest one once.
    #[arg(long)]
    pub(crate) missed: Option<String>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum InvoiceCommand {
    /// Create a BOLT11 invoice; an amount of 0 accepts any amount.
    Create {
        #[arg(long, value_parser = decimal, allow_hyphen_values = true)]
        amount: Decimal,
        #[arg(long, value_enum)]
        currency: CurrencyArg,
        #[arg(long)]
        account: Option<String>,
        /// Goes into the description hash; most wallets do not show it.
        #[arg(long, default_value = "")]
        public_description: String,
        /// Visible only to you.
        #[arg(long, default_value = "")]
        internal_description: String,
    },
    /// An invoice by its deposit destination id (ded_…) or the invoice itself.
    Get { id_or_invoice: String },
}

#[derive(Debug, Subcommand)]
pub(crate) enum OrdersCommand {
    /// Open orders.
    List,
    /// Place an order. Never retried.
    Create {
        #[arg(long = "type", value_enum)]
        order_type: TypeArg,
        #[arg(long, value_enum)]
        direction: DirectionArg,
        /// NOK when buying, BTC when selling.
        #[arg(long, value_parser = decimal, allow_hyphen_values = true)]
        amount: Decimal,
        /// Limit price in NOK (limit orders only).
        #[arg(long, value_parser = decimal, allow_hyphen_values = true)]
        price: Option<Decimal>,
        #[arg(long)]
        account: Option<String>,
        /// Sent as typed. Left empty, it carries a reference (`[nordlys 1a2b3c4d5e6f]`) that
        /// finds the order in the account's history if its answer is lost.
        #[arg(long, default_value = "")]
        description: String,
        /// Send it although the same order's outcome is still unknown.
        #[arg(long)]
        despite_unknown: bool,
    },
    /// Cancel a pending order.
    Cancel { id: String },
}

#[derive(Debug, Args)]
pub(crate) struct WithdrawArgs {
    /// On-chain address, BOLT11 invoice, Lightning address, LNURL, or a `bitcoin:` link (its
    /// address, or its invoice, is sent, with its amount when none is given).
    #[arg(long)]
    pub(crate) destination: String,
    /// Required except for an invoice or a `bitcoin:` link with an amount.
    #[arg(long, value_parser = decimal, allow_hyphen_values = true)]
    pub(crate) amount_btc: Option<Decimal>,
    #[arg(long)]
    pub(crate) account: Option<String>,
    /// Mark as a payment (tax export only).
    #[arg(long)]
    pub(crate) payment: bool,
    /// Sent as typed. Left empty, it carries a reference (`[nordlys 1a2b3c4d5e6f]`) that finds
    /// the payment in the account's history if its answer is lost.
    #[arg(long, default_value = "")]
    pub(crate) description: String,
    /// Travel rule: the recipient, from a JSON file of `fullName`, `address`, `country`, `nin`,
    /// `exchange` and `selfCustody` (personal data stays off the command line, where every user
    /// of this machine can read it).
    #[arg(long, value_name = "FILE")]
    pub(crate) tfr_from_file: Option<std::path::PathBuf>,
    /// Travel rule: recipient's full name (or registered name). Prefer --tfr-from-file.
    #[arg(long)]
    pub(crate) tfr_full_name: Option<String>,
    /// Travel rule: recipient's address. Prefer --tfr-from-file.
    #[arg(long)]
    pub(crate) tfr_address: Option<String>,
    /// Travel rule: ISO-3166-1 alpha-2 country code.
    #[arg(long)]
    pub(crate) tfr_country: Option<String>,
    /// Refused: an identity number goes in the --tfr-from-file file, never on the command line.
    #[arg(long, hide = true)]
    pub(crate) tfr_nin: Option<String>,
    /// Travel rule: receiving exchange.
    #[arg(long)]
    pub(crate) tfr_exchange: Option<String>,
    /// Travel rule: the recipient holds the keys.
    #[arg(long)]
    pub(crate) tfr_self_custody: bool,
    /// Send it although the same payment's outcome is still unknown.
    #[arg(long)]
    pub(crate) despite_unknown: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum WithdrawalCommand {
    /// A withdrawal's status.
    Get { id: String },
}

#[derive(Debug, Subcommand)]
pub(crate) enum TaxCommand {
    /// Tax balances.
    Balance {
        #[arg(long)]
        include_deleted: bool,
    },
    /// Tax transactions, oldest first.
    Transactions {
        /// 1–200, or 0 for all (sent explicitly).
        #[arg(long, default_value_t = 200)]
        page_size: u32,
        /// RFC 3339: only transactions created after this.
        #[arg(long)]
        after: Option<String>,
        /// Tie-breaker with --after.
        #[arg(long)]
        after_id: Option<String>,
        /// RFC 3339: only transactions created before this.
        #[arg(long)]
        before: Option<String>,
        /// Walk every page and print them as one response.
        #[arg(long)]
        all: bool,
    },
    /// Copies the tax history into this state directory's store, as the app's sync does (resumes
    /// where the last one stopped; re-reads rows that may have changed). Prints the counts.
    Sync,
    /// The tax return's card for virtual assets for YEAR, from the synced history (no request is
    /// made). Exit 1 when nothing is synced or YEAR is outside the synced history.
    Card(CardArgs),
}

#[derive(Debug, Args)]
pub(crate) struct CardArgs {
    /// The income year (Europe/Oslo calendar year).
    #[arg(long)]
    pub(crate) year: i32,
    /// How sales are matched to purchases.
    #[arg(long, value_enum, default_value = "fifo")]
    pub(crate) method: MethodArg,
    /// NOK per BTC at year end (Skatteetaten's rate for 1 January, or another documented one);
    /// else the rate stored for the year, else the wealth value is not computable.
    #[arg(long, value_parser = positive_rate)]
    pub(crate) year_end_rate: Option<Decimal>,
    /// One entry per account (`kontonummer` the account id) instead of one for all.
    #[arg(long)]
    pub(crate) per_account: bool,
    /// Print the `virtuellEiendel` elements (schema v14) instead of JSON.
    #[arg(long)]
    pub(crate) xml: bool,
    /// The exchange's name for `boersnavn`; the base URL's host when left out.
    #[arg(long)]
    pub(crate) exchange_name: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum MethodArg {
    Fifo,
    Average,
}

/// A year-end rate: a positive decimal.
pub(crate) fn positive_rate(text: &str) -> Result<Decimal, String> {
    let d = decimal(text)?;
    if d > Decimal::ZERO {
        Ok(d)
    } else {
        Err(format!("`{text}` is not a positive rate in NOK per BTC"))
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum ConsentCommand {
    /// Remove an OAuth application's access.
    Revoke { client_id: String },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum CurrencyArg {
    #[value(name = "BTC", alias = "btc")]
    Btc,
    #[value(name = "NOK", alias = "nok")]
    Nok,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum TypeArg {
    Market,
    Limit,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum DirectionArg {
    Buy,
    Sell,
}

pub(crate) fn decimal(text: &str) -> Result<Decimal, String> {
    let t = text.trim();
    Decimal::from_str(t)
        .or_else(|_| Decimal::from_scientific(t))
        .map_err(|_| format!("`{text}` is not a decimal number"))
}

pub(crate) fn time(
    name: &str,
    text: Option<String>,
) -> Result<Option<chrono::DateTime<chrono::Utc>>, String> {
    text.map(|t| nordlys_exchange::wire::parse_time(&t).map_err(|e| format!("--{name}: {e}")))
        .transpose()
}

pub(crate) fn account(id: Option<String>) -> Option<AccountId> {
    id.filter(|s| !s.trim().is_empty()).map(AccountId::from)
}
