//! Accounts by the names a user knows them by, for sentences that mention an account by id (why
//! an outcome is unknown, what a check saw): the exchange's names now, else those the tax
//! history keeps, else the id.

use std::collections::HashMap;
use std::time::Duration;

use crate::state::{App, ProfileSession};

/// How long the exchange's list of accounts is waited for before the kept names do.
const LIVE_WAIT: Duration = Duration::from_secs(2);

pub(crate) struct AccountNames {
    live: HashMap<String, String>,
    kept: crate::tax::Names,
}

impl AccountNames {
    /// The names of `session`'s accounts: the watcher's last look, else one bounded read.
    pub(crate) async fn load(app: &App, session: &ProfileSession) -> Self {
        let mut live = crate::watcher::seen_account_names(app, &session.profile.id);
        if live.is_empty() {
            let read = session.connection.client().bitcoin_accounts(true);
            if let Ok(Ok(accounts)) = tokio::time::timeout(LIVE_WAIT, read).await {
                live = accounts
                    .accounts
                    .into_iter()
                    .map(|a| (a.id.to_string(), a.name))
                    .collect();
            }
        }
        let kept =
            crate::tax::Names::load(&session.store).unwrap_or_else(|_| crate::tax::Names::empty());
        Self { live, kept }
    }

    pub(crate) fn name(&self, id: &str) -> String {
        self.live
            .get(id)
            .cloned()
            .unwrap_or_else(|| self.kept.name(id))
    }
}
