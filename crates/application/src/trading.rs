//! Trading commands: the quote, the order form's checks, placing (journaled, sent once, reconciled
//! when the answer is lost), open orders and cancelling.

use chrono::{DateTime, Utc};
use nordlys_core::connection::Connection;
use nordlys_core::doubt::WhyUnknown;
use nordlys_core::format::BtcUnit;
use nordlys_core::money_turn::MoneyTurn;
use nordlys_core::order_form::{self, Market, OrderForm};
use nordlys_core::orders::{self, CancelDoubt, Placement, Resolution};
use nordlys_core::recheck::{Due, recheck};
use nordlys_core::store::{JournalEntry, PriceSample, Store};
use nordlys_exchange::ids::OrderId;
use nordlys_exchange::models::{Order, PriceResponse};
use nordlys_money::{Btc, Nok, NokPerBtc};

use crate::NoArgs;
use crate::account_names::AccountNames;
use crate::confirmation::{self, Confirmation, OrderReview};
use crate::error::{Answer, AppError, ErrorCode};
use crate::error_words::Worded;
use crate::msg;
use crate::sale_tax::{TaxOnSale, tax_on_sale};
use crate::state::{App, ProfileSession};
use crate::trade_views::*;
use crate::vocabulary::{Direction, OrderOutcome};
use crate::wording::{self, key};

/// The exchange's prices, for an amount when one was typed.
#[derive(Debug, Clone)]
pub struct Quote {
    pub price: PriceResponse,
    pub for_amount: Option<Nok>,
}

pub async fn quote(app: &App, args: QuoteArgs) -> Answer<Quote> {
    let locale = app.input_locale();
    let amount = args
        .amount_nok
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|text| nordlys_core::amount_input::parse_nok(text, locale))
        .transpose()
        .map_err(|e| AppError::new(ErrorCode::InvalidInput, wording::amount_input(&e)))?;
    let ProfileSession {
        connection,
        store,
        profile,
    } = app.session().await?;
    // The watcher's last look is the price of the moment; an amount asks the exchange for its own.
    let seen = match amount {
        None => crate::watcher::last_price(app, &profile.id),
        Some(_) => None,
    };
    let p = match seen {
        Some(p) => p,
        None => {
            let p = connection
                .client()
                .price(amount)
                .await
                .map_err(AppError::of)?;
            keep_sample(app, &store, &p);
            p
        }
    };
    Ok(Quote {
        price: p,
        for_amount: amount,
    })
}

/// Keeps a fetched price as a sample of Nordlys' own price history (the API keeps none); a
/// sample that cannot be written is told once, as a notice.
pub(crate) fn keep_sample(app: &App, store: &Store, p: &PriceResponse) {
    let sample = PriceSample {
        at: p.timestamp,
        mid: p.price,
        bid: p.bid,
        ask: p.ask,
    };
    if let Err(e) = store.add_price_sample(&sample) {
        *app.notice
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some(crate::state::AppNotice::SampleNotKept {
                detail: e.to_string(),
            });
    }
}

/// The market the form is checked against, when the exchange quoted it, and the account the
/// form shows (the one it sends from), by id and name.
async fn market(
    app: &App,
    session: &ProfileSession,
    account: Option<&str>,
) -> Answer<(Market, DateTime<Utc>, (String, String))> {
    let client = session.connection.client();
    let price = client.price(None).await.map_err(AppError::of)?;
    let nok = client
        .fiat_account()
        .await
        .map_err(AppError::of)?
        .available_nok;
    let btc = crate::shown_account::shown(app, client, account).await?;
    let market = Market {
        bid: price.bid,
        ask: price.ask,
        available_nok: nok,
        available_btc: btc.available_btc,
    };
    Ok((market, price.timestamp, (btc.id.to_string(), btc.name)))
}

/// The order form checked against the market, with what its confirmation shows.
#[derive(Debug, Clone)]
pub struct OrderChecked {
    pub form: OrderForm,
    pub check: order_form::OrderCheck,
    pub market: Market,
    /// When the exchange quoted the market.
    pub quoted_at: DateTime<Utc>,
    /// What a sale about to be made would realise, at the limit or the bid.
    pub sale_tax: Option<TaxOnSale>,
    /// The one-time id that places the order as checked; empty while it cannot be placed.
    pub reviewed: String,
}

