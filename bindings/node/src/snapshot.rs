//! `Snapshot`: one immutable membership, of any mode. Node indices returned
//! by its batch calls are positions in its `nodes`, which never change.
//!
//! Its per-key methods and its properties are installed natively (see
//! `node_api::methods`); the `#[napi]` items here are those napi-rs runs.

use std::sync::Arc;

use longstraw_set::Snapshot as SetSnapshot;
use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::batch::{Answer, OwnersTask};
use crate::error::OrThrow;
use crate::node_api::branded::IdCache;
use crate::node_api::external::Reported;
use crate::node_api::methods::Receiver;
use crate::node_api::{new_target, Cx};

/// One immutable membership of a `Rendezvous`, as of the moment
/// `snapshot()` was called; it places keys as the set it came from does
/// (`mode`). Later changes to the set do not affect it, so indices from
/// `ownerIndices()` always refer to `snapshot.nodes`.
#[napi(custom_finalize)]
pub struct Snapshot {
    inner: Arc<SetSnapshot>,
    external: Reported,
    ids: IdCache,
}

impl ObjectFinalize for Snapshot {
    fn finalize(self, env: Env) -> Result<()> {
        self.external.release(env.raw());
        Ok(())
    }
}

impl Snapshot {
    /// A snapshot object; its native memory is reported to V8 (see `external`).
    pub fn from_shared(env: napi::sys::napi_env, inner: Arc<SetSnapshot>) -> Snapshot {
        let external = Reported::new(env, &inner);
        Snapshot {
            inner,
            external,
            ids: IdCache::default(),
        }
    }
}

impl Receiver for Snapshot {
    const CLASS: &'static std::ffi::CStr = c"Snapshot";
    fn with_snapshot<R>(&self, f: impl FnOnce(&SetSnapshot) -> R) -> R {
        f(&self.inner)
    }
    fn with_shared<R>(&self, f: impl FnOnce(&Arc<SetSnapshot>) -> R) -> R {
        f(&self.inner)
    }
    fn id_cache(&self) -> &IdCache {
        &self.ids
    }
}

#[napi]
impl Snapshot {
    /// Snapshots come from `set.snapshot()`; this constructor always throws
    /// a TypeError (code `ERR_LONGSTRAW_INVALID_ARG_TYPE`).
    #[napi(catch_unwind, constructor)]
    pub fn new(env: &Env, this: This<'_>) -> Result<Self> {
        new_target::require_new(Cx::of(env), this.object.raw(), c"Snapshot").or_throw(env)?;
        Err(crate::error::JsErr::type_error("Snapshot cannot be constructed directly; call set.snapshot()").throw(env))
    }

    /// `ownerIndices` on the thread pool: the inputs are copied, so they may
    /// be reused as soon as this returns.
    #[napi(
        catch_unwind,
        ts_args_type = "bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array",
        ts_return_type = "Promise<Uint32Array>"
    )]
    pub fn owner_indices_async(&self, env: &Env, bytes: Unknown<'_>, offsets: Unknown<'_>) -> AsyncTask<OwnersTask> {
        AsyncTask::new(OwnersTask::packed(
            Cx::of(env),
            self.inner.clone(),
            bytes.raw(),
            offsets.raw(),
            Answer::Indices,
        ))
    }

    /// `owners` on the thread pool.
    #[napi(
        catch_unwind,
        ts_args_type = "keys: Array<string | Buffer | Uint8Array>",
        ts_return_type = "Promise<Array<string | Buffer>>"
    )]
    pub fn owners_async(&self, env: &Env, keys: Unknown<'_>) -> AsyncTask<OwnersTask> {
        AsyncTask::new(OwnersTask::keys(Cx::of(env), self.inner.clone(), keys.raw()))
    }
}
