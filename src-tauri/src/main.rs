//! Starts Nordlys.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    match nordlys_app::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nordlys: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
