//! Tax and history: the sync of every tax transaction into the local store (in the background,
//! with progress and cancel), the virtualised list's pages, balances, the year-end and gains
//! reports, and CSV exports through the system save dialog.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use chrono::Utc;
use nordlys_core::format::Locale;
use nordlys_core::store::{Store, StoreError, TaxAccountName, TaxFacets, TaxFilter};
use nordlys_core::tax::balances::BalanceIndex;
use nordlys_core::tax::csv;
use nordlys_core::tax::gains::{DepositCosts, GainsBuilder, GainsReport, Method};
use nordlys_core::tax::sync::{self, SyncCancel, SyncEnd, SyncError, SyncProgress};
use nordlys_core::tax::year_end::{YearEnd, YearEndBuilder};
use nordlys_exchange::ExchangeClient;
use nordlys_exchange::models::{GetTaxBalanceResponse, MalformedTaxTransaction, TaxTransaction};
use nordlys_money::Nok;

use crate::NoArgs;
use crate::error::{Answer, AppError, ErrorCode};
use crate::error_words::Worded;
use crate::msg;
use crate::present::Present;
use crate::state::{App, ProfileSession};
use crate::tax_views::*;
use crate::vocabulary::{Report, SyncState};
use crate::wording::Message;
use crate::wording::key;

/// What the tax screens keep in the app: the sync of the active profile, and what they read
/// once and keep while the stored rows are unchanged.
#[derive(Debug, Default)]
pub struct TaxPart {
    /// The sync, while it runs and how it ended.
    sync: Arc<std::sync::Mutex<SyncSlot>>,
    /// Told when a sync ends, so that a read of the tail can wait for it.
    sync_ended: Arc<tokio::sync::Notify>,
    /// Each stored row's account balance after it, for the tax list.
    balances: BalanceSlot,
    /// The holding the tax before a sale is worked from.
    pub(crate) sale_basis: crate::sale_tax::BasisSlot,
}

/// The one sync of the active profile: its cancel switch while it runs, and how it ended.
#[derive(Debug, Default)]
pub struct SyncSlot {
    cancel: Option<SyncCancel>,
    status: SyncStatus,
}

/// Where the sync of the tax history is: how far it got, and how it ended.
#[derive(Debug, Clone, Default)]
pub struct SyncStatus {
    pub progress: SyncProgress,
    pub state: SyncState,
    /// Why the last sync failed, in no language yet.
    pub failure: Option<(ErrorCode, Message)>,
}

fn slot(app: &App) -> std::sync::MutexGuard<'_, SyncSlot> {
    lock(&app.tax.sync)
}

fn lock(slot: &std::sync::Mutex<SyncSlot>) -> std::sync::MutexGuard<'_, SyncSlot> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub async fn start_tax_sync(app: &App, _args: NoArgs) -> Answer<SyncStatus> {
    begin_sync(app).await?;
    Ok(slot(app).status.clone())
}

