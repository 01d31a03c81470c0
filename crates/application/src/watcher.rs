//! The app's one poller. It follows, each on its own rhythm, money in motion (open invoices,
//! payments not yet settled, orders and payments whose outcome is unknown), the price, the
//! balances, the market's volume and the history's tail (which brings new deposits); records
//! what the exchange says, notifies the user of what arrived or ended, and tells the window what
//! changed. The screens read the store and what the watcher last saw; they poll nothing.

use std::time::Duration;

use chrono::Utc;
use nordlys_core::alerts::{OpenLimit, Watched};
use nordlys_core::recheck::{Due, recheck};
use nordlys_core::store::{JournalKind, WithdrawalState};
use nordlys_core::withdrawals;
use nordlys_exchange::ids::AccountId;
use nordlys_exchange::models::{
    InvoiceStatus, ListBitcoinAccountsResponse, PriceResponse, VolumeResponse,
};
use nordlys_money::{Btc, Nok};

use crate::error::{Answer, AppError};
use crate::notices::Told;
use crate::state::App;
use crate::tax::Tail;
pub use crate::vocabulary::Change;
use crate::vocabulary::NetworkStatus;

use crate::schedule::{Follow, Mode, Watch};

/// What the watcher keeps in the app.
#[derive(Debug)]
pub struct WatchPart {
    /// What it saw last, so that it tells only changes.
    seen: std::sync::Mutex<Seen>,
    /// Whether the window is shown (not hidden, minimised or closed to the tray): the watcher
    /// looks less often at what no one sees.
    pub(crate) window_shown: std::sync::atomic::AtomicBool,
}

impl Default for WatchPart {
    fn default() -> Self {
        Self {
            seen: std::sync::Mutex::default(),
            window_shown: std::sync::atomic::AtomicBool::new(true),
        }
    }
}

/// What the watcher last saw of each thing it compares, per profile (a switch starts afresh).
#[derive(Debug, Default)]
pub struct Seen {
    profile: String,
    /// The price and when it was read, on this machine's clock.
    price: Option<(PriceResponse, std::time::Instant)>,
    /// The mid price before the last move: the tray shows which way it went.
    price_before: Option<nordlys_money::NokPerBtc>,
    balances: Option<(ListBitcoinAccountsResponse, Option<Nok>)>,
    volume: Option<VolumeResponse>,
    /// Whether the history was read since the app started (or the profile was switched to).
    history_read: bool,
    /// The open limit orders placed in Nordlys, at their prices, when an alert follows them.
    open_limits: Option<Vec<OpenLimit>>,
    /// When a plan runs next, as the tray says it.
    next_plan_run: Option<chrono::DateTime<chrono::Utc>>,
    /// Due plans already told as made for other accounts: each is told once.
    plans_elsewhere: std::collections::BTreeSet<i64>,
    /// Profiles not active whose waiting plans were looked for (and told, if any).
    inactive_told: std::collections::BTreeSet<String>,
}

/// Runs until the app ends: each thing followed at its pace for what the user sees (see
/// `schedule`), backing off while the exchange cannot be reached, without holding the others
/// back.
pub async fn run(app: &App) {
    // The session (the embedded sandbox, the store, the keyring's secrets) opens now, while the
    // window loads, not when its first screen asks: the first screen then waits for the exchange
    // alone. A session that cannot open says why to the screen that asks again.
    let _ = app.session().await;
    let started = tokio::time::Instant::now();
    let now = move || started.elapsed().as_secs();
    // Every watch there is, from the one list the budget test also runs.
    let follows = Watch::ALL.map(|watch| async move {
        let mut f = Follow::new(watch, now());
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            if f.is_due(now(), mode(app)) {
                let ok = look_at(app, watch).await;
                f.looked(now(), ok, mode(app));
            }
        }
    });
    tokio::join!(futures_util::future::join_all(follows), watch_idle(app));
}

/// Runs the watcher for `seconds` of a virtual clock, looking in turn at what is due each
/// virtual second, in the mode the app is in: the polling budget's test, with the app's own
/// pacing and looks, against the sandbox's request counters.
pub async fn run_virtually(app: &App, seconds: u64) {
    let mut follows = Watch::ALL.map(|w| Follow::new(w, 0));
    for now in 0..seconds {
        for f in &mut follows {
            if f.is_due(now, mode(app)) {
                let ok = look_at(app, f.watch).await;
                f.looked(now, ok, mode(app));
            }
        }
    }
}

