//! What Nordlys tells the user in a desktop notification, as facts ([`Told`]), and the words
//! each leaves in (the desktop's [`Notice`]), in the language of the moment it is told. While the
//! app is locked only that there is news is told, not what.

use nordlys_core::alerts::{Alert, Level};
use nordlys_money::{Btc, Nok};

use crate::desktop::Notice;
use crate::msg;
use crate::present::{Present, Viewer};
use crate::vocabulary::Screen;
use crate::wording::{Bare, key, say};

/// A notification, as what it tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Told {
    /// A due plan left alone: it was made for other accounts than these credentials see.
    PlanElsewhere { plan: i64 },
    /// A plan's run was placed, refused, or may have been placed.
    PlanRan(PlanRan),
    /// Another profile has plans that are not paused; they run only while it is active.
    PlansWaitingElsewhere { profile: String, count: usize },
    /// An invoice of this profile was paid.
    InvoicePaid {
        amount: Option<Btc>,
        description: String,
    },
    /// A sent payment completed or failed on its network.
    PaymentEnded {
        completed: bool,
        amount: Btc,
        destination: String,
    },
    /// A deposit came in.
    Deposit(Deposit),
    /// Deposits that came in while Nordlys was closed, told at once: the first few by name.
    DepositsWhileClosed {
        count: usize,
        /// None when the amounts are too large to add.
        total: Option<Btc>,
        named: Vec<Deposit>,
        /// How many more there were.
        more: usize,
    },
    /// A price alert fired at `value`.
    AlertFired {
        alert: Alert,
        /// The amount the bank and card prices are asked for.
        usual: Nok,
        value: Level,
    },
    /// News came while the app was locked; it opens this screen.
    WhileLocked { opens: Screen },
}

/// How a plan's run ended, as far as its notification tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanRan {
    Placed,
    LadderPlaced,
    Refused,
    Unknown,
}

/// A deposit's amount and account, and whether it is final yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deposit {
    pub amount: Btc,
    pub account: String,
    pub pending: bool,
}

impl Told {
    /// The screen the notification opens.
    pub fn opens(&self) -> Screen {
        match self {
            Self::PlanElsewhere { .. } | Self::PlanRan(_) | Self::AlertFired { .. } => {
                Screen::Trade
            }
            Self::PlansWaitingElsewhere { .. } => Screen::Settings,
            Self::InvoicePaid { .. } => Screen::Receive,
            Self::PaymentEnded { .. } => Screen::Pay,
            Self::Deposit(_) | Self::DepositsWhileClosed { .. } => Screen::Tax,
            Self::WhileLocked { opens } => *opens,
        }
    }
}

fn deposit_line(d: &Deposit, viewer: &Viewer) -> String {
    let amount = viewer.figures.btc(d.amount);
    let account = d.account.clone();
    if d.pending {
        msg!(DEPOSIT_BODY_PENDING { amount, account })
    } else {
        msg!(DEPOSIT_BODY { amount, account })
    }
    .render(viewer.locale())
}

impl Present for Told {
    type View = Notice;

    fn present(self, viewer: &Viewer) -> Notice {
        let (figures, locale) = (viewer.figures, viewer.locale());
        let said = |k: Bare| say(k, locale);
        let opens = self.opens();
        let (title, body) = match &self {
            Self::PlanElsewhere { plan } => (
                said(key::PLAN_NOTICE_TITLE),
                msg!(PLAN_ELSEWHERE {
                    plan: plan.to_string()
                })
                .render(locale),
            ),
            Self::PlanRan(ran) => (
                said(key::PLAN_NOTICE_TITLE),
                said(match ran {
                    PlanRan::Placed => key::PLAN_PLACED,
                    PlanRan::LadderPlaced => key::PLAN_LADDER_PLACED,
                    PlanRan::Refused => key::PLAN_REJECTED,
                    PlanRan::Unknown => key::PLAN_UNKNOWN,
                }),
            ),
            Self::PlansWaitingElsewhere { profile, count } => (
                said(key::PLAN_NOTICE_TITLE),
                msg!(PLANS_OF_INACTIVE_PROFILE {
                    profile: profile.clone(),
                    count: count.to_string()
                })
                .render(locale),
            ),
            Self::InvoicePaid {
                amount,
                description,
            } => {
                let amount = amount.map(|a| figures.btc(a)).unwrap_or_default();
                (
                    said(key::INVOICE_PAID_TITLE),
                    format!("{amount} {description}").trim().to_owned(),
                )
            }
            Self::PaymentEnded {
                completed,
                amount,
                destination,
            } => (
                said(if *completed {
                    key::PAYMENT_COMPLETED_TITLE
                } else {
                    key::PAYMENT_FAILED_TITLE
                }),
                format!("{} → {destination}", figures.btc(*amount)),
            ),
            Self::Deposit(d) => (
                said(if d.pending {
                    key::DEPOSIT_PENDING_TITLE
                } else {
                    key::DEPOSIT_RECEIVED_TITLE
                }),
                deposit_line(d, viewer),
            ),
            Self::DepositsWhileClosed {
                count,
                total,
                named,
                more,
            } => {
                let mut body = msg!(DEPOSITS_WHILE_CLOSED_BODY {
                    count: count.to_string(),
                    total: total.map_or_else(String::new, |t| figures.btc(t))
                })
                .render(locale);
                for d in named {
                    body.push('\n');
                    body.push_str(&deposit_line(d, viewer));
                }
                if *more > 0 {
                    body.push('\n');
                    body.push_str(
                        &msg!(DEPOSITS_MORE {
                            count: more.to_string()
                        })
                        .render(locale),
                    );
                }
                (said(key::DEPOSITS_WHILE_CLOSED_TITLE), body)
            }
            Self::AlertFired {
                alert,
                usual,
                value,
            } => (
                said(key::ALERT_FIRED_TITLE),
                msg!(ALERT_FIRED_BODY {
                    said: crate::alert_views::said(alert, *usual, figures),
                    value: crate::alert_views::level_words(*value, figures)
                })
                .render(locale),
            ),
            Self::WhileLocked { .. } => (
                said(key::LOCKED_NOTICE_TITLE),
                said(key::LOCKED_NOTICE_BODY),
            ),
        };
        Notice {
            title,
            body,
            opens,
            told: self,
        }
    }
}

