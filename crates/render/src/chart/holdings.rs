//! The holdings-over-time chart: bitcoin held per account and in total at the top, its NOK value
//! under it, and the gains and losses realised as bars at the bottom. Privacy mode never draws it
//! (its shape alone would tell the amounts): the caller shows nothing instead.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use rust_decimal::Decimal;
use rust_decimal::prelude::{FromPrimitive, ToPrimitive};

use super::{
    AXIS_FONT, ChartError, ChartStyle, MARGIN, Palette, READOUT_POINTS, Theme, legend, notice,
    palette,
};
use nordlys_core::format::{self, BtcUnit};
use nordlys_core::tax::holdings::{Column, Holdings};
use nordlys_money::{Btc, Nok};

/// What the holdings chart says in words, in the caller's language.
#[derive(Debug, Clone, Copy)]
pub struct HoldingsChartWords<'a> {
    /// Shown when there is no transaction to draw.
    pub empty: &'a str,
    pub total: &'a str,
    /// The legend of values at the transactions' market rates.
    pub at_rate: &'a str,
    /// The legend of values at Nordlys' price samples.
    pub at_sample: &'a str,
    pub gain: &'a str,
    pub loss: &'a str,
}

/// A drawn holdings chart, with the columns a readout can name (indexes into
/// [`Holdings::columns`], oldest first, at most [`READOUT_POINTS`]) and where each lies across
/// the plot (0 to 1), and where the plot lies across the image, as fractions of its width.
#[derive(Debug, Clone)]
pub struct HoldingsChart {
    pub svg: String,
    pub points: Vec<(usize, f64)>,
    pub plot_left: f64,
    pub plot_right: f64,
}

/// The accounts' lines, distinct from the total's and from each other in both themes.
fn account_colours(theme: Theme) -> [RGBColor; 6] {
    match theme {
        Theme::Light => [
            RGBColor(37, 99, 235),
            RGBColor(217, 119, 6),
            RGBColor(147, 51, 234),
            RGBColor(8, 145, 178),
            RGBColor(190, 24, 93),
            RGBColor(101, 163, 13),
        ],
        Theme::Dark => [
            RGBColor(96, 165, 250),
            RGBColor(251, 191, 36),
            RGBColor(192, 132, 252),
            RGBColor(34, 211, 238),
            RGBColor(244, 114, 182),
            RGBColor(163, 230, 53),
        ],
    }
}

fn gain_loss_colours(theme: Theme) -> (RGBColor, RGBColor) {
    match theme {
        Theme::Light => (RGBColor(21, 128, 61), RGBColor(200, 30, 30)),
        Theme::Dark => (RGBColor(74, 222, 128), RGBColor(248, 113, 113)),
    }
}

const Y_LABELS: u32 = 104;

