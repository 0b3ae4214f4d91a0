//! `owners(keys)` for a collection of `str`/bytes keys: each chunk of keys is
//! converted in one pass into the packed layout (bytes and offsets), the
//! core places the chunk at once, and the answer reuses the snapshot's node
//! id objects instead of making one per key.
//!
//! Chunks keep the packed buffers small and reused: packing a whole large
//! batch first spent more time in page faults of the fresh allocation than
//! in copying the keys (perf, 200,000 keys).

use longstraw::PackedKeys;
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert::{items, with_key, KEYS_EXPECTED};
use crate::error::{core_to_py, to_py};
use crate::view::View;

/// Keys packed and placed at a time: the buffers stay in cache.
const CHUNK_KEYS: usize = 2048;
/// Bytes reserved per key of a chunk before its keys are read (most keys are
/// short; longer ones grow the buffer).
const BYTES_PER_KEY_GUESS: usize = 32;

/// The owner id of each key, in order, all from `view`'s membership.
///
/// The GIL is held throughout, as the per-key loop did: releasing it per
/// chunk would let another thread keep it for a whole switch interval.
pub(crate) fn owners<'py>(view: &View, keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let py = keys.py();
    let mut keys = items(keys, "keys", KEYS_EXPECTED)?.peekable();
    let mut chunk = Chunk::new()?;
    let mut indices: Vec<u32> = Vec::new();
    while keys.peek().is_some() {
        chunk.clear();
        for key in keys.by_ref().take(CHUNK_KEYS) {
            chunk.push(&key?)?;
        }
        let batch = PackedKeys::new(&chunk.bytes, &chunk.offsets).map_err(core_to_py)?;
        let start = indices.len();
        reserve(&mut indices, batch.len(), "owner indices")?;
        indices.resize(start + batch.len(), 0);
        view.snap.owners_into(&batch, &mut indices[start..]).map_err(to_py)?;
    }
    PyList::new(py, indices.iter().map(|&i| view.id(py, i)))
}

/// Keys in the packed layout: key `i` is `bytes[offsets[i]..offsets[i + 1]]`.
struct Chunk {
    bytes: Vec<u8>,
    offsets: Vec<usize>,
}

impl Chunk {
    fn new() -> PyResult<Chunk> {
        let mut chunk = Chunk {
            bytes: Vec::new(),
            offsets: Vec::new(),
        };
        reserve(&mut chunk.bytes, CHUNK_KEYS * BYTES_PER_KEY_GUESS, "key bytes")?;
        reserve(&mut chunk.offsets, CHUNK_KEYS + 1, "key offsets")?;
        chunk.offsets.push(0);
        Ok(chunk)
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.offsets.truncate(1);
    }

    /// Appends a key's bytes (a `str` as UTF-8, as `owner()` reads it).
    #[inline]
    fn push(&mut self, key: &Bound<'_, PyAny>) -> PyResult<()> {
        let bytes = &mut self.bytes;
        with_key(key, |k| {
            reserve(bytes, k.len(), "key bytes")?;
            bytes.extend_from_slice(k);
            Ok::<_, PyErr>(())
        })??;
        reserve(&mut self.offsets, 1, "key offsets")?;
        self.offsets.push(self.bytes.len());
        Ok(())
    }
}

/// Room for `more` elements (amortised growth), or a `MemoryError`.
#[inline]
fn reserve<T>(v: &mut Vec<T>, more: usize, what: &str) -> PyResult<()> {
    if v.capacity() - v.len() >= more {
        return Ok(());
    }
    grow(v, more, what)
}

#[cold]
fn grow<T>(v: &mut Vec<T>, more: usize, what: &str) -> PyResult<()> {
    v.try_reserve(more)
        .map_err(|_| PyMemoryError::new_err(format!("cannot allocate {what} for {more} more items")))
}
