//! The window shows the app's own pages and nothing else: a navigation anywhere else is refused,
//! and so is every new window. A link or script that slipped into the page (a crafted invoice
//! description, say) cannot take the window, and with it the IPC bridge, to another origin.

use tauri::webview::NewWindowResponse;
use tauri::{AppHandle, Runtime, Url, WebviewWindowBuilder};

/// Whether the webview may show `url`: the bundled pages (`tauri://localhost` on Linux and
/// macOS, `http(s)://tauri.localhost` on Windows) and the empty page.
pub fn allowed(url: &Url) -> bool {
    match url.scheme() {
        "tauri" => url.host_str() == Some("localhost"),
        "http" | "https" => url.host_str() == Some("tauri.localhost"),
        "about" => url.path() == "blank",
        _ => false,
    }
}

/// Builds the main window from its entry in `tauri.conf.json` (marked `create: false` there, so
/// that it gets the guard before it loads anything).
pub fn main_window<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<()> {
    let Some(config) = app.config().app.windows.iter().find(|w| w.label == "main") else {
        return Err(tauri::Error::WindowNotFound);
    };
    let config = config.clone();
    WebviewWindowBuilder::from_config(app, &config)?
        .on_navigation(|url| {
            let ok = allowed(url);
            if !ok {
                eprintln!(
                    "nordlys: refused to navigate to {}",
                    url.origin().ascii_serialization()
                );
            }
            ok
        })
        .on_new_window(|_, _| NewWindowResponse::Deny)
        .build()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    #[test]
    fn only_the_app_s_own_pages_are_shown() {
        for ok in [
            "tauri://localhost",
            "tauri://localhost/index.html#pay",
            "http://tauri.localhost/",
            "https://tauri.localhost/assets/app.js",
            "about:blank",
        ] {
            assert!(allowed(&Url::parse(ok).unwrap()), "{ok}");
        }
        for refused in [
            "https://evil.example/",
            "http://localhost:1420/",
            "tauri://evil.example",
            "https://tauri.localhost.evil.example/",
            "http://127.0.0.1:8080/oauth",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "data:text/html,<script>1</script>",
            "about:srcdoc",
        ] {
            assert!(!allowed(&Url::parse(refused).unwrap()), "{refused}");
        }
    }
}
