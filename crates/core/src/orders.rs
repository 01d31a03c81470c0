//! Placing orders so that none is ever made twice. Every order is written to the journal before it
//! is sent, and sent once. When the answer is lost, the outcome is "unknown" until the app has
//! looked at the account: an open order, or a trade in the tax transactions, that matches what was
//! sent means "placed"; neither, once a trade would have shown, means "not placed" (see
//! [`reconcile`]). Nothing is re-sent by the app.

use chrono::{DateTime, Duration, Utc};
use nordlys_exchange::ids::AccountId;
use nordlys_exchange::models::{
    Direction, NewOrderRequest, OrderType, TaxTransaction, TaxTransactionType,
};
use nordlys_exchange::{Error, ExchangeClient, TaxQuery};
use rust_decimal::Decimal;

use crate::store::{JournalEntry, JournalState, Store, StoreError};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OrderError {
    #[error(transparent)]
    Exchange(#[from] Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no journal entry {0}")]
    Unknown(i64),
}

/// What became of an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    Placed {
        order_id: Option<String>,
        trade_id: Option<String>,
    },
    NotPlaced,
    /// Still not known; says what the user can check.
    StillUnknown {
        what_to_check: String,
    },
}

/// How an order ended when it was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    Placed {
        journal_id: i64,
        order_id: String,
        trade_id: Option<String>,
    },
    /// The request may have reached the exchange; call [`reconcile`] before anything else.
    Unknown { journal_id: i64, reason: String },
}

fn words(request: &NewOrderRequest) -> (&'static str, &'static str) {
    let t = if request.order_type == OrderType::Limit {
        "limit"
    } else {
        "market"
    };
    let d = if request.direction == Direction::Sell {
        "sell"
    } else {
        "buy"
    };
    (t, d)
}

/// The balance an order spends from: NOK when buying, the account's BTC when selling.
async fn spendable(
    client: &ExchangeClient,
    direction: &str,
    account: Option<&str>,
) -> Option<Decimal> {
    if direction == "buy" {
        return client.fiat_account().await.ok().map(|f| f.available_nok);
    }
    let accounts = client.bitcoin_accounts(false).await.ok()?;
    let wanted = accounts
        .accounts
        .iter()
        .find(|a| account.is_none_or(|id| a.id.as_str() == id));
    wanted.map(|a| a.available_btc)
}

/// Journals and sends one order. A refusal or rejection is an error; a lost answer is
/// [`Placement::Unknown`], never a retry.
pub async fn place(
    client: &ExchangeClient,
    store: &Store,
    request: &NewOrderRequest,
) -> Result<Placement, OrderError> {
    let (order_type, direction) = words(request);
    let account = request.account_id.as_ref().map(AccountId::as_str);
    let before = spendable(client, direction, account).await;
    let id = store.journal_sending(
        Utc::now(),
        order_type,
        direction,
        request.amount,
        request.price,
        account,
        before,
    )?;
    match client.create_order(request).await {
        Ok(r) => {
            let trade = r.trade_id.as_ref().map(|t| t.as_str());
            store.journal_update(
                id,
                JournalState::Placed,
                Some(r.order_id.as_str()),
                trade,
                "",
            )?;
            Ok(Placement::Placed {
                journal_id: id,
                order_id: r.order_id.to_string(),
                trade_id: r.trade_id.map(|t| t.to_string()),
            })
        }
        Err(e) if e.is_outcome_unknown() => {
            store.journal_update(id, JournalState::Unknown, None, None, &e.to_string())?;
            Ok(Placement::Unknown {
                journal_id: id,
                reason: e.to_string(),
            })
        }
        Err(e) => {
            store.journal_update(id, JournalState::Rejected, None, None, &e.to_string())?;
            Err(e.into())
        }
    }
}

