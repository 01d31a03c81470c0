//! Drives the app's own use cases, the ones the window's commands call, with typed arguments: a
//! connected app, one use case at a time as the UI asks for it, and lanes of mixed operations
//! as users' clicks. Shared by the fault soak, its readings matrix and the window-level tests.
#![allow(
    dead_code,
    reason = "each test file that includes this module uses part of it"
)]

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use nordlys_application::App;
use nordlys_application::NoArgs;
use nordlys_application::confirmation_views::ConfirmationText;
use nordlys_application::desktop::{ConfirmAnswer, Desktop, DesktopError};
use nordlys_application::error::{Answer, AppError};
use nordlys_application::pay::PaymentSent;
use nordlys_application::pay_views::{PayArgs, SendPaymentArgs};
use nordlys_application::present::Present;
use nordlys_application::profile_views::{ExchangeProfileArgs, SetApiKeyArgs, SwitchProfileArgs};
use nordlys_application::tax_views::{TaxRowsArgs, TaxRowsView};
use nordlys_application::trade_views::{CancelOrderArgs, OrderFormArgs, PlaceOrderArgs};
use nordlys_application::trading::OrderPlaced;
use nordlys_application::vocabulary::{Direction, OrderOutcome, OrderType, SyncState};
use nordlys_application::{pay, profiles, receive, tax, trading, watcher};
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::format::Locale;
use nordlys_core::order_form::OrderForm;
use nordlys_core::platform::secrets::{FileSecretStore, SecretStore};
use nordlys_core::store::WithdrawalState;
use nordlys_core::travel_rule::RecipientForm;
use nordlys_sandbox::world::rng::Rng;

/// Operations run side by side.
pub const LANES: usize = 8;

/// Waits for a use case's answer as the window does, at most 90 s (then the test says which).
pub async fn within<T>(what: &str, answer: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(90), answer)
        .await
        .unwrap_or_else(|_| panic!("`{what}` did not answer within 90 s"))
}

/// What an operation ended as, as the user saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ended {
    Done,
    Failed,
    /// The answer was lost; the app said so and resolved it from the account.
    Reconciled,
    /// The answer was lost and the app could not tell yet; resolved at the end.
    UnknownForNow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    MarketBuy,
    MarketSell,
    LimitBuy,
    Cancel,
    Invoice,
    Withdrawal,
    Read,
}

/// The trade form as filled in: a market order when `price` is `None`.
pub fn order(direction: Direction, amount: impl ToString, price: Option<String>) -> OrderFormArgs {
    OrderFormArgs {
        form: OrderForm {
            order_type: if price.is_some() {
                OrderType::Limit
            } else {
                OrderType::Market
            },
            direction,
            amount: amount.to_string(),
            price,
            account_id: None,
        },
    }
}

/// Kari, a private person at an address in Oslo, paying to her own wallet.
pub fn kari() -> RecipientForm {
    RecipientForm {
        full_name: "Kari Nordmann".into(),
        country: "NO".into(),
        address: "Storgata 1, Oslo".into(),
        self_custody: true,
        ..RecipientForm::default()
    }
}

/// The Pay form as filled in, for `recipient`, not yet reviewed.
pub fn payment(
    destination: &str,
    amount: impl ToString,
    unit: BitcoinAmountUnit,
    recipient: RecipientForm,
) -> PayArgs {
    PayArgs {
        destination: destination.into(),
        amount: amount.to_string(),
        unit,
        account_id: None,
        is_payment: false,
        description: String::new(),
        recipient,
        save_recipient: false,
        label: String::new(),
    }
}

/// The user at the native confirmation: approves each send unless told to cancel, and keeps
/// what each dialog showed.
#[derive(Debug, Default)]
pub struct Reviewer {
    pub shown: std::sync::Mutex<Vec<ConfirmationText>>,
    pub cancels: std::sync::atomic::AtomicBool,
}

impl Reviewer {
    /// Whether the next dialogs are cancelled, or approved.
    pub fn cancel(&self, cancels: bool) {
        self.cancels
            .store(cancels, std::sync::atomic::Ordering::SeqCst);
    }

    /// What the dialogs showed, oldest first.
    pub fn shown(&self) -> Vec<ConfirmationText> {
        self.shown.lock().unwrap().clone()
    }
}

impl Desktop for Reviewer {
    fn notify(&self, _notice: &nordlys_application::desktop::Notice) {}

