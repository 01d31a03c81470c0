//! A store's key sealed under the app lock's password, at the user's choice: the keyring then
//! holds only the sealed key, so a copied disk plus a copied keyring do not open the store
//! without the password. Argon2id derives the sealing key at a cost kept beside the seal (so a
//! later cost still opens an older seal); XChaCha20-Poly1305 seals it, bound to the profile, so
//! a sealed key moved into another profile's entry does not open there.

use std::collections::HashMap;
use std::sync::Mutex;

use argon2::{Algorithm, Argon2, Params, Version};
use bitcoin::hex::{DisplayHex, FromHex};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::at_rest::StoreKey;

/// Argon2id's memory in KiB and passes for a new seal: 128 MiB and 5 passes take 0.3 to 0.6 s on
/// this project's 2-core machine (quiet to busy), above the 250 ms floor an offline guess should
/// cost; 64 MiB and 6 passes measured 0.19 to 0.27 s, not always above it.
const MEMORY_KIB: u32 = 128 * 1024;
const PASSES: u32 = 5;
/// The most memory a seal may ask for: a damaged entry must not make an unlock take gigabytes.
const MOST_MEMORY_KIB: u32 = 1024 * 1024;
const MOST_PASSES: u32 = 64;
const SALT_LEN: usize = 16;
const NONCE_LEN: usize = 24;
/// What the seal is bound to besides the profile: this purpose, in this format.
const PURPOSE: &[u8] = b"nordlys store key v1\0";

/// A store key sealed under a password, as the keyring keeps it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SealedKey {
    memory_kib: u32,
    passes: u32,
    salt: String,
    nonce: String,
    sealed: String,
}

impl std::fmt::Debug for SealedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealedKey(..)")
    }
}

/// Why a key could not be sealed or opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("the password does not open the sealed key")]
    WrongPassword,
    #[error("the sealed key in the keyring is damaged: {0}")]
    Damaged(String),
    #[error("the system gave no randomness for the seal")]
    NoRandomness,
}

impl SealedKey {
    /// `key` sealed under `password` for `profile`, with a fresh salt and nonce.
    pub fn seal(key: &StoreKey, password: &str, profile: &str) -> Result<Self, SealError> {
        let mut salt = [0u8; SALT_LEN];
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut salt).map_err(|_| SealError::NoRandomness)?;
        getrandom::fill(&mut nonce).map_err(|_| SealError::NoRandomness)?;
        let cipher = cipher(password, &salt, MEMORY_KIB, PASSES)?;
        let sealed = cipher
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: key.bytes(),
                    aad: &bound_to(profile),
                },
            )
            .map_err(|_| SealError::Damaged("the key could not be sealed".into()))?;
        Ok(Self {
            memory_kib: MEMORY_KIB,
            passes: PASSES,
            salt: salt.to_lower_hex_string(),
            nonce: nonce.to_lower_hex_string(),
            sealed: sealed.to_lower_hex_string(),
        })
    }

    /// The key, when `password` is the one it was sealed under for `profile`.
    pub fn open(&self, password: &str, profile: &str) -> Result<StoreKey, SealError> {
        if !(1..=MOST_MEMORY_KIB).contains(&self.memory_kib)
            || !(1..=MOST_PASSES).contains(&self.passes)
        {
            return Err(SealError::Damaged(format!(
                "a cost of {} KiB and {} passes is out of range",
                self.memory_kib, self.passes
            )));
        }
        let salt = bytes_of("salt", &self.salt, Some(SALT_LEN))?;
        let nonce = bytes_of("nonce", &self.nonce, Some(NONCE_LEN))?;
        let sealed = bytes_of("sealed key", &self.sealed, None)?;
        let cipher = cipher(password, &salt, self.memory_kib, self.passes)?;
        let opened = Zeroizing::new(
            cipher
                .decrypt(
                    XNonce::from_slice(&nonce),
                    Payload {
                        msg: &sealed,
                        aad: &bound_to(profile),
                    },
                )
                .map_err(|_| SealError::WrongPassword)?,
        );
        StoreKey::from_bytes(&opened)
            .ok_or_else(|| SealError::Damaged("the sealed key is not 32 bytes".into()))
    }
}

