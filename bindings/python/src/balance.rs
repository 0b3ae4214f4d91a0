//! The `balance` argument of `longstraw.Table` (SPEC.md §17).

use longstraw_set::Balance;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

/// `None` (a plain table), or a `float` or `int` from 1.0 to 4.0, held to
/// millionths. `bool`, strings and NaN are refused, never coerced.
pub(crate) fn balance_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Balance>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if obj.is_instance_of::<PyBool>() || !(obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>()) {
        let type_name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(PyTypeError::new_err(format!(
            "balance must be a float or int from 1.0 to 4.0, or None, not {type_name}"
        )));
    }
    let value: f64 = obj
        .extract()
        .map_err(|_| PyValueError::new_err(format!("balance {obj} is out of range (1.0 to 4.0)")))?;
    Balance::new(value)
        .map(Some)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
