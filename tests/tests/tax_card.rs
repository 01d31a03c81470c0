#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "integration tests: a failed step is the failure being reported"
)]
//! The tax return's card through the app's own use cases, against the sandbox: no rate is
//! guessed, each source of the year-end rate files its value, and the exports carry the figures,
//! the method, the rule set and a hash the rows in the attachment reproduce.

mod app_driver;

use app_driver::{connected_app, tax_synced};
use nordlys_application::card;
use nordlys_application::card_views::{
    CardArgs, CardExportArgs, CardField, CardFormat, CardValue, CardView, RateKind, RefusalKind,
    YearEndChoiceArgs,
};
use nordlys_application::present::{Present, Presented};
use nordlys_application::wording::key;
use nordlys_core::tax::gains::Method;
use nordlys_tests::*;
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};

fn field(c: &CardView, f: CardField) -> &nordlys_application::card_views::CardFieldView {
    c.entries[0].fields.iter().find(|x| x.field == f).unwrap()
}

/// What the user copies into the return: a text field's text, or a figure as filed (none
/// while hidden). A figure's filed text is its filed amount, written as the return takes it.
fn filed(f: &nordlys_application::card_views::CardFieldView) -> Option<String> {
    match f.value.as_ref()? {
        CardValue::Text { text } => Some(text.clone()),
        CardValue::Figure { filed, .. } => {
            let amount = filed.exact()?;
            assert_eq!(
                amount.decimal(),
                filed.text().parse::<Decimal>().unwrap(),
                "{filed:?}"
            );
            Some(filed.text().to_owned())
        }
    }
}

fn choice(year: i32, kind: RateKind, nok: &str, usd: &str, per_usd: &str) -> YearEndChoiceArgs {
    YearEndChoiceArgs {
        year,
        kind,
        nok_per_btc: nok.into(),
        usd_per_btc: usd.into(),
        nok_per_usd: per_usd.into(),
    }
}

/// `antall × rate` in whole kroner, half away from zero, worked here apart from the app's code.
fn kroner(antall: &str, rate: Decimal) -> String {
    let exact = antall.parse::<Decimal>().unwrap() * rate;
    exact
        .round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
        .to_string()
}

