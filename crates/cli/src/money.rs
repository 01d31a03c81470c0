//! `orders create` and `withdraw`: each journaled before it is sent, with the app's own code,
//! and never sent again when its answer is lost.

use nordlys_core::destination;
use nordlys_core::orders::{self, OrderError, Placement};
use nordlys_core::withdrawals::{self, Sending, WithdrawalError};
use nordlys_exchange::ExchangeClient;
use nordlys_exchange::models::{NewOrderRequest, SendBitcoinRequest};
use nordlys_money::Btc;

use crate::args::{WithdrawArgs, account};
use crate::outcome::{Failure, print};
use crate::setup::store_for;
use crate::travel_rule;

/// `orders create`: places `request` (`despite_unknown`: although the same order's outcome is
/// still unknown).
pub(crate) async fn place_order(
    client: &ExchangeClient,
    request: NewOrderRequest,
    despite_unknown: bool,
) -> Result<(), Failure> {
    // An order that cannot be sent is refused before anything is read.
    client.may_create_order(&request)?;
    let store = store_for(client).await?;
    let turn = store.money_turn().await;
    match orders::place(client, &store, &request, despite_unknown, &turn).await {
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

/// `withdraw`: sends bitcoin with its travel-rule recipient; a `bitcoin:` link is read as the app
/// reads it.
pub(crate) async fn withdraw(client: &ExchangeClient, w: WithdrawArgs) -> Result<(), Failure> {
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
    let store = store_for(client).await?;
    let turn = store.money_turn().await;
    let sent = withdrawals::send(
        client,
        &store,
        &request,
        &identity,
        amount,
        w.despite_unknown,
        &turn,
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
