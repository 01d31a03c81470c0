//! Whatever is pasted into the pay field: parsing, describing and building the request text must
//! never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nordlys_core::destination;
use nordlys_core::format::Locale;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let now = std::time::SystemTime::now();
        if let Ok(d) = destination::parse(text, now) {
            let _ = d.describe(now, Locale::Nb);
            let _ = d.describe(now, Locale::En);
            let _ = d.identity();
            let _ = d.wire();
        }
    }
});
