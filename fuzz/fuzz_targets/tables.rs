//! Random change sequences on a table-mode and a skeleton-mode `Rendezvous`: incremental result == fresh build == oracle.
//! The check lives in `tests/fuzz/src` so that `cargo test` replays `fuzz/corpus/tables/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| longstraw_fuzz_checks::run("tables", data));
