//! Sends prepared in Rust and held under a one-time id. The review gives the window the id, and
//! sending names only the id: what is sent is what Rust prepared and the native confirmation
//! showed, whatever the window does between review and send.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::{Answer, AppError, ErrorCode};
use crate::wording::key;

/// How many reviews are held at once: the form is checked as the user types, and only the last
/// few can still be confirmed.
const HELD: usize = 16;

/// How long a review can be confirmed: long enough to read it, short enough that a forgotten one
/// is not sent much later.
const VALID_FOR: Duration = Duration::from_secs(30 * 60);

/// A review's one-time id: 128 random bits, as hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendId(String);

impl SendId {
    fn new() -> Answer<Self> {
        let mut bits = [0u8; 16];
        getrandom::fill(&mut bits).map_err(|e| AppError::fault(e.to_string()))?;
        Ok(Self(bits.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The id as the window holds it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug)]
struct Held<T> {
    id: SendId,
    /// The profile it was prepared for: never sent under another.
    profile: String,
    made: Instant,
    what: T,
}

/// The prepared sends of one kind, newest last.
#[derive(Debug)]
pub struct Prepared<T> {
    held: Mutex<VecDeque<Held<T>>>,
}

impl<T> Default for Prepared<T> {
    fn default() -> Self {
        Self {
            held: Mutex::new(VecDeque::new()),
        }
    }
}

impl<T> Prepared<T> {
    fn held(&self) -> std::sync::MutexGuard<'_, VecDeque<Held<T>>> {
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Holds `what`, prepared for `profile`, and answers the id that sends it.
    pub fn hold(&self, profile: &str, what: T) -> Answer<SendId> {
        let id = SendId::new()?;
        self.put(id.clone(), profile, what);
        Ok(id)
    }

    fn put(&self, id: SendId, profile: &str, what: T) {
        let mut held = self.held();
        held.retain(|h| h.made.elapsed() < VALID_FOR);
        while held.len() >= HELD {
            held.pop_front();
        }
        held.push_back(Held {
            id,
            profile: profile.to_owned(),
            made: Instant::now(),
            what,
        });
    }

    /// Takes what `id` holds for `profile`: once, and only while it is valid. Anything else is a
    /// send the user did not review here.
    pub fn take(&self, id: &str, profile: &str) -> Answer<Taken<T>> {
        let mut held = self.held();
        let at = held
            .iter()
            .position(|h| h.id.0 == id && h.profile == profile && h.made.elapsed() < VALID_FOR);
        let Some(h) = at.and_then(|at| held.remove(at)) else {
            return Err(AppError::said(
                ErrorCode::NotReviewed,
                key::SEND_NOT_REVIEWED,
            ));
        };
        Ok(Taken {
            id: h.id,
            profile: h.profile,
            what: h.what,
        })
    }

    /// After the send of `taken`: holds it again under its id when `answer` says nothing went
    /// and the user may go on without a new review (a cancelled confirmation, a refusal that a
    /// second go-ahead or the lock's password answers); anything else used it up.
    pub fn after<R>(&self, taken: Taken<T>, answer: &Answer<R>) {
        let may_go_on = |code| {
            matches!(
                code,
                ErrorCode::NotConfirmed
                    | ErrorCode::SameAsRecent
                    | ErrorCode::SameAsUnknown
                    | ErrorCode::PasswordNeeded
            )
        };
        if let Err(e) = answer
            && may_go_on(e.code)
        {
            self.put(taken.id, &taken.profile, taken.what);
        }
    }
}

/// What the app holds for the sends reviewed: the payment forms and the order forms, each as
/// the review checked it.
#[derive(Debug, Default)]
pub struct PreparedPart {
    pub(crate) payments: Prepared<crate::pay::PreparedPayment>,
    pub(crate) orders: Prepared<nordlys_core::order_form::OrderForm>,
}

/// A prepared send taken out to be sent.
#[derive(Debug)]
pub struct Taken<T> {
    id: SendId,
    profile: String,
    pub what: T,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_sends_once_for_its_own_profile_only() {
        let prepared = Prepared::default();
        let id = prepared.hold("a", 1).unwrap();
        assert!(prepared.take(id.as_str(), "b").is_err());
        let taken = prepared.take(id.as_str(), "a").unwrap();
        assert_eq!(taken.what, 1);
        let again = prepared.take(id.as_str(), "a").unwrap_err();
        assert_eq!(again.code, ErrorCode::NotReviewed);
    }

    #[test]
    fn an_id_given_back_can_be_taken_again_and_unknown_ids_never() {
        let prepared = Prepared::default();
        let id = prepared.hold("a", 7).unwrap();
        let taken = prepared.take(id.as_str(), "a").unwrap();
        let cancelled: Answer<()> = Err(AppError::said(
            ErrorCode::NotConfirmed,
            key::SEND_NOT_CONFIRMED,
        ));
        prepared.after(taken, &cancelled);
        assert_eq!(prepared.take(id.as_str(), "a").unwrap().what, 7);
        assert!(prepared.take("", "a").is_err());
        assert!(prepared.take("not an id", "a").is_err());
    }

    #[test]
    fn a_send_that_went_or_failed_otherwise_uses_its_id_up() {
        let prepared = Prepared::default();
        for answer in [Ok(()), Err(AppError::fault("the store"))] {
            let id = prepared.hold("a", 1).unwrap();
            let taken = prepared.take(id.as_str(), "a").unwrap();
            prepared.after(taken, &answer);
            assert!(prepared.take(id.as_str(), "a").is_err());
        }
    }

    #[test]
    fn only_the_newest_reviews_are_held() {
        let prepared = Prepared::default();
        let first = prepared.hold("a", 0).unwrap();
        let ids: Vec<_> = (1..=HELD).map(|n| prepared.hold("a", n).unwrap()).collect();
        assert!(prepared.take(first.as_str(), "a").is_err());
        assert_eq!(
            prepared.take(ids[HELD - 1].as_str(), "a").unwrap().what,
            HELD
        );
        assert_ne!(ids[0], ids[1]);
        assert_eq!(ids[0].as_str().len(), 32);
    }
}
