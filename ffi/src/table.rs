//! `longstraw_table`: a partition table, O(1) lookups (SPEC.md section 10).

use longstraw_set::{Balance, Table, TableOptions};

use crate::boundary::{boundary, FfiResult, Out};
use crate::held::{free, held, Held};
use crate::members;
use crate::mode::view;
use crate::result::longstraw_result::{self, *};
use crate::snapshot::longstraw_snapshot;

/// Lets longstraw choose a table's partition bits, or a skeleton's fan-out
/// bits and levels, from the node count at creation (`longstraw_table_new`,
/// `longstraw_skeleton_new`).
pub const LONGSTRAW_AUTO: u8 = 255;

/// The most partition bits a table may have (2^24 partitions).
pub const LONGSTRAW_MAX_PARTITION_BITS: u8 = 24;

/// The most nodes a table stores per partition.
pub const LONGSTRAW_MAX_REPLICAS: usize = 32;

/// A `longstraw_table_new` flag: each partition's stored nodes are at most
/// one per failure domain, so `longstraw_snapshot_top_k_distinct` up to the
/// table's replicas is the O(1) read (and `longstraw_snapshot_top_k` the O(n)
/// one). Placement is the same either way.
pub const LONGSTRAW_TABLE_DISTINCT_DOMAINS: u32 = 1;

/// A partition table that any number of threads may use at once.
///
/// Keys map to `2^bits` partitions by the top bits of their key hash; each
/// partition's nodes are ranked by placement v1 HRW of the partition number.
/// Lookups on its snapshots (`longstraw_table_snapshot`) are a table read.
/// Removing a node moves exactly its partitions; adding one moves only the
/// partitions it wins. Changes are serialised and published atomically, as
/// for `longstraw_rendezvous`; the table's shape never changes.
pub struct longstraw_table {
    _private: [u8; 0],
}

/// # Safety
/// `t` must be NULL or a live handle from `longstraw_table_new`.
pub(crate) unsafe fn set<'a>(t: *const longstraw_table) -> FfiResult<&'a Table> {
    // SAFETY: forwarded contract; table handles are Box<Held<Table>>.
    Ok(unsafe { &held::<longstraw_table, Table>(t)?.set })
}