pub async fn check_order(app: &App, args: OrderFormArgs) -> Answer<OrderChecked> {
    let mut form = args.form;
    let session = app.session().await?;
    let (market, quoted_at, (shown, _)) = market(app, &session, form.account_id.as_deref()).await?;
    form.account_id = Some(shown);
    let check = order_form::check(&form, &market, app.input_locale());
    let selling = check
        .request
        .as_ref()
        .filter(|_| form.direction == Direction::Sell);
    let sale_tax = match selling {
        Some(r) => {
            let price = r.price.unwrap_or(market.bid);
            Some(tax_on_sale(app, Btc::computed(r.amount), price).await?)
        }
        None => None,
    };
    // Only a form that can be placed is held for placing.
    let reviewed = match check.request {
        Some(_) => {
            let orders = &app.prepared.orders;
            orders
                .hold(&session.profile.id, form.clone())?
                .as_str()
                .to_owned()
        }
        None => String::new(),
    };
    Ok(OrderChecked {
        form,
        check,
        market,
        quoted_at,
        sale_tax,
        reviewed,
    })
}

/// What became of an order placed from the form; the names of the accounts its words mention.
#[derive(Debug, Clone)]
pub struct OrderPlaced {
    pub resolution: Resolution,
    /// Placed, but the journal's write failed after it.
    pub unrecorded: Option<String>,
    pub names: AccountNames,
}

impl OrderPlaced {
    /// Placed, not placed, or not known yet.
    pub fn outcome(&self) -> OrderOutcome {
        match self.resolution {
            Resolution::Placed { .. } => OrderOutcome::Placed,
            Resolution::NotPlaced => OrderOutcome::NotPlaced,
            Resolution::StillUnknown(_) => OrderOutcome::Unknown,
        }
    }

    /// The exchange's id of the order, once placed.
    pub fn order_id(&self) -> Option<&str> {
        match &self.resolution {
            Resolution::Placed { order_id, .. } => order_id.as_deref(),
            _ => None,
        }
    }
}

/// Places the order reviewed under `args.reviewed`, in the money turn the caller holds, once the
/// user approved it outside the window. The id is used up by the placing; an order that did not
/// go (cancelled, a second go-ahead asked for) keeps it.
pub async fn place_order(app: &App, turn: &MoneyTurn, args: PlaceOrderArgs) -> Answer<OrderPlaced> {
    // One session for the whole placing: the turn held keeps it the active profile's.
    let session = app.session().await?;
    let taken = app
        .prepared
        .orders
        .take(&args.reviewed, &session.profile.id)?;
    let placed = place_prepared(app, &session, turn, taken.what.clone(), &args).await;
    app.prepared.orders.after(taken, &placed);
    placed
}

async fn place_prepared(
    app: &App,
    session: &ProfileSession,
    turn: &MoneyTurn,
    mut form: OrderForm,
    args: &PlaceOrderArgs,
) -> Answer<OrderPlaced> {
    let (market, _, (shown, account_name)) =
        market(app, session, form.account_id.as_deref()).await?;
    // The account shown is the account sent.
    form.account_id = Some(shown);
    let checked = order_form::check(&form, &market, app.input_locale());
    let Some(request) = checked.request else {
        let why = [checked.amount_error, checked.price_error]
            .into_iter()
            .flatten()
            .map(|p| wording::amount_problem_message(&p, Some(BtcUnit::Btc)))
            .collect();
        return Err(AppError::all(
            ErrorCode::InvalidInput,
            why,
            key::ORDER_NOT_READY,
        ));
    };
    let ProfileSession {
        connection, store, ..
    } = session;
    // The same order while one is unknown is refused unless the user confirmed it a second time;
    // asked before the dialog, whose button then places it.
    let despite = args.despite_unknown.unwrap_or(false);
    orders::asks_first(connection.client(), store, &request, despite).map_err(order_error)?;
    // What the user approves is read back from the request itself, outside the window.
    let review = OrderReview::of(&request, &account_name);
    confirmation::ask(app, Confirmation::Order(review)).await?;
    let placement = orders::place(connection.client(), store, &request, despite, turn)
        .await
        .map_err(order_error)?;
    match placement {
        Placement::Placed {
            order_id,
            trade_id,
            warning,
            ..
        } => {
            // Its trade is read into the history now, so Trade history and the tax list show
            // it; a history that cannot be read (no permission) just is not.
            crate::tax::begin_sync(app).await.ok();
            // Placed whatever happened to the journal's write; never an error to answer by
            // ordering again.
            Ok(OrderPlaced {
                resolution: Resolution::Placed {
                    order_id: Some(order_id),
                    trade_id,
                },
                unrecorded: warning.map(|w| w.to_string()),
                names: AccountNames::default(),
            })
        }
        Placement::Unknown { journal_id, .. } => {
            let r = nordlys_core::journal::reconcile::<JournalEntry>(
                connection.client(),
                store,
                journal_id,
                &app.timing().rules,
            )
            .await
            .map_err(order_error)?;
            let mentioned = match &r {
                Resolution::StillUnknown(WhyUnknown::Doubt(d)) => d.account(),
                _ => None,
            };
            Ok(OrderPlaced {
                names: crate::account_names::of(app, session, mentioned).await,
                resolution: r,
                unrecorded: None,
            })
        }
    }
}

