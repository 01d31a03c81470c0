//! What one step of a check read and saw, as facts: the journal keeps each as a code with its
//! data, the window words it in the user's language (amounts formatted and hidden as every
//! amount is), and `Display` is the English the CLI and older versions wrote.

use std::fmt;

use nordlys_money::{Btc, Nok};
use serde::{Deserialize, Serialize};

use crate::doubt::Doubt;

/// What a step read: a request to the exchange, the verdict, the user, the queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    Accounts,
    Fiat,
    OpenOrders,
    Rows,
    /// The order's own request, whose answer was an error.
    PlaceOrder,
    /// The withdrawal's own request, whose answer was an error.
    SendWithdrawal,
    /// The check's conclusion.
    Verdict,
    /// The user, settling it by hand.
    User,
    /// The ladder's queue, settling a rung that never left.
    Queue,
    /// A read this version does not know (written by another).
    Other(String),
}

impl Read {
    /// The name the journal has always stored, and the CLI's `read`.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Accounts => "GET /v1/user/bitcoin-accounts",
            Self::Fiat => "GET /v1/user/fiat-account",
            Self::OpenOrders => "GET /v1/orders",
            Self::Rows => "GET /v1/tax/transactions",
            Self::PlaceOrder => "POST /v1/orders",
            Self::SendWithdrawal => "POST /v1/withdrawals/bitcoin",
            Self::Verdict => "verdict",
            Self::User => "user",
            Self::Queue => "queue",
            Self::Other(s) => s,
        }
    }

    pub fn parse(s: &str) -> Self {
        [
            Self::Accounts,
            Self::Fiat,
            Self::OpenOrders,
            Self::Rows,
            Self::PlaceOrder,
            Self::SendWithdrawal,
            Self::Verdict,
            Self::User,
            Self::Queue,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
        .unwrap_or_else(|| Self::Other(s.to_owned()))
    }

    /// Whether this step ends a check: its verdict, or the user's word.
    pub fn ends_check(&self) -> bool {
        matches!(self, Self::Verdict | Self::User)
    }
}

/// One bitcoin account's balances as a read saw them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountSeen {
    pub id: String,
    #[serde(with = "nordlys_money::computed")]
    pub available: Btc,
    #[serde(with = "nordlys_money::computed")]
    pub total: Btc,
}

/// What kind of trouble a read or a request met, as facts the window words in the user's
/// language; the exchange's own words (`message`) pass as they came.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Trouble {
    /// No answer within `seconds`.
    Timeout { seconds: u64 },
    /// No connection to the exchange could be made.
    Unreachable,
    /// The connection broke before the answer came.
    ConnectionBroke,
    /// The answer was lost: whether the request arrived is not known.
    AnswerLost,
    /// The exchange answered with an HTTP error.
    Status { status: u16, message: String },
    /// The exchange is limiting how often it is asked.
    RateLimited,
    /// These credentials may not do it; nothing was sent.
    NotPermitted,
    /// The answer could not be read.
    Unreadable,
    /// Some of the history's rows could not be read.
    UnreadableRows { count: u64 },
}

impl Trouble {
    /// What kind of trouble an error of the exchange client was; none for one that has no kind
    /// here (its English words stand alone).
    pub fn of(e: &nordlys_exchange::Error) -> Option<Self> {
        use nordlys_exchange::Error;
        Some(match e {
            Error::Timeout { seconds, .. } => Self::Timeout { seconds: *seconds },
            Error::Connect { .. } => Self::Unreachable,
            Error::Transport { .. } => Self::ConnectionBroke,
            Error::OutcomeUnknown { .. } => Self::AnswerLost,
            Error::Http { status, .. } => Self::Status {
                status: *status,
                message: e.server_message().unwrap_or_default().to_owned(),
            },
            Error::RateLimited { .. } => Self::RateLimited,
            Error::Refused(_) => Self::NotPermitted,
            Error::Decode { .. } => Self::Unreadable,
            _ => return None,
        })
    }
}

/// A read that failed: the English the journal has always kept, and what kind of trouble it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub error: String,
    pub trouble: Option<Trouble>,
}

impl Failure {
    pub fn of(e: &nordlys_exchange::Error) -> Self {
        Self {
            error: e.to_string(),
            trouble: Trouble::of(e),
        }
    }

    /// `count` rows of a page could not be read.
    pub fn unreadable_rows(count: u64) -> Self {
        Self {
            error: format!("{count} rows could not be read"),
            trouble: Some(Trouble::UnreadableRows { count }),
        }
    }
}

impl Seen {
    /// A read that failed.
    pub fn failed(f: &Failure) -> Self {
        Self::Failed {
            error: f.error.clone(),
            trouble: f.trouble.clone(),
        }
    }

    /// The request's own answer, an error.
    pub fn answered(e: &nordlys_exchange::Error) -> Self {
        let Failure { error, trouble } = Failure::of(e);
        Self::Answered { error, trouble }
    }
}

