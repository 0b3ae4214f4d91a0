//! `longstraw_skeleton`: skeleton (hierarchical) HRW, O(fan-out * levels +
//! leaf size) lookups for the largest fleets (SPEC.md section 11).

use longstraw_set::{Skeleton, SkeletonOptions, SkeletonShape};

use crate::boundary::{boundary, FfiResult, Out};
use crate::held::{free, held, Held};
use crate::members;
use crate::mode::view;
use crate::result::longstraw_result::{self, *};
use crate::snapshot::longstraw_snapshot;
use crate::table::LONGSTRAW_AUTO;

/// A skeleton HRW node set that any number of threads may use at once.
///
/// Nodes sit at the leaves of a virtual tree (a pure function of the node
/// ids, weights and seed) with `2^fanout_bits` children per group and
/// `levels` levels of groups; a lookup races the children level by level,
/// weighted by subtree weight. Its placement differs from flat HRW's unless
/// `levels` is 0. Changes are serialised and published atomically, as for
/// `longstraw_rendezvous`; each rebuilds the tree. The shape never changes.
pub struct longstraw_skeleton {
    _private: [u8; 0],
}

/// # Safety
/// `sk` must be NULL or a live handle from `longstraw_skeleton_new`.
pub(crate) unsafe fn set<'a>(sk: *const longstraw_skeleton) -> FfiResult<&'a Skeleton> {
    // SAFETY: forwarded contract; skeleton handles are Box<Held<Skeleton>>.
    Ok(unsafe { &held::<longstraw_skeleton, Skeleton>(sk)?.set })
}

/// Creates a skeleton over the membership of `members` (a snapshot of any
/// mode): its nodes in the same index order, their weights and domain
/// labels, and its seed, placement version and kernel. The skeleton does not
/// depend on `members` afterwards.
///
/// `fanout_bits` (1 to 6; 0 to 6 and ignored when `levels` is 0) and `levels` (0 to 5)
/// fix the tree's shape; pass `LONGSTRAW_AUTO` for both to pick the
/// shallowest tree whose leaf groups average at most 64 nodes for the node
/// count now (flat up to 256 nodes). Deeper trees look up faster and move
/// more keys on a change (BENCHMARKS.md).
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_skeleton_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_PARAMETER` (a shape
/// out of range, or `LONGSTRAW_AUTO` for only one of the two).
///
/// # Safety
/// `members` must be NULL or a live snapshot; `out` must be NULL or valid
/// for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_new(
    members: *const longstraw_snapshot,
    fanout_bits: u8,
    levels: u8,
    out: *mut *mut longstraw_skeleton,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let members = unsafe { view(members)? }.members();
        let out = Out::new(out)?;
        let shape = match (fanout_bits == LONGSTRAW_AUTO, levels == LONGSTRAW_AUTO) {
            (true, true) => None,
            (false, false) => Some(SkeletonShape::new(fanout_bits, levels)?),
            _ => return Err(LONGSTRAW_INVALID_PARAMETER),
        };
        let options = SkeletonOptions {
            set: members.options(),
            shape,
        };
        let skeleton = Skeleton::with_domains(members.nodes().map(|n| (n.id(), n.weight(), n.domain())), options)?;
        let ptr = Held::new(skeleton).into_raw::<longstraw_skeleton>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

/// Writes the tree's shape: `*fanout_bits` and `*levels` (after
/// `LONGSTRAW_AUTO` was resolved; both 0 for a flat skeleton).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `sk` must be NULL or a live handle; each out-pointer must be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_shape(
    sk: *const longstraw_skeleton,
    fanout_bits: *mut u8,
    levels: *mut u8,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let skeleton = unsafe { set(sk)? };
        let (fb, lv) = (Out::new(fanout_bits)?, Out::new(levels)?);
        let shape = skeleton.load().shape();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            fb.write(shape.fanout_bits());
            lv.write(shape.levels());
        }
        Ok(())
    })
}

/// Releases a skeleton. `NULL` is ignored. Snapshots taken from it stay valid.
/// No other call may use `sk` during or after this one.
///
/// # Safety
/// `sk` must be NULL or a live handle from `longstraw_skeleton_new`, not used
/// again afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_free(sk: *mut longstraw_skeleton) {
    let _ = boundary(|| {
        // SAFETY: `sk` is NULL or came from Held::into_raw in a constructor,
        // and the caller gives up its last use of it here.
        unsafe { free::<longstraw_skeleton, Skeleton>(sk) };
        Ok(())
    });
}

/// Adds one node, as `longstraw_rendezvous_add`.
/// The tree is rebuilt (O(n log n)).
///
/// # Safety
/// `sk` must be NULL or a live handle; `id` must be NULL or point to
/// `id_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_add(
    sk: *mut longstraw_skeleton,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::add(set(sk), id, id_len, weight, std::ptr::null(), 0) }
}

