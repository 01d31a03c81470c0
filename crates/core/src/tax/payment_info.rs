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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::tests_support::tx;
    use TaxTransactionType::{BtcBuy, BtcWithdrawal, FiatWithdrawal};

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
}
