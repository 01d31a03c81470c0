//! How a successful `/v1/` answer writes a field whose value is its type's default
//! (`--empty-style`). A service generated from proto3 definitions, as the exchange's is, leaves
//! such fields out; the other styles write them, with `""` or `null` for an unset time.

use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::world::EmptyStyle;

/// No answer is too large to re-write: `pageSize=0` over a busy past of a million rows is
/// hundreds of megabytes, and cutting it would answer with nothing.
const MAX_BODY: usize = usize::MAX;

/// Re-writes the JSON body of a successful `/v1/` answer in the style the readings name.
pub async fn restyle(
    axum::extract::State(app): axum::extract::State<crate::AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let api = req.uri().path().starts_with("/v1/");
    let response = next.run(req).await;
    let style = app.lock().readings.empty_style;
    if !api || style == EmptyStyle::String || !response.status().is_success() {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return parts.status.into_response();
    };
    let Ok(mut value) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, axum::body::Body::from(bytes));
    };
    match style {
        EmptyStyle::Omit => omit_defaults(&mut value),
        EmptyStyle::Null => null_unset_times(&mut value),
        EmptyStyle::String => {}
    }
    let mut parts = parts;
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(value.to_string()))
}

/// Whether `v` is what proto3 JSON leaves out: the empty string, zero, false, null, an empty
/// list or an object with nothing left in it.
fn is_default(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

/// Leaves out every field whose value is the default, at every depth. A list keeps its
/// elements (proto3 writes every element of a repeated field), but each element's fields are
/// thinned the same way.
pub fn omit_defaults(v: &mut Value) {
    match v {
        Value::Object(fields) => {
            for field in fields.values_mut() {
                omit_defaults(field);
            }
            fields.retain(|_, field| !is_default(field));
        }
        Value::Array(items) => items.iter_mut().for_each(omit_defaults),
        _ => {}
    }
}

/// Whether a field of this name is a date-time in the API (2.x): `createTime`, `deleteTime`,
/// `finalizeTime`, `createdAt`, `sentAt`, `timestamp`, `nextAfter`.
fn is_time_field(name: &str) -> bool {
    name.ends_with("Time") || name.ends_with("At") || name == "timestamp" || name == "nextAfter"
}

/// Writes every unset time (`""`) as `null`, at every depth.
pub fn null_unset_times(v: &mut Value) {
    match v {
        Value::Object(fields) => {
            for (name, field) in fields.iter_mut() {
                if is_time_field(name) && field.as_str() == Some("") {
                    *field = Value::Null;
                } else {
                    null_unset_times(field);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(null_unset_times),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn omit_leaves_out_every_default_at_every_depth_and_keeps_list_elements() {
        let mut v = json!({
            "accounts": [
                { "id": "acc_1", "availableBtc": 0, "totalBtc": 0.5, "deleteTime": "" },
                { "id": "acc_2", "availableBtc": 0.0, "deleteTime": "2026-01-01T00:00:00Z" }
            ],
            "orders": [], "hasMore": false, "nested": { "a": "", "b": 0 },
            "runningBalanceBtc": "0.00000000", "count": 3, "flag": true
        });
        omit_defaults(&mut v);
        assert_eq!(
            v,
            json!({
                "accounts": [
                    { "id": "acc_1", "totalBtc": 0.5 },
                    { "id": "acc_2", "deleteTime": "2026-01-01T00:00:00Z" }
                ],
                "runningBalanceBtc": "0.00000000", "count": 3, "flag": true
            })
        );
    }

    #[test]
    fn null_writes_unset_times_as_null_and_nothing_else() {
        let mut v = json!({
            "transactions": [{ "finalizeTime": "", "note": "", "createTime": "2026-01-01T00:00:00Z" }],
            "nextAfter": "", "nextAfterId": "", "sentAt": ""
        });
        null_unset_times(&mut v);
        assert_eq!(
            v,
            json!({
                "transactions": [{ "finalizeTime": null, "note": "", "createTime": "2026-01-01T00:00:00Z" }],
                "nextAfter": null, "nextAfterId": "", "sentAt": null
            })
        );
    }
}
