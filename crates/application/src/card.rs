//! The tax return's card in the window: the card of a year with a copy button per field, the
//! year-end rate's sources to choose from, deposits' costs to enter, the rows behind a figure,
//! and the card's exports (XML, and the attachment as PDF and CSV).

use std::sync::Arc;

use chrono::{NaiveDate, TimeZone, Utc};
use nordlys_core::amount_input::{AmountInputError, parse_nok, parse_price, parse_rate};
use nordlys_core::format::{self, Figures, Locale};
use nordlys_core::store::Store;
use nordlys_core::tax::card::{Card, CardEntry, CardError, Field, FieldValue};
use nordlys_core::tax::gains::EnteredCost;
use nordlys_core::tax::year_end_rate::{self, NoRate, RateChoice, YearEndRate};
use nordlys_core::time::{OSLO, oslo_date, oslo_year};
use nordlys_money::Nok;

use crate::NoArgs;
use crate::card_views::*;
use crate::error::{Answer, AppError, ErrorCode};
use crate::state::App;
use crate::tax_card::{CardOrder, Words, refusal};
use crate::tax_views::ExportView;
use crate::wording::key;
use crate::wording::{Message, say};

/// The card for `args`, off the async threads, with the rate the store's choice gives.
pub(crate) async fn made_card(store: Arc<Store>, args: &CardArgs) -> Answer<Card> {
    let order = CardOrder {
        year: args.year,
        method: args.method,
        per_account: args.per_account,
        rate: None,
    };
    tokio::task::spawn_blocking(move || {
        crate::tax_card::make(&store, order, Utc::now()).map_err(card_error)
    })
    .await
    .map_err(AppError::fault)?
}

fn card_error(e: CardError) -> AppError {
    match e {
        CardError::Store(e) => AppError::from(e),
        CardError::NothingSynced => {
            AppError::said(ErrorCode::InvalidInput, key::CARD_NOTHING_SYNCED)
        }
        CardError::YearOutside { year, first, last } => AppError::new(
            ErrorCode::InvalidInput,
            Message::new(key::CARD_YEAR_OUTSIDE)
                .with("year", year.to_string())
                .with("first", first.to_string())
                .with("last", last.to_string()),
        ),
    }
}

