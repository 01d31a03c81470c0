//! A profile's store, opened with its key from the keyring: the one way the app and the CLI
//! pointed at an app profile open it, so both find the same key and refuse the same way.
//!
//! A profile with no key yet gets a random one, kept (and read back) before anything is written
//! with it. A store that exists encrypted while the keyring holds no key, or a key that does not
//! open it, is refused: never replaced by a new, empty store, which would lose the journal's
//! evidence for payments whose outcome is unknown.

use std::path::{Path, PathBuf};

use super::at_rest::{self, Found, KeyEntry, KeyError, StoreKey};
use super::sealed_key::OpenedKeys;
use super::{Store, StoreError};
use crate::platform::secrets::{SecretError, SecretStore};

/// Why a profile's store did not open. Nothing was created or changed.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The store is encrypted and the keyring holds no key for it.
    #[error(
        "the local database at {} is encrypted and the keyring holds no key for it: restore the keyring entry or the key you backed up, or move the file aside to start a fresh store",
        .0.display()
    )]
    KeyMissing(PathBuf),
    /// The keyring's entry for the key is not a key.
    #[error(
        "the keyring's entry for the local database's key is damaged (not 64 hexadecimal digits): restore the key you backed up"
    )]
    KeyDamaged,
    /// The key does not open the store: another key's, or a damaged file.
    #[error(
        "the local database at {} does not open with the keyring's key: restore the key you backed up, or move the file aside to start a fresh store",
        .0.display()
    )]
    WrongKey(PathBuf),
    /// The key is sealed under the app lock's password and was not opened by an unlock.
    #[error(
        "the local database's key is sealed under the app lock's password: open Nordlys and unlock it (the command line cannot open it), or turn the seal off in Nordlys's Settings"
    )]
    KeySealed,
    /// The keyring did not keep a new key (what it gives back is not what was written).
    #[error(
        "the keyring did not keep the local database's new key, so nothing was encrypted with it"
    )]
    KeyNotKept,
    #[error(transparent)]
    Keyring(SecretError),
    #[error(transparent)]
    Store(StoreError),
}

impl From<KeyError> for OpenError {
    fn from(e: KeyError) -> Self {
        match e {
            KeyError::NotAKey => Self::KeyDamaged,
            KeyError::Sealed => Self::KeySealed,
            KeyError::Secrets(e) => Self::Keyring(e),
        }
    }
}

/// Opens `profile`'s store at `path` encrypted with its key in `secrets`, making the key when the
/// profile has none and the store is new or still plain (then migrated, see `at_rest`).
pub fn open(secrets: &dyn SecretStore, profile: &str, path: &Path) -> Result<Store, OpenError> {
    open_with(secrets, profile, path, &OpenedKeys::default())
}

/// As [`open`], a sealed key opening with what an unlock opened (`opened`).
pub fn open_with(
    secrets: &dyn SecretStore,
    profile: &str,
    path: &Path,
    opened: &OpenedKeys,
) -> Result<Store, OpenError> {
    let key = match KeyEntry::read(secrets, profile)? {
        Some(KeyEntry::Plain(key)) => key,
        Some(KeyEntry::Sealed(_)) => opened.get(profile).ok_or(OpenError::KeySealed)?,
        None => new_key(secrets, profile, path)?,
    };
    Store::open_encrypted(path, key).map_err(|e| match e {
        StoreError::WrongKey => OpenError::WrongKey(path.to_owned()),
        other => OpenError::Store(other),
    })
}

/// Why a key was not put back. The keyring is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("this key does not open the store at {}; the keyring is unchanged", .0.display())]
    DoesNotOpen(PathBuf),
    #[error("the store: {0}")]
    Store(StoreError),
    #[error("cannot read {}: {error}", .path.display())]
    Unreadable {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("the keyring: {0}")]
    Keyring(SecretError),
}

/// Puts `key` back as `profile`'s, once it opens the store at `path` (when there is one): a
/// backup restored, a keyring entry lost or damaged.
pub fn import_key(
    secrets: &dyn SecretStore,
    profile: &str,
    path: &Path,
    key: &StoreKey,
) -> Result<(), ImportError> {
    let found = at_rest::found(path).map_err(|error| ImportError::Unreadable {
        path: path.to_owned(),
        error,
    })?;
    if found == Found::Encrypted {
        match Store::open_encrypted(path, key.clone()) {
            Ok(_) => {}
            Err(StoreError::WrongKey) => return Err(ImportError::DoesNotOpen(path.to_owned())),
            Err(e) => return Err(ImportError::Store(e)),
        }
    }
    key.write(secrets, profile).map_err(ImportError::Keyring)
}

