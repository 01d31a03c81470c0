//! Holdings over time (Tax → Over time): the bitcoin held per account and in total since the first
//! synced transaction, its NOK value at the transactions' market rates and at Nordlys' samples,
//! with the gains realised by the chosen method. Read in one pass over the stored history.

use chrono::Utc;
use nordlys_core::format::{self, Figures};
use nordlys_core::tax::gains::Method;
use nordlys_core::tax::holdings::{self, Column, Frame, Holdings, Value, ValueSource};
use nordlys_core::time::Tz;
use nordlys_render::chart::{ChartStyle, HoldingsChartWords, Theme, holdings_chart as draw};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::App;
use crate::error::{Answer, AppError};
use crate::msg;
use crate::present::{Presented, Viewer};
use crate::shown::{Show, ShownBtc};
use crate::tax::Names;
use crate::wording::key;
use crate::wording::say;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HoldingsChartArgs {
    pub width: u32,
    pub height: u32,
    pub dark: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HoldingsChartView {
    /// Privacy mode: nothing is drawn or named (the chart's shape would tell the amounts).
    pub hidden: bool,
    /// Empty when hidden.
    pub svg: String,
    /// The method the realised gains were worked out by, in words.
    pub method: String,
    /// Oldest first; each a moment of the history, the last the holding now.
    pub readout: Vec<HoldingsPointView>,
    pub plot_left: f64,
    pub plot_right: f64,
    /// Why the figures after some moment may still change; empty when none is pending.
    pub pending: String,
}

/// One moment of the chart, as the readout says it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HoldingsPointView {
    pub time: String,
    /// "—" with no amount when the moment's total is not known.
    pub total: ShownBtc,
    /// Each account's holding, `name: amount`.
    pub accounts: Vec<String>,
    /// Its NOK value and the rate's source; empty when nothing valued it in this moment's column.
    pub value: String,
    /// The gains and losses realised around this moment; empty when none.
    pub realised: String,
    /// Where it is across the plot, 0 (left) to 1 (right).
    pub x: f64,
}

/// The holdings over time by the method in Settings, with the names of their accounts; or
/// nothing read, in privacy mode (the chart's shape would tell the amounts).
#[derive(Debug, Clone)]
pub struct HoldingsOverTime {
    pub method: Method,
    /// None in privacy mode.
    pub read: Option<(Holdings, Names)>,
    pub args: HoldingsChartArgs,
}

pub async fn holdings_chart(app: &App, args: HoldingsChartArgs) -> Answer<HoldingsOverTime> {
    let method = app.settings().tax_method.unwrap_or_default();
    if app.settings().privacy {
        return Ok(HoldingsOverTime {
            method,
            read: None,
            args,
        });
    }
    let store = app.tax_session().await?.store;
    let now = Utc::now();
    let start = store.tax().oldest()?.unwrap_or(now);
    let frame = Frame::new(start, now, args.width.clamp(320, 4000) as usize);
    let names = Names::load(&store)?;
    let holdings = tokio::task::spawn_blocking(move || holdings::read(&store, frame, method))
        .await
        .map_err(AppError::fault)??;
    Ok(HoldingsOverTime {
        method,
        read: Some((holdings, names)),
        args,
    })
}

impl Presented for HoldingsOverTime {
    type View = HoldingsChartView;

    fn presented(self, viewer: &Viewer) -> Answer<HoldingsChartView> {
        let (figures, zone) = (viewer.figures, viewer.zone);
        let locale = figures.locale;
        let method_name = crate::wording::method_name(self.method, locale);
        let Some((holdings, names)) = self.read.filter(|_| !figures.hidden) else {
            return Ok(HoldingsChartView {
                hidden: true,
                svg: String::new(),
                method: method_name,
                readout: vec![],
                plot_left: 0.0,
                plot_right: 1.0,
                pending: String::new(),
            });
        };
        let args = self.args;
        let width = args.width.clamp(320, 4000);
        let account_names: Vec<String> = holdings
            .accounts
            .iter()
            .map(|id| account_name(&names, id, locale))
            .collect();
        let words = [
            say(key::HOLDINGS_EMPTY, locale),
            say(key::HOLDINGS_TOTAL, locale),
            say(key::HOLDINGS_AT_RATE, locale),
            say(key::HOLDINGS_AT_SAMPLE, locale),
            say(key::HOLDINGS_GAIN, locale),
            say(key::HOLDINGS_LOSS, locale),
        ];
        let [empty, total, at_rate, at_sample, gain, loss] = words.each_ref().map(String::as_str);
        let style = ChartStyle {
            width,
            height: args.height.clamp(200, 2000),
            theme: if args.dark { Theme::Dark } else { Theme::Light },
            figures,
        };
        let chart = draw(
            &holdings,
            &account_names,
            style,
            HoldingsChartWords {
                empty,
                total,
                at_rate,
                at_sample,
                gain,
                loss,
            },
        )
        .map_err(AppError::fault)?;
        let readout = chart
            .points
            .iter()
            .filter_map(|&(i, x)| {
                let c = holdings.columns.get(i)?;
                Some(point_view(c, &account_names, x, figures, zone))
            })
            .collect();
        Ok(HoldingsChartView {
            hidden: false,
            svg: chart.svg,
            method: method_name,
            readout,
            plot_left: chart.plot_left,
            plot_right: chart.plot_right,
            // A notice beside the chart: a pending row first, else rows whose running balance
            // contradicts the balances the chart draws.
            pending: holdings
                .pending_since
                .map(|t| {
                    msg!(HOLDINGS_PENDING {
                        time: format::time(&t, zone, locale)
                    })
                    .render(locale)
                })
                .or_else(|| {
                    holdings.contradiction.as_ref().map(|c| {
                        msg!(HOLDINGS_CONTRADICTED {
                            ids: c.ids.join(", "),
                            rows: c.rows
                        })
                        .render(locale)
                    })
                })
                .unwrap_or_default(),
        })
    }
}

