//! Sending bitcoin so that no payment is ever made twice. Every withdrawal is journaled before it
//! is sent, and sent once, with a reference in its description. When the answer is lost the
//! outcome is "unknown" until the app has looked at the account: a withdrawal in the tax
//! transactions carrying the reference means "sent"; no such withdrawal, with nothing held back
//! for a pending one anywhere, means "not sent". Nothing is re-sent by the app.

use chrono::{DateTime, Duration, Utc};
use nordlys_exchange::ids::{AccountId, WithdrawalId};
use nordlys_exchange::models::{Direction, SendBitcoinRequest, TaxTransactionType};
use nordlys_exchange::{Error, ExchangeClient, TaxQuery};
use rust_decimal::Decimal;

use crate::store::{NewWithdrawalEntry, Store, StoreError, WithdrawalEntry, WithdrawalState};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WithdrawalError {
    #[error(transparent)]
    Exchange(#[from] Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no journal entry {0}")]
    Unknown(i64),
}

/// How a withdrawal ended when it was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sending {
    Sent {
        journal_id: i64,
        withdrawal_id: String,
        status: String,
    },
    /// The request may have reached the exchange; call [`reconcile`] before anything else.
    Unknown { journal_id: i64, reason: String },
}

/// What became of a withdrawal whose answer was lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// Found in the account; its id is known only when the exchange's answer was read.
    Sent {
        withdrawal_id: Option<String>,
    },
    NotSent,
    StillUnknown {
        what_to_check: String,
    },
}

/// A short reference unique to this app's journal entry.
fn reference(sent_at: DateTime<Utc>, identity: &str) -> String {
    use bitcoin::hashes::{Hash, sha256};
    let seed = format!(
        "{}|{}|{identity}",
        sent_at.timestamp_nanos_opt().unwrap_or_default(),
        std::process::id()
    );
    let h = sha256::Hash::hash(seed.as_bytes()).to_string();
    format!("[nordlys {}]", &h[..12])
}

/// The account's available BTC, the balance a withdrawal spends from.
async fn available(client: &ExchangeClient, account: Option<&str>) -> Option<Decimal> {
    let accounts = client.bitcoin_accounts(false).await.ok()?;
    let wanted = match account.filter(|a| !a.is_empty()) {
        Some(id) => accounts.accounts.iter().find(|a| a.id.as_str() == id),
        None => accounts.accounts.first(),
    };
    wanted.map(|a| a.available_btc)
}

/// Journals and sends one withdrawal of `amount_btc` to the destination `identity` stands for. A
/// refusal is an error; a lost answer is [`Sending::Unknown`], never a retry.
pub async fn send(
    client: &ExchangeClient,
    store: &Store,
    request: &SendBitcoinRequest,
    identity: &str,
    amount_btc: Decimal,
) -> Result<Sending, WithdrawalError> {
    let now = Utc::now();
    let reference = reference(now, identity);
    let account = request.account_id.as_ref().map(AccountId::as_str);
    let before = available(client, account).await;
    let id = store.withdrawal_sending(&NewWithdrawalEntry {
        sent_at: now,
        destination: &request.destination,
        identity,
        amount_btc,
        account_id: account,
        reference: &reference,
        balance_before: before,
    })?;
    let mut request = request.clone();
    request.description = if request.description.is_empty() {
        reference
    } else {
        format!("{} {reference}", request.description)
    };
    match client.create_withdrawal(&request).await {
        Ok(r) => {
            let status = r.status.to_string();
            store.withdrawal_update(
                id,
                WithdrawalState::Sent,
                Some(r.withdrawal_id.as_str()),
                Some(&status),
                "",
            )?;
            Ok(Sending::Sent {
                journal_id: id,
                withdrawal_id: r.withdrawal_id.to_string(),
                status,
            })
        }
        Err(e) if e.is_outcome_unknown() => {
            store.withdrawal_update(id, WithdrawalState::Unknown, None, None, &e.to_string())?;
            Ok(Sending::Unknown {
                journal_id: id,
                reason: e.to_string(),
            })
        }
        Err(e) => {
            store.withdrawal_update(id, WithdrawalState::Rejected, None, None, &e.to_string())?;
            Err(e.into())
        }
    }
}

