//! Node.js bindings for longstraw: `Rendezvous`, `Table`, `Skeleton`,
//! `Snapshot` and `backend()`.
//!
//! This crate converts JavaScript values and errors only; placement and
//! membership live in `longstraw` and `longstraw-set`.

mod alloc;
mod balance;
mod batch;
mod bounded;
mod compiled;
mod construct;
mod detached;
mod error;
mod external;
mod fast;
mod js;
mod keyed;
mod load_async;
mod lookup;
mod members;
mod membership_file;
mod modes;
mod raw;
mod receivers;
mod rendezvous;
mod skeleton;
mod snapshot;
mod str_batch;
mod table;
mod table_build;
mod utf16;

use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::error::{JsErr, OrThrow};

/// The kernel new sets use: `LONGSTRAW_BACKEND` if set, else the best this
/// CPU supports (`scalar`, `sse2`, `avx2`, `avx512`, `neon`).
#[napi(catch_unwind)]
pub fn backend(env: &Env) -> Result<&'static str> {
    longstraw_set::backend_from_env()
        .map(|b| b.name())
        .map_err(JsErr::from)
        .or_throw(env)
}

/// The placement version new sets use by default.
#[napi]
pub const PLACEMENT: u32 = 1;

/// Installs the direct per-key callbacks (see `fast`) once the classes exist.
#[napi(module_exports)]
pub fn init(exports: Object, env: Env) -> Result<()> {
    compiled::install(env.raw());
    receivers::install(env.raw(), exports.raw());
    fast::install(env.raw(), exports.raw()).or_throw(&env)
}
