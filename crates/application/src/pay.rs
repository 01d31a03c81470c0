//! Paying: the destination field's live checks, the travel-rule form, sending (journaled, sent
//! once, reconciled when the answer is lost), following each payment to the end, and the address
//! book of saved recipients.

use std::time::SystemTime;

use chrono::Utc;
use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::destination::Destination;
use nordlys_core::money_turn::MoneyTurn;
use nordlys_core::pay_form::{self, Known, PayCheck, PayContext, PayForm};
use nordlys_core::store::{Recipient, Sealed, Store, StoreError, WithdrawalEntry, WithdrawalState};
use nordlys_core::tax::payment_info;
use nordlys_core::travel_rule::{self, RecipientForm};
use nordlys_core::withdrawals::{self, Resolution, Sending};
use nordlys_exchange::models::TaxTransaction;
use nordlys_money::{Btc, NokPerBtc};

use crate::NoArgs;
use crate::confirmation::{self, Confirmation, PaymentReview};
use crate::error::{Answer, AppError, ErrorCode};
use crate::msg;
use crate::pay_views::*;
use crate::refusals::Refusal;
use crate::sale_tax::{TaxOnSale, tax_on_sale};
use crate::state::{App, ProfileSession};
use crate::wording;
use crate::wording::key;

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
async fn checked(
    app: &App,
    session: &ProfileSession,
    args: &PayArgs,
) -> Answer<(PayForm, PayCheck, PayContext, String)> {
    let mut form = form(args)?;
    let client = session.connection.client().clone();
    let price = app.bid_price().await?;
    let account = crate::shown_account::shown(app, &client, form.account_id.as_deref()).await?;
    // The account shown is the account sent.
    form.account_id = Some(account.id.to_string());
    let ctx = PayContext {
        now: SystemTime::now(),
        locale: app.input_locale(),
        price,
        available_btc: account.available_btc,
    };
    let store = &session.store;
    let here = nordlys_core::account_identity::origin_here(&client, store)
        .await?
        .identity;
    let check = pay_form::check(&form, &ctx, |dest| {
        let identity = dest.identity();
        Known {
            // A recipient whose details are sealed out of reach is not known: the form asks again;
            // nor is one saved for other accounts.
            saved: store
                .recipients()
                .get(&identity)
                .ok()
                .flatten()
                .filter(|r| !r.details.is_locked() && r.belongs_to(here)),
            used_before: store
                .withdrawals()
                .destination_used(&identity)
                .unwrap_or(false),
            own_invoice: match dest {
                Destination::Invoice(i) => store.invoices().is_own(&i.invoice).unwrap_or(false),
                _ => false,
            },
            paid_invoice: match dest {
                Destination::Invoice(i) => store
                    .withdrawals()
                    .invoice_paid(&i.invoice)
                    .unwrap_or(false),
                _ => false,
            },
        }
    });
    Ok((form, check, ctx, account.name))
}

