//! The seeded past: three accounts (one deleted later) and about two and a half years of deposits,
//! trades, withdrawals, bonuses and adjustments, in fixed dates so a seed always gives the same
//! ledger. Several rows share a `createTime`, as real batches do.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use rust_decimal::Decimal;

use super::orders::{OrderDirection, fill_amounts};
use super::{Account, TaxRow, World, btc_floor};

/// The seeded history runs from here ...
const FROM: (i32, u32, u32) = (2024, 1, 2);
/// ... to here (exclusive); live activity follows.
const UNTIL: (i32, u32, u32) = (2026, 7, 1);

fn date(ymd: (i32, u32, u32)) -> NaiveDate {
    NaiveDate::from_ymd_opt(ymd.0, ymd.1, ymd.2).unwrap_or_default()
}

/// Whether account `i` exists at `at` (the old wallet only until it is deleted).
fn live(w: &World, i: usize, at: DateTime<Utc>, deleted_at: DateTime<Utc>) -> bool {
    w.accounts[i].created <= at && (i != 2 || at < deleted_at)
}

impl World {
    pub(super) fn seed_history(&mut self, now: DateTime<Utc>) {
        let start = date(FROM)
            .and_hms_opt(9, 0, 0)
            .unwrap_or_default()
            .and_utc();
        let until = date(UNTIL)
            .and_hms_opt(0, 0, 0)
            .unwrap_or_default()
            .and_utc()
            .min(now);
        let deleted_at = date((2025, 9, 30))
            .and_hms_opt(12, 0, 0)
            .unwrap_or_default()
            .and_utc();
        for (name, created) in [
            ("Hovedkonto", start),
            ("Sparing", start + Duration::days(40)),
            ("Gammel lommebok", start + Duration::days(3)),
        ] {
            let id = self.new_id("acc_");
            self.accounts.push(Account {
                id,
                name: name.into(),
                btc: Decimal::ZERO,
                created,
                deleted: None,
                addresses: vec![],
            });
            let i = self.accounts.len() - 1;
            self.new_address(i);
        }
        let mut t = start;
        while t < until {
            self.seed_day(t, deleted_at);
            t += Duration::days(1);
        }
        // If the seeded past ends before the old wallet's day, it goes now.
        self.retire_old_wallet(deleted_at.min(now));
    }

    /// The old wallet is emptied into the main account and deleted, once, as soon as the seeded
    /// clock reaches `deleted_at`: every row after it then carries balances that include the move.
    fn retire_old_wallet(&mut self, deleted_at: DateTime<Utc>) {
        if self.accounts.get(2).is_some_and(|a| a.deleted.is_none()) {
            self.empty_and_delete(2, 0, deleted_at);
        }
    }

    /// Retires the old wallet first when `at` is past its day.
    fn reach(&mut self, at: DateTime<Utc>, deleted_at: DateTime<Utc>) {
        if at >= deleted_at {
            self.retire_old_wallet(deleted_at);
        }
    }

    fn seed_day(&mut self, day: DateTime<Utc>, deleted_at: DateTime<Utc>) {
        let date = day.date_naive();
        let price = self.market.close(date);
        let mut at = day + Duration::minutes(i64::try_from(self.rng.below(600)).unwrap_or(0));
        // Salary-day bank deposit, and the recurring buy that follows it at the same second.
        if date.format("%d").to_string() == "25" {
            self.reach(at, deleted_at);
            let amount = Decimal::from(8_000 + self.rng.below(12) * 1_000);
            self.deposit_nok(amount, at, "bank");
            let buy = Decimal::from(2_000 + self.rng.below(4) * 500);
            self.seed_trade(0, OrderDirection::Buy, buy, price, at, "market");
            if live(self, 1, at, deleted_at) {
                self.seed_trade(
                    1,
                    OrderDirection::Buy,
                    Decimal::from(1_000),
                    price,
                    at,
                    "market",
                );
            }
        }
        for _ in 0..5 {
            at += Duration::minutes(17 + i64::try_from(self.rng.below(90)).unwrap_or(0));
            self.seed_event(at, price, deleted_at);
        }
    }

