//! Where secrets live: only behind [`SecretStore`], which the app backs with the OS keyring.
//! Values are JSON documents per profile and kind; nothing here derives `Debug` with content.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// What is stored, one entry each per profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SecretItem {
    ApiKey,
    OAuthGrant,
}

impl SecretItem {
    pub fn name(self) -> &'static str {
        match self {
            Self::ApiKey => "api-key",
            Self::OAuthGrant => "oauth-grant",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SecretError {
    #[error("the system keyring is locked or unavailable: {0}")]
    Unavailable(String),
    #[error("a stored secret is damaged; connect again ({0})")]
    Damaged(String),
}

/// The secret store of the OS, or a test double.
pub trait SecretStore: Send + Sync + std::fmt::Debug {
    fn get(&self, profile: &str, item: SecretItem) -> Result<Option<String>, SecretError>;
    fn set(&self, profile: &str, item: SecretItem, value: &str) -> Result<(), SecretError>;
    fn delete(&self, profile: &str, item: SecretItem) -> Result<(), SecretError>;
}

/// For unit tests only: holds nothing across processes, which is exactly why the app never uses it.
#[derive(Debug, Default)]
pub struct MemorySecretStore(Mutex<HashMap<(String, &'static str), String>>);

impl SecretStore for MemorySecretStore {
    fn get(&self, profile: &str, item: SecretItem) -> Result<Option<String>, SecretError> {
        Ok(self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&(profile.to_owned(), item.name()))
            .cloned())
    }

    fn set(&self, profile: &str, item: SecretItem, value: &str) -> Result<(), SecretError> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert((profile.to_owned(), item.name()), value.to_owned());
        Ok(())
    }

    fn delete(&self, profile: &str, item: SecretItem) -> Result<(), SecretError> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&(profile.to_owned(), item.name()));
        Ok(())
    }
}

/// An API key as stored.
#[derive(Clone, Serialize, Deserialize)]
pub struct StoredKey {
    pub key: String,
    pub secret: String,
}

impl std::fmt::Debug for StoredKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoredKey(<redacted>)")
    }
}

/// An OAuth grant as stored.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredGrant {
    pub client_id: String,
    pub access: String,
    pub refresh: Option<String>,
    pub expires_at: Option<DateTime<Utc>>,
    /// What the token response said was granted; `None` when it did not say (known only by use).
    pub scopes: Option<Vec<String>>,
}

impl std::fmt::Debug for StoredGrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredGrant")
            .field("client_id", &self.client_id)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

pub fn read<T: for<'de> Deserialize<'de>>(
    store: &dyn SecretStore,
    profile: &str,
    item: SecretItem,
) -> Result<Option<T>, SecretError> {
    store
        .get(profile, item)?
        .map(|text| {
            serde_json::from_str(&text).map_err(|_| SecretError::Damaged(item.name().to_owned()))
        })
        .transpose()
}

pub fn write<T: Serialize>(
    store: &dyn SecretStore,
    profile: &str,
    item: SecretItem,
    value: &T,
) -> Result<(), SecretError> {
    let text = serde_json::to_string(value).map_err(|e| SecretError::Damaged(e.to_string()))?;
    store.set(profile, item, &text)
}
