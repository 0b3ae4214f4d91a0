//! A set and a snapshot of any mode, shaped as `longstraw_set::{Rendezvous,
//! Snapshot, Mode, ModeOptions}` of the one-set API, over the three per-mode
//! types `longstraw-set` has today. The rest of this crate uses only the
//! names and methods below, so that this module is deleted (and its names
//! imported from `longstraw_set`) once the set crate offers them.
//! Each method forwards to `longstraw-set`; none decides a placement.

use std::sync::Arc;

use longstraw::{KeyOffset, PackedKeys};
use longstraw_set::{Backend, Balance, Node, Options, Placement, Result, SkeletonShape};

/// The placement mode of a set: the `mode` of a membership file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Flat,
    Table,
    Skeleton,
}

impl Mode {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Mode::Flat => "flat",
            Mode::Table => "table",
            Mode::Skeleton => "skeleton",
        }
    }
}

/// A table's own options.
pub(crate) struct TableOptions {
    pub partition_bits: Option<u8>,
    pub replicas: usize,
    pub distinct_domains: bool,
    pub balance: Option<Balance>,
}

/// A skeleton's own options.
pub(crate) struct SkeletonOptions {
    pub shape: Option<SkeletonShape>,
}

/// The mode of a new set, with its own options.
pub(crate) enum ModeOptions {
    Flat,
    Table(TableOptions),
    Skeleton(SkeletonOptions),
}

enum Set {
    Flat(longstraw_set::Rendezvous),
    Table(longstraw_set::Table),
    Skeleton(longstraw_set::Skeleton),
}

/// A mutable set of any mode.
pub(crate) struct Rendezvous(Set);

macro_rules! each {
    ($on:expr, $s:ident => $body:expr) => {
        match $on {
            Set::Flat($s) => $body,
            Set::Table($s) => $body,
            Set::Skeleton($s) => $body,
        }
    };
}

impl Rendezvous {
    pub(crate) fn new<I, T, D>(nodes: I, options: Options, mode: ModeOptions) -> Result<Rendezvous>
    where
        I: IntoIterator<Item = (T, f64, Option<D>)>,
        T: AsRef<[u8]>,
        D: AsRef<[u8]>,
    {
        Ok(Rendezvous(match mode {
            ModeOptions::Flat => Set::Flat(longstraw_set::Rendezvous::with_domains(nodes, options)?),
            ModeOptions::Table(t) => Set::Table(longstraw_set::Table::with_domains(
                nodes,
                longstraw_set::TableOptions {
                    set: options,
                    partition_bits: t.partition_bits,
                    replicas: t.replicas,
                    distinct_domains: t.distinct_domains,
                    balance: t.balance,
                },
            )?),
            ModeOptions::Skeleton(s) => Set::Skeleton(longstraw_set::Skeleton::with_domains(
                nodes,
                longstraw_set::SkeletonOptions {
                    set: options,
                    shape: s.shape,
                },
            )?),
        }))
    }

    /// The set a membership file built.
    pub(crate) fn of_loaded(loaded: longstraw_membership::Loaded) -> Rendezvous {
        Rendezvous(match loaded {
            longstraw_membership::Loaded::Flat(s) => Set::Flat(s),
            longstraw_membership::Loaded::Table(t) => Set::Table(t),
            longstraw_membership::Loaded::Skeleton(s) => Set::Skeleton(s),
        })
    }

    pub(crate) fn snapshot(&self) -> Arc<Snapshot> {
        Arc::new(match &self.0 {
            Set::Flat(s) => Snapshot::Flat(s.snapshot()),
            Set::Table(t) => Snapshot::Table(t.snapshot()),
            Set::Skeleton(s) => Snapshot::Skeleton(s.snapshot()),
        })
    }

    pub(crate) fn add(&self, id: &[u8], weight: f64) -> Result<()> {
        each!(&self.0, s => s.add(id, weight))
    }

    pub(crate) fn add_in_domain(&self, id: &[u8], weight: f64, domain: &[u8]) -> Result<()> {
        each!(&self.0, s => s.add_in_domain(id, weight, domain))
    }

    pub(crate) fn remove(&self, id: &[u8]) -> Result<()> {
        each!(&self.0, s => s.remove(id))
    }

    pub(crate) fn set_weight(&self, id: &[u8], weight: f64) -> Result<()> {
        each!(&self.0, s => s.set_weight(id, weight))
    }

    pub(crate) fn set_domain(&self, id: &[u8], domain: Option<&[u8]>) -> Result<()> {
        each!(&self.0, s => s.set_domain(id, domain))
    }
}

