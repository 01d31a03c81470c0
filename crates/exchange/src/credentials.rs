//! Credentials as types that cannot leak by accident: `Debug` is redacted, nothing here is
//! `Serialize`, and the secret text is reachable only through an explicit accessor.

use std::collections::BTreeSet;
use std::fmt;
use zeroize::{Zeroize, ZeroizeOnDrop};

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use chrono::{DateTime, Utc};

use crate::models::Scope;
use crate::operator::Operator;

/// Standard Base64, padding optional: the complete secret, prefix included, is decoded as a whole.
const SECRET_BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// What is wrong with a credential the user gave.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CredentialError {
    #[error("the API key must start with `{0}`")]
    KeyPrefix(String),
    #[error("the API key has nothing after `{0}`")]
    KeyEmpty(String),
    #[error("the API key contains white space or control characters")]
    KeyCharacters,
    #[error("the API secret must start with `{0}`")]
    SecretPrefix(String),
    #[error("the API secret does not decode as Base64 as a whole (prefix included): {0}")]
    SecretBase64(String),
    #[error("the access token is empty or contains white space")]
    TokenMalformed,
}

/// The public API key, sent as `x-<abbr>-api-key`. Not a secret on its own, but it identifies
/// the account, so `Debug` shows only its start.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ApiKey(String);

impl ApiKey {
    /// A key of `operator`: it starts with its `<abbr>/public/`.
    pub fn parse(text: &str, operator: &Operator) -> Result<Self, CredentialError> {
        let t = text.trim();
        let prefix = operator.key_prefix();
        let rest = t
            .strip_prefix(&prefix)
            .ok_or_else(|| CredentialError::KeyPrefix(prefix.clone()))?;
        if rest.is_empty() {
            return Err(CredentialError::KeyEmpty(prefix));
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

/// The first 12 bytes of SHA-256 over an API key, in hex: names the key (in journals, and for
/// its nonce file) without revealing it.
pub fn key_fingerprint(key: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(key.as_bytes())
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = self.0.find("/public/").map_or(0, |i| i + "/public/".len());
        let shown: String = self.0.chars().take(prefix + 4).collect();
        write!(f, "ApiKey({shown}…)")
    }
}

/// The API secret, kept only as the HMAC key it decodes to, and wiped from memory when dropped.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct ApiSecret {
    key: Vec<u8>,
}

impl ApiSecret {
    /// Checks the prefix of `operator` and that the complete secret decodes as Base64.
    pub fn parse(text: &str, operator: &Operator) -> Result<Self, CredentialError> {
        let t = text.trim();
        let prefix = operator.secret_prefix();
        if !t.starts_with(&prefix) {
            return Err(CredentialError::SecretPrefix(prefix));
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

/// An OAuth access token, sent as `Authorization: Bearer`; wiped from memory when dropped.
#[derive(Clone, PartialEq, Eq, Zeroize, ZeroizeOnDrop)]
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

/// An OAuth refresh token; wiped from memory when dropped.
#[derive(Clone, PartialEq, Eq, Zeroize, ZeroizeOnDrop)]
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
    /// Scopes the server refused this token (a 403 to a request that needed one): not asked
    /// with it again.
    pub refused: BTreeSet<Scope>,
    pub expires_at: Option<DateTime<Utc>>,
}

/// Renew a token this long before it expires, so that no request goes out with one about to lapse.
pub const RENEW_MARGIN_SECONDS: i64 = 60;

/// Whether a token expiring at `expires_at` (`None`: not said) is due for renewal at `now`.
pub fn renewal_due(expires_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    expires_at.is_some_and(|t| t - chrono::Duration::seconds(RENEW_MARGIN_SECONDS) <= now)
}

impl BearerCredentials {
    pub fn is_expired(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_some_and(|t| t <= now)
    }

    /// Expires within [`RENEW_MARGIN_SECONDS`]: time to renew.
    pub fn is_due(&self, now: DateTime<Utc>) -> bool {
        renewal_due(self.expires_at, now)
    }

    pub fn may_have(&self, scope: &Scope) -> bool {
        !self.refused.contains(scope) && self.scopes.as_ref().is_none_or(|s| s.contains(scope))
    }
}

/// Renews the bearer token; the client asks it before a request a token could carry, when the
/// token is due. Whoever holds the grant implements it (it stores the renewed grant first).
pub trait BearerRenewal: Send + Sync + std::fmt::Debug {
    fn renew(&self) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>>;
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

    /// Compiles only while each type that holds a secret wipes it when dropped.
    #[test]
    fn secrets_are_wiped_from_memory() {
        fn wiped_on_drop<T: ZeroizeOnDrop>() {}
        wiped_on_drop::<ApiSecret>();
        wiped_on_drop::<AccessToken>();
        wiped_on_drop::<RefreshToken>();
        let mut secret = ApiSecret::from_complete_secret(&example_secret()).unwrap();
        assert!(!secret.hmac_key().is_empty());
        secret.zeroize();
        assert!(secret.hmac_key().is_empty());
    }

    #[test]
    fn debug_never_shows_secrets() {
        let svc = Operator::default();
        let secret = ApiSecret::parse(&example_secret(), &svc).unwrap();
        let token = AccessToken::parse("tok-abcdef123456").unwrap();
        let key = ApiKey::parse("svc/public/ABCDEFGHIJKLMNOP", &svc).unwrap();
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
        let svc = &Operator::default();
        assert_eq!(
            ApiSecret::parse("apisecret/abc", svc).unwrap_err(),
            CredentialError::SecretPrefix("svc/apisecret/".into())
        );
        assert!(matches!(
            ApiSecret::parse("svc/apisecret/not base64!", svc).unwrap_err(),
            CredentialError::SecretBase64(_)
        ));
        // 'svc/apisecret/' + 'abc' = 17 characters: not a whole number of Base64 quanta.
        assert!(ApiSecret::parse("svc/apisecret/abc", svc).is_err());
        assert!(ApiSecret::parse(&example_secret(), svc).is_ok());
        assert_eq!(
            ApiKey::parse("public/x", svc).unwrap_err(),
            CredentialError::KeyPrefix("svc/public/".into())
        );
        assert_eq!(
            ApiKey::parse("svc/public/", svc).unwrap_err(),
            CredentialError::KeyEmpty("svc/public/".into())
        );
        assert_eq!(
            ApiKey::parse("svc/public/a b", svc).unwrap_err(),
            CredentialError::KeyCharacters
        );
        assert_eq!(
            AccessToken::parse(" ").unwrap_err(),
            CredentialError::TokenMalformed
        );
    }

    #[test]
    fn another_operator_s_prefixes_are_its_own() {
        let op = Operator::parse("abc").unwrap();
        assert!(ApiKey::parse("abc/public/XYZ", &op).is_ok());
        assert_eq!(
            ApiKey::parse("svc/public/XYZ", &op).unwrap_err(),
            CredentialError::KeyPrefix("abc/public/".into())
        );
        assert_eq!(
            ApiSecret::parse(&example_secret(), &op).unwrap_err(),
            CredentialError::SecretPrefix("abc/apisecret/".into())
        );
        // 'abc/apisecret/' + 38 characters: 52, whole Base64 quanta.
        let body = "Q".repeat(38);
        assert!(ApiSecret::parse(&format!("abc/apisecret/{body}"), &op).is_ok());
    }
}
