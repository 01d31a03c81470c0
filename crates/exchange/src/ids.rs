//! Identifiers as their own types, so an order id can never be passed where a withdrawal id belongs.
//!
//! Prefixes (2.1) are documented, not enforced on decode: tax transactions carry UUIDs and ids of
//! kinds the specification cuts off, and a server is free to change its formats.

macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            pub fn new(id: impl Into<String>) -> Self {
                Self(id.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self(s.to_owned())
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }
    };
}

id_type!(
    /// A bitcoin account (`acc_`).
    AccountId
);
id_type!(
    /// A deposit destination, i.e. a Lightning invoice (`ded_`).
    DepositDestinationId
);
id_type!(
    /// A bitcoin withdrawal (`wi_`).
    WithdrawalId
);
id_type!(
    /// An order (`or_`).
    OrderId
);
id_type!(
    /// A trade (`tr_`).
    TradeId
);
id_type!(
    /// The id of a tax transaction's underlying transaction; its prefix depends on the kind (2.1).
    TaxTransactionId
);
