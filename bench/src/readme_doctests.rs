//! The Rust examples of the repository's Markdown docs, compiled and run by
//! `cargo test --doc -p longstraw-bench` (tools/doctest/run_docs.py checks that
//! every `rust` block is included by some crate). They live in this unpublished
//! crate because the published crates are packaged without the repository's docs.

#[doc = include_str!("../../README.md")]
pub struct RepositoryReadme;

#[doc = include_str!("../scale/README.md")]
pub struct ScaleReadme;

#[doc = include_str!("../../docs/guide/src/languages/rust.md")]
pub struct GuideRust;
