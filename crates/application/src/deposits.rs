//! Money arriving: each bitcoin deposit of the history (on-chain, Lightning address, LNURL or an
//! invoice made elsewhere) told once, by its row's id, with its amount and account, when first
//! seen; "on its way" while the row is pending. What arrived while Nordlys was closed is told in
//! one summary on the first look. A deposit that paid an invoice made in Nordlys was told by that
//! invoice's own notice.

use nordlys_core::store::{Store, UntoldDeposit};
use nordlys_money::Btc;
use rust_decimal::Decimal;

use crate::error::Answer;
use crate::notices::{Deposit, Told};
use crate::state::App;

/// How many deposits a summary names one by one; the rest it counts.
const NAMED: usize = 3;

/// Tells the deposits not told yet. The watch began when the history was first read (see
/// `tax::begin_sync`): what the history held then is not news, even when a long first read stores
/// it later; once the history has been read whole (`whole`), every deposit stored later is news,
/// whenever it was made. `first_look` is the first look of this run.
pub(crate) fn tell(app: &App, store: &Store, whole: bool, first_look: bool) -> Answer<()> {
    if whole {
        store.deposits().history_whole()?;
    }
    let taken = store.deposits().take_untold(chrono::Utc::now())?;
    let news: Vec<&UntoldDeposit> = taken.iter().filter(|d| d.paid_invoice.is_none()).collect();
    let names = store.tax().accounts()?;
    let account = |d: &UntoldDeposit| {
        let id = d.row.account_id.as_ref().map(ToString::to_string);
        names
            .iter()
            .find(|n| Some(&n.id) == id.as_ref())
            .map(|n| n.name.clone())
            .or(id)
            .unwrap_or_default()
    };
    let told = |d: &UntoldDeposit| Deposit {
        amount: amount(d),
        account: account(d),
        pending: d.row.finalize_time.is_none(),
    };
    if first_look && news.len() > 1 {
        let total = news
            .iter()
            .try_fold(Decimal::ZERO, |sum, d| sum.checked_add(amount(d).decimal()));
        app.tell(Told::DepositsWhileClosed {
            count: news.len(),
            total: total.map(Btc::computed),
            named: news.iter().take(NAMED).map(|d| told(d)).collect(),
            more: news.len().saturating_sub(NAMED),
        });
        return Ok(());
    }
    for d in news {
        app.tell(Told::Deposit(told(d)));
    }
    Ok(())
}

/// What a deposit brought; a row without an amount brought none that can be named.
fn amount(d: &UntoldDeposit) -> Btc {
    Btc::computed(d.row.in_amount.unwrap_or_default())
}
