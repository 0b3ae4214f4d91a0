//! Node.js bindings for longstraw: `Rendezvous` (a set of any mode),
//! `Snapshot`, `BoundedLoad`, `Lease` and `backend()`.
//!
//! This crate converts JavaScript values and errors only; placement and
//! membership live in `longstraw` and `longstraw-set`.

mod alloc;
mod balance;
mod batch;
mod bounded;
mod construct;
mod error;
mod keyed;
mod load_async;
mod lookup;
mod membership_file;
mod node_api;
mod rendezvous;
mod snapshot;
mod str_batch;
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

/// Installs the methods and getters that read a snapshot (see
/// `node_api::methods`) once the classes exist.
#[napi(module_exports)]
pub fn init(exports: Object, env: Env) -> Result<()> {
    use node_api::methods::{install, install_getters, LOOKUPS, SNAPSHOT_LOOKUPS};
    use rendezvous::Rendezvous;
    use snapshot::Snapshot;
    let (cx, exports) = (node_api::Cx::of(&env), exports.raw());
    node_api::compiled::install(env.raw());
    node_api::receivers::install(env.raw(), exports);
    install::<Rendezvous>(cx, exports, &LOOKUPS)
        .and_then(|()| install::<Snapshot>(cx, exports, &LOOKUPS))
        .and_then(|()| install::<Snapshot>(cx, exports, &SNAPSHOT_LOOKUPS))
        .and_then(|()| install_getters::<Rendezvous>(cx, exports))
        .and_then(|()| install_getters::<Snapshot>(cx, exports))
        .or_throw(&env)?;
    // `owner`, `ownerIndex` and the ranked lookups become the JavaScript
    // methods of `branded` where they can be built; otherwise the native ones
    // installed above stay.
    node_api::branded::install_owner::<Rendezvous>(cx, exports);
    node_api::branded::install_owner::<Snapshot>(cx, exports);
    // WebAssembly: the loader then hands the addon its own exports, for the
    // fast `owner` (see `node_api::branded::fast`).
    #[cfg(target_family = "wasm")]
    node_api::branded::fast::define_installer(cx, exports);
    Ok(())
}
