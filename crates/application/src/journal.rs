//! The journal's use cases over a client and a store, for both clients of this layer: the window
//! (through a session) and `nordlys-cli journal check|settle` (through its own credentials and
//! state directory). Which kind an entry is decides which rules look at it, here and only here.

use nordlys_core::evidence::Rules;
use nordlys_core::journal::{self, Entry, SettleError, SettleRefusal};
use nordlys_core::orders::{self, OrderError};
use nordlys_core::recheck::{Due, recheck};
use nordlys_core::store::{JournalKind, Store, StoreError};
use nordlys_exchange::{Error, ExchangeClient};

/// Why a journal use case did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("no journal entry {0}")]
    NoSuchEntry(i64),
    /// The user may not settle it as not made; nothing was changed.
    #[error("journal entry {id} cannot be settled: {why}")]
    Refused { id: i64, why: SettleRefusal },
    #[error(transparent)]
    Exchange(#[from] Error),
    #[error("the journal: {0}")]
    Store(#[from] StoreError),
    /// Only an order can be settled as made by the user's word: a payment is followed by the id
    /// the exchange gave it, which the user's word does not carry.
    #[error("journal entry {0} is a payment; only an order can be settled as placed")]
    NotAnOrder(i64),
    /// An error of placing or sending, which looking and settling do not meet.
    #[error("{0}")]
    Other(String),
}

impl From<OrderError> for JournalError {
    fn from(e: OrderError) -> Self {
        match e {
            OrderError::Exchange(e) => Self::Exchange(e),
            OrderError::Store(e) => Self::Store(e),
            OrderError::CannotSettle { id, why } => Self::Refused { id, why },
            OrderError::Unknown(id) => Self::NoSuchEntry(id),
            other => Self::Other(other.to_string()),
        }
    }
}

impl From<SettleError> for JournalError {
    fn from(e: SettleError) -> Self {
        match e {
            SettleError::NoSuchEntry(id) => Self::NoSuchEntry(id),
            SettleError::Refused { id, why } => Self::Refused { id, why },
            SettleError::Store(e) => Self::Store(e),
        }
    }
}

/// Looks at the exchange once more for entry `id`, or for every unresolved entry sent to this
/// client's exchange, recording what it saw; answers the ids looked at.
pub async fn check(
    client: &ExchangeClient,
    store: &Store,
    rules: &Rules,
    id: Option<i64>,
) -> Result<Vec<i64>, JournalError> {
    let Some(id) = id else {
        let looked = recheck(client, store, rules, Due::All).await?;
        return Ok(looked.into_iter().map(|(id, _)| id).collect());
    };
    let e = Entry::read(store, id)?.ok_or(JournalError::NoSuchEntry(id))?;
    journal::check(client, store, &e, rules).await?;
    Ok(vec![id])
}

/// The user says they checked the exchange's history and entry `id` was not made. Checked once
/// more first, and refused when the exchange shows it was made or it is settled already.
pub async fn settle_not_made(
    client: &ExchangeClient,
    store: &Store,
    rules: &Rules,
    id: i64,
) -> Result<(), JournalError> {
    journal::settle_not_made(client, store, id, rules).await?;
    Ok(())
}

/// The user says they saw on the exchange that order `id` was placed (`order_id`: the order,
/// when it is still open). Checked once more first, and refused when it is settled already or
/// the order named is not this one (see [`orders::settle_placed`]).
pub async fn settle_placed(
    client: &ExchangeClient,
    store: &Store,
    rules: &Rules,
    id: i64,
    order_id: Option<&str>,
) -> Result<(), JournalError> {
    match store
        .journal()
        .kind(id)?
        .ok_or(JournalError::NoSuchEntry(id))?
    {
        JournalKind::Order => {
            orders::settle_placed(client, store, id, rules, order_id).await?;
            Ok(())
        }
        JournalKind::Withdrawal => Err(JournalError::NotAnOrder(id)),
    }
}

#[cfg(test)]
mod tests {
    use nordlys_exchange::{BaseUrl, ClientConfig};

    use super::*;

    /// A client of an exchange nobody answers at: nothing here may reach it.
    fn unreachable() -> ExchangeClient {
        let base = BaseUrl::parse("http://127.0.0.1:9").expect("a loopback address");
        ExchangeClient::new(ClientConfig::new(base)).expect("a client")
    }

    #[tokio::test]
    async fn an_entry_that_is_not_in_the_journal_is_named_and_nothing_is_asked() {
        let store = Store::in_memory().expect("a store");
        let rules = Rules::default();
        let client = unreachable();
        let settled = settle_not_made(&client, &store, &rules, 42).await;
        assert!(
            matches!(settled, Err(JournalError::NoSuchEntry(42))),
            "{settled:?}"
        );
        let checked = check(&client, &store, &rules, Some(7)).await;
        assert!(
            matches!(checked, Err(JournalError::NoSuchEntry(7))),
            "{checked:?}"
        );
        // With nothing unresolved, checking everything looks at nothing.
        assert_eq!(
            check(&client, &store, &rules, None).await.ok(),
            Some(vec![])
        );
        // A payment is never settled as placed by the user's word, and nothing is asked.
        let origin = nordlys_core::store::Origin {
            base_url: "http://127.0.0.1:9/".into(),
            key_fingerprint: String::new(),
            identity: None,
        };
        let payment = nordlys_core::store::NewWithdrawalEntry {
            sent_at: chrono::Utc::now(),
            destination: "bc1qexample",
            identity: "",
            amount_btc: nordlys_money::Btc::computed(rust_decimal::Decimal::ONE),
            account_id: None,
            reference: "",
            origin: &origin,
            request: "{}",
            before: None,
            typed_nok: None,
        };
        let nordlys_core::store::PaymentClaim::Journaled(id) = store
            .withdrawals()
            .add(&payment, false, false)
            .expect("journaled")
        else {
            panic!("not journaled");
        };
        let placed = settle_placed(&client, &store, &rules, id, None).await;
        assert!(
            matches!(placed, Err(JournalError::NotAnOrder(i)) if i == id),
            "{placed:?}"
        );
    }
}
