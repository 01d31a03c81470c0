//! Charts rendered to SVG in Rust with `plotters`: the UI only shows them. Numbers on the axes are
//! formatted for the locale; colours follow the theme; SVG stays crisp at any window size.
//! Plot coordinates are floats (pixels, not money), hence the lint exception below.
#![allow(
    clippy::float_arithmetic,
    reason = "plot coordinates are pixels, not money"
)]

use chrono::{DateTime, Local, TimeZone, Utc};
use nordlys_money::{Nok, NokPerBtc};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use rust_decimal::Decimal;
use rust_decimal::prelude::{FromPrimitive, ToPrimitive};

use nordlys_core::daily_prices::DailyPrice;
use nordlys_core::format::{self, Figures};
pub use nordlys_core::platform::settings::Theme;
use nordlys_core::store::PriceSample;
use nordlys_exchange::models::VolumeHistoricResponse;

mod holdings;
pub use holdings::{HoldingsChart, HoldingsChartWords, holdings_chart};

#[derive(Debug, Clone, Copy)]
pub struct ChartStyle {
    pub width: u32,
    pub height: u32,
    pub theme: Theme,
    /// The language of the labels; in privacy mode the amount axis has none.
    pub figures: Figures,
}

#[derive(Debug, thiserror::Error)]
#[error("the chart could not be drawn: {0}")]
pub struct ChartError(String);

struct Palette {
    background: RGBColor,
    text: RGBColor,
    grid: RGBColor,
    line: RGBColor,
    band: RGBColor,
}

fn palette(theme: Theme) -> Palette {
    match theme {
        Theme::Light => Palette {
            background: RGBColor(255, 255, 255),
            text: RGBColor(20, 24, 38),
            grid: RGBColor(223, 227, 238),
            line: RGBColor(15, 143, 99),
            band: RGBColor(122, 108, 255),
        },
        Theme::Dark => Palette {
            background: RGBColor(20, 27, 48),
            text: RGBColor(232, 235, 245),
            grid: RGBColor(38, 48, 77),
            line: RGBColor(53, 224, 161),
            band: RGBColor(140, 128, 255),
        },
    }
}

/// One point per pixel column at most: (time in seconds, mean mid, lowest bid, highest ask).
fn buckets(samples: &[PriceSample], columns: usize) -> Vec<(f64, f64, f64, f64)> {
    struct Bucket {
        column: usize,
        t: f64,
        mid_sum: f64,
        n: usize,
        bid: f64,
        ask: f64,
    }
    let f = |p: NokPerBtc| p.decimal().to_f64().unwrap_or(0.0);
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        return vec![];
    };
    let t0 = first.at.timestamp_millis() as f64;
    let span = (last.at.timestamp_millis() as f64 - t0).max(1.0);
    let mut out: Vec<Bucket> = Vec::with_capacity(columns.min(samples.len()));
    for s in samples {
        let t = s.at.timestamp_millis() as f64;
        let column = (((t - t0) / span) * columns as f64) as usize;
        match out.last_mut() {
            Some(b) if b.column == column => {
                b.t = t;
                b.mid_sum += f(s.mid);
                b.n += 1;
                b.bid = b.bid.min(f(s.bid));
                b.ask = b.ask.max(f(s.ask));
            }
            _ => out.push(Bucket {
                column,
                t,
                mid_sum: f(s.mid),
                n: 1,
                bid: f(s.bid),
                ask: f(s.ask),
            }),
        }
    }
    out.iter()
        .map(|b| (b.t / 1000.0, b.mid_sum / b.n as f64, b.bid, b.ask))
        .collect()
}

/// Axis labels' size: readable at the size the window shows the chart (it is drawn at that size).
const AXIS_FONT: u32 = 14;
const LEGEND_FONT: u32 = 13;
/// A legend row's height, and the legend box's padding, in pixels.
const LEGEND_ROW: f64 = 19.0;
const LEGEND_PAD: f64 = 14.0;

/// The value at the plot's top that leaves the upper `rows` legend rows clear of the data: the
/// legend never covers a bar or a line. `low`..`high` is the data's range and `plot_px` the
/// plot's height.
fn clear_of_legend(low: f64, high: f64, rows: usize, plot_px: f64) -> f64 {
    let legend_px = rows as f64 * LEGEND_ROW + LEGEND_PAD;
    // The legend may take at most half the plot: a short chart still shows its data.
    let share = (legend_px / plot_px.max(1.0)).min(0.5);
    low + (high - low) / (1.0 - share)
}

