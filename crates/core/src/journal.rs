//! One money request of the journal, whatever its kind: an order (a ladder's rung is one) or a
//! payment. One path looks at the account for an unresolved one, judges it by the evidence and
//! records the verdict ([`check`], [`record`]), and one settles it by the user's word that it was
//! not made ([`settle_not_made`]). What differs by kind is the kind's own: what its evidence is
//! compared with ([`crate::orders`], [`crate::withdrawals`]) and how a verdict is written.

use chrono::{DateTime, Utc};
use nordlys_exchange::models::WithdrawalStatus;
use nordlys_exchange::{Error, ExchangeClient};
use nordlys_money::Amount;

use crate::doubt::WhyUnknown;
use crate::evidence::{self, Balances, Kind, Look, Others, Rules, Verdict};
use crate::order_terms::OrderType;
use crate::seen::{Read, Seen};
use crate::store::{
    Decision, Evidence, JournalEntry, JournalKind, JournalState, Origin, Store, StoreError,
    Unanswered, WithdrawalEntry, WithdrawalState,
};
use crate::{orders, withdrawals};

/// A money request as the journal keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Order(JournalEntry),
    Withdrawal(WithdrawalEntry),
}

impl From<JournalEntry> for Entry {
    fn from(e: JournalEntry) -> Self {
        Self::Order(e)
    }
}

impl From<WithdrawalEntry> for Entry {
    fn from(e: WithdrawalEntry) -> Self {
        Self::Withdrawal(e)
    }
}

/// What a look at the account made of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It was settled before this look; the entry says how.
    Settled,
    /// Made: the ids of the rows, orders or trades that are its evidence.
    Made {
        ids: Vec<String>,
    },
    NotMade,
    /// Still not known, and why: the user can check there too.
    StillUnknown(WhyUnknown),
}

/// Why the user cannot settle an entry as they saw it on the exchange (not made, or placed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettleRefusal {
    #[error("the exchange shows it was placed")]
    Placed,
    #[error("the exchange shows it was sent")]
    Sent,
    /// Settled already, as the state named.
    #[error("it is already settled as {0}")]
    AlreadySettled(&'static str),
    #[error("it was settled meanwhile")]
    SettledMeanwhile,
    /// Its request may still be on its way: no one can have seen all of it yet.
    #[error("it may still be on its way (wait at most {minutes} minutes)")]
    InFlight { minutes: i64 },
    /// The order named as this entry's is not among the open orders.
    #[error("order {0} is not among the open orders")]
    NotListed(String),
    /// The order named is another kind, way or time than this entry's.
    #[error("order {0} is not this entry's")]
    NotThisOrder(String),
    /// The order named is another entry's.
    #[error("order {order} is journal entry {entry}'s")]
    Claimed { order: String, entry: i64 },
}

