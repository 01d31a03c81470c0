//! The attachment ("vedlegg") to the tax return's card, as PDF and as CSV: the method, the rule
//! set's version and the rows' hash, then each figure with the lots, bonuses, user-entered costs
//! and exchange rows behind it. Nothing in it depends on the clock, so the same data gives the
//! same bytes.

use nordlys_core::format::{self, BtcUnit};
use nordlys_core::store::{Store, StoreError, TaxFilter};
use nordlys_core::tax::card::{Card, Field, RULE_SET_VERSION};
use nordlys_core::tax::csv::{CsvWriter, inert_unless_number};
use nordlys_core::time::{oslo_date, year_start};
use nordlys_exchange::models::TaxTransaction;
use nordlys_exchange::wire::format_time;
use nordlys_money::{Btc, Nok};
use nordlys_render::pdf::TextPdf;

use crate::msg;
use crate::tax_card::{Words, refusal};
use crate::wording::key;
use crate::wording::{method_name, rate_source, say};

/// One row the card rests on.
#[derive(Debug)]
struct Row {
    transaction: TaxTransaction,
    raw: String,
}

#[derive(Debug)]
pub struct Attachment<'a> {
    card: &'a Card,
    exchange: String,
    words: Words,
    rows: Vec<Row>,
}

/// The CSV's columns; each section fills those that apply to it.
const HEADER: [&str; 13] = [
    "section",
    "entry",
    "id",
    "time",
    "field",
    "btc",
    "proceeds_nok",
    "cost_nok",
    "gain_nok",
    "value_nok",
    "filed",
    "user_entered",
    "detail",
];

fn exact_btc(b: Btc) -> String {
    b.decimal().to_string()
}

fn exact_nok(n: Nok) -> String {
    n.decimal().to_string()
}

impl<'a> Attachment<'a> {
    /// Reads the rows `card` rests on, in stored order, as the server sent them.
    pub fn read(
        store: &Store,
        card: &'a Card,
        exchange: &str,
        words: Words,
    ) -> Result<Self, StoreError> {
        let mut rows = Vec::new();
        let up_to_year_end = TaxFilter {
            before: Some(year_start(card.year + 1)),
            ..TaxFilter::default()
        };
        store
            .tax()
            .each_row_as_sent::<StoreError>(&up_to_year_end, |t, raw| {
                rows.push(Row {
                    transaction: t.clone(),
                    raw: raw.to_owned(),
                });
                Ok(())
            })?;
        Ok(Self {
            card,
            exchange: exchange.to_owned(),
            words,
            rows,
        })
    }

    fn rate_line(&self) -> String {
        let locale = self.words.locale;
        match &self.card.rate {
            Ok(r) => msg!(ATTACHMENT_RATE {
                rate: format::price(r.nok_per_btc, locale),
                source: rate_source(&r.source, locale)
            })
            .render(locale),
            Err(_) => say(key::ATTACHMENT_NO_RATE, locale),
        }
    }

    /// Each fact about the card, as (key, value) for the CSV and a sentence for the PDF.
    fn about(&self) -> Vec<(&'static str, String, String)> {
        let c = self.card;
        let locale = self.words.locale;
        vec![
            (
                "year",
                c.year.to_string(),
                msg!(ATTACHMENT_TITLE {
                    year: c.year.to_string()
                })
                .render(locale),
            ),
            (
                "final",
                c.complete.to_string(),
                say(
                    if c.complete {
                        key::ATTACHMENT_FINAL
                    } else {
                        key::ATTACHMENT_SO_FAR
                    },
                    locale,
                ),
            ),
            (
                "method",
                method_name(c.method, locale),
                msg!(ATTACHMENT_METHOD {
                    method: method_name(c.method, locale)
                })
                .render(locale),
            ),
            (
                "ruleSet",
                RULE_SET_VERSION.to_owned(),
                msg!(ATTACHMENT_RULE_SET {
                    version: RULE_SET_VERSION
                })
                .render(locale),
            ),
            (
                "rowsSha256",
                c.rows_sha256.clone(),
                msg!(ATTACHMENT_ROWS {
                    count: c.rows.to_string(),
                    hash: c.rows_sha256.clone()
                })
                .render(locale),
            ),
            (
                "yearEndRate",
                c.rate
                    .as_ref()
                    .map(|r| r.nok_per_btc.decimal().to_string())
                    .ok()
                    .unwrap_or_default(),
                self.rate_line(),
            ),
            (
                "exchange",
                self.exchange.clone(),
                msg!(ATTACHMENT_EXCHANGE {
                    name: self.exchange.clone()
                })
                .render(locale),
            ),
        ]
    }

