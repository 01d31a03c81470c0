//! A believable BTC/NOK market: a daily price path anchored to real yearly levels, a live mid price
//! on a seeded random walk, quotes with spread and fees, and trade volume per market.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::rng::{Rng, hash};
use super::{DayVolume, btc_floor, nok_round};

/// The first day of the daily price path and of volume history.
pub const HISTORY_START: NaiveDate = match NaiveDate::from_ymd_opt(2020, 1, 1) {
    Some(d) => d,
    None => NaiveDate::MIN,
};

/// Seconds between steps of the live random walk.
const STEP_SECONDS: i64 = 2;
/// Standard deviation of one step: about 60 % a year.
const STEP_SIGMA: Decimal = Decimal::from_parts(15, 0, 0, false, 5);
/// Half the bid/ask spread.
const HALF_SPREAD: Decimal = Decimal::from_parts(1, 0, 0, false, 3);
const MIN_PRICE: Decimal = Decimal::from_parts(10_000, 0, 0, false, 0);
const MAX_PRICE: Decimal = Decimal::from_parts(100_000_000, 0, 0, false, 0);

/// Named markets with their colours and typical daily NOK volume.
pub const MARKETS: [(&str, &str, u64); 4] = [
    ("App", "#f7931a", 9_000_000),
    ("Recurring", "#2e86de", 4_000_000),
    ("API", "#27ae60", 2_500_000),
    ("OTC", "#8e44ad", 6_000_000),
];
/// The market the user's own trades count in.
pub const USER_MARKET: usize = 2;

/// Price level on 1 January of each year, NOK per BTC.
const ANCHORS: [(i32, i64); 8] = [
    (2020, 64_000),
    (2021, 250_000),
    (2022, 410_000),
    (2023, 175_000),
    (2024, 430_000),
    (2025, 1_060_000),
    (2026, 950_000),
    (2027, 1_000_000),
];

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Market {
    seed: u64,
    pub mid: Decimal,
    pub last_step: DateTime<Utc>,
    rng: Rng,
    /// Closing prices from [`HISTORY_START`], one a day.
    daily: Vec<Decimal>,
}

/// A price answer (2.9).
#[derive(Debug, Clone, PartialEq)]
pub struct Quote {
    pub price: Decimal,
    pub bid: Decimal,
    pub ask: Decimal,
    pub card_buy: Decimal,
    pub card_sell: Decimal,
    pub bank_buy: Decimal,
    pub bank_sell: Decimal,
}

/// Summed volume (2.10).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VolumeStats {
    pub nok: Decimal,
    pub btc: Decimal,
    pub buys: u64,
    pub trades: u64,
}

impl VolumeStats {
    fn add(&mut self, d: &DayVolume) {
        self.nok += d.nok;
        self.btc += d.btc;
        self.buys += d.buys;
        self.trades += d.trades;
    }

    pub fn buy_percentage(&self) -> Decimal {
        if self.trades == 0 {
            return Decimal::ZERO;
        }
        nok_round(Decimal::from(self.buys) * Decimal::ONE_HUNDRED / Decimal::from(self.trades))
    }
}

fn anchor(date: NaiveDate) -> Decimal {
    let y = date.year();
    let (lo, hi) = ANCHORS
        .windows(2)
        .find(|w| w[0].0 <= y && y < w[1].0)
        .map(|w| (w[0], w[1]))
        .unwrap_or((ANCHORS[ANCHORS.len() - 1], ANCHORS[ANCHORS.len() - 1]));
    let frac = Decimal::from(date.ordinal0()) / Decimal::from(365);
    Decimal::from(lo.1) + (Decimal::from(hi.1) - Decimal::from(lo.1)) * frac.min(Decimal::ONE)
}

fn daily_path(seed: u64, until: NaiveDate) -> Vec<Decimal> {
    let mut rng = Rng::new(hash(&[seed, 0xda11]));
    let keep = Decimal::new(97, 2);
    let kick = Decimal::new(3, 2);
    let mut deviation = Decimal::ZERO;
    let days = (until - HISTORY_START).num_days().max(0) + 1;
    (0..days)
        .map(|i| {
            deviation = deviation * keep + kick * rng.normal();
            let date = HISTORY_START + Duration::days(i);
            nok_round(anchor(date) * (Decimal::ONE + deviation))
        })
        .collect()
}

