//! Keyed sets and tables against a model with the spec's SipHash, and membership files with secrets.
//! The check lives in `tests/fuzz/src` so that `cargo test` replays `fuzz/corpus/keyed/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("keyed", data));
