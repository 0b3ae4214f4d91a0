//! `longstraw.Rendezvous`: the mutable node set, of any placement mode.

use std::path::PathBuf;

use longstraw_set::{Mode, ModeOptions, Rendezvous as Set, SkeletonOptions, SkeletonShape, TableOptions};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};

use crate::convert::{shape_arg, Given, Replicas};
use crate::error::{bad_value, core_to_py, to_py};
use crate::options::{set_options_signature, SetOptions};
use crate::shared::{Members, Shared};
use crate::snapshot::Snapshot;

// The first line is the class's `__text_signature__`, which `help()` and
// `inspect.signature` show: `#[new]` takes the set-wide options as `**options`.
#[doc = concat!("Rendezvous(nodes, *, weights=None, domains=None, ", set_options_signature!(), ")\n--\n")]
/// A set of nodes and the rendezvous placement of keys on them, in one of
/// three modes:
///
/// - flat, ``Rendezvous(nodes)``: every node races for every key (SPEC.md §3);
/// - table, ``Rendezvous.table(nodes)``: a key's owner is the owner of its
///   partition (the top ``partition_bits`` bits of its key hash), each
///   partition placed by rendezvous hashing: O(1) lookups (SPEC.md §10);
/// - skeleton, ``Rendezvous.skeleton(nodes)``: a tree of groups raced level
///   by level, for the largest fleets (SPEC.md §11).
///
/// ``Rendezvous.load(path)`` and ``Rendezvous.loads(data)`` give the mode a
/// membership file names. Every mode has the same lookups and changes; the
/// mode's own properties are ``None`` on another mode.
///
/// Lookups never block and always see one whole membership; changes from
/// other threads are atomic.
#[pyclass(frozen, module = "longstraw", name = "Rendezvous")]
pub(crate) struct Rendezvous {
    shared: Shared,
}

impl Rendezvous {
    /// A new set of `mode` from the arguments every mode takes.
    fn build(
        nodes: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        domains: Option<&Bound<'_, PyAny>>,
        options: SetOptions,
        mode: ModeOptions,
    ) -> PyResult<Rendezvous> {
        let py = nodes.py();
        let members = Members::parse(nodes, weights, domains)?;
        let options = options.into_options();
        // A large table or skeleton takes a while to build: other threads run meanwhile.
        let set = crate::exit_guard::detach(py, || Set::new(members.triples(), options, mode)).map_err(to_py)?;
        Ok(Rendezvous {
            shared: Shared::new(py, set, &members),
        })
    }
}

