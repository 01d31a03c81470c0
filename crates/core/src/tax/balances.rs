//! Each account's bitcoin after each row, computed from the row's own amounts (in, out, fee, by
//! account), never taken from `runningBalanceBtc`: the specification calls that "running BTC
//! balance", the operator's newest description "the user's total BTC balance across all
//! accounts". The figures here hold under either reading, and `runningBalanceBtc` is only a
//! cross-check: a row contradicts its history when it equals neither the computed total nor its
//! account's computed balance. A history consistent with either reading is never marked.
//!
//! A BTC fee is taken on top of the amount (the published placement: "withdrawal fees come on
//! top"); a history whose fees were inside would contradict itself and be marked, not guessed at.

use nordlys_exchange::models::{CurrencyCode, TaxTransaction};
use nordlys_money::Btc;
use rust_decimal::Decimal;

use super::gains::amount;

/// The most contradicting rows named; past it they are only counted.
const NAMED: usize = 5;

/// Rows whose `runningBalanceBtc` the computed balances cannot explain under either reading.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contradiction {
    /// The first few such rows' ids, oldest first.
    pub ids: Vec<String>,
    /// How many rows contradict in all.
    pub rows: u64,
}

/// The balances computed so far, fed rows oldest first.
#[derive(Debug, Clone, Default)]
pub struct BalanceBook {
    /// Account id and its balance, in the order accounts first appear (a user has a handful).
    accounts: Vec<(String, Decimal)>,
    total: Decimal,
    contradiction: Option<Contradiction>,
    /// Amounts too large to add (a hostile answer): nothing computed is trusted after it.
    overflowed: bool,
    /// A pending row was read: its fee may still come, so later rows are not cross-checked
    /// until it has settled (the figures are "not computable yet" meanwhile).
    pending_seen: bool,
}

/// The bitcoin a row moves its account by: in, less out, less a BTC fee on top.
pub fn btc_move(t: &TaxTransaction) -> Option<Decimal> {
    let btc = |v, c: &Option<CurrencyCode>| amount(v, c.as_ref(), &CurrencyCode::Btc);
    btc(t.in_amount, &t.in_currency)
        .checked_sub(btc(t.out_amount, &t.out_currency))?
        .checked_sub(btc(t.fee_amount, &t.fee_currency))
}

impl BalanceBook {
    /// Reads one row; returns its account's balance after it (`None` for a row of no account,
    /// or once the amounts overflowed).
    pub fn add(&mut self, t: &TaxTransaction) -> Option<Btc> {
        let account = t.account_id.as_ref().map(|a| a.as_str());
        let after = match (account, btc_move(t)) {
            (Some(account), Some(moved)) => self.apply(account, moved),
            (Some(_), None) => {
                self.overflowed = true;
                None
            }
            // A row of no bitcoin account moves no bitcoin that is counted.
            (None, _) => None,
        };
        self.check(t, after);
        after.map(Btc::computed)
    }

    fn apply(&mut self, account: &str, moved: Decimal) -> Option<Decimal> {
        let i = match self.accounts.iter().position(|(a, _)| a == account) {
            Some(i) => i,
            None => {
                self.accounts.push((account.to_owned(), Decimal::ZERO));
                self.accounts.len() - 1
            }
        };
        let (Some(balance), Some(total)) = (
            self.accounts[i].1.checked_add(moved),
            self.total.checked_add(moved),
        ) else {
            self.overflowed = true;
            return None;
        };
        self.accounts[i].1 = balance;
        self.total = total;
        Some(balance)
    }

    /// Marks `t` when its `runningBalanceBtc` is neither the computed total nor its account's
    /// computed balance (for a row of no account, its account's balance is none at all: 0).
    fn check(&mut self, t: &TaxTransaction, account_after: Option<Decimal>) {
        if t.finalize_time.is_none() {
            self.pending_seen = true;
        }
        if self.pending_seen || self.overflowed {
            return;
        }
        let running = t.running_balance_btc.decimal();
        let own = match &t.account_id {
            Some(_) => account_after,
            None => Some(Decimal::ZERO),
        };
        if running == self.total || Some(running) == own {
            return;
        }
        let c = self
            .contradiction
            .get_or_insert_with(Contradiction::default);
        c.rows += 1;
        if c.ids.len() < NAMED {
            c.ids.push(t.id.as_str().to_owned());
        }
    }

