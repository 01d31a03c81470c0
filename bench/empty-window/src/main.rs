//! An empty window: the baseline Nordlys is measured against. With `EMPTY_WINDOW_TICKING` set it
//! shows one price that changes every 5 s instead, as Nordlys' live price does: the floor of the
//! idle CPU a live price costs WebKit on the machine measured.
use tauri::Manager;

fn main() {
    let ticking = std::env::var_os("EMPTY_WINDOW_TICKING").is_some();
    let app = tauri::Builder::default().setup(move |app| {
        if let (true, Some(window)) = (ticking, app.get_webview_window("main")) {
            let page = window.url()?.join("ticking.html")?;
            window.navigate(page)?;
        }
        Ok(())
    });
    if let Err(e) = app.run(tauri::generate_context!()) {
        eprintln!("{e}");
    }
}
