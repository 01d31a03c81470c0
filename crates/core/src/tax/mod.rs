//! Tax time in Norway: the synced history (`sync`), the year-end holding for wealth tax
//! (`year_end`), realised gains with matched lots (`gains`) and CSV exports (`csv`).
//!
//! Years are Norwegian calendar years. Norway is on UTC+1 in winter, with no daylight saving
//! around New Year, so a year starts at 23:00 UTC on 31 December of the year before.

pub mod csv;
pub mod gains;
pub mod sync;
pub mod year_end;

use chrono::{DateTime, Datelike, Duration, FixedOffset, NaiveDate, Offset, Utc};

/// Europe/Oslo at New Year.
fn oslo_winter() -> FixedOffset {
    FixedOffset::east_opt(3_600).unwrap_or(Utc.fix())
}

/// The first instant of Norwegian `year`.
pub fn year_start(year: i32) -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(year, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map_or(DateTime::<Utc>::MIN_UTC, |t| {
            t.and_utc() - Duration::hours(1)
        })
}

/// `t` on Norwegian clocks at New Year (UTC+1): what the reports and lists show.
pub fn oslo_time(t: &DateTime<Utc>) -> DateTime<FixedOffset> {
    t.with_timezone(&oslo_winter())
}

/// The Norwegian year `t` falls in.
pub fn oslo_year(t: &DateTime<Utc>) -> i32 {
    oslo_time(t).year()
}

/// The Norwegian date of `t`.
pub fn oslo_date(t: &DateTime<Utc>) -> NaiveDate {
    oslo_time(t).date_naive()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_year_starts_at_midnight_in_oslo() {
        let start = year_start(2025);
        assert_eq!(start.to_rfc3339(), "2024-12-31T23:00:00+00:00");
        assert_eq!(oslo_year(&start), 2025);
        assert_eq!(oslo_year(&(start - Duration::seconds(1))), 2024);
        assert_eq!(oslo_date(&start).to_string(), "2025-01-01");
    }
}

#[cfg(test)]
pub(crate) mod tests_support {
    use nordlys_exchange::models::{CurrencyCode, TaxSubType, TaxTransaction, TaxTransactionType};
    use rust_decimal::Decimal;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap_or_default()
    }

    /// A row of `account` of `kind` with its running balance and rate.
    pub fn tx(
        id: &str,
        at: &str,
        account: &str,
        kind: TaxTransactionType,
        running: &str,
        rate: &str,
    ) -> TaxTransaction {
        TaxTransaction {
            id: id.into(),
            account_id: Some(account.into()),
            tx_type: kind,
            sub_type: TaxSubType::Market,
            create_time: at.parse().unwrap_or_default(),
            finalize_time: at.parse().ok(),
            in_amount: None,
            in_currency: None,
            out_amount: None,
            out_currency: None,
            fee_amount: None,
            fee_currency: None,
            rate_market: Some(d(rate)),
            is_payment: false,
            payment_info: String::new(),
            note: String::new(),
            usdnok: None,
            running_balance_btc: d(running),
        }
    }

    /// `amount` of `currency` received.
    pub fn received(mut t: TaxTransaction, amount: &str, currency: &str) -> TaxTransaction {
        t.in_amount = Some(d(amount));
        t.in_currency = Some(CurrencyCode::from(currency));
        t
    }

    /// `amount` of `currency` paid out.
    pub fn paid(mut t: TaxTransaction, amount: &str, currency: &str) -> TaxTransaction {
        t.out_amount = Some(d(amount));
        t.out_currency = Some(CurrencyCode::from(currency));
        t
    }

    pub fn fee(mut t: TaxTransaction, amount: &str, currency: &str) -> TaxTransaction {
        t.fee_amount = Some(d(amount));
        t.fee_currency = Some(CurrencyCode::from(currency));
        t
    }
}
