//! Saved recipients: the address book that remembers a destination with its travel-rule data, so a
//! repeat payment needs no form.

use chrono::Utc;
use rusqlite::params;

use super::{Store, StoreError};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Recipient {
    /// What the exchange counts as "the same destination": the address, the Lightning address, the
    /// LNURL's URL, or for invoices the payee node (see `Destination::identity`).
    pub identity: String,
    /// The destination as the user last entered it (an address, a Lightning address…).
    pub destination: String,
    /// The user's own name for it.
    pub label: String,
    pub full_name: String,
    pub country: String,
    pub address: String,
    pub nin: String,
    pub exchange: String,
    pub self_custody: bool,
}

const SELECT: &str = "SELECT identity, destination, label, full_name, country, address, nin, exchange, self_custody FROM recipients";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Recipient> {
    Ok(Recipient {
        identity: r.get(0)?,
        destination: r.get(1)?,
        label: r.get(2)?,
        full_name: r.get(3)?,
        country: r.get(4)?,
        address: r.get(5)?,
        nin: r.get(6)?,
        exchange: r.get(7)?,
        self_custody: r.get(8)?,
    })
}

impl Store {
    /// Adds or replaces the recipient of `identity`, and marks it used now.
    pub fn save_recipient(&self, r: &Recipient) -> Result<(), StoreError> {
        self.db().execute(
            "INSERT OR REPLACE INTO recipients (identity, destination, label, full_name, country, address, nin, exchange, self_custody, last_used_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                r.identity,
                r.destination,
                r.label,
                r.full_name,
                r.country,
                r.address,
                r.nin,
                r.exchange,
                r.self_custody,
                Utc::now().timestamp_millis()
            ],
        )?;
        Ok(())
    }

    pub fn recipient(&self, identity: &str) -> Result<Option<Recipient>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!("{SELECT} WHERE identity = ?1"))?;
        let mut rows = q.query_map([identity], row)?;
        Ok(rows.next().transpose()?)
    }

    /// Most recently used first.
    pub fn recipients(&self) -> Result<Vec<Recipient>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!("{SELECT} ORDER BY last_used_ms DESC, identity"))?;
        let rows = q.query_map([], row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Returns whether there was one to delete.
    pub fn delete_recipient(&self, identity: &str) -> Result<bool, StoreError> {
        Ok(self
            .db()
            .execute("DELETE FROM recipients WHERE identity = ?1", [identity])?
            > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_recipients_can_be_edited_and_deleted() {
        let s = Store::in_memory().unwrap();
        let mut r = Recipient {
            identity: "bc1qexample".into(),
            destination: "bc1qexample".into(),
            label: "Kari".into(),
            full_name: "Kari Nordmann".into(),
            country: "NO".into(),
            address: "Storgata 1, 0155 Oslo".into(),
            ..Recipient::default()
        };
        s.save_recipient(&r).unwrap();
        r.address = "Lillegata 2, 0155 Oslo".into();
        s.save_recipient(&r).unwrap();
        assert_eq!(
            s.recipients().unwrap(),
            vec![r.clone()],
            "edited in place, not added twice"
        );
        assert_eq!(s.recipient("bc1qexample").unwrap(), Some(r));
        assert!(s.delete_recipient("bc1qexample").unwrap());
        assert!(!s.delete_recipient("bc1qexample").unwrap());
        assert!(s.recipient("bc1qexample").unwrap().is_none());
    }
}
