//! Sending bitcoin so that no payment is ever made twice. Every withdrawal is journaled before it
//! is sent, and sent once, with a reference in its description. When the answer is lost the
//! outcome is "unknown" until [`crate::evidence`] finds positive evidence either way; nothing is
//! re-sent by the app, and the same payment is refused while one is unknown unless the caller
//! says otherwise.

use chrono::{Duration, Utc};
use nordlys_exchange::ids::{AccountId, WithdrawalId};
use nordlys_exchange::models::{SendBitcoinRequest, WithdrawalStatus};
use nordlys_exchange::{Error, ExchangeClient};
use nordlys_money::{Amount, Btc};

use crate::doubt::WhyUnknown;
use crate::evidence::{self, Balances, Others};
use crate::journal::{self, Answered, Outcome};
use crate::money_turn::MoneyTurn;
use crate::seen::Read;
use crate::store::{
    JournalKind, NewWithdrawalEntry, PaymentClaim, PaymentLikeness, Store, StoreError,
    WithdrawalEntry, WithdrawalState,
};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WithdrawalError {
    #[error(transparent)]
    Exchange(#[from] Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no journal entry {0}")]
    Unknown(i64),
    #[error(
        "the same payment (journal entry {0}) may already have been sent: its outcome is still unknown"
    )]
    SameAsUnknown(i64),
    #[error("the same payment was sent at {1} (journal entry {0})")]
    SameAsRecent(i64, chrono::DateTime<Utc>),
}

/// How a withdrawal ended when it was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sending {
    Sent {
        journal_id: i64,
        withdrawal_id: String,
        status: WithdrawalStatus,
        network: String,
        /// The exchange took it, but the journal could not record that; a later check will.
        warning: Option<String>,
    },
    /// The request may have reached the exchange; call [`journal::reconcile`] before anything else.
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
    StillUnknown(WhyUnknown),
}

/// The request as the journal keeps it: as sent, but for the recipient's identity number and
/// address, which the exchange has and the local database must not hold in plaintext (saved
/// recipients keep theirs sealed).
fn journal_copy(request: &SendBitcoinRequest) -> String {
    let mut kept = request.clone();
    if let Some(info) = kept.tfr_info.as_mut() {
        for field in [&mut info.nin, &mut info.address] {
            if !field.is_empty() {
                *field = "[not kept]".to_owned();
            }
        }
    }
    serde_json::to_string(&kept).unwrap_or_default()
}

/// Journals and sends one withdrawal of `amount_btc` to the destination `identity` stands for. A
/// refusal is an error; a lost answer is [`Sending::Unknown`], never a retry. While the same
/// payment is unknown it is refused ([`WithdrawalError::SameAsUnknown`]) unless `despite_unknown`.
/// One sent before is sent again as asked: a script says what it means.
pub async fn send(
    client: &ExchangeClient,
    store: &Store,
    request: &SendBitcoinRequest,
    identity: &str,
    amount_btc: Btc,
    despite_unknown: bool,
    turn: &MoneyTurn,
) -> Result<Sending, WithdrawalError> {
    send_typed(
        client,
        store,
        request,
        identity,
        amount_btc,
        None,
        despite_unknown,
        true,
        turn,
    )
    .await
}

/// The journal's questions about a payment, asked before the user confirms it so the
/// confirmation comes last: the same payment still unresolved
/// ([`WithdrawalError::SameAsUnknown`], unless `despite_unknown`) or sent in the last day
/// ([`WithdrawalError::SameAsRecent`], unless `despite_recent`). [`send_typed`] asks them again
/// as it journals, in one transaction with the write.
pub fn asks_first(
    client: &ExchangeClient,
    store: &Store,
    request: &SendBitcoinRequest,
    amount_btc: Btc,
    typed_nok: Option<nordlys_money::Nok>,
    despite_unknown: bool,
    despite_recent: bool,
) -> Result<(), WithdrawalError> {
    let origin = evidence::origin_of(client);
    let likeness = PaymentLikeness {
        at: Utc::now(),
        base_url: &origin.base_url,
        destination: &request.destination,
        amount_btc,
        typed_nok,
        account_id: request.account_id.as_ref().map(AccountId::as_str),
    };
    match store
        .withdrawals()
        .would_ask(&likeness, despite_unknown, !despite_recent)?
    {
        Some(PaymentClaim::SameAsUnresolved(id)) => Err(WithdrawalError::SameAsUnknown(id)),
        Some(PaymentClaim::SameAsRecent(id, at)) => Err(WithdrawalError::SameAsRecent(id, at)),
        Some(PaymentClaim::Journaled(_)) | None => Ok(()),
    }
}

