//! Whose accounts a credential sees, learned from the exchange: endpoint 13 with deleted
//! accounts (the ids old records name), or endpoint 10 with deleted accounts where a grant does
//! not reach 13. Records are bound to what is learned here (see `store::identities`).

use nordlys_exchange::ExchangeClient;

use crate::evidence;
use crate::store::{IdentityAccount, IdentityId, Origin, Store, StoreError};

/// What one look at the credential's accounts found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learned {
    /// `None` when the credential sees no account.
    pub identity: Option<IdentityId>,
    /// Every account it sees, deleted ones included.
    pub accounts: Vec<IdentityAccount>,
}

#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    #[error("the exchange did not list the accounts: {0}")]
    Exchange(#[from] nordlys_exchange::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Reads the accounts `client`'s credential sees and binds the credential to their identity.
pub async fn learn(client: &ExchangeClient, store: &Store) -> Result<Learned, LearnError> {
    let accounts: Vec<IdentityAccount> = match client.tax_balance(true).await {
        Ok(b) => b
            .bitcoin_accounts
            .into_iter()
            .map(|a| IdentityAccount {
                id: a.id.as_str().to_owned(),
                name: a.name,
                deleted: a.delete_time.is_some(),
            })
            .collect(),
        Err(first) => match client.bitcoin_accounts(true).await {
            Ok(l) => l
                .accounts
                .into_iter()
                .map(|a| IdentityAccount {
                    deleted: a.is_deleted(),
                    id: a.id.as_str().to_owned(),
                    name: a.name,
                })
                .collect(),
            Err(_) => return Err(first.into()),
        },
    };
    let accounts: Vec<IdentityAccount> =
        accounts.into_iter().filter(|a| !a.id.is_empty()).collect();
    let plain = evidence::origin_of(client);
    let identity =
        store
            .identities()
            .identify(&plain.base_url, client.operator().as_str(), &accounts)?;
    if let Some(id) = identity {
        store
            .identities()
            .remember(&plain.base_url, &plain.key_fingerprint, id)?;
    }
    Ok(Learned { identity, accounts })
}

/// The origin of a request sent through `client` now, with the identity its credential sees:
/// as known already, else learned now; `None` when it cannot be (the exchange did not answer),
/// which leaves every judgement to the key alone.
pub async fn origin_here(client: &ExchangeClient, store: &Store) -> Result<Origin, StoreError> {
    let mut origin = evidence::origin_of(client);
    let (base, key) = (origin.base_url.clone(), origin.key_fingerprint.clone());
    origin.identity = match store.identities().known(&base, &key)? {
        Some(id) => Some(id),
        // Asked lately in vain: not again on every look or keystroke.
        None if store.identities().learning_failed_lately(&base, &key) => None,
        None => match learn(client, store).await {
            Ok(Learned {
                identity: Some(id), ..
            }) => Some(id),
            Ok(_) | Err(LearnError::Exchange(_)) => {
                store.identities().learning_failed(&base, &key);
                None
            }
            Err(LearnError::Store(e)) => return Err(e),
        },
    };
    Ok(origin)
}

/// How many unresolved journal entries a credential at `here` may not judge: sent from other
/// accounts (or with another key where the accounts are not known). They stay unknown until a
/// credential of their own accounts is used.
pub fn unresolved_elsewhere(store: &Store, here: &Origin) -> Result<usize, StoreError> {
    let orders = store
        .orders()
        .unresolved()?
        .into_iter()
        .filter(|e| !e.origin.judged_through(here))
        .count();
    let payments = store
        .withdrawals()
        .unresolved()?
        .into_iter()
        .filter(|e| !e.origin.judged_through(here))
        .count();
    Ok(orders + payments)
}

/// The exchange whose journal the store keeps, when it is not the one at `here`: every entry
/// went to another address, and none from the accounts `here` sees (the same accounts reached at
/// another address are the same exchange). `None` for an empty journal.
pub fn kept_elsewhere(store: &Store, here: &Origin) -> Result<Option<String>, StoreError> {
    let origins = store.identities().journal_origins()?;
    let ours = origins.iter().any(|(url, identity)| {
        *url == here.base_url || (identity.is_some() && *identity == here.identity)
    });
    Ok(if ours {
        None
    } else {
        origins.into_iter().next().map(|(url, _)| url)
    })
}
