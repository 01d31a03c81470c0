//! The account a form sends from or receives into is the one it shows: the one chosen, else the
//! first listed, as the window's account lists show it. Never an empty `accountId`, which leaves
//! the choice to the exchange's "default account", and nothing published says which that is.

use nordlys_exchange::ExchangeClient;
use nordlys_exchange::models::BitcoinAccount;

use crate::error::{Answer, ErrorCode, IpcError};
use crate::state::App;
use crate::wording;

/// The account `chosen` names (trimmed; empty is none), else the first live one listed.
pub(crate) async fn shown(
    app: &App,
    client: &ExchangeClient,
    chosen: Option<&str>,
) -> Answer<BitcoinAccount> {
    let accounts = client
        .bitcoin_accounts(false)
        .await
        .map_err(|e| app.error(e))?
        .accounts;
    pick(accounts, chosen).ok_or_else(|| {
        IpcError::new(
            ErrorCode::InvalidInput,
            wording::say("no-such-account", app.locale()),
        )
    })
}

fn pick(accounts: Vec<BitcoinAccount>, chosen: Option<&str>) -> Option<BitcoinAccount> {
    match chosen.map(str::trim).filter(|c| !c.is_empty()) {
        Some(id) => accounts.into_iter().find(|a| a.id.as_str() == id),
        None => accounts.into_iter().next(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(id: &str) -> BitcoinAccount {
        serde_json::from_value(
            serde_json::json!({ "id": id, "name": id, "createTime": "2026-01-01T00:00:00Z" }),
        )
        .unwrap()
    }

    #[test]
    fn the_account_chosen_else_the_first_listed_never_none_for_an_unknown_id() {
        let two = || vec![account("a1"), account("a2")];
        assert_eq!(pick(two(), None).unwrap().id.as_str(), "a1");
        assert_eq!(pick(two(), Some("  ")).unwrap().id.as_str(), "a1");
        assert_eq!(pick(two(), Some(" a2 ")).unwrap().id.as_str(), "a2");
        assert!(pick(two(), Some("a3")).is_none());
        assert!(pick(Vec::new(), None).is_none());
    }
}
