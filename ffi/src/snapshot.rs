//! `longstraw_snapshot`: one immutable membership and the lookups on it,
//! for every placement mode. A handle is an `Arc<Snapshot>` turned into a
//! raw pointer, so taking one is a reference-count increment.

use std::ffi::c_char;
use std::sync::Arc;

use longstraw::PackedKeys;
use longstraw_set::{Error, Mode, Snapshot};

use crate::boundary::{boundary, in_slice, out_slice, FfiResult, Out};
use crate::rendezvous::LONGSTRAW_TABLE_DISTINCT_DOMAINS;
use crate::result::longstraw_result::{self, *};

/// How a set places keys (`longstraw_rendezvous_mode`, `longstraw_snapshot_mode`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum longstraw_mode {
    /// Flat rendezvous hashing, placement v1 (the default `longstraw_options.mode`).
    LONGSTRAW_MODE_FLAT = 0,
    /// A partition table (SPEC.md section 10).
    LONGSTRAW_MODE_TABLE = 1,
    /// Skeleton (hierarchical) rendezvous hashing (SPEC.md section 11).
    LONGSTRAW_MODE_SKELETON = 2,
}

impl From<Mode> for longstraw_mode {
    fn from(m: Mode) -> Self {
        match m {
            Mode::Flat => longstraw_mode::LONGSTRAW_MODE_FLAT,
            Mode::Table => longstraw_mode::LONGSTRAW_MODE_TABLE,
            Mode::Skeleton => longstraw_mode::LONGSTRAW_MODE_SKELETON,
        }
    }
}

/// One immutable membership of a node set, from
/// `longstraw_rendezvous_snapshot` (or `longstraw_bounded_loads`). Lookups
/// place keys by the mode of the set it came from (`longstraw_snapshot_mode`).
///
/// A node index is a position in this snapshot's node list (0 to len - 1);
/// it means nothing in another snapshot. Id pointers returned by lookups
/// point into the snapshot and stay valid until `longstraw_snapshot_free`.
/// Every function except `longstraw_snapshot_free` may be called
/// concurrently from any thread on the same snapshot: it never changes.
pub struct longstraw_snapshot {
    _private: [u8; 0],
}

/// The C handle that owns one reference to `s`.
pub(crate) fn into_handle(s: Arc<Snapshot>) -> *const longstraw_snapshot {
    Arc::into_raw(s).cast()
}

/// Borrows a snapshot handle.
///
/// # Safety
/// `s` must be NULL or a live handle from [`into_handle`].
pub(crate) unsafe fn view<'a>(s: *const longstraw_snapshot) -> FfiResult<&'a Snapshot> {
    if s.is_null() {
        return Err(LONGSTRAW_NULL_ARGUMENT);
    }
    let s = s.cast::<Snapshot>();
    // No handle of this library is misaligned: such a pointer is not a snapshot.
    if !s.is_aligned() {
        return Err(LONGSTRAW_MISALIGNED_POINTER);
    }
    // SAFETY: Arc::into_raw's pointer (see `into_handle`), still live by the
    // caller's contract.
    Ok(unsafe { &*s })
}

/// A second reference to the snapshot behind a handle, for a value that
/// outlives the caller's handle (the handle keeps its own).
///
/// # Safety
/// `s` must be NULL or a live handle from [`into_handle`].
pub(crate) unsafe fn shared(s: *const longstraw_snapshot) -> FfiResult<Arc<Snapshot>> {
    // SAFETY: forwarded contract; `view` checks NULL and alignment.
    let snap: *const Snapshot = unsafe { view(s)? };
    // SAFETY: the handle is `Arc::into_raw` of an `Arc<Snapshot>` that holds
    // one strong count while the caller uses it, so taking a second count
    // and rebuilding an `Arc` from the same pointer is sound.
    unsafe {
        Arc::increment_strong_count(snap);
        Ok(Arc::from_raw(snap))
    }
}

/// # Safety
/// `s` must be NULL or a live snapshot handle.
pub(crate) unsafe fn snap<'a>(s: *const longstraw_snapshot) -> FfiResult<&'a Snapshot> {
    // SAFETY: forwarded contract.
    unsafe { view(s) }
}

