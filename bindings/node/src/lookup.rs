//! The lookups shared by `Rendezvous` (on its current snapshot) and
//! `Snapshot`. Each converts arguments, calls `longstraw-set`, and converts
//! the answer back; none decides anything about placement.

use std::ptr;

use longstraw::PackedKeys;
use napi::sys;

use crate::error::{codes, JsErr, Kind, Res};
use crate::js::{Js, KeyBuf, OffsetsRef};
use crate::modes::View;

fn key_what() -> String {
    "key".into()
}

pub fn owner(js: Js, snap: View<'_>, key: sys::napi_value) -> Res<sys::napi_value> {
    let i = owner_index(js, snap, key)?;
    js.id(&snap.members().ids()[i as usize])
}

pub fn owner_index(js: Js, snap: View<'_>, key: sys::napi_value) -> Res<u32> {
    let mut buf = KeyBuf::default();
    let bytes = js.bytes(key, &mut buf, &key_what)?;
    Ok(snap.owner_index(bytes)?)
}

pub fn top_k(js: Js, snap: View<'_>, key: sys::napi_value, k: sys::napi_value) -> Res<sys::napi_value> {
    let mut buf = KeyBuf::default();
    let bytes = js.bytes(key, &mut buf, &key_what)?;
    let k = js.count(k, "k")?;
    ranked(js, snap, bytes, k, false)
}

pub fn top_k_distinct(js: Js, snap: View<'_>, key: sys::napi_value, k: sys::napi_value) -> Res<sys::napi_value> {
    let mut buf = KeyBuf::default();
    let bytes = js.bytes(key, &mut buf, &key_what)?;
    let k = js.count(k, "k")?;
    ranked(js, snap, bytes, k, true)
}

pub fn rank(js: Js, snap: View<'_>, key: sys::napi_value) -> Res<sys::napi_value> {
    let mut buf = KeyBuf::default();
    let bytes = js.bytes(key, &mut buf, &key_what)?;
    ranked(js, snap, bytes, snap.members().eligible(), false)
}

fn ranked(js: Js, snap: View<'_>, key: &[u8], k: usize, distinct: bool) -> Res<sys::napi_value> {
    const STACK: usize = 16;
    let want = k.min(snap.members().eligible());
    let mut stack = [0u32; STACK];
    let mut heap = Vec::new();
    let out: &mut [u32] = if want <= STACK {
        &mut stack[..want]
    } else {
        heap.resize(want, 0);
        &mut heap
    };
    let n = if distinct {
        snap.top_k_distinct_into(key, out)
    } else {
        snap.top_k_into(key, out)
    };
    let ids = snap.members().ids();
    js.array_of(out[..n].iter().map(|&i| js.id(&ids[i as usize])), n)
}

/// `owners(keys)`: the owner id of each key of an array.
pub fn owners(js: Js, snap: View<'_>, keys: sys::napi_value) -> Res<sys::napi_value> {
    crate::str_batch::owners(js, snap, keys)
}

/// JavaScript ids for node indices, creating each distinct id once.
pub fn ids_of(js: Js, snap: View<'_>, indices: &[u32]) -> Res<sys::napi_value> {
    let mut made: Vec<sys::napi_value> = vec![ptr::null_mut(); snap.members().len()];
    let ids = snap.members().ids();
    js.array_of(
        indices.iter().map(|&i| {
            let slot = &mut made[i as usize];
            if slot.is_null() {
                *slot = js.id(&ids[i as usize])?;
            }
            Ok(*slot)
        }),
        indices.len(),
    )
}

pub fn nodes(js: Js, snap: View<'_>) -> Res<sys::napi_value> {
    let members = snap.members();
    js.array_of(members.ids().iter().map(|id| js.id(id)), members.len())
}

/// Each node's failure domain label (as ids are returned), or `null`.
pub fn domains(js: Js, snap: View<'_>) -> Res<sys::napi_value> {
    let members = snap.members();
    js.array_of(
        members.domains().iter().map(|d| match d {
            Some(label) => js.id(label),
            None => js.null(),
        }),
        members.len(),
    )
}

pub fn has(js: Js, snap: View<'_>, node: sys::napi_value) -> Res<bool> {
    let mut buf = KeyBuf::default();
    let id = js.bytes(node, &mut buf, &|| "node".into())?;
    Ok(snap.members().contains(id))
}

/// `ownerIndices(bytes, offsets, out?)`: the zero-copy batch.
pub fn owner_indices(
    js: Js,
    snap: View<'_>,
    bytes: sys::napi_value,
    offsets: sys::napi_value,
    out: sys::napi_value,
) -> Res<sys::napi_value> {
    let key_bytes = js.byte_array(bytes, &|| "bytes".into())?;
    let offs = js.offsets(offsets, &|| "offsets".into())?;
    let count = match &offs {
        OffsetsRef::U32(o) => o.len(),
        OffsetsRef::U64(o) => o.len(),
    }
    .saturating_sub(1);
    let (result, slots) = if js.type_of(out)? == crate::js::JsType::Undefined {
        js.new_u32_array(count)?
    } else {
        let slots = js.u32_array_mut(out, &|| "out".into())?;
        if slots.len() != count {
            return Err(JsErr::new(
                Kind::Range,
                codes::LENGTH_MISMATCH,
                format!("out has {} elements but the batch has {count} keys", slots.len()),
            ));
        }
        let offsets_bytes = match &offs {
            OffsetsRef::U32(o) => as_bytes(o),
            OffsetsRef::U64(o) => as_bytes(o),
        };
        if Js::overlaps(key_bytes, slots) || Js::overlaps(offsets_bytes, slots) {
            return Err(JsErr::new(
                Kind::Range,
                codes::ALIASED_OUTPUT,
                "out shares memory with bytes or offsets; pass a separate Uint32Array",
            ));
        }
        (out, slots)
    };
    match offs {
        OffsetsRef::U32(o) => snap.owners_into(&PackedKeys::new(key_bytes, o)?, slots)?,
        OffsetsRef::U64(o) => snap.owners_into(&PackedKeys::new(key_bytes, o)?, slots)?,
    }
    Ok(result)
}

fn as_bytes<T: Copy>(s: &[T]) -> &[u8] {
    // SAFETY: u32 and u64 have no padding; any initialised value is valid bytes.
    unsafe { std::slice::from_raw_parts(s.as_ptr().cast(), std::mem::size_of_val(s)) }
}
