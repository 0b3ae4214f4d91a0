//! One membership as Python sees it: a snapshot of the set and, by node
//! index, the Python object of each node id. Every lookup reads one `View`,
//! so its answers always come from a single membership.

use std::sync::Arc;

use longstraw_set::Snapshot;
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyList, PyTuple};

use crate::convert::{items, uint_arg, with_key, with_node_id, KEYS_EXPECTED};
use crate::error::to_py;

pub(crate) struct View {
    pub snap: Arc<Snapshot>,
    /// `ids[i]` is the `str` or `bytes` of node `i` of `snap`.
    pub ids: Box<[Py<PyAny>]>,
}

impl View {
    #[inline]
    pub(crate) fn owner(&self, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let index = self.owner_index(key)?;
        Ok(self.ids[index as usize].clone_ref(key.py()))
    }

    #[inline]
    pub(crate) fn owner_index(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        with_key(key, |k| self.snap.owner_index(k))?.map_err(to_py)
    }

    pub(crate) fn top_k<'py>(&self, key: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let k = uint_arg(k, "k", u64::MAX)?;
        let k = usize::try_from(k).unwrap_or(usize::MAX);
        self.best(key, k)
    }

    pub(crate) fn rank<'py>(&self, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.best(key, self.snap.eligible())
    }

    fn best<'py>(&self, key: &Bound<'py, PyAny>, k: usize) -> PyResult<Bound<'py, PyList>> {
        // Replica counts are small: rank them on the stack.
        const STACK: usize = 32;
        let k = k.min(self.snap.eligible());
        let mut stack = [0u32; STACK];
        let mut heap = Vec::new();
        let indices: &mut [u32] = if k <= STACK {
            &mut stack[..k]
        } else {
            heap.resize(k, 0);
            &mut heap
        };
        let n = with_key(key, |bytes| self.snap.top_k_into(bytes, indices))?;
        let py = key.py();
        PyList::new(py, indices[..n].iter().map(|&i| self.id(py, i)))
    }

    pub(crate) fn owners<'py>(&self, keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let py = keys.py();
        let out = PyList::empty(py);
        for key in items(keys, "keys", KEYS_EXPECTED)? {
            out.append(self.owner(&key?)?)?;
        }
        Ok(out)
    }

    pub(crate) fn id(&self, py: Python<'_>, index: u32) -> Py<PyAny> {
        self.ids[index as usize].clone_ref(py)
    }

    pub(crate) fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.ids.iter().map(|id| id.clone_ref(py)))
    }

    pub(crate) fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.snap.weights())
    }

    pub(crate) fn contains(&self, id: &Bound<'_, PyAny>) -> PyResult<bool> {
        with_node_id(id, |bytes| self.snap.contains(bytes))
    }

    /// `(nodes, weights, seed, placement)`: the constructor's arguments.
    pub(crate) fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.nodes(py)?,
            self.weights(py)?,
            self.snap.seed(),
            self.snap.placement().number(),
        )
            .into_pyobject(py)
    }

    /// `Rendezvous(['a', 'b'], weights=[...], seed=0, placement=1)`, with
    /// the node list elided past a few entries.
    pub(crate) fn repr(&self, py: Python<'_>, class: &str) -> PyResult<String> {
        const SHOWN: usize = 8;
        let snap = &self.snap;
        let mut nodes = Vec::new();
        for id in self.ids.iter().take(SHOWN) {
            nodes.push(id.bind(py).repr()?.to_string());
        }
        if self.ids.len() > SHOWN {
            nodes.push(format!("... {} more", self.ids.len() - SHOWN));
        }
        let mut out = format!("{class}([{}]", nodes.join(", "));
        if snap.weights().iter().any(|&w| w != 1.0) {
            let mut shown = Vec::new();
            for &w in snap.weights().iter().take(SHOWN) {
                shown.push(PyFloat::new(py, w).repr()?.to_string());
            }
            if snap.len() > SHOWN {
                shown.push("...".into());
            }
            out.push_str(&format!(", weights=[{}]", shown.join(", ")));
        }
        out.push_str(&format!(
            ", seed={}, placement={})",
            snap.seed(),
            snap.placement().number()
        ));
        Ok(out)
    }
}
