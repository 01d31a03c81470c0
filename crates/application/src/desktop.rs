//! What the application asks of the desktop it runs on: notifications, the system browser, the
//! save dialog, the confirmation before money moves, and word to the window that something
//! changed. The shell answers with the OS's own; tests with a fake that records.

use std::path::PathBuf;

/// The desktop could not do what was asked (no browser, no dialog).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DesktopError(pub String);

/// Where the user chose to save a file, or `None` when they cancelled.
pub type SaveChoice = Box<dyn FnOnce(Result<Option<PathBuf>, DesktopError>) + Send>;

/// Whether the user pressed the confirmation's "Send", or why no dialog could ask them.
pub type ConfirmAnswer = Box<dyn FnOnce(Result<bool, DesktopError>) + Send>;

/// A desktop notification and the screen it is about.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Notice {
    pub title: String,
    pub body: String,
    pub opens: crate::vocabulary::Screen,
    /// What it tells, as a fact.
    #[serde(skip)]
    pub told: crate::notices::Told,
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

    /// Asks the user to approve a send in the desktop's own dialog, outside the web view; answers
    /// through `answer` once they chose.
    fn confirm(&self, text: &crate::confirmation_views::ConfirmationText, answer: ConfirmAnswer);

    /// Tells the window that `what` changed in the store, so it reads it again.
    fn changed(&self, what: crate::watcher::Change);

    /// Tells the window how the tax sync stands, at each page and at its end.
    fn tax_sync(&self, progress: &crate::tax_views::TaxSyncView);

    /// Closes the window as the user's close would: the shell then keeps Nordlys in the tray or
    /// quits, as the settings now say. A desktop without a window has none to close.
    fn close_window(&self) {}

    /// How this desktop starts Nordlys when the user logs in; `None` where it cannot.
    fn login_start(&self) -> Option<Box<dyn LoginStart + '_>> {
        None
    }
}

/// What starts Nordlys at login: an XDG autostart entry on Linux, the system's login items
/// elsewhere (the shell's autostart plugin).
pub trait LoginStart {
    /// Whether Nordlys starts at login now, as the desktop itself says: the user can change it
    /// outside Nordlys.
    fn is_on(&self) -> Result<bool, DesktopError>;

    /// Makes Nordlys start at login, or no longer.
    fn set(&self, on: bool) -> Result<(), DesktopError>;
}

/// An XDG autostart entry in `folder` (`$XDG_CONFIG_HOME/autostart`) that starts `program`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XdgAutostart {
    pub folder: PathBuf,
    pub program: PathBuf,
}

impl LoginStart for XdgAutostart {
    fn is_on(&self) -> Result<bool, DesktopError> {
        Ok(nordlys_core::platform::autostart::is_on(&self.folder))
    }

    fn set(&self, on: bool) -> Result<(), DesktopError> {
        use nordlys_core::platform::autostart;
        if on {
            autostart::turn_on(&self.folder, &self.program)
        } else {
            autostart::turn_off(&self.folder)
        }
        .map_err(|e| DesktopError(e.to_string()))
    }
}

/// A desktop with no notifications, browser or dialog: every request to open, save or confirm
/// fails.
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

    fn confirm(&self, _text: &crate::confirmation_views::ConfirmationText, answer: ConfirmAnswer) {
        answer(Err(DesktopError(
            "this app has no dialog to confirm in".into(),
        )));
    }

    fn changed(&self, _what: crate::watcher::Change) {}

    fn tax_sync(&self, _progress: &crate::tax_views::TaxSyncView) {}
}
