//! What the tray icon shows and what its menu does. The shell draws the icon and menu and applies
//! what an action asks of the desktop (show the window, quit); the rest happens here, so each
//! action is tested through the function the menu calls.

use crate::msg;
use crate::state::App;
use crate::vocabulary::Change;
use crate::wording;
use crate::wording::key;

/// The tray menu's entries, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrayAction {
    Open,
    /// Privacy mode on or off.
    Privacy,
    Lock,
    Quit,
}

impl TrayAction {
    pub const ALL: [Self; 4] = [Self::Open, Self::Privacy, Self::Lock, Self::Quit];

    /// The menu item's id.
    pub fn id(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Privacy => "privacy",
            Self::Lock => "lock",
            Self::Quit => "quit",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.id() == id)
    }

    /// The menu item's words in the app's language.
    pub fn label(self, app: &App) -> String {
        let key = match self {
            Self::Open => key::TRAY_OPEN,
            Self::Privacy => key::TRAY_PRIVACY,
            Self::Lock => key::TRAY_LOCK,
            Self::Quit => key::TRAY_QUIT,
        };
        wording::say(key, app.viewer().locale())
    }
}

/// What the shell is to do after an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShellDoes {
    Nothing,
    /// Shown, or kept shown when the user closed it.
    ShowWindow,
    /// Hidden; Nordlys runs on in the tray.
    HideWindow,
    Quit,
}

/// Does what the menu entry `action` asks; answers what is left for the shell.
pub fn act(app: &App, action: TrayAction) -> ShellDoes {
    match action {
        TrayAction::Open => ShellDoes::ShowWindow,
        TrayAction::Privacy => {
            // A locked app keeps its figures hidden either way; the switch waits for unlocking.
            if !app.is_locked() {
                let hidden = !app.settings().privacy;
                app.settings().privacy = hidden;
                // A settings file that cannot be written keeps the change for this run.
                let _ = app.save_settings();
                app.desktop.changed(Change::Privacy);
            }
            ShellDoes::Nothing
        }
        TrayAction::Lock => {
            // With no password set yet, the window asks for one.
            if app.settings().lock_set {
                crate::lock::lock_now(app);
                ShellDoes::Nothing
            } else {
                app.desktop.changed(Change::LockAsked);
                ShellDoes::ShowWindow
            }
        }
        TrayAction::Quit => ShellDoes::Quit,
    }
}

/// The tray icon's tooltip: the live price and which way it last moved; while locked, nothing
/// but that Nordlys is locked.
pub fn tooltip(app: &App) -> String {
    let viewer = app.viewer();
    let locale = viewer.locale();
    if app.is_locked() {
        return wording::say(key::TRAY_LOCKED, locale);
    }
    let profile = app.settings().active.clone();
    let price = match crate::watcher::last_move(app, &profile) {
        None => "Nordlys".to_owned(),
        Some((now, before)) => {
            let arrow = match before {
                Some(b) if now > b => " ▲",
                Some(b) if now < b => " ▼",
                _ => "",
            };
            format!("Nordlys · {}{arrow}", viewer.figures.price(now))
        }
    };
    match crate::watcher::next_plan_run(app, &profile) {
        Some(at) => {
            let next = msg!(TRAY_NEXT_BUY {
                at: viewer.time(&at)
            })
            .render(locale);
            format!("{price}\n{next}")
        }
        None => price,
    }
}
