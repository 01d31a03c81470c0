//! What the Receive screen exchanges with the use cases of `receive`: standing deposit
//! destinations with their QR codes, and Lightning invoices with their live status.

use nordlys_core::amount_input::BitcoinAmountUnit;
use nordlys_core::format::{BtcUnit, Figures, Locale};
use nordlys_core::store::{Asked, StoredInvoice};
use nordlys_exchange::models::InvoiceStatus;
use nordlys_money::{Amount, NokPerBtc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::present::{Present, Viewer};
use crate::receive::{Invoice, Invoices};
use crate::shown::{Show, ShownAmount, ShownBtc, ShownNok};
use crate::vocabulary::InvoiceState;
use crate::wording::key;

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountArgs {
    /// Empty or none: the first listed, the one the window shows (never the exchange's
    /// unnamed "default account").
    pub account_id: Option<String>,
}

/// A destination ready to show: the text to copy, the URI in the QR code, and the code itself.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QrView {
    pub text: String,
    pub uri: String,
    pub svg: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReceiveView {
    pub onchain: QrView,
    pub lightning_address: QrView,
    pub lnurl: QrView,
    /// Address and LNURL in one BIP21 code, when the address is bech32.
    pub unified: Option<QrView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceArgs {
    pub account_id: Option<String>,
    /// As typed; empty for any amount.
    pub amount: String,
    pub unit: BitcoinAmountUnit,
    pub public_description: String,
    pub private_note: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    pub id: String,
    pub invoice: String,
    /// Only for the invoice on screen, not in lists.
    pub qr: Option<QrView>,
    /// As it was asked for: in NOK or sats when typed so, else in the unit the user prefers; or
    /// "any amount" (words with no amount).
    pub amount: ShownAmount,
    /// The same amount the other way, one figure only: the bitcoin of one asked for in NOK...
    pub also_btc: Option<ShownBtc>,
    /// ...else what it is worth now at the bid (about).
    pub also_nok: Option<ShownNok>,
    pub public_description: String,
    pub private_note: String,
    pub status: InvoiceState,
    pub status_text: String,
    /// RFC 3339, for the countdown.
    pub expires_at: String,
    /// When it was made, on the user's clock.
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct InvoicesView {
    pub invoices: Vec<InvoiceView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
pub struct InvoiceIdArgs {
    pub id: String,
}

fn status_words(status: &InvoiceStatus, locale: Locale) -> (InvoiceState, String) {
    let state = InvoiceState::from(status);
    let key = match state {
        InvoiceState::Unpaid => key::INVOICE_UNPAID,
        InvoiceState::Pending => key::INVOICE_PENDING,
        InvoiceState::Paid => key::INVOICE_PAID,
        InvoiceState::Expired => key::INVOICE_EXPIRED,
        InvoiceState::Canceled => key::INVOICE_CANCELLED,
        InvoiceState::Other => return (state, status.as_str().to_owned()),
    };
    (state, crate::wording::say(key, locale))
}

fn invoice_view(
    i: &StoredInvoice,
    qr: Option<QrView>,
    price: Option<NokPerBtc>,
    viewer: &Viewer,
) -> InvoiceView {
    let figures = viewer.figures;
    let locale = figures.locale;
    let (status, status_text) = status_words(&i.status, locale);
    InvoiceView {
        id: i.id.clone(),
        invoice: i.invoice.clone(),
        qr,
        amount: match (i.asked, i.amount_btc) {
            (Asked::Nok(nok), _) => figures.shown_amount(Amount::Nok(nok)),
            (Asked::Sats, Some(a)) => Figures {
                unit: BtcUnit::Sats,
                ..figures
            }
            .shown_amount(Amount::Btc(a)),
            (Asked::Btc, Some(a)) => figures.shown_amount(Amount::Btc(a)),
            (Asked::Btc | Asked::Sats, None) => {
                ShownAmount::instead(crate::wording::say(key::INVOICE_ANY_AMOUNT, locale))
            }
        },
        also_btc: match (i.asked, i.amount_btc) {
            (Asked::Nok(_), Some(a)) => Some(figures.shown_btc(a)),
            _ => None,
        },
        also_nok: match (i.asked, i.amount_btc) {
            (Asked::Btc | Asked::Sats, Some(a)) => price
                .and_then(|p| a.value_at(p))
                .map(|nok| figures.shown_nok(nok)),
            _ => None,
        },
        public_description: i.public_description.clone(),
        private_note: i.private_note.clone(),
        status,
        status_text,
        expires_at: i.expires_at.to_rfc3339(),
        created_at: viewer.time(&i.created_at),
    }
}

impl Present for Invoice {
    type View = InvoiceView;

    fn present(self, viewer: &Viewer) -> InvoiceView {
        invoice_view(&self.stored, self.qr, self.price, viewer)
    }
}

impl Present for Invoices {
    type View = InvoicesView;

    fn present(self, viewer: &Viewer) -> InvoicesView {
        InvoicesView {
            invoices: self
                .0
                .iter()
                .map(|i| invoice_view(i, None, None, viewer))
                .collect(),
        }
    }
}
