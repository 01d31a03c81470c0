//! The exchange's default account: the one an empty `accountId` means. Nothing published names
//! it, but the exchange shows it: the standing destinations asked for with no account are that
//! account's. Learned once per set of accounts (one request per live account and one without),
//! and used as the account a form shows when none is chosen. Unlearned (no key, a refusal,
//! destinations that match no account or two), the first listed stands in, as before.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nordlys_exchange::ExchangeClient;
use nordlys_exchange::ids::AccountId;
use nordlys_exchange::models::{BitcoinAccount, DepositDestinationsResponse};

/// How long a failed look is taken as "not known" before the exchange is asked again: a key
/// that may not read destinations is not asked on every refresh.
const RETRY_AFTER: Duration = Duration::from_secs(600);

#[derive(Debug, Clone)]
struct Learned {
    /// The live accounts it was learned among: another set (another key) is learned again.
    among: Vec<AccountId>,
    default: Option<AccountId>,
    /// When a read failed; `None` when the answers were read.
    failed_at: Option<Instant>,
}

/// What was learned, by profile.
#[derive(Debug, Default)]
pub(crate) struct DefaultAccounts(Mutex<HashMap<String, Learned>>);

impl DefaultAccounts {
    /// The default among `live` for `profile`, learned now when not known for these accounts.
    pub(crate) async fn of(
        &self,
        profile: &str,
        client: &ExchangeClient,
        live: &[&BitcoinAccount],
    ) -> Option<AccountId> {
        let ids: Vec<AccountId> = live.iter().map(|a| a.id.clone()).collect();
        if let Some(known) = self.lock().get(profile)
            && known.among == ids
            && known.failed_at.is_none_or(|at| at.elapsed() < RETRY_AFTER)
        {
            return known.default.clone();
        }
        let (default, failed_at) = match learn(client, live).await {
            Ok(default) => (default, None),
            Err(_) => (None, Some(Instant::now())),
        };
        self.lock().insert(
            profile.to_owned(),
            Learned {
                among: ids,
                default: default.clone(),
                failed_at,
            },
        );
        default
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Learned>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The default among `live`; `Ok(None)` when the answers name no single account, an error when
/// one could not be read.
async fn learn(
    client: &ExchangeClient,
    live: &[&BitcoinAccount],
) -> Result<Option<AccountId>, nordlys_exchange::Error> {
    if let [only] = live {
        return Ok(Some(only.id.clone()));
    }
    let default = client.deposit_destinations(None).await?;
    let mut found = None;
    for account in live {
        let theirs = client.deposit_destinations(Some(&account.id)).await?;
        if same_account(&default, &theirs) {
            if found.is_some() {
                // Two accounts answer alike: which one is the default is not shown.
                return Ok(None);
            }
            found = Some(account.id.clone());
        }
    }
    Ok(found)
}

/// Whether two answers are one account's: a standing destination they share. The Lightning
/// address and LNURL stay put; the on-chain address changes only with a deposit.
fn same_account(a: &DepositDestinationsResponse, b: &DepositDestinationsResponse) -> bool {
    let shared = |x: &str, y: &str| !x.trim().is_empty() && x.trim() == y.trim();
    shared(
        &a.lightning_address.destination,
        &b.lightning_address.destination,
    ) || shared(&a.lnurl_pay.destination, &b.lnurl_pay.destination)
        || shared(
            &a.onchain_address.destination,
            &b.onchain_address.destination,
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(onchain: &str, ln: &str, lnurl: &str) -> DepositDestinationsResponse {
        serde_json::from_value(serde_json::json!({
            "onchainAddress": { "destination": onchain },
            "lightningAddress": { "destination": ln },
            "lnurlPay": { "destination": lnurl },
        }))
        .unwrap()
    }

    #[test]
    fn one_shared_standing_destination_makes_two_answers_one_account_s() {
        let default = answer("bc1qa", "a@x.no", "lnurl1a");
        assert!(same_account(&default, &answer("bc1qa", "", "")));
        assert!(same_account(&default, &answer("bc1qz", "a@x.no", "")));
        assert!(same_account(&default, &answer("", "", " lnurl1a ")));
        assert!(!same_account(
            &default,
            &answer("bc1qb", "b@x.no", "lnurl1b")
        ));
        // Empty fields are no evidence.
        assert!(!same_account(&answer("", "", ""), &answer("", "", "")));
    }
}
