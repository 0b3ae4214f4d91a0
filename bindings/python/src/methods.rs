//! The methods that `Rendezvous`, `Table` and `Skeleton` (and their
//! snapshots) share. A `#[pymethods]` block must be one block per class, so
//! each class passes its own methods (constructor, shape, repr, pickle) in
//! and gets the shared ones next to them.

/// The methods of a mutable set class with a `shared: Shared<_>` field.
macro_rules! set_class {
    ($class:ident, $snapshot:ident, { $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            $($own)*

            /// `Class[str]`: a `types.GenericAlias` for annotations (the id type is static only).
            #[classmethod]
            fn __class_getitem__<'py>(
                cls: &Bound<'py, pyo3::types::PyType>,
                item: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                crate::generic::class_getitem(cls, item)
            }

            /// The id of the node that owns `key`.
            fn owner(&self, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
                self.shared.view().owner(key)
            }

            /// The ids of the `k` best nodes for `key`, owner first.
            fn top_k<'py>(&self, key: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
                self.shared.view().top_k(key, k)
            }

            /// At most one node per failure domain: the first `k` nodes of
            /// `rank(key)` that are each the first of their domain (CRUSH
            /// `firstn`). The owner comes first; the list is shorter than `k`
            /// when fewer domains have an eligible node.
            fn top_k_distinct<'py>(
                &self,
                key: &Bound<'py, PyAny>,
                k: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyList>> {
                self.shared.view().top_k_distinct(key, k)
            }

            /// Every eligible node for `key`, owner first.
            fn rank<'py>(&self, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
                self.shared.view().rank(key)
            }

            /// The owner of each key, in order, all from one membership.
            fn owners<'py>(&self, keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
                self.shared.view().owners(keys)
            }

            /// The current membership, frozen: its lookups and node indices never change.
            fn snapshot(&self) -> $snapshot {
                $snapshot::new(self.shared.view_full())
            }

            /// Adds a node, optionally in a failure domain (rack, zone).
            #[pyo3(
                signature = (node, weight = Given::Default, domain = None),
                text_signature = "($self, node, weight=1.0, domain=None)"
            )]
            fn add(&self, node: &Bound<'_, PyAny>, weight: Given, domain: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
                self.shared.add(node, weight, domain)
            }

            fn remove(&self, node: &Bound<'_, PyAny>) -> PyResult<()> {
                self.shared.remove(node)
            }

            fn set_weight(&self, node: &Bound<'_, PyAny>, weight: &Bound<'_, PyAny>) -> PyResult<()> {
                self.shared.set_weight(node, weight)
            }

            /// Sets a node's failure domain label, or with `None` clears it
            /// (the node becomes a domain of its own).
            fn set_domain(&self, node: &Bound<'_, PyAny>, domain: &Bound<'_, PyAny>) -> PyResult<()> {
                self.shared.set_domain(node, domain)
            }

            fn __len__(&self) -> usize {
                self.shared.view().len()
            }

            fn __contains__(&self, node: &Bound<'_, PyAny>) -> PyResult<bool> {
                self.shared.view().contains(node)
            }

            /// The node ids, by index (a new list each time).
            #[getter]
            fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                self.shared.view().nodes(py)
            }

            /// The weights, in the order of `nodes` (read both from one `snapshot()`
            /// when other threads may change the set in between).
            #[getter]
            fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                self.shared.view().weights(py)
            }

            /// The failure domain label of each node, in the order of `nodes`
            /// (`None`: the node is a domain of its own).
            #[getter]
            fn domains<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                self.shared.view().domains(py)
            }

            /// The seed, or `None` for a keyed set (built with a secret; it has no seed).
            #[getter]
            fn seed(&self) -> Option<u64> {
                self.shared.view().members().seed()
            }

            /// Whether keys are placed by keyed-v1 (the set was built with a secret).
            #[getter]
            fn keyed(&self) -> bool {
                self.shared.view().members().is_keyed()
            }

            #[getter]
            fn placement(&self) -> u32 {
                self.shared.view().members().placement().number()
            }
        }
    };
}

/// The methods of a snapshot class with a `view: Arc<View<_>>` field.
macro_rules! snapshot_class {
    ($class:ident, $snap:ty, { $($own:tt)* }) => {
        impl $class {
            pub(crate) fn new(view: Arc<View<$snap>>) -> $class {
                $class { view }
            }
        }

        #[pymethods]
        impl $class {
            $($own)*

            /// `Class[str]`: a `types.GenericAlias` for annotations (the id type is static only).
            #[classmethod]
            fn __class_getitem__<'py>(
                cls: &Bound<'py, pyo3::types::PyType>,
                item: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
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

            fn top_k_distinct<'py>(
                &self,
                key: &Bound<'py, PyAny>,
                k: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyList>> {
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
                crate::batch::owner_indices(&*self.view.snap, keys, offsets, out)
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
                PyTuple::new(py, self.view.members().weights())
            }

            /// The failure domain labels, by node index (`None`: a domain of its own).
            #[getter]
            fn domains<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                Ok(self.view.domains(py)?.to_tuple())
            }

            /// The seed, or `None` for a keyed set (built with a secret; it has no seed).
            #[getter]
            fn seed(&self) -> Option<u64> {
                self.view.members().seed()
            }

            /// Whether keys are placed by keyed-v1 (the set was built with a secret).
            #[getter]
            fn keyed(&self) -> bool {
                self.view.members().is_keyed()
            }

            #[getter]
            fn placement(&self) -> u32 {
                self.view.members().placement().number()
            }

            /// How many nodes have a non-zero weight.
            #[getter]
            fn eligible(&self) -> usize {
                self.view.eligible()
            }

            /// Grows by one with every change of the set this snapshot came from.
            #[getter]
            fn generation(&self) -> u64 {
                self.view.members().generation()
            }

            /// The kernel this snapshot's lookups run on.
            #[getter]
            fn backend(&self) -> &'static str {
                self.view.members().backend().name()
            }
        }
    };
}
