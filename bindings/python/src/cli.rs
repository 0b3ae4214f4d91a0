//! The `longstraw` console script of the wheel: the same command line as the
//! native binary (cli/), run in this process so that every wheel ships it.

use std::ffi::OsString;

use pyo3::prelude::*;

/// Runs the `longstraw` command line on `argv` (the program name first) and
/// returns its exit code. The GIL is released while it runs.
#[pyfunction]
pub(crate) fn _cli_main(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    crate::exit_guard::detach(py, || longstraw_cli::app::main_with_args(argv))
}
