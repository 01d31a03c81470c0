//! Request signatures (5.2).
//!
//! `digest = SHA-256(decimal nonce ‖ body)`, `message = METHOD ‖ decoded path ‖ digest`,
//! `signature = Base64(HMAC-SHA256(Base64-decoded complete secret, message))`.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// The three headers of a signed request; the body they cover is the body sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedRequest {
    pub nonce: u64,
    pub signature: String,
}

/// The MAC over one request. `decoded_path` has no query string and no percent-escapes.
pub fn mac(hmac_key: &[u8], nonce: u64, method: &str, decoded_path: &str, body: &[u8]) -> [u8; 32] {
    let mut digest = Sha256::new();
    digest.update(nonce.to_string().as_bytes());
    digest.update(body);
    let digest = digest.finalize();
    let mut m = keyed(hmac_key);
    m.update(method.to_ascii_uppercase().as_bytes());
    m.update(decoded_path.as_bytes());
    m.update(&digest);
    m.finalize().into_bytes().into()
}

/// HMAC takes keys of any length (longer ones are hashed), so `new_from_slice` never fails for it;
/// the fallback exists only to keep the signature infallible.
fn keyed(hmac_key: &[u8]) -> HmacSha256 {
    HmacSha256::new_from_slice(hmac_key).unwrap_or_else(|_| HmacSha256::new(&Default::default()))
}

/// Signs one request.
pub fn sign(
    hmac_key: &[u8],
    nonce: u64,
    method: &str,
    decoded_path: &str,
    body: &[u8],
) -> SignedRequest {
    SignedRequest {
        nonce,
        signature: STANDARD.encode(mac(hmac_key, nonce, method, decoded_path, body)),
    }
}

/// Checks a received signature in constant time (what the server side does).
pub fn verify(
    hmac_key: &[u8],
    nonce: u64,
    method: &str,
    decoded_path: &str,
    body: &[u8],
    signature_b64: &str,
) -> bool {
    let Ok(given) = STANDARD.decode(signature_b64.trim()) else {
        return false;
    };
    let mut digest = Sha256::new();
    digest.update(nonce.to_string().as_bytes());
    digest.update(body);
    let digest = digest.finalize();
    let mut m = keyed(hmac_key);
    m.update(method.to_ascii_uppercase().as_bytes());
    m.update(decoded_path.as_bytes());
    m.update(&digest);
    m.verify_slice(&given).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::credentials::ApiSecret;

    const VECTORS: &str = include_str!("../../../../shared/vectors/signatures.json");

    #[test]
    fn every_shared_vector_is_reproduced() {
        let doc: serde_json::Value = serde_json::from_str(VECTORS).unwrap();
        let cases = doc["cases"].as_array().unwrap();
        assert_eq!(cases.len(), 5);
        for case in cases {
            let secret = ApiSecret::from_complete_secret(case["secret"].as_str().unwrap()).unwrap();
            let nonce: u64 = case["nonce"].as_str().unwrap().parse().unwrap();
            let method = case["method"].as_str().unwrap();
            let path = case["path"].as_str().unwrap();
            let body = case["body"].as_str().unwrap();
            let want = case["hmac"].as_str().unwrap();
            let got = sign(secret.hmac_key(), nonce, method, path, body.as_bytes());
            assert_eq!(got.signature, want, "{}", case["note"]);
            assert!(verify(
                secret.hmac_key(),
                nonce,
                method,
                path,
                body.as_bytes(),
                want
            ));
        }
    }

    #[test]
    fn any_change_breaks_the_signature() {
        let key = b"k";
        let good = sign(key, 5, "POST", "/v1/orders", b"{}").signature;
        assert!(verify(key, 5, "POST", "/v1/orders", b"{}", &good));
        assert!(!verify(key, 6, "POST", "/v1/orders", b"{}", &good));
        assert!(!verify(key, 5, "DELETE", "/v1/orders", b"{}", &good));
        assert!(!verify(key, 5, "POST", "/v1/orders?x=1", b"{}", &good));
        assert!(!verify(key, 5, "POST", "/v1/orders", b"{ }", &good));
        assert!(!verify(b"other", 5, "POST", "/v1/orders", b"{}", &good));
        assert!(!verify(key, 5, "POST", "/v1/orders", b"{}", "not base64!"));
    }
}
