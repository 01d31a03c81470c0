//! QR codes as SVG, drawn in Rust so the webview only shows an image, and the payment URIs they
//! carry. Bech32 text is put in upper case: a QR code's alphanumeric mode holds upper-case letters
//! and digits only, and is about a third smaller than byte mode, so the code stays easy to scan.

use nordlys_money::Btc;
use qrcode::canvas::{Canvas, MaskPattern};
use qrcode::types::Color;
use qrcode::{EcLevel, bits, ec};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QrError {
    #[error("this text is too long for a QR code ({0} characters)")]
    TooLong(usize),
}

const MASKS: [MaskPattern; 8] = [
    MaskPattern::Checkerboard,
    MaskPattern::HorizontalLines,
    MaskPattern::VerticalLines,
    MaskPattern::DiagonalLines,
    MaskPattern::LargeCheckerboard,
    MaskPattern::Fields,
    MaskPattern::Diamonds,
    MaskPattern::Meadow,
];

/// The SVG of a QR code for `text`, dark on light whatever the theme (scanners expect that),
/// with the standard quiet zone.
pub fn svg(text: &str) -> Result<String, QrError> {
    let too_long = |_| QrError::TooLong(text.chars().count());
    // Low error correction: a code on a clean screen needs little, and a smaller code is easier
    // to scan.
    let level = EcLevel::L;
    let bits = bits::encode_auto(text.as_bytes(), level).map_err(too_long)?;
    let version = bits.version();
    let (data, ec_data) =
        ec::construct_codewords(&bits.into_bytes(), version, level).map_err(too_long)?;
    let mut canvas = Canvas::new(version, level);
    canvas.draw_all_functional_patterns();
    canvas.draw_data(&data, &ec_data);
    let width = version.width().unsigned_abs() as usize;
    Ok(draw(&best_mask(&canvas, width), width))
}

/// Quiet zone, in modules (the standard's minimum).
const QUIET: usize = 4;
/// Pixels per module in the SVG's own units; the image scales anyway.
const MODULE: usize = 4;

/// One path with a rectangle per horizontal run of dark modules, on a white square.
fn draw(modules: &[Color], width: usize) -> String {
    use std::fmt::Write;
    let size = (width + 2 * QUIET) * MODULE;
    let mut out = String::with_capacity(width * width * 4);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{size}" height="{size}" viewBox="0 0 {size} {size}" shape-rendering="crispEdges"><rect width="{size}" height="{size}" fill="#fff"/><path fill="#000" d=""##
    );
    for (y, row) in modules.chunks(width).enumerate() {
        let mut x = 0;
        while x < width {
            if row[x] != Color::Dark {
                x += 1;
                continue;
            }
            let start = x;
            while x < width && row[x] == Color::Dark {
                x += 1;
            }
            let _ = write!(
                out,
                "M{} {}h{}v{MODULE}h-{}z",
                (start + QUIET) * MODULE,
                (y + QUIET) * MODULE,
                (x - start) * MODULE,
                (x - start) * MODULE
            );
        }
    }
    out.push_str(r#""/></svg>"#);
    out
}

/// The masked modules with the lowest ISO/IEC 18004 penalty. The `qrcode` crate's own choice
/// scores each mask through boxed closures per module and is most of its run time; this scores
/// the same four rules over plain booleans.
fn best_mask(canvas: &Canvas, width: usize) -> Vec<Color> {
    let mut best: Option<(u32, Vec<Color>)> = None;
    for mask in MASKS {
        let mut c = canvas.clone();
        c.apply_mask(mask);
        let colors = c.into_colors();
        let dark: Vec<bool> = colors.iter().map(|c| *c == Color::Dark).collect();
        let score = penalty(&dark, width);
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            best = Some((score, colors));
        }
    }
    best.map(|(_, colors)| colors).unwrap_or_default()
}

/// ISO/IEC 18004 §7.8.3: runs of five or more, 2×2 blocks, finder-like patterns, dark balance.
fn penalty(dark: &[bool], n: usize) -> u32 {
    let at = |x: usize, y: usize| dark[y * n + x];
    let mut score = 0u32;
    for horizontal in [true, false] {
        for i in 0..n {
            let line = |j: usize| if horizontal { at(j, i) } else { at(i, j) };
            let mut run = 1u32;
            for j in 1..=n {
                if j < n && line(j) == line(j - 1) {
                    run += 1;
                } else {
                    if run >= 5 {
                        score += run - 2;
                    }
                    run = 1;
                }
            }
            // 1:1:3:1:1 with four light modules on one side (outside the symbol counts as light).
            let light = |j: isize| j < 0 || j >= n as isize || !line(j as usize);
            for j in 0..n.saturating_sub(6) {
                let finder = line(j)
                    && !line(j + 1)
                    && line(j + 2)
                    && line(j + 3)
                    && line(j + 4)
                    && !line(j + 5)
                    && line(j + 6);
                if finder {
                    let j = j as isize;
                    let before = (j - 4..j).all(light);
                    let after = (j + 7..j + 11).all(light);
                    if before || after {
                        score += 40;
                    }
                }
            }
        }
    }
    for y in 0..n - 1 {
        for x in 0..n - 1 {
            let c = at(x, y);
            if at(x + 1, y) == c && at(x, y + 1) == c && at(x + 1, y + 1) == c {
                score += 3;
            }
        }
    }
    let dark_count = dark.iter().filter(|d| **d).count();
    let percent = dark_count * 100 / dark.len().max(1);
    score + (percent.abs_diff(50) / 5) as u32 * 10
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
pub fn unified_uri(address: &str, amount_btc: Option<Btc>, lightning: &str) -> Option<String> {
    if !is_bech32_address(address) || lightning.contains('@') {
        return None;
    }
    let mut uri = bitcoin_uri(address);
    let mut sep = '?';
    if let Some(a) = amount_btc.filter(|a| !a.is_zero()) {
        // What a payer's wallet will send: whole satoshis.
        uri.push_str(&format!(
            "{sep}AMOUNT={}",
            a.round_to_sat().decimal().normalize()
        ));
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

    use qrcode::QrCode;

    use super::*;
    use nordlys_core::destination::{self, Destination};

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
    fn the_chosen_mask_makes_the_same_symbol_the_crate_would_draw() {
        // Same data, version and level: only the mask may differ, and ours must score no worse.
        let text = "LIGHTNING:LNBC125U1PNORDLYS";
        let ours = svg(text).unwrap();
        let theirs = QrCode::with_error_correction_level(text, EcLevel::L).unwrap();
        let width = theirs.width();
        assert!(ours.contains(&format!("width=\"{}\"", (width + 2 * QUIET) * MODULE)));
        let dark: Vec<bool> = theirs
            .to_colors()
            .iter()
            .map(|c| *c == Color::Dark)
            .collect();
        let bits = bits::encode_auto(text.as_bytes(), EcLevel::L).unwrap();
        let (d, e) =
            ec::construct_codewords(&bits.into_bytes(), theirs.version(), EcLevel::L).unwrap();
        let mut canvas = Canvas::new(theirs.version(), EcLevel::L);
        canvas.draw_all_functional_patterns();
        canvas.draw_data(&d, &e);
        let mine: Vec<bool> = best_mask(&canvas, width)
            .iter()
            .map(|c| *c == Color::Dark)
            .collect();
        assert!(penalty(&mine, width) <= penalty(&dark, width));
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
            Some(Btc::from_sats(12_500)),
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
