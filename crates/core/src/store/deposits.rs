//! Deposits as told to the user: each bitcoin deposit row of the history is told once, by its id,
//! whenever it arrives (while Nordlys runs or while it was closed), and never again after a
//! restart. What the history held when the watch began is not news, unless it was made just
//! before.

use chrono::{DateTime, Utc};
use nordlys_exchange::models::{InvoiceStatus, TaxSubType, TaxTransaction, TaxTransactionType};
use rusqlite::params;
use rust_decimal::Decimal;

use super::StoreError;
use super::tax::{COLUMNS, stamp, stored_row};

/// The most deposits one read returns; the rest follow on the next.
const BATCH: i64 = 500;

/// A deposit not told yet, and the invoice made in Nordlys that it paid, if one matches: that
/// invoice's own notice told of it already.
#[derive(Debug, Clone, PartialEq)]
pub struct UntoldDeposit {
    pub row: TaxTransaction,
    pub paid_invoice: Option<String>,
}

impl super::Deposits<'_> {
    /// Begins the watch for deposits when the history is first read, at `since` on the
    /// exchange's clock: a deposit created from then on is news, even when the first read of a
    /// long history stores it before that read ends. Once begun it keeps its start (until the
    /// history is forgotten).
    pub fn begin_watch(&self, since: DateTime<Utc>) -> Result<(), StoreError> {
        self.db().execute(
            "INSERT OR IGNORE INTO deposit_watch (only, since, whole_seq) VALUES (1, ?1, NULL)",
            params![stamp(&since)],
        )?;
        Ok(())
    }

    /// The history has been read whole: every deposit stored from now on is news, whenever it
    /// was created (a row listed late). Only the first such read counts.
    pub fn history_whole(&self) -> Result<(), StoreError> {
        self.db().execute(
            "UPDATE deposit_watch
             SET whole_seq = (SELECT COALESCE(MAX(seq), 0) FROM tax_transactions)
             WHERE whole_seq IS NULL",
            [],
        )?;
        Ok(())
    }

    /// Takes the bitcoin deposits stored since the watch began and not told yet (at most a
    /// batch, in the order they were stored), recording them as told at `at` in the same
    /// transaction: two looks at once, in one process or two, never take the same deposit.
    pub fn take_untold(&self, at: DateTime<Utc>) -> Result<Vec<UntoldDeposit>, StoreError> {
        let mut db = self.db();
        let tx = db.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let raw = {
            let mut q = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM tax_transactions
                 WHERE seq IN (
                         -- Two index searches, where an OR would scan the whole history.
                         SELECT seq FROM tax_transactions
                         WHERE create_time >= (SELECT since FROM deposit_watch)
                         UNION ALL
                         SELECT seq FROM tax_transactions
                         WHERE seq > (SELECT whole_seq FROM deposit_watch))
                   AND type = ?1
                   AND id NOT IN (SELECT id FROM deposits_told)
                 ORDER BY seq LIMIT ?2"
            ))?;
            q.query_map(
                params![TaxTransactionType::BtcDeposit.as_str(), BATCH],
                stored_row,
            )?
            .collect::<Result<Vec<_>, _>>()?
        };
        if raw.is_empty() {
            return Ok(vec![]);
        }
        let rows = raw.into_iter().collect::<Result<Vec<_>, _>>()?;
        let earliest = rows.iter().map(|r| r.create_time).min().unwrap_or_default();
        let mut invoices = paid_invoices_untold(&tx, earliest - INVOICE_LIFE)?;
        let mut taken = Vec::with_capacity(rows.len());
        for row in rows {
            let paid_invoice = paid_by(&row, &mut invoices);
            tx.execute(
                "INSERT INTO deposits_told (id, told_at_ms, invoice_id) VALUES (?1, ?2, ?3)",
                params![row.id.as_str(), at.timestamp_millis(), paid_invoice],
            )?;
            taken.push(UntoldDeposit { row, paid_invoice });
        }
        tx.commit()?;
        Ok(taken)
    }
}

/// Longer than any invoice lives: one made longer before a deposit cannot be what it paid.
const INVOICE_LIFE: chrono::Duration = chrono::Duration::days(30);

