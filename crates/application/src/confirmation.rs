//! The confirmation outside the web view: before money moves, Rust derives what the user approves
//! from the exact request it is about to send and asks in a native dialog. Only that dialog's
//! "Send" sends; the window can ask for a send but never answer for the user.

use std::time::SystemTime;

use nordlys_core::destination::{self, Destination};
use nordlys_core::order_terms::Direction;
use nordlys_exchange::models::{NewOrderRequest, SendBitcoinRequest};
use nordlys_money::{Btc, Nok, NokPerBtc};

use crate::error::{Answer, AppError, ErrorCode};
use crate::present::Present;
use crate::state::App;
use crate::wording::key;

/// A withdrawal about to be sent, read back from its request.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentReview {
    /// The request's destination as parsed again: an invoice knows its payee and expiry.
    pub destination: Destination,
    pub amount: Btc,
    /// What `amount` is worth at the bid; none without a price.
    pub worth: Option<Nok>,
    pub account: String,
    /// The travel-rule recipient's name and country, when the request carries them.
    pub recipient: Option<(String, String)>,
    pub is_payment: bool,
}

impl PaymentReview {
    /// What `request` sends from the account named `account`, valued at `bid`. `None` when the
    /// request does not read back as a payment (no destination that parses, no amount).
    pub fn of(
        request: &SendBitcoinRequest,
        account: &str,
        bid: Option<NokPerBtc>,
        now: SystemTime,
    ) -> Option<Self> {
        // An invoice that expired since the form was checked still shows what it was for.
        let destination = destination::parse(&request.destination, now)
            .or_else(|_| destination::parse(&request.destination, SystemTime::UNIX_EPOCH))
            .ok()?;
        let amount = match (&destination, request.amount_btc) {
            (_, Some(a)) => a,
            (Destination::Invoice(i), None) => i.amount_btc?,
            _ => return None,
        };
        Some(Self {
            worth: bid.and_then(|p| amount.value_at(p)),
            destination,
            amount,
            account: account.to_owned(),
            recipient: request
                .tfr_info
                .as_ref()
                .map(|r| (r.full_name.clone(), r.country.clone())),
            is_payment: request.is_payment,
        })
    }
}

/// An order about to be placed, read back from its request.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderReview {
    pub buying: bool,
    /// NOK spent when buying, bitcoin sold when selling.
    pub amount: nordlys_money::Amount,
    /// The limit price; none at the market.
    pub price: Option<NokPerBtc>,
    pub account: String,
}

impl OrderReview {
    pub fn of(request: &NewOrderRequest, account: &str) -> Self {
        Self {
            buying: Direction::Buy.is(&request.direction),
            amount: Direction::amount_of(&request.direction, request.amount),
            price: request.price,
            account: account.to_owned(),
        }
    }
}

/// A recurring buy about to be kept, new or buying more than before: it spends unattended.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanReview {
    /// The terms as they are kept.
    pub terms: nordlys_core::plans::NewPlan,
    /// The name of the account it buys into, as the user knows it; none for the default account.
    pub account: Option<String>,
}

/// What the native dialog asks the user to approve.
#[derive(Debug, Clone, PartialEq)]
pub enum Confirmation {
    Payment(PaymentReview),
    Order(OrderReview),
    Plan(PlanReview),
}

/// Asks the user, in the desktop's own dialog, to approve `what`. Answers only once they chose:
/// `Ok` for "Send", an error that says nothing was sent for anything else.
pub async fn ask(app: &App, what: Confirmation) -> Answer<()> {
    let text = what.present(&app.viewer().shown());
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.desktop.confirm(
        &text,
        Box::new(move |answer| {
            // The use case may have given up waiting (the window closed): nothing to tell then.
            let _ = tx.send(answer);
        }),
    );
    match rx.await {
        Ok(Ok(true)) => Ok(()),
        Ok(Ok(false)) => Err(AppError::said(
            ErrorCode::NotConfirmed,
            key::SEND_NOT_CONFIRMED,
        )),
        Ok(Err(e)) => Err(AppError::new(
            ErrorCode::NotConfirmed,
            crate::msg!(SEND_NO_DIALOG { detail: e.0 }),
        )),
        Err(_) => Err(AppError::said(
            ErrorCode::NotConfirmed,
            key::SEND_NOT_CONFIRMED,
        )),
    }
}
