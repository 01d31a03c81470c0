//! What the application asks of the desktop it runs on: notifications, the system browser, the
//! save dialog, and word to the window that something changed. The shell answers with the OS's own; tests with a fake that records.

use std::path::PathBuf;

/// The desktop could not do what was asked (no browser, no dialog).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DesktopError(pub String);

/// Where the user chose to save a file, or `None` when they cancelled.
pub type SaveChoice = Box<dyn FnOnce(Result<Option<PathBuf>, DesktopError>) + Send>;

/// A desktop notification and the screen it is about.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Notice {
    pub title: String,
    pub body: String,
    pub opens: crate::vocabulary::Screen,
}

/// The OS side effects of the use cases. Calls return at once; the save dialog answers through
/// its callback, whenever the user is done.
pub trait Desktop: Send + Sync + std::fmt::Debug {
    /// Shows a notification; a desktop without a notification service just misses it.
    fn notify(&self, notice: &Notice);

    /// Opens `url` in the system browser.
    fn open_url(&self, url: &str) -> Result<(), DesktopError>;

    /// Asks where to save a CSV file suggested as `name`.
    fn choose_save_path(&self, name: &str, chosen: SaveChoice);

    /// Tells the window that `what` changed in the store, so it reads it again.
    fn changed(&self, what: crate::watcher::Change);

    /// Tells the window how the tax sync stands, at each page and at its end.
    fn tax_sync(&self, progress: &crate::tax_views::TaxSyncView);

    /// Closes the window as the user's close would: the shell then keeps Nordlys in the tray or
    /// quits, as the settings now say. A desktop without a window has none to close.
    fn close_window(&self) {}

    /// Where this desktop keeps what starts at login, and the program to start; `None` where
    /// Nordlys cannot start itself at login.
    fn autostart(&self) -> Option<Autostart> {
        None
    }
}

/// Where the login's autostart entry goes (`$XDG_CONFIG_HOME/autostart`), and what it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Autostart {
    pub folder: PathBuf,
    pub program: PathBuf,
}

/// A desktop with no notifications, browser or dialog: every request to open or save fails.
#[derive(Debug, Default)]
pub struct NoDesktop;

impl Desktop for NoDesktop {
    fn notify(&self, _notice: &Notice) {}

    fn open_url(&self, _url: &str) -> Result<(), DesktopError> {
        Err(DesktopError("this app has no browser to open".into()))
    }

    fn choose_save_path(&self, _name: &str, chosen: SaveChoice) {
        chosen(Err(DesktopError("this app has no save dialog".into())));
    }

    fn changed(&self, _what: crate::watcher::Change) {}

    fn tax_sync(&self, _progress: &crate::tax_views::TaxSyncView) {}
}
