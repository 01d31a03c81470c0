//! Placing orders so that none is ever made twice. Every order is written to the journal before
//! it is sent, and sent once, with a reference in its description. When the answer is lost the
//! outcome is "unknown" until [`crate::evidence`] finds positive evidence either way; nothing is
//! re-sent by the app, and the same order is refused while one is unknown unless the caller says
//! otherwise.

use chrono::{DateTime, Duration, Utc};
use nordlys_exchange::ids::AccountId;
use nordlys_exchange::models::NewOrderRequest;
use nordlys_exchange::{Error, ExchangeClient};
use nordlys_money::Amount;

use crate::doubt::WhyUnknown;
use crate::evidence::{self, Balances, Others, Rules};
use crate::journal::{self, Answered, Outcome, SettleRefusal};
use crate::money_turn::MoneyTurn;
use crate::order_terms;
use crate::seen::{Read, Seen};
use crate::store::{
    Claim, Decision, Evidence, JournalEntry, JournalKind, JournalState, NewOrderEntry, Store,
    StoreError,
};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OrderError {
    #[error(transparent)]
    Exchange(#[from] Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no journal entry {0}")]
    Unknown(i64),
    #[error(
        "the same order (journal entry {0}) may already have been placed: its outcome is still unknown"
    )]
    SameAsUnknown(i64),
    #[error("this version does not place orders of this kind: {0}")]
    NotOffered(String),
    #[error("journal entry {id} cannot be settled: {why}")]
    CannotSettle { id: i64, why: SettleRefusal },
    /// A queued rung settled "not placed" before its turn came: it was not sent.
    #[error(
        "journal entry {0} was settled not placed while it waited its turn, so it was not sent"
    )]
    SettledBeforeSent(i64),
}

/// What became of an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    Placed {
        order_id: Option<String>,
        trade_id: Option<String>,
    },
    NotPlaced,
    /// Still not known, and why: the user can check there too.
    StillUnknown(WhyUnknown),
}

/// How an order ended when it was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    Placed {
        journal_id: i64,
        order_id: String,
        trade_id: Option<String>,
        /// The exchange placed it, but the journal could not record that; a later check will.
        warning: Option<String>,
    },
    /// The request may have reached the exchange; call [`journal::reconcile`] before anything else.
    Unknown { journal_id: i64, reason: String },
}

/// The request's type and direction as the journal keeps them; one this version does not
/// offer is refused before anything is written or sent.
fn terms(
    request: &NewOrderRequest,
) -> Result<(order_terms::OrderType, order_terms::Direction), OrderError> {
    let t = order_terms::OrderType::from_wire(&request.order_type)
        .ok_or_else(|| OrderError::NotOffered(request.order_type.to_string()))?;
    let d = order_terms::Direction::from_wire(&request.direction)
        .ok_or_else(|| OrderError::NotOffered(request.direction.to_string()))?;
    Ok((t, d))
}

/// Journals and sends one order. A refusal or rejection is an error; a lost answer is
/// [`Placement::Unknown`], never a retry. While the same order is unknown it is refused
/// ([`OrderError::SameAsUnknown`]) unless `despite_unknown`.
pub async fn place(
    client: &ExchangeClient,
    store: &Store,
    request: &NewOrderRequest,
    despite_unknown: bool,
    turn: &MoneyTurn,
) -> Result<Placement, OrderError> {
    let ready = Prepared::read(client, store, request).await?;
    let id = match store
        .orders()
        .add(&ready.entry(Utc::now()), despite_unknown)?
    {
        Claim::Journaled(id) => id,
        Claim::SameAsUnresolved(id) => return Err(OrderError::SameAsUnknown(id)),
    };
    ready.send(client, store, id, turn).await
}

/// The journal's question about an order, asked before the user confirms it so the
/// confirmation comes last: the same order still unresolved ([`OrderError::SameAsUnknown`])
/// unless `despite_unknown`. [`place`] asks it again as it journals.
pub fn asks_first(
    client: &ExchangeClient,
    store: &Store,
    request: &NewOrderRequest,
    despite_unknown: bool,
) -> Result<(), OrderError> {
    if despite_unknown {
        return Ok(());
    }
    let (_, direction) = terms(request)?;
    let base_url = evidence::origin_of(client).base_url;
    match store
        .orders()
        .unresolved_like(&base_url, direction, direction.amount(request.amount))?
    {
        Some(id) => Err(OrderError::SameAsUnknown(id)),
        None => Ok(()),
    }
}

