//! The tax return's card in the forms it leaves Nordlys: the CLI's JSON (schema field names, NOK
//! in whole kroner, `antall` with 10 decimals) and an XML fragment of `virtuellEiendel` elements
//! for the v14 schema. Refusals are worded here, each with its fix.

use chrono::{DateTime, Utc};
use nordlys_core::format::{self, Locale};
use nordlys_core::store::Store;
use nordlys_core::tax::card::{
    self, Card, CardEntry, CardError, CardRequest, Field, FieldValue, NoRate, RateSource, Why,
    YearEndRate,
};
use nordlys_core::tax::gains::{Method, Unknown};
use nordlys_core::tax::year_end_rate;
use nordlys_core::time::Tz;
use nordlys_core::time::oslo_year;
use nordlys_money::NokPerBtc;
use serde::Serialize;

use crate::msg;
use crate::wording::Message;
use crate::wording::key;

/// Which card to make: the year (none: last year's, or this year's for a history that began this
/// year), the lot method, per account or for all, and a year-end rate the user gives (none: the
/// store's choice for the year).
#[derive(Debug, Clone, Copy)]
pub struct CardOrder {
    pub year: Option<i32>,
    pub method: Method,
    pub per_account: bool,
    pub rate: Option<NokPerBtc>,
}

/// The card of the stored history, as both clients make it. It reads the whole history: call it
/// off the async threads.
pub fn make(store: &Store, order: CardOrder, now: DateTime<Utc>) -> Result<Card, CardError> {
    let first = store.tax().oldest()?.map(|t| oslo_year(&t));
    // Last year's card is the one filed this spring; a history that began this year has only
    // this year's.
    let year = order
        .year
        .unwrap_or_else(|| (oslo_year(&now) - 1).max(first.unwrap_or(i32::MIN)));
    let rate = match order.rate {
        Some(nok_per_btc) => Ok(YearEndRate {
            nok_per_btc,
            source: RateSource::Entered,
        }),
        None => year_end_rate::stored(store, year)?,
    };
    let request = CardRequest {
        year,
        method: order.method,
        per_account: order.per_account,
        rate,
        now,
    };
    card::card(store, &request)
}

/// The card's namespace (schema "Skattemelding personlige skattepliktige v14").
pub const NAMESPACE: &str =
    "urn:no:skatteetaten:fastsetting:formueinntekt:skattemelding:ekstern:v14";

