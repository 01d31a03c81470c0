//! Why an order's or payment's outcome is not known yet, as facts: the window words them in the
//! user's language (with amounts formatted and hidden as every amount is); `Display` is the
//! English of the journal's evidence log and the CLI.

use std::fmt;

use nordlys_money::{Btc, Nok};
use serde::{Deserialize, Serialize};

/// Why one look at the account decided nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Doubt {
    /// A balance fell by what this request would take.
    Moved(Move),
    /// A match exists that another request may own, or that may be part of a larger order.
    SharedMatch,
    /// The app has not given up on the request's answer: it may still be on its way.
    InFlight,
    /// No trace yet; silence counts as evidence only after this many minutes.
    TooSoon { minutes: i64 },
    /// An earlier check saw a move only this request could explain.
    MovedBefore,
    /// A limit order cancelled since would leave no trace.
    LimitLeavesNoTrace,
    /// Rows that could be its fills were made while it was sent, and do not add up to it.
    FillsDoNotAddUp,
    /// A read failed, so silence proves nothing.
    ReadFailed,
    /// The balances read are too large to add up, so they explain nothing.
    TooLarge,
    /// The balances before sending were not read, so silence proves nothing.
    NoBalancesBefore,
    /// More bitcoin is held back than open sells explain: a withdrawal may be pending.
    HeldBack {
        #[serde(with = "nordlys_money::computed")]
        held: Btc,
        #[serde(with = "nordlys_money::computed")]
        open_sells: Btc,
    },
    /// An account holds other than its newest listed row says.
    RowDisagrees {
        account: String,
        #[serde(with = "nordlys_money::computed")]
        holds: Btc,
        #[serde(with = "nordlys_money::computed")]
        row_says: Btc,
    },
    /// An account's balance changed with no row listed.
    ChangedWithoutRow { account: String },
    /// An account's listed rows do not account for how its balance changed since sending.
    Unaccounted {
        account: String,
        #[serde(with = "nordlys_money::computed")]
        was: Btc,
        #[serde(with = "nordlys_money::computed")]
        holds: Btc,
    },
}

/// A balance that fell as the request would make it fall.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Move {
    AvailableNok {
        #[serde(with = "nordlys_money::computed")]
        by: Nok,
    },
    AvailableBtc {
        account: String,
        #[serde(with = "nordlys_money::computed")]
        by: Btc,
    },
    TotalBtc {
        account: String,
        #[serde(with = "nordlys_money::computed")]
        by: Btc,
    },
}

impl Doubt {
    /// The account it names, if any: a sentence about it names the account.
    pub fn account(&self) -> Option<&str> {
        match self {
            Self::Moved(Move::AvailableBtc { account, .. } | Move::TotalBtc { account, .. })
            | Self::RowDisagrees { account, .. }
            | Self::ChangedWithoutRow { account }
            | Self::Unaccounted { account, .. } => Some(account),
            _ => None,
        }
    }
}

/// Why an outcome is still not known, the look's doubt or what kept the app from looking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhyUnknown {
    /// The request is still on its way.
    InFlight,
    /// A ladder's rung waits behind the earlier rungs.
    Queued,
    /// It was sent to another exchange than the one connected now.
    OtherExchange { base_url: String },
    /// It was sent for other accounts (another key) than the ones connected now.
    OtherAccounts,
    /// The account was looked at and decided nothing.
    Doubt(Doubt),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AvailableNok { by } => write!(f, "available NOK fell by {by}"),
            Self::AvailableBtc { account, by } => {
                write!(f, "available BTC of {account} fell by {by}")
            }
            Self::TotalBtc { account, by } => write!(f, "total BTC of {account} fell by {by}"),
        }
    }
}

impl fmt::Display for Doubt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Moved(m) => write!(f, "{m}, as this request would"),
            Self::SharedMatch => f.write_str(
                "a match exists that another request may own, or that may be part of a larger order",
            ),
            Self::InFlight => f.write_str("the request may still be in flight"),
            Self::TooLarge => f.write_str("the balances are too large to add up"),
            Self::TooSoon { minutes } => {
                write!(f, "no trace yet; silence counts after {minutes} min")
            }
            Self::MovedBefore => {
                f.write_str("an earlier check saw a move only this request could explain")
            }
            Self::LimitLeavesNoTrace => f.write_str(
                "a limit order cancelled since would leave no trace; check the exchange's history",
            ),
            Self::FillsDoNotAddUp => f.write_str(
                "rows that could be its fills were made while it was sent, and do not add up to it",
            ),
            Self::ReadFailed => f.write_str("a read failed, so silence proves nothing"),
            Self::NoBalancesBefore => {
                f.write_str("the balances before sending were not read, so silence proves nothing")
            }
            Self::HeldBack { held, open_sells } => write!(
                f,
                "{held} BTC is held back where open sells explain {open_sells}: a withdrawal may be pending"
            ),
            Self::RowDisagrees {
                account,
                holds,
                row_says,
            } => write!(
                f,
                "{account} holds {holds} BTC, its newest listed row says {row_says}"
            ),
            Self::ChangedWithoutRow { account } => write!(f, "{account} changed with no row listed"),
            Self::Unaccounted { account, was, holds } => write!(
                f,
                "{account} held {was} BTC when this was sent and holds {holds}, which its listed rows do not account for"
            ),
        }
    }
}

impl fmt::Display for WhyUnknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InFlight => f.write_str("nothing yet: the request is still on its way"),
            Self::Queued => f.write_str("nothing yet: it waits behind the ladder's earlier rungs"),
            Self::OtherExchange { base_url } => {
                write!(f, "the exchange at {base_url}, where it was sent")
            }
            Self::OtherAccounts => f.write_str("its account, with the key it was sent with"),
            Self::Doubt(d) => write!(f, "the account in the exchange's own view ({d})"),
        }
    }
}
