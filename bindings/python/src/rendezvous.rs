//! `longstraw.Rendezvous`: the mutable node set, placed by flat HRW.

use longstraw_set::{Placement, Rendezvous as Set};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

use crate::convert::{Given, PlacementArg};
use crate::error::to_py;
use crate::keyed::{set_options, SecretArg, SeedArg};
use crate::shared::{Members, Shared};
use crate::snapshot::Snapshot;

/// A set of nodes and the rendezvous placement of keys on them.
///
/// Lookups never block and always see one whole membership; changes from
/// other threads are atomic.
#[pyclass(frozen, module = "longstraw", name = "Rendezvous")]
pub(crate) struct Rendezvous {
    shared: Shared<Set>,
}

set_class!(Rendezvous, Snapshot, {
    #[new]
    #[pyo3(
        signature = (nodes, weights = None, seed = SeedArg(None), placement = PlacementArg(Placement::V1), domains = None, secret = None),
        text_signature = "(nodes, weights=None, seed=0, placement=1, domains=None, secret=None)"
    )]
    fn new(
        nodes: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        seed: SeedArg,
        placement: PlacementArg,
        domains: Option<&Bound<'_, PyAny>>,
        secret: Option<SecretArg>,
    ) -> PyResult<Self> {
        let members = Members::parse(nodes, weights, domains)?;
        let options = set_options(seed, secret, placement.0)?;
        let set = Set::with_weights(members.triples().map(|(id, w, _)| (id, w)), options).map_err(to_py)?;
        if members.labelled() {
            // The flat set has no labelled constructor: label the nodes in
            // one published change (so the first snapshot is generation 1).
            set.update(|u| {
                members
                    .triples()
                    .try_for_each(|(id, _, domain)| domain.map_or(Ok(()), |d| u.set_domain(id, Some(d))))
            })
            .map_err(to_py)?;
        }
        Ok(Rendezvous {
            shared: Shared::new(nodes.py(), set, &members),
        })
    }

    /// Loads a membership file (docs/MEMBERSHIP.md) of this class's mode.
    /// The same file gives the same placement in every language. A bad file
    /// raises ValueError naming the line and the field.
    /// A keyed file's set remembers the secret source the file names, and
    /// `save` names it again.
    #[classmethod]
    fn load(cls: &Bound<'_, PyType>, path: std::path::PathBuf) -> PyResult<Self> {
        let py = cls.py();
        let (set, source) = crate::membership_file::load(py, &path, "Rendezvous", |loaded| match loaded {
            longstraw_membership::Loaded::Flat(set) => Ok(set),
            other => Err(other),
        })?;
        Ok(Rendezvous {
            shared: Shared::loaded(py, set, source),
        })
    }

    /// Saves the current membership as a membership file that pins the seed,
    /// the placement version and the shape, so loading it places every key
    /// the same way. A keyed set's file names where its secret comes from
    /// (never the secret): `secret_file` (a path; a relative one is read
    /// relative to the saved file's folder) or `secret_env` (an environment
    /// variable), at most one; without either, the source of the file the set
    /// was loaded from.
    #[pyo3(signature = (path, *, secret_file = None, secret_env = None))]
    fn save(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        secret_file: Option<std::path::PathBuf>,
        secret_env: Option<String>,
    ) -> PyResult<()> {
        let membership = longstraw_membership::Membership::of_snapshot(&self.shared.view().snap);
        let source = self.shared.source();
        crate::membership_file::save(py, membership, source, &path, secret_file, secret_env)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.shared.view().repr(py, "Rendezvous", &[])
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let view = slf.get().shared.view_full();
        let mut args: Vec<Bound<'py, PyAny>> = view.args(py)?.iter().collect();
        args.push(view.domains_arg(py)?);
        Ok((slf.get_type(), PyTuple::new(py, args)?))
    }
});
