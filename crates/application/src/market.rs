//! Market commands: volume statistics and the user's own trade history.

use nordlys_core::format::{self, BtcUnit, Figures};
use nordlys_core::tax::row_amount;
use nordlys_exchange::models::{TaxTransactionType, VolumeStats};
use nordlys_money::{Btc, Nok};
use rust_decimal::Decimal;

use crate::NoArgs;
use crate::error::IpcError;
use crate::state::App;
use crate::trade_views::*;
use crate::vocabulary::Direction;

fn stats(s: &VolumeStats, figures: Figures) -> VolumeStatsView {
    let locale = figures.locale;
    VolumeStatsView {
        amount_nok: figures.nok(s.amount_nok),
        amount_btc: figures.btc_in(s.amount_btc, BtcUnit::Btc),
        buy_percentage: format!("{}\u{a0}%", format::number(s.buy_percentage, 1, locale)),
        number_of_trades: format::number(Decimal::from(s.number_of_trades), 0, locale),
    }
}

pub async fn volume(app: &App, _args: NoArgs) -> Result<VolumeView, IpcError> {
    let figures = app.figures();
    let v = app
        .session()
        .await?
        .connection
        .client()
        .volume(None)
        .await
        .map_err(|e| app.error(e))?;
    Ok(VolumeView {
        daily: stats(&v.daily, figures),
        monthly: stats(&v.monthly, figures),
        yearly: stats(&v.yearly, figures),
        last24h: stats(&v.last24h, figures),
    })
}

/// The user's executed trades (buys and sells of the tax history), newest first: the history's
/// tail is read first, so a trade just made is among them.
pub async fn trade_history(app: &App, _args: NoArgs) -> Result<TradesView, IpcError> {
    let figures = app.figures();
    crate::tax::read_tail(app).await?;
    let store = app.tax_session().await?.store;
    let names: std::collections::HashMap<String, String> = store
        .tax_accounts()?
        .into_iter()
        .map(|a| (a.id, a.name))
        .collect();
    let trades = store
        .tax_trades_newest(200)?
        .iter()
        .map(|t| {
            let buy = t.tx_type == TaxTransactionType::BtcBuy;
            let (btc, nok) = if buy {
                (t.in_amount, t.out_amount)
            } else {
                (t.out_amount, t.in_amount)
            };
            let account = t
                .account_id
                .as_ref()
                .map(|a| {
                    names
                        .get(a.as_str())
                        .cloned()
                        .unwrap_or_else(|| a.to_string())
                })
                .unwrap_or_default();
            TradeView {
                id: t.id.to_string(),
                time: format::time(&t.create_time, app.zone, figures.locale),
                direction: if buy { Direction::Buy } else { Direction::Sell },
                account,
                btc: btc
                    .map(|b| figures.btc(Btc::computed(b)))
                    .unwrap_or_default(),
                nok: nok
                    .map(|n| figures.nok(Nok::computed(n)))
                    .unwrap_or_default(),
                price: t.rate_market.map(|r| figures.price(r)).unwrap_or_default(),
                fee: match (t.fee_amount, &t.fee_currency) {
                    (Some(f), Some(c)) => match row_amount(f, c) {
                        Some(a) => figures.amount(a),
                        None => figures.foreign(f, c.as_str()),
                    },
                    // A fee with no currency named is in NOK, as a trade's is.
                    (Some(f), None) => figures.nok(Nok::computed(f)),
                    (None, _) => String::new(),
                },
            }
        })
        .collect();
    Ok(TradesView { trades })
}

/// Nordlys' own price history (the API has none), drawn to SVG.
pub async fn price_chart(app: &App, args: PriceChartArgs) -> Result<ChartView, IpcError> {
    use crate::vocabulary::ChartRange;
    use nordlys_core::chart::{ChartStyle, Theme, price_chart};
    let since = match args.range {
        ChartRange::Hour => chrono::Utc::now() - chrono::Duration::hours(1),
        ChartRange::Day => chrono::Utc::now() - chrono::Duration::hours(24),
        ChartRange::Week => chrono::Utc::now() - chrono::Duration::days(7),
        ChartRange::All => chrono::DateTime::<chrono::Utc>::MIN_UTC,
    };
    let samples = app.session().await?.store.price_samples(since)?;
    let style = ChartStyle {
        width: args.width.clamp(200, 4000),
        height: args.height.clamp(120, 2000),
        theme: if args.dark { Theme::Dark } else { Theme::Light },
        figures: app.figures(),
    };
    let empty = crate::wording::say("chart-collecting", app.locale());
    let svg = price_chart(&samples, style, &empty).map_err(IpcError::internal)?;
    Ok(ChartView {
        svg,
        samples: u32::try_from(samples.len()).unwrap_or(u32::MAX),
    })
}

/// Daily volume per market over the last month, stacked in the markets' colours, with shares.
pub async fn volume_chart(app: &App, args: ChartSizeArgs) -> Result<ChartView, IpcError> {
    use nordlys_core::chart::{ChartStyle, Theme, volume_chart};
    let history = app
        .session()
        .await?
        .connection
        .client()
        .volume_historic(None)
        .await
        .map_err(|e| app.error(e))?;
    let style = ChartStyle {
        width: args.width.clamp(200, 4000),
        height: args.height.clamp(120, 2000),
        theme: if args.dark { Theme::Dark } else { Theme::Light },
        figures: app.figures(),
    };
    let empty = crate::wording::say("chart-no-volume", app.locale());
    let svg = volume_chart(&history, style, &empty).map_err(IpcError::internal)?;
    Ok(ChartView {
        svg,
        samples: u32::try_from(history.daily_volume.len()).unwrap_or(u32::MAX),
    })
}
