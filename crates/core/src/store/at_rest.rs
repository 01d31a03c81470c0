//! The store encrypted at rest. SQLCipher (rusqlite's `bundled-sqlcipher`, over the system's
//! libcrypto) encrypts every page of the database, its WAL included, with a random 256-bit key
//! kept in the OS keyring beside the profile's other secrets. The key is used raw (`x'…'`), with
//! no password derivation: it is random, and derivation would only slow each open.
//!
//! A store written before encryption (a plain SQLite file) is moved into an encrypted one once,
//! in place and crash-safe: the copy is written beside it, verified, and put in its place by a
//! rename; only then is the plain file overwritten and removed. Each step leaves either the plain
//! store or the verified copy where the next start finds it ([`settle`]).

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::{Connection, OpenFlags};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::sealed_key::SealedKey;
use crate::platform::secrets::{self, SecretError, SecretItem, SecretStore};

/// The first 16 bytes of every plain SQLite database; an encrypted one begins with its salt.
const PLAIN_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// A store's key: 32 random bytes, zeroed when dropped (each copy too).
#[derive(Clone)]
pub struct StoreKey(Zeroizing<[u8; 32]>);

impl std::fmt::Debug for StoreKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StoreKey(..)")
    }
}

/// The key as the keyring keeps it: in hex, or sealed under the app lock's password.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum StoredStoreKey {
    Plain { key: Zeroizing<String> },
    Sealed { sealed: SealedKey },
}

/// What the keyring holds for a profile's store.
#[derive(Debug, Clone)]
pub enum KeyEntry {
    Plain(StoreKey),
    /// Opened at unlock, with the lock's password.
    Sealed(SealedKey),
}

impl KeyEntry {
    /// The profile's entry; `None` when the keyring holds none.
    pub fn read(store: &dyn SecretStore, profile: &str) -> Result<Option<Self>, KeyError> {
        match secrets::read::<StoredStoreKey>(store, profile, SecretItem::StoreKey)? {
            None => Ok(None),
            Some(StoredStoreKey::Plain { key }) => Ok(Some(Self::Plain(StoreKey::from_hex(&key)?))),
            Some(StoredStoreKey::Sealed { sealed }) => Ok(Some(Self::Sealed(sealed))),
        }
    }

    /// Keeps this entry as the profile's, in place of what was there.
    pub fn write(&self, store: &dyn SecretStore, profile: &str) -> Result<(), SecretError> {
        let stored = match self {
            Self::Plain(key) => StoredStoreKey::Plain { key: key.to_hex() },
            Self::Sealed(sealed) => StoredStoreKey::Sealed {
                sealed: sealed.clone(),
            },
        };
        secrets::write(store, profile, SecretItem::StoreKey, &stored)
    }
}

/// Why a store's key cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error("the store key is not 64 hexadecimal digits")]
    NotAKey,
    /// Sealed under the app lock's password: only an unlock opens it.
    #[error(
        "the store key is sealed under the app lock's password: Nordlys opens it at unlock, and its Settings show it for a backup"
    )]
    Sealed,
    #[error(transparent)]
    Secrets(#[from] SecretError),
}

impl StoreKey {
    /// A new key from the system's randomness.
    pub fn random() -> Result<Self, SecretError> {
        let mut key = Zeroizing::new([0u8; 32]);
        getrandom::fill(key.as_mut()).map_err(|e| SecretError::Unavailable(e.to_string()))?;
        Ok(Self(key))
    }

    /// The key written as 64 hexadecimal digits (a backup, the keyring's entry).
    pub fn to_hex(&self) -> Zeroizing<String> {
        let mut out = Zeroizing::new(String::with_capacity(64));
        for b in self.0.iter() {
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        }
        out
    }

    /// A key written as [`Self::to_hex`] writes it: either case, blanks anywhere ignored (a key
    /// copied by hand in groups of four).
    pub fn from_hex(text: &str) -> Result<Self, KeyError> {
        let text: Zeroizing<Vec<u8>> =
            Zeroizing::new(text.bytes().filter(|b| !b.is_ascii_whitespace()).collect());
        if text.len() != 64 {
            return Err(KeyError::NotAKey);
        }
        let mut key = Zeroizing::new([0u8; 32]);
        for (byte, pair) in key.iter_mut().zip(text.chunks(2)) {
            let digit = |c: u8| char::from(c).to_digit(16).ok_or(KeyError::NotAKey);
            *byte = u8::try_from(digit(pair[0])? << 4 | digit(pair[1])?)
                .map_err(|_| KeyError::NotAKey)?;
        }
        Ok(Self(key))
    }

