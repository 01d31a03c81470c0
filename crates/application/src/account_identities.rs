//! Settings' list of whose records the profile keeps: each account identity by its accounts,
//! which one the credential sees now, and the tax histories (the one in use and those set aside
//! for another identity's). Setting the history in use aside is how a sync refused for another
//! identity's history starts afresh.

use nordlys_core::store::{IdentityId, TaxHistory};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::Answer;
use crate::present::{Present, Viewer};
use crate::{App, NoArgs};

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct IdentityAccountView {
    pub id: String,
    pub name: String,
    pub deleted: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountIdentityView {
    /// The store's identity, for the window's list.
    #[ts(type = "number")]
    pub id: i64,
    /// `host[:port]` where it was last learned; empty for records from before identities.
    pub host: String,
    pub accounts: Vec<IdentityAccountView>,
    /// The profile's credential sees these accounts now.
    pub current: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxHistoryView {
    /// The set-aside history's number; none for the one in use: with `inUse`, its key.
    #[ts(type = "number | null")]
    pub aside: Option<i64>,
    /// The history the tax screens show; the others were set aside, and are kept.
    pub in_use: bool,
    /// Whose it is, by account ids; empty before its first sync with known accounts.
    pub account_ids: Vec<String>,
    pub rows: u32,
    /// When it was set aside, as the user reads times.
    pub set_aside_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountIdentitiesView {
    pub identities: Vec<AccountIdentityView>,
    pub tax_histories: Vec<TaxHistoryView>,
}

/// Whose records the profile keeps: the identities (which the credential sees now), and each
/// tax history with the account ids it belongs to.
#[derive(Debug, Clone)]
pub struct Identities {
    pub identities: Vec<AccountIdentityView>,
    pub histories: Vec<(TaxHistory, Vec<String>)>,
}

impl Present for Identities {
    type View = AccountIdentitiesView;

    fn present(self, viewer: &Viewer) -> AccountIdentitiesView {
        AccountIdentitiesView {
            identities: self.identities,
            tax_histories: self
                .histories
                .into_iter()
                .map(|(h, account_ids)| TaxHistoryView {
                    aside: h.aside,
                    in_use: h.aside.is_none(),
                    account_ids,
                    rows: u32::try_from(h.rows).unwrap_or(u32::MAX),
                    set_aside_at: h.set_aside_at.map(|t| viewer.time(&t)),
                })
                .collect(),
        }
    }
}

pub async fn account_identities(app: &App, _args: NoArgs) -> Answer<Identities> {
    let session = app.session().await?;
    let store = &session.store;
    let here = nordlys_core::account_identity::origin_here(session.connection.client(), store)
        .await?
        .identity;
    let ids_of = |i: Option<IdentityId>| -> Answer<Vec<String>> {
        Ok(match i {
            Some(i) => store.identities().accounts_of(i)?,
            None => Vec::new(),
        })
    };
    let identities = store
        .identities()
        .all()?
        .into_iter()
        .map(|i| AccountIdentityView {
            id: i.id.0,
            host: url::Url::parse(&i.base_url)
                .ok()
                .and_then(|u| {
                    u.host_str()
                        .map(|h| u.port().map_or(h.to_owned(), |p| format!("{h}:{p}")))
                })
                .unwrap_or_default(),
            current: Some(i.id) == here,
            accounts: i
                .accounts
                .into_iter()
                .map(|a| IdentityAccountView {
                    id: a.id,
                    name: a.name,
                    deleted: a.deleted,
                })
                .collect(),
        })
        .collect();
    let histories = store
        .tax()
        .tax_histories()?
        .into_iter()
        .map(|h: TaxHistory| {
            let ids = ids_of(h.identity)?;
            Ok((h, ids))
        })
        .collect::<Answer<Vec<_>>>()?;
    Ok(Identities {
        identities,
        histories,
    })
}

/// Sets the tax history in use aside, whole, so the next sync starts a fresh one for the
/// accounts the credential sees; the old one stays listed.
pub async fn set_tax_history_aside(app: &App, _args: NoArgs) -> Answer<Identities> {
    app.tax_session()
        .await?
        .store
        .tax()
        .set_tax_history_aside(chrono::Utc::now())?;
    account_identities(app, NoArgs {}).await
}
