//! Saved recipients: the address book that remembers a destination with its travel-rule data, so a
//! repeat payment needs no form.

use chrono::Utc;
use rusqlite::params;

use super::StoreError;
use crate::recipient_seal::{RecipientDetails, RecipientSeal};

/// What is kept sealed, as the store could open it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sealed<T> {
    Open(T),
    /// Sealed and not readable now: the keyring is locked, or its key is gone.
    Locked,
}

impl<T: Default> Default for Sealed<T> {
    fn default() -> Self {
        Self::Open(T::default())
    }
}

impl<T> Sealed<T> {
    /// What it holds, when it could be opened.
    pub fn open(&self) -> Option<&T> {
        match self {
            Self::Open(t) => Some(t),
            Self::Locked => None,
        }
    }

    pub fn is_locked(&self) -> bool {
        matches!(self, Self::Locked)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Recipient {
    /// What the exchange counts as "the same destination": the address, the Lightning address, the
    /// LNURL's URL, or for invoices the payee node (see `Destination::identity`).
    pub identity: String,
    /// The destination as the user last entered it (an address, a Lightning address…).
    pub destination: String,
    /// The user's own name for it.
    pub label: String,
    /// What the travel rule asks of it, sealed at rest: only the label and destination are
    /// known while it cannot be opened.
    pub details: Sealed<RecipientDetails>,
    /// The accounts it was saved for; `None` when they were not known.
    pub account_identity: Option<super::IdentityId>,
}

impl Recipient {
    /// Whether it is offered to a credential that sees `here`: saved for those accounts, or
    /// where no accounts were known.
    /// A Lightning invoice saved by an earlier version: an invoice is paid once, so it is never
    /// offered as a recipient.
    pub fn is_invoice(&self) -> bool {
        let d = self.destination.trim().to_ascii_lowercase();
        let d = d.strip_prefix("lightning:").unwrap_or(&d);
        d.starts_with("ln") && !d.starts_with("lnurl")
    }

    pub fn belongs_to(&self, here: Option<super::IdentityId>) -> bool {
        self.account_identity.is_none() || self.account_identity == here
    }

    /// Its details, to seal; one that could not be opened has none to seal.
    fn details(&self) -> Result<&RecipientDetails, StoreError> {
        self.details.open().ok_or(StoreError::RecipientsLocked)
    }
}

const SELECT: &str = "SELECT identity, destination, label, full_name, country, address, nin, exchange, self_custody, sealed, identity_id FROM recipients";

/// A row as stored: plaintext details (from before sealing) or a sealed value.
struct Row {
    plain: Recipient,
    sealed: Option<Vec<u8>>,
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    Ok(Row {
        plain: Recipient {
            identity: r.get(0)?,
            destination: r.get(1)?,
            label: r.get(2)?,
            details: Sealed::Open(RecipientDetails {
                full_name: r.get(3)?,
                country: r.get(4)?,
                address: r.get(5)?,
                nin: r.get(6)?,
                exchange: r.get(7)?,
                self_custody: r.get(8)?,
            }),
            account_identity: r.get::<_, Option<i64>>(10)?.map(super::IdentityId),
        },
        sealed: r.get(9)?,
    })
}

impl super::Recipients<'_> {
    fn seal(&self) -> std::sync::MutexGuard<'_, Option<RecipientSeal>> {
        self.recipient_seal
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Gives the store the key of saved recipients' details, and seals every row still in
    /// plaintext (from before sealing, or saved while the keyring was locked). Returns how many.
    pub fn unlock(&self, seal: RecipientSeal) -> Result<usize, StoreError> {
        let mut db = self.db();
        let tx = db.transaction()?;
        let plain = {
            let mut q = tx.prepare(&format!("{SELECT} WHERE sealed IS NULL"))?;
            q.query_map([], row)?.collect::<Result<Vec<_>, _>>()?
        };
        for r in &plain {
            let sealed = seal.seal(&r.plain.identity, r.plain.details()?)?;
            tx.execute(
                "UPDATE recipients SET full_name = '', country = '', address = '', nin = '',
                 exchange = '', self_custody = 0, sealed = ?2 WHERE identity = ?1",
                params![r.plain.identity, sealed],
            )?;
        }
        tx.commit()?;
        if !plain.is_empty() {
            // The plaintext may linger in the write-ahead log until it is folded into the file
            // (where `secure_delete` zeroes it) and the log is emptied.
            db.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        }
        drop(db);
        *self.seal() = Some(seal);
        Ok(plain.len())
    }

    /// A stored row as the app sees it: details opened when the key is here and fits.
    fn opened(&self, r: Row) -> Recipient {
        let Some(sealed) = r.sealed else {
            return r.plain;
        };
        let opened = self
            .seal()
            .as_ref()
            .and_then(|seal| seal.open(&r.plain.identity, &sealed).ok());
        Recipient {
            details: opened.map_or(Sealed::Locked, Sealed::Open),
            ..r.plain
        }
    }

    /// Adds or replaces the recipient of `identity`, and marks it used now. Its details are
    /// sealed; without the key (a locked keyring) nothing is written.
    pub fn save(&self, r: &Recipient) -> Result<(), StoreError> {
        let sealed = match self.seal().as_ref() {
            Some(seal) => seal.seal(&r.identity, r.details()?)?,
            None => return Err(StoreError::RecipientsLocked),
        };
        self.db().execute(
            "INSERT OR REPLACE INTO recipients (identity, destination, label, full_name, country, address, nin, exchange, self_custody, last_used_ms, sealed, identity_id)
             VALUES (?1, ?2, ?3, '', '', '', '', '', 0, ?4, ?5, ?6)",
            params![
                r.identity,
                r.destination,
                r.label,
                Utc::now().timestamp_millis(),
                sealed,
                r.account_identity.map(|i| i.0)
            ],
        )?;
        Ok(())
    }

    pub fn get(&self, identity: &str) -> Result<Option<Recipient>, StoreError> {
        let found = {
            let db = self.db();
            let mut q = db.prepare(&format!("{SELECT} WHERE identity = ?1"))?;
            let mut rows = q.query_map([identity], row)?;
            rows.next().transpose()?
        };
        Ok(found.map(|r| self.opened(r)))
    }

    /// Most recently used first.
    pub fn all(&self) -> Result<Vec<Recipient>, StoreError> {
        let rows = {
            let db = self.db();
            let mut q = db.prepare(&format!("{SELECT} ORDER BY last_used_ms DESC, identity"))?;
            q.query_map([], row)?.collect::<Result<Vec<_>, _>>()?
        };
        Ok(rows.into_iter().map(|r| self.opened(r)).collect())
    }

    /// Returns whether there was one to delete.
    pub fn delete(&self, identity: &str) -> Result<bool, StoreError> {
        Ok(self
            .db()
            .execute("DELETE FROM recipients WHERE identity = ?1", [identity])?
            > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    use crate::recipient_seal::kari as kari_details;

    fn kari() -> Recipient {
        Recipient {
            identity: "bc1qexample".into(),
            destination: "bc1qexample".into(),
            label: "Kari".into(),
            details: Sealed::Open(kari_details()),
            ..Recipient::default()
        }
    }

    fn unlocked() -> Store {
        let s = Store::in_memory().unwrap();
        s.recipients()
            .unlock(RecipientSeal::generate().unwrap())
            .unwrap();
        s
    }

    #[test]
    fn saved_recipients_can_be_edited_and_deleted() {
        let s = unlocked();
        let mut r = kari();
        s.recipients().save(&r).unwrap();
        r.details = Sealed::Open(RecipientDetails {
            address: "Lillegata 2, 0155 Oslo".into(),
            ..kari_details()
        });
        s.recipients().save(&r).unwrap();
        assert_eq!(
            s.recipients().all().unwrap(),
            vec![r.clone()],
            "edited in place, not added twice"
        );
        assert_eq!(s.recipients().get("bc1qexample").unwrap(), Some(r));
        assert!(s.recipients().delete("bc1qexample").unwrap());
        assert!(!s.recipients().delete("bc1qexample").unwrap());
        assert!(s.recipients().get("bc1qexample").unwrap().is_none());
    }

    /// Every byte of the database and its log, as a thief who copies them would read them.
    fn file_bytes(path: &std::path::Path) -> String {
        let mut all = Vec::new();
        for suffix in ["", "-wal", "-journal"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            all.extend(std::fs::read(p).unwrap_or_default());
        }
        String::from_utf8_lossy(&all).into_owned()
    }

    #[test]
    fn plaintext_rows_from_before_are_sealed_at_the_first_unlock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        let key = {
            let s = Store::open(&path).unwrap();
            // A row as an older Nordlys wrote it.
            let (r, d) = (kari(), kari_details());
            s.db()
                .execute(
                    "INSERT INTO recipients (identity, destination, label, full_name, country, address, nin, exchange, self_custody, last_used_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, '', 0, 1)",
                    params![r.identity, r.destination, r.label, d.full_name, d.country, d.address, d.nin],
                )
                .unwrap();
            assert!(file_bytes(&path).contains("01017012345"));
            let keyring = crate::platform::secrets::MemorySecretStore::default();
            let seal = RecipientSeal::for_profile(&keyring, "p").unwrap();
            assert_eq!(s.recipients().unlock(seal).unwrap(), 1);
            assert_eq!(s.recipients().get("bc1qexample").unwrap(), Some(kari()));
            keyring
        };
        let bytes = file_bytes(&path);
        for plain in ["01017012345", "Storgata", "Kari Nordmann"] {
            assert!(
                !bytes.contains(plain),
                "`{plain}` is still readable in the file"
            );
        }
        assert!(
            bytes.contains("bc1qexample"),
            "the destination stays readable"
        );
        // Opened again with the same key, nothing changes; nothing is left to seal.
        let s = Store::open(&path).unwrap();
        let seal = RecipientSeal::for_profile(&key, "p").unwrap();
        assert_eq!(s.recipients().unlock(seal).unwrap(), 0);
        assert_eq!(s.recipients().all().unwrap(), vec![kari()]);
    }

    #[test]
    fn without_the_key_a_recipient_is_its_label_only_and_nothing_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nordlys.sqlite");
        {
            let s = Store::open(&path).unwrap();
            s.recipients()
                .unlock(RecipientSeal::generate().unwrap())
                .unwrap();
            s.recipients().save(&kari()).unwrap();
        }
        let locked = Recipient {
            identity: "bc1qexample".into(),
            destination: "bc1qexample".into(),
            label: "Kari".into(),
            details: Sealed::Locked,
            ..Recipient::default()
        };
        // The keyring is locked: no key at all.
        let s = Store::open(&path).unwrap();
        assert_eq!(s.recipients().all().unwrap(), vec![locked.clone()]);
        assert!(matches!(
            s.recipients().save(&kari()),
            Err(StoreError::RecipientsLocked)
        ));
        // The keyring lost its entry and a new key was made: the old details stay sealed.
        s.recipients()
            .unlock(RecipientSeal::generate().unwrap())
            .unwrap();
        assert_eq!(s.recipients().get("bc1qexample").unwrap(), Some(locked));
        // Entered again, they are sealed under the new key.
        s.recipients().save(&kari()).unwrap();
        assert_eq!(s.recipients().get("bc1qexample").unwrap(), Some(kari()));
    }

    #[test]
    fn an_invoice_saved_by_an_earlier_version_is_known_as_one() {
        let with = |d: &str| Recipient {
            destination: d.into(),
            ..Recipient::default()
        };
        assert!(with("lnbc25m1pvjluez").is_invoice());
        assert!(with("LIGHTNING:LNBC25M1").is_invoice());
        for not in [
            "lnurl1dp68gurn8ghj7",
            "kari@example.com",
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
        ] {
            assert!(!with(not).is_invoice(), "{not}");
        }
    }
}
