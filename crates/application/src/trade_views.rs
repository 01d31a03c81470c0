//! What the Trade screen exchanges with the use cases of `trading` and `market`: the quote,
//! the order form and its outcome, open orders, the order journal, volume, trades and charts.

use nordlys_core::format::{self, BtcUnit, Figures};
use nordlys_core::order_form::OrderForm;
use nordlys_core::store::JournalState;
use nordlys_core::tax::row_amount_text;
use nordlys_exchange::models::{TaxTransactionType, VolumeResponse, VolumeStats};
use nordlys_money::{Btc, Nok};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::market::Trades;
use crate::present::{Present, Viewer};
use crate::shown::ShownPrice;
use crate::vocabulary::{Direction, OrderOutcome, OrderType};

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
    pub for_amount: Option<String>,
    pub price: String,
    /// Exact unless hidden: a limit order starts from the price on its side.
    pub bid: ShownPrice,
    pub ask: ShownPrice,
    pub card_buy: String,
    pub card_sell: String,
    pub bank_buy: String,
    pub bank_sell: String,
    /// When the exchange quoted it, on the user's clock, to the second.
    pub quoted_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderFormArgs {
    #[serde(flatten)]
    #[ts(flatten)]
    pub form: OrderForm,
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
    pub estimate: Option<String>,
    /// What the estimate is at: the ask (buying) or bid (selling) with the quote's time, or the
    /// limit price.
    pub estimate_basis: Option<String>,
    pub summary: Option<String>,
    /// For a sale: the gain or loss it would realise and the tax on it, before confirming.
    pub sale_tax: Option<crate::sale_tax::SaleTaxView>,
    /// What there is to trade with: the NOK available to buy with, or the account's bitcoin
    /// available to sell.
    pub available: String,
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
    pub amount: String,
    /// For a sell, what the bitcoin is worth at the bid; none for a buy (its amount is NOK) or
    /// before the first price is read.
    pub amount_nok: Option<String>,
    pub age: String,
    /// The limit price, for an order Nordlys placed (its journal has it); the exchange's list
    /// states none.
    pub price: Option<String>,
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
    pub amount_nok: String,
    pub amount_btc: String,
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
    pub btc: String,
    pub nok: String,
    pub price: String,
    pub fee: String,
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
    pub price: String,
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
        amount_nok: figures.nok(s.amount_nok),
        amount_btc: figures.btc_in(s.amount_btc, BtcUnit::Btc),
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
                    .map(|a| {
                        self.names
                            .get(a.as_str())
                            .cloned()
                            .unwrap_or_else(|| a.to_string())
                    })
                    .unwrap_or_default();
                TradeView {
                    id: t.id.to_string(),
                    time: viewer.time(&t.create_time),
                    direction: if buy { Direction::Buy } else { Direction::Sell },
                    account,
                    btc: btc
                        .map(|b| figures.btc(Btc::computed(b)))
                        .unwrap_or_default(),
                    nok: nok
                        .map(|n| figures.nok(Nok::computed(n)))
                        .unwrap_or_default(),
                    price: t.rate_market.map(|r| figures.price(r)).unwrap_or_default(),
                    fee: match (t.fee_amount, &t.fee_currency) {
                        (Some(f), Some(c)) => row_amount_text(figures, f, c),
                        // A fee with no currency named is in NOK, as a trade's is.
                        (Some(f), None) => figures.nok(Nok::computed(f)),
                        (None, _) => String::new(),
                    },
                }
            })
            .collect();
        TradesView { trades }
    }
}
