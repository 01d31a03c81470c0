//! The desktop the application layer asks for its side effects: notifications (sent from Rust, so
//! the webview needs no notification permission), the system browser, the save dialog, and the
//! `changed` event the window listens to.

use std::path::PathBuf;

use nordlys_application::desktop::{Desktop, DesktopError, Notice, SaveChoice};
use nordlys_application::tax_views::TaxSyncView;
use nordlys_application::watcher::Change;
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tauri_plugin_dialog::DialogExt;
use tauri_plugin_notification::Notification;
use tauri_plugin_opener::OpenerExt;

/// The OS's own, through Tauri's plugins; a shell started without one of them misses
/// notifications and cannot open or save.
#[derive(Debug)]
pub struct OsDesktop<R: Runtime>(pub AppHandle<R>);

impl<R: Runtime> Desktop for OsDesktop<R> {
    fn notify(&self, notice: &Notice) {
        nordlys_application::test_hooks::log_notice(notice);
        if let Some(notification) = self.0.try_state::<Notification<R>>() {
            let _ = notification
                .builder()
                .title(&notice.title)
                .body(&notice.body)
                .show();
        }
    }

    fn open_url(&self, url: &str) -> Result<(), DesktopError> {
        self.0
            .try_state::<tauri_plugin_opener::Opener<R>>()
            .ok_or_else(|| DesktopError("no system browser here".into()))?;
        self.0
            .opener()
            .open_url(url, None::<&str>)
            .map_err(|e| DesktopError(e.to_string()))
    }

    fn choose_save_path(&self, name: &str, chosen: SaveChoice) {
        if self
            .0
            .try_state::<tauri_plugin_dialog::Dialog<R>>()
            .is_none()
        {
            chosen(Err(DesktopError("no save dialog here".into())));
            return;
        }
        self.0
            .dialog()
            .file()
            .set_file_name(name)
            .add_filter("CSV", &["csv"])
            .save_file(move |path| {
                let path: Result<Option<PathBuf>, DesktopError> = path
                    .map(|p| p.into_path().map_err(|e| DesktopError(e.to_string())))
                    .transpose();
                chosen(path);
            });
    }

    fn changed(&self, what: Change) {
        if matches!(what, Change::Price | Change::Lock) {
            crate::tray::refresh(&self.0);
        }
        // A window that is gone has nothing to read again.
        let _ = self.0.emit(CHANGED, what);
    }

    fn tax_sync(&self, progress: &TaxSyncView) {
        let _ = self.0.emit(TAX_SYNC, progress);
    }
}

/// The events the window listens to (`ui/src/main.ts`): a `Change`, and the tax sync's
/// progress as a `TaxSyncView`.
pub const CHANGED: &str = "changed";
pub const TAX_SYNC: &str = "taxSync";
