//! What crosses IPC for tax and history, in the UI's camelCase shapes, and the presenters that
//! word the tax use cases' facts for it. Amounts are formatted for the user's locale here; exports
//! carry the exact decimals instead.

use chrono::{DateTime, Utc};
use nordlys_core::format::{self, Figures, Locale};
use nordlys_core::tax::balances::BalanceIndex;
use nordlys_core::tax::gains::{Disposal, DisposalKind, GainsReport, Method};
use nordlys_core::tax::year_end::{RateSource, YearEnd};
use nordlys_core::time::Tz;
use nordlys_exchange::models::{CurrencyCode, TaxSubType, TaxTransaction, TaxTransactionType};
use nordlys_money::{Btc, CheckedSum, Nok};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::msg;
use crate::present::{Present, Viewer};
use crate::shown::{Show, ShownAmount, ShownBtc, ShownNok, ShownPrice};
use crate::tax::{ExchangeBalances, Names, SyncStatus, TaxChoices, TaxRowsPage, YearEnds};
use crate::vocabulary::{Report, SyncState};
use crate::wording::{Message, key};

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxFilterArgs {
    pub year: Option<i32>,
    pub account_id: Option<String>,
    pub tx_type: Option<String>,
    pub sub_type: Option<String>,
    pub search: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxRowsArgs {
    pub filter: TaxFilterArgs,
    pub offset: u32,
    /// At most 500.
    pub limit: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxRowView {
    pub id: String,
    /// Oslo time, `2025-01-02 10:00`.
    pub time: String,
    pub account: String,
    pub account_deleted: bool,
    /// In words for known kinds, the API's value as it is for unknown ones.
    pub kind: String,
    /// In words, as `kind`; empty for none.
    pub sub_type: String,
    /// BTC in minus BTC out, signed; none when no BTC moved.
    pub btc: Option<ShownBtc>,
    /// NOK in minus NOK out, signed; none when no NOK moved.
    pub nok: Option<ShownNok>,
    /// None when the row states none, or a zero fee.
    pub fee: Option<ShownAmount>,
    pub rate: Option<ShownPrice>,
    /// The account's balance after the row; none when the amounts cannot tell.
    pub running_balance: Option<ShownBtc>,
    pub note: String,
    /// `paymentInfo` as sent.
    pub payment_info: String,
    /// What `paymentInfo` says, read by the row's kind.
    pub payment: PaymentInfoView,
    pub is_payment: bool,
    /// No `finalizeTime` yet: the row may still change.
    pub pending: bool,
}

/// A tax row's `paymentInfo`, read as the operator publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum PaymentInfoView {
    None,
    /// A bitcoin transfer: its transaction id (on-chain) or payment hash (Lightning), and the
    /// address or destination.
    Transfer {
        #[serde(rename = "networkId")]
        network_id: String,
        destination: String,
    },
    /// A bank transfer's counterparty account.
    BankAccount {
        account: String,
    },
    /// Not in the published shape for its kind: shown as it came.
    Unreadable {
        text: String,
    },
    /// Text on a row whose kind has no published `paymentInfo`.
    Text {
        text: String,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxRowsView {
    /// Rows matching the filter, all of them, for the list's scroll height; given with the block
    /// at offset 0 only.
    pub total: Option<u32>,
    pub offset: u32,
    pub rows: Vec<TaxRowView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChoiceView {
    pub value: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MalformedView {
    pub id: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxFacetsView {
    pub years: Vec<i32>,
    pub accounts: Vec<ChoiceView>,
    pub types: Vec<ChoiceView>,
    pub sub_types: Vec<ChoiceView>,
    /// Rows the exchange sent that could not be read, with their ids.
    pub malformed: Vec<MalformedView>,
    pub stored: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxSyncView {
    pub state: SyncState,
    pub requests: u32,
    pub received: u32,
    pub stored: u32,
    pub malformed: u32,
    /// 0–1000: the share of the time from the first transaction to now already covered.
    pub permille: u16,
    /// The date reached, for "synced up to …".
    pub reached: String,
    /// Why a sync failed, or a short summary of one that ended.
    pub message: String,
    /// What kind of failure it was (`otherAccounts` offers to set the history aside).
    pub failure: Option<crate::error::ErrorCode>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxBalancesArgs {
    pub include_deleted: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxBalanceView {
    pub id: String,
    pub name: String,
    pub balance: ShownBtc,
    /// Empty unless the account is deleted.
    pub deleted: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxBalancesView {
    pub fiat: ShownNok,
    pub accounts: Vec<TaxBalanceView>,
    pub total_btc: ShownBtc,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HoldingView {
    pub account_id: String,
    pub account: String,
    pub deleted: bool,
    /// Or why the year's holding is not computable, with no amount.
    pub balance: ShownBtc,
    pub value: ShownNok,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct YearEndView {
    pub year: i32,
    /// False for the current year: its figures are "so far".
    pub complete: bool,
    /// "—" with no amount when the year has no rate.
    pub rate: ShownPrice,
    pub rate_source: String,
    /// The rate was entered by the user; it can be removed again.
    pub entered: bool,
    pub accounts: Vec<HoldingView>,
    pub total_btc: ShownBtc,
    pub total_nok: ShownNok,
    /// "not computable: pending since …" when a pending row touches the figures (then they say
    /// so too); `null` otherwise.
    pub not_computable: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct YearEndsView {
    pub years: Vec<YearEndView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GainsArgs {
    pub method: Method,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LotView {
    pub id: String,
    pub time: String,
    pub btc: ShownBtc,
    pub cost: ShownNok,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DisposalView {
    pub id: String,
    pub time: String,
    pub kind: DisposalKind,
    pub btc: ShownBtc,
    pub proceeds: ShownNok,
    pub cost: ShownNok,
    /// "gain NOK 100.00" or "loss NOK 231.57": a loss is called one, not a negative gain.
    pub result: String,
    pub lots: Vec<LotView>,
    /// BTC sold beyond what the history shows was bought; none when none.
    pub unmatched: Option<ShownBtc>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct YearGainsView {
    pub year: i32,
    pub disposals: u32,
    /// Each, or why the year is not computable, with no amount.
    pub proceeds: ShownNok,
    pub cost: ShownNok,
    pub gains: ShownNok,
    pub losses: ShownNok,
    pub net: ShownNok,
    /// "not computable: pending since …" when a pending row touches the figures (then they say
    /// so too); `null` otherwise.
    pub not_computable: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GainsView {
    pub method: String,
    pub years: Vec<YearGainsView>,
    /// The newest first, at most 500; the export has them all.
    pub disposals: Vec<DisposalView>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportArgs {
    pub kind: Report,
    /// For `transactions`.
    pub filter: TaxFilterArgs,
    /// For `gains`.
    pub method: Method,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportView {
    /// Where the file went; none when the user closed the dialog.
    pub path: Option<String>,
    pub lines: u32,
    pub bytes: u32,
    /// What the file leaves out and why (a card's figures that are not computable): said
    /// beside "Saved", so a file that is not the whole return is never taken for one.
    #[serde(default)]
    #[ts(optional)]
    pub left_out: Option<String>,
}

impl Present for SyncStatus {
    type View = TaxSyncView;

    fn present(self, viewer: &Viewer) -> TaxSyncView {
        let (zone, locale) = (viewer.zone, viewer.locale());
        let p = &self.progress;
        let n = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        TaxSyncView {
            state: self.state,
            requests: p.requests,
            received: n(p.received),
            stored: n(p.stored),
            malformed: n(p.malformed),
            permille: p.permille,
            reached: p.reached.map(|t| day(&t, zone, locale)).unwrap_or_default(),
            message: self
                .failure
                .as_ref()
                .map(|(_, m)| m.render(locale))
                .unwrap_or_default(),
            failure: self.failure.as_ref().map(|(code, _)| *code),
        }
    }
}

fn day(t: &DateTime<Utc>, zone: Tz, locale: Locale) -> String {
    format::date(t.with_timezone(&zone).date_naive(), locale)
}

fn kind_words(kind: &TaxTransactionType, locale: Locale) -> String {
    use TaxTransactionType as T;
    let key = match kind {
        T::BtcBuy => key::TAX_KIND_BUY,
        T::BtcSell => key::TAX_KIND_SELL,
        T::BtcWithdrawal => key::TAX_KIND_WITHDRAWAL,
        T::BtcDeposit => key::TAX_KIND_DEPOSIT,
        T::BtcBonus => key::TAX_KIND_BONUS,
        T::FiatDeposit => key::TAX_KIND_NOK_DEPOSIT,
        T::FiatWithdrawal => key::TAX_KIND_NOK_WITHDRAWAL,
        T::BtcAdjustment => key::TAX_KIND_BTC_ADJUSTMENT,
        T::FiatAdjustment => key::TAX_KIND_NOK_ADJUSTMENT,
        other => return other.as_str().to_owned(),
    };
    crate::wording::say(key, locale)
}

/// A row's sub-kind in words; empty for none, the API's value as it is for one not known.
fn sub_type_words(sub: &TaxSubType, locale: Locale) -> String {
    use TaxSubType as S;
    let key = match sub {
        S::Empty | S::Unspecified => return String::new(),
        S::Market => key::TAX_SUB_MARKET,
        S::Limit => key::TAX_SUB_LIMIT,
        S::Manual => key::TAX_SUB_MANUAL,
        S::Onchain => key::TAX_SUB_ONCHAIN,
        S::Lightning => key::TAX_SUB_LIGHTNING,
        S::Internal => key::TAX_SUB_INTERNAL,
        S::InternalExternal => key::TAX_SUB_INTERNAL_EXTERNAL,
        S::LightningPaymentRequest => key::TAX_SUB_LIGHTNING_INVOICE,
        S::LightningAddress => key::TAX_SUB_LIGHTNING_ADDRESS,
        S::LightningLnurl => key::TAX_SUB_LIGHTNING_LNURL,
        S::Bank => key::TAX_SUB_BANK,
        S::Card => key::TAX_SUB_CARD,
        S::WriteOff => key::TAX_SUB_WRITE_OFF,
        S::Correction => key::TAX_SUB_CORRECTION,
        other => return other.as_str().to_owned(),
    };
    crate::wording::say(key, locale)
}

fn net(t: &TaxTransaction, currency: &CurrencyCode) -> Option<Decimal> {
    let side = |v: Option<Decimal>, c: &Option<CurrencyCode>| match (v, c) {
        (Some(v), Some(c)) if c == currency => Some(v),
        _ => None,
    };
    let inflow = side(t.in_amount, &t.in_currency);
    let outflow = side(t.out_amount, &t.out_currency);
    if inflow.is_none() && outflow.is_none() {
        return None;
    }
    Some(inflow.unwrap_or_default() - outflow.unwrap_or_default())
}

/// What a report figure that a pending row touches says instead of a number.
fn not_computable(since: &DateTime<Utc>, zone: Tz, locale: Locale) -> String {
    msg!(TAX_NOT_COMPUTABLE {
        since: day(since, zone, locale)
    })
    .render(locale)
}

fn payment_view(t: &TaxTransaction) -> PaymentInfoView {
    use nordlys_core::tax::payment_info::{PaymentInfo, read};
    match read(t) {
        PaymentInfo::None => PaymentInfoView::None,
        PaymentInfo::Transfer {
            network_id,
            destination,
        } => PaymentInfoView::Transfer {
            network_id: network_id.to_owned(),
            destination: destination.to_owned(),
        },
        PaymentInfo::BankAccount(a) => PaymentInfoView::BankAccount {
            account: a.to_owned(),
        },
        PaymentInfo::Unreadable(text) => PaymentInfoView::Unreadable {
            text: text.to_owned(),
        },
        PaymentInfo::Text(text) => PaymentInfoView::Text {
            text: text.to_owned(),
        },
    }
}

fn row_view(
    t: &TaxTransaction,
    names: &Names,
    zone: Tz,
    figures: Figures,
    balances: &BalanceIndex,
) -> TaxRowView {
    let locale = figures.locale;
    let account = t
        .account_id
        .as_ref()
        .map(|a| a.as_str())
        .unwrap_or_default();
    let fee = match (t.fee_amount, &t.fee_currency) {
        (Some(f), Some(c)) if !f.is_zero() => Some(figures.shown_row_amount(f, c)),
        _ => None,
    };
    TaxRowView {
        id: t.id.as_str().to_owned(),
        time: format::time(&t.create_time, zone, locale),
        account: if account.is_empty() {
            "NOK".into()
        } else {
            names.name(account)
        },
        account_deleted: names.deleted(account),
        kind: kind_words(&t.tx_type, locale),
        sub_type: sub_type_words(&t.sub_type, locale),
        btc: net(t, &CurrencyCode::Btc).map(|d| figures.shown_btc(Btc::computed(d))),
        nok: net(t, &CurrencyCode::Nok).map(|d| figures.shown_nok(Nok::computed(d))),
        fee,
        rate: t.rate_market.map(|r| figures.shown_price(r)),
        // The account's balance after the row, from the amounts: `runningBalanceBtc` is read
        // two ways (the account's or the user's total) and is kept as sent in the CSV.
        running_balance: balances.after(t.id.as_str()).map(|b| figures.shown_btc(b)),
        note: t.note.clone(),
        payment_info: t.payment_info.clone(),
        payment: payment_view(t),
        is_payment: t.is_payment,
        pending: t.finalize_time.is_none(),
    }
}

impl Present for TaxRowsPage {
    type View = TaxRowsView;

    fn present(self, viewer: &Viewer) -> TaxRowsView {
        TaxRowsView {
            total: self.total,
            offset: self.offset,
            rows: self
                .rows
                .iter()
                .map(|t| row_view(t, &self.names, viewer.zone, viewer.figures, &self.balances))
                .collect(),
        }
    }
}

impl Present for TaxChoices {
    type View = TaxFacetsView;

    fn present(self, viewer: &Viewer) -> TaxFacetsView {
        let locale = viewer.locale();
        let TaxChoices {
            facets,
            names,
            malformed,
            stored,
        } = self;
        TaxFacetsView {
            years: facets.years,
            accounts: facets
                .accounts
                .iter()
                .map(|id| ChoiceView {
                    value: id.clone(),
                    label: if names.deleted(id) {
                        msg!(TAX_ACCOUNT_DELETED {
                            name: names.name(id)
                        })
                        .render(locale)
                    } else {
                        names.name(id)
                    },
                })
                .collect(),
            types: facets
                .types
                .iter()
                .map(|t| ChoiceView {
                    value: t.clone(),
                    label: kind_words(&TaxTransactionType::from(t.as_str()), locale),
                })
                .collect(),
            sub_types: facets
                .sub_types
                .iter()
                .map(|s| ChoiceView {
                    value: s.clone(),
                    label: match sub_type_words(&TaxSubType::from(s.as_str()), locale) {
                        words if words.is_empty() => "—".to_owned(),
                        words => words,
                    },
                })
                .collect(),
            malformed: malformed
                .into_iter()
                .map(|m| MalformedView {
                    id: m.id,
                    reason: m.reason,
                })
                .collect(),
            stored,
        }
    }
}

impl Present for ExchangeBalances {
    type View = TaxBalancesView;

    fn present(self, viewer: &Viewer) -> TaxBalancesView {
        let (figures, zone) = (viewer.figures, viewer.zone);
        let locale = figures.locale;
        let b = self.bitcoin;
        TaxBalancesView {
            fiat: figures.shown_nok(self.fiat),
            total_btc: figures.shown_btc_sum(
                b.bitcoin_accounts
                    .iter()
                    .map(|a| a.balance_btc)
                    .checked_sum(),
            ),
            accounts: b
                .bitcoin_accounts
                .iter()
                .map(|acc| TaxBalanceView {
                    id: acc.id.as_str().to_owned(),
                    name: acc.name.clone(),
                    balance: figures.shown_btc(acc.balance_btc),
                    deleted: acc
                        .delete_time
                        .map(|t| day(&t, zone, locale))
                        .unwrap_or_default(),
                })
                .collect(),
        }
    }
}

/// Why a year's holding is not a figure, in words: a pending row, rows whose running balance
/// contradicts the computed balances, or amounts too large to add.
fn year_end_blocked(y: &YearEnd, zone: Tz, locale: Locale) -> Option<String> {
    if let Some(since) = &y.pending_since {
        return Some(not_computable(since, zone, locale));
    }
    if y.overflowed {
        return Some(crate::wording::say(
            key::TAX_NOT_COMPUTABLE_OVERFLOW,
            locale,
        ));
    }
    y.contradiction.as_ref().map(|c| {
        msg!(TAX_NOT_COMPUTABLE_CONTRADICTED {
            ids: c.ids.join(", "),
            rows: c.rows
        })
        .render(locale)
    })
}

/// `figure()`, or why the year's holding is not computable (words with no amount).
fn unless_blocked<T>(
    y: &YearEnd,
    zone: Tz,
    locale: Locale,
    instead: impl FnOnce(String) -> T,
    figure: impl FnOnce() -> T,
) -> T {
    year_end_blocked(y, zone, locale).map_or_else(figure, instead)
}

impl Present for YearEnds {
    type View = YearEndsView;

    fn present(self, viewer: &Viewer) -> YearEndsView {
        let (figures, zone) = (viewer.figures, viewer.zone);
        let locale = figures.locale;
        let YearEnds { years, names } = self;
        let nok = |d: Option<Nok>| {
            d.map_or_else(|| ShownNok::instead("—".into()), |d| figures.shown_nok(d))
        };
        YearEndsView {
            years: years
                .iter()
                .rev()
                .map(|y| YearEndView {
                    year: y.year,
                    complete: y.complete,
                    rate: y.rate_nok.map_or_else(
                        || ShownPrice::instead("—".into()),
                        |r| figures.shown_price(r),
                    ),
                    rate_source: crate::wording::rate_source(&y.source, locale),
                    entered: matches!(
                        y.source,
                        RateSource::Entered
                            | RateSource::EnteredViaUsd { .. }
                            | RateSource::Sample { .. }
                    ),
                    accounts: y
                        .accounts
                        .iter()
                        .map(|h| HoldingView {
                            account_id: h.account_id.clone(),
                            account: names.name(&h.account_id),
                            deleted: names.deleted(&h.account_id),
                            balance: unless_blocked(y, zone, locale, ShownBtc::instead, || {
                                figures.shown_btc(h.balance_btc)
                            }),
                            value: unless_blocked(y, zone, locale, ShownNok::instead, || {
                                nok(h.value_nok)
                            }),
                        })
                        .collect(),
                    total_btc: unless_blocked(y, zone, locale, ShownBtc::instead, || {
                        figures.shown_btc(y.total_btc)
                    }),
                    total_nok: unless_blocked(y, zone, locale, ShownNok::instead, || {
                        nok(y.total_nok)
                    }),
                    not_computable: year_end_blocked(y, zone, locale),
                })
                .collect(),
        }
    }
}

impl Present for GainsReport {
    type View = GainsView;

    fn present(self, viewer: &Viewer) -> GainsView {
        let (figures, zone) = (viewer.figures, viewer.zone);
        let locale = figures.locale;
        let report = self;
        let nok = |d: Nok| figures.shown_nok(d);
        GainsView {
            method: crate::wording::method_name(report.method, locale),
            years: report
                .years
                .iter()
                .rev()
                .map(|y| {
                    let blocked = y
                        .pending_since
                        .map(|t| not_computable(&t, zone, locale))
                        .or_else(|| {
                            (y.unknown_disposals > 0).then(|| {
                                msg!(GAINS_NOT_COMPUTABLE_UNKNOWN {
                                    count: u64::from(y.unknown_disposals)
                                })
                                .render(locale)
                            })
                        })
                        .or_else(|| {
                            y.too_large.then(|| {
                                Message::new(key::TAX_NOT_COMPUTABLE_OVERFLOW).render(locale)
                            })
                        });
                    let figure = |n: Nok| blocked.clone().map_or_else(|| nok(n), ShownNok::instead);
                    YearGainsView {
                        year: y.year,
                        disposals: y.disposals,
                        proceeds: figure(y.proceeds_nok),
                        cost: figure(y.cost_nok),
                        gains: figure(y.gains_nok),
                        losses: figure(y.losses_nok),
                        net: figure(y.net_nok),
                        not_computable: blocked.clone(),
                    }
                })
                .collect(),
            disposals: report
                .disposals
                .iter()
                .rev()
                .take(500)
                .map(|d| disposal_view(d, report.method, figures, zone))
                .collect(),
            notes: report
                .notes
                .iter()
                .map(|n| crate::wording::gains_note(n, locale))
                .collect(),
        }
    }
}

/// A disposal and the lots it consumed, each figure to the øre.
/// A disposal's gain or loss in words; "not computable" when a cost or a proceeds is not known,
/// as the card says, rather than a figure worked from zeros.
fn disposal_result(d: &Disposal, figures: Figures) -> String {
    let m = if !d.unknown.is_empty() {
        Message::new(key::DISPOSAL_NOT_COMPUTABLE)
    } else if d.gain_nok.is_negative() {
        msg!(DISPOSAL_LOSS {
            nok: figures.nok(Nok::computed(d.gain_nok.decimal().abs()))
        })
    } else {
        msg!(DISPOSAL_GAIN {
            nok: figures.nok(d.gain_nok)
        })
    };
    m.render(figures.locale)
}

pub(crate) fn disposal_view(
    d: &Disposal,
    method: Method,
    figures: Figures,
    zone: Tz,
) -> DisposalView {
    let locale = figures.locale;
    let nok = |d: Nok| figures.shown_nok(d);
    DisposalView {
        id: d.id.clone(),
        time: format::time(&d.at, zone, locale),
        kind: d.kind,
        btc: figures.shown_btc(d.btc),
        proceeds: nok(d.proceeds_nok),
        cost: nok(d.cost_nok),
        result: disposal_result(d, figures),
        lots: d
            .lots
            .iter()
            .map(|l| LotView {
                id: l.acquisition_id.as_deref().map_or_else(
                    || crate::wording::method_name(method, locale),
                    str::to_owned,
                ),
                time: l
                    .acquired_at
                    .as_ref()
                    .map(|t| format::time(t, zone, locale))
                    .unwrap_or_default(),
                btc: figures.shown_btc(l.btc),
                cost: nok(l.cost_nok),
            })
            .collect(),
        unmatched: (!d.unmatched_btc.is_zero()).then(|| figures.shown_btc(d.unmatched_btc)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use nordlys_core::format::BtcUnit;
    use nordlys_core::tax::gains::Unknown;

    use super::*;

    /// Found trying the app as a new user: the list and its filter showed the API's sub-kinds
    /// (`lightning-payment-request`). Every published one is in words in both languages.
    #[test]
    fn every_published_sub_kind_is_in_words_in_both_languages() {
        let published = [
            "market",
            "limit",
            "manual",
            "onchain",
            "lightning",
            "internal",
            "internal-external",
            "lightning-payment-request",
            "lightning-address",
            "lightning-lnurl",
            "bank",
            "card",
            "write_off",
            "correction",
        ];
        for locale in [Locale::En, Locale::Nb] {
            for raw in published {
                let words = sub_type_words(&TaxSubType::from(raw), locale);
                assert!(
                    !words.is_empty() && !words.contains("tax-sub"),
                    "{raw}: {words}"
                );
                assert!(!raw.contains(['-', '_']) || words != raw, "{raw}: {words}");
            }
            assert_eq!(sub_type_words(&TaxSubType::Empty, locale), "");
            // One the exchange adds later is shown as it came.
            assert_eq!(sub_type_words(&TaxSubType::from("swap"), locale), "swap");
        }
    }

    fn sale(gain: i64, unknown: Vec<Unknown>) -> Disposal {
        Disposal {
            id: "tr_1".into(),
            account_id: None,
            at: DateTime::<Utc>::UNIX_EPOCH,
            year: 2025,
            kind: DisposalKind::Sale,
            btc: Btc::from_sats(1000),
            proceeds_nok: Nok::computed(Decimal::from(1000)),
            cost_nok: Nok::computed(Decimal::from(1000 - gain)),
            gain_nok: Nok::computed(Decimal::from(gain)),
            lots: Vec::new(),
            unmatched_btc: Btc::ZERO,
            unknown,
        }
    }

    #[test]
    fn a_loss_is_called_a_loss_and_an_unknown_cost_no_figure() {
        let figures = Figures {
            locale: Locale::En,
            unit: BtcUnit::Btc,
            hidden: false,
        };
        let said = |d: Disposal| disposal_result(&d, figures);
        assert!(
            said(sale(-231, vec![])).starts_with("loss"),
            "{}",
            said(sale(-231, vec![]))
        );
        assert!(!said(sale(-231, vec![])).contains('\u{2212}'));
        assert!(!said(sale(-231, vec![])).contains('-'));
        assert!(said(sale(100, vec![])).starts_with("gain"));
        let unknown = vec![Unknown::DepositCost {
            deposit_id: "tr_0".into(),
            at: "2024-01-10T10:00:00Z".parse().unwrap(),
        }];
        assert!(!said(sale(100, unknown)).chars().any(|c| c.is_ascii_digit()));
    }
}
