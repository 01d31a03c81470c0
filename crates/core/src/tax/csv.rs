//! CSV exports (RFC 4180: comma, CRLF, quotes doubled; UTF-8 without a byte-order mark). Nothing
//! in them depends on the clock or the locale, so the same data gives the same bytes. Decimals are
//! written exactly as stored, never through a float or a locale format.

use std::fmt::Display;
use std::io::{self, Write};

use nordlys_exchange::models::TaxTransaction;
use nordlys_exchange::wire::format_time;

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

/// The year-end report: one line per account and year, then the year's total.
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
    ])?;
    for y in years {
        let year = y.year.to_string();
        let rate = text(y.rate_nok);
        let source = inert(&source(&y.source));
        for a in &y.accounts {
            w.row([
                year.as_str(),
                &y.complete.to_string(),
                &inert(&a.account_id),
                &inert(&name(&a.account_id)),
                &a.balance_btc.to_string(),
                &rate,
                &source,
                &text(a.value_nok),
            ])?;
        }
        w.row([
            year.as_str(),
            &y.complete.to_string(),
            "",
            "Total",
            &y.total_btc.to_string(),
            &rate,
            &source,
            &text(y.total_nok),
        ])?;
    }
    Ok(w.into_inner())
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
        let head = [
            d.year.to_string(),
            method.to_owned(),
            inert(&d.id),
            format_time(&d.at),
            kind.to_owned(),
            d.btc.to_string(),
            d.proceeds_nok.to_string(),
            d.cost_nok.to_string(),
            d.gain_nok.to_string(),
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
                    lot.cost_nok.to_string(),
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
}