/// Locks the app when the user has been away for the idle time (no request of its own).
async fn watch_idle(app: &App) {
    loop {
        tokio::time::sleep(Duration::from_secs(5)).await;
        crate::lock::lock_when_idle(app);
    }
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct WindowShownArgs {
    pub shown: bool,
}

/// The window tells whether it is shown (its page's visibility): the watcher paces itself by it.
pub async fn set_window_shown(app: &App, args: WindowShownArgs) -> Answer<crate::NoArgs> {
    app.set_window_shown(args.shown);
    Ok(crate::NoArgs {})
}

/// What the user sees of the app now.
fn mode(app: &App) -> Mode {
    if app.is_locked() {
        Mode::Locked
    } else if app.window_shown() {
        Mode::Shown
    } else {
        Mode::Hidden
    }
}

/// One look at `watch`; what changed is told to the window. Answers whether it went well.
async fn look_at(app: &App, watch: Watch) -> bool {
    let looked = match watch {
        Watch::Money => look(app).await,
        Watch::Price => look_at_price(app).await,
        Watch::Balances => look_at_balances(app).await,
        Watch::Market => look_at_market(app).await,
        Watch::History => look_at_history(app).await,
        Watch::Orders => look_at_orders(app).await,
        Watch::Plans => crate::plans::look_at_plans(app).await,
    };
    match looked {
        Ok(changes) => {
            for c in changes {
                app.desktop.changed(c);
            }
            true
        }
        Err(_) => false,
    }
}

/// What the watcher saw for the active profile, cleared when the profile changed.
fn seen<'a>(app: &'a App, profile: &str) -> std::sync::MutexGuard<'a, Seen> {
    let mut seen = app
        .watch
        .seen
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if seen.profile != profile {
        *seen = Seen {
            profile: profile.to_owned(),
            ..Seen::default()
        };
    }
    seen
}

/// The names of `profile`'s bitcoin accounts as the last look at the balances saw them, by id;
/// none when the watcher last looked for another profile (reading leaves what it saw alone).
pub(crate) fn seen_account_names(
    app: &App,
    profile: &str,
) -> std::collections::HashMap<String, String> {
    let seen = app
        .watch
        .seen
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if seen.profile != profile {
        return std::collections::HashMap::new();
    }
    seen.balances
        .iter()
        .flat_map(|(accounts, _)| &accounts.accounts)
        .map(|a| (a.id.to_string(), a.name.clone()))
        .collect()
}

/// Keeps when a plan runs next, for the tray.
pub(crate) fn set_next_plan_run(
    app: &App,
    profile: &str,
    next: Option<chrono::DateTime<chrono::Utc>>,
) {
    seen(app, profile).next_plan_run = next;
}

/// Which of `plans` (due, made for other accounts) were not yet told; they count as told now.
pub(crate) fn untold_elsewhere(app: &App, profile: &str, plans: &[i64]) -> Vec<i64> {
    let mut seen = seen(app, profile);
    plans
        .iter()
        .copied()
        .filter(|id| seen.plans_elsewhere.insert(*id))
        .collect()
}

/// Whether profile `other`'s plans are still to be looked for while `profile` is active; they
/// count as looked for now.
pub(crate) fn untold_inactive(app: &App, profile: &str, other: &str) -> bool {
    seen(app, profile).inactive_told.insert(other.to_owned())
}

/// When a plan of the active profile runs next, as the watcher last worked it out.
pub(crate) fn next_plan_run(app: &App, profile: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    seen(app, profile).next_plan_run
}

/// How old the watcher's price may be and still be shown as the price of the moment.
const FRESH: Duration = Duration::from_secs(15);

/// The price the watcher saw last for the active profile, if it saw one lately.
pub(crate) fn last_price(app: &App, profile: &str) -> Option<PriceResponse> {
    seen(app, profile)
        .price
        .as_ref()
        .filter(|(_, at)| at.elapsed() < FRESH)
        .map(|(p, _)| p.clone())
}

/// The mid price the watcher saw last for the active profile, if lately, and the one before
/// its last move.
pub(crate) fn last_move(
    app: &App,
    profile: &str,
) -> Option<(nordlys_money::NokPerBtc, Option<nordlys_money::NokPerBtc>)> {
    let seen = seen(app, profile);
    let (p, at) = seen.price.as_ref()?;
    (at.elapsed() < FRESH).then_some((p.price, seen.price_before))
}