/// `names` are the accounts' names in `holdings.accounts`' order.
pub fn holdings_chart(
    holdings: &Holdings,
    names: &[String],
    style: ChartStyle,
    words: HoldingsChartWords<'_>,
) -> Result<HoldingsChart, ChartError> {
    let p = palette(style.theme);
    let err = |e: &dyn std::fmt::Display| ChartError(e.to_string());
    let width = style.width.max(200);
    let height = style.height.max(200);
    let t0 = holdings.frame.start().timestamp() as f64;
    let t1 = (holdings.frame.end().timestamp() as f64).max(t0 + 1.0);
    let x_of = |c: &Column| c.at.timestamp() as f64;
    let btc = |b: Btc| b.decimal().to_f64().unwrap_or(0.0);
    let nok = |n: Nok| n.decimal().to_f64().unwrap_or(0.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&p.background).map_err(|e| err(&e))?;
        if holdings.columns.is_empty() {
            notice(&root, words.empty, &p)?;
            drop(root);
            return Ok(HoldingsChart {
                svg,
                points: vec![],
                plot_left: 0.0,
                plot_right: 1.0,
            });
        }
        let realised = realised_bars(holdings);
        let (upper, rest) = root.split_vertically(height * 9 / 20);
        let (lower, bottom) = if realised.is_empty() {
            (rest, None)
        } else {
            let (lower, bottom) = rest.split_vertically(height * 7 / 20);
            (lower, Some(bottom))
        };
        let figures = style.figures;
        let x_label = |x: &f64| super::time_label(*x, t1 - t0);

        // Bitcoin held: a step line per account, and the total over them.
        let top = holdings
            .columns
            .iter()
            .filter_map(|c| c.total_btc)
            .map(btc)
            .chain(
                holdings
                    .columns
                    .iter()
                    .flat_map(|c| c.balances.iter().map(|b| btc(*b))),
            )
            .fold(0.0, f64::max);
        let top = if top > 0.0 { top * 1.1 } else { 1.0 };
        let mut chart = panel(
            &upper,
            t0..t1,
            0.0..top,
            5,
            &x_label,
            &|y| btc_label(*y, top, figures.unit, figures.locale),
            &p,
        )?;
        let colours = account_colours(style.theme);
        for (i, name) in names.iter().enumerate().take(holdings.accounts.len()) {
            let colour = colours[i % colours.len()];
            let steps = steps(
                holdings.columns.iter().map(|c| {
                    (
                        x_of(c),
                        Some(btc(c.balances.get(i).copied().unwrap_or(Btc::ZERO))),
                    )
                }),
                t1,
            );
            chart
                .draw_series(LineSeries::new(steps, colour.stroke_width(1)))
                .map_err(|e| err(&e))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 10, y)], colour.stroke_width(2))
                });
        }
        let line = p.line;
        let total = steps(
            holdings
                .columns
                .iter()
                .map(|c| (x_of(c), c.total_btc.map(btc))),
            t1,
        );
        chart
            .draw_series(LineSeries::new(total, line.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(words.total)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 10, y)], line.stroke_width(3))
            });
        legend(&mut chart, &p)?;

        // Its value: dots at the transactions' market rates, a line at Nordlys' samples, and the
        // realised gains and losses marked where they happened.
        let at_rate: Vec<(f64, f64)> = holdings
            .columns
            .iter()
            .filter_map(|c| c.at_rate.as_ref())
            .map(|v| (v.at.timestamp() as f64, nok(v.nok)))
            .collect();
        let at_sample: Vec<(f64, f64)> = holdings
            .columns
            .iter()
            .filter_map(|c| c.at_sample.as_ref())
            .map(|v| (v.at.timestamp() as f64, nok(v.nok)))
            .collect();
        let high = at_rate
            .iter()
            .chain(&at_sample)
            .map(|v| v.1)
            .fold(0.0, f64::max);
        let high = if high > 0.0 { high * 1.1 } else { 1.0 };
        let mut chart = panel(
            &lower,
            t0..t1,
            0.0..high,
            4,
            &x_label,
            &|y| kroner_label(*y, figures.locale),
            &p,
        )?;
        let band = p.band;
        if !at_rate.is_empty() {
            chart
                .draw_series(LineSeries::new(
                    at_rate.iter().copied(),
                    band.mix(0.5).stroke_width(1),
                ))
                .map_err(|e| err(&e))?;
            chart
                .draw_series(at_rate.iter().map(|v| Circle::new(*v, 2, band.filled())))
                .map_err(|e| err(&e))?
                .label(words.at_rate)
                .legend(move |(x, y)| Circle::new((x + 5, y), 3, band.filled()));
        }
        if at_sample.len() >= 2 {
            chart
                .draw_series(LineSeries::new(
                    at_sample.iter().copied(),
                    line.stroke_width(2),
                ))
                .map_err(|e| err(&e))?
                .label(words.at_sample)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 10, y)], line.stroke_width(2))
                });
        }
        if !at_rate.is_empty() || at_sample.len() >= 2 {
            legend(&mut chart, &p)?;
        }

        // What was realised: a bar up for the gains and one down for the losses of each few
        // columns, so that neighbours never overlap.
        if let Some(bottom) = bottom {
            let high = realised.iter().map(|b| b.gains).fold(0.0, f64::max);
            let low = realised.iter().map(|b| b.losses).fold(0.0, f64::min);
            let pad = ((high - low) * 0.1).max(1.0);
            let mut chart = panel(
                &bottom,
                t0..t1,
                (low - pad)..(high + pad),
                3,
                &x_label,
                &|y| kroner_label(*y, figures.locale),
                &p,
            )?;
            let (gain, loss) = gain_loss_colours(style.theme);
            let span = t1 - t0;
            let x = |column: usize| t0 + span * column as f64 / holdings.frame.columns() as f64;
            let bars = |pick: fn(&Bar) -> f64, colour: RGBColor| {
                realised
                    .iter()
                    .filter(move |b| pick(b) != 0.0)
                    .map(move |b| {
                        Rectangle::new([(x(b.from), 0.0), (x(b.to), pick(b))], colour.filled())
                    })
            };
            chart
                .draw_series(bars(|b| b.gains, gain))
                .map_err(|e| err(&e))?
                .label(words.gain)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], gain.filled()));
            chart
                .draw_series(bars(|b| b.losses, loss))
                .map_err(|e| err(&e))?
                .label(words.loss)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], loss.filled()));
            legend(&mut chart, &p)?;
        }
        root.present().map_err(|e| err(&e))?;
    }
    let step = holdings.columns.len().div_ceil(READOUT_POINTS).max(1);
    let last = holdings.columns.len() - 1;
    let points = holdings
        .columns
        .iter()
        .enumerate()
        // The last column always: it is the holding now.
        .filter(|(i, _)| i % step == 0 || *i == last)
        .map(|(i, c)| (i, ((x_of(c) - t0) / (t1 - t0)).clamp(0.0, 1.0)))
        .collect();
    Ok(HoldingsChart {
        svg,
        points,
        plot_left: f64::from(MARGIN + Y_LABELS) / f64::from(width),
        plot_right: f64::from(width - MARGIN) / f64::from(width),
    })
}

