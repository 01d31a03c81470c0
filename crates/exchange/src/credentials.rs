//! Credentials as types that cannot leak by accident: `Debug` is redacted, nothing here is
//! `Serialize`, and the secret text is reachable only through an explicit accessor.

use std::collections::BTreeSet;
use std::fmt;

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use chrono::{DateTime, Utc};

use crate::models::Scope;

/// The complete key starts with this (5.1).
pub const API_KEY_PREFIX: &str = "svc/public/";
/// The complete secret starts with this (5.1).
pub const API_SECRET_PREFIX: &str = "svc/apisecret/";

/// Standard Base64, padding optional: the complete secret, prefix included, is decoded as a whole.
const SECRET_BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// What is wrong with a credential the user gave.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CredentialError {
    #[error("the API key must start with `{API_KEY_PREFIX}`")]
    KeyPrefix,
    #[error("the API key has nothing after `{API_KEY_PREFIX}`")]
    KeyEmpty,
    #[error("the API key contains white space or control characters")]
    KeyCharacters,
    #[error("the API secret must start with `{API_SECRET_PREFIX}`")]
    SecretPrefix,
    #[error("the API secret does not decode as Base64 as a whole (prefix included): {0}")]
    SecretBase64(String),
    #[error("the access token is empty or contains white space")]
    TokenMalformed,
}

/// The public API key, sent as `x-svc-api-key`. Not a secret on its own, but it identifies the
/// account, so `Debug` shows only its start.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn parse(text: &str) -> Result<Self, CredentialError> {
        let t = text.trim();
        let rest = t
            .strip_prefix(API_KEY_PREFIX)
            .ok_or(CredentialError::KeyPrefix)?;
        if rest.is_empty() {
            return Err(CredentialError::KeyEmpty);
        }
        if t.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(CredentialError::KeyCharacters);
        }
        Ok(Self(t.to_owned()))
    }

    /// The complete key, prefix included, for the header.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: String = self.0.chars().take(API_KEY_PREFIX.len() + 4).collect();
        write!(f, "ApiKey({shown}…)")
    }
}

/// The API secret, kept only as the HMAC key it decodes to.
#[derive(Clone)]
pub struct ApiSecret {
    key: Vec<u8>,
}

impl ApiSecret {
    /// Checks the prefix and that the complete secret decodes as Base64.
    pub fn parse(text: &str) -> Result<Self, CredentialError> {
        let t = text.trim();
        if !t.starts_with(API_SECRET_PREFIX) {
            return Err(CredentialError::SecretPrefix);
        }
        Self::from_complete_secret(t)
    }

    /// Decodes a complete secret without checking its prefix (5.2 does not depend on it).
    pub fn from_complete_secret(text: &str) -> Result<Self, CredentialError> {
        let key = SECRET_BASE64
            .decode(text.trim())
            .map_err(|e| CredentialError::SecretBase64(e.to_string()))?;
        Ok(Self { key })
    }

    /// The HMAC key bytes.
    pub fn hmac_key(&self) -> &[u8] {
        &self.key
    }
}

impl fmt::Debug for ApiSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiSecret(<redacted>)")
    }
}

/// An OAuth access token, sent as `Authorization: Bearer`.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessToken(String);

impl AccessToken {
    pub fn parse(text: &str) -> Result<Self, CredentialError> {
        let t = text.trim();
        if t.is_empty() || t.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(CredentialError::TokenMalformed);
        }
        Ok(Self(t.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessToken(<redacted>)")
    }
}

/// An OAuth refresh token.
#[derive(Clone, PartialEq, Eq)]
pub struct RefreshToken(String);

impl RefreshToken {
    pub fn new(text: String) -> Self {
        Self(text)
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for RefreshToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RefreshToken(<redacted>)")
    }
}

/// What an API key may do besides reading. Unknown until the user says or the app learns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KeyPermissions {
    pub trading: bool,
    pub bitcoin_withdrawal: bool,
}

/// An API key, its secret when signing is wanted, and its permissions when known.
#[derive(Debug, Clone)]
pub struct KeyCredentials {
    pub key: ApiKey,
    pub secret: Option<ApiSecret>,
    /// `None`: not known, so the server decides.
    pub permissions: Option<KeyPermissions>,
}

/// An OAuth grant as the client uses it.
#[derive(Debug, Clone)]
pub struct BearerCredentials {
    pub token: AccessToken,
    /// The scopes granted, when the token response said; `None` lets the server decide.
    pub scopes: Option<BTreeSet<Scope>>,
    pub expires_at: Option<DateTime<Utc>>,
}

impl BearerCredentials {
    pub fn is_expired(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_some_and(|t| t <= now)
    }

    pub fn may_have(&self, scope: &Scope) -> bool {
        self.scopes.as_ref().is_none_or(|s| s.contains(scope))
    }
}

/// Everything the client may authenticate with. Either, both or neither may be present.
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    pub key: Option<KeyCredentials>,
    pub bearer: Option<BearerCredentials>,
}

/// The example secret of `shared/vectors/signatures.json`, for tests: read from the vectors,
/// so no secret-looking literal is repeated in the code.
#[cfg(test)]
pub(crate) fn example_secret() -> String {
    let doc: serde_json::Value =
        serde_json::from_str(include_str!("../../../../shared/vectors/signatures.json"))
            .unwrap_or_default();
    doc["cases"][1]["secret"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_secrets() {
        let secret = ApiSecret::parse(&example_secret()).unwrap();
        let token = AccessToken::parse("tok-abcdef123456").unwrap();
        let key = ApiKey::parse("svc/public/ABCDEFGHIJKLMNOP").unwrap();
        let all = format!(
            "{secret:?} {token:?} {key:?} {:?}",
            RefreshToken::new("rt-xyz987".into())
        );
        assert!(!all.contains("Q2hhbmdl"));
        assert!(!all.contains("abcdef123456"));
        assert!(!all.contains("IJKLMNOP"));
        assert!(!all.contains("xyz987"));
    }

    #[test]
    fn secrets_are_checked_at_configuration_time() {
        assert_eq!(
            ApiSecret::parse("apisecret/abc").unwrap_err(),
            CredentialError::SecretPrefix
        );
        assert!(matches!(
            ApiSecret::parse("svc/apisecret/not base64!").unwrap_err(),
            CredentialError::SecretBase64(_)
        ));
        // 'svc/apisecret/' + 'abc' = 17 characters: not a whole number of Base64 quanta.
        assert!(ApiSecret::parse("svc/apisecret/abc").is_err());
        assert!(ApiSecret::parse(&example_secret()).is_ok());
        assert_eq!(
            ApiKey::parse("public/x").unwrap_err(),
            CredentialError::KeyPrefix
        );
        assert_eq!(
            ApiKey::parse("svc/public/").unwrap_err(),
            CredentialError::KeyEmpty
        );
        assert_eq!(
            ApiKey::parse("svc/public/a b").unwrap_err(),
            CredentialError::KeyCharacters
        );
        assert_eq!(
            AccessToken::parse(" ").unwrap_err(),
            CredentialError::TokenMalformed
        );
    }
}
