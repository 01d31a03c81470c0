//! The sixteen endpoints of section 4 as data: method, path, who may call them, and whether a
//! failed call may be retried.

use crate::models::Scope;

/// How an endpoint may be authenticated (section 4 table, 5.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// No credentials; none are sent.
    Public,
    /// `x-svc-api-key`, or a bearer token as `oauth` allows.
    Key { oauth: OAuthAccess },
    /// Key, nonce and HMAC, with a key permission. OAuth never works here.
    Signed(KeyPermission),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OAuthAccess {
    /// Only an API key works.
    NotAccepted,
    /// A token with this scope.
    Scope(Scope),
    /// Any valid token (endpoint 12).
    AnyToken,
}

/// An API-key permission; not an OAuth scope (5.4). Receive is not in the specification: the
/// exchange's integrations ask for a key with Read and Receive to create invoices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPermission {
    Trading,
    BitcoinWithdrawal,
    Receive,
}

impl OAuthAccess {
    /// What credentials the endpoint accepts, for an English error.
    pub fn describe(&self) -> String {
        match self {
            Self::NotAccepted => "an API key".into(),
            Self::Scope(s) => format!("an API key or an OAuth token with scope `{s}`"),
            Self::AnyToken => "an API key or an OAuth token".into(),
        }
    }
}

impl KeyPermission {
    pub fn describe(self) -> &'static str {
        match self {
            Self::Trading => "trading permission",
            Self::BitcoinWithdrawal => "bitcoin-withdrawal permission",
            Self::Receive => "the Receive permission",
        }
    }
}

/// Whether a failed call may be sent again without the user deciding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// Reads: retried a bounded number of times on transport errors and 5xx.
    Safe,
    /// Never retried, but a lost answer does not move money (cancel, consent revocation).
    Never,
    /// Creates money movement (1, 7 of section 1): never retried, and a lost answer is
    /// "outcome unknown" until the account has been inspected.
    MovesMoney,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    DepositDestinations,
    CreateInvoice,
    GetInvoice,
    ListOrders,
    CreateOrder,
    CancelOrder,
    Price,
    Volume,
    VolumeHistoric,
    BitcoinAccounts,
    FiatAccount,
    RevokeConsent,
    TaxBalance,
    TaxTransactions,
    CreateWithdrawal,
    GetWithdrawal,
}

impl Endpoint {
    pub const ALL: [Endpoint; 16] = [
        Self::DepositDestinations,
        Self::CreateInvoice,
        Self::GetInvoice,
        Self::ListOrders,
        Self::CreateOrder,
        Self::CancelOrder,
        Self::Price,
        Self::Volume,
        Self::VolumeHistoric,
        Self::BitcoinAccounts,
        Self::FiatAccount,
        Self::RevokeConsent,
        Self::TaxBalance,
        Self::TaxTransactions,
        Self::CreateWithdrawal,
        Self::GetWithdrawal,
    ];

    /// The number in the section 4 table.
    pub fn number(self) -> u8 {
        match self {
            Self::DepositDestinations => 1,
            Self::CreateInvoice => 2,
            Self::GetInvoice => 3,
            Self::ListOrders => 4,
            Self::CreateOrder => 5,
            Self::CancelOrder => 6,
            Self::Price => 7,
            Self::Volume => 8,
            Self::VolumeHistoric => 9,
            Self::BitcoinAccounts => 10,
            Self::FiatAccount => 11,
            Self::RevokeConsent => 12,
            Self::TaxBalance => 13,
            Self::TaxTransactions => 14,
            Self::CreateWithdrawal => 15,
            Self::GetWithdrawal => 16,
        }
    }

    pub fn method(self) -> reqwest::Method {
        use reqwest::Method;
        match self {
            Self::CreateInvoice | Self::CreateOrder | Self::CreateWithdrawal => Method::POST,
            Self::CancelOrder | Self::RevokeConsent => Method::DELETE,
            _ => Method::GET,
        }
    }

