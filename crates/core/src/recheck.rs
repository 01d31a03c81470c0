//! Looking again at every order and withdrawal whose outcome is unknown. One look at the account
//! serves all of them, and a request long in doubt is looked at less and less often: each look
//! reads every tax row since the oldest request it judges, and an unknown limit order may stay
//! unknown for good, so the whole history since it was sent is read at most a few times a day.

use chrono::{Duration, Utc};
use nordlys_exchange::ExchangeClient;

use crate::evidence::{Look, Rules};
use crate::journal::{self, Entry};
use crate::orders;
use crate::store::{JournalKind, Store, StoreError};

/// Which unknown entries a recheck looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Every one (the user asked, or is about to act on an open order).
    All,
    /// Those not looked at for their [`interval`].
    Now,
}

/// How long a request given up on `in_doubt` ago waits between looks: at most every 5 s in
/// its first hour (the watcher asks every 2 s, the Trade screen and the banner on their own
/// timers: one look serves them all), then every 10 minutes, hourly after a day, and every six
/// hours after a week.
fn interval(in_doubt: Duration) -> Duration {
    if in_doubt < Duration::hours(1) {
        Duration::seconds(5)
    } else if in_doubt < Duration::days(1) {
        Duration::minutes(10)
    } else if in_doubt < Duration::days(7) {
        Duration::hours(1)
    } else {
        Duration::hours(6)
    }
}

/// Checks the unresolved entries sent to the exchange `client` talks to that are `due`, with one
/// look at the account, and records each verdict. Returns the entries it looked at, oldest
/// first. An entry this process is still sending is left to its sender.
pub async fn recheck(
    client: &ExchangeClient,
    store: &Store,
    rules: &Rules,
    due: Due,
) -> Result<Vec<(i64, JournalKind)>, StoreError> {
    let here = crate::account_identity::origin_here(client, store).await?;
    let now = Utc::now();
    let is_due = |id: i64, gave_up_at, sent_at| -> Result<bool, StoreError> {
        if store.in_flight(id) {
            return Ok(false);
        }
        if due == Due::All {
            return Ok(true);
        }
        let in_doubt = rules
            .gave_up(gave_up_at, sent_at, now)
            .map_or(Duration::zero(), |g| now - g);
        Ok(store
            .journal()
            .last_checked(id)?
            .is_none_or(|at| now - at >= interval(in_doubt)))
    };
    let mut due_now = Vec::new();
    let mut looked = Vec::new();
    for e in Entry::unresolved(store)? {
        // A queued rung never left: no look at the account can say more than its queue.
        if let Entry::Order(o) = &e
            && o.queued
        {
            if orders::settle_stale_queued(store, o, rules)? {
                looked.push((e.id(), e.kind()));
            }
            continue;
        }
        if e.origin().judged_through(&here) && is_due(e.id(), e.gave_up_at(), e.sent_at())? {
            due_now.push(e);
        }
    }
    let Some(since) = due_now.iter().map(Entry::sent_at).min() else {
        return Ok(looked);
    };
    let look = Look::take(client, since, due_now.iter().any(Entry::reads_fiat)).await;
    for e in &due_now {
        journal::record(store, e, &look, rules)?;
        looked.push((e.id(), e.kind()));
    }
    looked.sort_by_key(|(id, _)| *id);
    Ok(looked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_long_in_doubt_is_looked_at_less_and_less_often() {
        let looks_a_day =
            |in_doubt: Duration| Duration::days(1).num_seconds() / interval(in_doubt).num_seconds();
        assert_eq!(looks_a_day(Duration::minutes(30)), 17_280);
        assert_eq!(looks_a_day(Duration::hours(2)), 144);
        assert_eq!(looks_a_day(Duration::days(2)), 24);
        assert_eq!(looks_a_day(Duration::days(30)), 4);
        // Never slower than that: a verdict can still come.
        assert_eq!(interval(Duration::days(3650)), Duration::hours(6));
    }
}