/// The skeleton shape from the `fanout_bits` and `levels` arguments: both,
/// neither (the default for the node count), or `levels=0` alone (flat).
fn skeleton_shape(
    fanout_bits: Option<&Bound<'_, PyAny>>,
    levels: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<SkeletonShape>> {
    let fanout_bits = fanout_bits
        .filter(|f| !f.is_none())
        .map(|f| shape_arg(f, "fanout_bits", longstraw::skeleton::MAX_FANOUT_BITS))
        .transpose()?;
    let levels = levels
        .filter(|l| !l.is_none())
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

#[pymethods]
impl Rendezvous {
    /// A flat set: every node races for every key.
    #[new]
    #[pyo3(signature = (nodes, *, weights = None, domains = None, **options), text_signature = None)]
    fn new(
        nodes: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
        domains: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let options = SetOptions::parse("Rendezvous.__new__()", options)?;
        Rendezvous::build(nodes, weights, domains, options, ModeOptions::Flat)
    }

    #[doc = concat!(
        "table(nodes, *, partition_bits=None, replicas=1, distinct_domains=False, balance=None, ",
        "weights=None, domains=None, ", set_options_signature!(), ")\n--\n"
    )]
    /// A partition table (SPEC.md §10): O(1) lookups.
    ///
    /// `partition_bits` is part of the placement: tables agree only with the
    /// same bits. The default comes from the initial node count; pass it
    /// explicitly for a fleet that starts small and grows. `replicas` is how
    /// many nodes each partition stores (`top_k` up to that many is a table
    /// read) and `distinct_domains` makes the stored lists one node per
    /// failure domain; neither changes a result. `balance` (1.0 to 4.0) makes
    /// a balanced table (SPEC.md §17): no node holds more than
    /// `ceil(balance * P * w / W)` partitions per replica rank; lists then
    /// stop at `replicas`, and every change places every partition again.
    #[classmethod]
    #[pyo3(
        signature = (
            nodes, *, partition_bits = None, replicas = Replicas(1), distinct_domains = false, balance = None,
            weights = None, domains = None, **options,
        ),
        text_signature = None
    )]
    #[allow(clippy::too_many_arguments)]
    fn table(
        _cls: &Bound<'_, PyType>,
        nodes: &Bound<'_, PyAny>,
        partition_bits: Option<&Bound<'_, PyAny>>,
        replicas: Replicas,
        distinct_domains: bool,
        balance: Option<&Bound<'_, PyAny>>,
        weights: Option<&Bound<'_, PyAny>>,
        domains: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let options = SetOptions::parse("Rendezvous.table()", options)?;
        let mode = ModeOptions::Table(TableOptions {
            partition_bits: partition_bits
                .filter(|b| !b.is_none())
                .map(|b| shape_arg(b, "partition_bits", longstraw::MAX_PARTITION_BITS))
                .transpose()?,
            replicas: replicas.0,
            distinct_domains,
            balance: crate::balance::balance_arg(balance)?,
        });
        Rendezvous::build(nodes, weights, domains, options, mode)
    }

    #[doc = concat!(
        "skeleton(nodes, *, fanout_bits=None, levels=None, weights=None, domains=None, ",
        set_options_signature!(), ")\n--\n"
    )]
    /// Skeleton (hierarchical) HRW (SPEC.md §11): nodes are the leaves of a
    /// tree of `levels` levels with `2 ** fanout_bits` children per group;
    /// a lookup races the groups level by level, weighted by their total
    /// weight. The shape is part of the placement (which differs from flat
    /// unless `levels == 0`); the default comes from the initial node count.
    /// Deeper trees look up faster and move more keys on a membership change.
    #[classmethod]
    #[pyo3(
        signature = (nodes, *, fanout_bits = None, levels = None, weights = None, domains = None, **options),
        text_signature = None
    )]
    fn skeleton(
        _cls: &Bound<'_, PyType>,
        nodes: &Bound<'_, PyAny>,
        fanout_bits: Option<&Bound<'_, PyAny>>,
        levels: Option<&Bound<'_, PyAny>>,
        weights: Option<&Bound<'_, PyAny>>,
        domains: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let options = SetOptions::parse("Rendezvous.skeleton()", options)?;
        let mode = ModeOptions::Skeleton(SkeletonOptions {
            shape: skeleton_shape(fanout_bits, levels)?,
        });
        Rendezvous::build(nodes, weights, domains, options, mode)
    }

    /// Loads a membership file (docs/MEMBERSHIP.md); the set has the mode
    /// the file names. The same file gives the same placement in every
    /// language. A bad file raises ValueError naming the line and the field.
    /// A keyed file's set remembers the secret source the file names, and
    /// `save` names it again.
    #[classmethod]
    fn load(cls: &Bound<'_, PyType>, path: PathBuf) -> PyResult<Self> {
        let py = cls.py();
        let (set, source) = crate::membership_file::load(py, &path)?;
        Ok(Rendezvous {
            shared: Shared::loaded(py, set, source),
        })
    }

    /// Loads the content of a membership file (`str`, or `bytes` of UTF-8
    /// text), as `load` does. A relative `secret.file` in it is read
    /// relative to the current directory.
    #[classmethod]
    fn loads(cls: &Bound<'_, PyType>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = cls.py();
        let (set, source) = crate::membership_file::loads(py, data)?;
        Ok(Rendezvous {
            shared: Shared::loaded(py, set, source),
        })
    }

    /// Saves the current membership as a membership file that pins the mode,
    /// the seed, the placement version and the shape, so loading it places
    /// every key the same way. A keyed set's file names where its secret
    /// comes from (never the secret): `secret_file` (a path; a relative one
    /// is read relative to the saved file's folder) or `secret_env` (an
    /// environment variable), at most one; without either, the source of the
    /// file the set was loaded from.
    #[pyo3(signature = (path, *, secret_file = None, secret_env = None))]
    fn save(
        &self,
        py: Python<'_>,
        path: PathBuf,
        secret_file: Option<PathBuf>,
        secret_env: Option<String>,
    ) -> PyResult<()> {
        let membership = longstraw_membership::Membership::of(&self.shared.view().snap);
        let source = self.shared.source();
        crate::membership_file::save(py, membership, source, &path, secret_file, secret_env)
    }

    /// `Rendezvous[str]`: a `types.GenericAlias` for annotations (the id type is static only).
    #[classmethod]
    fn __class_getitem__<'py>(cls: &Bound<'py, PyType>, item: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        crate::generic::class_getitem(cls, item)
    }

    /// The id of the node that owns `key`.
    fn owner(&self, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.shared.view().owner(key)
    }

    /// The ids of the `k` best nodes for `key`, owner first.
    fn top_k<'py>(&self, key: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.shared.view().top_k(key, k)
    }

    /// At most one node per failure domain: the first `k` nodes of
    /// `rank(key)` that are each the first of their domain (CRUSH `firstn`).
    /// The owner comes first; the list is shorter than `k` when fewer domains
    /// have an eligible node.
    fn top_k_distinct<'py>(&self, key: &Bound<'py, PyAny>, k: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.shared.view().top_k_distinct(key, k)
    }

    /// Every eligible node for `key`, owner first.
    fn rank<'py>(&self, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.shared.view().rank(key)
    }

    /// The owner of each key, in order, all from one membership.
    fn owners<'py>(&self, keys: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        self.shared.view().owners(keys)
    }

    /// The partition of `key` (table mode; ValueError on another mode).
    fn partition(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        crate::convert::with_key(key, |k| self.shared.view().snap.partition(k))?.map_err(to_py)
    }

    /// The current membership, frozen: its lookups and node indices never change.
    fn snapshot(&self) -> Snapshot {
        Snapshot::new(self.shared.view_full())
    }

    /// Adds a node, optionally in a failure domain (rack, zone).
    #[pyo3(
        signature = (node, weight = Given::Default, domain = None),
        text_signature = "($self, node, weight=1.0, domain=None)"
    )]
    fn add(&self, node: &Bound<'_, PyAny>, weight: Given, domain: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.shared.add(node, weight, domain)
    }

    fn remove(&self, node: &Bound<'_, PyAny>) -> PyResult<()> {
        self.shared.remove(node)
    }

    fn set_weight(&self, node: &Bound<'_, PyAny>, weight: &Bound<'_, PyAny>) -> PyResult<()> {
        self.shared.set_weight(node, weight)
    }

    /// Sets a node's failure domain label, or with `None` clears it (the
    /// node becomes a domain of its own).
    fn set_domain(&self, node: &Bound<'_, PyAny>, domain: &Bound<'_, PyAny>) -> PyResult<()> {
        self.shared.set_domain(node, domain)
    }

    fn __len__(&self) -> usize {
        self.shared.view().len()
    }

    fn __contains__(&self, node: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.shared.view().contains(node)
    }

    /// The node ids, by index (a new list each time).
    #[getter]
    fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.shared.view().nodes(py)
    }

    /// The weights, in the order of `nodes` (read both from one `snapshot()`
    /// when other threads may change the set in between).
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.shared.view().weights(py)
    }

    /// The failure domain label of each node, in the order of `nodes`
    /// (`None`: the node is a domain of its own).
    #[getter]
    fn domains<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.shared.view().domains(py)
    }

    /// `"flat"`, `"table"` or `"skeleton"`, as membership files name it.
    #[getter]
    fn mode(&self) -> &'static str {
        self.shared.view().snap.mode().as_str()
    }

    /// The seed, or `None` for a keyed set (built with a secret; it has no seed).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.shared.view().snap.seed()
    }

    /// Whether keys are placed by keyed-v1 (the set was built with a secret).
    #[getter]
    fn keyed(&self) -> bool {
        self.shared.view().snap.is_keyed()
    }

    #[getter]
    fn placement(&self) -> u32 {
        self.shared.view().snap.placement().number()
    }

    /// The kernel this set's lookups run on.
    #[getter]
    fn backend(&self) -> &'static str {
        self.shared.view().snap.backend().name()
    }

    /// Partition bits of a table (`partitions == 2 ** partition_bits`); `None` on another mode.
    #[getter]
    fn partition_bits(&self) -> Option<u8> {
        self.shared.view().snap.partition_bits()
    }

    /// Partitions of a table; `None` on another mode.
    #[getter]
    fn partitions(&self) -> Option<usize> {
        self.shared.view().snap.partitions()
    }

    /// Nodes stored per partition of a table; `None` on another mode.
    #[getter]
    fn replicas(&self) -> Option<usize> {
        self.shared.view().snap.replicas()
    }

    /// Whether a table's stored lists hold at most one node per failure
    /// domain; `None` on another mode.
    #[getter]
    fn distinct_domains(&self) -> Option<bool> {
        self.shared.view().snap.distinct_domains()
    }

    /// The balance of a balanced table (SPEC.md §17); `None` for a plain table and on another mode.
    #[getter]
    fn balance(&self) -> Option<f64> {
        self.shared.view().snap.balance().map(|b| b.as_f64())
    }

    /// Bits of the node hash per level of a skeleton (each group has up to
    /// `2 ** fanout_bits` children); `None` on another mode.
    #[getter]
    fn fanout_bits(&self) -> Option<u8> {
        self.shared.view().snap.shape().map(|s| s.fanout_bits())
    }

    /// Levels of groups above the nodes of a skeleton (0: flat placement); `None` on another mode.
    #[getter]
    fn levels(&self) -> Option<u8> {
        self.shared.view().snap.shape().map(|s| s.levels())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let view = self.shared.view();
        let head = match view.snap.mode() {
            Mode::Flat => "Rendezvous",
            Mode::Table => "Rendezvous.table",
            Mode::Skeleton => "Rendezvous.skeleton",
        };
        view.repr(py, head)
    }

    /// `(factory, (nodes,))`: the mode's factory with every option as a
    /// keyword. A keyed set refuses (the pickle would carry the secret).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        slf.get().shared.view().reduce(&slf.get_type())
    }
}
