//! One snapshot handle for every placement mode.
//!
//! A `longstraw_snapshot` is an `Arc` of a flat [`Snapshot`], a
//! [`TableSnapshot`] or a [`SkeletonSnapshot`], turned into a raw pointer with
//! the mode in its two low bits. Every `longstraw_snapshot_*` lookup then
//! works on any mode, and taking a snapshot stays a reference-count increment
//! (no allocation), as it was before there were several modes.

use std::sync::Arc;

use longstraw::PackedKeys;
use longstraw_set::{Result, SkeletonSnapshot, Snapshot, TableSnapshot};

use crate::boundary::FfiResult;
use crate::result::longstraw_result::*;
use crate::snapshot::longstraw_snapshot;

/// How a snapshot places keys (`longstraw_snapshot_mode`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum longstraw_mode {
    /// Flat rendezvous hashing, placement v1 (`longstraw_rendezvous`).
    LONGSTRAW_MODE_FLAT = 0,
    /// A partition table (`longstraw_table`, SPEC.md section 10).
    LONGSTRAW_MODE_TABLE = 1,
    /// Skeleton (hierarchical) rendezvous hashing (`longstraw_skeleton`, SPEC.md section 11).
    LONGSTRAW_MODE_SKELETON = 2,
}

use longstraw_mode::*;

/// The pointer bits that hold the mode.
const MODE_BITS: usize = 0b11;

// The pointee of every `Arc` below is aligned to more than `MODE_BITS`, so the
// low bits of an untagged pointer are always zero.
const _: () = assert!(
    std::mem::align_of::<Snapshot>() > MODE_BITS
        && std::mem::align_of::<TableSnapshot>() > MODE_BITS
        && std::mem::align_of::<SkeletonSnapshot>() > MODE_BITS
);

