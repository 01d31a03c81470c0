//! `nordlys-cli`: one subcommand per endpoint of the exchange API, and the journal of money
//! requests.
//!
//! Stdout is the endpoint's response object exactly as the API defines it (`{}` when the API
//! answers with nothing), or one JSON document of the journal. Errors go to stderr with a
//! non-zero exit: 1 for a refused or failed call, 2 for bad usage, 3 when an order or withdrawal
//! may or may not have been made (stdout then says `{"journalId": N, "state": "unknown"}`).
//! Every order and withdrawal is journaled before it is sent, in the state directory
//! (`$NORDLYS_STATE_DIR`, else `${XDG_STATE_HOME:-$HOME/.local/state}/nordlys-cli`).
//! Credentials come only from the environment (`NORDLYS_API_KEY`, `NORDLYS_API_SECRET`,
//! `NORDLYS_ACCESS_TOKEN`) or the OS keyring (service `nordlys-cli`), never from arguments.
//! `--operator ABBR` (`NORDLYS_OPERATOR`, default `svc`) names the operator whose header names
//! (`x-ABBR-api-key`, …) and key and secret prefixes (`ABBR/public/`, `ABBR/apisecret/`) apply.

mod credentials;
mod environment;
mod journal;
mod plans;
mod travel_rule;

use std::process::ExitCode;
use std::str::FromStr;

use chrono::{NaiveDate, Utc};
use clap::{Args, Parser, Subcommand, ValueEnum};
use nordlys_application::journal::{self as cases, JournalError};
use nordlys_core::destination;
use nordlys_core::orders::{self, OrderError, Placement};
use nordlys_core::store::{Store, StoreError};
use nordlys_core::withdrawals::{self, Sending, WithdrawalError};
use nordlys_exchange::ids::{AccountId, OrderId, WithdrawalId};
use nordlys_exchange::models::{
    Currency, Direction, NewLightningInvoiceRequest, NewOrderRequest, OrderType, SendBitcoinRequest,
};
use nordlys_exchange::{
    BaseUrl, ClientConfig, Credentials, Error, ExchangeClient, Operator, TaxQuery,
};
use nordlys_money::{Btc, Nok, NokPerBtc};
use rust_decimal::Decimal;
use serde::Serialize;

#[derive(Debug, Parser)]
#[command(
    name = "nordlys-cli",
    version,
    about = "Talk to the exchange API from a terminal: one subcommand per endpoint.",
    after_help = "Credentials: NORDLYS_API_KEY and NORDLYS_API_SECRET (signed calls), or NORDLYS_ACCESS_TOKEN \
                  (OAuth), or the OS keyring (service `nordlys-cli`, entries api-key, api-secret, access-token). \
                  Exit codes: 0 ok, 1 failed or refused, 2 bad usage, 3 outcome unknown (inspect before retrying)."
)]
struct Cli {
    /// The exchange's base URL (https, or http to 127.0.0.1); needed by commands that talk to it.
    #[arg(long, env = environment::BASE_URL, global = true)]
    base_url: Option<String>,
    /// Seconds every HTTP request may take, reads included (1–600).
    #[arg(long, env = environment::TIMEOUT, global = true, default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=600))]
    timeout: u64,
    /// The operator's abbreviation in header names and key prefixes (1–16 lower-case letters or
    /// digits).
    #[arg(long, env = environment::OPERATOR, global = true, default_value = "svc")]
    operator: Operator,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
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
}

