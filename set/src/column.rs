//! A per-node array that successive snapshots share until one changes it.
//!
//! Lookups scan node hashes and weights as contiguous slices, so the arrays
//! stay flat; what a change saves is copying the arrays it does not touch
//! (a weight change copies the weights only) and copying any array twice.

use std::ops::Deref;
use std::sync::Arc;

use crate::error::Result;

/// Spare room in a copy, so that a change adding a node does not copy the
/// array a second time to grow it.
const ROOM: usize = 8;

/// One shared, copy-on-write array.
#[derive(Debug)]
pub(crate) struct Column<T>(Arc<Vec<T>>);

impl<T> Clone for Column<T> {
    fn clone(&self) -> Self {
        Column(Arc::clone(&self.0))
    }
}

impl<T: Clone> Column<T> {
    pub(crate) fn new() -> Self {
        Column(Arc::new(Vec::new()))
    }

    /// A column holding `items`.
    pub(crate) fn from_vec(items: Vec<T>) -> Self {
        Column(Arc::new(items))
    }

    /// This snapshot's own array to change, copied first (fallibly: its size
    /// is the caller's) while another snapshot shares it.
    pub(crate) fn edit(&mut self) -> Result<&mut Vec<T>> {
        if Arc::get_mut(&mut self.0).is_none() {
            self.0 = Arc::new(crate::alloc::cloned_with_room(&self.0, ROOM)?);
        }
        Ok(Arc::get_mut(&mut self.0).expect("a fresh copy has one owner"))
    }

    /// Removes and returns element `index`. A shared array is copied without
    /// it in one pass (not copied, then shifted).
    pub(crate) fn remove(&mut self, index: usize) -> Result<T> {
        if let Some(own) = Arc::get_mut(&mut self.0) {
            return Ok(own.remove(index));
        }
        let old = &self.0;
        let mut copy = crate::alloc::with_capacity(old.len() - 1 + ROOM)?;
        copy.extend_from_slice(&old[..index]);
        copy.extend_from_slice(&old[index + 1..]);
        let removed = old[index].clone();
        self.0 = Arc::new(copy);
        Ok(removed)
    }

    /// Inserts `item` at `index`. A shared array is copied with it in one pass.
    pub(crate) fn insert(&mut self, index: usize, item: T) -> Result<()> {
        if let Some(own) = Arc::get_mut(&mut self.0) {
            crate::alloc::reserve_one(own)?;
            own.insert(index, item);
            return Ok(());
        }
        let old = &self.0;
        let mut copy = crate::alloc::with_capacity(old.len() + ROOM)?;
        copy.extend_from_slice(&old[..index]);
        copy.push(item);
        copy.extend_from_slice(&old[index..]);
        self.0 = Arc::new(copy);
        Ok(())
    }

    /// Appends `item`.
    pub(crate) fn push(&mut self, item: T) -> Result<()> {
        let own = self.edit()?;
        crate::alloc::reserve_one(own)?;
        own.push(item);
        Ok(())
    }

    /// Whether `self` and `other` share one array (no copy was made).
    #[cfg(test)]
    pub(crate) fn shares(&self, other: &Column<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Column<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changing_a_shared_column_leaves_the_other_as_it_was() {
        let original = Column::from_vec((0..10u32).collect());
        let mut changed = original.clone();
        assert!(changed.shares(&original));
        assert_eq!(changed.remove(3).unwrap(), 3);
        assert!(!changed.shares(&original));
        changed.insert(0, 99).unwrap();
        changed.push(7).unwrap();
        changed.edit().unwrap()[1] = 42;
        assert_eq!(&original[..], &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(&changed[..], &[99, 42, 1, 2, 4, 5, 6, 7, 8, 9, 7]);
        // An unshared column changes in place.
        let before = changed.as_ptr();
        changed.remove(0).unwrap();
        changed.insert(2, 5).unwrap();
        assert_eq!(changed.as_ptr(), before);
        assert_eq!(&changed[..], &[42, 1, 5, 2, 4, 5, 6, 7, 8, 9, 7]);
    }
}
