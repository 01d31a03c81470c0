//! The edge between a use case and the window: a use case answers facts (typed amounts, times,
//! reasons), and its [`Present`] turns them into the view the window shows, in the user's
//! language, unit, privacy mode and time zone. The shell's command table composes the two, so a
//! use case never reads the language and a presenter never reads the store.

use chrono::{DateTime, Utc};
use nordlys_core::format::{self, Figures, Locale};
use nordlys_core::time::Tz;

use crate::error::Answer;

/// How the window writes what it shows now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewer {
    pub figures: Figures,
    /// The system's time zone: every time the user reads is on this clock.
    pub zone: Tz,
}

impl Viewer {
    /// `locale` with amounts in BTC, shown, and times on Oslo's clock: for logs and the CLI.
    pub fn plain(locale: Locale) -> Self {
        Self {
            figures: Figures {
                locale,
                unit: format::BtcUnit::Btc,
                hidden: false,
            },
            zone: nordlys_core::time::OSLO,
        }
    }

    /// The same viewer with every figure shown: what the user approves is never hidden by the
    /// privacy mode.
    pub fn shown(mut self) -> Self {
        self.figures.hidden = false;
        self
    }

    /// Writes as `figures` do, times on Oslo's clock: for words with amounts and no time.
    pub fn of(figures: Figures) -> Self {
        Self {
            figures,
            zone: nordlys_core::time::OSLO,
        }
    }

    pub fn locale(&self) -> Locale {
        self.figures.locale
    }

    /// A time to the minute, on the user's clock.
    pub fn time(&self, t: &DateTime<Utc>) -> String {
        format::time(t, self.zone, self.locale())
    }

    /// A time to the second, on the user's clock.
    pub fn time_to_second(&self, t: &DateTime<Utc>) -> String {
        format::time_to_second(t, self.zone, self.locale())
    }
}

/// A use case's outcome as the window shows it.
pub trait Present {
    type View;
    fn present(self, viewer: &Viewer) -> Self::View;
}

/// What the command table calls: a presentation, which may fail only where it draws (a
/// chart's picture); every [`Present`] is one that cannot.
pub trait Presented {
    type View;
    fn presented(self, viewer: &Viewer) -> Answer<Self::View>;
}

impl<T: Present> Presented for T {
    type View = T::View;

    fn presented(self, viewer: &Viewer) -> Answer<T::View> {
        Ok(self.present(viewer))
    }
}

/// Views a use case builds itself, each its own presentation: those with nothing to word (the
/// receive addresses and their codes, the recipients, the countries, an export's path, the
/// store's key).
macro_rules! presented_where_made {
    ($($view:ty),* $(,)?) => {
        $(impl Present for $view {
            type View = $view;
            fn present(self, _: &Viewer) -> $view {
                self
            }
        })*
    };
}

presented_where_made!(
    crate::NoArgs,
    crate::pay_views::CountriesView,
    crate::pay_views::RecipientsView,
    crate::receive_views::ReceiveView,
    crate::store_key::StoreKeyView,
    crate::store_key::StoreSeal,
    crate::store_key::StoreMended,
    crate::tax_views::ExportView,
);