impl Market {
    pub fn new(seed: u64, now: DateTime<Utc>) -> Self {
        let daily = daily_path(seed, now.date_naive());
        let mid = daily.last().copied().unwrap_or(Decimal::from(1_000_000));
        Self {
            seed,
            mid,
            last_step: now,
            rng: Rng::new(hash(&[seed, 0x1173])),
            daily,
        }
    }

    /// The closing price of `date` (the live mid for today and later).
    pub fn close(&self, date: NaiveDate) -> Decimal {
        let i = (date - HISTORY_START).num_days();
        match usize::try_from(i) {
            Ok(i) if i + 1 < self.daily.len() => self.daily[i],
            Ok(_) => self.mid,
            Err(_) => self.daily.first().copied().unwrap_or(self.mid),
        }
    }

    /// Walks the mid price forward to `now`, one step every two seconds.
    pub fn advance(&mut self, now: DateTime<Utc>) {
        let steps = (now - self.last_step).num_seconds() / STEP_SECONDS;
        if steps <= 0 {
            return;
        }
        // After a long pause only the last day of steps is walked; the path stays plausible.
        for _ in 0..steps.min(43_200) {
            let shock = Decimal::ONE + STEP_SIGMA * self.rng.normal();
            self.mid = nok_round(self.mid * shock).clamp(MIN_PRICE, MAX_PRICE);
        }
        self.last_step += Duration::seconds(steps * STEP_SECONDS);
        let today = now.date_naive();
        let have = HISTORY_START + Duration::days(i64::try_from(self.daily.len()).unwrap_or(0) - 1);
        if have < today {
            let days = (today - have).num_days();
            for _ in 0..days {
                self.daily.push(self.mid);
            }
        }
    }

    pub fn set_mid(&mut self, price: Decimal) {
        self.mid = nok_round(price).clamp(MIN_PRICE, MAX_PRICE);
    }

    /// The quote for trading `amount_nok`: larger amounts move the price against the trader.
    pub fn quote(&self, amount_nok: Decimal) -> Quote {
        let impact = (amount_nok.abs() / Decimal::from(2_000_000_000)).min(Decimal::new(2, 2));
        let bid = nok_round(self.mid * (Decimal::ONE - HALF_SPREAD - impact));
        let ask = nok_round(self.mid * (Decimal::ONE + HALF_SPREAD + impact));
        Quote {
            price: self.mid,
            bid,
            ask,
            card_buy: nok_round(ask * Decimal::new(10249, 4)),
            card_sell: nok_round(bid * Decimal::new(9850, 4)),
            bank_buy: nok_round(ask * Decimal::new(10050, 4)),
            bank_sell: nok_round(bid * Decimal::new(9950, 4)),
        }
    }

    /// What other users traded on `date` in market `m`; today counts up to `now`.
    fn simulated_day(&self, date: NaiveDate, m: usize, now: DateTime<Utc>) -> DayVolume {
        if date < HISTORY_START || date > now.date_naive() {
            return DayVolume::default();
        }
        let mut rng = Rng::new(hash(&[self.seed, date.num_days_from_ce() as u64, m as u64]));
        let weekend = matches!(date.weekday(), Weekday::Sat | Weekday::Sun);
        let level =
            Decimal::new(6, 1) + Decimal::new(4, 1) * self.close(date) / Decimal::from(1_000_000);
        let mut factor = (Decimal::new(5, 1) + rng.unit()) * level;
        if weekend {
            factor *= Decimal::new(7, 1);
        }
        if date == now.date_naive() {
            let secs = now.num_seconds_from_midnight_utc();
            factor *= Decimal::from(secs) / Decimal::from(86_400);
        }
        let nok = nok_round(Decimal::from(MARKETS[m].2) * factor);
        let avg_trade = Decimal::from(1_500 + rng.below(4_000));
        let trades = u64::try_from((nok / avg_trade).trunc()).unwrap_or(0);
        let buy_share = Decimal::new(40, 2) + Decimal::new(25, 2) * rng.unit();
        let buys = u64::try_from((Decimal::from(trades) * buy_share).trunc()).unwrap_or(0);
        DayVolume {
            nok,
            btc: btc_floor(nok / self.close(date)),
            buys,
            trades,
        }
    }

