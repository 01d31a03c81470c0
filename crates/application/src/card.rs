//! The tax return's card in the window: the card of a year with a copy button per field, the
//! year-end rate's sources to choose from, deposits' costs to enter, the rows behind a figure,
//! and the card's exports (XML, and the attachment as PDF and CSV).

use std::sync::Arc;

use chrono::{NaiveDate, TimeZone, Utc};
use nordlys_core::amount_input::{AmountInputError, parse_nok, parse_price, parse_rate};
use nordlys_core::store::Store;
use nordlys_core::tax::card::{Card, CardError};
use nordlys_core::tax::gains::EnteredCost;
use nordlys_core::tax::year_end_rate::{self, NoRate, RateChoice, YearEndRate};
use nordlys_core::time::{OSLO, oslo_year};
use nordlys_money::Nok;

use crate::NoArgs;
use crate::card_views::*;
use crate::error::{Answer, AppError, ErrorCode};
use crate::msg;
use crate::state::App;
use crate::tax_card::{CardOrder, Words};
use crate::tax_views::ExportView;
use crate::wording::key;

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
            msg!(CARD_YEAR_OUTSIDE {
                year: year.to_string(),
                first: first.to_string(),
                last: last.to_string()
            }),
        ),
    }
}

/// The card of a year, with the rates its sources offer, the names of its accounts and the
/// exchange it was made for.
#[derive(Debug, Clone)]
pub struct CardFacts {
    pub made: Card,
    /// The first year the history reaches.
    pub first: i32,
    /// The rate source chosen for the year, if any.
    pub choice: Option<RateChoice>,
    /// What the last transaction and the price samples give as the year-end rate.
    pub offers: Vec<(RateKind, Result<YearEndRate, NoRate>)>,
    pub names: crate::tax::Names,
    /// The exchange, as the profile names it.
    pub exchange: String,
    /// This year, Oslo time.
    pub this_year: i32,
}

pub async fn tax_card(app: &App, args: CardArgs) -> Answer<CardFacts> {
    let session = app.tax_session().await?;
    let store = session.store;
    let made = made_card(Arc::clone(&store), &args).await?;
    let year = made.year;
    let first = store.tax().oldest()?.map_or(year, |t| oslo_year(&t));
    let choice = store.tax().year_end_choices()?.remove(&year);
    let offers = [RateKind::LastTransaction, RateKind::Sample]
        .into_iter()
        .map(|kind| {
            let source = match kind {
                RateKind::Sample => RateChoice::Sample,
                _ => RateChoice::LastTransaction,
            };
            Ok((kind, year_end_rate::resolve(&store, year, Some(&source))?))
        })
        .collect::<Result<Vec<_>, nordlys_core::store::StoreError>>()?;
    Ok(CardFacts {
        first,
        choice,
        offers,
        names: crate::tax::Names::load(&store)?,
        exchange: session.profile.name.clone(),
        this_year: oslo_year(&Utc::now()),
        made,
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
    let locale = app.input_locale();
    let choice = match args.kind {
        RateKind::None => None,
        RateKind::NokPerBtc => Some(RateChoice::Entered(
            parse_price(&args.nok_per_btc, locale).map_err(invalid)?,
        )),
        RateKind::ViaUsd => Some(RateChoice::ViaUsd {
            usd_per_btc: nordlys_money::UsdPerBtc::new(
                parse_rate(&args.usd_per_btc, locale).map_err(invalid)?,
            ),
            nok_per_usd: nordlys_money::NokPerUsd::new(
                parse_rate(&args.nok_per_usd, locale).map_err(invalid)?,
            ),
        }),
        RateKind::LastTransaction => Some(RateChoice::LastTransaction),
        RateKind::Sample => Some(RateChoice::Sample),
    };
    app.tax_session()
        .await?
        .store
        .tax()
        .set_year_end_choice(args.year, choice.as_ref())?;
    Ok(NoArgs {})
}

pub async fn set_deposit_cost(app: &App, args: DepositCostArgs) -> Answer<NoArgs> {
    let locale = app.input_locale();
    let store = app.tax_session().await?.store;
    if args.acquired_on.trim().is_empty() && args.cost_nok.trim().is_empty() {
        store.tax().set_deposit_cost(&args.id, None)?;
        return Ok(NoArgs {});
    }
    let day = NaiveDate::parse_from_str(args.acquired_on.trim(), "%Y-%m-%d").map_err(|_| {
        AppError::new(
            ErrorCode::InvalidInput,
            msg!(DEPOSIT_COST_BAD_DATE {
                date: args.acquired_on.trim().to_owned()
            }),
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
                msg!(DEPOSIT_COST_FUTURE {
                    date: day.to_string()
                }),
            )
        })?;
    let cost_nok = match parse_nok(&args.cost_nok, locale) {
        Ok(n) => n,
        // A gift or a mined coin may have cost nothing.
        Err(AmountInputError::Zero) => Nok::ZERO,
        Err(e) => return Err(invalid(e)),
    };
    store.tax().set_deposit_cost(
        &args.id,
        Some(&EnteredCost {
            acquired_at,
            cost_nok,
        }),
    )?;
    Ok(NoArgs {})
}

/// Rows of the history as the exchange sent them: each id with its JSON.
#[derive(Debug, Clone)]
pub struct RawRows(pub Vec<(String, String)>);

pub async fn tax_rows_as_sent(app: &App, args: RowIdsArgs) -> Answer<RawRows> {
    let store = app.tax_session().await?.store;
    // A figure may rest on many rows; the window lists the first few hundred.
    let ids: Vec<String> = args.ids.into_iter().take(500).collect();
    Ok(RawRows(store.tax().rows_as_sent(&ids)?))
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
        msg!(CARD_XML_LEFT_OUT {
            fields: said.join("; ")
        })
        .render(words.locale)
    })
}

/// The export's file name and bytes, and (for the XML) what it leaves out.
pub async fn card_file(
    app: &App,
    args: &CardExportArgs,
) -> Answer<(String, Vec<u8>, Option<String>)> {
    // A document leaves for the user here: its words are the window's.
    let viewer = app.viewer();
    let locale = viewer.locale();
    let words = Words {
        locale,
        zone: viewer.zone,
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
