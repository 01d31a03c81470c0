//! The OAuth 2.0 authorization server (5.4): a consent page, single-use codes bound to client,
//! redirect URI and PKCE challenge, expiring access tokens and rotating refresh tokens whose reuse
//! revokes the whole grant.
//!
//! Token responses use the standard fields (`access_token`, `token_type`, `expires_in`,
//! `refresh_token`, `scope`, space-separated); errors use RFC 6749 §5.2 (`error`,
//! `error_description`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use axum::Form;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use url::Url;

use crate::AppState;
use crate::error::ApiError;
use crate::world::rng::{BASE62, Rng};

/// Scopes of 5.4 with what they let an application do.
pub const SCOPES: [(&str, &str); 5] = [
    (
        "api:accounts:bitcoin:read",
        "See the balance and names of your bitcoin accounts",
    ),
    ("api:trades:read", "See your executed trades"),
    (
        "api:tax:transactions:read",
        "See your transactions relevant for tax",
    ),
    (
        "api:deposits:lightning:read",
        "See your Lightning invoices and whether they are paid",
    ),
    ("api:deposits:lightning:write", "Create Lightning invoices"),
];

const CODE_LIFETIME_SECONDS: i64 = 600;

/// The scope the real exchange grants third-party applications for now.
pub const READ_SCOPE: &str = "api:accounts:bitcoin:read";

/// What the exchange grants third-party applications (`--oauth-scopes`, `--oauth-invalid-scope`,
/// `--oauth-omit-scope`, and `/sandbox/oauth/grants`). Not part of the world: a reset keeps it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrantPolicy {
    /// The scopes granted at most; `None`: every scope of 5.4 (or only [`READ_SCOPE`] when
    /// `invalid_scope` is set).
    pub scopes: Option<Vec<String>>,
    /// A request for a scope outside them is refused with `invalid_scope` instead of narrowed.
    pub invalid_scope: bool,
    /// Token responses leave out `scope`.
    pub omit_scope: bool,
    /// A refresh keeps the refresh token as it is, and its answer carries none (RFC 6749 §6).
    #[serde(default)]
    pub keep_refresh: bool,
}

impl GrantPolicy {
    /// Checks the names: each a scope of 5.4, at least one.
    pub fn check(&self) -> Result<(), String> {
        if let Some(scopes) = &self.scopes {
            if scopes.is_empty() {
                return Err("the granted scopes must name at least one scope".into());
            }
            if let Some(bad) = scopes.iter().find(|s| !is_scope(s)) {
                return Err(format!(
                    "`{bad}` is not a scope of 5.4; the scopes are {}",
                    SCOPES.map(|(k, _)| k).join(", ")
                ));
            }
        }
        Ok(())
    }

    fn grantable(&self, scope: &str) -> bool {
        match &self.scopes {
            Some(s) => s.iter().any(|g| g == scope),
            None => !self.invalid_scope || scope == READ_SCOPE,
        }
    }

    /// What a request for `asked` is granted: the part this policy allows, or `invalid_scope`'s
    /// description when it refuses instead of narrowing (or nothing asked for can be granted).
    fn grant(&self, asked: &[String]) -> Result<Vec<String>, String> {
        let granted: Vec<String> = asked
            .iter()
            .filter(|s| self.grantable(s))
            .cloned()
            .collect();
        if granted.is_empty() || (self.invalid_scope && granted.len() < asked.len()) {
            let allowed: Vec<&str> = SCOPES
                .iter()
                .map(|(k, _)| *k)
                .filter(|k| self.grantable(k))
                .collect();
            return Err(format!(
                "this application may be granted only: {}",
                allowed.join(" ")
            ));
        }
        Ok(granted)
    }
}