/// Starts a sync of the active profile's tax history in the background, from where the last one
/// ended (new rows, and pending rows again), unless one is running.
pub async fn begin_sync(app: &App) -> Answer<()> {
    let ProfileSession {
        connection, store, ..
    } = app.tax_session().await?;
    let cancel = SyncCancel::default();
    {
        let mut s = slot(app);
        if s.cancel.is_some() {
            return Ok(());
        }
        *s = SyncSlot {
            cancel: Some(cancel.clone()),
            status: SyncStatus {
                state: SyncState::Running,
                ..SyncStatus::default()
            },
        };
    }
    let worker = std::sync::Arc::clone(&app.tax.sync);
    let ended = std::sync::Arc::clone(&app.tax.sync_ended);
    let desktop = std::sync::Arc::clone(&app.desktop);
    // Every step is told to the window as it happens, as it would show it now: it shows the
    // progress without asking.
    let viewer = app.viewer();
    let tell = move |worker: &std::sync::Mutex<SyncSlot>| {
        let view = lock(worker).status.clone().present(&viewer);
        desktop.tax_sync(&view);
    };
    let started = std::time::Instant::now();
    tokio::spawn(async move {
        let client = connection.client();
        learn_accounts(client, &store).await;
        // Deposits made from the first read's start on are news (see `deposits`). The start is
        // on the exchange's clock, which stamps the rows: its first answer shows it.
        let since = client.exchange_now()
            - chrono::Duration::from_std(started.elapsed()).unwrap_or_default();
        // A store that cannot write this fails the sync's first page, which says so.
        let _ = store.deposits().begin_watch(since);
        let outcome = sync::sync(client, store, &cancel, |p| {
            lock(&worker).status.progress = *p;
            tell(&worker);
        })
        .await;
        {
            let mut s = lock(&worker);
            s.cancel = None;
            match outcome {
                Ok(SyncEnd::Complete) => s.status.state = SyncState::Complete,
                Ok(SyncEnd::Cancelled) => s.status.state = SyncState::Cancelled,
                Err(e) => {
                    s.status.state = SyncState::Failed;
                    s.status.failure = Some(sync_failure(&e));
                }
            }
        }
        tell(&worker);
        ended.notify_waiters();
    });
    Ok(())
}

/// Learns, before a sync, whose accounts the credential sees (the sync is refused for a history
/// of other accounts) and keeps their names, deleted ones too, for old rows; the list falls back
/// to ids when this fails. Both clients call it before [`sync::sync`].
pub async fn learn_accounts(client: &ExchangeClient, store: &Store) {
    let Ok(learned) = nordlys_core::account_identity::learn(client, store).await else {
        return;
    };
    // Names go only into a history that is (or is about to be) these accounts'.
    if store
        .tax()
        .tax_history_owner()
        .is_ok_and(|owner| owner.is_none() || owner == learned.identity)
    {
        let names: Vec<_> = learned
            .accounts
            .into_iter()
            .map(|a| TaxAccountName {
                id: a.id,
                name: a.name,
                deleted: a.deleted,
            })
            .collect();
        let _ = store.tax().set_accounts(&names);
    }
}

/// Why a sync stopped, and what of it is kept.
fn sync_failure(e: &SyncError) -> (ErrorCode, Message) {
    match e {
        SyncError::Exchange { source, progress } => {
            let (code, reason) = source.words();
            let m = msg!(SYNC_FAILED_EXCHANGE {
                reason: reason,
                stored: progress.stored.to_string()
            });
            (code, m)
        }
        SyncError::Store(e) => (
            ErrorCode::Internal,
            msg!(SYNC_FAILED_STORE {
                detail: e.to_string()
            }),
        ),
        SyncError::Interrupted(_) => (
            ErrorCode::Internal,
            Message::new(key::SYNC_FAILED_INTERRUPTED),
        ),
        SyncError::OtherAccounts { history, here } => (
            ErrorCode::OtherAccounts,
            msg!(SYNC_FAILED_OTHER_ACCOUNTS {
                history: history.join(", "),
                here: here.join(", ")
            }),
        ),
    }
}

/// How a read of the history's tail ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tail {
    /// Read to the end: the store holds the whole history.
    Whole,
    /// Still running after the wait (a first sync of a long history): what is stored so far is
    /// shown.
    Running,
    /// Stopped before its end (cancelled by the user, or the profile was switched): the rest is
    /// read on a later look.
    Stopped,
}

/// Reads the tax history's tail and waits for it, at most `TAIL_WAIT`: what was just traded or
/// paid is then in the store. A sync already running is waited for instead of started twice.
pub async fn read_tail(app: &App) -> Answer<Tail> {
    const TAIL_WAIT: std::time::Duration = std::time::Duration::from_secs(20);
    begin_sync(app).await?;
    let until = tokio::time::Instant::now() + TAIL_WAIT;
    loop {
        let ended = app.tax.sync_ended.notified();
        tokio::pin!(ended);
        // Registered before the state is read, so an end between the two is not missed.
        ended.as_mut().enable();
        {
            let s = slot(app);
            if s.cancel.is_none() {
                return match (s.status.state, &s.status.failure) {
                    (SyncState::Failed, Some((code, m))) => Err(AppError::new(*code, m.clone())),
                    (SyncState::Complete, _) => Ok(Tail::Whole),
                    _ => Ok(Tail::Stopped),
                };
            }
        }
        if tokio::time::timeout_at(until, ended).await.is_err() {
            return Ok(Tail::Running);
        }
    }
}

