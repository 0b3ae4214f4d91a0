//! `longstraw.Snapshot`: one frozen membership of a set of any mode, and the
//! buffer batch whose node indices only mean something next to the
//! membership that made them.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

use crate::view::View;

/// An immutable membership of a `Rendezvous`. Its answers never change, even
/// while the set does, and the node indices it returns index its `nodes`.
/// The mode's own properties are `None` on another mode.
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
    /// `Snapshot[str]`: a `types.GenericAlias` for annotations (the id type is static only).
    #[classmethod]
    fn __class_getitem__<'py>(cls: &Bound<'py, PyType>, item: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        crate::generic::class_getitem(cls, item)
    }

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

    fn top_k_distinct<'py>(&self, key: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.view.top_k_distinct(key, k)
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
        crate::batch::owner_indices(&self.view.snap, keys, offsets, out)
    }

    /// The partition of `key` (table mode; ValueError on another mode).
    fn partition(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        crate::convert::with_key(key, |k| self.view.snap.partition(k))?.map_err(crate::error::to_py)
    }

    fn __len__(&self) -> usize {
        self.view.len()
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
        PyTuple::new(py, self.view.snap.nodes().map(|n| n.weight()))
    }

    /// The failure domain labels, by node index (`None`: a domain of its own).
    #[getter]
    fn domains<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        Ok(self.view.domains(py)?.to_tuple())
    }

    /// `"flat"`, `"table"` or `"skeleton"`.
    #[getter]
    fn mode(&self) -> &'static str {
        self.view.snap.mode().as_str()
    }

    /// The seed, or `None` for a keyed set (built with a secret; it has no seed).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.view.snap.seed()
    }

    /// Whether keys are placed by keyed-v1 (the set was built with a secret).
    #[getter]
    fn keyed(&self) -> bool {
        self.view.snap.is_keyed()
    }

    #[getter]
    fn placement(&self) -> u32 {
        self.view.snap.placement().number()
    }

    /// How many nodes have a non-zero weight.
    #[getter]
    fn eligible(&self) -> usize {
        self.view.eligible()
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

    /// Partition bits of a table (`partitions == 2 ** partition_bits`); `None` on another mode.
    #[getter]
    fn partition_bits(&self) -> Option<u8> {
        self.view.snap.partition_bits()
    }

    /// Partitions of a table; `None` on another mode.
    #[getter]
    fn partitions(&self) -> Option<usize> {
        self.view.snap.partitions()
    }

    /// Nodes stored per partition of a table; `None` on another mode.
    #[getter]
    fn replicas(&self) -> Option<usize> {
        self.view.snap.replicas()
    }

    /// Whether a table's stored lists hold at most one node per failure
    /// domain; `None` on another mode.
    #[getter]
    fn distinct_domains(&self) -> Option<bool> {
        self.view.snap.distinct_domains()
    }

    /// The balance of a balanced table; `None` for a plain table and on another mode.
    #[getter]
    fn balance(&self) -> Option<f64> {
        self.view.snap.balance().map(|b| b.as_f64())
    }

    /// Bits of the node hash per level of a skeleton; `None` on another mode.
    #[getter]
    fn fanout_bits(&self) -> Option<u8> {
        self.view.snap.shape().map(|s| s.fanout_bits())
    }

    /// Levels of groups above the nodes of a skeleton; `None` on another mode.
    #[getter]
    fn levels(&self) -> Option<u8> {
        self.view.snap.shape().map(|s| s.levels())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.view.repr(py, "Snapshot")
    }
}