    /// The path template, `{…}` marking the path parameter.
    pub fn path_template(self) -> &'static str {
        match self {
            Self::DepositDestinations => "/v1/deposit-destinations/bitcoin",
            Self::CreateInvoice => "/v1/deposit-destinations/bitcoin/invoice",
            Self::GetInvoice => "/v1/deposit-destinations/bitcoin/invoice/{id}",
            Self::ListOrders | Self::CreateOrder => "/v1/orders",
            Self::CancelOrder => "/v1/orders/{orderId}",
            Self::Price => "/v1/price/nok",
            Self::Volume => "/v1/volume",
            Self::VolumeHistoric => "/v1/volume/historic",
            Self::BitcoinAccounts => "/v1/user/bitcoin-accounts",
            Self::FiatAccount => "/v1/user/fiat-account",
            Self::RevokeConsent => "/v1/user/applications/consent/{clientId}",
            Self::TaxBalance => "/v1/tax/balance",
            Self::TaxTransactions => "/v1/tax/transactions",
            Self::CreateWithdrawal => "/v1/withdrawals/bitcoin",
            Self::GetWithdrawal => "/v1/withdrawals/bitcoin/{withdrawalId}",
        }
    }

    /// What the call does, in words for messages ("placing orders needs …").
    pub fn action(self) -> &'static str {
        match self {
            Self::DepositDestinations => "fetching deposit destinations",
            Self::CreateInvoice => "creating Lightning invoices",
            Self::GetInvoice => "reading Lightning invoices",
            Self::ListOrders => "listing open orders",
            Self::CreateOrder => "placing orders",
            Self::CancelOrder => "cancelling orders",
            Self::Price => "reading the price",
            Self::Volume => "reading volume statistics",
            Self::VolumeHistoric => "reading historic volume",
            Self::BitcoinAccounts => "reading bitcoin accounts",
            Self::FiatAccount => "reading the fiat account",
            Self::RevokeConsent => "revoking an application's consent",
            Self::TaxBalance => "reading tax balances",
            Self::TaxTransactions => "reading tax transactions",
            Self::CreateWithdrawal => "sending bitcoin",
            Self::GetWithdrawal => "reading withdrawals",
        }
    }

    /// "METHOD /path" for errors and logs.
    pub fn name(self) -> String {
        format!("{} {}", self.method(), self.path_template())
    }

    pub fn access(self) -> Access {
        use Access::{Key, Public, Signed};
        use OAuthAccess::{AnyToken, NotAccepted};
        let scoped = |s| Key {
            oauth: OAuthAccess::Scope(s),
        };
        match self {
            Self::Price | Self::Volume | Self::VolumeHistoric => Public,
            Self::CreateOrder | Self::CancelOrder => Signed(KeyPermission::Trading),
            Self::CreateWithdrawal => Signed(KeyPermission::BitcoinWithdrawal),
            Self::CreateInvoice => scoped(Scope::DepositsLightningWrite),
            Self::GetInvoice => scoped(Scope::DepositsLightningRead),
            Self::BitcoinAccounts | Self::TaxBalance => scoped(Scope::AccountsBitcoinRead),
            Self::TaxTransactions => scoped(Scope::TaxTransactionsRead),
            Self::RevokeConsent => Key { oauth: AnyToken },
            Self::DepositDestinations
            | Self::ListOrders
            | Self::FiatAccount
            | Self::GetWithdrawal => Key { oauth: NotAccepted },
        }
    }

    pub fn repeat(self) -> Repeat {
        match self {
            Self::CreateOrder | Self::CreateWithdrawal => Repeat::MovesMoney,
            Self::CreateInvoice | Self::CancelOrder | Self::RevokeConsent => Repeat::Never,
            _ => Repeat::Safe,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_those_of_the_table() {
        for (i, e) in Endpoint::ALL.iter().enumerate() {
            assert_eq!(usize::from(e.number()), i + 1);
        }
    }

    #[test]
    fn only_reads_are_retried() {
        for e in Endpoint::ALL {
            assert_eq!(
                e.repeat() == Repeat::Safe,
                e.method() == reqwest::Method::GET,
                "{e:?}"
            );
        }
        assert_eq!(Endpoint::CreateOrder.repeat(), Repeat::MovesMoney);
        assert_eq!(Endpoint::CreateWithdrawal.repeat(), Repeat::MovesMoney);
    }
}
