//! Why the exchange refused a request the journal keeps, in the user's language: the kind of
//! trouble its own answer was, kept with the entry's evidence (`seen::Trouble`). An entry an
//! older version kept has only its note, the client's English, shown as it was.

use nordlys_core::format::Locale;
use nordlys_core::seen::{Seen, Trouble};
use nordlys_core::store::Store;

use crate::wording;

/// The trouble the request's own answer was, when its evidence kept it.
fn answered(store: &Store, journal_id: i64) -> Option<Trouble> {
    store
        .journal()
        .evidence(journal_id)
        .ok()?
        .into_iter()
        .rev()
        .find_map(|e| match e.seen {
            Seen::Answered { trouble, .. } => trouble,
            _ => None,
        })
}

/// Why the exchange refused a request, as its evidence shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The kind of trouble the request's own answer was.
    Answered(Trouble),
    /// An entry kept before answers were facts: the journal's note, the client's English.
    Noted(String),
}

impl Refusal {
    /// Why the entry `journal_id`, whose note is `note`, was refused.
    pub fn of(store: &Store, journal_id: i64, note: &str) -> Self {
        match answered(store, journal_id) {
            Some(t) => Self::Answered(t),
            None => Self::Noted(note.to_owned()),
        }
    }

    /// In `locale`.
    pub fn words(&self, locale: Locale) -> String {
        match self {
            Self::Answered(t) => wording::trouble(t).render(locale),
            Self::Noted(note) => note.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use chrono::Utc;
    use nordlys_core::seen::Read;
    use nordlys_core::store::Evidence;

    use super::*;

    #[test]
    fn a_refusal_reads_in_the_language_from_its_answer_and_an_old_one_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite")).unwrap();
        let answer = Evidence {
            at: Utc::now(),
            read: Read::SendWithdrawal,
            seen: Seen::Answered {
                error: "POST /v1/withdrawals/bitcoin: the exchange answered HTTP 400: no".into(),
                trouble: Some(Trouble::Status {
                    status: 400,
                    message: "insufficient funds".into(),
                }),
            },
        };
        store.journal().add_evidence(7, &[answer]).unwrap();
        let nb = Refusal::of(&store, 7, "the English note").words(Locale::Nb);
        assert_eq!(nb, "børsen svarte HTTP 400: insufficient funds");
        assert_eq!(
            Refusal::of(&store, 8, "the English note").words(Locale::Nb),
            "the English note"
        );
    }
}
