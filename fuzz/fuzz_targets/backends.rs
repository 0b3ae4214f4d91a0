//! Every backend this CPU supports against the scalar oracle (owner, top-k bit
//! for bit, batches). The check lives in `tests/fuzz/src/backends.rs` so that
//! `cargo test` replays `fuzz/corpus/backends/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("backends", data));
