//! `longstraw.Rendezvous`: the mutable node set.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use longstraw_set::{Options, Placement, Rendezvous as Set};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

use crate::convert::{self, items, node_id, with_node_id, Given, NodeId, PlacementArg, Seed};
use crate::error::{bad_value, to_py};
use crate::snapshot::Snapshot;
use crate::view::View;

/// A set of nodes and the rendezvous placement of keys on them.
///
/// Lookups never block and always see one whole membership; changes from
/// other threads are atomic.
#[pyclass(frozen, module = "longstraw", name = "Rendezvous")]
pub(crate) struct Rendezvous {
    set: Set,
    /// What lookups read. Replaced only while `writer` is held, right after
    /// the set changed, so it always mirrors the set's current snapshot.
    view: ArcSwap<View>,
    writer: Mutex<()>,
}

#[pymethods]
impl Rendezvous {
    #[new]
    #[pyo3(
        signature = (nodes, weights = None, seed = Seed(0), placement = PlacementArg(Placement::V1)),
        text_signature = "(nodes, weights=None, seed=0, placement=1)"
    )]
    fn new(
        nodes: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        seed: Seed,
        placement: PlacementArg,
    ) -> PyResult<Self> {
        let options = Options {
            seed: seed.0,
            placement: placement.0,
            backend: None,
        };
        let ids = items(
            nodes,
            "nodes",
            "an iterable of str or bytes node ids (wrap a single id in a list)",
        )?
        .map(|n| node_id(&n?))
        .collect::<PyResult<Vec<NodeId>>>()?;
        let weights = match weights {
            None => vec![1.0; ids.len()],
            Some(w) => node_weights(&ids, w)?,
        };
        let set = Set::with_weights(ids.iter().zip(&weights).map(|(id, &w)| (&id.bytes, w)), options).map_err(to_py)?;
        let objects: HashMap<&[u8], &Py<PyAny>> = ids.iter().map(|id| (&id.bytes[..], &id.object)).collect();
        let snap = set.snapshot();
        let py = nodes.py();
        let view_ids = snap.ids().iter().map(|id| objects[&id[..]].clone_ref(py)).collect();
        Ok(Rendezvous {
            view: ArcSwap::from_pointee(View { snap, ids: view_ids }),
            set,
            writer: Mutex::new(()),
        })
    }

    /// The id of the node that owns `key`.
    fn owner(&self, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.view.load().owner(key)
    }

    /// The ids of the `k` best nodes for `key`, owner first.
    fn top_k<'py>(&self, key: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.view.load().top_k(key, k)
    }

    /// Every eligible node for `key`, owner first.
    fn rank<'py>(&self, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.view.load().rank(key)
    }

    /// The owner of each key, in order, all from one membership.
    fn owners<'py>(&self, keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.view.load().owners(keys)
    }

    /// The current membership, frozen: its lookups and node indices never change.
    fn snapshot(&self) -> Snapshot {
        Snapshot::new(self.view.load_full())
    }

    #[pyo3(signature = (node, weight = Given::Default), text_signature = "($self, node, weight=1.0)")]
    fn add(&self, node: &Bound<'_, PyAny>, weight: Given) -> PyResult<()> {
        let id = node_id(node)?;
        let weight = match weight {
            Given::Default => 1.0,
            Given::Value(w) => convert::weight(w.bind(node.py()), &|| format!("node {}", show(node)))?,
        };
        self.change(node.py(), Some(id), |set, id| set.add(id, weight))
    }

    fn remove(&self, node: &Bound<'_, PyAny>) -> PyResult<()> {
        with_node_id(node, |bytes| self.change(node.py(), None, |set, _| set.remove(bytes)))?
    }

    fn set_weight(&self, node: &Bound<'_, PyAny>, weight: &Bound<'_, PyAny>) -> PyResult<()> {
        let weight = convert::weight(weight, &|| format!("node {}", show(node)))?;
        with_node_id(node, |bytes| {
            self.change(node.py(), None, |set, _| set.set_weight(bytes, weight))
        })?
    }

    fn __len__(&self) -> usize {
        self.view.load().snap.len()
    }

    fn __contains__(&self, node: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.view.load().contains(node)
    }

    /// The node ids, by index (a new list each time).
    #[getter]
    fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.view.load().nodes(py)
    }

    /// The weights, in the order of `nodes` (read both from one `snapshot()`
    /// when other threads may change the set in between).
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.view.load().weights(py)
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.view.load().snap.seed()
    }

    #[getter]
    fn placement(&self) -> u32 {
        self.view.load().snap.placement().number()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.view.load().repr(py, "Rendezvous")
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let args = slf.get().view.load().args(py)?;
        Ok((slf.get_type(), args))
    }
}

impl Rendezvous {
    /// Applies one change to the set and publishes the matching view.
    /// `added` is the id object of a node being added, if any.
    fn change(
        &self,
        py: Python<'_>,
        added: Option<NodeId>,
        apply: impl FnOnce(&Set, &[u8]) -> longstraw_set::Result<()>,
    ) -> PyResult<()> {
        // No Python code runs while the lock is held, so holding the GIL
        // while waiting for it cannot deadlock.
        let _writer = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let bytes = added.as_ref().map_or(&[][..], |id| &id.bytes[..]);
        apply(&self.set, bytes).map_err(to_py)?;
        let old = self.view.load_full();
        let snap = self.set.snapshot();
        let ids = snap
            .ids()
            .iter()
            .map(|id| match old.snap.index_of(id) {
                Some(i) => old.ids[i as usize].clone_ref(py),
                None => added.as_ref().expect("only an added node is new").object.clone_ref(py),
            })
            .collect();
        self.view.store(Arc::new(View { snap, ids }));
        Ok(())
    }
}

/// Weights for the constructor: a sequence as long as `nodes`.
fn node_weights(ids: &[NodeId], weights: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let py = weights.py();
    let values = weights.try_iter()?.collect::<PyResult<Vec<Bound<'_, PyAny>>>>()?;
    if values.len() != ids.len() {
        return Err(bad_value(format!(
            "weights has {} entries but nodes has {}; give one weight per node",
            values.len(),
            ids.len()
        )));
    }
    ids.iter()
        .zip(&values)
        .map(|(id, w)| convert::weight(w, &|| format!("node {}", show(id.object.bind(py)))))
        .collect()
}

/// `repr(obj)` for messages.
fn show(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "<node>".into())
}