pub async fn tax_sync_status(app: &App, _args: NoArgs) -> Answer<SyncStatus> {
    Ok(slot(app).status.clone())
}

pub async fn cancel_tax_sync(app: &App, _args: NoArgs) -> Answer<SyncStatus> {
    let s = slot(app);
    if let Some(c) = &s.cancel {
        c.cancel();
    }
    Ok(s.status.clone())
}

/// After a profile switch: the old profile's sync stops, and its progress is not shown as the
/// new profile's.
pub fn forget_sync(app: &App) {
    let mut s = slot(app);
    if let Some(c) = &s.cancel {
        c.cancel();
    }
    *s = SyncSlot::default();
}

fn filter(args: &TaxFilterArgs) -> TaxFilter {
    let some = |v: &Option<String>| {
        v.as_ref()
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    TaxFilter {
        year: args.year,
        before: None,
        account_id: some(&args.account_id),
        tx_type: some(&args.tx_type),
        sub_type: some(&args.sub_type),
        search: args.search.trim().to_owned(),
    }
}

/// Account names from endpoint 13, kept at each sync.
#[derive(Debug, Clone, Default)]
pub struct Names(BTreeMap<String, TaxAccountName>);

impl Names {
    pub(crate) fn load(store: &Store) -> Result<Self, StoreError> {
        Ok(Self(
            store
                .tax()
                .accounts()?
                .into_iter()
                .map(|a| (a.id.clone(), a))
                .collect(),
        ))
    }

    pub(crate) fn name(&self, id: &str) -> String {
        self.get(id).unwrap_or_else(|| id.to_owned())
    }

    /// The name kept for `id`, if any.
    pub(crate) fn get(&self, id: &str) -> Option<String> {
        self.0.get(id).map(|a| a.name.clone())
    }

    pub(crate) fn deleted(&self, id: &str) -> bool {
        self.0.get(id).is_some_and(|a| a.deleted)
    }
}

/// The computed balances of the tax list's rows, kept while the stored rows are unchanged.
#[derive(Debug, Default)]
pub struct BalanceSlot(std::sync::Mutex<Option<(std::sync::Weak<Store>, Arc<BalanceIndex>)>>);

impl BalanceSlot {
    /// The index over `store`, read again (off the async threads) when the one kept is stale.
    async fn index(&self, store: &Arc<Store>) -> Answer<Arc<BalanceIndex>> {
        let kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            .filter(|(from, i)| {
                std::sync::Weak::ptr_eq(from, &Arc::downgrade(store)) && i.holds_for(store)
            })
            .map(|(_, i)| Arc::clone(i));
        if let Some(index) = kept {
            return Ok(index);
        }
        let reading = Arc::clone(store);
        let index = Arc::new(
            tokio::task::spawn_blocking(move || BalanceIndex::read(&reading))
                .await
                .map_err(AppError::fault)??,
        );
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some((Arc::downgrade(store), Arc::clone(&index)));
        Ok(index)
    }
}

/// A page of the tax list: its rows, with the names and computed balances they are shown with.
#[derive(Debug, Clone)]
pub struct TaxRowsPage {
    /// The filter's whole count, with its first page only.
    pub total: Option<u32>,
    pub offset: u32,
    pub rows: Vec<TaxTransaction>,
    pub names: Names,
    pub balances: Arc<BalanceIndex>,
}

pub async fn tax_rows(app: &App, args: TaxRowsArgs) -> Answer<TaxRowsPage> {
    let store = app.tax_session().await?.store;
    let f = filter(&args.filter);
    // Counted once per filter, with its first block; scrolling fetches rows only.
    let total = if args.offset == 0 {
        let n = store.tax().tax_count(&f)?;
        Some(u32::try_from(n).unwrap_or(u32::MAX))
    } else {
        None
    };
    Ok(TaxRowsPage {
        total,
        offset: args.offset,
        rows: store
            .tax()
            .tax_transactions(&f, u64::from(args.offset), args.limit.min(500))?,
        names: Names::load(&store)?,
        balances: app.tax.balances.index(&store).await?,
    })
}

/// What the tax list can be filtered by, and what the sync could not read.
#[derive(Debug, Clone)]
pub struct TaxChoices {
    pub facets: TaxFacets,
    pub names: Names,
    pub malformed: Vec<MalformedTaxTransaction>,
    pub stored: u32,
}

pub async fn tax_facets(app: &App, _args: NoArgs) -> Answer<TaxChoices> {
    let store = app.tax_session().await?.store;
    Ok(TaxChoices {
        facets: store.tax().facets()?,
        names: Names::load(&store)?,
        malformed: store.tax().malformed()?,
        stored: u32::try_from(store.tax().tax_count(&TaxFilter::default())?).unwrap_or(u32::MAX),
    })
}

/// The exchange's own balances for tax (endpoint 14), and the NOK available.
#[derive(Debug, Clone)]
pub struct ExchangeBalances {
    pub bitcoin: GetTaxBalanceResponse,
    pub fiat: Nok,
}

pub async fn tax_balances(app: &App, args: TaxBalancesArgs) -> Answer<ExchangeBalances> {
    let client = app.session().await?.connection;
    let bitcoin = client
        .client()
        .tax_balance(args.include_deleted)
        .await
        .map_err(AppError::of)?;
    let fiat = client.client().fiat_account().await.map_err(AppError::of)?;
    Ok(ExchangeBalances {
        bitcoin,
        fiat: fiat.available_nok,
    })
}

/// Every stored row through `f`, oldest first, off the async threads.
async fn each_row<T: Send + 'static>(
    store: std::sync::Arc<Store>,
    tx_filter: TaxFilter,
    mut state: T,
    f: fn(&mut T, &TaxTransaction),
) -> Answer<T> {
    tokio::task::spawn_blocking(move || {
        store
            .tax()
            .each_transaction::<StoreError>(&tx_filter, |t| {
                f(&mut state, t);
                Ok(())
            })
            .map(|()| state)
    })
    .await
    .map_err(AppError::fault)?
    .map_err(AppError::fault)
}

