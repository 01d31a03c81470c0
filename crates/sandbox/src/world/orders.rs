//! Orders: market orders fill at once at ask/bid; limit orders rest, reserving their funds, until
//! the price crosses them.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::readings::BuySpend;
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
        if fill_amounts(new.direction, new.amount, probe_price, self.buy_fee()).is_none() {
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
                if self.orders[index].is_open() {
                    self.fill_part_at_once(index, now);
                }
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

    /// Executes the whole of order `index` at `price` (in several trades under the split-fills
    /// reading, for a market order) and marks it filled.
    fn fill(&mut self, index: usize, price: Decimal, now: DateTime<Utc>, sub_type: &str) -> String {
        let parts = match self.orders[index].kind {
            OrderKind::Market => self.readings.split_fills.max(1),
            OrderKind::Limit => 1,
        };
        let amount = self.orders[index].amount;
        match self.trade(index, amount, price, now, sub_type, parts) {
            Some(first) => {
                self.orders[index].state = OrderState::Filled {
                    trade_id: first.clone(),
                    at: now,
                };
                first
            }
            None => {
                // Unreachable for accepted orders; cancel rather than book a zero trade.
                self.orders[index].state = OrderState::Cancelled { at: now };
                self.new_id("tr_")
            }
        }
    }

    /// Under the partial-fill reading, a new limit order trades part of its amount at once at its
    /// price; the rest stays open with the smaller amount.
    fn fill_part_at_once(&mut self, index: usize, now: DateTime<Utc>) {
        let (Some(pct), Some(price)) = (self.readings.partial_fill, self.orders[index].price)
        else {
            return;
        };
        let o = &self.orders[index];
        let dp = match o.direction {
            OrderDirection::Buy => 2,
            OrderDirection::Sell => 8,
        };
        let part = (o.amount * pct / Decimal::ONE_HUNDRED)
            .round_dp_with_strategy(dp, rust_decimal::RoundingStrategy::ToZero);
        let rest = o.amount - part;
        let fee = self.buy_fee();
        let tradable = |a| fill_amounts(o.direction, a, price, fee).is_some();
        if part <= Decimal::ZERO || !tradable(part) || !tradable(rest) {
            return;
        }
        if self.trade(index, part, price, now, "limit", 1).is_some() {
            self.orders[index].amount = rest;
        }
    }

    fn buy_fee(&self) -> Option<Decimal> {
        self.readings.buy_fee_pct.map(|p| p / Decimal::ONE_HUNDRED)
    }

    /// Trades `amount` of order `index` at `price` in `parts` trades: the first now, the others
    /// at once or, under the fill-spread reading, evenly apart over that many seconds (their funds
    /// reserved until then). Returns the first trade's id.
    fn trade(
        &mut self,
        index: usize,
        amount: Decimal,
        price: Decimal,
        now: DateTime<Utc>,
        sub_type: &str,
        parts: u32,
    ) -> Option<String> {
        let order = self.orders[index].clone();
        let (btc, nok_gross, fee) = fill_amounts(order.direction, amount, price, self.buy_fee())?;
        // Under the buy-spend reading a buy takes only the NOK of the whole satoshis it got.
        let nok_gross = match (order.direction, self.readings.buy_spend) {
            (OrderDirection::Buy, BuySpend::Sats) => nok_floor(btc * price).min(nok_gross),
            _ => nok_gross,
        };
        let pieces = split(btc, nok_gross, fee, parts)
            .or_else(|| split(btc, nok_gross, fee, 1))
            .unwrap_or_default();
        self.accounts.iter().position(|a| a.id == order.account)?;
        let step = match pieces.len() {
            0 | 1 => chrono::Duration::zero(),
            n => {
                let spread_ms = i64::try_from(self.readings.fill_spread).unwrap_or(0) * 1000;
                chrono::Duration::milliseconds(spread_ms / (n as i64 - 1))
            }
        };
        let note = self.echoed(&order.description);
        let mut first = None;
        for (k, (btc, nok_gross, fee)) in pieces.into_iter().enumerate() {
            let fill = PendingFill {
                at: now + step * k as i32,
                account: order.account.clone(),
                direction: order.direction,
                btc,
                nok_gross,
                fee,
                price,
                sub_type: sub_type.to_owned(),
                note: note.clone(),
            };
            if fill.at <= now {
                let id = self.make_fill(&fill);
                first.get_or_insert(id);
            } else {
                self.pending_fills.push(fill);
            }
        }
        self.pending_fills.sort_by_key(|f| f.at);
        first
    }

    /// Makes the trades whose time has come, in their order.
    pub(super) fn make_due_fills(&mut self, now: DateTime<Utc>) {
        let due = self.pending_fills.partition_point(|f| f.at <= now);
        if due == 0 {
            return;
        }
        let due: Vec<PendingFill> = self.pending_fills.drain(..due).collect();
        for fill in &due {
            self.make_fill(fill);
        }
    }

    /// One trade: moves the money, books the fee, writes its ledger row at its own time.
    fn make_fill(&mut self, fill: &PendingFill) -> String {
        let trade_id = self.new_id("tr_");
        let usdnok = self.usdnok(fill.at.date_naive());
        let (btc, nok_gross, fee) = (fill.btc, fill.nok_gross, fill.fee);
        let Some(account) = self.accounts.iter_mut().find(|a| a.id == fill.account) else {
            return trade_id;
        };
        let row = match fill.direction {
            OrderDirection::Buy => {
                account.btc += btc;
                self.fiat_nok -= nok_gross + fee;
                self.books.house_nok += nok_gross;
                self.books.house_btc -= btc;
                // As published: the NOK spent, fee included (`--buy-fee outside` lists it
                // without).
                TaxRow::new(
                    trade_id.clone(),
                    &fill.account,
                    "TAX_TRANSACTION_TYPE_BTC_BUY",
                    &fill.sub_type,
                    fill.at,
                    account.btc,
                )
                .received(btc, "BTC")
                .paid(nok_gross + fee, "NOK")
            }
            OrderDirection::Sell => {
                account.btc -= btc;
                self.fiat_nok += nok_gross - fee;
                self.books.house_nok -= nok_gross;
                self.books.house_btc += btc;
                TaxRow::new(
                    trade_id.clone(),
                    &fill.account,
                    "TAX_TRANSACTION_TYPE_BTC_SELL",
                    &fill.sub_type,
                    fill.at,
                    account.btc,
                )
                .received(nok_gross - fee, "NOK")
                .paid(btc, "BTC")
            }
        };
        self.books.fees_nok += fee;
        self.counters.trades += 1;
        let day = self.user_volume.entry(fill.at.date_naive()).or_default();
        day.nok += nok_gross;
        day.btc += btc;
        day.trades += 1;
        day.buys += u64::from(fill.direction == OrderDirection::Buy);
        self.push_row(
            row.fee(fee, "NOK")
                .rate(fill.price)
                .usdnok(usdnok)
                .note(&fill.note),
        );
        trade_id
    }
}