type Panel<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// One of the chart's panels over `x` (the frame's time) and `y`, its mesh drawn with `y_labels`
/// labels, all three panels alike so that their plots line up.
fn panel<'a, 'b: 'a>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    x: Range<f64>,
    y: Range<f64>,
    y_labels: usize,
    x_label: &dyn Fn(&f64) -> String,
    y_label: &dyn Fn(&f64) -> String,
    p: &Palette,
) -> Result<Panel<'a, 'b>, ChartError> {
    let err = |e: &dyn std::fmt::Display| ChartError(e.to_string());
    let mut chart = ChartBuilder::on(area)
        .margin(MARGIN)
        .x_label_area_size(24)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(x, y)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_labels(6)
        .y_labels(y_labels)
        .x_label_formatter(x_label)
        .y_label_formatter(y_label)
        .label_style(("sans-serif", AXIS_FONT).into_font().color(&p.text))
        .axis_style(p.text)
        .bold_line_style(p.grid)
        .light_line_style(p.background)
        .draw()
        .map_err(|e| err(&e))?;
    Ok(chart)
}

/// A balance holds until the next change: each point is reached by a step, and the last holds
/// until `end`. A point without a value (a total too large to add) is left out.
fn steps(points: impl Iterator<Item = (f64, Option<f64>)>, end: f64) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = vec![];
    for (x, y) in points {
        let Some(y) = y else { continue };
        if let Some(&(_, before)) = out.last() {
            out.push((x, before));
        }
        out.push((x, y));
    }
    if let Some(&(x, y)) = out.last() {
        out.push((x.max(end), y));
    }
    out
}

/// A bitcoin axis label with as many decimals as the axis' size needs.
fn btc_label(y: f64, top: f64, unit: BtcUnit, locale: format::Locale) -> String {
    let Some(d) = Decimal::from_f64(y) else {
        return String::new();
    };
    match unit {
        BtcUnit::Sats => format::number(d * Decimal::from(100_000_000), 0, locale) + "\u{a0}sats",
        BtcUnit::Btc => {
            let decimals = if top >= 10.0 {
                2
            } else if top >= 0.1 {
                4
            } else {
                6
            };
            format::number(d, decimals, locale) + "\u{a0}BTC"
        }
    }
}

