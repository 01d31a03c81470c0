//! The one conversion of every error into what the UI sees: a stable code it can act on and a
//! message a person can read. The UI mirrors [`ErrorCode`].

use nordlys_core::connection::ConnectError;
use nordlys_core::loopback::LoopbackError;
use nordlys_core::store::StoreError;
use nordlys_exchange::Error;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

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
    /// An unknown order could be the one being cancelled; quiet long enough that the user may
    /// cancel anyway.
    MayBeUnknown,
    /// The form sent is not the form that was reviewed: it must be reviewed again.
    NotReviewed,
    Server,
    Keyring,
    Browser,
    Timeout,
    Declined,
    /// The exchange will not grant the access asked for (`invalid_scope`); it may grant less.
    ScopeRefused,
    Reconnect,
    Internal,
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
        Self::new(ErrorCode::Internal, e.to_string())
    }
}

impl From<Error> for IpcError {
    fn from(e: Error) -> Self {
        let code = match &e {
            Error::Refused(_) => ErrorCode::NotPermitted,
            Error::Invalid(_) | Error::Credential(_) | Error::BaseUrl(_) => ErrorCode::InvalidInput,
            Error::Connect { .. } | Error::Transport { .. } => ErrorCode::Network,
            Error::Timeout { .. } => ErrorCode::Timeout,
            Error::OutcomeUnknown { .. } => ErrorCode::OutcomeUnknown,
            Error::Http { status: 401, .. } => ErrorCode::Unauthenticated,
            Error::Http { status: 403, .. } => ErrorCode::NotPermitted,
            Error::Http { status, .. } if *status < 500 => ErrorCode::InvalidInput,
            _ => ErrorCode::Server,
        };
        let message = e
            .server_message()
            .map(str::to_owned)
            .unwrap_or_else(|| e.to_string());
        Self::new(code, message)
    }
}

/// The local store failing is the app's own failure, never the user's input.
impl From<StoreError> for IpcError {
    fn from(e: StoreError) -> Self {
        Self::internal(e)
    }
}

impl From<ConnectError> for IpcError {
    fn from(e: ConnectError) -> Self {
        let message = e.to_string();
        match e {
            ConnectError::Exchange(inner) => inner.into(),
            ConnectError::Secret(_) => Self::new(ErrorCode::Keyring, message),
            ConnectError::Credential(_) | ConnectError::KeyRejected(_) => {
                Self::new(ErrorCode::InvalidInput, message)
            }
            ConnectError::Browser(_) => Self::new(ErrorCode::Browser, message),
            ConnectError::Reconnect => Self::new(ErrorCode::Reconnect, message),
            ConnectError::Loopback(LoopbackError::Timeout(_)) => {
                Self::new(ErrorCode::Timeout, message)
            }
            ConnectError::Loopback(LoopbackError::Denied) => {
                Self::new(ErrorCode::Declined, message)
            }
            ConnectError::Loopback(LoopbackError::InvalidScope(_)) => {
                Self::new(ErrorCode::ScopeRefused, message)
            }
            ConnectError::OAuth(_) | ConnectError::Loopback(_) => {
                Self::new(ErrorCode::Unauthenticated, message)
            }
            _ => Self::new(ErrorCode::Internal, message),
        }
    }
}
