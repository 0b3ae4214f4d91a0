//! What every mutable Python class holds: the set of `longstraw-set`, the
//! `View` that lookups read, and the conversions of membership changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arc_swap::{ArcSwap, Guard};
use longstraw_membership::SecretSource;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::chunked::{Chunked, CloneRef};
use crate::convert::{self, domain_label, items, node_id, with_node_id, Given, NodeId};
use crate::error::{bad_value, to_py};
use crate::view::View;
use longstraw_set::{Rendezvous as Set, Snapshot};

/// The constructor's `nodes`, `weights` and `domains`, converted.
pub(crate) struct Members {
    pub ids: Vec<NodeId>,
    pub weights: Vec<f64>,
    /// One label (or `None`) per node; `None` when `domains` was not given.
    pub domains: Option<Vec<Option<NodeId>>>,
}

impl Members {
    pub(crate) fn parse(
        nodes: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        domains: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Members> {
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
        let domains = match domains {
            Some(d) if !d.is_none() => Some(node_domains(&ids, d)?),
            _ => None,
        };
        Ok(Members { ids, weights, domains })
    }

    /// `(id, weight, domain)` for the set's constructors.
    pub(crate) fn triples(&self) -> impl Iterator<Item = (&[u8], f64, Option<&[u8]>)> + '_ {
        self.ids.iter().enumerate().map(|(i, id)| {
            let domain = self.domains.as_ref().and_then(|d| d[i].as_ref()).map(|d| &d.bytes[..]);
            (&id.bytes[..], self.weights[i], domain)
        })
    }

    /// Whether any node has a label.
    pub(crate) fn labelled(&self) -> bool {
        self.domains.as_ref().is_some_and(|d| d.iter().any(Option::is_some))
    }
}

/// What one change did to the membership, for publishing: the new id and
/// label objects it brings in, and which node it touched.
enum Edit<'a> {
    Add {
        id: &'a [u8],
        object: &'a Py<PyAny>,
        label: Option<&'a Py<PyAny>>,
    },
    Remove {
        id: &'a [u8],
    },
    Weight,
    Domain {
        id: &'a [u8],
        label: Option<&'a Py<PyAny>>,
    },
}

pub(crate) struct Shared {
    set: Set,
    /// What lookups read. Replaced only while `writer` is held, right after
    /// the set changed, so it always mirrors the set's current snapshot.
    view: ArcSwap<View>,
    writer: Mutex<()>,
    /// Where the secret of a set loaded from a keyed file comes from (the
    /// source the file named): saving names it again.
    source: Option<SecretSource>,
}

impl Shared {
    /// Wraps a set built from `members`: lookups hand back the caller's objects.
    pub(crate) fn new(py: Python<'_>, set: Set, members: &Members) -> Shared {
        let index: HashMap<&[u8], usize> = members
            .ids
            .iter()
            .enumerate()
            .map(|(i, id)| (&id.bytes[..], i))
            .collect();
        let snap = set.snapshot();
        let at: Vec<usize> = snap.nodes().map(|n| index[n.id()]).collect();
        let ids = Chunked::from_vec(at.iter().map(|&i| members.ids[i].object.clone_ref(py)).collect());
        let domains = members.domains.as_ref().filter(|_| members.labelled()).map(|labels| {
            Chunked::from_vec(
                at.iter()
                    .map(|&i| labels[i].as_ref().map(|l| l.object.clone_ref(py)))
                    .collect(),
            )
        });
        Shared {
            view: ArcSwap::from_pointee(View { snap, ids, domains }),
            set,
            writer: Mutex::new(()),
            source: None,
        }
    }

    /// Wraps a set loaded from a membership file: ids and labels become `str`
    /// when they are UTF-8 and `bytes` otherwise, as the file writes them.
    /// `source` is where the file said the secret comes from.
    pub(crate) fn loaded(py: Python<'_>, set: Set, source: Option<SecretSource>) -> Shared {
        let snap = set.snapshot();
        // A large file makes many objects: let other threads run between chunks.
        let mut objects = Vec::with_capacity(snap.len());
        {
            let mut nodes = snap.nodes().peekable();
            while nodes.peek().is_some() {
                objects.extend(
                    nodes
                        .by_ref()
                        .take(crate::chunked::CHUNK)
                        .map(|n| id_object(py, n.id())),
                );
                crate::exit_guard::detach(py, || ());
            }
        }
        let ids = Chunked::from_vec(objects);
        // One object per distinct label, as a constructor given the same labels shares them.
        let domains = snap.members().domain_ids().is_some().then(|| {
            let mut seen: HashMap<&[u8], Py<PyAny>> = HashMap::new();
            Chunked::from_vec(
                snap.nodes()
                    .map(|n| {
                        n.domain()
                            .map(|d| seen.entry(d).or_insert_with(|| id_object(py, d)).clone_ref(py))
                    })
                    .collect(),
            )
        });
        Shared {
            view: ArcSwap::from_pointee(View { snap, ids, domains }),
            set,
            writer: Mutex::new(()),
            source,
        }
    }