/// Adds one node in a failure domain, as `longstraw_rendezvous_add_in_domain`.
///
/// # Safety
/// `sk` must be NULL or a live handle; `id` and `domain` must be NULL or
/// point to their stated number of readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_add_in_domain(
    sk: *mut longstraw_skeleton,
    id: *const u8,
    id_len: usize,
    weight: f64,
    domain: *const u8,
    domain_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::add(set(sk), id, id_len, weight, domain, domain_len) }
}

/// Adds several nodes as one change, as `longstraw_rendezvous_add_batch`.
/// The tree is rebuilt once.
///
/// # Safety
/// `sk` must be NULL or a live handle; each array must be NULL or point to
/// its stated number of readable elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_add_batch(
    sk: *mut longstraw_skeleton,
    ids: *const u8,
    ids_len: usize,
    offsets: *const u64,
    offsets_len: usize,
    weights: *const f64,
    weights_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::add_batch(set(sk), ids, ids_len, offsets, offsets_len, weights, weights_len, None) }
}

/// Adds several nodes with failure domain labels as one change, as
/// `longstraw_rendezvous_add_batch_in_domains`.
///
/// # Safety
/// `sk` must be NULL or a live handle; each array must be NULL or point to
/// its stated number of readable elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_add_batch_in_domains(
    sk: *mut longstraw_skeleton,
    ids: *const u8,
    ids_len: usize,
    offsets: *const u64,
    offsets_len: usize,
    weights: *const f64,
    weights_len: usize,
    domains: *const u8,
    domains_len: usize,
    domain_offsets: *const u64,
    domain_offsets_len: usize,
) -> longstraw_result {
    let labels = Some((domains, domains_len, domain_offsets, domain_offsets_len));
    // SAFETY: forwarded contract.
    unsafe {
        members::add_batch(
            set(sk),
            ids,
            ids_len,
            offsets,
            offsets_len,
            weights,
            weights_len,
            labels,
        )
    }
}

/// Removes a node, as `longstraw_rendezvous_remove`.
///
/// # Safety
/// `sk` must be NULL or a live handle; `id` must be NULL or point to
/// `id_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_remove(
    sk: *mut longstraw_skeleton,
    id: *const u8,
    id_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::remove(set(sk), id, id_len) }
}

/// Changes a node's weight (0 drains it), as `longstraw_rendezvous_set_weight`.
///
/// # Safety
/// `sk` must be NULL or a live handle; `id` must be NULL or point to
/// `id_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_set_weight(
    sk: *mut longstraw_skeleton,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::set_weight(set(sk), id, id_len, weight) }
}

/// Sets or (with a label of length 0) clears a node's failure domain, as
/// `longstraw_rendezvous_set_domain`.
///
/// # Safety
/// `sk` must be NULL or a live handle; `id` and `domain` must be NULL or
/// point to their stated number of readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_set_domain(
    sk: *mut longstraw_skeleton,
    id: *const u8,
    id_len: usize,
    domain: *const u8,
    domain_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::set_domain(set(sk), id, id_len, domain, domain_len) }
}

/// Writes the number of nodes (drained ones included) to `*out`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `sk` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_len(sk: *const longstraw_skeleton, out: *mut usize) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::len(set(sk), out) }
}

/// Takes the current membership as an immutable snapshot, as
/// `longstraw_rendezvous_snapshot`: a reference-count increment that never
/// waits for writers. Every `longstraw_snapshot_*` lookup on it places keys
/// by the skeleton (mode `LONGSTRAW_MODE_SKELETON`). Release it with `longstraw_snapshot_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `sk` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_snapshot(
    sk: *const longstraw_skeleton,
    out: *mut *const longstraw_snapshot,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::snapshot(set(sk), out) }
}
