//! When a plan's runs fall: wall-clock times in Europe/Oslo, whatever the machine's zone. A
//! time that does not exist on a spring-forward day runs at 03:00; one that occurs twice on the
//! autumn day runs once, at the first. A monthly day past the month's end (the 31st in April)
//! falls on the month's last day, so every schedule fires every period.

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc, Weekday};

use crate::time::OSLO;

/// How often a plan runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Every {
    Day,
    Week(Weekday),
    /// The day of the month, 1–31.
    Month(u32),
}

/// A plan's schedule: how often, and at what time of day in Oslo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    pub every: Every,
    pub at: NaiveTime,
}

/// How long a slot stays due at most; after that (or from the next slot) it is missed.
pub const DUE_FOR: Duration = Duration::hours(6);

/// Why a schedule cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleProblem {
    #[error("a weekly plan needs a weekday (mon…sun)")]
    NoWeekday,
    #[error("a monthly plan needs a day of the month (1–31)")]
    NoMonthDay,
    #[error("`{0}` is not a day of the month (1–31): the plan would never run")]
    NoSuchMonthDay(String),
    #[error("`{0}` is not a weekday (mon…sun)")]
    NoSuchWeekday(String),
    #[error("a daily plan runs every day: it takes no --on")]
    DayTakesNoOn,
    #[error("`{0}` is not a time of day as HH:MM (00:00–23:59)")]
    NoSuchTime(String),
    #[error("`{0}` is not day, week or month")]
    NoSuchPeriod(String),
}

/// A weekday's short name, as the CLI and the store write it.
pub fn weekday_text(d: Weekday) -> &'static str {
    match d {
        Weekday::Mon => "mon",
        Weekday::Tue => "tue",
        Weekday::Wed => "wed",
        Weekday::Thu => "thu",
        Weekday::Fri => "fri",
        Weekday::Sat => "sat",
        Weekday::Sun => "sun",
    }
}

fn parse_weekday(text: &str) -> Option<Weekday> {
    Some(match text.trim().to_ascii_lowercase().as_str() {
        "mon" | "monday" => Weekday::Mon,
        "tue" | "tuesday" => Weekday::Tue,
        "wed" | "wednesday" => Weekday::Wed,
        "thu" | "thursday" => Weekday::Thu,
        "fri" | "friday" => Weekday::Fri,
        "sat" | "saturday" => Weekday::Sat,
        "sun" | "sunday" => Weekday::Sun,
        _ => return None,
    })
}

/// `HH:MM`, 00:00–23:59.
pub fn parse_time(text: &str) -> Result<NaiveTime, ScheduleProblem> {
    let t = text.trim();
    let bad = || ScheduleProblem::NoSuchTime(text.to_owned());
    let (h, m) = t.split_once(':').ok_or_else(bad)?;
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return Err(bad());
    }
    let h: u32 = h.parse().map_err(|_| bad())?;
    let m: u32 = m.parse().map_err(|_| bad())?;
    NaiveTime::from_hms_opt(h, m, 0).ok_or_else(bad)
}

impl Every {
    /// `day`, `week` with `on` a weekday, or `month` with `on` a day 1–31.
    pub fn parse(period: &str, on: Option<&str>) -> Result<Self, ScheduleProblem> {
        let on = on.map(str::trim).filter(|s| !s.is_empty());
        match period.trim().to_ascii_lowercase().as_str() {
            "day" => match on {
                None => Ok(Self::Day),
                Some(_) => Err(ScheduleProblem::DayTakesNoOn),
            },
            "week" => {
                let on = on.ok_or(ScheduleProblem::NoWeekday)?;
                parse_weekday(on)
                    .map(Self::Week)
                    .ok_or_else(|| ScheduleProblem::NoSuchWeekday(on.to_owned()))
            }
            "month" => {
                let on = on.ok_or(ScheduleProblem::NoMonthDay)?;
                match on.parse::<u32>() {
                    Ok(d @ 1..=31) => Ok(Self::Month(d)),
                    _ => Err(ScheduleProblem::NoSuchMonthDay(on.to_owned())),
                }
            }
            other => Err(ScheduleProblem::NoSuchPeriod(other.to_owned())),
        }
    }