/// Releases a snapshot. `NULL` is ignored. Id pointers obtained from it
/// become invalid. No other call may use `s` during or after this one.
///
/// # Safety
/// `s` must be NULL or a live snapshot handle, not used again afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_free(s: *const longstraw_snapshot) {
    let _ = boundary(|| {
        // A misaligned pointer is not a handle of this library: ignored, as NULL is.
        if !s.is_null() && s.cast::<Snapshot>().is_aligned() {
            // SAFETY: made by Arc::into_raw in `into_handle`; the caller gives
            // up this reference here.
            drop(unsafe { Arc::from_raw(s.cast::<Snapshot>()) });
        }
        Ok(())
    });
}

/// Writes one value computed from a snapshot to an out-parameter.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` NULL or writable.
pub(crate) unsafe fn query<T>(
    s: *const longstraw_snapshot,
    out: *mut T,
    f: impl FnOnce(&Snapshot) -> T,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let snap = unsafe { snap(s)? };
        let out = Out::new(out)?;
        let value = f(snap);
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(value) };
        Ok(())
    })
}

/// Writes the number of nodes, drained ones included, to `*out`. Valid node
/// indices are 0 to `*out - 1`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_len(s: *const longstraw_snapshot, out: *mut usize) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { query(s, out, |s| s.len()) }
}

/// Writes the number of eligible nodes (weight above 0) to `*out`: the
/// largest useful k for `longstraw_snapshot_top_k`, and the buffer length
/// `longstraw_snapshot_rank` needs.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_eligible(
    s: *const longstraw_snapshot,
    out: *mut usize,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { query(s, out, |s| s.eligible()) }
}

/// Writes the snapshot's generation to `*out`: 0 for a new set, plus one for
/// every change published since. Two snapshots of one set with the same
/// generation have the same membership.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_generation(
    s: *const longstraw_snapshot,
    out: *mut u64,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { query(s, out, |s| s.generation()) }
}

/// Writes the seed the set was created with to `*out`: 0 for a keyed set,
/// which has no seed (see `longstraw_snapshot_is_keyed`).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_seed(s: *const longstraw_snapshot, out: *mut u64) -> longstraw_result {
    // SAFETY: forwarded contract.
    // A keyed set has no seed: 0, next to `longstraw_snapshot_is_keyed`.
    unsafe { query(s, out, |s| s.seed().unwrap_or(0)) }
}

/// Writes the placement version the set was created with to `*out`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_placement(s: *const longstraw_snapshot, out: *mut u32) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { query(s, out, |s| s.placement().number()) }
}

/// Writes the name of the kernel lookups run on ("scalar", "sse2", "avx2",
/// "avx512" or "neon") to `*out`, as a static NUL-terminated string that
/// must not be freed. The kernel never changes placement.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_backend(
    s: *const longstraw_snapshot,
    out: *mut *const c_char,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { query(s, out, |s| backend_c_name(s.backend().name())) }
}

/// The NUL-terminated form of a backend name.
fn backend_c_name(name: &str) -> *const c_char {
    let with_nul: &'static str = match name {
        "scalar" => "scalar\0",
        "sse2" => "sse2\0",
        "avx2" => "avx2\0",
        "avx512" => "avx512\0",
        "neon" => "neon\0",
        "simd128" => "simd128\0",
        _ => "unknown\0",
    };
    with_nul.as_ptr().cast()
}

/// Describes node `index`: `*id` and `*id_len` receive its id (a pointer into
/// the snapshot, valid until `longstraw_snapshot_free`; not NUL-terminated)
/// and `*weight` its weight.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INDEX_OUT_OF_RANGE`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; each out-pointer must be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_node(
    s: *const longstraw_snapshot,
    index: u32,
    id: *mut *const u8,
    id_len: *mut usize,
    weight: *mut f64,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let snap = unsafe { snap(s)? };
        let (id, id_len, weight) = (Out::new(id)?, Out::new(id_len)?, Out::new(weight)?);
        let node = snap.node(index).ok_or(LONGSTRAW_INDEX_OUT_OF_RANGE)?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            id.write(node.id().as_ptr());
            id_len.write(node.id().len());
            weight.write(node.weight());
        }
        Ok(())
    })
}

