//! CSV exports (RFC 4180: comma, CRLF, quotes doubled; UTF-8 without a byte-order mark). Nothing
//! in them depends on the clock or the locale, so the same data gives the same bytes. Decimals are
//! written exactly as stored, never through a float or a locale format.

use std::fmt::Display;
use std::io::{self, Write};

use nordlys_exchange::models::TaxTransaction;
use nordlys_exchange::wire::format_time;
use nordlys_money::Nok;

use super::gains::{DisposalKind, GainsReport};
use super::year_end::{RateSource, YearEnd};

/// The API's field names, in its order (2.11).
pub const TRANSACTION_HEADER: [&str; 18] = [
    "id",
    "accountId",
    "type",
    "subType",
    "createTime",
    "finalizeTime",
    "inAmount",
    "inCurrency",
    "outAmount",
    "outCurrency",
    "feeAmount",
    "feeCurrency",
    "rateMarket",
    "isPayment",
    "paymentInfo",
    "note",
    "usdnok",
    "runningBalanceBtc",
];

/// Writes rows of fields, quoting where RFC 4180 requires it.
#[derive(Debug)]
pub struct CsvWriter<W: Write> {
    out: W,
}

impl<W: Write> CsvWriter<W> {
    pub fn new(out: W) -> Self {
        Self { out }
    }

    pub fn row<I, S>(&mut self, fields: I) -> io::Result<()>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for (i, field) in fields.into_iter().enumerate() {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            let f = field.as_ref();
            if f.contains([',', '"', '\r', '\n']) {
                write!(self.out, "\"{}\"", f.replace('"', "\"\""))?;
            } else {
                self.out.write_all(f.as_bytes())?;
            }
        }
        self.out.write_all(b"\r\n")
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// A text cell a spreadsheet will show, not run: one that starts with `=`, `+`, `-`, `@`, a tab or
/// a carriage return gets a leading `'` (a note or payment info is whatever somebody typed, and
/// the exchange's own words could be anything). Numbers, times and booleans are written as they
/// are: a negative amount stays a number.
fn inert(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_owned()
    }
}

/// A cell of any kind made safe for a spreadsheet: a number (a negative gain too) as it is,
/// anything else through [`inert`]. For files whose cells mix figures with text from outside.
pub fn inert_unless_number(s: &str) -> String {
    if s.parse::<rust_decimal::Decimal>().is_ok() {
        s.to_owned()
    } else {
        inert(s)
    }
}

fn text<T: Display>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// One transaction as its CSV fields, in [`TRANSACTION_HEADER`] order.
pub fn transaction_fields(t: &TaxTransaction) -> [String; 18] {
    let currency = |c: &Option<nordlys_exchange::models::CurrencyCode>| {
        c.as_ref().map(|c| inert(c.as_str())).unwrap_or_default()
    };
    [
        inert(t.id.as_str()),
        t.account_id
            .as_ref()
            .map(|a| inert(a.as_str()))
            .unwrap_or_default(),
        inert(t.tx_type.as_str()),
        inert(t.sub_type.as_str()),
        format_time(&t.create_time),
        t.finalize_time
            .as_ref()
            .map(format_time)
            .unwrap_or_default(),
        text(t.in_amount),
        currency(&t.in_currency),
        text(t.out_amount),
        currency(&t.out_currency),
        text(t.fee_amount),
        currency(&t.fee_currency),
        text(t.rate_market),
        t.is_payment.to_string(),
        inert(&t.payment_info),
        inert(&t.note),
        text(t.usdnok),
        t.running_balance_btc.to_string(),
    ]
}