/// The bitcoin the review showed for an amount typed in NOK, if it is still within 2 % of `now`:
/// what is sent, not an amount converted again at a price that moved since.
fn reviewed_amount(reviewed: Btc, now: Btc) -> Answer<Btc> {
    use rust_decimal::Decimal;
    let drift = (reviewed - now).ratio(now).map(|d| d.abs());
    if drift.is_none_or(|d| d > Decimal::new(2, 2)) {
        return Err(AppError::said(
            ErrorCode::InvalidInput,
            key::PAYMENT_PRICE_MOVED,
        ));
    }
    Ok(reviewed)
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

/// A payment form checked against the live price, the account and the address book, with what
/// its confirmation shows.
#[derive(Debug, Clone)]
pub struct PayChecked {
    pub form: PayForm,
    pub check: PayCheck,
    pub ctx: PayContext,
    /// The name of the account it is sent from.
    pub account_name: String,
    /// The one-time id sending names: the form as this check read it, held in the app. Empty
    /// while the form cannot be sent.
    pub reviewed: String,
    /// What paying, a sale at the market rate, would realise at the bid.
    pub sale_tax: Option<TaxOnSale>,
}

/// A payment form as its review checked it: what that review's id sends.
#[derive(Debug, Clone)]
pub struct PreparedPayment {
    pub args: PayArgs,
    /// The bitcoin the review showed: an amount typed in NOK sends this, not a new conversion.
    pub amount_btc: Option<Btc>,
}

pub async fn check_payment(app: &App, args: PayArgs) -> Answer<PayChecked> {
    let session = app.session().await?;
    let (form, check, ctx, account_name) = checked(app, &session, &args).await?;
    let sale_tax = match check.amount_btc.filter(|_| check.amount_error.is_none()) {
        Some(btc) if form.is_payment => Some(tax_on_sale(app, btc, ctx.price).await?),
        _ => None,
    };
    // Only a form that can be sent is held for sending.
    let reviewed = match check.request {
        Some(_) => {
            let prepared = PreparedPayment {
                args,
                amount_btc: check.amount_btc,
            };
            app.prepared
                .payments
                .hold(&session.profile.id, prepared)?
                .as_str()
                .to_owned()
        }
        None => String::new(),
    };
    Ok(PayChecked {
        reviewed,
        form,
        check,
        ctx,
        account_name,
        sale_tax,
    })
}

/// The stored withdrawal rows the transaction ids of `entries` are read from.
fn transfer_rows(store: &Store, entries: &[WithdrawalEntry]) -> Answer<Vec<TaxTransaction>> {
    let Some(oldest) = entries.iter().map(|e| e.sent_at).min() else {
        return Ok(Vec::new());
    };
    Ok(store
        .tax()
        .transfers_out_since(oldest - nordlys_core::evidence::CLOCK_SLACK)?)
}

fn entry(store: &Store, id: i64) -> Answer<WithdrawalEntry> {
    store
        .withdrawals()
        .entry(id)?
        .ok_or_else(|| AppError::fault(format!("journal entry {id} is missing")))
}

/// A payment as listed: its journal entry, the exchange's row of it once listed (with the
/// transfer's id), why the exchange refused it, and the bid it is valued at until it is listed.
#[derive(Debug, Clone)]
pub struct Payment {
    pub entry: WithdrawalEntry,
    pub listed: Option<(TaxTransaction, String)>,
    pub refused: Option<Refusal>,
    pub bid: Option<NokPerBtc>,
}

impl Payment {
    fn of(
        e: WithdrawalEntry,
        store: &Store,
        bid: Option<NokPerBtc>,
        rows: &[TaxTransaction],
    ) -> Self {
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
            .flatten()
            .map(|(row, id)| (row.clone(), id.to_owned()));
        let refused =
            (e.state == WithdrawalState::Rejected).then(|| Refusal::of(store, e.id, &e.note));
        Self {
            entry: e,
            listed,
            refused,
            bid,
        }
    }
}

/// The recent payments, newest first.
#[derive(Debug, Clone)]
pub struct Payments(pub Vec<Payment>);

/// What became of a payment sent from the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendOutcome {
    /// Sent; the journal's write failed after it (`unrecorded`), or saving its recipient did.
    Sent {
        unrecorded: Option<String>,
        recipient_not_saved: Option<String>,
    },
    /// The answer was lost, and the account shows it was sent.
    FoundSent,
    /// The answer was lost, and the account shows it was not.
    NotSent,
    /// The answer was lost, and it cannot be told yet.
    Unknown,
}

/// A payment sent from the form, and what became of it.
#[derive(Debug, Clone)]
pub struct PaymentSent {
    pub payment: Payment,
    pub outcome: SendOutcome,
}

/// Sends the payment reviewed under `args.reviewed`, in the money turn the caller holds, once the
/// user approved it outside the window. The id is used up by the send; a send that did not go
/// (cancelled, a second go-ahead asked for) keeps it.
pub async fn send_payment(
    app: &App,
    turn: &MoneyTurn,
    args: SendPaymentArgs,
) -> Answer<PaymentSent> {
    // One session for the whole send: the turn held keeps it the active profile's.
    let session = app.session().await?;
    let taken = app
        .prepared
        .payments
        .take(&args.reviewed, &session.profile.id)?;
    let sent = send_prepared(app, &session, turn, &taken.what, &args).await;
    app.prepared.payments.after(taken, &sent);
    sent
}

