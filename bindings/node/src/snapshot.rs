//! `Snapshot`: one immutable membership, of any mode. Node indices returned
//! by its batch calls are positions in its `nodes`, which never change.

use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::batch::{Answer, OwnersTask};
use crate::error::OrThrow;
use crate::external::Reported;
use crate::lookup;
use crate::modes::{Current, Shared, View};
use crate::node_api::out::Raw;
use crate::node_api::Cx;

/// One immutable membership of a `Rendezvous`, `Table` or `Skeleton`, as of
/// the moment `snapshot()` was called; it places keys as the set it came from
/// does (`mode`). Later changes to the set do not affect it, so indices from
/// `ownerIndices()` always refer to `snapshot.nodes`.
#[napi(custom_finalize)]
pub struct Snapshot {
    inner: Shared,
    external: Option<Reported>,
}

impl ObjectFinalize for Snapshot {
    fn finalize(self, env: Env) -> Result<()> {
        if let Some(external) = &self.external {
            external.release(env.raw());
        }
        Ok(())
    }
}

impl Snapshot {
    /// A snapshot object; its native memory is reported to V8 (see `external`).
    pub fn from_shared(env: napi::sys::napi_env, inner: Shared) -> Snapshot {
        let external = Some(Reported::new(env, inner.view()));
        Snapshot { inner, external }
    }

    fn view(&self) -> View<'_> {
        self.inner.view()
    }

    /// Itself: lookups on a snapshot run on it (see `fast`).
    pub fn current(&self) -> &Self {
        self
    }
}

impl Current for Snapshot {
    fn with_view<R>(&self, f: impl FnOnce(View<'_>) -> R) -> R {
        f(self.inner.view())
    }
    fn shared(&self) -> Shared {
        self.inner.clone()
    }
}

impl crate::node_api::methods::Receiver for Snapshot {
    const CLASS: &'static std::ffi::CStr = c"Snapshot";
    fn with_view<R>(&self, f: impl FnOnce(crate::modes::View<'_>) -> R) -> R {
        f(self.inner.view())
    }
}

#[napi]
impl Snapshot {
    /// Snapshots come from `rendezvous.snapshot()`; this constructor always
    /// throws a TypeError (code `ERR_LONGSTRAW_INVALID_ARG_TYPE`).
    #[napi(catch_unwind, constructor)]
    pub fn new(env: &Env) -> Result<Self> {
        Err(crate::error::JsErr::type_error("Snapshot cannot be constructed directly; call rendezvous.snapshot(), table.snapshot() or skeleton.snapshot()").throw(env))
    }

    /// How many nodes, including drained (weight 0) ones.
    #[napi(catch_unwind, getter)]
    pub fn size(&self) -> u32 {
        self.view().members().len() as u32
    }

    /// How many nodes have a non-zero weight.
    #[napi(catch_unwind, getter)]
    pub fn eligible(&self) -> u32 {
        self.view().members().eligible() as u32
    }

    /// Node ids in index order (strings; Buffers for ids that are not UTF-8).
    #[napi(catch_unwind, getter, ts_return_type = "Array<string | Buffer>")]
    pub fn nodes(&self, env: &Env) -> Result<Raw> {
        lookup::nodes(Cx::of(env), self.view()).map(Raw).or_throw(env)
    }

    /// Weights in index order.
    #[napi(catch_unwind, getter)]
    pub fn weights(&self) -> Vec<f64> {
        self.view().members().weights().to_vec()
    }

    /// The seed, as a bigint; `null` for a keyed set (built with a secret, it has no seed).
    #[napi(catch_unwind, getter)]
    pub fn seed(&self) -> Option<BigInt> {
        self.view().members().seed().map(BigInt::from)
    }

    /// Whether keys are placed by keyed-v1 (the set was built with `secret`).
    #[napi(catch_unwind, getter)]
    pub fn is_keyed(&self) -> bool {
        self.view().members().is_keyed()
    }

    /// The placement version.
    #[napi(catch_unwind, getter)]
    pub fn placement(&self) -> u32 {
        self.view().members().placement().number()
    }

    /// Increases by one with every change published by the set.
    #[napi(catch_unwind, getter)]
    pub fn generation(&self) -> i64 {
        self.view().members().generation() as i64
    }

    /// The kernel lookups run on (`scalar`, `avx2`, ...).
    #[napi(catch_unwind, getter)]
    pub fn backend(&self) -> &'static str {
        self.view().members().backend().name()
    }

    /// How this snapshot places keys: `'flat'`, `'table'` or `'skeleton'`.
    #[napi(catch_unwind, getter, ts_return_type = "'flat' | 'table' | 'skeleton'")]
    pub fn mode(&self) -> &'static str {
        self.view().mode()
    }

    /// Each node's failure domain label in index order (`null` for none).
    #[napi(catch_unwind, getter, ts_return_type = "Array<string | Buffer | null>")]
    pub fn domains(&self, env: &Env) -> Result<Raw> {
        lookup::domains(Cx::of(env), self.view()).map(Raw).or_throw(env)
    }

    /// The owner of each key.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "keys: Array<string | Buffer | Uint8Array>",
        ts_return_type = "Array<string | Buffer>"
    )]
    pub fn owners(&self, env: &Env, keys: Unknown<'_>) -> Result<Raw> {
        crate::str_batch::owners(Cx::of(env), self.view(), keys.raw())
            .map(Raw)
            .or_throw(env)
    }

    /// `ownerIndices` on the thread pool: the inputs are copied, so they may
    /// be reused as soon as this returns.
    #[napi(
        catch_unwind,
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
        catch_unwind,
        ts_args_type = "keys: Array<string | Buffer | Uint8Array>",
        ts_return_type = "Promise<Array<string | Buffer>>"
    )]
    pub fn owners_async(&self, env: &Env, keys: Unknown<'_>) -> AsyncTask<OwnersTask> {
        AsyncTask::new(OwnersTask::keys(Cx::of(env), self.inner.clone(), keys.raw()))
    }
}