/// What a step saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "data", rename_all = "kebab-case")]
pub enum Seen {
    /// The bitcoin accounts' balances.
    Balances {
        accounts: Vec<AccountSeen>,
    },
    /// The NOK account's available balance.
    Fiat {
        #[serde(with = "nordlys_money::computed")]
        available: Nok,
    },
    OpenOrders {
        count: u64,
    },
    /// The history rows in the check's window; `incomplete` says why there may be more.
    Rows {
        count: u64,
        incomplete: Option<String>,
        /// What kind of trouble left it incomplete (none in steps older versions wrote).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trouble: Option<Trouble>,
    },
    /// The read failed: the client's English (`error`) and what kind of trouble it was.
    Failed {
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trouble: Option<Trouble>,
    },
    /// The request's own answer was an error.
    Answered {
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trouble: Option<Trouble>,
    },
    /// Made: these rows or orders are its evidence.
    Made {
        ids: Vec<String>,
    },
    /// Not made: this many minutes of quiet showed nothing that could be it.
    NotMade {
        quiet_minutes: i64,
    },
    Unknown {
        doubt: Doubt,
    },
    /// The user checked the exchange's history and found it not made.
    UserNotMade {
        order: bool,
    },
    /// The user saw the order placed, open as `open_as` or closed.
    UserPlaced {
        open_as: Option<String>,
    },
    /// A ladder's rung that never left: its run stopped before its turn.
    NeverSent,
    /// What an older version wrote, kept as it was.
    Legacy {
        text: String,
    },
}

impl Seen {
    /// The accounts it names, by id.
    pub fn accounts(&self) -> Vec<&str> {
        match self {
            Self::Balances { accounts } => accounts.iter().map(|a| a.id.as_str()).collect(),
            Self::Unknown { doubt } => doubt.account().into_iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The code the CLI's `code` shows.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Balances { .. } => "balances",
            Self::Fiat { .. } => "fiat",
            Self::OpenOrders { .. } => "open-orders",
            Self::Rows { .. } => "rows",
            Self::Failed { .. } => "failed",
            Self::Answered { .. } => "answered",
            Self::Made { .. } => "made",
            Self::NotMade { .. } => "not-made",
            Self::Unknown { .. } => "unknown",
            Self::UserNotMade { .. } => "user-not-made",
            Self::UserPlaced { .. } => "user-placed",
            Self::NeverSent => "never-sent",
            Self::Legacy { .. } => "legacy",
        }
    }

