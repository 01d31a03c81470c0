//! What crosses IPC for price alerts, and the presenters that word them: what each watches for in
//! a sentence, and a form's problems at their field.

use nordlys_core::alerts::{Alert, AlertField, AlertProblem, Crossing, Level, Watched};
use nordlys_core::format::Figures;
use nordlys_money::Nok;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::alerts::{AlertList, SavedAlert};
use crate::msg;
use crate::present::{Present, Viewer};
use crate::shown::{Show, ShownNok};
use crate::wording::{self, Message, key};

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AlertsView {
    pub usual_amount: ShownNok,
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
    let usual = figures.nok(usual);
    match w {
        Watched::Mid => Message::new(key::ALERT_WATCHED_MID),
        Watched::BankBuy => msg!(ALERT_WATCHED_BANK_BUY { usual }),
        Watched::BankSell => msg!(ALERT_WATCHED_BANK_SELL { usual }),
        Watched::CardBuy => msg!(ALERT_WATCHED_CARD_BUY { usual }),
        Watched::CardSell => msg!(ALERT_WATCHED_CARD_SELL { usual }),
        Watched::Spread => Message::new(key::ALERT_WATCHED_SPREAD),
        Watched::OpenOrder => Message::new(key::ALERT_WATCHED_OPEN_ORDER),
    }
    .render(figures.locale)
}

/// A price, the spread or a distance, as the alert's level is written.
pub(crate) fn level_words(level: Level, figures: Figures) -> String {
    match level {
        Level::Price(p) => figures.price(p),
        Level::Spread(n) => figures.nok(n),
        Level::Percent(p) => msg!(ALERT_PERCENT {
            percent: nordlys_core::format::number(p.decimal(), 2, figures.locale)
        })
        .render(figures.locale),
    }
}

pub(crate) fn said(a: &Alert, usual: Nok, figures: Figures) -> String {
    let what = watched_words(a.watched, usual, figures);
    let level = level_words(a.level, figures);
    match (a.watched, a.crossing) {
        (Watched::OpenOrder, _) => msg!(ALERT_COMES_WITHIN { what, level }),
        (_, Crossing::RisesAbove) => msg!(ALERT_RISES_ABOVE { what, level }),
        (_, Crossing::FallsBelow) => msg!(ALERT_FALLS_BELOW { what, level }),
    }
    .render(figures.locale)
}

impl Present for AlertList {
    type View = AlertsView;

    fn present(self, viewer: &Viewer) -> AlertsView {
        let figures = viewer.figures;
        let usual = self.usual;
        AlertsView {
            usual_amount: figures.shown_nok(usual),
            usual_amount_typed: usual.decimal().normalize().to_string(),
            alerts: self
                .alerts
                .iter()
                .map(|a| AlertView {
                    id: a.id,
                    watched: a.watched,
                    crossing: a.crossing,
                    said: said(a, usual, figures),
                    level: a.level.decimal().normalize().to_string(),
                    hysteresis: a.hysteresis_percent.decimal().normalize().to_string(),
                    waiting: !a.armed,
                })
                .collect(),
            open_orders_unavailable: self
                .open_orders_need_key
                .then(|| wording::say(key::ALERT_OPEN_ORDER_NEEDS_KEY, viewer.locale())),
        }
    }
}

impl Present for SavedAlert {
    type View = SaveAlertView;

    fn present(self, viewer: &Viewer) -> SaveAlertView {
        let locale = viewer.locale();
        SaveAlertView {
            problems: self
                .problems
                .iter()
                .map(|p| AlertProblemView {
                    field: p.field(),
                    message: match p {
                        AlertProblem::Level(e) => msg!(ALERT_LEVEL_PROBLEM {
                            problem: wording::amount_input(e)
                        })
                        .render(locale),
                        AlertProblem::Hysteresis => {
                            wording::say(key::ALERT_HYSTERESIS_RANGE, locale)
                        }
                        AlertProblem::Distance => wording::say(key::ALERT_DISTANCE_RANGE, locale),
                    },
                })
                .collect(),
            alerts: self.alerts.present(viewer),
        }
    }
}

#[cfg(test)]
mod tests {
    use nordlys_core::format::{BtcUnit, Locale};
    use nordlys_money::NokPerBtc;
    use rust_decimal::Decimal;

    use super::*;

    fn figures(locale: Locale, hidden: bool) -> Figures {
        Figures {
            locale,
            unit: BtcUnit::Btc,
            hidden,
        }
    }

    /// An alert says what it watches and its level in each language: a distance to open orders
    /// in percent, a price in kroner, and privacy mode hides the price but not the distance.
    #[test]
    fn an_alert_reads_in_both_languages_with_its_level_in_its_unit() {
        let alert = |watched, level| Alert {
            id: 1,
            watched,
            crossing: Crossing::RisesAbove,
            level,
            hysteresis_percent: nordlys_money::Percent::new(Decimal::ONE),
            armed: true,
        };
        let usual = Nok::computed(Decimal::from(5000));
        let near = alert(
            Watched::OpenOrder,
            Level::Percent(nordlys_money::Percent::new(Decimal::TWO)),
        );
        let mid = alert(
            Watched::Mid,
            Level::Price(NokPerBtc::computed(Decimal::from(987_654))),
        );
        let en = said(&near, usual, figures(Locale::En, false));
        let nb = said(&near, usual, figures(Locale::Nb, false));
        assert!(en.contains("2.00") && nb.contains("2,00"), "{en} / {nb}");
        assert_ne!(en, nb);
        let shown = said(&mid, usual, figures(Locale::Nb, false));
        let hidden = said(&mid, usual, figures(Locale::Nb, true));
        assert!(shown.contains("987"), "{shown}");
        assert!(!hidden.contains("987"), "{hidden}");
    }
}
