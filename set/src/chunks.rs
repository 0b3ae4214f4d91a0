//! A per-node array stored in chunks that successive snapshots share: a
//! change copies the one chunk it touches, not the whole array.
//!
//! Chunks are filled to [`TARGET`] items by appends (nodes join at the end);
//! a removal shrinks its chunk (an emptied chunk goes). Item `i` is found by
//! a binary search over the chunks' first positions: about 8 steps over a
//! few kilobytes at 10^6 items.
//!
//! For the columns that no lookup scans (ids, sequence numbers); the node
//! hashes and weights that the flat race scans stay contiguous
//! ([`crate::column::Column`]).

use std::sync::Arc;

use crate::error::Result;

/// Items per chunk that appends fill.
const TARGET: usize = 4096;

/// One chunked, copy-on-write array.
#[derive(Debug)]
pub(crate) struct Chunks<T> {
    chunks: Vec<Arc<Vec<T>>>,
    /// The position of each chunk's first item.
    starts: Vec<usize>,
    len: usize,
}

impl<T> Clone for Chunks<T> {
    fn clone(&self) -> Self {
        Chunks {
            chunks: self.chunks.clone(),
            starts: self.starts.clone(),
            len: self.len,
        }
    }
}

impl<T> Chunks<T> {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The chunk holding position `at` (`at < len`) and the position in it.
    #[inline]
    fn locate(&self, at: usize) -> (usize, usize) {
        let c = self.starts.partition_point(|&s| s <= at) - 1;
        (c, at - self.starts[c])
    }

    /// Item `at`, if there is one.
    #[inline]
    pub(crate) fn get(&self, at: usize) -> Option<&T> {
        if at >= self.len {
            return None;
        }
        let (c, local) = self.locate(at);
        self.chunks[c].get(local)
    }

    /// Every item, in order.
    pub(crate) fn iter(&self) -> Iter<'_, T> {
        Iter {
            chunks: self.chunks.iter(),
            current: [].iter(),
            left: self.len,
        }
    }

    /// Whether chunk `c` of `self` and of `other` are one allocation.
    #[cfg(test)]
    pub(crate) fn shares_chunk(&self, other: &Chunks<T>, c: usize) -> bool {
        Arc::ptr_eq(&self.chunks[c], &other.chunks[c])
    }

    /// Whether `self` and `other` share every chunk (no copy was made).
    #[cfg(test)]
    pub(crate) fn shares(&self, other: &Chunks<T>) -> bool {
        self.chunks.len() == other.chunks.len() && self.chunks.iter().zip(&other.chunks).all(|(a, b)| Arc::ptr_eq(a, b))
    }

    /// How many chunks of `self` are one allocation with `other`'s chunk
    /// at the same place.
    #[cfg(test)]
    pub(crate) fn shared_chunks(&self, other: &Chunks<T>) -> usize {
        self.chunks
            .iter()
            .zip(&other.chunks)
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count()
    }

    /// How many chunks.
    #[cfg(test)]
    pub(crate) fn chunk_count(&self) -> usize {
        self.chunks.len()
    }
}

impl<T: Clone> Chunks<T> {
    pub(crate) fn new() -> Self {
        Chunks {
            chunks: Vec::new(),
            starts: Vec::new(),
            len: 0,
        }
    }

    /// The items of `items`, in chunks (fallibly: the size is the caller's).
    pub(crate) fn from_vec(items: Vec<T>) -> Result<Self> {
        let mut out = Chunks::new();
        out.len = items.len();
        let count = items.len().div_ceil(TARGET);
        out.chunks = crate::alloc::with_capacity(count)?;
        out.starts = crate::alloc::with_capacity(count)?;
        let mut items = items.into_iter();
        for c in 0..count {
            let mut chunk = crate::alloc::with_capacity(TARGET.min(out.len - c * TARGET))?;
            chunk.extend(items.by_ref().take(TARGET));
            out.starts.push(c * TARGET);
            out.chunks.push(Arc::new(chunk));
        }
        Ok(out)
    }

    /// Appends `item`: copies the last chunk if another snapshot shares it
    /// and it has room, else starts a chunk.
    pub(crate) fn push(&mut self, item: T) -> Result<()> {
        match self.chunks.last_mut() {
            Some(last) if last.len() < TARGET => {
                let own = own(last, 1)?;
                crate::alloc::reserve_one(own)?;
                own.push(item);
            }
            _ => {
                crate::alloc::reserve_one(&mut self.chunks)?;
                crate::alloc::reserve_one(&mut self.starts)?;
                let mut chunk = crate::alloc::with_capacity(TARGET)?;
                chunk.push(item);
                self.chunks.push(Arc::new(chunk));
                self.starts.push(self.len);
            }
        }
        self.len += 1;
        Ok(())
    }

