//! `BoundedLoad` and `Lease`: bounded loads (SPEC.md §16) over
//! `longstraw_set::BoundedLoad`. Conversions only.

use std::sync::{Arc, Mutex};

use longstraw_set::{BoundedLoad as Set, OwnedLease as SetLease, DEFAULT_BALANCE_FACTOR};
use napi::bindgen_prelude::*;
use napi::sys;
use napi_derive::napi;

use crate::construct;
use crate::error::{codes, JsErr, Kind, OrThrow, Res};
use crate::node_api::out::Raw;
use crate::node_api::strings::KeyBuf;
use crate::node_api::types::{self, JsType};
use crate::node_api::{args, new_target, out, Cx};

/// Nodes that each take at most `ceil(balanceFactor * (inFlight + 1) *
/// weight / totalWeight)` requests at once (SPEC.md section 16). `acquire`
/// returns the key's owner whenever the owner has room, and otherwise the
/// next node of the key's ranking with room.
#[napi]
pub struct BoundedLoad {
    inner: Set,
}

/// One request in flight: `node` is where to send it; `release()` ends it
/// (again does nothing). A lease that is garbage-collected unreleased is
/// released then.
#[napi]
pub struct Lease {
    inner: Mutex<Option<SetLease>>,
    node: Arc<[u8]>,
    is_owner: bool,
}

fn construct(cx: Cx, nodes: sys::napi_value, options: sys::napi_value) -> Res<Set> {
    let mut factor = DEFAULT_BALANCE_FACTOR;
    let given = construct::read(cx, nodes, options, &["balanceFactor"], |o| {
        let v = args::get(cx, o, c"balanceFactor")?;
        if types::type_of(cx, v)? != JsType::Undefined {
            factor = args::weight(cx, v, &|| "options.balanceFactor".into())?;
        }
        Ok(())
    })?;
    if given.domains.is_some() {
        return Err(JsErr::new(
            Kind::Type,
            codes::INVALID_OPTION,
            "options.domains is not an option of BoundedLoad",
        ));
    }
    Ok(Set::with_weights(
        given.ids.iter().zip(given.weights.iter().copied()),
        given.set,
        factor,
    )?)
}

fn node_id(cx: Cx, node: sys::napi_value) -> Res<Vec<u8>> {
    Ok(args::bytes(cx, node, &mut KeyBuf::default(), &|| "node".into())?.to_vec())
}

#[napi]
impl BoundedLoad {
    /// `new BoundedLoad(nodes, { balanceFactor, weights, seed, placement, secret })`.
    ///
    /// `balanceFactor`: c, finite and at least 1 + 2^-16 (default 1.25).
    /// The other options are those of `Rendezvous` (no `domains`).
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "nodes: Array<string | Buffer | Uint8Array>, options?: Omit<SetOptions, 'domains'> & { balanceFactor?: number }"
    )]
    pub fn new(env: &Env, this: This<'_>, nodes: Unknown<'_>, options: Unknown<'_>) -> Result<Self> {
        new_target::require_new(Cx::of(env), this.object.raw(), c"BoundedLoad").or_throw(env)?;
        construct(Cx::of(env), nodes.raw(), options.raw())
            .map(|inner| BoundedLoad { inner })
            .or_throw(env)
    }

    /// Places one request for `key`; call `release()` on the result when the
    /// request is over. Throws `ERR_LONGSTRAW_NO_ELIGIBLE_NODE` when no node
    /// has a non-zero weight.
    #[napi(catch_unwind, ts_args_type = "key: string | Buffer | Uint8Array")]
    pub fn acquire(&self, env: &Env, key: Unknown<'_>) -> Result<Lease> {
        let cx = Cx::of(env);
        let acquired = (|| -> Res<SetLease> {
            let mut buf = KeyBuf::default();
            let bytes = args::bytes(cx, key.raw(), &mut buf, &|| "key".into())?;
            Ok(self.inner.acquire_owned(bytes)?)
        })()
        .or_throw(env)?;
        Ok(Lease {
            node: acquired.node_id_shared(),
            is_owner: acquired.is_owner(),
            inner: Mutex::new(Some(acquired)),
        })
    }

    /// The requests in flight on every current node, as `[node, count]`
    /// pairs. Requests on nodes removed since they started count in
    /// `inFlight` only.
    #[napi(catch_unwind, ts_return_type = "Array<[string | Buffer, number]>")]
    pub fn loads(&self, env: &Env) -> Result<Raw> {
        let cx = Cx::of(env);
        let loads = self.inner.loads();
        out::array_of(
            cx,
            loads
                .iter()
                .map(|(id, load)| out::array_of(cx, [out::id(cx, id), out::number(cx, *load as f64)].into_iter(), 2)),
            loads.len(),
        )
        .map(Raw)
        .or_throw(env)
    }

    /// Requests in flight, including those on removed nodes.
    #[napi(getter)]
    pub fn in_flight(&self) -> f64 {
        self.inner.in_flight() as f64
    }

    /// The balance factor c.
    #[napi(getter)]
    pub fn balance_factor(&self) -> f64 {
        self.inner.balance_factor()
    }

    /// Adds a node (weight 1 unless given).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array, weight?: number")]
    pub fn add(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        let cx = Cx::of(env);
        (|| -> Res<()> {
            let id = node_id(cx, node.raw())?;
            let w = args::weight_or_one(cx, weight.raw(), &|| "weight".into())?;
            Ok(self.inner.add(&id, w)?)
        })()
        .or_throw(env)
    }

    /// Removes a node; its leases stay valid and release normally.
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array")]
    pub fn remove(&self, env: &Env, node: Unknown<'_>) -> Result<()> {
        let cx = Cx::of(env);
        (|| -> Res<()> { Ok(self.inner.remove(node_id(cx, node.raw())?)?) })().or_throw(env)
    }

    /// Changes a node's weight; 0 drains it (no new requests, its leases run out).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array, weight: number")]
    pub fn set_weight(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        let cx = Cx::of(env);
        (|| -> Res<()> {
            let id = node_id(cx, node.raw())?;
            let w = args::weight(cx, weight.raw(), &|| "weight".into())?;
            Ok(self.inner.set_weight(id, w)?)
        })()
        .or_throw(env)
    }
}

#[napi]
impl Lease {
    /// The node to send the request to.
    #[napi(getter, ts_return_type = "string | Buffer")]
    pub fn node(&self, env: &Env) -> Result<Raw> {
        out::id(Cx::of(env), &self.node).map(Raw).or_throw(env)
    }

    /// Whether the node is the key's owner (the owner had room).
    #[napi(getter)]
    pub fn is_owner(&self) -> bool {
        self.is_owner
    }

    /// Whether the request is still in flight.
    #[napi(getter)]
    pub fn active(&self) -> bool {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).is_some()
    }

    /// Ends the request. Releasing again does nothing.
    #[napi]
    pub fn release(&self) {
        let lease = self.inner.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(lease);
    }
}
