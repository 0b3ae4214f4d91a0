//! The Rust examples of this crate's README, compiled and run by `cargo test --doc`
//! (tools/doctest/run_docs.py checks that every `rust` block is in some crate;
//! the repository's other docs are doctests of the unpublished `longstraw-bench`).

#[doc = include_str!("../README.md")]
pub struct SetReadme;
