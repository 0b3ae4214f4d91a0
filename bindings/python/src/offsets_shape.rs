//! Offsets buffers must be one-dimensional: reading a 2-D array as its
//! flattened items would silently place keys by offsets the caller never
//! wrote.

use pyo3::prelude::*;
use pyo3::types::PyMemoryView;

use crate::error::bad_value;

/// An error for a buffer (NumPy array, `memoryview`) with other than one
/// dimension; anything that is not a buffer passes (it is read as a sequence).
pub(crate) fn require_one_dimension(obj: &Bound<'_, PyAny>) -> PyResult<()> {
    let Ok(view) = PyMemoryView::from(obj) else {
        return Ok(());
    };
    let ndim: usize = view.getattr("ndim")?.extract()?;
    let shape = view.getattr("shape").map(|s| s.to_string()).unwrap_or_default();
    let _ = view.call_method0("release");
    if ndim != 1 {
        return Err(bad_value(format!(
            "offsets must be a one-dimensional buffer, got {ndim} dimensions (shape {shape})"
        )));
    }
    Ok(())
}
