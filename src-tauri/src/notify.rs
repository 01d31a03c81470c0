//! Desktop notifications for what happens while the user looks elsewhere: an invoice paid, a
//! payment completed or failed. Sent from Rust, so the webview needs no notification permission.

use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_notification::Notification;

/// Shows a notification; a desktop without a notification service, or a shell without the plugin
/// (the soak test's), just misses it.
pub fn announce<R: Runtime>(handle: &AppHandle<R>, title: &str, body: &str) {
    let Some(notification) = handle.try_state::<Notification<R>>() else {
        return;
    };
    let _ = notification.builder().title(title).body(body).show();
}
