//! The bodies of the methods `Rendezvous`, `Table` and `Skeleton` share:
//! membership changes on the set, lookups on its current snapshot. Each
//! class's `#[napi]` methods convert nothing themselves and call these.

use longstraw_set::{Rendezvous, Result as SetResult, Skeleton, Table};
use napi::bindgen_prelude::*;
use napi::sys;

use crate::batch::{self, Answer, OwnersTask};
use crate::error::{codes, JsErr, Kind, Res};
use crate::modes::{Current, Shared, View};
use crate::node_api::strings::KeyBuf;
use crate::node_api::{args, methods, out, Cx};
use crate::snapshot::Snapshot;

/// A node set JavaScript can change.
pub trait Members: Current {
    fn add_node(&self, id: &[u8], weight: f64, domain: Option<&[u8]>) -> SetResult<()>;
    fn remove_node(&self, id: &[u8]) -> SetResult<()>;
    fn reweight(&self, id: &[u8], weight: f64) -> SetResult<()>;
    fn relabel(&self, id: &[u8], domain: Option<&[u8]>) -> SetResult<()>;
}

macro_rules! members {
    ($set:ty, $mode:ident) => {
        impl Members for $set {
            fn add_node(&self, id: &[u8], weight: f64, domain: Option<&[u8]>) -> SetResult<()> {
                match domain {
                    Some(d) => self.add_in_domain(id, weight, d),
                    None => self.add(id, weight),
                }
            }
            fn remove_node(&self, id: &[u8]) -> SetResult<()> {
                self.remove(id)
            }
            fn reweight(&self, id: &[u8], weight: f64) -> SetResult<()> {
                self.set_weight(id, weight)
            }
            fn relabel(&self, id: &[u8], domain: Option<&[u8]>) -> SetResult<()> {
                self.set_domain(id, domain)
            }
        }

        impl Current for $set {
            fn with_view<R>(&self, f: impl FnOnce(View<'_>) -> R) -> R {
                let guard = self.load();
                f(View::$mode(&guard))
            }
            fn shared(&self) -> Shared {
                Shared::$mode(self.snapshot())
            }
        }
    };
}

members!(Rendezvous, Flat);
members!(Table, Table);
members!(Skeleton, Skeleton);

fn node_id(cx: Cx, node: sys::napi_value) -> Res<Vec<u8>> {
    Ok(args::bytes(cx, node, &mut KeyBuf::default(), &|| "node".into())?.to_vec())
}

/// `add(node, weight?)`.
pub fn add(cx: Cx, set: &impl Members, node: sys::napi_value, weight: sys::napi_value) -> Res<()> {
    let id = node_id(cx, node)?;
    let w = args::weight_or_one(cx, weight, &|| "weight".into())?;
    Ok(set.add_node(&id, w, None)?)
}

/// `addInDomain(node, domain, weight?)`.
pub fn add_in_domain(
    cx: Cx,
    set: &impl Members,
    node: sys::napi_value,
    domain: sys::napi_value,
    weight: sys::napi_value,
) -> Res<()> {
    let id = node_id(cx, node)?;
    let label = args::domain(cx, domain, &|| "domain".into())?
        .ok_or_else(|| args::wrong_type(cx, domain, &|| "domain".into(), "a string, Buffer or Uint8Array"))?;
    let w = args::weight_or_one(cx, weight, &|| "weight".into())?;
    Ok(set.add_node(&id, w, Some(&label))?)
}

/// `remove(node)`.
pub fn remove(cx: Cx, set: &impl Members, node: sys::napi_value) -> Res<()> {
    Ok(set.remove_node(&node_id(cx, node)?)?)
}

/// `setWeight(node, weight)`.
pub fn set_weight(cx: Cx, set: &impl Members, node: sys::napi_value, weight: sys::napi_value) -> Res<()> {
    let id = node_id(cx, node)?;
    let w = args::weight(cx, weight, &|| "weight".into())?;
    Ok(set.reweight(&id, w)?)
}

/// `setDomain(node, domain | null)`.
pub fn set_domain(cx: Cx, set: &impl Members, node: sys::napi_value, domain: sys::napi_value) -> Res<()> {
    let id = node_id(cx, node)?;
    let label = args::domain(cx, domain, &|| "domain".into())?;
    Ok(set.relabel(&id, label.as_deref())?)
}

/// `snapshot()`.
pub fn snapshot(env: sys::napi_env, set: &impl Current) -> Snapshot {
    Snapshot::from_shared(env, set.shared())
}

/// `ownerIndices(bytes, offsets)` on the current snapshot: `{ indices, snapshot }`.
pub fn owner_indices(
    cx: Cx,
    set: &impl Current,
    bytes: sys::napi_value,
    offsets: sys::napi_value,
) -> Res<sys::napi_value> {
    let snap = set.shared();
    let indices = methods::owner_indices_into(cx, snap.view(), bytes, offsets, out::undefined(cx)?)?;
    // SAFETY: `cx.0` is the live environment of this call.
    let snapshot = unsafe { Snapshot::to_napi_value(cx.0, Snapshot::from_shared(cx.0, snap)) }
        .map_err(|e| JsErr::new(Kind::Error, codes::INTERNAL, e.reason))?;
    batch::with_snapshot(cx, indices, snapshot)
}

/// `ownerIndicesAsync(bytes, offsets)`.
pub fn owner_indices_async(
    cx: Cx,
    set: &impl Current,
    bytes: sys::napi_value,
    offsets: sys::napi_value,
) -> AsyncTask<OwnersTask> {
    AsyncTask::new(OwnersTask::packed(
        cx,
        set.shared(),
        bytes,
        offsets,
        Answer::IndicesWithSnapshot,
    ))
}

/// `ownersAsync(keys)`.
pub fn owners_async(cx: Cx, set: &impl Current, keys: sys::napi_value) -> AsyncTask<OwnersTask> {
    AsyncTask::new(OwnersTask::keys(cx, set.shared(), keys))
}
