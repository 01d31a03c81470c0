//! The tray icon: the live price in its tooltip, and a menu (Open, Privacy, Lock, Quit) whose
//! actions are the application's (`nordlys_application::tray`); the shell only shows the window
//! or quits when an action asks. A desktop with no tray shows none, and the app runs as before.

use nordlys_application::App;
use nordlys_application::tray::{self, ShellDoes, TrayAction};
use tauri::menu::{Menu, MenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager, Runtime};

const ID: &str = "main";

/// Puts the icon in the tray.
pub fn build<R: Runtime>(handle: &AppHandle<R>) -> tauri::Result<()> {
    let state = handle.state::<App>();
    let mut items = vec![];
    for action in TrayAction::ALL {
        items.push(MenuItem::with_id(
            handle,
            action.id(),
            action.label(&state),
            true,
            None::<&str>,
        )?);
    }
    let refs: Vec<&dyn tauri::menu::IsMenuItem<R>> = items
        .iter()
        .map(|i| i as &dyn tauri::menu::IsMenuItem<R>)
        .collect();
    let menu = Menu::with_items(handle, &refs)?;
    let mut icon = TrayIconBuilder::with_id(ID)
        .tooltip(tray::tooltip(&state))
        .menu(&menu)
        .on_menu_event(|app, event| {
            if let Some(action) = TrayAction::from_id(event.id().as_ref()) {
                let does = tray::act(&app.state::<App>(), action);
                apply(app, does);
            }
        });
    if let Some(image) = handle.default_window_icon() {
        icon = icon.icon(image.clone());
    }
    icon.build(handle)?;
    Ok(())
}

/// Does what an action left for the shell.
pub fn apply<R: Runtime>(app: &AppHandle<R>, does: ShellDoes) {
    let window = app.get_webview_window("main");
    match does {
        ShellDoes::Nothing => {}
        ShellDoes::ShowWindow => {
            if let Some(w) = window {
                let _ = w.show();
                let _ = w.unminimize();
                let _ = w.set_focus();
            }
            tell_shown(app, true);
        }
        ShellDoes::HideWindow => {
            if let Some(w) = window {
                let _ = w.hide();
            }
            // The watcher slows down at once, whether or not the page hears it was hidden.
            tell_shown(app, false);
        }
        ShellDoes::Quit => app.exit(0),
    }
}

fn tell_shown<R: Runtime>(app: &AppHandle<R>, shown: bool) {
    if let Some(state) = app.try_state::<App>() {
        state.set_window_shown(shown);
    }
}

/// Whether the icon is in the tray: closing the window can keep Nordlys there.
pub fn shown<R: Runtime>(handle: &AppHandle<R>) -> bool {
    handle.tray_by_id(ID).is_some()
}

/// Writes the tooltip again (the price moved, the app locked or unlocked).
pub fn refresh<R: Runtime>(handle: &AppHandle<R>) {
    if let (Some(icon), Some(state)) = (handle.tray_by_id(ID), handle.try_state::<App>()) {
        let _ = icon.set_tooltip(Some(tray::tooltip(&state)));
    }
}