    /// Removes and returns item `at` (`at < len`). A shared chunk is copied
    /// without it in one pass.
    pub(crate) fn remove(&mut self, at: usize) -> Result<T> {
        let (c, local) = self.locate(at);
        let chunk = &mut self.chunks[c];
        let removed = match Arc::get_mut(chunk) {
            Some(own) => own.remove(local),
            None => {
                let mut copy = crate::alloc::with_capacity(chunk.len() - 1)?;
                copy.extend_from_slice(&chunk[..local]);
                copy.extend_from_slice(&chunk[local + 1..]);
                let removed = chunk[local].clone();
                *chunk = Arc::new(copy);
                removed
            }
        };
        for s in &mut self.starts[c + 1..] {
            *s -= 1;
        }
        self.len -= 1;
        if self.chunks[c].is_empty() {
            self.chunks.remove(c);
            self.starts.remove(c);
        }
        Ok(removed)
    }

    /// Replaces item `at` (`at < len`).
    #[allow(dead_code)]
    pub(crate) fn set(&mut self, at: usize, item: T) -> Result<()> {
        let (c, local) = self.locate(at);
        own(&mut self.chunks[c], 0)?[local] = item;
        Ok(())
    }
}

impl<T: Ord> Chunks<T> {
    /// The position of `item` in an ascending array.
    pub(crate) fn position(&self, item: &T) -> Option<usize> {
        let c = self.chunks.partition_point(|ch| ch[0] <= *item);
        let c = c.checked_sub(1)?;
        self.chunks[c]
            .binary_search(item)
            .ok()
            .map(|local| self.starts[c] + local)
    }
}

/// This snapshot's own copy of a chunk (copied, with `room` spare, while
/// another snapshot shares it).
fn own<T: Clone>(chunk: &mut Arc<Vec<T>>, room: usize) -> Result<&mut Vec<T>> {
    if Arc::get_mut(chunk).is_none() {
        *chunk = Arc::new(crate::alloc::cloned_with_room(chunk, room)?);
    }
    Ok(Arc::get_mut(chunk).expect("a fresh copy has one owner"))
}

impl<T> std::ops::Index<usize> for Chunks<T> {
    type Output = T;
    #[inline]
    fn index(&self, at: usize) -> &T {
        let (c, local) = self.locate(at);
        &self.chunks[c][local]
    }
}

/// The items of a [`Chunks`], in order.
#[derive(Clone, Debug)]
pub(crate) struct Iter<'a, T> {
    chunks: std::slice::Iter<'a, Arc<Vec<T>>>,
    current: std::slice::Iter<'a, T>,
    left: usize,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;
    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        loop {
            if let Some(item) = self.current.next() {
                self.left -= 1;
                return Some(item);
            }
            self.current = self.chunks.next()?.iter();
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_copies_one_chunk_and_leaves_the_other_snapshot_as_it_was() {
        let n = 3 * TARGET + 17;
        let original = Chunks::from_vec((0..n as u64).collect()).unwrap();
        assert_eq!(original.chunk_count(), 4);
        let mut changed = original.clone();
        assert_eq!(changed.remove(TARGET + 5).unwrap(), (TARGET + 5) as u64);
        changed.push(1_000_000).unwrap();
        changed.set(0, 42).unwrap();
        // Chunk 0 (set), 1 (remove) and 3 (push) were copied; 2 is shared.
        let shared: Vec<bool> = (0..4).map(|c| original.shares_chunk(&changed, c)).collect();
        assert_eq!(shared, [false, false, true, false]);
        let want_original: Vec<u64> = (0..n as u64).collect();
        assert_eq!(original.iter().copied().collect::<Vec<_>>(), want_original);
        let mut want: Vec<u64> = want_original.clone();
        want.remove(TARGET + 5);
        want.push(1_000_000);
        want[0] = 42;
        assert_eq!(changed.len(), want.len());
        assert_eq!(changed.iter().len(), want.len());
        assert_eq!(changed.iter().copied().collect::<Vec<_>>(), want);
        for (i, w) in want.iter().enumerate() {
            assert_eq!(changed[i], *w);
            assert_eq!(changed.get(i), Some(w));
        }
        assert_eq!(changed.get(want.len()), None);
        // Sorted lookups across chunk boundaries, after a removal and an append.
        let mut sorted = original.clone();
        sorted.remove(TARGET + 5).unwrap();
        sorted.push(1_000_000).unwrap();
        for &x in &want[1..] {
            assert_eq!(sorted.position(&x).map(|i| sorted[i]), Some(x));
        }
        assert_eq!(sorted.position(&0), Some(0));
        assert_eq!(sorted.position(&(TARGET as u64 + 5)), None);
        assert_eq!(sorted.position(&(n as u64)), None);
    }

    #[test]
    fn appends_fill_the_last_chunk_then_start_one_and_removals_drop_empty_chunks() {
        let mut c = Chunks::new();
        for i in 0..(TARGET + 2) as u32 {
            c.push(i).unwrap();
        }
        assert_eq!(c.chunk_count(), 2);
        c.remove(TARGET).unwrap();
        c.remove(TARGET).unwrap();
        assert_eq!(c.chunk_count(), 1);
        assert_eq!(c.len(), TARGET);
        assert_eq!(
            c.iter().copied().collect::<Vec<_>>(),
            (0..TARGET as u32).collect::<Vec<_>>()
        );
        while !c.is_empty() {
            c.remove(0).unwrap();
        }
        assert_eq!(c.chunk_count(), 0);
        assert_eq!(c.position(&3), None);
        c.push(9).unwrap();
        assert_eq!(c[0], 9);
    }
}