/// The series' legend, in the same place and style on every chart.
fn legend<'a, 'b: 'a, X: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, RangedCoordf64>>,
    p: &Palette,
) -> Result<(), ChartError> {
    chart
        .configure_series_labels()
        .background_style(p.background.mix(0.85))
        .border_style(p.grid)
        .label_font(("sans-serif", LEGEND_FONT).into_font().color(&p.text))
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| ChartError(e.to_string()))
}

/// Says in words why there is nothing to draw yet.
fn notice(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    message: &str,
    p: &Palette,
) -> Result<(), ChartError> {
    let err = |e: &dyn std::fmt::Display| ChartError(e.to_string());
    root.draw(&Text::new(
        message,
        (20, 20),
        ("sans-serif", 14).into_font().color(&p.text),
    ))
    .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Where the time axis is labelled: about `wanted` instants from `t0` to `t1` (seconds) at a
/// round step of the user's clock (whole minutes, hours or days), so labels read 20:00, 20:15,
/// not 19:43, 20:00, 20:16.
fn time_ticks(t0: f64, t1: f64, wanted: usize) -> Vec<f64> {
    const MIN: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 86_400.0;
    let steps = [
        MIN,
        2.0 * MIN,
        5.0 * MIN,
        10.0 * MIN,
        15.0 * MIN,
        30.0 * MIN,
        HOUR,
        2.0 * HOUR,
        3.0 * HOUR,
        6.0 * HOUR,
        12.0 * HOUR,
        DAY,
        2.0 * DAY,
        7.0 * DAY,
        14.0 * DAY,
        30.0 * DAY,
        91.0 * DAY,
        182.0 * DAY,
        365.0 * DAY,
    ];
    let span = (t1 - t0).max(1.0);
    let step = steps
        .iter()
        .copied()
        .find(|s| span / s <= wanted.max(1) as f64)
        .unwrap_or(365.0 * DAY);
    // The user's clock's offset from UTC at the start: ticks fall on its round times.
    let offset = DateTime::from_timestamp(t0 as i64, 0).map_or(0.0, |t| {
        f64::from(
            Local
                .offset_from_utc_datetime(&t.naive_utc())
                .local_minus_utc(),
        )
    });
    let mut tick = ((t0 + offset) / step).ceil() * step - offset;
    let mut out = Vec::new();
    while tick <= t1 && out.len() <= wanted * 2 {
        out.push(tick);
        tick += step;
    }
    out
}

/// A time axis (seconds) labelled at `ticks`, mapped as a plain numeric axis.
struct TimeAxis {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for TimeAxis {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: plotters::coord::ranged1d::KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // The ticks are the bold lines and the labels; no light lines between them.
        if hint.weight().allow_light_points() {
            return Vec::new();
        }
        self.ticks.clone()
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

fn time_label(seconds: f64, span_seconds: f64) -> String {
    let Some(t) = DateTime::from_timestamp(seconds as i64, 0) else {
        return String::new();
    };
    let local = Local.from_utc_datetime(&t.naive_utc());
    if span_seconds <= 2.0 * 86_400.0 {
        local.format("%H:%M").to_string()
    } else if span_seconds <= 200.0 * 86_400.0 {
        local.format("%d.%m").to_string()
    } else {
        // Over many months a day says less than the year.
        local.format("%m.%Y").to_string()
    }
}

/// What the price chart says in words, in the caller's language.
#[derive(Debug, Clone, Copy)]
pub struct PriceChartWords<'a> {
    /// Shown while there is too little to draw.
    pub empty: &'a str,
    /// The legend of the daily prices (from the exchange's volume and the user's transactions).
    pub daily: &'a str,
    /// The legend of Nordlys' own samples.
    pub samples: &'a str,
    /// The legend of the band between the lowest bid and the highest ask.
    pub spread: &'a str,
}

/// A drawn price chart, with the points a readout can name (oldest first, at most
/// [`READOUT_POINTS`]) and where the plot lies across the image, as fractions of its width.
#[derive(Debug, Clone)]
pub struct PriceChart {
    pub svg: String,
    pub points: Vec<ReadoutPoint>,
    pub plot_left: f64,
    pub plot_right: f64,
}

/// A point of the chart as a readout names it, and where it is across the plot (0 to 1).
#[derive(Debug, Clone, Copy)]
pub struct ReadoutPoint {
    pub at: DateTime<Utc>,
    pub price: NokPerBtc,
    pub x: f64,
}

/// How many points a readout names at most: more than a pointer can tell apart.
pub const READOUT_POINTS: usize = 300;

const MARGIN: u32 = 12;
/// The time axis's label area.
const X_AREA: u32 = 30;

/// Nordlys' samples as a line (mid) over the bid/ask band, and the daily prices before them
/// (or beside them) as dots on a thinner line.
/// `window` is the range asked for (its start and now): the time axis spans at least it, so a
/// minute of samples in the last hour is a minute at the right, not a minute stretched across.
pub fn price_chart(
    samples: &[PriceSample],
    daily: &[DailyPrice],
    window: Option<(DateTime<Utc>, DateTime<Utc>)>,
    style: ChartStyle,
    words: PriceChartWords<'_>,
) -> Result<PriceChart, ChartError> {
    let p = palette(style.theme);
    let err = |e: &dyn std::fmt::Display| ChartError(e.to_string());
    let width = style.width.max(200);
    let y_area = if style.figures.hidden { MARGIN } else { 116 };
    let mut svg = String::new();
    let points = buckets(samples, width as usize);
    let days: Vec<(f64, f64)> = daily
        .iter()
        .filter_map(|d| {
            let noon = d.day.and_hms_opt(12, 0, 0)?.and_utc().timestamp() as f64;
            Some((noon, d.price.decimal().to_f64()?))
        })
        .collect();
    let mut readout: Vec<(f64, f64)> = days
        .iter()
        .copied()
        .chain(points.iter().map(|b| (b.0, b.1)))
        .collect();
    readout.sort_by(|a, b| a.0.total_cmp(&b.0));
    let first = readout.first().map_or(0.0, |r| r.0);
    let last = readout.last().map_or(0.0, |r| r.0);
    let (t0, t1) = match window {
        Some((from, to)) => (
            first.min(from.timestamp() as f64),
            last.max(to.timestamp() as f64),
        ),
        None => (first, last),
    };
    {
        let root =
            SVGBackend::with_string(&mut svg, (width, style.height.max(120))).into_drawing_area();
        root.fill(&p.background).map_err(|e| err(&e))?;
        if points.len() < 2 && days.len() < 2 {
            notice(&root, words.empty, &p)?;
            drop(root);
            return Ok(PriceChart {
                svg,
                points: vec![],
                plot_left: 0.0,
                plot_right: 1.0,
            });
        }
        let lo = points
            .iter()
            .map(|b| b.2)
            .chain(days.iter().map(|d| d.1))
            .fold(f64::MAX, f64::min);
        let hi = points
            .iter()
            .map(|b| b.3)
            .chain(days.iter().map(|d| d.1))
            .fold(f64::MIN, f64::max);
        let pad = ((hi - lo) * 0.08).max(1.0);
        let rows = usize::from(days.len() >= 2) + 2 * usize::from(points.len() >= 2);
        let plot_px = f64::from(style.height.max(120)) - f64::from(2 * MARGIN + X_AREA);
        let top = clear_of_legend(lo - pad, hi + pad, rows, plot_px);
        let mut chart = ChartBuilder::on(&root)
            .margin(MARGIN)
            .x_label_area_size(X_AREA)
            .y_label_area_size(y_area)
            .build_cartesian_2d(
                TimeAxis {
                    inner: (t0..t1.max(t0 + 1.0)).into(),
                    ticks: time_ticks(t0, t1, 6),
                },
                (lo - pad)..top,
            )
            .map_err(|e| err(&e))?;
        let span = t1 - t0;
        let figures = style.figures;
        chart
            .configure_mesh()
            .x_labels(6)
            .y_labels(if figures.hidden { 0 } else { 5 })
            .x_label_formatter(&|x| time_label(*x, span))
            .y_label_formatter(&|y| {
                Decimal::from_f64(*y)
                    .map(|d| figures.price(NokPerBtc::computed(d.round())))
                    .unwrap_or_default()
            })
            .label_style(("sans-serif", AXIS_FONT).into_font().color(&p.text))
            .axis_style(p.text)
            .bold_line_style(p.grid)
            .light_line_style(p.background)
            .draw()
            .map_err(|e| err(&e))?;
        if days.len() >= 2 {
            let band = p.band;
            chart
                .draw_series(LineSeries::new(days.iter().copied(), band.stroke_width(1)))
                .map_err(|e| err(&e))?
                .label(words.daily)
                .legend(move |(x, y)| Circle::new((x + 5, y), 3, band.filled()));
            chart
                .draw_series(days.iter().map(|d| Circle::new(*d, 2, p.band.filled())))
                .map_err(|e| err(&e))?;
        }
        if points.len() >= 2 {
            let band: Vec<(f64, f64)> = points
                .iter()
                .map(|b| (b.0, b.3))
                .chain(points.iter().rev().map(|b| (b.0, b.2)))
                .collect();
            let shade = p.band.mix(0.25);
            chart
                .draw_series(std::iter::once(Polygon::new(band, shade)))
                .map_err(|e| err(&e))?
                .label(words.spread)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], shade.filled())
                });
            let line = p.line;
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|b| (b.0, b.1)),
                    line.stroke_width(2),
                ))
                .map_err(|e| err(&e))?
                .label(words.samples)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 10, y)], line.stroke_width(2))
                });
        }
        legend(&mut chart, &p)?;
        root.present().map_err(|e| err(&e))?;
    }
    let step = readout.len().div_ceil(READOUT_POINTS).max(1);
    let points = readout
        .iter()
        .step_by(step)
        .filter_map(|(t, v)| {
            Some(ReadoutPoint {
                at: DateTime::from_timestamp(*t as i64, 0)?,
                price: NokPerBtc::computed(Decimal::from_f64(*v)?.round_dp(2)),
                x: (t - t0) / (t1 - t0).max(1.0),
            })
        })
        .collect();
    Ok(PriceChart {
        svg,
        points,
        plot_left: f64::from(MARGIN + y_area) / f64::from(width),
        plot_right: f64::from(width - MARGIN) / f64::from(width),
    })
}