/// An immutable snapshot of any mode.
pub(crate) enum Snapshot {
    Flat(Arc<longstraw_set::Snapshot>),
    Table(Arc<longstraw_set::TableSnapshot>),
    Skeleton(Arc<longstraw_set::SkeletonSnapshot>),
}

macro_rules! each_snap {
    ($on:expr, $s:ident => $body:expr) => {
        match $on {
            Snapshot::Flat($s) => $body,
            Snapshot::Table($s) => $body,
            Snapshot::Skeleton($s) => $body,
        }
    };
}

impl Snapshot {
    pub(crate) fn mode(&self) -> Mode {
        match self {
            Snapshot::Flat(_) => Mode::Flat,
            Snapshot::Table(_) => Mode::Table,
            Snapshot::Skeleton(_) => Mode::Skeleton,
        }
    }

    /// The membership: ids, weights and domain labels by node index.
    #[inline]
    pub(crate) fn members(&self) -> &longstraw_set::Snapshot {
        match self {
            Snapshot::Flat(s) => s,
            Snapshot::Table(t) => t.members(),
            Snapshot::Skeleton(s) => s.members(),
        }
    }

    /// The membership file content that rebuilds this snapshot.
    pub(crate) fn to_membership(&self) -> longstraw_membership::Membership {
        use longstraw_membership::Membership;
        match self {
            Snapshot::Flat(s) => Membership::of_snapshot(s),
            Snapshot::Table(t) => Membership::of_table(t),
            Snapshot::Skeleton(s) => Membership::of_skeleton(s),
        }
    }

    #[inline]
    pub(crate) fn owner_index(&self, key: &[u8]) -> Result<u32> {
        each_snap!(self, s => s.owner_index(key))
    }

    #[inline]
    pub(crate) fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        each_snap!(self, s => s.top_k_into(key, out))
    }

    #[inline]
    pub(crate) fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        each_snap!(self, s => s.top_k_distinct_into(key, out))
    }

    #[inline]
    pub(crate) fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
        each_snap!(self, s => s.owners_into(keys, out))
    }

    pub(crate) fn node(&self, index: u32) -> Option<Node<'_>> {
        self.members().node(index)
    }

    pub(crate) fn nodes(&self) -> impl ExactSizeIterator<Item = Node<'_>> + '_ {
        self.members().nodes()
    }

    pub(crate) fn index_of(&self, id: &[u8]) -> Option<u32> {
        self.members().index_of(id)
    }

    pub(crate) fn contains(&self, id: &[u8]) -> bool {
        self.members().contains(id)
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.members().len()
    }

    #[inline]
    pub(crate) fn eligible(&self) -> usize {
        self.members().eligible()
    }

    pub(crate) fn seed(&self) -> Option<u64> {
        self.members().seed()
    }

    pub(crate) fn is_keyed(&self) -> bool {
        self.members().is_keyed()
    }

    pub(crate) fn placement(&self) -> Placement {
        self.members().placement()
    }

    pub(crate) fn backend(&self) -> Backend {
        self.members().backend()
    }

    pub(crate) fn generation(&self) -> u64 {
        self.members().generation()
    }

    /// The partition of `key` (table mode only; `ValueError` on another mode).
    pub(crate) fn partition(&self, key: &[u8]) -> pyo3::PyResult<u32> {
        match self {
            Snapshot::Table(t) => Ok(t.partition(key)),
            other => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "partition() needs a table-mode set; this set is {}",
                other.mode().as_str()
            ))),
        }
    }

    pub(crate) fn partition_bits(&self) -> Option<u8> {
        self.as_table().map(|t| t.partition_bits())
    }

    pub(crate) fn partitions(&self) -> Option<usize> {
        self.as_table().map(|t| t.partitions())
    }

    pub(crate) fn replicas(&self) -> Option<usize> {
        self.as_table().map(|t| t.replicas())
    }

    pub(crate) fn distinct_domains(&self) -> Option<bool> {
        self.as_table().map(|t| t.distinct_domains())
    }

    pub(crate) fn balance(&self) -> Option<Balance> {
        self.as_table().and_then(|t| t.balance())
    }

    pub(crate) fn shape(&self) -> Option<SkeletonShape> {
        match self {
            Snapshot::Skeleton(s) => Some(s.shape()),
            _ => None,
        }
    }

    fn as_table(&self) -> Option<&longstraw_set::TableSnapshot> {
        match self {
            Snapshot::Table(t) => Some(t),
            _ => None,
        }
    }
}
