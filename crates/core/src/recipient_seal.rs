//! Saved recipients' travel-rule details (name, address, identity number…) are sealed at rest:
//! XChaCha20-Poly1305 under a random key kept in the OS keyring, one per profile. The database
//! alone then tells a thief only labels and destinations. Each sealed value is bound to its
//! recipient's identity, so one row's details cannot be moved onto another.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use nordlys_exchange::models::TravelRuleInfo;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, Zeroizing};

use crate::platform::secrets::{self, SecretError, SecretItem, SecretStore};

/// The first byte of every sealed value: the format, so a later one can be told apart.
const FORMAT: u8 = 1;
const NONCE_LEN: usize = 24;

/// The key that seals one profile's saved recipients. Its `Debug` shows nothing of it, and it is
/// wiped from memory when dropped.
pub struct RecipientSeal {
    cipher: XChaCha20Poly1305,
}

/// The cipher wipes its key when dropped; so, then, does the seal.
impl zeroize::ZeroizeOnDrop for RecipientSeal {}

impl std::fmt::Debug for RecipientSeal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RecipientSeal([redacted])")
    }
}

/// The details as sealed: what the travel rule asks of a recipient.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Zeroize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RecipientDetails {
    pub full_name: String,
    pub country: String,
    pub address: String,
    pub nin: String,
    pub exchange: String,
    pub self_custody: bool,
}

impl From<TravelRuleInfo> for RecipientDetails {
    fn from(i: TravelRuleInfo) -> Self {
        Self {
            full_name: i.full_name,
            country: i.country,
            address: i.address,
            nin: i.nin,
            exchange: i.exchange,
            self_custody: i.self_custody,
        }
    }
}

impl From<&RecipientDetails> for TravelRuleInfo {
    fn from(d: &RecipientDetails) -> Self {
        Self {
            full_name: d.full_name.clone(),
            country: d.country.clone(),
            address: d.address.clone(),
            nin: d.nin.clone(),
            exchange: d.exchange.clone(),
            self_custody: d.self_custody,
        }
    }
}

/// The keyring entry: the key in hex.
#[derive(Serialize, Deserialize)]
struct StoredSealKey {
    key: Zeroizing<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("the sealed recipient details are damaged or were sealed with another key")]
    Unreadable,
    #[error("the system has no randomness to seal with")]
    NoRandomness,
}

impl RecipientSeal {
    fn from_key(key: &[u8; 32]) -> Self {
        Self {
            cipher: XChaCha20Poly1305::new(key.into()),
        }
    }

    /// A new random key.
    pub fn generate() -> Result<Self, SealError> {
        let mut key = Zeroizing::new([0u8; 32]);
        getrandom::fill(key.as_mut()).map_err(|_| SealError::NoRandomness)?;
        Ok(Self::from_key(&key))
    }

    /// `profile`'s key from the keyring, made and stored there the first time. An error means
    /// the keyring cannot be read now (locked, or its entry damaged): recipients stay sealed.
    pub fn for_profile(store: &dyn SecretStore, profile: &str) -> Result<Self, SecretError> {
        let item = SecretItem::RecipientKey;
        if let Some(stored) = secrets::read::<StoredSealKey>(store, profile, item)? {
            let mut key = Zeroizing::new([0u8; 32]);
            return match decode_hex(&stored.key, key.as_mut()) {
                true => Ok(Self::from_key(&key)),
                false => Err(SecretError::Damaged(item.name().to_owned())),
            };
        }
        let mut key = Zeroizing::new([0u8; 32]);
        getrandom::fill(key.as_mut()).map_err(|e| SecretError::Unavailable(e.to_string()))?;
        let stored = StoredSealKey {
            key: Zeroizing::new(encode_hex(key.as_ref())),
        };
        secrets::write(store, profile, item, &stored)?;
        Ok(Self::from_key(&key))
    }

