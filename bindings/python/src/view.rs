//! One membership as Python sees it: a snapshot of the set and, by node
//! index, the Python objects of each node id and domain label. Every lookup
//! reads one `View`, so its answers always come from a single membership.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyList, PyTuple};

use crate::chunked::Chunked;
use crate::convert::{uint_arg, with_key, with_node_id};
use crate::error::to_py;
use crate::placed::Placed;

pub(crate) struct View<S> {
    pub snap: Arc<S>,
    /// Entry `i` is the `str` or `bytes` of node `i` of `snap`.
    pub ids: Chunked<Py<PyAny>>,
    /// Entry `i` is the `str` or `bytes` label of node `i` (`None`: a
    /// domain of its own); `None` while no node has a label.
    pub domains: Option<Chunked<Option<Py<PyAny>>>>,
}

/// Which ranking a list lookup walks.
#[derive(Clone, Copy)]
enum Ranking {
    All,
    DistinctDomains,
}

impl<S: Placed> View<S> {
    #[inline]
    pub(crate) fn owner(&self, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let index = self.owner_index(key)?;
        Ok(self.ids.get(index as usize).clone_ref(key.py()))
    }

    #[inline]
    pub(crate) fn owner_index(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        with_key(key, |k| self.snap.owner_index(k))?.map_err(to_py)
    }

    pub(crate) fn top_k<'py>(&self, key: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.best(key, count(k)?, Ranking::All)
    }

    pub(crate) fn top_k_distinct<'py>(
        &self,
        key: &Bound<'py, PyAny>,
        k: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        self.best(key, count(k)?, Ranking::DistinctDomains)
    }

    pub(crate) fn rank<'py>(&self, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.best(key, self.eligible(), Ranking::All)
    }

    fn best<'py>(&self, key: &Bound<'py, PyAny>, k: usize, ranking: Ranking) -> PyResult<Bound<'py, PyList>> {
        // Replica counts are small: rank them on the stack.
        const STACK: usize = 32;
        let k = k.min(self.eligible());
        let mut stack = [0u32; STACK];
        let mut heap = Vec::new();
        let indices: &mut [u32] = if k <= STACK {
            &mut stack[..k]
        } else {
            heap.resize(k, 0);
            &mut heap
        };
        let n = with_key(key, |bytes| match ranking {
            Ranking::All => self.snap.top_k_into(bytes, indices),
            Ranking::DistinctDomains => self.snap.top_k_distinct_into(bytes, indices),
        })?;
        let py = key.py();
        PyList::new(py, indices[..n].iter().map(|&i| self.id(py, i)))
    }

    pub(crate) fn owners<'py>(&self, keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        crate::str_batch::owners(self, keys)
    }

    pub(crate) fn id(&self, py: Python<'_>, index: u32) -> Py<PyAny> {
        self.ids.get(index as usize).clone_ref(py)
    }

    /// The membership: ids, weights, labels, seed, generation.
    pub(crate) fn members(&self) -> &longstraw_set::Snapshot {
        self.snap.members()
    }

    pub(crate) fn len(&self) -> usize {
        self.snap.members().len()
    }

    pub(crate) fn eligible(&self) -> usize {
        self.snap.members().eligible()
    }

    pub(crate) fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.ids.iter().map(|id| id.clone_ref(py)))
    }

    pub(crate) fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.snap.members().weights())
    }

    /// The label of each node (`None` for a domain of its own), by index.
    pub(crate) fn domains<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        match &self.domains {
            Some(labels) => PyList::new(py, labels.iter().map(|l| l.as_ref().map(|l| l.clone_ref(py)))),
            None => PyList::new(py, self.ids.iter().map(|_| py.None())),
        }
    }

    /// The constructor's `domains` argument: `None` when no node has a label.
    pub(crate) fn domains_arg<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.domains {
            Some(_) => Ok(self.domains(py)?.into_any()),
            None => Ok(py.None().into_bound(py)),
        }
    }

    pub(crate) fn contains(&self, id: &Bound<'_, PyAny>) -> PyResult<bool> {
        with_node_id(id, |bytes| self.snap.members().contains(bytes))
    }

    /// `(nodes, weights, seed, placement)`: the constructor's first arguments.
    /// A keyed set refuses: its arguments include the secret, and a pickle
    /// must not carry it (docs/THREAT-MODEL.md).
    pub(crate) fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let members = self.snap.members();
        let Some(seed) = members.seed() else {
            return Err(crate::keyed::refuse_pickle());
        };
        (self.nodes(py)?, self.weights(py)?, seed, members.placement().number()).into_pyobject(py)
    }

    /// `Table(['a', 'b'], weights=[...], seed=0, placement=1, bits=10, domains=[...])`:
    /// `shape` are the mode's own arguments; long lists are elided past a few entries.
    pub(crate) fn repr(&self, py: Python<'_>, class: &str, shape: &[(&str, String)]) -> PyResult<String> {
        const SHOWN: usize = 8;
        let members = self.snap.members();
        let elided = |mut shown: Vec<String>, more: &str| {
            if self.ids.len() > SHOWN {
                shown.push(more.to_owned());
            }
            format!("[{}]", shown.join(", "))
        };
        let mut nodes = Vec::new();
        for id in self.ids.iter().take(SHOWN) {
            nodes.push(id.bind(py).repr()?.to_string());
        }
        let more = format!("... {} more", self.ids.len().saturating_sub(SHOWN));
        let mut out = format!("{class}({}", elided(nodes, &more));
        if members.weights().iter().any(|&w| w != 1.0) {
            let mut shown = Vec::new();
            for &w in members.weights().iter().take(SHOWN) {
                shown.push(PyFloat::new(py, w).repr()?.to_string());
            }
            out.push_str(&format!(", weights={}", elided(shown, "...")));
        }
        // A keyed set's repr names no seed and never shows the secret.
        let hashing = match members.seed() {
            None => "secret=<hidden>".to_owned(),
            Some(seed) => format!("seed={seed}"),
        };
        out.push_str(&format!(", {hashing}, placement={}", members.placement().number()));
        for (name, value) in shape {
            out.push_str(&format!(", {name}={value}"));
        }
        if let Some(labels) = &self.domains {
            let mut shown = Vec::new();
            for label in labels.iter().take(SHOWN) {
                shown.push(match label {
                    Some(l) => l.bind(py).repr()?.to_string(),
                    None => "None".to_owned(),
                });
            }
            out.push_str(&format!(", domains={}", elided(shown, "...")));
        }
        out.push(')');
        Ok(out)
    }
}

/// A `k` argument: any non-negative integer (more than there are nodes is fine).
fn count(k: &Bound<'_, PyAny>) -> PyResult<usize> {
    let k = uint_arg(k, "k", u64::MAX)?;
    Ok(usize::try_from(k).unwrap_or(usize::MAX))
}