/// [`send`] for a payment the user typed in NOK (`typed_nok`): one still unresolved that was
/// typed the same, to the same place from the same account, is the same payment. Unless
/// `despite_recent`, the same payment sent in the last day is refused
/// ([`WithdrawalError::SameAsRecent`]): the user is asked once more.
#[allow(
    clippy::too_many_arguments,
    reason = "each is one fact of the payment; a struct would only rename them"
)]
pub async fn send_typed(
    client: &ExchangeClient,
    store: &Store,
    request: &SendBitcoinRequest,
    identity: &str,
    amount_btc: Btc,
    typed_nok: Option<nordlys_money::Nok>,
    despite_unknown: bool,
    despite_recent: bool,
    _turn: &MoneyTurn,
) -> Result<Sending, WithdrawalError> {
    // A payment that could not be sent is refused before anything is read.
    client.may_create_withdrawal(request)?;
    let account = request.account_id.as_ref().map(AccountId::as_str);
    let before = Balances::read(client, false).await;
    let mut request = request.clone();
    // The user's text is sent as typed: a reference only fills an empty description.
    let (description, reference) =
        evidence::tagged(&request.description, evidence::Written::ByUser);
    request.description = description;
    let body = journal_copy(&request);
    let origin = crate::account_identity::origin_here(client, store).await?;
    let claim = store.withdrawals().add(
        &NewWithdrawalEntry {
            sent_at: Utc::now(),
            destination: &request.destination,
            identity,
            amount_btc,
            account_id: account,
            reference: &reference,
            origin: &origin,
            request: &body,
            before: before.as_ref(),
            typed_nok,
        },
        despite_unknown,
        !despite_recent,
    )?;
    let id = match claim {
        PaymentClaim::Journaled(id) => id,
        PaymentClaim::SameAsUnresolved(id) => return Err(WithdrawalError::SameAsUnknown(id)),
        PaymentClaim::SameAsRecent(id, at) => return Err(WithdrawalError::SameAsRecent(id, at)),
    };
    let answer = journal::send_once::<_, WithdrawalError>(
        store,
        JournalKind::Withdrawal,
        id,
        Read::SendWithdrawal,
        client.create_withdrawal(&request),
    );
    match answer.await? {
        Answered::Made(r) => {
            // Sent whatever happens to this write: a failure is a warning, and the entry, still
            // "sending", is settled as sent by the next check.
            let warning = store
                .withdrawals()
                .answered(
                    id,
                    WithdrawalState::Sent,
                    Some(r.withdrawal_id.as_str()),
                    Some(&r.status),
                    "",
                )
                .err()
                .map(|e| e.to_string());
            Ok(Sending::Sent {
                journal_id: id,
                withdrawal_id: r.withdrawal_id.to_string(),
                status: r.status,
                network: r.network.to_string(),
                warning,
            })
        }
        Answered::Lost { reason } => Ok(Sending::Unknown {
            journal_id: id,
            reason,
        }),
    }
}

/// What else the journal holds that could explain `e`'s evidence: other payments to the same
/// exchange, sent in the day before it, still unresolved, or sent without a row that identifies
/// them.
pub(crate) fn others_of(store: &Store, e: &WithdrawalEntry) -> Result<Others, StoreError> {
    let rivals = store
        .withdrawals()
        .since(e.sent_at - Duration::days(1))?
        .into_iter()
        .filter(|o| {
            o.id != e.id
                && o.origin.base_url == e.origin.base_url
                && match o.state {
                    WithdrawalState::Sending | WithdrawalState::Unknown => true,
                    WithdrawalState::Sent => o.claimed.is_empty(),
                    _ => false,
                }
        })
        .map(|o| (o.sent_at, Amount::Btc(o.amount_btc)))
        .collect();
    Ok(Others {
        claimed: store.withdrawals().claimed_ids(e.id)?,
        rivals,
        known_limit_orders: vec![],
        limit_orders: vec![],
        neighbours: vec![],
    })
}

/// A withdrawal the exchange made is "sent" even if it later failed on its network.
impl journal::Resolves for WithdrawalEntry {
    type Resolution = Resolution;
    type Error = WithdrawalError;

    fn stored(store: &Store, id: i64) -> Result<Option<Self>, StoreError> {
        store.withdrawals().entry(id)
    }

    fn missing(id: i64) -> WithdrawalError {
        WithdrawalError::Unknown(id)
    }

    fn resolution(self, outcome: Outcome) -> Resolution {
        let sent = self.state == WithdrawalState::Sent;
        match outcome {
            Outcome::Settled if sent => Resolution::Sent {
                withdrawal_id: self.withdrawal_id,
            },
            Outcome::Settled | Outcome::NotMade => Resolution::NotSent,
            // Found among the rows: its id is known only from the exchange's answer.
            Outcome::Made { .. } => Resolution::Sent {
                withdrawal_id: None,
            },
            Outcome::StillUnknown(why) => Resolution::StillUnknown(why),
        }
    }
}

/// A status that changed since last seen, for the notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusChange {
    pub entry: WithdrawalEntry,
    pub status: WithdrawalStatus,
}

/// Asks the exchange for every sent withdrawal not yet settled on its network (endpoint 16) and
/// records the answers; returns the ones that changed.
pub async fn track(
    client: &ExchangeClient,
    store: &Store,
) -> Result<Vec<StatusChange>, WithdrawalError> {
    let mut changed = Vec::new();
    for e in store.withdrawals().on_the_way()? {
        let Some(id) = e.withdrawal_id.as_deref() else {
            continue;
        };
        // One the exchange will not show (sent from other accounts) waits for the next look;
        // the others are followed all the same.
        let w = match client.withdrawal(&WithdrawalId::from(id)).await {
            Ok(w) => w,
            Err(e) if e.refuses_only_this() => continue,
            Err(e) => return Err(e.into()),
        };
        let before = store.withdrawals().set_status(e.id, &w.status)?;
        if before.as_ref() != Some(&w.status) {
            changed.push(StatusChange {
                entry: e,
                status: w.status,
            });
        }
    }
    Ok(changed)
}
