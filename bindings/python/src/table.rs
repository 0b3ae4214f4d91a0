//! `longstraw.Table`: a partition table (SPEC.md §10), O(1) lookups.

use longstraw_set::{Placement, Table as Set, TableOptions};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

use crate::convert::{shape_arg, Given, PlacementArg, Replicas};
use crate::error::to_py;
use crate::keyed::{set_options, SecretArg, SeedArg};
use crate::shared::{Members, Shared};
use crate::snapshot::TableSnapshot;

/// A partition table: a key's owner is the owner of its partition (the top
/// `bits` bits of its key hash), and each partition is placed by rendezvous
/// hashing, so removing a node moves exactly its partitions.
///
/// `bits` is part of the placement: tables agree only with the same bits.
/// The default comes from the initial node count; pass it explicitly for a
/// fleet that starts small and grows. `replicas` is how many nodes each
/// partition stores (`top_k` up to that many is a table read) and
/// `distinct_domains` makes the stored lists one node per failure domain;
/// neither changes a result. `balance` (1.0 to 4.0) makes a balanced table
/// (SPEC.md §17): no node holds more than `ceil(balance * P * w / W)`
/// partitions per replica rank; lists then stop at `replicas`, and every
/// change places every partition again (from an incrementally patched
/// plain ranking).
#[pyclass(frozen, module = "longstraw", name = "Table")]
pub(crate) struct Table {
    shared: Shared<Set>,
}

/// The constructor arguments that shape a table, for `repr`.
pub(crate) fn shape(snap: &longstraw_set::TableSnapshot) -> Vec<(&'static str, String)> {
    let mut shape = vec![("bits", snap.partition_bits().to_string())];
    if snap.replicas() != 1 {
        shape.push(("replicas", snap.replicas().to_string()));
    }
    if snap.distinct_domains() {
        shape.push(("distinct_domains", "True".to_owned()));
    }
    if let Some(b) = snap.balance() {
        shape.push(("balance", format!("{:?}", b.as_f64())));
    }
    shape
}

set_class!(Table, TableSnapshot, {
    #[new]
    #[pyo3(
        signature = (
            nodes,
            weights = None,
            seed = SeedArg(None),
            placement = PlacementArg(Placement::V1),
            bits = None,
            replicas = Replicas(1),
            domains = None,
            distinct_domains = false,
            balance = None,
            secret = None,
        ),
        text_signature = "(nodes, weights=None, seed=0, placement=1, bits=None, replicas=1, domains=None, \
                          distinct_domains=False, balance=None, secret=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        nodes: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        seed: SeedArg,
        placement: PlacementArg,
        bits: Option<&Bound<'_, PyAny>>,
        replicas: Replicas,
        domains: Option<&Bound<'_, PyAny>>,
        distinct_domains: bool,
        balance: Option<&Bound<'_, PyAny>>,
        secret: Option<SecretArg>,
    ) -> PyResult<Self> {
        let balance = crate::balance::balance_arg(balance)?;
        let partition_bits = bits
            .filter(|b| !b.is_none())
            .map(|b| shape_arg(b, "bits", longstraw::MAX_PARTITION_BITS))
            .transpose()?;
        let members = Members::parse(nodes, weights, domains)?;
        let options = TableOptions {
            set: set_options(seed, secret, placement.0)?,
            partition_bits,
            replicas: replicas.0,
            distinct_domains,
            balance,
        };
        let set =
            crate::exit_guard::detach(nodes.py(), || Set::with_domains(members.triples(), options)).map_err(to_py)?;
        Ok(Table {
            shared: Shared::new(nodes.py(), set, &members),
        })
    }

    /// The partition of `key`: the top `bits` bits of its key hash.
    fn partition(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        crate::convert::with_key(key, |k| self.shared.view().snap.partition(k))
    }

    /// Partition bits in use: `partitions == 2 ** bits`.
    #[getter]
    fn bits(&self) -> u8 {
        self.shared.view().snap.partition_bits()
    }

    #[getter]
    fn partitions(&self) -> usize {
        self.shared.view().snap.partitions()
    }

    /// Nodes stored per partition.
    #[getter]
    fn replicas(&self) -> usize {
        self.shared.view().snap.replicas()
    }

    /// Whether stored lists hold at most one node per failure domain.
    #[getter]
    fn distinct_domains(&self) -> bool {
        self.shared.view().snap.distinct_domains()
    }

    /// Loads a membership file (docs/MEMBERSHIP.md) of this class's mode.
    /// The same file gives the same placement in every language. A bad file
    /// raises ValueError naming the line and the field.
    /// A keyed file's set remembers the secret source the file names, and
    /// `save` names it again.
    #[classmethod]
    fn load(cls: &Bound<'_, PyType>, path: std::path::PathBuf) -> PyResult<Self> {
        let py = cls.py();
        let (set, source) = crate::membership_file::load(py, &path, "Table", |loaded| match loaded {
            longstraw_membership::Loaded::Table(set) => Ok(set),
            other => Err(other),
        })?;
        Ok(Table {
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
        let membership = longstraw_membership::Membership::of_table(&self.shared.view().snap);
        let source = self.shared.source();
        crate::membership_file::save(py, membership, source, &path, secret_file, secret_env)
    }

    /// The balance of a balanced table (SPEC.md §17), or `None` for a plain one.
    #[getter]
    fn balance(&self) -> Option<f64> {
        self.shared.view().snap.balance().map(|b| b.as_f64())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let view = self.shared.view();
        view.repr(py, "Table", &shape(&view.snap))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let view = slf.get().shared.view_full();
        let snap = &view.snap;
        let mut args: Vec<Bound<'py, PyAny>> = view.args(py)?.iter().collect();
        args.push(snap.partition_bits().into_pyobject(py)?.into_any());
        args.push(snap.replicas().into_pyobject(py)?.into_any());
        args.push(view.domains_arg(py)?);
        args.push(
            pyo3::types::PyBool::new(py, snap.distinct_domains())
                .to_owned()
                .into_any(),
        );
        args.push(snap.balance().map(|b| b.as_f64()).into_pyobject(py)?.into_any());
        Ok((slf.get_type(), PyTuple::new(py, args)?))
    }
});
