//! The buffer batch: packed keys in, node indices out, no Python object per key.

use longstraw::{KeyOffset, PackedKeys};
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString};

use crate::buffer::RawBytes;
use crate::convert::{items, uint_arg, with_key, KEYS_EXPECTED};
use crate::error::{bad_value, core_to_py, to_py};
use crate::typed::{IntBuffer, IntType};
use longstraw_set::Snapshot;

/// Below this many keys the GIL is kept: releasing and re-taking it costs
/// more than the lookups.
const DETACH_MIN_KEYS: usize = 256;

/// See `Snapshot.owner_indices`.
pub(crate) fn owner_indices<'py>(
    snap: &Snapshot,
    keys: &Bound<'py, PyAny>,
    offsets: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = keys.py();
    let copied;
    let bytes: &[u8] = if let Ok(b) = keys.cast_exact::<PyBytes>() {
        // `bytes` is immutable: it can be read with the GIL released.
        b.as_bytes()
    } else if keys.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "keys must be a bytes-like buffer of concatenated keys, not str (encode it first)",
        ));
    } else {
        // Other buffers may be written by other threads once the GIL is
        // released, so read a private copy.
        copied = try_copy(RawBytes::get(keys)?.as_slice(py))?;
        &copied
    };
    let indices = match read_offsets(offsets, bytes.len())? {
        Offsets::U32(o) => owners(py, snap, bytes, &o)?,
        Offsets::U64(o) => owners(py, snap, bytes, &o)?,
    };
    match out {
        Some(out) => {
            fill_out(out, &indices)?;
            Ok(out.clone())
        }
        None => new_u32_array(py, &indices),
    }
}

fn owners<O: KeyOffset + Sync>(py: Python<'_>, snap: &Snapshot, bytes: &[u8], offsets: &[O]) -> PyResult<Vec<u32>> {
    let packed = PackedKeys::new(bytes, offsets).map_err(core_to_py)?;
    let mut indices = Vec::new();
    indices
        .try_reserve_exact(packed.len())
        .map_err(|_| PyMemoryError::new_err(format!("cannot allocate results for {} keys", packed.len())))?;
    indices.resize(packed.len(), 0u32);
    let run = |indices: &mut [u32]| snap.owners_into(&packed, indices);
    if packed.len() >= DETACH_MIN_KEYS {
        crate::exit_guard::detach(py, || run(&mut indices))
    } else {
        run(&mut indices)
    }
    .map_err(to_py)?;
    Ok(indices)
}

enum Offsets {
    U32(Vec<u32>),
    U64(Vec<u64>),
}

/// A private copy of caller-sized bytes; running out of memory is a `MemoryError`.
fn try_copy(bytes: &[u8]) -> PyResult<Vec<u8>> {
    let mut copy = Vec::new();
    copy.try_reserve_exact(bytes.len())
        .map_err(|_| PyMemoryError::new_err(format!("cannot copy {} key bytes", bytes.len())))?;
    copy.extend_from_slice(bytes);
    Ok(copy)
}

/// Offsets from a buffer of 32- or 64-bit integers (NumPy arrays,
/// `array.array`, ctypes arrays) in this machine's byte order, or from a
/// sequence of ints. `key_bytes` is the length of the packed keys.
fn read_offsets(obj: &Bound<'_, PyAny>, key_bytes: usize) -> PyResult<Offsets> {
    let py = obj.py();
    crate::offsets_shape::require_one_dimension(obj)?;
    if let Some(buffer) = IntBuffer::get(obj) {
        match buffer.int_type("offsets", obj)? {
            Some(IntType::Unsigned(4)) => return Ok(Offsets::U32(buffer.to_vec(py)?)),
            Some(IntType::Unsigned(8)) => return Ok(Offsets::U64(buffer.to_vec(py)?)),
            Some(IntType::Signed(8)) => return unsigned(buffer.to_vec::<i64>(py)?).map(Offsets::U64),
            Some(IntType::Signed(4)) => return unsigned(buffer.to_vec::<i32>(py)?).map(Offsets::U64),
            _ => {}
        }
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(crate::error::wrong_type(
            "offsets",
            "a buffer of 32- or 64-bit integers or a sequence of ints",
            obj,
        ));
    }
    let items = obj.try_iter().map_err(|_| {
        crate::error::wrong_type(
            "offsets",
            "a buffer of 32- or 64-bit integers or a sequence of ints",
            obj,
        )
    })?;
    // Validate while reading, before the list grows: an offset past the keys
    // or below its predecessor ends the read, and the core's check of the
    // prefix reports it (so `range(10**9)` over 0 bytes fails at offsets[1]
    // instead of allocating 8 GB).
    let mut out: Vec<u64> = Vec::new();
    for (at, item) in items.enumerate() {
        let offset = uint_arg(&item?, &format!("offsets[{at}]"), u64::MAX)?;
        if out.len() == out.capacity() {
            out.try_reserve(out.len().max(64))
                .map_err(|_| PyMemoryError::new_err(format!("cannot allocate {} offsets", out.len() * 2)))?;
        }
        out.push(offset);
        let past_keys = usize::try_from(offset).map_or(true, |o| o > key_bytes);
        if past_keys || (at > 0 && offset < out[at - 1]) {
            break;
        }
    }
    Ok(Offsets::U64(out))
}

