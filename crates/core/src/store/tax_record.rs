//! A tax row's record: its times, kinds, amounts, currencies, rates and running balance, compact,
//! in one column. SQLite's cost of reading a row is per column, and a report reads every stored
//! row: read from eighteen text columns, a row cost 0.9 µs in SQLite alone, from three 0.33 µs.
//!
//! The row keeps as columns of their own what SQL filters, searches or orders by (the id, the
//! times, the account, the kinds, the market rate, the note, the payment info); the record
//! repeats the times, kinds and rate so a row is read from the id, the account, the note, the
//! payment info and the record alone.
//!
//! The record: a version byte, then the fields in [`encode`]'s order. Integers are LEB128
//! (seconds zigzagged); text is its byte length then its bytes; a kind is 1 + its place among the
//! values the specification names, or 0 and its text; a decimal is a byte of sign and scale (0xFF
//! for none) then its mantissa, so `1.50` reads back as `1.50`.

use chrono::{DateTime, Utc};
use nordlys_exchange::ids::{AccountId, TaxTransactionId};
use nordlys_exchange::models::{CurrencyCode, TaxSubType, TaxTransaction, TaxTransactionType};
use nordlys_money::Quantity;
use rust_decimal::Decimal;

use super::StoreError;
use super::tax::{opt_dec, unstamp};

/// The record's first byte: this layout.
const VERSION: u8 = 1;
/// The first byte of the record of a row that did not read back when the records were first
/// written from the old columns; the rest says why. Reading it is that error again, as it was.
const DAMAGED: u8 = 0;
/// The sign-and-scale byte of an absent decimal.
const NONE: u8 = 0xFF;
const NEGATIVE: u8 = 0x80;

/// `t`'s record.
pub(super) fn encode(t: &TaxTransaction) -> Vec<u8> {
    let mut out = Vec::with_capacity(96);
    out.push(VERSION);
    put_time(&mut out, &t.create_time);
    match &t.finalize_time {
        Some(at) => {
            out.push(1);
            put_time(&mut out, at);
        }
        None => out.push(0),
    }
    put_kind(
        &mut out,
        &t.tx_type,
        TaxTransactionType::KNOWN,
        TaxTransactionType::as_str,
    );
    put_kind(&mut out, &t.sub_type, TaxSubType::KNOWN, TaxSubType::as_str);
    for (amount, currency) in [
        (t.in_amount, &t.in_currency),
        (t.out_amount, &t.out_currency),
        (t.fee_amount, &t.fee_currency),
    ] {
        put_decimal(&mut out, amount);
        match currency {
            Some(code) => put_kind(&mut out, code, CurrencyCode::KNOWN, CurrencyCode::as_str),
            // No currency: the unnamed value with no text.
            None => out.extend([0, 0]),
        }
    }
    put_decimal(&mut out, t.rate_market.map(Quantity::decimal));
    out.push(u8::from(t.is_payment));
    put_decimal(&mut out, t.usdnok);
    put_decimal(&mut out, Some(t.running_balance_btc.decimal()));
    out
}

/// The record of a row whose old columns did not read back, carrying why.
pub(super) fn damaged(why: &str) -> Vec<u8> {
    let mut out = vec![DAMAGED];
    out.extend_from_slice(why.as_bytes());
    out
}

/// What a row holds beside its record: its id, account, payment info and note.
pub(super) struct RowText {
    pub id: TaxTransactionId,
    pub account_id: Option<AccountId>,
    pub payment_info: String,
    pub note: String,
}

