//! Nonces that only go up (5.1, 5.3).
//!
//! `next = max(now in ms, last + 1)`, under a lock, so concurrent tasks never share one. With a
//! state file the last issued value survives restarts and a clock set back, and an exclusive file
//! lock makes several processes using the same key take turns. A nonce is written down before it is
//! handed out, so one spent on a failed call is never issued again.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Milliseconds since the Unix epoch; injectable so tests can set the clock back.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now_ms(&self) -> u64;
}

#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or(0)
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NonceError {
    #[error("cannot use the nonce state file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the nonce state file {path} is damaged (`{content}`); signed requests stop rather than risk \
         reusing a nonce — remove the file only if the key has been replaced"
    )]
    Corrupt { path: PathBuf, content: String },
    #[error("the nonce would overflow")]
    Exhausted,
}

#[derive(Debug)]
pub struct NonceSource {
    last: Mutex<u64>,
    place: Place,
    clock: Arc<dyn Clock>,
}

/// Where issued nonces are written down.
#[derive(Debug)]
enum Place {
    Memory,
    /// One file, whatever the key.
    File(PathBuf),
    /// A file per key in `dir`, named by the key's fingerprint: the app and the CLI, sharing a
    /// directory, take turns on one file for one key. `seed` is a single file from before, whose
    /// value a key's new file starts above.
    PerKey {
        dir: PathBuf,
        seed: Option<PathBuf>,
    },
}

const WIDTH: usize = 20;

impl NonceSource {
    /// Increasing within this process only.
    pub fn in_memory(clock: Arc<dyn Clock>) -> Self {
        Self {
            last: Mutex::new(0),
            place: Place::Memory,
            clock,
        }
    }

    /// Increasing across processes and restarts, through the state file at `path`.
    pub fn persistent(path: impl Into<PathBuf>, clock: Arc<dyn Clock>) -> Result<Self, NonceError> {
        let path = path.into();
        create_parent(&path)?;
        // Reads (and checks) the file now, so a damaged file is reported at configuration time.
        with_locked_file(&path, |_, last| Ok(last))?;
        Ok(Self {
            last: Mutex::new(0),
            place: Place::File(path),
            clock,
        })
    }

    /// Increasing across processes and restarts for each key, through a state file per key in
    /// `dir`. A key's first file starts above what `seed` (an older single file) holds.
    pub fn per_key(
        dir: impl Into<PathBuf>,
        seed: Option<PathBuf>,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, NonceError> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir).map_err(|source| NonceError::Io {
            path: dir.clone(),
            source,
        })?;
        Ok(Self {
            last: Mutex::new(0),
            place: Place::PerKey { dir, seed },
            clock,
        })
    }

    /// The next nonce for `key` (the complete API key), written down before it is returned.
    pub fn next(&self, key: &str) -> Result<u64, NonceError> {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let issued = match self.file_of(key) {
            None => self.step(*last)?,
            Some(path) => with_locked_file(&path, |file, on_disk| {
                let before = match (&self.place, on_disk) {
                    (
                        Place::PerKey {
                            seed: Some(seed), ..
                        },
                        0,
                    ) => read_seed(seed)?,
                    _ => on_disk,
                };
                let n = self.step((*last).max(before))?;
                write_value(file, n).map_err(|source| NonceError::Io {
                    path: path.clone(),
                    source,
                })?;
                Ok(n)
            })?,
        };
        *last = issued;
        Ok(issued)
    }

    /// Moves `key`'s nonces past `accepted`, the last nonce the exchange says it accepted (from
    /// another app on the same key): the next one issued is greater.
    pub fn move_past(&self, key: &str, accepted: u64) -> Result<(), NonceError> {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(path) = self.file_of(key) {
            with_locked_file(&path, |file, on_disk| {
                if accepted > on_disk {
                    write_value(file, accepted).map_err(|source| NonceError::Io {
                        path: path.clone(),
                        source,
                    })?;
                }
                Ok(())
            })?;
        }
        *last = (*last).max(accepted);
        Ok(())
    }

    /// Where `key`'s issued nonces are written down; none in memory.
    fn file_of(&self, key: &str) -> Option<PathBuf> {
        match &self.place {
            Place::Memory => None,
            Place::File(path) => Some(path.clone()),
            Place::PerKey { dir, .. } => Some(dir.join(crate::credentials::key_fingerprint(key))),
        }
    }

    fn step(&self, last: u64) -> Result<u64, NonceError> {
        let after = last.checked_add(1).ok_or(NonceError::Exhausted)?;
        Ok(self.clock.now_ms().max(after))
    }
}

