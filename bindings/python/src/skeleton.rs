//! `longstraw.Skeleton`: skeleton (hierarchical) HRW (SPEC.md §11),
//! O(fan-out * levels + leaf size) lookups for the largest fleets.

use longstraw_set::{Placement, Skeleton as Set, SkeletonOptions, SkeletonShape};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

use crate::convert::{shape_arg, Given, PlacementArg};
use crate::error::{bad_value, core_to_py, to_py};
use crate::keyed::{set_options, SecretArg, SeedArg};
use crate::shared::{Members, Shared};
use crate::snapshot::SkeletonSnapshot;

/// Skeleton HRW: nodes are the leaves of a tree of `levels` levels with
/// `2 ** fanout_bits` children per group, grouped by their hashes; a lookup
/// races the groups level by level, weighted by their total weight.
///
/// The shape is part of the placement (which differs from `Rendezvous`'s
/// unless `levels == 0`). The default comes from the initial node count.
/// Deeper trees look up faster and move more keys on a membership change.
#[pyclass(frozen, module = "longstraw", name = "Skeleton")]
pub(crate) struct Skeleton {
    shared: Shared<Set>,
}

/// The constructor arguments that shape a skeleton, for `repr`.
pub(crate) fn shape(snap: &longstraw_set::SkeletonSnapshot) -> Vec<(&'static str, String)> {
    let shape = snap.shape();
    vec![
        ("fanout_bits", shape.fanout_bits().to_string()),
        ("levels", shape.levels().to_string()),
    ]
}

/// The shape from the `fanout_bits` and `levels` arguments: both, neither
/// (the default for the node count), or `levels=0` alone (flat).
fn shape_of(
    fanout_bits: Option<&Bound<'_, PyAny>>,
    levels: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<SkeletonShape>> {
    let fanout_bits = fanout_bits
        .map(|f| shape_arg(f, "fanout_bits", longstraw::skeleton::MAX_FANOUT_BITS))
        .transpose()?;
    let levels = levels
        .map(|l| shape_arg(l, "levels", longstraw::skeleton::MAX_LEVELS))
        .transpose()?;
    match (fanout_bits, levels) {
        (None, None) => Ok(None),
        (f, Some(0)) => SkeletonShape::new(f.unwrap_or(0), 0).map(Some).map_err(core_to_py),
        (Some(f), Some(l)) => SkeletonShape::new(f, l).map(Some).map_err(core_to_py),
        (None, Some(l)) => Err(bad_value(format!(
            "levels={l} needs fanout_bits (1 to {}): give both, or neither for the default shape",
            longstraw::skeleton::MAX_FANOUT_BITS
        ))),
        (Some(f), None) => Err(bad_value(format!(
            "fanout_bits={f} needs levels (0 to {}): give both, or neither for the default shape",
            longstraw::skeleton::MAX_LEVELS
        ))),
    }
}

set_class!(Skeleton, SkeletonSnapshot, {
    #[new]
    #[pyo3(
        signature = (
            nodes,
            weights = None,
            seed = SeedArg(None),
            placement = PlacementArg(Placement::V1),
            fanout_bits = None,
            levels = None,
            domains = None,
            secret = None,
        ),
        text_signature = "(nodes, weights=None, seed=0, placement=1, fanout_bits=None, levels=None, domains=None, \
                          secret=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        nodes: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        seed: SeedArg,
        placement: PlacementArg,
        fanout_bits: Option<&Bound<'_, PyAny>>,
        levels: Option<&Bound<'_, PyAny>>,
        domains: Option<&Bound<'_, PyAny>>,
        secret: Option<SecretArg>,
    ) -> PyResult<Self> {
        let shape = shape_of(fanout_bits, levels)?;
        let members = Members::parse(nodes, weights, domains)?;
        let options = SkeletonOptions {
            set: set_options(seed, secret, placement.0)?,
            shape,
        };
        let set =
            crate::exit_guard::detach(nodes.py(), || Set::with_domains(members.triples(), options)).map_err(to_py)?;
        Ok(Skeleton {
            shared: Shared::new(nodes.py(), set, &members),
        })
    }

    /// Bits of the node hash per level: each group has up to `2 ** fanout_bits` children.
    #[getter]
    fn fanout_bits(&self) -> u8 {
        self.shared.view().snap.shape().fanout_bits()
    }

    /// Levels of groups above the nodes (0: flat rendezvous placement).
    #[getter]
    fn levels(&self) -> u8 {
        self.shared.view().snap.shape().levels()
    }

    /// Loads a membership file (docs/MEMBERSHIP.md) of this class's mode.
    /// The same file gives the same placement in every language. A bad file
    /// raises ValueError naming the line and the field.
    /// A keyed file's set remembers the secret source the file names, and
    /// `save` names it again.
    #[classmethod]
    fn load(cls: &Bound<'_, PyType>, path: std::path::PathBuf) -> PyResult<Self> {
        let py = cls.py();
        let (set, source) = crate::membership_file::load(py, &path, "Skeleton", |loaded| match loaded {
            longstraw_membership::Loaded::Skeleton(set) => Ok(set),
            other => Err(other),
        })?;
        Ok(Skeleton {
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
        let membership = longstraw_membership::Membership::of_skeleton(&self.shared.view().snap);
        let source = self.shared.source();
        crate::membership_file::save(py, membership, source, &path, secret_file, secret_env)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let view = self.shared.view();
        view.repr(py, "Skeleton", &shape(&view.snap))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let view = slf.get().shared.view_full();
        let shape = view.snap.shape();
        let mut args: Vec<Bound<'py, PyAny>> = view.args(py)?.iter().collect();
        args.push(shape.fanout_bits().into_pyobject(py)?.into_any());
        args.push(shape.levels().into_pyobject(py)?.into_any());
        args.push(view.domains_arg(py)?);
        Ok((slf.get_type(), PyTuple::new(py, args)?))
    }
});
