//! Bounded loads: acquire/release/add/remove/set_weight against an integer model of SPEC.md §16.
//! The check lives in `tests/fuzz/src` so that `cargo test` replays `fuzz/corpus/bounded/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("bounded", data));