/// A trade of a market order to be made at `at` (the fill-spread reading).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PendingFill {
    pub at: DateTime<Utc>,
    pub account: String,
    pub direction: OrderDirection,
    pub btc: Decimal,
    pub nok_gross: Decimal,
    pub fee: Decimal,
    pub price: Decimal,
    pub sub_type: String,
    pub note: String,
}

/// `btc`, `nok` and `fee` cut into `parts` pieces that add up exactly (the last takes what
/// rounding leaves); `None` when a piece would be empty.
fn split(
    btc: Decimal,
    nok: Decimal,
    fee: Decimal,
    parts: u32,
) -> Option<Vec<(Decimal, Decimal, Decimal)>> {
    let n = Decimal::from(parts.max(1));
    let (b, g, f) = (btc_floor(btc / n), nok_floor(nok / n), nok_floor(fee / n));
    let mut pieces = vec![(b, g, f); parts.max(1) as usize - 1];
    let taken = n - Decimal::ONE;
    pieces.push((btc - b * taken, nok - g * taken, fee - f * taken));
    pieces
        .iter()
        .all(|(b, g, _)| *b > Decimal::ZERO && *g > Decimal::ZERO)
        .then_some(pieces)
}

/// BTC moved, NOK exchanged and the fee for an order of `amount` at `price`; `None` when the
/// order is too small to produce a satoshi or an øre.
/// A buy spends `amount` NOK in all: `gross + fee`. A sell pays `gross - fee` NOK.
/// `buy_fee` (a fraction of the amount) replaces the usual fee of a buy under the buy-fee reading.
pub fn fill_amounts(
    direction: OrderDirection,
    amount: Decimal,
    price: Decimal,
    buy_fee: Option<Decimal>,
) -> Option<(Decimal, Decimal, Decimal)> {
    if price <= Decimal::ZERO {
        return None;
    }
    match direction {
        OrderDirection::Buy => {
            let fee = nok_round(match buy_fee {
                Some(f) => amount * f,
                None => amount * TRADE_FEE / (Decimal::ONE + TRADE_FEE),
            });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::BuySpend;

    fn market_buy(nok: i64) -> NewOrder {
        NewOrder {
            kind: OrderKind::Market,
            direction: OrderDirection::Buy,
            amount: Decimal::from(nok),
            price: None,
            account_id: String::new(),
            description: String::new(),
        }
    }

    fn buys_since(w: &World, t: DateTime<Utc>) -> Vec<TaxRow> {
        w.ledger
            .iter()
            .filter(|r| r.create_time >= t && r.tx_type == "TAX_TRANSACTION_TYPE_BTC_BUY")
            .cloned()
            .collect()
    }

    /// Under the fill-spread reading the fills are made evenly apart, each with its own time,
    /// their NOK reserved until then; together they spend what was asked.
    #[test]
    fn fills_spread_over_time_are_made_when_their_time_comes() {
        let now = Utc::now();
        let mut w = World::new(7, now);
        w.readings.split_fills = 3;
        w.readings.fill_spread = 60;
        let nok_before = w.fiat_nok;
        let available_before = w.available_nok();
        w.place_order(market_buy(1000), now).unwrap();
        assert_eq!(buys_since(&w, now).len(), 1);
        assert_eq!(w.available_nok(), available_before - Decimal::from(1000));
        w.advance(now + chrono::Duration::seconds(30));
        let rows = buys_since(&w, now);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].create_time, now + chrono::Duration::seconds(30));
        w.advance(now + chrono::Duration::seconds(61));
        let rows = buys_since(&w, now);
        assert_eq!(rows.len(), 3);
        let spent: Decimal = rows
            .iter()
            .map(|r| r.out_amount.parse::<Decimal>().unwrap())
            .sum();
        assert_eq!(spent, Decimal::from(1000));
        assert_eq!(w.fiat_nok, nok_before - Decimal::from(1000));
        assert_eq!(w.available_nok(), available_before - Decimal::from(1000));
        assert!(w.pending_fills.is_empty());
    }

    /// Under the buy-spend reading a buy takes only the NOK of the whole satoshis it got, in
    /// whole øre: less than asked by under a satoshi's worth and an øre per fill, never more.
    #[test]
    fn a_buy_can_take_only_the_nok_of_its_whole_satoshis() {
        let now = Utc::now();
        let mut w = World::new(7, now);
        w.readings.buy_spend = BuySpend::Sats;
        w.readings.split_fills = 2;
        let nok_before = w.fiat_nok;
        w.place_order(market_buy(997), now).unwrap();
        let rows = buys_since(&w, now);
        let spent: Decimal = rows
            .iter()
            .map(|r| r.out_amount.parse::<Decimal>().unwrap())
            .sum();
        let rate: Decimal = rows[0].rate_market.parse().unwrap();
        let sat_worth = rate / Decimal::from(100_000_000);
        assert!(spent < Decimal::from(997), "{spent}");
        let per_fill = sat_worth + Decimal::new(1, 2);
        assert!(
            Decimal::from(997) - spent <= per_fill * Decimal::TWO,
            "{spent} at {rate}"
        );
        assert_eq!(w.fiat_nok, nok_before - spent);
    }
}
