//! Local data for its owner only. The umask is 077 before Tauri starts, so everything the app,
//! WebKit and SQLite (`-wal`, `-shm`) create is private from the start; what an older version
//! left readable by others is made private at start.

use std::path::Path;

/// Sets the process umask to 077. Call first thing, before any thread or window exists.
#[cfg(unix)]
pub fn private_from_now() {
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
}

#[cfg(not(unix))]
pub fn private_from_now() {}

/// Makes every directory under `root` (and `root`) 0700 and every file 0600 where group or others
/// had any access. Symbolic links are not followed. Returns how many entries changed.
#[cfg(unix)]
pub fn make_private(root: &Path) -> std::io::Result<usize> {
    use std::os::unix::fs::PermissionsExt;
    let meta = match std::fs::symlink_metadata(root) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    if meta.file_type().is_symlink() {
        return Ok(0);
    }
    let mut changed = 0;
    let mode = meta.permissions().mode();
    if mode & 0o077 != 0 {
        let private = if meta.is_dir() { 0o700 } else { 0o600 };
        std::fs::set_permissions(root, std::fs::Permissions::from_mode(private))?;
        changed += 1;
    }
    if meta.is_dir() {
        for entry in std::fs::read_dir(root)? {
            changed += make_private(&entry?.path())?;
        }
    }
    Ok(changed)
}

#[cfg(not(unix))]
pub fn make_private(_root: &Path) -> std::io::Result<usize> {
    Ok(0)
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(p: &Path) -> u32 {
        std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn what_others_could_read_is_made_private_and_links_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("no.nordlys.desktop");
        let nested = root.join("profiles/exchange");
        std::fs::create_dir_all(&nested).unwrap();
        let db = nested.join("nordlys.sqlite-wal");
        std::fs::write(&db, "x").unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "y").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
        for (p, m) in [(&root, 0o755), (&nested, 0o775), (&db, 0o644)] {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
        }
        assert_eq!(
            make_private(&root).unwrap(),
            4,
            "the root, profiles, exchange and the file"
        );
        assert_eq!(mode(&root.join("profiles")), 0o700);
        assert_eq!(mode(&root), 0o700);
        assert_eq!(mode(&nested), 0o700);
        assert_eq!(mode(&db), 0o600);
        assert_eq!(
            mode(&outside),
            0o644,
            "a link's target is not ours to change"
        );
        assert_eq!(make_private(&root).unwrap(), 0, "nothing left to do");
        assert_eq!(make_private(&dir.path().join("missing")).unwrap(), 0);
    }
}
