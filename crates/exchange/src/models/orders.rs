use chrono::{DateTime, Utc};
use nordlys_money::NokPerBtc;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{Direction, OrderType};
use crate::ids::{AccountId, OrderId, TradeId};
use crate::wire;

/// 2.8. `amount` is NOK when buying and BTC when selling; `price` is used only for limit orders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewOrderRequest {
    #[serde(rename = "type")]
    pub order_type: OrderType,
    pub direction: Direction,
    #[serde(with = "wire::number")]
    pub amount: Decimal,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub account_id: Option<AccountId>,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub description: String,
    #[serde(
        with = "wire::opt_number",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub price: Option<NokPerBtc>,
}

/// `tradeId` is set only for a market order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewOrderResponse {
    #[serde(default)]
    pub order_id: OrderId,
    #[serde(with = "wire::opt_string", default)]
    pub trade_id: Option<TradeId>,
}

/// An open (not yet filled, cancellable) order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    #[serde(default)]
    pub order_id: OrderId,
    #[serde(rename = "type", default)]
    pub order_type: OrderType,
    #[serde(default)]
    pub direction: Direction,
    #[serde(with = "wire::number", default)]
    pub amount: Decimal,
    #[serde(with = "wire::time")]
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenOrdersResponse {
    #[serde(default)]
    pub orders: Vec<Order>,
}
