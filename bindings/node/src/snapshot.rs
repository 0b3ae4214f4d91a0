//! `Snapshot`: one immutable membership. Node indices returned by its batch
//! calls are positions in its `nodes`, which never change.

use std::sync::Arc;

use longstraw_set::Snapshot as SetSnapshot;
use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::batch::{Answer, OwnersTask};
use crate::error::OrThrow;
use crate::js::Js;
use crate::lookup;
use crate::raw::Raw;

/// One immutable membership of a `Rendezvous`, as of the moment
/// `rendezvous.snapshot()` was called. Later changes to the set do not affect
/// it, so indices from `ownerIndices()` always refer to `snapshot.nodes`.
#[napi]
pub struct Snapshot {
    inner: Arc<SetSnapshot>,
}

impl Snapshot {
    pub fn from_arc(inner: Arc<SetSnapshot>) -> Snapshot {
        Snapshot { inner }
    }

    /// The membership lookups run on.
    pub fn current(&self) -> &SetSnapshot {
        &self.inner
    }
}

#[napi]
impl Snapshot {
    /// Snapshots come from `rendezvous.snapshot()`; this constructor always
    /// throws a TypeError (code `ERR_LONGSTRAW_INVALID_ARG_TYPE`).
    #[napi(catch_unwind, constructor)]
    pub fn new(env: &Env) -> Result<Self> {
        Err(
            crate::error::JsErr::type_error("Snapshot cannot be constructed directly; call rendezvous.snapshot()")
                .throw(env),
        )
    }

    /// How many nodes, including drained (weight 0) ones.
    #[napi(catch_unwind, getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// How many nodes have a non-zero weight.
    #[napi(catch_unwind, getter)]
    pub fn eligible(&self) -> u32 {
        self.inner.eligible() as u32
    }

    /// Node ids in index order (strings; Buffers for ids that are not UTF-8).
    #[napi(catch_unwind, getter, ts_return_type = "Array<string | Buffer>")]
    pub fn nodes(&self, env: &Env) -> Result<Raw> {
        lookup::nodes(js(env), &self.inner).map(Raw).or_throw(env)
    }

    /// Weights in index order.
    #[napi(catch_unwind, getter)]
    pub fn weights(&self) -> Vec<f64> {
        self.inner.weights().to_vec()
    }

    /// The seed, as a bigint.
    #[napi(catch_unwind, getter)]
    pub fn seed(&self) -> BigInt {
        BigInt::from(self.inner.seed())
    }

    /// The placement version.
    #[napi(catch_unwind, getter)]
    pub fn placement(&self) -> u32 {
        self.inner.placement().number()
    }

    /// Increases by one with every change published by the set.
    #[napi(catch_unwind, getter)]
    pub fn generation(&self) -> i64 {
        self.inner.generation() as i64
    }

    /// The kernel lookups run on (`scalar`, `avx2`, ...).
    #[napi(catch_unwind, getter)]
    pub fn backend(&self) -> &'static str {
        self.inner.backend().name()
    }

    /// Whether a node with this id is in the snapshot.
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array")]
    pub fn has(&self, env: &Env, node: Unknown<'_>) -> Result<bool> {
        lookup::has(js(env), &self.inner, node.raw()).or_throw(env)
    }

    /// The node that owns `key`.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "key: string | Buffer | Uint8Array",
        ts_return_type = "string | Buffer"
    )]
    pub fn owner(&self, env: &Env, key: Unknown<'_>) -> Result<Raw> {
        lookup::owner(js(env), &self.inner, key.raw()).map(Raw).or_throw(env)
    }

    /// The index in `nodes` of the node that owns `key`.
    #[napi(catch_unwind, ts_args_type = "key: string | Buffer | Uint8Array")]
    pub fn owner_index(&self, env: &Env, key: Unknown<'_>) -> Result<u32> {
        lookup::owner_index(js(env), &self.inner, key.raw()).or_throw(env)
    }

    /// The best `k` eligible nodes for `key`, best first.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "key: string | Buffer | Uint8Array, k: number",
        ts_return_type = "Array<string | Buffer>"
    )]
    pub fn top_k(&self, env: &Env, key: Unknown<'_>, k: Unknown<'_>) -> Result<Raw> {
        lookup::top_k(js(env), &self.inner, key.raw(), k.raw())
            .map(Raw)
            .or_throw(env)
    }

    /// Every eligible node for `key`, best first.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "key: string | Buffer | Uint8Array",
        ts_return_type = "Array<string | Buffer>"
    )]
    pub fn rank(&self, env: &Env, key: Unknown<'_>) -> Result<Raw> {
        lookup::rank(js(env), &self.inner, key.raw()).map(Raw).or_throw(env)
    }

    /// The owner of each key.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "keys: Array<string | Buffer | Uint8Array>",
        ts_return_type = "Array<string | Buffer>"
    )]
    pub fn owners(&self, env: &Env, keys: Unknown<'_>) -> Result<Raw> {
        lookup::owners(js(env), &self.inner, keys.raw()).map(Raw).or_throw(env)
    }

    /// Zero-copy batch: key `i` is `bytes[offsets[i]..offsets[i + 1]]`. Returns
    /// (or fills `out` with) the index in `nodes` of each key's owner.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array, out?: Uint32Array",
        ts_return_type = "Uint32Array"
    )]
    pub fn owner_indices(&self, env: &Env, bytes: Unknown<'_>, offsets: Unknown<'_>, out: Unknown<'_>) -> Result<Raw> {
        lookup::owner_indices(js(env), &self.inner, bytes.raw(), offsets.raw(), out.raw())
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
            js(env),
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
        AsyncTask::new(OwnersTask::keys(js(env), self.inner.clone(), keys.raw()))
    }
}

pub fn js(env: &Env) -> Js {
    Js { env: env.raw() }
}