fn unsigned<T: Copy + Into<i64>>(signed: Vec<T>) -> PyResult<Vec<u64>> {
    signed
        .into_iter()
        .enumerate()
        .map(|(at, v)| {
            let v: i64 = v.into();
            u64::try_from(v).map_err(|_| bad_value(format!("offsets[{at}] is negative: {v}")))
        })
        .collect()
}

fn fill_out(out: &Bound<'_, PyAny>, indices: &[u32]) -> PyResult<()> {
    let py = out.py();
    let expected = "a writable buffer of uint32 (format 'I')";
    let buffer = IntBuffer::get(out).ok_or_else(|| crate::error::wrong_type("out", expected, out))?;
    if buffer.int_type("out", out)? != Some(IntType::Unsigned(4)) {
        return Err(crate::error::wrong_type("out", expected, out));
    }
    if buffer.readonly() {
        return Err(bad_value("out is read-only".into()));
    }
    if buffer.item_count() != indices.len() {
        return Err(bad_value(format!(
            "out has {} items but there are {} keys",
            buffer.item_count(),
            indices.len()
        )));
    }
    buffer.copy_from_slice(py, indices)
}

/// `numpy.empty` when NumPy is importable, else `None`; looked up once.
static NUMPY_EMPTY: PyOnceLock<Option<Py<PyAny>>> = PyOnceLock::new();

fn new_u32_array<'py>(py: Python<'py>, data: &[u32]) -> PyResult<Bound<'py, PyAny>> {
    new_array(py, data, ("uint32", "I"))
}

/// A NumPy array (or `array.array` without NumPy) holding a copy of `data`.
fn new_array<'py, T: Element + NativeBytes>(
    py: Python<'py>,
    data: &[T],
    (dtype, typecode): (&str, &str),
) -> PyResult<Bound<'py, PyAny>> {
    let empty = NUMPY_EMPTY.get_or_init(py, || {
        py.import("numpy")
            .and_then(|np| np.getattr("empty"))
            .ok()
            .map(Bound::unbind)
    });
    if let Some(empty) = empty {
        let array = empty.bind(py).call1((data.len(), dtype))?;
        PyBuffer::<T>::get(&array)?.copy_from_slice(py, data)?;
        return Ok(array);
    }
    let array = py.import("array")?.getattr("array")?.call1((typecode,))?;
    let size = std::mem::size_of::<T>();
    if array.getattr("itemsize")?.extract::<usize>()? != size {
        return Err(PyRuntimeError::new_err(format!(
            "array({typecode:?}) is not {} bits on this platform; install NumPy",
            size * 8
        )));
    }
    let raw = PyBytes::new_with(py, std::mem::size_of_val(data), |buf| {
        for (chunk, v) in buf.chunks_exact_mut(size).zip(data) {
            v.write_ne(chunk);
        }
        Ok(())
    })?;
    array.call_method1("frombytes", (raw,))?;
    Ok(array)
}

/// Integers that can be written to bytes in native order.
trait NativeBytes: Copy {
    fn write_ne(self, out: &mut [u8]);
}

impl NativeBytes for u32 {
    fn write_ne(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_ne_bytes());
    }
}

impl NativeBytes for u64 {
    fn write_ne(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_ne_bytes());
    }
}

/// `longstraw.pack(keys)`: `(bytes, offsets)` in the packed layout that
/// `Snapshot.owner_indices` reads; offsets are `uint64`.
#[pyfunction]
pub(crate) fn pack<'py>(keys: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyAny>)> {
    let py = keys.py();
    let mut bytes = Vec::new();
    let mut offsets = vec![0u64];
    for key in items(keys, "keys", KEYS_EXPECTED)? {
        with_key(&key?, |k| bytes.extend_from_slice(k))?;
        offsets.push(bytes.len() as u64);
    }
    Ok((PyBytes::new(py, &bytes), new_array(py, &offsets, ("uint64", "Q"))?))
}
