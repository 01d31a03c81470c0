//! The key the active profile's store is encrypted with, shown for a backup (Settings): lost, it
//! takes the store with it, and with the journal the evidence for payments whose outcome is
//! unknown. With a lock set, showing it takes the lock's password: someone at an unlocked,
//! unattended window must not walk away with it.

use nordlys_core::store::StoreKey;
use nordlys_core::store::profile_store::OpenError;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{Answer, AppError};
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
    let key = StoreKey::read(&*app.secrets, id)
        .map_err(|e| AppError::of(OpenError::from(e)))?
        .ok_or_else(|| AppError::of(OpenError::KeyMissing(app.store_path(id))))?;
    Ok(StoreKeyView::Key {
        groups: nordlys_core::format::in_fours(&key.to_hex()),
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
