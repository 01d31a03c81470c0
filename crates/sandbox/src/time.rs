//! Times as the API writes them, and as it reads them from queries.

use chrono::{DateTime, SecondsFormat, Utc};

use crate::error::ApiError;

pub fn format(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// Parses an RFC 3339 time from a query parameter.
pub fn parse(name: &str, text: &str) -> Result<DateTime<Utc>, ApiError> {
    DateTime::parse_from_rfc3339(text.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| {
            ApiError::invalid(format!(
                "{name} must be an RFC 3339 date-time such as 2025-01-31T12:00:00Z"
            ))
        })
}