/// Writes the index of the node with this id to `*index`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_UNKNOWN_NODE`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `id` must be NULL or point to
/// `id_len` readable bytes; `index` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_index_of(
    s: *const longstraw_snapshot,
    id: *const u8,
    id_len: usize,
    index: *mut u32,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (snap, id) = unsafe { (snap(s)?, in_slice(id, id_len)?) };
        let index = Out::new(index)?;
        let found = snap.index_of(id).ok_or(LONGSTRAW_UNKNOWN_NODE)?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { index.write(found) };
        Ok(())
    })
}

/// Finds the node that owns `key` (`key_len` bytes; `(NULL, 0)` is the
/// empty key). `*index` receives its index, `*id` and `*id_len` its id: a
/// pointer into the snapshot, valid until `longstraw_snapshot_free`, not
/// NUL-terminated.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_NO_ELIGIBLE_NODE` (empty set,
/// or every weight is 0).
///
/// # Safety
/// `s` must be NULL or a live snapshot; `key` must be NULL or point to
/// `key_len` readable bytes; each out-pointer must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_owner(
    s: *const longstraw_snapshot,
    key: *const u8,
    key_len: usize,
    index: *mut u32,
    id: *mut *const u8,
    id_len: *mut usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (snap, key) = unsafe { (snap(s)?, in_slice(key, key_len)?) };
        let (index, id, id_len) = (Out::new(index)?, Out::new(id)?, Out::new(id_len)?);
        let i = snap.owner_index(key)?;
        let node = snap.node(i).ok_or(LONGSTRAW_INTERNAL_ERROR)?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            index.write(node.index());
            id.write(node.id().as_ptr());
            id_len.write(node.id().len());
        }
        Ok(())
    })
}

/// Writes the indices of the best `k` eligible nodes for `key`, best first
/// (in the ranking of the snapshot's mode: for a table, its partition's),
/// to `out[0 .. k)`, and how many it wrote to `*written`: `k`, or fewer when
/// fewer nodes are eligible (0 for an empty or all-drained set, which is not
/// an error here). `out[0]` is the owner. Use these as replica sets: the
/// first `m` entries for `k` > `m` are the same as for `k` = `m`.
///
/// `(NULL, 0)` for `(out, k)` is valid and writes 0.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_MISALIGNED_POINTER`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `key` must be NULL or point to
/// `key_len` readable bytes; `out` must be NULL or point to `k` writable
/// `uint32_t`s; `written` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_top_k(
    s: *const longstraw_snapshot,
    key: *const u8,
    key_len: usize,
    out: *mut u32,
    k: usize,
    written: *mut usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (snap, key, out) = unsafe { (snap(s)?, in_slice(key, key_len)?, out_slice(out, k)?) };
        let written = Out::new(written)?;
        let n = snap.top_k_into(key, out);
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { written.write(n) };
        Ok(())
    })
}

/// Writes every eligible node's index for `key`, best first, to `out` and
/// their number to `*written`. `out_len` must be at least the number of
/// eligible nodes (`longstraw_snapshot_eligible`).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_MISALIGNED_POINTER`,
/// `LONGSTRAW_BUFFER_TOO_SMALL` (nothing is written then).
///
/// # Safety
/// As for `longstraw_snapshot_top_k`, with `out_len` in place of `k`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_rank(
    s: *const longstraw_snapshot,
    key: *const u8,
    key_len: usize,
    out: *mut u32,
    out_len: usize,
    written: *mut usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (snap, key, out) = unsafe { (snap(s)?, in_slice(key, key_len)?, out_slice(out, out_len)?) };
        let written = Out::new(written)?;
        if out.len() < snap.eligible() {
            return Err(LONGSTRAW_BUFFER_TOO_SMALL);
        }
        let n = snap.top_k_into(key, out);
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { written.write(n) };
        Ok(())
    })
}