    /// `day`, `week` or `month`.
    pub fn period_text(self) -> &'static str {
        match self {
            Self::Day => "day",
            Self::Week(_) => "week",
            Self::Month(_) => "month",
        }
    }

    /// The weekday or day of the month, as text; none for a daily plan.
    pub fn on_text(self) -> Option<String> {
        match self {
            Self::Day => None,
            Self::Week(d) => Some(weekday_text(d).to_owned()),
            Self::Month(d) => Some(d.to_string()),
        }
    }

    fn falls_on(self, date: NaiveDate) -> bool {
        match self {
            Self::Day => true,
            Self::Week(d) => date.weekday() == d,
            Self::Month(d) => date.day() == d.min(last_day(date)),
        }
    }
}

fn last_day(date: NaiveDate) -> u32 {
    (28..=31)
        .rev()
        .find(|&d| date.with_day(d).is_some())
        .unwrap_or(28)
}

impl Schedule {
    /// The instant of the run on `date` at the schedule's time in Oslo.
    fn instant_on(&self, date: NaiveDate) -> DateTime<Utc> {
        let local = date.and_time(self.at);
        let chosen = OSLO.from_local_datetime(&local).earliest().or_else(|| {
            // In the spring-forward gap (02:00–03:00 in Oslo): at 03:00.
            let three = NaiveTime::from_hms_opt(3, 0, 0).unwrap_or(self.at);
            OSLO.from_local_datetime(&date.and_time(three)).earliest()
        });
        chosen.map_or(DateTime::<Utc>::MIN_UTC, |t| t.with_timezone(&Utc))
    }

    fn slot_on(&self, date: NaiveDate) -> Option<DateTime<Utc>> {
        self.every.falls_on(date).then(|| self.instant_on(date))
    }

    /// The latest slot at or before `t`.
    pub fn latest_at_or_before(&self, t: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let mut date = crate::time::oslo_date(&t).succ_opt()?;
        for _ in 0..70 {
            if let Some(s) = self.slot_on(date)
                && s <= t
            {
                return Some(s);
            }
            date = date.pred_opt()?;
        }
        None
    }

    /// The first slot after `t`.
    pub fn next_after(&self, t: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let mut date = crate::time::oslo_date(&t).pred_opt()?;
        for _ in 0..70 {
            if let Some(s) = self.slot_on(date)
                && s > t
            {
                return Some(s);
            }
            date = date.succ_opt()?;
        }
        None
    }

