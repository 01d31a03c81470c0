//! Where secrets live: only behind [`SecretStore`], which the app backs with the OS keyring.
//! Values are JSON documents per profile and kind; nothing here derives `Debug` with content.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, ZeroizeOnDrop};

// The app and the CLI keep secrets in the OS keyring through `keyring` 3, which without a store
// feature for the target falls back to memory and loses them at exit, silently. Both depend on
// this crate, so a desktop target without a store enabled in their Cargo.toml stops here
// (scripts/check-targets shows the features in use).
#[cfg(not(any(
    target_os = "linux",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "macos",
    target_os = "ios",
    target_os = "windows"
)))]
compile_error!(
    "no OS keyring store is enabled for this target: add keyring's feature for it to the \
     target tables of src-tauri/Cargo.toml and crates/cli/Cargo.toml"
);

/// What is stored, one entry each per profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SecretItem {
    ApiKey,
    OAuthGrant,
    /// The key that seals saved recipients' details (`recipient_seal`).
    RecipientKey,
    /// The app lock's password hash (`app_lock`), one for the app whatever the profile.
    AppLock,
    /// The key the profile's store is encrypted with (`store::at_rest`).
    StoreKey,
}

impl SecretItem {
    pub fn name(self) -> &'static str {
        match self {
            Self::ApiKey => "api-key",
            Self::OAuthGrant => "oauth-grant",
            Self::RecipientKey => "recipient-key",
            Self::AppLock => "app-lock",
            Self::StoreKey => "store-key",
        }
    }

    /// The keyring's user name of this item of `profile`: `<profile>:<item>`, or the item's name
    /// alone for what belongs to the app (`app-lock`, which the README tells how to delete).
    pub fn user(self, profile: &str) -> String {
        match self {
            Self::AppLock => self.name().to_owned(),
            _ => format!("{profile}:{}", self.name()),
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
pub struct MemorySecretStore(Mutex<HashMap<String, String>>);

impl SecretStore for MemorySecretStore {
    fn get(&self, profile: &str, item: SecretItem) -> Result<Option<String>, SecretError> {
        Ok(self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&item.user(profile))
            .cloned())
    }

    fn set(&self, profile: &str, item: SecretItem, value: &str) -> Result<(), SecretError> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(item.user(profile), value.to_owned());
        Ok(())
    }

    fn delete(&self, profile: &str, item: SecretItem) -> Result<(), SecretError> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&item.user(profile));
        Ok(())
    }
}

/// For tests only, and only in debug builds: a keyring that is locked, every call refused as the
/// Secret Service refuses while its collection is locked.
#[cfg(debug_assertions)]
#[derive(Debug, Default)]
pub struct LockedSecretStore;

#[cfg(debug_assertions)]
impl SecretStore for LockedSecretStore {
    fn get(&self, _: &str, _: SecretItem) -> Result<Option<String>, SecretError> {
        Err(locked())
    }
    fn set(&self, _: &str, _: SecretItem, _: &str) -> Result<(), SecretError> {
        Err(locked())
    }
    fn delete(&self, _: &str, _: SecretItem) -> Result<(), SecretError> {
        Err(locked())
    }
}

#[cfg(debug_assertions)]
fn locked() -> SecretError {
    SecretError::Unavailable("the collection is locked".into())
}

/// For tests only, and only in debug builds: a keyring shared between processes, one file per
/// entry in a directory, so a test's app and the CLI it starts see the same entries (the store's
/// key above all) without a Secret Service. Never a release build's store.
#[cfg(debug_assertions)]
#[derive(Debug)]
pub struct FileSecretStore(std::path::PathBuf);

#[cfg(debug_assertions)]
impl FileSecretStore {
    pub fn new(dir: impl Into<std::path::PathBuf>) -> Self {
        Self(dir.into())
    }

    fn file(&self, profile: &str, item: SecretItem) -> std::path::PathBuf {
        self.0.join(item.user(profile))
    }
}

#[cfg(debug_assertions)]
impl SecretStore for FileSecretStore {
    fn get(&self, profile: &str, item: SecretItem) -> Result<Option<String>, SecretError> {
        match std::fs::read_to_string(self.file(profile, item)) {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(SecretError::Unavailable(e.to_string())),
        }
    }

    fn set(&self, profile: &str, item: SecretItem, value: &str) -> Result<(), SecretError> {
        let unavailable = |e: std::io::Error| SecretError::Unavailable(e.to_string());
        std::fs::create_dir_all(&self.0).map_err(unavailable)?;
        crate::platform::file_write::write_replacing(&self.file(profile, item), value.as_bytes())
            .map_err(unavailable)
    }

    fn delete(&self, profile: &str, item: SecretItem) -> Result<(), SecretError> {
        match std::fs::remove_file(self.file(profile, item)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(SecretError::Unavailable(e.to_string()))
            }
            _ => Ok(()),
        }
    }
}

/// Where a secret was entered: the exchange it belongs to, and the only one it is sent to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SecretOrigin {
    pub api: String,
    pub oauth: String,
    pub operator: String,
}