fn bound_to(profile: &str) -> Vec<u8> {
    [PURPOSE, profile.as_bytes()].concat()
}

fn bytes_of(what: &str, hex: &str, len: Option<usize>) -> Result<Vec<u8>, SealError> {
    let bytes = Vec::<u8>::from_hex(hex)
        .map_err(|_| SealError::Damaged(format!("its {what} is not hexadecimal")))?;
    match len {
        Some(n) if bytes.len() != n => Err(SealError::Damaged(format!(
            "its {what} is {} bytes, not {n}",
            bytes.len()
        ))),
        _ => Ok(bytes),
    }
}

/// The cipher under the key Argon2id derives from `password` and `salt`.
fn cipher(
    password: &str,
    salt: &[u8],
    memory_kib: u32,
    passes: u32,
) -> Result<XChaCha20Poly1305, SealError> {
    let params = Params::new(memory_kib, passes, 1, Some(32))
        .map_err(|e| SealError::Damaged(e.to_string()))?;
    let mut derived = Zeroizing::new([0u8; 32]);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(password.as_bytes(), salt, derived.as_mut())
        .map_err(|e| SealError::Damaged(e.to_string()))?;
    XChaCha20Poly1305::new_from_slice(derived.as_ref())
        .map_err(|_| SealError::Damaged("the derived key is not 32 bytes".into()))
}

/// The keys opened at unlock, held in memory while the app runs, by profile: a store whose key
/// is sealed opens with these.
#[derive(Debug, Default)]
pub struct OpenedKeys(Mutex<HashMap<String, StoreKey>>);

impl OpenedKeys {
    pub fn get(&self, profile: &str) -> Option<StoreKey> {
        self.held().get(profile).cloned()
    }

    pub fn insert(&self, profile: &str, key: StoreKey) {
        self.held().insert(profile.to_owned(), key);
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<String, StoreKey>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_key_opens_with_its_password_for_its_profile_only() {
        let key = StoreKey::random().unwrap();
        let sealed = SealedKey::seal(&key, "correct horse", "exchange").unwrap();
        let opened = sealed.open("correct horse", "exchange").unwrap();
        assert_eq!(opened.to_hex(), key.to_hex());
        assert_eq!(
            sealed.open("correct cow", "exchange").unwrap_err(),
            SealError::WrongPassword
        );
        assert_eq!(
            sealed.open("correct horse", "sandbox").unwrap_err(),
            SealError::WrongPassword,
            "moved to another profile's entry"
        );
        let again = SealedKey::seal(&key, "correct horse", "exchange").unwrap();
        assert_ne!(again.salt, sealed.salt, "a fresh salt each time");
        assert!(!format!("{sealed:?}").contains(&sealed.sealed));
    }

    #[test]
    fn a_damaged_seal_says_what_is_wrong_and_asks_for_no_great_cost() {
        let key = StoreKey::random().unwrap();
        let good = SealedKey::seal(&key, "pw", "p").unwrap();
        let damaged = |f: fn(&mut SealedKey)| {
            let mut s = good.clone();
            f(&mut s);
            s.open("pw", "p").unwrap_err()
        };
        for e in [
            damaged(|s| s.salt = "zz".into()),
            damaged(|s| s.nonce = "00".into()),
            damaged(|s| s.sealed = "not hex".into()),
            damaged(|s| s.memory_kib = u32::MAX),
            damaged(|s| s.passes = 0),
        ] {
            assert!(matches!(e, SealError::Damaged(_)), "{e:?}");
        }
        assert_eq!(
            damaged(|s| s.sealed = "00".repeat(48)),
            SealError::WrongPassword,
            "a seal of the right form that does not open"
        );
    }
}
