//! OAuth 2.0 token calls (5.4) through the `oauth2` crate: the authorize URL with PKCE S256, the
//! code exchange and the refresh. The interactive part (browser, loopback listener) is the app's.
//!
//! Our reading of what 5.4 leaves open (`spec/notes.md`): standard token response fields, scopes
//! separated by spaces, client credentials sent in the form body.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use oauth2::basic::{BasicClient, BasicErrorResponse, BasicRequestTokenError};
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, HttpClientError, RedirectUrl,
    TokenResponse, TokenUrl,
};
pub use oauth2::{CsrfToken, PkceCodeChallenge, PkceCodeVerifier};
use url::Url;

use crate::base_url::BaseUrl;
use crate::client::ExchangeClient;
use crate::credentials::{AccessToken, BearerCredentials, RefreshToken};
use crate::models::Scope;

pub const AUTHORIZE_PATH: &str = "/oauth2/v0/authorize";
pub const TOKEN_PATH: &str = "/oauth2/v0/token";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OAuthError {
    #[error("the authorization server refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Rejected {
        error: String,
        description: Option<String>,
    },
    #[error("could not reach the token endpoint: {0}")]
    Transport(String),
    #[error("the token endpoint's answer could not be read: {0}")]
    Malformed(String),
    #[error("OAuth settings are invalid: {0}")]
    Config(String),
}

impl OAuthError {
    /// The grant is dead (revoked, expired, reused): the user must connect again.
    pub fn needs_reconnect(&self) -> bool {
        matches!(self, Self::Rejected { error, .. } if error == "invalid_grant" || error == "invalid_client" || error == "unauthorized_client")
    }
}

/// A registered application: client id (and secret, for confidential clients) and its redirect.
#[derive(Clone)]
pub struct OAuthApp {
    pub client_id: String,
    pub client_secret: Option<String>,
    pub redirect_uri: Url,
}

impl std::fmt::Debug for OAuthApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthApp")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("redirect_uri", &self.redirect_uri.as_str())
            .finish()
    }
}

/// What a successful token call gives.
#[derive(Debug, Clone)]
pub struct TokenSet {
    pub access: AccessToken,
    pub refresh: Option<RefreshToken>,
    pub expires_at: Option<DateTime<Utc>>,
    /// `None` when the server did not say (then the requested scopes were granted, RFC 6749 §5.1).
    pub scopes: Option<BTreeSet<Scope>>,
}

impl TokenSet {
    pub fn bearer(&self) -> BearerCredentials {
        BearerCredentials {
            token: self.access.clone(),
            scopes: self.scopes.clone(),
            refused: std::collections::BTreeSet::new(),
            expires_at: self.expires_at,
        }
    }
}

/// The URL to open in the browser, with the state to check on return and the PKCE verifier to send
/// with the code.
#[derive(Debug)]
pub struct AuthorizationRequest {
    pub url: Url,
    pub state: CsrfToken,
    pub verifier: PkceCodeVerifier,
}

type Configured = oauth2::Client<
    BasicErrorResponse,
    oauth2::basic::BasicTokenResponse,
    oauth2::basic::BasicTokenIntrospectionResponse,
    oauth2::StandardRevocableToken,
    oauth2::basic::BasicRevocationErrorResponse,
    oauth2::EndpointSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointNotSet,
    oauth2::EndpointSet,
>;

fn configured(base: &BaseUrl, app: &OAuthApp) -> Result<Configured, OAuthError> {
    let auth = AuthUrl::from_url(base.join(AUTHORIZE_PATH));
    let token = TokenUrl::from_url(base.join(TOKEN_PATH));
    let redirect = RedirectUrl::from_url(app.redirect_uri.clone());
    if app.client_id.trim().is_empty() {
        return Err(OAuthError::Config("the client id is empty".into()));
    }
    let mut client = BasicClient::new(ClientId::new(app.client_id.clone()))
        .set_auth_uri(auth)
        .set_token_uri(token)
        .set_redirect_uri(redirect)
        .set_auth_type(AuthType::RequestBody);
    if let Some(secret) = &app.client_secret {
        client = client.set_client_secret(ClientSecret::new(secret.clone()));
    }
    Ok(client)
}

/// Builds the authorize URL with a fresh state and a PKCE S256 challenge.
pub fn authorization_request(
    base: &BaseUrl,
    app: &OAuthApp,
    scopes: &[Scope],
) -> Result<AuthorizationRequest, OAuthError> {
    let client = configured(base, app)?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, state) = client
        .authorize_url(CsrfToken::new_random)
        .add_scopes(scopes.iter().map(|s| oauth2::Scope::new(s.to_string())))
        .set_pkce_challenge(challenge)
        .url();
    Ok(AuthorizationRequest {
        url,
        state,
        verifier,
    })
}