/// Creates a partition table over the membership of `members` (a snapshot
/// of any mode): its nodes in the same index order, their weights and domain
/// labels, and its seed, placement version and kernel. The table does not
/// depend on `members` afterwards. To start empty, take the snapshot of an
/// empty `longstraw_rendezvous` made with the seed and placement you want.
///
/// `partition_bits`: the table has `2^partition_bits` partitions (0 to
/// `LONGSTRAW_MAX_PARTITION_BITS`), or `LONGSTRAW_AUTO` for
/// `clamp(ceil(log2(n)) + 6, 10, 20)` with n the node count now (pass it
/// explicitly for a fleet that starts small and grows). `replicas`: nodes
/// stored per partition (1 to `LONGSTRAW_MAX_REPLICAS`; `top_k` up to this
/// many is a table read, longer lists rank the partition over every node).
/// `flags`: 0 or `LONGSTRAW_TABLE_DISTINCT_DOMAINS`.
///
/// Building ranks every partition over every node (P * n pair scores, on all
/// cores); the table is meant for up to about 10^4 nodes.
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_table_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_PARAMETER` (bits,
/// replicas or unknown flags).
///
/// # Safety
/// `members` must be NULL or a live snapshot; `out` must be NULL or valid
/// for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_new(
    members: *const longstraw_snapshot,
    partition_bits: u8,
    replicas: usize,
    flags: u32,
    out: *mut *mut longstraw_table,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let members = unsafe { view(members)? }.members();
        let out = Out::new(out)?;
        if flags & !LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0 {
            return Err(LONGSTRAW_INVALID_PARAMETER);
        }
        let options = TableOptions {
            set: members.options(),
            partition_bits: (partition_bits != LONGSTRAW_AUTO).then_some(partition_bits),
            replicas,
            distinct_domains: flags & LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0,
            balance: None,
        };
        let table = Table::with_domains(members.nodes().map(|n| (n.id(), n.weight(), n.domain())), options)?;
        let ptr = Held::new(table).into_raw::<longstraw_table>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

/// Creates a partition table as `longstraw_table_new` does, with a balance as
/// `longstraw_table_new_balanced` does: `balance` 0.0 makes a plain table,
/// 1.0 to 4.0 a balanced one. A balance together with
/// `LONGSTRAW_TABLE_DISTINCT_DOMAINS` is refused with
/// `LONGSTRAW_CONFLICTING_OPTIONS` (`longstraw_last_error_message` gives the
/// set's own words, the ones every language shows).
///
/// Errors: those of `longstraw_table_new` and `longstraw_table_new_balanced`,
/// plus `LONGSTRAW_CONFLICTING_OPTIONS`.
///
/// # Safety
/// As `longstraw_table_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_new_with_balance(
    members: *const longstraw_snapshot,
    partition_bits: u8,
    replicas: usize,
    flags: u32,
    balance: f64,
    out: *mut *mut longstraw_table,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let members = unsafe { view(members)? }.members();
        let out = Out::new(out)?;
        if flags & !LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0 {
            return Err(LONGSTRAW_INVALID_PARAMETER);
        }
        let options = TableOptions {
            set: members.options(),
            partition_bits: (partition_bits != LONGSTRAW_AUTO).then_some(partition_bits),
            replicas,
            distinct_domains: flags & LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0,
            // Exactly 0.0 is "no balance"; anything else (NaN included) is checked by the set.
            balance: if balance == 0.0 {
                None
            } else {
                Some(Balance::new(balance)?)
            },
        };
        let table = Table::with_domains(members.nodes().map(|n| (n.id(), n.weight(), n.domain())), options)?;
        let ptr = Held::new(table).into_raw::<longstraw_table>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

/// Writes the table's shape: `*partition_bits` (the table has
/// `2^partition_bits` partitions, after `LONGSTRAW_AUTO` was resolved),
/// `*replicas` and `*flags`, as given to `longstraw_table_new`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `t` must be NULL or a live handle; each out-pointer must be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_shape(
    t: *const longstraw_table,
    partition_bits: *mut u8,
    replicas: *mut usize,
    flags: *mut u32,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let table = unsafe { set(t)? };
        let (bits, reps, fl) = (Out::new(partition_bits)?, Out::new(replicas)?, Out::new(flags)?);
        let snap = table.load();
        let distinct = if snap.distinct_domains() {
            LONGSTRAW_TABLE_DISTINCT_DOMAINS
        } else {
            0
        };
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            bits.write(snap.partition_bits());
            reps.write(snap.replicas());
            fl.write(distinct);
        }
        Ok(())
    })
}

/// Releases a table. `NULL` is ignored. Snapshots taken from it stay valid.
/// No other call may use `t` during or after this one.
///
/// # Safety
/// `t` must be NULL or a live handle from `longstraw_table_new`, not used
/// again afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_free(t: *mut longstraw_table) {
    let _ = boundary(|| {
        // SAFETY: `t` is NULL or came from Held::into_raw in a constructor,
        // and the caller gives up its last use of it here.
        unsafe { free::<longstraw_table, Table>(t) };
        Ok(())
    });
}

/// Adds one node, as `longstraw_rendezvous_add`.
/// Only the partitions it wins are re-ranked.
///
/// # Safety
/// `t` must be NULL or a live handle; `id` must be NULL or point to
/// `id_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_add(
    t: *mut longstraw_table,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::add(set(t), id, id_len, weight, std::ptr::null(), 0) }
}