/// Finds the owner of every key of a batch, writing owner indices to `out`.
///
/// The keys use the packed layout: key `i` is
/// `key_bytes[offsets[i] .. offsets[i + 1]]`, so a batch of n keys has n + 1
/// offsets (`offsets_len` = n + 1; `(NULL, 0)` or a single offset is an empty
/// batch). Offsets must not decrease and must not exceed `key_bytes_len`;
/// `offsets[0]` need not be 0. `out_len` must equal n.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_MISALIGNED_POINTER`,
/// `LONGSTRAW_BAD_OFFSETS`, `LONGSTRAW_LENGTH_MISMATCH`,
/// `LONGSTRAW_NO_ELIGIBLE_NODE` (for a non-empty batch). Nothing is written
/// to `out` on error.
///
/// # Safety
/// `s` must be NULL or a live snapshot; every array must be NULL or point to
/// its stated number of elements (readable inputs, writable `out`), and
/// `out` must not overlap the inputs.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_owners(
    s: *const longstraw_snapshot,
    key_bytes: *const u8,
    key_bytes_len: usize,
    offsets: *const u64,
    offsets_len: usize,
    out: *mut u32,
    out_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (snap, bytes, offsets, out) = unsafe {
            (
                snap(s)?,
                in_slice(key_bytes, key_bytes_len)?,
                in_slice(offsets, offsets_len)?,
                out_slice(out, out_len)?,
            )
        };
        let keys = PackedKeys::new(bytes, offsets)?;
        Ok(snap.owners_into(&keys, out)?)
    })
}

/// Writes at most one node per failure domain for `key`: the first `k` nodes
/// of the key's ranking (`longstraw_snapshot_top_k`'s order) that are each
/// the first of their domain (CRUSH `firstn`). So `out[0]` is the owner, and
/// when a node or a whole domain fails the later replicas shift up. Nodes
/// without a label are domains of their own; with no labels at all this is
/// `longstraw_snapshot_top_k`. `*written` receives how many were written:
/// fewer than `k` when fewer domains have an eligible node (not an error).
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_MISALIGNED_POINTER`.
///
/// # Safety
/// As for `longstraw_snapshot_top_k`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_top_k_distinct(
    s: *const longstraw_snapshot,
    key: *const u8,
    key_len: usize,
    out: *mut u32,
    k: usize,
    written: *mut usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (snap, key, out) = unsafe { (snap(s)?, in_slice(key, key_len)?, out_slice(out, k)?) };
        let written = Out::new(written)?;
        let n = snap.top_k_distinct_into(key, out);
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { written.write(n) };
        Ok(())
    })
}

/// Describes node `index`'s failure domain label: `*domain` and
/// `*domain_len` receive a pointer into the snapshot (valid until
/// `longstraw_snapshot_free`; not NUL-terminated) and its length, or NULL
/// and 0 when the node has no label.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INDEX_OUT_OF_RANGE`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; each out-pointer must be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_domain(
    s: *const longstraw_snapshot,
    index: u32,
    domain: *mut *const u8,
    domain_len: *mut usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let snap = unsafe { snap(s)? };
        let (domain, domain_len) = (Out::new(domain)?, Out::new(domain_len)?);
        let node = snap.node(index).ok_or(LONGSTRAW_INDEX_OUT_OF_RANGE)?;
        let label = node.domain().unwrap_or_default();
        let ptr = if label.is_empty() {
            std::ptr::null()
        } else {
            label.as_ptr()
        };
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            domain.write(ptr);
            domain_len.write(label.len());
        }
        Ok(())
    })
}

/// Writes how the snapshot places keys to `*mode`: `LONGSTRAW_MODE_FLAT`,
/// `LONGSTRAW_MODE_TABLE` or `LONGSTRAW_MODE_SKELETON`, after the set it was
/// taken from.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `mode` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_mode(
    s: *const longstraw_snapshot,
    mode: *mut longstraw_mode,
) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { query(s, mode, |s| s.mode().into()) }
}

/// Writes 1 to `*out` when the snapshot places by keyed-v1 (its set was
/// created with a secret), else 0. A keyed set has no seed:
/// `longstraw_snapshot_seed` reports 0 for it.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_is_keyed(s: *const longstraw_snapshot, out: *mut u32) -> longstraw_result {
    // SAFETY: forwarded contract.
    unsafe { query(s, out, |s| u32::from(s.is_keyed())) }
}

/// The set's error for a mode-specific call on a snapshot of another mode.
fn wrong_mode(operation: &'static str, needs: Mode, snap: &Snapshot) -> longstraw_result {
    Error::WrongMode {
        operation,
        needs,
        actual: snap.mode(),
    }
    .into()
}