/// How many columns one bar of realised gains spans: a bar a few pixels wide.
const BAR_COLUMNS: usize = 6;

/// The gains and losses realised over a few columns, in NOK (losses negative).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bar {
    /// Drawn from the start of column `from` to the start of column `to`: the last column of
    /// each bar is left empty, so neighbours never touch.
    from: usize,
    to: usize,
    gains: f64,
    losses: f64,
}

/// One [`Bar`] per [`BAR_COLUMNS`] columns with something realised, oldest first.
fn realised_bars(holdings: &Holdings) -> Vec<Bar> {
    let mut bars: Vec<Bar> = vec![];
    for c in &holdings.columns {
        let (gains, losses) = (
            c.realised.gains.decimal().to_f64().unwrap_or(0.0),
            c.realised.losses.decimal().to_f64().unwrap_or(0.0),
        );
        if gains == 0.0 && losses == 0.0 {
            continue;
        }
        let first = c.index / BAR_COLUMNS * BAR_COLUMNS;
        match bars.last_mut() {
            Some(bar) if bar.from == first => {
                bar.gains += gains;
                bar.losses += losses;
            }
            _ => bars.push(Bar {
                from: first,
                to: first + BAR_COLUMNS - 1,
                gains,
                losses,
            }),
        }
    }
    bars
}