/// Adds one node in a failure domain, as `longstraw_rendezvous_add_in_domain`.
///
/// # Safety
/// `t` must be NULL or a live handle; `id` and `domain` must be NULL or
/// point to their stated number of readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_add_in_domain(
    t: *mut longstraw_table,
    id: *const u8,
    id_len: usize,
    weight: f64,
    domain: *const u8,
    domain_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::add(set(t), id, id_len, weight, domain, domain_len) }
}

/// Adds several nodes as one change, as `longstraw_rendezvous_add_batch`.
/// Each node is inserted into the rows incrementally; for a large initial
/// membership, `longstraw_table_new` (one parallel build) is much faster.
///
/// # Safety
/// `t` must be NULL or a live handle; each array must be NULL or point to
/// its stated number of readable elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_add_batch(
    t: *mut longstraw_table,
    ids: *const u8,
    ids_len: usize,
    offsets: *const u64,
    offsets_len: usize,
    weights: *const f64,
    weights_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::add_batch(set(t), ids, ids_len, offsets, offsets_len, weights, weights_len, None) }
}

/// Adds several nodes with failure domain labels as one change, as
/// `longstraw_rendezvous_add_batch_in_domains`.
///
/// # Safety
/// `t` must be NULL or a live handle; each array must be NULL or point to
/// its stated number of readable elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_add_batch_in_domains(
    t: *mut longstraw_table,
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
    unsafe { members::add_batch(set(t), ids, ids_len, offsets, offsets_len, weights, weights_len, labels) }
}

/// Removes a node, as `longstraw_rendezvous_remove`.
/// Only its partitions move, each to its next-ranked node.
///
/// # Safety
/// `t` must be NULL or a live handle; `id` must be NULL or point to
/// `id_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_remove(
    t: *mut longstraw_table,
    id: *const u8,
    id_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::remove(set(t), id, id_len) }
}

/// Changes a node's weight (0 drains it), as `longstraw_rendezvous_set_weight`.
///
/// # Safety
/// `t` must be NULL or a live handle; `id` must be NULL or point to
/// `id_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_set_weight(
    t: *mut longstraw_table,
    id: *const u8,
    id_len: usize,
    weight: f64,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::set_weight(set(t), id, id_len, weight) }
}

/// Sets or (with a label of length 0) clears a node's failure domain, as
/// `longstraw_rendezvous_set_domain`.
/// A table made with `LONGSTRAW_TABLE_DISTINCT_DOMAINS` rebuilds its rows.
///
/// # Safety
/// `t` must be NULL or a live handle; `id` and `domain` must be NULL or
/// point to their stated number of readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_set_domain(
    t: *mut longstraw_table,
    id: *const u8,
    id_len: usize,
    domain: *const u8,
    domain_len: usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::set_domain(set(t), id, id_len, domain, domain_len) }
}

/// Writes the number of nodes (drained ones included) to `*out`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `t` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_len(t: *const longstraw_table, out: *mut usize) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::len(set(t), out) }
}

/// Takes the current membership as an immutable snapshot, as
/// `longstraw_rendezvous_snapshot`: a reference-count increment that never
/// waits for writers. Every `longstraw_snapshot_*` lookup on it places keys
/// by the table (mode `LONGSTRAW_MODE_TABLE`). Release it with `longstraw_snapshot_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `t` must be NULL or a live handle; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_snapshot(
    t: *const longstraw_table,
    out: *mut *const longstraw_snapshot,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { members::snapshot(set(t), out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_limits_match_the_core() {
        assert_eq!(LONGSTRAW_MAX_PARTITION_BITS, longstraw::MAX_PARTITION_BITS);
        assert_eq!(LONGSTRAW_MAX_REPLICAS, longstraw::MAX_REPLICAS);
        const { assert!(LONGSTRAW_AUTO > LONGSTRAW_MAX_PARTITION_BITS && LONGSTRAW_AUTO > longstraw::skeleton::MAX_LEVELS) };
    }
}
