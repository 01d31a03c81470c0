//! Errors as facts ([`AppError`]: a stable code and the catalog's message), and their one
//! conversion into what the UI sees ([`IpcError`]: the code and the message in the user's
//! language). The UI mirrors [`ErrorCode`].

use nordlys_core::format::Locale;
use nordlys_core::store::StoreError;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error_words::Worded;
use crate::present::Viewer;
use crate::wording::{Bare, Key, Message};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ErrorCode {
    InvalidInput,
    NotPermitted,
    Unauthenticated,
    Network,
    OutcomeUnknown,
    /// The same order or payment is still unknown: sending it again needs a second confirmation.
    SameAsUnknown,
    /// The same payment was sent within the last day: sending it again needs a second
    /// confirmation (`despiteRecent`).
    SameAsRecent,
    /// An unknown order could be the one being cancelled; quiet long enough that the user may
    /// cancel anyway.
    MayBeUnknown,
    /// The form sent is not the form that was reviewed: it must be reviewed again.
    NotReviewed,
    /// The user did not approve the send in the confirmation outside the window (cancelled, or
    /// no dialog could be shown): nothing was sent.
    NotConfirmed,
    Server,
    Keyring,
    /// The local store's key is missing, damaged or does not open it: the window offers to put
    /// the backed-up key back or to start a fresh store, the old one kept aside.
    StoreKey,
    Browser,
    Timeout,
    /// The exchange limits how often it is asked (HTTP 429): nothing was done, and the message
    /// says when to try again.
    RateLimited,
    /// Another app on the same API key overtook this one's nonces: nothing was done, and one
    /// key per app is the cure.
    NonceShared,
    Declined,
    /// The exchange will not grant the access asked for (`invalid_scope`); it may grant less.
    ScopeRefused,
    Reconnect,
    /// The app is locked: the command shows what the lock hides.
    Locked,
    /// The lock asks for its password before a payment, and it was not given for this one.
    PasswordNeeded,
    /// What is kept here (the tax history) belongs to other accounts than the credential sees:
    /// nothing was read into it; the user may set it aside and start afresh.
    OtherAccounts,
    /// Nordlys cannot go on for a reason worded in the message (no profile, the sandbox down).
    Internal,
    /// Nordlys itself failed (its store, a file, a chart); the message is the technical detail,
    /// which the window frames in the user's language.
    Fault,
}

/// What the window gets when a command fails: the code it acts on and the message in the user's
/// language. Made from an [`AppError`] once, when the command answers ([`AppError::present`]).
#[derive(Debug, Clone, Serialize, Deserialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct IpcError {
    pub code: ErrorCode,
    pub message: String,
}

/// What a use case fails with, as facts: its kind, and what to tell the user as a message of the
/// catalog (or words a lower layer chose). No language here: the command words it when it
/// answers, so the CLI and the tests read the same error without a sentence to match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppError {
    pub code: ErrorCode,
    pub said: Said,
}

/// What an error tells the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// A message of the catalog with its values, worded in the user's language.
    Message(Message),
    /// Several problems at once (a form's fields), each a message, said one after another.
    All(Vec<Message>),
    /// Nordlys' own fault's technical detail (its store, a file, a chart), which the window
    /// frames in the user's language.
    Words(String),
}

/// What every use case returns.
pub type Answer<T> = Result<T, AppError>;

impl AppError {
    pub fn new(code: ErrorCode, message: Message) -> Self {
        Self {
            code,
            said: Said::Message(message),
        }
    }

    /// The catalog's message `key`, which takes no values.
    pub fn said(code: ErrorCode, key: Bare) -> Self {
        Self::new(code, Message::new(key))
    }

    /// Every problem of a form at once; `none` when the list is empty.
    pub fn all(code: ErrorCode, problems: Vec<Message>, none: Bare) -> Self {
        if problems.is_empty() {
            return Self::said(code, none);
        }
        Self {
            code,
            said: Said::All(problems),
        }
    }

    /// A failure of the app itself (local store, settings, a file), not of the user's input.
    pub fn fault(e: impl std::fmt::Display) -> Self {
        Self {
            code: ErrorCode::Fault,
            said: Said::Words(e.to_string()),
        }
    }

    /// An error of the exchange or of connecting.
    pub fn of(error: impl Worded) -> Self {
        let (code, message) = error.words();
        Self::new(code, message)
    }

    /// Whether it tells of the catalog's `key`, framed or not (an exchange's refusal inside
    /// "not sent: …").
    pub fn says(&self, key: impl Into<Key>) -> bool {
        let key = key.into();
        match &self.said {
            Said::Message(m) => m.mentions(key),
            Said::All(all) => all.iter().any(|m| m.mentions(key)),
            Said::Words(_) => false,
        }
    }

    /// The error as the window gets it, written as `viewer` writes.
    pub fn present(&self, viewer: &Viewer) -> IpcError {
        IpcError {
            code: self.code,
            message: self.words(viewer),
        }
    }

    /// What it says, written as `viewer` writes.
    pub fn words(&self, viewer: &Viewer) -> String {
        match &self.said {
            Said::Message(m) => m.write(viewer),
            Said::All(all) => all
                .iter()
                .map(|m| m.write(viewer))
                .collect::<Vec<_>>()
                .join("; "),
            Said::Words(words) => words.clone(),
        }
    }
}

/// In English, for logs and the CLI.
impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(&Viewer::plain(Locale::En)))
    }
}

impl std::error::Error for AppError {}

/// The local store failing is the app's own failure, never the user's input.
impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        Self::fault(e)
    }
}
