//! An empty window: the baseline Nordlys is measured against.
fn main() {
    if let Err(e) = tauri::Builder::default().run(tauri::generate_context!()) {
        eprintln!("{e}");
    }
}
