//! Allocation whose size the caller chooses (partition rows: up to 2^24
//! partitions x 32 replicas x 4 bytes = 2 GB). It fails with
//! [`Error::OutOfMemory`] instead of aborting the process.

use crate::error::{Error, Result};

/// `len` copies of `value`, or `OutOfMemory`.
pub(crate) fn filled<T: Clone>(len: usize, value: T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
        bytes: len.saturating_mul(std::mem::size_of::<T>()),
    })?;
    v.resize(len, value);
    Ok(v)
}

/// A copy of `items`, or `OutOfMemory`.
pub(crate) fn copied<T: Copy>(items: &[T]) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(items.len()).map_err(|_| Error::OutOfMemory {
        bytes: std::mem::size_of_val(items),
    })?;
    v.extend_from_slice(items);
    Ok(v)
}

/// A clone of `items` with room for `room` more, or `OutOfMemory` (the
/// room spares a change that adds a node a second copy of the whole array).
pub(crate) fn cloned_with_room<T: Clone>(items: &[T], room: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(items.len() + room)
        .map_err(|_| Error::OutOfMemory {
            bytes: std::mem::size_of_val(items),
        })?;
    v.extend_from_slice(items);
    Ok(v)
}

/// An empty vector with room for `len` elements, or `OutOfMemory`.
pub(crate) fn with_capacity<T>(len: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
        bytes: len.saturating_mul(std::mem::size_of::<T>()),
    })?;
    Ok(v)
}

/// Room for one more element, or `OutOfMemory`.
pub(crate) fn reserve_one<T>(v: &mut Vec<T>) -> Result<()> {
    v.try_reserve(1).map_err(|_| Error::OutOfMemory {
        bytes: (v.len() + 1).saturating_mul(std::mem::size_of::<T>()),
    })
}
