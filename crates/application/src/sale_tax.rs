//! The tax before you sell, as the sell ticket and the payment form show it: the gain or loss
//! the sale would realise by the method in Settings, the lots it would consume, and the tax at
//! the income tax rate in Settings; or why it cannot be said.

use std::sync::{Arc, Mutex, Weak};

use chrono::Utc;
use nordlys_core::store::Store;
use nordlys_core::tax::gains::Method;
use nordlys_core::tax::sale_tax::{SaleBasis, SaleTax, SaleTaxRefusal};
use nordlys_money::{Btc, NokPerBtc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::card_views::{RefusalKind, RefusalView};
use crate::error::{Answer, AppError};
use crate::msg;
use crate::present::{Present, Viewer};
use crate::state::App;
use crate::tax_card::{Words, refusal};
use crate::tax_views::LotView;
use crate::wording::key;
use crate::wording::method_name;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SaleTaxView {
    /// "Gain NOK 100 000,00 by FIFO", or the loss.
    pub gain: Option<String>,
    /// "Tax at 22 %: NOK 22 000,00", or the reduction a loss gives.
    pub tax: Option<String>,
    pub lots: Vec<LotView>,
    pub refusal: Option<RefusalView>,
}

/// The last holding read, and the store it came from: a sell ticket is checked at every pause in
/// typing, and the history is read again only when it, the deposit costs, the profile or the
/// method have changed.
#[derive(Debug, Default)]
pub struct BasisSlot(Mutex<Option<(Weak<Store>, Arc<SaleBasis>)>>);

impl BasisSlot {
    /// The basis for `method` over `store`, read again when the one kept no longer holds.
    fn basis(&self, store: &Arc<Store>, method: Method) -> Option<Arc<SaleBasis>> {
        let kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.as_ref()
            .filter(|(from, b)| {
                Weak::ptr_eq(from, &Arc::downgrade(store)) && b.holds_for(store, method)
            })
            .map(|(_, b)| Arc::clone(b))
    }

    fn keep(&self, store: &Arc<Store>, basis: &Arc<SaleBasis>) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some((Arc::downgrade(store), Arc::clone(basis)));
    }
}

/// The tax a sale would bring: the sale by the method in Settings, or why it cannot be said.
#[derive(Debug, Clone)]
pub struct TaxOnSale {
    pub method: Method,
    pub found: Result<SaleTax, SaleTaxRefusal>,
    /// The income year it falls in.
    pub year: i32,
}

/// The tax on selling `btc` now at `price` (the bid, or the limit), from the synced history.
pub async fn tax_on_sale(app: &App, btc: Btc, price: NokPerBtc) -> Answer<TaxOnSale> {
    let (percent, method) = {
        let s = app.settings();
        (s.income_tax_percent(), s.tax_method.unwrap_or_default())
    };
    let store = app.tax_session().await?.store;
    let now = Utc::now();
    let basis = match app.tax.sale_basis.basis(&store, method) {
        Some(b) => b,
        None => {
            let reading = Arc::clone(&store);
            let b = tokio::task::spawn_blocking(move || SaleBasis::read(&reading, method))
                .await
                .map_err(AppError::fault)??;
            let b = Arc::new(b);
            app.tax.sale_basis.keep(&store, &b);
            b
        }
    };
    Ok(TaxOnSale {
        method,
        found: basis.tax(btc, price, percent, now),
        year: nordlys_core::time::oslo_year(&now),
    })
}

impl Present for TaxOnSale {
    type View = SaleTaxView;

    fn present(self, viewer: &Viewer) -> SaleTaxView {
        let (figures, zone) = (viewer.figures, viewer.zone);
        let locale = figures.locale;
        let method = self.method;
        let t = match self.found {
            Ok(t) => t,
            Err(no) => {
                let (why, (reason, fix)) = match no {
                    SaleTaxRefusal::NotSynced => (
                        RefusalKind::NotSynced,
                        (
                            crate::wording::say(key::SALE_TAX_NOT_SYNCED, locale),
                            crate::wording::say(key::SALE_TAX_SYNC, locale),
                        ),
                    ),
                    SaleTaxRefusal::Card(why) => (
                        RefusalKind::of(&why),
                        refusal(&why, self.year, Words { locale, zone }),
                    ),
                };
                return SaleTaxView {
                    gain: None,
                    tax: None,
                    lots: Vec::new(),
                    refusal: Some(RefusalView { why, reason, fix }),
                };
            }
        };
        let d = &t.disposal;
        let loss = d.gain_nok.is_negative();
        SaleTaxView {
            gain: Some(
                {
                    let amount =
                        figures.nok(nordlys_money::Nok::computed(d.gain_nok.decimal().abs()));
                    let method = method_name(method, locale);
                    if loss {
                        msg!(SALE_TAX_LOSS { amount, method })
                    } else {
                        msg!(SALE_TAX_GAIN { amount, method })
                    }
                }
                .render(locale),
            ),
            tax: Some(
                {
                    let amount = figures.nok(nordlys_money::Nok::computed(t.tax.decimal().abs()));
                    let percent = t.percent;
                    if loss {
                        msg!(SALE_TAX_REDUCTION { amount, percent })
                    } else {
                        msg!(SALE_TAX_TAX { amount, percent })
                    }
                }
                .render(locale),
            ),
            lots: crate::tax_views::disposal_view(d, method, figures, zone).lots,
            refusal: None,
        }
    }
}
