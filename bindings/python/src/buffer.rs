//! Raw byte views of objects that export the buffer protocol, the way
//! `hashlib` reads them: C-contiguous memory taken as bytes, whatever the
//! item format.

use std::ffi::c_int;
use std::ptr::NonNull;

use pyo3::ffi;
use pyo3::prelude::*;

/// A `PyBUF_SIMPLE` export, released on drop.
pub(crate) struct RawBytes {
    // Boxed: the exporter may keep pointers into the `Py_buffer` it filled.
    view: Box<ffi::Py_buffer>,
}

impl RawBytes {
    /// Exports `obj`'s memory; fails with the exporter's own error (`TypeError`
    /// for non-buffers, `BufferError` for non-contiguous memory).
    pub(crate) fn get(obj: &Bound<'_, PyAny>) -> PyResult<RawBytes> {
        Self::export(obj, ffi::PyBUF_SIMPLE)
    }

    fn export(obj: &Bound<'_, PyAny>, flags: c_int) -> PyResult<RawBytes> {
        let mut view = Box::new(ffi::Py_buffer::new());
        // SAFETY: `obj` is a live object (we hold a reference and the GIL) and
        // `view` is a valid, exclusively owned `Py_buffer` for it to fill.
        let rc = unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), &mut *view, flags) };
        if rc == -1 {
            return Err(PyErr::fetch(obj.py()));
        }
        Ok(RawBytes { view })
    }

    /// How many bytes the export covers.
    pub(crate) fn len(&self) -> usize {
        // A successful export never has a negative length.
        usize::try_from(self.view.len).unwrap_or(0)
    }

    /// The exported bytes. Borrowing `py` ties them to holding the GIL: no
    /// Python code, and so no other writer, runs while they are read.
    pub(crate) fn as_slice<'a>(&'a self, _py: Python<'a>) -> &'a [u8] {
        let len = self.len();
        let ptr = NonNull::new(self.view.buf.cast::<u8>()).unwrap_or(NonNull::dangling());
        // SAFETY: a PyBUF_SIMPLE export is `len` contiguous bytes at `buf`,
        // valid until PyBuffer_Release (in Drop, after this borrow ends). A
        // null `buf` only comes with `len == 0`, covered by the dangling pointer.
        unsafe { std::slice::from_raw_parts(ptr.as_ptr(), len) }
    }
}

impl Drop for RawBytes {
    fn drop(&mut self) {
        Python::attach(|_py| {
            // SAFETY: `view` was filled by a successful PyObject_GetBuffer
            // and is released exactly once, here, with the GIL held.
            unsafe { ffi::PyBuffer_Release(&mut *self.view) }
        });
    }
}
