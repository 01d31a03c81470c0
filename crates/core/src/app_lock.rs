//! The app lock: a password kept only as an Argon2id hash (a PHC string, in the OS keyring), the
//! idle time after which the app locks itself, and the checks of what the user types. The lock
//! keeps eyes off the window; it does not encrypt anything.

use std::time::{Duration, Instant, SystemTime};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// The shortest password the lock takes, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// The idle times the user may choose, in minutes.
pub const IDLE_MINUTES: std::ops::RangeInclusive<u32> = 1..=240;
/// The idle time until the user chooses one.
pub const DEFAULT_IDLE_MINUTES: u32 = 15;

/// What is wrong with a lock setting the user typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LockProblem {
    #[error("the password is shorter than {MIN_PASSWORD_CHARS} characters")]
    TooShort,
    #[error("the two passwords differ")]
    Mismatch,
    #[error("the idle time is not a whole number of minutes from 1 to 240")]
    IdleRange,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("no randomness for the password's salt")]
    NoRandomness,
    #[error("the password could not be hashed: {0}")]
    Hash(String),
    #[error("the stored password hash is damaged: {0}")]
    Damaged(String),
}

/// Checks a new password and its confirmation.
pub fn check_new_password(password: &str, confirm: &str) -> Result<(), LockProblem> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(LockProblem::TooShort);
    }
    if password != confirm {
        return Err(LockProblem::Mismatch);
    }
    Ok(())
}

/// Reads an idle time typed in minutes.
pub fn parse_idle_minutes(text: &str) -> Result<u32, LockProblem> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|m| IDLE_MINUTES.contains(m))
        .ok_or(LockProblem::IdleRange)
}

/// Argon2id with OWASP's first choice of cost (19 MiB, 2 passes, 1 lane).
fn argon2() -> Argon2<'static> {
    // Constant and valid: the fallback is never taken.
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string of `password` with a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, LockError> {
    let mut salt = [0_u8; 16];
    getrandom::fill(&mut salt).map_err(|_| LockError::NoRandomness)?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| LockError::Hash(e.to_string()))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| LockError::Hash(e.to_string()))
}

/// Whether `password` is the one `phc` was made from. A PHC string of another algorithm than
/// Argon2id is damaged: nothing weaker is accepted.
pub fn verify_password(phc: &str, password: &str) -> Result<bool, LockError> {
    let parsed = PasswordHash::new(phc).map_err(|e| LockError::Damaged(e.to_string()))?;
    if parsed.algorithm != Algorithm::Argon2id.ident() {
        return Err(LockError::Damaged(format!(
            "algorithm {} is not argon2id",
            parsed.algorithm
        )));
    }
    match argon2().verify_password(password.as_bytes(), &parsed) {
        Ok(()) => Ok(true),
        Err(argon2::password_hash::Error::Password) => Ok(false),
        Err(e) => Err(LockError::Damaged(e.to_string())),
    }
}

/// A moment on two clocks: the monotonic one, which on some systems stops while the machine
/// sleeps, and the wall clock, which does not.
#[derive(Debug, Clone, Copy)]
pub struct Moment {
    pub mono: Instant,
    pub wall: SystemTime,
}

impl Moment {
    pub fn now() -> Self {
        Self {
            mono: Instant::now(),
            wall: SystemTime::now(),
        }
    }

    /// How long after `earlier` this is: the longer of the two clocks' counts, so time asleep
    /// counts (a wall clock set back counts nothing, one set forward locks early, never late).
    fn since(self, earlier: Self) -> Duration {
        let mono = self.mono.saturating_duration_since(earlier.mono);
        let wall = self.wall.duration_since(earlier.wall).unwrap_or_default();
        mono.max(wall)
    }
}

/// When the user was last seen, and after how long without them the app locks.
#[derive(Debug, Clone, Copy)]
pub struct IdleTimer {
    idle: Duration,
    last_seen: Moment,
}

