//! A figure as a view carries it: the words the window shows, written through
//! [`Figures`], and the exact amount behind them, typed as money, for what is done with it rather
//! than read (a form's starting value, a data attribute, a test). In privacy mode the words are
//! a mask and the amount is none: no digit of a hidden figure leaves the backend.

use nordlys_core::format::Figures;
use nordlys_money::{Btc, Nok, NokPerBtc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// An amount of bitcoin as a view shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ShownBtc {
    pub text: String,
    #[ts(type = "string | null")]
    #[serde(with = "nordlys_money::opt_computed")]
    pub exact: Option<Btc>,
}

/// An amount of kroner as a view shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ShownNok {
    pub text: String,
    #[ts(type = "string | null")]
    #[serde(with = "nordlys_money::opt_computed")]
    pub exact: Option<Nok>,
}

/// A price as a view shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ShownPrice {
    pub text: String,
    #[ts(type = "string | null")]
    #[serde(with = "nordlys_money::opt_computed")]
    pub exact: Option<NokPerBtc>,
}

/// Figures that also keep the amount they write.
pub trait Show {
    fn shown_btc(self, amount: Btc) -> ShownBtc;
    fn shown_nok(self, amount: Nok) -> ShownNok;
    fn shown_price(self, price: NokPerBtc) -> ShownPrice;
}

impl Show for Figures {
    fn shown_btc(self, amount: Btc) -> ShownBtc {
        ShownBtc {
            text: self.btc(amount),
            exact: (!self.hidden).then_some(amount),
        }
    }

    fn shown_nok(self, amount: Nok) -> ShownNok {
        ShownNok {
            text: self.nok(amount),
            exact: (!self.hidden).then_some(amount),
        }
    }

    fn shown_price(self, price: NokPerBtc) -> ShownPrice {
        ShownPrice {
            text: self.price(price),
            exact: (!self.hidden).then_some(price),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use nordlys_core::format::{BtcUnit, Locale, MASK};
    use rust_decimal::Decimal;

    use super::*;

    fn figures(hidden: bool) -> Figures {
        Figures {
            locale: Locale::Nb,
            unit: BtcUnit::Btc,
            hidden,
        }
    }

    #[test]
    fn a_shown_figure_keeps_its_exact_amount_unless_hidden() {
        let btc = Btc::computed(Decimal::new(12_345, 8));
        let shown = figures(false).shown_btc(btc);
        assert_eq!(shown.exact, Some(btc));
        assert_eq!(shown.text, figures(false).btc(btc));
        let hidden = figures(true).shown_btc(btc);
        assert_eq!(hidden.exact, None);
        assert!(hidden.text.starts_with(MASK));
        let nok = Nok::computed(Decimal::new(1_050, 2));
        assert_eq!(figures(true).shown_nok(nok).exact, None);
        assert_eq!(figures(false).shown_nok(nok).exact, Some(nok));
        let price = NokPerBtc::computed(Decimal::new(1_000_000, 0));
        assert_eq!(figures(true).shown_price(price).exact, None);
        assert_eq!(figures(false).shown_price(price).exact, Some(price));
    }

    /// The window reads the amount as the exchange writes one: a decimal in a string.
    #[test]
    fn the_exact_amount_crosses_as_its_decimal_text() {
        let shown = figures(false).shown_btc(Btc::computed(Decimal::new(5, 1)));
        let json = serde_json::to_value(&shown).unwrap();
        assert_eq!(json["exact"], "0.5");
        let hidden = serde_json::to_value(figures(true).shown_btc(Btc::default())).unwrap();
        assert!(hidden["exact"].is_null());
    }
}
