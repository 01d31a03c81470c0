//! Switches the tests set in the environment, and the one place `NORDLYS_*` test switches are
//! read: the embedded sandbox's port, seed and control token, shorter timeouts and quiet
//! period, a folder for exports instead of the save dialog, a file notifications are logged
//! to, an answer delay for the embedded sandbox. Read in debug builds only (and in the release
//! build `scripts/bench-app` makes with the `bench-hooks` feature, to measure the shipped code
//! against a long history and a slow exchange), each within its range: a release build does what
//! its settings say, whatever its environment holds.

use std::ops::RangeInclusive;
use std::str::FromStr;

/// Whether the environment is read at all: debug builds, and benchmark builds.
const READ: bool = cfg!(any(debug_assertions, feature = "bench-hooks"));

/// The evidence rules: the standard ones, or in a debug build with the quiet period
/// `NORDLYS_MIN_QUIET_SECS` gives (0 to 86,400 s).
pub fn evidence_rules() -> nordlys_core::evidence::Rules {
    #[cfg(debug_assertions)]
    if let Some(secs) = number("NORDLYS_MIN_QUIET_SECS", 0..=86_400i64) {
        return nordlys_core::evidence::Rules::with_min_quiet(chrono::Duration::seconds(secs));
    }
    nordlys_core::evidence::Rules::default()
}

/// How far the plans' scheduler runs ahead of the clock: `NORDLYS_CLOCK_OFFSET_SECS` (up to ten
/// years either way), so a test makes a plan's slot due without waiting for it; none otherwise.
pub fn clock_offset() -> chrono::Duration {
    const TEN_YEARS: i64 = 10 * 366 * 86_400;
    number("NORDLYS_CLOCK_OFFSET_SECS", -TEN_YEARS..=TEN_YEARS)
        .map(chrono::Duration::seconds)
        .unwrap_or_default()
}

/// In a debug build with `NORDLYS_NOTIFY_LOG` naming a file, appends `notice` to it as a JSON
/// line: the E2E rig reads what the user was told, which no WebDriver can see.
pub fn log_notice(notice: &crate::desktop::Notice) {
    use std::io::Write;
    let Some(path) = text("NORDLYS_NOTIFY_LOG") else {
        return;
    };
    let Ok(line) = serde_json::to_string(notice) else {
        return;
    };
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(file, "{line}");
    }
}

/// `name`'s value, when this build reads test switches and it is set.
pub fn text(name: &str) -> Option<String> {
    text_in(READ, name)
}

/// `name`'s value as a number within `range`; anything else is as if unset.
pub fn number<T: FromStr + PartialOrd>(name: &str, range: RangeInclusive<T>) -> Option<T> {
    number_in(READ, name, range)
}

fn text_in(read: bool, name: &str) -> Option<String> {
    if !read {
        return None;
    }
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn number_in<T: FromStr + PartialOrd>(
    read: bool,
    name: &str,
    range: RangeInclusive<T>,
) -> Option<T> {
    within(text_in(read, name), range)
}

/// `value` as a number within `range`; anything else is as if unset.
fn within<T: FromStr + PartialOrd>(value: Option<String>, range: RangeInclusive<T>) -> Option<T> {
    value
        .and_then(|v| v.trim().parse().ok())
        .filter(|v| range.contains(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_build_reads_no_switch() {
        // PATH is set in every test run: read in a debug build, not in a release one.
        assert!(text_in(true, "PATH").is_some());
        assert_eq!(text_in(false, "PATH"), None);
        assert_eq!(number_in::<u64>(false, "PATH", 0..=u64::MAX), None);
    }

    #[test]
    fn a_switch_out_of_range_or_malformed_is_as_if_unset() {
        let v = |s: &str| Some(s.to_owned());
        assert_eq!(within(v("30"), 1..=600u64), Some(30));
        assert_eq!(within(v(" 30 "), 1..=600u64), Some(30));
        assert_eq!(within(v("0"), 1..=600u64), None);
        assert_eq!(within(v("18446744073709551615"), 1..=600u64), None);
        assert_eq!(within(v("99999999999999999999999"), 1..=600u64), None);
        assert_eq!(within(v("-1"), 1..=600u64), None);
        assert_eq!(within(v("abc"), 1..=600u64), None);
        assert_eq!(within::<u64>(None, 1..=600), None);
    }
}
