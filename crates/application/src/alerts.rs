//! Price alerts: made, edited and removed in the window, kept in the profile's store, and checked
//! against every price the watcher reads (no request of their own). Each fires once per crossing
//! as a desktop notification that opens the Trade screen.

use nordlys_core::alerts::{
    Alert, AlertField, AlertForm, AlertProblem, Crossing, Level, OpenLimit, Watched,
    nearest_order_percent,
};
use nordlys_core::format::Figures;
use nordlys_core::store::Store;
use nordlys_exchange::models::PriceResponse;
use nordlys_money::Nok;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{Answer, AppError, ErrorCode};
use crate::notices::Told;
use crate::wording::key;
use crate::wording::{self, Message};
use crate::{App, NoArgs};

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AlertsView {
    /// The usual amount, formatted.
    pub usual_amount: String,
    /// The usual amount as a plain number, to edit.
    pub usual_amount_typed: String,
    pub alerts: Vec<AlertView>,
    /// Why an alert on open orders cannot be made on this connection; `None`: it can.
    pub open_orders_unavailable: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AlertView {
    #[ts(type = "number")]
    pub id: i64,
    pub watched: Watched,
    pub crossing: Crossing,
    /// What it watches for, in words: "The bank price to buy NOK 5,000.00 rises above …".
    pub said: String,
    /// The level and hysteresis as plain numbers, to edit.
    pub level: String,
    pub hysteresis: String,
    /// It fired (or the price was beyond it when it was made) and waits for the price to come back.
    pub waiting: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AlertArgs {
    /// `None`: a new alert.
    #[ts(type = "number | null")]
    pub id: Option<i64>,
    pub watched: Watched,
    pub crossing: Crossing,
    pub level: String,
    /// Percent of the level; empty for 0.5 %.
    pub hysteresis: String,
}

/// A field of the form and what is wrong with it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AlertProblemView {
    pub field: AlertField,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SaveAlertView {
    /// Empty when the alert was kept; otherwise nothing was.
    pub problems: Vec<AlertProblemView>,
    pub alerts: AlertsView,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AlertIdArgs {
    #[ts(type = "number")]
    pub id: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UsualAmountArgs {
    pub amount: String,
}

fn watched_words(w: Watched, usual: Nok, figures: Figures) -> String {
    let key = match w {
        Watched::Mid => key::ALERT_WATCHED_MID,
        Watched::BankBuy => key::ALERT_WATCHED_BANK_BUY,
        Watched::BankSell => key::ALERT_WATCHED_BANK_SELL,
        Watched::CardBuy => key::ALERT_WATCHED_CARD_BUY,
        Watched::CardSell => key::ALERT_WATCHED_CARD_SELL,
        Watched::Spread => key::ALERT_WATCHED_SPREAD,
        Watched::OpenOrder => key::ALERT_WATCHED_OPEN_ORDER,
    };
    Message::new(key)
        .with("usual", figures.nok(usual))
        .render(figures.locale)
}

/// A price, the spread or a distance, as the alert's level is written.
pub(crate) fn level_words(level: Level, figures: Figures) -> String {
    match level {
        Level::Price(p) => figures.price(p),
        Level::Spread(n) => figures.nok(n),
        Level::Percent(p) => Message::new(key::ALERT_PERCENT)
            .with(
                "percent",
                nordlys_core::format::number(p, 2, figures.locale),
            )
            .render(figures.locale),
    }
}

pub(crate) fn said(a: &Alert, usual: Nok, figures: Figures) -> String {
    let key = match (a.watched, a.crossing) {
        (Watched::OpenOrder, _) => key::ALERT_COMES_WITHIN,
        (_, Crossing::RisesAbove) => key::ALERT_RISES_ABOVE,
        (_, Crossing::FallsBelow) => key::ALERT_FALLS_BELOW,
    };
    Message::new(key)
        .with("what", watched_words(a.watched, usual, figures))
        .with("level", level_words(a.level, figures))
        .render(figures.locale)
}

/// Whether the credentials cannot list open orders: no API key (OAuth access is not given them).
fn open_orders_need_key(session: &crate::state::ProfileSession) -> bool {
    session.connection.client().credentials().key.is_none()
}

fn view(app: &App, session: &crate::state::ProfileSession) -> Answer<AlertsView> {
    let store = &session.store;
    let figures = app.figures();
    let usual = app.settings().usual_amount_nok();
    Ok(AlertsView {
        usual_amount: figures.nok(usual),
        usual_amount_typed: usual.decimal().normalize().to_string(),
        alerts: store
            .alerts()?
            .iter()
            .map(|a| AlertView {
                id: a.id,
                watched: a.watched,
                crossing: a.crossing,
                said: said(a, usual, figures),
                level: a.level.decimal().normalize().to_string(),
                hysteresis: a.hysteresis_percent.normalize().to_string(),
                waiting: !a.armed,
            })
            .collect(),
        open_orders_unavailable: open_orders_need_key(session)
            .then(|| wording::say(key::ALERT_OPEN_ORDER_NEEDS_KEY, app.locale())),
    })
}

pub async fn alerts(app: &App, _args: NoArgs) -> Answer<AlertsView> {
    let session = app.session().await?;
    view(app, &session)
}

/// Keeps a new or edited alert, or says what is wrong at each field and keeps nothing. An alert
/// made while the price is already beyond its level waits for the price to come back first.
pub async fn save_alert(app: &App, args: AlertArgs) -> Answer<SaveAlertView> {
    let session = app.session().await?;
    let locale = app.locale();
    let form = AlertForm {
        watched: args.watched,
        crossing: args.crossing,
        level: &args.level,
        hysteresis: &args.hysteresis,
    };
    let new = match form.check(locale) {
        Ok(new) => new,
        Err(problems) => {
            return Ok(SaveAlertView {
                problems: problems
                    .iter()
                    .map(|p| AlertProblemView {
                        field: p.field(),
                        message: match p {
                            AlertProblem::Level(e) => Message::new(key::ALERT_LEVEL_PROBLEM)
                                .with("problem", wording::amount_input_problem(e.clone(), locale))
                                .render(locale),
                            AlertProblem::Hysteresis => {
                                wording::say(key::ALERT_HYSTERESIS_RANGE, locale)
                            }
                            AlertProblem::Distance => {
                                wording::say(key::ALERT_DISTANCE_RANGE, locale)
                            }
                        },
                    })
                    .collect(),
                alerts: view(app, &session)?,
            });
        }
    };
    if new.watched == Watched::OpenOrder && open_orders_need_key(&session) {
        return Err(AppError::said(
            ErrorCode::InvalidInput,
            key::ALERT_OPEN_ORDER_NEEDS_KEY,
        ));
    }
    let armed = crate::watcher::last_price(app, &session.profile.id)
        .and_then(|p| new.watched.value(&p))
        .is_none_or(|v| !new.crossing.reached(v, new.level));
    match args.id {
        Some(id) => {
            if !session.store.edit_alert(id, &new, armed)? {
                return Err(AppError::said(ErrorCode::InvalidInput, key::ALERT_GONE));
            }
        }
        None => {
            session.store.add_alert(&new, armed)?;
        }
    }
    Ok(SaveAlertView {
        problems: vec![],
        alerts: view(app, &session)?,
    })
}

pub async fn remove_alert(app: &App, args: AlertIdArgs) -> Answer<AlertsView> {
    let session = app.session().await?;
    session.store.remove_alert(args.id)?;
    view(app, &session)
}

/// The amount the price poller asks the bank and card prices for.
pub async fn set_usual_amount(app: &App, args: UsualAmountArgs) -> Answer<AlertsView> {
    let locale = app.locale();
    let amount = nordlys_core::amount_input::parse_nok(&args.amount, locale).map_err(|e| {
        AppError::new(
            ErrorCode::InvalidInput,
            Message::new(key::USUAL_AMOUNT_PROBLEM)
                .with("problem", wording::amount_input_problem(e, locale)),
        )
    })?;
    app.settings().usual_amount_nok = Some(amount.decimal());
    app.save_settings()?;
    let session = app.session().await?;
    view(app, &session)
}

/// Checks every alert against one price the watcher read, and the open limit orders it last saw
/// (`None`: not read): each that fires is notified once, and each whose state changed is kept so
/// a restart neither repeats nor forgets it.
pub(crate) fn observe(
    app: &App,
    store: &Store,
    p: &PriceResponse,
    open: Option<&[OpenLimit]>,
) -> Answer<()> {
    let usual = app.settings().usual_amount_nok();
    for mut a in store.alerts()? {
        let was = a.armed;
        let value = match a.watched {
            Watched::OpenOrder => open
                .and_then(|o| nearest_order_percent(o, p))
                .map(Level::Percent),
            _ => a.watched.value(p),
        };
        let Some(value) = value else {
            continue;
        };
        if a.observe(value) {
            app.tell(Told::AlertFired {
                alert: a.clone(),
                usual,
                value,
            });
        }
        if a.armed != was {
            store.set_alert_armed(a.id, a.armed)?;
        }
    }
    Ok(())
}
