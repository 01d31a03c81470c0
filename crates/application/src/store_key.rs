//! The key the active profile's store is encrypted with, shown for a backup (Settings): lost, it
//! takes the store with it, and with the journal the evidence for payments whose outcome is
//! unknown. With a lock set, showing it takes the lock's password: someone at an unlocked,
//! unattended window must not walk away with it.

use nordlys_core::store::profile_store::{self, ImportError, OpenError};
use nordlys_core::store::{KeyEntry, KeyError, SealError, SealedKey, StoreKey};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use zeroize::Zeroizing;

use crate::NoArgs;
use crate::error::{Answer, AppError, ErrorCode};
use crate::lock::{LockPassword, require_password_for};
use crate::state::App;
use crate::wording::key;

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StoreKeyArgs {
    /// The lock's password, when a lock is set.
    pub password: Option<LockPassword>,
}

/// The key, or why there is none to back up.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum StoreKeyView {
    /// The key in groups of four hexadecimal digits, as it is copied by hand (`store import-key`
    /// reads it with or without the spaces).
    Key { groups: String },
    /// The sandbox's play money kept in memory (no keyring): nothing on disk to open.
    InMemory,
}

pub async fn store_key(app: &App, args: StoreKeyArgs) -> Answer<StoreKeyView> {
    require_password_for(app, args.password.as_ref(), key::LOCK_PASSWORD_FOR_KEY).await?;
    let session = app.session().await?;
    if session.store.is_in_memory() {
        return Ok(StoreKeyView::InMemory);
    }
    let id = &session.profile.id;
    let key = match read_entry(app, id)? {
        KeyEntry::Plain(key) => key,
        // The store is open, so its sealed key was opened at unlock.
        KeyEntry::Sealed(_) => app
            .opened_keys
            .get(id)
            .ok_or_else(|| AppError::of(OpenError::KeySealed))?,
    };
    Ok(StoreKeyView::Key {
        groups: nordlys_core::format::in_fours(&key.to_hex()),
    })
}

fn read_entry(app: &App, profile: &str) -> Answer<KeyEntry> {
    KeyEntry::read(&*app.secrets, profile)
        .map_err(|e| AppError::of(OpenError::from(e)))?
        .ok_or_else(|| AppError::of(OpenError::KeyMissing(app.store_path(profile))))
}

/// How the active profile's key is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum StoreSeal {
    /// In the keyring as it is: the keyring alone opens the store.
    Keyring,
    /// Sealed under the lock's password: the store opens at unlock, and the CLI cannot open it.
    Sealed,
    /// The sandbox's play money kept in memory: no key.
    InMemory,
}