/// Why the user's word did not settle an entry; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum SettleError {
    #[error("no journal entry {0}")]
    NoSuchEntry(i64),
    #[error("journal entry {id} cannot be settled: {why}")]
    Refused { id: i64, why: SettleRefusal },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Entry {
    /// Entry `id`, of whichever kind it is.
    pub fn read(store: &Store, id: i64) -> Result<Option<Self>, StoreError> {
        Ok(match store.journal().kind(id)? {
            Some(JournalKind::Order) => store.orders().entry(id)?.map(Self::Order),
            Some(JournalKind::Withdrawal) => store.withdrawals().entry(id)?.map(Self::Withdrawal),
            None => None,
        })
    }

    /// Every entry whose outcome is not known ("unknown", and "sending" left by a crash), oldest
    /// first.
    pub fn unresolved(store: &Store) -> Result<Vec<Self>, StoreError> {
        Ok(Self::in_id_order(
            store.orders().unresolved()?,
            store.withdrawals().unresolved()?,
        ))
    }

    /// The last `limit` entries of each kind, newest first.
    pub fn recent(store: &Store, limit: u32) -> Result<Vec<Self>, StoreError> {
        let mut all = Self::in_id_order(
            store.orders().recent(limit)?,
            store.withdrawals().recent(limit)?,
        );
        all.reverse();
        Ok(all)
    }

    /// Entries of both kinds as one list, oldest first (ids are one sequence).
    fn in_id_order(orders: Vec<JournalEntry>, withdrawals: Vec<WithdrawalEntry>) -> Vec<Self> {
        let mut all: Vec<Self> = orders
            .into_iter()
            .map(Self::Order)
            .chain(withdrawals.into_iter().map(Self::Withdrawal))
            .collect();
        all.sort_by_key(Self::id);
        all
    }

    pub fn id(&self) -> i64 {
        match self {
            Self::Order(e) => e.id,
            Self::Withdrawal(e) => e.id,
        }
    }

    pub fn kind(&self) -> JournalKind {
        match self {
            Self::Order(_) => JournalKind::Order,
            Self::Withdrawal(_) => JournalKind::Withdrawal,
        }
    }

    /// Where and as whom it was sent.
    pub fn origin(&self) -> &Origin {
        match self {
            Self::Order(e) => &e.origin,
            Self::Withdrawal(e) => &e.origin,
        }
    }

    pub fn sent_at(&self) -> DateTime<Utc> {
        match self {
            Self::Order(e) => e.sent_at,
            Self::Withdrawal(e) => e.sent_at,
        }
    }

    /// When its sender gave up waiting for the answer, if it said so.
    pub fn gave_up_at(&self) -> Option<DateTime<Utc>> {
        match self {
            Self::Order(e) => e.gave_up_at,
            Self::Withdrawal(e) => e.gave_up_at,
        }
    }

    /// The JSON body sent.
    pub fn request(&self) -> &str {
        match self {
            Self::Order(e) => &e.request,
            Self::Withdrawal(e) => &e.request,
        }
    }

    /// How it was settled, or why it is not, in the journal's English (for logs and the CLI).
    pub fn note(&self) -> &str {
        match self {
            Self::Order(e) => &e.note,
            Self::Withdrawal(e) => &e.note,
        }
    }

    /// The ids of the rows, orders or trades that are its evidence.
    pub fn claimed(&self) -> &[String] {
        match self {
            Self::Order(e) => &e.claimed,
            Self::Withdrawal(e) => &e.claimed,
        }
    }

    /// What it asked to move: an order's NOK to spend or bitcoin to sell, a payment's bitcoin.
    pub fn amount(&self) -> Amount {
        match self {
            Self::Order(e) => e.amount,
            Self::Withdrawal(e) => e.amount_btc.into(),
        }
    }

    /// Whether it was made (placed, sent), once settled; `None` while unresolved.
    pub fn made(&self) -> Option<bool> {
        match self {
            Self::Order(e) => match e.state {
                JournalState::Sending | JournalState::Unknown => None,
                JournalState::Placed => Some(true),
                JournalState::Rejected | JournalState::NotPlaced => Some(false),
            },
            Self::Withdrawal(e) => match e.state {
                WithdrawalState::Sending | WithdrawalState::Unknown => None,
                WithdrawalState::Sent => Some(true),
                WithdrawalState::Rejected | WithdrawalState::NotSent => Some(false),
            },
        }
    }

    /// Its state's name, as the journal lists it.
    pub fn state_text(&self) -> &'static str {
        match self {
            Self::Order(e) => e.state.text(),
            Self::Withdrawal(e) => e.state.text(),
        }
    }

    /// Whether its request may still be on its way: sent by this process and not answered, or
    /// by any process that has not said it gave up and could still be waiting. "Not made" is
    /// never said of it then: it could still arrive.
    pub fn may_be_in_flight(&self, store: &Store, rules: &Rules) -> bool {
        store.in_flight(self.id())
            || rules
                .gave_up(self.gave_up_at(), self.sent_at(), Utc::now())
                .is_none()
    }

    /// What a look must read for it: an order's evidence is in the NOK account too.
    pub(crate) fn reads_fiat(&self) -> bool {
        matches!(self, Self::Order(_))
    }

    /// The request as the evidence is judged against it.
    fn judged<'a>(
        &'a self,
        before: Option<&'a Balances>,
        rules: &Rules,
        at: DateTime<Utc>,
    ) -> evidence::Request<'a> {
        let (kind, amount, account, reference, stirred) = match self {
            Self::Order(e) => (
                match e.order_type {
                    OrderType::Limit => Kind::LimitOrder(e.direction),
                    OrderType::Market => Kind::MarketOrder(e.direction),
                },
                e.amount,
                e.account_id.as_deref(),
                e.reference.as_str(),
                e.stirred,
            ),
            Self::Withdrawal(e) => (
                Kind::Withdrawal,
                Amount::Btc(e.amount_btc),
                e.account_id.as_deref().filter(|a| !a.is_empty()),
                e.reference.as_str(),
                e.stirred,
            ),
        };
        evidence::Request {
            kind,
            amount,
            account,
            sent_at: self.sent_at(),
            gave_up_at: rules.gave_up(self.gave_up_at(), self.sent_at(), at),
            reference,
            before,
            stirred,
        }
    }

    /// Balances just before it was sent, as kept.
    fn before(&self) -> Option<&Balances> {
        match self {
            Self::Order(e) => e.before.as_ref(),
            Self::Withdrawal(e) => e.before.as_ref(),
        }
    }

    /// What else the journal holds that could explain its evidence.
    fn others(&self, store: &Store) -> Result<Others, StoreError> {
        match self {
            Self::Order(e) => orders::others_of(store, e),
            Self::Withdrawal(e) => withdrawals::others_of(store, e),
        }
    }

    /// Settles it made (with `ids` as its evidence) or not made; false when something else
    /// settled it first. A payment found made is listed in the tax rows only once it
    /// completed.
    fn decide(
        &self,
        store: &Store,
        made: Option<&[String]>,
        note: &str,
        by: Decision,
    ) -> Result<bool, StoreError> {
        let id = self.id();
        match (self, made) {
            (Self::Order(_), Some(ids)) => {
                store
                    .orders()
                    .decide(id, JournalState::Placed, ids, note, by)
            }
            (Self::Order(_), None) => {
                store
                    .orders()
                    .decide(id, JournalState::NotPlaced, &[], note, by)
            }
            (Self::Withdrawal(_), Some(ids)) => store.withdrawals().decide(
                id,
                WithdrawalState::Sent,
                ids,
                Some(&WithdrawalStatus::Completed),
                note,
                by,
            ),
            (Self::Withdrawal(_), None) => {
                store
                    .withdrawals()
                    .decide(id, WithdrawalState::NotSent, &[], None, note, by)
            }
        }
    }

    /// Marks that a check saw a move only it could explain.
    fn stir(&self, store: &Store) -> Result<(), StoreError> {
        match self {
            Self::Order(e) => store.orders().stir(e.id),
            Self::Withdrawal(e) => store.withdrawals().stir(e.id),
        }
    }
}