    /// Everything traded on `date` in market `m`, the user's own trades included.
    pub fn day(
        &self,
        date: NaiveDate,
        m: usize,
        now: DateTime<Utc>,
        user: Option<&DayVolume>,
    ) -> DayVolume {
        let mut d = self.simulated_day(date, m, now);
        if m == USER_MARKET
            && let Some(u) = user
        {
            d.nok += u.nok;
            d.btc += u.btc;
            d.buys += u.buys;
            d.trades += u.trades;
        }
        d
    }

    /// Sums all markets over `from..=to`.
    pub fn total(
        &self,
        from: NaiveDate,
        to: NaiveDate,
        now: DateTime<Utc>,
        user: &std::collections::BTreeMap<NaiveDate, DayVolume>,
    ) -> VolumeStats {
        let mut s = VolumeStats::default();
        let mut d = from.max(HISTORY_START);
        while d <= to {
            for m in 0..MARKETS.len() {
                s.add(&self.day(d, m, now, user.get(&d)));
            }
            d += Duration::days(1);
        }
        s
    }
}

/// Shares of `parts` in `total`, rounded to 4 decimals, adding up to exactly 1 (the largest part
/// takes the rounding remainder). All zero when there is no volume.
pub fn shares(parts: &[Decimal], total: Decimal) -> Vec<Decimal> {
    if total <= Decimal::ZERO {
        return vec![Decimal::ZERO; parts.len()];
    }
    let mut out: Vec<Decimal> = parts.iter().map(|p| (p / total).round_dp(4)).collect();
    let sum: Decimal = out.iter().copied().sum();
    if let Some((i, _)) = parts.iter().enumerate().max_by_key(|(_, p)| **p) {
        out[i] += Decimal::ONE - sum;
    }
    out
}

trait SecondsOfDay {
    fn num_seconds_from_midnight_utc(&self) -> u32;
}

impl SecondsOfDay for DateTime<Utc> {
    fn num_seconds_from_midnight_utc(&self) -> u32 {
        use chrono::Timelike;
        self.num_seconds_from_midnight()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn the_same_seed_gives_the_same_market() {
        let now = at("2026-11-21T12:00:00Z");
        let mut a = Market::new(7, now);
        let mut b = Market::new(7, now);
        a.advance(now + Duration::minutes(10));
        b.advance(now + Duration::minutes(10));
        assert_eq!(a.mid, b.mid);
        assert_ne!(
            Market::new(8, now).close(now.date_naive() - Duration::days(30)),
            a.close(now.date_naive() - Duration::days(30))
        );
    }

    #[test]
    fn the_price_is_at_a_realistic_level_and_moves_plausibly() {
        let now = at("2026-11-21T12:00:00Z");
        let mut m = Market::new(1, now);
        let start = m.mid;
        assert!(
            start > Decimal::from(400_000) && start < Decimal::from(2_000_000),
            "{start}"
        );
        m.advance(now + Duration::hours(1));
        let moved = ((m.mid - start) / start).abs();
        assert!(
            moved < Decimal::new(5, 2),
            "an hour moves less than 5 %: {moved}"
        );
        assert_ne!(m.mid, start);
    }

    #[test]
    fn quotes_have_spread_fees_and_size_impact() {
        let m = Market::new(1, at("2026-11-21T12:00:00Z"));
        let q = m.quote(Decimal::from(5000));
        assert!(q.bid < q.price && q.price < q.ask);
        assert!(q.card_buy > q.bank_buy && q.bank_buy > q.ask);
        assert!(q.card_sell < q.bank_sell && q.bank_sell < q.bid);
        let big = m.quote(Decimal::from(10_000_000));
        assert!(big.ask > q.ask && big.bid < q.bid);
    }
}
