//! Market commands: volume statistics, the user's own trade history, and the price and volume
//! charts.

use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, Utc};
use nordlys_core::daily_prices::{self, DailyPrice};
use nordlys_core::store::PriceSample;
use nordlys_exchange::models::{TaxTransaction, VolumeHistoricResponse, VolumeResponse};

use crate::NoArgs;
use crate::error::{Answer, AppError};
use crate::state::App;
use crate::trade_views::*;

pub async fn volume(app: &App, _args: NoArgs) -> Answer<VolumeResponse> {
    app.session()
        .await?
        .connection
        .client()
        .volume(None)
        .await
        .map_err(AppError::of)
}

/// The user's executed trades, newest first, with the names of their accounts.
#[derive(Debug, Clone)]
pub struct Trades {
    pub rows: Vec<TaxTransaction>,
    pub names: crate::tax::Names,
}

/// The user's executed trades (buys and sells of the tax history), newest first: the history's
/// tail is read first, so a trade just made is among them.
pub async fn trade_history(app: &App, _args: NoArgs) -> Answer<Trades> {
    crate::tax::read_tail(app).await?;
    let store = app.tax_session().await?.store;
    Ok(Trades {
        names: crate::tax::Names::load(&store)?,
        rows: store.tax().trades_newest(200)?,
    })
}

/// How long daily prices are kept before they are read again: they change once a day, and the
/// chart is drawn again every half minute.
const DAILY_PRICES_KEPT: std::time::Duration = std::time::Duration::from_secs(600);

/// How far back the daily prices reach: the longest range drawn ("all"). Every range is a
/// slice of the same year, so switching ranges asks the exchange nothing.
const DAILY_PRICES_DAYS: i64 = 365;

/// What the market's screens keep in the app.
#[derive(Debug, Default)]
pub struct MarketPart {
    /// The price chart's daily prices, read at most every ten minutes.
    daily_prices: Mutex<DailyPricesKept>,
    /// The exchange's default account, as learned for each profile.
    pub(crate) default_accounts: crate::default_account::DefaultAccounts,
}

/// Daily prices of the last [`DAILY_PRICES_DAYS`], kept for [`DAILY_PRICES_KEPT`], per profile
/// and first day.
#[derive(Debug, Default)]
pub struct DailyPricesKept {
    kept: Option<(
        String,
        chrono::NaiveDate,
        std::time::Instant,
        Vec<DailyPrice>,
    )>,
}

/// A price per day from `since` on: the exchange's public daily volume where it has the day, the
/// market rates of the user's own transactions where it does not. A volume history that cannot
/// be read leaves the user's own rates; a history that cannot be read either, nothing.
async fn daily_prices(
    app: &App,
    now: chrono::DateTime<chrono::Utc>,
    since: chrono::NaiveDate,
) -> Answer<Vec<DailyPrice>> {
    let in_range = |prices: &[DailyPrice]| -> Vec<DailyPrice> {
        prices.iter().filter(|p| p.day >= since).cloned().collect()
    };
    let from = (now - chrono::Duration::days(DAILY_PRICES_DAYS)).date_naive();
    let session = app.session().await?;
    {
        let kept = app
            .market
            .daily_prices
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((p, f, at, prices)) = &kept.kept
            && *p == session.profile.id
            && *f == from
            && at.elapsed() < DAILY_PRICES_KEPT
        {
            return Ok(in_range(prices));
        }
    }
    let volume = session
        .connection
        .client()
        .volume_historic(Some(from))
        .await
        .map(|h| daily_prices::from_volume(&h))
        .unwrap_or_default();
    let since = from.and_hms_opt(0, 0, 0).map(|t| t.and_utc());
    let rates = match (app.tax_session().await, since) {
        (Ok(s), Some(since)) => s.store.tax().market_rates_since(since)?,
        _ => vec![],
    };
    let prices = daily_prices::merged(volume, daily_prices::from_rates(&rates));
    let shown = in_range(&prices);
    app.market
        .daily_prices
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .kept = Some((session.profile.id, from, std::time::Instant::now(), prices));
    Ok(shown)
}

/// Nordlys' own price samples over a range, with the daily prices before it, and the size and
/// theme the chart is drawn in.
#[derive(Debug, Clone)]
pub struct PriceChartFacts {
    pub samples: Vec<PriceSample>,
    pub daily: Vec<DailyPrice>,
    /// The range's span; none for "all", which spans what there is.
    pub window: Option<(DateTime<Utc>, DateTime<Utc>)>,
    pub args: PriceChartArgs,
}

/// Nordlys' own price history (the API has none); over a week or more, with the daily prices
/// before it.
pub async fn price_chart(app: &App, args: PriceChartArgs) -> Answer<PriceChartFacts> {
    use crate::vocabulary::ChartRange;
    let now = Utc::now();
    let since = match args.range {
        ChartRange::Hour => now - chrono::Duration::hours(1),
        ChartRange::Day => now - chrono::Duration::hours(24),
        ChartRange::Week => now - chrono::Duration::days(7),
        ChartRange::Month => now - chrono::Duration::days(30),
        ChartRange::All => DateTime::<Utc>::MIN_UTC,
    };
    let samples = app.session().await?.store.price_samples(since)?;
    // Days say nothing within a day; "all" reaches back a year of the exchange's volume.
    let daily = match args.range {
        ChartRange::Hour | ChartRange::Day => vec![],
        ChartRange::Week | ChartRange::Month => daily_prices(app, now, since.date_naive()).await?,
        ChartRange::All => daily_prices(app, now, chrono::NaiveDate::MIN).await?,
    };
    Ok(PriceChartFacts {
        samples,
        daily,
        // "All" spans what there is; a range spans at least itself.
        window: (args.range != ChartRange::All).then_some((since, now)),
        args,
    })
}

/// The exchange's daily volume per market over the last month, and the chart's size and theme.
#[derive(Debug, Clone)]
pub struct VolumeChartFacts {
    pub history: VolumeHistoricResponse,
    pub args: ChartSizeArgs,
}

/// Daily volume per market over the last month, stacked in the markets' colours, with shares.
pub async fn volume_chart(app: &App, args: ChartSizeArgs) -> Answer<VolumeChartFacts> {
    let history = app
        .session()
        .await?
        .connection
        .client()
        .volume_historic(None)
        .await
        .map_err(AppError::of)?;
    Ok(VolumeChartFacts { history, args })
}
