//! `cargo bench -p nordlys-render --bench charts`: rendering the price chart for 10,000 samples (target ≤ 10 ms),
//! against formatting the same number of prices as text in the same run (the baseline).
#![allow(clippy::unwrap_used, reason = "benchmark set-up")]

use chrono::{Duration, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use nordlys_core::format::{self, BtcUnit, Figures, Locale};
use nordlys_core::store::PriceSample;
use nordlys_money::NokPerBtc;
use nordlys_render::chart::{ChartStyle, PriceChartWords, Theme, price_chart};
use rust_decimal::Decimal;

fn samples(n: usize) -> Vec<PriceSample> {
    let start = Utc::now() - Duration::days(7);
    (0..n)
        .map(|i| {
            let mid = Decimal::from(950_000 + (i as i64 * 7919) % 60_000);
            PriceSample {
                at: start + Duration::seconds(i as i64 * 60),
                mid: NokPerBtc::computed(mid),
                bid: NokPerBtc::computed(mid - Decimal::from(900)),
                ask: NokPerBtc::computed(mid + Decimal::from(900)),
            }
        })
        .collect()
}

fn charts(c: &mut Criterion) {
    let data = samples(10_000);
    let style = ChartStyle {
        width: 1000,
        height: 300,
        theme: Theme::Dark,
        figures: Figures {
            locale: Locale::Nb,
            unit: BtcUnit::Btc,
            hidden: false,
        },
    };
    let words = PriceChartWords {
        empty: "",
        daily: "Daily",
        samples: "Sampled",
        spread: "Bid to ask",
    };
    c.bench_function("price chart, 10,000 samples, to SVG", |b| {
        b.iter(|| price_chart(&data, &[], None, style, words).unwrap())
    });
    c.bench_function("baseline: format 10,000 prices as nb text", |b| {
        b.iter(|| {
            data.iter()
                .map(|s| format::price(s.mid, Locale::Nb).len())
                .sum::<usize>()
        })
    });
}

criterion_group!(benches, charts);
criterion_main!(benches);
