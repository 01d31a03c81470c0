//! A figure as a view carries it: the words the window shows, written through
//! [`Figures`], and the exact amount behind them, typed as money, for what is done with it rather
//! than read (a form's starting value, a data attribute, a test). In privacy mode the words are
//! a mask and the amount is none: no digit of a hidden figure leaves the backend.
//!
//! A shown figure is made only here, by the formatter ([`Show`]), or as words standing in for a
//! figure that has none ([`ShownBtc::instead`]: "not computable", a dash). No view carries an
//! amount as a bare string. In TypeScript the exact amount is `Exact<unit>`, a branded string: a
//! plain string does not pass for one.

use nordlys_core::format::Figures;
use nordlys_core::tax::card::FieldValue;
use nordlys_core::tax::row_amount;
use nordlys_exchange::models::CurrencyCode;
use nordlys_money::{Amount, Btc, Nok, NokPerBtc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

macro_rules! shown {
    ($(#[$doc:meta])* $name:ident, $quantity:ty, $ts:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
        pub struct $name {
            text: String,
            #[ts(type = $ts)]
            #[serde(with = "nordlys_money::opt_computed")]
            exact: Option<$quantity>,
        }

        impl $name {
            /// Words in the place of a figure there is none of (a reason, a dash): no amount
            /// behind them.
            pub fn instead(text: String) -> Self {
                Self { text, exact: None }
            }

            /// What the window writes.
            pub fn text(&self) -> &str {
                &self.text
            }

            /// The amount behind the words; none when hidden or when the words stand instead.
            pub fn exact(&self) -> Option<$quantity> {
                self.exact
            }
        }
    };
}

shown!(
    /// An amount of bitcoin as a view shows it.
    ShownBtc,
    Btc,
    "Exact<\"BTC\"> | null"
);

shown!(
    /// An amount of kroner as a view shows it.
    ShownNok,
    Nok,
    "Exact<\"NOK\"> | null"
);

shown!(
    /// A price as a view shows it.
    ShownPrice,
    NokPerBtc,
    "Exact<\"NOK/BTC\"> | null"
);

/// An amount of either unit as a view shows it (an order's amount: NOK to spend, or bitcoin to
/// sell; a row's fee), its exact amount named by its unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ShownAmount {
    text: String,
    #[ts(
        type = "{ unit: \"BTC\", amount: Exact<\"BTC\"> } | { unit: \"NOK\", amount: Exact<\"NOK\"> } | null"
    )]
    #[serde(with = "exact_amount")]
    exact: Option<Amount>,
}

impl ShownAmount {
    /// Words in the place of an amount of either unit (a fee in a currency Nordlys does not
    /// keep, written as it came).
    pub fn instead(text: String) -> Self {
        Self { text, exact: None }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn exact(&self) -> Option<Amount> {
        self.exact
    }
}

/// An amount of either unit crosses as its unit and its decimal text.
mod exact_amount {
    use nordlys_money::{Amount, Btc, Nok};
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(tag = "unit", content = "amount")]
    enum Tagged {
        #[serde(rename = "BTC")]
        Btc(Decimal),
        #[serde(rename = "NOK")]
        Nok(Decimal),
    }

    pub fn serialize<S: Serializer>(a: &Option<Amount>, s: S) -> Result<S::Ok, S::Error> {
        a.map(|a| match a {
            Amount::Btc(b) => Tagged::Btc(b.decimal()),
            Amount::Nok(n) => Tagged::Nok(n.decimal()),
        })
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Amount>, D::Error> {
        Ok(Option::<Tagged>::deserialize(d)?.map(|t| match t {
            Tagged::Btc(d) => Amount::Btc(Btc::computed(d)),
            Tagged::Nok(d) => Amount::Nok(Nok::computed(d)),
        }))
    }
}

/// Figures that also keep the amount they write.
pub trait Show {
    fn shown_btc(self, amount: Btc) -> ShownBtc;
    fn shown_nok(self, amount: Nok) -> ShownNok;
    fn shown_price(self, price: NokPerBtc) -> ShownPrice;
    fn shown_amount(self, amount: Amount) -> ShownAmount;
    /// A tax row's amount in the currency it names: a foreign one is written as it came.
    fn shown_row_amount(self, value: Decimal, currency: &CurrencyCode) -> ShownAmount;
    /// A sum of many amounts, or the words saying it is too large to add up.
    fn shown_btc_sum(self, sum: Option<Btc>) -> ShownBtc;
    fn shown_nok_sum(self, sum: Option<Nok>) -> ShownNok;
    /// A tax card's figure in the return's own format (whole kroner; bitcoin to 10 decimals),
    /// its amount as filed: what is copied into the return.
    fn shown_filed(self, value: FieldValue) -> ShownAmount;
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

