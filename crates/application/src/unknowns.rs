//! Orders and payments whose outcome is unknown, in one place: each re-checked against the
//! exchange by the watcher (the window reads the list when it says so), shown with the evidence
//! behind its state, and settled by the user when they have checked the exchange's history.

use chrono::{Duration, Utc};
use nordlys_core::journal::Entry;
use nordlys_core::money_turn::MoneyTurn;
use nordlys_core::store::Evidence;
use nordlys_money::NokPerBtc;

use crate::NoArgs;
use crate::account_names::{self, AccountNames};
use crate::error::{Answer, AppError, ErrorCode};
use crate::journal::{self, JournalError};
use crate::msg;
use crate::state::{App, ProfileSession};
use crate::unknown_views::{JournalIdArgs, SettlePlacedArgs};
use crate::wording;
use crate::wording::key;

/// How long a settled entry that once was in doubt stays on the list.
const RECENT: Duration = Duration::hours(24);

pub async fn unknowns(app: &App, _args: NoArgs) -> Answer<InDoubt> {
    view(app, &app.session().await?).await
}

/// Settles an entry in doubt as not made, in the money turn the caller holds.
pub async fn settle_unknown(app: &App, _turn: &MoneyTurn, args: JournalIdArgs) -> Answer<InDoubt> {
    let session = app.session().await?;
    let rules = app.timing().rules;
    journal::settle_not_made(
        session.connection.client(),
        &session.store,
        &rules,
        args.journal_id,
    )
    .await
    .map_err(settle_error)?;
    view(app, &session).await
}

/// The user saw on the exchange that an order in doubt was placed (and names it if still open).
pub async fn settle_unknown_placed(
    app: &App,
    _turn: &MoneyTurn,
    args: SettlePlacedArgs,
) -> Answer<InDoubt> {
    let session = app.session().await?;
    let rules = app.timing().rules;
    journal::settle_placed(
        session.connection.client(),
        &session.store,
        &rules,
        args.journal_id,
        args.order_id.as_deref(),
    )
    .await
    .map_err(settle_error)?;
    view(app, &session).await
}

fn settle_error(e: JournalError) -> AppError {
    match e {
        JournalError::NoSuchEntry(id) => AppError::new(
            ErrorCode::InvalidInput,
            msg!(NO_SUCH_JOURNAL_ENTRY { id: id.to_string() }),
        ),
        // Said about the entry on screen: its number in the journal is not the user's word.
        JournalError::Refused { why, .. } => {
            AppError::new(ErrorCode::Declined, wording::settle_refusal(why))
        }
        JournalError::NotAnOrder(_) => {
            AppError::said(ErrorCode::InvalidInput, key::SETTLE_PLACED_NOT_AN_ORDER)
        }
        JournalError::Exchange(e) => AppError::of(e),
        other => AppError::fault(other),
    }
}

/// An order or payment in doubt, or settled lately after a lost answer, with its evidence.
#[derive(Debug, Clone)]
pub struct DoubtEntry {
    pub entry: Entry,
    /// Still unknown (the user may settle it).
    pub open: bool,
    pub evidence: Vec<Evidence>,
}

/// The In doubt list, newest first, with the bid a payment's worth is shown at and the names
/// of the accounts its evidence mentions.
#[derive(Debug, Clone)]
pub struct InDoubt {
    pub entries: Vec<DoubtEntry>,
    pub bid: Option<NokPerBtc>,
    pub names: AccountNames,
}

impl InDoubt {
    /// How many are still unknown.
    pub fn unresolved(&self) -> usize {
        self.entries.iter().filter(|e| e.open).count()
    }
}

/// The list, with accounts by their names.
async fn view(app: &App, session: &ProfileSession) -> Answer<InDoubt> {
    let store = &session.store;
    let since = Utc::now() - RECENT;
    let mut entries = Vec::new();
    for entry in Entry::recent(store, 200)? {
        let open = entry.made().is_none();
        if !open && entry.sent_at() < since {
            continue;
        }
        let evidence = store.journal().evidence(entry.id())?;
        if !open && evidence.is_empty() {
            continue;
        }
        entries.push(DoubtEntry {
            entry,
            open,
            evidence,
        });
    }
    let mentioned = entries
        .iter()
        .flat_map(|e| &e.evidence)
        .flat_map(|e| e.seen.accounts());
    let names = account_names::of(app, session, mentioned).await;
    Ok(InDoubt {
        entries,
        // What a payment is worth, at the bid, beside its bitcoin.
        bid: app.listing_bid(store),
        names,
    })
}