/// One look at the price: kept as a sample of Nordlys' own price history (the API keeps none),
/// and told when it moved.
pub async fn look_at_price(app: &App) -> Answer<Vec<Change>> {
    let session = app.session().await?;
    let usual = app.settings().usual_amount_nok();
    let p = session
        .connection
        .client()
        .price(Some(usual))
        .await
        .map_err(AppError::of)?;
    crate::trading::keep_sample(app, &session.store, &p);
    let open = seen(app, &session.profile.id).open_limits.clone();
    crate::alerts::observe(app, &session.store, &p, open.as_deref())?;
    let mut seen = seen(app, &session.profile.id);
    let moved = seen.price.as_ref().is_none_or(|(before, _)| {
        (
            before.price,
            before.bid,
            before.ask,
            &before.card,
            &before.bank,
        ) != (p.price, p.bid, p.ask, &p.card, &p.bank)
    });
    if moved {
        seen.price_before = seen.price.as_ref().map(|(before, _)| before.price);
    }
    seen.price = Some((p, std::time::Instant::now()));
    Ok(if moved { vec![Change::Price] } else { vec![] })
}

/// One look at the accounts and the NOK balance; told when what the user holds changed. A bitcoin
/// balance that rose has the history's tail read at once: it may be a deposit.
pub async fn look_at_balances(app: &App) -> Answer<Vec<Change>> {
    let session = app.session().await?;
    let client = session.connection.client();
    let accounts = client.bitcoin_accounts(true).await.map_err(AppError::of)?;
    // A key that may not read the NOK account still has its bitcoin accounts followed.
    let fiat = client.fiat_account().await.ok().map(|f| f.available_nok);
    let (changed, rose) = {
        let mut seen = seen(app, &session.profile.id);
        let rose = seen
            .balances
            .as_ref()
            .is_some_and(|(before, _)| rose(before, &accounts));
        let changed = seen.balances.as_ref().is_some_and(|(before, fiat_before)| {
            held(before) != held(&accounts) || *fiat_before != fiat
        });
        seen.balances = Some((accounts, fiat));
        (changed, rose)
    };
    let mut changes = if changed {
        vec![Change::Balances]
    } else {
        vec![]
    };
    // The balances were read either way; a history that cannot be read now is read on its own
    // rhythm.
    if rose && let Ok(more) = read_history(app, false).await {
        changes.extend(more);
    }
    Ok(changes)
}

/// What each account holds, as the watcher compares it. Not the exchange's NOK value of it, which
/// moves with every price: the overview values the holdings itself, at the bid and at its own
/// pace, so telling the window of each move would draw every figure again for nothing.
fn held(r: &ListBitcoinAccountsResponse) -> Vec<(&AccountId, Btc, Btc, &str, bool)> {
    r.accounts
        .iter()
        .map(|a| {
            (
                &a.id,
                a.available_btc,
                a.total_btc,
                a.name.as_str(),
                a.is_deleted(),
            )
        })
        .collect()
}

/// Whether any account holds more bitcoin in `now` than in `before`, or is new.
fn rose(before: &ListBitcoinAccountsResponse, now: &ListBitcoinAccountsResponse) -> bool {
    now.accounts.iter().any(|a| {
        before
            .accounts
            .iter()
            .find(|b| b.id == a.id)
            .is_none_or(|b| a.total_btc > b.total_btc)
    })
}

/// One look at the volume statistics; told when they changed.
pub async fn look_at_market(app: &App) -> Answer<Vec<Change>> {
    let session = app.session().await?;
    let volume = session
        .connection
        .client()
        .volume(None)
        .await
        .map_err(AppError::of)?;
    let mut seen = seen(app, &session.profile.id);
    let changed = seen.volume.as_ref().is_some_and(|v| *v != volume);
    seen.volume = Some(volume);
    Ok(if changed {
        vec![Change::Market]
    } else {
        vec![]
    })
}

/// One look at the open orders, only while an alert follows them and the connection may list
/// them (an API key: the exchange lists open orders to no OAuth app). Those placed in Nordlys
/// are kept with their prices, and the alerts checked against the last price at once.
pub async fn look_at_orders(app: &App) -> Answer<Vec<Change>> {
    let session = app.session().await?;
    let followed = session
        .store
        .alerts()
        .all()?
        .iter()
        .any(|a| a.watched == Watched::OpenOrder);
    if !followed || session.connection.client().credentials().key.is_none() {
        seen(app, &session.profile.id).open_limits = None;
        return Ok(vec![]);
    }
    let open = session
        .connection
        .client()
        .open_orders()
        .await
        .map_err(AppError::of)?;
    let mut limits = vec![];
    for o in &open.orders {
        if let Some(e) = session.store.orders().by_order_id(o.order_id.as_str())?
            && let Some(price) = e.price
        {
            limits.push(OpenLimit {
                direction: e.direction,
                price,
            });
        }
    }
    seen(app, &session.profile.id).open_limits = Some(limits.clone());
    if let Some(p) = last_price(app, &session.profile.id) {
        crate::alerts::observe(app, &session.store, &p, Some(&limits))?;
    }
    Ok(vec![])
}