/// Writes the partition `key` (`key_len` bytes) falls in to `*partition`: a
/// number below `2^partition_bits` (`longstraw_snapshot_table_shape`). Every
/// key of one partition has the same owner and replicas.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_WRONG_MODE` (not a table;
/// `longstraw_last_error_message` says which mode it is). Thread-safe.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `key` must be NULL or point to
/// `key_len` readable bytes; `partition` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_partition(
    s: *const longstraw_snapshot,
    key: *const u8,
    key_len: usize,
    partition: *mut u32,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (snap, key) = unsafe { (snap(s)?, in_slice(key, key_len)?) };
        let out = Out::new(partition)?;
        let p = snap.partition(key)?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(p) };
        Ok(())
    })
}

/// Writes a table's shape: `*partition_bits` (the table has
/// `2^partition_bits` partitions, after `LONGSTRAW_AUTO` was resolved),
/// `*replicas`, `*flags` (0 or `LONGSTRAW_TABLE_DISTINCT_DOMAINS`) and
/// `*balance` (millionths as a double, e.g. 1.05; 0.0 for a plain table), as
/// given in `longstraw_options` or named by the membership file.
/// A table's shape never changes, so any snapshot of a set tells it.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_WRONG_MODE` (not a table;
/// nothing is written). Thread-safe.
///
/// # Safety
/// `s` must be NULL or a live snapshot; each out-pointer must be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_table_shape(
    s: *const longstraw_snapshot,
    partition_bits: *mut u8,
    replicas: *mut usize,
    flags: *mut u32,
    balance: *mut f64,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let snap = unsafe { snap(s)? };
        let outs = (
            Out::new(partition_bits)?,
            Out::new(replicas)?,
            Out::new(flags)?,
            Out::new(balance)?,
        );
        let table = snap
            .as_table()
            .ok_or_else(|| wrong_mode("table_shape()", Mode::Table, snap))?;
        let fl = if table.distinct_domains() {
            LONGSTRAW_TABLE_DISTINCT_DOMAINS
        } else {
            0
        };
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            outs.0.write(table.partition_bits());
            outs.1.write(table.replicas());
            outs.2.write(fl);
            outs.3.write(table.balance().map_or(0.0, |b| b.as_f64()));
        }
        Ok(())
    })
}

/// Writes a skeleton's tree shape: `*fanout_bits` and `*levels` (after
/// `LONGSTRAW_AUTO` was resolved; both 0 for a flat tree). The shape never
/// changes, so any snapshot of a set tells it.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_WRONG_MODE` (not a skeleton;
/// nothing is written). Thread-safe.
///
/// # Safety
/// `s` must be NULL or a live snapshot; each out-pointer must be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_skeleton_shape(
    s: *const longstraw_snapshot,
    fanout_bits: *mut u8,
    levels: *mut u8,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let snap = unsafe { snap(s)? };
        let (fb, lv) = (Out::new(fanout_bits)?, Out::new(levels)?);
        let shape = snap
            .shape()
            .ok_or_else(|| wrong_mode("skeleton_shape()", Mode::Skeleton, snap))?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe {
            fb.write(shape.fanout_bits());
            lv.write(shape.levels());
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use longstraw_set::{ModeOptions, Options, Rendezvous, SkeletonOptions, TableOptions};

    #[test]
    fn every_mode_round_trips_through_a_handle() {
        let nodes = || [(&b"a"[..], 1.0, None::<&[u8]>), (b"b", 1.0, None), (b"c", 1.0, None)];
        let modes = [
            ModeOptions::Flat,
            ModeOptions::Table(TableOptions::default()),
            ModeOptions::Skeleton(SkeletonOptions::default()),
        ];
        for mode in modes {
            let set = Rendezvous::new(nodes(), Options::default(), mode).unwrap();
            let snap = set.snapshot();
            let h = into_handle(snap.clone());
            // SAFETY: a live handle made just above, released once.
            unsafe {
                let v = view(h).unwrap();
                assert_eq!(v.mode(), mode.mode());
                assert_eq!(v.len(), 3);
                longstraw_snapshot_free(h);
            }
            assert_eq!(Arc::strong_count(&snap), 2, "the handle's count was given back");
        }
    }

    #[test]
    fn a_misaligned_pointer_is_refused_and_not_freed() {
        let bogus = 0x1003usize as *const longstraw_snapshot;
        // SAFETY: refused before any dereference; free ignores it.
        unsafe {
            assert!(matches!(view(bogus), Err(LONGSTRAW_MISALIGNED_POINTER)));
            longstraw_snapshot_free(bogus);
        }
    }
}
