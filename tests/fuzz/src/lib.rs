//! The checks behind every fuzz target, each against a model that does not
//! share code with what it checks. `fuzz/fuzz_targets/*.rs` (cargo-fuzz,
//! `make fuzz`) call [`run`] with libFuzzer's input; `tests/replay.rs` calls it
//! with every file of `fuzz/corpus/<target>/` and with seeded random inputs,
//! so plain `cargo test` replays the corpus.
//!
//! A check panics on a disagreement; the panic message names what differed.

pub mod backends;
pub mod bounded;
pub mod ffi_bounded;
pub mod ffi_calls;
mod input;
pub mod keyed;
pub mod membership_file;
pub mod packed;
pub mod set_model;
pub mod spec_hash;
pub mod tables;

/// Every fuzz target, in the order `make fuzz` runs them.
pub const TARGETS: [&str; 9] = [
    "set",
    "tables",
    "packed",
    "ffi",
    "membership",
    "backends",
    "bounded",
    "keyed",
    "ffi_bounded",
];

/// Runs one target's check on one input. Unknown names panic.
pub fn run(target: &str, data: &[u8]) {
    match target {
        "set" => set_model::check(data),
        "tables" => tables::check(data),
        "packed" => packed::check(data),
        "ffi" => ffi_calls::check(data),
        "membership" => membership_file::check(data),
        "backends" => backends::check(data),
        "bounded" => bounded::check(data),
        "keyed" => keyed::check(data),
        "ffi_bounded" => ffi_bounded::check(data),
        _ => panic!("unknown fuzz target {target:?}"),
    }
}
