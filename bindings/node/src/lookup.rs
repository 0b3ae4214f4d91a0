//! Answers built from a snapshot of any mode: ranked ids, node lists,
//! weights and domain labels. Shared by the methods and getters
//! (`node_api::methods`) and the batches; none decides anything about
//! placement.

use std::ptr;

use longstraw_set::Snapshot;
use napi::sys;

use crate::error::Res;
use crate::node_api::{out, Cx};

/// The id of node `i` (an index the snapshot itself returned).
fn id_of(cx: Cx, snap: &Snapshot, i: u32) -> Res<sys::napi_value> {
    match snap.node(i) {
        Some(node) => out::id(cx, node.id()),
        None => Err(crate::error::JsErr::new(
            crate::error::Kind::Error,
            crate::error::codes::INTERNAL,
            format!("node index {i} is past the snapshot's {} nodes", snap.len()),
        )),
    }
}

/// The ids of the best `k` nodes for `key` (at most one per domain when `distinct`).
pub fn ranked(cx: Cx, snap: &Snapshot, key: &[u8], k: usize, distinct: bool) -> Res<sys::napi_value> {
    const STACK: usize = 16;
    let want = k.min(snap.eligible());
    let mut stack = [0u32; STACK];
    let mut heap = Vec::new();
    let found: &mut [u32] = if want <= STACK {
        &mut stack[..want]
    } else {
        heap.resize(want, 0);
        &mut heap
    };
    let n = if distinct {
        snap.top_k_distinct_into(key, found)
    } else {
        snap.top_k_into(key, found)
    };
    out::array_of(cx, found[..n].iter().map(|&i| id_of(cx, snap, i)), n)
}

/// JavaScript ids for node indices, creating each distinct id once.
pub fn ids_of(cx: Cx, snap: &Snapshot, indices: &[u32]) -> Res<sys::napi_value> {
    let mut made: Vec<sys::napi_value> = vec![ptr::null_mut(); snap.len()];
    out::array_of(
        cx,
        indices.iter().map(|&i| {
            let slot = &mut made[i as usize];
            if slot.is_null() {
                *slot = id_of(cx, snap, i)?;
            }
            Ok(*slot)
        }),
        indices.len(),
    )
}

/// Node ids in index order.
pub fn nodes(cx: Cx, snap: &Snapshot) -> Res<sys::napi_value> {
    out::array_of(cx, snap.nodes().map(|node| out::id(cx, node.id())), snap.len())
}

/// Weights in index order.
pub fn weights(cx: Cx, snap: &Snapshot) -> Res<sys::napi_value> {
    out::array_of(cx, snap.nodes().map(|node| out::number(cx, node.weight())), snap.len())
}

/// Each node's failure domain label (as ids are returned), or `null`.
pub fn domains(cx: Cx, snap: &Snapshot) -> Res<sys::napi_value> {
    out::array_of(
        cx,
        snap.nodes().map(|node| match node.domain() {
            Some(label) => out::id(cx, label),
            None => out::null(cx),
        }),
        snap.len(),
    )
}