/// A NOK axis label in whole kroner: the axis tells the size, the readout the øre.
fn kroner_label(y: f64, locale: format::Locale) -> String {
    let Some(d) = Decimal::from_f64(y.round()) else {
        return String::new();
    };
    let n = format::number(d, 0, locale);
    match locale {
        format::Locale::Nb => format!("{n}\u{a0}kr"),
        format::Locale::En => format!("NOK\u{a0}{n}"),
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Duration, Utc};
    use nordlys_exchange::models::TaxTransactionType::{BtcBuy, BtcSell};

    use super::*;
    use nordlys_core::format::{Figures, Locale};
    use nordlys_core::tax::gains::{GainsBuilder, Method};
    use nordlys_core::tax::holdings::{Frame, HoldingsBuilder};
    use nordlys_core::tax::tests_support::{RowParts, tx};

    const WORDS: HoldingsChartWords<'static> = HoldingsChartWords {
        empty: "Nothing yet",
        total: "All accounts",
        at_rate: "At market rates",
        at_sample: "At samples",
        gain: "Gain realised",
        loss: "Loss realised",
    };

    fn style() -> ChartStyle {
        ChartStyle {
            width: 800,
            height: 420,
            theme: Theme::Dark,
            figures: Figures {
                locale: Locale::En,
                unit: BtcUnit::Btc,
                hidden: false,
            },
        }
    }

    /// Buys on one account and sales on another, an hour apart, some at a gain, some at a loss.
    fn holdings(rows: usize) -> Holdings {
        let start: DateTime<Utc> = "2024-01-01T00:00:00Z".parse().unwrap_or_default();
        let frame = Frame::new(start, start + Duration::days(400), 780);
        let mut b = HoldingsBuilder::new(frame, vec![]);
        let mut gains = GainsBuilder::new(Method::Fifo);
        for i in 0..rows {
            let at = (start + Duration::hours(i as i64)).to_rfc3339();
            let rate = (400_000 + (i % 50) * 2_000).to_string();
            let running = format!("0.{:04}", 1000 + i % 7000);
            let t = if i % 3 == 2 {
                tx(&format!("t{i}"), &at, "acc_b", BtcSell, &running, &rate)
                    .paid("0.001", "BTC")
                    .received(&(350 + (i % 4) * 50).to_string(), "NOK")
            } else {
                tx(&format!("t{i}"), &at, "acc_a", BtcBuy, &running, &rate)
                    .received("0.002", "BTC")
                    .paid("800", "NOK")
            };
            b.add(&t);
            gains.add(&t);
        }
        b.realised(&gains.finish().disposals);
        b.finish()
    }

    #[test]
    fn every_account_and_the_total_are_labelled_and_gains_and_losses_drawn() {
        let h = holdings(30);
        let names = ["Savings".to_owned(), "Spending".to_owned()];
        let chart = holdings_chart(&h, &names, style(), WORDS).unwrap_or_else(|e| panic!("{e}"));
        for word in ["Savings", "Spending", "All accounts", "At market rates"] {
            assert!(chart.svg.contains(word), "{word} is in the legend");
        }
        assert!(chart.svg.contains("Gain realised") && chart.svg.contains("Loss realised"));
        assert!(!chart.svg.contains("At samples"), "no sample was taken");
        assert_eq!(chart.points.len(), h.columns.len());
        assert!(
            chart.points.windows(2).all(|w| w[0].1 <= w[1].1),
            "oldest first"
        );
    }

    #[test]
    fn without_a_sale_there_is_no_panel_of_realised_gains() {
        let h = holdings(2);
        let chart = holdings_chart(&h, &[], style(), WORDS).unwrap_or_else(|e| panic!("{e}"));
        assert!(!chart.svg.contains("Gain realised") && !chart.svg.contains("Loss realised"));
    }

    #[test]
    fn a_long_history_names_at_most_the_readout_points_and_always_the_holding_now() {
        let h = holdings(9_000);
        let chart = holdings_chart(&h, &[], style(), WORDS).unwrap_or_else(|e| panic!("{e}"));
        assert!(h.columns.len() > READOUT_POINTS, "{}", h.columns.len());
        assert!(
            chart.points.len() <= READOUT_POINTS + 1,
            "{}",
            chart.points.len()
        );
        assert_eq!(chart.points.last().map(|p| p.0), Some(h.columns.len() - 1));
    }

    #[test]
    fn no_transaction_says_so() {
        let h = holdings(0);
        let chart = holdings_chart(&h, &[], style(), WORDS).unwrap_or_else(|e| panic!("{e}"));
        assert!(chart.svg.contains("Nothing yet"));
        assert!(chart.points.is_empty());
    }

    #[test]
    fn neighbouring_realisations_share_a_bar_and_an_axis_says_whole_kroner() {
        let h = holdings(30);
        let bars = realised_bars(&h);
        assert!(
            bars.windows(2).all(|w| w[0].to < w[1].from),
            "bars never touch: {bars:?}"
        );
        let per_bar: f64 = bars.iter().map(|b| b.gains + b.losses).sum();
        let per_column: f64 = h
            .columns
            .iter()
            .map(|c| {
                (c.realised.gains + c.realised.losses)
                    .decimal()
                    .to_f64()
                    .unwrap_or(0.0)
            })
            .sum();
        assert!(
            (per_bar - per_column).abs() < 1e-6,
            "{per_bar} {per_column}"
        );
        assert_eq!(kroner_label(150_000.4, Locale::En), "NOK\u{a0}150,000");
        assert!(kroner_label(-2_500.0, Locale::Nb).ends_with("\u{a0}kr"));
    }

    #[test]
    fn a_step_holds_until_the_next_change_and_the_last_until_the_end() {
        let line = steps(
            [(1.0, Some(2.0)), (3.0, None), (4.0, Some(1.0))].into_iter(),
            9.0,
        );
        assert_eq!(line, [(1.0, 2.0), (4.0, 2.0), (4.0, 1.0), (9.0, 1.0)]);
        assert_eq!(
            btc_label(0.5, 0.6, BtcUnit::Btc, Locale::En),
            "0.5000\u{a0}BTC"
        );
        assert_eq!(
            btc_label(0.01, 0.02, BtcUnit::Sats, Locale::En),
            "1,000,000\u{a0}sats"
        );
    }
}
