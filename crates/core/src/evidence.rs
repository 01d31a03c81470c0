//! What counts as evidence that a lost order or withdrawal was made, or was not.
//!
//! "Placed" / "sent" needs positive evidence: the exchange's own answer, or an open order or tax
//! rows that match the request and that no other journaled request explains. "Not placed" /
//! "not sent" needs either proof the request never reached the exchange (decided by the sender),
//! or a quiet period of at least [`MIN_QUIET`] after the give-up in which every look at the
//! account succeeded, no row or open order matched, no balance moved by an amount this request
//! could explain, nothing was held back for a pending withdrawal, and every account's balance is
//! explained by its listed rows. Anything else stays unknown: the specification does not say that
//! descriptions reach tax rows, how late rows are listed, where a pending withdrawal is held, where
//! a fee is reported, whether a market order fills in one trade, or that the clocks agree, so no
//! rule here depends on any of that. A limit order that was made and then cancelled, or a
//! withdrawal made and then failed before anyone looked, leaves no trace: silence cannot tell it
//! from one never made, so a limit order is never settled as "not placed" by silence.
//!
//! The rules are pure functions of a [`Look`] at the account, so each is tested against scripted
//! histories; [`Look::take`] is the one place they meet the exchange.

use nordlys_exchange::credentials::key_fingerprint;
use std::collections::HashSet;

use chrono::{DateTime, Duration, Utc};
use nordlys_exchange::models::{self, Order, TaxTransaction, TaxTransactionType};
use nordlys_exchange::{ExchangeClient, TaxQuery};
use nordlys_money::{Amount, Btc, CheckedSum, Nok};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::doubt::{Doubt, Move};
use crate::order_terms::Direction;
use crate::seen::{AccountSeen, Failure, Read, Seen};
use crate::store::Evidence;

/// How long after giving up on an answer silence may settle a request as not made: longer than a
/// late commit or a late-listed row could plausibly take.
pub const MIN_QUIET: Duration = Duration::minutes(10);

/// How far the exchange's clock may be off ours: evidence is looked for from this long before
/// the request was sent.
pub const CLOCK_SLACK: Duration = Duration::seconds(125);

/// How far apart the fills of one order may be listed: they happen at once, and rows of several
/// orders a moment apart could otherwise add up to another's amount (the soak matrix found one).
const FILL_SPREAD: Duration = Duration::zero();

/// How long after another order was sent a fill of it may still be listed: its sender's longest
/// wait, and the clock slack.
const FILLS_REACH: Duration = Duration::minutes(15);

/// The most rows a search for fills at different instants looks through, and the most subsets
/// it tries: past either, which rows add up is not told, and the request stays unknown.
const MOST_FILL_ROWS: usize = 24;
const MOST_FILL_TRIES: usize = 1_000_000;

/// A fill of an order is listed no earlier than the order was made, less this (two clocks of one
/// exchange): an open rest is never completed by fills from before it existed.
const ORDER_FILL_SLACK: Duration = Duration::seconds(1);

/// The rules in force. Only debug builds can shorten the quiet period (for tests), through
/// [`Rules::with_min_quiet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    min_quiet: Duration,
    /// How long a sender that never said it gave up (it died) may still have been waiting for
    /// the answer: longer than any request timeout the settings allow.
    longest_wait: Duration,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            min_quiet: MIN_QUIET,
            longest_wait: Duration::minutes(10),
        }
    }
}

impl Rules {
    #[cfg(debug_assertions)]
    pub fn with_min_quiet(min_quiet: Duration) -> Self {
        Self {
            min_quiet,
            ..Self::default()
        }
    }

    /// For a test whose senders time out sooner than the settings allow (debug builds only).
    #[cfg(debug_assertions)]
    pub fn with_longest_wait(self, longest_wait: Duration) -> Self {
        Self {
            longest_wait,
            ..self
        }
    }

    pub fn min_quiet(&self) -> Duration {
        self.min_quiet
    }

    /// How long a sender may wait for an answer before it gives up.
    pub fn longest_wait(&self) -> Duration {
        self.longest_wait
    }

    /// When the answer to an entry still `sending` can no longer come: its sender gave up, or
    /// died and would have given up by now.
    pub fn gave_up(
        &self,
        gave_up_at: Option<DateTime<Utc>>,
        sent_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        let longest = self.longest_wait;
        gave_up_at.or_else(|| (now - sent_at > longest).then_some(sent_at + longest))
    }
}

/// One bitcoin account's balances.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holding {
    pub id: String,
    #[serde(with = "nordlys_money::computed")]
    pub available: Btc,
    #[serde(with = "nordlys_money::computed")]
    pub total: Btc,
}

/// Every balance a request could move, read just before it was sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Balances {
    pub accounts: Vec<Holding>,
    /// Available NOK; read for orders only.
    #[serde(with = "nordlys_money::opt_computed", default)]
    pub fiat: Option<Nok>,
}

impl Balances {
    /// Reads them now; `None` when a read fails (silence then never settles the request).
    pub async fn read(client: &ExchangeClient, with_fiat: bool) -> Option<Self> {
        let accounts = client.bitcoin_accounts(false).await.ok()?;
        let fiat = if with_fiat {
            Some(client.fiat_account().await.ok()?.available_nok)
        } else {
            None
        };
        Some(Self {
            accounts: holdings(&accounts.accounts),
            fiat,
        })
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A stored snapshot; damaged text reads as none (silence then never settles).
    pub fn from_json(text: Option<&str>) -> Option<Self> {
        serde_json::from_str(text?).ok()
    }
}

fn holdings(accounts: &[nordlys_exchange::models::BitcoinAccount]) -> Vec<Holding> {
    accounts
        .iter()
        .map(|a| Holding {
            id: a.id.to_string(),
            available: a.available_btc,
            total: a.total_btc,
        })
        .collect()
}

/// One look at the account: each read, or why it failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Look {
    /// Our clock, when the look was taken.
    pub at: DateTime<Utc>,
    pub accounts: Result<Vec<Holding>, Failure>,
    /// Read for orders only (`None` for a withdrawal's look).
    pub fiat: Option<Result<Nok, Failure>>,
    pub open_orders: Result<Vec<Order>, Failure>,
    /// Every tax row since the window opened that could be read.
    pub rows: Vec<TaxTransaction>,
    /// `Err` when a page failed or a row could not be read: the rows may be incomplete.
    pub rows_complete: Result<(), Failure>,
}

impl Look {
    /// Reads balances, open orders and the tax rows created since `since` (our clock; the
    /// window opens [`CLOCK_SLACK`] earlier). Balances are read before the rows, so a withdrawal
    /// that completes in between shows in one or the other.
    pub async fn take(client: &ExchangeClient, since: DateTime<Utc>, with_fiat: bool) -> Self {
        let at = Utc::now();
        let accounts = client
            .bitcoin_accounts(false)
            .await
            .map(|a| holdings(&a.accounts))
            .map_err(|e| Failure::of(&e));
        let fiat = if with_fiat {
            Some(
                client
                    .fiat_account()
                    .await
                    .map(|f| f.available_nok)
                    .map_err(|e| Failure::of(&e)),
            )
        } else {
            None
        };
        let open_orders = client
            .open_orders()
            .await
            .map(|o| o.orders)
            .map_err(|e| Failure::of(&e));
        let (rows, rows_complete) = rows_since(client, since - CLOCK_SLACK).await;
        Self {
            at,
            accounts,
            fiat,
            open_orders,
            rows,
            rows_complete,
        }
    }

    /// What each read showed, for the journal.
    pub fn evidence(&self) -> Vec<Evidence> {
        let mut out = Vec::new();
        let mut add = |read: Read, seen: Seen| {
            out.push(Evidence {
                at: self.at,
                read,
                seen,
            });
        };
        add(
            Read::Accounts,
            match &self.accounts {
                Ok(a) => Seen::Balances {
                    accounts: a
                        .iter()
                        .map(|h| AccountSeen {
                            id: h.id.clone(),
                            available: h.available,
                            total: h.total,
                        })
                        .collect(),
                },
                Err(e) => Seen::failed(e),
            },
        );
        match &self.fiat {
            Some(Ok(f)) => add(Read::Fiat, Seen::Fiat { available: *f }),
            Some(Err(e)) => add(Read::Fiat, Seen::failed(e)),
            None => {}
        }
        add(
            Read::OpenOrders,
            match &self.open_orders {
                Ok(o) => Seen::OpenOrders {
                    count: o.len() as u64,
                },
                Err(e) => Seen::failed(e),
            },
        );
        add(
            Read::Rows,
            match &self.rows_complete {
                Ok(()) => Seen::Rows {
                    count: self.rows.len() as u64,
                    incomplete: None,
                    trouble: None,
                },
                Err(f) => Seen::Rows {
                    count: self.rows.len() as u64,
                    incomplete: Some(f.error.clone()),
                    trouble: f.trouble.clone(),
                },
            },
        );
        out
    }

    fn complete(&self, with_fiat: bool) -> bool {
        self.accounts.is_ok()
            && self.open_orders.is_ok()
            && self.rows_complete.is_ok()
            && (!with_fiat || matches!(self.fiat, Some(Ok(_))))
    }
}

