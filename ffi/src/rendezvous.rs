//! `longstraw_rendezvous`: the mutable, shareable node set.

use std::sync::Arc;

use longstraw::PackedKeys;
use longstraw_set::{Options, Placement, Rendezvous};

use crate::boundary::{boundary, handle, in_slice, FfiResult, Out};
use crate::result::longstraw_result::{self, *};
use crate::snapshot::longstraw_snapshot;

/// A node set that any number of threads may use at once.
///
/// Create it with `longstraw_rendezvous_new`, change its membership with
/// `longstraw_rendezvous_add`, `_add_batch`, `_remove` and `_set_weight`,
/// and look keys up on an immutable `longstraw_snapshot` taken with
/// `longstraw_rendezvous_snapshot`. Every function except
/// `longstraw_rendezvous_free` may be called concurrently from any thread on
/// the same handle: changes are serialised inside, and each one is published
/// atomically (a snapshot sees all of a change or none of it).
pub struct longstraw_rendezvous {
    _private: [u8; 0],
}

/// # Safety
/// `r` must be NULL or a live handle from `longstraw_rendezvous_new`.
unsafe fn set<'a>(r: *const longstraw_rendezvous) -> FfiResult<&'a Rendezvous> {
    // SAFETY: forwarded contract; rendezvous handles are Box<Rendezvous>.
    unsafe { handle::<longstraw_rendezvous, Rendezvous>(r) }
}

/// Creates an empty node set.
///
/// `seed` changes every placement (0 is a fine default; all users of one
/// cluster must agree on it). `placement` is the placement version, normally
/// `LONGSTRAW_PLACEMENT_VERSION` (1); pin it so that an upgrade of longstraw
/// never moves keys. The kernel is chosen from the CPU, or from the
/// `LONGSTRAW_BACKEND` environment variable (scalar, sse2, avx2, avx512, neon
/// or auto) when it is set; it never changes placement.
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_rendezvous_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT` (out is NULL),
/// `LONGSTRAW_UNKNOWN_PLACEMENT`, `LONGSTRAW_BACKEND_UNAVAILABLE`.
///
/// # Safety
/// `out` must be NULL or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_new(
    seed: u64,
    placement: u32,
    out: *mut *mut longstraw_rendezvous,
) -> longstraw_result {
    boundary(|| {
        let out = Out::new(out)?;
        let placement = Placement::from_number(placement)?;
        let options = Options {
            seed,
            placement,
            backend: None,
        };
        let set = Rendezvous::new(std::iter::empty::<&[u8]>(), options)?;
        let ptr = Box::into_raw(Box::new(set)).cast::<longstraw_rendezvous>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

/// Releases a node set. `NULL` is ignored.
///
/// Snapshots taken from it stay valid: each is released separately with
/// `longstraw_snapshot_free`. No other call may use `r` during or after this
/// one.
///
/// # Safety
/// `r` must be NULL or a live handle from `longstraw_rendezvous_new`, not used
/// again afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_free(r: *mut longstraw_rendezvous) {
    // A panic while dropping would be a bug; swallowing it leaks at worst.
    let _ = boundary(|| {
        if !r.is_null() {
            // SAFETY: `r` came from Box::into_raw in longstraw_rendezvous_new
            // and the caller gives up its last use of it here.
            drop(unsafe { Box::from_raw(r.cast::<Rendezvous>()) });
        }
        Ok(())
    });
}

/// Adds one node with the given weight (1.0 is the usual weight; 0 adds it
/// drained, owning no keys).
///
/// `id` points to `id_len` bytes (any bytes, 1 to 65535 of them); they are
/// copied.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_NODE_ID`,
/// `LONGSTRAW_INVALID_WEIGHT`, `LONGSTRAW_DUPLICATE_NODE`,
/// `LONGSTRAW_HASH_COLLISION`, `LONGSTRAW_TOO_MANY_NODES`. On error the set is
/// unchanged.
///
/// # Safety
/// `r` must be NULL or a live handle; `id` must be NULL or point to `id_len`
/// readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_add(
    r: *mut longstraw_rendezvous,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, id) = unsafe { (set(r)?, in_slice(id, id_len)?) };
        Ok(set.add(id, weight)?)
    })
}

