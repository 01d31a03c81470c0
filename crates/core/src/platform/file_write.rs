//! Writing a whole file so that it is either the old one or the new one, never half: the bytes
//! go to `<name>.part` beside it, reach the disk, and are renamed over it. A `.part` that is a
//! link (planted to make the write land somewhere else) is refused, never followed.

use std::io::Write;
use std::path::{Path, PathBuf};

/// `path` with `.part` after its name.
fn part_of(path: &Path) -> PathBuf {
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    PathBuf::from(part)
}

/// Replaces the file at `path` with `bytes`, durably (the data and the rename are synced).
pub fn write_replacing(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let part = part_of(path);
    match std::fs::symlink_metadata(&part) {
        Ok(m) if m.file_type().is_file() => std::fs::remove_file(&part)?,
        Ok(_) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!(
                    "{} is a link or a folder, not a file this app left: remove it and try again",
                    part.display()
                ),
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let written = (|| {
        // A new file only: one put there since the check above (a link too) is not opened.
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&part)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&part, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&part);
        return written;
    }
    sync_folder_of(path);
    Ok(())
}

/// Makes the rename itself durable where the system allows syncing a folder (not on Windows).
fn sync_folder_of(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_a_stale_part_is_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.csv");
        write_replacing(&path, b"one").unwrap();
        std::fs::write(part_of(&path), b"left by a crash").unwrap();
        write_replacing(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert!(!part_of(&path).exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_part_link_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("bashrc");
        std::fs::write(&target, b"mine").unwrap();
        let path = dir.path().join("report.csv");
        std::os::unix::fs::symlink(&target, part_of(&path)).unwrap();
        let refused = write_replacing(&path, b"export").unwrap_err();
        assert_eq!(refused.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&target).unwrap(), b"mine");
        assert!(!path.exists());
    }
}