/// A stored secret that remembers its origin. `None`: stored before origins were kept.
pub trait Bound {
    fn origin(&self) -> Option<&SecretOrigin>;
    fn bind(&mut self, origin: SecretOrigin);
}

/// An API key as stored; its secret is wiped from memory when dropped.
#[derive(Clone, Serialize, Deserialize, Zeroize, ZeroizeOnDrop)]
pub struct StoredKey {
    pub key: String,
    pub secret: String,
    #[serde(default)]
    #[zeroize(skip)]
    pub origin: Option<SecretOrigin>,
}

impl std::fmt::Debug for StoredKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoredKey(<redacted>)")
    }
}

/// An OAuth grant as stored; its tokens are wiped from memory when dropped.
#[derive(Clone, Serialize, Deserialize, Zeroize, ZeroizeOnDrop)]
#[serde(rename_all = "camelCase")]
pub struct StoredGrant {
    #[zeroize(skip)]
    pub client_id: String,
    pub access: String,
    pub refresh: Option<String>,
    #[zeroize(skip)]
    pub expires_at: Option<DateTime<Utc>>,
    /// What the token response said was granted; `None` when it did not say (known only by use).
    #[zeroize(skip)]
    pub scopes: Option<Vec<String>>,
    #[serde(default)]
    #[zeroize(skip)]
    pub origin: Option<SecretOrigin>,
}

impl Bound for StoredKey {
    fn origin(&self) -> Option<&SecretOrigin> {
        self.origin.as_ref()
    }
    fn bind(&mut self, origin: SecretOrigin) {
        self.origin = Some(origin);
    }
}

impl Bound for StoredGrant {
    fn origin(&self) -> Option<&SecretOrigin> {
        self.origin.as_ref()
    }
    fn bind(&mut self, origin: SecretOrigin) {
        self.origin = Some(origin);
    }
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

/// What `profile` stores as `item`, when it belongs to `origin`. One stored before origins were
/// kept is bound to `origin` now (the profile's settings as they are at the upgrade); one bound
/// elsewhere is not used here: it is never sent to another exchange.
pub fn read_bound<T: Bound + Serialize + for<'de> Deserialize<'de>>(
    store: &dyn SecretStore,
    profile: &str,
    item: SecretItem,
    origin: &SecretOrigin,
) -> Result<Option<T>, SecretError> {
    let Some(mut value) = read::<T>(store, profile, item)? else {
        return Ok(None);
    };
    match value.origin() {
        Some(o) if o == origin => Ok(Some(value)),
        Some(_) => Ok(None),
        None => {
            value.bind(origin.clone());
            write(store, profile, item, &value)?;
            Ok(Some(value))
        }
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    fn origin(api: &str) -> SecretOrigin {
        SecretOrigin {
            api: api.into(),
            oauth: api.into(),
            operator: "svc".into(),
        }
    }

    /// Compiles only while each stored secret wipes itself when dropped.
    #[test]
    fn stored_secrets_are_wiped_from_memory() {
        fn wiped_on_drop<T: ZeroizeOnDrop>() {}
        wiped_on_drop::<StoredKey>();
        wiped_on_drop::<StoredGrant>();
        wiped_on_drop::<crate::recipient_seal::RecipientSeal>();
        let mut key = StoredKey {
            key: "k".into(),
            secret: "s".into(),
            origin: Some(origin("https://api.example")),
        };
        key.zeroize();
        assert!(key.secret.is_empty() && key.key.is_empty());
        assert!(key.origin.is_some(), "where it was for is no secret");
    }

    #[test]
    fn a_secret_from_before_origins_is_bound_to_the_profile_as_it_is() {
        let store = MemorySecretStore::default();
        store
            .set("p", SecretItem::ApiKey, r#"{"key":"k","secret":"s"}"#)
            .unwrap();
        let here = origin("https://api.example");
        let key: StoredKey = read_bound(&store, "p", SecretItem::ApiKey, &here)
            .unwrap()
            .unwrap();
        assert_eq!(key.origin.as_ref(), Some(&here));
        // Written back: the binding holds from now on.
        let again: StoredKey = read(&store, "p", SecretItem::ApiKey).unwrap().unwrap();
        assert_eq!(again.origin, Some(here));
    }

    #[test]
    fn a_secret_bound_elsewhere_is_not_used() {
        let store = MemorySecretStore::default();
        let key = StoredKey {
            key: "k".into(),
            secret: "s".into(),
            origin: Some(origin("https://api.example")),
        };
        write(&store, "p", SecretItem::ApiKey, &key).unwrap();
        let elsewhere = origin("https://evil.example");
        let read: Option<StoredKey> =
            read_bound(&store, "p", SecretItem::ApiKey, &elsewhere).unwrap();
        assert!(read.is_none());
    }

    #[test]
    fn a_damaged_entry_says_so() {
        let store = MemorySecretStore::default();
        store.set("p", SecretItem::OAuthGrant, "{not json").unwrap();
        let read: Result<Option<StoredGrant>, _> = read(&store, "p", SecretItem::OAuthGrant);
        assert!(matches!(read, Err(SecretError::Damaged(_))));
    }
}