    fn shown_amount(self, amount: Amount) -> ShownAmount {
        ShownAmount {
            text: self.amount(amount),
            exact: (!self.hidden).then_some(amount),
        }
    }

    fn shown_row_amount(self, value: Decimal, currency: &CurrencyCode) -> ShownAmount {
        match row_amount(value, currency) {
            Some(a) => self.shown_amount(a),
            None => ShownAmount::instead(self.foreign(value, currency.as_str())),
        }
    }

    fn shown_btc_sum(self, sum: Option<Btc>) -> ShownBtc {
        sum.map_or_else(|| ShownBtc::instead(too_large(self)), |b| self.shown_btc(b))
    }

    fn shown_nok_sum(self, sum: Option<Nok>) -> ShownNok {
        sum.map_or_else(|| ShownNok::instead(too_large(self)), |n| self.shown_nok(n))
    }

    fn shown_filed(self, value: FieldValue) -> ShownAmount {
        let filed = match value {
            FieldValue::Btc(b) => Amount::Btc(b),
            FieldValue::Nok(n) => Amount::Nok(n.round_to_krone()),
        };
        match self.raw(|| value.filed()) {
            Some(text) => ShownAmount {
                text,
                exact: Some(filed),
            },
            None => ShownAmount::instead(match value {
                FieldValue::Btc(b) => self.btc(b),
                FieldValue::Nok(n) => self.nok(n),
            }),
        }
    }
}

fn too_large(figures: Figures) -> String {
    crate::wording::Message::new(crate::wording::key::TAX_NOT_COMPUTABLE_OVERFLOW)
        .render(figures.locale)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use nordlys_core::format::{BtcUnit, Locale, MASK};

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
        assert_eq!(shown.exact(), Some(btc));
        assert_eq!(shown.text(), figures(false).btc(btc));
        let hidden = figures(true).shown_btc(btc);
        assert_eq!(hidden.exact(), None);
        assert!(hidden.text().starts_with(MASK));
        let nok = Nok::computed(Decimal::new(1_050, 2));
        assert_eq!(figures(true).shown_nok(nok).exact(), None);
        assert_eq!(figures(false).shown_nok(nok).exact(), Some(nok));
        let price = NokPerBtc::computed(Decimal::new(1_000_000, 0));
        assert_eq!(figures(true).shown_price(price).exact(), None);
        assert_eq!(figures(false).shown_price(price).exact(), Some(price));
        let amount = Amount::Nok(nok);
        assert_eq!(figures(false).shown_amount(amount).exact(), Some(amount));
        assert_eq!(figures(true).shown_amount(amount).exact(), None);
    }

    /// The window reads the amount as the exchange writes one: a decimal in a string.
    #[test]
    fn the_exact_amount_crosses_as_its_decimal_text() {
        let shown = figures(false).shown_btc(Btc::computed(Decimal::new(5, 1)));
        let json = serde_json::to_value(&shown).unwrap();
        assert_eq!(json["exact"], "0.5");
        let hidden = serde_json::to_value(figures(true).shown_btc(Btc::default())).unwrap();
        assert!(hidden["exact"].is_null());
        let sell = figures(false).shown_amount(Amount::Btc(Btc::from_sats(1_000)));
        let json = serde_json::to_value(&sell).unwrap();
        assert_eq!(
            json["exact"],
            serde_json::json!({"unit": "BTC", "amount": "0.00001000"})
        );
        let back: ShownAmount = serde_json::from_value(json).unwrap();
        assert_eq!(back, sell);
    }

    /// A card figure is copied as the return takes it, and its amount is the one filed.
    #[test]
    fn a_card_figure_is_filed_in_whole_kroner_with_its_amount_and_hidden_is_a_mask() {
        let wealth = FieldValue::Nok(Nok::computed(Decimal::new(123_450, 2)));
        let filed = figures(false).shown_filed(wealth);
        assert_eq!(filed.text(), "1235");
        assert_eq!(
            filed.exact(),
            Some(Amount::Nok(Nok::computed(Decimal::from(1_235))))
        );
        let held = figures(false).shown_filed(FieldValue::Btc(Btc::from_sats(15)));
        assert_eq!(held.text(), "0.0000001500");
        assert_eq!(held.exact(), Some(Amount::Btc(Btc::from_sats(15))));
        let hidden = figures(true).shown_filed(wealth);
        assert_eq!(hidden.exact(), None);
        assert!(hidden.text().contains(MASK), "{hidden:?}");
        assert!(
            !hidden.text().chars().any(|c| c.is_ascii_digit()),
            "{hidden:?}"
        );
    }

    /// Words standing in for a figure carry no amount.
    #[test]
    fn words_instead_of_a_figure_have_no_amount() {
        let dash = ShownNok::instead("—".into());
        assert_eq!((dash.text(), dash.exact()), ("—", None));
    }
}
