//! Desktop notifications for what happens while the user looks elsewhere: an invoice paid, a
//! payment completed or failed. Sent from Rust, so the webview needs no notification permission.

use tauri::AppHandle;
use tauri_plugin_notification::NotificationExt;

/// Shows a notification; a desktop without a notification service just misses it.
pub fn announce(handle: &AppHandle, title: &str, body: &str) {
    let _ = handle
        .notification()
        .builder()
        .title(title)
        .body(body)
        .show();
}