async fn year_ends(store: std::sync::Arc<Store>) -> Answer<Vec<YearEnd>> {
    let chosen = nordlys_core::tax::year_end_rate::chosen(&store)?;
    let builder = each_row(
        store,
        TaxFilter::default(),
        YearEndBuilder::default(),
        |b, t| b.add(t),
    )
    .await?;
    Ok(builder.finish(Utc::now(), &chosen))
}

/// Each year's end: the holding of every account and its value.
#[derive(Debug, Clone)]
pub struct YearEnds {
    /// Oldest first.
    pub years: Vec<YearEnd>,
    pub names: Names,
}

pub async fn year_end_report(app: &App, _args: NoArgs) -> Answer<YearEnds> {
    let store = app.tax_session().await?.store;
    let names = Names::load(&store)?;
    Ok(YearEnds {
        years: year_ends(store).await?,
        names,
    })
}

/// The gains of the whole history, deposits from outside at the costs the user entered, as the
/// tax return's card takes them: a sale of a deposit with none is not computable in both.
async fn gains(store: std::sync::Arc<Store>, m: Method) -> Answer<GainsReport> {
    let costs = DepositCosts::Entered(store.tax().deposit_costs()?);
    let builder = GainsBuilder::new(m).with_deposit_costs(costs);
    let builder = each_row(store, TaxFilter::default(), builder, |b, t| b.add(t)).await?;
    Ok(builder.finish())
}

