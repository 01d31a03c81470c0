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

mod args;
mod credentials;
mod environment;
mod journal;
mod login;
mod money;
mod outcome;
mod plans;
mod setup;
mod store_key;
mod tax;
mod travel_rule;

use std::process::ExitCode;

use clap::Parser;
use nordlys_exchange::Credentials;
use nordlys_exchange::TaxQuery;
use nordlys_exchange::ids::{OrderId, WithdrawalId};
use nordlys_exchange::models::{
    Currency, Direction, NewLightningInvoiceRequest, NewOrderRequest, OrderType,
};
use nordlys_money::{Nok, NokPerBtc};

use args::*;
use outcome::{Failure, exit_code, print};
use setup::{client, runtime, store, stored};

/// The endpoints' commands, one arm each; the journal's, money's and tax's in their modules.
async fn run(cli: Cli, creds: Credentials) -> Result<(), Failure> {
    if let Command::Journal(JournalCommand::List) = cli.command {
        let store = store()?;
        return print(&journal::all_json(&store).map_err(stored)?);
    }
    if let Command::Tax(TaxCommand::Card(args)) = &cli.command {
        return tax::card(args, cli.base_url.as_deref());
    }
    let client = client(&cli, creds)?;
    let empty = serde_json::json!({});
    match cli.command {
        Command::Journal(JournalCommand::List)
        | Command::Login { .. }
        | Command::Logout
        | Command::Plans(_)
        | Command::Store(_) => Ok(()),
        Command::Journal(JournalCommand::Check { id }) => journal::check(&client, id).await,
        Command::Journal(JournalCommand::Settle {
            id,
            placed,
            ref order_id,
            ..
        }) => journal::settle(&client, id, placed.then_some(order_id.as_deref())).await,
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
            money::place_order(&client, request, despite_unknown).await
        }
        Command::Orders(OrdersCommand::Cancel { id }) => {
            client.cancel_order(&OrderId::from(id)).await?;
            print(&empty)
        }
        Command::Withdraw(w) => money::withdraw(&client, w).await,
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
        Command::Tax(TaxCommand::Sync) => tax::sync(&client).await,
        Command::Tax(TaxCommand::Card(_)) => Ok(()),
        Command::Consent(ConsentCommand::Revoke { client_id }) => {
            client.revoke_consent(&client_id).await?;
            print(&empty)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The keyring is read before the runtime starts: its Secret Service backend runs its own.
    let outcome = match login::command(&cli) {
        Some(done) => done,
        None => match &cli.command {
            Command::Plans(command) => plans::command(&cli, command),
            Command::Store(command) => store_key::command(command),
            _ => run_with_credentials(cli),
        },
    };
    exit_code(outcome)
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
