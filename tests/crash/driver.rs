//! `nordlys-crash-driver`: one life of Nordlys for the crash test (see `life.rs`). Its use cases
//! shorten the quiet period through hooks that exist in debug builds only; a release build (as
//! `cargo bench` makes every binary of this package) only says so.

#[cfg(debug_assertions)]
#[path = "life.rs"]
mod life;

#[cfg(debug_assertions)]
fn main() -> std::process::ExitCode {
    life::main()
}

#[cfg(not(debug_assertions))]
fn main() -> std::process::ExitCode {
    eprintln!("nordlys-crash-driver: a debug build is needed (its test hooks exist only there)");
    std::process::ExitCode::from(2)
}