/// Moves the store at `path` that no key opens aside, with its `-wal` and `-shm`, beside it
/// under a name that says when (`nordlys.sqlite.set-aside-20261203T120000Z`), so that a fresh
/// store can start; nothing is deleted, and a key found later still opens the file. Answers
/// where it went. The store goes first, then its log files: stopped between the two, the store
/// will not open anew while its log lies there ([`open`] says the key is missing), and moving
/// aside again puts the log beside the store it belongs to.
pub fn set_aside(path: &Path, now: chrono::DateTime<chrono::Utc>) -> std::io::Result<PathBuf> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let aside = if path.exists() {
        let aside =
            path.with_file_name(format!("{name}.set-aside-{}", now.format("%Y%m%dT%H%M%SZ")));
        if aside.exists() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{} is there already", aside.display()),
            ));
        }
        std::fs::rename(path, &aside)?;
        aside
    } else {
        // Resumed: the store went aside last time, its log did not.
        let nothing = || {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "there is no store to set aside",
            )
        };
        if !["-wal", "-shm"]
            .iter()
            .any(|s| at_rest::with_suffix(path, s).exists())
        {
            return Err(nothing());
        }
        let prefix = format!("{name}.set-aside-");
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| n.starts_with(&prefix) && !n.ends_with("-wal") && !n.ends_with("-shm"))
            .max()
            .map(|n| dir.join(n))
            .ok_or_else(nothing)?
    };
    for suffix in ["-wal", "-shm"] {
        let from = at_rest::with_suffix(path, suffix);
        if from.exists() {
            std::fs::rename(&from, at_rest::with_suffix(&aside, suffix))?;
        }
    }
    Ok(aside)
}

