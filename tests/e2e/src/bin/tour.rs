//! `tour DIR`: starts the app through the E2E rig and writes a screenshot of each main screen,
//! light and dark in English and light in Norwegian, at the window's first size and at its
//! smallest, to DIR. What `scripts/run` does on a machine with no display.
#![allow(
    clippy::print_stdout,
    reason = "a tool run by a script: it prints the files it wrote"
)]

use std::path::PathBuf;
use std::process::ExitCode;

use nordlys_e2e::{App, bounded};

#[tokio::main]
async fn main() -> ExitCode {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "screenshots".into()),
    );
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("tour: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let app = App::start(&[]).await;
    app.text("[data-testid=account-row]").await;
    // Two price alerts, one waiting for the price to come back, so the list shows both states.
    for (crossing, level) in [("fallsBelow", "500000"), ("risesAbove", "1")] {
        app.select("[data-testid=alert-crossing]", crossing).await;
        app.fill("[data-testid=alert-level]", level).await;
        app.click("[data-testid=alert-save]").await;
    }
    app.until("the alerts to be listed", || async {
        app.script(
            "return document.querySelectorAll('[data-testid=alert]').length;",
            vec![],
        )
        .await
            == serde_json::json!(2)
    })
    .await;
    // The tax history is synced once, so the Tax screen shows rows in every picture.
    app.click("[data-testid=nav-tax]").await;
    app.click("[data-testid=tax-sync]").await;
    app.until("the tax history to sync", || async {
        app.attr("[data-testid=tax-sync-state]", "data-state")
            .await
            .as_deref()
            == Some("complete")
    })
    .await;
    // Last year's card with a year-end rate entered, so its figures show.
    app.click("[data-testid=tax-section-card]").await;
    app.fill("[data-testid=card-nok-per-btc]", "1000000").await;
    app.click("[data-testid=card-rate-nokPerBtc]").await;
    app.until("the card to show its wealth value", || async {
        app.text("[data-testid=card-rate-value]").await != "—"
    })
    .await;
    app.click("[data-testid=tax-section-transactions]").await;
    let mut status = ExitCode::SUCCESS;
    // Each screen in both themes (Norwegian in the light one), at the largest size the window is
    // made for and at its smallest.
    for (language, theme) in [("en", "light"), ("en", "dark"), ("nb", "light")] {
        app.click("[data-testid=nav-settings]").await;
        app.select("[data-testid=language]", language).await;
        app.until("the language to apply", || async {
            app.script("return document.documentElement.lang;", vec![])
                .await
                == serde_json::json!(language)
        })
        .await;
        app.select("[data-testid=theme]", theme).await;
        app.until("the theme to apply", || async {
            app.script(
                "return document.documentElement.dataset.theme ?? '';",
                vec![],
            )
            .await
                == serde_json::json!(theme)
        })
        .await;
        for (width, height) in [(1920, 1080), (720, 520)] {
            if let Err(e) = bounded("resizing", app.client.set_window_size(width, height)).await {
                eprintln!("tour: cannot resize the window to {width}×{height}: {e}");
                status = ExitCode::FAILURE;
            }
            for screen in [
                "overview", "trade", "receive", "pay", "tax", "unknowns", "connect", "settings",
            ] {
                app.click(&format!("[data-testid=nav-{screen}]")).await;
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                status = picture(
                    &app,
                    &dir,
                    &format!("{screen}-{language}-{theme}-{width}x{height}"),
                )
                .await
                .unwrap_or(status);
            }
            // The price alerts under the price chart.
            app.click("[data-testid=nav-overview]").await;
            app.script(
                "document.querySelector('[data-testid=price-alerts]').scrollIntoView();",
                vec![],
            )
            .await;
            status = picture(
                &app,
                &dir,
                &format!("price-alerts-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            // The tax return's card, the holdings over time, and a sale's tax on the sell ticket.
            app.click("[data-testid=nav-tax]").await;
            app.click("[data-testid=tax-section-card]").await;
            app.text("[data-testid=card-entry]").await;
            status = picture(
                &app,
                &dir,
                &format!("tax-card-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            app.click("[data-testid=tax-section-holdings]").await;
            app.text("[data-testid=holdings-readout]").await;
            status = picture(
                &app,
                &dir,
                &format!("tax-holdings-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            app.click("[data-testid=tax-section-gains]").await;
            app.text("[data-testid=gains-years]").await;
            status = picture(
                &app,
                &dir,
                &format!("tax-gains-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            app.click("[data-testid=tax-section-transactions]").await;
            app.click("[data-testid=nav-trade]").await;
            app.click("[data-testid=direction-sell]").await;
            app.fill("[data-testid=order-amount]", "0.001").await;
            app.text("[data-testid=order-sale-tax]").await;
            status = picture(
                &app,
                &dir,
                &format!("trade-sell-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            app.fill("[data-testid=order-amount]", "").await;
            app.click("[data-testid=direction-buy]").await;
            // Recurring buys and ladders, under the order ticket and the open orders, once the
            // buy ticket is back (its re-render would scroll the page back up).
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            app.script(
                "document.querySelector('[data-testid=plans]').scrollIntoView();",
                vec![],
            )
            .await;
            status = picture(
                &app,
                &dir,
                &format!("recurring-buys-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            // A placed buy: what it bought, for how much, and the fee.
            status = bought(
                &app,
                &dir,
                &format!("trade-bought-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            // The lock: its first use asks for a password, the locked window, its settings; then
            // it is removed again, so the next round starts without one.
            app.click("[data-testid=lock]").await;
            app.text("[data-testid=lock-setup]").await;
            status = picture(
                &app,
                &dir,
                &format!("lock-setup-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            app.paste("[data-testid=new-password]", "correct horse")
                .await;
            app.paste("[data-testid=new-password-confirm]", "correct horse")
                .await;
            app.click("[data-testid=new-password-save]").await;
            app.until("the locked window", || async {
                if app.exists("[data-testid=locked]").await {
                    return true;
                }
                // A click landing with a page update can be swallowed; a user clicks again.
                app.script(
                    "document.querySelector('[data-testid=new-password-save]')?.click();",
                    vec![],
                )
                .await;
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                false
            })
            .await;
            status = picture(
                &app,
                &dir,
                &format!("locked-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            app.paste("[data-testid=unlock-password]", "correct horse")
                .await;
            app.click("[data-testid=unlock]").await;
            // Unlocked, the window is back on the screen it showed.
            app.text("[data-testid=nav-settings]").await;
            app.click("[data-testid=nav-settings]").await;
            app.text("[data-testid=lock-idle]").await;
            app.script(
                "document.querySelector('[data-testid=lock-idle]').scrollIntoView({ block: 'center' });",
                vec![],
            )
            .await;
            status = picture(
                &app,
                &dir,
                &format!("settings-lock-{language}-{theme}-{width}x{height}"),
            )
            .await
            .unwrap_or(status);
            app.paste("[data-testid=lock-remove-password]", "correct horse")
                .await;
            app.click("[data-testid=lock-remove]").await;
            app.until("the lock to be removed", || async {
                !app.exists("[data-testid=lock-remove]").await
            })
            .await;
        }
    }
    app.quit().await;
    status
}

/// Places a small market buy and pictures its result once the fill is shown (or after 20 s,
/// when the picture shows what the window said instead).
async fn bought(app: &App, dir: &std::path::Path, name: &str) -> Option<ExitCode> {
    app.click("[data-testid=type-market]").await;
    app.click("[data-testid=direction-buy]").await;
    app.fill("[data-testid=order-amount]", "500").await;
    for _ in 0..40 {
        if app
            .attr("[data-testid=order-review]", "disabled")
            .await
            .is_none()
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    app.click("[data-testid=order-review]").await;
    for _ in 0..40 {
        if app.exists("[data-testid=order-confirm]").await {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    app.click("[data-testid=order-confirm]").await;
    // The confirmation outside the web view, pictured with the window behind it.
    // Its button's shortcut is the first letter of "Place order" or "Legg inn ordren".
    let key = if name.contains("-nb-") {
        "alt+l"
    } else {
        "alt+p"
    };
    app.answer_native(
        "Nordlys: ",
        &dir.join(format!("{name}-native-confirmation.png")),
        key,
    )
    .await;
    for _ in 0..80 {
        if app.exists("[data-testid=order-fill]").await {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    // The result, whole, in the middle of the window at either size.
    app.script(
        "document.querySelector('[data-testid=order-fill]')?.parentElement\
         ?.scrollIntoView({ block: 'center' });",
        vec![],
    )
    .await;
    picture(app, dir, name).await
}

/// Writes the window as `DIR/name.png`; `Some(FAILURE)` when it could not.
async fn picture(app: &App, dir: &std::path::Path, name: &str) -> Option<ExitCode> {
    let path = dir.join(format!("{name}.png"));
    let written = match bounded("a screenshot", app.client.screenshot()).await {
        Ok(png) => std::fs::write(&path, png).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    match written {
        Ok(()) => {
            println!("{}", path.display());
            None
        }
        Err(e) => {
            eprintln!("tour: no screenshot of {name}: {e}");
            Some(ExitCode::FAILURE)
        }
    }
}
