//! Price alerts: made, edited and removed in the window, kept in the profile's store, and checked
//! against every price the watcher reads (no request of their own). Each fires once per crossing
//! as a desktop notification that opens the Trade screen.

use nordlys_core::alerts::{
    Alert, AlertForm, AlertProblem, Level, OpenLimit, Watched, nearest_order_percent,
};
use nordlys_core::store::Store;
use nordlys_exchange::models::PriceResponse;
use nordlys_money::Nok;

use crate::alert_views::{AlertArgs, AlertIdArgs, UsualAmountArgs};
use crate::error::{Answer, AppError, ErrorCode};
use crate::msg;
use crate::notices::Told;
use crate::wording::{self, key};
use crate::{App, NoArgs};

/// The alerts, with the usual amount the bank and card prices are asked for.
#[derive(Debug, Clone)]
pub struct AlertList {
    pub alerts: Vec<Alert>,
    pub usual: Nok,
    /// An alert on open orders cannot be made on this connection: it has no API key.
    pub open_orders_need_key: bool,
}

/// An alert kept, or what is wrong at each field of its form (then nothing was kept).
#[derive(Debug, Clone)]
pub struct SavedAlert {
    pub problems: Vec<AlertProblem>,
    pub alerts: AlertList,
}

/// Whether the credentials cannot list open orders: no API key (OAuth access is not given them).
fn open_orders_need_key(session: &crate::state::ProfileSession) -> bool {
    session.connection.client().credentials().key.is_none()
}

fn view(app: &App, session: &crate::state::ProfileSession) -> Answer<AlertList> {
    Ok(AlertList {
        alerts: session.store.alerts().all()?,
        usual: app.settings().usual_amount_nok(),
        open_orders_need_key: open_orders_need_key(session),
    })
}

pub async fn alerts(app: &App, _args: NoArgs) -> Answer<AlertList> {
    let session = app.session().await?;
    view(app, &session)
}

/// Keeps a new or edited alert, or says what is wrong at each field and keeps nothing. An alert
/// made while the price is already beyond its level waits for the price to come back first.
pub async fn save_alert(app: &App, args: AlertArgs) -> Answer<SavedAlert> {
    let session = app.session().await?;
    let form = AlertForm {
        watched: args.watched,
        crossing: args.crossing,
        level: &args.level,
        hysteresis: &args.hysteresis,
    };
    let new = match form.check(app.input_locale()) {
        Ok(new) => new,
        Err(problems) => {
            return Ok(SavedAlert {
                problems,
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
            if !session.store.alerts().edit(id, &new, armed)? {
                return Err(AppError::said(ErrorCode::InvalidInput, key::ALERT_GONE));
            }
        }
        None => {
            session.store.alerts().add(&new, armed)?;
        }
    }
    Ok(SavedAlert {
        problems: vec![],
        alerts: view(app, &session)?,
    })
}

pub async fn remove_alert(app: &App, args: AlertIdArgs) -> Answer<AlertList> {
    let session = app.session().await?;
    session.store.alerts().remove(args.id)?;
    view(app, &session)
}

/// The amount the price poller asks the bank and card prices for.
pub async fn set_usual_amount(app: &App, args: UsualAmountArgs) -> Answer<AlertList> {
    let amount =
        nordlys_core::amount_input::parse_nok(&args.amount, app.input_locale()).map_err(|e| {
            AppError::new(
                ErrorCode::InvalidInput,
                msg!(USUAL_AMOUNT_PROBLEM {
                    problem: wording::amount_input(&e)
                }),
            )
        })?;
    app.settings().usual_amount_nok = Some(amount);
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
    for mut a in store.alerts().all()? {
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
            store.alerts().set_armed(a.id, a.armed)?;
        }
    }
    Ok(())
}
