//! `longstraw_rendezvous`: the mutable, shareable node set, in any placement
//! mode. One family of functions serves every mode; the constructors, which
//! take a `longstraw_options`, live in `options`.

use longstraw::PackedKeys;
use longstraw_set::{Rendezvous, Update};

use crate::boundary::{boundary, in_slice, FfiResult, Out};
use crate::held::{free, held};
use crate::lengths::{id_arg, label_arg};
use crate::result::longstraw_result::{self, *};
use crate::snapshot::{into_handle, longstraw_mode, longstraw_snapshot};

/// The length of a keyed-v1 secret in bytes (SipHash-2-4's 128-bit key).
pub const LONGSTRAW_SECRET_LEN: usize = 16;

/// Lets longstraw choose a table's partition bits, or a skeleton's fan-out
/// bits and levels, from the node count at creation (`longstraw_options`'s
/// `partition_bits`, `fanout_bits` and `levels`).
pub const LONGSTRAW_AUTO: u8 = 255;

/// The most partition bits a table may have (2^24 partitions).
pub const LONGSTRAW_MAX_PARTITION_BITS: u8 = 24;

/// The most nodes a table stores per partition.
pub const LONGSTRAW_MAX_REPLICAS: usize = 32;

/// A `longstraw_options.table_flags` flag: each partition's stored nodes are
/// at most one per failure domain, so `longstraw_snapshot_top_k_distinct` up
/// to the table's replicas is the O(1) read (and `longstraw_snapshot_top_k`
/// the O(n) one). Placement is the same either way.
pub const LONGSTRAW_TABLE_DISTINCT_DOMAINS: u32 = 1;

/// A node set of any placement mode that any number of threads may use at
/// once.
///
/// Create it with `longstraw_rendezvous_new` (empty, any mode, from a
/// `longstraw_options`), `_new_from` (over a snapshot's membership),
/// `_load_file` or `_load_bytes`; change its membership
/// with `longstraw_rendezvous_add`, `_add_in_domain`, `_add_batch`,
/// `_remove`, `_set_weight` and `_set_domain`; and look keys up on an
/// immutable `longstraw_snapshot` taken with `longstraw_rendezvous_snapshot`,
/// which places keys by the set's mode (`longstraw_rendezvous_mode`).
/// Every function except `longstraw_rendezvous_free` may be called
/// concurrently from any thread on the same handle: changes are serialised
/// inside, and each one is published atomically (a snapshot sees all of a
/// change or none of it). A set's mode and shape never change.
pub struct longstraw_rendezvous {
    _private: [u8; 0],
}

/// # Safety
/// `r` must be NULL or a live handle.
unsafe fn set<'a>(r: *const longstraw_rendezvous) -> FfiResult<&'a Rendezvous> {
    // SAFETY: forwarded contract.
    Ok(unsafe { &held(r)?.set })
}

/// Releases a node set. `NULL` is ignored.
///
/// Snapshots taken from it stay valid: each is released separately with
/// `longstraw_snapshot_free`. No other call may use `r` during or after this
/// one (the one function that is not thread-safe on its handle).
///
/// # Safety
/// `r` must be NULL or a live handle, not used again afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_free(r: *mut longstraw_rendezvous) {
    // A panic while dropping would be a bug; swallowing it leaks at worst.
    let _ = boundary(|| {
        // SAFETY: `r` is NULL or came from Held::into_raw, and the caller
        // gives up its last use of it here.
        unsafe { free(r) };
        Ok(())
    });
}

/// A domain label from C: length 0 means no label.
fn label(bytes: &[u8]) -> Option<&[u8]> {
    (!bytes.is_empty()).then_some(bytes)
}

/// Adds one node with the given weight (1.0 is the usual weight; 0 adds it
/// drained, owning no keys). A table re-ranks only the partitions the node
/// wins; a skeleton rebuilds its tree (O(n log n)).
///
/// `id` points to `id_len` bytes (any bytes, 1 to 65535 of them); they are
/// copied.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_NODE_ID`,
/// `LONGSTRAW_INVALID_WEIGHT`, `LONGSTRAW_DUPLICATE_NODE`,
/// `LONGSTRAW_HASH_COLLISION`, `LONGSTRAW_TOO_MANY_NODES`,
/// `LONGSTRAW_OUT_OF_MEMORY`. On error the set is unchanged. Thread-safe.
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
    unsafe { longstraw_rendezvous_add_in_domain(r, id, id_len, weight, std::ptr::null(), 0) }
}