/// Whether tax transaction `t` is the trade of journal entry `e`.
fn is_trade_of(t: &TaxTransaction, e: &JournalEntry) -> bool {
    let wanted_type = if e.direction == "buy" {
        TaxTransactionType::BtcBuy
    } else {
        TaxTransactionType::BtcSell
    };
    if t.tx_type != wanted_type || t.create_time < e.sent_at - Duration::seconds(5) {
        return false;
    }
    if e.account_id
        .as_deref()
        .is_some_and(|a| t.account_id.as_ref().is_some_and(|x| x.as_str() != a))
    {
        return false;
    }
    // Buying spends `amount` NOK in all (paid out plus fee); selling pays out `amount` BTC.
    let spent = if e.direction == "buy" {
        t.out_amount.unwrap_or_default() + t.fee_amount.unwrap_or_default()
    } else {
        t.out_amount.unwrap_or_default()
    };
    spent == e.amount
}

/// Resolves an "unknown" (or crash-interrupted "sending") journal entry by inspecting the account,
/// and records the answer.
///
/// An open order or a trade is this entry's when direction, amount and time match and no other
/// journal entry has claimed its id already (the API has no client order id, so two lost orders of
/// the same amount a few seconds apart could swap; the count of placed orders stays right). A
/// market order makes its trade at once (spec §3), so no trade two seconds after sending means
/// "not placed". A limit order is "not placed" when it is neither open nor traded: one placed and
/// then cancelled elsewhere would read the same, and moved no money either. (The app's own cancel
/// resolves unknown entries first, while the order can still be seen.) The balance is not used:
/// other activity moves it.
pub async fn reconcile(
    client: &ExchangeClient,
    store: &Store,
    journal_id: i64,
) -> Result<Resolution, OrderError> {
    let e = store
        .journal_entry(journal_id)?
        .ok_or(OrderError::Unknown(journal_id))?;
    match e.state {
        JournalState::Placed => {
            return Ok(Resolution::Placed {
                order_id: e.order_id,
                trade_id: e.trade_id,
            });
        }
        JournalState::Rejected | JournalState::NotPlaced => return Ok(Resolution::NotPlaced),
        JournalState::Sending | JournalState::Unknown => {}
    }
    let claimed = store.journal_claimed_ids(journal_id)?;
    // 1. A resting limit order that matches.
    let open = client.open_orders().await?;
    let wanted_direction = if e.direction == "buy" {
        Direction::Buy
    } else {
        Direction::Sell
    };
    let matching_open = open
        .orders
        .iter()
        .filter(|o| {
            o.direction == wanted_direction
                && o.amount == e.amount
                && o.created_at >= e.sent_at - Duration::seconds(5)
                && !claimed.contains(o.order_id.as_str())
        })
        .min_by_key(|o| o.created_at);
    if let Some(o) = matching_open {
        store.journal_update(
            journal_id,
            JournalState::Placed,
            Some(o.order_id.as_str()),
            None,
            "found among open orders",
        )?;
        return Ok(Resolution::Placed {
            order_id: Some(o.order_id.to_string()),
            trade_id: None,
        });
    }
    // 2. A trade in the tax transactions since it was sent.
    let query = TaxQuery {
        after: Some(e.sent_at - Duration::seconds(5)),
        ..TaxQuery::new(200)
    };
    let recent = client.all_tax_transactions(query).await?;
    if let Some(t) = recent
        .transactions
        .iter()
        .find(|t| is_trade_of(t, &e) && !claimed.contains(t.id.as_str()))
    {
        store.journal_update(
            journal_id,
            JournalState::Placed,
            None,
            Some(t.id.as_str()),
            "found among trades",
        )?;
        return Ok(Resolution::Placed {
            order_id: None,
            trade_id: Some(t.id.to_string()),
        });
    }
    // 3. Neither, long enough after sending: nothing was placed, or nothing of it remains.
    if settled(e.sent_at, Utc::now()) {
        store.journal_update(
            journal_id,
            JournalState::NotPlaced,
            None,
            None,
            "no open order, no trade",
        )?;
        return Ok(Resolution::NotPlaced);
    }
    let before = e
        .balance_before
        .map(|b| format!(" (available before sending: {b})"))
        .unwrap_or_default();
    Ok(Resolution::StillUnknown {
        what_to_check: format!(
            "open orders, the newest trades and the balance in the exchange's own view{before}"
        ),
    })
}

/// A market order shows as a trade at once; this long after sending, its absence means something.
fn settled(sent_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now - sent_at >= Duration::seconds(2)
}