/// The year-end report: one line per account and year, then the year's total. A year whose
/// holding is not computable has no balance or value, and `notComputable` says why: `pending`
/// (a row up to its end is still pending), `contradicted` (a running balance neither reading
/// explains) or `overflow` (amounts too large to add).
/// `name` gives an account's name and `source` a rate's source in the user's words.
pub fn write_year_end<W: Write>(
    out: W,
    years: &[YearEnd],
    name: impl Fn(&str) -> String,
    source: impl Fn(&RateSource) -> String,
) -> io::Result<W> {
    let mut w = CsvWriter::new(out);
    w.row([
        "year",
        "complete",
        "accountId",
        "accountName",
        "balanceBtc",
        "rateNok",
        "rateSource",
        "valueNok",
        "notComputable",
    ])?;
    for y in years {
        let year = y.year.to_string();
        let rate = text(y.rate_nok);
        let source = inert(&source(&y.source));
        let why_not = not_computable(y);
        let figure = |f: String| if why_not.is_empty() { f } else { String::new() };
        for a in &y.accounts {
            w.row([
                year.as_str(),
                &y.complete.to_string(),
                &inert(&a.account_id),
                &inert(&name(&a.account_id)),
                &figure(a.balance_btc.to_string()),
                &rate,
                &source,
                &figure(text(a.value_nok)),
                why_not,
            ])?;
        }
        w.row([
            year.as_str(),
            &y.complete.to_string(),
            "",
            "Total",
            &figure(y.total_btc.to_string()),
            &rate,
            &source,
            &figure(text(y.total_nok)),
            why_not,
        ])?;
    }
    Ok(w.into_inner())
}

/// Why a year's holding is no figure to report, as the year-end CSV names it (empty: it is).
fn not_computable(y: &YearEnd) -> &'static str {
    if y.overflowed {
        "overflow"
    } else if y.contradiction.is_some() {
        "contradicted"
    } else if y.pending_since.is_some() {
        "pending"
    } else {
        ""
    }
}