/// Walks the tax rows from `after`, keeping every row that decodes; a row that does not, or a
/// page that fails, makes the walk incomplete rather than silent.
async fn rows_since(
    client: &ExchangeClient,
    after: DateTime<Utc>,
) -> (Vec<TaxTransaction>, Result<(), Failure>) {
    let mut rows = Vec::new();
    let mut query = Some(TaxQuery {
        after: Some(after),
        ..TaxQuery::new(200)
    });
    while let Some(q) = query {
        let page = match client.tax_page(&q).await {
            Ok(p) => p,
            Err(e) => return (rows, Err(Failure::of(&e))),
        };
        let before = rows.len();
        rows.extend(page.rows().into_iter().filter_map(Result::ok));
        let unreadable = page.transactions.len() - (rows.len() - before);
        if unreadable > 0 {
            return (rows, Err(Failure::unreadable_rows(unreadable as u64)));
        }
        query = match q.after_tax_page(&page) {
            Ok(next) => next,
            Err(e) => return (rows, Err(Failure::of(&e))),
        };
    }
    (rows, Ok(()))
}

/// A request as the rules see it.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub kind: Kind,
    /// NOK to spend for a buy, bitcoin for a sell or a payment.
    pub amount: Amount,
    pub account: Option<&'a str>,
    pub sent_at: DateTime<Utc>,
    /// `None` while the request may still be in flight.
    pub gave_up_at: Option<DateTime<Utc>>,
    pub reference: &'a str,
    pub before: Option<&'a Balances>,
    pub stirred: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    MarketOrder(Direction),
    LimitOrder(Direction),
    Withdrawal,
}

impl Kind {
    fn direction(self) -> Option<Direction> {
        match self {
            Self::MarketOrder(d) | Self::LimitOrder(d) => Some(d),
            Self::Withdrawal => None,
        }
    }

    fn row_type(self) -> TaxTransactionType {
        match self.direction() {
            Some(Direction::Buy) => TaxTransactionType::BtcBuy,
            Some(Direction::Sell) => TaxTransactionType::BtcSell,
            None => TaxTransactionType::BtcWithdrawal,
        }
    }
}

/// What else the journal holds that could explain the same evidence.
#[derive(Debug, Clone, Default)]
pub struct Others {
    /// Open-order, trade and row ids other entries hold as theirs.
    pub claimed: HashSet<String>,
    /// Send times and amounts of other entries of the same kind (and direction) that could own
    /// a match not yet claimed: made (by the exchange's answer) without a claimed row, or still
    /// unresolved. One of the same amount takes matches in the order sent; one of another amount
    /// makes a match ambiguous when the match adds up to its amount under either fee reading.
    pub rivals: Vec<(DateTime<Utc>, Amount)>,
    /// Send times and amounts of limit orders of the same direction placed by the exchange's
    /// answer, without a claimed row: their open order is known (and claimed), so they own no
    /// other open order, but a fill of theirs is a row that could match like a rival's.
    pub known_limit_orders: Vec<(DateTime<Utc>, Amount)>,
    /// Send times and amounts of limit orders of the same direction not known by their order
    /// (unresolved, or placed on fills alone): one partly filled could leave an open rest, or a
    /// fill, of any amount below its own.
    pub limit_orders: Vec<(DateTime<Utc>, Amount)>,
    /// Send times of every other order of the same direction that was or may have been made:
    /// its fills at later instants are claimed by nobody, and could be among the rows that add
    /// up to this one's amount.
    pub neighbours: Vec<DateTime<Utc>>,
}

/// What the rules conclude from one look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Made; these ids are the evidence.
    Made { ids: Vec<String> },
    /// Not made: this many minutes of quiet showed nothing that could be it.
    NotMade { quiet_minutes: i64 },
    /// Not known yet; `stirred` when this look saw a move only this request could explain.
    Unknown { doubt: Doubt, stirred: bool },
}

impl Verdict {
    /// The journal's English note for a settled verdict (the CLI's `note`), as it always read.
    pub fn note(&self) -> String {
        match self {
            Self::Made { ids } => crate::seen::matched_by(ids),
            Self::NotMade { quiet_minutes } => crate::seen::no_trace(*quiet_minutes),
            Self::Unknown { doubt, .. } => doubt.to_string(),
        }
    }
}

/// One match: evidence ids, and when the first of them was made on the exchange's clock.
/// An ambiguous one could be part of a larger order's fill: it is no evidence of being made,
/// and no evidence of silence either.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Match {
    at: DateTime<Utc>,
    ids: Vec<String>,
    /// What the match adds up to under each reading of where the fee is (`None`: not a sum).
    sums: [Option<Decimal>; 2],
    /// How far those sums may be from an amount they meet: a satoshi's worth per row of a buy.
    slack: Decimal,
    ambiguous: bool,
    /// An open order of the whole amount: no request whose own order is known can own it.
    whole_open_order: bool,
}

/// The amounts a row moved under each reading of where the fee is: beside the amount, or inside.
fn moved(row: &TaxTransaction, kind: Kind) -> [Option<Decimal>; 2] {
    let out = row.out_amount;
    let fee = row.fee_amount.unwrap_or_default();
    match kind.direction() {
        // A buy spends `amount` NOK in all.
        Some(Direction::Buy) => [out.and_then(|o| o.checked_add(fee)), out],
        // A sell pays out `amount` BTC.
        Some(Direction::Sell) => [out, None],
        // A withdrawal sends `amount`; a fee is beside it, or inside `outAmount`.
        None => [
            out,
            out.and_then(|o| o.checked_sub(fee))
                .filter(|_| fee > Decimal::ZERO),
        ],
    }
}

/// One satoshi's worth in NOK at the row's price, and the øre a NOK figure is rounded to, for a
/// buy: what the exchange may keep back of the amount asked per fill when it takes only the NOK
/// of the whole satoshis bought. The row's `rateMarket`, or its own price where that is not
/// given; 0 for a sell or a withdrawal, whose amounts are exact.
fn fill_slack(row: &TaxTransaction, kind: Kind) -> Decimal {
    if kind.direction() != Some(Direction::Buy) {
        return Decimal::ZERO;
    }
    let own_price = || match (row.out_amount, row.in_amount) {
        (Some(nok), Some(btc)) if btc > Decimal::ZERO => nok.checked_div(btc),
        _ => None,
    };
    row.rate_market
        .map(|r| r.decimal())
        .filter(|r| *r > Decimal::ZERO)
        .or_else(own_price)
        .and_then(|rate| rate.checked_mul(Decimal::new(1, 8)))
        .unwrap_or_default()
        + Decimal::new(1, 2)
}

/// Whether `sum` meets `want` within `slack`.
fn meets(sum: Decimal, want: Decimal, slack: Decimal) -> bool {
    sum.checked_sub(want).is_some_and(|d| d.abs() <= slack)
}

/// The rows that could be this request's: its kind, its account, not before it was sent (less
/// the clock slack), and held by no other entry, nor listed at the same moment as a row another
/// entry holds (the other fills of that entry's order).
fn candidates<'r>(
    look: &'r Look,
    request: &Request<'_>,
    others: &Others,
) -> Vec<&'r TaxTransaction> {
    let from = request.sent_at - CLOCK_SLACK;
    let held: HashSet<_> = look
        .rows
        .iter()
        .filter(|r| others.claimed.contains(r.id.as_str()))
        .map(|r| (r.create_time, r.account_id.clone(), r.tx_type.clone()))
        .collect();
    look.rows
        .iter()
        .filter(|r| {
            r.tx_type == request.kind.row_type()
                && r.create_time >= from
                && !others.claimed.contains(r.id.as_str())
                && !held.contains(&(r.create_time, r.account_id.clone(), r.tx_type.clone()))
                && request
                    .account
                    .is_none_or(|a| r.account_id.as_ref().is_none_or(|x| x.as_str() == a))
        })
        .collect()
}

/// Runs of consecutive candidate rows that add up to `want` under one reading of the fee (a
/// buy's within a satoshi's worth per row), without overlapping, oldest first. Several rows make
/// one match here only for an order whose fills come at once (within [`FILL_SPREAD`]): two
/// payments never add up to a third. Fills at different instants are [`spread_fills`]'.
fn runs(rows: &[&TaxTransaction], want: Decimal, kind: Kind) -> Vec<Match> {
    let mut found = Vec::new();
    let mut i = 0;
    'start: while i < rows.len() {
        for reading in 0..2 {
            let mut sum = Decimal::ZERO;
            let mut slack = Decimal::ZERO;
            for (j, row) in rows.iter().enumerate().skip(i) {
                let Some(m) = moved(row, kind)[reading] else {
                    break;
                };
                let apart = row.create_time - rows[i].create_time;
                if j > i
                    && (kind == Kind::Withdrawal
                        || rows[i].account_id != row.account_id
                        || apart > FILL_SPREAD)
                {
                    break;
                }
                let (Some(s), Some(t)) =
                    (sum.checked_add(m), slack.checked_add(fill_slack(row, kind)))
                else {
                    break;
                };
                (sum, slack) = (s, t);
                if meets(sum, want, slack) {
                    let run = &rows[i..=j];
                    // Fewer than all the fills of that moment could be part of another order.
                    let at_once = rows
                        .iter()
                        .filter(|r| {
                            r.account_id == rows[i].account_id
                                && (r.create_time - rows[i].create_time).abs() <= FILL_SPREAD
                        })
                        .count();
                    found.push(Match {
                        at: rows[i].create_time,
                        ids: run.iter().map(|r| r.id.to_string()).collect(),
                        sums: sums_of(run, kind),
                        slack,
                        ambiguous: kind != Kind::Withdrawal && at_once > run.len(),
                        whole_open_order: false,
                    });
                    i = j + 1;
                    continue 'start;
                }
                if sum.checked_sub(slack).is_none_or(|low| low > want) {
                    break;
                }
            }
        }
        i += 1;
    }
    found
}

