//! Typed resources of section 2, in the API's own JSON shape (camelCase).
//!
//! Responses decode strictly: a field the specification defines is required unless it is stated to
//! be empty in some state (`deleteTime`, `sentAt`, `tradeId`) or is free text. Requests leave out
//! fields that are unset; the server reads absence as the empty default, as in the specification.

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
