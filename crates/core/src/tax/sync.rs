//! Copies the tax history into the local store with the cursor of 4.1: 200 rows a page, oldest
//! first. Each page is committed with the cursor after it, so an error, a cancel or a crash loses
//! nothing and the next sync resumes where this one stopped. The next page is fetched while the
//! previous one is written, and at most two pages are held.
//!
//! A row can change after it was listed (pending until final) or be listed late with a
//! `createTime` before the cursor, so each sync reads again from [`TRAILING_WINDOW`] before the
//! cursor, or from the oldest pending row when that is older; rows are stored by id, so what is
//! read again updates them in place.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use chrono::{DateTime, Utc};
use nordlys_exchange::ExchangeClient;
use nordlys_exchange::TaxQuery;
use nordlys_exchange::models::TaxPage;
use tokio::task::JoinHandle;

use crate::store::{Store, StoreError, TaxCursor, TaxOwnership, TaxPageWrite};

/// The largest page 4.1 allows; never more is asked for.
pub const PAGE_SIZE: u32 = nordlys_exchange::MAX_PAGE_SIZE;

/// How far before the cursor each sync reads again, for rows listed late or changed since.
pub const TRAILING_WINDOW: chrono::TimeDelta = chrono::TimeDelta::hours(48);

/// Asks a running sync to stop after the page in hand; what was stored stays.
#[derive(Debug, Clone, Default)]
pub struct SyncCancel(Arc<AtomicBool>);

impl SyncCancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// How far a sync has come, for the progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SyncProgress {
    pub requests: u32,
    /// Rows received in this run.
    pub received: u64,
    /// Rows new to the store in this run.
    pub stored: u64,
    /// Rows already stored that changed (a pending row made final).
    pub updated: u64,
    /// Rows the client could not read; kept aside with their ids.
    pub malformed: u64,
    /// The creation time of the newest row received.
    pub reached: Option<DateTime<Utc>>,
    /// How much of the time from the oldest transaction to now is covered, in thousandths. The API
    /// gives no total count, so time is the measure.
    pub permille: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncEnd {
    /// Everything up to now is stored.
    Complete,
    Cancelled,
}

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(
        "the exchange did not give the next page of transactions ({source}); the {} new ones before it are kept and the next sync continues from there",
        progress.stored
    )]
    Exchange {
        source: nordlys_exchange::Error,
        progress: SyncProgress,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the sync stopped before its last page was stored: {0}")]
    Interrupted(String),
    /// The history kept is another account identity's: nothing was read into it.
    #[error(
        "the tax history kept here belongs to other accounts ({}) than these credentials see ({}); set it aside to start a fresh history for these",
        history.join(", "),
        here.join(", ")
    )]
    OtherAccounts {
        /// The account ids of the history's identity.
        history: Vec<String>,
        /// The account ids the credential sees.
        here: Vec<String>,
    },
}

/// Runs one sync to its end, calling `on_progress` after each page.
pub async fn sync(
    client: &ExchangeClient,
    store: Arc<Store>,
    cancel: &SyncCancel,
    mut on_progress: impl FnMut(&SyncProgress),
) -> Result<SyncEnd, SyncError> {
    // Where the credential's accounts cannot be learned, the history is read as before: a
    // refusal needs evidence that it is another's.
    if let Some(here) = crate::account_identity::origin_here(client, &store)
        .await?
        .identity
        && let TaxOwnership::Other(owner) = store.tax().claim_tax_history(here)?
    {
        return Err(SyncError::OtherAccounts {
            history: store.identities().accounts_of(owner)?,
            here: store.identities().accounts_of(here)?,
        });
    }
    let mut query = first_query(
        store.tax().cursor()?.as_ref(),
        store.tax().oldest_pending()?,
    );
    let mut origin = store.tax().oldest()?;
    let mut progress = SyncProgress::default();
    let mut writing: Option<JoinHandle<Result<TaxPageWrite, StoreError>>> = None;
    let end = loop {
        if cancel.is_cancelled() {
            break Ok(SyncEnd::Cancelled);
        }
        let fetched = client.tax_page(&query).await;
        // The previous page is committed before this one is queued, so pages land in order.
        if let Some(w) = writing.take() {
            progress.add(finish(w).await?);
            on_progress(&progress);
        }
        let page = match fetched {
            Ok(page) => page,
            Err(source) => break Err(source),
        };
        let next = query.after_tax_page(&page);
        progress.requests += 1;
        progress.received += page.transactions.len() as u64;
        origin = origin.or(page.create_time(false));
        progress.reached = page.create_time(true).or(progress.reached);
        progress.permille = permille(origin, progress.reached, Utc::now());
        writing = Some(write(&store, page));
        on_progress(&progress);
        match next {
            Ok(Some(q)) => query = q,
            Ok(None) => break Ok(SyncEnd::Complete),
            Err(source) => break Err(source),
        }
    };
    if let Some(w) = writing.take() {
        progress.add(finish(w).await?);
    }
    match end {
        Ok(SyncEnd::Complete) => {
            progress.permille = 1_000;
            on_progress(&progress);
            Ok(SyncEnd::Complete)
        }
        Ok(SyncEnd::Cancelled) => {
            on_progress(&progress);
            Ok(SyncEnd::Cancelled)
        }
        Err(source) => Err(SyncError::Exchange { source, progress }),
    }
}