#[derive(Debug, Subcommand)]
enum JournalCommand {
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
enum PlansCommand {
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
struct PlanArgs {
    /// NOK to buy for at market at each run.
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "ladder_nok"
    )]
    buy_nok: Option<String>,
    /// NOK to spread over a ladder of limit buys below the ask at each run: rung i of 1…n buys
    /// for total/n NOK at ask × (1 − i × step %), rounded down to whole kroner. A run first
    /// cancels the previous run's rungs still open.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "buy_nok", requires_all = ["rungs", "step"])]
    ladder_nok: Option<String>,
    /// The ladder's number of rungs, 2–50 (only with --ladder-nok).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "buy_nok")]
    rungs: Option<String>,
    /// Percent of the ask between rungs, above 0 and below 50 (only with --ladder-nok).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "buy_nok")]
    step: Option<String>,
    /// day, week or month.
    #[arg(long)]
    every: String,
    /// mon…sun for a weekly plan, 1–31 for a monthly one (the month's last day when shorter).
    #[arg(long, allow_hyphen_values = true)]
    on: Option<String>,
    /// HH:MM, wall-clock time in Europe/Oslo.
    #[arg(long)]
    at: String,
    #[arg(long)]
    account: Option<String>,
    /// Skip a run when the ask for the amount is above this many NOK per BTC.
    #[arg(long, allow_hyphen_values = true)]
    max_price: Option<String>,
    /// What a missed slot does: skip (default), or run the latest one once.
    #[arg(long)]
    missed: Option<String>,
}