/// The row of `record` and `text`, or why the record does not read. The row is put together
/// once, at the end: it is some 400 bytes, and each move of it showed in a report's time.
pub(super) fn decode(record: &[u8], text: RowText) -> Result<TaxTransaction, StoreError> {
    let mut r = Reader(record);
    match r.byte()? {
        VERSION => {}
        DAMAGED => {
            return Err(StoreError::Corrupt(
                String::from_utf8_lossy(r.0).into_owned(),
            ));
        }
        other => return Err(corrupt(&format!("record version {other}"))),
    }
    let create_time = r.time()?;
    let finalize_time = match r.byte()? {
        0 => None,
        1 => Some(r.time()?),
        other => return Err(corrupt(&format!("finalize tag {other}"))),
    };
    let tx_type = r.kind(TaxTransactionType::KNOWN)?;
    let sub_type = r.kind(TaxSubType::KNOWN)?;
    let mut amount = || -> Result<_, StoreError> {
        let amount = r.decimal()?;
        let code: CurrencyCode = r.kind(CurrencyCode::KNOWN)?;
        Ok((amount, (code.as_str() != "").then_some(code)))
    };
    let (in_amount, in_currency) = amount()?;
    let (out_amount, out_currency) = amount()?;
    let (fee_amount, fee_currency) = amount()?;
    let rate_market = r.decimal()?.map(Quantity::computed);
    let is_payment = match r.byte()? {
        0 => false,
        1 => true,
        other => return Err(corrupt(&format!("payment flag {other}"))),
    };
    let usdnok = r.decimal()?;
    let running_balance_btc =
        Quantity::computed(r.decimal()?.ok_or_else(|| corrupt("no running balance"))?);
    if !r.0.is_empty() {
        return Err(corrupt("bytes after the last field"));
    }
    Ok(TaxTransaction {
        id: text.id,
        account_id: text.account_id,
        tx_type,
        sub_type,
        create_time,
        finalize_time,
        in_amount,
        in_currency,
        out_amount,
        out_currency,
        fee_amount,
        fee_currency,
        rate_market,
        is_payment,
        payment_info: text.payment_info,
        note: text.note,
        usdnok,
        running_balance_btc,
    })
}

fn corrupt(what: &str) -> StoreError {
    StoreError::Corrupt(format!("a stored tax row's record is damaged: {what}"))
}

fn put_varint(out: &mut Vec<u8>, mut n: u128) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7F) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn put_time(out: &mut Vec<u8>, at: &DateTime<Utc>) {
    let seconds = at.timestamp();
    put_varint(out, u128::from(((seconds << 1) ^ (seconds >> 63)) as u64));
    put_varint(out, u128::from(at.timestamp_subsec_nanos()));
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    put_varint(out, text.len() as u128);
    out.extend_from_slice(text.as_bytes());
}

/// A value of an open enum: 1 + its place among the values the specification names, or 0 and
/// its text (a value this client does not know, or no value).
fn put_kind<T: PartialEq>(out: &mut Vec<u8>, value: &T, known: &[T], text: fn(&T) -> &str) {
    match known.iter().position(|k| k == value) {
        Some(place) if place < usize::from(u8::MAX) => out.push(place as u8 + 1),
        _ => {
            out.push(0);
            put_text(out, text(value));
        }
    }
}

fn put_decimal(out: &mut Vec<u8>, d: Option<Decimal>) {
    match d {
        None => out.push(NONE),
        Some(d) => {
            // A scale is at most 28: it and the sign fit one byte, never 0xFF.
            let sign = if d.is_sign_negative() { NEGATIVE } else { 0 };
            out.push(sign | d.scale() as u8);
            put_varint(out, d.mantissa().unsigned_abs());
        }
    }
}

/// What is left of a record to read.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, StoreError> {
        let (&first, rest) = self.0.split_first().ok_or_else(|| corrupt("cut short"))?;
        self.0 = rest;
        Ok(first)
    }

    /// A LEB128 number of at most `bits` bits (at most 96).
    fn varint(&mut self, bits: u32) -> Result<u128, StoreError> {
        // Most are one byte: kinds, lengths, nanoseconds, small amounts.
        if let Some((&b, rest)) = self.0.split_first()
            && b < 0x80
        {
            self.0 = rest;
            return Ok(u128::from(b));
        }
        let mut n = 0u128;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift >= bits {
                return Err(corrupt("a number out of range"));
            }
            n |= u128::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        if n >> bits != 0 {
            return Err(corrupt("a number out of range"));
        }
        Ok(n)
    }

    fn time(&mut self) -> Result<DateTime<Utc>, StoreError> {
        let zigzag = self.varint(64)? as u64;
        let seconds = (zigzag >> 1) as i64 ^ -((zigzag & 1) as i64);
        let nanos = u32::try_from(self.varint(32)?).unwrap_or(u32::MAX);
        DateTime::from_timestamp(seconds, nanos).ok_or_else(|| corrupt("a time out of range"))
    }

    fn text(&mut self) -> Result<&'a str, StoreError> {
        let len = usize::try_from(self.varint(32)?).map_err(|_| corrupt("a text too long"))?;
        if len > self.0.len() {
            return Err(corrupt("cut short"));
        }
        let (text, rest) = self.0.split_at(len);
        self.0 = rest;
        std::str::from_utf8(text).map_err(|_| corrupt("a text that is not UTF-8"))
    }

    fn kind<T: Clone + for<'t> From<&'t str>>(&mut self, known: &[T]) -> Result<T, StoreError> {
        match self.byte()? {
            0 => Ok(self.text()?.into()),
            place => known
                .get(usize::from(place) - 1)
                .cloned()
                .ok_or_else(|| corrupt(&format!("kind {place}"))),
        }
    }

    fn decimal(&mut self) -> Result<Option<Decimal>, StoreError> {
        let head = self.byte()?;
        if head == NONE {
            return Ok(None);
        }
        let scale = u32::from(head & !NEGATIVE);
        if scale > Decimal::MAX_SCALE {
            return Err(corrupt("a decimal's scale out of range"));
        }
        let m = self.varint(96)?;
        let mut d = Decimal::from_parts(m as u32, (m >> 32) as u32, (m >> 64) as u32, false, scale);
        d.set_sign_negative(head & NEGATIVE != 0);
        Ok(Some(d))
    }
}

