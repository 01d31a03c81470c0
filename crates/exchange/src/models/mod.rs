//! Typed resources of section 2, in the API's own JSON shape (camelCase).
//!
//! The exchange's service is generated from proto3 definitions and leaves out every field whose
//! value is the default, so every response field decodes as its default when absent (`0`, `""`,
//! `false`, an empty list, an unset time, an enum's empty value kept as it came); only the times
//! a resource always has (`createTime`, `createdAt`, `timestamp`) are required. What is present
//! decodes strictly. Requests leave out fields that are unset; the server reads absence as the
//! empty default, as in the specification.

mod accounts;
mod deposits;
mod enums;
mod market;
mod orders;
mod tax;
mod withdrawals;

pub use accounts::*;
pub use deposits::*;
pub use enums::*;
pub use market::*;
pub use orders::*;
pub use tax::*;
pub use withdrawals::*;

/// The body of the endpoints that answer with nothing (6, 12).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Empty {}

#[cfg(test)]
mod tests {
    use super::*;

    fn absent<T: serde::de::DeserializeOwned>(json: &str) -> T {
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    /// What a proto3-JSON service writes when every field is the default: nothing.
    #[test]
    fn an_answer_with_every_field_left_out_decodes_as_the_defaults() {
        let page: ListTaxTransactionsResponse = absent("{}");
        assert!(!page.has_more && page.transactions.is_empty() && page.next_after.is_none());
        let page: TaxPage = absent("{}");
        assert!(!page.has_more);
        let fiat: GetFiatAccountResponse = absent("{}");
        assert!(fiat.available_nok.is_zero());
        let open: OpenOrdersResponse = absent("{}");
        assert!(open.orders.is_empty());
        let accounts: ListBitcoinAccountsResponse = absent("{}");
        assert!(accounts.accounts.is_empty() && accounts.total_btc.is_zero());
        let placed: NewOrderResponse = absent("{}");
        assert_eq!(placed.trade_id, None);
        let _: GetTaxBalanceResponse = absent("{}");
        let _: DepositDestinationsResponse = absent("{}");
        let _: VolumeResponse = absent("{}");
        let _: VolumeHistoricResponse = absent("{}");
        let _: SendBitcoinResponse = absent("{}");
        let _: Empty = absent("{}");
        // An account with nothing in it and not deleted: only its id, name and creation time.
        let account: BitcoinAccount =
            absent(r#"{"id": "acc_1", "createTime": "2026-01-01T00:00:00Z"}"#);
        assert!(account.total_btc.is_zero() && !account.is_deleted());
        // A tax row of no account, no fee and no note.
        let row: TaxTransaction = absent(
            r#"{"id": "fpu_1", "type": "TAX_TRANSACTION_TYPE_FIAT_DEPOSIT",
                "createTime": "2026-01-01T00:00:00Z", "inAmount": "100", "inCurrency": "NOK"}"#,
        );
        assert!(
            row.account_id.is_none() && row.fee_amount.is_none() && row.finalize_time.is_none()
        );
        assert!(row.running_balance_btc.is_zero());
    }

    /// An unset time may also come as `null` or `""`; a time that is there must be one.
    #[test]
    fn unset_times_read_as_none_in_every_style_and_a_bad_time_is_an_error() {
        for time in ["", "null"] {
            let json = if time == "null" {
                r#"{"id": "acc_1", "createTime": "2026-01-01T00:00:00Z", "deleteTime": null}"#
                    .to_owned()
            } else {
                r#"{"id": "acc_1", "createTime": "2026-01-01T00:00:00Z", "deleteTime": ""}"#
                    .to_owned()
            };
            let a: BitcoinAccount = absent(&json);
            assert_eq!(a.delete_time, None);
        }
        assert!(
            serde_json::from_str::<BitcoinAccount>(
                r#"{"id": "acc_1", "createTime": "2026-01-01T00:00:00Z", "deleteTime": "soon"}"#
            )
            .is_err()
        );
        // A time a resource always has is still required.
        assert!(serde_json::from_str::<BitcoinAccount>(r#"{"id": "acc_1"}"#).is_err());
    }

    /// Written back (as the CLI prints them), unset times are left out, never `""`.
    #[test]
    fn an_unset_time_is_left_out_when_written() {
        let a: BitcoinAccount = absent(r#"{"id": "acc_1", "createTime": "2026-01-01T00:00:00Z"}"#);
        let written = serde_json::to_value(&a).unwrap_or_default();
        assert!(written.get("deleteTime").is_none(), "{written}");
    }
}
