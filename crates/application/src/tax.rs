//! Tax and history: the sync of every tax transaction into the local store (in the background,
//! with progress and cancel), the virtualised list's pages, balances, the year-end and gains
//! reports, and CSV exports through the system save dialog.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use nordlys_core::format::{self, Figures, Locale};
use nordlys_core::store::{Store, StoreError, TaxAccountName, TaxFilter};
use nordlys_core::tax::balances::BalanceIndex;
use nordlys_core::tax::gains::{DepositCosts, Disposal, GainsBuilder, GainsReport, Method};
use nordlys_core::tax::sync::{self, SyncCancel, SyncEnd, SyncError, SyncProgress};
use nordlys_core::tax::year_end::{RateSource, YearEnd, YearEndBuilder};
use nordlys_core::tax::{csv, row_amount_text};
use nordlys_core::time::Tz;
use nordlys_exchange::models::{CurrencyCode, TaxSubType, TaxTransaction, TaxTransactionType};
use nordlys_money::{Btc, Nok};
use rust_decimal::Decimal;

use crate::NoArgs;
use crate::error::{Answer, AppError, ErrorCode};
use crate::error_words::Worded;
use crate::state::{App, ProfileSession};
use crate::tax_views::*;
use crate::vocabulary::{Report, SyncState};
use crate::wording::Message;
use crate::wording::key;

/// The one sync of the active profile: its cancel switch while it runs, and how it ended.
#[derive(Debug, Default)]
pub struct SyncSlot {
    cancel: Option<SyncCancel>,
    progress: SyncProgress,
    state: SyncState,
    /// Why the last sync failed, in no language yet.
    failure: Option<(ErrorCode, Message)>,
}

impl SyncSlot {
    fn view(&self, zone: Tz, locale: Locale) -> TaxSyncView {
        let p = &self.progress;
        let n = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        TaxSyncView {
            state: self.state,
            requests: p.requests,
            received: n(p.received),
            stored: n(p.stored),
            malformed: n(p.malformed),
            permille: p.permille,
            reached: p.reached.map(|t| day(&t, zone, locale)).unwrap_or_default(),
            message: self
                .failure
                .as_ref()
                .map(|(_, m)| m.render(locale))
                .unwrap_or_default(),
            failure: self.failure.as_ref().map(|(code, _)| *code),
        }
    }
}

fn slot(app: &App) -> std::sync::MutexGuard<'_, SyncSlot> {
    lock(&app.tax_sync)
}

fn lock(slot: &std::sync::Mutex<SyncSlot>) -> std::sync::MutexGuard<'_, SyncSlot> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn day(t: &DateTime<Utc>, zone: Tz, locale: Locale) -> String {
    format::date(t.with_timezone(&zone).date_naive(), locale)
}

pub async fn start_tax_sync(app: &App, _args: NoArgs) -> Answer<TaxSyncView> {
    begin_sync(app).await?;
    Ok(slot(app).view(app.zone, app.locale()))
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
            state: SyncState::Running,
            ..SyncSlot::default()
        };
    }
    let worker = std::sync::Arc::clone(&app.tax_sync);
    let ended = std::sync::Arc::clone(&app.tax_sync_ended);
    let desktop = std::sync::Arc::clone(&app.desktop);
    let (zone, locale) = (app.zone, app.locale());
    // Every step is told to the window as it happens: it shows the progress without asking.
    let tell = move |worker: &std::sync::Mutex<SyncSlot>| {
        let view = lock(worker).view(zone, locale);
        desktop.tax_sync(&view);
    };
    let started = std::time::Instant::now();
    tokio::spawn(async move {
        let client = connection.client();
        // Whose accounts the credential sees, learned afresh with each sync (the sync is refused
        // for a history of other accounts), and the names of deleted accounts for old rows; the
        // list falls back to ids when this fails.
        let learned = nordlys_core::account_identity::learn(client, &store).await;
        // Deposits made from the first read's start on are news (see `deposits`). The start is
        // on the exchange's clock, which stamps the rows: its first answer shows it.
        let since = client.exchange_now()
            - chrono::Duration::from_std(started.elapsed()).unwrap_or_default();
        // A store that cannot write this fails the sync's first page, which says so.
        let _ = store.begin_deposit_watch(since);
        // Names go only into a history that is (or is about to be) these accounts'.
        if let Ok(learned) = learned
            && store
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
            let _ = store.set_tax_accounts(&names);
        }
        let outcome = sync::sync(client, store, &cancel, |p| {
            lock(&worker).progress = *p;
            tell(&worker);
        })
        .await;
        {
            let mut s = lock(&worker);
            s.cancel = None;
            match outcome {
                Ok(SyncEnd::Complete) => s.state = SyncState::Complete,
                Ok(SyncEnd::Cancelled) => s.state = SyncState::Cancelled,
                Err(e) => {
                    s.state = SyncState::Failed;
                    s.failure = Some(sync_failure(&e));
                }
            }
        }
        tell(&worker);
        ended.notify_waiters();
    });
    Ok(())
}

