//! aarch64 backends: NEON (part of the aarch64 baseline).

pub(crate) mod neon;
