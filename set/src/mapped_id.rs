//! A node id in a snapshot's id column that takes no reference count of its
//! own: the snapshot's id map owns the id.
//!
//! Ids are separate allocations, so copying a column of a million `Arc`s
//! touches a million cache lines with atomic increments, and dropping the
//! old snapshot as many again with decrements: most of what a membership
//! change cost at 10^6 nodes once the rest was shared (BENCHMARKS.md, issue
//! 14). A column of `MappedId`s copies as plain pointers.
//!
//! The invariant that makes this sound, kept by `Members`: every id in a
//! snapshot's id column is pointer-equal to a key of the same snapshot's id
//! map, which holds a strong count. A change copies both from the previous
//! snapshot (the map shares its shards, whose keys are `Arc` clones of the
//! same allocations), inserts an id into the map before its column, and
//! removes it from the column before the map. A snapshot's map therefore
//! keeps alive every allocation its column points at, for as long as the
//! snapshot lives.

use std::fmt;
use std::mem::ManuallyDrop;
use std::sync::Arc;

/// The pointer of an `Arc<[u8]>` that the same snapshot's id map owns,
/// without a count of its own. Never released (`ManuallyDrop`).
#[repr(transparent)]
pub(crate) struct MappedId(ManuallyDrop<Arc<[u8]>>);

impl MappedId {
    /// An uncounted copy of `owner`.
    ///
    /// # Safety
    /// The allocation behind `owner` must stay alive (through `owner` or a
    /// clone of it) for as long as the returned id or any copy of it is
    /// used: the snapshot puts `owner` in its id map before this id in its
    /// column, and takes it out of the map only after the id left the column.
    pub(crate) unsafe fn of(owner: &Arc<[u8]>) -> MappedId {
        // SAFETY: a bitwise copy of the (fat) pointer; `ManuallyDrop` never
        // releases the count it did not take, and the caller keeps the
        // allocation alive.
        MappedId(ManuallyDrop::new(unsafe { std::ptr::read(owner) }))
    }

    /// The id as the `Arc` its map owns.
    pub(crate) fn as_arc(&self) -> &Arc<[u8]> {
        &self.0
    }
}

impl Clone for MappedId {
    /// An uncounted copy, for copying a column into the next snapshot, whose
    /// id map starts as a copy of this one's (module docs). Crate-private:
    /// nothing else may hold a `MappedId`.
    fn clone(&self) -> Self {
        // SAFETY: the copy points at the allocation `self` points at, which
        // the copying snapshot's map keeps alive as it does for `self`.
        MappedId(ManuallyDrop::new(unsafe { std::ptr::read(&*self.0) }))
    }
}

impl fmt::Debug for MappedId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0[..], f)
    }
}