    fn open_url(&self, _url: &str) -> Result<(), DesktopError> {
        Err(DesktopError("no browser in this test".into()))
    }

    fn choose_save_path(&self, _name: &str, chosen: nordlys_application::desktop::SaveChoice) {
        chosen(Err(DesktopError("no save dialog in this test".into())));
    }

    fn confirm(&self, text: &ConfirmationText, answer: ConfirmAnswer) {
        self.shown.lock().unwrap().push(text.clone());
        answer(Ok(!self.cancels.load(std::sync::atomic::Ordering::SeqCst)));
    }

    fn changed(&self, _what: nordlys_application::watcher::Change) {}

    fn tax_sync(&self, _progress: &nordlys_application::tax_views::TaxSyncView) {}
}

/// Sends the payment reviewed as `reviewed`, with the go-aheads the user gave.
pub async fn send_reviewed(
    app: &App,
    reviewed: &str,
    despite_unknown: bool,
    despite_recent: bool,
) -> Answer<PaymentSent> {
    let args = SendPaymentArgs {
        reviewed: reviewed.to_owned(),
        despite_unknown: despite_unknown.then_some(true),
        despite_recent: despite_recent.then_some(true),
    };
    pay::send_payment(app, &app.money_turn().await, args).await
}

/// Reviews `form` as the Pay screen does, then sends what was reviewed.
pub async fn pay_form(app: &App, form: PayArgs) -> Answer<PaymentSent> {
    let check = pay::check_payment(app, form).await?;
    send_reviewed(app, &check.reviewed, false, false).await
}

/// Places the order reviewed as `reviewed`.
pub async fn place_reviewed(
    app: &App,
    reviewed: &str,
    despite_unknown: bool,
) -> Answer<OrderPlaced> {
    let args = PlaceOrderArgs {
        reviewed: reviewed.to_owned(),
        despite_unknown: despite_unknown.then_some(true),
    };
    trading::place_order(app, &app.money_turn().await, args).await
}

/// Reviews `form` as the Trade screen does, then places what was reviewed.
pub async fn place_form(
    app: &App,
    form: OrderFormArgs,
    despite_unknown: bool,
) -> Answer<OrderPlaced> {
    let check = trading::check_order(app, form).await?;
    place_reviewed(app, &check.reviewed, despite_unknown).await
}

/// One lane of operations, in order, as one user's clicks; `LANES` run side by side.
pub async fn lane(
    app: Arc<App>,
    lane: usize,
    count: usize,
    price: rust_decimal::Decimal,
) -> Vec<(Operation, Ended)> {
    let mut rng = Rng::new(1000 + lane as u64);
    let mut ended = Vec::with_capacity(count);
    for i in 0..count {
        // Distinct amounts, so the app's reconciliation can be checked order by order.
        let n = lane * count + i;
        let op = match rng.below(20) {
            0..=2 => Operation::MarketBuy,
            3..=4 => Operation::MarketSell,
            5..=6 => Operation::LimitBuy,
            7 => Operation::Cancel,
            8..=9 => Operation::Invoice,
            10..=12 => Operation::Withdrawal,
            _ => Operation::Read,
        };
        let result = match op {
            Operation::MarketBuy => place(&app, order(Direction::Buy, 100 + n, None)).await,
            Operation::MarketSell => {
                place(&app, order(Direction::Sell, format!("0.0001{n:04}"), None)).await
            }
            Operation::LimitBuy => {
                let p = (price * rust_decimal::Decimal::new(8, 1)).round_dp(2);
                place(&app, order(Direction::Buy, 100 + n, Some(p.to_string()))).await
            }
            Operation::Cancel => cancel(&app).await,
            Operation::Invoice => {
                let args = nordlys_application::receive_views::InvoiceArgs {
                    account_id: None,
                    amount: format!("0.0000{n:04}"),
                    unit: BitcoinAmountUnit::Btc,
                    public_description: "soak".into(),
                    private_note: String::new(),
                };
                done_or_failed(within("create_invoice", receive::create_invoice(&app, args)).await)
            }
            Operation::Withdrawal => withdrawal(&app, n, rng.chance(50)).await,
            Operation::Read => read(&app, rng.below(6)).await,
        };
        ended.push((op, result));
    }
    ended
}

fn done_or_failed<T>(answer: Result<T, AppError>) -> Ended {
    if answer.is_ok() {
        Ended::Done
    } else {
        Ended::Failed
    }
}