/// What became of a request sent once.
#[derive(Debug)]
pub(crate) enum Answered<T> {
    /// The exchange answered that it made it: recording that is the sender's.
    Made(T),
    /// The answer was lost; the entry is "unknown" until evidence settles it.
    Lost { reason: String },
}

/// Sends entry `id`'s request (of `kind`) once with `send`, marked in flight meanwhile. A lost
/// answer is recorded "unknown"; a refusal is recorded (not made when the connection was
/// refused before the request could leave, else rejected) with what was answered as evidence
/// of `read`, and returned. Nothing is ever sent again here.
pub(crate) async fn send_once<T, E>(
    store: &Store,
    kind: JournalKind,
    id: i64,
    read: Read,
    send: impl Future<Output = Result<T, Error>>,
) -> Result<Answered<T>, E>
where
    E: From<Error> + From<StoreError>,
{
    store.set_in_flight(id, true);
    let answer = send.await;
    store.set_in_flight(id, false);
    match answer {
        Ok(made) => Ok(Answered::Made(made)),
        Err(e) if e.is_outcome_unknown() => {
            store
                .journal()
                .record_unanswered(kind, id, Unanswered::Lost, &e.to_string())?;
            Ok(Answered::Lost {
                reason: e.to_string(),
            })
        }
        Err(e) => {
            let how = match e {
                Error::Connect { .. } => Unanswered::NeverLeft,
                _ => Unanswered::Refused,
            };
            store
                .journal()
                .record_unanswered(kind, id, how, &e.to_string())?;
            store.journal().add_evidence(
                id,
                &[Evidence {
                    at: Utc::now(),
                    read,
                    seen: Seen::answered(&e),
                }],
            )?;
            Err(e.into())
        }
    }
}

/// A kind of entry, as far as reconciling it goes: where it is stored, and what a look's
/// outcome resolves it to in its own terms (placed, sent).
pub trait Resolves: Clone + Into<Entry> {
    type Resolution;
    /// The kind's error, which the store's failures become.
    type Error: From<StoreError>;
    /// The entry `id` of this kind; `None` when there is none.
    fn stored(store: &Store, id: i64) -> Result<Option<Self>, StoreError>;
    /// There is no entry `id` of this kind.
    fn missing(id: i64) -> Self::Error;
    /// What `outcome`, of a look at this entry, resolves it to.
    fn resolution(self, outcome: Outcome) -> Self::Resolution;
}

/// The one reconcile path: looks at the account once for entry `id` of kind `K` ([`check`]),
/// records what it saw and any verdict it supports, and says what that resolves the entry to.
pub async fn reconcile<K: Resolves>(
    client: &ExchangeClient,
    store: &Store,
    id: i64,
    rules: &Rules,
) -> Result<K::Resolution, K::Error> {
    let e = K::stored(store, id)?.ok_or_else(|| K::missing(id))?;
    let outcome = check(client, store, &e.clone().into(), rules).await?;
    Ok(e.resolution(outcome))
}

