//! `owners(keys)` for an array of strings (or Buffers): each chunk of keys
//! is read into the packed layout (bytes and offsets), the core places the
//! chunk at once with the packed batch, and the ids are set into the answer
//! by one JavaScript loop (which defines them: see `compiled`).
//!
//! A chunk's strings are read as one: `pack` (see `compiled`) joins them in
//! JavaScript and reports each one's UTF-16 length, one Node-API read copies
//! the joined units, and each key is encoded to UTF-8 here, a lone surrogate
//! being an error for that key as in `owner()`. Keys that are not strings
//! (Buffers, Uint8Arrays, and wrong types for their error) are read one by
//! one. Chunks keep the buffers small and reused.

use longstraw::PackedKeys;
use napi::sys;

use crate::alloc;
use crate::error::{codes, JsErr, Kind, Res};
use crate::lookup;
use crate::node_api::args::{self, Items};
use crate::node_api::compiled::Compiled;
use crate::node_api::strings::{self, KeyBuf};
use crate::node_api::{out, Cx};
use longstraw_set::Snapshot;

/// Keys read and placed at a time.
const CHUNK_KEYS: usize = 2048;
/// Bytes reserved per key of a chunk up front (longer keys grow the buffer).
const BYTES_PER_KEY_GUESS: usize = 32;

/// The owner id of each key of the array `keys`, all from `snap`.
pub fn owners(cx: Cx, snap: &Snapshot, keys: sys::napi_value) -> Res<sys::napi_value> {
    let items = args::array(cx, keys, &|| "keys".into())?;
    // Grown chunk by chunk, so that a huge array with a bad first element
    // fails before anything is allocated for its length.
    let mut indices: Vec<u32> = Vec::new();
    let compiled = Compiled::get(cx);
    let mut chunk = Chunk::new()?;
    let lengths = match compiled {
        Some(_) => Some(out::new_u32_array(cx, CHUNK_KEYS + 1)?.0),
        None => None,
    };
    let mut start = 0;
    while start < items.len() {
        let end = (start + CHUNK_KEYS).min(items.len());
        chunk.clear();
        match (compiled, lengths) {
            (Some(compiled), Some(lengths)) => chunk.read_joined(cx, compiled, &items, keys, (start, end), lengths)?,
            _ => {
                for at in start..end {
                    chunk.push(cx, items.get(at)?, at)?;
                }
            }
        }
        let packed = PackedKeys::new(&chunk.bytes, &chunk.offsets)?;
        indices
            .try_reserve(packed.len())
            .map_err(|_| alloc::out_of_memory("owner indices", (end * 4).max(1)))?;
        indices.resize(end, 0);
        snap.owners_into(&packed, &mut indices[start..end])?;
        start = end;
    }
    ids(cx, snap, &indices, compiled)
}

/// The id of each node index, as a new array. Through `gather` when the
/// batch has at least as many keys as the snapshot has nodes (it reads an
/// array of every id); otherwise one id per distinct index.
fn ids(cx: Cx, snap: &Snapshot, indices: &[u32], compiled: Option<Compiled>) -> Res<sys::napi_value> {
    let Some(compiled) = compiled.filter(|_| snap.len() <= indices.len()) else {
        return lookup::ids_of(cx, snap, indices);
    };
    let ids = lookup::nodes(cx, snap)?;
    let (typed, slots) = out::new_u32_array(cx, indices.len())?;
    slots.copy_from_slice(indices);
    out::publish(cx, typed, indices.len())?;
    // A JavaScript array has fewer than 2^32 elements.
    compiled.gather(ids, typed, indices.len() as u32)
}

/// Keys in the packed layout: key `i` is `bytes[offsets[i]..offsets[i + 1]]`.
struct Chunk {
    bytes: Vec<u8>,
    offsets: Vec<usize>,
    /// Scratch: UTF-16 units read from JavaScript.
    units: Vec<u16>,
    /// Scratch: the bytes of a key that is not a string.
    other: KeyBuf,
}

fn internal(message: String) -> JsErr {
    JsErr::new(Kind::Error, codes::INTERNAL, message)
}

