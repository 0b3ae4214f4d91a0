//! `LONGSTRAW_BACKEND`: forcing a kernel for tests, benchmarks and bug reports.

use std::sync::OnceLock;

use longstraw::{Backend, BackendKind};

use crate::error::{Error, Result};

/// The environment variable: `scalar|sse2|avx2|avx512|neon|auto`.
pub const BACKEND_ENV: &str = "LONGSTRAW_BACKEND";

/// Parses a backend name. `auto` (or an empty value) picks the best this CPU
/// supports; a named backend this CPU lacks is an error, never a silent fallback.
pub fn parse_backend(value: &str) -> Result<Backend> {
    let v = value.trim();
    if v.is_empty() || v.eq_ignore_ascii_case("auto") {
        return Ok(Backend::detect());
    }
    let kind = BackendKind::from_name(&v.to_ascii_lowercase()).ok_or_else(|| Error::Backend {
        value: value.to_owned(),
        reason: "unknown backend (expected scalar, sse2, avx2, avx512, neon or auto)",
    })?;
    Backend::new(kind).ok_or_else(|| Error::Backend {
        value: value.to_owned(),
        reason: "this CPU or build does not support that backend",
    })
}

/// The backend chosen by `LONGSTRAW_BACKEND`, read once per process.
pub fn backend_from_env() -> Result<Backend> {
    static CHOICE: OnceLock<Result<Backend>> = OnceLock::new();
    CHOICE
        .get_or_init(|| match std::env::var(BACKEND_ENV) {
            Ok(v) => parse_backend(&v),
            Err(std::env::VarError::NotPresent) => Ok(Backend::detect()),
            Err(std::env::VarError::NotUnicode(v)) => Err(Error::Backend {
                value: v.to_string_lossy().into_owned(),
                reason: "not valid UTF-8",
            }),
        })
        .clone()
}