    /// `details` sealed for the recipient `identity`.
    pub fn seal(&self, identity: &str, details: &RecipientDetails) -> Result<Vec<u8>, SealError> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|_| SealError::NoRandomness)?;
        let plain = Zeroizing::new(serde_json::to_vec(details).map_err(|_| SealError::Unreadable)?);
        let sealed = self
            .cipher
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: &plain,
                    aad: identity.as_bytes(),
                },
            )
            .map_err(|_| SealError::Unreadable)?;
        let mut out = Vec::with_capacity(1 + NONCE_LEN + sealed.len());
        out.push(FORMAT);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    /// The details sealed for `identity`, if this key sealed them for it.
    pub fn open(&self, identity: &str, sealed: &[u8]) -> Result<RecipientDetails, SealError> {
        let (&format, rest) = sealed.split_first().ok_or(SealError::Unreadable)?;
        if format != FORMAT || rest.len() < NONCE_LEN {
            return Err(SealError::Unreadable);
        }
        let (nonce, body) = rest.split_at(NONCE_LEN);
        let plain = Zeroizing::new(
            self.cipher
                .decrypt(
                    XNonce::from_slice(nonce),
                    Payload {
                        msg: body,
                        aad: identity.as_bytes(),
                    },
                )
                .map_err(|_| SealError::Unreadable)?,
        );
        serde_json::from_slice(&plain).map_err(|_| SealError::Unreadable)
    }
}

fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Fills `out` from exactly `2 * out.len()` hex digits; false for anything else.
fn decode_hex(text: &str, out: &mut [u8]) -> bool {
    let digits = text.as_bytes();
    if digits.len() != out.len() * 2 {
        return false;
    }
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let (Some(high), Some(low)) = (
            (pair[0] as char).to_digit(16),
            (pair[1] as char).to_digit(16),
        ) else {
            return false;
        };
        *byte = (high * 16 + low) as u8;
    }
    true
}

/// A recipient's details for tests: one person with every field a thief would want.
#[cfg(test)]
pub(crate) fn kari() -> RecipientDetails {
    RecipientDetails {
        full_name: "Kari Nordmann".into(),
        country: "NO".into(),
        address: "Storgata 1, 0155 Oslo".into(),
        nin: "01017012345".into(),
        ..RecipientDetails::default()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use crate::platform::secrets::MemorySecretStore;

    #[test]
    fn details_come_back_only_for_their_own_recipient_and_key() {
        let seal = RecipientSeal::generate().unwrap();
        let sealed = seal.seal("bc1qkari", &kari()).unwrap();
        let text = String::from_utf8_lossy(&sealed);
        assert!(!text.contains("01017012345") && !text.contains("Storgata"));
        assert_eq!(seal.open("bc1qkari", &sealed), Ok(kari()));
        assert_eq!(
            seal.open("bc1qola", &sealed),
            Err(SealError::Unreadable),
            "moved onto another row"
        );
        let other = RecipientSeal::generate().unwrap();
        assert_eq!(other.open("bc1qkari", &sealed), Err(SealError::Unreadable));
    }

    #[test]
    fn damaged_sealed_values_are_refused_not_panicked_on() {
        let seal = RecipientSeal::generate().unwrap();
        let sealed = seal.seal("id", &kari()).unwrap();
        for bad in [
            &[][..],
            &[FORMAT][..],
            &[2u8; 60][..],
            &sealed[..sealed.len() - 1],
        ] {
            assert_eq!(seal.open("id", bad), Err(SealError::Unreadable));
        }
        let mut flipped = sealed.clone();
        if let Some(last) = flipped.last_mut() {
            *last ^= 1;
        }
        assert_eq!(seal.open("id", &flipped), Err(SealError::Unreadable));
    }

    #[test]
    fn the_key_is_made_once_and_kept_in_the_keyring() {
        let keyring = MemorySecretStore::default();
        let first = RecipientSeal::for_profile(&keyring, "p").unwrap();
        let sealed = first.seal("id", &kari()).unwrap();
        let again = RecipientSeal::for_profile(&keyring, "p").unwrap();
        assert_eq!(again.open("id", &sealed), Ok(kari()));
        let elsewhere = RecipientSeal::for_profile(&keyring, "q").unwrap();
        assert!(
            elsewhere.open("id", &sealed).is_err(),
            "one key per profile"
        );
        assert_eq!(format!("{first:?}"), "RecipientSeal([redacted])");
    }

    #[test]
    fn a_damaged_key_entry_is_an_error_not_a_new_key() {
        let keyring = MemorySecretStore::default();
        for damaged in [r#"{"key":"abc"}"#, r#"{"key":"zz"}"#, "not json"] {
            keyring.set("p", SecretItem::RecipientKey, damaged).unwrap();
            assert!(matches!(
                RecipientSeal::for_profile(&keyring, "p"),
                Err(SecretError::Damaged(_))
            ));
            assert_eq!(
                keyring
                    .get("p", SecretItem::RecipientKey)
                    .unwrap()
                    .as_deref(),
                Some(damaged),
                "kept for the user to see, never overwritten"
            );
        }
    }
}
