//! "Start Nordlys when I log in" on Linux: an XDG autostart entry, a desktop file in
//! `$XDG_CONFIG_HOME/autostart` (or `~/.config/autostart`) that the session starts at login. The
//! file's presence is the setting; deleting it by hand turns it off as well.

use std::path::{Path, PathBuf};

/// The entry's file name: the app's identifier, so it cannot clash with another app's.
pub const FILE_NAME: &str = "no.nordlys.desktop.desktop";

#[derive(Debug, thiserror::Error)]
pub enum AutostartError {
    #[error("neither XDG_CONFIG_HOME nor HOME says where the autostart folder is")]
    NoConfigFolder,
    #[error("the program's path {0} cannot be written into a desktop entry")]
    UnwritablePath(String),
    #[error("cannot write {path}: {detail}")]
    Write { path: String, detail: String },
    #[error("cannot remove {path}: {detail}")]
    Remove { path: String, detail: String },
}

/// The autostart folder as the XDG base directory specification finds it: `XDG_CONFIG_HOME`
/// when set to an absolute path, else `~/.config`.
pub fn folder(
    xdg_config_home: Option<&str>,
    home: Option<&str>,
) -> Result<PathBuf, AutostartError> {
    let absolute = |p: &&str| Path::new(p).is_absolute();
    match (xdg_config_home.filter(absolute), home.filter(absolute)) {
        (Some(config), _) => Ok(Path::new(config).join("autostart")),
        (None, Some(home)) => Ok(Path::new(home).join(".config").join("autostart")),
        (None, None) => Err(AutostartError::NoConfigFolder),
    }
}

/// The desktop entry that starts `program`. Its path is quoted as the Desktop Entry
/// specification asks for an `Exec` argument, so a path with spaces starts the same program.
pub fn entry(program: &Path) -> Result<String, AutostartError> {
    let text = program
        .to_str()
        .filter(|p| !p.chars().any(char::is_control))
        .ok_or_else(|| AutostartError::UnwritablePath(program.display().to_string()))?;
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '`' | '$' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    // In a desktop file's string values, a backslash is itself written twice.
    let exec = quoted.replace('\\', "\\\\").replace('%', "%%");
    Ok(format!(
        "[Desktop Entry]\nType=Application\nName=Nordlys\nComment=Bitcoin and Lightning wallet\nExec={exec}\nIcon=no.nordlys.desktop\nTerminal=false\nX-GNOME-Autostart-enabled=true\n"
    ))
}

/// Whether the entry is in `folder`.
pub fn is_on(folder: &Path) -> bool {
    folder.join(FILE_NAME).is_file()
}

/// Writes the entry for `program` into `folder`, whole or not at all.
pub fn turn_on(folder: &Path, program: &Path) -> Result<(), AutostartError> {
    let path = folder.join(FILE_NAME);
    let err = |e: std::io::Error| AutostartError::Write {
        path: path.display().to_string(),
        detail: e.to_string(),
    };
    let text = entry(program)?;
    std::fs::create_dir_all(folder).map_err(err)?;
    let tmp = folder.join(format!(".{FILE_NAME}.tmp"));
    std::fs::write(&tmp, text).map_err(err)?;
    std::fs::rename(&tmp, &path).map_err(err)
}

/// Removes the entry from `folder`; none there is already off.
pub fn turn_off(folder: &Path) -> Result<(), AutostartError> {
    let path = folder.join(FILE_NAME);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(AutostartError::Remove {
            path: path.display().to_string(),
            detail: e.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_follows_xdg_config_home_then_home() {
        assert_eq!(
            folder(Some("/x/config"), Some("/home/kari")).ok(),
            Some(PathBuf::from("/x/config/autostart"))
        );
        assert_eq!(
            folder(None, Some("/home/kari")).ok(),
            Some(PathBuf::from("/home/kari/.config/autostart"))
        );
        // A relative XDG_CONFIG_HOME is to be ignored, says the specification.
        assert_eq!(
            folder(Some("config"), Some("/home/kari")).ok(),
            Some(PathBuf::from("/home/kari/.config/autostart"))
        );
        assert!(matches!(
            folder(None, None),
            Err(AutostartError::NoConfigFolder)
        ));
    }

    #[test]
    fn the_entry_starts_the_program_even_from_a_path_with_spaces_and_quotes() {
        let text = entry(Path::new("/opt/My Apps/nordlys")).unwrap_or_default();
        assert!(text.starts_with("[Desktop Entry]\n"), "{text}");
        assert!(text.contains("\nExec=\"/opt/My Apps/nordlys\"\n"), "{text}");
        let odd = entry(Path::new("/opt/a\"b$c%d/nordlys")).unwrap_or_default();
        assert!(
            odd.contains("\nExec=\"/opt/a\\\\\"b\\\\$c%%d/nordlys\"\n"),
            "{odd}"
        );
        assert!(matches!(
            entry(Path::new("/opt/a\nb")),
            Err(AutostartError::UnwritablePath(_))
        ));
    }

    #[test]
    fn turning_on_writes_the_entry_and_off_removes_it() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let folder = dir.path().join("autostart");
        assert!(!is_on(&folder));
        turn_off(&folder).unwrap_or_else(|e| panic!("{e}"));
        turn_on(&folder, Path::new("/usr/bin/nordlys")).unwrap_or_else(|e| panic!("{e}"));
        assert!(is_on(&folder));
        let text = std::fs::read_to_string(folder.join(FILE_NAME)).unwrap_or_default();
        assert!(text.contains("Exec=\"/usr/bin/nordlys\""), "{text}");
        turn_off(&folder).unwrap_or_else(|e| panic!("{e}"));
        assert!(!is_on(&folder));
        assert_eq!(
            std::fs::read_dir(&folder).map(Iterator::count).ok(),
            Some(0)
        );
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("a-file");
        std::fs::write(&file, "").unwrap_or_else(|e| panic!("{e}"));
        let e = turn_on(&file.join("autostart"), Path::new("/usr/bin/nordlys"));
        assert!(matches!(e, Err(AutostartError::Write { .. })), "{e:?}");
    }
}
