//! The `longstraw._longstraw` extension module: conversions and exceptions
//! over `longstraw-set`. No placement or membership logic lives here.

mod balance;
mod batch;
mod bounded;
mod buffer;
mod chunked;
mod cli;
mod convert;
mod error;
mod exit_guard;
mod fork;
mod generic;
mod keyed;
mod membership_file;
mod offsets_shape;
mod options;
mod rendezvous;
mod shared;
mod snapshot;
mod str_batch;
mod typed;
mod view;
mod weight;

use pyo3::prelude::*;

/// The kernel that new sets run lookups on (`LONGSTRAW_BACKEND` or the best
/// this CPU supports). Placement never depends on it.
#[pyfunction]
fn backend() -> PyResult<&'static str> {
    longstraw_set::backend_from_env()
        .map(|b| b.name())
        .map_err(error::to_py)
}

#[pymodule]
fn _longstraw(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<rendezvous::Rendezvous>()?;
    m.add_class::<bounded::BoundedLoad>()?;
    m.add_class::<bounded::Lease>()?;
    m.add_class::<snapshot::Snapshot>()?;
    m.add("NoEligibleNodeError", m.py().get_type::<error::NoEligibleNodeError>())?;
    m.add_function(wrap_pyfunction!(backend, m)?)?;
    m.add_function(wrap_pyfunction!(batch::pack, m)?)?;
    m.add_function(wrap_pyfunction!(cli::_cli_main, m)?)?;
    exit_guard::register(m)?;
    fork::register(m)?;
    Ok(())
}