impl Chunk {
    fn new() -> Res<Chunk> {
        let mut chunk = Chunk {
            bytes: Vec::new(),
            offsets: Vec::new(),
            units: Vec::new(),
            other: KeyBuf::default(),
        };
        alloc::extend(&mut chunk.offsets, &[0], "key offsets")?;
        chunk
            .bytes
            .try_reserve(CHUNK_KEYS * BYTES_PER_KEY_GUESS)
            .map_err(|_| alloc::out_of_memory("key bytes", CHUNK_KEYS * BYTES_PER_KEY_GUESS))?;
        Ok(chunk)
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.offsets.truncate(1);
    }

    /// Appends key `at`: a string as UTF-8 (as `owner()` reads it), a
    /// Buffer or Uint8Array as its bytes; anything else is a TypeError.
    fn push(&mut self, cx: Cx, key: sys::napi_value, at: usize) -> Res<()> {
        let what = || format!("keys[{at}]");
        if !strings::append_string(cx, key, &mut self.units, &mut self.bytes, &what)? {
            let bytes = args::bytes(cx, key, &mut self.other, &what)?;
            alloc::extend(&mut self.bytes, bytes, "key bytes")?;
        }
        alloc::push(&mut self.offsets, self.bytes.len(), "key offsets")
    }

    /// Appends keys `start..end` of `keys`: runs of strings through `pack`,
    /// any other value through `push`. `lengths` is a Uint32Array of at
    /// least `end - start + 1` elements.
    fn read_joined(
        &mut self,
        cx: Cx,
        compiled: Compiled,
        items: &Items,
        keys: sys::napi_value,
        (start, end): (usize, usize),
        lengths: sys::napi_value,
    ) -> Res<()> {
        let mut at = start;
        while at < end {
            // Array indices are below 2^32.
            let joined = compiled.pack(keys, at as u32, end as u32, lengths)?;
            // Read after the call: JavaScript wrote it.
            let lens = args::u32_array_mut(cx, lengths, &|| "key lengths".into())?;
            let stop = lens[end - at] as usize;
            if !(at..=end).contains(&stop) || !strings::utf16_into(cx, joined, &mut self.units, &|| "keys".into())? {
                return Err(internal(format!("pack returned a bad result for keys {at}..{end}")));
            }
            if self.units.iter().all(|&u| u < 0x80) {
                self.push_ascii_run(&lens[..stop - at])?;
            } else {
                self.push_run(&lens[..stop - at], at)?;
            }
            if stop < end {
                self.push(cx, items.get(stop)?, stop)?;
                at = stop + 1;
            } else {
                at = end;
            }
        }
        Ok(())
    }

    /// Appends the keys of `self.units` (the joined strings of keys
    /// `first..`), of the given UTF-16 lengths, when every unit is ASCII: one
    /// narrowing copy, and offsets that are the sums of the lengths.
    fn push_ascii_run(&mut self, lens: &[u32]) -> Res<()> {
        let total: usize = lens.iter().map(|&l| l as usize).sum();
        if total != self.units.len() {
            return Err(internal(
                "pack: the key lengths do not add up to the joined string".into(),
            ));
        }
        self.bytes
            .try_reserve(total)
            .map_err(|_| alloc::out_of_memory("key bytes", self.bytes.len().saturating_add(total)))?;
        self.offsets
            .try_reserve(lens.len())
            .map_err(|_| alloc::out_of_memory("key offsets", (self.offsets.len() + lens.len()) * 8))?;
        let mut end = self.bytes.len();
        self.bytes.extend(self.units.iter().map(|&u| u as u8));
        for &len in lens {
            end += len as usize;
            self.offsets.push(end);
        }
        Ok(())
    }

    /// As `push_ascii_run`, for any text: each key encoded on its own, so
    /// that a lone surrogate is reported for its key (`first` + position).
    fn push_run(&mut self, lens: &[u32], first: usize) -> Res<()> {
        let mut from = 0usize;
        for (i, &len) in (first..).zip(lens) {
            let to = from + len as usize;
            let units = self
                .units
                .get(from..to)
                .ok_or_else(|| internal(format!("pack: key {i} is past the joined string")))?;
            strings::append_utf8_or_throw(units, &mut self.bytes, &|| format!("keys[{i}]"))?;
            alloc::push(&mut self.offsets, self.bytes.len(), "key offsets")?;
            from = to;
        }
        if from != self.units.len() {
            return Err(internal(
                "pack: the key lengths do not add up to the joined string".into(),
            ));
        }
        Ok(())
    }
}