/// An account's name, said to be deleted when it is.
fn account_name(names: &Names, id: &str, locale: format::Locale) -> String {
    let name = names.name(id);
    if names.deleted(id) {
        msg!(HOLDINGS_DELETED_ACCOUNT { name: name }).render(locale)
    } else {
        name
    }
}

fn point_view(
    c: &Column,
    names: &[String],
    x: f64,
    figures: Figures,
    zone: Tz,
) -> HoldingsPointView {
    let locale = figures.locale;
    let value = |v: &Value| {
        let value = figures.nok(v.nok);
        let rate = figures.price(v.rate);
        let time = format::time(&v.at, zone, locale);
        match &v.source {
            // The transaction by its time: its id means nothing to the user.
            ValueSource::Transaction { .. } => {
                msg!(HOLDINGS_VALUE_AT_RATE { value, rate, time })
            }
            ValueSource::Sample => msg!(HOLDINGS_VALUE_AT_SAMPLE { value, rate, time }),
        }
        .render(locale)
    };
    // The later of the two valuations in the column says what it was worth last.
    let latest = match (&c.at_rate, &c.at_sample) {
        (Some(r), Some(s)) => Some(if s.at > r.at { s } else { r }),
        (r, s) => r.as_ref().or(s.as_ref()),
    };
    let r = c.realised;
    let mut realised = vec![];
    if r.gains.is_positive() {
        realised.push(msg!(HOLDINGS_REALISED_GAIN {
            nok: figures.nok(r.gains)
        }));
    }
    if r.losses.is_negative() {
        realised.push(msg!(HOLDINGS_REALISED_LOSS {
            nok: figures.nok(r.losses)
        }));
    }
    if r.not_computable > 0 {
        realised.push(msg!(HOLDINGS_REALISED_UNKNOWN {
            count: r.not_computable.to_string()
        }));
    }
    HoldingsPointView {
        time: format::time(&c.at, zone, locale),
        total: c
            .total_btc
            .map_or_else(|| ShownBtc::instead("—".into()), |b| figures.shown_btc(b)),
        accounts: names
            .iter()
            .zip(&c.balances)
            .map(|(name, b)| format!("{name}: {}", figures.btc(*b)))
            .collect(),
        value: latest.map(value).unwrap_or_default(),
        realised: realised
            .iter()
            .map(|m| m.render(locale))
            .collect::<Vec<_>>()
            .join(" · "),
        x,
    }
}

#[cfg(test)]
mod tests {
    use nordlys_core::format::{BtcUnit, Locale};
    use nordlys_core::tax::holdings::Realised;
    use nordlys_money::{Btc, Nok, NokPerBtc};

    use super::*;

    fn at(s: &str) -> chrono::DateTime<Utc> {
        s.parse().unwrap_or_default()
    }

    fn value(t: &str, nok: i64, rate: i64, source: ValueSource) -> Value {
        Value {
            at: at(t),
            nok: Nok::computed(nok.into()),
            rate: NokPerBtc::computed(rate.into()),
            source,
        }
    }

    #[test]
    fn a_moment_says_the_holding_its_latest_value_and_what_was_realised() {
        let column = Column {
            index: 3,
            at: at("2024-03-20T10:00:00Z"),
            balances: vec![Btc::computed("0.3".parse().unwrap_or_default())],
            total_btc: Some(Btc::computed("0.3".parse().unwrap_or_default())),
            at_rate: Some(value(
                "2024-03-20T10:00:00Z",
                180_000,
                600_000,
                ValueSource::Transaction { id: "a2".into() },
            )),
            at_sample: Some(value(
                "2024-03-20T09:00:00Z",
                177_000,
                590_000,
                ValueSource::Sample,
            )),
            realised: Realised {
                gains: Nok::computed(40_000.into()),
                losses: Nok::computed((-500).into()),
                not_computable: 1,
            },
        };
        let figures = Figures {
            locale: Locale::En,
            unit: BtcUnit::Btc,
            hidden: false,
        };
        let v = point_view(&column, &["Savings".into()], 0.25, figures, Tz::UTC);
        assert_eq!(v.time, "2024-03-20 10:00");
        let total = Btc::computed("0.3".parse().unwrap_or_default());
        assert_eq!(v.total, figures.shown_btc(total));
        assert_eq!(v.accounts, [format!("Savings: {}", v.total.text())]);
        // The transaction's valuation is the later of the two, the transaction told by its
        // time and never by its id.
        assert!(
            v.value.contains("transaction of")
                && v.value.contains("180,000")
                && !v.value.contains("a2"),
            "{}",
            v.value
        );
        for part in ["40,000", "-500", "1"] {
            assert!(v.realised.contains(part), "{part} in {}", v.realised);
        }
        let later = Column {
            at_sample: Some(value(
                "2024-03-20T11:00:00Z",
                183_000,
                610_000,
                ValueSource::Sample,
            )),
            realised: Realised::default(),
            ..column
        };
        let v = point_view(&later, &[], 0.3, figures, Tz::UTC);
        assert!(
            v.value.contains("183,000") && !v.value.contains("transaction of"),
            "{}",
            v.value
        );
        assert_eq!(v.realised, "");
    }
}
