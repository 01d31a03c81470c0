//! An empty window: the baseline Nordlys is measured against. With `EMPTY_WINDOW_TICKING` set it
//! shows one price that changes every 5 s instead, as Nordlys' live price does: the floor of the
//! idle CPU a live price costs WebKit on the machine measured. With `EMPTY_WINDOW_PAGE` set to a
//! file it shows that page: Nordlys' own overview frozen as HTML and CSS, no script, which is the
//! floor of the memory WebKit needs to show what Nordlys shows.
use tauri::{Manager, Url};

fn main() {
    let ticking = std::env::var_os("EMPTY_WINDOW_TICKING").is_some();
    let page = std::env::var_os("EMPTY_WINDOW_PAGE");
    let app = tauri::Builder::default().setup(move |app| {
        let Some(window) = app.get_webview_window("main") else {
            return Ok(());
        };
        if let Some(file) = &page {
            let url = Url::from_file_path(file).map_err(|()| "EMPTY_WINDOW_PAGE: not a path")?;
            window.navigate(url)?;
        } else if ticking {
            let page = window.url()?.join("ticking.html")?;
            window.navigate(page)?;
        }
        Ok(())
    });
    if let Err(e) = app.run(tauri::generate_context!()) {
        eprintln!("{e}");
    }
}
