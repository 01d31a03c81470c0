//! Trading commands: the quote, the order form's checks, placing (journaled, sent once, reconciled
//! when the answer is lost), open orders and cancelling.

use chrono::{DateTime, Utc};
use nordlys_core::connection::Connection;
use nordlys_core::format::{BtcUnit, Figures};
use nordlys_core::order_form::{self, Market, OrderForm};
use nordlys_core::orders::{self, CancelDoubt, Placement, Resolution};
use nordlys_core::recheck::{Due, recheck};
use nordlys_core::store::{JournalEntry, JournalState, PriceSample, Store};
use nordlys_exchange::ids::OrderId;
use nordlys_exchange::models::PriceResponse;
use nordlys_money::{Amount, NokPerBtc};

use crate::NoArgs;
use crate::error::{Answer, AppError, ErrorCode};
use crate::error_words::Worded;
use crate::shown::Show;
use crate::state::{App, ProfileSession};
use crate::trade_views::*;
use crate::vocabulary::{self, Direction, OrderOutcome, OrderType};
use crate::wording::key;
use crate::wording::{self, Message};

/// How the trading screen writes amounts: bitcoin in BTC whatever the unit setting, as its
/// amounts are typed in NOK when buying and in BTC when selling.
fn order_figures(app: &App) -> Figures {
    Figures {
        unit: BtcUnit::Btc,
        ..app.figures()
    }
}

