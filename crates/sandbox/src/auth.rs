//! Who is calling: an API key (signed when the endpoint demands it or the request carries a
//! signature), or an OAuth bearer token limited to its scopes (section 4, 5.1–5.4).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::request::ApiRequest;
use crate::world::World;

/// What an endpoint accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// An API key, or a token with `scope` (`None`: tokens not accepted).
    Key { scope: Option<&'static str> },
    /// An API key with the Receive permission, or a token with `scope` (endpoint 2: the
    /// exchange's integrations ask for a key with Read and Receive to create invoices).
    Receive { scope: &'static str },
    /// An API key, or any valid token (endpoint 12).
    KeyOrAnyToken,
    /// A signed API-key request with a permission.
    Signed(Permission),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    Trading,
    Withdrawal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Caller {
    Key,
    Token { client_id: String },
}

/// Checks the credentials of `req` against `rule`. A valid signature consumes its nonce even
/// when the operation then fails (5.3).
pub fn authenticate(
    world: &mut World,
    req: &ApiRequest,
    rule: Rule,
    now: DateTime<Utc>,
) -> Result<Caller, ApiError> {
    let op = world.operator.clone();
    let key = req.header(&format!("x-{op}-api-key"));
    let bearer = req.header("authorization");
    match (key, bearer) {
        (Some(_), Some(_)) => Err(ApiError::invalid(
            "send either an API key or a bearer token, not both",
        )),
        (None, None) => Err(ApiError::unauthenticated(match rule {
            Rule::Signed(_) => format!(
                "this endpoint needs a signed API-key request (x-{op}-api-key, x-{op}-api-nonce, x-{op}-api-hmac)"
            ),
            _ => format!("credentials are required: x-{op}-api-key or Authorization: Bearer"),
        })),
        (None, Some(auth)) => token(world, auth, rule, now),
        (Some(key), None) => api_key(world, req, key, rule),
    }
}

fn token(
    world: &mut World,
    header: &str,
    rule: Rule,
    now: DateTime<Utc>,
) -> Result<Caller, ApiError> {
    let value = header
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim())
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            ApiError::unauthenticated("the Authorization header must be `Bearer <token>`")
        })?;
    let scope = match rule {
        Rule::Signed(_) => {
            return Err(ApiError::denied(
                "this endpoint needs a signed API-key request; OAuth tokens are not accepted",
            ));
        }
        Rule::Key { scope: None } => {
            return Err(ApiError::denied(
                "OAuth tokens are not accepted here; use an API key",
            ));
        }
        Rule::Key { scope: Some(s) } | Rule::Receive { scope: s } => Some(s),
        Rule::KeyOrAnyToken => None,
    };
    let grant = world.oauth.access_token(value, now)?;
    if let Some(s) = scope
        && !grant.scopes.iter().any(|g| g == s)
    {
        return Err(ApiError::denied(format!(
            "the access token lacks the scope {s}"
        )));
    }
    Ok(Caller::Token {
        client_id: grant.client_id.clone(),
    })
}

fn api_key(world: &mut World, req: &ApiRequest, key: &str, rule: Rule) -> Result<Caller, ApiError> {
    let index = world
        .keys
        .iter()
        .position(|k| k.key == key)
        .ok_or_else(|| ApiError::unauthenticated("unknown API key"))?;
    let op = world.operator.clone();
    let nonce = req.header(&format!("x-{op}-api-nonce"));
    let mac = req.header(&format!("x-{op}-api-hmac"));
    let must_sign = matches!(rule, Rule::Signed(_));
    if must_sign || nonce.is_some() || mac.is_some() {
        let (Some(nonce_text), Some(mac)) = (nonce, mac) else {
            return Err(ApiError::unauthenticated(format!(
                "a signed request needs x-{op}-api-nonce and x-{op}-api-hmac"
            )));
        };
        let nonce: u64 = Some(nonce_text.trim())
            .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| {
                ApiError::unauthenticated(format!(
                    "x-{op}-api-nonce must be an unsigned decimal integer"
                ))
            })?;
        let rec = &world.keys[index];
        if !signature_matches(
            &rec.secret,
            nonce,
            req.method.as_str(),
            &req.decoded_path,
            &req.body,
            mac,
        ) {
            return Err(ApiError::unauthenticated("invalid signature"));
        }
        if nonce <= rec.last_nonce && !req.late {
            return Err(ApiError::unauthenticated(format!(
                "nonce {nonce} is not greater than the last accepted nonce {}; retry with a larger nonce",
                rec.last_nonce
            )));
        }
        let last = &mut world.keys[index].last_nonce;
        *last = (*last).max(nonce);
    }
    let perms = world.keys[index].permissions;
    match rule {
        Rule::Signed(Permission::Trading) if !perms.trading => Err(ApiError::denied(
            "this API key lacks the trading permission",
        )),
        Rule::Signed(Permission::Withdrawal) if !perms.withdrawal => Err(ApiError::denied(
            "this API key lacks the bitcoin withdrawal permission",
        )),
        Rule::Receive { .. } if !perms.receive => Err(ApiError::denied(
            "this API key lacks the receive permission, which creating invoices needs",
        )),
        _ => Ok(Caller::Key),
    }
}

/// 5.2, checked in constant time.
fn signature_matches(
    secret: &str,
    nonce: u64,
    method: &str,
    path: &str,
    body: &[u8],
    given: &str,
) -> bool {
    let Ok(key) = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    )
    .decode(secret) else {
        return false;
    };
    let Ok(given) = STANDARD.decode(given.trim()) else {
        return false;
    };
    let mut digest = Sha256::new();
    digest.update(nonce.to_string().as_bytes());
    digest.update(body);
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&key) else {
        return false;
    };
    mac.update(method.as_bytes());
    mac.update(path.as_bytes());
    mac.update(&digest.finalize());
    mac.verify_slice(&given).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_the_shared_vectors() {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../../../../shared/vectors/signatures.json"))
                .unwrap();
        for c in doc["cases"].as_array().unwrap() {
            let s = |k: &str| c[k].as_str().unwrap();
            assert!(signature_matches(
                s("secret"),
                s("nonce").parse().unwrap(),
                s("method"),
                s("path"),
                s("body").as_bytes(),
                s("hmac")
            ));
            assert!(!signature_matches(
                s("secret"),
                s("nonce").parse::<u64>().unwrap() + 1,
                s("method"),
                s("path"),
                s("body").as_bytes(),
                s("hmac")
            ));
        }
    }
}
