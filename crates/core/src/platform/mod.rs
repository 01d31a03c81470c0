//! What Nordlys needs of the machine it runs on, apart from the domain's rules: the OAuth redirect
//! on loopback, starting at login, where secrets are kept, whole files written durably, and the
//! profiles and settings kept in the app's data directory. The domain reaches the machine only
//! through these; these know of the domain only the leaf choices a setting remembers (a language,
//! a unit, a gains method, the idle lock's minutes), which `tests/tests/architecture.rs` holds.

pub mod autostart;
pub mod file_write;
#[cfg(feature = "os-keyring")]
pub mod keyring;
pub mod loopback;
pub mod secrets;
pub mod settings;