    /// Why `field` of `entry` is not computable, worded; empty when it is.
    fn refused(&self, entry: &str, field: Field) -> String {
        self.card
            .refusal(entry, field)
            .map(|why| {
                let (reason, fix) = refusal(why, self.card.year, self.words);
                msg!(ATTACHMENT_NOT_COMPUTABLE {
                    reason: reason,
                    fix: fix
                })
                .render(self.words.locale)
            })
            .unwrap_or_default()
    }

    pub fn csv(&self) -> Vec<u8> {
        let mut w = CsvWriter::new(Vec::new());
        // Writing to a Vec cannot fail.
        // Ids, notes and rows as the exchange sent them are text from outside: no cell may be a
        // formula a spreadsheet runs.
        let mut row = |cells: [&str; 13]| {
            let _ = w.row(cells.map(inert_unless_number));
        };
        row(HEADER);
        for (key, value, _) in self.about() {
            row(["about", "", "", "", key, "", "", "", "", "", "", "", &value]);
        }
        let c = self.card;
        for e in &c.entries {
            for field in Field::ALL {
                let value = e.figure(field);
                let (btc, nok) = match value {
                    Some(nordlys_core::tax::card::FieldValue::Btc(b)) => {
                        (exact_btc(b), String::new())
                    }
                    Some(nordlys_core::tax::card::FieldValue::Nok(n)) => {
                        (String::new(), exact_nok(n))
                    }
                    None => (String::new(), String::new()),
                };
                let filed = value.map(|v| v.filed()).unwrap_or_default();
                let refused = self.refused(&e.id, field);
                let detail = if refused.is_empty() {
                    e.sources
                        .get(&field)
                        .map(|s| s.join(" "))
                        .unwrap_or_default()
                } else {
                    refused
                };
                row([
                    "figure",
                    &e.id,
                    e.kontonummer.as_deref().unwrap_or_default(),
                    "",
                    field.schema_name(),
                    &btc,
                    "",
                    "",
                    "",
                    &nok,
                    &filed,
                    "",
                    &detail,
                ]);
            }
        }
        let entered = |id: &str| c.deposits.iter().any(|d| d.id == id && d.entered.is_some());
        for d in &c.disposals {
            let kind = match d.kind {
                nordlys_core::tax::gains::DisposalKind::Sale => "sale",
                nordlys_core::tax::gains::DisposalKind::Payment => "payment",
            };
            row([
                "disposal",
                d.account_id.as_deref().unwrap_or_default(),
                &d.id,
                &format_time(&d.at),
                kind,
                &exact_btc(d.btc),
                &exact_nok(d.proceeds_nok),
                &exact_nok(d.cost_nok),
                &exact_nok(d.gain_nok),
                "",
                "",
                "",
                &if d.unmatched_btc.is_zero() {
                    String::new()
                } else {
                    format!("unmatched {}", exact_btc(d.unmatched_btc))
                },
            ]);
            for l in &d.lots {
                let id = l.acquisition_id.as_deref().unwrap_or("average");
                row([
                    "lot",
                    &d.id,
                    id,
                    &l.acquired_at.as_ref().map(format_time).unwrap_or_default(),
                    "",
                    &exact_btc(l.btc),
                    "",
                    &exact_nok(l.cost_nok),
                    "",
                    "",
                    "",
                    if entered(id) { "true" } else { "" },
                    "",
                ]);
            }
        }
        for i in &c.income {
            row([
                "income",
                i.account_id.as_deref().unwrap_or_default(),
                &i.id,
                &format_time(&i.at),
                "",
                &exact_btc(i.btc),
                "",
                "",
                "",
                &i.value_nok.map(exact_nok).unwrap_or_default(),
                "",
                "",
                "",
            ]);
        }
        for d in &c.deposits {
            let (acquired, cost) = d
                .entered
                .as_ref()
                .map_or((String::new(), String::new()), |e| {
                    (format_time(&e.acquired_at), exact_nok(e.cost_nok))
                });
            row([
                "deposit",
                "",
                &d.id,
                &format_time(&d.at),
                "acquired",
                &exact_btc(d.btc),
                "",
                &cost,
                "",
                "",
                "",
                if d.entered.is_some() { "true" } else { "" },
                &acquired,
            ]);
        }
        for r in &self.rows {
            let t = &r.transaction;
            row([
                "row",
                t.account_id
                    .as_ref()
                    .map(|a| a.as_str())
                    .unwrap_or_default(),
                t.id.as_str(),
                &format_time(&t.create_time),
                t.tx_type.as_str(),
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                &r.raw,
            ]);
        }
        w.into_inner()
    }

