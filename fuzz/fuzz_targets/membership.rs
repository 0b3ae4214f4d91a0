//! The membership file parser: arbitrary text never panics, parse(save(x)) == x.
//! The check lives in `tests/fuzz/src` so that `cargo test` replays `fuzz/corpus/membership/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("membership", data));
