//! Whatever is typed into an amount field, in every unit and language.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nordlys_core::amount_input::{BitcoinAmountUnit, parse_in};
use nordlys_core::format::Locale;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for unit in [BitcoinAmountUnit::Btc, BitcoinAmountUnit::Sats, BitcoinAmountUnit::Nok] {
            for locale in [Locale::En, Locale::Nb] {
                let _ = parse_in(text, unit, locale);
            }
        }
    }
});
