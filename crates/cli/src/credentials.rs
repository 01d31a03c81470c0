//! Where the CLI finds credentials: the environment first, then the OS keyring, where `login`
//! puts them with the exchange they are for (and `logout` takes them away). Never argv.

use std::io::BufRead;
use std::sync::Arc;

use nordlys_exchange::credentials::BearerCredentials;
use nordlys_exchange::nonce::SystemClock;
use nordlys_exchange::{
    AccessToken, ApiKey, ApiSecret, BaseUrl, Credentials, KeyCredentials, NonceSource, Operator,
};
use serde::{Deserialize, Serialize};

use crate::environment::{self, EnvCredentials};

const KEYRING_SERVICE: &str = "nordlys-cli";
/// The keyring's entries, as `login` writes them.
const API_KEY: &str = "api-key";
const API_SECRET: &str = "api-secret";
const ACCESS_TOKEN: &str = "access-token";
/// The exchange the stored secrets are for: they are sent nowhere else.
const ORIGIN: &str = "origin";

/// Where `login` keeps secrets: the OS keyring, or a double in tests.
pub trait Keyring {
    /// `None` when absent; an error when the keyring cannot be read (locked, no service).
    fn get(&self, entry: &str) -> Result<Option<String>, String>;
    fn set(&self, entry: &str, value: &str) -> Result<(), String>;
    /// Whether there was one to delete.
    fn delete(&self, entry: &str) -> Result<bool, String>;
}

/// The OS keyring, service `nordlys-cli`.
#[derive(Debug)]
pub struct OsKeyring;