fn order_error(e: orders::OrderError) -> AppError {
    match e {
        orders::OrderError::Exchange(inner) => AppError::of(inner),
        orders::OrderError::SameAsUnknown(_) => {
            AppError::said(ErrorCode::SameAsUnknown, key::ORDER_SAME_AS_UNKNOWN)
        }
        other => AppError::fault(other),
    }
}

/// Resolves every order whose outcome is not known (after a lost answer, or a crash while
/// sending) and returns the recent journal.
pub async fn resolve_orders(app: &App, _args: NoArgs) -> Answer<Journal> {
    let ProfileSession {
        connection, store, ..
    } = app.session().await?;
    // What could not be looked at now stays unknown and is looked at on the next call.
    recheck(connection.client(), &store, &app.timing().rules, Due::Now).await?;
    Ok(Journal(store.orders().recent(20)?))
}

/// The recent orders of the journal, newest first.
#[derive(Debug, Clone)]
pub struct Journal(pub Vec<JournalEntry>);

/// What unknown orders say about cancelling the open order `id`; it cannot be told while the
/// open orders cannot be read.
async fn unknown_could_be(
    connection: &Connection,
    store: &Store,
    id: &str,
    rules: &nordlys_core::evidence::Rules,
) -> Answer<CancelDoubt> {
    let Ok(open) = connection.client().open_orders().await else {
        return Ok(CancelDoubt::CannotLook);
    };
    let Some(o) = open.orders.iter().find(|o| o.order_id.as_str() == id) else {
        return Ok(CancelDoubt::None);
    };
    let unresolved = store.orders().unresolved()?;
    Ok(orders::cancel_doubt(o, &unresolved, rules, Utc::now()))
}

/// The open orders, each with its journal entry when it was placed here (what the exchange's
/// list leaves out), and the bid a bitcoin amount is valued at.
#[derive(Debug, Clone)]
pub struct OpenOrders {
    pub orders: Vec<(Order, Option<JournalEntry>)>,
    pub bid: Option<NokPerBtc>,
    pub at: DateTime<Utc>,
}

pub async fn open_orders(app: &App, _args: NoArgs) -> Answer<OpenOrders> {
    let session = app.session().await?;
    let list = session
        .connection
        .client()
        .open_orders()
        .await
        .map_err(AppError::of)?;
    let bid = app.listing_bid(&session.store);
    let orders = list
        .orders
        .into_iter()
        .map(|o| {
            let ours = session
                .store
                .orders()
                .by_order_id(o.order_id.as_str())
                .ok()
                .flatten();
            (o, ours)
        })
        .collect();
    Ok(OpenOrders {
        orders,
        bid,
        at: Utc::now(),
    })
}

/// Cancels an open order, in the money turn the caller holds (an unknown order may be it).
pub async fn cancel_order(
    app: &App,
    _turn: &MoneyTurn,
    args: CancelOrderArgs,
) -> Answer<OpenOrders> {
    let ProfileSession {
        connection, store, ..
    } = app.session().await?;
    // An order whose answer was lost is looked for first: once cancelled it can no longer be seen
    // on the exchange, and its journal entry could not be resolved as placed.
    let rules = app.timing().rules;
    recheck(connection.client(), &store, &rules, Due::All).await?;
    let doubt = unknown_could_be(&connection, &store, &args.order_id, &rules).await?;
    if doubt == CancelDoubt::Old && args.anyway != Some(true) {
        return Err(AppError::said(
            ErrorCode::MayBeUnknown,
            key::CANCEL_MAY_BE_UNKNOWN,
        ));
    }
    if matches!(doubt, CancelDoubt::CannotLook | CancelDoubt::Young) {
        return Err(AppError::said(
            ErrorCode::Network,
            key::CANCEL_STILL_CHECKING,
        ));
    }
    let result = connection
        .client()
        .cancel_order(&OrderId::from(args.order_id.as_str()))
        .await;
    if let Err(e) = result {
        let (code, reason) = e.words();
        let message = msg!(CANCEL_FAILED { reason: reason });
        return Err(AppError::new(code, message));
    }
    open_orders(app, NoArgs {}).await
}
