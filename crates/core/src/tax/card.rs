//! The tax return's card for virtual assets (schema v14, `VirtuellEiendel`), per income year:
//! units held at 31 December, their wealth value, realised gains and losses, and bonuses as
//! other capital income. By default one entry for bitcoin at this exchange, all accounts summed;
//! or one per account. Figures are computed exactly and filed as whole kroner.
//!
//! A figure is given only when the history supports it: a pending row, an unknown row type, a row
//! the client could not read, a sale of bitcoin the history does not show bought, a deposit whose
//! cost the user has not entered, a row with no rate or an unclear fee, and a missing year-end
//! rate each make the figures they feed not computable, with the reason.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use nordlys_exchange::models::{CurrencyCode, TaxSubType, TaxTransaction, TaxTransactionType};
use nordlys_money::{Btc, CheckedSum, Nok};
use sha2::{Digest, Sha256};

use super::balances::BalanceBook;
use super::gains::{
    DepositCosts, Disposal, EnteredCost, GainsBuilder, Income, Method, Unknown, amount,
};
pub use super::year_end::RateSource;
pub use super::year_end_rate::{NoRate, YearEndRate};
use crate::store::{Store, StoreError, TaxFilter};
use crate::time::{oslo_year, year_start};

/// The asset's name on the card.
pub const ASSET_NAME: &str = "Bitcoin";
/// Where the asset is held: an exchange in Norway.
pub const COUNTRY: &str = "NO";

/// The card's fields that carry figures, by their schema names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Antall,
    Formuesverdi,
    Gevinst,
    Tap,
    AnnenKapitalinntekt,
}

impl Field {
    pub const ALL: [Self; 5] = [
        Self::Antall,
        Self::Formuesverdi,
        Self::Gevinst,
        Self::Tap,
        Self::AnnenKapitalinntekt,
    ];

    pub fn schema_name(self) -> &'static str {
        match self {
            Self::Antall => "antall",
            Self::Formuesverdi => "formuesverdiForVirtuellEiendel",
            Self::Gevinst => "skattepliktigGevinstVedRealisasjonAvVirtuellEiendel",
            Self::Tap => "skattepliktigTapVedRealisasjonAvVirtuellEiendel",
            Self::AnnenKapitalinntekt => "annenSkattepliktigKapitalinntektFraVirtuellEiendel",
        }
    }
}

/// Why a figure is not computable; the application layer words it, with the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    NoYearEndRate(NoRate),
    Pending {
        id: String,
        at: DateTime<Utc>,
    },
    UnknownType {
        id: String,
        kind: String,
    },
    Malformed {
        id: String,
        reason: String,
    },
    SoldMoreThanBought {
        id: String,
        at: DateTime<Utc>,
        btc: Btc,
    },
    /// Rows whose `runningBalanceBtc` is neither the computed total nor their account's
    /// computed balance: the holding cannot be told from this history (`ids` are the first few
    /// of `rows`).
    BalanceContradicted {
        ids: Vec<String>,
        rows: u64,
    },
    /// The amounts are too large to add up.
    AmountsOverflow,
    /// A disposal's proceeds or a consumed lot's cost, or a bonus's value, is not known.
    Unknown {
        row: String,
        /// When `row` was made: how the user finds it.
        at: DateTime<Utc>,
        unknown: Unknown,
    },
}

