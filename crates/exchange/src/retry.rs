//! Whether and when a failed read is sent again. Pure data, so the policy is tested on its own.

use std::time::Duration;

use crate::endpoint::Repeat;

/// What went wrong with one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// No connection was made: nothing reached the server.
    Connect,
    Timeout,
    /// The connection broke after the request may have been sent.
    Transport,
    Status(u16),
}

/// Bounded retries with exponential backoff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total attempts including the first.
    pub attempts: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            attempts: 3,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(2),
        }
    }
}

impl RetryPolicy {
    /// The wait before the next attempt, or `None` to give up. `attempt` counts from 1.
    pub fn next_delay(&self, repeat: Repeat, failure: Failure, attempt: u32) -> Option<Duration> {
        if repeat != Repeat::Safe || attempt >= self.attempts || !is_transient(failure) {
            return None;
        }
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1));
        Some(self.base_delay.saturating_mul(factor).min(self.max_delay))
    }
}

/// A 429 is not transient in this sense: the exchange said when to ask again
/// ([`retry_after`]), and asking sooner is what it refused.
fn is_transient(failure: Failure) -> bool {
    match failure {
        Failure::Connect | Failure::Timeout | Failure::Transport => true,
        Failure::Status(s) => s >= 500,
    }
}

/// The longest wait a `Retry-After` is taken at: a longer one is read as this.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(300);

/// What a `Retry-After` header asks for (RFC 9110 §10.2.3): delay-seconds, or an HTTP date read
/// against the answer's own `Date` (`date`; our clock, `now`, when it sent none), capped at
/// [`MAX_RETRY_AFTER`]. `None` for a value that is neither (negative, fractional, unparsable):
/// the exchange did not say when, and nothing is guessed.
pub fn retry_after(
    value: &str,
    date: Option<chrono::DateTime<chrono::Utc>>,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // More digits than a u64 holds is still "a long time".
        let seconds = value.parse::<u64>().unwrap_or(u64::MAX);
        return Some(Duration::from_secs(seconds).min(MAX_RETRY_AFTER));
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let wait = (at.with_timezone(&chrono::Utc) - date.unwrap_or(now))
        .to_std()
        .unwrap_or(Duration::ZERO);
    Some(wait.min(MAX_RETRY_AFTER))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_or_a_date_against_the_answers_own_clock() {
        let now: chrono::DateTime<chrono::Utc> = "2026-11-28T12:00:00Z".parse().unwrap();
        let server: chrono::DateTime<chrono::Utc> = "2026-11-28T11:00:00Z".parse().unwrap();
        assert_eq!(retry_after("7", None, now), Some(Duration::from_secs(7)));
        assert_eq!(retry_after(" 0 ", None, now), Some(Duration::ZERO));
        // An HTTP date 30 s after the answer's Date, whatever our clock says.
        assert_eq!(
            retry_after("Sat, 28 Nov 2026 11:00:30 GMT", Some(server), now),
            Some(Duration::from_secs(30))
        );
        // A date already past: ask again now.
        assert_eq!(
            retry_after("Sat, 28 Nov 2026 10:00:00 GMT", Some(server), now),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn a_huge_retry_after_is_capped_and_a_bad_one_says_nothing() {
        let now = chrono::Utc::now();
        assert_eq!(retry_after("86400", None, now), Some(MAX_RETRY_AFTER));
        assert_eq!(
            retry_after("99999999999999999999999999", None, now),
            Some(MAX_RETRY_AFTER)
        );
        for bad in ["-5", "1.5", "soon", "", "Sat, 99 Nov 2026 11:00:30 GMT"] {
            assert_eq!(retry_after(bad, None, now), None, "{bad:?}");
        }
    }

    #[test]
    fn a_429_is_not_sent_again_by_the_backoff() {
        let p = RetryPolicy::default();
        assert_eq!(p.next_delay(Repeat::Safe, Failure::Status(429), 1), None);
    }

    #[test]
    fn reads_retry_a_bounded_number_of_times_with_backoff() {
        let p = RetryPolicy::default();
        assert_eq!(
            p.next_delay(Repeat::Safe, Failure::Status(503), 1),
            Some(Duration::from_millis(200))
        );
        assert_eq!(
            p.next_delay(Repeat::Safe, Failure::Transport, 2),
            Some(Duration::from_millis(400))
        );
        assert_eq!(p.next_delay(Repeat::Safe, Failure::Timeout, 3), None);
    }

    #[test]
    fn money_moving_calls_never_retry() {
        let p = RetryPolicy {
            attempts: 10,
            ..RetryPolicy::default()
        };
        for f in [
            Failure::Connect,
            Failure::Timeout,
            Failure::Transport,
            Failure::Status(500),
        ] {
            assert_eq!(p.next_delay(Repeat::MovesMoney, f, 1), None);
            assert_eq!(p.next_delay(Repeat::Never, f, 1), None);
        }
    }

    #[test]
    fn client_errors_are_not_retried() {
        let p = RetryPolicy::default();
        for s in [400, 401, 403, 404] {
            assert_eq!(p.next_delay(Repeat::Safe, Failure::Status(s), 1), None);
        }
    }
}
