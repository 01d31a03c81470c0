//! The command list, read from the one place it is written (`ipc_commands!` in `ipc.rs`), and
//! what follows from it: the build script registers these names and writes the window's
//! capability from them, so a new command needs no second list.

/// The names in `ipc_commands! { module::name: Args => Ret; … }`, in order.
pub fn command_names(ipc_source: &str) -> Vec<String> {
    let Some(start) = ipc_source.find("\nipc_commands! {") else {
        return Vec::new();
    };
    ipc_source[start..]
        .lines()
        .skip(1)
        .take_while(|line| line.trim() != "}")
        .filter_map(|line| {
            let (path, _) = line.trim().split_once(": ")?;
            let (_, name) = path.split_once("::")?;
            Some(name.to_owned())
        })
        .collect()
}

/// What the window may do besides calling the app's commands: listen to the `changed` event the
/// backend's watcher emits.
const EVENTS: [&str; 2] = ["core:event:allow-listen", "core:event:allow-unlisten"];

/// The main window's capability: the app's own commands, its events, and nothing else.
pub fn capability(names: &[impl AsRef<str>]) -> String {
    let permissions: Vec<String> = names
        .iter()
        .map(|n| format!("allow-{}", n.as_ref().replace('_', "-")))
        .chain(EVENTS.iter().map(|e| (*e).to_owned()))
        .map(|p| format!("    \"{p}\""))
        .collect();
    format!(
        "{{\n  \"$schema\": \"../gen/schemas/desktop-schema.json\",\n  \"identifier\": \"main\",\n  \
         \"description\": \"Written by build.rs from the command list in src/ipc.rs. The main window may call the app's own commands and listen to its events, and nothing else: no file system, no shell, no HTTP from the webview.\",\n  \
         \"windows\": [\n    \"main\"\n  ],\n  \"permissions\": [\n{}\n  ]\n}}\n",
        permissions.join(",\n")
    )
}
