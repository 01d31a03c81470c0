//! The one conversion of every error into what the UI sees: a stable code it can act on and a
//! message a person can read. The UI mirrors [`ErrorCode`].

use nordlys_core::format::Locale;
use nordlys_core::store::StoreError;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error_words::Worded;

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
    Server,
    Keyring,
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

#[derive(Debug, Clone, Serialize, Deserialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct IpcError {
    pub code: ErrorCode,
    pub message: String,
}

/// What every command returns.
pub type Answer<T> = Result<T, IpcError>;

impl IpcError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// A failure of the app itself (local store, settings), not of the user's input.
    pub fn internal(e: impl std::fmt::Display) -> Self {
        Self::new(ErrorCode::Fault, e.to_string())
    }
}

impl IpcError {
    /// An error of the exchange or of connecting, in `locale`.
    pub fn of(error: &impl Worded, locale: Locale) -> Self {
        let (code, message) = error.words();
        Self::new(code, message.render(locale))
    }
}

/// The local store failing is the app's own failure, never the user's input.
impl From<StoreError> for IpcError {
    fn from(e: StoreError) -> Self {
        Self::internal(e)
    }
}