/// A new key for a store that has none: refused when an encrypted store is there already.
fn new_key(secrets: &dyn SecretStore, profile: &str, path: &Path) -> Result<StoreKey, OpenError> {
    // Encrypted with a key the keyring no longer holds. Were a migration's plain store still
    // aside, it stays there too: settling would remove it in favour of a copy nothing opens.
    // Or its log left behind by a move aside that stopped half-way: a new store must not take it.
    if at_rest::found(path).map_err(|e| OpenError::Store(e.into()))? == Found::Encrypted
        || (!path.exists() && at_rest::with_suffix(path, "-wal").exists())
    {
        return Err(OpenError::KeyMissing(path.to_owned()));
    }
    let key = StoreKey::random().map_err(OpenError::Keyring)?;
    key.write(secrets, profile).map_err(OpenError::Keyring)?;
    match StoreKey::read(secrets, profile)? {
        Some(kept) if kept.to_hex() == key.to_hex() => Ok(key),
        _ => Err(OpenError::KeyNotKept),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::secrets::{LockedSecretStore, MemorySecretStore, SecretItem};

    #[test]
    fn a_new_profile_gets_a_key_and_opens_with_it_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let secrets = MemorySecretStore::default();
        drop(open(&secrets, "p", &path).unwrap());
        assert_eq!(at_rest::found(&path).unwrap(), Found::Encrypted);
        assert!(StoreKey::read(&secrets, "p").unwrap().is_some());
        drop(open(&secrets, "p", &path).unwrap());
    }

    /// The key gone (another keyring, a restored disk): refused, the file untouched, no new key.
    #[test]
    fn an_encrypted_store_without_its_key_is_refused_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        drop(open(&MemorySecretStore::default(), "p", &path).unwrap());
        let before = std::fs::read(&path).unwrap();
        let empty = MemorySecretStore::default();
        assert!(matches!(
            open(&empty, "p", &path),
            Err(OpenError::KeyMissing(_))
        ));
        assert_eq!(std::fs::read(&path).unwrap(), before);
        assert!(StoreKey::read(&empty, "p").unwrap().is_none());
    }

    #[test]
    fn another_key_and_a_damaged_entry_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        drop(open(&MemorySecretStore::default(), "p", &path).unwrap());
        let other = MemorySecretStore::default();
        StoreKey::random().unwrap().write(&other, "p").unwrap();
        assert!(matches!(
            open(&other, "p", &path),
            Err(OpenError::WrongKey(_))
        ));
        for damaged in ["{\"key\":\"not hex\"}", "not json", "{\"key\":\"00\"}"] {
            other.set("p", SecretItem::StoreKey, damaged).unwrap();
            assert!(
                matches!(
                    open(&other, "p", &path),
                    Err(OpenError::KeyDamaged | OpenError::Keyring(SecretError::Damaged(_)))
                ),
                "{damaged}"
            );
        }
    }

    /// A sealed key: refused until an unlock opened it, the file untouched and no new key made;
    /// then the store opens with the opened key.
    #[test]
    fn a_sealed_key_opens_the_store_only_once_an_unlock_opened_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let secrets = MemorySecretStore::default();
        drop(open(&secrets, "p", &path).unwrap());
        let key = StoreKey::read(&secrets, "p").unwrap().unwrap();
        let sealed = crate::store::SealedKey::seal(&key, "correct horse", "p").unwrap();
        KeyEntry::Sealed(sealed.clone())
            .write(&secrets, "p")
            .unwrap();
        let before = std::fs::read(&path).unwrap();
        let opened = OpenedKeys::default();
        assert!(matches!(
            open_with(&secrets, "p", &path, &opened),
            Err(OpenError::KeySealed)
        ));
        assert_eq!(StoreKey::read(&secrets, "p").unwrap_err(), KeyError::Sealed);
        assert_eq!(std::fs::read(&path).unwrap(), before);
        opened.insert("p", sealed.open("correct horse", "p").unwrap());
        drop(open_with(&secrets, "p", &path, &opened).unwrap());
        assert!(matches!(
            open(&secrets, "p", &path),
            Err(OpenError::KeySealed)
        ));
    }

    /// A store no key opens is moved aside whole, and a fresh one starts; its key found later
    /// still opens it. Stopped between the store and its log, no fresh store takes the log, and
    /// moving aside again puts the log beside its store.
    #[test]
    fn a_store_set_aside_keeps_its_log_and_still_opens_with_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let old = MemorySecretStore::default();
        drop(open(&old, "p", &path).unwrap());
        let key = StoreKey::read(&old, "p").unwrap().unwrap();
        let wal = at_rest::with_suffix(&path, "-wal");
        std::fs::write(&wal, b"the log").unwrap();
        let at = chrono::DateTime::from_timestamp(1_764_763_200, 0).unwrap();
        // Stopped after the store went aside: the log stays, and no fresh store starts over it.
        let aside = path.with_file_name("nordlys.sqlite.set-aside-20251203T120000Z");
        std::fs::rename(&path, &aside).unwrap();
        let fresh = MemorySecretStore::default();
        assert!(matches!(
            open(&fresh, "p", &path),
            Err(OpenError::KeyMissing(_))
        ));
        assert_eq!(set_aside(&path, at).unwrap(), aside, "resumed");
        assert_eq!(
            std::fs::read(at_rest::with_suffix(&aside, "-wal")).unwrap(),
            b"the log"
        );
        std::fs::remove_file(at_rest::with_suffix(&aside, "-wal")).unwrap();
        assert!(!wal.exists() && !path.exists());
        drop(open(&fresh, "p", &path).unwrap());
        // The old key opens the old store where it was set aside.
        drop(Store::open_encrypted(&aside, key.clone()).unwrap());
        // Moved aside whole, at once.
        let later = at + chrono::Duration::hours(1);
        let second = set_aside(&path, later).unwrap();
        assert!(second.ends_with("nordlys.sqlite.set-aside-20251203T130000Z"));
        assert!(!path.exists());
        assert!(
            set_aside(&path, later).is_err(),
            "nothing left to set aside"
        );
        // A backup of the key is checked against the store before it is put back.
        let other = StoreKey::random().unwrap();
        assert!(matches!(
            import_key(&fresh, "p", &aside, &other),
            Err(ImportError::DoesNotOpen(_))
        ));
        import_key(&fresh, "q", &aside, &key).unwrap();
        assert_eq!(
            StoreKey::read(&fresh, "q").unwrap().unwrap().to_hex(),
            key.to_hex()
        );
    }

    /// A plain store from before encryption gets a key and keeps what it held.
    #[test]
    fn a_plain_store_is_migrated_under_a_new_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let price = nordlys_money::NokPerBtc::computed(rust_decimal::Decimal::new(900_000, 0));
        let sample = crate::store::PriceSample {
            at: chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
            mid: price,
            bid: price,
            ask: price,
        };
        Store::open(&path)
            .unwrap()
            .add_price_sample(&sample)
            .unwrap();
        let secrets = MemorySecretStore::default();
        let store = open(&secrets, "p", &path).unwrap();
        assert_eq!(store.price_samples(sample.at).unwrap(), vec![sample]);
        drop(store);
        assert_eq!(at_rest::found(&path).unwrap(), Found::Encrypted);
    }

    /// A keyring that cannot be reached: refused with its reason, nothing written.
    #[test]
    fn a_locked_keyring_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        assert!(matches!(
            open(&LockedSecretStore, "p", &path),
            Err(OpenError::Keyring(SecretError::Unavailable(_)))
        ));
        assert_eq!(at_rest::found(&path).unwrap(), Found::Nothing);
    }
}
