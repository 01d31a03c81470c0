//! `tour DIR`: starts the app through the E2E rig and writes a screenshot of each main screen to
//! DIR. What `scripts/run` does on a machine with no display.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    reason = "a tool run by a script: failing loudly is the point"
)]

use std::path::PathBuf;

use nordlys_e2e::App;

#[tokio::main]
async fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "screenshots".into()),
    );
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    let app = App::start(&[]).await;
    app.text("[data-testid=account-row]").await;
    for (screen, tab) in [
        ("overview", "nav-overview"),
        ("trade", "nav-trade"),
        ("connect", "nav-connect"),
        ("settings", "nav-settings"),
    ] {
        app.click(&format!("[data-testid={tab}]")).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let png = app.client.screenshot().await.expect("screenshot");
        let path = dir.join(format!("{screen}.png"));
        std::fs::write(&path, png).expect("write screenshot");
        println!("{}", path.display());
    }
    app.quit().await;
}
