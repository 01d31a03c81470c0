//! Orders and payments whose outcome is unknown, in one place: each re-checked against the
//! exchange by the watcher (the window reads the list when it says so), shown with the evidence
//! behind its state, and settled by the user when they have checked the exchange's history.

use chrono::{Duration, Utc};
use nordlys_core::format;
use nordlys_core::store::{Evidence, JournalState, Store, WithdrawalState};

use crate::NoArgs;
use crate::account_names;
use crate::error::{Answer, AppError, ErrorCode};
use crate::journal::{self, JournalError};
use crate::state::{App, ProfileSession};
use crate::unknown_views::{
    EvidenceView, JournalIdArgs, MoneyKind, SettlePlacedArgs, UnknownEntryView, UnknownsView,
};
use crate::wording;
use crate::wording::key;

/// How long a settled entry that once was in doubt stays on the list.
const RECENT: Duration = Duration::hours(24);

pub async fn unknowns(app: &App, _args: NoArgs) -> Answer<UnknownsView> {
    view(app, &app.session().await?).await
}

pub async fn settle_unknown(app: &App, args: JournalIdArgs) -> Answer<UnknownsView> {
    let _turn = app.money_turn().await;
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
pub async fn settle_unknown_placed(app: &App, args: SettlePlacedArgs) -> Answer<UnknownsView> {
    let _turn = app.money_turn().await;
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
            wording::Message::new(key::NO_SUCH_JOURNAL_ENTRY).with("id", id.to_string()),
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

fn evidence(
    app: &App,
    store: &Store,
    id: i64,
    name: &dyn Fn(&str) -> String,
) -> Answer<Vec<EvidenceView>> {
    let figures = app.figures();
    Ok(store
        .evidence(id)?
        .into_iter()
        .map(|Evidence { at, read, seen }| EvidenceView {
            at: format::time_to_second(&at, app.zone, figures.locale),
            saw: wording::seen(&read, &seen, figures, name),
            ends_check: read.ends_check(),
            read: wording::read(&read, figures.locale),
        })
        .collect())
}

/// The list, with accounts by their names.
async fn view(app: &App, session: &ProfileSession) -> Answer<UnknownsView> {
    account_names::named(app, session, |name| listed(app, &session.store, name)).await
}

fn listed(app: &App, store: &Store, name: &dyn Fn(&str) -> String) -> Answer<UnknownsView> {
    let figures = app.figures();
    let locale = figures.locale;
    // What a payment is worth, at the bid, beside its bitcoin.
    let bid = app.listing_bid(store);
    let since = Utc::now() - RECENT;
    let mut entries = Vec::new();
    for e in store.journal_recent(200)? {
        let open = matches!(e.state, JournalState::Unknown | JournalState::Sending);
        if !open && e.sent_at < since {
            continue;
        }
        let evidence = evidence(app, store, e.id, name)?;
        if !open && evidence.is_empty() {
            continue;
        }
        entries.push(UnknownEntryView {
            journal_id: e.id,
            kind: MoneyKind::Order,
            state: e.state.into(),
            sent_at: format::time_to_second(&e.sent_at, app.zone, locale),
            summary: crate::trading::journaled_order_words(&e, figures),
            open,
            evidence,
        });
    }
    for e in store.withdrawals_recent(200)? {
        let open = matches!(e.state, WithdrawalState::Unknown | WithdrawalState::Sending);
        if !open && e.sent_at < since {
            continue;
        }
        let evidence = evidence(app, store, e.id, name)?;
        if !open && evidence.is_empty() {
            continue;
        }
        entries.push(UnknownEntryView {
            journal_id: e.id,
            kind: MoneyKind::Withdrawal,
            state: e.state.into(),
            sent_at: format::time_to_second(&e.sent_at, app.zone, locale),
            summary: match bid.and_then(|b| e.amount_btc.value_at(b)) {
                Some(nok) => format!(
                    "{} (≈ {}) → {}",
                    figures.btc(e.amount_btc),
                    figures.nok(nok),
                    e.destination
                ),
                None => format!("{} → {}", figures.btc(e.amount_btc), e.destination),
            },
            open,
            evidence,
        });
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.journal_id));
    Ok(UnknownsView {
        unresolved: entries.iter().filter(|e| e.open).count() as u32,
        entries,
    })
}
