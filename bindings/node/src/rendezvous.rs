//! `Rendezvous`: the mutable node set. Every lookup runs on the snapshot
//! current at the time of the call.

use longstraw_set::{Options, Rendezvous as SetRendezvous};
use napi::bindgen_prelude::*;
use napi::sys;
use napi_derive::napi;

use crate::batch::{self, Answer, OwnersTask};
use crate::error::{codes, JsErr, Kind, OrThrow, Res};
use crate::js::{Js, JsType, KeyBuf};
use crate::lookup;
use crate::raw::Raw;
use crate::snapshot::{js, Snapshot};

const OPTION_NAMES: [&str; 3] = ["weights", "seed", "placement"];

/// A set of nodes that places keys by rendezvous hashing (placement v1 by
/// default), with the same answers as every other longstraw binding.
#[napi]
pub struct Rendezvous {
    inner: SetRendezvous,
}

impl Rendezvous {
    /// The membership lookups run on: the snapshot current now.
    pub fn current(&self) -> arc_swap::Guard<std::sync::Arc<longstraw_set::Snapshot>> {
        self.inner.load()
    }
}

fn node_what(at: usize) -> impl Fn() -> String {
    move || format!("nodes[{at}]")
}

fn construct(js: Js, nodes: sys::napi_value, options: sys::napi_value) -> Res<SetRendezvous> {
    let items = js.array(nodes, &|| "nodes".into())?;
    let mut ids = Vec::with_capacity(items.len());
    let mut buf = KeyBuf::default();
    for (at, &item) in items.iter().enumerate() {
        ids.push(js.bytes(item, &mut buf, &node_what(at))?.to_vec());
    }
    let mut opts = Options::default();
    let mut weights = vec![1.0; ids.len()];
    match js.type_of(options)? {
        JsType::Undefined => {}
        JsType::Object if !js.is_array(options)? => {
            for name in js.property_names(options)? {
                if !OPTION_NAMES.contains(&name.as_str()) {
                    return Err(JsErr::new(
                        Kind::Type,
                        codes::INVALID_OPTION,
                        format!("unknown option {name:?} (known: weights, seed, placement)"),
                    ));
                }
            }
            opts.seed = js.seed(js.get(options, c"seed")?)?;
            opts.placement = js.placement(js.get(options, c"placement")?)?;
            let w = js.get(options, c"weights")?;
            if js.type_of(w)? != JsType::Undefined {
                let given = js.array(w, &|| "options.weights".into())?;
                if given.len() != ids.len() {
                    return Err(JsErr::new(
                        Kind::Range,
                        codes::LENGTH_MISMATCH,
                        format!(
                            "options.weights has {} entries but nodes has {}",
                            given.len(),
                            ids.len()
                        ),
                    ));
                }
                for (at, (&v, slot)) in given.iter().zip(&mut weights).enumerate() {
                    let what = || format!("options.weights[{at}]");
                    *slot = js.weight(v, &what)?;
                    longstraw::validate_weight(*slot).map_err(|e| JsErr::from(e).context(what()))?;
                }
            }
        }
        _ => return Err(js.wrong_type(options, &|| "options".into(), "an object")),
    }
    Ok(SetRendezvous::with_weights(ids.iter().zip(weights), opts)?)
}

fn node_id(js: Js, node: sys::napi_value, buf: &mut KeyBuf) -> Res<Vec<u8>> {
    Ok(js.bytes(node, buf, &|| "node".into())?.to_vec())
}

