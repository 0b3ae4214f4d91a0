//! The Python objects of a membership by node index, in chunks that
//! successive views share until a change touches one.
//!
//! A membership change edits one node: an add appends, a remove shifts the
//! nodes after it down by one, a weight or label change rewrites one entry.
//! A flat array of objects would have to be copied (one reference count each,
//! with the GIL held) on every change; here a change copies the one chunk it
//! touches and the list of chunk pointers, so publishing costs
//! O(`CHUNK` + n / `CHUNK`) instead of O(n).

use std::sync::Arc;

use pyo3::prelude::*;

/// A Python value that is copied by taking a new reference.
pub(crate) trait CloneRef {
    fn clone_ref(&self, py: Python<'_>) -> Self;
}

impl CloneRef for Py<PyAny> {
    #[inline]
    fn clone_ref(&self, py: Python<'_>) -> Self {
        Py::clone_ref(self, py)
    }
}

impl CloneRef for Option<Py<PyAny>> {
    #[inline]
    fn clone_ref(&self, py: Python<'_>) -> Self {
        self.as_ref().map(|o| o.clone_ref(py))
    }
}

const SHIFT: u32 = 10;
/// Entries per chunk when chunks are full.
pub(crate) const CHUNK: usize = 1 << SHIFT;

/// An immutable array of `T` in shared chunks; every edit returns a new array.
pub(crate) struct Chunked<T> {
    chunks: Vec<Arc<[T]>>,
    /// `starts[j]`: the index of chunk `j`'s first entry.
    starts: Vec<usize>,
    len: usize,
    /// Whether every chunk but the last is full, so that an index finds its
    /// chunk by a shift instead of a search.
    full: bool,
}

impl<T> Clone for Chunked<T> {
    /// Another handle on the same chunks (no Python reference is taken).
    fn clone(&self) -> Self {
        Chunked {
            chunks: self.chunks.clone(),
            starts: self.starts.clone(),
            len: self.len,
            full: self.full,
        }
    }
}

impl<T: CloneRef> Chunked<T> {
    /// The array of `items`, in full chunks.
    pub(crate) fn from_vec(items: Vec<T>) -> Chunked<T> {
        let len = items.len();
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        let mut items = items.into_iter();
        loop {
            let chunk: Vec<T> = items.by_ref().take(CHUNK).collect();
            if chunk.is_empty() {
                break;
            }
            chunks.push(Arc::from(chunk));
        }
        Chunked::of_chunks(chunks)
    }

    fn of_chunks(chunks: Vec<Arc<[T]>>) -> Chunked<T> {
        let mut starts = Vec::with_capacity(chunks.len());
        let mut len = 0;
        for c in &chunks {
            starts.push(len);
            len += c.len();
        }
        let full = chunks.iter().rev().skip(1).all(|c| c.len() == CHUNK);
        Chunked {
            chunks,
            starts,
            len,
            full,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Entry `index` (panics when out of range, as a slice does).
    #[inline]
    pub(crate) fn get(&self, index: usize) -> &T {
        if self.full {
            return &self.chunks[index >> SHIFT][index & (CHUNK - 1)];
        }
        let (chunk, at) = self.locate(index);
        &self.chunks[chunk][at]
    }

    /// The chunk of `index` and the position in it.
    fn locate(&self, index: usize) -> (usize, usize) {
        assert!(index < self.len, "index {index} out of range for {} entries", self.len);
        let chunk = self.starts.partition_point(|&s| s <= index) - 1;
        (chunk, index - self.starts[chunk])
    }

    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &T> + '_ {
        Iter {
            inner: self.chunks.iter().flat_map(|c| c.iter()),
            left: self.len,
        }
    }

    /// This array with `item` appended.
    pub(crate) fn push(&self, py: Python<'_>, item: T) -> Chunked<T> {
        let mut chunks = self.chunks.clone();
        match chunks.last_mut() {
            Some(last) if last.len() < CHUNK => {
                let mut copy: Vec<T> = last.iter().map(|x| x.clone_ref(py)).collect();
                copy.push(item);
                *last = Arc::from(copy);
            }
            _ => chunks.push(Arc::from(vec![item])),
        }
        self.compacted(py, chunks)
    }

    /// This array without entry `index`; the entries after it move down by one.
    pub(crate) fn remove(&self, py: Python<'_>, index: usize) -> Chunked<T> {
        let (chunk, at) = self.locate(index);
        let mut chunks = self.chunks.clone();
        let old = &self.chunks[chunk];
        if old.len() == 1 {
            chunks.remove(chunk);
        } else {
            let copy: Vec<T> = old
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != at)
                .map(|(_, x)| x.clone_ref(py))
                .collect();
            chunks[chunk] = Arc::from(copy);
        }
        self.compacted(py, chunks)
    }

    /// This array with entry `index` replaced by `item`.
    pub(crate) fn replace(&self, py: Python<'_>, index: usize, item: T) -> Chunked<T> {
        let (chunk, at) = self.locate(index);
        let mut chunks = self.chunks.clone();
        let mut item = Some(item);
        let copy: Vec<T> = self.chunks[chunk]
            .iter()
            .enumerate()
            .map(|(i, x)| match i == at {
                true => item.take().expect("one entry is replaced"),
                false => x.clone_ref(py),
            })
            .collect();
        chunks[chunk] = Arc::from(copy);
        Chunked::of_chunks(chunks)
    }

    /// `chunks` as an array, copied into full chunks once removals have left
    /// more than twice as many chunks as full ones would need (so a change
    /// stays O(n / CHUNK), amortized).
    fn compacted(&self, py: Python<'_>, chunks: Vec<Arc<[T]>>) -> Chunked<T> {
        let array = Chunked::of_chunks(chunks);
        if array.chunks.len() <= 2 * array.len.div_ceil(CHUNK) + 1 {
            return array;
        }
        Chunked::from_vec(array.iter().map(|x| x.clone_ref(py)).collect())
    }
}

/// The entries in index order.
struct Iter<I> {
    inner: I,
    left: usize,
}

impl<'a, T: 'a, I: Iterator<Item = &'a T>> Iterator for Iter<I> {
    type Item = &'a T;
    fn next(&mut self) -> Option<&'a T> {
        let item = self.inner.next()?;
        self.left -= 1;
        Some(item)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<'a, T: 'a, I: Iterator<Item = &'a T>> ExactSizeIterator for Iter<I> {}