/// The columns of a row before its record replaced most of them, in the old order.
pub(super) const OLD_COLUMNS: &str = "id, create_time, account_id, type, sub_type, finalize_time, \
    in_amount, in_currency, out_amount, out_currency, fee_amount, fee_currency, rate_market, \
    is_payment, payment_info, note, usdnok, running_balance_btc";

/// Copies every row of the old table into `tax_transactions_recorded`, each with its record
/// (the 16th migration; the 17th puts the new table in the old one's place). A row whose old
/// columns do not read is copied with a record of why, so reading it is the same error it was.
pub(super) fn copy_rows(tx: &rusqlite::Transaction<'_>) -> Result<(), StoreError> {
    let mut read = tx.prepare(&format!("SELECT seq, {OLD_COLUMNS} FROM tax_transactions"))?;
    let mut write = tx.prepare(
        "INSERT INTO tax_transactions_recorded (seq, id, create_time, account_id, type, sub_type, \
         finalize_time, rate_market, payment_info, note, record) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let record = match old_row(r) {
            Ok(t) => encode(&t),
            Err(StoreError::Corrupt(why)) => damaged(&why),
            Err(other) => damaged(&other.to_string()),
        };
        let column = |name: &str| -> rusqlite::Result<rusqlite::types::Value> { r.get(name) };
        write.execute(rusqlite::params![
            column("seq")?,
            column("id")?,
            column("create_time")?,
            column("account_id")?,
            column("type")?,
            column("sub_type")?,
            column("finalize_time")?,
            column("rate_market")?,
            column("payment_info")?,
            column("note")?,
            record,
        ])?;
    }
    Ok(())
}