/// An order ready to be journaled and sent: its body with a reference, and the balances just
/// before. Whoever journals it (the order form, a plan's claim on its slot) then sends it with
/// [`Prepared::send`], once.
#[derive(Debug, Clone)]
pub struct Prepared {
    request: NewOrderRequest,
    body: String,
    reference: String,
    origin: crate::store::Origin,
    before: Option<Balances>,
    order_type: order_terms::OrderType,
    direction: order_terms::Direction,
}

impl Prepared {
    /// Reads the balances the evidence will compare against and gives the user's order a new
    /// reference, in its description only when they left that empty (their text is sent as
    /// typed). An order that could not be sent is refused first, before anything is read.
    /// Nothing is written or sent.
    pub async fn read(
        client: &ExchangeClient,
        store: &Store,
        request: &NewOrderRequest,
    ) -> Result<Self, OrderError> {
        client.may_create_order(request)?;
        let origin = crate::account_identity::origin_here(client, store).await?;
        let before = Balances::read(client, true).await;
        Self::marked(origin, request, before.as_ref(), evidence::Written::ByUser)
    }

    /// [`Prepared::read`] for the orders a plan sends one after another (a ladder's rungs): the
    /// balances are read once, before the first; their descriptions are Nordlys's own, and carry
    /// the reference after them.
    pub async fn read_all(
        client: &ExchangeClient,
        store: &Store,
        requests: &[NewOrderRequest],
    ) -> Result<Vec<Self>, OrderError> {
        for r in requests {
            client.may_create_order(r)?;
        }
        let origin = crate::account_identity::origin_here(client, store).await?;
        let before = Balances::read(client, true).await;
        requests
            .iter()
            .map(|r| {
                Self::marked(
                    origin.clone(),
                    r,
                    before.as_ref(),
                    evidence::Written::ByNordlys,
                )
            })
            .collect()
    }

    fn marked(
        origin: crate::store::Origin,
        request: &NewOrderRequest,
        before: Option<&Balances>,
        written: evidence::Written,
    ) -> Result<Self, OrderError> {
        let (order_type, direction) = terms(request)?;
        let mut request = request.clone();
        let (description, reference) = evidence::tagged(&request.description, written);
        request.description = description;
        let body = serde_json::to_string(&request).unwrap_or_default();
        Ok(Self {
            body,
            reference,
            origin,
            before: before.cloned(),
            order_type,
            direction,
            request,
        })
    }

    /// Its journal entry, as sent at `sent_at`.
    pub fn entry(&self, sent_at: DateTime<Utc>) -> NewOrderEntry<'_> {
        NewOrderEntry {
            sent_at,
            order_type: self.order_type,
            direction: self.direction,
            amount: self.direction.amount(self.request.amount),
            price: self.request.price,
            account_id: self.request.account_id.as_ref().map(AccountId::as_str),
            origin: &self.origin,
            request: &self.body,
            reference: &self.reference,
            before: self.before.as_ref(),
        }
    }

    /// Sends it as journal entry `id`, once, and records the answer or its absence.
    pub async fn send(
        self,
        client: &ExchangeClient,
        store: &Store,
        id: i64,
        _turn: &MoneyTurn,
    ) -> Result<Placement, OrderError> {
        store.set_in_flight(id, true);
        match store.orders().take(id, Utc::now()) {
            Ok(true) => {}
            Ok(false) => {
                store.set_in_flight(id, false);
                return Err(OrderError::SettledBeforeSent(id));
            }
            Err(e) => {
                store.set_in_flight(id, false);
                return Err(e.into());
            }
        }
        let answer = journal::send_once::<_, OrderError>(
            store,
            JournalKind::Order,
            id,
            Read::PlaceOrder,
            client.create_order(&self.request),
        );
        match answer.await? {
            Answered::Made(r) => {
                let trade = r.trade_id.as_ref().map(|t| t.as_str());
                // The order is placed whatever happens to this write: a failure is a warning,
                // and the entry, still "sending", is settled as placed by the next check.
                let warning = store
                    .orders()
                    .answered(
                        id,
                        JournalState::Placed,
                        Some(r.order_id.as_str()),
                        trade,
                        "",
                    )
                    .err()
                    .map(|e| e.to_string());
                Ok(Placement::Placed {
                    journal_id: id,
                    order_id: r.order_id.to_string(),
                    trade_id: r.trade_id.map(|t| t.to_string()),
                    warning,
                })
            }
            Answered::Lost { reason } => Ok(Placement::Unknown {
                journal_id: id,
                reason,
            }),
        }
    }
}

