//! "Start Nordlys when I log in" through the system's own login items (a launch agent on macOS,
//! the Run key on Windows), by Tauri's autostart plugin. Linux keeps its XDG autostart entry
//! (`XdgAutostart`), which follows `XDG_CONFIG_HOME` and quotes its command as the Desktop Entry
//! specification asks. The feature `login-items` builds this on Linux too, so that every build
//! here type-checks it.

use nordlys_application::desktop::{DesktopError, LoginStart};
use tauri::plugin::TauriPlugin;
use tauri::{AppHandle, Manager, Runtime, State};
use tauri_plugin_autostart::AutoLaunchManager;

/// The plugin, registered by the shell at start; it finds this program itself. On macOS it
/// installs a launch agent (its default), which needs no permission to script System Events.
pub fn plugin<R: Runtime>() -> TauriPlugin<R> {
    tauri_plugin_autostart::Builder::new()
        .app_name("Nordlys")
        .build()
}

/// The login items of the desktop `AppHandle` runs on.
pub struct LoginItems<'a, R: Runtime>(pub &'a AppHandle<R>);

impl<R: Runtime> LoginItems<'_, R> {
    /// The plugin's state; absent when the plugin failed to start (no program path).
    fn items(&self) -> Result<State<'_, AutoLaunchManager>, DesktopError> {
        self.0
            .try_state::<AutoLaunchManager>()
            .ok_or_else(|| DesktopError("the system's login items are not available".into()))
    }
}

impl<R: Runtime> LoginStart for LoginItems<'_, R> {
    fn is_on(&self) -> Result<bool, DesktopError> {
        self.items()?
            .is_enabled()
            .map_err(|e| DesktopError(e.to_string()))
    }

    fn set(&self, on: bool) -> Result<(), DesktopError> {
        let items = self.items()?;
        if on { items.enable() } else { items.disable() }.map_err(|e| DesktopError(e.to_string()))
    }
}
