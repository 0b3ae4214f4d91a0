//! A weight from Python: only values that convert to an `f64` exactly.
//!
//! SPEC.md §2: nothing is rounded or clamped. A `float` is taken as is; an
//! `int` (or NumPy integer) must be exactly representable; any other number
//! (`Decimal`, `Fraction`, NumPy floats) is converted with `__float__` and
//! must compare equal to the result, so `Decimal('1e-400')` is an error
//! instead of a silent 0.0 that drains the node. Booleans, Python's and
//! NumPy's, are refused rather than read as 1.0 or 0.0.

use longstraw::validate_weight;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use crate::error::{bad_value, wrong_type};

const RANGE: &str = "weights must be 0 or in [2^-64, 2^64]";

/// Converts and checks one weight; `context` names it in errors ("weights[3]").
pub(crate) fn weight(obj: &Bound<'_, PyAny>, context: &dyn Fn() -> String) -> PyResult<f64> {
    if obj.is_instance_of::<PyBool>() || is_numpy_bool(obj) {
        return Err(PyTypeError::new_err(format!(
            "{}: weight must be a number, not {}",
            context(),
            type_name(obj)
        )));
    }
    let value = if let Ok(f) = obj.cast::<PyFloat>() {
        f.value()
    } else if obj.is_instance_of::<PyInt>() || (obj.hasattr("__index__")? && !obj.is_instance_of::<PyString>()) {
        integer(obj, context)?
    } else if obj.hasattr("__float__")? && !obj.is_instance_of::<PyString>() {
        other_number(obj, context)?
    } else {
        return Err(wrong_type(&format!("{}: weight", context()), "a float or int", obj));
    };
    validate_weight(value).map_err(|e| bad_value(format!("{}: {e}", context())))
}

/// An `int` or an object with `__index__` (NumPy integers), exactly.
fn integer(obj: &Bound<'_, PyAny>, context: &dyn Fn() -> String) -> PyResult<f64> {
    let py = obj.py();
    let int = py.import("operator")?.call_method1("index", (obj,))?;
    let as_float = match int.extract::<f64>() {
        Ok(f) => f,
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
            let why = if int.lt(0)? {
                "it is negative"
            } else {
                "it is above 2^64"
            };
            return Err(bad_value(format!(
                "{}: invalid weight {}: {why} ({RANGE})",
                context(),
                cut(int.to_string())
            )));
        }
        Err(e) => return Err(e),
    };
    if !PyFloat::new(py, as_float).as_any().eq(&int)? {
        return Err(bad_value(format!(
            "{}: weight {} is not exactly representable as a float (the nearest is {})",
            context(),
            cut(int.to_string()),
            nearest(as_float)
        )));
    }
    Ok(as_float)
}

/// Any other number: its `__float__`, which must equal it exactly.
fn other_number(obj: &Bound<'_, PyAny>, context: &dyn Fn() -> String) -> PyResult<f64> {
    let as_float = obj.extract::<f64>()?;
    if as_float.is_nan() {
        return Ok(as_float); // validate_weight names it
    }
    if !obj.eq(PyFloat::new(obj.py(), as_float))? {
        let what = cut(obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into()));
        let rounded = if as_float == 0.0 {
            " (it would round to 0.0, which drains the node)".to_owned()
        } else {
            format!(" (the nearest is {})", nearest(as_float))
        };
        return Err(bad_value(format!(
            "{}: weight {what} is not exactly representable as a float{rounded}",
            context()
        )));
    }
    Ok(as_float)
}

/// At most this many characters of a value in a message (`10**400` has 401).
const SHOWN: usize = 60;

fn cut(text: String) -> String {
    let chars = text.chars().count();
    if chars <= SHOWN {
        return text;
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{head}... ({chars} characters)")
}

/// A float with every digit that tells it from its neighbours.
fn nearest(f: f64) -> String {
    if f.fract() == 0.0 {
        format!("{f:?}")
    } else {
        format!("{f:.17e}")
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    let ty = obj.get_type();
    let module = ty.module().map(|m| m.to_string()).unwrap_or_default();
    let name = ty.name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    if module == "builtins" || module.is_empty() {
        name
    } else {
        format!("{module}.{name}")
    }
}

/// `numpy.bool_` (it has `__float__` but is not a Python `bool`).
fn is_numpy_bool(obj: &Bound<'_, PyAny>) -> bool {
    let ty = obj.get_type();
    let module = ty.module().map(|m| m.to_string()).unwrap_or_default();
    let name = ty.name().map(|n| n.to_string()).unwrap_or_default();
    module == "numpy" && (name == "bool_" || name == "bool")
}
