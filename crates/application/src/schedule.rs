//! When the watcher looks at each thing: a pace per thing and per mode of the window (shown,
//! hidden, locked), and a backoff after errors, on a clock of whole seconds. Pure, so that the
//! app's run (a tick a second) and the budget test's virtual clock share every decision.
//!
//! The budget (ARCH.md): with nothing in motion, at most 24 requests a minute while the window
//! is shown, 6 while it is hidden and 3 while the app is locked, an alert on open orders
//! included; money in motion (an open invoice, a payment not yet settled, an unknown outcome)
//! adds what following it takes.

/// What the watcher follows, each at its own pace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watch {
    /// Open invoices, unsettled payments, unknown outcomes: a user is waiting on these.
    Money,
    Price,
    Balances,
    /// Volume statistics, which the exchange updates slowly.
    Market,
    /// The history's tail: new deposits, and rows of trades and payments made elsewhere.
    History,
    /// Open orders, read only while an alert follows them.
    Orders,
    /// Recurring buys: the store alone until a slot is due.
    Plans,
}

impl Watch {
    pub const ALL: [Self; 7] = [
        Self::Money,
        Self::Price,
        Self::Balances,
        Self::Market,
        Self::History,
        Self::Orders,
        Self::Plans,
    ];
}

/// How the user is with the app: the pace follows what they can see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Shown,
    /// The window is hidden or minimised (or closed to the tray).
    Hidden,
    Locked,
}

/// Seconds between looks at `watch` in `mode`.
pub fn pace(watch: Watch, mode: Mode) -> u64 {
    match (watch, mode) {
        (Watch::Money, Mode::Shown) => 2,
        (Watch::Money, _) => 5,
        (Watch::Price, Mode::Shown) => 5,
        (Watch::Price, Mode::Hidden) => 30,
        (Watch::Price, Mode::Locked) => 60,
        (Watch::Balances, Mode::Shown) => 15,
        (Watch::Balances, Mode::Hidden) => 60,
        (Watch::Balances, Mode::Locked) => 120,
        (Watch::Market, Mode::Shown) => 60,
        (Watch::Market, _) => 600,
        (Watch::History, Mode::Shown) => 60,
        (Watch::History, Mode::Hidden) => 120,
        (Watch::History, Mode::Locked) => 300,
        (Watch::Orders, Mode::Locked) => 120,
        (Watch::Orders, _) => 60,
        // A slot is due for six hours: a look every half minute runs it on time in any mode.
        (Watch::Plans, _) => 30,
    }
}

/// The longest wait after errors, in seconds.
const LONGEST_BACKOFF: u64 = 60;

/// One thing followed: when it was last looked at, and the wait after errors.
#[derive(Debug, Clone, Copy)]
pub struct Follow {
    pub watch: Watch,
    last: u64,
    /// After an error: doubling from the pace, up to a minute (or the pace, when longer).
    backoff: Option<u64>,
}

impl Follow {
    /// Followed from `now`: the first look is one pace later.
    pub fn new(watch: Watch, now: u64) -> Self {
        Self {
            watch,
            last: now,
            backoff: None,
        }
    }

    /// Whether a look is due at `now` in `mode`; a change of mode takes effect at once.
    pub fn is_due(&self, now: u64, mode: Mode) -> bool {
        let wait = self.backoff.unwrap_or_else(|| pace(self.watch, mode));
        now >= self.last.saturating_add(wait)
    }

    /// The look at `now` ended, well or not.
    pub fn looked(&mut self, now: u64, ok: bool, mode: Mode) {
        self.last = now;
        self.backoff = if ok {
            None
        } else {
            let pace = pace(self.watch, mode);
            let doubled = self.backoff.unwrap_or(pace).saturating_mul(2);
            Some(doubled.min(LONGEST_BACKOFF.max(pace)))
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Looks at each thing over `seconds` in `mode` with nothing failing.
    fn looks(mode: Mode, seconds: u64) -> [u64; 6] {
        let mut follows = Watch::ALL.map(|w| Follow::new(w, 0));
        let mut counts = [0; 6];
        for now in 0..seconds {
            for (f, c) in follows.iter_mut().zip(&mut counts) {
                if f.is_due(now, mode) {
                    f.looked(now, true, mode);
                    *c += 1;
                }
            }
        }
        counts
    }

    #[test]
    fn each_thing_is_looked_at_at_its_pace_and_less_when_no_one_sees_it() {
        assert_eq!(looks(Mode::Shown, 600), [299, 119, 39, 9, 9, 9]);
        assert_eq!(looks(Mode::Hidden, 600), [119, 19, 9, 0, 4, 9]);
        assert_eq!(looks(Mode::Locked, 600), [119, 9, 4, 0, 1, 4]);
    }

    #[test]
    fn errors_back_off_doubling_to_a_minute_and_a_success_returns_to_the_pace() {
        let mode = Mode::Shown;
        let mut f = Follow::new(Watch::Price, 0);
        let mut at = 0;
        let mut waits = vec![];
        for _ in 0..6 {
            while !f.is_due(at, mode) {
                at += 1;
            }
            waits.push(at);
            f.looked(at, false, mode);
        }
        let gaps: Vec<u64> = waits.windows(2).map(|w| w[1] - w[0]).collect();
        assert_eq!(gaps, [10, 20, 40, 60, 60]);
        f.looked(at, true, mode);
        assert!(!f.is_due(at + 4, mode) && f.is_due(at + 5, mode));
    }

    #[test]
    fn a_window_shown_again_is_caught_up_at_once() {
        let mut f = Follow::new(Watch::Price, 0);
        f.looked(0, true, Mode::Hidden);
        assert!(!f.is_due(10, Mode::Hidden));
        assert!(
            f.is_due(10, Mode::Shown),
            "the shown pace applies from the moment it is shown"
        );
    }
}