    /// The profile's key from the keyring; `None` when it holds none, [`KeyError::Sealed`] when
    /// it is sealed.
    pub fn read(store: &dyn SecretStore, profile: &str) -> Result<Option<Self>, KeyError> {
        match KeyEntry::read(store, profile)? {
            None => Ok(None),
            Some(KeyEntry::Plain(key)) => Ok(Some(key)),
            Some(KeyEntry::Sealed(_)) => Err(KeyError::Sealed),
        }
    }

    /// Keeps this key as the profile's, in hex.
    pub fn write(&self, store: &dyn SecretStore, profile: &str) -> Result<(), SecretError> {
        KeyEntry::Plain(self.clone()).write(store, profile)
    }

    pub(super) fn bytes(&self) -> &[u8] {
        self.0.as_ref()
    }

    /// The key of exactly 32 bytes; `None` for any other length.
    pub(super) fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let mut key = Zeroizing::new([0u8; 32]);
        (bytes.len() == 32).then(|| {
            key.copy_from_slice(bytes);
            Self(key)
        })
    }

    /// Makes `db` read and write with this key: the first statement on a connection.
    pub(super) fn apply(&self, db: &Connection) -> Result<(), rusqlite::Error> {
        let sql = Zeroizing::new(format!("PRAGMA key = \"x'{}'\";", self.to_hex().as_str()));
        db.execute_batch(&sql)
    }

    fn attach_sql(&self, path: &Path) -> Zeroizing<String> {
        let quoted = path.to_string_lossy().replace('\'', "''");
        Zeroizing::new(format!(
            "ATTACH DATABASE '{quoted}' AS encrypted KEY \"x'{}'\";",
            self.to_hex().as_str()
        ))
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// A store's file and the key it opens with: what a reader on a connection of its own needs.
#[derive(Debug, Clone)]
pub(crate) struct StoreFile {
    pub(crate) path: PathBuf,
    /// `None` for a store written without encryption (the CLI's own, tests').
    pub(crate) key: Option<Arc<StoreKey>>,
}

impl StoreFile {
    /// A connection of its own to the file, keyed, its temporary tables in memory.
    pub(crate) fn connect(&self, flags: OpenFlags) -> Result<Connection, rusqlite::Error> {
        let db = Connection::open_with_flags(&self.path, flags)?;
        if let Some(key) = &self.key {
            key.apply(&db)?;
        }
        temporary_in_memory(&db)?;
        Ok(db)
    }
}

/// Keeps what SQLite sorts or builds on the side (a big `ORDER BY`, a temporary index) in
/// memory: a temporary file is written unencrypted outside the profile's folder. The bundled
/// SQLCipher defaults to this; saying it on each connection keeps it so whatever the build.
pub(crate) fn temporary_in_memory(db: &Connection) -> Result<(), rusqlite::Error> {
    db.pragma_update(None, "temp_store", "MEMORY")
}

/// Who has a store open, across processes: each opener holds `<store>.lock` shared for as long as
/// its store is open, and a migration holds it alone, so no process writes to the plain store
/// after its copy was taken (the app and the CLI may share a profile's store).
#[derive(Debug)]
pub(crate) struct Openers {
    _held: File,
}

/// How long a migration waits for the other openers to close the store.
const MIGRATION_WAITS: std::time::Duration = std::time::Duration::from_secs(10);

impl Openers {
    fn file(path: &Path) -> std::io::Result<File> {
        OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(with_suffix(path, ".lock"))
    }

    /// One opener among others; waits while a migration runs.
    pub(crate) fn shared(path: &Path) -> std::io::Result<Self> {
        let file = Self::file(path)?;
        file.lock_shared()?;
        Ok(Self { _held: file })
    }

    /// The only opener, for a migration: `None` when others keep the store open past
    /// [`MIGRATION_WAITS`].
    pub(crate) fn alone(path: &Path) -> std::io::Result<Option<Self>> {
        Self::alone_within(path, MIGRATION_WAITS)
    }

    fn alone_within(path: &Path, waits: std::time::Duration) -> std::io::Result<Option<Self>> {
        let file = Self::file(path)?;
        let started = std::time::Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(Self { _held: file })),
                Err(std::fs::TryLockError::WouldBlock) if started.elapsed() < waits => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
                Err(std::fs::TryLockError::Error(e)) => return Err(e),
            }
        }
    }
}