impl SyncProgress {
    fn add(&mut self, w: TaxPageWrite) {
        self.stored += w.inserted as u64;
        self.updated += w.updated as u64;
        self.malformed += w.malformed as u64;
    }
}

/// Where a sync starts: from the beginning when nothing is stored; else the trailing window
/// before the cursor, or the oldest pending row when that is older (a second before it: `after`
/// is exclusive, and a row read twice is stored once).
fn first_query(cursor: Option<&TaxCursor>, oldest_pending: Option<DateTime<Utc>>) -> TaxQuery {
    let Some(cursor) = cursor else {
        return TaxQuery::new(PAGE_SIZE);
    };
    let window = cursor.after - TRAILING_WINDOW;
    let from = oldest_pending.map_or(window, |p| p.min(window)) - chrono::TimeDelta::seconds(1);
    TaxQuery {
        after: Some(from),
        ..TaxQuery::new(PAGE_SIZE)
    }
}

/// Decodes and stores `page` off the async threads while the next page is fetched; the cursor is
/// the one the server gave for the next page.
fn write(store: &Arc<Store>, page: TaxPage) -> JoinHandle<Result<TaxPageWrite, StoreError>> {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || {
        let cursor = page.next_after.map(|after| TaxCursor {
            after,
            after_id: page.next_after_id.clone(),
        });
        store.tax().add_page(&page.listed(), cursor.as_ref())
    })
}

async fn finish(
    w: JoinHandle<Result<TaxPageWrite, StoreError>>,
) -> Result<TaxPageWrite, SyncError> {
    w.await
        .map_err(|e| SyncError::Interrupted(e.to_string()))?
        .map_err(SyncError::from)
}

fn permille(
    origin: Option<DateTime<Utc>>,
    reached: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> u16 {
    let (Some(origin), Some(reached)) = (origin, reached) else {
        return 0;
    };
    let span = (now - origin).num_seconds().max(1);
    let done = (reached - origin).num_seconds().clamp(0, span);
    u16::try_from(done * 1_000 / span).unwrap_or(1_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn a_sync_reads_again_from_the_trailing_window_or_the_oldest_pending_row() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(first_query(None, None), TaxQuery::new(PAGE_SIZE));
        let cursor = TaxCursor {
            after: at("2026-11-20T12:00:00Z"),
            after_id: "t9".into(),
        };
        let q = first_query(Some(&cursor), None);
        assert_eq!(q.after, Some(at("2026-11-18T11:59:59Z")));
        assert_eq!(q.after_id, None);
        let q = first_query(Some(&cursor), Some(at("2026-11-01T08:00:00Z")));
        assert_eq!(q.after, Some(at("2026-11-01T07:59:59Z")));
        // A pending row inside the window does not move the start later.
        let q = first_query(Some(&cursor), Some(at("2026-11-20T11:00:00Z")));
        assert_eq!(q.after, Some(at("2026-11-18T11:59:59Z")));
    }

    #[test]
    fn progress_is_the_share_of_time_covered() {
        let now = Utc::now();
        let origin = now - Duration::days(100);
        assert_eq!(
            permille(Some(origin), Some(origin + Duration::days(25)), now),
            250
        );
        assert_eq!(permille(None, Some(now), now), 0);
        assert_eq!(
            permille(Some(origin), Some(now + Duration::days(1)), now),
            1_000
        );
    }
}