/// The one exchange an entry names, by the id the schema requires of each `boers`.
const BOERS_ID: &str = "boers-1";

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CardJson {
    pub year: i32,
    pub method: Method,
    #[serde(rename = "final")]
    pub complete: bool,
    pub year_end_rate: Option<RateJson>,
    pub rows_sha256: String,
    pub virtuell_eiendel: Vec<EntryJson>,
    pub not_computable: Vec<RefusalJson>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct RateJson {
    pub nok_per_btc: String,
    pub source: String,
}

/// One `VirtuellEiendel` in the schema's order; a figure that is not computable is left out.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct EntryJson {
    pub landkode: &'static str,
    pub id: String,
    pub navn: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kontonummer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub antall: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formuesverdi_for_virtuell_eiendel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skattepliktig_gevinst_ved_realisasjon_av_virtuell_eiendel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skattepliktig_tap_ved_realisasjon_av_virtuell_eiendel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annen_skattepliktig_kapitalinntekt_fra_virtuell_eiendel: Option<String>,
    pub boers: Vec<BoersJson>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BoersJson {
    pub id: String,
    pub boersnavn: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RefusalJson {
    pub entry: String,
    pub field: &'static str,
    pub reason: String,
    pub fix: String,
}

/// Where the card's words and times are written.
#[derive(Debug, Clone, Copy)]
pub struct Words {
    pub locale: Locale,
    pub zone: Tz,
}

/// Why a figure is not computable, and how to fix it.
pub fn refusal(why: &Why, year: i32, words: Words) -> (String, String) {
    let time = |t| format::time(t, words.zone, words.locale);
    let (why, fix) = match why {
        Why::NoYearEndRate(no) => {
            let next = (year + 1).to_string();
            let year = year.to_string();
            match no {
                NoRate::NotChosen => (
                    msg!(CARD_WHY_NO_RATE { year }),
                    msg!(CARD_FIX_NO_RATE { next }),
                ),
                NoRate::NoTransaction => (
                    msg!(CARD_WHY_NO_TRANSACTION_RATE { year }),
                    msg!(CARD_FIX_NO_TRANSACTION_RATE { next }),
                ),
                NoRate::NoSample => (
                    msg!(CARD_WHY_NO_SAMPLE { year }),
                    msg!(CARD_FIX_NO_SAMPLE { next }),
                ),
                NoRate::OutOfRange => (
                    Message::new(key::CARD_WHY_RATE_OUT_OF_RANGE),
                    Message::new(key::CARD_FIX_RATE_OUT_OF_RANGE),
                ),
            }
        }
        Why::Pending { at, .. } => (
            msg!(CARD_WHY_PENDING { time: time(at) }),
            Message::new(key::CARD_FIX_PENDING),
        ),
        Why::UnknownType { id, kind } => (
            msg!(CARD_WHY_UNKNOWN_TYPE {
                id: id.as_str(),
                kind: kind.as_str()
            }),
            Message::new(key::CARD_FIX_UNKNOWN_TYPE),
        ),
        Why::Malformed { id, reason } => (
            msg!(CARD_WHY_MALFORMED {
                id: id.as_str(),
                reason: reason.as_str()
            }),
            Message::new(key::CARD_FIX_MALFORMED),
        ),
        Why::SoldMoreThanBought { at, btc, .. } => (
            msg!(CARD_WHY_OVERSOLD {
                time: time(at),
                btc: format::btc(*btc, format::BtcUnit::Btc, words.locale)
            }),
            Message::new(key::CARD_FIX_OVERSOLD),
        ),
        Why::BalanceContradicted { ids, rows } => (
            msg!(CARD_WHY_BALANCE_CONTRADICTED {
                ids: match rows.saturating_sub(ids.len() as u64) {
                    0 => ids.join(", "),
                    more => format!("{} (+{more})", ids.join(", ")),
                }
            }),
            msg!(CARD_FIX_BALANCE_CONTRADICTED {
                ids: ids.join(", ")
            }),
        ),
        Why::AmountsOverflow => (
            Message::new(key::CARD_WHY_AMOUNTS_OVERFLOW),
            Message::new(key::CARD_FIX_AMOUNTS_OVERFLOW),
        ),
        Why::Unknown { at, unknown, .. } => match unknown {
            Unknown::DepositCost { at: deposited, .. } => (
                msg!(CARD_WHY_DEPOSIT_COST {
                    time: time(at),
                    deposited: time(deposited)
                }),
                msg!(CARD_FIX_DEPOSIT_COST {
                    deposited: time(deposited)
                }),
            ),
            Unknown::NoRate { at, .. } => (
                msg!(CARD_WHY_NO_ROW_RATE { time: time(at) }),
                Message::new(key::CARD_FIX_NO_ROW_RATE),
            ),
            Unknown::FeePlacement { at, .. } => (
                msg!(CARD_WHY_FEE { time: time(at) }),
                Message::new(key::CARD_FIX_FEE),
            ),
            Unknown::TooLarge { .. } => (
                Message::new(key::CARD_WHY_AMOUNTS_OVERFLOW),
                Message::new(key::CARD_FIX_AMOUNTS_OVERFLOW),
            ),
        },
    };
    (why.render(words.locale), fix.render(words.locale))
}

fn filed(e: &CardEntry, f: Field) -> Option<String> {
    e.figure(f).map(FieldValue::filed)
}

pub fn card_json(card: &Card, exchange: &str, words: Words) -> CardJson {
    CardJson {
        year: card.year,
        method: card.method,
        complete: card.complete,
        year_end_rate: card.rate.as_ref().ok().map(|r| RateJson {
            nok_per_btc: r.nok_per_btc.decimal().normalize().to_string(),
            source: crate::wording::rate_source(&r.source, words.locale),
        }),
        rows_sha256: card.rows_sha256.clone(),
        virtuell_eiendel: card
            .entries
            .iter()
            .map(|e| EntryJson {
                landkode: nordlys_core::tax::card::COUNTRY,
                id: e.id.clone(),
                navn: nordlys_core::tax::card::ASSET_NAME,
                kontonummer: e.kontonummer.clone(),
                antall: filed(e, Field::Antall),
                formuesverdi_for_virtuell_eiendel: filed(e, Field::Formuesverdi),
                skattepliktig_gevinst_ved_realisasjon_av_virtuell_eiendel: filed(e, Field::Gevinst),
                skattepliktig_tap_ved_realisasjon_av_virtuell_eiendel: filed(e, Field::Tap),
                annen_skattepliktig_kapitalinntekt_fra_virtuell_eiendel: filed(
                    e,
                    Field::AnnenKapitalinntekt,
                ),
                boers: vec![BoersJson {
                    id: BOERS_ID.into(),
                    boersnavn: exchange.to_owned(),
                }],
            })
            .collect(),
        not_computable: card
            .not_computable
            .iter()
            .map(|n| {
                let (reason, fix) = refusal(&n.why, card.year, words);
                RefusalJson {
                    entry: n.entry.clone(),
                    field: n.field.schema_name(),
                    reason,
                    fix,
                }
            })
            .collect(),
    }
}

/// Text as XML character data.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An amount as the schema's `BeloepIValutaMedSkattemessigeEgenskaper` (NOK, whole kroner).
fn amount(name: &str, kroner: &str) -> String {
    format!(
        "<{name}><beloep><beloepINok><beloepSomHeltall>{kroner}</beloepSomHeltall></beloepINok>\
         <beloepIValuta><beloep>{kroner}</beloep></beloepIValuta>\
         <valutakode><valutakode>NOK</valutakode></valutakode></beloep></{name}>"
    )
}

/// The card as `virtuellEiendel` elements, one per entry, each in the schema's namespace and
/// order; a figure that is not computable is left out.
pub fn card_xml(card: &Card, exchange: &str) -> String {
    let mut out = String::new();
    for e in &card.entries {
        out.push_str(&format!("<virtuellEiendel xmlns=\"{NAMESPACE}\">"));
        out.push_str(&format!(
            "<landkode><landkode>{}</landkode></landkode>",
            nordlys_core::tax::card::COUNTRY
        ));
        out.push_str(&format!("<id>{}</id>", escaped(&e.id)));
        out.push_str(&format!(
            "<navn><tekst>{}</tekst></navn>",
            nordlys_core::tax::card::ASSET_NAME
        ));
        if let Some(k) = &e.kontonummer {
            out.push_str(&format!(
                "<kontonummer><tekst>{}</tekst></kontonummer>",
                escaped(k)
            ));
        }
        if let Some(a) = filed(e, Field::Antall) {
            out.push_str(&format!("<antall><desimaltall>{a}</desimaltall></antall>"));
        }
        if let Some(v) = filed(e, Field::Formuesverdi) {
            out.push_str(&amount(Field::Formuesverdi.schema_name(), &v));
        }
        if let Some(v) = filed(e, Field::Gevinst) {
            out.push_str(&amount(Field::Gevinst.schema_name(), &v));
        }
        if let Some(v) = filed(e, Field::Tap) {
            // A deduction: the amount deductible.
            out.push_str(&format!(
                "<{n}><fradragsberettigetBeloep><beloep><beloepSomHeltall>{v}</beloepSomHeltall>\
                 </beloep></fradragsberettigetBeloep></{n}>",
                n = Field::Tap.schema_name()
            ));
        }
        if let Some(v) = filed(e, Field::AnnenKapitalinntekt) {
            out.push_str(&amount(Field::AnnenKapitalinntekt.schema_name(), &v));
        }
        out.push_str(&format!(
            "<boers><id>{BOERS_ID}</id><boersnavn><tekst>{}</tekst></boersnavn></boers>",
            escaped(exchange)
        ));
        out.push_str("</virtuellEiendel>\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A customer cannot look a row up by its id; the reason names the sale and the deposit by
    /// the times the history and the deposit list show.
    #[test]
    fn a_deposit_of_unknown_cost_is_named_by_time_not_id() {
        let why = Why::Unknown {
            row: "tr_000793".into(),
            at: "2025-03-03T13:02:00Z".parse().unwrap(),
            unknown: Unknown::DepositCost {
                deposit_id: "de_000732".into(),
                at: "2024-01-10T10:00:00Z".parse().unwrap(),
            },
        };
        for locale in [Locale::En, Locale::Nb] {
            let words = Words {
                locale,
                zone: nordlys_core::time::OSLO,
            };
            let (why, fix) = refusal(&why, 2025, words);
            let sold = format::time(&"2025-03-03T13:02:00Z".parse().unwrap(), words.zone, locale);
            let deposited =
                format::time(&"2024-01-10T10:00:00Z".parse().unwrap(), words.zone, locale);
            assert!(why.contains(&sold) && why.contains(&deposited), "{why}");
            assert!(fix.contains(&deposited), "{fix}");
            assert!(!why.contains("tr_") && !why.contains("de_"), "{why}");
            assert!(!fix.contains("de_"), "{fix}");
        }
    }
}