/// Adds several nodes as one change: a snapshot sees all of them or none,
/// and on error none is added.
///
/// The ids use the packed layout: node `i`'s id is
/// `ids[offsets[i] .. offsets[i + 1]]`, so `offsets` has one more entry than
/// there are nodes (`offsets_len` = nodes + 1; `(NULL, 0)` or a single offset
/// means no nodes). Offsets must not decrease and must not exceed `ids_len`.
/// `weights` holds one weight per node, or is `(NULL, 0)` for weight 1 each.
///
/// Errors: those of `longstraw_rendezvous_add`, plus `LONGSTRAW_BAD_OFFSETS`,
/// `LONGSTRAW_MISALIGNED_POINTER` and `LONGSTRAW_LENGTH_MISMATCH` (weights
/// given but not one per node).
///
/// # Safety
/// `r` must be NULL or a live handle; each array must be NULL or point to its
/// stated number of readable elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_add_batch(
    r: *mut longstraw_rendezvous,
    ids: *const u8,
    ids_len: usize,
    offsets: *const u64,
    offsets_len: usize,
    weights: *const f64,
    weights_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, ids, offsets, weights) = unsafe {
            (
                set(r)?,
                in_slice(ids, ids_len)?,
                in_slice(offsets, offsets_len)?,
                in_slice(weights, weights_len)?,
            )
        };
        let packed = PackedKeys::new(ids, offsets)?;
        if !weights.is_empty() && weights.len() != packed.len() {
            return Err(LONGSTRAW_LENGTH_MISMATCH);
        }
        Ok(set.update(|u| {
            for (i, id) in packed.iter().enumerate() {
                u.add(id, weights.get(i).copied().unwrap_or(1.0))?;
            }
            Ok(())
        })?)
    })
}

/// Removes the node with this id. Keys it owned move to their next-ranked
/// node; no other key moves.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_UNKNOWN_NODE`.
///
/// # Safety
/// `r` must be NULL or a live handle; `id` must be NULL or point to `id_len`
/// readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_remove(
    r: *mut longstraw_rendezvous,
    id: *const u8,
    id_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, id) = unsafe { (set(r)?, in_slice(id, id_len)?) };
        Ok(set.remove(id)?)
    })
}

/// Changes a node's weight. 0 drains it: it keeps its place but owns no keys.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_WEIGHT`,
/// `LONGSTRAW_UNKNOWN_NODE`.
///
/// # Safety
/// `r` must be NULL or a live handle; `id` must be NULL or point to `id_len`
/// readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_set_weight(
    r: *mut longstraw_rendezvous,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, id) = unsafe { (set(r)?, in_slice(id, id_len)?) };
        Ok(set.set_weight(id, weight)?)
    })
}

/// Writes the number of nodes (drained ones included) to `*out`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `r` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_len(r: *const longstraw_rendezvous, out: *mut usize) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let set = unsafe { set(r)? };
        let out = Out::new(out)?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(set.len()) };
        Ok(())
    })
}

/// Takes the current membership as an immutable snapshot, for lookups.
///
/// Taking a snapshot is cheap (a reference-count increment) and never waits
/// for writers. Later changes to `r` do not affect it, so node indices and id
/// pointers obtained from it stay valid until it is released with
/// `longstraw_snapshot_free`, even if the node is removed from `r` meanwhile
/// or `r` itself is freed.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `r` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_snapshot(
    r: *const longstraw_rendezvous,
    out: *mut *const longstraw_snapshot,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let set = unsafe { set(r)? };
        let out = Out::new(out)?;
        let ptr = Arc::into_raw(set.snapshot()).cast::<longstraw_snapshot>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}
