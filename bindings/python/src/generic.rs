//! `Rendezvous[str]` and the other subscripted forms at run time. The stubs make every set and snapshot
//! class generic over its id type (`str` or `bytes`), so annotations such as
//! `def f(r: longstraw.Rendezvous[str])` must also evaluate; like the built-in containers, subscripting
//! returns a `types.GenericAlias` and changes nothing at run time.

use pyo3::prelude::*;
use pyo3::types::PyType;

pub(crate) fn class_getitem<'py>(cls: &Bound<'py, PyType>, item: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    cls.py().import("types")?.getattr("GenericAlias")?.call1((cls, item))
}
