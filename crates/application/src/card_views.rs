//! What crosses IPC for the tax return's card: the card of a year as the window shows it (each
//! field with its filed value to copy, the exact figure, the rows it came from, or why it is not
//! computable), the year-end rate's sources, deposits' costs, and the card's exports.

use nordlys_core::format::{self, Figures, Locale};
use nordlys_core::tax::card::{Card, CardEntry, Field, FieldValue, NoRate, Why};
use nordlys_core::tax::gains::Method;
use nordlys_core::tax::year_end_rate::{RateChoice, YearEndRate};
use nordlys_core::time::oslo_date;
use nordlys_money::Amount;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::card::{CardFacts, RawRows};
use crate::present::{Present, Viewer};
use crate::shown::{Show, ShownAmount, ShownBtc, ShownPrice};
use crate::tax_card::{Words, refusal};
use crate::tax_views::DisposalView;
use crate::wording::{key, say};

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

/// A field's value: text copied as it is, or a figure in the tax return's own format beside
/// the exact amount it was rounded from.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum CardValue {
    /// The account's number, the country, the exchange's name.
    Text { text: String },
    /// `filed` is what is typed into the return (whole kroner, 10 decimals), its amount the
    /// figure as filed; `exact` is the figure to the øre or the satoshi. In privacy mode both
    /// are the mask, with no amount behind them, and nothing is there to copy.
    Figure {
        filed: ShownAmount,
        exact: ShownAmount,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardFieldView {
    pub field: CardField,
    /// The schema's name (`formuesverdiForVirtuellEiendel`).
    pub schema: String,
    /// The field's name on the tax return, in the user's language.
    pub label: String,
    /// What the field holds; `null` when not computable (`refusal` says why).
    pub value: Option<CardValue>,
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
    /// The rate; `null` when this source has none for the year.
    pub rate: Option<ShownPrice>,
    /// Where it comes from, or why it has none.
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DepositCostView {
    pub id: String,
    pub time: String,
    pub btc: ShownBtc,
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
    /// The chosen rate; `null` when there is none.
    pub rate: Option<ShownPrice>,
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

/// The field's name on the tax return.
pub(crate) fn label(field: CardField, locale: Locale) -> String {
    say(
        match field {
            CardField::Landkode => key::CARD_FIELD_LANDKODE,
            CardField::Navn => key::CARD_FIELD_NAVN,
            CardField::Kontonummer => key::CARD_FIELD_KONTONUMMER,
            CardField::Antall => key::CARD_FIELD_ANTALL,
            CardField::Formuesverdi => key::CARD_FIELD_FORMUESVERDI,
            CardField::Gevinst => key::CARD_FIELD_GEVINST,
            CardField::Tap => key::CARD_FIELD_TAP,
            CardField::AnnenKapitalinntekt => key::CARD_FIELD_ANNEN,
            CardField::Boersnavn => key::CARD_FIELD_BOERSNAVN,
        },
        locale,
    )
}

/// A text field: the same whether figures are hidden or not.
fn text_field(field: CardField, schema: &str, value: &str, locale: Locale) -> CardFieldView {
    CardFieldView {
        field,
        schema: schema.to_owned(),
        label: label(field, locale),
        value: Some(CardValue::Text {
            text: value.to_owned(),
        }),
        sources: Vec::new(),
        refusal: None,
    }
}

struct Shown<'a> {
    card: &'a Card,
    figures: Figures,
    words: Words,
}

impl Shown<'_> {
    fn figure(&self, e: &CardEntry, field: Field, as_field: CardField) -> CardFieldView {
        let locale = self.figures.locale;
        let value = e.figure(field);
        let refusal = self.card.refusal(&e.id, field).map(|why| {
            let (reason, fix) = refusal(why, self.card.year, self.words);
            RefusalView {
                why: RefusalKind::of(why),
                reason,
                fix,
            }
        });
        CardFieldView {
            field: as_field,
            schema: field.schema_name().to_owned(),
            label: label(as_field, locale),
            value: value.map(|v| CardValue::Figure {
                filed: self.figures.shown_filed(v),
                exact: match v {
                    FieldValue::Btc(b) => Figures {
                        unit: nordlys_core::format::BtcUnit::Btc,
                        ..self.figures
                    }
                    .shown_amount(Amount::Btc(b)),
                    FieldValue::Nok(n) => self.figures.shown_amount(Amount::Nok(n)),
                },
            }),
            sources: e.sources.get(&field).cloned().unwrap_or_default(),
            refusal,
        }
    }

    fn entry(
        &self,
        e: &CardEntry,
        exchange: &str,
        names: &dyn Fn(&str) -> String,
    ) -> CardEntryView {
        let locale = self.figures.locale;
        let mut fields = vec![
            text_field(
                CardField::Landkode,
                "landkode",
                nordlys_core::tax::card::COUNTRY,
                locale,
            ),
            text_field(
                CardField::Navn,
                "navn",
                nordlys_core::tax::card::ASSET_NAME,
                locale,
            ),
        ];
        if let Some(k) = &e.kontonummer {
            fields.push(text_field(CardField::Kontonummer, "kontonummer", k, locale));
        }
        fields.extend([
            self.figure(e, Field::Antall, CardField::Antall),
            self.figure(e, Field::Formuesverdi, CardField::Formuesverdi),
            self.figure(e, Field::Gevinst, CardField::Gevinst),
            self.figure(e, Field::Tap, CardField::Tap),
            self.figure(
                e,
                Field::AnnenKapitalinntekt,
                CardField::AnnenKapitalinntekt,
            ),
            text_field(CardField::Boersnavn, "boersnavn", exchange, locale),
        ]);
        CardEntryView {
            id: e.id.clone(),
            account: e.kontonummer.as_deref().map(names),
            fields,
        }
    }
}

/// What a rate source gives, worded.
fn offer(
    kind: RateKind,
    given: &Result<YearEndRate, NoRate>,
    year: i32,
    figures: Figures,
    words: Words,
) -> RateOfferView {
    match given {
        Ok(r) => RateOfferView {
            kind,
            rate: Some(figures.shown_price(r.nok_per_btc)),
            source: crate::wording::rate_source(&r.source, figures.locale),
        },
        Err(no) => RateOfferView {
            kind,
            rate: None,
            source: refusal(
                &nordlys_core::tax::card::Why::NoYearEndRate(*no),
                year,
                words,
            )
            .0,
        },
    }
}

fn rate_kind(choice: Option<&RateChoice>) -> RateKind {
    match choice {
        None => RateKind::None,
        Some(RateChoice::Entered(_)) => RateKind::NokPerBtc,
        Some(RateChoice::ViaUsd { .. }) => RateKind::ViaUsd,
        Some(RateChoice::LastTransaction) => RateKind::LastTransaction,
        Some(RateChoice::Sample) => RateKind::Sample,
    }
}

impl Present for CardFacts {
    type View = CardView;

    fn present(self, viewer: &Viewer) -> CardView {
        let (figures, zone) = (viewer.figures, viewer.zone);
        let locale = figures.locale;
        let words = Words { locale, zone };
        let CardFacts {
            made,
            first,
            choice,
            offers,
            names,
            exchange,
            this_year,
        } = self;
        let choice = choice.as_ref();
        let year = made.year;
        let offers: Vec<RateOfferView> = offers
            .iter()
            .map(|(kind, given)| offer(*kind, given, year, figures, words))
            .collect();
        let shown = Shown {
            card: &made,
            figures,
            words,
        };
        let entered = |f: fn(&RateChoice) -> Option<String>| choice.and_then(f).unwrap_or_default();
        CardView {
            years: (first..=this_year).rev().collect(),
            year,
            method: made.method,
            method_name: crate::wording::method_name(made.method, locale),
            complete: made.complete,
            rate_kind: rate_kind(choice),
            rate: made
                .rate
                .as_ref()
                .ok()
                .map(|r| figures.shown_price(r.nok_per_btc)),
            rate_source: offer(rate_kind(choice), &made.rate, year, figures, words).source,
            offers,
            entered_nok_per_btc: entered(|c| match c {
                RateChoice::Entered(r) => Some(r.decimal().normalize().to_string()),
                _ => None,
            }),
            entered_usd_per_btc: entered(|c| match c {
                RateChoice::ViaUsd { usd_per_btc, .. } => {
                    Some(usd_per_btc.decimal().normalize().to_string())
                }
                _ => None,
            }),
            entered_nok_per_usd: entered(|c| match c {
                RateChoice::ViaUsd { nok_per_usd, .. } => {
                    Some(nok_per_usd.decimal().normalize().to_string())
                }
                _ => None,
            }),
            rule_set: nordlys_core::tax::card::RULE_SET_VERSION.to_owned(),
            rows_sha256: made.rows_sha256.clone(),
            rows: u32::try_from(made.rows).unwrap_or(u32::MAX),
            entries: made
                .entries
                .iter()
                .map(|e| shown.entry(e, &exchange, &|id| names.name(id)))
                .collect(),
            disposals: made
                .disposals
                .iter()
                .map(|d| crate::tax_views::disposal_view(d, made.method, figures, zone))
                .collect(),
            deposits: made
                .deposits
                .iter()
                .map(|d| DepositCostView {
                    id: d.id.clone(),
                    time: format::time(&d.at, zone, locale),
                    btc: figures.shown_btc(d.btc),
                    acquired_on: d
                        .entered
                        .as_ref()
                        .map(|e| oslo_date(&e.acquired_at).to_string())
                        .unwrap_or_default(),
                    cost_nok: d
                        .entered
                        .as_ref()
                        .and_then(|e| figures.raw(|| e.cost_nok.decimal().normalize().to_string()))
                        .unwrap_or_default(),
                })
                .collect(),
        }
    }
}

impl Present for RawRows {
    type View = RawRowsView;

    fn present(self, viewer: &Viewer) -> RawRowsView {
        let hidden = viewer.figures.hidden;
        RawRowsView {
            rows: self
                .0
                .into_iter()
                .map(|(id, raw)| RawRowView {
                    id,
                    // The rows hold amounts: privacy mode hides them too.
                    raw: if hidden { String::new() } else { raw },
                })
                .collect(),
        }
    }
}
