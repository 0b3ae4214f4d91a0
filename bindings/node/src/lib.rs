//! Node.cx bindings for longstraw: `Rendezvous`, `Table`, `Skeleton`,
//! `Snapshot` and `backend()`.
//!
//! This crate converts JavaScript values and errors only; placement and
//! membership live in `longstraw` and `longstraw-set`.

mod alloc;
mod balance;
mod batch;
mod bounded;
mod construct;
mod error;
mod external;
mod keyed;
mod load_async;
mod lookup;
mod members;
mod membership_file;
mod modes;
mod node_api;
mod rendezvous;
mod skeleton;
mod snapshot;
mod str_batch;
mod table;
mod table_build;

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

/// Installs the per-key methods (see `node_api::methods`) once the classes exist.
#[napi(module_exports)]
pub fn init(exports: Object, env: Env) -> Result<()> {
    use node_api::methods::{install, LOOKUPS, SNAPSHOT_LOOKUPS};
    let (cx, exports) = (node_api::Cx::of(&env), exports.raw());
    node_api::compiled::install(env.raw());
    node_api::receivers::install(env.raw(), exports);
    install::<rendezvous::Rendezvous>(cx, exports, &LOOKUPS)
        .and_then(|()| install::<table::Table>(cx, exports, &LOOKUPS))
        .and_then(|()| install::<skeleton::Skeleton>(cx, exports, &LOOKUPS))
        .and_then(|()| install::<snapshot::Snapshot>(cx, exports, &LOOKUPS))
        .and_then(|()| install::<snapshot::Snapshot>(cx, exports, &SNAPSHOT_LOOKUPS))
        .or_throw(&env)
}
