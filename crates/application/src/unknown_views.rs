//! What the In doubt screen exchanges with the use cases of `unknowns`: orders and payments
//! whose outcome is unknown, with the evidence each check read, worded for the window.

use nordlys_core::journal::Entry;
use nordlys_core::store::Evidence;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::account_names::AccountNames;
use crate::present::{Present, Viewer};
use crate::unknowns::InDoubt;
use crate::vocabulary::MoneyState;
use crate::wording;

/// Which journal an entry is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum MoneyKind {
    Order,
    Withdrawal,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JournalIdArgs {
    #[ts(type = "number")]
    pub journal_id: i64,
}

/// An order in doubt the user saw placed on the exchange; `order_id` names it while it is open.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettlePlacedArgs {
    #[ts(type = "number")]
    pub journal_id: i64,
    pub order_id: Option<String>,
}

/// One read a check made, and what it showed.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvidenceView {
    pub at: String,
    /// What was read, in words.
    pub read: String,
    /// What it saw, in words.
    pub saw: String,
    /// Whether this step ends a check (its conclusion, or the user's word).
    pub ends_check: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnknownEntryView {
    #[ts(type = "number")]
    pub journal_id: i64,
    pub kind: MoneyKind,
    pub state: MoneyState,
    pub sent_at: String,
    pub summary: String,
    /// Still unknown (the user may settle it).
    pub open: bool,
    pub evidence: Vec<EvidenceView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnknownsView {
    /// How many are still unknown.
    pub unresolved: u32,
    /// The unknown ones and those settled in the last day after a lost answer, newest first.
    pub entries: Vec<UnknownEntryView>,
}

fn evidence_view(e: &Evidence, viewer: &Viewer, names: &AccountNames) -> EvidenceView {
    let figures = viewer.figures;
    EvidenceView {
        at: viewer.time_to_second(&e.at),
        saw: wording::seen(&e.read, &e.seen, figures, &|id| names.name(id)),
        ends_check: e.read.ends_check(),
        read: wording::read(&e.read, figures.locale),
    }
}

impl Present for InDoubt {
    type View = UnknownsView;

    fn present(self, viewer: &Viewer) -> UnknownsView {
        let figures = viewer.figures;
        let entries: Vec<UnknownEntryView> = self
            .entries
            .iter()
            .map(|d| {
                let (kind, state, sent_at, summary) = match &d.entry {
                    Entry::Order(e) => (
                        MoneyKind::Order,
                        e.state.into(),
                        e.sent_at,
                        crate::trade_views::journaled_order_words(e, figures),
                    ),
                    Entry::Withdrawal(e) => (
                        MoneyKind::Withdrawal,
                        e.state.into(),
                        e.sent_at,
                        match self.bid.and_then(|b| e.amount_btc.value_at(b)) {
                            Some(nok) => format!(
                                "{} (≈ {}) → {}",
                                figures.btc(e.amount_btc),
                                figures.nok(nok),
                                e.destination
                            ),
                            None => format!("{} → {}", figures.btc(e.amount_btc), e.destination),
                        },
                    ),
                };
                UnknownEntryView {
                    journal_id: d.entry.id(),
                    kind,
                    state,
                    sent_at: viewer.time_to_second(&sent_at),
                    summary,
                    open: d.open,
                    evidence: d
                        .evidence
                        .iter()
                        .map(|e| evidence_view(e, viewer, &self.names))
                        .collect(),
                }
            })
            .collect();
        UnknownsView {
            unresolved: entries.iter().filter(|e| e.open).count() as u32,
            entries,
        }
    }
}
