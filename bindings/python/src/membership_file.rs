//! Membership files (docs/MEMBERSHIP.md) for Python: `Rendezvous.load(path)`,
//! `Table.load`, `Skeleton.load` and `.save(path)`. The file is parsed,
//! validated and written by `longstraw-membership`, the one parser every
//! language calls; this module only converts its content and errors.

use std::path::Path;

use longstraw_membership::{Error, ErrorKind, Membership, Mode};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

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

/// Text ids and labels as `str`, other bytes as `bytes`, as the file writes them.
fn id_object<'py>(py: Python<'py>, bytes: &[u8]) -> Bound<'py, PyAny> {
    match std::str::from_utf8(bytes) {
        Ok(s) => PyString::new(py, s).into_any(),
        Err(_) => PyBytes::new(py, bytes).into_any(),
    }
}

/// Reads and fully validates `path` (every node is built once, so a bad node
/// is named with its line), checks that it holds `class`'s mode, and returns
/// the keyword arguments of `class`'s constructor.
pub(crate) fn constructor_kwargs<'py>(py: Python<'py>, path: &Path, class: &str) -> PyResult<Bound<'py, PyDict>> {
    let m = Membership::read(path).map_err(to_py)?;
    py.detach(|| m.build().map(drop)).map_err(|mut e| {
        e.origin = path.display().to_string();
        to_py(e)
    })?;
    let wanted = match class {
        "Rendezvous" => "flat",
        other => &*other.to_lowercase(),
    };
    if m.mode.name() != wanted {
        let found = match m.mode {
            Mode::Flat => "Rendezvous",
            Mode::Table { .. } => "Table",
            Mode::Skeleton { .. } => "Skeleton",
        };
        return Err(PyValueError::new_err(format!(
            "{}: the file's mode is \"{}\"; load it with longstraw.{found}.load, not {class}.load",
            path.display(),
            m.mode.name()
        )));
    }
    let kwargs = PyDict::new(py);
    let nodes: Vec<Bound<'_, PyAny>> = m.nodes.iter().map(|n| id_object(py, &n.id)).collect();
    let weights: Vec<f64> = m.nodes.iter().map(|n| n.weight).collect();
    kwargs.set_item("nodes", nodes)?;
    kwargs.set_item("weights", weights)?;
    // A keyed file builds a keyed set: the constructor gets the secret its
    // source holds (read once, here), never a seed. Passing the seed alone
    // would silently place every key by v1.
    match &m.secret {
        None => kwargs.set_item("seed", m.seed)?,
        Some(source) => {
            let secret = source
                .read()
                .map_err(|why| PyValueError::new_err(format!("{}: secret: {why}", path.display())))?;
            kwargs.set_item("secret", pyo3::types::PyBytes::new(py, &secret.expose_bytes()))?;
        }
    }
    kwargs.set_item("placement", m.placement.number())?;
    if m.nodes.iter().any(|n| n.domain.is_some()) {
        let domains: Vec<Option<Bound<'_, PyAny>>> = m
            .nodes
            .iter()
            .map(|n| n.domain.as_deref().map(|d| id_object(py, d)))
            .collect();
        kwargs.set_item("domains", domains)?;
    }
    match m.mode {
        Mode::Flat => {}
        Mode::Table {
            bits,
            replicas,
            distinct_domains,
            balance,
        } => {
            kwargs.set_item("bits", bits)?;
            kwargs.set_item("replicas", replicas)?;
            kwargs.set_item("distinct_domains", distinct_domains)?;
            if let Some(balance) = balance {
                kwargs.set_item("balance", balance)?;
            }
        }
        Mode::Skeleton { shape } => {
            if let Some(shape) = shape {
                kwargs.set_item("fanout_bits", shape.fanout_bits())?;
                kwargs.set_item("levels", shape.levels())?;
            }
        }
    }
    Ok(kwargs)
}

/// Writes `m` to `path` (a temporary file renamed over it).
pub(crate) fn save(py: Python<'_>, m: Membership, path: &Path) -> PyResult<()> {
    py.detach(|| m.write(path)).map_err(to_py)
}
