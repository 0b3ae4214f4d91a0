//! `longstraw.BoundedLoad` and `longstraw.Lease`: bounded loads (SPEC.md
//! §16) over `longstraw_set::BoundedLoad`. Conversions only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use longstraw_set::{BoundedLoad as Set, OwnedLease as SetLease, DEFAULT_BALANCE_FACTOR};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use crate::convert::{node_id, weight, with_key, with_node_id};
use crate::error::to_py;
use crate::options::{set_options_signature, SetOptions};
use crate::shared::Members;

/// The Python object handed back for each node id (the `str` or `bytes` the
/// caller used), replaced as a whole on every membership change so that
/// `acquire` reads it without a lock.
type IdObjects = HashMap<Vec<u8>, Py<PyAny>>;

// The first line is the class's `__text_signature__` (`help()`, `inspect.signature`).
#[doc = concat!("BoundedLoad(nodes, balance_factor=1.25, weights=None, *, ", set_options_signature!(), ")\n--\n")]
/// Nodes that each take at most `ceil(balance_factor * (in_flight + 1) *
/// weight / total_weight)` requests at once (SPEC.md section 16).
///
/// ``acquire(key)`` returns a :class:`Lease`; use it as a context manager,
/// ``with b.acquire(key) as node: ...``, and the request ends when the block
/// does. When the key's owner has room, the node is the owner, exactly as
/// ``Rendezvous.owner`` would answer; otherwise it is the next node of the
/// key's ranking with room.
#[pyclass(frozen, module = "longstraw", name = "BoundedLoad")]
pub(crate) struct BoundedLoad {
    set: Set,
    objects: ArcSwap<IdObjects>,
    writer: Mutex<()>,
}

/// One request in flight. ``release()`` (or leaving its ``with`` block, or
/// garbage collection) ends it; releasing twice does nothing.
#[pyclass(frozen, module = "longstraw", name = "Lease")]
pub(crate) struct Lease {
    lease: Mutex<Option<SetLease>>,
    node: Py<PyAny>,
    is_owner: bool,
}

fn balance_factor(obj: &Bound<'_, PyAny>) -> PyResult<f64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("balance_factor must be a number, not bool"));
    }
    obj.extract::<f64>().map_err(|_| {
        let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        PyTypeError::new_err(format!("balance_factor must be a number, not {name}"))
    })
}

impl BoundedLoad {
    fn object_of(&self, py: Python<'_>, id: &[u8]) -> Py<PyAny> {
        match self.objects.load().get(id) {
            Some(o) => o.clone_ref(py),
            // Not reachable: every id of the set was added through this object.
            None => pyo3::types::PyBytes::new(py, id).into_any().unbind(),
        }
    }
}

#[pymethods]
impl BoundedLoad {
    #[new]
    #[pyo3(signature = (nodes, balance_factor = None, weights = None, **options), text_signature = None)]
    fn new(
        nodes: &Bound<'_, PyAny>,
        balance_factor: Option<&Bound<'_, PyAny>>,
        weights: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let options = SetOptions::parse("BoundedLoad.__new__()", options)?.into_options();
        let factor = match balance_factor {
            Some(f) => self::balance_factor(f)?,
            None => DEFAULT_BALANCE_FACTOR,
        };
        let members = Members::parse(nodes, weights, None)?;
        let set = Set::with_weights(members.triples().map(|(id, w, _)| (id, w)), options, factor).map_err(to_py)?;
        let objects: IdObjects = members.ids.into_iter().map(|id| (id.bytes, id.object)).collect();
        Ok(BoundedLoad {
            set,
            objects: ArcSwap::from_pointee(objects),
            writer: Mutex::new(()),
        })
    }

    /// Places one request for ``key`` (str, bytes, bytearray or memoryview)
    /// and returns its :class:`Lease`. Raises ``NoEligibleNodeError`` when
    /// no node has a non-zero weight.
    fn acquire(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Lease> {
        let lease = with_key(key, |k| self.set.acquire_owned(k))?.map_err(to_py)?;
        Ok(Lease {
            node: self.object_of(py, lease.node_id()),
            is_owner: lease.is_owner(),
            lease: Mutex::new(Some(lease)),
        })
    }

    /// The requests in flight on every current node, as ``(node, count)``
    /// pairs in node order (``dict(b.loads())`` is the mapping). Requests on
    /// nodes removed since they started count in :meth:`in_flight` only.
    fn loads<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(
            py,
            self.set
                .loads()
                .into_iter()
                .map(|(id, load)| (self.object_of(py, &id), load)),
        )
    }

    /// The number of requests in flight, including those on removed nodes.
    fn in_flight(&self) -> u64 {
        self.set.in_flight()
    }

    /// The balance factor ``c``.
    #[getter]
    fn balance_factor(&self) -> f64 {
        self.set.balance_factor()
    }

    /// Adds a node (weight 1 unless given).
    #[pyo3(signature = (node, weight = None))]
    fn add(&self, node: &Bound<'_, PyAny>, weight: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let id = node_id(node)?;
        let w = match weight {
            Some(w) => self::weight(w, &|| "add".to_string())?,
            None => 1.0,
        };
        let _w = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        self.set.add(&id.bytes, w).map_err(to_py)?;
        let mut objects: IdObjects = self
            .objects
            .load()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone_ref(node.py())))
            .collect();
        objects.insert(id.bytes, id.object);
        self.objects.store(Arc::new(objects));
        Ok(())
    }

    /// Removes a node. Its leases stay valid and release normally.
    fn remove(&self, node: &Bound<'_, PyAny>) -> PyResult<()> {
        with_node_id(node, |id| self.set.remove(id))?.map_err(to_py)
    }

    /// Changes a node's weight; 0 drains it (no new requests; its leases run out).
    fn set_weight(&self, node: &Bound<'_, PyAny>, weight: &Bound<'_, PyAny>) -> PyResult<()> {
        let w = self::weight(weight, &|| "set_weight".to_string())?;
        with_node_id(node, |id| self.set.set_weight(id, w))?.map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!(
            "BoundedLoad({} nodes, balance_factor={}, in_flight={})",
            self.set.snapshot().len(),
            self.set.balance_factor(),
            self.set.in_flight()
        )
    }
}

#[pymethods]
impl Lease {
    /// The node the request goes to.
    #[getter]
    fn node(&self, py: Python<'_>) -> Py<PyAny> {
        self.node.clone_ref(py)
    }

    /// Whether the node is the key's owner (the owner had room).
    #[getter]
    fn is_owner(&self) -> bool {
        self.is_owner
    }

    /// Whether the request is still in flight.
    #[getter]
    fn active(&self) -> bool {
        self.lease.lock().unwrap_or_else(|p| p.into_inner()).is_some()
    }

    /// Ends the request. Releasing again does nothing.
    fn release(&self) {
        let lease = self.lease.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(lease);
    }

    fn __enter__(&self, py: Python<'_>) -> Py<PyAny> {
        self.node.clone_ref(py)
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.release();
        false
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let node = self.node.bind(py).repr()?;
        Ok(format!("Lease(node={node}, active={})", self.active()))
    }
}
