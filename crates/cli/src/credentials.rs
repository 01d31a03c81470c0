//! Where the CLI finds credentials: the environment first, then the OS keyring. Never argv.

use std::sync::Arc;

use nordlys_exchange::credentials::BearerCredentials;
use nordlys_exchange::nonce::SystemClock;
use nordlys_exchange::{
    AccessToken, ApiKey, ApiSecret, Credentials, KeyCredentials, NonceSource, Operator,
};

const KEYRING_SERVICE: &str = "nordlys-cli";

// keyring 3 without a store feature keeps secrets in memory and loses them at exit, silently.
#[cfg(not(any(
    target_os = "linux",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "macos",
    target_os = "ios",
    target_os = "windows"
)))]
compile_error!(
    "no OS keyring store is enabled for this target: add keyring's feature for it in Cargo.toml \
     (scripts/check-keyring lists those in use)"
);

fn from_env_or_keyring(var: &str, entry: &str) -> Option<String> {
    if let Ok(v) = std::env::var(var)
        && !v.trim().is_empty()
    {
        return Some(v);
    }
    // A missing or locked keyring is the same as an empty one here: the error that follows names
    // the environment variables to set.
    keyring::Entry::new(KEYRING_SERVICE, entry)
        .ok()?
        .get_password()
        .ok()
}

/// The credentials, with the key and secret prefixes of `operator`.
pub fn load(operator: &Operator) -> Result<Credentials, String> {
    let env_set = [
        "NORDLYS_API_KEY",
        "NORDLYS_API_SECRET",
        "NORDLYS_ACCESS_TOKEN",
    ]
    .iter()
    .any(|v| std::env::var(v).is_ok_and(|x| !x.trim().is_empty()));
    let read = |var: &str, entry: &str| {
        if env_set {
            std::env::var(var).ok().filter(|v| !v.trim().is_empty())
        } else {
            from_env_or_keyring(var, entry)
        }
    };
    let key = read("NORDLYS_API_KEY", "api-key")
        .map(|k| ApiKey::parse(&k, operator).map_err(|e| format!("NORDLYS_API_KEY: {e}")))
        .transpose()?;
    let secret = read("NORDLYS_API_SECRET", "api-secret")
        .map(|s| ApiSecret::parse(&s, operator).map_err(|e| format!("NORDLYS_API_SECRET: {e}")))
        .transpose()?;
    let token = read("NORDLYS_ACCESS_TOKEN", "access-token")
        .map(|t| AccessToken::parse(&t).map_err(|e| format!("NORDLYS_ACCESS_TOKEN: {e}")))
        .transpose()?;
    if secret.is_some() && key.is_none() {
        return Err("NORDLYS_API_SECRET is set but NORDLYS_API_KEY is not".into());
    }
    Ok(Credentials {
        key: key.map(|key| KeyCredentials {
            key,
            secret,
            permissions: None,
        }),
        bearer: token.map(|token| BearerCredentials {
            token,
            scopes: None,
            refused: std::collections::BTreeSet::new(),
            expires_at: None,
        }),
    })
}

/// Nonces for the key survive between runs in the user's state directory, under a name derived
/// from the key (the key itself is not written down).
pub fn nonce_source(creds: &Credentials) -> Result<Option<Arc<NonceSource>>, String> {
    let Some(key) = creds.key.as_ref().filter(|k| k.secret.is_some()) else {
        return Ok(None);
    };
    let dir = crate::journal::state_dir()?;
    let name = nordlys_core::evidence::key_fingerprint(key.key.expose());
    let path = dir.join("nonces").join(name);
    NonceSource::persistent(path, Arc::new(SystemClock))
        .map(|s| Some(Arc::new(s)))
        .map_err(|e| e.to_string())
}
