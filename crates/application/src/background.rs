//! How Nordlys stays with the user while its window is closed: kept in the tray when the user
//! chose that (the first close asks), and started at login when asked (off by default).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{Answer, AppError, ErrorCode};
use crate::profiles::AppState;
use crate::tray::ShellDoes;
use crate::vocabulary::Change;
use crate::wording::key;
use crate::{App, NoArgs};

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KeepInTrayArgs {
    pub keep_in_tray: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StartAtLoginArgs {
    pub start_at_login: bool,
}

/// What the user's close of the window does. With no tray to stay in, it quits. Asked for the
/// first time, the window stays and asks (`Change::CloseAsked`); the answer closes it again.
pub fn window_closing(app: &App, tray_shown: bool) -> ShellDoes {
    if !tray_shown {
        return ShellDoes::Quit;
    }
    match app.settings().close_to_tray {
        Some(true) => ShellDoes::HideWindow,
        Some(false) => ShellDoes::Quit,
        None => {
            app.desktop.changed(Change::CloseAsked);
            ShellDoes::ShowWindow
        }
    }
}

/// The answer to the first close's question, kept; then the window closes as it now says.
pub async fn answer_close(app: &App, args: KeepInTrayArgs) -> Answer<NoArgs> {
    app.settings().close_to_tray = Some(args.keep_in_tray);
    app.save_settings()?;
    app.desktop.close_window();
    Ok(NoArgs {})
}

/// Whether closing the window keeps Nordlys in the tray, from Settings.
pub async fn set_close_to_tray(app: &App, args: KeepInTrayArgs) -> Answer<AppState> {
    app.settings().close_to_tray = Some(args.keep_in_tray);
    app.save_settings()?;
    crate::profiles::view(app).await
}

/// Whether Nordlys starts at login: the desktop's autostart entry or login item made or removed.
pub async fn set_start_at_login(app: &App, args: StartAtLoginArgs) -> Answer<AppState> {
    let set = app
        .desktop
        .login_start()
        .map(|login| login.set(args.start_at_login));
    match set {
        None => {
            return Err(AppError::said(
                ErrorCode::Internal,
                key::AUTOSTART_UNAVAILABLE,
            ));
        }
        // The system's own account of why, as a fault's detail.
        Some(Err(e)) => return Err(AppError::fault(e.0)),
        Some(Ok(())) => {}
    }
    crate::profiles::view(app).await
}

/// Whether Nordlys starts at login, as the desktop says; `None` where it cannot, or cannot tell.
pub(crate) fn starts_at_login(app: &App) -> Option<bool> {
    app.desktop
        .login_start()
        .and_then(|login| login.is_on().ok())
}
