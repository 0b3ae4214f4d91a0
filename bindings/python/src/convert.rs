//! Python values to the types of the set, with errors that name the value.

use longstraw::Placement;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyIterator, PyMemoryView, PyString};

use crate::buffer::RawBytes;
use crate::error::{bad_value, core_to_py, wrong_type};

const KEY_TYPES: &str = "str, bytes, bytearray or memoryview";
/// For arguments that take many keys.
pub(crate) const KEYS_EXPECTED: &str = "an iterable of keys (wrap a single key in a list, or use owner())";

/// Runs `f` on the bytes of a key, without copying them.
///
/// `str` keys are their UTF-8 encoding; a `str` that has none (a lone
/// surrogate) raises `UnicodeEncodeError`, a `ValueError`. Buffers
/// (`bytearray`, `memoryview`) are their raw bytes, as `hashlib` reads them.
#[inline]
pub(crate) fn with_key<R>(key: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> R) -> PyResult<R> {
    if let Ok(s) = key.cast::<PyString>() {
        return Ok(f(s.to_str()?.as_bytes()));
    }
    if let Ok(b) = key.cast::<PyBytes>() {
        return Ok(f(b.as_bytes()));
    }
    with_buffer_key("key", key, f)
}

fn with_buffer_key<R>(what: &str, key: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> R) -> PyResult<R> {
    if key.is_instance_of::<PyByteArray>() || key.is_instance_of::<PyMemoryView>() {
        let raw = RawBytes::get(key)?;
        return Ok(f(raw.as_slice(key.py())));
    }
    Err(wrong_type(what, KEY_TYPES, key))
}

/// Iterates a collection of keys or ids, refusing a lone `str` or bytes-like
/// object, which would otherwise be taken apart into characters or ints.
pub(crate) fn items<'py>(obj: &Bound<'py, PyAny>, what: &str, expected: &str) -> PyResult<Bound<'py, PyIterator>> {
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
        || obj.is_instance_of::<PyMemoryView>()
    {
        return Err(wrong_type(what, expected, obj));
    }
    obj.try_iter()
}

/// A node id as given: its bytes, and the object `owner()` hands back for it
/// (the `str` or `bytes` the caller used, as an exact `str`/`bytes`).
pub(crate) struct NodeId {
    pub bytes: Vec<u8>,
    pub object: Py<PyAny>,
}

/// Converts a node id: `str` stays `str`, anything bytes-like becomes `bytes`.
pub(crate) fn node_id(obj: &Bound<'_, PyAny>) -> PyResult<NodeId> {
    id_like(obj, "node id")
}

/// Converts a failure domain label like a node id; `None` is no label (the
/// node is a domain of its own). The set checks the label's length.
pub(crate) fn domain_label(obj: &Bound<'_, PyAny>) -> PyResult<Option<NodeId>> {
    if obj.is_none() {
        return Ok(None);
    }
    id_like(obj, "domain").map(Some)
}

fn id_like(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<NodeId> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_str()?;
        let object = if obj.is_exact_instance_of::<PyString>() {
            obj.clone().unbind()
        } else {
            PyString::new(py, text).into_any().unbind()
        };
        return Ok(NodeId {
            bytes: text.as_bytes().to_vec(),
            object,
        });
    }
    if obj.is_exact_instance_of::<PyBytes>() {
        let bytes = obj.cast::<PyBytes>()?.as_bytes().to_vec();
        return Ok(NodeId {
            bytes,
            object: obj.clone().unbind(),
        });
    }
    let bytes = if let Ok(b) = obj.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        with_buffer_key(what, obj, |b| b.to_vec())?
    };
    let object = PyBytes::new(py, &bytes).into_any().unbind();
    Ok(NodeId { bytes, object })
}

/// Runs `f` on the bytes of a node id (for remove, set_weight, `in`).
pub(crate) fn with_node_id<R>(obj: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> R) -> PyResult<R> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(f(s.to_str()?.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(f(b.as_bytes()));
    }
    with_buffer_key("node id", obj, f)
}

/// A weight (see `crate::weight`): only values that convert to an `f64` exactly.
pub(crate) use crate::weight::weight;

/// An unsigned integer argument (`seed`, `k`, ...): an `int` (or an object
/// with `__index__`, such as a NumPy integer) in `[0, max]`. `bool` is refused
/// rather than read as 0 or 1.
pub(crate) fn uint_arg(obj: &Bound<'_, PyAny>, name: &str, max: u64) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{name} must be an int, not bool")));
    }
    if !obj.is_instance_of::<PyInt>() && !obj.hasattr("__index__")? {
        return Err(wrong_type(name, "an int", obj));
    }
    let out_of_range = || {
        bad_value(format!(
            "{name} must be an integer in [0, {max}], got {}",
            obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into())
        ))
    };
    match obj.extract::<u64>() {
        Ok(v) if v <= max => Ok(v),
        Ok(_) => Err(out_of_range()),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(out_of_range()),
        Err(e) => Err(e),
    }
}

/// A `seed` argument: any integer in [0, 2^64 - 1]. `None` is refused, not
/// read as the default.
pub(crate) struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        uint_arg(&obj, "seed", u64::MAX).map(Seed)
    }
}

/// A `placement` argument: a version number this build knows (default: v1).
#[derive(Default)]
pub(crate) struct PlacementArg(pub Placement);

impl<'a, 'py> FromPyObject<'a, 'py> for PlacementArg {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let version = uint_arg(&obj, "placement", u64::MAX)?;
        let version = u32::try_from(version).map_err(|_| {
            bad_value(format!(
                "unknown placement version {version} (this build knows: {})",
                Placement::LATEST.number()
            ))
        })?;
        Placement::from_number(version).map(PlacementArg).map_err(core_to_py)
    }
}

/// An optional argument whose default cannot be a Python object in the
/// signature: `Default` when it was left out, the object (even `None`)
/// when it was given, so an explicit `None` is checked like any other value.
pub(crate) enum Given {
    Default,
    Value(Py<PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Given {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Given::Value(obj.to_owned().unbind()))
    }
}

/// A small shape parameter (`bits`, `fanout_bits`, `levels`): an integer in
/// `[0, max]`, `max` being the core's limit. The core checks the rest (a
/// skeleton's fan-out must be at least 1 bit when it has levels).
pub(crate) fn shape_arg(obj: &Bound<'_, PyAny>, name: &str, max: u8) -> PyResult<u8> {
    uint_arg(obj, name, max.into()).map(|v| v as u8)
}

/// A `replicas` argument: any non-negative integer; the core checks the range.
pub(crate) struct Replicas(pub usize);

impl<'a, 'py> FromPyObject<'a, 'py> for Replicas {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let replicas = uint_arg(&obj, "replicas", u64::MAX)?;
        Ok(Replicas(usize::try_from(replicas).unwrap_or(usize::MAX)))
    }
}