#[derive(Debug, Subcommand)]
enum InvoiceCommand {
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
enum OrdersCommand {
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
struct WithdrawArgs {
    /// On-chain address, BOLT11 invoice, Lightning address, LNURL, or a `bitcoin:` link (its
    /// address, or its invoice, is sent, with its amount when none is given).
    #[arg(long)]
    destination: String,
    /// Required except for an invoice or a `bitcoin:` link with an amount.
    #[arg(long, value_parser = decimal, allow_hyphen_values = true)]
    amount_btc: Option<Decimal>,
    #[arg(long)]
    account: Option<String>,
    /// Mark as a payment (tax export only).
    #[arg(long)]
    payment: bool,
    /// Sent as typed. Left empty, it carries a reference (`[nordlys 1a2b3c4d5e6f]`) that finds
    /// the payment in the account's history if its answer is lost.
    #[arg(long, default_value = "")]
    description: String,
    /// Travel rule: the recipient, from a JSON file of `fullName`, `address`, `country`, `nin`,
    /// `exchange` and `selfCustody` (personal data stays off the command line, where every user
    /// of this machine can read it).
    #[arg(long, value_name = "FILE")]
    tfr_from_file: Option<std::path::PathBuf>,
    /// Travel rule: recipient's full name (or registered name). Prefer --tfr-from-file.
    #[arg(long)]
    tfr_full_name: Option<String>,
    /// Travel rule: recipient's address. Prefer --tfr-from-file.
    #[arg(long)]
    tfr_address: Option<String>,
    /// Travel rule: ISO-3166-1 alpha-2 country code.
    #[arg(long)]
    tfr_country: Option<String>,
    /// Refused: an identity number goes in the --tfr-from-file file, never on the command line.
    #[arg(long, hide = true)]
    tfr_nin: Option<String>,
    /// Travel rule: receiving exchange.
    #[arg(long)]
    tfr_exchange: Option<String>,
    /// Travel rule: the recipient holds the keys.
    #[arg(long)]
    tfr_self_custody: bool,
    /// Send it although the same payment's outcome is still unknown.
    #[arg(long)]
    despite_unknown: bool,
}

#[derive(Debug, Subcommand)]
enum WithdrawalCommand {
    /// A withdrawal's status.
    Get { id: String },
}

#[derive(Debug, Subcommand)]
enum TaxCommand {
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
struct CardArgs {
    /// The income year (Europe/Oslo calendar year).
    #[arg(long)]
    year: i32,
    /// How sales are matched to purchases.
    #[arg(long, value_enum, default_value = "fifo")]
    method: MethodArg,
    /// NOK per BTC at year end (Skatteetaten's rate for 1 January, or another documented one);
    /// else the rate stored for the year, else the wealth value is not computable.
    #[arg(long, value_parser = positive_rate)]
    year_end_rate: Option<Decimal>,
    /// One entry per account (`kontonummer` the account id) instead of one for all.
    #[arg(long)]
    per_account: bool,
    /// Print the `virtuellEiendel` elements (schema v14) instead of JSON.
    #[arg(long)]
    xml: bool,
    /// The exchange's name for `boersnavn`; the base URL's host when left out.
    #[arg(long)]
    exchange_name: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum MethodArg {
    Fifo,
    Average,
}

/// A year-end rate: a positive decimal.
fn positive_rate(text: &str) -> Result<Decimal, String> {
    let d = decimal(text)?;
    if d > Decimal::ZERO {
        Ok(d)
    } else {
        Err(format!("`{text}` is not a positive rate in NOK per BTC"))
    }
}

#[derive(Debug, Subcommand)]
enum ConsentCommand {
    /// Remove an OAuth application's access.
    Revoke { client_id: String },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CurrencyArg {
    #[value(name = "BTC", alias = "btc")]
    Btc,
    #[value(name = "NOK", alias = "nok")]
    Nok,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum TypeArg {
    Market,
    Limit,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum DirectionArg {
    Buy,
    Sell,
}

fn decimal(text: &str) -> Result<Decimal, String> {
    let t = text.trim();
    Decimal::from_str(t)
        .or_else(|_| Decimal::from_scientific(t))
        .map_err(|_| format!("`{text}` is not a decimal number"))
}

fn time(name: &str, text: Option<String>) -> Result<Option<chrono::DateTime<chrono::Utc>>, String> {
    text.map(|t| nordlys_exchange::wire::parse_time(&t).map_err(|e| format!("--{name}: {e}")))
        .transpose()
}

fn account(id: Option<String>) -> Option<AccountId> {
    id.filter(|s| !s.trim().is_empty()).map(AccountId::from)
}

enum Failure {
    Usage(String),
    /// Refused or failed locally, before anything was sent.
    Refused(String),
    Call(Error),
    /// A money request whose outcome is unknown: its journal entry.
    Unknown(i64),
    /// Everything is said already (on stdout and stderr); only the exit code is left.
    Silent(u8),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Self::Call(e)
    }
}

impl From<JournalError> for Failure {
    fn from(e: JournalError) -> Self {
        match e {
            JournalError::Exchange(e) => Self::Call(e),
            other => Self::Refused(other.to_string()),
        }
    }
}

fn print(value: &impl Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string(value).map_err(|e| Failure::Usage(e.to_string()))?;
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").map_err(|e| Failure::Usage(format!("cannot write to stdout: {e}")))
}

fn store() -> Result<Store, Failure> {
    journal::open_store().map_err(Failure::Refused)
}

/// The state directory's store, for a command that sends or judges through `client`: refused
/// when its journal is another exchange's (a profile's directory with the CLI logged in
/// elsewhere), whose records this exchange could neither judge nor be judged by.
async fn store_for(client: &ExchangeClient) -> Result<Store, Failure> {
    let store = store()?;
    let here = nordlys_core::account_identity::origin_here(client, &store)
        .await
        .map_err(stored)?;
    if let Some(there) =
        nordlys_core::account_identity::kept_elsewhere(&store, &here).map_err(stored)?
    {
        return Err(Failure::Refused(format!(
            "this state directory keeps the journal of the exchange at {there}, for other accounts than these credentials see at {}; use that exchange's state directory (NORDLYS_STATE_DIR)",
            here.base_url
        )));
    }
    Ok(store)
}

fn stored(e: StoreError) -> Failure {
    Failure::Refused(format!("the journal: {e}"))
}

/// A client for `--base-url` with `creds`.
fn client(cli: &Cli, creds: Credentials) -> Result<ExchangeClient, Failure> {
    let base = cli
        .base_url
        .as_deref()
        .ok_or_else(|| Failure::Usage("--base-url (or NORDLYS_BASE_URL) is required".into()))?;
    let base = BaseUrl::parse(base).map_err(|e| Failure::Usage(e.to_string()))?;
    let mut config = ClientConfig::new(base);
    config.operator = cli.operator.clone();
    config.timeout = std::time::Duration::from_secs(cli.timeout);
    config.connect_timeout = config.connect_timeout.min(config.timeout);
    config.nonces = credentials::nonce_source(&creds).map_err(Failure::Usage)?;
    config.credentials = creds;
    Ok(ExchangeClient::new(config)?)
}

async fn run(cli: Cli, creds: Credentials) -> Result<(), Failure> {
    if let Command::Journal(JournalCommand::List) = cli.command {
        let store = store()?;
        return print(&journal::all_json(&store).map_err(stored)?);
    }
    if let Command::Tax(TaxCommand::Card(args)) = &cli.command {
        return tax_card(args, cli.base_url.as_deref());
    }
    let client = client(&cli, creds)?;
    let empty = serde_json::json!({});
    match cli.command {
        Command::Journal(JournalCommand::List)
        | Command::Login { .. }
        | Command::Logout
        | Command::Plans(_) => Ok(()),
        Command::Journal(JournalCommand::Check { id }) => check(&client, id).await,
        Command::Journal(JournalCommand::Settle {
            id,
            placed,
            ref order_id,
            ..
        }) => settle(&client, id, placed.then_some(order_id.as_deref())).await,
        // Typed as given: the client refuses a negative or too precise amount with the API's words.
        Command::Price { amount } => print(&client.price(amount.map(Nok::computed)).await?),
        Command::Volume { date } => print(&client.volume(date).await?),
        Command::VolumeHistoric { date } => print(&client.volume_historic(date).await?),
        Command::Accounts { include_deleted } => {
            print(&client.bitcoin_accounts(include_deleted).await?)
        }
        Command::Fiat => print(&client.fiat_account().await?),
        Command::DepositDestinations { account: a } => {
            print(&client.deposit_destinations(account(a).as_ref()).await?)
        }
        Command::Invoice(InvoiceCommand::Create {
            amount,
            currency,
            account: a,
            public_description,
            internal_description,
        }) => {
            let request = NewLightningInvoiceRequest {
                account_id: account(a),
                currency: match currency {
                    CurrencyArg::Btc => Currency::Btc,
                    CurrencyArg::Nok => Currency::Nok,
                },
                amount,
                public_description,
                internal_description,
            };
            print(&client.create_invoice(&request).await?)
        }
        Command::Invoice(InvoiceCommand::Get { id_or_invoice }) => {
            print(&client.invoice(&id_or_invoice).await?)
        }
        Command::Orders(OrdersCommand::List) => print(&client.open_orders().await?),
        Command::Orders(OrdersCommand::Create {
            order_type,
            direction,
            amount,
            price,
            account: a,
            description,
            despite_unknown,
        }) => {
            let request = NewOrderRequest {
                order_type: match order_type {
                    TypeArg::Market => OrderType::Market,
                    TypeArg::Limit => OrderType::Limit,
                },
                direction: match direction {
                    DirectionArg::Buy => Direction::Buy,
                    DirectionArg::Sell => Direction::Sell,
                },
                amount,
                account_id: account(a),
                description,
                price: price.map(NokPerBtc::computed),
            };
            // An order that cannot be sent is refused before anything is read.
            client.may_create_order(&request)?;
            let store = store_for(&client).await?;
            match orders::place(&client, &store, &request, despite_unknown).await {
                Ok(Placement::Placed {
                    journal_id,
                    order_id,
                    trade_id,
                    warning,
                }) => {
                    eprintln!("journal entry {journal_id}");
                    if let Some(w) = warning {
                        eprintln!(
                            "nordlys-cli: placed, but the journal could not record it ({w}); `journal check {journal_id}` will"
                        );
                    }
                    print(&serde_json::json!({
                        "orderId": order_id,
                        "tradeId": trade_id.unwrap_or_default(),
                    }))
                }
                Ok(Placement::Unknown { journal_id, reason }) => {
                    eprintln!("nordlys-cli: {reason}");
                    Err(Failure::Unknown(journal_id))
                }
                Err(OrderError::Exchange(e)) => Err(Failure::Call(e)),
                Err(e) => Err(Failure::Refused(e.to_string())),
            }
        }
        Command::Orders(OrdersCommand::Cancel { id }) => {
            client.cancel_order(&OrderId::from(id)).await?;
            print(&empty)
        }
        Command::Withdraw(w) => {
            let flags = travel_rule::Flags {
                full_name: w.tfr_full_name,
                address: w.tfr_address,
                country: w.tfr_country,
                nin: w.tfr_nin,
                exchange: w.tfr_exchange,
                self_custody: w.tfr_self_custody,
            };
            let tfr_info = travel_rule::recipient(w.tfr_from_file.as_deref(), flags, |warning| {
                eprintln!("nordlys-cli: warning: {warning}");
            })
            .map_err(|e| Failure::Usage(e.to_string()))?;
            // The journal compares payments by destination and amount: an invoice's own amount
            // when none is given.
            let parsed = destination::parse(&w.destination, std::time::SystemTime::now());
            // A `bitcoin:` link is read as the app reads it: its address (or invoice) is sent,
            // its amount stands when none is given, and a malformed link is refused here.
            let link = w
                .destination
                .trim()
                .get(..8)
                .is_some_and(|p| p.eq_ignore_ascii_case("bitcoin:"));
            let (destination_sent, link_amount) = if link {
                let d = parsed
                    .as_ref()
                    .map_err(|e| Failure::Usage(format!("--destination: {e}")))?;
                (d.wire(), destination::requested(&w.destination).amount_btc)
            } else {
                (w.destination.clone(), None)
            };
            let parsed = parsed.ok();
            let identity = parsed
                .as_ref()
                .map_or_else(|| w.destination.to_ascii_lowercase(), |d| d.identity());
            if let (Some(typed), Some(asked)) = (w.amount_btc, link_amount)
                && typed != asked.decimal()
            {
                return Err(Failure::Usage(format!(
                    "the bitcoin: link asks for {asked} BTC but --amount-btc says {typed}; give one or make them agree"
                )));
            }
            let amount_btc = w.amount_btc.map(Btc::computed).or(link_amount);
            let amount = amount_btc
                .or(match &parsed {
                    Some(destination::Destination::Invoice(i)) => i.amount_btc,
                    _ => None,
                })
                .unwrap_or_default();
            let request = SendBitcoinRequest {
                destination: destination_sent,
                amount_btc,
                account_id: account(w.account),
                is_payment: w.payment,
                description: w.description,
                tfr_info,
            };
            // A payment that cannot be sent is refused before anything is read.
            client.may_create_withdrawal(&request)?;
            let store = store_for(&client).await?;
            let sent = withdrawals::send(
                &client,
                &store,
                &request,
                &identity,
                amount,
                w.despite_unknown,
            )
            .await;
            match sent {
                Ok(Sending::Sent {
                    journal_id,
                    withdrawal_id,
                    status,
                    network,
                    warning,
                }) => {
                    eprintln!("journal entry {journal_id}");
                    if let Some(w) = warning {
                        eprintln!(
                            "nordlys-cli: sent, but the journal could not record it ({w}); `journal check {journal_id}` will"
                        );
                    }
                    print(&serde_json::json!({
                        "withdrawalId": withdrawal_id,
                        "network": network,
                        "status": status,
                    }))
                }
                Ok(Sending::Unknown { journal_id, reason }) => {
                    eprintln!("nordlys-cli: {reason}");
                    Err(Failure::Unknown(journal_id))
                }
                Err(WithdrawalError::Exchange(e)) => Err(Failure::Call(e)),
                Err(e) => Err(Failure::Refused(e.to_string())),
            }
        }
        Command::Withdrawal(WithdrawalCommand::Get { id }) => {
            print(&client.withdrawal(&WithdrawalId::from(id)).await?)
        }
        Command::Tax(TaxCommand::Balance { include_deleted }) => {
            print(&client.tax_balance(include_deleted).await?)
        }
        Command::Tax(TaxCommand::Transactions {
            page_size,
            after,
            after_id,
            before,
            all,
        }) => {
            let query = TaxQuery {
                page_size,
                after: time("after", after).map_err(Failure::Usage)?,
                after_id,
                before: time("before", before).map_err(Failure::Usage)?,
            };
            if all {
                print(&client.all_tax_transactions(query).await?)
            } else {
                print(&client.tax_transactions(&query).await?)
            }
        }
        Command::Tax(TaxCommand::Sync) => tax_sync(&client).await,
        Command::Tax(TaxCommand::Card(_)) => Ok(()),
        Command::Consent(ConsentCommand::Revoke { client_id }) => {
            client.revoke_consent(&client_id).await?;
            print(&empty)
        }
    }
}

/// `tax sync`: the app's sync, into the state directory's store.
async fn tax_sync(client: &ExchangeClient) -> Result<(), Failure> {
    use nordlys_core::tax::sync::{SyncCancel, SyncError, SyncProgress, sync};
    let store = std::sync::Arc::new(store_for(client).await?);
    let mut p = SyncProgress::default();
    let ended = sync(client, store, &SyncCancel::default(), |now| p = *now).await;
    match ended {
        Ok(_) => print(&serde_json::json!({
            "requests": p.requests,
            "received": p.received,
            "stored": p.stored,
            "updated": p.updated,
            "malformed": p.malformed,
        })),
        Err(SyncError::Exchange { source, .. }) => Err(Failure::Call(source)),
        Err(e) => Err(Failure::Refused(e.to_string())),
    }
}

/// `tax card`: the tax return's card from the stored history.
fn tax_card(args: &CardArgs, base_url: Option<&str>) -> Result<(), Failure> {
    use nordlys_core::tax::card::{CardError, CardRequest, RateSource, YearEndRate, card};
    use nordlys_core::tax::gains::Method;
    let store = store()?;
    let rate = match args.year_end_rate {
        Some(r) => Ok(YearEndRate {
            nok_per_btc: NokPerBtc::computed(r),
            source: RateSource::Entered,
        }),
        None => nordlys_core::tax::year_end_rate::stored(&store, args.year).map_err(stored)?,
    };
    let request = CardRequest {
        year: args.year,
        method: match args.method {
            MethodArg::Fifo => Method::Fifo,
            MethodArg::Average => Method::AverageCost,
        },
        per_account: args.per_account,
        rate,
        now: chrono::Utc::now(),
    };
    let made = card(&store, &request).map_err(|e| match e {
        CardError::Store(e) => stored(e),
        other => Failure::Refused(other.to_string()),
    })?;
    let exchange = args
        .exchange_name
        .clone()
        .or_else(|| {
            base_url
                .and_then(|b| url::Url::parse(b).ok())
                .and_then(|u| u.host_str().map(str::to_owned))
        })
        .unwrap_or_else(|| "the exchange".to_owned());
    let words = nordlys_application::tax_card::Words {
        locale: nordlys_core::format::Locale::En,
        zone: nordlys_core::time::OSLO,
    };
    if args.xml {
        use std::io::Write;
        // What the XML leaves out is said, so it is never taken for the whole return.
        for n in &made.not_computable {
            let (why, fix) = nordlys_application::tax_card::refusal(&n.why, made.year, words);
            eprintln!(
                "nordlys-cli: warning: {} of {} is not computable and left out of the XML: {why}; {fix}",
                n.field.schema_name(),
                n.entry
            );
        }
        let xml = nordlys_application::tax_card::card_xml(&made, &exchange);
        return write!(std::io::stdout().lock(), "{xml}")
            .map_err(|e| Failure::Usage(format!("cannot write to stdout: {e}")));
    }
    print(&nordlys_application::tax_card::card_json(
        &made, &exchange, words,
    ))
}

/// `journal check [ID]`: looks at the exchange for entry ID, or for every unresolved entry sent
/// to this exchange, and prints them. A read that fails is recorded in the evidence.
async fn check(client: &ExchangeClient, id: Option<i64>) -> Result<(), Failure> {
    let store = store_for(client).await?;
    let rules = nordlys_application::test_hooks::evidence_rules();
    let looked = cases::check(client, &store, &rules, id).await?;
    let mut out = Vec::new();
    for id in looked {
        out.extend(journal::entry_json(&store, id).map_err(stored)?);
    }
    print(&out)
}

/// `journal settle ID --not-sent --checked-on-exchange`, or `--placed [--order-id OR]`
/// (`placed`: `Some(order id, if named)`).
async fn settle(
    client: &ExchangeClient,
    id: i64,
    placed: Option<Option<&str>>,
) -> Result<(), Failure> {
    let store = store_for(client).await?;
    let rules = nordlys_application::test_hooks::evidence_rules();
    match placed {
        Some(order_id) => cases::settle_placed(client, &store, &rules, id, order_id).await?,
        None => cases::settle_not_made(client, &store, &rules, id).await?,
    }
    let entry = journal::entry_json(&store, id).map_err(stored)?;
    print(&entry.into_iter().collect::<Vec<_>>())
}

/// `login` and `logout`: the keyring alone, no request.
fn keyring_command(cli: &Cli) -> Option<Result<(), Failure>> {
    use std::io::IsTerminal;
    let keyring = credentials::OsKeyring;
    let done = match cli.command {
        Command::Logout => credentials::logout(&keyring),
        Command::Login { token } => {
            let Some(base) = cli.base_url.as_deref() else {
                return Some(Err(Failure::Usage(
                    "--base-url (or NORDLYS_BASE_URL) is required: secrets are stored for one \
                     exchange"
                        .into(),
                )));
            };
            let kind = if token {
                credentials::LoginKind::Token
            } else {
                credentials::LoginKind::Key
            };
            let terminal = std::io::stdin().is_terminal();
            let mut ask = |prompt: &str, hidden: bool, input: &mut dyn std::io::BufRead| {
                if terminal && hidden {
                    rpassword::prompt_password(prompt)
                        .map(|s| s.trim().to_owned())
                        .map_err(|e| format!("cannot read from the terminal: {e}"))
                } else {
                    if terminal {
                        eprint!("{prompt}");
                    }
                    credentials::read_line(prompt, input)
                }
            };
            let mut stdin = std::io::stdin().lock();
            credentials::login(kind, base, &cli.operator, &keyring, &mut stdin, &mut ask)
        }
        _ => return None,
    };
    Some(done.map_err(Failure::Usage).and_then(|said| print(&said)))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The keyring is read before the runtime starts: its Secret Service backend runs its own.
    let outcome = match keyring_command(&cli) {
        Some(done) => done,
        None => match &cli.command {
            Command::Plans(command) => plans_command(&cli, command),
            _ => run_with_credentials(cli),
        },
    };
    exit_code(outcome)
}

/// `plans …`: the store alone, except `run-due` (and `add`'s look at the NOK available).
fn plans_command(cli: &Cli, command: &PlansCommand) -> Result<(), Failure> {
    let now = Utc::now();
    let store = store()?;
    match command {
        PlansCommand::List => print(&plans::list(&store, now).map_err(Failure::Refused)?),
        PlansCommand::Add(a) | PlansCommand::Edit { plan: a, .. } => {
            let form = nordlys_core::plans::PlanForm {
                buy_nok: a
                    .buy_nok
                    .clone()
                    .or_else(|| a.ladder_nok.clone())
                    .unwrap_or_default(),
                every: a.every.clone(),
                on: a.on.clone(),
                at: a.at.clone(),
                account: a.account.clone(),
                max_price: a.max_price.clone(),
                missed: a.missed.clone(),
                rungs: a.rungs.clone(),
                step: a.step.clone(),
                locale: nordlys_core::format::Locale::En,
            };
            let id = match command {
                PlansCommand::Edit { id, .. } => {
                    plans::edit(&store, *id, &form).map_err(|e| match e {
                        plans::Refusal::Field(m) => Failure::Usage(m),
                        plans::Refusal::Store(m) => Failure::Refused(m),
                    })?;
                    *id
                }
                _ => plans::add(&store, &form, now).map_err(Failure::Usage)?,
            };
            if let Some(available) = available_nok(cli)
                && let Some(plan) = store.plan(id).map_err(stored)?
                && let Some(w) = plans::above_available(plan.buy_nok, available)
            {
                eprintln!("nordlys-cli: {w}");
            }
            print(&serde_json::json!({ "planId": id }))
        }
        PlansCommand::Pause { id } | PlansCommand::Resume { id } | PlansCommand::Remove { id } => {
            let done = match command {
                PlansCommand::Remove { .. } => store.remove_plan(*id),
                PlansCommand::Pause { .. } => store.set_plan_paused(*id, true, now),
                _ => store.set_plan_paused(*id, false, now),
            }
            .map_err(stored)?;
            if !done {
                return Err(Failure::Refused(format!("no plan {id}")));
            }
            print(&serde_json::json!({ "planId": id }))
        }
        PlansCommand::RunDue { now: at } => {
            let at = time("now", at.clone())
                .map_err(Failure::Usage)?
                .unwrap_or(now);
            let creds = credentials::load(
                &cli.operator,
                cli.base_url.as_deref(),
                &credentials::OsKeyring,
                environment::EnvCredentials::read(),
            )
            .map_err(Failure::Refused)?;
            if creds.key.is_none() && creds.bearer.is_none() {
                return Err(Failure::Refused(
                    "no credentials: set NORDLYS_API_KEY and NORDLYS_API_SECRET, or run `login`"
                        .into(),
                ));
            }
            let client = client(cli, creds)?;
            let runtime = runtime()?;
            let store = runtime.block_on(store_for(&client))?;
            let due = runtime
                .block_on(nordlys_core::plans::run_due(&client, &store, at))
                .map_err(|e| Failure::Refused(e.to_string()))?;
            for e in &due.elsewhere {
                eprintln!("nordlys-cli: {}", plans::elsewhere_line(e));
            }
            let recorded = due.recorded;
            let shown: Vec<plans::RecordedJson> = recorded.iter().map(Into::into).collect();
            print(&shown)?;
            if let Some(r) = plans::unknown_run(&recorded) {
                eprintln!(
                    "nordlys-cli: plan {}: the order of journal entry {} may or may not have been placed; `journal check` looks again",
                    r.plan_id,
                    r.journal_id.unwrap_or_default()
                );
                return Err(Failure::Silent(3));
            }
            Ok(())
        }
    }
}

/// The NOK available now, when credentials and a base URL are at hand; none otherwise.
fn available_nok(cli: &Cli) -> Option<Nok> {
    cli.base_url.as_ref()?;
    let creds = credentials::load(
        &cli.operator,
        cli.base_url.as_deref(),
        &credentials::OsKeyring,
        environment::EnvCredentials::read(),
    )
    .ok()?;
    creds.key.as_ref()?;
    let client = client(cli, creds).ok()?;
    let runtime = runtime().ok()?;
    runtime
        .block_on(client.fiat_account())
        .ok()
        .map(|f| f.available_nok)
}

fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start: {e}")))
}

fn run_with_credentials(cli: Cli) -> Result<(), Failure> {
    credentials::load(
        &cli.operator,
        cli.base_url.as_deref(),
        &credentials::OsKeyring,
        environment::EnvCredentials::read(),
    )
    .map_err(Failure::Usage)
    .and_then(|creds| runtime()?.block_on(run(cli, creds)))
}

fn exit_code(outcome: Result<(), Failure>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("nordlys-cli: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Refused(message)) => {
            eprintln!("nordlys-cli: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Unknown(journal_id)) => {
            let shown = print(&serde_json::json!({ "journalId": journal_id, "state": "unknown" }));
            if shown.is_err() {
                eprintln!("nordlys-cli: journal entry {journal_id}: outcome unknown");
            }
            ExitCode::from(3)
        }
        Err(Failure::Silent(code)) => ExitCode::from(code),
        Err(Failure::Call(e)) => {
            eprintln!("nordlys-cli: {e}");
            ExitCode::from(if e.is_outcome_unknown() { 3 } else { 1 })
        }
    }
}