/// Looks at the account once for unresolved entry `e`, records what it saw and any verdict it
/// supports. An entry settled already, one this process is still sending, a rung still queued,
/// and one sent to another exchange or through other accounts are not looked at.
pub async fn check(
    client: &ExchangeClient,
    store: &Store,
    e: &Entry,
    rules: &Rules,
) -> Result<Outcome, StoreError> {
    if e.made().is_some() {
        return Ok(Outcome::Settled);
    }
    if store.in_flight(e.id()) {
        return Ok(Outcome::StillUnknown(WhyUnknown::InFlight));
    }
    if let Entry::Order(o) = e
        && o.queued
    {
        return Ok(match orders::settle_stale_queued(store, o, rules)? {
            true => Outcome::NotMade,
            false => Outcome::StillUnknown(WhyUnknown::Queued),
        });
    }
    let here = crate::account_identity::origin_here(client, store).await?;
    if !e.origin().same_exchange(&here) {
        return Ok(Outcome::StillUnknown(WhyUnknown::OtherExchange {
            base_url: e.origin().base_url.clone(),
        }));
    }
    if !e.origin().judged_through(&here) {
        return Ok(Outcome::StillUnknown(WhyUnknown::OtherAccounts));
    }
    let look = Look::take(client, e.sent_at(), e.reads_fiat()).await;
    record(store, e, &look, rules)
}

/// Judges unresolved entry `e` by `look`, and records what the look saw and the verdict.
pub(crate) fn record(
    store: &Store,
    e: &Entry,
    look: &Look,
    rules: &Rules,
) -> Result<Outcome, StoreError> {
    let request = e.judged(e.before(), rules, look.at);
    let verdict = evidence::judge(&request, look, &e.others(store)?, rules);
    let mut seen = look.evidence();
    seen.push(evidence::conclusion(look, &verdict));
    store.journal().add_check(e.id(), &seen)?;
    let note = verdict.note();
    Ok(match verdict {
        Verdict::Made { ids } => {
            e.decide(store, Some(&ids), &note, Decision::Evidence)?;
            Outcome::Made { ids }
        }
        Verdict::NotMade { .. } => {
            e.decide(store, None, &note, Decision::Evidence)?;
            Outcome::NotMade
        }
        Verdict::Unknown { doubt, stirred } => {
            if stirred {
                e.stir(store)?;
            }
            Outcome::StillUnknown(WhyUnknown::Doubt(doubt))
        }
    })
}

/// The user says they checked the exchange's history and entry `id` was not made. Checked once
/// more first: refused when the entry is settled, when the evidence says it was made, or while
/// its request may still be on its way. Answers the entry as settled.
pub async fn settle_not_made(
    client: &ExchangeClient,
    store: &Store,
    id: i64,
    rules: &Rules,
) -> Result<Entry, SettleError> {
    let read = |store: &Store| Entry::read(store, id)?.ok_or(SettleError::NoSuchEntry(id));
    let e = read(store)?;
    let outcome = check(client, store, &e, rules).await?;
    let refuse = |why: SettleRefusal| SettleError::Refused { id, why };
    let order = e.kind() == JournalKind::Order;
    let made = match order {
        true => SettleRefusal::Placed,
        false => SettleRefusal::Sent,
    };
    match outcome {
        Outcome::Made { .. } => Err(refuse(made)),
        Outcome::Settled if e.made() == Some(true) => Err(refuse(made)),
        Outcome::Settled | Outcome::NotMade => Err(refuse(SettleRefusal::AlreadySettled(
            read(store)?.state_text(),
        ))),
        Outcome::StillUnknown(_) if e.may_be_in_flight(store, rules) => {
            Err(refuse(SettleRefusal::InFlight {
                minutes: rules.longest_wait().num_minutes(),
            }))
        }
        Outcome::StillUnknown(_) => {
            let note = if order {
                "the user checked the exchange's history: not placed"
            } else {
                "the user checked the exchange's history: not sent"
            };
            if !e.decide(store, None, note, Decision::User)? {
                return Err(refuse(SettleRefusal::SettledMeanwhile));
            }
            store.journal().add_evidence(
                id,
                &[Evidence {
                    at: Utc::now(),
                    read: Read::User,
                    seen: Seen::UserNotMade { order },
                }],
            )?;
            read(store)
        }
    }
}