fn create_parent(path: &Path) -> Result<(), NonceError> {
    match path.parent() {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|source| NonceError::Io {
            path: path.to_owned(),
            source,
        }),
        None => Ok(()),
    }
}

/// What an older single nonce file holds; nothing when there is none.
fn read_seed(path: &Path) -> Result<u64, NonceError> {
    match File::open(path) {
        Ok(mut file) => read_value(&mut file, path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(source) => Err(NonceError::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

/// Runs `f` with the file locked exclusively and the value it holds.
fn with_locked_file<T>(
    path: &Path,
    f: impl FnOnce(&mut File, u64) -> Result<T, NonceError>,
) -> Result<T, NonceError> {
    let io = |source| NonceError::Io {
        path: path.to_owned(),
        source,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    file.lock().map_err(io)?;
    let result = read_value(&mut file, path).and_then(|last| f(&mut file, last));
    // Closing the file releases the lock too; an error from the explicit unlock changes nothing.
    let _ = file.unlock();
    result
}

fn read_value(file: &mut File, path: &Path) -> Result<u64, NonceError> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_string(&mut text))
        .map_err(|source| NonceError::Io {
            path: path.to_owned(),
            source,
        })?;
    let t = text.trim();
    if t.is_empty() {
        return Ok(0);
    }
    t.parse().map_err(|_| NonceError::Corrupt {
        path: path.to_owned(),
        content: t.chars().take(40).collect(),
    })
}

/// Fixed width, written in place in one call: the file never holds a shorter, older-looking value.
/// On the disk before the nonce is used: after a power cut, a nonce the exchange has seen must
/// not be issued again (it would refuse every request until the clock passed it).
fn write_value(file: &mut File, n: u64) -> Result<(), std::io::Error> {
    file.seek(SeekFrom::Start(0))?;
    file.write_all(format!("{n:0WIDTH$}\n").as_bytes())?;
    file.flush()?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;

    #[derive(Debug)]
    struct FixedClock(AtomicU64);

    impl Clock for FixedClock {
        fn now_ms(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
    }

    #[test]
    fn strictly_increasing_under_64_concurrent_tasks() {
        let clock = Arc::new(FixedClock(AtomicU64::new(1_000)));
        let source = Arc::new(NonceSource::in_memory(clock));
        let threads: Vec<_> = (0..64)
            .map(|_| {
                let s = Arc::clone(&source);
                std::thread::spawn(move || {
                    (0..500).map(|_| s.next("k").unwrap()).collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all = HashSet::new();
        for t in threads {
            let v = t.join().unwrap();
            assert!(
                v.windows(2).all(|w| w[0] < w[1]),
                "each task sees increasing nonces"
            );
            all.extend(v);
        }
        assert_eq!(all.len(), 64 * 500, "no nonce issued twice");
    }

    /// Another app on the key accepted 9 000 000: the next nonce is above it, kept across a
    /// restart by the file; a smaller value moves nothing back.
    #[test]
    fn moving_past_another_apps_nonce_lasts_and_never_goes_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nonce");
        let clock = Arc::new(FixedClock(AtomicU64::new(1_000)));
        let source = NonceSource::persistent(&path, clock.clone()).unwrap();
        source.move_past("k", 9_000_000).unwrap();
        source.move_past("k", 5).unwrap();
        assert_eq!(source.next("k").unwrap(), 9_000_001);
        drop(source);
        let again = NonceSource::persistent(&path, clock.clone()).unwrap();
        assert_eq!(again.next("k").unwrap(), 9_000_002);
        let memory = NonceSource::in_memory(clock);
        memory.move_past("k", 42_000).unwrap();
        assert_eq!(memory.next("k").unwrap(), 42_001);
    }

    #[test]
    fn survives_a_restart_with_the_clock_set_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nonce");
        let clock = Arc::new(FixedClock(AtomicU64::new(5_000_000)));
        let first = NonceSource::persistent(&path, clock).unwrap();
        let mut last = 0;
        for _ in 0..10 {
            last = first.next("k").unwrap();
        }
        drop(first);
        let back = Arc::new(FixedClock(AtomicU64::new(1_000)));
        let second = NonceSource::persistent(&path, back).unwrap();
        assert_eq!(second.next("k").unwrap(), last + 1);
    }

    #[test]
    fn two_sources_on_one_file_never_collide() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nonce");
        let clock = Arc::new(FixedClock(AtomicU64::new(7)));
        let a = Arc::new(NonceSource::persistent(&path, clock.clone()).unwrap());
        let b = Arc::new(NonceSource::persistent(&path, clock).unwrap());
        let ta = {
            let a = a.clone();
            std::thread::spawn(move || (0..300).map(|_| a.next("k").unwrap()).collect::<Vec<_>>())
        };
        let tb = {
            let b = b.clone();
            std::thread::spawn(move || (0..300).map(|_| b.next("k").unwrap()).collect::<Vec<_>>())
        };
        let mut all: HashSet<u64> = ta.join().unwrap().into_iter().collect();
        all.extend(tb.join().unwrap());
        assert_eq!(all.len(), 600);
    }

    #[test]
    fn follows_the_clock_when_it_is_ahead() {
        let clock = Arc::new(FixedClock(AtomicU64::new(100)));
        let s = NonceSource::in_memory(clock.clone());
        assert_eq!(s.next("k").unwrap(), 100);
        assert_eq!(s.next("k").unwrap(), 101);
        clock.0.store(5_000, Ordering::SeqCst);
        assert_eq!(s.next("k").unwrap(), 5_000);
    }

    #[test]
    fn a_damaged_file_is_reported_not_reset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nonce");
        std::fs::write(&path, "12x").unwrap();
        let err = NonceSource::persistent(&path, Arc::new(SystemClock)).unwrap_err();
        assert!(matches!(err, NonceError::Corrupt { .. }), "{err}");
    }

    #[test]
    fn per_key_sources_share_a_key_s_file_and_keep_keys_apart() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FixedClock(AtomicU64::new(10)));
        let seed = dir.path().join("nonce");
        std::fs::write(&seed, format!("{:020}\n", 5_000)).unwrap();
        let app =
            NonceSource::per_key(dir.path().join("nonces"), Some(seed), clock.clone()).unwrap();
        let cli = NonceSource::per_key(dir.path().join("nonces"), None, clock).unwrap();
        assert_eq!(
            app.next("key-a").unwrap(),
            5_001,
            "a new key's file starts above the seed"
        );
        assert_eq!(
            cli.next("key-a").unwrap(),
            5_002,
            "the other process takes its turn"
        );
        assert_eq!(app.next("key-a").unwrap(), 5_003);
        assert_eq!(
            cli.next("key-b").unwrap(),
            5_003,
            "its own file, above what this process has issued"
        );
        let files = std::fs::read_dir(dir.path().join("nonces"))
            .unwrap()
            .count();
        assert_eq!(files, 2, "one file per key");
        let named = dir
            .path()
            .join("nonces")
            .join(crate::credentials::key_fingerprint("key-a"));
        assert_eq!(
            std::fs::read_to_string(named).unwrap().trim(),
            "00000000000000005003"
        );
    }
}