/// BTC held back in the user's accounts beyond what open sell orders explain: a withdrawal
/// pending somewhere. Our reading of `availableBtc` ("usable for trading or withdrawals"): a
/// pending withdrawal's amount and fee, and an open sell order's amount, are held back from it.
/// Should the exchange not hold sells back, this is negative while sells are open, and so is not
/// taken for "nothing pending" either.
async fn held_back_beyond_open_sells(client: &ExchangeClient) -> Result<Decimal, Error> {
    let accounts = client.bitcoin_accounts(false).await?;
    let open = client.open_orders().await?;
    let held: Decimal = accounts
        .accounts
        .iter()
        .map(|a| a.total_btc - a.available_btc)
        .sum();
    let sells: Decimal = open
        .orders
        .iter()
        .filter(|o| o.direction == Direction::Sell)
        .map(|o| o.amount)
        .sum();
    Ok(held - sells)
}

/// Resolves an "unknown" (or crash-interrupted "sending") entry by inspecting the account, and
/// records the answer. The balances are read before the transactions, so a withdrawal that
/// completes in between is seen in one or the other: "not sent" needs it in neither. A withdrawal
/// that failed at the exchange also reads "not sent", and moved no bitcoin either. While any
/// withdrawal is pending (this one or another) the answer waits.
pub async fn reconcile(
    client: &ExchangeClient,
    store: &Store,
    journal_id: i64,
) -> Result<Resolution, WithdrawalError> {
    let e = store
        .withdrawal_entry(journal_id)?
        .ok_or(WithdrawalError::Unknown(journal_id))?;
    match e.state {
        WithdrawalState::Sent => {
            return Ok(Resolution::Sent {
                withdrawal_id: e.withdrawal_id,
            });
        }
        WithdrawalState::NotSent | WithdrawalState::Rejected => return Ok(Resolution::NotSent),
        WithdrawalState::Sending | WithdrawalState::Unknown => {}
    }
    let pending_somewhere = !held_back_beyond_open_sells(client).await?.is_zero();
    // 1. A completed withdrawal carrying the reference.
    let query = TaxQuery {
        after: Some(e.sent_at - Duration::seconds(5)),
        ..TaxQuery::new(200)
    };
    let recent = client.all_tax_transactions(query).await?;
    if recent
        .transactions
        .iter()
        .any(|t| t.tx_type == TaxTransactionType::BtcWithdrawal && t.note.contains(&e.reference))
    {
        store.withdrawal_update(
            journal_id,
            WithdrawalState::Sent,
            None,
            Some("WITHDRAWAL_STATUS_COMPLETED"),
            "found among the account's transactions",
        )?;
        return Ok(Resolution::Sent {
            withdrawal_id: None,
        });
    }
    // 2. Not completed, and nothing held back for a pending one: nothing left the account.
    if settled(e.sent_at, Utc::now()) && !pending_somewhere {
        store.withdrawal_update(
            journal_id,
            WithdrawalState::NotSent,
            None,
            None,
            "no withdrawal completed or pending",
        )?;
        return Ok(Resolution::NotSent);
    }
    Ok(Resolution::StillUnknown {
        what_to_check: "the account's newest transactions and its pending withdrawals".to_owned(),
    })
}

/// The exchange's reserve shows at once; this long after sending, its absence means something.
fn settled(sent_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now - sent_at >= Duration::seconds(2)
}

/// A status that changed since last seen, for the notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusChange {
    pub entry: WithdrawalEntry,
    pub status: String,
}

/// Asks the exchange for every sent withdrawal not yet settled on its network (endpoint 16) and
/// records the answers; returns the ones that changed.
pub async fn track(
    client: &ExchangeClient,
    store: &Store,
) -> Result<Vec<StatusChange>, WithdrawalError> {
    let mut changed = Vec::new();
    for e in store.withdrawals_in_flight()? {
        let Some(id) = e.withdrawal_id.as_deref() else {
            continue;
        };
        let w = client.withdrawal(&WithdrawalId::from(id)).await?;
        let status = w.status.to_string();
        let before = store.withdrawal_set_status(e.id, &status)?;
        if before.as_deref() != Some(status.as_str()) {
            changed.push(StatusChange { entry: e, status });
        }
    }
    Ok(changed)
}
