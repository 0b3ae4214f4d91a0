//! Answers built from a snapshot of any mode: ranked ids, node lists and
//! domain labels. Shared by the per-key methods (`node_api::methods`), the
//! sets' getters and the batches; none decides anything about placement.

use std::ptr;

use napi::sys;

use crate::error::Res;
use crate::modes::View;
use crate::node_api::{out, Cx};

/// The ids of the best `k` nodes for `key` (at most one per domain when `distinct`).
pub fn ranked(cx: Cx, snap: View<'_>, key: &[u8], k: usize, distinct: bool) -> Res<sys::napi_value> {
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
    out::array_of(cx, out[..n].iter().map(|&i| out::id(cx, &ids[i as usize])), n)
}

/// JavaScript ids for node indices, creating each distinct id once.
pub fn ids_of(cx: Cx, snap: View<'_>, indices: &[u32]) -> Res<sys::napi_value> {
    let mut made: Vec<sys::napi_value> = vec![ptr::null_mut(); snap.members().len()];
    let ids = snap.members().ids();
    out::array_of(
        cx,
        indices.iter().map(|&i| {
            let slot = &mut made[i as usize];
            if slot.is_null() {
                *slot = out::id(cx, &ids[i as usize])?;
            }
            Ok(*slot)
        }),
        indices.len(),
    )
}

/// Node ids in index order.
pub fn nodes(cx: Cx, snap: View<'_>) -> Res<sys::napi_value> {
    let members = snap.members();
    out::array_of(cx, members.ids().iter().map(|id| out::id(cx, id)), members.len())
}

/// Each node's failure domain label (as ids are returned), or `null`.
pub fn domains(cx: Cx, snap: View<'_>) -> Res<sys::napi_value> {
    let members = snap.members();
    out::array_of(
        cx,
        members.domains().iter().map(|d| match d {
            Some(label) => out::id(cx, label),
            None => out::null(cx),
        }),
        members.len(),
    )
}
