//! One error type for every call, so a caller can act on what happened: fix the input, fix the
//! credentials, wait and retry a read, or inspect the account after a lost answer.

use crate::amount::AmountError;
use crate::auth::Refusal;
use crate::base_url::BaseUrlError;
use crate::credentials::CredentialError;
use crate::nonce::NonceError;
use crate::oauth::OAuthError;

/// The gRPC-gateway error body (`spec/notes.md`): `{"code", "message", "details"}`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ApiError {
    pub code: i64,
    pub message: String,
    #[serde(default)]
    pub details: Vec<serde_json::Value>,
}

impl ApiError {
    /// Parses the body when it has the gateway shape; anything else stays raw in the error.
    pub fn from_body(body: &[u8]) -> Option<Self> {
        serde_json::from_slice::<Self>(body).ok()
    }

    /// The gRPC status name of `code`.
    pub fn code_name(&self) -> &'static str {
        match self.code {
            0 => "OK",
            1 => "CANCELLED",
            2 => "UNKNOWN",
            3 => "INVALID_ARGUMENT",
            4 => "DEADLINE_EXCEEDED",
            5 => "NOT_FOUND",
            6 => "ALREADY_EXISTS",
            7 => "PERMISSION_DENIED",
            8 => "RESOURCE_EXHAUSTED",
            9 => "FAILED_PRECONDITION",
            10 => "ABORTED",
            11 => "OUT_OF_RANGE",
            12 => "UNIMPLEMENTED",
            13 => "INTERNAL",
            14 => "UNAVAILABLE",
            15 => "DATA_LOSS",
            16 => "UNAUTHENTICATED",
            _ => "UNRECOGNISED",
        }
    }
}

/// A request the client will not send because it is wrong on its face.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidRequest {
    #[error(transparent)]
    Amount(#[from] AmountError),
    #[error("pageSize must be between 1 and 200, or 0 for everything; got {0}")]
    PageSize(u32),
    #[error("afterId needs after: it only breaks ties among transactions created at that time")]
    AfterIdWithoutAfter,
    #[error("{0} must not be empty")]
    Empty(&'static str),
    #[error("{0}")]
    Other(String),
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("not sent: {0}")]
    Refused(#[from] Refusal),
    #[error("not sent: {0}")]
    Invalid(#[from] InvalidRequest),
    #[error("could not connect to the exchange at {url}: {detail}")]
    Connect {
        endpoint: String,
        url: String,
        detail: String,
    },
    #[error("{endpoint}: no answer within {seconds} s")]
    Timeout { endpoint: String, seconds: u64 },
    #[error(
        "{endpoint}: outcome unknown — {reason}. The request may have reached the exchange: check {check} \
         before trying again; sending it again can create a second one"
    )]
    OutcomeUnknown {
        endpoint: String,
        reason: String,
        check: &'static str,
    },
    #[error("{endpoint}: the exchange answered HTTP {status}: {message}")]
    Http {
        endpoint: String,
        status: u16,
        api: Option<Box<ApiError>>,
        body: String,
        message: String,
    },
    #[error("{endpoint}: could not decode the response at `{field}`: {reason}")]
    Decode {
        endpoint: String,
        field: String,
        reason: String,
    },
    #[error("{endpoint}: the connection failed: {detail}")]
    Transport { endpoint: String, detail: String },
    #[error(transparent)]
    Nonce(#[from] NonceError),
    #[error(transparent)]
    Credential(#[from] CredentialError),
    #[error(transparent)]
    BaseUrl(#[from] BaseUrlError),
    #[error(transparent)]
    OAuth(#[from] OAuthError),
}

impl Error {
    /// The server's own message, when it sent one.
    pub fn server_message(&self) -> Option<&str> {
        match self {
            Self::Http { api: Some(api), .. } => Some(&api.message),
            _ => None,
        }
    }

    pub fn is_outcome_unknown(&self) -> bool {
        matches!(self, Self::OutcomeUnknown { .. })
    }

    pub(crate) fn http(endpoint: String, status: u16, body: &[u8]) -> Self {
        let api = ApiError::from_body(body).map(Box::new);
        let raw = String::from_utf8_lossy(body);
        let message = match &api {
            Some(a) => format!("{} ({})", a.message, a.code_name()),
            None if raw.trim().is_empty() => "(empty body)".to_owned(),
            None => raw.chars().take(300).collect(),
        };
        Self::Http {
            endpoint,
            status,
            api,
            body: raw.into_owned(),
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gateway_errors_are_parsed_and_others_kept_raw() {
        let e = Error::http(
            "GET /v1/x".into(),
            400,
            br#"{"code":3,"message":"amount must be positive","details":[]}"#,
        );
        assert_eq!(e.server_message(), Some("amount must be positive"));
        assert!(e.to_string().contains("INVALID_ARGUMENT"), "{e}");
        let e = Error::http("GET /v1/x".into(), 502, b"<html>Bad gateway</html>");
        assert!(e.server_message().is_none());
        assert!(e.to_string().contains("Bad gateway"));
        match e {
            Error::Http { body, .. } => assert_eq!(body, "<html>Bad gateway</html>"),
            other => panic!("{other:?}"),
        }
    }
}
