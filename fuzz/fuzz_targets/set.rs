//! Random add/remove/set_weight/set_domain/update sequences on a `Rendezvous` against a `BTreeMap` model and the scalar oracle.
//! The check lives in `tests/fuzz/src` so that `cargo test` replays `fuzz/corpus/set/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("set", data));