/// Whether a migration left something to settle, or a plain store waits to be migrated: then the
/// opener must be [`Openers::alone`].
pub(crate) fn needs_moving(path: &Path) -> std::io::Result<bool> {
    Ok(plain_path(path).exists() || copy_path(path).exists() || found(path)? == Found::Plain)
}

/// What lies at a store's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Nothing yet: a new store.
    Nothing,
    /// A plain SQLite database, written before encryption.
    Plain,
    /// Anything else: an encrypted store (or a file that is not one, which its key will tell).
    Encrypted,
}

/// What is at `path`, by its first bytes.
pub fn found(path: &Path) -> std::io::Result<Found> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Nothing),
        Err(e) => return Err(e),
    };
    let mut head = [0u8; 16];
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..])? {
            0 => break,
            n => read += n,
        }
    }
    Ok(match read {
        0 => Found::Nothing,
        16 if &head == PLAIN_HEADER => Found::Plain,
        _ => Found::Encrypted,
    })
}

/// Where the migration writes the encrypted copy before it takes the store's place.
fn copy_path(path: &Path) -> PathBuf {
    with_suffix(path, ".encrypting")
}

/// Where the plain store waits, after the copy took its place, to be overwritten and removed.
fn plain_path(path: &Path) -> PathBuf {
    with_suffix(path, ".plain")
}

