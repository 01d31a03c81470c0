//! What crosses IPC for the tax return's card: the card of a year as the window shows it (each
//! field with its filed value to copy, the exact figure, the rows it came from, or why it is not
//! computable), the year-end rate's sources, deposits' costs, and the card's exports.

use nordlys_core::tax::card::{NoRate, Why};
use nordlys_core::tax::gains::Method;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::tax_views::DisposalView;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardArgs {
    /// `null`: last year (or the first year of the history, when it began this year).
    pub year: Option<i32>,
    pub method: Method,
    pub per_account: bool,
}

/// A field of the card, in the order the tax return asks for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum CardField {
    Landkode,
    Navn,
    Kontonummer,
    Antall,
    Formuesverdi,
    Gevinst,
    Tap,
    AnnenKapitalinntekt,
    Boersnavn,
}

impl From<nordlys_core::tax::card::Field> for CardField {
    fn from(f: nordlys_core::tax::card::Field) -> Self {
        use nordlys_core::tax::card::Field;
        match f {
            Field::Antall => Self::Antall,
            Field::Formuesverdi => Self::Formuesverdi,
            Field::Gevinst => Self::Gevinst,
            Field::Tap => Self::Tap,
            Field::AnnenKapitalinntekt => Self::AnnenKapitalinntekt,
        }
    }
}

/// Why a figure is refused, as a fact the window and the tests act on; `reason` and `fix` word
/// it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum RefusalKind {
    /// No source chosen for the year-end rate.
    NoRateChosen,
    /// No row before the year's end carries a market rate.
    NoRateInHistory,
    /// Nordlys took no price sample near the year's end.
    NoPriceSample,
    /// The rates entered multiply past what a number holds.
    RatesOutOfRange,
    Pending,
    UnknownType,
    Malformed,
    SoldMoreThanBought,
    BalanceContradicted,
    AmountsOverflow,
    /// A proceeds, cost or value the history does not give.
    UnknownValue,
    /// No tax history is stored (the tax before selling).
    NotSynced,
}

impl RefusalKind {
    pub fn of(why: &Why) -> Self {
        match why {
            Why::NoYearEndRate(NoRate::NotChosen) => Self::NoRateChosen,
            Why::NoYearEndRate(NoRate::NoTransaction) => Self::NoRateInHistory,
            Why::NoYearEndRate(NoRate::NoSample) => Self::NoPriceSample,
            Why::NoYearEndRate(NoRate::OutOfRange) => Self::RatesOutOfRange,
            Why::Pending { .. } => Self::Pending,
            Why::UnknownType { .. } => Self::UnknownType,
            Why::Malformed { .. } => Self::Malformed,
            Why::SoldMoreThanBought { .. } => Self::SoldMoreThanBought,
            Why::BalanceContradicted { .. } => Self::BalanceContradicted,
            Why::AmountsOverflow => Self::AmountsOverflow,
            Why::Unknown { .. } => Self::UnknownValue,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RefusalView {
    pub why: RefusalKind,
    pub reason: String,
    pub fix: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardFieldView {
    pub field: CardField,
    /// The schema's name (`formuesverdiForVirtuellEiendel`).
    pub schema: String,
    /// The field's name on the tax return, in the user's language.
    pub label: String,
    /// What is typed into the tax return (whole kroner, 10 decimals); `null` when not
    /// computable, or hidden by privacy mode.
    pub filed: Option<String>,
    /// As the window shows it: the filed value, or the mask.
    pub shown: String,
    /// The exact figure, to the øre (NOK) or the satoshi; empty for a text field.
    pub exact: String,
    /// The rows the figure came from, by id.
    pub sources: Vec<String>,
    pub refusal: Option<RefusalView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardEntryView {
    pub id: String,
    /// The account's name, for an entry per account.
    pub account: Option<String>,
    pub fields: Vec<CardFieldView>,
}

/// Where a year's rate comes from, as the user picks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum RateKind {
    /// Nothing is chosen for the year.
    None,
    /// Skatteetaten's rate as NOK per BTC.
    NokPerBtc,
    /// Skatteetaten's rates as USD per BTC and NOK per USD.
    ViaUsd,
    LastTransaction,
    Sample,
}

/// A source the user may pick, with the rate it gives now.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RateOfferView {
    pub kind: RateKind,
    /// The rate, formatted; `null` when this source has none for the year.
    pub rate: Option<String>,
    /// Where it comes from, or why it has none.
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DepositCostView {
    pub id: String,
    pub time: String,
    pub btc: String,
    /// As entered, for the form: `2021-03-04` and the NOK figure; empty when not entered.
    pub acquired_on: String,
    pub cost_nok: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardView {
    /// The years the card can be made for, newest first.
    pub years: Vec<i32>,
    pub year: i32,
    pub method: Method,
    /// The method's name, printed beside the gains.
    pub method_name: String,
    /// The year has ended; the running year is computed as of now.
    pub complete: bool,
    pub rate_kind: RateKind,
    /// The chosen rate, formatted; `null` when there is none.
    pub rate: Option<String>,
    /// Where the rate comes from, printed beside the wealth value; or why there is none.
    pub rate_source: String,
    pub offers: Vec<RateOfferView>,
    /// The figures Skatteetaten's rates were entered as, for the form.
    pub entered_nok_per_btc: String,
    pub entered_usd_per_btc: String,
    pub entered_nok_per_usd: String,
    pub rule_set: String,
    pub rows_sha256: String,
    pub rows: u32,
    pub entries: Vec<CardEntryView>,
    /// The year's disposals and the lots they consumed, to the øre.
    pub disposals: Vec<DisposalView>,
    pub deposits: Vec<DepositCostView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct YearEndChoiceArgs {
    pub year: i32,
    pub kind: RateKind,
    /// For `nokPerBtc`, as typed.
    pub nok_per_btc: String,
    /// For `viaUsd`, as typed.
    pub usd_per_btc: String,
    pub nok_per_usd: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DepositCostArgs {
    pub id: String,
    /// `YYYY-MM-DD`, the day it was acquired (Oslo); empty with an empty cost to forget it.
    pub acquired_on: String,
    /// NOK as typed.
    pub cost_nok: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RowIdsArgs {
    pub ids: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RawRowView {
    pub id: String,
    /// The row's JSON as the exchange sent it.
    pub raw: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RawRowsView {
    pub rows: Vec<RawRowView>,
}

/// The card's exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum CardFormat {
    /// `virtuellEiendel` elements for the v14 schema.
    Xml,
    /// The attachment: the figures, lots and rows behind them.
    AttachmentPdf,
    AttachmentCsv,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardExportArgs {
    pub card: CardArgs,
    pub format: CardFormat,
}