/// A borrowed snapshot of any mode.
#[derive(Clone, Copy)]
pub(crate) enum View<'a> {
    Flat(&'a Snapshot),
    Table(&'a TableSnapshot),
    Skeleton(&'a SkeletonSnapshot),
}

fn tagged<T>(arc: Arc<T>, mode: longstraw_mode) -> *const longstraw_snapshot {
    // wrapping_add keeps the pointer's provenance; the pointee's alignment
    // (asserted above) makes the low bits free.
    Arc::into_raw(arc).cast::<u8>().wrapping_add(mode as usize).cast()
}

/// A handle for a flat snapshot.
pub(crate) fn flat_handle(s: Arc<Snapshot>) -> *const longstraw_snapshot {
    tagged(s, LONGSTRAW_MODE_FLAT)
}
/// A handle for a table snapshot.
pub(crate) fn table_handle(s: Arc<TableSnapshot>) -> *const longstraw_snapshot {
    tagged(s, LONGSTRAW_MODE_TABLE)
}
/// A handle for a skeleton snapshot.
pub(crate) fn skeleton_handle(s: Arc<SkeletonSnapshot>) -> *const longstraw_snapshot {
    tagged(s, LONGSTRAW_MODE_SKELETON)
}

/// The untagged pointer and the mode of a non-NULL handle.
fn untag(s: *const longstraw_snapshot) -> FfiResult<(*const u8, longstraw_mode)> {
    let tag = s as usize & MODE_BITS;
    let base = s.cast::<u8>().wrapping_sub(tag);
    let mode = match tag {
        0 => LONGSTRAW_MODE_FLAT,
        1 => LONGSTRAW_MODE_TABLE,
        2 => LONGSTRAW_MODE_SKELETON,
        // No handle of this library ends in 0b11: not a snapshot.
        _ => return Err(LONGSTRAW_MISALIGNED_POINTER),
    };
    Ok((base, mode))
}

/// Borrows a snapshot handle.
///
/// # Safety
/// `s` must be NULL or a live handle from one of the `*_snapshot` functions.
pub(crate) unsafe fn view<'a>(s: *const longstraw_snapshot) -> FfiResult<View<'a>> {
    if s.is_null() {
        return Err(LONGSTRAW_NULL_ARGUMENT);
    }
    let (base, mode) = untag(s)?;
    // SAFETY: `base` is the pointer Arc::into_raw returned for the type the
    // tag names (see `tagged`), still live by the caller's contract.
    Ok(unsafe {
        match mode {
            LONGSTRAW_MODE_FLAT => View::Flat(&*base.cast::<Snapshot>()),
            LONGSTRAW_MODE_TABLE => View::Table(&*base.cast::<TableSnapshot>()),
            LONGSTRAW_MODE_SKELETON => View::Skeleton(&*base.cast::<SkeletonSnapshot>()),
        }
    })
}

/// Gives a handle's reference count back.
///
/// # Safety
/// `s` must be a live, non-NULL handle that is not used afterwards.
pub(crate) unsafe fn release(s: *const longstraw_snapshot) {
    let Ok((base, mode)) = untag(s) else { return };
    // SAFETY: as in `view`; the caller gives up this reference here.
    unsafe {
        match mode {
            LONGSTRAW_MODE_FLAT => drop(Arc::from_raw(base.cast::<Snapshot>())),
            LONGSTRAW_MODE_TABLE => drop(Arc::from_raw(base.cast::<TableSnapshot>())),
            LONGSTRAW_MODE_SKELETON => drop(Arc::from_raw(base.cast::<SkeletonSnapshot>())),
        }
    }
}

impl<'a> View<'a> {
    pub(crate) fn mode(self) -> longstraw_mode {
        match self {
            View::Flat(_) => LONGSTRAW_MODE_FLAT,
            View::Table(_) => LONGSTRAW_MODE_TABLE,
            View::Skeleton(_) => LONGSTRAW_MODE_SKELETON,
        }
    }

    /// The membership: ids, weights, domains, seed, placement, generation.
    /// Never used for lookups, which differ by mode.
    pub(crate) fn members(self) -> &'a Snapshot {
        match self {
            View::Flat(s) => s,
            View::Table(t) => t.members(),
            View::Skeleton(k) => k.members(),
        }
    }

    pub(crate) fn owner_index(self, key: &[u8]) -> Result<u32> {
        match self {
            View::Flat(s) => s.owner_index(key),
            View::Table(t) => t.owner_index(key),
            View::Skeleton(k) => k.owner_index(key),
        }
    }

    pub(crate) fn top_k_into(self, key: &[u8], out: &mut [u32]) -> usize {
        match self {
            View::Flat(s) => s.top_k_into(key, out),
            View::Table(t) => t.top_k_into(key, out),
            View::Skeleton(k) => k.top_k_into(key, out),
        }
    }

    pub(crate) fn top_k_distinct_into(self, key: &[u8], out: &mut [u32]) -> usize {
        match self {
            View::Flat(s) => s.top_k_distinct_into(key, out),
            View::Table(t) => t.top_k_distinct_into(key, out),
            View::Skeleton(k) => k.top_k_distinct_into(key, out),
        }
    }

    pub(crate) fn owners_into(self, keys: &PackedKeys<'_, u64>, out: &mut [u32]) -> Result<()> {
        match self {
            View::Flat(s) => s.owners_into(keys, out),
            View::Table(t) => t.owners_into(keys, out),
            View::Skeleton(k) => k.owners_into(keys, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use longstraw_set::{Options, Rendezvous, Skeleton, SkeletonOptions, Table, TableOptions};

    #[test]
    fn every_mode_round_trips_through_a_handle() {
        let ids = ["a", "b", "c"];
        let flat = Rendezvous::new(ids, Options::default()).unwrap();
        let table = Table::new(ids, TableOptions::default()).unwrap();
        let skeleton = Skeleton::new(ids, SkeletonOptions::default()).unwrap();
        let handles = [
            flat_handle(flat.snapshot()),
            table_handle(table.snapshot()),
            skeleton_handle(skeleton.snapshot()),
        ];
        for (h, want) in handles
            .into_iter()
            .zip([LONGSTRAW_MODE_FLAT, LONGSTRAW_MODE_TABLE, LONGSTRAW_MODE_SKELETON])
        {
            // SAFETY: live handles made just above, released once.
            unsafe {
                let v = view(h).unwrap();
                assert_eq!(v.mode(), want);
                assert_eq!(v.members().len(), 3);
                release(h);
            }
        }
        assert_eq!(
            Arc::strong_count(&table.snapshot()),
            2,
            "the handle's count was given back"
        );
    }

    #[test]
    fn a_pointer_with_both_low_bits_set_is_refused() {
        let bogus = 0x1003usize as *const longstraw_snapshot;
        // SAFETY: refused before any dereference.
        assert!(matches!(unsafe { view(bogus) }, Err(LONGSTRAW_MISALIGNED_POINTER)));
    }
}