impl IdleTimer {
    pub fn new(minutes: u32, now: Moment) -> Self {
        Self {
            idle: Duration::from_secs(u64::from(minutes) * 60),
            last_seen: now,
        }
    }

    /// The user did something at `now`.
    pub fn seen(&mut self, now: Moment) {
        if now.mono > self.last_seen.mono {
            self.last_seen = now;
        }
    }

    /// A new idle time, counted from the last time the user was seen.
    pub fn set_minutes(&mut self, minutes: u32) {
        self.idle = Duration::from_secs(u64::from(minutes) * 60);
    }

    /// Whether the user has been away for the idle time at `now`, time asleep included.
    pub fn is_due(&self, now: Moment) -> bool {
        now.since(self.last_seen) >= self.idle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_kept_as_an_argon2id_phc_string_and_checked_against_it() {
        let phc = hash_password("correct horse").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify_password(&phc, "correct horse").unwrap());
        assert!(!verify_password(&phc, "correct horsE").unwrap());
        assert_ne!(phc, hash_password("correct horse").unwrap(), "salted");
    }

    #[test]
    fn a_damaged_or_weaker_hash_is_an_error_not_a_match() {
        for bad in [
            "",
            "not a phc",
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$",
            "$argon2i$v=19$m=16,t=2,p=1$c2FsdHNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
        ] {
            assert!(verify_password(bad, "whatever1").is_err(), "{bad}");
        }
    }

    #[test]
    fn new_passwords_and_idle_times_are_checked() {
        assert_eq!(
            check_new_password("1234567", "1234567"),
            Err(LockProblem::TooShort)
        );
        // Characters, not bytes: seven letters of two bytes each are still seven.
        assert_eq!(
            check_new_password("æøåæøåæ", "æøåæøåæ"),
            Err(LockProblem::TooShort)
        );
        assert_eq!(
            check_new_password("12345678", "12345679"),
            Err(LockProblem::Mismatch)
        );
        assert_eq!(check_new_password("12345678", "12345678"), Ok(()));
        for bad in ["0", "241", "-1", "1.5", "", "ten"] {
            assert_eq!(
                parse_idle_minutes(bad),
                Err(LockProblem::IdleRange),
                "{bad}"
            );
        }
        assert_eq!(parse_idle_minutes(" 1 "), Ok(1));
        assert_eq!(parse_idle_minutes("240"), Ok(240));
    }

    #[test]
    fn the_idle_timer_is_due_after_the_idle_time_without_the_user() {
        let start = Moment::now();
        let mut timer = IdleTimer::new(5, start);
        let at = |s: u64| Moment {
            mono: start.mono + Duration::from_secs(s),
            wall: start.wall + Duration::from_secs(s),
        };
        assert!(!timer.is_due(at(299)));
        assert!(timer.is_due(at(300)));
        timer.seen(at(200));
        assert!(!timer.is_due(at(300)), "seen again: counted from then");
        assert!(timer.is_due(at(500)));
        // A late report of an earlier moment does not move the timer back.
        timer.seen(at(100));
        assert!(timer.is_due(at(500)));
        timer.set_minutes(10);
        assert!(!timer.is_due(at(500)));
        assert!(timer.is_due(at(800)));
        // A clock that went back is no reason to lock.
        assert!(!timer.is_due(start));
    }

    /// A machine asleep for an hour: the monotonic clock may not have moved, the wall clock did.
    #[test]
    fn time_asleep_counts_as_away() {
        let start = Moment::now();
        let timer = IdleTimer::new(5, start);
        let woke = Moment {
            mono: start.mono + Duration::from_secs(10),
            wall: start.wall + Duration::from_secs(3600),
        };
        assert!(timer.is_due(woke));
        // A wall clock set back an hour shortens nothing.
        let set_back = Moment {
            mono: start.mono + Duration::from_secs(301),
            wall: start.wall - Duration::from_secs(3600),
        };
        assert!(timer.is_due(set_back));
    }
}