impl Why {
    /// What makes a disposal's gain unknown: a proceeds or lot cost not known, or bitcoin sold
    /// beyond what the history shows bought.
    pub fn of_disposal(d: &Disposal) -> Option<Self> {
        if let Some(u) = d.unknown.first() {
            Some(Self::Unknown {
                row: d.id.clone(),
                at: d.at,
                unknown: u.clone(),
            })
        } else if d.unmatched_btc.is_positive() {
            Some(Self::SoldMoreThanBought {
                id: d.id.clone(),
                at: d.at,
                btc: d.unmatched_btc,
            })
        } else {
            None
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotComputable {
    /// The entry's `id`.
    pub entry: String,
    pub field: Field,
    pub why: Why,
}

/// One `VirtuellEiendel`; a figure that is not computable is `None` (and listed in the card's
/// `not_computable`). NOK figures are exact; [`Nok::round_to_krone`] gives the filed value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardEntry {
    pub id: String,
    /// The account, when the card has one entry per account.
    pub kontonummer: Option<String>,
    pub antall: Option<Btc>,
    pub formuesverdi: Option<Nok>,
    pub gevinst: Option<Nok>,
    pub tap: Option<Nok>,
    pub annen_kapitalinntekt: Option<Nok>,
    /// The transactions each figure came from, by id.
    pub sources: BTreeMap<Field, Vec<String>>,
}

impl CardEntry {
    pub fn figure(&self, field: Field) -> Option<FieldValue> {
        match field {
            Field::Antall => self.antall.map(FieldValue::Btc),
            Field::Formuesverdi => self.formuesverdi.map(FieldValue::Nok),
            Field::Gevinst => self.gevinst.map(FieldValue::Nok),
            Field::Tap => self.tap.map(FieldValue::Nok),
            Field::AnnenKapitalinntekt => self.annen_kapitalinntekt.map(FieldValue::Nok),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValue {
    Btc(Btc),
    Nok(Nok),
}

impl FieldValue {
    /// As the card takes it: units with 10 decimals, NOK in whole kroner (half away from zero).
    pub fn filed(self) -> String {
        match self {
            Self::Btc(b) => format!("{:.10}", b.decimal()),
            Self::Nok(n) => n.round_to_krone().to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRequest {
    pub year: i32,
    pub method: Method,
    pub per_account: bool,
    pub rate: Result<YearEndRate, NoRate>,
    pub now: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    pub year: i32,
    pub method: Method,
    /// The year has ended; the running year is computed as of now.
    pub complete: bool,
    /// The year-end rate, or why there is none.
    pub rate: Result<YearEndRate, NoRate>,
    /// SHA-256 over the JSON of each row used, as the server sent it, in stored order, each
    /// followed by a newline.
    pub rows_sha256: String,
    pub rows: u64,
    pub entries: Vec<CardEntry>,
    pub not_computable: Vec<NotComputable>,
    /// The year's disposals with the lots they consumed, exact to the øre.
    pub disposals: Vec<Disposal>,
    /// The year's bonuses.
    pub income: Vec<Income>,
    /// Deposits from outside up to the year's end, whose cost only the user can say.
    pub deposits: Vec<OutsideDeposit>,
}

impl Card {
    /// Why `field` of the entry `entry` is not computable; `None` when it is.
    pub fn refusal(&self, entry: &str, field: Field) -> Option<&Why> {
        self.not_computable
            .iter()
            .find(|n| n.entry == entry && n.field == field)
            .map(|n| &n.why)
    }
}

/// A deposit from outside the exchange, with the cost the user entered for it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsideDeposit {
    pub id: String,
    pub at: DateTime<Utc>,
    pub btc: Btc,
    pub entered: Option<EnteredCost>,
}

/// The version of the rules the figures follow, printed on every export; it changes whenever a
/// rule does, so two exports with the same version and rows hash give the same figures.
pub const RULE_SET_VERSION: &str = "nordlys-tax-rules/1";

#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no tax history is stored: sync it first")]
    NothingSynced,
    #[error("{year} is outside the synced history, which runs from {first} to {last}")]
    YearOutside { year: i32, first: i32, last: i32 },
}

/// The hash of the rows a card rests on; a row on a line of its own (a pretty-printed row's own
/// line breaks, which JSON allows only between tokens, are left out).
#[derive(Default)]
struct RowsHash(Sha256);

impl RowsHash {
    fn add(&mut self, raw: &str) {
        if raw.contains(['\n', '\r']) {
            self.0.update(raw.replace(['\n', '\r'], ""));
        } else {
            self.0.update(raw);
        }
        self.0.update(b"\n");
    }

    fn hex(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// What stops every figure up to year end, the first of each kind.
#[derive(Default)]
pub(crate) struct Blockers {
    pending: Option<Why>,
    unknown_type: Option<Why>,
    malformed: Option<Why>,
}

impl Blockers {
    pub(crate) fn read(&mut self, t: &TaxTransaction) {
        if t.finalize_time.is_none() && self.pending.is_none() {
            self.pending = Some(Why::Pending {
                id: t.id.as_str().to_owned(),
                at: t.create_time,
            });
        }
        if let TaxTransactionType::Unknown(kind) = &t.tx_type
            && self.unknown_type.is_none()
        {
            self.unknown_type = Some(Why::UnknownType {
                id: t.id.as_str().to_owned(),
                kind: kind.clone(),
            });
        }
    }

    /// The first row the client could not read, created before `end` (or at no known time).
    pub(crate) fn read_malformed(
        &mut self,
        store: &Store,
        end: &DateTime<Utc>,
    ) -> Result<(), StoreError> {
        if let Some(m) = store.tax().malformed_before(end)?.into_iter().next() {
            self.malformed = Some(Why::Malformed {
                id: m.id,
                reason: m.reason,
            });
        }
        Ok(())
    }

    pub(crate) fn first(&self) -> Option<&Why> {
        self.malformed
            .as_ref()
            .or(self.pending.as_ref())
            .or(self.unknown_type.as_ref())
    }
}

/// The card for `request.year` from the stored history.
pub fn card(store: &Store, request: &CardRequest) -> Result<Card, CardError> {
    let first = store
        .tax()
        .oldest()?
        .map(|t| oslo_year(&t))
        .ok_or(CardError::NothingSynced)?;
    let last = oslo_year(&request.now);
    if request.year < first || request.year > last {
        return Err(CardError::YearOutside {
            year: request.year,
            first,
            last,
        });
    }
    let end = year_start(request.year + 1);
    let up_to_year_end = TaxFilter {
        before: Some(end),
        ..TaxFilter::default()
    };
    let mut hash = RowsHash::default();
    let mut rows = 0u64;
    // Each account's balance from the rows' amounts; the last row of each, the figure's source.
    let mut book = BalanceBook::default();
    let mut last_rows: BTreeMap<String, String> = BTreeMap::new();
    let mut blockers = Blockers::default();
    let entered = store.tax().deposit_costs()?;
    let mut deposits = Vec::new();
    let mut gains = GainsBuilder::new(request.method)
        .with_deposit_costs(DepositCosts::Entered(entered.clone()));
    store.tax().each_row_as_sent(&up_to_year_end, |t, raw| {
        hash.add(raw);
        rows += 1;
        blockers.read(t);
        book.add(t);
        if let Some(account) = &t.account_id {
            last_rows.insert(account.as_str().to_owned(), t.id.as_str().to_owned());
        }
        if t.tx_type == TaxTransactionType::BtcDeposit && t.sub_type != TaxSubType::Internal {
            deposits.push(OutsideDeposit {
                id: t.id.as_str().to_owned(),
                at: t.create_time,
                btc: Btc::computed(amount(
                    t.in_amount,
                    t.in_currency.as_ref(),
                    &CurrencyCode::Btc,
                )),
                entered: entered.get(t.id.as_str()).cloned(),
            });
        }
        gains.add(t);
        Ok::<_, CardError>(())
    })?;
    blockers.read_malformed(store, &end)?;
    let holding_problem = match (book.contradiction(), book.overflowed()) {
        (_, true) => Some(Why::AmountsOverflow),
        (Some(c), false) => Some(Why::BalanceContradicted {
            ids: c.ids.clone(),
            rows: c.rows,
        }),
        (None, false) => None,
    };
    let balances: BTreeMap<String, (Btc, String)> = last_rows
        .into_iter()
        .map(|(account, row)| {
            let balance = book.balance(&account);
            (account, (balance, row))
        })
        .collect();
    let report = gains.finish();
    let year_disposals: Vec<Disposal> = report
        .disposals
        .into_iter()
        .filter(|d| d.year == request.year)
        .collect();
    let year_income: Vec<Income> = report
        .income
        .into_iter()
        .filter(|i| i.year == request.year)
        .collect();
    let (disposals, income): (Vec<_>, Vec<_>) = (
        year_disposals.iter().collect(),
        year_income.iter().collect(),
    );

    let accounts: Vec<Option<String>> = if request.per_account {
        let active: BTreeSet<String> = balances
            .iter()
            .filter(|(_, (b, _))| !b.is_zero())
            .map(|(a, _)| a.clone())
            .chain(disposals.iter().filter_map(|d| d.account_id.clone()))
            .chain(income.iter().filter_map(|i| i.account_id.clone()))
            .collect();
        active.into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    let mut entries = Vec::new();
    let mut not_computable = Vec::new();
    for account in accounts {
        let mine = |a: &Option<String>| account.is_none() || *a == account;
        let id = account
            .as_ref()
            .map_or_else(|| "bitcoin".to_owned(), |a| format!("bitcoin-{a}"));
        let mut refuse = |field: Field, why: Why| {
            not_computable.push(NotComputable {
                entry: id.clone(),
                field,
                why,
            });
        };
        let held: Vec<_> = balances
            .iter()
            .filter(|(a, _)| mine(&Some((*a).clone())))
            .collect();
        let antall = held.iter().map(|(_, (b, _))| *b).checked_sum();
        let holding_problem = match antall {
            Some(_) => holding_problem.clone(),
            None => Some(Why::AmountsOverflow),
        };
        let antall = antall.unwrap_or_default();
        let mut entry = CardEntry {
            id: id.clone(),
            kontonummer: account.clone(),
            antall: Some(antall),
            formuesverdi: None,
            gevinst: None,
            tap: None,
            annen_kapitalinntekt: None,
            sources: BTreeMap::new(),
        };
        entry.sources.insert(
            Field::Antall,
            held.iter().map(|(_, (_, row))| row.clone()).collect(),
        );
        entry
            .sources
            .insert(Field::Formuesverdi, entry.sources[&Field::Antall].clone());
        match (&holding_problem, &request.rate) {
            (Some(why), _) => {
                entry.antall = None;
                refuse(Field::Antall, why.clone());
                refuse(Field::Formuesverdi, why.clone());
            }
            (None, Ok(r)) => entry.formuesverdi = antall.value_at(r.nok_per_btc),
            (None, Err(no)) => refuse(Field::Formuesverdi, Why::NoYearEndRate(*no)),
        }
        let sold: Vec<_> = disposals.iter().filter(|d| mine(&d.account_id)).collect();
        let sold_ids: Vec<String> = sold.iter().map(|d| d.id.clone()).collect();
        entry.sources.insert(Field::Gevinst, sold_ids.clone());
        entry.sources.insert(Field::Tap, sold_ids);
        let sale_problem = sold.iter().find_map(|d| Why::of_disposal(d));
        match sale_problem {
            Some(why) => {
                refuse(Field::Gevinst, why.clone());
                refuse(Field::Tap, why);
            }
            None => {
                let gains = sold.iter().map(|d| d.gain_nok).filter(|g| g.is_positive());
                let losses = sold.iter().map(|d| d.gain_nok).filter(|g| g.is_negative());
                match (gains.checked_sum(), losses.checked_sum()) {
                    (Some(gains), Some(losses)) => {
                        entry.gevinst = Some(gains);
                        entry.tap = Some(Nok::ZERO - losses);
                    }
                    _ => {
                        refuse(Field::Gevinst, Why::AmountsOverflow);
                        refuse(Field::Tap, Why::AmountsOverflow);
                    }
                }
            }
        }
        let bonuses: Vec<_> = income.iter().filter(|i| mine(&i.account_id)).collect();
        entry.sources.insert(
            Field::AnnenKapitalinntekt,
            bonuses.iter().map(|i| i.id.clone()).collect(),
        );
        match bonuses.iter().find(|i| i.value_nok.is_none()) {
            Some(i) => refuse(
                Field::AnnenKapitalinntekt,
                Why::Unknown {
                    row: i.id.clone(),
                    at: i.at,
                    unknown: Unknown::NoRate {
                        id: i.id.clone(),
                        at: i.at,
                    },
                },
            ),
            None => match bonuses.iter().filter_map(|i| i.value_nok).checked_sum() {
                Some(sum) => entry.annen_kapitalinntekt = Some(sum),
                None => refuse(Field::AnnenKapitalinntekt, Why::AmountsOverflow),
            },
        }
        // What stops every figure replaces what each field said of itself.
        if let Some(why) = blockers.first() {
            not_computable.retain(|n| n.entry != id);
            for field in Field::ALL {
                not_computable.push(NotComputable {
                    entry: id.clone(),
                    field,
                    why: why.clone(),
                });
            }
            entry.antall = None;
            entry.formuesverdi = None;
            entry.gevinst = None;
            entry.tap = None;
            entry.annen_kapitalinntekt = None;
        }
        entries.push(entry);
    }
    Ok(Card {
        year: request.year,
        method: request.method,
        complete: request.year < last,
        rate: request.rate.clone(),
        rows_sha256: hash.hex(),
        rows,
        entries,
        not_computable,
        disposals: year_disposals,
        income: year_income,
        deposits,
    })
}

#[cfg(test)]
mod tests {
    //! Scripted histories with each figure worked out by hand in the comments.
    use super::*;
    use crate::tax::gains::EnteredCost;
    use crate::tax::tests_support::{RowParts, store_of, tx};
    use TaxTransactionType::{BtcBonus, BtcBuy, BtcDeposit, BtcSell, BtcWithdrawal};

    fn d<Q: nordlys_money::Quantity>(s: &str) -> Q {
        Q::computed(s.parse().unwrap_or_default())
    }

    /// Two accounts through 2024, and a buy at 23:30 UTC on 31 December, which is 2025 in Oslo.
    fn history() -> Vec<TaxTransaction> {
        let mut pay = tx(
            "p1",
            "2024-09-01T10:00:00Z",
            "b",
            BtcWithdrawal,
            "0.2099",
            "250000",
        )
        .paid("0.3", "BTC")
        .fee("0.0001", "BTC");
        pay.is_payment = true;
        vec![
            // 1 BTC for 300 000 and a fee of 600: a lot costing 300 600.
            tx("b1", "2024-01-10T10:00:00Z", "a", BtcBuy, "1", "300000")
                .received("1", "BTC")
                .paid("300000", "NOK")
                .fee("600", "NOK"),
            // 0.5 BTC for 200 000 and 400: 200 400.
            tx("b2", "2024-03-01T10:00:00Z", "b", BtcBuy, "0.5", "400000")
                .received("0.5", "BTC")
                .paid("200000", "NOK")
                .fee("400", "NOK"),
            // 0.4 BTC at 500 000 less a fee of 1 000: proceeds 199 000; 0.4 of b1 cost 120 240;
            // gain 78 760.
            tx("s1", "2024-06-01T10:00:00Z", "a", BtcSell, "0.6", "500000")
                .received("199000", "NOK")
                .paid("0.4", "BTC")
                .fee("1000", "NOK"),
            // A bonus of 0.01 BTC at 450 000: income 4 500.
            tx(
                "g1",
                "2024-07-01T10:00:00Z",
                "b",
                BtcBonus,
                "0.51",
                "450000",
            )
            .received("0.01", "BTC"),
            // A payment of 0.3 BTC at 250 000 (proceeds 75 000) and a fee of 0.0001: 0.3001 of
            // what is left of b1 (0.6 for 180 360) costs 90 210.06; a loss of 15 210.06.
            pay,
            // 31 December 23:30 UTC is 00:30 on 1 January in Oslo: a 2025 row.
            tx("b3", "2024-12-31T23:30:00Z", "a", BtcBuy, "0.7", "300000")
                .received("0.1", "BTC")
                .paid("30000", "NOK")
                .fee("0", "NOK"),
        ]
    }

    /// `rows` with each `runningBalanceBtc` as the user's total after the row, the operator's
    /// reading (the rows above give their account's balance, the other reading).
    fn as_totals(rows: Vec<TaxTransaction>) -> Vec<TaxTransaction> {
        let mut each = BTreeMap::new();
        rows.into_iter()
            .map(|mut t| {
                if let Some(a) = &t.account_id {
                    each.insert(a.as_str().to_owned(), t.running_balance_btc);
                }
                t.running_balance_btc = each.values().copied().checked_sum().unwrap();
                t
            })
            .collect()
    }

    /// The history under both readings of `runningBalanceBtc`: every figure must be the same.
    fn both_readings() -> [Vec<TaxTransaction>; 2] {
        [history(), as_totals(history())]
    }

    /// 0.1 BTC sold for 60 000 on 10 March 2024, with no fee.
    fn sale_of_a_tenth() -> TaxTransaction {
        tx("s1", "2024-03-10T10:00:00Z", "a", BtcSell, "0", "600000")
            .received("60000", "NOK")
            .paid("0.1", "BTC")
    }

    fn request(year: i32, per_account: bool, rate: Option<&str>) -> CardRequest {
        CardRequest {
            year,
            method: Method::Fifo,
            per_account,
            rate: rate
                .map(|r| YearEndRate {
                    nok_per_btc: d(r),
                    source: RateSource::Entered,
                })
                .ok_or(NoRate::NotChosen),
            now: "2026-03-01T12:00:00Z".parse().unwrap_or_default(),
        }
    }

    fn filed(e: &CardEntry) -> Vec<Option<String>> {
        Field::ALL
            .iter()
            .map(|f| e.figure(*f).map(FieldValue::filed))
            .collect()
    }

    fn some(values: [&str; 5]) -> Vec<Option<String>> {
        values.iter().map(|v| Some((*v).to_owned())).collect()
    }

    #[test]
    fn the_card_sums_every_account_with_each_figure_worked_by_hand() {
        for rows in both_readings() {
            the_card_sums_every_account(rows);
        }
    }

    fn the_card_sums_every_account(rows: Vec<TaxTransaction>) {
        let card = card(&store_of(rows), &request(2024, false, Some("1000000")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(card.complete);
        assert!(card.not_computable.is_empty(), "{:?}", card.not_computable);
        assert_eq!(card.entries.len(), 1);
        let e = &card.entries[0];
        assert_eq!((e.id.as_str(), e.kontonummer.as_deref()), ("bitcoin", None));
        // 0.6 + 0.2099 held; at 1 000 000: 809 900. Gains 78 760, losses 15 210.06 → 15 210.
        assert_eq!(
            filed(e),
            some(["0.8099000000", "809900", "78760", "15210", "4500"])
        );
        assert_eq!(e.tap, Some(d("15210.06")));
        // The 2025 row is not among the rows the card rests on.
        assert_eq!(card.rows, 5);
        assert_eq!(
            e.sources[&Field::Gevinst],
            vec!["s1".to_owned(), "p1".to_owned()]
        );
    }

    #[test]
    fn one_entry_per_account_splits_each_figure_by_the_account_of_its_rows() {
        for rows in both_readings() {
            one_entry_per_account(rows);
        }
    }

    fn one_entry_per_account(rows: Vec<TaxTransaction>) {
        let card = card(&store_of(rows), &request(2024, true, Some("1000000")))
            .unwrap_or_else(|e| panic!("{e}"));
        let by_id: Vec<_> = card
            .entries
            .iter()
            .map(|e| (e.id.as_str(), e.kontonummer.as_deref(), filed(e)))
            .collect();
        assert_eq!(
            by_id,
            vec![
                (
                    "bitcoin-a",
                    Some("a"),
                    some(["0.6000000000", "600000", "78760", "0", "0"])
                ),
                (
                    "bitcoin-b",
                    Some("b"),
                    some(["0.2099000000", "209900", "0", "15210", "4500"])
                ),
            ]
        );
    }

    #[test]
    fn a_row_at_2330_utc_on_31_december_belongs_to_the_next_year_and_no_rate_is_no_wealth() {
        let card = card(&store_of(history()), &request(2025, false, None))
            .unwrap_or_else(|e| panic!("{e}"));
        let e = &card.entries[0];
        assert_eq!(e.antall, Some(d("0.9099")));
        assert_eq!(e.formuesverdi, None);
        assert_eq!(
            card.not_computable,
            vec![NotComputable {
                entry: "bitcoin".into(),
                field: Field::Formuesverdi,
                why: Why::NoYearEndRate(NoRate::NotChosen)
            }]
        );
        assert_eq!((e.gevinst, e.tap), (Some(Nok::ZERO), Some(Nok::ZERO)));
        assert_eq!(card.rows, 6);
    }

    #[test]
    fn a_pending_row_up_to_year_end_refuses_every_figure() {
        let mut rows = history();
        rows[1].finalize_time = None;
        let card = card(&store_of(rows), &request(2024, false, Some("1000000")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(filed(&card.entries[0]), vec![None; 5]);
        assert_eq!(card.not_computable.len(), 5);
        assert!(
            card.not_computable
                .iter()
                .all(|n| matches!(&n.why, Why::Pending { id, .. } if id == "b2"))
        );
    }

    #[test]
    fn a_sale_of_a_deposit_without_a_cost_is_refused_until_the_user_enters_it() {
        let rows = vec![
            tx(
                "de_1",
                "2024-01-10T10:00:00Z",
                "a",
                BtcDeposit,
                "0.1",
                "500000",
            )
            .received("0.1", "BTC"),
            sale_of_a_tenth(),
        ];
        let store = store_of(rows);
        let refused =
            card(&store, &request(2024, false, Some("1"))).unwrap_or_else(|e| panic!("{e}"));
        let why = Why::Unknown {
            row: "s1".into(),
            at: sale_of_a_tenth().create_time,
            unknown: Unknown::DepositCost {
                deposit_id: "de_1".into(),
                at: "2024-01-10T10:00:00Z".parse().unwrap(),
            },
        };
        assert_eq!(
            refused
                .not_computable
                .iter()
                .map(|n| (n.field, n.why.clone()))
                .collect::<Vec<_>>(),
            vec![(Field::Gevinst, why.clone()), (Field::Tap, why)]
        );
        // Entered: 35 000 in 2021, so the sale at 60 000 gains 25 000.
        store
            .tax()
            .set_deposit_cost(
                "de_1",
                Some(&EnteredCost {
                    acquired_at: "2021-05-01T00:00:00Z".parse().unwrap_or_default(),
                    cost_nok: d("35000"),
                }),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        let entered =
            card(&store, &request(2024, false, Some("1"))).unwrap_or_else(|e| panic!("{e}"));
        assert!(entered.not_computable.is_empty());
        assert_eq!(entered.entries[0].gevinst, Some(d("25000")));
    }

    #[test]
    fn selling_more_than_the_history_shows_bought_is_refused() {
        let rows = vec![sale_of_a_tenth()];
        let card = card(&store_of(rows), &request(2024, false, Some("1")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(card.not_computable.iter().any(|n| matches!(
            &n.why,
            Why::SoldMoreThanBought { id, .. } if id == "s1"
        )));
        assert_eq!(card.entries[0].gevinst, None);
        // Its account would hold −0.1 BTC, which its running balance (0) contradicts.
        assert!(card.not_computable.iter().any(|n| n.field == Field::Antall
            && matches!(&n.why, Why::BalanceContradicted { ids, .. } if ids == &["s1"])));
        assert_eq!(card.entries[0].antall, None);
    }

    #[test]
    fn a_year_outside_the_history_or_no_history_is_an_error_not_an_empty_card() {
        let store = store_of(history());
        assert!(matches!(
            card(&store, &request(2023, false, None)),
            Err(CardError::YearOutside {
                year: 2023,
                first: 2024,
                last: 2026
            })
        ));
        assert!(matches!(
            card(&store, &request(2027, false, None)),
            Err(CardError::YearOutside { .. })
        ));
        let empty = Store::in_memory().unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            card(&empty, &request(2024, false, None)),
            Err(CardError::NothingSynced)
        ));
        // The running year is computed as of now, and says so.
        let running = card(&store, &request(2026, false, None)).unwrap_or_else(|e| panic!("{e}"));
        assert!(!running.complete);
    }

    #[test]
    fn the_rows_hash_is_over_each_row_s_json_as_sent_one_per_line_in_stored_order() {
        let rows = history();
        let expected = {
            let mut h = Sha256::new();
            for t in &rows[..5] {
                h.update(serde_json::to_string(t).unwrap_or_default());
                h.update(b"\n");
            }
            h.finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        };
        let card =
            card(&store_of(rows), &request(2024, false, None)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(card.rows_sha256, expected);
        // A pretty-printed row is one line all the same.
        let mut one = RowsHash::default();
        one.add("{\n  \"id\": \"x\"\n}");
        let mut flat = RowsHash::default();
        flat.add("{  \"id\": \"x\"}");
        assert_eq!(one.hex(), flat.hex());
    }
}