/// RFC 4180 records: fields split at commas outside quotes, `""` inside quotes a quote.
fn records(text: &str) -> Vec<Vec<String>> {
    let (mut out, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') | (false, '"') => quoted = !quoted,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                out.push(std::mem::take(&mut record));
            }
            _ => field.push(c),
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_card_refuses_without_a_rate_files_each_source_and_exports_what_it_rests_on() {
    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    tax_synced(&app).await;
    let args = CardArgs {
        year: None,
        method: Method::Fifo,
        per_account: false,
    };
    let c = card::tax_card(&app, args.clone())
        .await
        .unwrap()
        .present(&app.viewer());
    assert_eq!(c.rate_kind, RateKind::None);
    // No source chosen: the wealth value is refused, with the reason and the fix.
    let wealth = field(&c, CardField::Formuesverdi);
    let refusal = wealth.refusal.as_ref().expect("refused without a rate");
    assert_eq!(refusal.why, RefusalKind::NoRateChosen, "{refusal:?}");
    assert!(refusal.fix.contains("Skatteetaten"), "{refusal:?}");
    assert_eq!(filed(wealth), None);
    // Its XML leaves the wealth value out, and says so with the reason.
    let (_, xml, left_out) = card::card_file(
        &app,
        &CardExportArgs {
            card: args.clone(),
            format: CardFormat::Xml,
        },
    )
    .await
    .unwrap();
    assert!(!String::from_utf8(xml).unwrap().contains("<formuesverdi>"));
    let left_out = left_out.expect("the export says what it left out");
    assert!(
        left_out.contains(&wealth.label) && left_out.contains(&refusal.reason),
        "{left_out}"
    );
    // The card's order, as the tax return asks.
    let order: Vec<CardField> = c.entries[0].fields.iter().map(|f| f.field).collect();
    assert_eq!(
        order,
        [
            CardField::Landkode,
            CardField::Navn,
            CardField::Antall,
            CardField::Formuesverdi,
            CardField::Gevinst,
            CardField::Tap,
            CardField::AnnenKapitalinntekt,
            CardField::Boersnavn
        ]
    );
    let antall = filed(field(&c, CardField::Antall)).unwrap();
    assert_eq!(antall.split('.').nth(1).map(str::len), Some(10), "{antall}");

    // A rate that is not a number is refused and nothing is kept.
    let bad = card::set_year_end_choice(&app, choice(c.year, RateKind::NokPerBtc, "abc", "", ""))
        .await
        .unwrap_err();
    assert!(bad.says(key::AMOUNT_NOT_A_NUMBER), "{bad:?}");
    assert_eq!(
        card::tax_card(&app, args.clone())
            .await
            .unwrap()
            .present(&app.viewer())
            .rate_kind,
        RateKind::None
    );

    // Skatteetaten's rates as USD per BTC and NOK per USD: 100 000 × 10.5 = 1 050 000.
    card::set_year_end_choice(
        &app,
        choice(c.year, RateKind::ViaUsd, "", "100 000", "10.5"),
    )
    .await
    .unwrap();
    let facts = card::tax_card(&app, args.clone()).await.unwrap();
    assert_eq!(
        facts.made.rate.as_ref().map(|r| r.source.clone()),
        Ok(nordlys_core::tax::year_end::RateSource::EnteredViaUsd {
            usd_per_btc: nordlys_money::UsdPerBtc::new(Decimal::from(100_000)),
            nok_per_usd: nordlys_money::NokPerUsd::new(Decimal::new(105, 1)),
        }),
        "the rate says where it came from"
    );
    let c = facts.present(&app.viewer());
    let wealth = field(&c, CardField::Formuesverdi);
    assert_eq!(
        filed(wealth).as_deref(),
        Some(kroner(&antall, Decimal::from(1_050_000)).as_str())
    );

    // The last market rate in the history is offered with its value, and files at it.
    let offered = c
        .offers
        .iter()
        .find(|o| o.kind == RateKind::LastTransaction)
        .unwrap()
        .clone();
    assert!(offered.rate.is_some(), "{offered:?}");
    card::set_year_end_choice(&app, choice(c.year, RateKind::LastTransaction, "", "", ""))
        .await
        .unwrap();
    let c = card::tax_card(&app, args.clone())
        .await
        .unwrap()
        .present(&app.viewer());
    assert_eq!(c.rate, offered.rate);
    assert_eq!(c.rate_source, offered.source);
    assert!(filed(field(&c, CardField::Formuesverdi)).is_some());

    // Nordlys took no sample at midnight on 31 December: refused, with the reason.
    card::set_year_end_choice(&app, choice(c.year, RateKind::Sample, "", "", ""))
        .await
        .unwrap();
    let sampled = card::tax_card(&app, args.clone())
        .await
        .unwrap()
        .present(&app.viewer());
    let refusal = field(&sampled, CardField::Formuesverdi)
        .refusal
        .clone()
        .unwrap();
    assert_eq!(refusal.why, RefusalKind::NoPriceSample, "{refusal:?}");

    // Back to Skatteetaten's NOK rate; then the exports.
    card::set_year_end_choice(
        &app,
        choice(c.year, RateKind::NokPerBtc, "1 000 000", "", ""),
    )
    .await
    .unwrap();
    let c = card::tax_card(&app, args.clone())
        .await
        .unwrap()
        .present(&app.viewer());
    let copied: Vec<(String, String)> = c.entries[0]
        .fields
        .iter()
        .filter_map(|f| Some((f.schema.clone(), filed(f)?)))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let export_saying = async |format| {
        let (name, bytes, left_out) = card::card_file(
            &app,
            &CardExportArgs {
                card: args.clone(),
                format,
            },
        )
        .await
        .unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        (path, left_out)
    };
    let export = async |format| export_saying(format).await.0;
    let (xml, left_out) = export_saying(CardFormat::Xml).await;
    let xml = std::fs::read_to_string(xml).unwrap();
    // A figure the card cannot compute is left out of the XML, and the export says so.
    let refused = c
        .entries
        .iter()
        .flat_map(|e| &e.fields)
        .filter(|f| f.refusal.is_some())
        .count();
    assert_eq!(left_out.is_some(), refused > 0, "{left_out:?}");
    for (schema, value) in &copied {
        if schema == "landkode" || schema == "navn" || schema == "boersnavn" {
            continue;
        }
        assert!(
            xml.contains(&format!("<{schema}>")) && xml.contains(value.as_str()),
            "{schema} = {value} in {xml}"
        );
    }

    let csv = std::fs::read_to_string(export(CardFormat::AttachmentCsv).await).unwrap();
    assert!(
        csv.contains(&format!("rowsSha256,,,,,,,,{}", c.rows_sha256)),
        "{csv}"
    );
    assert!(csv.contains("about,,,,ruleSet,"), "{csv}");
    // The rows in the attachment are the rows hashed: their JSON, one per line, gives the hash.
    let mut hash = Sha256::new();
    let mut rows = 0;
    for record in records(&csv) {
        if record[0] == "row" {
            hash.update(&record[12]);
            hash.update(b"\n");
            rows += 1;
        }
    }
    let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!((hex, rows), (c.rows_sha256.clone(), c.rows));

    let pdf = export(CardFormat::AttachmentPdf).await;
    let text = std::process::Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(text.status.success(), "{text:?}");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Method: FIFO"), "{text}");
    assert!(text.contains("nordlys-tax-rules/1"), "{text}");
    assert!(text.contains(&c.rows_sha256), "{text}");
    let wealth = filed(field(&c, CardField::Formuesverdi)).unwrap();
    assert!(
        text.contains(&format!("formuesverdiForVirtuellEiendel: {wealth}")),
        "{text}"
    );
}

/// The sell ticket before confirming: what the sale would realise and cost in tax, from the
/// synced lots; nothing to say before the history is synced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sell_ticket_shows_the_tax_the_sale_would_cost_once_the_history_is_synced() {
    use app_driver::order;
    use nordlys_application::profile_views::SetTaxRulesArgs;
    use nordlys_application::vocabulary::Direction;
    use nordlys_application::{profiles, trading};

    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let limit = Some("1000000".to_owned());
    let before = trading::check_order(&app, order(Direction::Sell, "0.001", limit.clone()))
        .await
        .unwrap();
    let refusal = before.sale_tax.unwrap().found.unwrap_err();
    assert_eq!(
        refusal,
        nordlys_core::tax::sale_tax::SaleTaxRefusal::NotSynced,
        "{refusal:?}"
    );
    // A buy realises nothing: no tax line.
    let buy = trading::check_order(&app, order(Direction::Buy, "500", None))
        .await
        .unwrap();
    assert!(buy.sale_tax.is_none());

    tax_synced(&app).await;
    profiles::set_tax_rules(
        &app,
        SetTaxRulesArgs {
            income_tax_percent: "50".into(),
            tax_method: Method::Fifo,
        },
    )
    .await
    .unwrap();
    let bad = profiles::set_tax_rules(
        &app,
        SetTaxRulesArgs {
            income_tax_percent: "101".into(),
            tax_method: Method::Fifo,
        },
    )
    .await
    .unwrap_err();
    assert!(bad.says(key::TAX_RATE_RANGE), "{bad:?}");
    let sale = trading::check_order(&app, order(Direction::Sell, "0.001", limit))
        .await
        .unwrap()
        .sale_tax
        .unwrap();
    assert_eq!(sale.method, Method::Fifo);
    let t = sale.found.unwrap();
    assert!(!t.disposal.lots.is_empty(), "{t:?}");
    // At 50 % the tax is half the gain.
    assert_eq!(t.percent, nordlys_money::Percent::new(Decimal::from(50)));
    let half = t.disposal.gain_nok.decimal() / Decimal::from(2);
    assert!(
        (half - t.tax.decimal()).abs() <= Decimal::new(1, 2),
        "{t:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_holdings_chart_ends_at_the_balances_the_exchange_reports_and_privacy_hides_it() {
    use nordlys_application::holdings_chart::{HoldingsChartArgs, holdings_chart};
    use nordlys_application::profile_views::SetPrivacyArgs;
    use nordlys_application::tax_views::{GainsArgs, TaxBalancesArgs};
    use nordlys_application::{profiles, tax};

    let sb = sandbox().await;
    let (app, _dir) = connected_app(&sb, None).await;
    let size = HoldingsChartArgs {
        width: 900,
        height: 440,
        dark: false,
    };
    tax_synced(&app).await;
    let chart = holdings_chart(&app, size.clone())
        .await
        .unwrap()
        .presented(&app.viewer())
        .unwrap();
    assert!(!chart.hidden);
    let now = chart.readout.last().expect("the holding now is named");
    // The running balances' last word is what the exchange's own balance endpoint says.
    let balances = tax::tax_balances(
        &app,
        TaxBalancesArgs {
            include_deleted: true,
        },
    )
    .await
    .unwrap()
    .present(&app.viewer());
    assert_eq!(now.total, balances.total_btc);
    assert!(now.total.exact().is_some(), "{now:?}");
    for a in &balances.accounts {
        assert!(chart.svg.contains(&a.name), "{} has its line", a.name);
    }
    let gains = tax::gains_report(
        &app,
        GainsArgs {
            method: Method::Fifo,
        },
    )
    .await
    .unwrap();
    assert!(!gains.disposals.is_empty(), "the sandbox's history sells");
    assert!(
        [key::HOLDINGS_GAIN, key::HOLDINGS_LOSS]
            .into_iter()
            .any(|k| chart.svg.contains(&nordlys_application::wording::say(
                k,
                nordlys_core::format::Locale::En
            ))),
        "realised gains are marked"
    );
    assert!(chart.readout.windows(2).all(|w| w[0].x <= w[1].x));

    profiles::set_privacy(&app, SetPrivacyArgs { hidden: true })
        .await
        .unwrap();
    let hidden = holdings_chart(&app, size)
        .await
        .unwrap()
        .presented(&app.viewer())
        .unwrap();
    assert!(hidden.hidden && hidden.svg.is_empty() && hidden.readout.is_empty());
}

/// Found trying the app as a new user: Gains showed a net gain for a year whose gain and loss
/// the card called not computable (Gains had taken deposits from outside at market value). Both
/// now take a deposit's cost as the user entered it, so they agree on every year; and under
/// either reading of `runningBalanceBtc` (the seeded user has two funded accounts) Gains shows
/// the same figures.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gains_and_the_card_agree_on_which_years_are_computable() {
    use nordlys_application::tax;
    use nordlys_application::tax_views::GainsArgs;
    use nordlys_sandbox::world::RunningBalance;

    let mut shown = Vec::new();
    for reading in [RunningBalance::Total, RunningBalance::Account] {
        let sb = sandbox_reading(reading).await;
        let (app, _dir) = connected_app(&sb, None).await;
        tax_synced(&app).await;
        let gains = tax::gains_report(
            &app,
            GainsArgs {
                method: Method::Fifo,
            },
        )
        .await
        .unwrap()
        .present(&app.viewer());
        assert!(
            gains.years.iter().any(|y| y.not_computable.is_some()),
            "the sandbox sells deposits from outside with no cost entered: {:?}",
            gains.years
        );
        for y in &gains.years {
            let c = card::tax_card(
                &app,
                CardArgs {
                    year: Some(y.year),
                    method: Method::Fifo,
                    per_account: false,
                },
            )
            .await
            .unwrap()
            .present(&app.viewer());
            let gain = field(&c, CardField::Gevinst);
            assert_eq!(
                y.not_computable.is_some(),
                gain.refusal.is_some(),
                "{reading:?} {}: Gains says {:?}, the card {:?}",
                y.year,
                y.not_computable,
                gain.refusal
            );
            if y.not_computable.is_some() {
                assert_eq!(
                    (y.net.text(), y.net.exact()),
                    (y.not_computable.as_deref().unwrap(), None),
                    "no figure beside it"
                );
            }
        }
        let figures: Vec<_> = gains
            .years
            .iter()
            .map(|y| (y.year, y.proceeds.clone(), y.net.clone()))
            .collect();
        shown.push(figures);
    }
    assert_eq!(shown[0], shown[1], "Gains depends on the reading");
}
