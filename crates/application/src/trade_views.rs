//! What the Trade screen exchanges with the use cases of `trading` and `market`: the quote,
//! the order form and its outcome, open orders, the order journal, volume, trades and charts.

use chrono::{DateTime, Utc};
use nordlys_core::format::{self, BtcUnit, Figures};
use nordlys_core::order_form::{self, Market, OrderForm};
use nordlys_core::orders::Resolution;
use nordlys_core::store::{JournalEntry, JournalState};
use nordlys_exchange::models::{TaxTransactionType, VolumeResponse, VolumeStats};
use nordlys_money::{Amount, Btc, Nok, NokPerBtc};
use nordlys_render::chart::{ChartStyle, PriceChartWords, Theme, price_chart, volume_chart};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{Answer, AppError};
use crate::market::{PriceChartFacts, Trades, VolumeChartFacts};
use crate::msg;
use crate::present::{Present, Presented, Viewer};
use crate::shown::{Show, ShownAmount, ShownBtc, ShownNok, ShownPrice};
use crate::trading::{Journal, OpenOrders, OrderChecked, OrderPlaced, Quote};
use crate::vocabulary::{Direction, OrderOutcome, OrderType};
use crate::wording::{self, key};

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QuoteArgs {
    /// NOK to quote for, as typed; none for the exchange's default (5000).
    pub amount_nok: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QuoteView {
    /// The NOK amount this quote is for, formatted; none for the default.
    pub for_amount: Option<ShownNok>,
    pub price: ShownPrice,
    /// Exact unless hidden: a limit order starts from the price on its side.
    pub bid: ShownPrice,
    pub ask: ShownPrice,
    pub card_buy: ShownPrice,
    pub card_sell: ShownPrice,
    pub bank_buy: ShownPrice,
    pub bank_sell: ShownPrice,
    /// When the exchange quoted it, on the user's clock, to the second.
    pub quoted_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderFormArgs {
    #[serde(flatten)]
    #[ts(flatten)]
    pub form: OrderForm,
}

/// Places the order reviewed: by the review's one-time id only, so the window cannot supply
/// another order after the review.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlaceOrderArgs {
    /// The `reviewed` id of the check the user confirmed.
    pub reviewed: String,
    /// The user confirmed a second time that the same order may be sent although one like it
    /// is still unknown.
    #[serde(default)]
    #[ts(optional)]
    pub despite_unknown: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderCheckView {
    pub ok: bool,
    pub amount_error: Option<String>,
    pub price_error: Option<String>,
    pub warning: Option<String>,
    pub estimate: Option<ShownAmount>,
    /// What the estimate is at: the ask (buying) or bid (selling) with the quote's time, or the
    /// limit price.
    pub estimate_basis: Option<String>,
    pub summary: Option<String>,
    /// For a sale: the gain or loss it would realise and the tax on it, before confirming.
    pub sale_tax: Option<crate::sale_tax::SaleTaxView>,
    /// What there is to trade with: the NOK available to buy with, or the account's bitcoin
    /// available to sell.
    pub available: Option<ShownAmount>,
    /// The one-time id that places the order as this check read it; empty while it cannot be
    /// placed.
    pub reviewed: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderResultView {
    pub outcome: OrderOutcome,
    pub order_id: Option<String>,
    pub trade_id: Option<String>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OpenOrderView {
    pub order_id: String,
    /// `None`: a type or direction this version does not know.
    pub order_type: Option<OrderType>,
    pub direction: Option<Direction>,
    pub amount: ShownAmount,
    /// For a sell, what the bitcoin is worth at the bid; none for a buy (its amount is NOK) or
    /// before the first price is read.
    pub amount_nok: Option<ShownNok>,
    pub age: String,
    /// The limit price, for an order Nordlys placed (its journal has it); the exchange's list
    /// states none.
    pub price: Option<ShownPrice>,
    /// The account it was placed from, for an order Nordlys placed with one named.
    pub account_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OpenOrdersView {
    pub orders: Vec<OpenOrderView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CancelOrderArgs {
    pub order_id: String,
    /// The user read the warning that an order whose outcome is still unknown, quiet for longer
    /// than the quiet period, could be this one, and cancels anyway.
    #[serde(default)]
    #[ts(optional)]
    pub anyway: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JournalEntryView {
    pub id: String,
    pub state: JournalState,
    pub what: String,
    pub order_id: Option<String>,
    pub trade_id: Option<String>,
    /// A settled entry's outcome, as an order's result says it; empty while it is not settled.
    pub outcome: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JournalView {
    pub entries: Vec<JournalEntryView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct VolumeStatsView {
    pub amount_nok: ShownNok,
    pub amount_btc: ShownBtc,
    pub buy_percentage: String,
    pub number_of_trades: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct VolumeView {
    pub daily: VolumeStatsView,
    pub monthly: VolumeStatsView,
    pub yearly: VolumeStatsView,
    pub last24h: VolumeStatsView,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TradeView {
    pub id: String,
    pub time: String,
    pub direction: Direction,
    pub account: String,
    pub btc: Option<ShownBtc>,
    pub nok: Option<ShownNok>,
    pub price: Option<ShownPrice>,
    pub fee: Option<ShownAmount>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TradesView {
    pub trades: Vec<TradeView>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PriceChartArgs {
    pub range: crate::vocabulary::ChartRange,
    pub width: u32,
    pub height: u32,
    pub dark: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChartView {
    pub svg: String,
    pub samples: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PriceChartView {
    pub svg: String,
    /// Nordlys' own samples in the range.
    pub samples: u32,
    /// Daily prices from the exchange's volume and the user's transactions in the range.
    pub daily: u32,
    /// What a pointer or the arrow keys over the chart name, oldest first.
    pub readout: Vec<ChartPointView>,
    /// Where the plot lies across the image, as fractions of its width.
    pub plot_left: f64,
    pub plot_right: f64,
}

/// One point of the price chart, as the readout says it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChartPointView {
    pub time: String,
    pub price: ShownPrice,
    /// Where it is across the plot, 0 (left) to 1 (right).
    pub x: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChartSizeArgs {
    pub width: u32,
    pub height: u32,
    pub dark: bool,
}

fn stats(s: &VolumeStats, figures: Figures) -> VolumeStatsView {
    let locale = figures.locale;
    VolumeStatsView {
        amount_nok: figures.shown_nok(s.amount_nok),
        amount_btc: Figures {
            unit: BtcUnit::Btc,
            ..figures
        }
        .shown_btc(s.amount_btc),
        buy_percentage: format!("{}\u{a0}%", format::number(s.buy_percentage, 1, locale)),
        number_of_trades: format::number(Decimal::from(s.number_of_trades), 0, locale),
    }
}

impl Present for VolumeResponse {
    type View = VolumeView;

    fn present(self, viewer: &Viewer) -> VolumeView {
        let figures = viewer.figures;
        VolumeView {
            daily: stats(&self.daily, figures),
            monthly: stats(&self.monthly, figures),
            yearly: stats(&self.yearly, figures),
            last24h: stats(&self.last24h, figures),
        }
    }
}

impl Present for Trades {
    type View = TradesView;

    fn present(self, viewer: &Viewer) -> TradesView {
        let figures = viewer.figures;
        let trades = self
            .rows
            .iter()
            .map(|t| {
                let buy = t.tx_type == TaxTransactionType::BtcBuy;
                let (btc, as_sent) = if buy {
                    (t.in_amount, t.out_amount)
                } else {
                    (t.out_amount, t.in_amount)
                };
                // The bitcoin's worth, fee apart, whichever side of the amount the row puts it;
                // the amount as sent when the row cannot tell.
                let nok = nordlys_core::tax::gains::trade_worth(t)
                    .map(|n| n.decimal())
                    .or(as_sent);
                let account = t
                    .account_id
                    .as_ref()
                    .map(|a| self.names.name(a.as_str()))
                    .unwrap_or_default();
                TradeView {
                    id: t.id.to_string(),
                    time: viewer.time(&t.create_time),
                    direction: if buy { Direction::Buy } else { Direction::Sell },
                    account,
                    btc: btc.map(|b| figures.shown_btc(Btc::computed(b))),
                    nok: nok.map(|n| figures.shown_nok(Nok::computed(n))),
                    price: t.rate_market.map(|r| figures.shown_price(r)),
                    fee: match (t.fee_amount, &t.fee_currency) {
                        (Some(f), Some(c)) => Some(figures.shown_row_amount(f, c)),
                        // A fee with no currency named is in NOK, as a trade's is.
                        (Some(f), None) => {
                            Some(figures.shown_amount(Amount::Nok(Nok::computed(f))))
                        }
                        (None, _) => None,
                    },
                }
            })
            .collect();
        TradesView { trades }
    }
}

/// How the trading screen writes amounts: bitcoin in BTC whatever the unit setting, as its
/// amounts are typed in NOK when buying and in BTC when selling.
fn order_figures(viewer: &Viewer) -> Figures {
    Figures {
        unit: BtcUnit::Btc,
        ..viewer.figures
    }
}

impl Present for Quote {
    type View = QuoteView;

    fn present(self, viewer: &Viewer) -> QuoteView {
        let figures = order_figures(viewer);
        let p = self.price;
        let f = |p: NokPerBtc| figures.shown_price(p);
        QuoteView {
            for_amount: self.for_amount.map(|a| figures.shown_nok(a)),
            price: f(p.price),
            bid: figures.shown_price(p.bid),
            ask: figures.shown_price(p.ask),
            card_buy: f(p.card.buy),
            card_sell: f(p.card.sell),
            bank_buy: f(p.bank.buy),
            bank_sell: f(p.bank.sell),
            quoted_at: viewer.time_to_second(&p.timestamp),
        }
    }
}

/// What an estimate is at: the limit price typed, else the side of the quote a market order
/// fills against (the ask when buying, the bid when selling) with the quote's time.
fn estimate_basis(
    form: &OrderForm,
    market: &Market,
    quoted_at: &DateTime<Utc>,
    viewer: &Viewer,
    figures: Figures,
) -> String {
    if form.order_type == OrderType::Limit {
        return wording::say(key::ESTIMATE_AT_LIMIT, figures.locale);
    }
    let time = viewer.time_to_second(quoted_at);
    match form.direction {
        Direction::Buy => msg!(ESTIMATE_AT_ASK {
            price: figures.price(market.ask),
            time
        }),
        Direction::Sell => msg!(VALUED_AT_BID {
            price: figures.price(market.bid),
            time
        }),
    }
    .render(figures.locale)
}

/// An order's estimate in words: bitcoin in BTC (the exchange's own unit for a fill), or NOK.
fn estimate_words(a: Amount, figures: Figures) -> String {
    figures.amount_in(a, BtcUnit::Btc)
}

/// What will happen, in words, for the confirmation step of a form ready to send.
fn order_confirmation(c: &order_form::OrderCheck, figures: Figures) -> Option<String> {
    let r = c.request.as_ref()?;
    let buying = Direction::Buy.is(&r.direction);
    let amount = figures.amount(Direction::amount_of(&r.direction, r.amount));
    let estimate = c
        .estimate
        .map(|a| estimate_words(a, figures))
        .unwrap_or_default();
    let m = match (buying, r.price) {
        (true, None) => msg!(ORDER_SUMMARY_MARKET_BUY { amount, estimate }),
        (false, None) => msg!(ORDER_SUMMARY_MARKET_SELL { amount, estimate }),
        (true, Some(p)) => msg!(ORDER_SUMMARY_LIMIT_BUY {
            amount,
            price: figures.price(p)
        }),
        (false, Some(p)) => msg!(ORDER_SUMMARY_LIMIT_SELL {
            amount,
            price: figures.price(p)
        }),
    };
    Some(m.render(figures.locale))
}

fn check_view_of(
    c: &order_form::OrderCheck,
    figures: Figures,
    estimate_basis: Option<String>,
) -> OrderCheckView {
    OrderCheckView {
        ok: c.request.is_some(),
        amount_error: c
            .amount_error
            .as_ref()
            .map(|p| wording::amount_problem(p, figures)),
        price_error: c
            .price_error
            .as_ref()
            .map(|p| wording::amount_problem(p, figures)),
        warning: c
            .warning
            .as_ref()
            .map(|w| wording::order_warning(w, figures)),
        estimate: c.estimate.map(|a| figures.shown_amount(a)),
        estimate_basis,
        summary: order_confirmation(c, figures),
        sale_tax: None,
        available: None,
        reviewed: String::new(),
    }
}

impl Present for OrderChecked {
    type View = OrderCheckView;

    fn present(self, viewer: &Viewer) -> OrderCheckView {
        let figures = order_figures(viewer);
        let (form, market, check) = (&self.form, &self.market, &self.check);
        let basis = check
            .estimate
            .as_ref()
            .map(|_| estimate_basis(form, market, &self.quoted_at, viewer, figures));
        let mut view = check_view_of(check, figures, basis);
        view.available = Some(figures.shown_amount(match form.direction {
            Direction::Buy => Amount::Nok(market.available_nok),
            Direction::Sell => Amount::Btc(market.available_btc),
        }));
        view.sale_tax = self.sale_tax.map(|t| t.present(viewer));
        view.reviewed = self.reviewed;
        view
    }
}

/// An order's outcome in words; `name` names accounts the words mention.
fn resolution_view(
    r: Resolution,
    figures: Figures,
    name: &dyn Fn(&str) -> String,
) -> OrderResultView {
    let locale = figures.locale;
    match r {
        Resolution::Placed { order_id, trade_id } => OrderResultView {
            outcome: OrderOutcome::Placed,
            order_id,
            trade_id,
            message: wording::say(key::ORDER_PLACED, locale),
        },
        Resolution::NotPlaced => OrderResultView {
            outcome: OrderOutcome::NotPlaced,
            order_id: None,
            trade_id: None,
            message: wording::say(key::ORDER_NOT_PLACED, locale),
        },
        Resolution::StillUnknown(why) => OrderResultView {
            outcome: OrderOutcome::Unknown,
            order_id: None,
            trade_id: None,
            message: msg!(ORDER_UNKNOWN {
                what: crate::wording::why_unknown(&why, figures, name)
            })
            .render(locale),
        },
    }
}

impl Present for OrderPlaced {
    type View = OrderResultView;

    fn present(self, viewer: &Viewer) -> OrderResultView {
        let figures = order_figures(viewer);
        let mut view = resolution_view(self.resolution, figures, &|id| self.names.name(id));
        if let Some(w) = self.unrecorded {
            view.message = msg!(ORDER_PLACED_NOT_RECORDED { reason: w }).render(figures.locale);
        }
        view
    }
}

/// An order of the journal in a few words: "Market buy, NOK\u{a0}500.00" / "Markedskjøp, 500,00\u{a0}kr".
pub fn journaled_order_words(e: &JournalEntry, figures: Figures) -> String {
    let amount = figures.amount_in(e.amount, BtcUnit::Btc);
    match (e.order_type, e.direction) {
        (OrderType::Market, Direction::Buy) => msg!(ORDER_MARKET_BUY { amount }),
        (OrderType::Market, Direction::Sell) => msg!(ORDER_MARKET_SELL { amount }),
        (OrderType::Limit, Direction::Buy) => msg!(ORDER_LIMIT_BUY { amount }),
        (OrderType::Limit, Direction::Sell) => msg!(ORDER_LIMIT_SELL { amount }),
    }
    .render(figures.locale)
}

fn journal_view(e: &JournalEntry, figures: Figures) -> JournalEntryView {
    JournalEntryView {
        id: e.id.to_string(),
        state: e.state,
        what: journaled_order_words(e, figures),
        order_id: e.order_id.clone(),
        trade_id: e.trade_id.clone(),
        outcome: match e.state {
            JournalState::Placed => wording::say(key::ORDER_PLACED, figures.locale),
            JournalState::NotPlaced | JournalState::Rejected => {
                wording::say(key::ORDER_NOT_PLACED, figures.locale)
            }
            JournalState::Sending | JournalState::Unknown => String::new(),
        },
    }
}

impl Present for Journal {
    type View = JournalView;

    fn present(self, viewer: &Viewer) -> JournalView {
        let figures = order_figures(viewer);
        JournalView {
            entries: self.0.iter().map(|e| journal_view(e, figures)).collect(),
        }
    }
}

impl Present for OpenOrders {
    type View = OpenOrdersView;

    fn present(self, viewer: &Viewer) -> OpenOrdersView {
        let figures = order_figures(viewer);
        let (bid, now) = (self.bid, self.at);
        OpenOrdersView {
            orders: self
                .orders
                .iter()
                .map(|(o, ours)| {
                    let minutes = (now - o.created_at).num_minutes().max(0);
                    let amount = Direction::amount_of(&o.direction, o.amount);
                    OpenOrderView {
                        order_id: o.order_id.to_string(),
                        order_type: OrderType::from_wire(&o.order_type),
                        direction: Direction::from_wire(&o.direction),
                        amount: figures.shown_amount(amount),
                        amount_nok: match amount {
                            Amount::Btc(btc) => bid
                                .and_then(|b| btc.value_at(b))
                                .map(|n| figures.shown_nok(n)),
                            Amount::Nok(_) => None,
                        },
                        age: wording::duration(minutes.unsigned_abs() * 60, figures.locale),
                        price: ours
                            .as_ref()
                            .and_then(|e| e.price)
                            .map(|p| figures.shown_price(p)),
                        account_id: ours.as_ref().and_then(|e| e.account_id.clone()),
                    }
                })
                .collect(),
        }
    }
}

/// The chart's size within reason, and its theme.
fn chart_style(width: u32, height: u32, dark: bool, figures: Figures) -> ChartStyle {
    ChartStyle {
        width: width.clamp(200, 4000),
        height: height.clamp(120, 2000),
        theme: if dark { Theme::Dark } else { Theme::Light },
        figures,
    }
}

impl Presented for PriceChartFacts {
    type View = PriceChartView;

    fn presented(self, viewer: &Viewer) -> Answer<PriceChartView> {
        let figures = viewer.figures;
        let a = &self.args;
        let style = chart_style(a.width, a.height, a.dark, figures);
        let say = |key| wording::say(key, figures.locale);
        let (empty, daily_words, samples_words, spread) = (
            say(key::CHART_COLLECTING),
            say(key::CHART_DAILY),
            say(key::CHART_SAMPLES),
            say(key::CHART_SPREAD),
        );
        let words = PriceChartWords {
            empty: &empty,
            daily: &daily_words,
            samples: &samples_words,
            spread: &spread,
        };
        let chart = price_chart(&self.samples, &self.daily, self.window, style, words)
            .map_err(AppError::fault)?;
        Ok(PriceChartView {
            svg: chart.svg,
            samples: u32::try_from(self.samples.len()).unwrap_or(u32::MAX),
            daily: u32::try_from(self.daily.len()).unwrap_or(u32::MAX),
            readout: chart
                .points
                .iter()
                .map(|p| ChartPointView {
                    time: viewer.time(&p.at),
                    price: figures.shown_price(p.price),
                    x: p.x,
                })
                .collect(),
            plot_left: chart.plot_left,
            plot_right: chart.plot_right,
        })
    }
}

impl Presented for VolumeChartFacts {
    type View = ChartView;

    fn presented(self, viewer: &Viewer) -> Answer<ChartView> {
        let a = &self.args;
        let style = chart_style(a.width, a.height, a.dark, viewer.figures);
        let empty = wording::say(key::CHART_NO_VOLUME, viewer.locale());
        let svg = volume_chart(&self.history, style, &empty).map_err(AppError::fault)?;
        Ok(ChartView {
            svg,
            samples: u32::try_from(self.history.daily_volume.len()).unwrap_or(u32::MAX),
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::panic,
        reason = "tests: a failed step is the failure"
    )]
    use nordlys_core::format::Locale;
    use nordlys_core::order_form::OrderForm;
    use nordlys_core::store::{Claim, NewOrderEntry, Origin, Store};

    use super::*;

    fn shown(locale: Locale) -> Figures {
        Figures {
            locale,
            unit: BtcUnit::Btc,
            hidden: false,
        }
    }

    fn entry(order_type: OrderType, direction: Direction, amount: &str) -> JournalEntry {
        let store = Store::in_memory().unwrap();
        let new = NewOrderEntry {
            sent_at: Utc::now(),
            order_type,
            direction,
            amount: direction.amount(amount.parse().unwrap()),
            price: None,
            account_id: None,
            origin: &Origin::default(),
            request: "{}",
            reference: "",
            before: None,
        };
        let Claim::Journaled(id) = store.orders().add(&new, true).unwrap() else {
            panic!("refused")
        };
        store.orders().entry(id).unwrap().unwrap()
    }

    #[test]
    fn the_confirmation_says_what_will_happen_in_the_user_s_language() {
        let market = Market {
            bid: NokPerBtc::computed(980_000.into()),
            ask: NokPerBtc::computed(1_000_000.into()),
            available_nok: nordlys_money::Nok::computed(10_000.into()),
            available_btc: nordlys_money::Btc::from_sats(5_000_000),
        };
        let form =
            |order_type: OrderType, direction: Direction, amount: &str, price: Option<&str>| {
                OrderForm {
                    order_type,
                    direction,
                    amount: amount.into(),
                    price: price.map(Into::into),
                    account_id: None,
                }
            };
        let say = |f: &OrderForm, locale| {
            order_confirmation(&order_form::check(f, &market, locale), shown(locale)).unwrap()
        };
        let buy = form(OrderType::Market, Direction::Buy, "1 000,50", None);
        assert_eq!(
            say(&buy, Locale::Nb),
            "Kjøp bitcoin for 1\u{a0}000,50\u{a0}kr til markedspris (omtrent 0,00100050\u{a0}BTC før gebyr)."
        );
        let sell = form(OrderType::Limit, Direction::Sell, "0.01", Some("1200000"));
        assert_eq!(
            say(&sell, Locale::En),
            "Place a limit order to sell 0.01000000\u{a0}BTC at NOK\u{a0}1,200,000.00 per BTC or more. It stays open until filled or cancelled."
        );
        let empty = form(OrderType::Market, Direction::Buy, "", None);
        assert_eq!(
            order_confirmation(
                &order_form::check(&empty, &market, Locale::En),
                shown(Locale::En)
            ),
            None
        );
    }

    #[test]
    fn an_order_reads_in_the_user_s_language_with_its_amount_in_its_unit() {
        let buy = entry(OrderType::Market, Direction::Buy, "500");
        let sell = entry(OrderType::Limit, Direction::Sell, "0.015");
        assert_eq!(
            journaled_order_words(&buy, shown(Locale::En)),
            "Market buy, NOK\u{a0}500.00"
        );
        assert_eq!(
            journaled_order_words(&buy, shown(Locale::Nb)),
            "Markedskjøp, 500,00\u{a0}kr"
        );
        assert_eq!(
            journaled_order_words(&sell, shown(Locale::En)),
            "Limit sell, 0.01500000\u{a0}BTC"
        );
        assert_eq!(
            journaled_order_words(&sell, shown(Locale::Nb)),
            "Limitsalg, 0,01500000\u{a0}BTC"
        );
    }
}