/// Paid invoices made in Nordlys since `since` that no deposit row was matched to yet: id,
/// account, amount (`None`: any amount) and when each was made, oldest first. (Those paid before
/// the watch began are never matched; the bound keeps them from being read on every look.)
fn paid_invoices_untold(
    db: &rusqlite::Connection,
    since: DateTime<Utc>,
) -> Result<Vec<PaidInvoice>, StoreError> {
    let mut q = db.prepare_cached(
        "SELECT id, account_id, amount_btc, created_at_ms FROM invoices
         WHERE status = ?1 AND created_at_ms >= ?2 AND id NOT IN
             (SELECT invoice_id FROM deposits_told WHERE invoice_id IS NOT NULL)
         ORDER BY created_at_ms",
    )?;
    let rows = q
        .query_map(
            params![InvoiceStatus::Paid.as_str(), since.timestamp_millis()],
            |r| {
                Ok(PaidInvoice {
                    id: r.get(0)?,
                    account: r.get(1)?,
                    amount: r
                        .get::<_, Option<String>>(2)?
                        .and_then(|a| a.parse::<Decimal>().ok()),
                    made: super::time(r.get(3)?),
                })
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

struct PaidInvoice {
    id: String,
    account: Option<String>,
    amount: Option<Decimal>,
    made: DateTime<Utc>,
}

/// The paid invoice a Lightning deposit row is the payment of: made before it, to its account,
/// for its amount (or any amount). Taken from `invoices`, so no two rows share one.
fn paid_by(row: &TaxTransaction, invoices: &mut Vec<PaidInvoice>) -> Option<String> {
    if !matches!(
        row.sub_type,
        TaxSubType::Lightning | TaxSubType::LightningPaymentRequest
    ) {
        return None;
    }
    let at = invoices.iter().position(|i| {
        i.made <= row.create_time
            && i.account
                .as_deref()
                .is_none_or(|a| row.account_id.as_ref().is_none_or(|r| r.as_str() == a))
            && i.amount.is_none_or(|a| row.in_amount == Some(a))
    })?;
    Some(invoices.remove(at).id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::StoredInvoice;
    use crate::tax::tests_support::{RowParts, tx};
    use nordlys_exchange::models::ListedTaxTransaction;

    fn deposit(id: &str, at: &str, sub: TaxSubType, btc: &str) -> TaxTransaction {
        let mut t =
            tx(id, at, "acc_a", TaxTransactionType::BtcDeposit, "1", "1").received(btc, "BTC");
        t.sub_type = sub;
        t
    }

    fn store_rows(s: &Store, rows: &[TaxTransaction]) {
        let listed: Vec<Result<ListedTaxTransaction, _>> =
            rows.iter().cloned().map(|r| Ok(r.into())).collect();
        s.tax().add_page(&listed, None).unwrap();
    }

    fn take(s: &Store) -> Vec<UntoldDeposit> {
        s.deposits().take_untold(Utc::now()).unwrap()
    }

    fn ids(untold: &[UntoldDeposit]) -> Vec<String> {
        untold.iter().map(|d| d.row.id.to_string()).collect()
    }

    /// The watch's start on the exchange's clock for these tests: after every dated row below.
    fn since() -> DateTime<Utc> {
        "2024-06-01T00:00:00Z".parse().unwrap()
    }

    #[test]
    fn deposits_stored_after_the_history_was_read_whole_are_told_once_across_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.db");
        let s = Store::open(&path).unwrap();
        store_rows(
            &s,
            &[deposit(
                "de_old",
                "2024-01-01T10:00:00Z",
                TaxSubType::Onchain,
                "0.1",
            )],
        );
        assert!(take(&s).is_empty(), "no watch, no news");
        s.deposits().begin_watch(since()).unwrap();
        s.deposits().history_whole().unwrap();
        assert!(take(&s).is_empty(), "old rows are not news");

        // Arrived while the app was closed: one of them dated before the old row (a late row),
        // one a buy, which is no deposit.
        store_rows(
            &s,
            &[
                deposit(
                    "de_new",
                    "2024-02-01T10:00:00Z",
                    TaxSubType::LightningAddress,
                    "0.2",
                ),
                deposit(
                    "de_late",
                    "2023-12-01T10:00:00Z",
                    TaxSubType::Onchain,
                    "0.3",
                ),
                tx(
                    "tr_buy",
                    "2024-02-02T10:00:00Z",
                    "acc_a",
                    TaxTransactionType::BtcBuy,
                    "1",
                    "1",
                ),
            ],
        );
        drop(s);
        let s = Store::open(&path).unwrap();
        // A later read keeps the marks: the history read whole again moves nothing.
        s.deposits().begin_watch(Utc::now()).unwrap();
        s.deposits().history_whole().unwrap();
        assert_eq!(ids(&take(&s)), ["de_new", "de_late"]);
        assert!(take(&s).is_empty(), "taken once");
        drop(s);

        let s = Store::open(&path).unwrap();
        assert!(take(&s).is_empty(), "a restart repeats none");
        // A pending row made final is the same deposit.
        store_rows(
            &s,
            &[deposit(
                "de_new",
                "2024-02-01T10:00:00Z",
                TaxSubType::LightningAddress,
                "0.2",
            )],
        );
        assert!(take(&s).is_empty());
    }

    /// A long history is read oldest first: a deposit made after the watch began is news on the
    /// page that brings it, before the read ends; the older ones around it are not.
    #[test]
    fn a_deposit_made_while_the_history_is_first_read_is_told_before_the_read_ends() {
        let s = Store::in_memory().unwrap();
        s.deposits().begin_watch(since()).unwrap();
        store_rows(
            &s,
            &[deposit(
                "de_2023",
                "2023-01-01T10:00:00Z",
                TaxSubType::Onchain,
                "0.1",
            )],
        );
        assert!(take(&s).is_empty(), "history, not news");
        store_rows(
            &s,
            &[
                deposit(
                    "de_2024",
                    "2024-05-31T23:59:59Z",
                    TaxSubType::Onchain,
                    "0.2",
                ),
                deposit("de_now", "2024-06-01T00:00:00Z", TaxSubType::Onchain, "0.3"),
            ],
        );
        assert_eq!(ids(&take(&s)), ["de_now"]);
        // The read ends; a late row, dated before the watch began, is news from then on.
        s.deposits().history_whole().unwrap();
        assert!(take(&s).is_empty());
        store_rows(
            &s,
            &[deposit(
                "de_late",
                "2024-03-01T10:00:00Z",
                TaxSubType::Onchain,
                "0.4",
            )],
        );
        assert_eq!(ids(&take(&s)), ["de_late"]);
    }

    /// A store whose watch began before migration 16 (at the end of its first read) keeps it.
    #[test]
    fn a_watch_begun_before_the_migration_keeps_its_mark() {
        let s = Store::in_memory().unwrap();
        store_rows(
            &s,
            &[deposit(
                "de_old",
                "2024-01-01T10:00:00Z",
                TaxSubType::Onchain,
                "0.1",
            )],
        );
        s.db()
            .execute(
                "INSERT INTO deposit_watch (only, since, whole_seq) VALUES (1, NULL, 1)",
                [],
            )
            .unwrap();
        s.deposits().begin_watch(since()).unwrap();
        s.deposits().history_whole().unwrap();
        assert!(take(&s).is_empty());
        store_rows(
            &s,
            &[deposit(
                "de_new",
                "2023-01-01T10:00:00Z",
                TaxSubType::Onchain,
                "0.2",
            )],
        );
        assert_eq!(ids(&take(&s)), ["de_new"]);
    }

    #[test]
    fn a_forgotten_history_read_again_is_not_news() {
        let s = Store::in_memory().unwrap();
        s.deposits().begin_watch(since()).unwrap();
        s.deposits().history_whole().unwrap();
        let row = deposit("de_1", "2024-01-01T10:00:00Z", TaxSubType::Onchain, "0.1");
        let untold = deposit("de_0", "2023-01-01T10:00:00Z", TaxSubType::Onchain, "0.1");
        store_rows(&s, std::slice::from_ref(&row));
        assert_eq!(take(&s).len(), 1);
        s.tax().forget_history().unwrap();
        store_rows(&s, &[row, untold]);
        assert!(take(&s).is_empty(), "no watch until the next read");
        s.deposits().begin_watch(since()).unwrap();
        s.deposits().history_whole().unwrap();
        assert!(take(&s).is_empty());
    }

    #[test]
    fn a_lightning_deposit_is_matched_to_the_paid_invoice_that_told_of_it_once() {
        let s = Store::in_memory().unwrap();
        s.deposits().begin_watch(since()).unwrap();
        s.deposits().history_whole().unwrap();
        let made = "2024-03-01T10:00:00Z".parse().unwrap();
        // Paid before the watch began, two months before the rows: never what they paid.
        let long_before = "2024-01-01T10:00:00Z".parse().unwrap();
        for (id, amount, made) in [
            ("ded_old", None, long_before),
            ("ded_a", Some("0.0001"), made),
            ("ded_any", None, made),
        ] {
            s.invoices()
                .add(&StoredInvoice {
                    id: id.into(),
                    invoice: format!("lnbc-{id}"),
                    account_id: Some("acc_a".into()),
                    amount_btc: amount.map(|a| nordlys_money::Btc::computed(a.parse().unwrap())),
                    asked: Default::default(),
                    public_description: String::new(),
                    private_note: String::new(),
                    status: InvoiceStatus::Paid,
                    created_at: made,
                    expires_at: made,
                    account_identity: None,
                })
                .unwrap();
        }
        store_rows(
            &s,
            &[
                deposit(
                    "de_1",
                    "2024-03-01T10:01:00Z",
                    TaxSubType::LightningPaymentRequest,
                    "0.00010000",
                ),
                deposit(
                    "de_2",
                    "2024-03-01T10:02:00Z",
                    TaxSubType::LightningPaymentRequest,
                    "0.0005",
                ),
                // Paid with an invoice made elsewhere: both of ours are matched already.
                deposit(
                    "de_3",
                    "2024-03-01T10:03:00Z",
                    TaxSubType::Lightning,
                    "0.0001",
                ),
                // Not an invoice: told whatever its amount.
                deposit(
                    "de_4",
                    "2024-03-01T10:04:00Z",
                    TaxSubType::LightningLnurl,
                    "0.0001",
                ),
            ],
        );
        let paid: Vec<Option<String>> = take(&s).into_iter().map(|d| d.paid_invoice).collect();
        assert_eq!(
            paid,
            [Some("ded_a".into()), Some("ded_any".into()), None, None],
            "an invoice matches one row, of its amount or any"
        );
        store_rows(
            &s,
            &[deposit(
                "de_5",
                "2024-03-01T10:05:00Z",
                TaxSubType::LightningPaymentRequest,
                "0.0001",
            )],
        );
        let later = take(&s);
        assert_eq!(ids(&later), ["de_5"]);
        assert_eq!(
            later[0].paid_invoice, None,
            "a matched invoice stays matched"
        );
    }
}