/// A row of the old table, read from its text columns.
fn old_row(r: &rusqlite::Row<'_>) -> Result<TaxTransaction, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(r.get::<_, String>(name)?) };
    let currency = |name: &str| -> Result<Option<CurrencyCode>, StoreError> {
        let c = text(name)?;
        Ok((!c.is_empty()).then(|| c.as_str().into()))
    };
    let account = text("account_id")?;
    let finalized = text("finalize_time")?;
    Ok(TaxTransaction {
        id: text("id")?.into(),
        account_id: (!account.is_empty()).then(|| account.into()),
        tx_type: text("type")?.as_str().into(),
        sub_type: text("sub_type")?.as_str().into(),
        create_time: unstamp(&text("create_time")?)?,
        finalize_time: if finalized.is_empty() {
            None
        } else {
            Some(unstamp(&finalized)?)
        },
        in_amount: opt_dec(&text("in_amount")?)?,
        in_currency: currency("in_currency")?,
        out_amount: opt_dec(&text("out_amount")?)?,
        out_currency: currency("out_currency")?,
        fee_amount: opt_dec(&text("fee_amount")?)?,
        fee_currency: currency("fee_currency")?,
        rate_market: opt_dec(&text("rate_market")?)?,
        is_payment: r.get("is_payment")?,
        payment_info: text("payment_info")?,
        note: text("note")?,
        usdnok: opt_dec(&text("usdnok")?)?,
        running_balance_btc: opt_dec(&text("running_balance_btc")?)?
            .ok_or_else(|| StoreError::Corrupt("`` is not a decimal".into()))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::tests_support::tx;
    use std::str::FromStr;

    /// The row of `record` with `t`'s id, account, note and payment info.
    fn read(record: &[u8], t: &TaxTransaction) -> Result<TaxTransaction, StoreError> {
        decode(
            record,
            RowText {
                id: t.id.clone(),
                account_id: t.account_id.clone(),
                payment_info: t.payment_info.clone(),
                note: t.note.clone(),
            },
        )
    }

    fn round_trip(t: &TaxTransaction) -> TaxTransaction {
        read(&encode(t), t).unwrap()
    }

    fn rich() -> TaxTransaction {
        let mut t = tx(
            "tr_1",
            "2025-03-01T12:34:56.123456789Z",
            "acc_1",
            TaxTransactionType::Unknown("TAX_TRANSACTION_TYPE_NEW".into()),
            "-0.00000001",
            "1000000.50",
        );
        t.sub_type = TaxSubType::Unknown("sub\u{1f}with|odd Ω".into());
        t.finalize_time = None;
        t.in_amount = Some(Decimal::from_str("1.50").unwrap());
        t.in_currency = Some(CurrencyCode::Btc);
        t.out_amount = Some(Decimal::from_str("79228162514264337593543950335").unwrap());
        t.out_currency = Some(CurrencyCode::Unknown("EUR".into()));
        t.fee_amount = Some(Decimal::from_str("-0.0000000000000000000000000001").unwrap());
        t.fee_currency = None;
        t.is_payment = true;
        t.usdnok = Some(Decimal::from_str("-0.0").unwrap());
        t
    }

    #[test]
    fn every_field_reads_back_as_written_scale_and_sign_included() {
        let t = rich();
        let back = round_trip(&t);
        assert_eq!(back, t);
        for (a, b) in [
            (back.in_amount, t.in_amount),
            (back.out_amount, t.out_amount),
            (back.fee_amount, t.fee_amount),
            (back.usdnok, t.usdnok),
        ] {
            assert_eq!(a.map(|d| d.to_string()), b.map(|d| d.to_string()));
        }
        assert_eq!(back.running_balance_btc.to_string(), "-0.00000001");
        assert_eq!(back.in_amount.unwrap().to_string(), "1.50");
        let before_1970 = tx(
            "tr_2",
            "1969-12-31T23:59:59.5Z",
            "a",
            TaxTransactionType::BtcSell,
            "0",
            "1",
        );
        assert_eq!(round_trip(&before_1970), before_1970);
    }

    #[test]
    fn a_record_is_small() {
        let plain = tx(
            "tr_1",
            "2025-03-01T12:34:56Z",
            "acc_1",
            TaxTransactionType::BtcBuy,
            "0.5",
            "1000000",
        );
        assert!(encode(&plain).len() < 40, "{}", encode(&plain).len());
    }

    #[test]
    fn a_damaged_record_is_an_error_not_a_row() {
        let t = rich();
        let good = encode(&t);
        // Every cut short of the whole record.
        for len in 0..good.len() {
            assert!(
                matches!(read(&good[..len], &t), Err(StoreError::Corrupt(_))),
                "cut at {len}"
            );
        }
        let mut longer = good.clone();
        longer.push(0);
        assert!(read(&longer, &t).is_err());
        for bad in [
            vec![7],
            // A number that never ends.
            vec![
                VERSION, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            ],
        ] {
            assert!(matches!(read(&bad, &t), Err(StoreError::Corrupt(_))));
        }
        let was = damaged("`lots` is not a decimal");
        assert!(
            matches!(read(&was, &t), Err(StoreError::Corrupt(m)) if m == "`lots` is not a decimal")
        );
    }

    /// A record that ends at an in-amount of sign-and-scale `head` and mantissa `m`.
    fn record_with_amount(head: u8, m: u128) -> Vec<u8> {
        let mut record = vec![VERSION];
        put_time(&mut record, &DateTime::UNIX_EPOCH);
        record.push(0);
        record.extend([1, 1]);
        record.push(head);
        put_varint(&mut record, m);
        record
    }

    #[test]
    fn a_decimal_out_of_range_is_refused() {
        let t = rich();
        for (head, m) in [(29, 1), (NEGATIVE | 29, 1), (0, 1u128 << 96)] {
            let record = record_with_amount(head, m);
            assert!(
                matches!(read(&record, &t), Err(StoreError::Corrupt(m)) if m.contains("out of range")),
                "{head} {m}"
            );
        }
        // In range, it reads on to where the record is cut short.
        let record = record_with_amount(28, (1u128 << 96) - 1);
        assert!(
            matches!(read(&record, &t), Err(StoreError::Corrupt(m)) if m.contains("cut short"))
        );
    }

    /// A store as the 15th migration left it, holding `rows` (values of [`OLD_COLUMNS`]).
    fn old_store(path: &std::path::Path, rows: &[[&str; 18]]) {
        let before = crate::store::MIGRATIONS
            .iter()
            .position(|m| m.contains("CREATE TABLE tax_transactions_recorded"))
            .unwrap();
        let db = rusqlite::Connection::open(path).unwrap();
        for m in &crate::store::MIGRATIONS[..before] {
            db.execute_batch(m).unwrap();
        }
        db.pragma_update(None, "user_version", before as i64)
            .unwrap();
        for row in rows {
            db.execute(
                &format!(
                    "INSERT INTO tax_transactions ({OLD_COLUMNS}) VALUES \
                     (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
                ),
                rusqlite::params_from_iter(row.iter()),
            )
            .unwrap();
        }
    }

    #[test]
    fn an_upgrade_moves_every_field_into_the_record_and_keeps_a_damaged_row_damaged() {
        use crate::store::{Store, TaxFilter};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        let full = [
            "tr_1",
            "2024-03-01T10:00:00.000000000Z",
            "acc_1",
            "TAX_TRANSACTION_TYPE_BTC_BUY",
            "market",
            "2024-03-01T10:00:05.000000000Z",
            "0.00150000",
            "BTC",
            "1500.00",
            "NOK",
            "4.50",
            "NOK",
            "1000000.00",
            "1",
            "to Kari",
            "rent",
            "10.52",
            "0.00150000",
        ];
        let mut bare = full;
        bare[0] = "tr_2";
        bare[1] = "2024-03-02T10:00:00Z";
        bare[2] = "";
        bare[3] = "TAX_TRANSACTION_TYPE_FIAT_DEPOSIT";
        for i in [5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16] {
            bare[i] = "";
        }
        bare[13] = "0";
        let mut bad = full;
        bad[0] = "tr_3";
        bad[1] = "2024-03-03T10:00:00Z";
        bad[6] = "lots";
        old_store(&path, &[full, bare, bad]);

        let s = Store::open(&path).unwrap();
        let year = TaxFilter {
            year: Some(2024),
            ..TaxFilter::default()
        };
        let mut read = vec![];
        let stopped = s.tax().each_transaction::<StoreError>(&year, |t| {
            read.push(t.clone());
            Ok(())
        });
        assert!(
            matches!(stopped, Err(StoreError::Corrupt(ref m)) if m == "`lots` is not a decimal"),
            "{stopped:?}"
        );
        let [first, second] = &read[..] else {
            panic!("{read:?}")
        };
        let text = |d: Option<Decimal>| d.map(|d| d.to_string());
        assert_eq!(first.create_time.to_rfc3339(), "2024-03-01T10:00:00+00:00");
        assert_eq!(
            first.finalize_time.map(|t| t.to_rfc3339()).as_deref(),
            Some("2024-03-01T10:00:05+00:00")
        );
        assert_eq!(first.tx_type, TaxTransactionType::BtcBuy);
        assert_eq!(first.sub_type, TaxSubType::Market);
        assert_eq!(text(first.in_amount).as_deref(), Some("0.00150000"));
        assert_eq!(first.in_currency, Some(CurrencyCode::Btc));
        assert_eq!(text(first.out_amount).as_deref(), Some("1500.00"));
        assert_eq!(text(first.fee_amount).as_deref(), Some("4.50"));
        assert_eq!(first.fee_currency, Some(CurrencyCode::Nok));
        assert_eq!(
            first.rate_market.map(|r| r.to_string()).as_deref(),
            Some("1000000.00")
        );
        assert!(first.is_payment);
        assert_eq!(
            (first.payment_info.as_str(), first.note.as_str()),
            ("to Kari", "rent")
        );
        assert_eq!(text(first.usdnok).as_deref(), Some("10.52"));
        assert_eq!(first.running_balance_btc.to_string(), "0.00150000");
        assert_eq!(second.account_id, None);
        assert_eq!(second.finalize_time, None);
        assert_eq!((second.in_amount, second.in_currency.clone()), (None, None));
        assert_eq!(
            (second.rate_market, second.usdnok, second.is_payment),
            (None, None, false)
        );
        // What SQL filters on came over as columns.
        let deposits = TaxFilter {
            tx_type: Some("TAX_TRANSACTION_TYPE_FIAT_DEPOSIT".into()),
            ..TaxFilter::default()
        };
        let mut ids = vec![];
        s.tax()
            .each_transaction::<StoreError>(&deposits, |t| {
                ids.push(t.id.as_str().to_owned());
                Ok(())
            })
            .unwrap();
        assert_eq!(ids, ["tr_2"]);
        assert_eq!(
            s.tax()
                .oldest_pending()
                .unwrap()
                .map(|t| t.to_rfc3339())
                .as_deref(),
            Some("2024-03-02T10:00:00+00:00"),
            "the row not final is found by the index on pending rows"
        );
    }
}
