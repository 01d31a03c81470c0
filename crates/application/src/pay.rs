//! Paying: the destination field's live checks, the travel-rule form, sending (journaled, sent
//! once, reconciled when the answer is lost), following each payment to the end, and the address
//! book of saved recipients.

use std::time::SystemTime;

use chrono::Utc;
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::destination::Destination;
use nordlys_core::format::{self, Figures, Locale};
use nordlys_core::pay_form::{self, Known, PayCheck, PayContext, PayForm};
use nordlys_core::store::{Recipient, Store, StoreError, WithdrawalEntry, WithdrawalState};
use nordlys_core::tax::{payment_info, row_amount_text};
use nordlys_core::travel_rule::{self, RecipientForm, RecipientProblem};
use nordlys_core::withdrawals::{self, Resolution, Sending};
use nordlys_exchange::models::TaxTransaction;
use nordlys_money::{Btc, NokPerBtc};

use crate::NoArgs;
use crate::error::{Answer, AppError, ErrorCode};
use crate::pay_views::*;
use crate::refusals;
use crate::state::{App, ProfileSession};
use crate::vocabulary::{DestinationKind, NetworkStatus};
use crate::wording::key;
use crate::wording::{self, Message};

fn form(args: &PayArgs) -> Answer<PayForm> {
    let unit = args.unit;
    Ok(PayForm {
        destination: args.destination.clone(),
        amount: args.amount.clone(),
        unit,
        account_id: args.account_id.clone().filter(|a| !a.is_empty()),
        is_payment: args.is_payment,
        description: args.description.clone(),
        recipient: args.recipient.clone(),
    })
}

/// Checks the form against the live price, the account's balance and the address book.
async fn checked(app: &App, args: &PayArgs) -> Answer<(PayForm, PayCheck, PayContext, PayShown)> {
    let mut form = form(args)?;
    let session = app.session().await?;
    let client = session.connection.client().clone();
    let price = app.bid_price().await?;
    let account = crate::shown_account::shown(app, &client, form.account_id.as_deref()).await?;
    // The account shown is the account sent.
    form.account_id = Some(account.id.to_string());
    let figures = app.figures();
    let ctx = PayContext {
        now: SystemTime::now(),
        locale: figures.locale,
        price,
        available_btc: account.available_btc,
    };
    let shown = PayShown {
        figures,
        account_name: account.name.clone(),
    };
    let store = session.store;
    let here = nordlys_core::account_identity::origin_here(&client, &store)
        .await?
        .identity;
    let check = pay_form::check(&form, &ctx, |dest| {
        let identity = dest.identity();
        Known {
            // A recipient whose details are sealed out of reach is not known: the form asks again;
            // nor is one saved for other accounts.
            saved: store
                .recipient(&identity)
                .ok()
                .flatten()
                .filter(|r| !r.locked && r.belongs_to(here)),
            used_before: store.destination_used(&identity).unwrap_or(false),
            own_invoice: match dest {
                Destination::Invoice(i) => store.is_own_invoice(&i.invoice).unwrap_or(false),
                _ => false,
            },
            paid_invoice: match dest {
                Destination::Invoice(i) => store.invoice_paid(&i.invoice).unwrap_or(false),
                _ => false,
            },
        }
    });
    Ok((form, check, ctx, shown))
}

/// What the form's words are written with: how amounts are shown, and the account's name.
struct PayShown {
    figures: Figures,
    account_name: String,
}