/// What else the journal holds that could explain `e`'s evidence, from one read of the entries
/// of the same exchange and direction sent from a day before it on.
pub(crate) fn others_of(store: &Store, e: &JournalEntry) -> Result<Others, StoreError> {
    let near: Vec<JournalEntry> = store
        .orders()
        .since(e.sent_at - Duration::days(1))?
        .into_iter()
        .filter(|o| {
            o.id != e.id && o.direction == e.direction && o.origin.base_url == e.origin.base_url
        })
        .collect();
    let of = |could: fn(&JournalEntry) -> bool| -> Vec<(DateTime<Utc>, Amount)> {
        near.iter()
            .filter(|o| could(o))
            .map(|o| (o.sent_at, o.amount))
            .collect()
    };
    Ok(Others {
        claimed: store.orders().claimed_ids(e.id)?,
        rivals: of(is_rival),
        known_limit_orders: of(is_known_limit_order),
        limit_orders: of(is_unidentified_limit_order),
        neighbours: near
            .iter()
            .filter(|o| {
                matches!(
                    o.state,
                    JournalState::Sending | JournalState::Unknown | JournalState::Placed
                )
            })
            .map(|o| o.sent_at)
            .collect(),
    })
}

/// An entry that could own the same evidence: still unresolved, or placed without a trade or a
/// claimed row that identifies it (a limit order known by its order excepted: see
/// [`is_known_limit_order`]).
fn is_rival(o: &JournalEntry) -> bool {
    match o.state {
        JournalState::Sending | JournalState::Unknown => true,
        JournalState::Placed => o.trade_id.is_none() && o.claimed.is_empty() && !known_limit(o),
        _ => false,
    }
}

/// A limit order the exchange answered for: its open order is known by its id.
fn known_limit(o: &JournalEntry) -> bool {
    o.order_type == order_terms::OrderType::Limit && o.order_id.is_some()
}

/// A placed limit order known by its order and without a claimed row: it owns no open order but
/// its own, yet a fill of its could match as rows.
fn is_known_limit_order(o: &JournalEntry) -> bool {
    o.state == JournalState::Placed
        && o.trade_id.is_none()
        && o.claimed.is_empty()
        && known_limit(o)
}

/// A limit order not known by its order: one partly filled could show an open rest, or a fill,
/// of any amount below its own. One placed on evidence alone counts too: its own order is not
/// known, so the rest it left could be any open order.
fn is_unidentified_limit_order(o: &JournalEntry) -> bool {
    o.order_type == order_terms::OrderType::Limit
        && match o.state {
            JournalState::Sending | JournalState::Unknown => true,
            JournalState::Placed => o.order_id.is_none(),
            _ => false,
        }
}

/// What unknown orders say about cancelling an open order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CancelDoubt {
    /// The open orders cannot be read, so it cannot be told.
    CannotLook,
    /// No unknown order could be it.
    None,
    /// One could be it, and it gave up less than the quiet period ago: still being checked, so
    /// the cancel waits (once cancelled, the order could no longer be found, and the unknown one
    /// would be taken as never placed).
    Young,
    /// Every one that could be it has been quiet for longer than the quiet period: the user may
    /// cancel anyway, after a warning.
    Old,
}

/// Whether an order whose outcome is still unknown (`unresolved`) could be the open order
/// `open`: same direction, an amount it could have left open, sent no later than two minutes
/// after the open order was made.
pub fn cancel_doubt(
    open: &nordlys_exchange::models::Order,
    unresolved: &[JournalEntry],
    rules: &Rules,
    now: DateTime<Utc>,
) -> CancelDoubt {
    let could: Vec<&JournalEntry> = unresolved
        .iter()
        .filter(|e| {
            e.direction.is(&open.direction)
                && e.amount.decimal() >= open.amount
                && e.sent_at <= open.created_at + Duration::minutes(2)
        })
        .collect();
    if could.is_empty() {
        return CancelDoubt::None;
    }
    let quiet = could.iter().all(|e| {
        rules
            .gave_up(e.gave_up_at, e.sent_at, now)
            .is_some_and(|g| now - g >= rules.min_quiet())
    });
    if quiet {
        CancelDoubt::Old
    } else {
        CancelDoubt::Young
    }
}

