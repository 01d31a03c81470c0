//! The app's one poller of money in motion: it follows the active profile's open invoices and its
//! payments not yet settled, records what the exchange says, notifies the user of what arrived
//! or ended, and tells the window what changed. The screens read the store; they do not poll the
//! exchange themselves.

use std::time::Duration;

use chrono::Utc;
use nordlys_core::format;
use nordlys_core::recheck::{Due, recheck};
use nordlys_core::store::{JournalKind, WithdrawalState};
use nordlys_core::withdrawals;
use nordlys_exchange::models::InvoiceStatus;

use crate::error::Answer;
use crate::state::App;
pub use crate::vocabulary::Change;
use crate::vocabulary::NetworkStatus;
use crate::wording;

/// How often money in motion is looked at, and the longest wait after errors.
const EVERY: Duration = Duration::from_secs(2);
const LONGEST: Duration = Duration::from_secs(60);

/// Runs until the app ends: one look every 2 s, backing off (doubling, up to a minute) while the
/// exchange cannot be reached.
pub async fn run(app: &App) {
    let mut wait = EVERY;
    loop {
        tokio::time::sleep(wait).await;
        wait = match look(app).await {
            Ok(changes) => {
                for c in changes {
                    app.desktop.changed(c);
                }
                EVERY
            }
            Err(_) => (wait * 2).min(LONGEST),
        };
    }
}

/// One look: open invoices asked for their status (a payment is announced), payments whose
/// outcome is unknown checked against the account, sent ones followed on their network (an end
/// is announced, and the history's tail read so the tax list shows it). Returns what changed.
pub async fn look(app: &App) -> Answer<Vec<Change>> {
    let session = app.session().await?;
    let (client, store) = (session.connection.client(), &session.store);
    let locale = app.locale();
    let mut changes = vec![];

    // An invoice is looked at until the exchange says it ended (paid, expired, cancelled); one
    // that expired a month ago and was never heard of since is left as it was last seen.
    let since = Utc::now() - chrono::Duration::days(30);
    let mut invoices_changed = false;
    for i in store.invoices_open(since)? {
        let answer = client.invoice(&i.id).await?;
        let before = store.set_invoice_status(&i.id, &answer.status)?;
        if before.as_ref() == Some(&answer.status) {
            continue;
        }
        invoices_changed = true;
        if answer.status == InvoiceStatus::Paid {
            let amount = i
                .amount_btc
                .map(|a| format::btc(a, app.settings().unit, locale))
                .unwrap_or_default();
            let body = format!("{amount} {}", i.public_description)
                .trim()
                .to_owned();
            app.desktop
                .notify(&wording::say("invoice-paid-title", locale), &body);
        }
    }
    if invoices_changed {
        changes.push(Change::Invoices);
    }

    // One that stays unknown is looked at again on the next look.
    let looked = recheck(client, store, &app.timing().rules, Due::Now).await?;
    let mut settled = false;
    for (id, kind) in looked {
        if kind == JournalKind::Withdrawal
            && let Some(e) = store.withdrawal_entry(id)?
        {
            settled |= !matches!(e.state, WithdrawalState::Unknown | WithdrawalState::Sending);
        }
    }
    let ended = withdrawals::track(client, store)
        .await
        .map_err(crate::pay::withdrawal_error)?;
    for c in &ended {
        let title = match NetworkStatus::from(&c.status) {
            NetworkStatus::Completed => "payment-completed-title",
            NetworkStatus::Failed => "payment-failed-title",
            _ => continue,
        };
        let amount = format::btc(c.entry.amount_btc, app.settings().unit, locale);
        app.desktop.notify(
            &wording::say(title, locale),
            &format!("{amount} → {}", c.entry.destination),
        );
    }
    if !ended.is_empty() {
        // A payment that ended has its row in the history now: the tax list shows it.
        crate::tax::begin_sync(app).await.ok();
    }
    if settled || !ended.is_empty() {
        changes.push(Change::Payments);
    }
    Ok(changes)
}