/// What `rows` add up to under each reading of the fee (`None` where a row has no amount under
/// it, or the sum is too large to add).
fn sums_of(rows: &[&TaxTransaction], kind: Kind) -> [Option<Decimal>; 2] {
    [0, 1].map(|r| {
        rows.iter().try_fold(Decimal::ZERO, |sum, row| {
            moved(row, kind)[r].and_then(|m| sum.checked_add(m))
        })
    })
}

/// What a search for fills found: nothing, one set of rows (indices into the rows searched), or
/// more than one (or too many rows to tell).
#[derive(Debug, PartialEq, Eq)]
enum FillSets {
    None,
    One(Vec<usize>),
    Several,
}

/// The sets of `rows` of one account that add up to `want` under one reading of the fee, within
/// a satoshi's worth per row of a buy: the fills of a market order, made at different instants.
/// Two different sets make [`FillSets::Several`], as does a search too large to finish.
fn fill_sets(rows: &[&TaxTransaction], want: Decimal, kind: Kind) -> FillSets {
    let mut found: Vec<Vec<usize>> = Vec::new();
    let mut tries = 0_usize;
    let mut accounts = Vec::new();
    for r in rows {
        if !accounts.contains(&&r.account_id) {
            accounts.push(&r.account_id);
        }
    }
    for account in accounts {
        for reading in 0..2 {
            // Each row's amount and slack; a row larger than the amount cannot be a fill of it.
            let mut items: Vec<(usize, Decimal, Decimal)> = rows
                .iter()
                .enumerate()
                .filter(|(_, r)| r.account_id == *account)
                .filter_map(|(i, r)| {
                    let m = moved(r, kind)[reading]?;
                    let slack = fill_slack(r, kind);
                    (m > Decimal::ZERO && m.checked_sub(slack).is_some_and(|low| low <= want))
                        .then_some((i, m, slack))
                })
                .collect();
            if items.is_empty() {
                continue;
            }
            if items.len() > MOST_FILL_ROWS {
                return FillSets::Several;
            }
            items.sort_by_key(|item| std::cmp::Reverse(item.1));
            let mut search = Search {
                items: &items,
                want,
                chosen: Vec::new(),
                found: &mut found,
                tries: &mut tries,
            };
            if !search.from(0, Decimal::ZERO, Decimal::ZERO) {
                return FillSets::Several;
            }
        }
    }
    match found.len() {
        0 => FillSets::None,
        1 => FillSets::One(found.remove(0)),
        _ => FillSets::Several,
    }
}

/// A depth-first search for subsets of `items` (row index, amount, slack) that meet `want`.
struct Search<'a> {
    items: &'a [(usize, Decimal, Decimal)],
    want: Decimal,
    chosen: Vec<usize>,
    found: &'a mut Vec<Vec<usize>>,
    tries: &'a mut usize,
}