/// The field's name on the tax return.
fn label(field: CardField, locale: Locale) -> String {
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
        filed: Some(value.to_owned()),
        shown: value.to_owned(),
        exact: String::new(),
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
        let filed = value.and_then(|v| self.figures.raw(|| v.filed()));
        let shown = match (&filed, value) {
            (Some(f), _) => f.clone(),
            (None, Some(FieldValue::Btc(b))) => self.figures.btc(b),
            (None, Some(FieldValue::Nok(n))) => self.figures.nok(n),
            (None, None) => String::new(),
        };
        CardFieldView {
            field: as_field,
            schema: field.schema_name().to_owned(),
            label: label(as_field, locale),
            filed,
            shown,
            exact: match value {
                Some(FieldValue::Btc(b)) => {
                    self.figures.btc_in(b, nordlys_core::format::BtcUnit::Btc)
                }
                Some(FieldValue::Nok(n)) => self.figures.nok(n),
                None => String::new(),
            },
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
            rate: Some(figures.price(r.nok_per_btc)),
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

pub async fn tax_card(app: &App, args: CardArgs) -> Answer<CardView> {
    let (figures, zone) = (app.figures(), app.zone);
    let locale = figures.locale;
    let words = Words { locale, zone };
    let session = app.tax_session().await?;
    let store = session.store;
    let made = made_card(Arc::clone(&store), &args).await?;
    let year = made.year;
    let first = store.tax_oldest()?.map_or(year, |t| oslo_year(&t));
    let choices = store.year_end_choices()?;
    let choice = choices.get(&year);
    let offers = [RateKind::LastTransaction, RateKind::Sample]
        .into_iter()
        .map(|kind| {
            let source = match kind {
                RateKind::Sample => RateChoice::Sample,
                _ => RateChoice::LastTransaction,
            };
            let given = year_end_rate::resolve(&store, year, Some(&source))?;
            Ok(offer(kind, &given, year, figures, words))
        })
        .collect::<Result<Vec<_>, nordlys_core::store::StoreError>>()?;
    let names = crate::tax::Names::load(&store)?;
    let shown = Shown {
        card: &made,
        figures,
        words,
    };
    let exchange = session.profile.name.clone();
    let entered = |f: fn(&RateChoice) -> Option<String>| choice.and_then(f).unwrap_or_default();
    Ok(CardView {
        years: (first..=oslo_year(&Utc::now())).rev().collect(),
        year,
        method: made.method,
        method_name: crate::wording::method_name(made.method, locale),
        complete: made.complete,
        rate_kind: rate_kind(choice),
        rate: made
            .rate
            .as_ref()
            .ok()
            .map(|r| figures.price(r.nok_per_btc)),
        rate_source: offer(rate_kind(choice), &made.rate, year, figures, words).source,
        offers,
        entered_nok_per_btc: entered(|c| match c {
            RateChoice::Entered(r) => Some(r.decimal().normalize().to_string()),
            _ => None,
        }),
        entered_usd_per_btc: entered(|c| match c {
            RateChoice::ViaUsd { usd_per_btc, .. } => Some(usd_per_btc.normalize().to_string()),
            _ => None,
        }),
        entered_nok_per_usd: entered(|c| match c {
            RateChoice::ViaUsd { nok_per_usd, .. } => Some(nok_per_usd.normalize().to_string()),
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
                btc: figures.btc(d.btc),
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
    })
}

fn invalid(problem: AmountInputError) -> AppError {
    AppError::new(
        ErrorCode::InvalidInput,
        crate::wording::amount_input(&problem),
    )
}

/// Keeps the source chosen for a year; the screen showing the rate reads its own view again.
pub async fn set_year_end_choice(app: &App, args: YearEndChoiceArgs) -> Answer<NoArgs> {
    let locale = app.locale();
    let choice = match args.kind {
        RateKind::None => None,
        RateKind::NokPerBtc => Some(RateChoice::Entered(
            parse_price(&args.nok_per_btc, locale).map_err(invalid)?,
        )),
        RateKind::ViaUsd => Some(RateChoice::ViaUsd {
            usd_per_btc: parse_rate(&args.usd_per_btc, locale).map_err(invalid)?,
            nok_per_usd: parse_rate(&args.nok_per_usd, locale).map_err(invalid)?,
        }),
        RateKind::LastTransaction => Some(RateChoice::LastTransaction),
        RateKind::Sample => Some(RateChoice::Sample),
    };
    app.tax_session()
        .await?
        .store
        .set_year_end_choice(args.year, choice.as_ref())?;
    Ok(NoArgs {})
}

pub async fn set_deposit_cost(app: &App, args: DepositCostArgs) -> Answer<NoArgs> {
    let locale = app.locale();
    let store = app.tax_session().await?.store;
    if args.acquired_on.trim().is_empty() && args.cost_nok.trim().is_empty() {
        store.set_deposit_cost(&args.id, None)?;
        return Ok(NoArgs {});
    }
    let day = NaiveDate::parse_from_str(args.acquired_on.trim(), "%Y-%m-%d").map_err(|_| {
        AppError::new(
            ErrorCode::InvalidInput,
            Message::new(key::DEPOSIT_COST_BAD_DATE)
                .with("date", args.acquired_on.trim().to_owned()),
        )
    })?;
    // Noon in Oslo: the day stays the day in any zone it is read in.
    let acquired_at = day
        .and_hms_opt(12, 0, 0)
        .and_then(|t| OSLO.from_local_datetime(&t).earliest())
        .map(|t| t.with_timezone(&Utc))
        .filter(|t| *t <= Utc::now())
        .ok_or_else(|| {
            AppError::new(
                ErrorCode::InvalidInput,
                Message::new(key::DEPOSIT_COST_FUTURE).with("date", day.to_string()),
            )
        })?;
    let cost_nok = match parse_nok(&args.cost_nok, locale) {
        Ok(n) => n,
        // A gift or a mined coin may have cost nothing.
        Err(AmountInputError::Zero) => Nok::ZERO,
        Err(e) => return Err(invalid(e)),
    };
    store.set_deposit_cost(
        &args.id,
        Some(&EnteredCost {
            acquired_at,
            cost_nok,
        }),
    )?;
    Ok(NoArgs {})
}

pub async fn tax_rows_as_sent(app: &App, args: RowIdsArgs) -> Answer<RawRowsView> {
    let store = app.tax_session().await?.store;
    // A figure may rest on many rows; the window lists the first few hundred.
    let ids: Vec<String> = args.ids.into_iter().take(500).collect();
    let rows = store.tax_rows_as_sent(&ids)?;
    let hidden = app.figures().hidden;
    Ok(RawRowsView {
        rows: rows
            .into_iter()
            .map(|(id, raw)| RawRowView {
                id,
                // The rows hold amounts: privacy mode hides them too.
                raw: if hidden { String::new() } else { raw },
            })
            .collect(),
    })
}

pub async fn export_card(app: &App, args: CardExportArgs) -> Answer<ExportView> {
    let (name, bytes, left_out) = card_file(app, &args).await?;
    let mut saved = crate::tax::save_file(app, &name, &bytes).await?;
    if saved.path.is_some() {
        saved.left_out = left_out;
    }
    Ok(saved)
}

/// What the XML leaves out: each figure that is not computable, with why and what to do.
fn left_out_of_xml(card: &Card, words: Words) -> Option<String> {
    let said: Vec<String> = card
        .not_computable
        .iter()
        .map(|n| {
            let (why, fix) = crate::tax_card::refusal(&n.why, card.year, words);
            format!(
                "{} ({why}; {fix})",
                label(CardField::from(n.field), words.locale)
            )
        })
        .collect();
    (!said.is_empty()).then(|| {
        crate::wording::Message::new(key::CARD_XML_LEFT_OUT)
            .with("fields", said.join("; "))
            .render(words.locale)
    })
}

/// The export's file name and bytes, and (for the XML) what it leaves out.
pub async fn card_file(
    app: &App,
    args: &CardExportArgs,
) -> Answer<(String, Vec<u8>, Option<String>)> {
    let locale = app.locale();
    let words = Words {
        locale,
        zone: app.zone,
    };
    let session = app.tax_session().await?;
    let made = made_card(Arc::clone(&session.store), &args.card).await?;
    let exchange = session.profile.name.clone();
    let left_out = (args.format == CardFormat::Xml)
        .then(|| left_out_of_xml(&made, words))
        .flatten();
    let (name, bytes) = match args.format {
        CardFormat::Xml => (
            format!("nordlys-virtuell-eiendel-{}.xml", made.year),
            crate::tax_card::card_xml(&made, &exchange).into_bytes(),
        ),
        CardFormat::AttachmentCsv | CardFormat::AttachmentPdf => {
            let store = Arc::clone(&session.store);
            let pdf = args.format == CardFormat::AttachmentPdf;
            let name = format!(
                "nordlys-vedlegg-virtuelle-eiendeler-{}.{}",
                made.year,
                if pdf { "pdf" } else { "csv" }
            );
            let bytes = tokio::task::spawn_blocking(move || {
                crate::card_attachment::Attachment::read(&store, &made, &exchange, words)
                    .map(|a| if pdf { a.pdf() } else { a.csv() })
            })
            .await
            .map_err(AppError::fault)??;
            (name, bytes)
        }
    };
    Ok((name, bytes, left_out))
}
