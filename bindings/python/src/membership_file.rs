//! Membership files (docs/MEMBERSHIP.md) for Python: `Rendezvous.load(path)`,
//! `Rendezvous.loads(data)` and `.save(path)`. The file is parsed,
//! validated, built and written by `longstraw-membership`, the one parser
//! every language calls; this module only converts its results and errors.

use std::path::{Path, PathBuf};

use longstraw_membership::{Error, ErrorKind, Membership, SecretSource};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use longstraw_set::Rendezvous as Set;

/// A file error as an exception: `FileNotFoundError`/`OSError` when it cannot
/// be read or written, `ValueError` naming the line and the field otherwise
/// (and for content that is not UTF-8 text).
fn to_py(e: Error) -> PyErr {
    let message = e.to_string();
    match &e.kind {
        ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::InvalidData => PyValueError::new_err(message),
        ErrorKind::Io(_) => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// Reads, validates and builds the set `path` describes, of the mode the
/// file names, in one pass and with the GIL released throughout (reading
/// the file and the secret may wait, on a FIFO for instance; building a
/// large table takes a while). The secret is read once, by the build, and
/// never becomes a Python object. Returns the set and the secret source the
/// file named.
pub(crate) fn load(py: Python<'_>, path: &Path) -> PyResult<(Set, Option<SecretSource>)> {
    crate::exit_guard::detach(py, || {
        let membership = Membership::read(path).map_err(to_py)?;
        let set = membership.build().map_err(|mut e| {
            e.origin = path.display().to_string();
            to_py(e)
        })?;
        Ok((set, membership.secret))
    })
}

/// Where `loads` says the content came from, in errors.
const DATA_ORIGIN: &str = "<data>";

/// [`load`] for the content of a membership file (`str`, or `bytes` of
/// UTF-8 text). A relative `secret.file` is read relative to the current
/// directory.
pub(crate) fn loads(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<(Set, Option<SecretSource>)> {
    let bytes: Vec<u8> = if let Ok(s) = data.cast::<PyString>() {
        s.to_str()?.as_bytes().to_vec()
    } else if let Ok(b) = data.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        return Err(crate::error::wrong_type("data", "str or bytes", data));
    };
    crate::exit_guard::detach(py, || {
        let membership = Membership::parse_bytes(&bytes, DATA_ORIGIN).map_err(to_py)?;
        let set = membership.build().map_err(|mut e| {
            e.origin = DATA_ORIGIN.to_owned();
            to_py(e)
        })?;
        Ok((set, membership.secret))
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
