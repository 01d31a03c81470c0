//! The desktop the application layer asks for its side effects: notifications (sent from Rust, so
//! the webview needs no notification permission), the system browser, the save dialog, the
//! native confirmation before money moves, and the `changed` event the window listens to.

use std::path::PathBuf;

use nordlys_application::confirmation_views::ConfirmationText;
use nordlys_application::desktop::{
    ConfirmAnswer, Desktop, DesktopError, LoginStart, Notice, SaveChoice,
};
use nordlys_application::tax_views::TaxSyncView;
use nordlys_application::watcher::Change;
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tauri_plugin_dialog::{DialogExt, MessageDialogButtons, MessageDialogKind};
use tauri_plugin_notification::Notification;
use tauri_plugin_opener::OpenerExt;

/// The OS's own, through Tauri's plugins; a shell started without one of them misses
/// notifications and cannot open or save.
#[derive(Debug)]
pub struct OsDesktop<R: Runtime>(pub AppHandle<R>);

impl<R: Runtime> OsDesktop<R> {
    /// Whether the shell started with the dialog plugin (the save dialog, the confirmation).
    fn has_dialogs(&self) -> bool {
        self.0
            .try_state::<tauri_plugin_dialog::Dialog<R>>()
            .is_some()
    }
}

impl<R: Runtime> Desktop for OsDesktop<R> {
    fn notify(&self, notice: &Notice) {
        nordlys_application::test_hooks::log_notice(notice);
        if cfg!(target_os = "linux") {
            notify_with_click(&self.0, notice);
        } else if let Some(notification) = self.0.try_state::<Notification<R>>() {
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
        if !self.has_dialogs() {
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

    fn confirm(&self, text: &ConfirmationText, answer: ConfirmAnswer) {
        if !self.has_dialogs() {
            answer(Err(DesktopError("no dialog here".into())));
            return;
        }
        // GTK's own message dialog, outside the web view: what it shows Rust wrote, and only its
        // "Send" answers yes. Escape and closing it answer no.
        self.0
            .dialog()
            .message(&text.message)
            .title(&text.title)
            .kind(MessageDialogKind::Warning)
            .buttons(MessageDialogButtons::OkCancelCustom(
                mnemonic(&text.send),
                mnemonic(&text.cancel),
            ))
            .show(move |send| answer(Ok(send)));
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

    fn close_window(&self) {
        if let Some(w) = self.0.get_webview_window("main") {
            let _ = w.close();
        }
    }

    /// The system's login items through the autostart plugin (macOS, Windows).
    #[cfg(login_items)]
    fn login_start(&self) -> Option<Box<dyn LoginStart + '_>> {
        Some(Box::new(crate::login_items::LoginItems(&self.0)))
    }

    /// On Linux, an entry in the XDG autostart folder that starts this program (the AppImage
    /// itself when run from one: its mounted path changes at every start).
    #[cfg(not(login_items))]
    fn login_start(&self) -> Option<Box<dyn LoginStart + '_>> {
        if !cfg!(target_os = "linux") {
            return None;
        }
        let var = |name| std::env::var(name).ok();
        let folder = nordlys_core::platform::autostart::folder(
            var("XDG_CONFIG_HOME").as_deref(),
            var("HOME").as_deref(),
        )
        .ok()?;
        let program = var("APPIMAGE")
            .map(PathBuf::from)
            .or_else(|| std::env::current_exe().ok())?;
        Some(Box::new(nordlys_application::desktop::XdgAutostart {
            folder,
            program,
        }))
    }
}

/// Shows `notice` through the desktop's notification service; a click on it shows the window at
/// the screen it is about. Waiting for the click takes a thread until the notice closes (a
/// service without actions closes it at once). A desktop with no service misses it.
#[cfg(target_os = "linux")]
fn notify_with_click<R: Runtime>(app: &AppHandle<R>, notice: &Notice) {
    let shown = notify_rust::Notification::new()
        .appname("Nordlys")
        .summary(&notice.title)
        .body(&notice.body)
        .action("default", &notice.title)
        .show();
    let Ok(handle) = shown else { return };
    let app = app.clone();
    let screen = notice.opens;
    let _ = std::thread::Builder::new()
        .name("notice-click".into())
        .spawn(move || {
            handle.wait_for_action(|action| {
                if action == "default" {
                    crate::tray::apply(&app, nordlys_application::tray::ShellDoes::ShowWindow);
                    let _ = app.emit(OPEN, screen);
                }
            });
        });
}

#[cfg(not(target_os = "linux"))]
fn notify_with_click<R: Runtime>(_app: &AppHandle<R>, _notice: &Notice) {}

/// The events the window listens to (`ui/src/main.ts`): a `Change`, the tax sync's progress as
/// a `TaxSyncView`, and the `Screen` a clicked notification is about.
pub const CHANGED: &str = "changed";
pub const OPEN: &str = "open";
pub const TAX_SYNC: &str = "taxSync";

/// A button's label with its first letter as the keyboard shortcut (Alt and the letter), where
/// the dialog is GTK's; elsewhere the label as it is.
fn mnemonic(label: &str) -> String {
    if cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd"
    )) {
        format!("_{}", label.replace('_', "__"))
    } else {
        label.to_owned()
    }
}
