//! What a handler needs of a request: method, decoded path (what 5.2 signs), headers, raw body,
//! and query parameters, with every malformed part answered in the documented error shape.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, Method};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// Bodies larger than this are refused with 413.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

#[derive(Debug)]
pub struct ApiRequest {
    pub method: Method,
    pub decoded_path: String,
    pub headers: HeaderMap,
    pub query: HashMap<String, String>,
    pub body: Bytes,
    /// Replayed by the commit-late fault: its nonce was taken when it first arrived.
    pub late: bool,
}

impl<S: Send + Sync> FromRequest<S> for ApiRequest {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, ApiError> {
        let (parts, body) = req.into_parts();
        let late = parts
            .extensions
            .get::<crate::faults::LateCommit>()
            .is_some();
        let decoded_path = percent_encoding::percent_decode_str(parts.uri.path())
            .decode_utf8()
            .map_err(|_| ApiError::invalid("the path is not valid UTF-8"))?
            .into_owned();
        let query = match parts.uri.query() {
            Some(q) => url::form_urlencoded::parse(q.as_bytes())
                .into_owned()
                .collect(),
            None => HashMap::new(),
        };
        let body = axum::body::to_bytes(body, MAX_BODY_BYTES)
            .await
            .map_err(|_| {
                ApiError::too_large(format!(
                    "the request body is larger than {MAX_BODY_BYTES} bytes"
                ))
            })?;
        Ok(Self {
            method: parts.method,
            decoded_path,
            headers: parts.headers,
            query,
            body,
            late,
        })
    }
}

impl ApiRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The JSON body as `T`; an empty body reads as `{}`.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        let body: &[u8] = if self.body.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &self.body
        };
        serde_json::from_slice(body)
            .map_err(|e| ApiError::invalid(format!("invalid request body: {e}")))
    }

    pub fn query_str(&self, name: &str) -> Option<&str> {
        self.query.get(name).map(String::as_str)
    }

    pub fn query_bool(&self, name: &str) -> Result<bool, ApiError> {
        match self.query_str(name).map(str::trim) {
            None | Some("") | Some("false") | Some("0") => Ok(false),
            Some("true") | Some("1") => Ok(true),
            Some(other) => Err(ApiError::invalid(format!(
                "{name} must be true or false, not `{other}`"
            ))),
        }
    }
}
