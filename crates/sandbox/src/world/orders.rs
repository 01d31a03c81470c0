//! Orders: market orders fill at once at ask/bid; limit orders rest, reserving their funds, until
//! the price crosses them.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{TRADE_FEE, TaxRow, World, btc_floor, nok_floor, nok_round};
use crate::error::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderKind {
    Market,
    Limit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderDirection {
    Buy,
    Sell,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderState {
    Open,
    Filled { trade_id: String, at: DateTime<Utc> },
    Cancelled { at: DateTime<Utc> },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OrderRec {
    pub id: String,
    pub kind: OrderKind,
    pub direction: OrderDirection,
    /// NOK when buying, BTC when selling.
    pub amount: Decimal,
    pub price: Option<Decimal>,
    pub account: String,
    pub description: String,
    pub created: DateTime<Utc>,
    pub state: OrderState,
}

impl OrderRec {
    pub fn is_open(&self) -> bool {
        self.state == OrderState::Open
    }
}

/// A validated order request.
#[derive(Debug, Clone)]
pub struct NewOrder {
    pub kind: OrderKind,
    pub direction: OrderDirection,
    pub amount: Decimal,
    pub price: Option<Decimal>,
    pub account_id: String,
    pub description: String,
}

impl World {
    /// Places an order; returns its id and, for a market order, the trade id.
    pub fn place_order(
        &mut self,
        new: NewOrder,
        now: DateTime<Utc>,
    ) -> Result<(String, Option<String>), ApiError> {
        let account_index = self.account_index(&new.account_id)?;
        let account = self.accounts[account_index].id.clone();
        let (unit, max_dp) = match new.direction {
            OrderDirection::Buy => ("NOK", 2),
            OrderDirection::Sell => ("BTC", 8),
        };
        if new.amount <= Decimal::ZERO {
            return Err(ApiError::invalid("amount must be positive"));
        }
        if new.amount.normalize().scale() > max_dp {
            return Err(ApiError::invalid(format!(
                "amount has more than {max_dp} decimals for {unit}"
            )));
        }
        if new.amount > Decimal::from(1_000_000_000) {
            return Err(ApiError::invalid(
                "amount is larger than the exchange accepts",
            ));
        }
        match (new.kind, new.price) {
            (OrderKind::Limit, None) => {
                return Err(ApiError::invalid("price is required for a limit order"));
            }
            (OrderKind::Limit, Some(p)) if p <= Decimal::ZERO => {
                return Err(ApiError::invalid("price must be positive"));
            }
            (OrderKind::Limit, Some(p)) if p.normalize().scale() > 2 => {
                return Err(ApiError::invalid("price has more than 2 decimals"));
            }
            _ => {}
        }
        match new.direction {
            OrderDirection::Buy if new.amount > self.available_nok() => {
                return Err(ApiError::precondition(format!(
                    "insufficient funds: {} NOK requested, {} NOK available",
                    new.amount,
                    self.available_nok()
                )));
            }
            OrderDirection::Sell if new.amount > self.available_btc(account_index) => {
                return Err(ApiError::precondition(format!(
                    "insufficient funds: {} BTC requested, {} BTC available in {}",
                    new.amount,
                    self.available_btc(account_index),
                    account
                )));
            }
            _ => {}
        }
        let quote = self.market.quote(match new.direction {
            OrderDirection::Buy => new.amount,
            OrderDirection::Sell => new.amount * self.market.mid,
        });
        // A sell has to be worth at least one øre after fees, a buy at least one satoshi.
        let probe_price = new.price.unwrap_or(match new.direction {
            OrderDirection::Buy => quote.ask,
            OrderDirection::Sell => quote.bid,
        });
        if fill_amounts(new.direction, new.amount, probe_price).is_none() {
            return Err(ApiError::invalid("amount is too small to trade"));
        }
        let id = self.new_id("or_");
        self.counters.orders_created += 1;
        self.orders.push(OrderRec {
            id: id.clone(),
            kind: new.kind,
            direction: new.direction,
            amount: new.amount,
            price: new.price,
            account,
            description: new.description,
            created: now,
            state: OrderState::Open,
        });
        let index = self.orders.len() - 1;
        let trade = match new.kind {
            OrderKind::Market => {
                let at = match new.direction {
                    OrderDirection::Buy => quote.ask,
                    OrderDirection::Sell => quote.bid,
                };
                Some(self.fill(index, at, now, "market"))
            }
            OrderKind::Limit => {
                self.fill_if_crossed(index, now);
                None
            }
        };
        Ok((id, trade))
    }

    pub fn cancel_order(&mut self, id: &str, now: DateTime<Utc>) -> Result<(), ApiError> {
        let order = self
            .orders
            .iter_mut()
            .find(|o| o.id == id)
            .ok_or_else(|| ApiError::not_found(format!("no order with id {id}")))?;
        if order.kind == OrderKind::Market {
            return Err(ApiError::precondition(format!(
                "order {id} is a market order; market orders cannot be cancelled"
            )));
        }
        match order.state {
            OrderState::Open => {
                order.state = OrderState::Cancelled { at: now };
                Ok(())
            }
            OrderState::Filled { .. } => Err(ApiError::precondition(format!(
                "order {id} is already filled"
            ))),
            OrderState::Cancelled { .. } => Err(ApiError::precondition(format!(
                "order {id} is already cancelled"
            ))),
        }
    }

    /// Fills a resting order now at its limit price (world control).
    pub fn force_fill(&mut self, id: &str, now: DateTime<Utc>) -> Result<String, ApiError> {
        let index = self
            .orders
            .iter()
            .position(|o| o.id == id)
            .ok_or_else(|| ApiError::not_found(format!("no order with id {id}")))?;
        let o = &self.orders[index];
        let price = match (o.is_open(), o.price) {
            (true, Some(p)) => p,
            _ => {
                return Err(ApiError::precondition(format!(
                    "order {id} is not an open limit order"
                )));
            }
        };
        Ok(self.fill(index, price, now, "limit"))
    }

    pub(super) fn fill_crossed_orders(&mut self, now: DateTime<Utc>) {
        for i in 0..self.orders.len() {
            if self.orders[i].is_open() {
                self.fill_if_crossed(i, now);
            }
        }
    }

    fn fill_if_crossed(&mut self, index: usize, now: DateTime<Utc>) {
        let o = &self.orders[index];
        let Some(limit) = o.price else { return };
        let quote = self.market.quote(Decimal::from(5000));
        let crossed = match o.direction {
            OrderDirection::Buy => quote.ask <= limit,
            OrderDirection::Sell => quote.bid >= limit,
        };
        if crossed {
            self.fill(index, limit, now, "limit");
        }
    }

    /// Executes order `index` at `price`: moves the money, books the fee, writes the ledger.
    fn fill(&mut self, index: usize, price: Decimal, now: DateTime<Utc>, sub_type: &str) -> String {
        let trade_id = self.new_id("tr_");
        let order = self.orders[index].clone();
        let Some((btc, nok_gross, fee)) = fill_amounts(order.direction, order.amount, price) else {
            // Unreachable for accepted orders; cancel rather than book a zero trade.
            self.orders[index].state = OrderState::Cancelled { at: now };
            return trade_id;
        };
        let Some(account) = self.accounts.iter_mut().find(|a| a.id == order.account) else {
            self.orders[index].state = OrderState::Cancelled { at: now };
            return trade_id;
        };
        let (tx_type, in_amount, in_cur, out_amount, out_cur) = match order.direction {
            OrderDirection::Buy => {
                account.btc += btc;
                self.fiat_nok -= nok_gross + fee;
                self.books.house_nok += nok_gross;
                self.books.house_btc -= btc;
                ("TAX_TRANSACTION_TYPE_BTC_BUY", btc, "BTC", nok_gross, "NOK")
            }
            OrderDirection::Sell => {
                account.btc -= btc;
                self.fiat_nok += nok_gross - fee;
                self.books.house_nok -= nok_gross;
                self.books.house_btc += btc;
                (
                    "TAX_TRANSACTION_TYPE_BTC_SELL",
                    nok_gross - fee,
                    "NOK",
                    btc,
                    "BTC",
                )
            }
        };
        self.books.fees_nok += fee;
        let running = account.btc;
        self.counters.trades += 1;
        let day = self.user_volume.entry(now.date_naive()).or_default();
        day.nok += nok_gross;
        day.btc += btc;
        day.trades += 1;
        day.buys += u64::from(order.direction == OrderDirection::Buy);
        self.orders[index].state = OrderState::Filled {
            trade_id: trade_id.clone(),
            at: now,
        };
        let usdnok = self.usdnok(now.date_naive());
        self.push_row(
            TaxRow::new(
                trade_id.clone(),
                &order.account,
                tx_type,
                sub_type,
                now,
                running,
            )
            .received(in_amount, in_cur)
            .paid(out_amount, out_cur)
            .fee(fee, "NOK")
            .rate(price)
            .usdnok(usdnok)
            .note(&order.description),
        );
        trade_id
    }
}

/// BTC moved, NOK exchanged and the fee for an order of `amount` at `price`; `None` when the
/// order is too small to produce a satoshi or an øre.
/// A buy spends `amount` NOK in all: `gross + fee`. A sell pays `gross - fee` NOK.
pub fn fill_amounts(
    direction: OrderDirection,
    amount: Decimal,
    price: Decimal,
) -> Option<(Decimal, Decimal, Decimal)> {
    if price <= Decimal::ZERO {
        return None;
    }
    match direction {
        OrderDirection::Buy => {
            let fee = nok_round(amount * TRADE_FEE / (Decimal::ONE + TRADE_FEE));
            let gross = amount - fee;
            let btc = btc_floor(gross / price);
            (btc > Decimal::ZERO).then_some((btc, gross, fee))
        }
        OrderDirection::Sell => {
            let gross = nok_floor(amount * price);
            let fee = nok_round(gross * TRADE_FEE);
            (gross - fee > Decimal::ZERO).then_some((amount, gross, fee))
        }
    }
}