    /// Slots in `[from, to]`, oldest first.
    pub fn slots_between(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<DateTime<Utc>> {
        let mut out = Vec::new();
        let Some(mut date) = crate::time::oslo_date(&from).pred_opt() else {
            return out;
        };
        let last = crate::time::oslo_date(&to).succ_opt().unwrap_or(date);
        while date <= last {
            if let Some(s) = self.slot_on(date)
                && s >= from
                && s <= to
            {
                out.push(s);
            }
            let Some(next) = date.succ_opt() else { break };
            date = next;
        }
        out
    }

    /// The end of `slot`'s due time: 6 hours after it, or the next slot, whichever is first.
    pub fn due_until(&self, slot: DateTime<Utc>) -> DateTime<Utc> {
        let six = slot + DUE_FOR;
        self.next_after(slot).map_or(six, |n| n.min(six))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn at(every: Every, hhmm: &str) -> Schedule {
        Schedule {
            every,
            at: parse_time(hhmm).unwrap(),
        }
    }

    #[test]
    fn a_time_is_oslo_wall_clock_in_winter_and_summer() {
        let s = at(Every::Day, "09:30");
        assert_eq!(
            s.next_after(utc("2026-01-10T00:00:00Z")),
            Some(utc("2026-01-10T08:30:00Z"))
        );
        assert_eq!(
            s.next_after(utc("2026-07-10T00:00:00Z")),
            Some(utc("2026-07-10T07:30:00Z"))
        );
    }

    #[test]
    fn a_time_lost_to_spring_forward_runs_at_three() {
        // 29 March 2026: Oslo jumps from 02:00 to 03:00.
        let s = at(Every::Day, "02:30");
        let slot = s.next_after(utc("2026-03-28T12:00:00Z")).unwrap();
        assert_eq!(slot, utc("2026-03-29T01:00:00Z"), "03:00 CEST");
        assert_eq!(
            s.next_after(slot),
            Some(utc("2026-03-30T00:30:00Z")),
            "the next day 02:30 CEST"
        );
    }

    #[test]
    fn a_time_that_occurs_twice_in_autumn_runs_once_at_the_first() {
        // 25 October 2026: Oslo goes from 03:00 back to 02:00; 02:30 happens twice.
        let s = at(Every::Day, "02:30");
        let slots = s.slots_between(utc("2026-10-24T12:00:00Z"), utc("2026-10-26T12:00:00Z"));
        assert_eq!(
            slots,
            vec![utc("2026-10-25T00:30:00Z"), utc("2026-10-26T01:30:00Z")]
        );
    }

    #[test]
    fn a_monthly_day_past_the_months_end_falls_on_its_last_day() {
        let s = at(Every::Month(31), "12:00");
        let slots = s.slots_between(utc("2026-01-01T00:00:00Z"), utc("2026-05-01T00:00:00Z"));
        let dates: Vec<String> = slots
            .iter()
            .map(|t| crate::time::oslo_date(t).to_string())
            .collect();
        assert_eq!(
            dates,
            ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]
        );
        // A leap year's February has its 29th.
        let s = at(Every::Month(29), "12:00");
        let slots = s.slots_between(utc("2028-02-01T00:00:00Z"), utc("2028-03-01T00:00:00Z"));
        assert_eq!(slots, vec![utc("2028-02-29T11:00:00Z")]);
        let slots = s.slots_between(utc("2027-02-01T00:00:00Z"), utc("2027-03-01T00:00:00Z"));
        assert_eq!(slots, vec![utc("2027-02-28T11:00:00Z")]);
    }

    #[test]
    fn a_weekly_plan_falls_on_its_weekday() {
        let s = at(Every::Week(Weekday::Mon), "07:00");
        // Tuesday 24 November 2026.
        let t = utc("2026-11-24T10:00:00Z");
        assert_eq!(s.latest_at_or_before(t), Some(utc("2026-11-23T06:00:00Z")));
        assert_eq!(s.next_after(t), Some(utc("2026-11-30T06:00:00Z")));
    }

    #[test]
    fn a_slot_is_due_six_hours_or_until_the_next() {
        let weekly = at(Every::Week(Weekday::Mon), "07:00");
        let slot = utc("2026-11-23T06:00:00Z");
        assert_eq!(weekly.due_until(slot), utc("2026-11-23T12:00:00Z"));
        let daily = at(Every::Day, "23:00");
        let slot = utc("2026-11-23T22:00:00Z");
        assert_eq!(daily.due_until(slot), utc("2026-11-24T04:00:00Z"));
    }

    #[test]
    fn schedules_that_never_fire_or_do_not_parse_are_refused() {
        assert_eq!(Every::parse("week", None), Err(ScheduleProblem::NoWeekday));
        assert_eq!(
            Every::parse("month", None),
            Err(ScheduleProblem::NoMonthDay)
        );
        assert!(matches!(
            Every::parse("month", Some("32")),
            Err(ScheduleProblem::NoSuchMonthDay(_))
        ));
        assert!(matches!(
            Every::parse("month", Some("0")),
            Err(ScheduleProblem::NoSuchMonthDay(_))
        ));
        assert!(matches!(
            Every::parse("week", Some("someday")),
            Err(ScheduleProblem::NoSuchWeekday(_))
        ));
        assert_eq!(
            Every::parse("day", Some("mon")),
            Err(ScheduleProblem::DayTakesNoOn)
        );
        assert!(Every::parse("hour", None).is_err());
        assert_eq!(
            Every::parse("week", Some("Fri")),
            Ok(Every::Week(Weekday::Fri))
        );
        for bad in ["24:00", "9", "9:5", "09:60", "-1:00", "", "ab:cd", "009:00"] {
            assert!(parse_time(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_time("9:05").unwrap().to_string(), "09:05:00");
    }
}