impl Keyring for OsKeyring {
    fn get(&self, entry: &str) -> Result<Option<String>, String> {
        match keyring::Entry::new(KEYRING_SERVICE, entry).and_then(|e| e.get_password()) {
            Ok(value) => Ok(Some(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(format!(
                "the keyring cannot be read ({e}); unlock it, or set the credentials in the environment"
            )),
        }
    }

    fn set(&self, entry: &str, value: &str) -> Result<(), String> {
        keyring::Entry::new(KEYRING_SERVICE, entry)
            .and_then(|e| e.set_password(value))
            .map_err(|e| format!("the keyring: {e}"))
    }

    fn delete(&self, entry: &str) -> Result<bool, String> {
        match keyring::Entry::new(KEYRING_SERVICE, entry).and_then(|e| e.delete_credential()) {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(format!("the keyring: {e}")),
        }
    }
}

/// The exchange stored secrets belong to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Origin {
    base_url: String,
    operator: String,
}

fn origin_of(base_url: &str, operator: &Operator) -> Result<Origin, String> {
    let base = BaseUrl::parse(base_url).map_err(|e| e.to_string())?;
    Ok(Origin {
        base_url: base.to_string(),
        operator: operator.to_string(),
    })
}

/// The credentials, with the key and secret prefixes of `operator`: from the environment when
/// any of its variables is set, else from the keyring, and then only when they were stored for
/// `base_url` and `operator` (secrets entered for one exchange are never sent to another).
pub fn load(
    operator: &Operator,
    base_url: Option<&str>,
    keyring: &dyn Keyring,
    env: EnvCredentials,
) -> Result<Credentials, String> {
    let env_set = env.any();
    let read = |set: Option<String>, entry: &str| {
        if env_set { Ok(set) } else { keyring.get(entry) }
    };
    let (key, secret, token) = (
        read(env.key, API_KEY),
        read(env.secret, API_SECRET),
        read(env.token, ACCESS_TOKEN),
    );
    // A keyring that cannot be read at all gives nothing to send (public commands still work);
    // one read in part is refused: the secret read must not go out without the rest.
    let found = [&key, &secret, &token]
        .iter()
        .any(|r| matches!(r, Ok(Some(_))));
    let (key, secret, token) = if found {
        (key?, secret?, token?)
    } else {
        (None, None, None)
    };
    let from_keyring = !env_set && found;
    if from_keyring && let Some(base) = base_url {
        // Secrets without a record of their exchange are sent nowhere: fail closed.
        let Some(stored) = keyring.get(ORIGIN)? else {
            return Err("the keyring holds credentials without a record of the exchange they are for; run `nordlys-cli logout`, then `login`".to_owned());
        };
        let stored: Origin = serde_json::from_str(&stored)
            .map_err(|_| "the keyring's record of where its secrets belong is damaged; run `nordlys-cli logout`, then `login`".to_owned())?;
        let here = origin_of(base, operator)?;
        if stored != here {
            return Err(format!(
                "the keyring holds credentials for {} (operator {}), not for {} (operator {}); run \
                 `nordlys-cli --base-url {} login` to store some for it",
                stored.base_url, stored.operator, here.base_url, here.operator, here.base_url
            ));
        }
    }
    let key = key
        .map(|k| ApiKey::parse(&k, operator).map_err(|e| format!("{}: {e}", environment::API_KEY)))
        .transpose()?;
    let secret = secret
        .map(|s| {
            ApiSecret::parse(&s, operator).map_err(|e| format!("{}: {e}", environment::API_SECRET))
        })
        .transpose()?;
    let token = token
        .map(|t| AccessToken::parse(&t).map_err(|e| format!("{}: {e}", environment::ACCESS_TOKEN)))
        .transpose()?;
    if secret.is_some() && key.is_none() {
        return Err(format!(
            "{} is set but {} is not",
            environment::API_SECRET,
            environment::API_KEY
        ));
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

/// Asks for one line: the prompt, whether to hide what is typed, and where to read it otherwise.
pub type Ask<'a> = dyn FnMut(&str, bool, &mut dyn BufRead) -> Result<String, String> + 'a;

/// What `login` stores: an API key and its secret, or an OAuth access token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginKind {
    Key,
    Token,
}

/// Reads the secrets from `input` (a line each: key, then secret; or the token), checks them,
/// and only then stores them in `keyring` with the exchange they are for, replacing what was
/// there. `ask` prompts for a line; given the prompt and whether to hide what is typed.
pub fn login(
    kind: LoginKind,
    base_url: &str,
    operator: &Operator,
    keyring: &dyn Keyring,
    input: &mut dyn BufRead,
    ask: &mut Ask<'_>,
) -> Result<serde_json::Value, String> {
    let origin = origin_of(base_url, operator)?;
    let stored: Vec<(&str, String)> = match kind {
        LoginKind::Key => {
            let key = ask("API key: ", false, input)?;
            ApiKey::parse(&key, operator).map_err(|e| format!("the API key: {e}"))?;
            let secret = ask("API secret: ", true, input)?;
            ApiSecret::parse(&secret, operator).map_err(|e| format!("the API secret: {e}"))?;
            vec![(API_KEY, key), (API_SECRET, secret)]
        }
        LoginKind::Token => {
            let token = ask("OAuth access token: ", true, input)?;
            AccessToken::parse(&token).map_err(|e| format!("the access token: {e}"))?;
            vec![(ACCESS_TOKEN, token)]
        }
    };
    for entry in [API_KEY, API_SECRET, ACCESS_TOKEN, ORIGIN] {
        keyring.delete(entry)?;
    }
    let record = serde_json::to_string(&origin).map_err(|e| e.to_string())?;
    keyring.set(ORIGIN, &record)?;
    for (entry, value) in &stored {
        keyring.set(entry, value)?;
    }
    Ok(serde_json::json!({
        "stored": stored.iter().map(|(e, _)| *e).collect::<Vec<_>>(),
        "baseUrl": origin.base_url,
        "operator": origin.operator,
    }))
}

/// One line of `input`, without its line end; an empty one is refused.
pub fn read_line(prompt: &str, input: &mut dyn BufRead) -> Result<String, String> {
    let mut line = String::new();
    input
        .read_line(&mut line)
        .map_err(|e| format!("cannot read {}: {e}", prompt.trim_end_matches([':', ' '])))?;
    let value = line.trim().to_owned();
    if value.is_empty() {
        return Err(format!(
            "no {} given (one line each on standard input)",
            prompt.trim_end_matches([':', ' '])
        ));
    }
    Ok(value)
}

/// Removes every secret `login` stored, and where they were for.
pub fn logout(keyring: &dyn Keyring) -> Result<serde_json::Value, String> {
    let mut removed = Vec::new();
    for entry in [API_KEY, API_SECRET, ACCESS_TOKEN, ORIGIN] {
        if keyring.delete(entry)? {
            removed.push(entry);
        }
    }
    Ok(serde_json::json!({ "removed": removed }))
}

/// Nonces for the key survive between runs in the user's state directory, in a file named by the
/// key's fingerprint (the key itself is not written down): the one an app profile in the same
/// directory uses for that key.
pub fn nonce_source(creds: &Credentials) -> Result<Option<Arc<NonceSource>>, String> {
    if creds.key.as_ref().is_none_or(|k| k.secret.is_none()) {
        return Ok(None);
    }
    let dir = environment::state_dir()?;
    NonceSource::per_key(dir.join("nonces"), None, Arc::new(SystemClock))
        .map(|s| Some(Arc::new(s)))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use std::collections::HashMap;
    use std::sync::Mutex;

    use super::*;

    #[derive(Default)]
    struct MemoryKeyring(Mutex<HashMap<String, String>>);

    impl Keyring for MemoryKeyring {
        fn get(&self, entry: &str) -> Result<Option<String>, String> {
            Ok(self.0.lock().unwrap().get(entry).cloned())
        }
        fn set(&self, entry: &str, value: &str) -> Result<(), String> {
            self.0.lock().unwrap().insert(entry.into(), value.into());
            Ok(())
        }
        fn delete(&self, entry: &str) -> Result<bool, String> {
            Ok(self.0.lock().unwrap().remove(entry).is_some())
        }
    }

    fn lines(prompt: &str, _hidden: bool, input: &mut dyn BufRead) -> Result<String, String> {
        read_line(prompt, input)
    }

    const KEY: &str = "svc/public/0123456789abcdef";

    /// The example secret of `shared/vectors/signatures.json`: read from the vectors, so no
    /// secret-looking literal is committed in the code.
    fn secret() -> String {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../../../../shared/vectors/signatures.json"))
                .unwrap();
        doc["cases"][1]["secret"].as_str().unwrap().to_owned()
    }

    #[test]
    fn login_stores_checked_secrets_for_one_exchange_and_logout_removes_them() {
        let keyring = MemoryKeyring::default();
        let op = Operator::default();
        let mut input = std::io::Cursor::new(format!("{KEY}\n{}\n", secret()));
        let said = login(
            LoginKind::Key,
            "http://127.0.0.1:8080/",
            &op,
            &keyring,
            &mut input,
            &mut lines,
        )
        .unwrap();
        assert_eq!(said["stored"], serde_json::json!(["api-key", "api-secret"]));
        assert_eq!(said["baseUrl"], "http://127.0.0.1:8080");
        let here = load(
            &op,
            Some("http://127.0.0.1:8080"),
            &keyring,
            EnvCredentials::default(),
        )
        .unwrap();
        assert!(here.key.is_some_and(|k| k.secret.is_some()));
        // Another exchange is not given them.
        let elsewhere = load(
            &op,
            Some("https://api.example.no"),
            &keyring,
            EnvCredentials::default(),
        )
        .unwrap_err();
        assert!(elsewhere.contains("login"), "{elsewhere}");
        let removed = logout(&keyring).unwrap();
        assert_eq!(
            removed["removed"],
            serde_json::json!(["api-key", "api-secret", "origin"])
        );
        assert!(keyring.0.lock().unwrap().is_empty());
    }

    #[test]
    fn a_malformed_secret_is_refused_and_nothing_is_stored() {
        let keyring = MemoryKeyring::default();
        let op = Operator::default();
        for text in [
            "not-a-key\nx\n".to_owned(),
            format!("{KEY}\n\n"),
            String::new(),
        ] {
            let mut input = std::io::Cursor::new(text);
            let refused = login(
                LoginKind::Key,
                "http://127.0.0.1:8080",
                &op,
                &keyring,
                &mut input,
                &mut lines,
            );
            assert!(refused.is_err());
            assert!(keyring.0.lock().unwrap().is_empty());
        }
        let mut input = std::io::Cursor::new(format!("{KEY}\n{}\n", secret()));
        assert!(
            login(
                LoginKind::Key,
                "http://evil.example",
                &op,
                &keyring,
                &mut input,
                &mut lines
            )
            .is_err()
        );
    }

    /// A keyring whose entry `broken` cannot be read, as a locked one answers.
    struct PartlyLocked {
        inner: MemoryKeyring,
        broken: &'static str,
    }

    impl Keyring for PartlyLocked {
        fn get(&self, entry: &str) -> Result<Option<String>, String> {
            if entry == self.broken {
                Err("the keyring cannot be read (locked)".into())
            } else {
                self.inner.get(entry)
            }
        }
        fn set(&self, entry: &str, value: &str) -> Result<(), String> {
            self.inner.set(entry, value)
        }
        fn delete(&self, entry: &str) -> Result<bool, String> {
            self.inner.delete(entry)
        }
    }

    #[test]
    fn secrets_whose_exchange_is_unknown_or_unreadable_are_not_used() {
        let op = Operator::default();
        let base = Some("http://127.0.0.1:8080");
        let stored = || {
            let keyring = MemoryKeyring::default();
            let mut input = std::io::Cursor::new(format!("{KEY}\n{}\n", secret()));
            login(
                LoginKind::Key,
                "http://127.0.0.1:8080",
                &op,
                &keyring,
                &mut input,
                &mut lines,
            )
            .unwrap();
            keyring
        };
        // The record of the exchange is gone: refused, not sent anywhere.
        let keyring = stored();
        keyring.0.lock().unwrap().remove(ORIGIN);
        let e = load(&op, base, &keyring, EnvCredentials::default()).unwrap_err();
        assert!(e.contains("without a record"), "{e}");
        // The record cannot be read, or the secret cannot while the key can: refused.
        for broken in [ORIGIN, API_SECRET] {
            let keyring = PartlyLocked {
                inner: stored(),
                broken,
            };
            let e = load(&op, base, &keyring, EnvCredentials::default()).unwrap_err();
            assert!(e.contains("cannot be read"), "{broken}: {e}");
        }
        // No keyring at all: nothing to send, and no error (public commands need none).
        struct Absent;
        impl Keyring for Absent {
            fn get(&self, _: &str) -> Result<Option<String>, String> {
                Err("no keyring service".into())
            }
            fn set(&self, _: &str, _: &str) -> Result<(), String> {
                Err("no keyring service".into())
            }
            fn delete(&self, _: &str) -> Result<bool, String> {
                Err("no keyring service".into())
            }
        }
        let none = load(&op, base, &Absent, EnvCredentials::default()).unwrap();
        assert!(none.key.is_none() && none.bearer.is_none());
    }
}
