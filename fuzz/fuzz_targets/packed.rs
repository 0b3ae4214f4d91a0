//! The packed-batch parser (u32/u64/usize offsets) against a model, and batch owners through core, set and C ABI.
//! The check lives in `tests/fuzz/src` so that `cargo test` replays `fuzz/corpus/packed/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("packed", data));
