//! The CLI's journal: every order and withdrawal is written to the store before it is sent, with
//! the same code as the app; `journal list|check|settle` print entries in one JSON shape.

use chrono::SecondsFormat;
use nordlys_application::journal as cases;
use nordlys_core::journal::Entry;
use nordlys_core::store::profile_store;
use nordlys_core::store::{Evidence, Store, StoreError};
use nordlys_exchange::ExchangeClient;
use serde_json::{Value, json};

use crate::outcome::{Failure, print};
use crate::setup::{store_for, stored};

/// Opens the store in the state directory (created 0700). A store that cannot be opened stops
/// a money command before anything is sent. An app profile's directory (`…/profiles/<id>`)
/// holds that profile's encrypted store, opened with the app's key from the keyring; the CLI's
/// own directory keeps a plain store.
pub fn open_store() -> Result<Store, String> {
    let dir = crate::environment::state_dir()?;
    create_private_dir(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join("nordlys.sqlite");
    match crate::environment::app_profile_of(&dir) {
        Some(profile) => {
            // On a thread of its own: the keyring's Secret Service backend runs its own
            // executor, which must not start inside the command's runtime.
            let opened = std::thread::scope(|s| {
                s.spawn(|| {
                    let secrets = crate::environment::app_secrets();
                    profile_store::open(&*secrets, &profile, &path)
                })
                .join()
            })
            .map_err(|_| "the keyring could not be read".to_owned())?;
            opened.map_err(|e| format!("the app profile {profile}'s journal cannot be used: {e}"))
        }
        None => Store::open(&path)
            .map_err(|e| format!("the journal at {} cannot be used: {e}", path.display())),
    }
}

fn create_private_dir(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

fn rfc3339(t: &chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The body as sent, with a national identity number masked.
fn masked_request(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).unwrap_or_else(|_| json!({}));
    if let Some(nin) = v.pointer_mut("/tfrInfo/nin")
        && nin.as_str().is_some_and(|s| !s.is_empty())
    {
        *nin = json!("***");
    }
    v
}

fn evidence_json(seen: &[Evidence]) -> Value {
    seen.iter()
        .map(|e| {
            json!({
                "at": rfc3339(&e.at),
                "read": e.read.as_str(),
                "saw": e.saw(),
                "code": e.seen.code(),
                "data": e.seen.data(),
            })
        })
        .collect()
}

/// One entry in the shape `journal list` prints; `None` when no entry has that id.
pub fn entry_json(store: &Store, id: i64) -> Result<Option<Value>, StoreError> {
    let Some(e) = Entry::read(store, id)? else {
        return Ok(None);
    };
    let origin = e.origin();
    // The accounts the entry was sent from (its identity's ids; empty where not learned).
    let account_ids = origin
        .identity
        .map_or(Ok(Vec::new()), |i| store.identities().accounts_of(i))?;
    let mut v = json!({
        "journalId": e.id(),
        "kind": e.kind().text(),
        "state": e.state_text(),
        "createdAt": rfc3339(&e.sent_at()),
        "baseUrl": origin.base_url,
        "accountIds": account_ids,
        "request": masked_request(e.request()),
        "evidence": evidence_json(&store.journal().evidence(id)?),
        "claimed": e.claimed(),
        "note": e.note(),
    });
    match &e {
        Entry::Order(o) => {
            v["orderId"] = json!(o.order_id);
            v["tradeId"] = json!(o.trade_id);
        }
        Entry::Withdrawal(w) => {
            v["withdrawalId"] = json!(w.withdrawal_id);
            v["status"] = json!(w.status);
        }
    }
    Ok(Some(v))
}

/// Every entry, oldest first.
pub fn all_json(store: &Store) -> Result<Value, StoreError> {
    let mut out = Vec::new();
    for (id, _) in store.journal().ids()? {
        if let Some(v) = entry_json(store, id)? {
            out.push(v);
        }
    }
    Ok(Value::Array(out))
}

/// `journal check [ID]`: looks at the exchange for entry ID, or for every unresolved entry sent
/// to this exchange, and prints them. A read that fails is recorded in the evidence.
pub(crate) async fn check(client: &ExchangeClient, id: Option<i64>) -> Result<(), Failure> {
    let store = store_for(client).await?;
    let rules = nordlys_application::test_hooks::evidence_rules();
    let looked = cases::check(client, &store, &rules, id).await?;
    let mut out = Vec::new();
    for id in looked {
        out.extend(entry_json(&store, id).map_err(stored)?);
    }
    print(&out)
}

/// `journal settle ID --not-sent --checked-on-exchange`, or `--placed [--order-id OR]`
/// (`placed`: `Some(order id, if named)`).
pub(crate) async fn settle(
    client: &ExchangeClient,
    id: i64,
    placed: Option<Option<&str>>,
) -> Result<(), Failure> {
    let store = store_for(client).await?;
    let rules = nordlys_application::test_hooks::evidence_rules();
    match placed {
        Some(order_id) => cases::settle_placed(client, &store, &rules, id, order_id).await?,
        None => cases::settle_not_made(client, &store, &rules, id).await?,
    }
    let entry = entry_json(&store, id).map_err(stored)?;
    print(&entry.into_iter().collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_national_identity_number_never_leaves_the_journal() {
        let v = masked_request(
            r#"{"destination":"x","tfrInfo":{"fullName":"Kari","nin":"01017012345"}}"#,
        );
        assert_eq!(v["tfrInfo"]["nin"], "***");
        assert_eq!(v["tfrInfo"]["fullName"], "Kari");
        assert_eq!(masked_request("not json"), json!({}));
    }
}