    fn seed_event(&mut self, at: DateTime<Utc>, price: Decimal, deleted_at: DateTime<Utc>) {
        self.reach(at, deleted_at);
        let roll = self.rng.below(100);
        let account = if live(self, 2, at, deleted_at) && self.rng.chance(20) {
            2
        } else if live(self, 1, at, deleted_at) && self.rng.chance(30) {
            1
        } else {
            0
        };
        match roll {
            0..=29 => {
                let nok = Decimal::from(300 + self.rng.below(30) * 100);
                if nok <= self.fiat_nok {
                    let kind = if self.rng.chance(30) {
                        "limit"
                    } else {
                        "market"
                    };
                    self.seed_trade(account, OrderDirection::Buy, nok, price, at, kind);
                }
            }
            30..=39 => {
                let btc = btc_floor(
                    self.accounts[account].btc
                        * Decimal::new(i64::try_from(5 + self.rng.below(20)).unwrap_or(5), 2),
                );
                if btc > Decimal::new(1, 5) {
                    self.seed_trade(account, OrderDirection::Sell, btc, price, at, "market");
                }
            }
            40..=45 => {
                let btc = Decimal::new(
                    i64::try_from(10_000 + self.rng.below(500_000)).unwrap_or(10_000),
                    8,
                );
                let sub = if self.rng.chance(50) {
                    "onchain"
                } else {
                    "lightning"
                };
                self.seed_btc_move(account, btc, true, sub, at, false);
            }
            46..=50 => {
                let btc = btc_floor(
                    self.accounts[account].btc
                        * Decimal::new(i64::try_from(3 + self.rng.below(15)).unwrap_or(3), 2),
                );
                if btc > Decimal::new(1, 5) {
                    let sub = [
                        "onchain",
                        "lightning-payment-request",
                        "lightning-address",
                        "lightning-lnurl",
                    ][usize::try_from(self.rng.below(4)).unwrap_or(0)];
                    let payment = sub != "onchain" && self.rng.chance(60);
                    self.seed_btc_move(account, btc, false, sub, at, payment);
                }
            }
            51..=54 => {
                let sats = Decimal::new(
                    i64::try_from(1_000 + self.rng.below(20_000)).unwrap_or(1_000),
                    8,
                );
                self.seed_bonus(account, sats, at);
            }
            55 if self.fiat_nok > Decimal::from(5_000) => {
                let amount = Decimal::from(1_000 + self.rng.below(4) * 1_000);
                self.fiat_nok -= amount;
                self.books.withdrawals_nok += amount;
                let id = self.new_id("fpu_");
                let row = TaxRow::fiat(
                    id,
                    "TAX_TRANSACTION_TYPE_FIAT_WITHDRAWAL",
                    "bank",
                    at,
                    None,
                    Some(amount),
                    self.user_btc(),
                )
                .payment(false, &self.bank_account());
                self.push_row(row);
            }
            56 => {
                let sats = Decimal::new(i64::try_from(1 + self.rng.below(500)).unwrap_or(1), 8);
                self.seed_adjustment(account, sats, at);
            }
            _ => {}
        }
    }

    fn seed_trade(
        &mut self,
        account: usize,
        direction: OrderDirection,
        amount: Decimal,
        price: Decimal,
        at: DateTime<Utc>,
        sub: &str,
    ) {
        let quote_price = match direction {
            OrderDirection::Buy => price * Decimal::new(1001, 3),
            OrderDirection::Sell => price * Decimal::new(999, 3),
        }
        .round_dp(2);
        if direction == OrderDirection::Buy && amount > self.fiat_nok {
            return;
        }
        let Some((btc, gross, fee)) = fill_amounts(direction, amount, quote_price, None) else {
            return;
        };
        let id = self.new_id("tr_");
        let (tx_type, in_a, in_c, out_a, out_c) = match direction {
            OrderDirection::Buy => {
                self.accounts[account].btc += btc;
                self.fiat_nok -= gross + fee;
                self.books.house_nok += gross;
                self.books.house_btc -= btc;
                // As published: the NOK spent, fee included.
                (
                    "TAX_TRANSACTION_TYPE_BTC_BUY",
                    btc,
                    "BTC",
                    gross + fee,
                    "NOK",
                )
            }
            OrderDirection::Sell => {
                self.accounts[account].btc -= btc;
                self.fiat_nok += gross - fee;
                self.books.house_nok -= gross;
                self.books.house_btc += btc;
                (
                    "TAX_TRANSACTION_TYPE_BTC_SELL",
                    gross - fee,
                    "NOK",
                    btc,
                    "BTC",
                )
            }
        };
        self.books.fees_nok += fee;
        let usdnok = self.usdnok(at.date_naive());
        let row = TaxRow::new(
            id,
            &self.accounts[account].id,
            tx_type,
            sub,
            at,
            self.accounts[account].btc,
        )
        .received(in_a, in_c)
        .paid(out_a, out_c)
        .fee(fee, "NOK")
        .rate(quote_price)
        .usdnok(usdnok);
        self.push_row(row);
    }