impl journal::Resolves for JournalEntry {
    type Resolution = Resolution;
    type Error = OrderError;

    fn stored(store: &Store, id: i64) -> Result<Option<Self>, StoreError> {
        store.orders().entry(id)
    }

    fn missing(id: i64) -> OrderError {
        OrderError::Unknown(id)
    }

    fn resolution(self, outcome: Outcome) -> Resolution {
        let placed = |order_id, trade_id| Resolution::Placed { order_id, trade_id };
        match outcome {
            Outcome::Settled if self.state == JournalState::Placed => {
                placed(self.order_id, self.trade_id)
            }
            Outcome::Settled | Outcome::NotMade => Resolution::NotPlaced,
            Outcome::Made { ids } => placed(
                ids.iter().find(|i| i.starts_with("or_")).cloned(),
                ids.iter().find(|i| !i.starts_with("or_")).cloned(),
            ),
            Outcome::StillUnknown(why) => Resolution::StillUnknown(why),
        }
    }
}

/// Settles a queued rung "not placed" once its sender would have given up on its run (a quit or
/// a crash mid-ladder): it never left, and the sender, should it come back for it, finds it
/// settled and sends nothing. True when it is settled now.
pub(crate) fn settle_stale_queued(
    store: &Store,
    e: &JournalEntry,
    rules: &Rules,
) -> Result<bool, StoreError> {
    if !e.queued || store.in_flight(e.id) || rules.gave_up(None, e.sent_at, Utc::now()).is_none() {
        return Ok(false);
    }
    store.orders().settle_queued(e.id, &Seen::NeverSent)
}