pub(super) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Why a plain store could not be moved into an encrypted one. Nothing is lost: the plain store
/// stays where it was until the copy has taken its place.
#[derive(Debug, thiserror::Error)]
pub enum MigrationError {
    #[error("the plain store could not be copied: {0}")]
    Copy(#[from] rusqlite::Error),
    #[error("the encrypted copy does not hold what the plain store holds ({table})")]
    Differs { table: String },
    #[error("the store's files could not be moved: {0}")]
    Files(#[from] std::io::Error),
}

/// Finishes what a migration interrupted at `path` left, before the store is opened:
/// - the plain store set aside and the copy in its place: the plain store is overwritten and
///   removed;
/// - the plain store set aside and nothing in its place (stopped between the two renames): the
///   plain store goes back;
/// - an unfinished copy: removed, and the migration starts again from the plain store.
pub fn settle(path: &Path) -> std::io::Result<()> {
    let (copy, plain) = (copy_path(path), plain_path(path));
    if plain.exists() {
        match found(path)? {
            Found::Nothing => fs::rename(&plain, path)?,
            Found::Encrypted => shred_plain(&plain)?,
            // Not a state a migration leaves: both are kept, nothing is lost.
            Found::Plain => {}
        }
    }
    if copy.exists() {
        remove_if_there(&copy)?;
    }
    Ok(())
}

/// Moves the plain store at `path` into an encrypted one under `key`, in place.
pub fn migrate(path: &Path, key: &StoreKey) -> Result<(), MigrationError> {
    let copy = copy_path(path);
    remove_if_there(&copy)?;
    {
        let plain = Connection::open(path)?;
        plain.busy_timeout(std::time::Duration::from_secs(10))?;
        // Every change in the WAL into the file, so the copy and the shredding see it all.
        plain.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        let version: i64 = plain.pragma_query_value(None, "user_version", |r| r.get(0))?;
        plain.execute_batch(&key.attach_sql(&copy))?;
        plain.query_row("SELECT sqlcipher_export('encrypted')", [], |_| Ok(()))?;
        plain.execute_batch(&format!("PRAGMA encrypted.user_version = {version};"))?;
        plain.execute_batch("DETACH DATABASE encrypted;")?;
        let encrypted = Connection::open(&copy)?;
        key.apply(&encrypted)?;
        verify(&plain, &encrypted)?;
        encrypted.pragma_update(None, "journal_mode", "DELETE")?;
    }
    sync_file(&copy)?;
    // The plain store's WAL and shared memory, emptied by the checkpoint: were they left, the
    // encrypted store would open them as its own.
    for suffix in ["-wal", "-shm"] {
        shred(&with_suffix(path, suffix))?;
    }
    fs::rename(path, plain_path(path))?;
    fs::rename(&copy, path)?;
    sync_dir(path)?;
    shred_plain(&plain_path(path))?;
    Ok(())
}

/// Every table of the copy holds as many rows as the plain store's, and the schema is the same.
fn verify(plain: &Connection, encrypted: &Connection) -> Result<(), MigrationError> {
    let schema = |db: &Connection| -> Result<Vec<(String, String)>, rusqlite::Error> {
        let mut q = db.prepare(
            "SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type IN ('table', 'index') \
             AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )?;
        q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect()
    };
    let tables = schema(plain)?;
    if tables != schema(encrypted)? {
        return Err(MigrationError::Differs {
            table: "the schema".into(),
        });
    }
    let version =
        |db: &Connection| db.pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0));
    if version(plain)? != version(encrypted)? {
        return Err(MigrationError::Differs {
            table: "user_version".into(),
        });
    }
    for (name, sql) in &tables {
        if !sql.starts_with("CREATE TABLE") {
            continue;
        }
        let count = format!("SELECT COUNT(*) FROM \"{}\"", name.replace('"', "\"\""));
        let rows = |db: &Connection| db.query_row(&count, [], |r| r.get::<_, i64>(0));
        if rows(plain)? != rows(encrypted)? {
            return Err(MigrationError::Differs {
                table: name.clone(),
            });
        }
    }
    Ok(())
}

/// Overwrites the plain store and its `-wal` and `-shm` with zeros, then removes them. An SSD
/// may keep the old blocks elsewhere (the README says so); this is what a program can do.
fn shred_plain(plain: &Path) -> std::io::Result<()> {
    for suffix in ["", "-wal", "-shm"] {
        shred(&with_suffix(plain, suffix))?;
    }
    Ok(())
}

fn shred(file: &Path) -> std::io::Result<()> {
    let mut f = match OpenOptions::new().write(true).open(file) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let len = f.metadata()?.len();
    f.seek(SeekFrom::Start(0))?;
    let zeros = [0u8; 64 * 1024];
    let mut left = len;
    while left > 0 {
        let n = usize::try_from(left.min(zeros.len() as u64)).unwrap_or(zeros.len());
        f.write_all(&zeros[..n])?;
        left -= n as u64;
    }
    f.sync_all()?;
    drop(f);
    fs::remove_file(file)
}

fn remove_if_there(file: &Path) -> std::io::Result<()> {
    match fs::remove_file(file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

fn sync_file(file: &Path) -> std::io::Result<()> {
    File::open(file)?.sync_all()
}

fn sync_dir(path: &Path) -> std::io::Result<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => File::open(dir)?.sync_all(),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests: a failed step is the failure")]
    use super::*;

    fn key() -> StoreKey {
        StoreKey::random().unwrap()
    }

    /// Another opener (the CLI on the app's profile) keeps a migration out until it closes.
    #[test]
    fn a_migration_waits_for_every_other_opener() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        let other = Openers::shared(&path).unwrap();
        let short = std::time::Duration::from_millis(100);
        assert!(Openers::alone_within(&path, short).unwrap().is_none());
        drop(other);
        let alone = Openers::alone_within(&path, short).unwrap();
        assert!(alone.is_some());
        let opener = std::thread::spawn({
            let path = path.clone();
            move || Openers::shared(&path).map(|_| std::time::Instant::now())
        });
        std::thread::sleep(short);
        let released = std::time::Instant::now();
        drop(alone);
        assert!(
            opener.join().unwrap().unwrap() >= released,
            "opened during the migration"
        );
    }

    fn plain_store(path: &Path, rows: i64) {
        let db = Connection::open(path).unwrap();
        db.pragma_update(None, "journal_mode", "WAL").unwrap();
        db.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); PRAGMA user_version = 7;",
        )
        .unwrap();
        for i in 0..rows {
            db.execute("INSERT INTO t (v) VALUES (?1)", [format!("secret row {i}")])
                .unwrap();
        }
    }

    fn rows(path: &Path, key: &StoreKey) -> Result<i64, rusqlite::Error> {
        let db = Connection::open(path)?;
        key.apply(&db)?;
        db.query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
    }

    #[test]
    fn a_key_reads_back_as_it_was_written_and_anything_else_is_not_a_key() {
        let k = key();
        let back = StoreKey::from_hex(&k.to_hex()).unwrap();
        assert_eq!(back.0, k.0);
        assert_eq!(
            StoreKey::from_hex(&format!("  {}\n", k.to_hex().to_uppercase()))
                .unwrap()
                .0,
            k.0,
            "either case, blanks around"
        );
        for bad in [
            "",
            "00",
            &"0".repeat(63),
            &"0".repeat(65),
            &"g".repeat(64),
            &"é".repeat(32),
            &format!("{}+1", "0".repeat(62)),
        ] {
            assert_eq!(
                StoreKey::from_hex(bad).unwrap_err(),
                KeyError::NotAKey,
                "{bad:?}"
            );
        }
        assert_eq!(
            format!("{k:?}"),
            "StoreKey(..)",
            "no digit of the key in logs"
        );
    }

    #[test]
    fn the_keyring_keeps_the_key_and_a_damaged_entry_is_not_a_key() {
        use crate::platform::secrets::MemorySecretStore;
        let keyring = MemorySecretStore::default();
        assert!(StoreKey::read(&keyring, "p").unwrap().is_none());
        let k = key();
        k.write(&keyring, "p").unwrap();
        assert_eq!(StoreKey::read(&keyring, "p").unwrap().unwrap().0, k.0);
        assert!(
            StoreKey::read(&keyring, "other").unwrap().is_none(),
            "one per profile"
        );
        keyring
            .set("p", SecretItem::StoreKey, r#"{"key":"not hex"}"#)
            .unwrap();
        assert_eq!(
            StoreKey::read(&keyring, "p").unwrap_err(),
            KeyError::NotAKey
        );
        keyring.set("p", SecretItem::StoreKey, "not json").unwrap();
        assert!(matches!(
            StoreKey::read(&keyring, "p"),
            Err(KeyError::Secrets(SecretError::Damaged(_)))
        ));
    }

    #[test]
    fn a_plain_store_is_told_from_an_encrypted_one_and_from_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        assert_eq!(found(&path).unwrap(), Found::Nothing);
        File::create(&path).unwrap();
        assert_eq!(
            found(&path).unwrap(),
            Found::Nothing,
            "an empty file is a new store"
        );
        fs::remove_file(&path).unwrap();
        plain_store(&path, 1);
        assert_eq!(found(&path).unwrap(), Found::Plain);
        fs::write(&path, b"short").unwrap();
        assert_eq!(found(&path).unwrap(), Found::Encrypted, "its key will tell");
    }

    #[test]
    fn a_plain_store_moves_into_an_encrypted_one_and_leaves_no_plain_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        plain_store(&path, 500);
        let k = key();
        migrate(&path, &k).unwrap();
        assert_eq!(found(&path).unwrap(), Found::Encrypted);
        assert_eq!(rows(&path, &k).unwrap(), 500);
        let bytes = fs::read(&path).unwrap();
        assert!(
            !bytes.windows(10).any(|w| w == b"secret row"),
            "no row is readable in the file"
        );
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            left,
            ["s.sqlite"],
            "the plain file, its WAL and the copy are gone"
        );
        let db = Connection::open(&path).unwrap();
        key().apply(&db).unwrap();
        assert!(
            db.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r
                .get::<_, i64>(0))
                .is_err(),
            "another key reads nothing"
        );
        let version: i64 = {
            let db = Connection::open(&path).unwrap();
            k.apply(&db).unwrap();
            db.pragma_query_value(None, "user_version", |r| r.get(0))
                .unwrap()
        };
        assert_eq!(version, 7, "the schema's version comes along");
    }

    /// Each state a kill -9 can leave the migration in: the next start finds the store whole,
    /// plain or encrypted, and the migration, run again, finishes.
    #[test]
    fn an_interrupted_migration_is_settled_at_the_next_start_and_loses_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        let k = key();

        // Stopped while the copy was written: the copy goes, the plain store stays.
        plain_store(&path, 20);
        fs::write(copy_path(&path), b"half a copy").unwrap();
        settle(&path).unwrap();
        assert!(!copy_path(&path).exists());
        assert_eq!(found(&path).unwrap(), Found::Plain);
        migrate(&path, &k).unwrap();
        assert_eq!(rows(&path, &k).unwrap(), 20);

        // Stopped between the two renames: the plain store goes back.
        fs::remove_file(&path).unwrap();
        plain_store(&plain_path(&path), 30);
        settle(&path).unwrap();
        assert_eq!(found(&path).unwrap(), Found::Plain);
        assert!(!plain_path(&path).exists());
        migrate(&path, &k).unwrap();
        assert_eq!(rows(&path, &k).unwrap(), 30);

        // Stopped before the plain store was shredded: it is, and the copy stays.
        plain_store(&plain_path(&path), 40);
        settle(&path).unwrap();
        assert!(!plain_path(&path).exists());
        assert_eq!(rows(&path, &k).unwrap(), 30);
    }
}
