//! Every environment variable the CLI reads, named and read here and nowhere else: the flags'
//! defaults (clap reads those by these names), the credentials and the state directory.

use std::path::PathBuf;

pub const BASE_URL: &str = "NORDLYS_BASE_URL";
pub const TIMEOUT: &str = "NORDLYS_TIMEOUT";
pub const OPERATOR: &str = "NORDLYS_OPERATOR";
pub const API_KEY: &str = "NORDLYS_API_KEY";
pub const API_SECRET: &str = "NORDLYS_API_SECRET";
pub const ACCESS_TOKEN: &str = "NORDLYS_ACCESS_TOKEN";
const STATE_DIR: &str = "NORDLYS_STATE_DIR";
/// Debug builds only: a directory standing in for the app's keyring (the tests' shared double).
#[cfg(debug_assertions)]
const TEST_KEYRING_DIR: &str = "NORDLYS_TEST_KEYRING_DIR";

/// The credentials set in the environment; a variable set to blanks counts as unset.
#[derive(Default)]
pub struct EnvCredentials {
    pub key: Option<String>,
    pub secret: Option<String>,
    pub token: Option<String>,
}

impl EnvCredentials {
    pub fn read() -> Self {
        let var = |name| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Self {
            key: var(API_KEY),
            secret: var(API_SECRET),
            token: var(ACCESS_TOKEN),
        }
    }

    /// Whether any is set: then the environment is the only source, the keyring is not read.
    pub fn any(&self) -> bool {
        self.key.is_some() || self.secret.is_some() || self.token.is_some()
    }
}

/// `$NORDLYS_STATE_DIR`, else `${XDG_STATE_HOME:-$HOME/.local/state}/nordlys-cli`: the same
/// layout as an app profile's directory, so both can share one store.
pub fn state_dir() -> Result<PathBuf, String> {
    let var = |name| std::env::var_os(name).filter(|d| !d.is_empty());
    if let Some(d) = var(STATE_DIR) {
        return Ok(PathBuf::from(d));
    }
    let base = match var("XDG_STATE_HOME") {
        Some(d) => PathBuf::from(d),
        None => var("HOME")
            .map(|h| PathBuf::from(h).join(".local").join("state"))
            .ok_or("no state directory: set NORDLYS_STATE_DIR or HOME")?,
    };
    Ok(base.join("nordlys-cli"))
}

/// The app profile whose directory `dir` is: its name, when its parent is the app's `profiles`.
pub fn app_profile_of(dir: &std::path::Path) -> Option<String> {
    let parent = dir.parent()?;
    (parent.file_name()? == "profiles")
        .then(|| dir.file_name()?.to_str().map(str::to_owned))
        .flatten()
}

/// The app's secrets, where the key of an app profile's store is: the OS keyring (service
/// `no.nordlys.desktop`), or in a debug build the directory `$NORDLYS_TEST_KEYRING_DIR` names.
pub fn app_secrets() -> Box<dyn nordlys_core::platform::secrets::SecretStore> {
    #[cfg(debug_assertions)]
    if let Some(dir) = std::env::var_os(TEST_KEYRING_DIR).filter(|d| !d.is_empty()) {
        return Box::new(nordlys_core::platform::secrets::FileSecretStore::new(dir));
    }
    Box::new(nordlys_core::platform::keyring::KeyringStore)
}

impl std::fmt::Debug for EnvCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnvCredentials")
            .field("key", &self.key.is_some())
            .field("secret", &self.secret.as_ref().map(|_| "[redacted]"))
            .field("token", &self.token.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}