async fn send_prepared(
    app: &App,
    session: &ProfileSession,
    turn: &MoneyTurn,
    prepared: &PreparedPayment,
    send: &SendPaymentArgs,
) -> Answer<PaymentSent> {
    let locale = app.input_locale();
    let args = &prepared.args;
    // Checked again as it is now (the balance, the address book), from the form held here.
    let (form, check, ctx, account_name) = checked(app, session, args).await?;
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
            .map(|p| wording::amount_problem_message(p, None));
        let why = [destination, amount].into_iter().flatten().collect();
        let incomplete = key::PAYMENT_RECIPIENT_INCOMPLETE;
        return Err(AppError::all(ErrorCode::InvalidInput, why, incomplete));
    };
    // A payment typed in NOK sends the BTC amount the review showed, not one converted again
    // at a price that may have moved since; a move of more than 2 % asks for a new review.
    if form.unit == BitcoinAmountUnit::Nok
        && request.amount_btc.is_some()
        && let Some(reviewed) = prepared.amount_btc
    {
        let confirmed = reviewed_amount(reviewed, amount)?;
        request.amount_btc = Some(confirmed);
        amount = confirmed;
    }
    let ProfileSession {
        connection, store, ..
    } = session;
    // Typed in NOK, the same payment is the same NOK: the bitcoin it makes moves with the price.
    let typed_nok = match nordlys_core::amount_input::parse_in(&form.amount, form.unit, locale) {
        Ok(nordlys_money::Amount::Nok(n)) => Some(n),
        _ => None,
    };
    let despite_unknown = send.despite_unknown.unwrap_or(false);
    let despite_recent = send.despite_recent.unwrap_or(false);
    // The journal's questions come before the password and the dialog: the dialog's Send sends.
    withdrawals::asks_first(
        connection.client(),
        store,
        &request,
        amount,
        typed_nok,
        despite_unknown,
        despite_recent,
    )
    .map_err(withdrawal_error)?;
    // Nothing is journaled or sent without the lock's password when it asks for it.
    crate::lock::take_payment_allowance(app, &send.reviewed)?;
    // What the user approves is read back from the request itself, outside the window.
    let review = PaymentReview::of(&request, &account_name, Some(ctx.price), ctx.now)
        .ok_or_else(|| AppError::fault("the payment's request does not read back"))?;
    confirmation::ask(app, Confirmation::Payment(review)).await?;
    let identity = dest.identity();
    let sending = withdrawals::send_typed(
        connection.client(),
        store,
        &request,
        &identity,
        amount,
        typed_nok,
        despite_unknown,
        despite_recent,
        turn,
    )
    .await
    .map_err(withdrawal_error)?;
    let (journal_id, outcome) = match sending {
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
                let here = nordlys_core::account_identity::origin_here(connection.client(), store)
                    .await
                    .ok()
                    .and_then(|o| o.identity);
                let saved = store.recipients().save(&Recipient {
                    account_identity: here,
                    identity: identity.clone(),
                    destination: dest.wire(),
                    label,
                    details: Sealed::Open(info.into()),
                });
                if let Err(e) = saved {
                    unsaved = Some(e);
                }
            }
            // Its row is read into the history now, so the tax list shows it.
            crate::tax::begin_sync(app).await.ok();
            let outcome = SendOutcome::Sent {
                unrecorded: warning.map(|w| w.to_string()),
                recipient_not_saved: unsaved.map(|e| e.to_string()),
            };
            (journal_id, outcome)
        }
        Sending::Unknown { journal_id, .. } => {
            // The app's own check, once now; the payments list keeps checking until it is known.
            let r = nordlys_core::journal::reconcile::<WithdrawalEntry>(
                connection.client(),
                store,
                journal_id,
                &app.timing().rules,
            )
            .await;
            let outcome = match r {
                Ok(Resolution::Sent { .. }) => SendOutcome::FoundSent,
                Ok(Resolution::NotSent) => SendOutcome::NotSent,
                _ => SendOutcome::Unknown,
            };
            (journal_id, outcome)
        }
    };
    let e = entry(store, journal_id)?;
    let rows = transfer_rows(store, std::slice::from_ref(&e))?;
    Ok(PaymentSent {
        payment: Payment::of(e, store, app.listing_bid(store), &rows),
        outcome,
    })
}

pub(crate) fn withdrawal_error(e: withdrawals::WithdrawalError) -> AppError {
    match e {
        withdrawals::WithdrawalError::SameAsRecent(_, at) => {
            let ago = (Utc::now() - at).num_seconds().max(0).unsigned_abs();
            AppError::new(
                ErrorCode::SameAsRecent,
                msg!(PAYMENT_SAME_AS_RECENT {
                    ago: wording::duration_message(ago),
                    at: at
                }),
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
pub async fn payments(app: &App, _args: NoArgs) -> Answer<Payments> {
    let store = app.session().await?.store;
    let recent = store.withdrawals().recent(20)?;
    let bid = app.listing_bid(&store);
    let rows = transfer_rows(&store, &recent)?;
    Ok(Payments(
        recent
            .into_iter()
            .map(|e| Payment::of(e, &store, bid, &rows))
            .collect(),
    ))
}

/// The saved recipients of the accounts the profile's credential sees.
pub async fn recipients(app: &App, _args: NoArgs) -> Answer<RecipientsView> {
    let session = app.session().await?;
    let here = recipients_here(&session).await?;
    Ok(RecipientsView {
        recipients: session
            .store
            .recipients()
            .all()?
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
pub async fn save_recipient(app: &App, args: SaveRecipientArgs) -> Answer<RecipientsView> {
    let session = app.session().await?;
    let here = recipients_here(&session).await?;
    let store = session.store;
    let Some(saved) = store
        .recipients()
        .get(&args.identity)?
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
    let d = &args.details;
    let form = RecipientForm {
        full_name: d.full_name.clone(),
        country: d.country.clone(),
        address: d.address.clone(),
        nin: d.nin.clone(),
        organisation: d.nin.trim().len() == 9,
        exchange: d.exchange.clone(),
        self_custody: d.self_custody,
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
        .recipients()
        .save(&Recipient {
            identity: args.identity,
            destination: saved.destination,
            label: args.label.trim().to_owned(),
            details: Sealed::Open(info.into()),
            account_identity: saved.account_identity.or(here),
        })
        .map_err(recipient_error)?;
    recipients(app, NoArgs {}).await
}

pub async fn delete_recipient(app: &App, args: IdentityArgs) -> Answer<RecipientsView> {
    app.session()
        .await?
        .store
        .recipients()
        .delete(&args.identity)?;
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
