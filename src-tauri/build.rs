//! Builds the Tauri context from the root `tauri.conf.json` and registers the app's commands, so
//! capabilities govern each of them.

#[path = "src/command_list.rs"]
mod command_list;

fn main() {
    println!("cargo:rerun-if-changed=../tauri.conf.json");
    println!("cargo:rerun-if-changed=../ui/dist");
    println!("cargo:rerun-if-changed=capabilities");
    println!("cargo:rerun-if-changed=src/ipc.rs");
    println!("cargo:rerun-if-changed=src/command_list.rs");
    // `login_items`: login at start through the autostart plugin, on the systems without XDG
    // autostart, or anywhere with the feature `login-items` (to type-check it on Linux).
    println!("cargo::rustc-check-cfg=cfg(login_items)");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if matches!(os.as_str(), "macos" | "windows")
        || std::env::var_os("CARGO_FEATURE_LOGIN_ITEMS").is_some()
    {
        println!("cargo::rustc-cfg=login_items");
    }
    let ipc = match std::fs::read_to_string("src/ipc.rs") {
        Ok(source) => source,
        Err(e) => fail(&format!("cannot read src/ipc.rs: {e}")),
    };
    let names = command_list::command_names(&ipc);
    if names.is_empty() {
        fail("no command found in src/ipc.rs's ipc_commands! list");
    }
    // Written only when it changes, so that it does not trigger a rebuild of its own.
    let capability = command_list::capability(&names);
    let path = "capabilities/main.json";
    if std::fs::read_to_string(path).ok().as_deref() != Some(capability.as_str())
        && let Err(e) = std::fs::write(path, &capability)
    {
        fail(&format!("cannot write {path}: {e}"));
    }
    // Tauri wants the list for the whole build; this process ends right after.
    let commands: &'static [&'static str] =
        Vec::leak(names.into_iter().map(|n| &*String::leak(n)).collect());
    let attributes = tauri_build::Attributes::new()
        .config_path("../tauri.conf.json")
        .app_manifest(tauri_build::AppManifest::new().commands(commands));
    if let Err(e) = tauri_build::try_build(attributes) {
        fail(&format!("tauri build failed: {e:#}"));
    }
}

fn fail(why: &str) -> ! {
    println!("cargo:warning={why}");
    std::process::exit(1);
}