#[cfg(test)]
mod tests {
    use nordlys_core::alerts::{Crossing, Watched};
    use nordlys_core::format::{BtcUnit, Figures, Locale};
    use nordlys_money::NokPerBtc;
    use rust_decimal::Decimal;

    use super::*;

    fn every_told() -> Vec<Told> {
        let deposit = |pending| Deposit {
            amount: Btc::from_sats(1_234_567),
            account: "Hovedkonto".into(),
            pending,
        };
        let mut all = vec![
            Told::PlanElsewhere { plan: 3 },
            Told::PlansWaitingElsewhere {
                profile: "Sandbox".into(),
                count: 2,
            },
            Told::InvoicePaid {
                amount: Some(Btc::from_sats(1_234_567)),
                description: "kaffe".into(),
            },
            Told::Deposit(deposit(false)),
            Told::Deposit(deposit(true)),
            Told::DepositsWhileClosed {
                count: 5,
                total: Some(Btc::from_sats(7_654_321)),
                named: vec![deposit(false), deposit(true)],
                more: 3,
            },
            Told::AlertFired {
                alert: Alert {
                    id: 1,
                    watched: Watched::Mid,
                    crossing: Crossing::RisesAbove,
                    level: Level::Price(NokPerBtc::computed(Decimal::from(987_654))),
                    hysteresis_percent: nordlys_money::Percent::new(Decimal::ONE),
                    armed: false,
                },
                usual: nordlys_money::Nok::computed(Decimal::from(5000)),
                value: Level::Price(NokPerBtc::computed(Decimal::from(987_999))),
            },
            Told::WhileLocked { opens: Screen::Tax },
        ];
        for ran in [
            PlanRan::Placed,
            PlanRan::LadderPlaced,
            PlanRan::Refused,
            PlanRan::Unknown,
        ] {
            all.push(Told::PlanRan(ran));
        }
        for completed in [true, false] {
            all.push(Told::PaymentEnded {
                completed,
                amount: Btc::from_sats(1_234_567),
                destination: "kari@example.com".into(),
            });
        }
        all
    }

    fn viewer(locale: Locale, hidden: bool) -> Viewer {
        Viewer {
            figures: Figures {
                locale,
                unit: BtcUnit::Btc,
                hidden,
            },
            zone: nordlys_core::time::OSLO,
        }
    }

    /// Each notification has words in both languages, the Norwegian its own, and privacy mode
    /// leaves no amount in it.
    #[test]
    fn every_notice_reads_in_both_languages_and_privacy_hides_its_amounts() {
        for told in every_told() {
            let en = told.clone().present(&viewer(Locale::En, false));
            let nb = told.clone().present(&viewer(Locale::Nb, false));
            assert!(!en.title.is_empty() && !nb.title.is_empty(), "{told:?}");
            assert_ne!(en.title, nb.title, "{told:?}");
            assert_eq!((en.opens, en.told.clone()), (told.opens(), told.clone()));
            let hidden = told.clone().present(&viewer(Locale::Nb, true));
            for amount in ["12345", "76543", "98765", "98799", "0,01", "0.01"] {
                assert!(!hidden.body.contains(amount), "{told:?}: {}", hidden.body);
            }
        }
    }
}
