//! The one place where longstraw errors become Python exceptions.
//!
//! Bad values are `ValueError`, wrong types `TypeError`, unknown nodes
//! `KeyError`, and lookups with no eligible node `NoEligibleNodeError`, a
//! `LookupError`: the lookup itself is well formed, the set just has nothing
//! to return, the same family as `KeyError` and `IndexError`.

use longstraw_set::Error as SetError;
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyError, PyLookupError, PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    longstraw,
    NoEligibleNodeError,
    PyLookupError,
    "A lookup on a set with no node of non-zero weight (empty or all drained)."
);

/// Converts an error of the set (or of the core inside it) to an exception.
pub(crate) fn to_py(err: SetError) -> PyErr {
    let message = err.to_string();
    match err {
        SetError::Core(longstraw::Error::NoEligibleNodes) => NoEligibleNodeError::new_err(message),
        SetError::UnknownNode { .. } => PyKeyError::new_err(message),
        SetError::OutOfMemory { .. } => PyMemoryError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// Converts an error of the core.
pub(crate) fn core_to_py(err: longstraw::Error) -> PyErr {
    to_py(SetError::Core(err))
}

/// `TypeError("{what} must be {expected}, not {type name}")`.
pub(crate) fn wrong_type(what: &str, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let type_name = got
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "<unknown type>".to_owned());
    PyTypeError::new_err(format!("{what} must be {expected}, not {type_name}"))
}

/// `ValueError(message)`.
pub(crate) fn bad_value(message: String) -> PyErr {
    PyValueError::new_err(message)
}