fn token_set(response: &oauth2::basic::BasicTokenResponse) -> Result<TokenSet, OAuthError> {
    let access = AccessToken::parse(response.access_token().secret())
        .map_err(|e| OAuthError::Malformed(format!("access_token: {e}")))?;
    let expires_at = response
        .expires_in()
        .and_then(|d| chrono::Duration::from_std(d).ok())
        .map(|d| Utc::now() + d);
    let scopes = response
        .scopes()
        .map(|s| s.iter().map(|x| Scope::from(x.as_str())).collect());
    Ok(TokenSet {
        access,
        refresh: response
            .refresh_token()
            .map(|r| RefreshToken::new(r.secret().clone())),
        expires_at,
        scopes,
    })
}

fn request_error(e: BasicRequestTokenError<HttpClientError<reqwest::Error>>) -> OAuthError {
    match e {
        oauth2::RequestTokenError::ServerResponse(r) => OAuthError::Rejected {
            error: r.error().as_ref().to_owned(),
            description: r.error_description().cloned(),
        },
        oauth2::RequestTokenError::Request(r) => OAuthError::Transport(r.to_string()),
        oauth2::RequestTokenError::Parse(p, _) => OAuthError::Malformed(p.to_string()),
        oauth2::RequestTokenError::Other(o) => OAuthError::Malformed(o),
    }
}

impl ExchangeClient {
    /// Trades an authorization code (with its PKCE verifier) for tokens.
    pub async fn exchange_code(
        &self,
        app: &OAuthApp,
        code: &str,
        verifier: PkceCodeVerifier,
    ) -> Result<TokenSet, OAuthError> {
        let client = configured(self.oauth_base_url(), app)?;
        let http = self.http().clone();
        let response = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .set_pkce_verifier(verifier)
            .request_async(&|r| crate::body::oauth_call(http.clone(), r))
            .await
            .map_err(request_error)?;
        token_set(&response)
    }

    /// Trades a refresh token for new tokens. The server rotates it: store the new one before use.
    pub async fn refresh_token(
        &self,
        app: &OAuthApp,
        refresh: &RefreshToken,
    ) -> Result<TokenSet, OAuthError> {
        let client = configured(self.oauth_base_url(), app)?;
        let rt = oauth2::RefreshToken::new(refresh.expose().to_owned());
        let http = self.http().clone();
        let response = client
            .exchange_refresh_token(&rt)
            .request_async(&|r| crate::body::oauth_call(http.clone(), r))
            .await
            .map_err(request_error)?;
        token_set(&response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PKCE: &str = include_str!("../../../../shared/vectors/pkce.json");

    #[test]
    fn rfc7636_appendix_b_pair() {
        let v: serde_json::Value = serde_json::from_str(PKCE).unwrap();
        let verifier = PkceCodeVerifier::new(v["code_verifier"].as_str().unwrap().to_owned());
        let challenge = PkceCodeChallenge::from_code_verifier_sha256(&verifier);
        assert_eq!(challenge.as_str(), v["code_challenge"].as_str().unwrap());
        assert_eq!(challenge.method().as_str(), "S256");
    }

    #[test]
    fn authorize_url_carries_state_pkce_and_scopes() {
        let base = BaseUrl::parse("http://127.0.0.1:9").unwrap();
        let app = OAuthApp {
            client_id: "nordlys".into(),
            client_secret: None,
            redirect_uri: Url::parse("http://127.0.0.1:5555/callback").unwrap(),
        };
        let req = authorization_request(
            &base,
            &app,
            &[Scope::AccountsBitcoinRead, Scope::TaxTransactionsRead],
        )
        .unwrap();
        let pairs: std::collections::HashMap<_, _> = req.url.query_pairs().into_owned().collect();
        assert_eq!(req.url.path(), AUTHORIZE_PATH);
        assert_eq!(pairs["response_type"], "code");
        assert_eq!(pairs["client_id"], "nordlys");
        assert_eq!(pairs["redirect_uri"], "http://127.0.0.1:5555/callback");
        assert_eq!(
            pairs["scope"],
            "api:accounts:bitcoin:read api:tax:transactions:read"
        );
        assert_eq!(pairs["code_challenge_method"], "S256");
        assert_eq!(pairs["state"], *req.state.secret());
        let expected = PkceCodeChallenge::from_code_verifier_sha256(&req.verifier);
        assert_eq!(pairs["code_challenge"], expected.as_str());
    }
}