#[napi]
impl Rendezvous {
    /// `new Rendezvous(nodes, { weights, seed, placement })`.
    ///
    /// `nodes`: ids as strings (UTF-8), Buffers or Uint8Arrays. `weights`: one
    /// number per node (default 1; 0 drains a node). `seed`: a safe-integer
    /// number or a bigint below 2^64 (default 0). `placement`: 1.
    #[napi(
        catch_unwind,
        catch_unwind,
        constructor,
        ts_args_type = "nodes: Array<string | Buffer | Uint8Array>, options?: { weights?: number[]; seed?: number | bigint; placement?: number }"
    )]
    pub fn new(env: &Env, nodes: Unknown<'_>, options: Unknown<'_>) -> Result<Self> {
        construct(js(env), nodes.raw(), options.raw())
            .map(|inner| Rendezvous { inner })
            .or_throw(env)
    }

    /// Adds a node (weight 1 unless given).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array, weight?: number")]
    pub fn add(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        let js = js(env);
        let run = || -> Res<()> {
            let id = node_id(js, node.raw(), &mut KeyBuf::default())?;
            let w = match js.type_of(weight.raw())? {
                JsType::Undefined => 1.0,
                _ => js.weight(weight.raw(), &|| "weight".into())?,
            };
            Ok(self.inner.add(&id, w)?)
        };
        run().or_throw(env)
    }

    /// Removes a node.
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array")]
    pub fn remove(&self, env: &Env, node: Unknown<'_>) -> Result<()> {
        let js = js(env);
        let run = || -> Res<()> {
            let id = node_id(js, node.raw(), &mut KeyBuf::default())?;
            Ok(self.inner.remove(&id)?)
        };
        run().or_throw(env)
    }

    /// Changes a node's weight (0 drains it: it keeps its index but owns nothing).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array, weight: number")]
    pub fn set_weight(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        let js = js(env);
        let run = || -> Res<()> {
            let id = node_id(js, node.raw(), &mut KeyBuf::default())?;
            let w = js.weight(weight.raw(), &|| "weight".into())?;
            Ok(self.inner.set_weight(&id, w)?)
        };
        run().or_throw(env)
    }

    /// The current membership, frozen. Use it to keep indices and ids together.
    #[napi(catch_unwind)]
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::from_arc(self.inner.snapshot())
    }

    /// How many nodes, including drained ones.
    #[napi(catch_unwind, getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// Node ids in index order.
    #[napi(catch_unwind, getter, ts_return_type = "Array<string | Buffer>")]
    pub fn nodes(&self, env: &Env) -> Result<Raw> {
        lookup::nodes(js(env), &self.inner.load()).map(Raw).or_throw(env)
    }

    /// Weights in index order.
    #[napi(catch_unwind, getter)]
    pub fn weights(&self) -> Vec<f64> {
        self.inner.load().weights().to_vec()
    }

    /// The seed, as a bigint.
    #[napi(catch_unwind, getter)]
    pub fn seed(&self) -> BigInt {
        BigInt::from(self.inner.load().seed())
    }

    /// The placement version.
    #[napi(catch_unwind, getter)]
    pub fn placement(&self) -> u32 {
        self.inner.load().placement().number()
    }

    /// The kernel lookups run on.
    #[napi(catch_unwind, getter)]
    pub fn backend(&self) -> &'static str {
        self.inner.load().backend().name()
    }

    /// Whether a node with this id is in the set.
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array")]
    pub fn has(&self, env: &Env, node: Unknown<'_>) -> Result<bool> {
        lookup::has(js(env), &self.inner.load(), node.raw()).or_throw(env)
    }

    /// The node that owns `key`.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "key: string | Buffer | Uint8Array",
        ts_return_type = "string | Buffer"
    )]
    pub fn owner(&self, env: &Env, key: Unknown<'_>) -> Result<Raw> {
        lookup::owner(js(env), &self.inner.load(), key.raw())
            .map(Raw)
            .or_throw(env)
    }

    /// The best `k` eligible nodes for `key`, best first.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "key: string | Buffer | Uint8Array, k: number",
        ts_return_type = "Array<string | Buffer>"
    )]
    pub fn top_k(&self, env: &Env, key: Unknown<'_>, k: Unknown<'_>) -> Result<Raw> {
        lookup::top_k(js(env), &self.inner.load(), key.raw(), k.raw())
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
        lookup::rank(js(env), &self.inner.load(), key.raw())
            .map(Raw)
            .or_throw(env)
    }

    /// The owner of each key.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "keys: Array<string | Buffer | Uint8Array>",
        ts_return_type = "Array<string | Buffer>"
    )]
    pub fn owners(&self, env: &Env, keys: Unknown<'_>) -> Result<Raw> {
        lookup::owners(js(env), &self.inner.load(), keys.raw())
            .map(Raw)
            .or_throw(env)
    }

    /// Zero-copy batch over the current snapshot. Returns `{ indices, snapshot }`:
    /// `indices[i]` is a position in `snapshot.nodes`, whatever changes later.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array",
        ts_return_type = "{ indices: Uint32Array; snapshot: Snapshot }"
    )]
    pub fn owner_indices(&self, env: &Env, bytes: Unknown<'_>, offsets: Unknown<'_>) -> Result<Raw> {
        let js = js(env);
        let snap = self.inner.snapshot();
        let run = || -> Res<sys::napi_value> {
            let mut undefined = std::ptr::null_mut();
            // SAFETY: fetches the `undefined` singleton of this environment.
            unsafe { sys::napi_get_undefined(js.env, &mut undefined) };
            let indices = lookup::owner_indices(js, &snap, bytes.raw(), offsets.raw(), undefined)?;
            // SAFETY: `env` is the live environment of this call.
            let snapshot = unsafe { Snapshot::to_napi_value(env.raw(), Snapshot::from_arc(snap.clone())) }
                .map_err(|e| JsErr::new(Kind::Error, codes::INTERNAL, e.reason))?;
            batch::with_snapshot(js, indices, snapshot)
        };
        run().map(Raw).or_throw(env)
    }

    /// `ownerIndices` on the thread pool; resolves to `{ indices, snapshot }`.
    #[napi(
        catch_unwind,
        catch_unwind,
        ts_args_type = "bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array",
        ts_return_type = "Promise<{ indices: Uint32Array; snapshot: Snapshot }>"
    )]
    pub fn owner_indices_async(&self, env: &Env, bytes: Unknown<'_>, offsets: Unknown<'_>) -> AsyncTask<OwnersTask> {
        AsyncTask::new(OwnersTask::packed(
            js(env),
            self.inner.snapshot(),
            bytes.raw(),
            offsets.raw(),
            Answer::IndicesWithSnapshot,
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
        AsyncTask::new(OwnersTask::keys(js(env), self.inner.snapshot(), keys.raw()))
    }
}