impl Search<'_> {
    /// Tries every subset of the items from `next` on; `false` once the answer is known to be
    /// "several" or the tries are used up.
    fn from(&mut self, next: usize, sum: Decimal, slack: Decimal) -> bool {
        *self.tries += 1;
        if *self.tries > MOST_FILL_TRIES {
            return false;
        }
        if !self.chosen.is_empty() && meets(sum, self.want, slack) {
            let mut set = self.chosen.clone();
            set.sort_unstable();
            if !self.found.contains(&set) {
                self.found.push(set);
            }
            if self.found.len() > 1 {
                return false;
            }
        }
        for k in next..self.items.len() {
            let (i, amount, row_slack) = self.items[k];
            let (Some(s), Some(t)) = (sum.checked_add(amount), slack.checked_add(row_slack)) else {
                continue;
            };
            if s.checked_sub(t).is_none_or(|low| low > self.want) {
                continue;
            }
            self.chosen.push(i);
            let go_on = self.from(k + 1, s, t);
            self.chosen.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// A match made of fills at different instants, for a market order whose rows no run of one
/// instant met: the one set of candidate rows, created before it gave up (and the clock slack),
/// that adds up to its amount. Several such sets, or another order of the same direction sent
/// near enough for its fills to be among them, make it ambiguous: unknown, never "not placed".
fn spread_fills(
    rows: &[&TaxTransaction],
    request: &Request<'_>,
    others: &Others,
    now: DateTime<Utc>,
) -> Option<Match> {
    let until = request.gave_up_at.unwrap_or(now) + CLOCK_SLACK;
    let window: Vec<&TaxTransaction> = rows
        .iter()
        .copied()
        .filter(|r| r.create_time <= until)
        .collect();
    let set: Vec<&TaxTransaction> = match fill_sets(&window, request.amount.decimal(), request.kind)
    {
        FillSets::None => return None,
        FillSets::One(set) => set.into_iter().map(|i| window[i]).collect(),
        FillSets::Several => {
            let first = window.iter().map(|r| r.create_time).min()?;
            return Some(Match {
                at: first,
                ids: Vec::new(),
                sums: [None, None],
                slack: Decimal::ZERO,
                ambiguous: true,
                whole_open_order: false,
            });
        }
    };
    let first = set.iter().map(|r| r.create_time).min()?;
    let last = set.iter().map(|r| r.create_time).max()?;
    let neighbour = others
        .neighbours
        .iter()
        .any(|sent| *sent - CLOCK_SLACK <= last && *sent + FILLS_REACH >= first);
    Some(Match {
        at: first,
        ids: set.iter().map(|r| r.id.to_string()).collect(),
        sums: sums_of(&set, request.kind),
        // The search found this set with checked sums; past the range it is no match either.
        slack: set.iter().try_fold(Decimal::ZERO, |s, r| {
            s.checked_add(fill_slack(r, request.kind))
        })?,
        ambiguous: neighbour,
        whole_open_order: false,
    })
}

/// Whether a row that could be a fill of this market order (of its kind, account and
/// direction, claimed by nobody, created after it was sent and before it gave up, less the clock
/// slack either side, and no larger than it) is listed: silence cannot then say "not placed".
fn could_be_fills(look: &Look, request: &Request<'_>, others: &Others) -> bool {
    let Some(gave_up) = request.gave_up_at else {
        return true;
    };
    candidates(look, request, others).iter().any(|r| {
        r.create_time <= gave_up + CLOCK_SLACK
            && moved(r, request.kind).iter().flatten().any(|m| {
                m.checked_sub(fill_slack(r, request.kind))
                    .is_some_and(|low| low <= request.amount.decimal())
            })
    })
}

/// Every match for the request: rows carrying its reference, open orders of its amount (or of
/// the rest of it, with fills for the part already traded), and runs of rows of its amount.
fn matches(look: &Look, request: &Request<'_>, others: &Others) -> Vec<Match> {
    let rows = candidates(look, request, others);
    if !request.reference.is_empty() {
        let echoed: Vec<_> = rows
            .iter()
            .filter(|r| r.note.contains(request.reference))
            .collect();
        if let Some(first) = echoed.first() {
            return vec![Match {
                at: first.create_time,
                ids: echoed.iter().map(|r| r.id.to_string()).collect(),
                sums: [None, None],
                slack: Decimal::ZERO,
                ambiguous: false,
                whole_open_order: false,
            }];
        }
    }
    let mut found = Vec::new();
    if let (Some(direction), Ok(open)) = (request.kind.direction(), &look.open_orders) {
        let from = request.sent_at - CLOCK_SLACK;
        for o in open.iter().filter(|o| {
            direction.is(&o.direction)
                && o.created_at >= from
                && o.amount <= request.amount.decimal()
                && !others.claimed.contains(o.order_id.as_str())
        }) {
            if o.amount == request.amount.decimal() {
                found.push(Match {
                    at: o.created_at,
                    ids: vec![o.order_id.to_string()],
                    sums: [Some(o.amount); 2],
                    slack: Decimal::ZERO,
                    ambiguous: false,
                    whole_open_order: true,
                });
                continue;
            }
            let since_made: Vec<_> = rows
                .iter()
                .copied()
                .filter(|r| r.create_time >= o.created_at - ORDER_FILL_SLACK)
                .collect();
            if let Some(fills) = runs(
                &since_made,
                request.amount.decimal() - o.amount,
                request.kind,
            )
            .into_iter()
            .next()
            {
                let mut ids = vec![o.order_id.to_string()];
                ids.extend(fills.ids);
                // The open order may be another request's whole order, or the rest of another
                // limit order (of any amount above it, this one's or less), and the fills not
                // this one's: the soak matrix found a wrong "placed" by the rest of a smaller one.
                let before_it = |sent: &DateTime<Utc>| *sent - CLOCK_SLACK <= o.created_at;
                let whole_of_another = others
                    .rivals
                    .iter()
                    .any(|(sent, amount)| amount.decimal() == o.amount && before_it(sent));
                let rest_of_another = others
                    .limit_orders
                    .iter()
                    .any(|(sent, amount)| amount.decimal() > o.amount && before_it(sent));
                found.push(Match {
                    at: o.created_at,
                    ids,
                    sums: fills.sums.map(|f| f.and_then(|f| f.checked_add(o.amount))),
                    slack: fills.slack,
                    ambiguous: fills.ambiguous || whole_of_another || rest_of_another,
                    whole_open_order: false,
                });
            }
        }
    }
    let of_one_instant = runs(&rows, request.amount.decimal(), request.kind);
    if of_one_instant.is_empty() && matches!(request.kind, Kind::MarketOrder(_)) {
        found.extend(spread_fills(&rows, request, others, look.at));
    }
    found.extend(of_one_instant);
    for m in &mut found {
        let before_it = |sent: &DateTime<Utc>| *sent - CLOCK_SLACK <= m.at;
        // Another request's under the other fee reading: a fill of 990 NOK with a 10 NOK fee is
        // a buy of 990 read one way and of 1000 the other.
        let fits_another = others
            .rivals
            .iter()
            .chain(
                others
                    .known_limit_orders
                    .iter()
                    .filter(|_| !m.whole_open_order),
            )
            .any(|(sent, amount)| {
                *amount != request.amount
                    && before_it(sent)
                    && m.sums
                        .iter()
                        .flatten()
                        .any(|s| meets(*s, amount.decimal(), m.slack))
            });
        let part_of_larger = others
            .limit_orders
            .iter()
            .any(|(sent, amount)| amount.decimal() > request.amount.decimal() && before_it(sent));
        m.ambiguous |= fits_another || part_of_larger;
    }
    found.sort_by_key(|m| m.at);
    found
}

/// Another request of the same amount that could own a match: when it was sent, and whether
/// it could own an open order of the whole amount (not when its own order is known).
#[derive(Debug, Clone, Copy)]
struct Rival {
    sent: DateTime<Utc>,
    owns_open: bool,
}

impl Rival {
    fn of_amount(
        list: &[(DateTime<Utc>, Amount)],
        amount: Amount,
        owns_open: bool,
    ) -> impl Iterator<Item = Self> + '_ {
        list.iter()
            .filter(move |(_, a)| *a == amount)
            .map(move |(sent, _)| Self {
                sent: *sent,
                owns_open,
            })
    }
}

fn usable(m: &Match, sent: DateTime<Utc>) -> bool {
    !m.ambiguous && m.at >= sent - CLOCK_SLACK
}

fn could_own(m: &Match, r: Rival) -> bool {
    usable(m, r.sent) && (r.owns_open || !m.whole_open_order)
}

/// How many of `matches` the `rivals` can take at most, each one of those it could own
/// (augmenting paths; there are a handful of each).
fn most_taken(matches: &[&Match], rivals: &[Rival]) -> usize {
    fn augment(
        r: usize,
        matches: &[&Match],
        rivals: &[Rival],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for m in 0..matches.len() {
            if seen[m] || !could_own(matches[m], rivals[r]) {
                continue;
            }
            seen[m] = true;
            let free = match owner[m] {
                None => true,
                Some(other) => augment(other, matches, rivals, seen, owner),
            };
            if free {
                owner[m] = Some(r);
                return true;
            }
        }
        false
    }
    let mut owner = vec![None; matches.len()];
    (0..rivals.len())
        .filter(|r| {
            augment(
                *r,
                matches,
                rivals,
                &mut vec![false; matches.len()],
                &mut owner,
            )
        })
        .count()
}

/// This request's match, when it certainly has one: more matches it could own than requests of
/// the same amount (`rivals`) could take from them, however they are shared. The order requests
/// were sent in is no evidence of the order they were made in (one may commit late, clocks
/// differ), so a match that a rival could own as well leaves both unknown. Which of its matches
/// is this request's own is then given in the order sent; that one of them is, is certain.
fn pick(found: &[Match], rivals: &[Rival], me: DateTime<Utc>) -> Option<Match> {
    let mine: Vec<&Match> = found.iter().filter(|m| usable(m, me)).collect();
    // The most of them the rivals can take, however they share them: a maximum matching of
    // rivals to the matches each could own. When that covers them all, none is certainly mine.
    if most_taken(&mine, rivals) == mine.len() {
        return None;
    }
    let mut senders: Vec<(DateTime<Utc>, Option<Rival>)> =
        rivals.iter().map(|r| (r.sent, Some(*r))).collect();
    senders.push((me, None));
    senders.sort_by_key(|(t, r)| (*t, r.is_none()));
    let mut taken = vec![false; found.len()];
    for (sent, rival) in senders {
        let free = found.iter().enumerate().find(|(i, m)| {
            !taken[*i]
                && match rival {
                    Some(r) => could_own(m, r),
                    None => usable(m, sent),
                }
        });
        if let Some((i, m)) = free {
            if rival.is_none() {
                return Some(m.clone());
            }
            taken[i] = true;
        }
    }
    None
}

/// Whether a balance moved, beyond what the listed rows explain, by an amount this request could
/// explain: the amount leaving (with a fee of at most a quarter of it, and 0.0005 BTC), or for a
/// buy the NOK it spends (or a little less, the whole satoshis' worth). An account with rows listed since sending is judged from its newest
/// row's running balance, so a payment that completed and is listed explains itself.
fn explains_move(request: &Request<'_>, before: &Balances, look: &Look) -> Option<Move> {
    let a = request.amount.decimal();
    let fee_cap = (a / Decimal::from(4)).min(Decimal::new(5, 4));
    let could = |drop: Decimal| match request.kind {
        Kind::Withdrawal => drop >= a && drop <= a + fee_cap,
        // A buy may take up to a satoshi's worth less per fill than asked: a hundredth of it
        // covers that at any price a market has had.
        _ if request.kind.direction() == Some(Direction::Buy) => {
            drop <= a && drop >= a - a / Decimal::ONE_HUNDRED
        }
        _ => drop == a,
    };
    if request.kind.direction() == Some(Direction::Buy) {
        return match (before.fiat, &look.fiat) {
            (Some(was), Some(Ok(now))) => {
                could((was - *now).decimal()).then(|| Move::AvailableNok { by: was - *now })
            }
            _ => None,
        };
    }
    let now = look.accounts.as_ref().ok()?;
    // Too large to add up: the total reading is not judged here, and `balances_explained`
    // refuses to let silence settle it.
    let all_now = now.iter().map(|h| h.total).checked_sum();
    for h in now {
        let Some(b) = before.accounts.iter().find(|b| b.id == h.id) else {
            continue;
        };
        if request.account.is_some_and(|x| x != h.id) {
            continue;
        }
        let newest = look
            .rows
            .iter()
            .filter(|r| r.account_id.as_ref().is_some_and(|x| x.as_str() == h.id))
            .max_by_key(|r| r.create_time);
        // `runningBalanceBtc` is the account's balance or the user's total, as the exchange
        // reads it: each reading's drop is a move this request could explain.
        let moves: Vec<(bool, Btc)> = match newest {
            Some(r) => [Some(h.total), all_now]
                .into_iter()
                .flatten()
                .map(|total| (false, r.running_balance_btc - total))
                .collect(),
            None => vec![
                (true, b.available - h.available),
                (false, b.total - h.total),
            ],
        };
        for (available, by) in moves {
            if could(by.decimal()) {
                let account = h.id.clone();
                return Some(match available {
                    true => Move::AvailableBtc { account, by },
                    false => Move::TotalBtc { account, by },
                });
            }
        }
    }
    None
}

/// Whether every account's balance is explained by what is listed: nothing held back beyond open
/// sells, and the total equal to its newest listed row's running balance (or unchanged since
/// before sending, where no row is listed). `Err` says what is unexplained.
fn balances_explained(look: &Look, before: &Balances, sent_at: DateTime<Utc>) -> Result<(), Doubt> {
    let now = look.accounts.as_ref().map_err(|_| Doubt::ReadFailed)?;
    let open = look.open_orders.as_ref().map_err(|_| Doubt::ReadFailed)?;
    // Open orders do not name their account, so holds are compared over all accounts.
    let sells = open
        .iter()
        .filter(|o| o.direction == models::Direction::Sell)
        .try_fold(Decimal::ZERO, |sum, o| sum.checked_add(o.amount))
        .ok_or(Doubt::TooLarge)?;
    let (Some(held), Some(all_now)) = (
        now.iter().map(|h| h.total - h.available).checked_sum(),
        now.iter().map(|h| h.total).checked_sum(),
    ) else {
        return Err(Doubt::TooLarge);
    };
    if held.decimal() != sells {
        return Err(Doubt::HeldBack {
            held,
            open_sells: Btc::computed(sells),
        });
    }
    for h in now {
        let rows: Vec<&TaxTransaction> = look
            .rows
            .iter()
            .filter(|r| r.account_id.as_ref().is_some_and(|a| a.as_str() == h.id))
            .collect();
        let was = before.accounts.iter().find(|b| b.id == h.id);
        // Either reading of `runningBalanceBtc` may hold: the account's balance, or the
        // user's total (then only when this is the newest row of all). The balance itself is
        // judged below from the rows' amounts, which do not depend on it.
        match rows.iter().max_by_key(|r| r.create_time) {
            Some(r)
                if r.running_balance_btc != h.total
                    && !(r.running_balance_btc == all_now && newest_of_all(look, r)) =>
            {
                return Err(Doubt::RowDisagrees {
                    account: h.id.clone(),
                    holds: h.total,
                    row_says: r.running_balance_btc,
                });
            }
            Some(_) => {
                if let Some(b) = was {
                    rows_account_for(&h.id, &rows, b.total, h.total, sent_at)?;
                }
            }
            None => {
                if was.is_some_and(|b| b.total != h.total) {
                    return Err(Doubt::ChangedWithoutRow {
                        account: h.id.clone(),
                    });
                }
            }
        }
    }
    Ok(())
}

/// Whether no listed row of any account comes after `row` (the user's total after it is the
/// total now).
fn newest_of_all(look: &Look, row: &TaxTransaction) -> bool {
    look.rows
        .iter()
        .all(|r| (r.create_time, r.id.as_str()) <= (row.create_time, row.id.as_str()))
}

/// The BTC a row moved its account's balance by, under each reading of where a BTC fee is:
/// beside the amount, or inside it.
fn btc_moves(row: &TaxTransaction) -> [Decimal; 2] {
    use crate::tax::gains::amount;
    use nordlys_exchange::models::CurrencyCode;
    let btc = |v, c: &Option<CurrencyCode>| amount(v, c.as_ref(), &CurrencyCode::Btc);
    let net = btc(row.in_amount, &row.in_currency) - btc(row.out_amount, &row.out_currency);
    [net - btc(row.fee_amount, &row.fee_currency), net]
}

/// Whether an account's listed `rows` account for every change of its balance since the
/// request was sent, when it held `was`: `was` plus what the rows made after sending moved is
/// `total`, under one reading of where a BTC fee is. Which rows near `sent_at` came after is
/// open by the clock slack, so each split there is tried. A balance that moved with no row
/// fails: a pending withdrawal debited at once and listed only when it completes, while later
/// rows carry the debited balance.
fn rows_account_for(
    account: &str,
    rows: &[&TaxTransaction],
    was: Btc,
    total: Btc,
    sent_at: DateTime<Utc>,
) -> Result<(), Doubt> {
    let mut rows = rows.to_vec();
    rows.sort_by(|a, b| (a.create_time, a.id.as_str()).cmp(&(b.create_time, b.id.as_str())));
    // Rows from `i` on came after sending: none before `i` clearly after, none from it clearly
    // before.
    let could_split = |i: usize| {
        (i == 0 || rows[i - 1].create_time <= sent_at + CLOCK_SLACK)
            && (i == rows.len() || rows[i].create_time >= sent_at - CLOCK_SLACK)
    };
    for reading in 0..2 {
        let mut after = Decimal::ZERO;
        for i in (0..=rows.len()).rev() {
            if could_split(i) && was.decimal().checked_add(after) == Some(total.decimal()) {
                return Ok(());
            }
            if i > 0 {
                after = after
                    .checked_add(btc_moves(rows[i - 1])[reading])
                    .ok_or(Doubt::TooLarge)?;
            }
        }
    }
    Err(Doubt::Unaccounted {
        account: account.to_owned(),
        was,
        holds: total,
    })
}

/// The verdict one look supports for `request`.
pub fn judge(request: &Request<'_>, look: &Look, others: &Others, rules: &Rules) -> Verdict {
    let found = matches(look, request, others);
    let same_amount: Vec<Rival> = Rival::of_amount(&others.rivals, request.amount, true)
        .chain(Rival::of_amount(
            &others.known_limit_orders,
            request.amount,
            false,
        ))
        .collect();
    if let Some(m) = pick(&found, &same_amount, request.sent_at) {
        return Verdict::Made { ids: m.ids };
    }
    let unknown = |doubt: Doubt| Verdict::Unknown {
        doubt,
        stirred: false,
    };
    if let Some(moved) = request.before.and_then(|b| explains_move(request, b, look)) {
        return Verdict::Unknown {
            doubt: Doubt::Moved(moved),
            stirred: true,
        };
    }
    if !found.is_empty() {
        return unknown(Doubt::SharedMatch);
    }
    let Some(gave_up) = request.gave_up_at else {
        return unknown(Doubt::InFlight);
    };
    let quiet = look.at - gave_up;
    if quiet < rules.min_quiet() {
        return unknown(Doubt::TooSoon {
            minutes: rules.min_quiet().num_minutes().max(1),
        });
    }
    if request.stirred {
        return unknown(Doubt::MovedBefore);
    }
    if matches!(request.kind, Kind::LimitOrder(_)) {
        return unknown(Doubt::LimitLeavesNoTrace);
    }
    if matches!(request.kind, Kind::MarketOrder(_)) && could_be_fills(look, request, others) {
        return unknown(Doubt::FillsDoNotAddUp);
    }
    let with_fiat = request.kind.direction().is_some();
    if !look.complete(with_fiat) {
        return unknown(Doubt::ReadFailed);
    }
    let Some(before) = request.before else {
        return unknown(Doubt::NoBalancesBefore);
    };
    if let Err(doubt) = balances_explained(look, before, request.sent_at) {
        return unknown(doubt);
    }
    Verdict::NotMade {
        quiet_minutes: quiet.num_minutes(),
    }
}

/// Who wrote a request's description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// The user: sent as typed, so a reference only fills an empty one.
    ByUser,
    /// Nordlys (a plan's): the reference goes after it.
    ByNordlys,
}

