//! liblongstraw.{so,a}, the library C programs link (`-llongstraw`): every
//! `extern "C"` function of `longstraw-ffi`, exported under the artifact
//! name C expects. The code lives in `longstraw-ffi` (crate name
//! `longstraw_ffi`), which Rust tests and fuzz targets call directly.
pub use longstraw_ffi::*;
