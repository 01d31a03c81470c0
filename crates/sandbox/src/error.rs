//! Errors in the gRPC-gateway shape (`spec/notes.md`): HTTP status plus
//! `{"code": <gRPC code>, "message": "...", "details": []}`. Messages are safe to show a user.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// The gRPC status name of a code.
fn code_name(code: i64) -> &'static str {
    match code {
        3 => "INVALID_ARGUMENT",
        5 => "NOT_FOUND",
        7 => "PERMISSION_DENIED",
        8 => "RESOURCE_EXHAUSTED",
        9 => "FAILED_PRECONDITION",
        12 => "UNIMPLEMENTED",
        13 => "INTERNAL",
        16 => "UNAUTHENTICATED",
        _ => "UNKNOWN",
    }
}

/// Re-renders the error bodies of `/v1/` in the shape the readings name (`--error-style`).
pub async fn restyle(
    axum::extract::State(app): axum::extract::State<crate::AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    use crate::world::ErrorStyle;
    let api = req.uri().path().starts_with("/v1/");
    let response = next.run(req).await;
    let style = app.lock().readings.error_style;
    if !api || style == ErrorStyle::Grpc || response.status().as_u16() < 400 {
        return response;
    }
    let status = response.status();
    let Ok(bytes) = axum::body::to_bytes(response.into_body(), 1 << 20).await else {
        return status.into_response();
    };
    let parsed: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let code = parsed["code"].as_i64().unwrap_or(2);
    let message = parsed["message"].as_str().unwrap_or_default().to_owned();
    match style {
        ErrorStyle::Grpc => (status, bytes).into_response(),
        ErrorStyle::String => (
            status,
            axum::Json(
                serde_json::json!({ "code": code_name(code), "message": message, "details": [] }),
            ),
        )
            .into_response(),
        ErrorStyle::Nested => (
            status,
            axum::Json(serde_json::json!({ "error": { "code": code, "message": message } })),
        )
            .into_response(),
        ErrorStyle::Text => (
            status,
            [(
                axum::http::header::CONTENT_TYPE,
                "text/plain; charset=utf-8",
            )],
            message,
        )
            .into_response(),
        ErrorStyle::None => status.into_response(),
    }
}

/// gRPC status codes used here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    InvalidArgument = 3,
    NotFound = 5,
    PermissionDenied = 7,
    ResourceExhausted = 8,
    FailedPrecondition = 9,
    Unimplemented = 12,
    Internal = 13,
    Unauthenticated = 16,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
}

impl ApiError {
    fn new(status: StatusCode, code: Code, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, Code::InvalidArgument, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, Code::NotFound, message)
    }

    pub fn denied(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, Code::PermissionDenied, message)
    }

    pub fn unauthenticated(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, Code::Unauthenticated, message)
    }

    pub fn precondition(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, Code::FailedPrecondition, message)
    }

    pub fn unsupported_media(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Code::InvalidArgument,
            message,
        )
    }

    pub fn too_large(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            Code::ResourceExhausted,
            message,
        )
    }

    pub fn unimplemented(message: impl Into<String>) -> Self {
        Self::new(StatusCode::METHOD_NOT_ALLOWED, Code::Unimplemented, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, Code::Internal, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body =
            serde_json::json!({ "code": self.code as i32, "message": self.message, "details": [] });
        (self.status, axum::Json(body)).into_response()
    }
}