/// The description to send and the request's reference, new and unique to it: in the
/// description where that may carry it, else kept by the journal alone (no row's note can then
/// name it, and the evidence goes by amounts).
pub(crate) fn tagged(description: &str, written: Written) -> (String, String) {
    let reference = new_reference();
    let sent = match (description.is_empty(), written) {
        (true, _) => reference.clone(),
        (false, Written::ByNordlys) => format!("{description} {reference}"),
        (false, Written::ByUser) => description.to_owned(),
    };
    (sent, reference)
}

/// The verdict as the journal's last evidence row of a check.
pub(crate) fn conclusion(look: &Look, verdict: &Verdict) -> Evidence {
    let seen = match verdict {
        Verdict::Made { ids } => Seen::Made { ids: ids.clone() },
        Verdict::NotMade { quiet_minutes } => Seen::NotMade {
            quiet_minutes: *quiet_minutes,
        },
        Verdict::Unknown { doubt, .. } => Seen::Unknown {
            doubt: doubt.clone(),
        },
    };
    Evidence {
        at: look.at,
        read: Read::Verdict,
        seen,
    }
}

/// The exchange `client` talks to, and the digest of its API key; the identity is left to
/// `account_identity::origin_here`, which asks the exchange when it must.
pub fn origin_of(client: &ExchangeClient) -> crate::store::Origin {
    crate::store::Origin {
        base_url: client.base_url().to_string(),
        key_fingerprint: client
            .credentials()
            .key
            .as_ref()
            .map(|k| key_fingerprint(k.key.expose()))
            .unwrap_or_default(),
        identity: None,
    }
}

/// A reference unique to one request, put in its description: `[nordlys 1a2b3c4d5e6f]`. Used
/// when the exchange echoes descriptions into tax rows, and never required.
pub fn new_reference() -> String {
    use bitcoin::hashes::{Hash, sha256};
    use std::hash::{BuildHasher, Hasher};
    // RandomState is seeded from the operating system's randomness, per process and per call.
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        Utc::now()
            .timestamp_nanos_opt()
            .unwrap_or_default()
            .unsigned_abs()
            .into(),
    );
    h.write_u32(std::process::id());
    let seed = h.finish().to_le_bytes();
    let hex = sha256::Hash::hash(&seed).to_string();
    format!("[nordlys {}]", &hex[..12])
}

#[cfg(test)]
mod tests {
    //! Scripted histories, one per reading the specification leaves open. Each asserts the exact
    //! verdict; none may call a made request "not made" or a missing one "made".
    use super::*;

    #[test]
    fn a_sender_that_died_is_taken_to_have_given_up_after_the_longest_wait_only() {
        let rules = Rules::default();
        // Said it gave up: that moment, whenever it is looked at.
        assert_eq!(rules.gave_up(Some(t(40)), t(0), t(50)), Some(t(40)));
        // Died while sending: not before the longest wait, then at its end.
        assert_eq!(rules.gave_up(None, t(0), t(599)), None);
        assert_eq!(rules.gave_up(None, t(0), t(601)), Some(t(600)));
        let short =
            Rules::with_min_quiet(Duration::seconds(2)).with_longest_wait(Duration::seconds(5));
        assert_eq!(short.gave_up(None, t(0), t(6)), Some(t(5)));
        assert_eq!(short.min_quiet(), Duration::seconds(2));
    }

