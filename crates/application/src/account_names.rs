//! Accounts by the names a user knows them by, for sentences that mention an account by id (why
//! an outcome is unknown, what a check saw): the watcher's last look at the accounts, else the
//! names the tax history keeps. The exchange is asked only when a sentence names an account
//! neither knows, so a screen with nothing to name (the usual In doubt list) costs no request.

use std::collections::HashMap;
use std::time::Duration;

use crate::state::{App, ProfileSession};

/// How long the exchange's list of accounts is waited for before the id stands.
const LIVE_WAIT: Duration = Duration::from_secs(2);

/// The names of the accounts a view mentions; an account with none goes by its id.
#[derive(Debug, Clone, Default)]
pub struct AccountNames(HashMap<String, String>);

impl AccountNames {
    pub fn name(&self, id: &str) -> String {
        self.0.get(id).cloned().unwrap_or_else(|| id.to_owned())
    }
}

/// The names of `ids`: from what is known, and from one bounded read of the exchange's accounts
/// when an id is not known.
pub(crate) async fn of<'a>(
    app: &App,
    session: &ProfileSession,
    ids: impl IntoIterator<Item = &'a str>,
) -> AccountNames {
    let live = crate::watcher::seen_account_names(app, &session.profile.id);
    // The names only make the words kinder: a store that cannot give them leaves the ids.
    let kept = crate::tax::Names::load(&session.store).unwrap_or_default();
    let mut known = HashMap::new();
    let mut unknown = Vec::new();
    for id in ids {
        match live.get(id).cloned().or_else(|| kept.get(id)) {
            Some(name) => {
                known.insert(id.to_owned(), name);
            }
            None => unknown.push(id.to_owned()),
        }
    }
    if !unknown.is_empty() {
        let read = session.connection.client().bitcoin_accounts(true);
        if let Ok(Ok(accounts)) = tokio::time::timeout(LIVE_WAIT, read).await {
            for a in accounts.accounts {
                let id = a.id.to_string();
                if unknown.contains(&id) {
                    known.insert(id, a.name);
                }
            }
        }
    }
    AccountNames(known)
}