/// One of the reads the screens make, chosen by `which` (0–5).
async fn read(app: &App, which: u64) -> Ended {
    use nordlys_application::market;
    match which {
        0 => done_or_failed(within("balances", profiles::balances(app, NoArgs {})).await),
        1 => done_or_failed(within("open_orders", trading::open_orders(app, NoArgs {})).await),
        // The watcher's look, as the running app makes every 2 s, under the same faults.
        2 => done_or_failed(within("watcher look", watcher::look(app)).await),
        3 => done_or_failed(
            within("recent_invoices", receive::recent_invoices(app, NoArgs {})).await,
        ),
        4 => done_or_failed(within("trade_history", market::trade_history(app, NoArgs {})).await),
        _ => {
            done_or_failed(within("resolve_orders", trading::resolve_orders(app, NoArgs {})).await)
        }
    }
}

/// Places an order as the Trade screen does; what the user was told.
pub async fn place(app: &App, args: OrderFormArgs) -> Ended {
    match within("place_order", place_form(app, args, false)).await {
        Err(_) => Ended::Failed,
        Ok(v) => match v.outcome() {
            OrderOutcome::Placed => Ended::Done,
            OrderOutcome::NotPlaced => Ended::Reconciled,
            OrderOutcome::Unknown => Ended::UnknownForNow,
        },
    }
}

async fn cancel(app: &App) -> Ended {
    let Ok(open) = within("open_orders", trading::open_orders(app, NoArgs {})).await else {
        return Ended::Failed;
    };
    let Some(first) = open.orders.first() else {
        return Ended::Done;
    };
    let args = CancelOrderArgs {
        order_id: first.0.order_id.to_string(),
        anyway: None,
    };
    done_or_failed(
        within(
            "cancel_order",
            trading::cancel_order(app, &app.money_turn().await, args),
        )
        .await,
    )
}

async fn withdrawal(app: &App, n: usize, onchain: bool) -> Ended {
    let (destination, amount) = if onchain {
        (
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            format!("0.0001{n:04}"),
        )
    } else {
        ("kari@example.com", format!("0.0000{n:04}"))
    };
    let mut args = payment(destination, amount, BitcoinAmountUnit::Btc, kari());
    // No description: the reference fills it, and the soak finds the payment by it (a
    // description the user typed is sent as typed, without one).
    args.is_payment = true;
    // Reviewed first, as in the window: a payment is sent only by its review's id.
    let Ok(check) = within("check_payment", pay::check_payment(app, args)).await else {
        return Ended::Failed;
    };
    // A user who is told the same payment went through today, and pays again.
    match within(
        "send_payment",
        send_reviewed(app, &check.reviewed, false, true),
    )
    .await
    {
        Err(_) => Ended::Failed,
        Ok(v) => match v.payment.entry.state {
            WithdrawalState::Sent => Ended::Done,
            WithdrawalState::NotSent => Ended::Reconciled,
            WithdrawalState::Unknown | WithdrawalState::Sending => Ended::UnknownForNow,
            WithdrawalState::Rejected => panic!("send_payment answered a rejection: {v:?}"),
        },
    }
}

/// The app as it first starts (the sandbox profile active), with its data in a temporary dir
/// and its secrets in `secrets`.
pub fn app_with(secrets: Arc<dyn SecretStore>) -> (Arc<App>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path(), secrets);
    (app, dir)
}

/// The app started again on the data in `dir`, as after a restart.
pub fn app_in(dir: &std::path::Path, secrets: Arc<dyn SecretStore>) -> Arc<App> {
    app_on(dir, secrets, Arc::new(Reviewer::default()))
}

/// The app on `desktop`, with its data in `dir`.
pub fn app_on(
    dir: &std::path::Path,
    secrets: Arc<dyn SecretStore>,
    desktop: Arc<dyn nordlys_application::desktop::Desktop>,
) -> Arc<App> {
    Arc::new(App::new(
        dir.to_path_buf(),
        secrets,
        desktop,
        Locale::En,
        nordlys_core::time::OSLO,
    ))
}

/// `profile`'s store in the app's data `dir`, opened on a connection of its own with its key from
/// the app's keyring, as the CLI opens it.
pub fn profile_db(app: &App, dir: &std::path::Path, profile: &str) -> nordlys_core::store::Store {
    let path = dir.join("profiles").join(profile).join("nordlys.sqlite");
    nordlys_core::store::profile_store::open(&*app.secrets, profile, &path)
        .unwrap_or_else(|e| panic!("{profile}'s store: {e}"))
}