    /// The data beside the code, as the journal stores it (`null` for none).
    pub fn data(&self) -> serde_json::Value {
        serde_json::to_value(self)
            .ok()
            .and_then(|mut v| v.get_mut("data").map(serde_json::Value::take))
            .unwrap_or(serde_json::Value::Null)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A stored step: its JSON, or (written before steps were facts, or damaged) its words.
    pub fn stored(json: Option<&str>, saw: &str) -> Self {
        json.and_then(|j| serde_json::from_str(j).ok())
            .unwrap_or_else(|| Self::Legacy {
                text: saw.to_owned(),
            })
    }
}

/// Why a check found a request made, as the journal's note says it.
pub(crate) fn matched_by(ids: &[String]) -> String {
    format!("matched by {}", ids.join(", "))
}

/// Why a check found a request not made, as the journal's note says it.
pub(crate) fn no_trace(quiet_minutes: i64) -> String {
    format!("no trace in {quiet_minutes} min: no matching row or open order, balances explained")
}

impl fmt::Display for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Balances { accounts } => {
                for (i, a) in accounts.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{} available {} total {}", a.id, a.available, a.total)?;
                }
                Ok(())
            }
            Self::Fiat { available } => write!(f, "available {available} NOK"),
            Self::OpenOrders { count } => write!(f, "{count} open orders"),
            Self::Rows {
                count,
                incomplete: None,
                ..
            } => write!(f, "{count} rows in the window"),
            Self::Rows {
                count,
                incomplete: Some(e),
                ..
            } => write!(f, "{count} rows read; incomplete: {e}"),
            Self::Failed { error, .. } => write!(f, "failed: {error}"),
            Self::Answered { error, .. } => f.write_str(error),
            Self::Made { ids } => write!(f, "made: {}", matched_by(ids)),
            Self::NotMade { quiet_minutes } => write!(f, "not made: {}", no_trace(*quiet_minutes)),
            Self::Unknown { doubt } => write!(f, "unknown: {doubt}"),
            Self::UserNotMade { order: true } => {
                f.write_str("checked the exchange's history: not placed")
            }
            Self::UserNotMade { order: false } => {
                f.write_str("checked the exchange's history: not sent")
            }
            Self::UserPlaced { open_as: Some(id) } => {
                write!(f, "saw it on the exchange: placed, open as order {id}")
            }
            Self::UserPlaced { open_as: None } => {
                f.write_str("saw it on the exchange: placed, and closed")
            }
            Self::NeverSent => {
                f.write_str("never sent: its ladder's run stopped before this rung's turn")
            }
            Self::Legacy { text } => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doubt::Move;

    fn every() -> Vec<Seen> {
        vec![
            Seen::Balances {
                accounts: vec![AccountSeen {
                    id: "acc_1".into(),
                    available: Btc::computed("0.1".parse().unwrap()),
                    total: Btc::computed("0.2".parse().unwrap()),
                }],
            },
            Seen::Fiat {
                available: Nok::computed("1000.5".parse().unwrap()),
            },
            Seen::OpenOrders { count: 2 },
            Seen::Rows {
                count: 3,
                incomplete: Some("1 rows could not be read".into()),
                trouble: Some(Trouble::UnreadableRows { count: 1 }),
            },
            Seen::Failed {
                error: "timed out".into(),
                trouble: Some(Trouble::Timeout { seconds: 20 }),
            },
            Seen::Answered {
                error: "HTTP 400".into(),
                trouble: Some(Trouble::Status {
                    status: 400,
                    message: "insufficient funds".into(),
                }),
            },
            Seen::Made {
                ids: vec!["tr_1".into()],
            },
            Seen::NotMade { quiet_minutes: 12 },
            Seen::Unknown {
                doubt: Doubt::Moved(Move::AvailableNok {
                    by: Nok::computed("500".parse().unwrap()),
                }),
            },
            Seen::UserNotMade { order: true },
            Seen::UserPlaced {
                open_as: Some("ord_1".into()),
            },
            Seen::NeverSent,
            // A failure with no kind of trouble: its words alone.
            Seen::Failed {
                error: "a nonce file is damaged".into(),
                trouble: None,
            },
        ]
    }

    /// A step is stored as its code and data and read back the same; what an older version
    /// wrote, or a damaged row, reads as its words.
    #[test]
    fn a_step_round_trips_and_old_words_are_kept() {
        for seen in every() {
            let json = seen.to_json();
            assert_eq!(Seen::stored(Some(&json), "ignored"), seen, "{json}");
            let value: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(value["code"], seen.code(), "{json}");
        }
        let old = "0 open orders";
        assert_eq!(Seen::stored(None, old), Seen::Legacy { text: old.into() });
        // A failed read stored before troubles were kept reads with its words alone.
        let before =
            r#"{"code":"failed","data":{"error":"GET /v1/orders: no answer within 20 s"}}"#;
        assert_eq!(
            Seen::stored(Some(before), "ignored"),
            Seen::Failed {
                error: "GET /v1/orders: no answer within 20 s".into(),
                trouble: None,
            }
        );
        assert_eq!(
            Seen::stored(Some("{not json"), old).to_string(),
            old,
            "damaged JSON keeps the words"
        );
    }

    /// The words the journal wrote before steps were facts are what `Display` still writes,
    /// so the CLI's `saw` does not change.
    #[test]
    fn the_words_are_those_the_journal_always_wrote() {
        let said: Vec<String> = every().iter().map(ToString::to_string).collect();
        assert_eq!(said[0], "acc_1 available 0.1 total 0.2");
        assert_eq!(said[1], "available 1000.5 NOK");
        assert_eq!(said[2], "2 open orders");
        assert_eq!(said[3], "3 rows read; incomplete: 1 rows could not be read");
        assert_eq!(said[6], "made: matched by tr_1");
        assert!(said[7].starts_with("not made: no trace in 12 min"));
        assert!(said[8].starts_with("unknown: available NOK fell by 500"));
    }

    #[test]
    fn reads_keep_their_stored_names() {
        for name in [
            "GET /v1/orders",
            "verdict",
            "user",
            "queue",
            "something new",
        ] {
            assert_eq!(Read::parse(name).as_str(), name);
        }
        assert!(Read::parse("verdict").ends_check());
        assert!(!Read::parse("GET /v1/orders").ends_check());
    }

    /// The client's errors are told apart by kind, with the exchange's own words kept.
    #[test]
    fn an_exchange_error_is_read_as_its_kind_of_trouble() {
        use nordlys_exchange::Error;
        let endpoint = || "GET /v1/orders".to_owned();
        let timeout = Error::Timeout {
            endpoint: endpoint(),
            seconds: 20,
        };
        assert_eq!(
            Trouble::of(&timeout),
            Some(Trouble::Timeout { seconds: 20 })
        );
        let http = Error::Http {
            endpoint: endpoint(),
            status: 502,
            api: None,
            body: String::new(),
            message: "Bad Gateway".into(),
        };
        assert_eq!(
            Trouble::of(&http),
            Some(Trouble::Status {
                status: 502,
                message: "Bad Gateway".into(),
            })
        );
        let broke = Error::Transport {
            endpoint: endpoint(),
            detail: "reset".into(),
        };
        assert_eq!(Failure::of(&broke).trouble, Some(Trouble::ConnectionBroke));
        assert_eq!(Failure::of(&broke).error, broke.to_string());
        let rows = Failure::unreadable_rows(2);
        assert_eq!(rows.trouble, Some(Trouble::UnreadableRows { count: 2 }));
        assert_eq!(rows.error, "2 rows could not be read");
    }
}
