//! The Nordlys desktop shell: window, plugins, state and the typed commands. Everything else is in
//! the crates.

#[cfg(test)]
mod command_list;
mod file_modes;
mod ipc;
#[cfg(login_items)]
mod login_items;
mod navigation_guard;
mod not_dumpable;
mod os_desktop;
#[cfg(target_os = "linux")]
mod session_signals;
mod tray;

use std::path::PathBuf;
use std::sync::Arc;

use nordlys_application::App;
use nordlys_core::format::Locale;
use nordlys_core::platform::secrets::SecretStore;
use nordlys_core::time::Tz;
use tauri::{Manager, Runtime};

fn os_locale() -> Locale {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .map(|tag| Locale::from_os(&tag))
        .unwrap_or_default()
}

/// The system's time zone from the tz database; Oslo when the system names none it knows.
/// The user's zone: `TZ` when it names one (as every program on the machine honours it), else
/// the system's.
fn os_zone() -> Tz {
    std::env::var("TZ")
        .ok()
        .and_then(|tz| nordlys_core::time::zone_of_tz(&tz))
        .or_else(|| {
            iana_time_zone::get_timezone()
                .ok()
                .and_then(|name| nordlys_core::time::zone(&name))
        })
        .unwrap_or(nordlys_core::time::OSLO)
}

/// Gives `app` the state every command works on, with its data in `data_dir` and its secrets in
/// `secrets`.
fn manage_state<R: Runtime>(
    app: &tauri::AppHandle<R>,
    data_dir: PathBuf,
    secrets: Arc<dyn SecretStore>,
    locale: Locale,
    zone: Tz,
) {
    let desktop = Arc::new(os_desktop::OsDesktop(app.clone()));
    app.manage(App::new(data_dir, secrets, desktop, locale, zone));
}

/// Runs the app until its window closes. Files it and WebKit make are its user's alone.
pub fn run() -> Result<(), tauri::Error> {
    file_modes::private_from_now();
    if let Err(e) = not_dumpable::from_now() {
        eprintln!("nordlys: could not keep this process out of core dumps: {e}");
    }
    let builder = tauri::Builder::default()
        .plugin(tauri_plugin_single_instance::init(|app, _argv, _cwd| {
            if let Some(w) = app.get_webview_window("main") {
                let _ = w.unminimize();
                let _ = w.set_focus();
            }
        }))
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_dialog::init());
    #[cfg(login_items)]
    let builder = builder.plugin(login_items::plugin());
    builder
        .setup(|app| {
            let data_dir = app.path().app_data_dir()?;
            // What an older version (or another umask) left open to others is closed now.
            let paths = app.path();
            for dir in [
                paths.app_data_dir(),
                paths.app_config_dir(),
                paths.app_local_data_dir(),
                paths.app_cache_dir(),
                paths.app_log_dir(),
            ]
            .into_iter()
            .flatten()
            {
                if let Err(e) = file_modes::make_private(&dir) {
                    eprintln!("nordlys: could not make {} private: {e}", dir.display());
                }
            }
            manage_state(
                app.handle(),
                data_dir,
                Arc::new(nordlys_core::platform::keyring::KeyringStore),
                os_locale(),
                os_zone(),
            );
            navigation_guard::main_window(app.handle())?;
            if let Err(e) = tray::build(app.handle()) {
                eprintln!("nordlys: no tray icon: {e}");
            }
            #[cfg(target_os = "linux")]
            session_signals::watch(app.handle());
            // The one poller of money in motion, for as long as the app runs.
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move {
                let app = handle.state::<App>();
                nordlys_application::watcher::run(&app).await;
            });
            Ok(())
        })
        .on_window_event(|window, event| {
            // The user's close keeps Nordlys in the tray, quits, or (the first time) asks.
            if let tauri::WindowEvent::CloseRequested { api, .. } = event {
                let handle = window.app_handle();
                let Some(state) = handle.try_state::<App>() else {
                    return;
                };
                let does =
                    nordlys_application::background::window_closing(&state, tray::shown(handle));
                if does != nordlys_application::tray::ShellDoes::Quit {
                    api.prevent_close();
                }
                tray::apply(handle, does);
            }
        })
        .invoke_handler(ipc::handler())
        .run(tauri::generate_context!("../tauri.conf.json"))
}