    /// Each account's balance, in the order accounts first appeared; `None` once the amounts
    /// overflowed.
    pub fn balances(&self) -> Option<impl Iterator<Item = (&str, Btc)>> {
        (!self.overflowed).then(|| {
            self.accounts
                .iter()
                .map(|(a, b)| (a.as_str(), Btc::computed(*b)))
        })
    }

    /// The balance of `account`, 0 if it has had no row.
    pub fn balance(&self, account: &str) -> Btc {
        Btc::computed(
            self.accounts
                .iter()
                .find(|(a, _)| a == account)
                .map_or(Decimal::ZERO, |(_, b)| *b),
        )
    }

    /// The total over all accounts; `None` once the amounts overflowed.
    pub fn total(&self) -> Option<Btc> {
        (!self.overflowed).then_some(Btc::computed(self.total))
    }

    /// The rows whose running balance contradicts the computed balances, if any.
    pub fn contradiction(&self) -> Option<&Contradiction> {
        self.contradiction.as_ref()
    }

    /// Whether the amounts were too large to add up.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }
}

/// Each stored row's account balance after it, computed from the amounts in one pass over the
/// history and kept for the tax list (which shows a block of rows at a time, filtered or not):
/// 24 bytes a row, keyed by a hash of the row's id, read again when the stored rows change.
#[derive(Debug, Clone)]
pub struct BalanceIndex {
    /// The store's tax generation the index was read at.
    generation: u64,
    /// (hash of the row id, its account's balance after it), sorted by hash.
    after: Vec<(u64, Btc)>,
}

fn id_hash(id: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut h);
    h.finish()
}

impl BalanceIndex {
    pub fn read(store: &crate::store::Store) -> Result<Self, crate::store::StoreError> {
        // Read first: a write during the reading makes the index stale, never wrongly current.
        let generation = store.tax_generation();
        let mut book = BalanceBook::default();
        let mut after = Vec::new();
        store.tax().each_transaction::<crate::store::StoreError>(
            &crate::store::TaxFilter::default(),
            |t| {
                if let Some(b) = book.add(t) {
                    after.push((id_hash(t.id.as_str()), b));
                }
                Ok(())
            },
        )?;
        after.sort_unstable_by_key(|(h, _)| *h);
        Ok(Self { generation, after })
    }

    /// Whether the index still stands for `store` as it is now.
    pub fn holds_for(&self, store: &crate::store::Store) -> bool {
        self.generation == store.tax_generation()
    }