    /// The secret source a loaded keyed file named, if any.
    pub(crate) fn source(&self) -> Option<&SecretSource> {
        self.source.as_ref()
    }

    /// The current view, for one lookup.
    #[inline]
    pub(crate) fn view(&self) -> Guard<Arc<View>> {
        self.view.load()
    }

    /// The current view, to keep.
    pub(crate) fn view_full(&self) -> Arc<View> {
        self.view.load_full()
    }

    pub(crate) fn add(
        &self,
        node: &Bound<'_, PyAny>,
        weight: Given,
        domain: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let py = node.py();
        let id = node_id(node)?;
        let weight = match weight {
            Given::Default => 1.0,
            Given::Value(w) => convert::weight(w.bind(py), &|| format!("node {}", show(node)))?,
        };
        let label = domain.map(domain_label).transpose()?.flatten();
        let label_bytes = label.as_ref().map(|l| &l.bytes[..]);
        let edit = Edit::Add {
            id: &id.bytes,
            object: &id.object,
            label: label.as_ref().map(|l| &l.object),
        };
        self.change(py, edit, |set| match label_bytes {
            Some(domain) => set.add_in_domain(&id.bytes, weight, domain),
            None => set.add(&id.bytes, weight),
        })
    }

    pub(crate) fn remove(&self, node: &Bound<'_, PyAny>) -> PyResult<()> {
        with_node_id(node, |bytes| {
            self.change(node.py(), Edit::Remove { id: bytes }, |set| set.remove(bytes))
        })?
    }

    pub(crate) fn set_weight(&self, node: &Bound<'_, PyAny>, weight: &Bound<'_, PyAny>) -> PyResult<()> {
        let weight = convert::weight(weight, &|| format!("node {}", show(node)))?;
        with_node_id(node, |bytes| {
            self.change(node.py(), Edit::Weight, |set| set.set_weight(bytes, weight))
        })?
    }

    pub(crate) fn set_domain(&self, node: &Bound<'_, PyAny>, domain: &Bound<'_, PyAny>) -> PyResult<()> {
        let label = domain_label(domain)?;
        let label_bytes = label.as_ref().map(|l| &l.bytes[..]);
        with_node_id(node, |bytes| {
            let edit = Edit::Domain {
                id: bytes,
                label: label.as_ref().map(|l| &l.object),
            };
            self.change(node.py(), edit, |set| set.set_domain(bytes, label_bytes))
        })?
    }

    /// Applies one change to the set and publishes the matching view.
    ///
    /// The change runs without the GIL (a table or skeleton may re-rank for
    /// milliseconds); the GIL is taken back only to publish the view, which
    /// costs O(1 chunk + n / chunk size), not O(n). Waiting for `writer` never
    /// holds the GIL, so writers on other threads cannot deadlock with this
    /// one. The change runs inside the fork gate (`crate::fork`), so that a
    /// fork never copies a half-applied change or a held writer lock.
    fn change(
        &self,
        py: Python<'_>,
        edit: Edit<'_>,
        apply: impl FnOnce(&Set) -> longstraw_set::Result<()> + Send,
    ) -> PyResult<()> {
        crate::exit_guard::detach_with(py, |gil_held| {
            let _gate = if gil_held {
                crate::fork::try_enter()?
            } else {
                crate::fork::enter()
            };
            let _writer = if gil_held {
                crate::exit_guard::try_lock_exiting(&self.writer)?
            } else {
                self.writer.lock().unwrap_or_else(|p| p.into_inner())
            };
            apply(&self.set).map_err(to_py)?;
            Python::attach(|py| self.publish(py, &edit));
            Ok(())
        })
    }

    /// Stores the view of the set's current snapshot, reusing the previous
    /// view's id and label objects: only `edit` brings new ones.
    fn publish(&self, py: Python<'_>, edit: &Edit<'_>) {
        let old = self.view.load_full();
        let snap = self.set.snapshot();
        let view = match edited(py, &old, &snap, edit) {
            Some((ids, domains)) => View { snap, ids, domains },
            None => rebuilt(py, &old, snap, edit),
        };
        self.view.store(Arc::new(view));
    }
}

type Objects = (Chunked<Py<PyAny>>, Option<Chunked<Option<Py<PyAny>>>>);

