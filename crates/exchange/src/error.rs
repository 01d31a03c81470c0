//! One error type for every call, so a caller can act on what happened: fix the input, fix the
//! credentials, wait and retry a read, or inspect the account after a lost answer.

use crate::amount::AmountError;
use crate::auth::Refusal;
use crate::base_url::BaseUrlError;
use crate::credentials::CredentialError;
use crate::nonce::NonceError;
use crate::oauth::OAuthError;

/// An error body the server sent, in whichever shape it came: the gRPC gateway's
/// `{"code": 3, "message"}` (`spec/notes.md`), the same with the code's name
/// (`{"code": "INVALID_ARGUMENT", …}`), either nested under `"error"`, or OAuth's
/// `{"error": "invalid_grant", "error_description"}` (RFC 6749 5.2).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ApiError {
    /// The code's name: a gRPC status name, or OAuth's error code.
    pub code: String,
    pub message: String,
    #[serde(default)]
    pub details: Vec<serde_json::Value>,
}

/// The gRPC status names, by number.
const GRPC_NAMES: [&str; 17] = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
];

impl ApiError {
    /// Reads any of the shapes above; `None` for a body that is none of them.
    pub fn from_body(body: &[u8]) -> Option<Self> {
        let value: serde_json::Value = serde_json::from_slice(body).ok()?;
        let object = value.as_object()?;
        if let Some(serde_json::Value::String(code)) = object.get("error") {
            let message = object
                .get("error_description")
                .and_then(|d| d.as_str())
                .unwrap_or(code);
            return Some(Self {
                code: code.clone(),
                message: message.to_owned(),
                details: vec![],
            });
        }
        let inner = match object.get("error") {
            Some(serde_json::Value::Object(nested)) => nested,
            _ => object,
        };
        let message = inner.get("message")?.as_str()?.to_owned();
        let code = match inner.get("code") {
            Some(serde_json::Value::Number(n)) => n.as_i64().map_or_else(
                || n.to_string(),
                |i| {
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| GRPC_NAMES.get(i))
                        .map_or_else(|| format!("code {i}"), |name| (*name).to_owned())
                },
            ),
            Some(serde_json::Value::String(name)) => name.clone(),
            _ => String::new(),
        };
        let details = inner
            .get("details")
            .and_then(|d| d.as_array())
            .cloned()
            .unwrap_or_default();
        Some(Self {
            code,
            message,
            details,
        })
    }
}

/// Where to look after a lost answer, to learn whether the request was carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    OpenOrders,
    Withdrawals,
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::OpenOrders => "open orders and balances",
            Self::Withdrawals => "the account's withdrawals and balances",
        })
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
        check: Check,
    },
    #[error("{endpoint}: the exchange answered HTTP {status}: {message}")]
    Http {
        endpoint: String,
        status: u16,
        api: Option<Box<ApiError>>,
        body: String,
        message: String,
    },
    /// HTTP 429: the exchange refused to be asked this often. Nothing was done; `retry_after`
    /// is when it said to ask again (`None`: it did not say, or not in a form that reads).
    #[error("{endpoint}: the exchange is limiting how often it is asked (HTTP 429); {}", match retry_after {
        Some(d) => format!("try again in {} s", d.as_secs().max(1)),
        None => "try again later".to_owned(),
    })]
    RateLimited {
        endpoint: String,
        retry_after: Option<std::time::Duration>,
    },
    /// HTTP 401 to a signed request for its nonce: another app on the same key has sent larger
    /// ones. Nothing was done.
    #[error(
        "{endpoint}: the exchange refused the request's nonce ({message}); another app seems to use \
         the same API key, and nothing was done. Give each app its own key"
    )]
    StaleNonce { endpoint: String, message: String },
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
    /// The server's own message, when it sent one: from an error body of any known shape,
    /// else the body itself (up to 300 characters), else the HTTP status text.
    pub fn server_message(&self) -> Option<&str> {
        match self {
            Self::Http { api: Some(api), .. } => Some(&api.message),
            Self::Http { message, .. } => Some(message),
            _ => None,
        }
    }

    pub fn is_outcome_unknown(&self) -> bool {
        matches!(self, Self::OutcomeUnknown { .. })
    }

    /// The exchange answered, and refused this one thing (it does not know it, or this
    /// credential may not see it): other requests may still be answered. Not a failure of the
    /// connection, the credential or the exchange as a whole.
    pub fn refuses_only_this(&self) -> bool {
        matches!(
            self,
            Self::Http {
                status: 400 | 403 | 404 | 410,
                ..
            }
        )
    }

    pub(crate) fn http(endpoint: String, status: u16, body: &[u8]) -> Self {
        let api = ApiError::from_body(body).map(Box::new);
        let raw = String::from_utf8_lossy(body);
        let message = match &api {
            Some(a) if a.code.is_empty() => a.message.clone(),
            Some(a) => format!("{} ({})", a.message, a.code),
            None if raw.trim().is_empty() => reqwest::StatusCode::from_u16(status)
                .ok()
                .and_then(|s| s.canonical_reason())
                .unwrap_or("no reason given")
                .to_owned(),
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
        assert_eq!(e.server_message(), Some("<html>Bad gateway</html>"));
        assert!(e.to_string().contains("Bad gateway"));
        match e {
            Error::Http { body, .. } => assert_eq!(body, "<html>Bad gateway</html>"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_error_shape_gives_the_server_s_message() {
        let cases: [(&[u8], &str, &str); 6] = [
            (
                br#"{"code":3,"message":"amount too small"}"#,
                "amount too small",
                "INVALID_ARGUMENT",
            ),
            (
                br#"{"code":"FAILED_PRECONDITION","message":"insufficient funds"}"#,
                "insufficient funds",
                "FAILED_PRECONDITION",
            ),
            (
                br#"{"error":{"code":7,"message":"no trading permission"}}"#,
                "no trading permission",
                "PERMISSION_DENIED",
            ),
            (
                br#"{"error":{"code":"NOT_FOUND","message":"no such order"}}"#,
                "no such order",
                "NOT_FOUND",
            ),
            (
                br#"{"error":"invalid_grant","error_description":"code expired"}"#,
                "code expired",
                "invalid_grant",
            ),
            (br#"{"code":99,"message":"odd"}"#, "odd", "code 99"),
        ];
        for (body, message, code) in cases {
            let e = Error::http("POST /v1/x".into(), 400, body);
            assert_eq!(e.server_message(), Some(message));
            assert!(e.to_string().contains(code), "{e}");
        }
    }

    #[test]
    fn a_body_of_no_known_shape_is_shown_cut_and_an_empty_one_by_its_status() {
        let long = "x".repeat(1000);
        let e = Error::http("GET /v1/x".into(), 500, long.as_bytes());
        assert_eq!(e.server_message().map(str::len), Some(300));
        let e = Error::http("GET /v1/x".into(), 503, b"");
        assert_eq!(e.server_message(), Some("Service Unavailable"));
        let e = Error::http("GET /v1/x".into(), 400, br#"{"code":3}"#);
        assert_eq!(e.server_message(), Some(r#"{"code":3}"#));
        let e = Error::http("GET /v1/x".into(), 400, b"[1,2]");
        assert_eq!(e.server_message(), Some("[1,2]"));
    }
}