pub async fn gains_report(app: &App, args: GainsArgs) -> Answer<GainsReport> {
    gains(app.tax_session().await?.store, args.method).await
}

/// An export's file name and bytes; its descriptive cells (a rate's source, the method) are in
/// `locale`.
async fn export_bytes(
    store: std::sync::Arc<Store>,
    args: &ExportArgs,
    locale: Locale,
) -> Answer<(String, Vec<u8>)> {
    let io = |e: std::io::Error| AppError::fault(e);
    match args.kind {
        Report::Transactions => {
            let f = filter(&args.filter);
            let name = match f.year {
                Some(y) => format!("nordlys-transactions-{y}.csv"),
                None => "nordlys-transactions.csv".to_owned(),
            };
            let mut w = csv::CsvWriter::new(Vec::new());
            w.row(csv::TRANSACTION_HEADER).map_err(io)?;
            let w = each_row(store, f, w, |w, t| {
                // Writing to a Vec cannot fail.
                let _ = w.row(csv::transaction_fields(t));
            })
            .await?;
            Ok((name, w.into_inner()))
        }
        Report::YearEnd => {
            let names = Names::load(&store)?;
            let years = year_ends(store).await?;
            let bytes = csv::write_year_end(
                Vec::new(),
                &years,
                |id| names.name(id),
                |s| crate::wording::rate_source(s, locale),
            )
            .map_err(io)?;
            Ok(("nordlys-year-end.csv".to_owned(), bytes))
        }
        Report::Gains => {
            let report = gains(store, args.method).await?;
            let method = crate::wording::method_name(report.method, locale);
            let bytes = csv::write_gains(Vec::new(), &report, &method).map_err(io)?;
            Ok(("nordlys-gains.csv".to_owned(), bytes))
        }
    }
}

/// Asks where to save `name`: the system save dialog, or in a debug build with
/// `NORDLYS_EXPORT_DIR` naming an existing absolute directory (the E2E rig, which cannot drive a
/// native dialog) that directory.
async fn save_path(app: &App, name: &str) -> Answer<Option<PathBuf>> {
    if let Some(dir) = crate::test_hooks::text("NORDLYS_EXPORT_DIR")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute() && d.is_dir())
    {
        return Ok(Some(dir.join(name)));
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.desktop.choose_save_path(
        name,
        Box::new(move |path| {
            let _ = tx.send(path);
        }),
    );
    rx.await.map_err(AppError::fault)?.map_err(AppError::fault)
}

pub async fn export_csv(app: &App, args: ExportArgs) -> Answer<ExportView> {
    let store = app.tax_session().await?.store;
    // A document leaves for the user here: its descriptive cells are in the window's language.
    let (name, bytes) = export_bytes(store, &args, app.viewer().locale()).await?;
    save_file(app, &name, &bytes).await
}

/// Asks where to save `name` and writes `bytes` there: beside the target first and renamed, so a
/// failed write never leaves half a file (and a link planted beside it is refused).
pub(crate) async fn save_file(app: &App, name: &str, bytes: &[u8]) -> Answer<ExportView> {
    let Some(path) = save_path(app, name).await? else {
        return Ok(ExportView {
            path: None,
            lines: 0,
            bytes: 0,
            left_out: None,
        });
    };
    if let Err(e) = nordlys_core::platform::file_write::write_replacing(&path, bytes) {
        return Err(AppError::new(
            ErrorCode::InvalidInput,
            msg!(EXPORT_NOT_WRITTEN {
                path: path.display().to_string(),
                reason: e.to_string()
            }),
        ));
    }
    Ok(ExportView {
        path: Some(path.display().to_string()),
        lines: u32::try_from(bytes.iter().filter(|b| **b == b'\n').count()).unwrap_or(u32::MAX),
        bytes: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
        left_out: None,
    })
}
