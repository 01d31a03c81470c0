//! A tax row's `paymentInfo` read as the operator publishes it: `<network id>:<destination>` on a
//! bitcoin transfer (a transaction id and address on-chain, a payment hash and destination on
//! Lightning), the counterparty's bank account on a bank transfer, nothing on trades. Anything
//! else is kept as it came and said to be unreadable, never guessed at.

use nordlys_exchange::models::{TaxSubType, TaxTransaction, TaxTransactionType};

/// What a row's `paymentInfo` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentInfo<'a> {
    /// Empty.
    None,
    /// A bitcoin transfer: its transaction id or payment hash, and where it went or came from.
    Transfer {
        network_id: &'a str,
        destination: &'a str,
    },
    /// A bank transfer's counterparty account.
    BankAccount(&'a str),
    /// A bitcoin transfer's text not in the published shape (no colon, one too many, an empty
    /// side): shown as it came.
    Unreadable(&'a str),
    /// Text on a row whose kind the operator describes no `paymentInfo` for.
    Text(&'a str),
}

/// Reads `t.payment_info` by the row's kind.
pub fn read(t: &TaxTransaction) -> PaymentInfo<'_> {
    let text = t.payment_info.trim();
    if text.is_empty() {
        return PaymentInfo::None;
    }
    match (&t.tx_type, &t.sub_type) {
        (_, TaxSubType::Internal) => PaymentInfo::Text(text),
        (TaxTransactionType::BtcDeposit | TaxTransactionType::BtcWithdrawal, _) => {
            match text.split_once(':') {
                Some((id, destination))
                    if !id.is_empty() && !destination.is_empty() && !destination.contains(':') =>
                {
                    PaymentInfo::Transfer {
                        network_id: id,
                        destination,
                    }
                }
                _ => PaymentInfo::Unreadable(text),
            }
        }
        (
            TaxTransactionType::FiatDeposit | TaxTransactionType::FiatWithdrawal,
            TaxSubType::Bank,
        ) => PaymentInfo::BankAccount(text),
        _ => PaymentInfo::Text(text),
    }
}

/// The stored withdrawal row of a payment of `amount` BTC to `destination` sent at `sent_at`,
/// with its transaction id (or payment hash), from `rows`: the row among `claimed` (the
/// payment's own evidence) if one names it, else the one row since it was sent (less the clock
/// slack) whose `paymentInfo` names the destination and whose amount is the payment's, fee
/// beside or inside. Two such rows name none: the row is never guessed. The row is what the
/// exchange says of the payment afterwards: its fee and its rate.
pub fn transfer_of<'r>(
    rows: &'r [TaxTransaction],
    claimed: &[String],
    destination: &str,
    amount: rust_decimal::Decimal,
    sent_at: chrono::DateTime<chrono::Utc>,
) -> Option<(&'r TaxTransaction, &'r str)> {
    let to_it = |t: &'r TaxTransaction| match read(t) {
        PaymentInfo::Transfer {
            network_id,
            destination: d,
        } if d.eq_ignore_ascii_case(destination.trim()) => Some((t, network_id)),
        _ => None,
    };
    let transfers: Vec<(&TaxTransaction, &str)> = rows.iter().filter_map(to_it).collect();
    if let Some(found) = transfers
        .iter()
        .find(|(t, _)| claimed.iter().any(|c| c == t.id.as_str()))
    {
        return Some(*found);
    }
    let from = sent_at - crate::evidence::CLOCK_SLACK;
    let mut of_amount = transfers.into_iter().filter(|(t, _)| {
        let out = t.out_amount.unwrap_or_default();
        let fee = t.fee_amount.unwrap_or_default();
        t.create_time >= from && (out == amount || out.checked_sub(fee) == Some(amount))
    });
    match (of_amount.next(), of_amount.next()) {
        (Some(found), None) => Some(found),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::tests_support::tx;
    use TaxTransactionType::{BtcBuy, BtcWithdrawal, FiatWithdrawal};

    /// The transaction id of the row found, as the payment's card shows it.
    fn id_of<'r>(
        rows: &'r [TaxTransaction],
        claimed: &[String],
        destination: &str,
        amount: rust_decimal::Decimal,
        sent_at: chrono::DateTime<chrono::Utc>,
    ) -> Option<&'r str> {
        transfer_of(rows, claimed, destination, amount, sent_at).map(|(_, id)| id)
    }

    fn with(kind: TaxTransactionType, sub: TaxSubType, info: &str) -> TaxTransaction {
        let mut t = tx("1", "2026-01-01T10:00:00Z", "a", kind, "0", "1");
        t.sub_type = sub;
        t.payment_info = info.to_owned();
        t
    }

    #[test]
    fn each_kind_reads_as_published() {
        let txid = "a".repeat(64);
        let onchain = with(
            BtcWithdrawal,
            TaxSubType::Onchain,
            &format!("{txid}:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
        );
        assert_eq!(
            read(&onchain),
            PaymentInfo::Transfer {
                network_id: &txid,
                destination: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
            }
        );
        let bank = with(FiatWithdrawal, TaxSubType::Bank, "1503.12.34567");
        assert_eq!(read(&bank), PaymentInfo::BankAccount("1503.12.34567"));
        assert_eq!(
            read(&with(BtcBuy, TaxSubType::Market, "")),
            PaymentInfo::None
        );
    }

    #[test]
    fn a_transfer_without_a_colon_or_with_one_too_many_is_unreadable_not_guessed() {
        for bad in [
            "Kaffebrenneriet",
            "abc:def:ghi",
            ":bc1q",
            "abc:",
            "lightning:lnbc1:x",
        ] {
            let t = with(BtcWithdrawal, TaxSubType::Lightning, bad);
            assert_eq!(read(&t), PaymentInfo::Unreadable(bad), "{bad}");
        }
    }

    #[test]
    fn a_payment_s_transaction_id_is_read_from_its_one_row_never_guessed() {
        let address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
        let sent: chrono::DateTime<chrono::Utc> = "2026-01-01T09:59:00Z".parse().unwrap();
        let amount: rust_decimal::Decimal = "0.001".parse().unwrap();
        let paid = |id: &str, txid: &str, to: &str, out: &str| {
            let mut t = with(BtcWithdrawal, TaxSubType::Onchain, &format!("{txid}:{to}"));
            t.id = id.into();
            t.out_amount = Some(out.parse().unwrap());
            t
        };
        let (a, b) = ("a".repeat(64), "b".repeat(64));
        let one = [
            paid("u1", &a, address, "0.001"),
            paid("u2", &b, "bc1qother", "0.001"),
        ];
        assert_eq!(id_of(&one, &[], address, amount, sent), Some(a.as_str()));
        // Of another amount, or before it was sent: not this payment's.
        assert_eq!(
            id_of(&one, &[], address, "0.002".parse().unwrap(), sent),
            None
        );
        let later = sent + chrono::Duration::hours(1);
        assert_eq!(id_of(&one, &[], address, amount, later), None);
        // Two payments of the same amount to the same place: which is which is not guessed,
        // unless the payment's evidence names its row.
        let two = [
            paid("u1", &a, address, "0.001"),
            paid("u2", &b, address, "0.001"),
        ];
        assert_eq!(id_of(&two, &[], address, amount, sent), None);
        assert_eq!(
            id_of(&two, &["u2".into()], address, amount, sent),
            Some(b.as_str())
        );
        // Not in the published shape: no id.
        let odd = [paid("u1", "", address, "0.001")];
        assert_eq!(id_of(&odd, &[], address, amount, sent), None);
    }
}
