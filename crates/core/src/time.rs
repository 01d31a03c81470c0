//! Time as Nordlys counts and shows it. Instants are UTC; the tax year is Oslo's; what the user
//! reads is on their own clock. Both zones come from the tz database, daylight saving included,
//! so a summer sale at 12:54 UTC reads 14:54 in Oslo and a winter one at 12:54 UTC reads 13:54.

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc};
pub use chrono_tz::Tz;

/// The zone whose calendar the Norwegian tax year follows.
pub const OSLO: Tz = chrono_tz::Europe::Oslo;

/// The first instant of Norwegian `year`: midnight in Oslo on 1 January (23:00 UTC the day
/// before, as Norway keeps no daylight saving in winter).
pub fn year_start(year: i32) -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(year, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .and_then(|t| OSLO.from_local_datetime(&t).earliest())
        .map_or(DateTime::<Utc>::MIN_UTC, |t| t.with_timezone(&Utc))
}

/// The Norwegian year `t` falls in.
pub fn oslo_year(t: &DateTime<Utc>) -> i32 {
    t.with_timezone(&OSLO).year()
}

/// The Norwegian date of `t`.
pub fn oslo_date(t: &DateTime<Utc>) -> NaiveDate {
    t.with_timezone(&OSLO).date_naive()
}

/// The zone named `name` (`Europe/Oslo`), if the tz database knows it.
pub fn zone(name: &str) -> Option<Tz> {
    name.trim().parse().ok()
}

/// The zone the `TZ` environment variable names, as the C library reads it: `Europe/Oslo`,
/// `:Europe/Oslo`, a path into the zone database, `UTC0`; set but empty is UTC. `None` when it
/// names no zone of the database (a POSIX rule such as `CET-1CEST`): the system's zone then.
pub fn zone_of_tz(value: &str) -> Option<Tz> {
    let v = value.trim();
    if v.is_empty() {
        return Some(Tz::UTC);
    }
    let v = v.strip_prefix(':').unwrap_or(v);
    let v = v.rsplit_once("zoneinfo/").map_or(v, |(_, name)| name);
    match v {
        "UTC0" | "GMT0" => Some(Tz::UTC),
        name => zone(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn tz_names_the_zone_as_the_c_library_reads_it() {
        for (tz, zone) in [
            ("Europe/Oslo", Some(OSLO)),
            (":America/New_York", Some(Tz::America__New_York)),
            ("/usr/share/zoneinfo/Asia/Tokyo", Some(Tz::Asia__Tokyo)),
            ("UTC", Some(Tz::UTC)),
            ("UTC0", Some(Tz::UTC)),
            ("", Some(Tz::UTC)),
            ("CET-1CEST,M3.5.0,M10.5.0/3", None),
            ("Nowhere/Else", None),
        ] {
            assert_eq!(zone_of_tz(tz), zone, "{tz}");
        }
    }

    #[test]
    fn the_norwegian_year_starts_at_midnight_in_oslo() {
        let start = year_start(2025);
        assert_eq!(start.to_rfc3339(), "2024-12-31T23:00:00+00:00");
        assert_eq!(oslo_year(&start), 2025);
        assert_eq!(oslo_year(&(start - Duration::seconds(1))), 2024);
        assert_eq!(oslo_date(&start).to_string(), "2025-01-01");
    }

    #[test]
    fn oslo_keeps_daylight_saving() {
        let summer: DateTime<Utc> = "2026-07-01T22:30:00Z".parse().unwrap_or_default();
        assert_eq!(oslo_date(&summer).to_string(), "2026-07-02", "00:30 CEST");
        let winter: DateTime<Utc> = "2026-01-01T22:30:00Z".parse().unwrap_or_default();
        assert_eq!(oslo_date(&winter).to_string(), "2026-01-01", "23:30 CET");
    }

    #[test]
    fn zones_are_read_by_name_and_unknown_names_refused() {
        assert_eq!(zone("Europe/Oslo"), Some(OSLO));
        assert_eq!(zone("Mars/Olympus_Mons"), None);
        assert_eq!(zone(""), None);
    }
}
