//! Whatever is pasted into the pay field: parsing and building the request text must never
//! panic. (Its words come from the application layer, tested there on every kind.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use nordlys_core::destination;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let now = std::time::SystemTime::now();
        if let Ok(d) = destination::parse(text, now) {
            let _ = d.identity();
            let _ = d.wire();
        }
    }
});
