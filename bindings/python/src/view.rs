//! One membership as Python sees it: a snapshot of the set and, by node
//! index, the Python objects of each node id and domain label. Every lookup
//! reads one `View`, so its answers always come from a single membership.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList, PyTuple, PyType};

use crate::chunked::Chunked;
use crate::convert::{uint_arg, with_key, with_node_id};
use crate::error::to_py;
use crate::options::Keyword;
use longstraw_set::{Mode, Snapshot};

pub(crate) struct View {
    pub snap: Arc<Snapshot>,
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

impl View {
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

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.snap.len()
    }

    #[inline]
    pub(crate) fn eligible(&self) -> usize {
        self.snap.eligible()
    }

    pub(crate) fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.ids.iter().map(|id| id.clone_ref(py)))
    }

    pub(crate) fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.snap.nodes().map(|n| n.weight()))
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
        with_node_id(id, |bytes| self.snap.contains(bytes))
    }

    /// What `pickle` and `copy` call to rebuild the set: the factory of its
    /// mode (`Rendezvous`, `Rendezvous.table`, `Rendezvous.skeleton`) with
    /// every option as a keyword, and `(nodes,)`. A keyed set refuses: its
    /// arguments include the secret, and a pickle must not carry it
    /// (docs/THREAT-MODEL.md).
    pub(crate) fn reduce<'py>(&self, class: &Bound<'py, PyType>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = class.py();
        let options = crate::options::keywords(py, &self.snap.options())?;
        if options.iter().any(|(_, value)| matches!(value, Keyword::Hidden)) {
            return Err(crate::keyed::refuse_pickle());
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item("weights", self.weights(py)?)?;
        kwargs.set_item("domains", self.domains_arg(py)?)?;
        for (name, value) in options {
            if let Keyword::Value(v) = value {
                kwargs.set_item(name, v)?;
            }
        }
        let factory = match self.snap.mode() {
            Mode::Flat => class.clone().into_any(),
            Mode::Table => {
                kwargs.set_item("partition_bits", self.snap.partition_bits())?;
                kwargs.set_item("replicas", self.snap.replicas())?;
                kwargs.set_item("distinct_domains", self.snap.distinct_domains())?;
                kwargs.set_item("balance", self.snap.balance().map(|b| b.as_f64()))?;
                class.getattr("table")?
            }
            Mode::Skeleton => {
                let shape = self.snap.shape();
                kwargs.set_item("fanout_bits", shape.map(|s| s.fanout_bits()))?;
                kwargs.set_item("levels", shape.map(|s| s.levels()))?;
                class.getattr("skeleton")?
            }
        };
        let partial = py.import("functools")?.getattr("partial")?;
        let rebuild = partial.call((factory,), Some(&kwargs))?;
        Ok((rebuild, PyTuple::new(py, [self.nodes(py)?])?))
    }

    /// The mode's own constructor arguments, as `repr` shows them (a table's
    /// defaults left out).
    fn shape(&self) -> Vec<(&'static str, String)> {
        let snap = &self.snap;
        let mut shape = Vec::new();
        if let Some(bits) = snap.partition_bits() {
            shape.push(("partition_bits", bits.to_string()));
        }
        if let Some(replicas) = snap.replicas().filter(|&r| r != 1) {
            shape.push(("replicas", replicas.to_string()));
        }
        if snap.distinct_domains() == Some(true) {
            shape.push(("distinct_domains", "True".to_owned()));
        }
        if let Some(b) = snap.balance() {
            shape.push(("balance", format!("{:?}", b.as_f64())));
        }
        if let Some(s) = snap.shape() {
            shape.push(("fanout_bits", s.fanout_bits().to_string()));
            shape.push(("levels", s.levels().to_string()));
        }
        shape
    }

    /// `Rendezvous.table(['a', 'b'], weights=[...], seed=0, placement=1, partition_bits=10, domains=[...])`
    /// for a set (`head` is its factory), `Snapshot(['a', 'b'], mode='table', ...)` for a snapshot
    /// (`head` is `Snapshot`); long lists are elided past a few entries.
    pub(crate) fn repr(&self, py: Python<'_>, head: &str) -> PyResult<String> {
        const SHOWN: usize = 8;
        let snap = &self.snap;
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
        let mut out = format!("{head}({}", elided(nodes, &more));
        if head == "Snapshot" {
            out.push_str(&format!(", mode='{}'", snap.mode().as_str()));
        }
        if snap.nodes().any(|n| n.weight() != 1.0) {
            let mut shown = Vec::new();
            for w in snap.nodes().take(SHOWN).map(|n| n.weight()) {
                shown.push(PyFloat::new(py, w).repr()?.to_string());
            }
            out.push_str(&format!(", weights={}", elided(shown, "...")));
        }
        // A keyed set's repr names no seed and never shows the secret.
        for (name, value) in crate::options::keywords(py, &snap.options())? {
            match value {
                Keyword::Value(v) => out.push_str(&format!(", {name}={}", v.repr()?)),
                Keyword::Hidden => out.push_str(&format!(", {name}=<hidden>")),
            }
        }
        for (name, value) in self.shape() {
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