/// A market's colour from the API's hex text; anything malformed is drawn grey, never an error.
fn hex_colour(text: &str) -> RGBColor {
    let h = text.trim().trim_start_matches('#');
    let byte = |i: usize| h.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok());
    match (h.len(), byte(0), byte(2), byte(4)) {
        (6, Some(r), Some(g), Some(b)) => RGBColor(r, g, b),
        _ => RGBColor(140, 140, 150),
    }
}

/// Daily volume (NOK) stacked per market in the markets' own colours, with each market's share of
/// the period in the legend (endpoint 9).
/// `empty` is what the chart says when the period has no volume, in the caller's words.
pub fn volume_chart(
    history: &VolumeHistoricResponse,
    style: ChartStyle,
    empty: &str,
) -> Result<String, ChartError> {
    let p = palette(style.theme);
    let err = |e: &dyn std::fmt::Display| ChartError(e.to_string());
    let f = |n: Nok| n.decimal().to_f64().unwrap_or(0.0);
    let mut markets: Vec<(String, RGBColor)> = vec![];
    for day in &history.daily_volume {
        for (name, m) in &day.stats {
            if !markets.iter().any(|(n, _)| n == name) {
                markets.push((name.clone(), hex_colour(&m.color)));
            }
        }
    }
    markets.sort_by(|a, b| a.0.cmp(&b.0));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (style.width.max(200), style.height.max(120)))
            .into_drawing_area();
        root.fill(&p.background).map_err(|e| err(&e))?;
        let days = history.daily_volume.len();
        let top = history
            .daily_volume
            .iter()
            .map(|d| d.stats.values().map(|m| f(m.volume_nok)).sum::<f64>())
            .fold(0.0, f64::max);
        if days == 0 || top <= 0.0 {
            notice(&root, empty, &p)?;
            drop(root);
            return Ok(svg);
        }
        let figures = style.figures;
        let dates: Vec<String> = history
            .daily_volume
            .iter()
            .map(|d| d.date.format("%d.%m").to_string())
            .collect();
        let plot_px = f64::from(style.height.max(120)) - f64::from(2 * MARGIN + X_AREA);
        let high = clear_of_legend(0.0, top * 1.05, markets.len(), plot_px);
        let mut chart = ChartBuilder::on(&root)
            .margin(MARGIN)
            .x_label_area_size(X_AREA)
            .y_label_area_size(if style.figures.hidden { MARGIN } else { 120 })
            .build_cartesian_2d(0.0..days as f64, 0.0..high)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(days.min(8))
            .x_label_formatter(&|x| dates.get(x.floor() as usize).cloned().unwrap_or_default())
            .y_labels(if figures.hidden { 0 } else { 5 })
            .y_label_formatter(&|y| {
                Decimal::from_f64(*y)
                    .map(|d| figures.nok(Nok::computed(d.round())))
                    .unwrap_or_default()
            })
            .label_style(("sans-serif", AXIS_FONT).into_font().color(&p.text))
            .axis_style(p.text)
            .bold_line_style(p.grid)
            .light_line_style(p.background)
            .draw()
            .map_err(|e| err(&e))?;
        for (name, colour) in &markets {
            let bars = history.daily_volume.iter().enumerate().map(|(i, day)| {
                let below: f64 = markets
                    .iter()
                    .take_while(|(n, _)| n != name)
                    .filter_map(|(n, _)| day.stats.get(n))
                    .map(|m| f(m.volume_nok))
                    .sum();
                let own = day.stats.get(name).map(|m| f(m.volume_nok)).unwrap_or(0.0);
                Rectangle::new(
                    [(i as f64 + 0.1, below), (i as f64 + 0.9, below + own)],
                    colour.filled(),
                )
            });
            let share = history
                .share_of_total_volume
                .0
                .get(name)
                .copied()
                .unwrap_or_default();
            let label = format!(
                "{name} {}\u{a0}%",
                format::number(share * Decimal::ONE_HUNDRED, 1, figures.locale)
            );
            let legend_colour = *colour;
            chart
                .draw_series(bars)
                .map_err(|e| err(&e))?
                .label(label)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], legend_colour.filled())
                });
        }
        legend(&mut chart, &p)?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, Utc};

    use super::*;
    use nordlys_core::format::Locale;

    fn samples(n: usize) -> Vec<PriceSample> {
        let start = Utc::now() - Duration::hours(1);
        (0..n)
            .map(|i| {
                let mid = Decimal::from(980_000 + (i % 97) as i64 * 37);
                PriceSample {
                    at: start + Duration::seconds(i as i64),
                    mid: NokPerBtc::computed(mid),
                    bid: NokPerBtc::computed(mid - Decimal::from(1000)),
                    ask: NokPerBtc::computed(mid + Decimal::from(1000)),
                }
            })
            .collect()
    }

    fn words(empty: &str) -> PriceChartWords<'_> {
        PriceChartWords {
            empty,
            daily: "Daily",
            samples: "Sampled",
            spread: "Bid to ask",
        }
    }

    fn shown(locale: Locale) -> Figures {
        Figures {
            locale,
            unit: nordlys_core::format::BtcUnit::Btc,
            hidden: false,
        }
    }

    #[test]
    fn daily_prices_draw_a_chart_before_any_sample_and_the_readout_names_every_point() {
        use nordlys_core::daily_prices::{DailyPrice, DailySource};
        let day = |d: u32, price: i64| DailyPrice {
            day: chrono::NaiveDate::from_ymd_opt(2026, 11, d).unwrap(),
            price: NokPerBtc::computed(Decimal::from(price)),
            source: DailySource::ExchangeVolume,
        };
        let daily = [day(1, 950_000), day(2, 990_000), day(3, 1_010_000)];
        let style = ChartStyle {
            width: 600,
            height: 240,
            theme: Theme::Light,
            figures: shown(Locale::En),
        };
        let chart = price_chart(&[], &daily, None, style, words("Collecting")).unwrap();
        assert!(!chart.svg.contains("Collecting"), "drawn, not collecting");
        assert!(chart.svg.contains("Daily"), "the daily points are labelled");
        let prices: Vec<_> = chart.points.iter().map(|p| p.price.decimal()).collect();
        assert_eq!(prices, [950_000, 990_000, 1_010_000].map(Decimal::from));
        assert_eq!(chart.points[0].at.to_rfc3339(), "2026-11-01T12:00:00+00:00");
        let across: Vec<_> = chart.points.iter().map(|p| p.x).collect();
        assert_eq!(across, [0.0, 0.5, 1.0], "where each is across the plot");
        assert!(
            chart.plot_left > 0.02 && chart.plot_right == 0.98,
            "{}..{}",
            chart.plot_left,
            chart.plot_right
        );
        let both = price_chart(&samples(3600), &daily, None, style, words("")).unwrap();
        assert!(both.svg.contains("Sampled") && both.svg.contains("Daily"));
        assert!(both.points.len() <= READOUT_POINTS, "{}", both.points.len());
        assert!(
            both.points.windows(2).all(|w| w[0].at <= w[1].at),
            "oldest first"
        );
    }

    #[test]
    fn privacy_mode_draws_no_amount_on_either_chart() {
        let hidden = ChartStyle {
            width: 800,
            height: 300,
            theme: Theme::Light,
            figures: Figures {
                hidden: true,
                ..shown(Locale::Nb)
            },
        };
        let prices = price_chart(&samples(3600), &[], None, hidden, words(""))
            .unwrap()
            .svg;
        assert!(!prices.contains("kr"), "no price on the axis");
        assert!(prices.contains("<polygon"), "the band is still drawn");
        let json = r##"{"dailyVolume":[{"date":"2026-11-01","stats":{"App":{"name":"App","color":"#f7931a","volumeNok":900,"volumeBtc":0.001,"shareOfTotalVolume":1}}}],"shareOfTotalVolume":{"App":1}}"##;
        let history: VolumeHistoricResponse = serde_json::from_str(json).unwrap();
        let volume = volume_chart(&history, hidden, "").unwrap();
        assert!(!volume.contains("kr"), "no volume on the axis");
        assert!(volume.contains("App 100,0"), "shares are not amounts");
    }

    #[test]
    fn the_time_axis_names_hours_then_days_then_months_as_the_span_grows() {
        let noon = 1_718_452_800.0; // 2024-06-15 12:00 UTC: the same day in any zone the tests run in.
        let day = 86_400.0;
        assert_eq!(time_label(noon, day).len(), 5, "HH:MM");
        assert!(time_label(noon, day).contains(':'));
        assert_eq!(time_label(noon, 30.0 * day), "15.06");
        assert_eq!(time_label(noon, 400.0 * day), "06.2024");
    }

    #[test]
    fn draws_a_line_over_a_band_with_locale_labels() {
        let style = ChartStyle {
            width: 800,
            height: 300,
            theme: Theme::Dark,
            figures: shown(Locale::Nb),
        };
        let svg = price_chart(&samples(3600), &[], None, style, words(""))
            .unwrap()
            .svg;
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert!(svg.contains("<polyline") || svg.contains("<path"), "a line");
        assert!(svg.contains("<polygon"), "the bid/ask band");
        assert!(svg.contains("\u{a0}kr"), "nb labels");
        assert!(svg.matches("<text").count() >= 6, "labelled axes");
    }

    /// Found trying the app as a new user: on first start the 1h chart stretched one minute of
    /// samples across its width, with every time label the same. The axis now spans the hour.
    #[test]
    fn a_minute_of_samples_in_the_hour_is_a_minute_at_the_right_with_the_hour_labelled() {
        let style = ChartStyle {
            width: 800,
            height: 300,
            theme: Theme::Light,
            figures: shown(Locale::En),
        };
        let now = Utc::now();
        let minute: Vec<PriceSample> = samples(60)
            .into_iter()
            .enumerate()
            .map(|(i, s)| PriceSample {
                at: now - Duration::seconds(60 - i as i64),
                ..s
            })
            .collect();
        let chart = price_chart(
            &minute,
            &[],
            Some((now - Duration::hours(1), now)),
            style,
            words(""),
        )
        .unwrap();
        assert!(
            chart.points.iter().all(|p| p.x > 0.97),
            "the minute is at the right: {:?}",
            chart.points.first().map(|p| p.x)
        );
        // Times of day as the axis writes them (`12:34`), each different.
        let labels: std::collections::BTreeSet<&str> = chart
            .svg
            .split('>')
            .filter_map(|t| t.split('<').next().map(str::trim))
            .filter(|t| t.len() == 5 && t.as_bytes()[2] == b':')
            .collect();
        assert!(labels.len() >= 4, "the hour is labelled: {labels:?}");
        // At round times of the clock: every label a whole ten minutes.
        assert!(
            labels.iter().all(|l| l.ends_with('0')),
            "round times: {labels:?}"
        );
        // The bid/ask band is named in the legend, beside the samples' line.
        assert!(chart.svg.contains("Bid to ask") && chart.svg.contains("Sampled"));
    }

    /// Ticks fall on round times of the user's clock, about as many as asked for.
    #[test]
    fn time_ticks_are_round_steps_of_the_clock() {
        let t0 = 1_764_352_980.0; // 2025-11-28 18:03 UTC
        let hour = time_ticks(t0, t0 + 3600.0, 6);
        assert!((4..=7).contains(&hour.len()), "{hour:?}");
        assert!(
            hour.windows(2).all(|w| (w[1] - w[0] - 600.0).abs() < 1e-9),
            "{hour:?}"
        );
        assert!(hour.iter().all(|t| *t >= t0 && *t <= t0 + 3600.0));
        let month = time_ticks(t0, t0 + 30.0 * 86_400.0, 6);
        assert!((3..=7).contains(&month.len()), "{month:?}");
        assert!(time_ticks(t0, t0, 6).len() <= 1);
    }

    /// The legend is kept above the data: no bar reaches the rows it takes.
    #[test]
    fn the_legend_leaves_its_rows_clear_of_the_data() {
        // Three rows of a 200 px plot: the data's top is below the legend.
        let top = clear_of_legend(0.0, 100.0, 3, 200.0);
        let legend_px = 3.0 * LEGEND_ROW + LEGEND_PAD;
        assert!(100.0 / top <= 1.0 - legend_px / 200.0 + 1e-9, "{top}");
        // On a short chart the legend takes at most half of it.
        assert!((clear_of_legend(0.0, 100.0, 30, 100.0) - 200.0).abs() < 1e-9);
    }

    #[test]
    fn few_samples_say_so_instead_of_drawing_nothing() {
        let style = ChartStyle {
            width: 400,
            height: 200,
            theme: Theme::Light,
            figures: shown(Locale::En),
        };
        assert!(
            price_chart(&[], &[], None, style, words("Collecting prices"))
                .unwrap()
                .svg
                .contains("Collecting prices")
        );
        assert!(
            price_chart(&samples(1), &[], None, style, words("Collecting prices"))
                .unwrap()
                .svg
                .contains("Collecting prices")
        );
    }

    #[test]
    fn many_samples_are_reduced_to_the_pixels_available() {
        let points = buckets(&samples(10_000), 500);
        assert!(points.len() <= 501, "{}", points.len());
        assert!(
            points.iter().all(|b| b.2 <= b.1 && b.1 <= b.3),
            "mid within the band"
        );
    }

    #[test]
    fn volume_bars_stack_per_market_in_their_colours_with_shares() {
        let json = r##"{"dailyVolume":[
            {"date":"2026-11-01","stats":{"App":{"name":"App","color":"#f7931a","volumeNok":900,"volumeBtc":0.001,"shareOfTotalVolume":0.9},
                                          "OTC":{"name":"OTC","color":"not a colour","volumeNok":100,"volumeBtc":0.0001,"shareOfTotalVolume":0.1}}},
            {"date":"2026-11-02","stats":{"App":{"name":"App","color":"#f7931a","volumeNok":500,"volumeBtc":0.0005,"shareOfTotalVolume":1}}}],
            "shareOfTotalVolume":{"App":0.9333,"OTC":0.0667}}"##;
        let history: VolumeHistoricResponse = serde_json::from_str(json).unwrap();
        let style = ChartStyle {
            width: 600,
            height: 240,
            theme: Theme::Light,
            figures: shown(Locale::Nb),
        };
        let svg = volume_chart(&history, style, "").unwrap();
        assert!(
            svg.to_ascii_lowercase().contains("#f7931a"),
            "the market's own colour"
        );
        assert!(svg.contains("App 93,3"), "share in the legend");
        assert!(
            svg.contains("OTC"),
            "a bad colour is drawn grey, not refused"
        );
        let empty: VolumeHistoricResponse =
            serde_json::from_str(r#"{"dailyVolume":[],"shareOfTotalVolume":{}}"#).unwrap();
        assert!(
            volume_chart(&empty, style, "Ingen volum")
                .unwrap()
                .contains("Ingen volum")
        );
    }
}
