//! Typed client for the exchange's REST API (`shared/spec/exchange-api.md`).
//!
//! Models decode the API's JSON into exact types (money as `Decimal`, ids as their own types,
//! enums that keep unknown values). [`ExchangeClient`] has one method per endpoint; it picks the
//! credential each endpoint accepts and refuses locally what cannot succeed, signs requests per
//! 5.2 with nonces from a [`NonceSource`], retries reads only, and reports a lost answer to an
//! order or withdrawal as [`Error::OutcomeUnknown`] instead of guessing.

pub mod amount;
pub mod auth;
pub mod base_url;
mod body;
mod client;
pub mod credentials;
pub mod endpoint;
mod error;
pub mod ids;
pub mod models;
pub mod nonce;
pub mod oauth;
mod open_enum;
pub mod operator;
pub mod retry;
pub mod signing;
mod tax_query;
pub mod wire;

pub use base_url::{BaseUrl, BaseUrlError};
pub use client::{ClientConfig, ExchangeClient, LearnedFromUse};
pub use credentials::{
    AccessToken, ApiKey, ApiSecret, Credentials, KeyCredentials, KeyPermissions,
};
pub use endpoint::Endpoint;
pub use error::{ApiError, Check, Error, InvalidRequest};
pub use nonce::NonceSource;
pub use operator::Operator;
pub use tax_query::{MAX_PAGE_SIZE, TaxQuery};
