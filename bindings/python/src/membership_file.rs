//! Membership files (docs/MEMBERSHIP.md) for Python: `Rendezvous.load(path)`,
//! `Table.load`, `Skeleton.load` and `.save(path)`. The file is parsed,
//! validated, built and written by `longstraw-membership`, the one parser
//! every language calls; this module only converts its results and errors.

use std::path::{Path, PathBuf};

use longstraw_membership::{Error, ErrorKind, Loaded, Membership, SecretSource};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;

/// A file error as an exception: `FileNotFoundError`/`OSError` when it cannot
/// be read or written, `ValueError` naming the line and the field otherwise.
fn to_py(e: Error) -> PyErr {
    let message = e.to_string();
    match &e.kind {
        ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        ErrorKind::Io(_) => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// The Python class that loads a file of `loaded`'s mode, and the mode's name in files.
fn class_of(loaded: &Loaded) -> (&'static str, &'static str) {
    match loaded {
        Loaded::Flat(_) => ("Rendezvous", "flat"),
        Loaded::Table(_) => ("Table", "table"),
        Loaded::Skeleton(_) => ("Skeleton", "skeleton"),
    }
}

/// Reads, validates and builds the set `path` describes, in one pass and
/// with the GIL released throughout (reading the file and the secret may
/// wait, on a FIFO for instance; building a large table takes a while).
/// The secret is read once, by the build, and never becomes a Python
/// object. Returns the set and the secret source the file named.
///
/// `class` is the class whose `load` was called and `of_mode` takes its set
/// out of a [`Loaded`]: a file of another mode is refused, naming the class
/// that loads it.
pub(crate) fn load<S: Send>(
    py: Python<'_>,
    path: &Path,
    class: &str,
    of_mode: impl FnOnce(Loaded) -> Result<S, Loaded> + Send,
) -> PyResult<(S, Option<SecretSource>)> {
    crate::exit_guard::detach(py, || {
        let membership = Membership::read(path).map_err(to_py)?;
        let loaded = membership.build().map_err(|mut e| {
            e.origin = path.display().to_string();
            to_py(e)
        })?;
        match of_mode(loaded) {
            Ok(set) => Ok((set, membership.secret)),
            Err(other) => {
                let (found, mode) = class_of(&other);
                Err(PyValueError::new_err(format!(
                    "{}: the file's mode is \"{mode}\"; load it with longstraw.{found}.load, not {class}.load",
                    path.display()
                )))
            }
        }
    })
}

/// Writes `m` to `path` (a temporary file renamed over it), with the GIL
/// released. A keyed set's secret source is, in order: the one given here
/// (`secret_file` or `secret_env`, at most one), the one the file it was
/// loaded from named (`remembered`); without either, saving a keyed set is
/// refused. The secret itself is never written.
pub(crate) fn save(
    py: Python<'_>,
    mut m: Membership,
    remembered: Option<&SecretSource>,
    path: &Path,
    secret_file: Option<PathBuf>,
    secret_env: Option<String>,
) -> PyResult<()> {
    if m.secret.is_some() {
        if let Some(source) = remembered {
            m.secret = Some(source.clone());
        }
    }
    m.name_secret_source(secret_file, secret_env).map_err(to_py)?;
    crate::exit_guard::detach(py, || m.write(path)).map_err(to_py)
}
