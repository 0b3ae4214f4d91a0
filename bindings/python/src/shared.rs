//! What every mutable Python class holds: the set of `longstraw-set`, the
//! `View` that lookups read, and the conversions of membership changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arc_swap::{ArcSwap, Guard};
use pyo3::prelude::*;

use crate::convert::{self, domain_label, items, node_id, with_node_id, Given, NodeId};
use crate::error::{bad_value, to_py};
use crate::placed::{Owned, Placed};
use crate::view::View;

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

/// The node whose id or label objects a change brings in.
struct Touched<'a> {
    id: &'a [u8],
    /// The id object of a node being added.
    object: Option<&'a Py<PyAny>>,
    /// Its new label.
    label: Option<&'a Py<PyAny>>,
}

pub(crate) struct Shared<S: Owned> {
    set: S,
    /// What lookups read. Replaced only while `writer` is held, right after
    /// the set changed, so it always mirrors the set's current snapshot.
    view: ArcSwap<View<S::Snap>>,
    writer: Mutex<()>,
}

impl<S: Owned> Shared<S> {
    /// Wraps a set built from `members`.
    pub(crate) fn new(py: Python<'_>, set: S, members: &Members) -> Shared<S> {
        let index: HashMap<&[u8], usize> = members
            .ids
            .iter()
            .enumerate()
            .map(|(i, id)| (&id.bytes[..], i))
            .collect();
        let snap = set.snapshot();
        let at: Vec<usize> = snap.members().ids().iter().map(|id| index[&id[..]]).collect();
        let ids = at.iter().map(|&i| members.ids[i].object.clone_ref(py)).collect();
        let domains = members.domains.as_ref().filter(|_| members.labelled()).map(|labels| {
            at.iter()
                .map(|&i| labels[i].as_ref().map(|l| l.object.clone_ref(py)))
                .collect()
        });
        Shared {
            view: ArcSwap::from_pointee(View { snap, ids, domains }),
            set,
            writer: Mutex::new(()),
        }
    }

    /// The current view, for one lookup.
    #[inline]
    pub(crate) fn view(&self) -> Guard<Arc<View<S::Snap>>> {
        self.view.load()
    }

    /// The current view, to keep.
    pub(crate) fn view_full(&self) -> Arc<View<S::Snap>> {
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
        let touched = Touched {
            id: &id.bytes,
            object: Some(&id.object),
            label: label.as_ref().map(|l| &l.object),
        };
        self.change(py, Some(touched), |set| set.add(&id.bytes, weight, label_bytes))
    }

    pub(crate) fn remove(&self, node: &Bound<'_, PyAny>) -> PyResult<()> {
        with_node_id(node, |bytes| self.change(node.py(), None, |set| set.remove(bytes)))?
    }

    pub(crate) fn set_weight(&self, node: &Bound<'_, PyAny>, weight: &Bound<'_, PyAny>) -> PyResult<()> {
        let weight = convert::weight(weight, &|| format!("node {}", show(node)))?;
        with_node_id(node, |bytes| {
            self.change(node.py(), None, |set| set.set_weight(bytes, weight))
        })?
    }

    pub(crate) fn set_domain(&self, node: &Bound<'_, PyAny>, domain: &Bound<'_, PyAny>) -> PyResult<()> {
        let label = domain_label(domain)?;
        let label_bytes = label.as_ref().map(|l| &l.bytes[..]);
        with_node_id(node, |bytes| {
            let touched = Touched {
                id: bytes,
                object: None,
                label: label.as_ref().map(|l| &l.object),
            };
            self.change(node.py(), Some(touched), |set| set.set_domain(bytes, label_bytes))
        })?
    }

    /// Applies one change to the set and publishes the matching view.
    ///
    /// The change runs without the GIL (a table or skeleton may re-rank for
    /// milliseconds); the GIL is taken back only to publish the view.
    /// Waiting for `writer` never holds the GIL, so writers on other threads
    /// cannot deadlock with this one.
    fn change(
        &self,
        py: Python<'_>,
        touched: Option<Touched<'_>>,
        apply: impl FnOnce(&S) -> longstraw_set::Result<()> + Send,
    ) -> PyResult<()> {
        crate::exit_guard::detach_with(py, |gil_held| {
            let _writer = if gil_held {
                crate::exit_guard::try_lock_exiting(&self.writer)?
            } else {
                self.writer.lock().unwrap_or_else(|p| p.into_inner())
            };
            apply(&self.set).map_err(to_py)?;
            Python::attach(|py| self.publish(py, touched.as_ref()));
            Ok(())
        })
    }

    /// Stores the view of the set's current snapshot, reusing the previous
    /// view's id and label objects: only `touched` brings new ones.
    fn publish(&self, py: Python<'_>, touched: Option<&Touched<'_>>) {
        let old = self.view.load_full();
        let snap = self.set.snapshot();
        let members = snap.members();
        let before: Vec<Option<usize>> = members
            .ids()
            .iter()
            .map(|id| old.snap.members().index_of(id).map(|i| i as usize))
            .collect();
        let ids = members
            .ids()
            .iter()
            .zip(&before)
            .map(|(_, at)| match at {
                Some(i) => old.ids[*i].clone_ref(py),
                None => touched
                    .and_then(|t| t.object)
                    .expect("only an added node is new")
                    .clone_ref(py),
            })
            .collect();
        let labelled = members.domains().iter().any(Option::is_some);
        let domains = labelled.then(|| {
            members
                .ids()
                .iter()
                .zip(&before)
                .map(|(id, at)| match touched {
                    Some(t) if t.id == &id[..] => t.label.map(|l| l.clone_ref(py)),
                    _ => at.and_then(|i| old.domains.as_ref()?[i].as_ref().map(|l| l.clone_ref(py))),
                })
                .collect()
        });
        self.view.store(Arc::new(View { snap, ids, domains }));
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
