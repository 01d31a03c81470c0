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

fn is_transient(failure: Failure) -> bool {
    match failure {
        Failure::Connect | Failure::Timeout | Failure::Transport => true,
        Failure::Status(s) => s >= 500 || s == 429,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
