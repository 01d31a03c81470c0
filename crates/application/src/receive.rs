//! Receiving: the standing destinations with their QR codes, Lightning invoices in BTC, sats or
//! NOK, their live status, and the list of recent invoices kept in the local store.

use chrono::{DateTime, Utc};
use nordlys_core::amount_input::{BitcoinAmountUnit, parse_in};
use nordlys_core::destination::{self, AskedAmount};
use nordlys_core::store::{Asked, StoredInvoice};
use nordlys_exchange::models::{Currency, InvoiceStatus, NewLightningInvoiceRequest};
use nordlys_money::{Amount, NokPerBtc};
use nordlys_render::qr;
use rust_decimal::Decimal;

use crate::NoArgs;
use crate::error::{Answer, AppError, ErrorCode};
use crate::msg;
use crate::receive_views::*;
use crate::state::App;

pub(crate) fn qr_view(text: &str, uri: String) -> Answer<QrView> {
    Ok(QrView {
        text: text.to_owned(),
        svg: qr::svg(&uri).map_err(AppError::fault)?,
        uri,
    })
}

pub async fn receive_destinations(app: &App, args: AccountArgs) -> Answer<ReceiveView> {
    let session = app.session().await?;
    let client = session.connection.client();
    // The account shown receives.
    let account = crate::shown_account::shown(app, client, args.account_id.as_deref())
        .await?
        .id;
    let d = client
        .deposit_destinations(Some(&account))
        .await
        .map_err(AppError::of)?;
    let address = d.onchain_address.destination.trim();
    let lnurl = d.lnurl_pay.destination.trim();
    let ln_address = d.lightning_address.destination.trim();
    // What is copied is what the code holds (address and LNURL both), in lower case: upper case
    // is only the code's saving.
    let unified = qr::unified_uri(address, None, lnurl)
        .map(|uri| qr_view(&uri.to_ascii_lowercase(), uri))
        .transpose()?;
    Ok(ReceiveView {
        onchain: qr_view(address, qr::bitcoin_uri(address))?,
        lightning_address: qr_view(ln_address, qr::lightning_uri(ln_address))?,
        lnurl: qr_view(lnurl, qr::lightning_uri(lnurl))?,
        unified,
    })
}

/// An invoice as the store keeps it, with its code when it is shown to be paid, and the price
/// its bitcoin is valued at.
#[derive(Debug, Clone)]
pub struct Invoice {
    pub stored: StoredInvoice,
    pub qr: Option<QrView>,
    pub price: Option<NokPerBtc>,
}

impl Invoice {
    fn with_qr(stored: StoredInvoice, price: Option<NokPerBtc>) -> Answer<Self> {
        Ok(Self {
            qr: Some(qr_view(
                &stored.invoice,
                qr::lightning_uri(&stored.invoice),
            )?),
            stored,
            price,
        })
    }
}

/// The recent invoices, newest first, without their codes.
#[derive(Debug, Clone)]
pub struct Invoices(pub Vec<StoredInvoice>);

pub async fn create_invoice(app: &App, args: InvoiceArgs) -> Answer<Invoice> {
    let locale = app.input_locale();
    let unit = args.unit;
    // An empty amount is an invoice for any amount (sent as 0).
    let (currency, amount, kept, asked) = if args.amount.trim().is_empty() {
        (Currency::Btc, Decimal::ZERO, Asked::Btc, AskedAmount::Any)
    } else {
        match parse_in(&args.amount, unit, locale)
            .map_err(|e| AppError::new(ErrorCode::InvalidInput, crate::wording::amount_input(&e)))?
        {
            // Asked for in sats, it is said in sats, whatever unit the window shows.
            Amount::Btc(b) => (
                Currency::Btc,
                b.decimal(),
                if unit == BitcoinAmountUnit::Sats {
                    Asked::Sats
                } else {
                    Asked::Btc
                },
                AskedAmount::Btc(b),
            ),
            Amount::Nok(n) => (
                Currency::Nok,
                n.decimal(),
                Asked::Nok(n),
                AskedAmount::Nok(n),
            ),
        }
    };
    let session = app.session().await?;
    let client = session.connection.client().clone();
    let account = crate::shown_account::shown(app, &client, args.account_id.as_deref())
        .await?
        .id;
    let created = client
        .create_invoice(&NewLightningInvoiceRequest {
            account_id: Some(account.clone()),
            currency,
            amount,
            public_description: args.public_description.trim().to_owned(),
            internal_description: args.private_note.trim().to_owned(),
        })
        .await
        .map_err(AppError::of)?;
    let info =
        destination::read_invoice(&created.invoice.trim().to_ascii_lowercase()).map_err(|e| {
            AppError::new(
                ErrorCode::Server,
                msg!(INVOICE_UNREADABLE {
                    reason: crate::wording::destination_problem_message(&e)
                }),
            )
        })?;
    // Never shown for paying unless it is the invoice asked for.
    destination::check_created(&info, &asked, args.public_description.trim()).map_err(|e| {
        AppError::new(
            ErrorCode::Server,
            crate::wording::created_invoice_problem(&e),
        )
    })?;
    let stored = StoredInvoice {
        id: created.deposit_destination_id.to_string(),
        invoice: info.invoice.clone(),
        account_id: Some(account.to_string()),
        amount_btc: info.amount_btc,
        asked: kept,
        public_description: args.public_description.trim().to_owned(),
        private_note: args.private_note.trim().to_owned(),
        status: InvoiceStatus::Unpaid,
        created_at: Utc::now(),
        expires_at: DateTime::<Utc>::from(info.expires_at),
        account_identity: None,
    };
    let mut stored = stored;
    stored.account_identity = nordlys_core::account_identity::origin_here(&client, &session.store)
        .await?
        .identity;
    session.store.invoices().add(&stored)?;
    Invoice::with_qr(stored, app.bid_price().await.ok())
}

/// An invoice as the store has it; the watcher keeps its status current.
pub async fn invoice_status(app: &App, args: InvoiceIdArgs) -> Answer<Invoice> {
    let stored = app
        .session()
        .await?
        .store
        .invoices()
        .by_id(&args.id)?
        .ok_or_else(|| {
            AppError::new(
                ErrorCode::InvalidInput,
                msg!(NO_SUCH_INVOICE {
                    id: args.id.clone()
                }),
            )
        })?;
    Invoice::with_qr(stored, app.bid_price().await.ok())
}

/// The recent invoices of the accounts the credential sees, as the store has them; the watcher
/// keeps open ones current.
pub async fn recent_invoices(app: &App, _args: NoArgs) -> Answer<Invoices> {
    let session = app.session().await?;
    let here =
        nordlys_core::account_identity::origin_here(session.connection.client(), &session.store)
            .await?
            .identity;
    Ok(Invoices(session.store.invoices().recent(20, here)?))
}
