//! The account a form sends from or receives into is the one it shows: the one chosen, else the
//! exchange's default account as learned, else the first listed, as the window's account lists
//! show it. Never an empty `accountId`: what it means is the exchange's to decide, and a form
//! must not send from an account other than the one on screen.

use nordlys_exchange::ExchangeClient;
use nordlys_exchange::ids::AccountId;
use nordlys_exchange::models::BitcoinAccount;

use crate::error::{Answer, AppError, ErrorCode};
use crate::state::App;
use crate::wording::key;

/// The account `chosen` names (trimmed; empty is none), else the default.
pub(crate) async fn shown(
    app: &App,
    client: &ExchangeClient,
    chosen: Option<&str>,
) -> Answer<BitcoinAccount> {
    let accounts = client
        .bitcoin_accounts(false)
        .await
        .map_err(AppError::of)?
        .accounts;
    let default = match chosen.map(str::trim).filter(|c| !c.is_empty()) {
        Some(_) => None,
        None => default_of(app, client, &accounts).await,
    };
    pick(accounts, chosen, default.as_ref())
        .ok_or_else(|| AppError::said(ErrorCode::InvalidInput, key::NO_SUCH_ACCOUNT))
}

/// The exchange's default among the live `accounts` of the active profile, when learned.
pub(crate) async fn default_of(
    app: &App,
    client: &ExchangeClient,
    accounts: &[BitcoinAccount],
) -> Option<AccountId> {
    let live: Vec<&BitcoinAccount> = accounts.iter().filter(|a| !a.is_deleted()).collect();
    let profile = app.settings().active.clone();
    app.market
        .default_accounts
        .of(&profile, client, &live)
        .await
}

fn pick(
    accounts: Vec<BitcoinAccount>,
    chosen: Option<&str>,
    default: Option<&AccountId>,
) -> Option<BitcoinAccount> {
    match chosen.map(str::trim).filter(|c| !c.is_empty()) {
        Some(id) => accounts.into_iter().find(|a| a.id.as_str() == id),
        None => {
            let live = || accounts.iter().filter(|a| !a.is_deleted());
            let at = default
                .and_then(|d| live().position(|a| a.id == *d))
                .unwrap_or(0);
            live().nth(at).cloned()
        }
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
    fn the_account_chosen_else_the_default_else_the_first_listed_never_none_for_an_unknown_id() {
        let two = || vec![account("a1"), account("a2")];
        assert_eq!(pick(two(), None, None).unwrap().id.as_str(), "a1");
        assert_eq!(pick(two(), Some("  "), None).unwrap().id.as_str(), "a1");
        assert_eq!(pick(two(), Some(" a2 "), None).unwrap().id.as_str(), "a2");
        assert!(pick(two(), Some("a3"), None).is_none());
        assert!(pick(Vec::new(), None, None).is_none());
        // The exchange's default, when learned, is the one shown; one not listed is ignored.
        let a2 = account("a2").id;
        assert_eq!(pick(two(), None, Some(&a2)).unwrap().id.as_str(), "a2");
        assert_eq!(
            pick(two(), Some("a1"), Some(&a2)).unwrap().id.as_str(),
            "a1"
        );
        let gone = account("a9").id;
        assert_eq!(pick(two(), None, Some(&gone)).unwrap().id.as_str(), "a1");
    }
}