    fn seed_btc_move(
        &mut self,
        account: usize,
        btc: Decimal,
        incoming: bool,
        sub: &str,
        at: DateTime<Utc>,
        is_payment: bool,
    ) {
        let (id, tx_type) = if incoming {
            self.accounts[account].btc += btc;
            self.books.deposits_btc += btc;
            (self.new_id("de_"), "TAX_TRANSACTION_TYPE_BTC_DEPOSIT")
        } else {
            self.accounts[account].btc -= btc;
            self.books.withdrawals_btc += btc;
            (self.uuid(), "TAX_TRANSACTION_TYPE_BTC_WITHDRAWAL")
        };
        let rate = self.market.close(at.date_naive());
        let usdnok = self.usdnok(at.date_naive());
        let destination = if sub == "onchain" {
            self.accounts[account]
                .addresses
                .last()
                .cloned()
                .unwrap_or_default()
        } else {
            "kaffebrenneriet@getalby.com".to_owned()
        };
        let info = self.transfer_info(&id, &destination);
        let row = {
            let row = TaxRow::new(
                id,
                &self.accounts[account].id,
                tx_type,
                sub,
                at,
                self.accounts[account].btc,
            )
            .finalized(at + Duration::minutes(if sub == "onchain" { 30 } else { 0 }))
            .rate(rate)
            .usdnok(usdnok)
            .payment(is_payment, &info);
            if incoming {
                row.received(btc, "BTC")
            } else {
                row.paid(btc, "BTC")
            }
        };
        self.push_row(row);
    }

    fn seed_bonus(&mut self, account: usize, btc: Decimal, at: DateTime<Utc>) {
        // Bonuses are paid by the house.
        self.accounts[account].btc += btc;
        self.books.house_btc -= btc;
        let id = self.new_id("gb_");
        self.seed_row(
            account,
            id,
            "TAX_TRANSACTION_TYPE_BTC_BONUS",
            "",
            Some(btc),
            None,
            at,
        );
    }

    fn seed_adjustment(&mut self, account: usize, btc: Decimal, at: DateTime<Utc>) {
        self.accounts[account].btc += btc;
        self.books.house_btc -= btc;
        let id = self.new_id("abj_");
        self.seed_row(
            account,
            id,
            "TAX_TRANSACTION_TYPE_BTC_ADJUSTMENT",
            "correction",
            Some(btc),
            None,
            at,
        );
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one row of the ledger has this many parts"
    )]
    fn seed_row(
        &mut self,
        account: usize,
        id: String,
        tx_type: &str,
        sub: &str,
        inflow: Option<Decimal>,
        outflow: Option<Decimal>,
        at: DateTime<Utc>,
    ) {
        let usdnok = self.usdnok(at.date_naive());
        let rate = self.market.close(at.date_naive());
        let row = {
            let row = TaxRow::new(
                id,
                &self.accounts[account].id,
                tx_type,
                sub,
                at,
                self.accounts[account].btc,
            )
            .rate(rate)
            .usdnok(usdnok);
            let row = match inflow {
                Some(d) => row.received(d, "BTC"),
                None => row,
            };
            match outflow {
                Some(d) => row.paid(d, "BTC"),
                None => row,
            }
        };
        self.push_row(row);
    }

    fn empty_and_delete(&mut self, from: usize, to: usize, at: DateTime<Utc>) {
        let amount = self.accounts[from].btc;
        if amount > Decimal::ZERO {
            self.accounts[from].btc = Decimal::ZERO;
            let out_id = self.uuid();
            self.seed_row(
                from,
                out_id,
                "TAX_TRANSACTION_TYPE_BTC_WITHDRAWAL",
                "internal",
                None,
                Some(amount),
                at,
            );
            self.accounts[to].btc += amount;
            let in_id = self.new_id("de_");
            self.seed_row(
                to,
                in_id,
                "TAX_TRANSACTION_TYPE_BTC_DEPOSIT",
                "internal",
                Some(amount),
                None,
                at,
            );
        }
        self.accounts[from].deleted = Some(at);
    }
}

