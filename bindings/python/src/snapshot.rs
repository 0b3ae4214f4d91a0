//! `longstraw.Snapshot`: one frozen membership, and the buffer batch whose
//! node indices only mean something next to the membership that made them.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::batch;
use crate::view::View;

/// An immutable membership of a `Rendezvous`. Its answers never change, even
/// while the set does, and the node indices it returns index its `nodes`.
#[pyclass(frozen, module = "longstraw", name = "Snapshot")]
pub(crate) struct Snapshot {
    view: Arc<View>,
}

impl Snapshot {
    pub(crate) fn new(view: Arc<View>) -> Snapshot {
        Snapshot { view }
    }
}

#[pymethods]
impl Snapshot {
    fn owner(&self, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.view.owner(key)
    }

    /// The index in `nodes` of the owner of `key`.
    fn owner_index(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        self.view.owner_index(key)
    }

    fn top_k<'py>(&self, key: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.view.top_k(key, k)
    }

    fn rank<'py>(&self, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.view.rank(key)
    }

    fn owners<'py>(&self, keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.view.owners(keys)
    }

    /// The owner index of every key of a packed batch: key `i` is
    /// `keys[offsets[i]:offsets[i + 1]]`. Returns a NumPy `uint32` array (an
    /// `array.array('I')` without NumPy), or fills and returns `out`.
    #[pyo3(signature = (keys, offsets, out = None))]
    fn owner_indices<'py>(
        &self,
        keys: &Bound<'py, PyAny>,
        offsets: &Bound<'py, PyAny>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        batch::owner_indices(&self.view.snap, keys, offsets, out)
    }

    fn __len__(&self) -> usize {
        self.view.snap.len()
    }

    fn __contains__(&self, node: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.view.contains(node)
    }

    /// The node ids; a node index is a position in this tuple.
    #[getter]
    fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.view.ids.iter().map(|id| id.clone_ref(py)))
    }

    /// The weights, by node index.
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.view.snap.weights())
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.view.snap.seed()
    }

    #[getter]
    fn placement(&self) -> u32 {
        self.view.snap.placement().number()
    }

    /// How many nodes have a non-zero weight.
    #[getter]
    fn eligible(&self) -> usize {
        self.view.snap.eligible()
    }

    /// Grows by one with every change of the set this snapshot came from.
    #[getter]
    fn generation(&self) -> u64 {
        self.view.snap.generation()
    }

    /// The kernel this snapshot's lookups run on.
    #[getter]
    fn backend(&self) -> &'static str {
        self.view.snap.backend().name()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.view.repr(py, "Snapshot")
    }
}
