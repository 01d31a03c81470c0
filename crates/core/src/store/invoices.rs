//! Invoices the user created, so the receive screen can list them with their last known status
//! (the API has no listing of invoices).

use chrono::{DateTime, Utc};
use nordlys_exchange::models::InvoiceStatus;
use nordlys_money::{Btc, Nok};
use rusqlite::params;

use super::{StoreError, dec_opt, time};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredInvoice {
    /// The `ded_` id.
    pub id: String,
    pub invoice: String,
    pub account_id: Option<String>,
    /// `None`: any amount.
    pub amount_btc: Option<Btc>,
    /// How the user asked for the amount: it is shown the same way.
    pub asked: Asked,
    pub public_description: String,
    pub private_note: String,
    /// The status as last seen (unknown names are kept as they are).
    pub status: InvoiceStatus,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// The accounts it was made for; `None`: made before identities, or where they could not
    /// be learned.
    pub account_identity: Option<super::IdentityId>,
}

/// How an invoice's amount was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Asked {
    /// In BTC, or for any amount.
    #[default]
    Btc,
    Sats,
    /// This many kroner; the exchange chose the bitcoin.
    Nok(Nok),
}

impl StoredInvoice {
    /// Whether it is for the accounts `here` (or for no accounts in particular): only those are
    /// listed and asked about, since the exchange shows an invoice only to its own accounts.
    pub fn belongs_to(&self, here: Option<super::IdentityId>) -> bool {
        self.account_identity.is_none() || self.account_identity == here
    }
}

/// The invoices of the identity in parameter `n` (none: all), and those bound to none.
fn of_here(n: usize) -> String {
    format!("(?{n} IS NULL OR identity_id IS NULL OR identity_id = ?{n})")
}

const SELECT: &str = "SELECT id, invoice, account_id, amount_btc, asked_unit, public_description, private_note, status, created_at_ms, expires_at_ms, identity_id, asked_nok FROM invoices";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredInvoice> {
    Ok(StoredInvoice {
        id: r.get(0)?,
        invoice: r.get(1)?,
        account_id: r.get(2)?,
        amount_btc: dec_opt(r, 3)?,
        asked: match (r.get::<_, String>(4)?.as_str(), dec_opt::<Nok>(r, 11)?) {
            ("sats", _) => Asked::Sats,
            ("nok", Some(nok)) => Asked::Nok(nok),
            // `btc`, or a unit a later version wrote: the invoice's own amount says it.
            _ => Asked::Btc,
        },
        public_description: r.get(5)?,
        private_note: r.get(6)?,
        status: InvoiceStatus::from(r.get::<_, String>(7)?.as_str()),
        created_at: time(r.get(8)?),
        expires_at: time(r.get(9)?),
        account_identity: r.get::<_, Option<i64>>(10)?.map(super::IdentityId),
    })
}