/// The most rows [`World::add_busy_past`] adds in one call.
pub const MAX_BUSY_PAST: usize = 1_000_000;

impl World {
    /// A busy trader's year before everything else: `rows / 2` buys of the main account, each
    /// sold again at the same second and price without a fee, so every later balance, the books
    /// and the fiat account stay as they were. For long histories (sync and list benchmarks).
    pub fn add_busy_past(&mut self, rows: usize) -> Result<(DateTime<Utc>, DateTime<Utc>), String> {
        if rows == 0 || !rows.is_multiple_of(2) || rows > MAX_BUSY_PAST {
            return Err(format!(
                "transactions must be an even number from 2 to {MAX_BUSY_PAST} (each buy is sold again)"
            ));
        }
        let Some(account) = self.accounts.first().map(|a| a.id.clone()) else {
            return Err("the world has no account yet".into());
        };
        let end = self.ledger.first().map_or_else(Utc::now, |r| r.create_time);
        let start = end - Duration::days(365);
        let pairs = i64::try_from(rows / 2).map_err(|e| e.to_string())?;
        let step = Duration::days(365).num_seconds() / pairs;
        let mut past = Vec::with_capacity(rows);
        for k in 0..pairs {
            let at = start + Duration::seconds(step * k);
            let price = self.market.close(at.date_naive());
            let btc = Decimal::new(
                i64::try_from(10_000 + self.rng.below(90_000)).unwrap_or(10_000),
                8,
            );
            let nok = (btc * price).round_dp(2);
            let usdnok = self.usdnok(at.date_naive());
            let buy = TaxRow::new(
                self.new_id("tr_"),
                &account,
                "TAX_TRANSACTION_TYPE_BTC_BUY",
                "market",
                at,
                btc,
            )
            .received(btc, "BTC")
            .paid(nok, "NOK")
            .fee(Decimal::ZERO, "NOK")
            .rate(price)
            .usdnok(usdnok.clone());
            let sell = TaxRow::new(
                self.new_id("tr_"),
                &account,
                "TAX_TRANSACTION_TYPE_BTC_SELL",
                "market",
                at,
                Decimal::ZERO,
            )
            .received(nok, "NOK")
            .paid(btc, "BTC")
            .fee(Decimal::ZERO, "NOK")
            .rate(price)
            .usdnok(usdnok);
            past.push(buy);
            past.push(sell);
        }
        self.ledger.splice(0..0, past);
        self.count_totals();
        Ok((start, end))
    }
}

#[cfg(test)]
mod busy_past_tests {
    use super::*;

    #[test]
    fn a_busy_past_comes_before_everything_and_changes_no_later_balance() {
        let now = Utc::now();
        let mut w = World::new(3, now);
        let before: Vec<_> = w
            .ledger
            .iter()
            .map(|r| (r.id.clone(), r.running_balance_btc))
            .collect();
        let (start, end) = w.add_busy_past(1_000).unwrap();
        assert_eq!(w.ledger.len(), before.len() + 1_000);
        assert!(
            w.ledger.windows(2).all(|p| p[0].key() <= p[1].key()),
            "ledger stays in cursor order"
        );
        assert!(
            w.ledger[..1_000]
                .iter()
                .all(|r| r.create_time >= start && r.create_time < end)
        );
        let after: Vec<_> = w.ledger[1_000..]
            .iter()
            .map(|r| (r.id.clone(), r.running_balance_btc))
            .collect();
        assert_eq!(after, before);
        assert!(w.add_busy_past(3).is_err());
        assert!(w.add_busy_past(0).is_err());
    }
}

#[cfg(test)]
mod ledger_tests {
    use super::*;

