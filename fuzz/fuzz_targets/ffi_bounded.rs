//! The C ABI's bounded-load calls (seeded and keyed) against a `BoundedLoad` mirror, under AddressSanitizer.
//! The check lives in `tests/fuzz/src` so that `cargo test` replays `fuzz/corpus/ffi_bounded/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("ffi_bounded", data));