/// The objects of `snap` from those of `old`, the snapshot `edit` changed:
/// one chunk copied. `None` if `snap` is not `old` changed by `edit` as
/// expected (then [`rebuilt`] matches every node by id).
fn edited(py: Python<'_>, old: &View, snap: &Snapshot, edit: &Edit<'_>) -> Option<Objects> {
    let (before, after) = (&*old.snap, snap);
    let labelled = after.members().domain_ids().is_some();
    // The labels of `old`, every node unlabelled while none had a label.
    let old_labels = || {
        old.domains
            .clone()
            .unwrap_or_else(|| Chunked::from_vec((0..before.len()).map(|_| None).collect()))
    };
    let keep = |d: Chunked<Option<Py<PyAny>>>| labelled.then_some(d);
    match *edit {
        Edit::Weight => (after.len() == before.len()).then(|| (old.ids.clone(), old.domains.clone())),
        Edit::Add { id, object, label } => {
            let last = after.len().checked_sub(1).and_then(|i| after.node(i as u32));
            if after.len() != before.len() + 1 || last.map(|l| l.id()) != Some(id) {
                return None;
            }
            let ids = old.ids.push(py, object.clone_ref(py));
            let domains = labelled.then(|| old_labels().push(py, label.map(|l| l.clone_ref(py))));
            Some((ids, domains))
        }
        Edit::Remove { id } => {
            let at = before.index_of(id)? as usize;
            if after.len() + 1 != before.len() {
                return None;
            }
            let domains = match &old.domains {
                Some(d) => keep(d.remove(py, at)),
                None if labelled => return None,
                None => None,
            };
            Some((old.ids.remove(py, at), domains))
        }
        Edit::Domain { id, label } => {
            let at = after.index_of(id)? as usize;
            if after.len() != before.len() {
                return None;
            }
            let domains = keep(old_labels().replace(py, at, label.map(|l| l.clone_ref(py))));
            Some((old.ids.clone(), domains))
        }
    }
}

/// The objects of `snap`, each node's found in `old` by id (O(n)); only the
/// node `edit` added or relabelled brings new ones.
fn rebuilt(py: Python<'_>, old: &View, snap: Arc<Snapshot>, edit: &Edit<'_>) -> View {
    let before: Vec<Option<usize>> = snap
        .nodes()
        .map(|n| old.snap.index_of(n.id()).map(|i| i as usize))
        .collect();
    let (touched, object, label) = match *edit {
        Edit::Add { id, object, label } => (Some(id), Some(object), label),
        Edit::Domain { id, label } => (Some(id), None, label),
        Edit::Remove { .. } | Edit::Weight => (None, None, None),
    };
    let ids = before
        .iter()
        .map(|at| match at {
            Some(i) => old.ids.get(*i).clone_ref(py),
            None => object.expect("only an added node is new").clone_ref(py),
        })
        .collect();
    let labelled = snap.members().domain_ids().is_some();
    let domains = labelled.then(|| {
        let labels = snap
            .nodes()
            .zip(&before)
            .map(|(node, at)| match touched {
                Some(t) if t == node.id() => label.map(|l| l.clone_ref(py)),
                _ => at.and_then(|i| old.domains.as_ref()?.get(i).clone_ref(py)),
            })
            .collect();
        Chunked::from_vec(labels)
    });
    View {
        snap,
        ids: Chunked::from_vec(ids),
        domains,
    }
}

/// Text ids and labels as `str`, other bytes as `bytes`, as a membership file writes them.
fn id_object(py: Python<'_>, bytes: &[u8]) -> Py<PyAny> {
    match std::str::from_utf8(bytes) {
        Ok(s) => PyString::new(py, s).into_any().unbind(),
        Err(_) => PyBytes::new(py, bytes).into_any().unbind(),
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

/// Domain labels for the constructor: one label or `None` per node.
fn node_domains(ids: &[NodeId], domains: &Bound<'_, PyAny>) -> PyResult<Vec<Option<NodeId>>> {
    let labels = items(
        domains,
        "domains",
        "an iterable of str or bytes labels (or None), one per node",
    )?
    .map(|d| domain_label(&d?))
    .collect::<PyResult<Vec<_>>>()?;
    if labels.len() != ids.len() {
        return Err(bad_value(format!(
            "domains has {} entries but nodes has {}; give one label (or None) per node",
            labels.len(),
            ids.len()
        )));
    }
    Ok(labels)
}

/// `repr(obj)` for messages.
pub(crate) fn show(obj: &Bound<'_, PyAny>) -> String {
    obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "<node>".into())
}