impl super::Invoices<'_> {
    pub fn add(&self, i: &StoredInvoice) -> Result<(), StoreError> {
        self.db().execute(
            "INSERT OR REPLACE INTO invoices (id, invoice, account_id, amount_btc, asked_unit, public_description, private_note, status, created_at_ms, expires_at_ms, updated_at_ms, identity_id, asked_nok, requested)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?9, ?11, ?12, '')",
            params![
                i.id,
                i.invoice,
                i.account_id,
                i.amount_btc.map(|a| a.to_string()),
                match i.asked {
                    Asked::Btc => "btc",
                    Asked::Sats => "sats",
                    Asked::Nok(_) => "nok",
                },
                i.public_description,
                i.private_note,
                i.status.as_str(),
                i.created_at.timestamp_millis(),
                i.expires_at.timestamp_millis(),
                i.account_identity.map(|id| id.0),
                match i.asked {
                    Asked::Nok(n) => Some(n.to_string()),
                    Asked::Btc | Asked::Sats => None,
                }
            ],
        )?;
        Ok(())
    }

    /// Records a status; returns the one it replaces, so a change (to paid, say) can be announced
    /// once.
    pub fn set_status(
        &self,
        id: &str,
        status: &InvoiceStatus,
    ) -> Result<Option<InvoiceStatus>, StoreError> {
        let db = self.db();
        let before: Option<String> = db
            .query_row("SELECT status FROM invoices WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .ok();
        db.execute(
            "UPDATE invoices SET status = ?2, updated_at_ms = ?3 WHERE id = ?1",
            params![id, status.as_str(), Utc::now().timestamp_millis()],
        )?;
        Ok(before.map(|s| InvoiceStatus::from(s.as_str())))
    }

    /// Whether `invoice` (as read from what was pasted) is one this profile created.
    pub fn is_own(&self, invoice: &str) -> Result<bool, StoreError> {
        let db = self.db();
        let mut q = db.prepare("SELECT 1 FROM invoices WHERE invoice = ?1 LIMIT 1")?;
        Ok(q.exists([invoice.trim().to_ascii_lowercase()])?)
    }

    pub fn by_id(&self, id: &str) -> Result<Option<StoredInvoice>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!("{SELECT} WHERE id = ?1"))?;
        let mut rows = q.query_map([id], row)?;
        Ok(rows.next().transpose()?)
    }

    /// Invoices of the accounts `here` (see [`StoredInvoice::belongs_to`]; `None`, not known:
    /// all) that may still be paid: unpaid or pending, and not expired before `since`. The
    /// newest first.
    pub fn open(
        &self,
        since: DateTime<Utc>,
        here: Option<super::IdentityId>,
    ) -> Result<Vec<StoredInvoice>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!(
            "{SELECT} WHERE status IN (?1, ?2) AND expires_at_ms > ?3 AND {}
             ORDER BY created_at_ms DESC",
            of_here(4)
        ))?;
        let rows = q.query_map(
            rusqlite::params![
                InvoiceStatus::Unpaid.as_str(),
                InvoiceStatus::Pending.as_str(),
                since.timestamp_millis(),
                here.map(|h| h.0)
            ],
            row,
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The newest `limit` invoices of the accounts `here` (`None`, not known: all).
    pub fn recent(
        &self,
        limit: u32,
        here: Option<super::IdentityId>,
    ) -> Result<Vec<StoredInvoice>, StoreError> {
        let db = self.db();
        let mut q = db.prepare(&format!(
            "{SELECT} WHERE {} ORDER BY created_at_ms DESC, id LIMIT ?1",
            of_here(2)
        ))?;
        let rows = q.query_map(rusqlite::params![limit, here.map(|h| h.0)], row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn invoices_keep_their_status_history_and_order() {
        let s = Store::in_memory().unwrap();
        let now = Utc::now();
        for (n, id) in ["ded_a", "ded_b"].iter().enumerate() {
            s.invoices()
                .add(&StoredInvoice {
                    id: (*id).into(),
                    invoice: format!("lnbc{n}"),
                    account_id: None,
                    amount_btc: (n == 0).then(|| Btc::from_sats(100_000)),
                    asked: if n == 0 {
                        Asked::Nok(Nok::computed(rust_decimal::Decimal::new(500, 0)))
                    } else {
                        Asked::Sats
                    },
                    public_description: "Kaffe".into(),
                    private_note: "bord 4".into(),
                    status: InvoiceStatus::Unpaid,
                    created_at: now + chrono::Duration::seconds(n as i64),
                    expires_at: now + chrono::Duration::hours(1),
                    account_identity: None,
                })
                .unwrap();
        }
        let list = s.invoices().recent(10, None).unwrap();
        assert_eq!(list[0].id, "ded_b", "newest first");
        assert_eq!(
            s.invoices().open(now, None).unwrap().len(),
            2,
            "both still payable"
        );
        assert!(
            s.invoices()
                .open(now + chrono::Duration::hours(2), None)
                .unwrap()
                .is_empty(),
            "expired before then"
        );
        assert_eq!(list[1].amount_btc, Some(Btc::from_sats(100_000)));
        // How each was asked for comes back as it was kept.
        assert_eq!(
            (list[1].asked, list[0].asked),
            (
                Asked::Nok(Nok::computed(rust_decimal::Decimal::new(500, 0))),
                Asked::Sats
            )
        );
        assert_eq!(
            s.invoices()
                .set_status("ded_a", &InvoiceStatus::Paid)
                .unwrap(),
            Some(InvoiceStatus::Unpaid)
        );
        assert_eq!(
            s.invoices().by_id("ded_a").unwrap().unwrap().status,
            InvoiceStatus::Paid
        );
        let open: Vec<String> = s
            .invoices()
            .open(now, None)
            .unwrap()
            .into_iter()
            .map(|i| i.id)
            .collect();
        assert_eq!(open, ["ded_b"], "a paid invoice is no longer watched");
        let later = InvoiceStatus::Unknown("a status added later".into());
        s.invoices().set_status("ded_b", &later).unwrap();
        assert_eq!(
            s.invoices().by_id("ded_b").unwrap().unwrap().status,
            later,
            "a status this version does not know is kept as it is"
        );
        assert!(s.invoices().by_id("ded_x").unwrap().is_none());
    }

    #[test]
    fn an_invoice_is_listed_and_followed_only_for_its_own_accounts() {
        use super::super::IdentityId;
        let s = Store::in_memory().unwrap();
        let now = Utc::now();
        for (id, owner) in [
            ("ded_mine", Some(1)),
            ("ded_theirs", Some(2)),
            ("ded_old", None),
        ] {
            s.invoices()
                .add(&StoredInvoice {
                    id: id.into(),
                    invoice: format!("lnbc{id}"),
                    account_id: None,
                    amount_btc: None,
                    asked: Asked::Btc,
                    public_description: String::new(),
                    private_note: String::new(),
                    status: InvoiceStatus::Unpaid,
                    created_at: now,
                    expires_at: now + chrono::Duration::hours(1),
                    account_identity: owner.map(IdentityId),
                })
                .unwrap();
        }
        let ids = |list: Vec<StoredInvoice>| {
            let mut ids: Vec<String> = list.into_iter().map(|i| i.id).collect();
            ids.sort();
            ids
        };
        let mine = Some(IdentityId(1));
        assert_eq!(
            ids(s.invoices().open(now, mine).unwrap()),
            ["ded_mine", "ded_old"]
        );
        assert_eq!(
            ids(s.invoices().recent(10, mine).unwrap()),
            ["ded_mine", "ded_old"]
        );
        // Whose accounts the credential sees is not known: every one.
        assert_eq!(s.invoices().recent(10, None).unwrap().len(), 3);
        let theirs = s.invoices().by_id("ded_theirs").unwrap().unwrap();
        assert!(!theirs.belongs_to(mine) && theirs.belongs_to(Some(IdentityId(2))));
    }
}