/// Names the form as the user sees it: the same fields give the same name, and any change gives
/// another. What the confirmation adds (the amount it showed, a second go-ahead) is not part of it.
fn fingerprint(args: &PayArgs) -> Answer<String> {
    use sha2::{Digest, Sha256};
    let form = PayArgs {
        despite_unknown: None,
        despite_recent: None,
        confirmed_amount_btc: None,
        reviewed: None,
        ..args.clone()
    };
    let text = serde_json::to_vec(&form).map_err(AppError::fault)?;
    Ok(Sha256::digest(&text)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The BTC amount confirmed for a payment typed in NOK, if it is still within 2 % of `now`.
fn confirmed_amount(text: &str, now: Btc) -> Answer<Btc> {
    use rust_decimal::Decimal;
    use std::str::FromStr;
    let confirmed = Decimal::from_str(text.trim())
        .ok()
        .and_then(|d| Btc::new(d).ok())
        .filter(|b| b.is_positive())
        .ok_or_else(|| AppError::said(ErrorCode::InvalidInput, key::CONFIRMED_AMOUNT_NOT_BTC))?;
    let drift = (confirmed - now).ratio(now).map(|d| d.abs());
    if drift.is_none_or(|d| d > Decimal::new(2, 2)) {
        return Err(AppError::said(
            ErrorCode::InvalidInput,
            key::PAYMENT_PRICE_MOVED,
        ));
    }
    Ok(confirmed)
}

/// A locked keyring is the user's to unlock, not an internal fault.
fn recipient_error(e: StoreError) -> AppError {
    match e {
        StoreError::RecipientsLocked => {
            AppError::said(ErrorCode::Keyring, key::SECRET_KEYRING_LOCKED)
        }
        e => AppError::fault(e),
    }
}

fn recipient_view(r: &Recipient) -> RecipientView {
    RecipientView {
        identity: r.identity.clone(),
        destination: r.destination.clone(),
        label: r.label.clone(),
        full_name: r.full_name.clone(),
        country: r.country.clone(),
        address: r.address.clone(),
        nin: r.nin.clone(),
        exchange: r.exchange.clone(),
        self_custody: r.self_custody,
        locked: r.locked,
    }
}

/// The confirmation's lines, for a form ready to send: what goes where, from which account.
fn summary(c: &PayCheck, ctx: &PayContext, shown: &PayShown, form: &PayForm) -> Vec<SummaryLine> {
    let (Some(request), Some(dest), Some(amount)) = (&c.request, &c.destination, c.amount_btc)
    else {
        return vec![];
    };
    let figures = shown.figures;
    let locale = figures.locale;
    let line = |label, value| SummaryLine {
        label: wording::say(label, locale),
        value,
    };
    let to = wording::destination(dest, ctx.now, figures);
    let wire = dest.wire();
    // The destination as sent, unless "To" already says it whole (a Lightning address).
    let wire = (!to.contains(&wire)).then(|| line(key::SUMMARY_DESTINATION, wire));
    let mut lines = vec![
        line(key::SUMMARY_AMOUNT, figures.btc(amount)),
        line(
            key::SUMMARY_VALUE,
            pay_form::nok_value(amount, ctx)
                .map_or_else(|| "—".to_owned(), |nok| format!("≈ {}", figures.nok(nok))),
        ),
        line(key::SUMMARY_TO, to),
    ];
    lines.extend(wire);
    lines.push(line(key::SUMMARY_FROM, shown.account_name.clone()));
    if let Some(r) = &request.tfr_info {
        let country = if r.country.is_empty() {
            String::new()
        } else {
            format!(" ({})", r.country)
        };
        lines.push(line(
            key::SUMMARY_RECIPIENT,
            format!("{}{country}", r.full_name),
        ));
    }
    if form.is_payment {
        lines.push(line(
            key::SUMMARY_MARKED_AS,
            wording::say(key::SUMMARY_PAYMENT, locale),
        ));
    }
    // The API states no fee before a withdrawal is sent: the confirmation says so rather than
    // leave the fee out.
    lines.push(line(
        key::SUMMARY_FEE,
        wording::say(
            if dest.is_lightning() {
                key::SUMMARY_FEE_LIGHTNING
            } else {
                key::SUMMARY_FEE_ONCHAIN
            },
            locale,
        ),
    ));
    lines
}

fn check_view(
    c: &PayCheck,
    ctx: &PayContext,
    shown: &PayShown,
    form: &PayForm,
    reviewed: String,
) -> PayCheckView {
    let figures = shown.figures;
    let (kind, expires_at) = match &c.destination {
        Some(Destination::Onchain { .. }) => (Some(DestinationKind::Onchain), None),
        Some(Destination::Invoice(i)) => (
            Some(DestinationKind::Invoice),
            Some(chrono::DateTime::<Utc>::from(i.expires_at).to_rfc3339()),
        ),
        Some(Destination::LightningAddress { .. }) => {
            (Some(DestinationKind::LightningAddress), None)
        }
        Some(Destination::Lnurl { .. }) => (Some(DestinationKind::Lnurl), None),
        _ => (None, None),
    };
    let link = match &c.destination {
        Some(Destination::Onchain { .. }) => {
            nordlys_core::destination::requested(&form.destination)
        }
        _ => nordlys_core::destination::Requested::default(),
    };
    let e = &c.recipient_errors;
    let locale = figures.locale;
    let field =
        |p: &Option<RecipientProblem>| p.as_ref().map(|p| wording::recipient_problem(p, locale));
    PayCheckView {
        ok: c.request.is_some(),
        amount_btc: c.amount_btc,
        destination_error: c
            .destination_error
            .as_ref()
            .map(|e| wording::destination_problem(e, locale)),
        recognised: c
            .destination
            .as_ref()
            .map(|d| wording::destination(d, ctx.now, figures)),
        kind,
        expires_at,
        fixed_amount: c.fixed_amount.map(|a| figures.btc(a)),
        link_amount_btc: link.amount_btc.map(|a| a.to_string()),
        link_label: link.label,
        amount_error: c
            .amount_error
            .as_ref()
            .map(|p| wording::amount_problem(p, figures)),
        estimate: c.estimate.map(|a| format!("≈ {}", figures.amount(a))),
        available: match pay_form::nok_value(ctx.available_btc, ctx) {
            Some(nok) => format!(
                "{} (≈ {})",
                figures.btc(ctx.available_btc),
                figures.nok(nok)
            ),
            None => figures.btc(ctx.available_btc),
        },
        needs_recipient: c.needs_recipient,
        saved_recipient: c.saved_recipient.as_ref().map(recipient_view),
        recipient_errors: RecipientErrorsView {
            full_name: field(&e.full_name),
            country: field(&e.country),
            address: field(&e.address),
            nin: field(&e.nin),
        },
        summary: summary(c, ctx, shown, form),
        reviewed,
        sale_tax: None,
    }
}

pub async fn check_payment(app: &App, args: PayArgs) -> Answer<PayCheckView> {
    let (form, check, ctx, shown) = checked(app, &args).await?;
    let mut view = check_view(&check, &ctx, &shown, &form, fingerprint(&args)?);
    // Paying with bitcoin is a sale at the market rate: what it would realise, at the bid.
    if form.is_payment
        && let Some(btc) = check.amount_btc.filter(|_| check.amount_error.is_none())
    {
        view.sale_tax = Some(crate::sale_tax::sale_tax_view(app, btc, ctx.price).await?);
    }
    Ok(view)
}

fn status_words(
    e: &WithdrawalEntry,
    store: &Store,
    locale: Locale,
) -> (Option<NetworkStatus>, String) {
    let say = |key| wording::say(key, locale);
    let status = e.status.as_ref().map(NetworkStatus::from);
    let text = match (e.state, status) {
        (WithdrawalState::Sent, Some(NetworkStatus::Completed)) => {
            say(key::PAYMENT_STATUS_COMPLETED)
        }
        (WithdrawalState::Sent, Some(NetworkStatus::Failed)) => say(key::PAYMENT_STATUS_FAILED),
        (WithdrawalState::Sent, Some(NetworkStatus::Pending) | None) => {
            say(key::PAYMENT_STATUS_PENDING)
        }
        (WithdrawalState::Sent, Some(NetworkStatus::Other)) => e
            .status
            .as_ref()
            .map(|s| s.as_str().to_owned())
            .unwrap_or_default(),
        (WithdrawalState::Sending | WithdrawalState::Unknown, _) => {
            say(key::PAYMENT_STATUS_UNKNOWN)
        }
        (WithdrawalState::NotSent, _) => say(key::PAYMENT_STATUS_NOT_SENT),
        (WithdrawalState::Rejected, _) => Message::new(key::PAYMENT_STATUS_REFUSED)
            .with("reason", refusals::reason(store, e.id, &e.note, locale))
            .render(locale),
    };
    (status, text)
}

/// A payment as listed; `bid` values its amount in NOK, as bitcoin paid away is worth;
/// `rows` are the stored withdrawal rows its transaction id is read from.
fn payment_view(
    e: &WithdrawalEntry,
    store: &Store,
    app: &App,
    bid: Option<NokPerBtc>,
    rows: &[TaxTransaction],
) -> PaymentView {
    let figures = app.figures();
    let locale = figures.locale;
    let (status, status_text) = status_words(e, store, locale);
    // The exchange's own row of a payment sent: its id, fee and the rate of its day.
    let listed = (e.state == WithdrawalState::Sent)
        .then(|| {
            payment_info::transfer_of(
                rows,
                &e.claimed,
                &e.destination,
                e.amount_btc.decimal(),
                e.sent_at,
            )
        })
        .flatten();
    let when_sent = listed
        .and_then(|(row, _)| row.rate_market)
        .and_then(|rate| e.amount_btc.value_at(rate))
        .map(|nok| (nok, WorthWhen::Sent));
    let now = || {
        bid.and_then(|b| e.amount_btc.value_at(b))
            .map(|nok| (nok, WorthWhen::Now))
    };
    PaymentView {
        journal_id: e.id.to_string(),
        sent_at: format::time(&e.sent_at, app.zone, locale),
        destination: e.destination.clone(),
        amount: figures.btc(e.amount_btc),
        worth: when_sent.or_else(now).map(|(nok, when)| PaymentWorth {
            nok: format!("≈ {}", figures.nok(nok)),
            when,
        }),
        fee: listed.and_then(|(row, _)| match (row.fee_amount, &row.fee_currency) {
            (Some(f), Some(c)) if !f.is_zero() => Some(row_amount_text(figures, f, c)),
            _ => None,
        }),
        state: e.state,
        status,
        status_text,
        withdrawal_id: e.withdrawal_id.clone(),
        network_id: listed.map(|(_, id)| id.to_owned()),
    }
}

/// The stored withdrawal rows the transaction ids of `entries` are read from.
fn transfer_rows(store: &Store, entries: &[WithdrawalEntry]) -> Answer<Vec<TaxTransaction>> {
    let Some(oldest) = entries.iter().map(|e| e.sent_at).min() else {
        return Ok(Vec::new());
    };
    Ok(store.tax_transfers_out_since(oldest - nordlys_core::evidence::CLOCK_SLACK)?)
}

fn entry(store: &Store, id: i64) -> Answer<WithdrawalEntry> {
    store
        .withdrawal_entry(id)?
        .ok_or_else(|| AppError::fault(format!("journal entry {id} is missing")))
}

pub async fn send_payment(app: &App, args: PayArgs) -> Answer<PaymentResultView> {
    let turn = app.money_turn().await;
    let locale = app.locale();
    // Only the form the user reviewed is sent: a confirmation armed for one form never sends
    // another that replaced it on screen.
    if args.reviewed.as_deref() != Some(fingerprint(&args)?.as_str()) {
        return Err(AppError::said(ErrorCode::NotReviewed, key::PAYMENT_CHANGED));
    }
    let (form, check, _, shown) = checked(app, &args).await?;
    let (Some(mut request), Some(dest), Some(mut amount)) = (
        check.request.clone(),
        check.destination.clone(),
        check.amount_btc,
    ) else {
        let destination = check
            .destination_error
            .as_ref()
            .map(wording::destination_problem_message);
        let amount = check
            .amount_error
            .as_ref()
            .map(|p| wording::amount_problem_message(p, shown.figures));
        let why = [destination, amount].into_iter().flatten().collect();
        let incomplete = key::PAYMENT_RECIPIENT_INCOMPLETE;
        return Err(AppError::all(ErrorCode::InvalidInput, why, incomplete));
    };
    // A payment typed in NOK sends the BTC amount the user confirmed, not one converted again
    // at a price that may have moved since; a move of more than 2 % asks for a new review.
    if form.unit == BitcoinAmountUnit::Nok
        && request.amount_btc.is_some()
        && let Some(text) = args.confirmed_amount_btc.as_deref()
    {
        let confirmed = confirmed_amount(text, amount)?;
        request.amount_btc = Some(confirmed);
        amount = confirmed;
    }
    // Nothing is journaled or sent without the lock's password when it asks for it.
    crate::lock::take_payment_allowance(app, args.reviewed.as_deref().unwrap_or_default())?;
    let ProfileSession {
        connection, store, ..
    } = app.session().await?;
    let identity = dest.identity();
    // Typed in NOK, the same payment is the same NOK: the bitcoin it makes moves with the price.
    let typed_nok = match nordlys_core::amount_input::parse_in(&form.amount, form.unit, locale) {
        Ok(nordlys_money::Amount::Nok(n)) => Some(n),
        _ => None,
    };
    let sending = withdrawals::send_typed(
        connection.client(),
        &store,
        &request,
        &identity,
        amount,
        typed_nok,
        args.despite_unknown.unwrap_or(false),
        args.despite_recent.unwrap_or(false),
        &turn,
    )
    .await
    .map_err(withdrawal_error)?;
    let (journal_id, message) = match sending {
        Sending::Sent {
            journal_id,
            warning,
            ..
        } => {
            let mut unsaved = None;
            // An invoice is paid once: it is never saved as a recipient.
            if args.save_recipient
                && !matches!(dest, Destination::Invoice(_))
                && check.saved_recipient.is_none()
                && let Ok(info) = travel_rule::check(&form.recipient)
            {
                let label = if args.label.trim().is_empty() {
                    dest.wire()
                } else {
                    args.label.trim().to_owned()
                };
                // The payment is sent whatever happens to this write.
                let here = nordlys_core::account_identity::origin_here(connection.client(), &store)
                    .await
                    .ok()
                    .and_then(|o| o.identity);
                let saved = store.save_recipient(&Recipient {
                    account_identity: here,
                    identity: identity.clone(),
                    destination: dest.wire(),
                    label,
                    full_name: info.full_name,
                    country: info.country,
                    address: info.address,
                    nin: info.nin,
                    exchange: info.exchange,
                    self_custody: info.self_custody,
                    locked: false,
                });
                if let Err(e) = saved {
                    unsaved = Some(e);
                }
            }
            let mut m = match warning {
                None => wording::say(key::PAYMENT_SENT, locale),
                Some(w) => Message::new(key::PAYMENT_SENT_NOT_RECORDED)
                    .with("reason", w)
                    .render(locale),
            };
            if let Some(e) = unsaved {
                m.push(' ');
                m.push_str(
                    &Message::new(key::PAYMENT_RECIPIENT_NOT_SAVED)
                        .with("reason", e.to_string())
                        .render(locale),
                );
            }
            // Its row is read into the history now, so the tax list shows it.
            crate::tax::begin_sync(app).await.ok();
            (journal_id, m)
        }
        Sending::Unknown { journal_id, .. } => {
            // The app's own check, once now; the payments list keeps checking until it is known.
            let r = withdrawals::reconcile_with(
                connection.client(),
                &store,
                journal_id,
                &app.timing().rules,
            )
            .await;
            let key = match r {
                Ok(Resolution::Sent { .. }) => key::PAYMENT_FOUND_SENT,
                Ok(Resolution::NotSent) => key::PAYMENT_NOT_SENT,
                _ => key::PAYMENT_UNKNOWN,
            };
            (journal_id, wording::say(key, locale))
        }
    };
    Ok(PaymentResultView {
        payment: {
            let e = entry(&store, journal_id)?;
            let rows = transfer_rows(&store, std::slice::from_ref(&e))?;
            payment_view(&e, &store, app, app.listing_bid(&store), &rows)
        },
        message,
    })
}

pub(crate) fn withdrawal_error(e: withdrawals::WithdrawalError) -> AppError {
    match e {
        withdrawals::WithdrawalError::SameAsRecent(_, at) => {
            let ago = (Utc::now() - at).num_seconds().max(0).unsigned_abs();
            AppError::new(
                ErrorCode::SameAsRecent,
                wording::Message::new(key::PAYMENT_SAME_AS_RECENT)
                    .nest("ago", wording::duration_message(ago))
                    .time("at", at),
            )
        }
        withdrawals::WithdrawalError::Exchange(inner) => AppError::of(inner),
        withdrawals::WithdrawalError::SameAsUnknown(_) => {
            AppError::said(ErrorCode::SameAsUnknown, key::PAYMENT_SAME_AS_UNKNOWN)
        }
        other => AppError::fault(other),
    }
}

/// The recent payments as the store has them; the watcher keeps them current.
pub async fn payments(app: &App, _args: NoArgs) -> Answer<PaymentsView> {
    let store = app.session().await?.store;
    let recent = store.withdrawals_recent(20)?;
    let bid = app.listing_bid(&store);
    let rows = transfer_rows(&store, &recent)?;
    Ok(PaymentsView {
        payments: recent
            .iter()
            .map(|e| payment_view(e, &store, app, bid, &rows))
            .collect(),
    })
}

/// The saved recipients of the accounts the profile's credential sees.
pub async fn recipients(app: &App, _args: NoArgs) -> Answer<RecipientsView> {
    let session = app.session().await?;
    let here = recipients_here(&session).await?;
    Ok(RecipientsView {
        recipients: session
            .store
            .recipients()?
            .iter()
            .filter(|r| r.belongs_to(here) && !r.is_invoice())
            .map(recipient_view)
            .collect(),
    })
}

/// The identity saved recipients are offered to now.
async fn recipients_here(
    session: &ProfileSession,
) -> Answer<Option<nordlys_core::store::IdentityId>> {
    Ok(
        nordlys_core::account_identity::origin_here(session.connection.client(), &session.store)
            .await?
            .identity,
    )
}

/// Edits a saved recipient; its travel-rule data is checked like the form's.
pub async fn save_recipient(app: &App, args: RecipientView) -> Answer<RecipientsView> {
    let session = app.session().await?;
    let here = recipients_here(&session).await?;
    let store = session.store;
    let Some(saved) = store
        .recipient(&args.identity)?
        .filter(|r| r.belongs_to(here))
    else {
        return Err(AppError::said(
            ErrorCode::InvalidInput,
            key::NO_SUCH_RECIPIENT,
        ));
    };
    // A recipient is the travel-rule data of one destination: an edit never moves it to another.
    if args.destination.trim() != saved.destination.trim() {
        return Err(AppError::said(
            ErrorCode::InvalidInput,
            key::RECIPIENT_DESTINATION_FIXED,
        ));
    }
    let form = RecipientForm {
        full_name: args.full_name.clone(),
        country: args.country.clone(),
        address: args.address.clone(),
        nin: args.nin.clone(),
        organisation: args.nin.trim().len() == 9,
        exchange: args.exchange.clone(),
        self_custody: args.self_custody,
    };
    let info = travel_rule::check(&form).map_err(|e| {
        let all = [e.full_name, e.address, e.country, e.nin]
            .into_iter()
            .flatten()
            .map(|p| wording::recipient_problem_message(&p))
            .collect();
        AppError::all(
            ErrorCode::InvalidInput,
            all,
            key::PAYMENT_RECIPIENT_INCOMPLETE,
        )
    })?;
    store
        .save_recipient(&Recipient {
            identity: args.identity,
            destination: saved.destination,
            label: args.label.trim().to_owned(),
            full_name: info.full_name,
            country: info.country,
            address: info.address,
            nin: info.nin,
            exchange: info.exchange,
            self_custody: info.self_custody,
            locked: false,
            account_identity: saved.account_identity.or(here),
        })
        .map_err(recipient_error)?;
    recipients(app, NoArgs {}).await
}

pub async fn delete_recipient(app: &App, args: IdentityArgs) -> Answer<RecipientsView> {
    app.session()
        .await?
        .store
        .delete_recipient(&args.identity)?;
    recipients(app, NoArgs {}).await
}

pub async fn countries(_app: &App, _args: NoArgs) -> Answer<CountriesView> {
    Ok(CountriesView {
        countries: travel_rule::countries()
            .into_iter()
            .map(|(code, name)| CountryView {
                code: code.to_owned(),
                name: name.to_owned(),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use nordlys_core::format::BtcUnit;

    use super::*;

    fn ctx(locale: Locale, price: rust_decimal::Decimal) -> PayContext {
        PayContext {
            now: SystemTime::now(),
            locale,
            price: nordlys_money::NokPerBtc::computed(price),
            available_btc: Btc::from_sats(1_000_000_000),
        }
    }

    fn shown(locale: Locale) -> PayShown {
        PayShown {
            figures: nordlys_core::format::Figures {
                locale,
                unit: BtcUnit::Btc,
                hidden: false,
            },
            account_name: "Hovedkonto".into(),
        }
    }

    fn form(amount: &str, is_payment: bool) -> PayForm {
        PayForm {
            destination: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4".into(),
            amount: amount.into(),
            unit: BitcoinAmountUnit::Btc,
            account_id: None,
            is_payment,
            description: String::new(),
            recipient: RecipientForm::default(),
        }
    }

    fn lines(
        locale: Locale,
        price: rust_decimal::Decimal,
        amount: &str,
        is_payment: bool,
    ) -> Vec<(String, String)> {
        let (f, c) = (form(amount, is_payment), ctx(locale, price));
        summary_of(&f, &c)
            .into_iter()
            .map(|l| (l.label, l.value))
            .collect()
    }

    /// The confirmation's lines for `f`, to a destination paid before and not saved.
    fn summary_of(f: &PayForm, c: &PayContext) -> Vec<SummaryLine> {
        let known = |_: &Destination| Known {
            saved: None,
            used_before: true,
            own_invoice: false,
            paid_invoice: false,
        };
        summary(&pay_form::check(f, c, known), c, &shown(c.locale), f)
    }

    #[test]
    fn the_confirmation_says_what_goes_where_in_the_user_s_language() {
        let nb = lines(
            Locale::Nb,
            rust_decimal::Decimal::from(1_000_000),
            "0.01",
            true,
        );
        let labels: Vec<&str> = nb.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "Beløp",
                "Verdi",
                "Til",
                "Mottaker-ID",
                "Fra",
                "Merket som",
                "Gebyr"
            ]
        );
        assert!(
            nb[6].1.starts_with("oppgis ikke av børsen"),
            "the fee the exchange does not state is said to be unstated: {}",
            nb[6].1
        );
        assert_eq!(nb[1].1, "≈ 10\u{a0}000,00\u{a0}kr");
        assert_eq!(nb[2].1, "Bitcoin-adresse (segwit), on-chain");
        let en = lines(
            Locale::En,
            rust_decimal::Decimal::from(1_000_000),
            "0.01",
            false,
        );
        assert_eq!(
            en[0],
            ("Amount".to_owned(), "0.01000000\u{a0}BTC".to_owned())
        );
        assert!(en.iter().all(|(l, _)| l != "Marked as"));
    }

    #[test]
    fn a_lightning_address_is_said_once_not_as_to_and_destination_both() {
        let f = PayForm {
            destination: "kari@example.com".into(),
            ..form("0.0001", false)
        };
        let c = ctx(Locale::En, rust_decimal::Decimal::from(1_000_000));
        let said: Vec<String> = summary_of(&f, &c)
            .into_iter()
            .map(|l| format!("{}: {}", l.label, l.value))
            .collect();
        assert_eq!(
            said.iter()
                .filter(|l| l.contains("kari@example.com"))
                .count(),
            1,
            "{said:?}"
        );
        // An address is not in the words for its kind: it keeps its own line.
        let onchain = lines(
            Locale::En,
            rust_decimal::Decimal::from(1_000_000),
            "0.01",
            false,
        );
        assert!(
            onchain.iter().any(|(_, v)| v.starts_with("bc1q")),
            "{onchain:?}"
        );
    }

    /// Found by the `pay_form` fuzz target: a price at `Decimal`'s edge has no NOK value to show.
    #[test]
    fn a_value_beyond_reckoning_shows_as_a_dash() {
        let en = lines(Locale::En, rust_decimal::Decimal::MAX, "2", false);
        assert_eq!(en[1], ("Value".to_owned(), "—".to_owned()));
    }
}
