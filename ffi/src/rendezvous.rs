//! `longstraw_rendezvous`: the mutable, shareable node set.

use longstraw_set::{Options, Placement, Rendezvous};

use crate::boundary::{boundary, FfiResult, Out};
use crate::held::{free, held, Held};
use crate::members;
use crate::result::longstraw_result;
use crate::snapshot::longstraw_snapshot;

/// A node set that any number of threads may use at once.
///
/// Create it with `longstraw_rendezvous_new`, change its membership with
/// `longstraw_rendezvous_add`, `_add_in_domain`, `_add_batch`,
/// `_add_batch_in_domains`, `_remove`, `_set_weight` and `_set_domain`,
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
pub(crate) unsafe fn set<'a>(r: *const longstraw_rendezvous) -> FfiResult<&'a Rendezvous> {
    // SAFETY: forwarded contract; rendezvous handles are Box<Held<Rendezvous>>.
    Ok(unsafe { &held::<longstraw_rendezvous, Rendezvous>(r)?.set })
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
            ..Options::default()
        };
        let set = Rendezvous::new(std::iter::empty::<&[u8]>(), options)?;
        let ptr = Held::new(set).into_raw::<longstraw_rendezvous>();
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
        // SAFETY: `r` is NULL or came from Held::into_raw in a constructor,
        // and the caller gives up its last use of it here.
        unsafe { free::<longstraw_rendezvous, Rendezvous>(r) };
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
    // SAFETY: forwarded contract.
    unsafe { members::add(set(r), id, id_len, weight, std::ptr::null(), 0) }
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
    // SAFETY: forwarded contract.
    unsafe { members::add_batch(set(r), ids, ids_len, offsets, offsets_len, weights, weights_len, None) }
}

/// Adds one node in a failure domain (a rack, a zone): see
/// `longstraw_snapshot_top_k_distinct`. `domain` points to `domain_len`
/// bytes (1 to 65535, copied; any bytes); a label of length 0 means no label,
/// as with `longstraw_rendezvous_add`. Nodes with equal labels share a domain.
///
/// Errors: those of `longstraw_rendezvous_add`, plus `LONGSTRAW_INVALID_DOMAIN`.
///
/// # Safety
/// `r` must be NULL or a live handle; `id` and `domain` must be NULL or point
/// to their stated number of readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_add_in_domain(
    r: *mut longstraw_rendezvous,
    id: *const u8,
    id_len: usize,
    weight: f64,
    domain: *const u8,
    domain_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::add(set(r), id, id_len, weight, domain, domain_len) }
}

/// `longstraw_rendezvous_add_batch` with a failure domain label per node:
/// node `i`'s label is `domains[domain_offsets[i] .. domain_offsets[i + 1]]`
/// (the packed layout again, one label per node; an empty label means none).
///
/// Errors: those of `longstraw_rendezvous_add_batch`, plus
/// `LONGSTRAW_INVALID_DOMAIN` and `LONGSTRAW_LENGTH_MISMATCH` (not one label
/// per node). On error no node is added.
///
/// # Safety
/// `r` must be NULL or a live handle; each array must be NULL or point to its
/// stated number of readable elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_add_batch_in_domains(
    r: *mut longstraw_rendezvous,
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
    unsafe { members::add_batch(set(r), ids, ids_len, offsets, offsets_len, weights, weights_len, labels) }
}

/// Sets a node's failure domain label; a label of length 0 (`(NULL, 0)`)
/// clears it, making the node a domain of its own. Only the replicas that
/// `longstraw_snapshot_top_k_distinct` picks can change.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_UNKNOWN_NODE`,
/// `LONGSTRAW_INVALID_DOMAIN`.
///
/// # Safety
/// `r` must be NULL or a live handle; `id` and `domain` must be NULL or point
/// to their stated number of readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_set_domain(
    r: *mut longstraw_rendezvous,
    id: *const u8,
    id_len: usize,
    domain: *const u8,
    domain_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::set_domain(set(r), id, id_len, domain, domain_len) }
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
    // SAFETY: forwarded contract.
    unsafe { members::remove(set(r), id, id_len) }
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
    // SAFETY: forwarded contract.
    unsafe { members::set_weight(set(r), id, id_len, weight) }
}

/// Writes the number of nodes (drained ones included) to `*out`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `r` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_len(r: *const longstraw_rendezvous, out: *mut usize) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::len(set(r), out) }
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
    // SAFETY: forwarded contract.
    unsafe { members::snapshot(set(r), out) }
}