fn is_scope(s: &str) -> bool {
    SCOPES.iter().any(|(k, _)| *k == s)
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientRec {
    pub client_id: String,
    pub client_secret: Option<String>,
    pub name: String,
    /// Registered redirect URIs; any port on 127.0.0.1 or [::1] matches (RFC 8252 §7.3).
    pub redirect_uris: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct PendingAuth {
    client_id: String,
    redirect_uri: String,
    scopes: Vec<String>,
    state: Option<String>,
    challenge: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct CodeRec {
    client_id: String,
    redirect_uri: String,
    scopes: Vec<String>,
    challenge: Option<String>,
    expires: DateTime<Utc>,
    used: bool,
    family: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AccessRec {
    pub client_id: String,
    pub scopes: Vec<String>,
    pub expires: DateTime<Utc>,
    pub family: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct RefreshRec {
    client_id: String,
    scopes: Vec<String>,
    family: String,
    active: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OAuthState {
    pub public_client: ClientRec,
    pub confidential_client: ClientRec,
    pub token_ttl_seconds: i64,
    rng: Rng,
    pending: BTreeMap<String, PendingAuth>,
    codes: BTreeMap<String, CodeRec>,
    access: BTreeMap<String, AccessRec>,
    refresh: BTreeMap<String, RefreshRec>,
    revoked_families: BTreeSet<String>,
    #[serde(default)]
    pub policy: GrantPolicy,
}

impl OAuthState {
    pub fn new(rng: &mut Rng) -> Self {
        let uris = vec![
            "http://127.0.0.1/callback".to_owned(),
            "http://[::1]/callback".to_owned(),
        ];
        Self {
            public_client: ClientRec {
                client_id: "nordlys-desktop".into(),
                client_secret: None,
                name: "Nordlys".into(),
                redirect_uris: uris.clone(),
            },
            confidential_client: ClientRec {
                client_id: "nordlys-partner".into(),
                client_secret: Some(format!("cs_{}", rng.text(BASE62, 32))),
                name: "Nordlys Partner Service".into(),
                redirect_uris: uris,
            },
            token_ttl_seconds: 3600,
            rng: Rng::new(rng.next_u64()),
            pending: BTreeMap::new(),
            codes: BTreeMap::new(),
            access: BTreeMap::new(),
            refresh: BTreeMap::new(),
            revoked_families: BTreeSet::new(),
            policy: GrantPolicy::default(),
        }
    }

    fn client(&self, id: &str) -> Option<&ClientRec> {
        [&self.public_client, &self.confidential_client]
            .into_iter()
            .find(|c| c.client_id == id)
    }

    fn random(&mut self, prefix: &str) -> String {
        format!("{prefix}{}", self.rng.text(BASE62, 40))
    }

    /// The grant behind a bearer token, if it is valid now.
    pub fn access_token(&self, token: &str, now: DateTime<Utc>) -> Result<&AccessRec, ApiError> {
        let rec = self
            .access
            .get(token)
            .ok_or_else(|| ApiError::unauthenticated("invalid access token"))?;
        if self.revoked_families.contains(&rec.family) {
            return Err(ApiError::unauthenticated(
                "the access token has been revoked",
            ));
        }
        if rec.expires <= now {
            return Err(ApiError::unauthenticated("the access token has expired"));
        }
        Ok(rec)
    }

    /// Endpoint 12: every grant of `client_id` dies. Returns whether the client exists.
    pub fn revoke_client(&mut self, client_id: &str) -> bool {
        if self.client(client_id).is_none() {
            return false;
        }
        let families: Vec<String> = self
            .access
            .values()
            .map(|a| (&a.client_id, &a.family))
            .chain(self.refresh.values().map(|r| (&r.client_id, &r.family)))
            .filter(|(c, _)| c.as_str() == client_id)
            .map(|(_, f)| f.clone())
            .collect();
        self.revoked_families.extend(families);
        true
    }

    /// World control: every access token expires now.
    pub fn expire_all(&mut self, now: DateTime<Utc>) {
        for a in self.access.values_mut() {
            a.expires = a.expires.min(now);
        }
    }

    fn issue(
        &mut self,
        client_id: &str,
        scopes: Vec<String>,
        family: String,
        now: DateTime<Utc>,
    ) -> serde_json::Value {
        let access = self.random("at_");
        let refresh = self.random("rt_");
        self.access.insert(
            access.clone(),
            AccessRec {
                client_id: client_id.into(),
                scopes: scopes.clone(),
                expires: now + Duration::seconds(self.token_ttl_seconds),
                family: family.clone(),
            },
        );
        self.refresh.insert(
            refresh.clone(),
            RefreshRec {
                client_id: client_id.into(),
                scopes: scopes.clone(),
                family,
                active: true,
            },
        );
        let mut body = serde_json::json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": self.token_ttl_seconds,
            "refresh_token": refresh,
        });
        if !self.policy.omit_scope {
            body["scope"] = scopes.join(" ").into();
        }
        body
    }
}

/// Whether `given` matches a registered URI: same scheme, loopback host and path; any port.
fn redirect_allowed(client: &ClientRec, given: &str) -> bool {
    let Ok(given) = Url::parse(given) else {
        return false;
    };
    if given.fragment().is_some() {
        return false;
    }
    client
        .redirect_uris
        .iter()
        .filter_map(|r| Url::parse(r).ok())
        .any(|r| {
            r.scheme() == given.scheme() && r.host() == given.host() && r.path() == given.path()
        })
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    let body = serde_json::json!({ "error": error, "error_description": description });
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(body),
    )
        .into_response()
}

fn redirect_with(redirect_uri: &str, pairs: &[(&str, &str)]) -> Response {
    match Url::parse(redirect_uri) {
        Ok(mut url) => {
            url.query_pairs_mut()
                .extend_pairs(pairs.iter().filter(|(_, v)| !v.is_empty()));
            Redirect::to(url.as_str()).into_response()
        }
        Err(_) => error_page(
            StatusCode::BAD_REQUEST,
            "The redirect address is not valid.",
        ),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn error_page(status: StatusCode, message: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Authorization error</title></head>\
         <body><h1>Authorization error</h1><p id=\"error\">{}</p></body></html>",
        escape(message)
    );
    (status, Html(html)).into_response()
}

/// GET /oauth2/v0/authorize: checks the request and shows the consent page.
pub async fn authorize(
    State(app): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let mut world = app.lock();
    let oauth = &mut world.oauth;
    let get = |k: &str| q.get(k).map(String::as_str).unwrap_or_default();
    let Some(client) = oauth.client(get("client_id")).cloned() else {
        return error_page(StatusCode::BAD_REQUEST, "Unknown application (client_id).");
    };
    let redirect_uri = get("redirect_uri");
    if !redirect_allowed(&client, redirect_uri) {
        return error_page(
            StatusCode::BAD_REQUEST,
            "The redirect_uri is not registered for this application.",
        );
    }
    let state = get("state");
    let fail = |error: &str, description: &str| {
        redirect_with(
            redirect_uri,
            &[
                ("error", error),
                ("error_description", description),
                ("state", state),
            ],
        )
    };
    if get("response_type") != "code" {
        return fail("unsupported_response_type", "response_type must be code");
    }
    let scopes: Vec<String> = get("scope")
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if scopes.is_empty() || scopes.iter().any(|s| !is_scope(s)) {
        return fail("invalid_scope", "unknown or missing scope");
    }
    // Narrowed silently to what may be granted, or refused (the consent page lists the result).
    let scopes = match oauth.policy.grant(&scopes) {
        Ok(granted) => granted,
        Err(why) => return fail("invalid_scope", &why),
    };
    let challenge = q.get("code_challenge").cloned().filter(|c| !c.is_empty());
    let method = get("code_challenge_method");
    if challenge.is_some() && method != "S256" {
        return fail("invalid_request", "code_challenge_method must be S256");
    }
    if client.client_secret.is_none() && challenge.is_none() {
        return fail(
            "invalid_request",
            "public clients must use PKCE with an S256 code_challenge",
        );
    }
    let consent = oauth.random("consent_");
    oauth.pending.insert(
        consent.clone(),
        PendingAuth {
            client_id: client.client_id.clone(),
            redirect_uri: redirect_uri.to_owned(),
            scopes: scopes.clone(),
            state: q.get("state").cloned(),
            challenge,
        },
    );
    let items: String = scopes
        .iter()
        .map(|s| {
            let what = SCOPES
                .iter()
                .find(|(k, _)| k == s)
                .map(|(_, d)| *d)
                .unwrap_or_default();
            format!(
                "<li><strong>{}</strong><br><code>{}</code></li>",
                escape(what),
                escape(s)
            )
        })
        .collect();
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Authorize {name}</title>\
         <style>body{{font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}}\
         button{{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}}</style></head><body>\
         <p>Sandbox exchange — demo user</p><h1>{name} wants access to your account</h1>\
         <p>It will be able to:</p><ul id=\"scopes\">{items}</ul>\
         <p>It cannot trade or withdraw. You can revoke access at any time.</p>\
         <form method=\"post\" action=\"/oauth2/v0/authorize\">\
         <input type=\"hidden\" name=\"consent\" value=\"{consent}\">\
         <button type=\"submit\" name=\"decision\" value=\"approve\" id=\"approve\">Approve</button>\
         <button type=\"submit\" name=\"decision\" value=\"deny\" id=\"deny\">Deny</button></form></body></html>",
        name = escape(&client.name),
    );
    app.touch();
    Html(html).into_response()
}

#[derive(Debug, Deserialize)]
pub struct ConsentForm {
    consent: String,
    decision: String,
}

/// POST /oauth2/v0/authorize: the user's decision; redirects back with a code or an error.
pub async fn decide(State(app): State<AppState>, Form(form): Form<ConsentForm>) -> Response {
    let mut world = app.lock();
    let now = Utc::now();
    let oauth = &mut world.oauth;
    let Some(p) = oauth.pending.remove(&form.consent) else {
        return error_page(
            StatusCode::BAD_REQUEST,
            "This authorization request is unknown or was already answered.",
        );
    };
    let state = p.state.clone().unwrap_or_default();
    app.touch();
    if form.decision != "approve" {
        return redirect_with(
            &p.redirect_uri,
            &[("error", "access_denied"), ("state", &state)],
        );
    }
    let code = oauth.random("code_");
    let family = oauth.random("fam_");
    oauth.codes.insert(
        code.clone(),
        CodeRec {
            client_id: p.client_id,
            redirect_uri: p.redirect_uri.clone(),
            scopes: p.scopes,
            challenge: p.challenge,
            expires: now + Duration::seconds(CODE_LIFETIME_SECONDS),
            used: false,
            family,
        },
    );
    redirect_with(&p.redirect_uri, &[("code", &code), ("state", &state)])
}

fn basic_auth(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, b64) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(b64.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    let unescape = |s: &str| {
        url::form_urlencoded::parse(format!("x={s}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
    };
    Some((unescape(id)?, unescape(secret)?))
}

/// POST /oauth2/v0/token
pub async fn token(
    State(app): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let mut world = app.lock();
    let now = Utc::now();
    let oauth = &mut world.oauth;
    let get = |k: &str| form.get(k).map(String::as_str).unwrap_or_default();
    let (client_id, secret) = match basic_auth(&headers) {
        Some((id, s)) => (id, Some(s)),
        None => (
            get("client_id").to_owned(),
            form.get("client_secret").cloned(),
        ),
    };
    let Some(client) = oauth.client(&client_id).cloned() else {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "unknown client");
    };
    if let Some(want) = &client.client_secret
        && secret.as_deref() != Some(want.as_str())
    {
        return oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "client authentication failed",
        );
    }
    app.touch();
    match get("grant_type") {
        "authorization_code" => {
            let Some(code) = oauth.codes.get_mut(get("code")) else {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "unknown authorization code",
                );
            };
            if code.used {
                let family = code.family.clone();
                oauth.revoked_families.insert(family);
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "the authorization code was already used",
                );
            }
            code.used = true;
            let code = code.clone();
            if code.expires <= now {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "the authorization code has expired",
                );
            }
            if code.client_id != client.client_id {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "the code was issued to another client",
                );
            }
            if code.redirect_uri != get("redirect_uri") {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "redirect_uri does not match the authorization request",
                );
            }
            if let Some(challenge) = &code.challenge {
                let verifier = get("code_verifier");
                let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
                if verifier.is_empty() || &computed != challenge {
                    return oauth_error(
                        StatusCode::BAD_REQUEST,
                        "invalid_grant",
                        "code_verifier does not match the code_challenge",
                    );
                }
            }
            let body = oauth.issue(&client.client_id, code.scopes, code.family, now);
            (
                StatusCode::OK,
                [(header::CACHE_CONTROL, "no-store")],
                axum::Json(body),
            )
                .into_response()
        }
        "refresh_token" => {
            let Some(rec) = oauth.refresh.get(get("refresh_token")).cloned() else {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "unknown refresh token",
                );
            };
            if rec.client_id != client.client_id {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "the refresh token was issued to another client",
                );
            }
            if oauth.revoked_families.contains(&rec.family) {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "the grant has been revoked",
                );
            }
            if !rec.active {
                // Reuse of a rotated token: somebody has a copy. The whole grant dies.
                oauth.revoked_families.insert(rec.family);
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "refresh token reuse detected; the grant is revoked",
                );
            }
            let scopes = match form.get("scope").map(|s| {
                s.split(' ')
                    .filter(|x| !x.is_empty())
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            }) {
                Some(asked) if !asked.is_empty() => {
                    if asked.iter().any(|s| !rec.scopes.contains(s)) {
                        return oauth_error(
                            StatusCode::BAD_REQUEST,
                            "invalid_scope",
                            "a refresh cannot add scopes",
                        );
                    }
                    asked
                }
                _ => rec.scopes.clone(),
            };
            let keep = oauth.policy.keep_refresh;
            if let Some(r) = oauth.refresh.get_mut(get("refresh_token"))
                && !keep
            {
                r.active = false;
            }
            let mut body = oauth.issue(&client.client_id, scopes, rec.family, now);
            if keep
                && let Some(serde_json::Value::String(fresh)) =
                    body.as_object_mut().and_then(|b| b.remove("refresh_token"))
            {
                oauth.refresh.remove(&fresh);
            }
            (
                StatusCode::OK,
                [(header::CACHE_CONTROL, "no-store")],
                axum::Json(body),
            )
                .into_response()
        }
        "" => oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "grant_type is required",
        ),
        _ => oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "grant_type must be authorization_code or refresh_token",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_loopback_port_matches_but_nothing_else() {
        let mut rng = Rng::new(1);
        let c = OAuthState::new(&mut rng).public_client;
        assert!(redirect_allowed(&c, "http://127.0.0.1:53123/callback"));
        assert!(redirect_allowed(&c, "http://[::1]:8/callback"));
        assert!(redirect_allowed(&c, "http://127.0.0.1/callback"));
        assert!(!redirect_allowed(&c, "http://localhost:5000/callback"));
        assert!(!redirect_allowed(&c, "http://127.0.0.1:5000/other"));
        assert!(!redirect_allowed(&c, "https://evil.example/callback"));
        assert!(!redirect_allowed(&c, "http://127.0.0.1:5000/callback#x"));
        assert!(!redirect_allowed(&c, "not a url"));
    }
}