/// Records that the user saw on the exchange that the order of `journal_id` was placed, when
/// the exchange's own evidence cannot tell (lost orders alike in every way but their order id).
/// Nothing is sent: an order settled as placed is never sent again, so the user's word cannot
/// make anyone pay twice. `order_id`, when the order is still open, names it: it must be
/// listed by endpoint 4, of the entry's kind and way, made no earlier than the entry was sent
/// (less the clocks' slack), and no other entry's; a plan can then cancel it like any order it
/// placed. Without it the order is taken as closed (filled, or cancelled on the exchange).
pub async fn settle_placed(
    client: &ExchangeClient,
    store: &Store,
    journal_id: i64,
    rules: &Rules,
    order_id: Option<&str>,
) -> Result<JournalEntry, OrderError> {
    let resolution = journal::reconcile::<JournalEntry>(client, store, journal_id, rules).await?;
    let e = store
        .orders()
        .entry(journal_id)?
        .ok_or(OrderError::Unknown(journal_id))?;
    let refuse = |why: SettleRefusal| OrderError::CannotSettle {
        id: journal_id,
        why,
    };
    if !matches!(resolution, Resolution::StillUnknown(_)) {
        return Err(refuse(SettleRefusal::AlreadySettled(e.state.text())));
    }
    let mut claimed = vec![];
    let saw = match order_id.map(str::trim).filter(|o| !o.is_empty()) {
        Some(id) => {
            let listed = client.open_orders().await?;
            let Some(order) = listed.orders.iter().find(|o| o.order_id.as_str() == id) else {
                return Err(refuse(SettleRefusal::NotListed(id.to_owned())));
            };
            let alike = order_terms::Direction::from_wire(&order.direction) == Some(e.direction)
                && order_terms::OrderType::from_wire(&order.order_type) == Some(e.order_type)
                && order.created_at >= e.sent_at - crate::evidence::CLOCK_SLACK;
            if !alike {
                return Err(refuse(SettleRefusal::NotThisOrder(id.to_owned())));
            }
            if let Some(other) = store.orders().by_order_id(id)?
                && other.id != journal_id
            {
                return Err(refuse(SettleRefusal::Claimed {
                    order: id.to_owned(),
                    entry: other.id,
                }));
            }
            claimed.push(id.to_owned());
            Seen::UserPlaced {
                open_as: Some(id.to_owned()),
            }
        }
        None => Seen::UserPlaced { open_as: None },
    };
    if !store.orders().decide(
        journal_id,
        JournalState::Placed,
        &claimed,
        &format!("the user {saw}"),
        Decision::User,
    )? {
        return Err(refuse(SettleRefusal::SettledMeanwhile));
    }
    store.journal().add_evidence(
        journal_id,
        &[Evidence {
            at: Utc::now(),
            read: Read::User,
            seen: saw,
        }],
    )?;
    store
        .orders()
        .entry(journal_id)?
        .ok_or(OrderError::Unknown(journal_id))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use super::*;
    use crate::store::{Decision, NewOrderEntry, Origin};

    fn journal(store: &Store, amount: &str, sent_at: DateTime<Utc>) -> i64 {
        let origin = Origin {
            base_url: "http://127.0.0.1:1/".into(),
            key_fingerprint: String::new(),
            identity: None,
        };
        let new = NewOrderEntry {
            sent_at,
            order_type: order_terms::OrderType::Limit,
            direction: order_terms::Direction::Buy,
            amount: order_terms::Direction::Buy.amount(amount.parse().unwrap()),
            price: None,
            account_id: None,
            origin: &origin,
            request: "{}",
            reference: "",
            before: None,
        };
        match store.orders().add(&new, true).unwrap() {
            crate::store::Claim::Journaled(id) => id,
            other => panic!("{other:?}"),
        }
    }

    fn open_buy(amount: &str, created_at: DateTime<Utc>) -> nordlys_exchange::models::Order {
        serde_json::from_value(serde_json::json!({
            "orderId": "or_1",
            "type": nordlys_exchange::models::OrderType::Limit.as_str(),
            "direction": nordlys_exchange::models::Direction::Buy.as_str(),
            "amount": amount,
            "createdAt": created_at.to_rfc3339(),
        }))
        .unwrap()
    }

    #[test]
    fn a_cancel_waits_for_an_unknown_order_that_could_be_the_one_cancelled() {
        let store = Store::in_memory().unwrap();
        let now = Utc::now();
        let rules = Rules::with_min_quiet(Duration::minutes(10));
        let sent = now - Duration::minutes(1);
        journal(&store, "500", sent);
        let unresolved = store.orders().unresolved().unwrap();
        // A rest of 300 of an unknown buy of 500, made just after it was sent: it could be it.
        let rest = open_buy("300", sent + Duration::seconds(5));
        assert_eq!(
            cancel_doubt(&rest, &unresolved, &rules, now),
            CancelDoubt::Young
        );
        // Quiet for longer than the quiet period: the user may cancel anyway.
        let later = now + Duration::minutes(20);
        assert_eq!(
            cancel_doubt(&rest, &unresolved, &rules, later),
            CancelDoubt::Old
        );
        // More than the unknown order could have left open, or made long before it was sent, or
        // a sell: not it.
        for other in [
            open_buy("501", sent),
            open_buy("300", sent - Duration::minutes(3)),
        ] {
            assert_eq!(
                cancel_doubt(&other, &unresolved, &rules, now),
                CancelDoubt::None,
                "{other:?}"
            );
        }
        let mut sell = open_buy("300", sent);
        sell.direction = nordlys_exchange::models::Direction::Sell;
        assert_eq!(
            cancel_doubt(&sell, &unresolved, &rules, now),
            CancelDoubt::None
        );
        assert_eq!(cancel_doubt(&rest, &[], &rules, now), CancelDoubt::None);
    }

    #[test]
    fn a_limit_order_counts_until_its_own_order_is_known() {
        let store = Store::in_memory().unwrap();
        let now = Utc::now();
        let by_fills = journal(&store, "902", now - Duration::seconds(30));
        let by_order = journal(&store, "903", now - Duration::seconds(20));
        // Smaller than this one: its open rest could still be part of this one's evidence.
        journal(&store, "150", now - Duration::seconds(10));
        let me = journal(&store, "802", now);
        let e = store.orders().entry(me).unwrap().unwrap();
        assert_eq!(
            others_of(&store, &e).unwrap().limit_orders.len(),
            3,
            "all unknown"
        );
        // Placed on its fills alone: the rest it may have left is still not known.
        let fills = ["tr_1".to_owned()];
        store
            .orders()
            .decide(
                by_fills,
                JournalState::Placed,
                &fills,
                "",
                Decision::Evidence,
            )
            .unwrap();
        let order = ["or_1".to_owned(), "tr_2".to_owned()];
        store
            .orders()
            .decide(
                by_order,
                JournalState::Placed,
                &order,
                "",
                Decision::Evidence,
            )
            .unwrap();
        assert_eq!(others_of(&store, &e).unwrap().limit_orders.len(), 2);
    }
}
