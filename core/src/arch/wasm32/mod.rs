//! wasm32 backends: simd128, compiled in when the build enables the
//! `simd128` target feature (`-C target-feature=+simd128`). WebAssembly has
//! no run-time feature detection: a module that holds one simd128
//! instruction fails to load on an engine without it, so the choice is the
//! build's, and a build without the feature uses the scalar backend.

pub(crate) mod simd128;