/// The keyring double of [`connected_app`]'s app, in its data `dir`, for the CLI it starts
/// (`NORDLYS_TEST_KEYRING_DIR`).
pub fn keyring_dir(dir: &std::path::Path) -> std::path::PathBuf {
    dir.join("keyring")
}

/// The app with its data in a temporary dir and its secrets in a keyring double beside it
/// ([`keyring_dir`]), connected as a user would: an exchange profile, then an API key that may
/// trade and withdraw. `shorten` sets the quiet period and request timeout (seconds) first, as
/// debug builds allow.
pub async fn connected_app(
    sb: &nordlys_sandbox::RunningSandbox,
    shorten: Option<(chrono::Duration, u64)>,
) -> (Arc<App>, tempfile::TempDir) {
    let (app, dir, _) = reviewed_app(sb, shorten).await;
    (app, dir)
}

/// [`connected_app`], with the user at its native confirmations.
pub async fn reviewed_app(
    sb: &nordlys_sandbox::RunningSandbox,
    shorten: Option<(chrono::Duration, u64)>,
) -> (Arc<App>, tempfile::TempDir, Arc<Reviewer>) {
    let dir = tempfile::tempdir().unwrap();
    let secrets = FileSecretStore::new(keyring_dir(dir.path()));
    let reviewer = Arc::new(Reviewer::default());
    let app = app_on(dir.path(), Arc::new(secrets), reviewer.clone());
    if let Some((quiet, timeout)) = shorten {
        app.set_timing(nordlys_application::state::Timing {
            rules: nordlys_core::evidence::Rules::with_min_quiet(quiet),
            request_timeout_secs: timeout,
        });
    }
    connect(&app, sb).await;
    (app, dir, reviewer)
}

/// Connects `app` as a user would: an exchange profile, then an API key that may trade and
/// withdraw.
pub async fn connect(app: &App, sb: &nordlys_sandbox::RunningSandbox) {
    connect_to(app, sb.base_url(), &sb.info.api_keys.withdrawal).await;
}

/// Connects `app` to the exchange at `base_url` with `key`, as a user would.
pub async fn connect_to(app: &App, base_url: &str, key: &nordlys_sandbox::KeyInfo) {
    save_exchange_profile(app, base_url).await.unwrap();
    switch_profile(app, "exchange").await.unwrap();
    let args = SetApiKeyArgs {
        key: key.key.clone(),
        secret: key.secret.clone(),
        may_trade: None,
        may_withdraw: None,
    };
    within("set_api_key", profiles::set_api_key(app, args))
        .await
        .unwrap();
}

/// Saves the exchange profile at `base_url`, as the settings form does.
pub async fn save_exchange_profile(
    app: &App,
    base_url: &str,
) -> Result<nordlys_application::profiles::AppState, AppError> {
    let args = ExchangeProfileArgs {
        password: None,
        base_url: base_url.into(),
        client_id: "nordlys-soak".into(),
        operator: None,
        oauth_base_url: None,
        scopes: None,
    };
    within(
        "save_exchange_profile",
        profiles::save_exchange_profile(app, args),
    )
    .await
}

pub async fn switch_profile(
    app: &App,
    id: &str,
) -> Result<nordlys_application::profiles::AppState, AppError> {
    let args = SwitchProfileArgs { id: id.into() };
    within("switch_profile", profiles::switch_profile(app, args)).await
}

/// Syncs the tax history as the Sync button does, and waits until it is complete.
pub async fn tax_synced(app: &App) {
    within("start_tax_sync", tax::start_tax_sync(app, NoArgs {}))
        .await
        .unwrap();
    for _ in 0..600 {
        let status = within("tax_sync_status", tax::tax_sync_status(app, NoArgs {}))
            .await
            .unwrap();
        match status.state {
            SyncState::Running => tokio::time::sleep(Duration::from_millis(50)).await,
            SyncState::Complete => return,
            other => panic!("the sync ended {other:?}: {status:?}"),
        }
    }
    panic!("the sync did not end");
}

/// One block of the tax list, unfiltered: `total` comes with the block at offset 0.
pub async fn tax_rows(app: &App, offset: u32, limit: u32) -> TaxRowsView {
    let args = TaxRowsArgs {
        offset,
        limit,
        ..TaxRowsArgs::default()
    };
    within("tax_rows", tax::tax_rows(app, args))
        .await
        .unwrap()
        .present(&app.viewer())
}