/// The gains report: one line per matched lot of each disposal, so every figure can be traced.
/// `method` is the matching method in the user's words.
pub fn write_gains<W: Write>(out: W, report: &GainsReport, method: &str) -> io::Result<W> {
    let mut w = CsvWriter::new(out);
    w.row([
        "year",
        "method",
        "disposalId",
        "disposalTime",
        "kind",
        "btc",
        "proceedsNok",
        "costNok",
        "gainNok",
        "unmatchedBtc",
        "lotId",
        "lotTime",
        "lotBtc",
        "lotCostNok",
    ])?;
    for d in &report.disposals {
        let kind = match d.kind {
            DisposalKind::Sale => "sale",
            DisposalKind::Payment => "payment",
        };
        // A figure not known is left empty, never written as the zero it was worked from.
        let known = |known: bool, figure: Nok| {
            if known {
                figure.to_string()
            } else {
                String::new()
            }
        };
        let computable = d.unknown.is_empty();
        let head = [
            d.year.to_string(),
            method.to_owned(),
            inert(&d.id),
            format_time(&d.at),
            kind.to_owned(),
            d.btc.to_string(),
            known(d.proceeds_known(), d.proceeds_nok),
            known(d.lots.iter().all(|l| l.unknown.is_none()), d.cost_nok),
            known(computable, d.gain_nok),
            d.unmatched_btc.to_string(),
        ];
        if d.lots.is_empty() {
            w.row(head.iter().cloned().chain([
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ]))?;
        }
        for lot in &d.lots {
            w.row(
                head.iter().cloned().chain([
                    lot.acquisition_id
                        .as_deref()
                        .map_or_else(|| "average".into(), inert),
                    lot.acquired_at
                        .as_ref()
                        .map(format_time)
                        .unwrap_or_default(),
                    lot.btc.to_string(),
                    known(lot.unknown.is_none(), lot.cost_nok),
                ]),
            )?;
        }
    }
    Ok(w.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::tests_support::{RowParts, tx};
    use nordlys_exchange::models::TaxTransactionType;

    /// Found trying the app as a new user: a sale of a deposit whose cost was not entered was
    /// exported with a gain worked from a zero cost. Its cost and gain are now empty cells.
    #[test]
    fn a_gain_that_is_not_known_is_an_empty_cell_not_a_figure_from_zero() {
        use crate::tax::gains::{DepositCosts, GainsBuilder, Method};
        let rows = [
            tx(
                "de_1",
                "2024-01-10T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcDeposit,
                "0.1",
                "500000",
            )
            .received("0.1", "BTC"),
            tx(
                "tr_2",
                "2024-03-10T10:00:00Z",
                "acc_a",
                TaxTransactionType::BtcSell,
                "0",
                "600000",
            )
            .received("60000", "NOK")
            .paid("0.1", "BTC"),
        ];
        let mut b = GainsBuilder::new(Method::Fifo)
            .with_deposit_costs(DepositCosts::Entered(std::collections::BTreeMap::new()));
        rows.iter().for_each(|t| b.add(t));
        let text = String::from_utf8(write_gains(vec![], &b.finish(), "FIFO").unwrap()).unwrap();
        let line = text.lines().nth(1).unwrap();
        let cells: Vec<&str> = line.split(',').collect();
        // proceedsNok, costNok, gainNok; lotCostNok last.
        assert_eq!((cells[6], cells[7], cells[8]), ("60000", "", ""), "{line}");
        assert_eq!(cells[13], "", "{line}");
        assert_eq!(cells[10], "de_1", "{line}");
    }

    #[test]
    fn fields_are_quoted_only_when_needed_and_lines_end_in_crlf() {
        let mut w = CsvWriter::new(vec![]);
        w.row(["plain", "a,b", "say \"hi\"", "two\nlines", "blåbær"])
            .unwrap();
        assert_eq!(
            String::from_utf8(w.into_inner()).unwrap(),
            "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",blåbær\r\n"
        );
    }

    /// A buy of 0.1 BTC that paid `nok` NOK.
    fn bought(nok: &str) -> TaxTransaction {
        tx(
            "tr_1",
            "2024-01-10T10:00:00Z",
            "acc_a",
            TaxTransactionType::BtcBuy,
            "0.10000000",
            "912345.60",
        )
        .received("0.10000000", "BTC")
        .paid(nok, "NOK")
    }

    #[test]
    fn text_a_spreadsheet_would_run_is_made_inert_and_numbers_stay_numbers() {
        let mut t = bought("-91234.56");
        for (note, written) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+47 1234", "'+47 1234"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tcmd", "'\tcmd"),
            ("\rcmd", "'\rcmd"),
            ("kaffe = godt", "kaffe = godt"),
        ] {
            t.note = note.into();
            t.payment_info = note.into();
            let f = transaction_fields(&t);
            assert_eq!(f[15], written);
            assert_eq!(f[14], written);
        }
        // A negative amount is a number, not a formula.
        assert_eq!(transaction_fields(&t)[8], "-91234.56");
    }

    #[test]
    fn a_transaction_keeps_its_decimals_exactly() {
        let mut t = bought("91234.56");
        t.note = "kjøp, første".into();
        let f = transaction_fields(&t);
        assert_eq!(f[6], "0.10000000");
        assert_eq!(f[8], "91234.56");
        assert_eq!(f[12], "912345.60");
        assert_eq!(f[17], "0.10000000");
        assert_eq!(f[4], "2024-01-10T10:00:00Z");
        assert_eq!(f[15], "kjøp, første");
    }

    /// A year whose holding is not computable writes no balance or value, and says why.
    #[test]
    fn a_year_end_line_of_a_year_not_computable_has_no_figures() {
        let year = |contradiction: Option<super::super::balances::Contradiction>| YearEnd {
            year: 2025,
            complete: true,
            rate_nok: None,
            source: RateSource::Missing,
            accounts: vec![super::super::year_end::AccountHolding {
                account_id: "acc_1".into(),
                balance_btc: nordlys_money::Btc::computed(rust_decimal::Decimal::new(65, 3)),
                value_nok: None,
            }],
            total_btc: nordlys_money::Btc::computed(rust_decimal::Decimal::new(65, 3)),
            total_nok: None,
            pending_since: None,
            contradiction,
            overflowed: false,
        };
        let csv = |y: YearEnd| {
            let bytes = write_year_end(vec![], &[y], |_| "Main".into(), |_| "none".into()).unwrap();
            String::from_utf8(bytes).unwrap()
        };
        let good = csv(year(None));
        assert!(good.contains("0.065"), "{good}");
        assert!(good.lines().nth(1).unwrap().ends_with(","), "{good:?}");
        let bad = csv(year(Some(super::super::balances::Contradiction {
            ids: vec!["tr_1".into()],
            rows: 1,
        })));
        assert!(!bad.contains("0.065"), "{bad}");
        assert_eq!(bad.matches(",contradicted\r\n").count(), 2, "{bad:?}");
    }

    #[test]
    fn a_mixed_cell_keeps_numbers_and_makes_text_inert() {
        assert_eq!(inert_unless_number("-100.25"), "-100.25");
        assert_eq!(inert_unless_number("0.00012345"), "0.00012345");
        assert_eq!(
            inert_unless_number("=HYPERLINK(\"x\")"),
            "'=HYPERLINK(\"x\")"
        );
        assert_eq!(inert_unless_number("-2+3"), "'-2+3");
        assert_eq!(inert_unless_number("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(inert_unless_number("tr_1"), "tr_1");
    }
}
