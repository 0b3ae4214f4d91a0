//! Integer buffers (NumPy arrays, `array.array`, ctypes arrays) read and
//! written with their byte order checked here.
//!
//! PyO3 0.27.2's `PyBuffer<T>` format check takes `'>'` as native on
//! little-endian hosts (so a `'>u4'` array was read and written byte-swapped
//! without an error) and refuses `'<I'` (so a correct ctypes array was
//! rejected). This module reads the format string itself: native (`''`, `'@'`,
//! `'='`) and this host's explicit byte order are accepted; anything else is a
//! `TypeError` that names the dtype.

use std::ffi::{c_void, CStr};

use pyo3::buffer::ElementType;
use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;

use crate::error::bad_value;

/// This host's explicit byte-order prefix in struct/buffer format strings.
#[cfg(target_endian = "little")]
const HOST_ORDER: u8 = b'<';
#[cfg(target_endian = "big")]
const HOST_ORDER: u8 = b'>';

/// The integer type of a buffer: signedness and size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntType {
    Unsigned(usize),
    Signed(usize),
}

/// A `PyBUF_FULL_RO` export (format, shape, strides), released on drop.
pub(crate) struct IntBuffer {
    view: Box<ffi::Py_buffer>,
}

impl IntBuffer {
    /// Exports `obj`'s buffer, or `None` when it has no buffer interface.
    pub(crate) fn get(obj: &Bound<'_, PyAny>) -> Option<IntBuffer> {
        let mut view = Box::new(ffi::Py_buffer::new());
        // SAFETY: `obj` is live (we hold a reference and the GIL) and `view` is
        // a valid, exclusively owned `Py_buffer` for it to fill.
        let rc = unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), &mut *view, ffi::PyBUF_FULL_RO) };
        if rc == -1 {
            // Not a buffer (or not one we can read): the caller tries other forms.
            drop(PyErr::take(obj.py()));
            return None;
        }
        Some(IntBuffer { view })
    }

    fn format(&self) -> &CStr {
        if self.view.format.is_null() {
            c"B"
        } else {
            // SAFETY: a non-null format of a live export is a C string owned by
            // the exporter until release.
            unsafe { CStr::from_ptr(self.view.format) }
        }
    }

    /// The integer type, `Ok(None)` for a native non-integer format (floats,
    /// bools, structs), or a `TypeError` for a byte order that is not this
    /// host's. `what` and `obj` name the argument and its dtype in errors.
    pub(crate) fn int_type(&self, what: &str, obj: &Bound<'_, PyAny>) -> PyResult<Option<IntType>> {
        let format = self.format();
        let bytes = format.to_bytes();
        if let [order @ (b'<' | b'>' | b'!'), _] = bytes {
            if *order != HOST_ORDER {
                return Err(PyTypeError::new_err(format!(
                    "{what} has dtype {} (format '{}'), whose byte order is not this machine's; \
                     convert it first, e.g. with .astype('{}')",
                    dtype_name(obj),
                    format.to_string_lossy(),
                    native_spelling(bytes[1])
                )));
            }
        }
        let itemsize = usize::try_from(self.view.itemsize).unwrap_or(0);
        Ok(match ElementType::from_format(format) {
            ElementType::UnsignedInteger { bytes } if bytes == itemsize => Some(IntType::Unsigned(bytes)),
            ElementType::SignedInteger { bytes } if bytes == itemsize => Some(IntType::Signed(bytes)),
            _ => None,
        })
    }

    pub(crate) fn item_count(&self) -> usize {
        let itemsize = usize::try_from(self.view.itemsize).unwrap_or(1).max(1);
        usize::try_from(self.view.len).unwrap_or(0) / itemsize
    }

    pub(crate) fn readonly(&self) -> bool {
        self.view.readonly != 0
    }

    /// A C-order copy of the items, which must be `T`-sized (checked by the
    /// caller with `int_type`). The allocation is fallible: a `MemoryError`.
    pub(crate) fn to_vec<T: Copy + Default>(&self, py: Python<'_>) -> PyResult<Vec<T>> {
        let count = self.item_count();
        assert_eq!(
            self.view.itemsize as usize,
            std::mem::size_of::<T>(),
            "int_type checked the size"
        );
        let mut out: Vec<T> = Vec::new();
        out.try_reserve_exact(count)
            .map_err(|_| PyMemoryError::new_err(format!("cannot allocate {count} offsets")))?;
        out.resize(count, T::default());
        // SAFETY: `out` holds exactly `len` bytes (count items of the buffer's
        // item size); the export is live and the GIL is held.
        let rc = unsafe {
            ffi::PyBuffer_ToContiguous(
                out.as_mut_ptr().cast::<c_void>(),
                &*self.view,
                self.view.len,
                b'C' as std::ffi::c_char,
            )
        };
        if rc == -1 {
            return Err(PyErr::fetch(py));
        }
        Ok(out)
    }

    /// Writes `items` over the buffer (checked writable, same count, and
    /// `T`-sized by the caller).
    pub(crate) fn copy_from_slice<T: Copy>(&self, py: Python<'_>, items: &[T]) -> PyResult<()> {
        if self.readonly() {
            return Err(bad_value("out is read-only".into()));
        }
        assert_eq!(
            std::mem::size_of_val(items),
            self.view.len as usize,
            "caller checked the count"
        );
        // SAFETY: the export is writable, live, and `items` is exactly `len`
        // bytes; the GIL is held, so no Python code touches the buffer meanwhile.
        let rc = unsafe {
            ffi::PyBuffer_FromContiguous(
                &*self.view,
                items.as_ptr().cast::<c_void>(),
                self.view.len,
                b'C' as std::ffi::c_char,
            )
        };
        if rc == -1 {
            return Err(PyErr::fetch(py));
        }
        Ok(())
    }
}

impl Drop for IntBuffer {
    fn drop(&mut self) {
        Python::attach(|_py| {
            // SAFETY: `view` was filled by a successful PyObject_GetBuffer and
            // is released exactly once, here, with the GIL held.
            unsafe { ffi::PyBuffer_Release(&mut *self.view) }
        });
    }
}

/// The object's NumPy dtype (`'>u4'`) when it has one, else its type name.
fn dtype_name(obj: &Bound<'_, PyAny>) -> String {
    if let Ok(dtype) = obj.getattr("dtype").and_then(|d| d.getattr("str")) {
        if let Ok(s) = dtype.extract::<String>() {
            return format!("'{s}'");
        }
    }
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "<unknown type>".into())
}

/// The native-order spelling of a struct type code, for the error's advice.
fn native_spelling(code: u8) -> String {
    match code {
        b'B' | b'c' => "u1".into(),
        b'b' => "i1".into(),
        b'H' => "=u2".into(),
        b'h' => "=i2".into(),
        b'I' | b'L' => "=u4".into(),
        b'i' | b'l' => "=i4".into(),
        b'Q' => "=u8".into(),
        b'q' => "=i8".into(),
        c => format!("={}", c as char),
    }
}