    pub fn pdf(&self) -> Vec<u8> {
        let locale = self.words.locale;
        let nok = |n: Nok| format::nok(n, locale);
        let btc = |b: Btc| format::btc(b, BtcUnit::Btc, locale);
        let time = |t| format::time(t, self.words.zone, locale);
        let mut pdf = TextPdf::new();
        for (_, _, sentence) in self.about() {
            pdf.line(&sentence);
        }
        let c = self.card;
        pdf.gap();
        pdf.line(&say(key::ATTACHMENT_FIGURES, locale));
        for e in &c.entries {
            pdf.line(&match &e.kontonummer {
                Some(k) => format!("{} ({k})", e.id),
                None => e.id.clone(),
            });
            for field in Field::ALL {
                let refused = self.refused(&e.id, field);
                let value = match e.figure(field) {
                    _ if !refused.is_empty() => refused,
                    Some(nordlys_core::tax::card::FieldValue::Btc(b)) => btc(b),
                    Some(v @ nordlys_core::tax::card::FieldValue::Nok(n)) => {
                        format!("{} ({})", v.filed(), nok(n))
                    }
                    None => String::new(),
                };
                pdf.line(&format!("  {}: {value}", field.schema_name()));
            }
        }
        if !c.disposals.is_empty() {
            pdf.gap();
            pdf.line(&say(key::ATTACHMENT_DISPOSALS, locale));
            for d in &c.disposals {
                pdf.line(&format!(
                    "{} {} {}: {} - {} = {}",
                    time(&d.at),
                    d.id,
                    btc(d.btc),
                    nok(d.proceeds_nok),
                    nok(d.cost_nok),
                    nok(d.gain_nok)
                ));
                for l in &d.lots {
                    pdf.line(&format!(
                        "    {} {} {} {}",
                        l.acquisition_id.as_deref().unwrap_or("average"),
                        l.acquired_at.as_ref().map(time).unwrap_or_default(),
                        btc(l.btc),
                        nok(l.cost_nok)
                    ));
                }
            }
        }
        if !c.income.is_empty() {
            pdf.gap();
            pdf.line(&say(key::ATTACHMENT_INCOME, locale));
            for i in &c.income {
                pdf.line(&format!(
                    "{} {} {} {}",
                    time(&i.at),
                    i.id,
                    btc(i.btc),
                    i.value_nok.map(nok).unwrap_or_default()
                ));
            }
        }
        if !c.deposits.is_empty() {
            pdf.gap();
            pdf.line(&say(key::ATTACHMENT_DEPOSITS, locale));
            for d in &c.deposits {
                let cost = d.entered.as_ref().map_or_else(
                    || say(key::ATTACHMENT_NOT_ENTERED, locale),
                    |e| {
                        msg!(ATTACHMENT_ENTERED {
                            date: format::date(oslo_date(&e.acquired_at), locale),
                            cost: nok(e.cost_nok)
                        })
                        .render(locale)
                    },
                );
                pdf.line(&format!("{} {} {}: {cost}", time(&d.at), d.id, btc(d.btc)));
            }
        }
        pdf.gap();
        pdf.line(&say(key::ATTACHMENT_ROWS_TITLE, locale));
        for r in &self.rows {
            pdf.line(&r.raw);
        }
        pdf.finish()
    }
}