    /// The balance of row `id`'s account after it; `None` for a row of no account (or not
    /// stored when the index was read).
    pub fn after(&self, id: &str) -> Option<Btc> {
        let h = id_hash(id);
        self.after
            .binary_search_by_key(&h, |(k, _)| *k)
            .ok()
            .map(|i| self.after[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::tests_support::{RowParts, tx};
    use nordlys_exchange::models::TaxTransactionType::{
        BtcBuy, BtcDeposit, BtcWithdrawal, FiatDeposit,
    };

    /// Two funded accounts, `a` and `b`: a buy into each, a transfer out of `b` with its fee on
    /// top, and a bank deposit. `running` gives each row's `runningBalanceBtc` under one reading.
    fn history(running: [&str; 4]) -> Vec<TaxTransaction> {
        let mut bank = tx(
            "f",
            "2024-03-01T10:00:00Z",
            "",
            FiatDeposit,
            running[3],
            "0",
        )
        .received("10000", "NOK");
        bank.account_id = None;
        vec![
            tx(
                "1",
                "2024-01-01T10:00:00Z",
                "a",
                BtcBuy,
                running[0],
                "500000",
            )
            .received("0.005", "BTC")
            .paid("2500", "NOK"),
            tx(
                "2",
                "2024-01-02T10:00:00Z",
                "b",
                BtcDeposit,
                running[1],
                "500000",
            )
            .received("0.03", "BTC"),
            tx(
                "3",
                "2024-02-01T10:00:00Z",
                "b",
                BtcWithdrawal,
                running[2],
                "500000",
            )
            .paid("0.0049", "BTC")
            .fee("0.0001", "BTC"),
            bank,
        ]
    }

    fn read(rows: &[TaxTransaction]) -> (BalanceBook, Vec<Option<Btc>>) {
        let mut book = BalanceBook::default();
        let after = rows.iter().map(|t| book.add(t)).collect();
        (book, after)
    }

    fn btc(s: &str) -> Btc {
        Btc::computed(s.parse().unwrap())
    }

    #[test]
    fn the_figures_are_the_same_under_either_reading_and_neither_is_marked() {
        // By hand: a = 0.005; b = 0.03 − 0.0049 − 0.0001 = 0.025; total 0.03.
        let total = history(["0.005", "0.035", "0.03", "0.03"]);
        let account = history(["0.005", "0.03", "0.025", "0.03"]);
        for rows in [total, account] {
            let (book, after) = read(&rows);
            assert_eq!(
                after,
                vec![
                    Some(btc("0.005")),
                    Some(btc("0.03")),
                    Some(btc("0.025")),
                    None
                ]
            );
            assert_eq!(book.balance("a"), btc("0.005"));
            assert_eq!(book.balance("b"), btc("0.025"));
            assert_eq!(book.total(), Some(btc("0.03")));
            assert_eq!(book.contradiction(), None);
        }
    }

    #[test]
    fn the_index_gives_each_rows_account_balance_after_it_under_either_reading() {
        for rows in [
            history(["0.005", "0.035", "0.03", "0.03"]),
            history(["0.005", "0.03", "0.025", "0.03"]),
        ] {
            let store = crate::tax::tests_support::store_of(rows);
            let index = BalanceIndex::read(&store).unwrap();
            assert_eq!(index.after("1"), Some(btc("0.005")));
            assert_eq!(index.after("2"), Some(btc("0.03")));
            assert_eq!(index.after("3"), Some(btc("0.025")));
            assert_eq!(index.after("f"), None, "a bank row has no account");
            assert!(index.holds_for(&store));
        }
    }

    #[test]
    fn a_row_that_neither_reading_explains_is_named() {
        // Row 3 says 0.0251: neither b's 0.025 nor the total 0.03.
        let (book, _) = read(&history(["0.005", "0.035", "0.0251", "0.03"]));
        assert_eq!(
            book.contradiction(),
            Some(&Contradiction {
                ids: vec!["3".into()],
                rows: 1
            })
        );
        // The bank row of no account says 0.0: its account holds nothing, so it is explained.
        let (book, _) = read(&history(["0.005", "0.035", "0.03", "0"]));
        assert_eq!(book.contradiction(), None);
    }

    #[test]
    fn rows_after_a_pending_one_are_not_judged_until_it_settles() {
        let mut rows = history(["0.005", "0.035", "0.0299", "0.0299"]);
        // The transfer is pending: its fee is not listed yet, and a later row says otherwise.
        rows[2].finalize_time = None;
        let (book, _) = read(&rows);
        assert_eq!(book.contradiction(), None);
    }

    #[test]
    fn amounts_too_large_to_add_are_not_computable_and_nothing_panics() {
        let rows = vec![
            tx("1", "2024-01-01T10:00:00Z", "a", BtcDeposit, "0", "1")
                .received("79228162514264337593543950335", "BTC"),
            tx("2", "2024-01-02T10:00:00Z", "a", BtcDeposit, "0", "1")
                .received("79228162514264337593543950335", "BTC"),
        ];
        let (book, _) = read(&rows);
        assert!(book.overflowed());
        assert!(book.total().is_none());
        assert!(book.balances().is_none());
    }
}
