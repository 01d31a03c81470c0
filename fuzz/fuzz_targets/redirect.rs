//! Whatever arrives on the OAuth redirect listener's socket, as the head of a request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nordlys_core::platform::loopback::read_redirect;

fuzz_target!(|data: &[u8]| {
    let head = String::from_utf8_lossy(data);
    let _ = read_redirect(&head, "expected-state");
});