/// Why a sync stopped, and what of it is kept.
fn sync_failure(e: &SyncError) -> (ErrorCode, Message) {
    match e {
        SyncError::Exchange { source, progress } => {
            let (code, reason) = source.words();
            let m = Message::new(key::SYNC_FAILED_EXCHANGE)
                .nest("reason", reason)
                .with("stored", progress.stored.to_string());
            (code, m)
        }
        SyncError::Store(e) => (
            ErrorCode::Internal,
            Message::new(key::SYNC_FAILED_STORE).with("detail", e.to_string()),
        ),
        SyncError::Interrupted(_) => (
            ErrorCode::Internal,
            Message::new(key::SYNC_FAILED_INTERRUPTED),
        ),
        SyncError::OtherAccounts { history, here } => (
            ErrorCode::OtherAccounts,
            Message::new(key::SYNC_FAILED_OTHER_ACCOUNTS)
                .with("history", history.join(", "))
                .with("here", here.join(", ")),
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
        let ended = app.tax_sync_ended.notified();
        tokio::pin!(ended);
        // Registered before the state is read, so an end between the two is not missed.
        ended.as_mut().enable();
        {
            let s = slot(app);
            if s.cancel.is_none() {
                return match (s.state, &s.failure) {
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

pub async fn tax_sync_status(app: &App, _args: NoArgs) -> Answer<TaxSyncView> {
    let locale = app.locale();
    Ok(slot(app).view(app.zone, locale))
}

pub async fn cancel_tax_sync(app: &App, _args: NoArgs) -> Answer<TaxSyncView> {
    let locale = app.locale();
    let s = slot(app);
    if let Some(c) = &s.cancel {
        c.cancel();
    }
    Ok(s.view(app.zone, locale))
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

fn kind_words(kind: &TaxTransactionType, locale: Locale) -> String {
    use TaxTransactionType as T;
    let key = match kind {
        T::BtcBuy => key::TAX_KIND_BUY,
        T::BtcSell => key::TAX_KIND_SELL,
        T::BtcWithdrawal => key::TAX_KIND_WITHDRAWAL,
        T::BtcDeposit => key::TAX_KIND_DEPOSIT,
        T::BtcBonus => key::TAX_KIND_BONUS,
        T::FiatDeposit => key::TAX_KIND_NOK_DEPOSIT,
        T::FiatWithdrawal => key::TAX_KIND_NOK_WITHDRAWAL,
        T::BtcAdjustment => key::TAX_KIND_BTC_ADJUSTMENT,
        T::FiatAdjustment => key::TAX_KIND_NOK_ADJUSTMENT,
        other => return other.as_str().to_owned(),
    };
    crate::wording::say(key, locale)
}

/// A row's sub-kind in words; empty for none, the API's value as it is for one not known.
fn sub_type_words(sub: &TaxSubType, locale: Locale) -> String {
    use TaxSubType as S;
    let key = match sub {
        S::Empty | S::Unspecified => return String::new(),
        S::Market => key::TAX_SUB_MARKET,
        S::Limit => key::TAX_SUB_LIMIT,
        S::Manual => key::TAX_SUB_MANUAL,
        S::Onchain => key::TAX_SUB_ONCHAIN,
        S::Lightning => key::TAX_SUB_LIGHTNING,
        S::Internal => key::TAX_SUB_INTERNAL,
        S::InternalExternal => key::TAX_SUB_INTERNAL_EXTERNAL,
        S::LightningPaymentRequest => key::TAX_SUB_LIGHTNING_INVOICE,
        S::LightningAddress => key::TAX_SUB_LIGHTNING_ADDRESS,
        S::LightningLnurl => key::TAX_SUB_LIGHTNING_LNURL,
        S::Bank => key::TAX_SUB_BANK,
        S::Card => key::TAX_SUB_CARD,
        S::WriteOff => key::TAX_SUB_WRITE_OFF,
        S::Correction => key::TAX_SUB_CORRECTION,
        other => return other.as_str().to_owned(),
    };
    crate::wording::say(key, locale)
}

/// Account names from endpoint 13, kept at each sync.
pub(crate) struct Names(BTreeMap<String, TaxAccountName>);

impl Names {
    pub(crate) fn load(store: &Store) -> Result<Self, StoreError> {
        Ok(Self(
            store
                .tax_accounts()?
                .into_iter()
                .map(|a| (a.id.clone(), a))
                .collect(),
        ))
    }

    /// No names kept: every account goes by its id.
    pub(crate) fn empty() -> Self {
        Self(BTreeMap::new())
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

fn net(t: &TaxTransaction, currency: &CurrencyCode) -> Option<Decimal> {
    let side = |v: Option<Decimal>, c: &Option<CurrencyCode>| match (v, c) {
        (Some(v), Some(c)) if c == currency => Some(v),
        _ => None,
    };
    let inflow = side(t.in_amount, &t.in_currency);
    let outflow = side(t.out_amount, &t.out_currency);
    if inflow.is_none() && outflow.is_none() {
        return None;
    }
    Some(inflow.unwrap_or_default() - outflow.unwrap_or_default())
}

/// What a report figure that a pending row touches says instead of a number.
fn not_computable(since: &DateTime<Utc>, zone: Tz, locale: Locale) -> String {
    crate::wording::Message::new(key::TAX_NOT_COMPUTABLE)
        .with("since", day(since, zone, locale))
        .render(locale)
}

fn payment_view(t: &TaxTransaction) -> PaymentInfoView {
    use nordlys_core::tax::payment_info::{PaymentInfo, read};
    match read(t) {
        PaymentInfo::None => PaymentInfoView::None,
        PaymentInfo::Transfer {
            network_id,
            destination,
        } => PaymentInfoView::Transfer {
            network_id: network_id.to_owned(),
            destination: destination.to_owned(),
        },
        PaymentInfo::BankAccount(a) => PaymentInfoView::BankAccount {
            account: a.to_owned(),
        },
        PaymentInfo::Unreadable(text) => PaymentInfoView::Unreadable {
            text: text.to_owned(),
        },
        PaymentInfo::Text(text) => PaymentInfoView::Text {
            text: text.to_owned(),
        },
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

fn row_view(
    t: &TaxTransaction,
    names: &Names,
    zone: Tz,
    figures: Figures,
    balances: &BalanceIndex,
) -> TaxRowView {
    let locale = figures.locale;
    let account = t
        .account_id
        .as_ref()
        .map(|a| a.as_str())
        .unwrap_or_default();
    let fee = match (t.fee_amount, &t.fee_currency) {
        (Some(f), Some(c)) if !f.is_zero() => row_amount_text(figures, f, c),
        _ => String::new(),
    };
    TaxRowView {
        id: t.id.as_str().to_owned(),
        time: format::time(&t.create_time, zone, locale),
        account: if account.is_empty() {
            "NOK".into()
        } else {
            names.name(account)
        },
        account_deleted: names.deleted(account),
        kind: kind_words(&t.tx_type, locale),
        sub_type: sub_type_words(&t.sub_type, locale),
        btc: net(t, &CurrencyCode::Btc)
            .map(|d| figures.btc(Btc::computed(d)))
            .unwrap_or_default(),
        nok: net(t, &CurrencyCode::Nok)
            .map(|d| figures.nok(Nok::computed(d)))
            .unwrap_or_default(),
        fee,
        rate: t.rate_market.map(|r| figures.price(r)).unwrap_or_default(),
        // The account's balance after the row, from the amounts: `runningBalanceBtc` is read
        // two ways (the account's or the user's total) and is kept as sent in the CSV.
        running_balance: balances
            .after(t.id.as_str())
            .map(|b| figures.btc(b))
            .unwrap_or_default(),
        note: t.note.clone(),
        payment_info: t.payment_info.clone(),
        payment: payment_view(t),
        is_payment: t.is_payment,
        pending: t.finalize_time.is_none(),
    }
}

pub async fn tax_rows(app: &App, args: TaxRowsArgs) -> Answer<TaxRowsView> {
    let figures = app.figures();
    let store = app.tax_session().await?.store;
    let f = filter(&args.filter);
    // Counted once per filter, with its first block; scrolling fetches rows only.
    let total = if args.offset == 0 {
        let n = store.tax_count(&f)?;
        Some(u32::try_from(n).unwrap_or(u32::MAX))
    } else {
        None
    };
    let rows = store.tax_transactions(&f, u64::from(args.offset), args.limit.min(500))?;
    let names = Names::load(&store)?;
    let balances = app.tax_balances.index(&store).await?;
    Ok(TaxRowsView {
        total,
        offset: args.offset,
        rows: rows
            .iter()
            .map(|t| row_view(t, &names, app.zone, figures, &balances))
            .collect(),
    })
}

pub async fn tax_facets(app: &App, _args: NoArgs) -> Answer<TaxFacetsView> {
    let locale = app.locale();
    let store = app.tax_session().await?.store;
    let facets = store.tax_facets()?;
    let names = Names::load(&store)?;
    Ok(TaxFacetsView {
        years: facets.years,
        accounts: facets
            .accounts
            .iter()
            .map(|id| ChoiceView {
                value: id.clone(),
                label: if names.deleted(id) {
                    crate::wording::Message::new(key::TAX_ACCOUNT_DELETED)
                        .with("name", names.name(id))
                        .render(locale)
                } else {
                    names.name(id)
                },
            })
            .collect(),
        types: facets
            .types
            .iter()
            .map(|t| ChoiceView {
                value: t.clone(),
                label: kind_words(&TaxTransactionType::from(t.as_str()), locale),
            })
            .collect(),
        sub_types: facets
            .sub_types
            .iter()
            .map(|s| ChoiceView {
                value: s.clone(),
                label: match sub_type_words(&TaxSubType::from(s.as_str()), locale) {
                    words if words.is_empty() => "—".to_owned(),
                    words => words,
                },
            })
            .collect(),
        malformed: store
            .tax_malformed()?
            .into_iter()
            .map(|m| MalformedView {
                id: m.id,
                reason: m.reason,
            })
            .collect(),
        stored: u32::try_from(store.tax_count(&TaxFilter::default())?).unwrap_or(u32::MAX),
    })
}

pub async fn tax_balances(app: &App, args: TaxBalancesArgs) -> Answer<TaxBalancesView> {
    let (figures, zone) = (app.figures(), app.zone);
    let locale = figures.locale;
    let client = app.session().await?.connection;
    let b = client
        .client()
        .tax_balance(args.include_deleted)
        .await
        .map_err(AppError::of)?;
    let fiat = client.client().fiat_account().await.map_err(AppError::of)?;
    Ok(TaxBalancesView {
        fiat: figures.nok(fiat.available_nok),
        total_btc: figures.btc(b.bitcoin_accounts.iter().map(|a| a.balance_btc).sum()),
        accounts: b
            .bitcoin_accounts
            .iter()
            .map(|acc| TaxBalanceView {
                id: acc.id.as_str().to_owned(),
                name: acc.name.clone(),
                balance: figures.btc(acc.balance_btc),
                deleted: acc
                    .delete_time
                    .map(|t| day(&t, zone, locale))
                    .unwrap_or_default(),
            })
            .collect(),
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
            .each_tax_transaction::<StoreError>(&tx_filter, |t| {
                f(&mut state, t);
                Ok(())
            })
            .map(|()| state)
    })
    .await
    .map_err(AppError::fault)?
    .map_err(AppError::fault)
}

/// Why a year's holding is not a figure, in words: a pending row, rows whose running balance
/// contradicts the computed balances, or amounts too large to add.
fn year_end_blocked(y: &YearEnd, zone: Tz, locale: Locale) -> Option<String> {
    if let Some(since) = &y.pending_since {
        return Some(not_computable(since, zone, locale));
    }
    if y.overflowed {
        return Some(crate::wording::say(
            key::TAX_NOT_COMPUTABLE_OVERFLOW,
            locale,
        ));
    }
    y.contradiction.as_ref().map(|c| {
        crate::wording::Message::new(key::TAX_NOT_COMPUTABLE_CONTRADICTED)
            .with("ids", c.ids.join(", "))
            .count("rows", c.rows)
            .render(locale)
    })
}

/// `figure()`, or why the year's holding is not computable.
fn unless_blocked(
    y: &YearEnd,
    zone: Tz,
    locale: Locale,
    figure: impl FnOnce() -> String,
) -> String {
    year_end_blocked(y, zone, locale).unwrap_or_else(figure)
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

pub async fn year_end_report(app: &App, _args: NoArgs) -> Answer<YearEndsView> {
    let (figures, zone) = (app.figures(), app.zone);
    let locale = figures.locale;
    let store = app.tax_session().await?.store;
    let names = Names::load(&store)?;
    let years = year_ends(store).await?;
    let nok = |d: Option<Nok>| d.map(|d| figures.nok(d)).unwrap_or_else(|| "—".into());
    Ok(YearEndsView {
        years: years
            .iter()
            .rev()
            .map(|y| YearEndView {
                year: y.year,
                complete: y.complete,
                rate: y
                    .rate_nok
                    .map(|r| figures.price(r))
                    .unwrap_or_else(|| "—".into()),
                rate_source: crate::wording::rate_source(&y.source, locale),
                entered: matches!(
                    y.source,
                    RateSource::Entered
                        | RateSource::EnteredViaUsd { .. }
                        | RateSource::Sample { .. }
                ),
                accounts: y
                    .accounts
                    .iter()
                    .map(|h| HoldingView {
                        account: names.name(&h.account_id),
                        deleted: names.deleted(&h.account_id),
                        balance: unless_blocked(y, zone, locale, || figures.btc(h.balance_btc)),
                        value: unless_blocked(y, zone, locale, || nok(h.value_nok)),
                    })
                    .collect(),
                total_btc: unless_blocked(y, zone, locale, || figures.btc(y.total_btc)),
                total_nok: unless_blocked(y, zone, locale, || nok(y.total_nok)),
                not_computable: year_end_blocked(y, zone, locale),
            })
            .collect(),
    })
}

/// The gains of the whole history, deposits from outside at the costs the user entered, as the
/// tax return's card takes them: a sale of a deposit with none is not computable in both.
async fn gains(store: std::sync::Arc<Store>, m: Method) -> Answer<GainsReport> {
    let costs = DepositCosts::Entered(store.deposit_costs()?);
    let builder = GainsBuilder::new(m).with_deposit_costs(costs);
    let builder = each_row(store, TaxFilter::default(), builder, |b, t| b.add(t)).await?;
    Ok(builder.finish())
}

pub async fn gains_report(app: &App, args: GainsArgs) -> Answer<GainsView> {
    let (figures, zone) = (app.figures(), app.zone);
    let locale = figures.locale;
    let report = gains(app.tax_session().await?.store, args.method).await?;
    let nok = |d: Nok| figures.nok(d);
    Ok(GainsView {
        method: crate::wording::method_name(report.method, locale),
        years: report
            .years
            .iter()
            .rev()
            .map(|y| {
                let blocked = y
                    .pending_since
                    .map(|t| not_computable(&t, zone, locale))
                    .or_else(|| {
                        (y.unknown_disposals > 0).then(|| {
                            Message::new(key::GAINS_NOT_COMPUTABLE_UNKNOWN)
                                .count("count", u64::from(y.unknown_disposals))
                                .render(locale)
                        })
                    });
                let figure = |n: Nok| blocked.clone().unwrap_or_else(|| nok(n));
                YearGainsView {
                    year: y.year,
                    disposals: y.disposals,
                    proceeds: figure(y.proceeds_nok),
                    cost: figure(y.cost_nok),
                    gains: figure(y.gains_nok),
                    losses: figure(y.losses_nok),
                    net: figure(y.net_nok),
                    not_computable: blocked.clone(),
                }
            })
            .collect(),
        disposals: report
            .disposals
            .iter()
            .rev()
            .take(500)
            .map(|d| disposal_view(d, report.method, figures, zone))
            .collect(),
        notes: report
            .notes
            .iter()
            .map(|n| crate::wording::gains_note(n, locale))
            .collect(),
    })
}

/// A disposal and the lots it consumed, each figure to the øre.
/// A disposal's gain or loss in words; "not computable" when a cost or a proceeds is not known,
/// as the card says, rather than a figure worked from zeros.
fn disposal_result(d: &Disposal, figures: Figures) -> String {
    let m = if !d.unknown.is_empty() {
        Message::new(key::DISPOSAL_NOT_COMPUTABLE)
    } else if d.gain_nok.is_negative() {
        Message::new(key::DISPOSAL_LOSS).with(
            "nok",
            figures.nok(Nok::computed(d.gain_nok.decimal().abs())),
        )
    } else {
        Message::new(key::DISPOSAL_GAIN).with("nok", figures.nok(d.gain_nok))
    };
    m.render(figures.locale)
}

pub(crate) fn disposal_view(
    d: &Disposal,
    method: Method,
    figures: Figures,
    zone: Tz,
) -> DisposalView {
    let locale = figures.locale;
    let nok = |d: Nok| figures.nok(d);
    DisposalView {
        id: d.id.clone(),
        time: format::time(&d.at, zone, locale),
        kind: d.kind,
        btc: figures.btc(d.btc),
        proceeds: nok(d.proceeds_nok),
        cost: nok(d.cost_nok),
        result: disposal_result(d, figures),
        lots: d
            .lots
            .iter()
            .map(|l| LotView {
                id: l.acquisition_id.as_deref().map_or_else(
                    || crate::wording::method_name(method, locale),
                    str::to_owned,
                ),
                time: l
                    .acquired_at
                    .as_ref()
                    .map(|t| format::time(t, zone, locale))
                    .unwrap_or_default(),
                btc: figures.btc(l.btc),
                cost: nok(l.cost_nok),
            })
            .collect(),
        unmatched: if d.unmatched_btc.is_zero() {
            String::new()
        } else {
            figures.btc(d.unmatched_btc)
        },
    }
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
    let (name, bytes) = export_bytes(store, &args, app.locale()).await?;
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
    if let Err(e) = nordlys_core::file_write::write_replacing(&path, bytes) {
        return Err(AppError::new(
            ErrorCode::InvalidInput,
            crate::wording::Message::new(key::EXPORT_NOT_WRITTEN)
                .with("path", path.display().to_string())
                .with("reason", e.to_string()),
        ));
    }
    Ok(ExportView {
        path: Some(path.display().to_string()),
        lines: u32::try_from(bytes.iter().filter(|b| **b == b'\n').count()).unwrap_or(u32::MAX),
        bytes: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
        left_out: None,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use nordlys_core::format::BtcUnit;
    use nordlys_core::tax::gains::{DisposalKind, Unknown};

    use super::*;

    /// Found trying the app as a new user: the list and its filter showed the API's sub-kinds
    /// (`lightning-payment-request`). Every published one is in words in both languages.
    #[test]
    fn every_published_sub_kind_is_in_words_in_both_languages() {
        let published = [
            "market",
            "limit",
            "manual",
            "onchain",
            "lightning",
            "internal",
            "internal-external",
            "lightning-payment-request",
            "lightning-address",
            "lightning-lnurl",
            "bank",
            "card",
            "write_off",
            "correction",
        ];
        for locale in [Locale::En, Locale::Nb] {
            for raw in published {
                let words = sub_type_words(&TaxSubType::from(raw), locale);
                assert!(
                    !words.is_empty() && !words.contains("tax-sub"),
                    "{raw}: {words}"
                );
                assert!(!raw.contains(['-', '_']) || words != raw, "{raw}: {words}");
            }
            assert_eq!(sub_type_words(&TaxSubType::Empty, locale), "");
            // One the exchange adds later is shown as it came.
            assert_eq!(sub_type_words(&TaxSubType::from("swap"), locale), "swap");
        }
    }

    fn sale(gain: i64, unknown: Vec<Unknown>) -> Disposal {
        Disposal {
            id: "tr_1".into(),
            account_id: None,
            at: DateTime::<Utc>::UNIX_EPOCH,
            year: 2025,
            kind: DisposalKind::Sale,
            btc: Btc::from_sats(1000),
            proceeds_nok: Nok::computed(Decimal::from(1000)),
            cost_nok: Nok::computed(Decimal::from(1000 - gain)),
            gain_nok: Nok::computed(Decimal::from(gain)),
            lots: Vec::new(),
            unmatched_btc: Btc::ZERO,
            unknown,
        }
    }

    #[test]
    fn a_loss_is_called_a_loss_and_an_unknown_cost_no_figure() {
        let figures = Figures {
            locale: Locale::En,
            unit: BtcUnit::Btc,
            hidden: false,
        };
        let said = |d: Disposal| disposal_result(&d, figures);
        assert!(
            said(sale(-231, vec![])).starts_with("loss"),
            "{}",
            said(sale(-231, vec![]))
        );
        assert!(!said(sale(-231, vec![])).contains('\u{2212}'));
        assert!(!said(sale(-231, vec![])).contains('-'));
        assert!(said(sale(100, vec![])).starts_with("gain"));
        let unknown = vec![Unknown::DepositCost {
            deposit_id: "tr_0".into(),
            at: "2024-01-10T10:00:00Z".parse().unwrap(),
        }];
        assert!(!said(sale(100, unknown)).chars().any(|c| c.is_ascii_digit()));
    }
}
