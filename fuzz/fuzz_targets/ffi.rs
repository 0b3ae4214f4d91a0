//! Random sequences of C ABI calls (NULL, misaligned and bad-tag arguments) against a `longstraw-set` mirror; run with `-s address`.
//! The check lives in `tests/fuzz/src` so that `cargo test` replays `fuzz/corpus/ffi/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("ffi", data));
