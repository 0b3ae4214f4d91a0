//! The Rust examples of the Markdown docs, compiled and run by `cargo test --doc`
//! (tools/doctest/run_docs.py checks that every `rust` block is in one of these).

#[doc = include_str!("../../README.md")]
pub struct RepositoryReadme;

#[doc = include_str!("../../bench/scale/README.md")]
pub struct ScaleReadme;

#[doc = include_str!("../../docs/guide/src/languages/rust.md")]
pub struct GuideRust;

#[doc = include_str!("../README.md")]
pub struct SetReadme;
