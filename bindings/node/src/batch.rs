//! Batch lookups that run on the libuv thread pool, so that a large batch
//! does not hold up the event loop. Arguments are read and copied on the
//! JavaScript thread (strings can only be read there); the hashing runs off
//! it; the answer is converted back on the JavaScript thread.

use longstraw::PackedKeys;
use napi::bindgen_prelude::*;
use napi::sys;

use crate::alloc;
use crate::error::{JsErr, Res};
use crate::lookup;
use std::sync::Arc;

use crate::node_api::args::{self, OffsetsRef};
use crate::node_api::out::Raw;
use crate::node_api::strings::KeyBuf;
use crate::node_api::{out, Cx};
use crate::snapshot::Snapshot;
use longstraw_set::Snapshot as SetSnapshot;

/// What the promise resolves to.
#[derive(Clone, Copy)]
pub enum Answer {
    /// A Uint32Array of node indices into the snapshot's `nodes`.
    Indices,
    /// `{ indices, snapshot }`: the indices and the snapshot they index.
    IndicesWithSnapshot,
    /// An array of node ids.
    Ids,
}

/// One batch: keys packed as bytes + offsets, copied from JavaScript.
pub struct OwnersTask {
    snap: Arc<SetSnapshot>,
    bytes: Vec<u8>,
    offsets: Vec<u64>,
    answer: Answer,
    /// An argument error found on the JavaScript thread, delivered as the
    /// promise's rejection rather than thrown synchronously.
    failed: Option<JsErr>,
}

impl OwnersTask {
    fn failed(snap: Arc<SetSnapshot>, answer: Answer, e: JsErr) -> OwnersTask {
        OwnersTask {
            snap,
            bytes: Vec::new(),
            offsets: Vec::new(),
            answer,
            failed: Some(e),
        }
    }

    /// From `(bytes, offsets)` typed arrays.
    pub fn packed(
        cx: Cx,
        snap: Arc<SetSnapshot>,
        bytes: sys::napi_value,
        offsets: sys::napi_value,
        answer: Answer,
    ) -> OwnersTask {
        let read = || -> Res<(Vec<u8>, Vec<u64>)> {
            let key_bytes = args::byte_array(cx, bytes, &|| "bytes".into())?;
            let offsets: Vec<u64> = match args::offsets(cx, offsets, &|| "offsets".into())? {
                OffsetsRef::U32(o) => {
                    PackedKeys::new(key_bytes, o)?;
                    let mut wide = alloc::filled(o.len(), 0u64, "key offsets")?;
                    wide.iter_mut().zip(o).for_each(|(w, &x)| *w = u64::from(x));
                    wide
                }
                OffsetsRef::U64(o) => {
                    PackedKeys::new(key_bytes, o)?;
                    let mut copy = Vec::new();
                    alloc::extend(&mut copy, o, "key offsets")?;
                    copy
                }
            };
            let mut copy = Vec::new();
            alloc::extend(&mut copy, key_bytes, "key bytes")?;
            Ok((copy, offsets))
        };
        match read() {
            Ok((bytes, offsets)) => OwnersTask {
                snap,
                bytes,
                offsets,
                answer,
                failed: None,
            },
            Err(e) => OwnersTask::failed(snap, answer, e),
        }
    }

    /// From an array of keys (strings, Buffers, Uint8Arrays).
    pub fn keys(cx: Cx, snap: Arc<SetSnapshot>, keys: sys::napi_value) -> OwnersTask {
        let read = || -> Res<(Vec<u8>, Vec<u64>)> {
            let items = args::array(cx, keys, &|| "keys".into())?;
            let mut buf = KeyBuf::default();
            let mut bytes = Vec::new();
            let mut offsets = vec![0u64];
            for at in 0..items.len() {
                let key = args::bytes(cx, items.get(at)?, &mut buf, &|| format!("keys[{at}]"))?;
                alloc::extend(&mut bytes, key, "key bytes")?;
                alloc::push(&mut offsets, bytes.len() as u64, "key offsets")?;
            }
            Ok((bytes, offsets))
        };
        match read() {
            Ok((bytes, offsets)) => OwnersTask {
                snap,
                bytes,
                offsets,
                answer: Answer::Ids,
                failed: None,
            },
            Err(e) => OwnersTask::failed(snap, Answer::Ids, e),
        }
    }

    fn run(&self) -> Res<Vec<u32>> {
        let keys = PackedKeys::new(&self.bytes, &self.offsets)?;
        let mut out = alloc::filled(keys.len(), 0u32, "owner indices")?;
        self.snap.owners_into(&keys, &mut out)?;
        Ok(out)
    }

    fn answer(&self, cx: Cx, env: &Env, indices: &[u32]) -> Res<sys::napi_value> {
        match self.answer {
            Answer::Ids => lookup::ids_of(cx, &self.snap, indices),
            Answer::Indices => {
                let (array, slots) = out::new_u32_array(cx, indices.len())?;
                slots.copy_from_slice(indices);
                out::publish(cx, array, indices.len())?;
                Ok(array)
            }
            Answer::IndicesWithSnapshot => {
                let (array, slots) = out::new_u32_array(cx, indices.len())?;
                slots.copy_from_slice(indices);
                out::publish(cx, array, indices.len())?;
                let snapshot = Snapshot::from_shared(env.raw(), self.snap.clone());
                let snapshot = out::instance(cx, snapshot)?;
                with_snapshot(cx, array, snapshot)
            }
        }
    }
}

/// `{ indices, snapshot }`.
pub fn with_snapshot(cx: Cx, indices: sys::napi_value, snapshot: sys::napi_value) -> Res<sys::napi_value> {
    out::object(cx, &[(c"indices", indices), (c"snapshot", snapshot)])
}

/// Rejects the promise with the JavaScript error object for `e` (a
/// TypeError or RangeError keeps its constructor and `code`).
pub(crate) fn reject_with(env: &Env, e: JsErr) -> napi::Error {
    out::rejection(Cx::of(env), &e)
}

impl Task for OwnersTask {
    type Output = Vec<u32>;
    type JsValue = Raw;

    fn compute(&mut self) -> napi::Result<Vec<u32>> {
        if self.failed.is_some() {
            return Err(napi::Error::from_reason("argument error"));
        }
        self.run().map_err(|e| {
            let reason = e.message.clone();
            self.failed = Some(e);
            napi::Error::from_reason(reason)
        })
    }

    fn resolve(&mut self, env: Env, output: Vec<u32>) -> napi::Result<Raw> {
        let cx = Cx::of(&env);
        self.answer(cx, &env, &output)
            .map(Raw)
            .map_err(|e| reject_with(&env, e))
    }

    fn reject(&mut self, env: Env, err: napi::Error) -> napi::Result<Raw> {
        match self.failed.take() {
            Some(e) => Err(reject_with(&env, e)),
            None => Err(err),
        }
    }
}