pub async fn quote(app: &App, args: QuoteArgs) -> Answer<QuoteView> {
    let figures = order_figures(app);
    let locale = figures.locale;
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
    let f = |p: NokPerBtc| figures.price(p);
    Ok(QuoteView {
        for_amount: amount.map(|a| figures.nok(a)),
        price: f(p.price),
        bid: figures.shown_price(p.bid),
        ask: figures.shown_price(p.ask),
        card_buy: f(p.card.buy),
        card_sell: f(p.card.sell),
        bank_buy: f(p.bank.buy),
        bank_sell: f(p.bank.sell),
        quoted_at: nordlys_core::format::time_to_second(&p.timestamp, app.zone, locale),
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
/// form shows (the one it sends from).
async fn market(app: &App, account: Option<&str>) -> Answer<(Market, DateTime<Utc>, String)> {
    let c = app.session().await?.connection;
    let client = c.client();
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
    Ok((market, price.timestamp, btc.id.to_string()))
}

/// What an estimate is at: the limit price typed, else the side of the quote a market order
/// fills against (the ask when buying, the bid when selling) with the quote's time.
fn estimate_basis(
    form: &OrderForm,
    market: &Market,
    quoted_at: &DateTime<Utc>,
    app: &App,
    figures: Figures,
) -> String {
    if form.order_type == OrderType::Limit {
        return wording::say(key::ESTIMATE_AT_LIMIT, figures.locale);
    }
    let (key, price) = match form.direction {
        Direction::Buy => (key::ESTIMATE_AT_ASK, market.ask),
        Direction::Sell => (key::VALUED_AT_BID, market.bid),
    };
    Message::new(key)
        .with("price", figures.price(price))
        .with(
            "time",
            nordlys_core::format::time_to_second(quoted_at, app.zone, figures.locale),
        )
        .render(figures.locale)
}

/// An order's estimate in words: bitcoin in BTC (the exchange's own unit for a fill), or NOK.
fn estimate_words(a: Amount, figures: Figures) -> String {
    figures.amount_in(a, BtcUnit::Btc)
}

/// What will happen, in words, for the confirmation step of a form ready to send.
fn order_confirmation(c: &order_form::OrderCheck, figures: Figures) -> Option<String> {
    let r = c.request.as_ref()?;
    let buying = Direction::Buy.is(&r.direction);
    let amount = figures.amount(Direction::amount_of(&r.direction, r.amount));
    let estimate = c
        .estimate
        .map(|a| estimate_words(a, figures))
        .unwrap_or_default();
    let m = match (buying, r.price) {
        (true, None) => Message::new(key::ORDER_SUMMARY_MARKET_BUY).with("estimate", estimate),
        (false, None) => Message::new(key::ORDER_SUMMARY_MARKET_SELL).with("estimate", estimate),
        (true, Some(p)) => {
            Message::new(key::ORDER_SUMMARY_LIMIT_BUY).with("price", figures.price(p))
        }
        (false, Some(p)) => {
            Message::new(key::ORDER_SUMMARY_LIMIT_SELL).with("price", figures.price(p))
        }
    };
    Some(m.with("amount", amount).render(figures.locale))
}

fn check_view(
    c: &order_form::OrderCheck,
    figures: Figures,
    estimate_basis: Option<String>,
) -> OrderCheckView {
    OrderCheckView {
        ok: c.request.is_some(),
        amount_error: c
            .amount_error
            .as_ref()
            .map(|p| wording::amount_problem(p, figures)),
        price_error: c
            .price_error
            .as_ref()
            .map(|p| wording::amount_problem(p, figures)),
        warning: c
            .warning
            .as_ref()
            .map(|w| wording::order_warning(w, figures)),
        estimate: c.estimate.map(|a| estimate_words(a, figures)),
        estimate_basis,
        summary: order_confirmation(c, figures),
        sale_tax: None,
        available: String::new(),
    }
}

pub async fn check_order(app: &App, args: OrderFormArgs) -> Answer<OrderCheckView> {
    let mut form = args.form;
    let (market, quoted_at, shown) = market(app, form.account_id.as_deref()).await?;
    form.account_id = Some(shown);
    let figures = order_figures(app);
    let check = order_form::check(&form, &market, figures.locale);
    let basis = check
        .estimate
        .as_ref()
        .map(|_| estimate_basis(&form, &market, &quoted_at, app, figures));
    let mut view = check_view(&check, figures, basis);
    view.available = match form.direction {
        Direction::Buy => figures.nok(market.available_nok),
        Direction::Sell => figures.btc(market.available_btc),
    };
    // A sale about to be made: what it would realise, at the limit or the bid.
    if let Some(r) = check
        .request
        .as_ref()
        .filter(|_| form.direction == Direction::Sell)
    {
        let price = r.price.unwrap_or(market.bid);
        view.sale_tax = Some(
            crate::sale_tax::sale_tax_view(app, nordlys_money::Btc::computed(r.amount), price)
                .await?,
        );
    }
    Ok(view)
}

/// An order's outcome in words; `name` names accounts the words mention.
fn resolution_view(
    r: Resolution,
    figures: Figures,
    name: &dyn Fn(&str) -> String,
) -> OrderResultView {
    let locale = figures.locale;
    match r {
        Resolution::Placed { order_id, trade_id } => OrderResultView {
            outcome: OrderOutcome::Placed,
            order_id,
            trade_id,
            message: wording::say(key::ORDER_PLACED, locale),
        },
        Resolution::NotPlaced => OrderResultView {
            outcome: OrderOutcome::NotPlaced,
            order_id: None,
            trade_id: None,
            message: wording::say(key::ORDER_NOT_PLACED, locale),
        },
        Resolution::StillUnknown(why) => OrderResultView {
            outcome: OrderOutcome::Unknown,
            order_id: None,
            trade_id: None,
            message: Message::new(key::ORDER_UNKNOWN)
                .nest("what", crate::wording::why_unknown(&why, figures, name))
                .render(locale),
        },
    }
}

pub async fn place_order(app: &App, args: OrderFormArgs) -> Answer<OrderResultView> {
    let turn = app.money_turn().await;
    let figures = order_figures(app);
    let locale = figures.locale;
    let mut form = args.form;
    let (market, _, shown) = market(app, form.account_id.as_deref()).await?;
    // The account shown is the account sent.
    form.account_id = Some(shown);
    let checked = order_form::check(&form, &market, figures.locale);
    let Some(request) = checked.request else {
        let why = [checked.amount_error, checked.price_error]
            .into_iter()
            .flatten()
            .map(|p| wording::amount_problem_message(&p, figures))
            .collect();
        return Err(AppError::all(
            ErrorCode::InvalidInput,
            why,
            key::ORDER_NOT_READY,
        ));
    };
    let session = app.session().await?;
    let ProfileSession {
        connection, store, ..
    } = &session;
    // The same order while one is unknown is refused unless the user confirmed it a second time.
    let despite = args.despite_unknown.unwrap_or(false);
    let placement = orders::place(connection.client(), store, &request, despite, &turn)
        .await
        .map_err(order_error)?;
    match placement {
        Placement::Placed {
            order_id,
            trade_id,
            warning,
            ..
        } => {
            let mut view = resolution_view(
                Resolution::Placed {
                    order_id: Some(order_id),
                    trade_id,
                },
                figures,
                &str::to_owned,
            );
            // Placed whatever happened to the journal's write; never an error to answer by
            // ordering again.
            if let Some(w) = warning {
                view.message = Message::new(key::ORDER_PLACED_NOT_RECORDED)
                    .with("reason", w)
                    .render(locale);
            }
            // Its trade is read into the history now, so Trade history and the tax list show
            // it; a history that cannot be read (no permission) just is not.
            crate::tax::begin_sync(app).await.ok();
            Ok(view)
        }
        Placement::Unknown { journal_id, .. } => {
            let r =
                orders::reconcile_with(connection.client(), store, journal_id, &app.timing().rules)
                    .await
                    .map_err(order_error)?;
            Ok(crate::account_names::named(app, &session, |name| {
                resolution_view(r.clone(), figures, name)
            })
            .await)
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
pub async fn resolve_orders(app: &App, _args: NoArgs) -> Answer<JournalView> {
    let ProfileSession {
        connection, store, ..
    } = app.session().await?;
    // What could not be looked at now stays unknown and is looked at on the next call.
    recheck(connection.client(), &store, &app.timing().rules, Due::Now).await?;
    let recent = store.journal_recent(20)?;
    Ok(JournalView {
        entries: recent
            .iter()
            .map(|e| journal_view(e, order_figures(app)))
            .collect(),
    })
}

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
    let unresolved = store.journal_unresolved()?;
    Ok(orders::cancel_doubt(o, &unresolved, rules, Utc::now()))
}

/// An order of the journal in a few words: "Market buy, NOK\u{a0}500.00" / "Markedskjøp, 500,00\u{a0}kr".
pub fn journaled_order_words(e: &JournalEntry, figures: Figures) -> String {
    let amount = figures.amount_in(e.direction.amount(e.amount), BtcUnit::Btc);
    let key = match (e.order_type, e.direction) {
        (OrderType::Market, Direction::Buy) => key::ORDER_MARKET_BUY,
        (OrderType::Market, Direction::Sell) => key::ORDER_MARKET_SELL,
        (OrderType::Limit, Direction::Buy) => key::ORDER_LIMIT_BUY,
        (OrderType::Limit, Direction::Sell) => key::ORDER_LIMIT_SELL,
    };
    Message::new(key)
        .with("amount", amount)
        .render(figures.locale)
}

fn journal_view(e: &JournalEntry, figures: Figures) -> JournalEntryView {
    JournalEntryView {
        id: e.id.to_string(),
        state: e.state,
        what: journaled_order_words(e, figures),
        order_id: e.order_id.clone(),
        trade_id: e.trade_id.clone(),
        outcome: match e.state {
            JournalState::Placed => wording::say(key::ORDER_PLACED, figures.locale),
            JournalState::NotPlaced | JournalState::Rejected => {
                wording::say(key::ORDER_NOT_PLACED, figures.locale)
            }
            JournalState::Sending | JournalState::Unknown => String::new(),
        },
    }
}

pub async fn open_orders(app: &App, _args: NoArgs) -> Answer<OpenOrdersView> {
    let figures = order_figures(app);
    let session = app.session().await?;
    let list = session
        .connection
        .client()
        .open_orders()
        .await
        .map_err(AppError::of)?;
    let bid = app.listing_bid(&session.store);
    let now = Utc::now();
    Ok(OpenOrdersView {
        orders: list
            .orders
            .iter()
            .map(|o| {
                let minutes = (now - o.created_at).num_minutes().max(0);
                let amount = Direction::amount_of(&o.direction, o.amount);
                // What the exchange's list leaves out, from the journal of an order placed here.
                let ours = session
                    .store
                    .journal_by_order_id(o.order_id.as_str())
                    .ok()
                    .flatten();
                OpenOrderView {
                    order_id: o.order_id.to_string(),
                    order_type: vocabulary::OrderType::from_wire(&o.order_type),
                    direction: vocabulary::Direction::from_wire(&o.direction),
                    amount: figures.amount(amount),
                    amount_nok: match amount {
                        nordlys_money::Amount::Btc(btc) => bid
                            .and_then(|b| btc.value_at(b))
                            .map(|n| format!("≈ {}", figures.nok(n))),
                        nordlys_money::Amount::Nok(_) => None,
                    },
                    age: wording::duration(minutes.unsigned_abs() * 60, figures.locale),
                    price: ours
                        .as_ref()
                        .and_then(|e| e.price)
                        .map(|p| figures.price(p)),
                    account_id: ours.and_then(|e| e.account_id),
                }
            })
            .collect(),
    })
}

pub async fn cancel_order(app: &App, args: CancelOrderArgs) -> Answer<OpenOrdersView> {
    let _turn = app.money_turn().await;
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
        let message = Message::new(key::CANCEL_FAILED).nest("reason", reason);
        return Err(AppError::new(code, message));
    }
    open_orders(app, NoArgs {}).await
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::panic,
        reason = "tests: a failed step is the failure"
    )]
    use nordlys_core::format::Locale;
    use nordlys_core::order_form::OrderForm;
    use nordlys_core::store::{Claim, NewOrderEntry, Origin};

    use super::*;

    fn shown(locale: Locale) -> Figures {
        Figures {
            locale,
            unit: BtcUnit::Btc,
            hidden: false,
        }
    }

    fn entry(order_type: OrderType, direction: Direction, amount: &str) -> JournalEntry {
        let store = Store::in_memory().unwrap();
        let new = NewOrderEntry {
            sent_at: Utc::now(),
            order_type,
            direction,
            amount: amount.parse().unwrap(),
            price: None,
            account_id: None,
            origin: &Origin::default(),
            request: "{}",
            reference: "",
            before: None,
        };
        let Claim::Journaled(id) = store.journal_order(&new, true).unwrap() else {
            panic!("refused")
        };
        store.journal_entry(id).unwrap().unwrap()
    }

    #[test]
    fn the_confirmation_says_what_will_happen_in_the_user_s_language() {
        let market = Market {
            bid: NokPerBtc::computed(980_000.into()),
            ask: NokPerBtc::computed(1_000_000.into()),
            available_nok: nordlys_money::Nok::computed(10_000.into()),
            available_btc: nordlys_money::Btc::from_sats(5_000_000),
        };
        let form =
            |order_type: OrderType, direction: Direction, amount: &str, price: Option<&str>| {
                OrderForm {
                    order_type,
                    direction,
                    amount: amount.into(),
                    price: price.map(Into::into),
                    account_id: None,
                }
            };
        let say = |f: &OrderForm, locale| {
            order_confirmation(&order_form::check(f, &market, locale), shown(locale)).unwrap()
        };
        let buy = form(OrderType::Market, Direction::Buy, "1 000,50", None);
        assert_eq!(
            say(&buy, Locale::Nb),
            "Kjøp bitcoin for 1\u{a0}000,50\u{a0}kr til markedspris (omtrent 0,00100050\u{a0}BTC før gebyr)."
        );
        let sell = form(OrderType::Limit, Direction::Sell, "0.01", Some("1200000"));
        assert_eq!(
            say(&sell, Locale::En),
            "Place a limit order to sell 0.01000000\u{a0}BTC at NOK\u{a0}1,200,000.00 per BTC or more. It stays open until filled or cancelled."
        );
        let empty = form(OrderType::Market, Direction::Buy, "", None);
        assert_eq!(
            order_confirmation(
                &order_form::check(&empty, &market, Locale::En),
                shown(Locale::En)
            ),
            None
        );
    }

    #[test]
    fn an_order_reads_in_the_user_s_language_with_its_amount_in_its_unit() {
        let buy = entry(OrderType::Market, Direction::Buy, "500");
        let sell = entry(OrderType::Limit, Direction::Sell, "0.015");
        assert_eq!(
            journaled_order_words(&buy, shown(Locale::En)),
            "Market buy, NOK\u{a0}500.00"
        );
        assert_eq!(
            journaled_order_words(&buy, shown(Locale::Nb)),
            "Markedskjøp, 500,00\u{a0}kr"
        );
        assert_eq!(
            journaled_order_words(&sell, shown(Locale::En)),
            "Limit sell, 0.01500000\u{a0}BTC"
        );
        assert_eq!(
            journaled_order_words(&sell, shown(Locale::Nb)),
            "Limitsalg, 0,01500000\u{a0}BTC"
        );
    }
}
