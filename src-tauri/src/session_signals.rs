//! Locks the app when the machine is about to sleep or the screen locks, where the OS says so:
//! logind's `PrepareForSleep(true)` on the system bus, and a screensaver's `ActiveChanged(true)`
//! on the session bus (the freedesktop name, which KDE and others serve, and GNOME's). Where no
//! such bus or service exists, the idle timer (which counts time asleep) locks on its own.

use tauri::{AppHandle, Manager};

/// Which bus a signal comes on.
#[derive(Debug, Clone, Copy)]
enum Bus {
    System,
    Session,
}

/// The signals that mean "the user is leaving": each carries one boolean, true on the way out.
const SIGNALS: [(Bus, &str); 3] = [
    (
        Bus::System,
        "type='signal',interface='org.freedesktop.login1.Manager',member='PrepareForSleep'",
    ),
    (
        Bus::Session,
        "type='signal',interface='org.freedesktop.ScreenSaver',member='ActiveChanged'",
    ),
    (
        Bus::Session,
        "type='signal',interface='org.gnome.ScreenSaver',member='ActiveChanged'",
    ),
];

/// Listens for each signal on a thread of its own for as long as the app runs.
pub fn watch(handle: &AppHandle) {
    for (bus, rule) in SIGNALS {
        let handle = handle.clone();
        let spawned = std::thread::Builder::new()
            .name("nordlys-session-signal".into())
            .spawn(move || {
                if let Err(e) = listen(bus, rule, &handle) {
                    eprintln!("nordlys: not locking on {rule}: {e}");
                }
            });
        if let Err(e) = spawned {
            eprintln!("nordlys: not locking on {rule}: {e}");
        }
    }
}

fn listen(bus: Bus, rule: &str, handle: &AppHandle) -> zbus::Result<()> {
    let connection = match bus {
        Bus::System => zbus::blocking::Connection::system()?,
        Bus::Session => zbus::blocking::Connection::session()?,
    };
    for message in zbus::blocking::MessageIterator::for_match_rule(rule, &connection, None)? {
        let leaving = message?.body().deserialize::<bool>().unwrap_or(false);
        if leaving && let Some(app) = handle.try_state::<nordlys_application::App>() {
            nordlys_application::lock::lock_now(&app);
        }
    }
    Ok(())
}