    fn t(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_795_000_000 + seconds, 0).unwrap_or_default()
    }

    /// A figure in whichever unit its place wants.
    fn d<Q: nordlys_money::Quantity>(text: &str) -> Q {
        Q::computed(text.parse().unwrap_or_default())
    }

    /// A tax row as the exchange lists it.
    fn row(
        id: &str,
        kind: TaxTransactionType,
        at: i64,
        out: &str,
        fee: &str,
        running: &str,
    ) -> TaxTransaction {
        serde_json::from_value(serde_json::json!({
            "id": id, "accountId": "acc_1", "type": kind.as_str(), "subType": "",
            "createTime": t(at).to_rfc3339(), "finalizeTime": "",
            "inAmount": "", "inCurrency": "", "outAmount": out, "outCurrency": "",
            "feeAmount": fee, "feeCurrency": "", "rateMarket": "", "isPayment": false,
            "paymentInfo": "", "note": "", "usdnok": "", "runningBalanceBtc": running,
        }))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn open(id: &str, direction: models::Direction, amount: &str, at: i64) -> Order {
        serde_json::from_value(serde_json::json!({
            "orderId": id, "type": nordlys_exchange::models::OrderType::Limit.as_str(), "direction": direction.as_str(),
            "amount": d::<Decimal>(amount), "createdAt": t(at).to_rfc3339(),
        }))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn holding(available: &str, total: &str) -> Holding {
        Holding {
            id: "acc_1".into(),
            available: d(available),
            total: d(total),
        }
    }

    fn look(at: i64, h: Holding, fiat: &str, open: Vec<Order>, rows: Vec<TaxTransaction>) -> Look {
        Look {
            at: t(at),
            accounts: Ok(vec![h]),
            fiat: Some(Ok(d(fiat))),
            open_orders: Ok(open),
            rows,
            rows_complete: Ok(()),
        }
    }

    /// A look's steps are facts with their amounts, not words: the window formats and hides
    /// the amounts as it does every other.
    #[test]
    fn a_look_is_kept_as_what_each_read_saw() {
        let seen = look(0, holding("0.5", "0.75"), "1200", vec![], vec![]).evidence();
        let steps: Vec<_> = seen
            .iter()
            .map(|e| (e.read.clone(), e.seen.clone()))
            .collect();
        assert_eq!(
            steps,
            vec![
                (
                    Read::Accounts,
                    Seen::Balances {
                        accounts: vec![AccountSeen {
                            id: holding("0.5", "0.75").id,
                            available: Btc::computed(d("0.5")),
                            total: Btc::computed(d("0.75")),
                        }]
                    }
                ),
                (
                    Read::Fiat,
                    Seen::Fiat {
                        available: Nok::computed(d("1200"))
                    }
                ),
                (Read::OpenOrders, Seen::OpenOrders { count: 0 }),
                (
                    Read::Rows,
                    Seen::Rows {
                        count: 0,
                        incomplete: None,
                        trouble: None
                    }
                ),
            ]
        );
    }

    fn before(available: &str, total: &str, fiat: &str) -> Balances {
        Balances {
            accounts: vec![holding(available, total)],
            fiat: Some(d(fiat)),
        }
    }

    /// An amount in the request's unit: NOK for a buy, bitcoin for a sell or a payment.
    fn in_unit(kind: Kind, amount: &str) -> Amount {
        match kind {
            Kind::MarketOrder(Direction::Buy) | Kind::LimitOrder(Direction::Buy) => {
                Amount::Nok(Nok::computed(d(amount)))
            }
            _ => Amount::Btc(Btc::computed(d(amount))),
        }
    }

    fn nok(amount: &str) -> Amount {
        Amount::Nok(Nok::computed(d(amount)))
    }

    fn btc(amount: &str) -> Amount {
        Amount::Btc(Btc::computed(d(amount)))
    }

    fn request<'a>(kind: Kind, amount: &str, before: &'a Balances) -> Request<'a> {
        Request {
            kind,
            amount: in_unit(kind, amount),
            account: None,
            sent_at: t(0),
            gave_up_at: Some(t(30)),
            reference: "[nordlys abc]",
            before: Some(before),
            stirred: false,
        }
    }

    fn judged(r: &Request<'_>, l: &Look) -> Verdict {
        judge(r, l, &Others::default(), &Rules::default())
    }

    fn made(v: &Verdict) -> Vec<String> {
        match v {
            Verdict::Made { ids, .. } => ids.clone(),
            other => panic!("expected made, got {other:?}"),
        }
    }

    const W: TaxTransactionType = TaxTransactionType::BtcWithdrawal;
    const BUY: TaxTransactionType = TaxTransactionType::BtcBuy;
    const SELL: TaxTransactionType = TaxTransactionType::BtcSell;

    #[test]
    fn an_instant_withdrawal_without_an_echoed_note_is_found_by_its_amount() {
        let b = before("0.5", "0.5", "0");
        let r = request(Kind::Withdrawal, "0.001", &b);
        let l = look(
            31,
            holding("0.499", "0.499"),
            "0",
            vec![],
            vec![row("u-1", W, 1, "0.001", "", "0.499")],
        );
        assert_eq!(made(&judged(&r, &l)), vec!["u-1"]);
    }

    #[test]
    fn a_fee_inside_or_beside_the_amount_matches_either_way() {
        let b = before("0.5", "0.5", "5000");
        let w = request(Kind::Withdrawal, "0.001", &b);
        let inside = look(
            31,
            holding("0.49898", "0.49898"),
            "0",
            vec![],
            vec![row("u-1", W, 1, "0.00102", "0.00002", "0.49898")],
        );
        assert_eq!(made(&judged(&w, &inside)), vec!["u-1"]);
        let buy = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        for (out, fee) in [("1000", "10"), ("990", "10")] {
            let l = look(
                31,
                holding("0.51", "0.51"),
                "4000",
                vec![],
                vec![row("tr_1", BUY, 1, out, fee, "0.51")],
            );
            assert_eq!(made(&judged(&buy, &l)), vec!["tr_1"], "out {out} fee {fee}");
        }
    }

    #[test]
    fn a_market_order_filled_in_two_trades_is_one_match() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        let l = look(
            31,
            holding("0.51", "0.51"),
            "4000",
            vec![],
            vec![
                row("tr_1", BUY, 1, "495", "5", "0.505"),
                row("tr_2", BUY, 1, "495", "5", "0.51"),
            ],
        );
        assert_eq!(made(&judged(&buy, &l)), vec!["tr_1", "tr_2"]);
    }

    #[test]
    fn a_partly_filled_limit_order_is_its_open_rest_and_its_fill() {
        let b = before("0.5", "0.5", "5000");
        let sell = request(Kind::LimitOrder(Direction::Sell), "0.01", &b);
        let l = look(
            31,
            holding("0.484", "0.49"),
            "5100",
            vec![open("or_1", models::Direction::Sell, "0.006", 1)],
            vec![row("tr_1", SELL, 1, "0.004", "0.5", "0.496")],
        );
        assert_eq!(made(&judged(&sell, &l)), vec!["or_1", "tr_1"]);
    }

    #[test]
    fn rows_listed_30_s_late_leave_it_unknown_then_made() {
        let b = before("0.5", "0.5", "0");
        let r = request(Kind::Withdrawal, "0.001", &b);
        // Completed and debited, its row not listed yet.
        let early = look(10, holding("0.499", "0.499"), "0", vec![], vec![]);
        assert!(matches!(
            judged(&r, &early),
            Verdict::Unknown { stirred: true, .. }
        ));
        let late = look(
            40,
            holding("0.499", "0.499"),
            "0",
            vec![],
            vec![row("u-1", W, 1, "0.001", "", "0.499")],
        );
        assert_eq!(made(&judged(&r, &late)), vec!["u-1"]);
    }

    #[test]
    fn a_clock_90_s_ahead_or_behind_still_matches() {
        let b = before("0.5", "0.5", "0");
        let r = request(Kind::Withdrawal, "0.001", &b);
        for at in [91, -89] {
            let l = look(
                120,
                holding("0.499", "0.499"),
                "0",
                vec![],
                vec![row("u-1", W, at, "0.001", "", "0.499")],
            );
            assert_eq!(made(&judged(&r, &l)), vec!["u-1"], "row at {at} s");
        }
    }

    #[test]
    fn a_commit_after_the_give_up_is_made_when_it_shows() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        let l = look(
            90,
            holding("0.51", "0.51"),
            "4000",
            vec![],
            vec![row("tr_9", BUY, 61, "990", "10", "0.51")],
        );
        assert_eq!(made(&judged(&buy, &l)), vec!["tr_9"]);
    }

    #[test]
    fn a_withdrawal_made_then_failed_is_never_called_not_sent() {
        let b = before("0.5", "0.5", "0");
        let mut r = request(Kind::Withdrawal, "0.001", &b);
        // Pending: held back from the available balance.
        let pending = look(31, holding("0.499", "0.5"), "0", vec![], vec![]);
        assert!(matches!(
            judged(&r, &pending),
            Verdict::Unknown { stirred: true, .. }
        ));
        r.stirred = true;
        // Failed and released; long after, no trace is left.
        let after = look(30 + 11 * 60, holding("0.5", "0.5"), "0", vec![], vec![]);
        assert!(
            matches!(judged(&r, &after), Verdict::Unknown { .. }),
            "{:?}",
            judged(&r, &after)
        );
    }

    #[test]
    fn a_limit_order_placed_then_cancelled_stays_unknown() {
        let b = before("0.5", "0.5", "5000");
        let r = request(Kind::LimitOrder(Direction::Buy), "1000", &b);
        let after = look(30 + 11 * 60, holding("0.5", "0.5"), "5000", vec![], vec![]);
        assert!(matches!(judged(&r, &after), Verdict::Unknown { .. }));
    }

    #[test]
    fn silence_settles_a_market_order_only_after_the_quiet_period_with_every_read_done() {
        let b = before("0.5", "0.5", "5000");
        let r = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        let soon = look(30 + 5 * 60, holding("0.5", "0.5"), "5000", vec![], vec![]);
        assert!(matches!(judged(&r, &soon), Verdict::Unknown { .. }));
        let later = look(30 + 11 * 60, holding("0.5", "0.5"), "5000", vec![], vec![]);
        assert!(matches!(judged(&r, &later), Verdict::NotMade { .. }));
        let mut failed = later.clone();
        failed.rows_complete = Err(Failure::unreadable_rows(1));
        assert!(matches!(judged(&r, &failed), Verdict::Unknown { .. }));
        let no_before = Request {
            before: None,
            ..r.clone()
        };
        assert!(matches!(
            judged(&no_before, &later),
            Verdict::Unknown { .. }
        ));
        let still_sending = Request {
            gave_up_at: None,
            ..r
        };
        assert!(matches!(
            judged(&still_sending, &later),
            Verdict::Unknown { .. }
        ));
    }

    #[test]
    fn a_pending_withdrawal_debited_from_the_total_blocks_not_sent() {
        let b = before("0.5", "0.5", "0");
        let r = request(Kind::Withdrawal, "0.002", &b);
        // Another payment of 0.0015 is debited from the total at once, with no row yet: the
        // balance moved by an amount this one cannot explain, and nothing lists why.
        let l = look(
            30 + 11 * 60,
            holding("0.4985", "0.4985"),
            "0",
            vec![],
            vec![],
        );
        assert!(
            matches!(judged(&r, &l), Verdict::Unknown { .. }),
            "{:?}",
            judged(&r, &l)
        );
    }

    #[test]
    fn a_debit_that_later_rows_carry_but_no_row_lists_blocks_not_sent() {
        let b = before("0.5", "0.5", "5000");
        let r = request(Kind::Withdrawal, "0.0001", &b);
        // This payment was debited from the total at once (the exchange committed it although
        // the answer was lost); a buy of another request followed, its row carrying the debited
        // balance. The payment's own row comes only when it completes.
        let buy: TaxTransaction = serde_json::from_value(serde_json::json!({
            "id": "tr_9", "accountId": "acc_1", "type": BUY, "subType": "",
            "createTime": t(40).to_rfc3339(), "finalizeTime": "",
            "inAmount": "0.001", "inCurrency": "BTC", "outAmount": "900", "outCurrency": "NOK",
            "feeAmount": "", "feeCurrency": "", "rateMarket": "", "isPayment": false,
            "paymentInfo": "", "note": "", "usdnok": "", "runningBalanceBtc": "0.5009",
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        let l = look(
            30 + 11 * 60,
            holding("0.5009", "0.5009"),
            "4100",
            vec![],
            vec![buy.clone()],
        );
        assert!(
            matches!(judged(&r, &l), Verdict::Unknown { .. }),
            "{:?}",
            judged(&r, &l)
        );
        // The same buy when nothing else moved: every change is listed, so silence settles it.
        let untouched = TaxTransaction {
            running_balance_btc: d("0.501"),
            ..buy
        };
        let l = look(
            30 + 11 * 60,
            holding("0.501", "0.501"),
            "4100",
            vec![],
            vec![untouched],
        );
        assert!(
            matches!(judged(&r, &l), Verdict::NotMade { .. }),
            "{:?}",
            judged(&r, &l)
        );
    }

    #[test]
    fn a_match_that_is_another_requests_amount_under_the_other_fee_reading_is_no_evidence() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "990", &b);
        // One fill: 990 NOK with a 10 NOK fee. Fee inside, it is a buy of 990; fee beside, a buy
        // of 1000, and another request of 1000, sent before, is still unknown.
        let l = look(
            31,
            holding("0.51", "0.51"),
            "4000",
            vec![],
            vec![row("tr_1", BUY, 1, "990", "10", "0.51")],
        );
        assert_eq!(
            made(&judged(&buy, &l)),
            vec!["tr_1"],
            "alone, it is evidence"
        );
        let other = Others {
            rivals: vec![(t(-5), nok("1000"))],
            ..Others::default()
        };
        assert!(
            matches!(
                judge(&buy, &l, &other, &Rules::default()),
                Verdict::Unknown { .. }
            ),
            "{:?}",
            judge(&buy, &l, &other, &Rules::default())
        );
    }

    #[test]
    fn an_open_order_is_completed_only_by_its_own_fills() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::LimitOrder(Direction::Buy), "692", &b);
        // An open 481.20 and a fill of 210.80 (fee inside) add up to 692, but the fill came
        // 15 s before that order existed: it is another order's.
        let early = look(
            31,
            holding("0.5002", "0.5002"),
            "4000",
            vec![open("or_1", models::Direction::Buy, "481.20", 20)],
            vec![row("tr_1", BUY, 5, "209.75", "1.05", "0.5002")],
        );
        assert!(
            !matches!(judged(&buy, &early), Verdict::Made { .. }),
            "{:?}",
            judged(&buy, &early)
        );
        // At the same moment, the open order could still be another request's whole order of
        // 481.20, and the fill a third one's.
        let at_once = look(
            31,
            holding("0.5002", "0.5002"),
            "4000",
            vec![open("or_1", models::Direction::Buy, "481.20", 5)],
            vec![row("tr_1", BUY, 5, "209.75", "1.05", "0.5002")],
        );
        assert_eq!(made(&judged(&buy, &at_once)), vec!["or_1", "tr_1"]);
        let other = Others {
            rivals: vec![(t(-3), nok("481.20"))],
            ..Others::default()
        };
        assert!(matches!(
            judge(&buy, &at_once, &other, &Rules::default()),
            Verdict::Unknown { .. }
        ));
    }

    #[test]
    fn evidence_another_entry_holds_or_a_rival_could_own_is_not_this_ones() {
        let b = before("0.5", "0.5", "0");
        let r = request(Kind::Withdrawal, "0.001", &b);
        let l = look(
            31,
            holding("0.499", "0.499"),
            "0",
            vec![],
            vec![row("u-1", W, 1, "0.001", "", "0.499")],
        );
        let claimed = Others {
            claimed: ["u-1".to_owned()].into(),
            ..Others::default()
        };
        assert!(matches!(
            judge(&r, &l, &claimed, &Rules::default()),
            Verdict::Unknown { .. }
        ));
        let rival = Others {
            rivals: vec![(t(-5), btc("0.001"))],
            ..Others::default()
        };
        assert!(matches!(
            judge(&r, &l, &rival, &Rules::default()),
            Verdict::Unknown { .. }
        ));
        // Sent 20 s after the row was made, on clocks that may differ by more: it may be that
        // one's, and the order sent is no evidence (the soak matrix found a wrong "placed" by it).
        let later_rival = Others {
            rivals: vec![(t(20), btc("0.001"))],
            ..Others::default()
        };
        assert!(matches!(
            judge(&r, &l, &later_rival, &Rules::default()),
            Verdict::Unknown { .. }
        ));
        // Sent well after, beyond any clock difference: it cannot be that one's.
        let much_later_rival = Others {
            rivals: vec![(t(1) + CLOCK_SLACK + Duration::seconds(1), btc("0.001"))],
            ..Others::default()
        };
        assert_eq!(
            made(&judge(&r, &l, &much_later_rival, &Rules::default())),
            vec!["u-1"]
        );
        // Two rows and one rival: whichever is the rival's, one is this one's.
        let two = look(
            31,
            holding("0.498", "0.498"),
            "0",
            vec![],
            vec![
                row("u-1", W, 1, "0.001", "", "0.499"),
                row("u-2", W, 2, "0.001", "", "0.498"),
            ],
        );
        assert_eq!(made(&judge(&r, &two, &rival, &Rules::default())).len(), 1);
    }

    #[test]
    fn two_payments_never_add_up_to_a_third_nor_two_orders_to_another() {
        let b = before("0.5", "0.5", "0");
        let r = request(Kind::Withdrawal, "0.00000700", &b);
        let l = look(
            31,
            holding("0.4999930", "0.4999930"),
            "0",
            vec![],
            vec![
                row("u-1", W, 1, "0.00000300", "", "0.499997"),
                row("u-2", W, 1, "0.00000400", "", "0.499993"),
            ],
        );
        assert!(
            !matches!(judged(&r, &l), Verdict::Made { .. }),
            "{:?}",
            judged(&r, &l)
        );
        let buy = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        let apart = look(
            31,
            holding("0.51", "0.51"),
            "4000",
            vec![],
            vec![
                row("tr_1", BUY, 1, "500", "", "0.505"),
                row("tr_2", BUY, 9, "500", "", "0.51"),
            ],
        );
        // Two buys 8 s apart are this order's fills when no other order could have made them
        // (the published shape: one order, several fills); with another order sent then, either
        // could be that one's.
        assert_eq!(made(&judged(&buy, &apart)), vec!["tr_1", "tr_2"]);
        let another = Others {
            neighbours: vec![t(5)],
            ..Others::default()
        };
        assert!(matches!(
            judge(&buy, &apart, &another, &Rules::default()),
            Verdict::Unknown { .. }
        ));
    }

    #[test]
    fn the_other_fills_of_an_order_another_entry_holds_are_not_evidence() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "200", &b);
        // Another entry's order filled in three trades of 100; the entry holds the first.
        let l = look(
            31,
            holding("0.51", "0.51"),
            "4000",
            vec![],
            vec![
                row("tr_1", BUY, 1, "100", "", "0.503"),
                row("tr_2", BUY, 1, "100", "", "0.506"),
                row("tr_3", BUY, 1, "100", "", "0.51"),
            ],
        );
        let held = Others {
            claimed: ["tr_1".to_owned()].into(),
            ..Others::default()
        };
        let v = judge(&buy, &l, &held, &Rules::default());
        assert!(!matches!(v, Verdict::Made { .. }), "{v:?}");
    }

    #[test]
    fn an_open_rest_of_exactly_this_amount_is_no_evidence_while_a_larger_limit_order_is_unknown() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::LimitOrder(Direction::Buy), "117", &b);
        let l = look(
            31,
            holding("0.5", "0.5"),
            "4688",
            vec![open("or_9", models::Direction::Buy, "117", 2)],
            vec![],
        );
        let larger = Others {
            limit_orders: vec![(t(-3), nok("300"))],
            ..Others::default()
        };
        let v = judge(&buy, &l, &larger, &Rules::default());
        assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
        assert_eq!(
            made(&judged(&buy, &l)),
            vec!["or_9"],
            "with no larger order unknown, it is this one"
        );
    }

    #[test]
    fn a_ladders_unknown_rung_is_its_open_order_beside_rungs_known_by_theirs() {
        // Three rungs of 90 NOK sent together: two answered (their orders known and claimed),
        // one lost. The one unclaimed open order of 90 NOK is the lost one's: the others own
        // theirs. A fill of 90 NOK listed as a row, though, could be either known rung's.
        let b = before("0.5", "0.5", "5000");
        let rung = request(Kind::LimitOrder(Direction::Buy), "90", &b);
        let known = Others {
            claimed: ["or_1".to_owned(), "or_2".to_owned()].into(),
            known_limit_orders: vec![(t(-1), nok("90")), (t(0), nok("90"))],
            ..Others::default()
        };
        let open_rung = look(
            31,
            holding("0.5", "0.5"),
            "4730",
            vec![
                open("or_1", models::Direction::Buy, "90", 1),
                open("or_2", models::Direction::Buy, "90", 1),
                open("or_3", models::Direction::Buy, "90", 1),
            ],
            vec![],
        );
        assert_eq!(
            made(&judge(&rung, &open_rung, &known, &Rules::default())),
            vec!["or_3"]
        );
        let filled = look(
            31,
            holding("0.5001", "0.5001"),
            "4730",
            vec![open("or_1", models::Direction::Buy, "90", 1)],
            vec![row("tr-1", BUY, 2, "90", "", "0.5001")],
        );
        let v = judge(&rung, &filled, &known, &Rules::default());
        assert!(
            matches!(v, Verdict::Unknown { .. }),
            "a known rung's fill: {v:?}"
        );
        // Were the known rungs still unknown, the open order could be theirs as well.
        let unknown = Others {
            claimed: ["or_1".to_owned(), "or_2".to_owned()].into(),
            rivals: vec![(t(-1), nok("90")), (t(0), nok("90"))],
            ..Others::default()
        };
        let v = judge(&rung, &open_rung, &unknown, &Rules::default());
        assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
    }

    #[test]
    fn the_open_rest_of_a_smaller_limit_order_is_no_evidence_while_that_order_is_unknown() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "179", &b);
        // A limit buy of 100 (unknown) traded 40 at once and left 60 open; a market buy's fill
        // of 119 a moment before adds up with that rest to this request's 179.
        let l = look(
            31,
            holding("0.5", "0.5"),
            "4700",
            vec![open("or_2", models::Direction::Buy, "60", 5)],
            vec![
                row("tr_1", BUY, 4, "119", "", "0.5001"),
                row("tr_2", BUY, 5, "40", "", "0.5002"),
            ],
        );
        let smaller = Others {
            limit_orders: vec![(t(2), nok("100"))],
            ..Others::default()
        };
        let v = judge(&buy, &l, &smaller, &Rules::default());
        assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
        assert_eq!(
            made(&judged(&buy, &l)),
            vec!["or_2", "tr_1"],
            "with no other limit order unknown, the rest is this one's"
        );
    }

    #[test]
    fn some_of_the_fills_of_one_moment_are_no_evidence() {
        let b = before("0.5", "0.5", "5000");
        // One order of 300 filled in three trades at once; 200 is two of them.
        let l = look(
            31,
            holding("0.51", "0.51"),
            "4700",
            vec![],
            vec![
                row("tr_1", BUY, 1, "100", "", "0.503"),
                row("tr_2", BUY, 1, "100", "", "0.506"),
                row("tr_3", BUY, 1, "100", "", "0.51"),
            ],
        );
        let part = request(Kind::MarketOrder(Direction::Buy), "200", &b);
        let v = judged(&part, &l);
        assert!(!matches!(v, Verdict::Made { .. }), "{v:?}");
        let whole = request(Kind::MarketOrder(Direction::Buy), "300", &b);
        assert_eq!(made(&judged(&whole, &l)), vec!["tr_1", "tr_2", "tr_3"]);
    }

    #[test]
    fn an_echoed_reference_is_enough() {
        let b = before("0.5", "0.5", "0");
        let r = request(Kind::Withdrawal, "0.001", &b);
        let mut echoed = row("u-7", W, 1, "0.00099", "", "0.499");
        echoed.note = "kaffe [nordlys abc]".into();
        let l = look(31, holding("0.499", "0.499"), "0", vec![], vec![echoed]);
        assert_eq!(made(&judged(&r, &l)), vec!["u-7"]);
    }

    /// A fill of a buy as published: `btc` bought for `nok`, fee inside, at `rate`.
    fn fill(id: &str, at: i64, nok: &str, btc: &str, rate: &str) -> TaxTransaction {
        let mut r = row(id, BUY, at, nok, "2", "0.5");
        r.in_amount = Some(d(btc));
        r.rate_market = Some(nordlys_money::NokPerBtc::computed(d(rate)));
        r
    }

    /// The buy's look after it gave up and the quiet period passed, the balances explained.
    fn quiet_look(rows: Vec<TaxTransaction>) -> Look {
        look(30 + 11 * 60, holding("0.5", "0.5"), "4000", vec![], rows)
    }

    #[test]
    fn a_market_buy_filled_at_several_instants_is_placed_by_the_one_set_that_adds_up() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        // Three fills 20 s apart, the fee inside each; 1 NOK of a rate of 1,000,000 NOK/BTC.
        let fills = vec![
            fill("tr_1", 2, "333.33", "0.00033333", "1000000"),
            fill("tr_2", 22, "333.33", "0.00033333", "1000000"),
            fill("tr_3", 42, "333.34", "0.00033334", "1000000"),
        ];
        assert_eq!(
            made(&judged(&buy, &quiet_look(fills.clone()))),
            vec!["tr_1", "tr_2", "tr_3"]
        );
        // Taking only the NOK of whole satoshis: each fill a little short, within a satoshi's
        // worth (0.01 NOK at this rate) per row.
        let short = vec![
            fill("tr_1", 2, "333.329", "0.00033333", "1000000"),
            fill("tr_2", 22, "333.325", "0.00033332", "1000000"),
            fill("tr_3", 42, "333.338", "0.00033334", "1000000"),
        ];
        assert_eq!(
            made(&judged(&buy, &quiet_look(short))),
            vec!["tr_1", "tr_2", "tr_3"]
        );
        // One fill alone, a satoshi's worth short, is found as well; three satoshis' is not.
        let one = vec![fill("tr_9", 2, "999.99", "0.00099999", "1000000")];
        assert_eq!(made(&judged(&buy, &quiet_look(one))), vec!["tr_9"]);
        let far = vec![fill("tr_9", 2, "999.97", "0.00099997", "1000000")];
        assert!(!matches!(
            judged(&buy, &quiet_look(far)),
            Verdict::Made { .. }
        ));
    }

    #[test]
    fn rows_that_could_be_fills_but_do_not_add_up_keep_a_market_buy_unknown() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        let not_enough = vec![
            fill("tr_1", 2, "333.33", "0.00033333", "1000000"),
            fill("tr_2", 22, "333.33", "0.00033333", "1000000"),
        ];
        let v = judged(&buy, &quiet_look(not_enough));
        assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
        // A row larger than the amount is no fill of it, and one made after the request gave
        // up (beyond the clock slack) neither: silence may then speak.
        let unrelated = vec![
            fill("tr_1", 2, "1500", "0.0015", "1000000"),
            fill("tr_2", 30 + 126, "400", "0.0004", "1000000"),
        ];
        let mut l = quiet_look(unrelated);
        l.fiat = Some(Ok(d("5000")));
        let v = judged(&buy, &l);
        assert!(matches!(v, Verdict::NotMade { .. }), "{v:?}");
    }

    #[test]
    fn a_sum_two_sets_of_rows_meet_keeps_a_market_buy_unknown() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        // 600 + 400 and 600 + 400': either pair could be it.
        let rows = vec![
            fill("tr_1", 2, "600", "0.0006", "1000000"),
            fill("tr_2", 12, "400", "0.0004", "1000000"),
            fill("tr_3", 22, "400", "0.0004", "1000000"),
        ];
        let v = judged(&buy, &quiet_look(rows));
        assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
    }

    #[test]
    fn fills_are_searched_within_bounds_and_without_overflow() {
        let b = before("0.5", "0.5", "5000");
        let buy = request(Kind::MarketOrder(Direction::Buy), "1000", &b);
        // More small rows than the search looks through: unknown, promptly.
        let many: Vec<_> = (0..40)
            .map(|i| fill(&format!("tr_{i}"), 2 + i, "50", "0.00005", "1000000"))
            .collect();
        let v = judged(&buy, &quiet_look(many));
        assert!(matches!(v, Verdict::Unknown { .. }), "{v:?}");
        // Amounts as large as the wire admits (a larger one is refused there): no panic, and
        // no "not made".
        let huge = "999999999999999";
        let rows = vec![
            fill("tr_1", 2, huge, "1", huge),
            fill("tr_2", 4, huge, "1", huge),
            fill("tr_3", 6, "1000", "0.001", huge),
        ];
        let v = judged(&buy, &quiet_look(rows));
        assert!(!matches!(v, Verdict::NotMade { .. }), "{v:?}");
    }

    #[test]
    fn a_description_the_user_typed_is_sent_as_typed_and_only_an_empty_one_carries_the_reference() {
        let (sent, reference) = tagged("rent", Written::ByUser);
        assert_eq!(sent, "rent");
        assert!(reference.starts_with("[nordlys "), "{reference}");
        let (sent, reference) = tagged("", Written::ByUser);
        assert!(reference.starts_with("[nordlys "), "{reference}");
        assert_eq!(sent, reference);
        let (sent, reference) = tagged("Nordlys plan 3", Written::ByNordlys);
        assert_eq!(sent, format!("Nordlys plan 3 {reference}"));
    }
}