/// Adds one node in a failure domain (a rack, a zone): see
/// `longstraw_snapshot_top_k_distinct`. `domain` points to `domain_len`
/// bytes (1 to 65535, copied; any bytes); a label of length 0 means no label,
/// as with `longstraw_rendezvous_add`. Nodes with equal labels share a domain.
///
/// Errors: those of `longstraw_rendezvous_add`, plus
/// `LONGSTRAW_INVALID_DOMAIN`. On error the set is unchanged. Thread-safe.
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
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, id, domain) = unsafe {
            (
                set(r)?,
                id_arg(id, id_len, LONGSTRAW_INVALID_NODE_ID)?,
                label_arg(domain, domain_len)?,
            )
        };
        match label(domain) {
            Some(d) => set.add_in_domain(id, weight, d)?,
            None => set.add(id, weight)?,
        }
        Ok(())
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
/// `domains` and `domain_offsets` give one failure domain label per node in
/// the same packed layout (an empty label means none), or are both
/// `(NULL, 0)` for no labels.
///
/// A table inserts each node into its rows incrementally: for a large initial
/// membership, `longstraw_rendezvous_new_from` over a flat set's snapshot
/// (one parallel build) is much faster. A skeleton rebuilds its tree once.
///
/// Errors: those of `longstraw_rendezvous_add_in_domain`, plus
/// `LONGSTRAW_BAD_OFFSETS`, `LONGSTRAW_MISALIGNED_POINTER` and
/// `LONGSTRAW_LENGTH_MISMATCH` (weights or labels given but not one per
/// node). Thread-safe.
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
    domains: *const u8,
    domains_len: usize,
    domain_offsets: *const u64,
    domain_offsets_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, ids, offsets, weights, domains, domain_offsets) = unsafe {
            (
                set(r)?,
                in_slice(ids, ids_len)?,
                in_slice(offsets, offsets_len)?,
                in_slice(weights, weights_len)?,
                in_slice(domains, domains_len)?,
                in_slice(domain_offsets, domain_offsets_len)?,
            )
        };
        let ids = PackedKeys::new(ids, offsets)?;
        let labels = if domains.is_empty() && domain_offsets.is_empty() {
            None
        } else {
            Some(PackedKeys::new(domains, domain_offsets)?)
        };
        let n = ids.len();
        if (!weights.is_empty() && weights.len() != n) || labels.as_ref().is_some_and(|d| d.len() != n) {
            return Err(LONGSTRAW_LENGTH_MISMATCH);
        }
        Ok(set.update(|u: &mut Update<'_>| {
            for (i, id) in ids.iter().enumerate() {
                let weight = weights.get(i).copied().unwrap_or(1.0);
                match labels.as_ref().and_then(|d| label(d.get(i).unwrap_or_default())) {
                    Some(d) => u.add_in_domain(id, weight, d)?,
                    None => u.add(id, weight)?,
                }
            }
            Ok(())
        })?)
    })
}

/// Removes the node with this id. Keys it owned move to their next-ranked
/// node; no other key moves (a table moves exactly its partitions).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_UNKNOWN_NODE`. Thread-safe.
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
        let (set, id) = unsafe { (set(r)?, id_arg(id, id_len, LONGSTRAW_UNKNOWN_NODE)?) };
        Ok(set.remove(id)?)
    })
}

/// Changes a node's weight. 0 drains it: it keeps its place but owns no keys.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_WEIGHT`,
/// `LONGSTRAW_UNKNOWN_NODE`. Thread-safe.
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
        let (set, id) = unsafe { (set(r)?, id_arg(id, id_len, LONGSTRAW_UNKNOWN_NODE)?) };
        Ok(set.set_weight(id, weight)?)
    })
}

/// Sets a node's failure domain label; a label of length 0 (`(NULL, 0)`)
/// clears it, making the node a domain of its own. Only the replicas that
/// `longstraw_snapshot_top_k_distinct` picks can change (a table made with
/// `LONGSTRAW_TABLE_DISTINCT_DOMAINS` rebuilds its rows).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_UNKNOWN_NODE`,
/// `LONGSTRAW_INVALID_DOMAIN`. Thread-safe.
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
    boundary(|| {
        // SAFETY: forwarded contract.
        let (set, id, domain) = unsafe {
            (
                set(r)?,
                id_arg(id, id_len, LONGSTRAW_UNKNOWN_NODE)?,
                label_arg(domain, domain_len)?,
            )
        };
        Ok(set.set_domain(id, label(domain))?)
    })
}

/// Writes the number of nodes (drained ones included) to `*out`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`. Thread-safe.
///
/// # Safety
/// `r` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_len(r: *const longstraw_rendezvous, out: *mut usize) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let set = unsafe { set(r)? };
        let out = Out::new(out)?;
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(set.len()) };
        Ok(())
    })
}

/// Writes how the set places keys to `*mode`: `LONGSTRAW_MODE_FLAT`,
/// `LONGSTRAW_MODE_TABLE` or `LONGSTRAW_MODE_SKELETON`. A set's mode never
/// changes; a membership file names it (`longstraw_rendezvous_load_file`).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`. Thread-safe.
///
/// # Safety
/// `r` must be NULL or a live handle; `mode` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_mode(
    r: *const longstraw_rendezvous,
    mode: *mut longstraw_mode,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let set = unsafe { set(r)? };
        let out = Out::new(mode)?;
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(set.mode().into()) };
        Ok(())
    })
}

/// Takes the current membership as an immutable snapshot, for lookups, in
/// the set's mode.
///
/// Taking a snapshot is cheap (a reference-count increment) and never waits
/// for writers. Later changes to `r` do not affect it, so node indices and id
/// pointers obtained from it stay valid until it is released with
/// `longstraw_snapshot_free`, even if the node is removed from `r` meanwhile
/// or `r` itself is freed.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`. Thread-safe.
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
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(into_handle(set.snapshot())) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_limits_match_the_core() {
        assert_eq!(LONGSTRAW_MAX_PARTITION_BITS, longstraw::MAX_PARTITION_BITS);
        assert_eq!(LONGSTRAW_MAX_REPLICAS, longstraw::MAX_REPLICAS);
        assert_eq!(LONGSTRAW_SECRET_LEN, longstraw_set::SECRET_LEN);
        const { assert!(LONGSTRAW_AUTO > LONGSTRAW_MAX_PARTITION_BITS && LONGSTRAW_AUTO > longstraw::skeleton::MAX_LEVELS) };
    }
}