pub async fn store_seal(app: &App, _args: NoArgs) -> Answer<StoreSeal> {
    let session = app.session().await?;
    if session.store.is_in_memory() {
        return Ok(StoreSeal::InMemory);
    }
    Ok(match read_entry(app, &session.profile.id)? {
        KeyEntry::Plain(_) => StoreSeal::Keyring,
        KeyEntry::Sealed(_) => StoreSeal::Sealed,
    })
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SealStoreKeyArgs {
    pub password: Option<LockPassword>,
    /// Sealed under the lock's password, or kept in the keyring as it is.
    pub sealed: bool,
}

/// Seals the active profile's key under the lock's password, or puts it back in the keyring as
/// it is.
pub async fn seal_store_key(app: &App, args: SealStoreKeyArgs) -> Answer<StoreSeal> {
    if !app.settings().lock_set {
        return Err(AppError::said(
            ErrorCode::InvalidInput,
            key::STORE_SEAL_NEEDS_LOCK,
        ));
    }
    require_password_for(app, args.password.as_ref(), key::LOCK_PASSWORD_FOR_SEAL).await?;
    let password = Zeroizing::new(args.password.map(|p| p.0.clone()).unwrap_or_default());
    let session = app.session().await?;
    if session.store.is_in_memory() {
        return Ok(StoreSeal::InMemory);
    }
    let id = session.profile.id.clone();
    let key = match read_entry(app, &id)? {
        KeyEntry::Plain(key) => key,
        KeyEntry::Sealed(sealed) => match app.opened_keys.get(&id) {
            Some(key) => key,
            None => open_blocking(sealed, password.clone(), id.clone()).await?,
        },
    };
    let entry = if args.sealed {
        KeyEntry::Sealed(seal_blocking(key.clone(), password, id.clone()).await?)
    } else {
        KeyEntry::Plain(key.clone())
    };
    entry.write(&*app.secrets, &id).map_err(AppError::of)?;
    app.opened_keys.insert(&id, key);
    store_seal(app, NoArgs {}).await
}

/// Opens every profile's sealed key with the lock's `password`, as the lock opens: each store
/// then opens. A key that does not open stays sealed, and its store says so when it is used.
pub(crate) async fn open_sealed_keys(app: &App, password: &str) {
    for (id, sealed) in sealed_entries(app) {
        if app.opened_keys.get(&id).is_some() {
            continue;
        }
        if let Ok(key) =
            open_blocking(sealed, Zeroizing::new(password.to_owned()), id.clone()).await
        {
            app.opened_keys.insert(&id, key);
        }
    }
}

/// Seals every sealed key again under the lock's `new` password, before the lock takes it: the
/// keys must open with whatever password the lock then asks for. A key that neither the current
/// nor the new password opens (its lock's entry deleted, then a lock set again) stays as it is:
/// setting the lock to the password it was sealed under opens it.
pub(crate) async fn reseal_keys(app: &App, current: &str, new: &str) -> Answer<()> {
    for (id, sealed) in sealed_entries(app) {
        let mut key = app.opened_keys.get(&id);
        for password in [current, new] {
            if key.is_none() {
                let opened = open_blocking(
                    sealed.clone(),
                    Zeroizing::new(password.to_owned()),
                    id.clone(),
                );
                key = opened.await.ok();
            }
        }
        let Some(key) = key else {
            continue;
        };
        let resealed = seal_blocking(key, Zeroizing::new(new.to_owned()), id.clone()).await?;
        KeyEntry::Sealed(resealed)
            .write(&*app.secrets, &id)
            .map_err(AppError::of)?;
    }
    Ok(())
}

/// Puts every sealed key back in the keyring as it is, before the lock is removed: with no
/// lock there is no password to open them with.
pub(crate) async fn unseal_keys(app: &App, password: &str) -> Answer<()> {
    for (id, sealed) in sealed_entries(app) {
        let key = match app.opened_keys.get(&id) {
            Some(key) => key,
            None => open_blocking(sealed, Zeroizing::new(password.to_owned()), id.clone()).await?,
        };
        KeyEntry::Plain(key)
            .write(&*app.secrets, &id)
            .map_err(AppError::of)?;
    }
    Ok(())
}

/// The profiles whose keys are sealed, with their seals.
fn sealed_entries(app: &App) -> Vec<(String, SealedKey)> {
    let ids: Vec<String> = app
        .settings()
        .profiles
        .iter()
        .map(|p| p.id.clone())
        .collect();
    ids.into_iter()
        .filter_map(|id| match KeyEntry::read(&*app.secrets, &id) {
            Ok(Some(KeyEntry::Sealed(s))) => Some((id, s)),
            _ => None,
        })
        .collect()
}

/// Argon2id takes a good part of a second by design: off the async threads.
async fn open_blocking(
    sealed: SealedKey,
    password: Zeroizing<String>,
    profile: String,
) -> Answer<StoreKey> {
    tokio::task::spawn_blocking(move || sealed.open(&password, &profile))
        .await
        .map_err(AppError::fault)?
        .map_err(sealed_error)
}

async fn seal_blocking(
    key: StoreKey,
    password: Zeroizing<String>,
    profile: String,
) -> Answer<SealedKey> {
    tokio::task::spawn_blocking(move || SealedKey::seal(&key, &password, &profile))
        .await
        .map_err(AppError::fault)?
        .map_err(sealed_error)
}

fn sealed_error(e: SealError) -> AppError {
    match e {
        SealError::WrongPassword => AppError::of(OpenError::KeySealed),
        SealError::Damaged(_) => AppError::of(OpenError::from(KeyError::NotAKey)),
        SealError::NoRandomness => AppError::fault(e),
    }
}

/// Why the active profile's store does not open, when it is its key (missing, damaged, or not
/// the store's): what the window offers to mend. `None` when it opens, or fails for another reason.
fn key_problem(app: &App) -> Answer<Option<(String, OpenError)>> {
    let profile = app
        .settings()
        .active_profile()
        .map(|p| p.id.clone())
        .ok_or_else(|| AppError::said(ErrorCode::Internal, key::NO_ACTIVE_PROFILE))?;
    let path = app.store_path(&profile);
    Ok(
        match profile_store::open_with(&*app.secrets, &profile, &path, &app.opened_keys) {
            Err(
                e @ (OpenError::KeyMissing(_) | OpenError::WrongKey(_) | OpenError::KeyDamaged),
            ) => Some((profile, e)),
            _ => None,
        },
    )
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RestoreStoreKeyArgs {
    /// The key as backed up: 64 hexadecimal digits, in groups of four or not.
    pub key: String,
}

/// What mending the store's key did.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StoreMended {
    /// Where the store no key opened was kept, when a fresh one started.
    pub set_aside: Option<String>,
}

/// Puts the backed-up key back, once it opens the store; only while the store does not open for
/// want of its key.
pub async fn restore_store_key(app: &App, args: RestoreStoreKeyArgs) -> Answer<StoreMended> {
    let key = StoreKey::from_hex(&args.key)
        .map_err(|_| AppError::said(ErrorCode::InvalidInput, key::STORE_KEY_NOT_A_KEY))?;
    let Some((profile, _)) = key_problem(app)? else {
        return Err(AppError::said(ErrorCode::InvalidInput, key::STORE_OPENS));
    };
    let path = app.store_path(&profile);
    profile_store::import_key(&*app.secrets, &profile, &path, &key).map_err(|e| match e {
        ImportError::DoesNotOpen(_) => {
            AppError::said(ErrorCode::InvalidInput, key::STORE_KEY_DOES_NOT_OPEN)
        }
        ImportError::Keyring(e) => AppError::of(e),
        other => AppError::fault(other),
    })?;
    app.reopen_session().await;
    Ok(StoreMended { set_aside: None })
}

/// Keeps the store no key opens aside, whole and untouched, and starts a fresh one; only while
/// the store does not open for want of its key. The journal's evidence stays in the old file,
/// which its key, found later, still opens.
pub async fn start_fresh_store(app: &App, _args: NoArgs) -> Answer<StoreMended> {
    let Some((profile, problem)) = key_problem(app)? else {
        return Err(AppError::said(ErrorCode::InvalidInput, key::STORE_OPENS));
    };
    let aside = profile_store::set_aside(&app.store_path(&profile), chrono::Utc::now())
        .map_err(AppError::fault)?;
    // A damaged entry makes way for the fresh store's key; a key that did not open the old
    // store is kept, and the fresh store is encrypted with it.
    if matches!(problem, OpenError::KeyDamaged) {
        app.secrets
            .delete(
                &profile,
                nordlys_core::platform::secrets::SecretItem::StoreKey,
            )
            .map_err(AppError::of)?;
    }
    app.reopen_session().await;
    Ok(StoreMended {
        set_aside: Some(aside.display().to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_shown_in_groups_of_four_and_reads_back() {
        let key = StoreKey::random().unwrap();
        let shown = nordlys_core::format::in_fours(&key.to_hex());
        assert_eq!(shown.split(' ').count(), 16);
        assert!(shown.split(' ').all(|g| g.len() == 4));
        let back = StoreKey::from_hex(&shown).unwrap();
        assert_eq!(back.to_hex(), key.to_hex());
    }
}
