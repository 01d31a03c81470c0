//! QR codes as SVG, drawn in Rust so the webview only shows an image, and the payment URIs they
//! carry. Bech32 text is put in upper case: a QR code's alphanumeric mode holds upper-case letters
//! and digits only, and is about a third smaller than byte mode, so the code stays easy to scan.

use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QrError {
    #[error("this text is too long for a QR code ({0} characters)")]
    TooLong(usize),
}

/// The SVG of a QR code for `text`, dark on light whatever the theme (scanners expect that),
/// with the standard quiet zone.
pub fn svg(text: &str) -> Result<String, QrError> {
    // Medium error correction where it fits; long invoices fall back to low to stay scannable.
    let code = QrCode::with_error_correction_level(text, EcLevel::M)
        .or_else(|_| QrCode::with_error_correction_level(text, EcLevel::L))
        .map_err(|_| QrError::TooLong(text.chars().count()))?;
    Ok(code
        .render::<svg::Color<'_>>()
        .dark_color(svg::Color("#000"))
        .light_color(svg::Color("#fff"))
        .quiet_zone(true)
        .module_dimensions(4, 4)
        .build())
}

/// Whether `address` is bech32 (case-insensitive, so safe to put in upper case). Base58 addresses
/// are case-sensitive and are left exactly as they are.
fn is_bech32_address(address: &str) -> bool {
    let lower = address.to_ascii_lowercase();
    lower.starts_with("bc1") || lower.starts_with("tb1") || lower.starts_with("bcrt1")
}

/// `BITCOIN:BC1Q…` for a bech32 address, `bitcoin:1…` for a base58 one.
pub fn bitcoin_uri(address: &str) -> String {
    if is_bech32_address(address) {
        format!("BITCOIN:{}", address.to_ascii_uppercase())
    } else {
        format!("bitcoin:{address}")
    }
}

/// `LIGHTNING:LNBC…` / `LIGHTNING:LNURL1…`; a Lightning address keeps its case-insensitive text
/// as is (`lightning:kari@example.com`), since `@` is not alphanumeric anyway.
pub fn lightning_uri(invoice_or_lnurl_or_address: &str) -> String {
    let t = invoice_or_lnurl_or_address.trim();
    if t.contains('@') {
        format!("lightning:{t}")
    } else {
        format!("LIGHTNING:{}", t.to_ascii_uppercase())
    }
}

/// A unified BIP21 URI: on-chain address, optional amount, and the Lightning invoice or LNURL that
/// wallets which can pay Lightning prefer. `None` when the address is base58: upper-casing it would
/// break it, and in mixed case the code loses most of the alphanumeric saving.
pub fn unified_uri(
    address: &str,
    amount_btc: Option<rust_decimal::Decimal>,
    lightning: &str,
) -> Option<String> {
    if !is_bech32_address(address) || lightning.contains('@') {
        return None;
    }
    let mut uri = bitcoin_uri(address);
    let mut sep = '?';
    if let Some(a) = amount_btc.filter(|a| !a.is_zero()) {
        uri.push_str(&format!("{sep}AMOUNT={}", a.normalize()));
        sep = '&';
    }
    uri.push_str(&format!(
        "{sep}LIGHTNING={}",
        lightning.trim().to_ascii_uppercase()
    ));
    Some(uri)
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use rust_decimal::Decimal;

    use super::*;
    use crate::destination::{self, Destination};

    #[test]
    fn svg_is_a_self_contained_image() {
        let s = svg("BITCOIN:BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4").unwrap();
        assert!(s.contains("<svg") && s.ends_with("</svg>"));
        assert!(
            !s.contains("script") && !s.contains("href"),
            "nothing to fetch or run"
        );
        assert!(matches!(
            svg(&"x".repeat(5000)),
            Err(QrError::TooLong(5000))
        ));
    }

    #[test]
    fn upper_case_only_where_it_is_safe() {
        assert_eq!(
            bitcoin_uri("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),
            "BITCOIN:BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"
        );
        assert_eq!(
            bitcoin_uri("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"),
            "bitcoin:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"
        );
        assert_eq!(
            lightning_uri("kari@example.com"),
            "lightning:kari@example.com"
        );
        assert!(unified_uri("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", None, "lnurl1x").is_none());
    }

    #[test]
    fn the_unified_uri_reads_back_as_its_lightning_part() {
        let lud01 = "LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS";
        let uri = unified_uri(
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
            Some(Decimal::new(12_500, 8)),
            lud01,
        )
        .unwrap();
        assert!(
            uri.starts_with("BITCOIN:BC1Q") && uri.contains("?AMOUNT=0.000125&LIGHTNING=LNURL1")
        );
        assert!(uri.bytes().all(|b| !b.is_ascii_lowercase()));
        // Our own destination field understands what we put in a QR code.
        let back = destination::parse(
            &bitcoin_uri("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),
            SystemTime::now(),
        );
        assert!(matches!(back, Ok(Destination::Onchain { .. })));
    }
}