/// One read of the history's tail. Rows new to the store are told to the window (Trade history
/// and the tax list show them), and deposits among them are announced, each once (see
/// `deposits`). A long first read of the history is followed to its end, its deposits told as
/// its pages bring them (the other watches go on meanwhile).
pub async fn look_at_history(app: &App) -> Answer<Vec<Change>> {
    read_history(app, true).await
}

/// `follow`: whether to stay with a sync still running after the tail's wait (the balances'
/// early look does not: it would hold the balances back).
async fn read_history(app: &App, follow: bool) -> Answer<Vec<Change>> {
    let session = app.tax_session().await?;
    let (store, profile) = (session.store, session.profile.id);
    let before = store.tax().mark()?;
    let mut shown = before;
    loop {
        let tail = crate::tax::read_tail(app).await?;
        if app.tax_session().await?.profile.id != profile {
            break;
        }
        let first_look = !seen(app, &profile).history_read;
        crate::deposits::tell(app, &store, tail == Tail::Whole, first_look)?;
        seen(app, &profile).history_read = true;
        if !follow || tail != Tail::Running {
            break;
        }
        let mark = store.tax().mark()?;
        if mark != shown {
            app.desktop.changed(Change::History);
            shown = mark;
        }
    }
    Ok(if store.tax().mark()? == before {
        vec![]
    } else {
        vec![Change::History]
    })
}

/// One look at money in motion: open invoices asked for their status (a payment is announced),
/// orders and payments whose outcome is unknown checked against the account, sent payments
/// followed on their network (an end is announced, and the history's tail read so the tax list
/// shows it). Returns what changed.
pub async fn look(app: &App) -> Answer<Vec<Change>> {
    let session = app.session().await?;
    let (client, store) = (session.connection.client(), &session.store);
    let mut changes = vec![];

    // An invoice is looked at until the exchange says it ended (paid, expired, cancelled); one
    // that expired a month ago and was never heard of since is left as it was last seen.
    let since = Utc::now() - chrono::Duration::days(30);
    let mut invoices_changed = false;
    // Only this credential's accounts' invoices: the exchange shows no other.
    let here = nordlys_core::account_identity::origin_here(client, store)
        .await?
        .identity;
    for i in store.invoices().open(since, here)? {
        // One the exchange will not show all the same (made where the accounts could not be
        // learned) waits for the next look; the others are looked at all the same.
        let answer = match client.invoice(&i.id).await {
            Ok(a) => a,
            Err(e) if e.refuses_only_this() => continue,
            Err(e) => return Err(AppError::of(e)),
        };
        let before = store.invoices().set_status(&i.id, &answer.status)?;
        if before.as_ref() == Some(&answer.status) {
            continue;
        }
        invoices_changed = true;
        if answer.status == InvoiceStatus::Paid {
            app.tell(Told::InvoicePaid {
                amount: i.amount_btc,
                description: i.public_description.clone(),
            });
        }
    }
    if invoices_changed {
        changes.push(Change::Invoices);
    }

    // One that stays unknown is looked at again on the next look.
    let looked = recheck(client, store, &app.timing().rules, Due::Now).await?;
    if !looked.is_empty() {
        // Each look is evidence the Unknowns screen shows, and may have settled one.
        changes.push(Change::Unknowns);
    }
    let mut settled = false;
    for (id, kind) in looked {
        if kind == JournalKind::Withdrawal
            && let Some(e) = store.withdrawals().entry(id)?
        {
            settled |= !matches!(e.state, WithdrawalState::Unknown | WithdrawalState::Sending);
        }
    }
    let ended = withdrawals::track(client, store)
        .await
        .map_err(crate::pay::withdrawal_error)?;
    for c in &ended {
        let completed = match NetworkStatus::from(&c.status) {
            NetworkStatus::Completed => true,
            NetworkStatus::Failed => false,
            _ => continue,
        };
        app.tell(Told::PaymentEnded {
            completed,
            amount: c.entry.amount_btc,
            destination: c.entry.destination.clone(),
        });
    }
    if !ended.is_empty() {
        // A payment that ended has its row in the history now: the tax list shows it.
        crate::tax::begin_sync(app).await.ok();
    }
    if settled || !ended.is_empty() {
        changes.push(Change::Payments);
    }
    Ok(changes)
}