    /// Each row's running balance is the one before it for its account, plus what it moved.
    #[test]
    fn running_balances_follow_each_other_in_listing_order() {
        let w = World::new(7, Utc::now());
        let mut balances = std::collections::BTreeMap::<&str, Decimal>::new();
        let amount = |a: &str, c: &str| {
            if c == "BTC" {
                a.parse::<Decimal>().unwrap()
            } else {
                Decimal::ZERO
            }
        };
        for r in w.ledger.iter().filter(|r| !r.account_id.is_empty()) {
            let before = balances
                .get(r.account_id.as_str())
                .copied()
                .unwrap_or_default();
            let moved = amount(&r.in_amount, &r.in_currency)
                - amount(&r.out_amount, &r.out_currency)
                - amount(&r.fee_amount, &r.fee_currency);
            assert_eq!(before + moved, r.running_balance_btc, "row {}", r.id);
            balances.insert(&r.account_id, r.running_balance_btc);
        }
        for a in &w.accounts {
            assert_eq!(
                balances.get(a.id.as_str()).copied().unwrap_or_default(),
                a.btc,
                "{}",
                a.name
            );
        }
    }

    /// Under the operator's reading each row's `runningBalanceBtc` is the user's total after it
    /// in listing order; under the other, its account's balance. Two accounts hold bitcoin.
    #[test]
    fn running_balance_is_the_total_or_the_account_balance_as_the_reading_says() {
        let mut w = World::new(7, Utc::now());
        w.add_busy_past(10).unwrap();
        let funded = w.accounts.iter().filter(|a| a.btc > Decimal::ZERO).count();
        assert!(funded >= 2, "the seeded user holds bitcoin in two accounts");
        let listed = |w: &World, r: &TaxRow| {
            r.to_json(&w.readings)["runningBalanceBtc"]
                .as_str()
                .unwrap()
                .parse::<Decimal>()
                .unwrap()
        };
        let mut balances = std::collections::BTreeMap::<&str, Decimal>::new();
        for r in &w.ledger {
            if !r.account_id.is_empty() {
                balances.insert(&r.account_id, r.running_balance_btc);
            }
            assert_eq!(
                listed(&w, r),
                balances.values().sum::<Decimal>(),
                "row {}",
                r.id
            );
        }
        assert_eq!(balances.values().sum::<Decimal>(), w.user_btc());
        w.readings.running_balance = super::super::RunningBalance::Account;
        for r in w.ledger.iter().filter(|r| !r.account_id.is_empty()) {
            assert_eq!(listed(&w, r), r.running_balance_btc, "row {}", r.id);
        }
    }

    /// A buy's `outAmount` is the NOK spent, fee included, unless the reading puts it beside.
    #[test]
    fn a_buy_lists_its_fee_inside_its_out_amount_unless_read_outside() {
        let mut w = World::new(7, Utc::now());
        let buy = w
            .ledger
            .iter()
            .find(|r| r.tx_type == "TAX_TRANSACTION_TYPE_BTC_BUY" && r.fee_amount != "0.00")
            .unwrap()
            .clone();
        let fee: Decimal = buy.fee_amount.parse().unwrap();
        let out = |w: &World| {
            buy.to_json(&w.readings)["outAmount"]
                .as_str()
                .unwrap()
                .parse::<Decimal>()
                .unwrap()
        };
        let inside = out(&w);
        w.readings.buy_fee = super::super::BuyFee::Outside;
        assert_eq!(out(&w) + fee, inside);
    }

    /// `paymentInfo` is `<network id>:<destination>` on bitcoin transfers, the bank account on
    /// bank transfers, and empty on trades.
    #[test]
    fn payment_info_has_the_published_shape() {
        let w = World::new(7, Utc::now());
        for r in &w.ledger {
            match (r.tx_type.as_str(), r.sub_type.as_str()) {
                (_, "internal") => {}
                ("TAX_TRANSACTION_TYPE_BTC_WITHDRAWAL" | "TAX_TRANSACTION_TYPE_BTC_DEPOSIT", _) => {
                    let (network_id, destination) = r.payment_info.split_once(':').unwrap();
                    assert_eq!(network_id.len(), 64, "{}", r.id);
                    assert!(network_id.bytes().all(|b| b.is_ascii_hexdigit()));
                    assert!(!destination.is_empty(), "{}", r.id);
                }
                (_, "bank") => assert_eq!(r.payment_info, w.bank_account()),
                ("TAX_TRANSACTION_TYPE_BTC_BUY" | "TAX_TRANSACTION_TYPE_BTC_SELL", _) => {
                    assert_eq!(r.payment_info, "", "{}", r.id);
                }
                _ => {}
            }
        }
    }
}
