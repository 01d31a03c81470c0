//! The OS keyring (Secret Service on Linux, the Keychain on macOS, the Credential Manager on
//! Windows) as the app's only secret store. Here, not in the app's shell, because the CLI pointed
//! at an app profile reads the same entries (the store's key above all).

use super::secrets::{SecretError, SecretItem, SecretStore};

/// Service name of every entry; the user name is `<profile>:<item>`, or `app-lock`.
pub const SERVICE: &str = "no.nordlys.desktop";

#[derive(Debug, Default)]
pub struct KeyringStore;

fn entry(profile: &str, item: SecretItem) -> Result<keyring::Entry, SecretError> {
    keyring::Entry::new(SERVICE, &item.user(profile))
        .map_err(|e| SecretError::Unavailable(e.to_string()))
}

impl SecretStore for KeyringStore {
    fn get(&self, profile: &str, item: SecretItem) -> Result<Option<String>, SecretError> {
        match entry(profile, item)?.get_password() {
            Ok(v) => Ok(Some(v)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(SecretError::Unavailable(e.to_string())),
        }
    }

    fn set(&self, profile: &str, item: SecretItem, value: &str) -> Result<(), SecretError> {
        entry(profile, item)?
            .set_password(value)
            .map_err(|e| SecretError::Unavailable(e.to_string()))
    }

    fn delete(&self, profile: &str, item: SecretItem) -> Result<(), SecretError> {
        match entry(profile, item)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(SecretError::Unavailable(e.to_string())),
        }
    }
}
