use crate::open_enum::open_enum;

open_enum!(
    /// Which network a destination or withdrawal uses.
    Network {
        Bitcoin => "NETWORK_BITCOIN",
        Lightning => "NETWORK_LIGHTNING",
    }
);

open_enum!(
    /// The currency an invoice is denominated in (2.6).
    Currency {
        Btc => "CURRENCY_BTC",
        Nok => "CURRENCY_NOK",
    }
);

open_enum!(
    /// Invoice status (3). Transitions are not published; PAID, EXPIRED and CANCELED are final.
    InvoiceStatus {
        Unpaid => "INVOICE_STATUS_UNPAID",
        Pending => "INVOICE_STATUS_PENDING",
        Paid => "INVOICE_STATUS_PAID",
        Expired => "INVOICE_STATUS_EXPIRED",
        Canceled => "INVOICE_STATUS_CANCELED",
    }
);

impl InvoiceStatus {
    /// Whether the invoice can still change; an unknown value is treated as still moving.
    pub fn is_final(&self) -> bool {
        matches!(self, Self::Paid | Self::Expired | Self::Canceled)
    }
}

open_enum!(
    /// Withdrawal status (3). A withdrawal is complete only when the receiving network confirms it.
    WithdrawalStatus {
        Pending => "WITHDRAWAL_STATUS_PENDING",
        Completed => "WITHDRAWAL_STATUS_COMPLETED",
        Failed => "WITHDRAWAL_STATUS_FAILED",
    }
);

impl WithdrawalStatus {
    /// Whether the withdrawal can still change; an unknown value is treated as still moving.
    pub fn is_final(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed)
    }
}

open_enum!(
    /// Order type (2.8).
    OrderType {
        Market => "ORDER_TYPE_MARKET",
        Limit => "ORDER_TYPE_LIMIT",
    }
);

open_enum!(
    /// Order direction (2.8): buying spends NOK, selling spends BTC.
    Direction {
        Buy => "DIRECTION_BUY",
        Sell => "DIRECTION_SELL",
    }
);

open_enum!(
    /// Tax transaction kind (values from the published interface, `spec/notes.md`).
    TaxTransactionType {
        BtcBuy => "TAX_TRANSACTION_TYPE_BTC_BUY",
        BtcSell => "TAX_TRANSACTION_TYPE_BTC_SELL",
        BtcWithdrawal => "TAX_TRANSACTION_TYPE_BTC_WITHDRAWAL",
        BtcDeposit => "TAX_TRANSACTION_TYPE_BTC_DEPOSIT",
        BtcBonus => "TAX_TRANSACTION_TYPE_BTC_BONUS",
        FiatDeposit => "TAX_TRANSACTION_TYPE_FIAT_DEPOSIT",
        FiatWithdrawal => "TAX_TRANSACTION_TYPE_FIAT_WITHDRAWAL",
        BtcAdjustment => "TAX_TRANSACTION_TYPE_BTC_ADJUSTMENT",
        FiatAdjustment => "TAX_TRANSACTION_TYPE_FIAT_ADJUSTMENT",
    }
);

open_enum!(
    /// Tax transaction sub-kind (values from the published interface, `spec/notes.md`).
    TaxSubType {
        Unspecified => "unspecified",
        Empty => "",
        Market => "market",
        Limit => "limit",
        Manual => "manual",
        Onchain => "onchain",
        Lightning => "lightning",
        Internal => "internal",
        InternalExternal => "internal-external",
        LightningPaymentRequest => "lightning-payment-request",
        LightningAddress => "lightning-address",
        LightningLnurl => "lightning-lnurl",
        Bank => "bank",
        Card => "card",
        WriteOff => "write_off",
        Correction => "correction",
    }
);

open_enum!(
    /// Currency codes of tax transactions.
    CurrencyCode {
        Btc => "BTC",
        Nok => "NOK",
    }
);

open_enum!(
    /// OAuth scopes (5.4). An API-key permission is not a scope.
    Scope {
        AccountsBitcoinRead => "api:accounts:bitcoin:read",
        TradesRead => "api:trades:read",
        TaxTransactionsRead => "api:tax:transactions:read",
        DepositsLightningRead => "api:deposits:lightning:read",
        DepositsLightningWrite => "api:deposits:lightning:write",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_values_are_kept_and_written_back() {
        let s: WithdrawalStatus = serde_json::from_str("\"WITHDRAWAL_STATUS_REVERSED\"").unwrap();
        assert_eq!(
            s,
            WithdrawalStatus::Unknown("WITHDRAWAL_STATUS_REVERSED".into())
        );
        assert!(!s.is_final());
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            "\"WITHDRAWAL_STATUS_REVERSED\""
        );
        let t: TaxSubType = serde_json::from_str("\"\"").unwrap();
        assert_eq!(t, TaxSubType::Empty);
        assert!(serde_json::from_str::<Network>("3").is_err());
    }

    #[test]
    fn known_values_round_trip() {
        for v in Scope::KNOWN {
            assert_eq!(&Scope::from(v.as_str()), v);
        }
        for v in TaxTransactionType::KNOWN {
            assert_eq!(&TaxTransactionType::from(v.as_str()), v);
        }
    }
}
