//! One immutable snapshot of a set of any mode, and the lookups every mode has.

use longstraw::{Backend, Hashing, KeyOffset, PackedKeys, Placement, SkeletonShape};

use crate::error::{Error, Result};
use crate::members::{Members, Node};
use crate::mode::Mode;
use crate::skeleton::SkeletonSnapshot;
use crate::table::TableSnapshot;

/// The lookups every mode answers. A node index is a position in
/// [`Lookup::members`] of the same snapshot.
pub trait Lookup {
    /// The membership (ids, weights, domains) the indices refer to.
    fn members(&self) -> &Members;
    /// The index of the node that owns `key`. Errors only when no node is eligible.
    fn owner_index(&self, key: &[u8]) -> Result<u32>;
    /// Writes the first `out.len()` nodes of the key's ranking in this mode,
    /// best first; returns how many were written.
    fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize;
    /// At most one node per failure domain (`firstn` over this mode's
    /// ranking); returns how many were written.
    fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize;
    /// Each key's owner index, in key order, into `out` (one slot per key).
    fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()>;
}

macro_rules! lookup_by_inherent_methods {
    ($($t:ty),*) => {$(
        impl Lookup for $t {
            #[inline]
            fn members(&self) -> &Members {
                <$t>::members(self)
            }
            #[inline]
            fn owner_index(&self, key: &[u8]) -> Result<u32> {
                <$t>::owner_index(self, key)
            }
            #[inline]
            fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
                <$t>::top_k_into(self, key, out)
            }
            #[inline]
            fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
                <$t>::top_k_distinct_into(self, key, out)
            }
            #[inline]
            fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
                <$t>::owners_into(self, keys, out)
            }
        }
    )*};
}

lookup_by_inherent_methods!(TableSnapshot, SkeletonSnapshot);

impl Lookup for Members {
    #[inline]
    fn members(&self) -> &Members {
        self
    }
    #[inline]
    fn owner_index(&self, key: &[u8]) -> Result<u32> {
        Members::owner_index(self, key)
    }
    #[inline]
    fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        Members::top_k_into(self, key, out)
    }
    #[inline]
    fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        Members::top_k_distinct_into(self, key, out)
    }
    #[inline]
    fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
        Members::owners_into(self, keys, out)
    }
}

/// An immutable node set of any mode, as one [`crate::Rendezvous`] published
/// it. Lookups never lock, never allocate (except the `Vec`-returning
/// conveniences) and always agree with each other.
#[derive(Clone, Debug)]
pub struct Snapshot(pub(crate) Kind);

/// The mode-specific state behind a [`Snapshot`].
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Flat(Members),
    Table(TableSnapshot),
    Skeleton(SkeletonSnapshot),
}

/// Runs `$body` with `$x` bound to the snapshot's mode-specific state.
macro_rules! each_mode {
    ($snap:expr, $x:ident => $body:expr) => {
        match &$snap.0 {
            Kind::Flat($x) => $body,
            Kind::Table($x) => $body,
            Kind::Skeleton($x) => $body,
        }
    };
}

impl Lookup for Snapshot {
    #[inline]
    fn members(&self) -> &Members {
        Snapshot::members(self)
    }
    #[inline]
    fn owner_index(&self, key: &[u8]) -> Result<u32> {
        Snapshot::owner_index(self, key)
    }
    #[inline]
    fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        Snapshot::top_k_into(self, key, out)
    }
    #[inline]
    fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        Snapshot::top_k_distinct_into(self, key, out)
    }
    #[inline]
    fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
        Snapshot::owners_into(self, keys, out)
    }
}

impl Snapshot {
    /// How this snapshot places keys.
    pub fn mode(&self) -> Mode {
        match self.0 {
            Kind::Flat(_) => Mode::Flat,
            Kind::Table(_) => Mode::Table,
            Kind::Skeleton(_) => Mode::Skeleton,
        }
    }
    /// The membership: ids, weights, domains, and flat HRW over them.
    #[inline]
    pub fn members(&self) -> &Members {
        match &self.0 {
            Kind::Flat(m) => m,
            Kind::Table(t) => t.members(),
            Kind::Skeleton(s) => s.members(),
        }
    }
    /// A table-mode snapshot's rows and shape; `None` for another mode.
    pub fn as_table(&self) -> Option<&TableSnapshot> {
        match &self.0 {
            Kind::Table(t) => Some(t),
            _ => None,
        }
    }
    /// A skeleton-mode snapshot's tree and shape; `None` for another mode.
    pub fn as_skeleton(&self) -> Option<&SkeletonSnapshot> {
        match &self.0 {
            Kind::Skeleton(s) => Some(s),
            _ => None,
        }
    }

    // ---- lookups ----

    /// The node that owns `key`. Errors only when no node is eligible.
    #[inline]
    pub fn owner(&self, key: &[u8]) -> Result<Node<'_>> {
        each_mode!(self, s => s.owner(key))
    }
    /// The index of the node that owns `key`.
    #[inline]
    pub fn owner_index(&self, key: &[u8]) -> Result<u32> {
        each_mode!(self, s => s.owner_index(key))
    }
    /// Writes the first `out.len()` nodes of the key's ranking in this mode,
    /// best first; returns how many were written.
    #[inline]
    pub fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        each_mode!(self, s => s.top_k_into(key, out))
    }
    /// At most one node per failure domain, best first; returns how many were written.
    #[inline]
    pub fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        each_mode!(self, s => s.top_k_distinct_into(key, out))
    }
    /// Each key's owner index, in key order.
    #[inline]
    pub fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
        each_mode!(self, s => s.owners_into(keys, out))
    }
    /// The first `k` nodes of the key's ranking (fewer if fewer are eligible).
    pub fn top_k(&self, key: &[u8], k: usize) -> Vec<Node<'_>> {
        each_mode!(self, s => s.top_k(key, k))
    }
    /// At most one node per failure domain, `k` at most.
    pub fn top_k_distinct(&self, key: &[u8], k: usize) -> Vec<Node<'_>> {
        each_mode!(self, s => s.top_k_distinct(key, k))
    }
    /// The key's whole ranking in this mode.
    pub fn rank(&self, key: &[u8]) -> Vec<Node<'_>> {
        each_mode!(self, s => s.rank(key))
    }
    /// Each key's owner index, in key order.
    pub fn owners<K: AsRef<[u8]>>(&self, keys: impl IntoIterator<Item = K>) -> Result<Vec<u32>> {
        each_mode!(self, s => s.owners(keys))
    }

    // ---- the membership ----

    /// Node `index`.
    pub fn node(&self, index: u32) -> Option<Node<'_>> {
        self.members().node(index)
    }
    /// Every node, in index order.
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = Node<'_>> + '_ {
        self.members().nodes()
    }
    /// The index of the node with this id.
    pub fn index_of(&self, id: &[u8]) -> Option<u32> {
        self.members().index_of(id)
    }
    /// Whether a node with this id is in the set.
    pub fn contains(&self, id: &[u8]) -> bool {
        self.members().contains(id)
    }
    /// How many nodes, including drained ones.
    pub fn len(&self) -> usize {
        self.members().len()
    }
    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.members().is_empty()
    }
    /// How many nodes have a non-zero weight.
    pub fn eligible(&self) -> usize {
        self.members().eligible()
    }
    /// The seed, or `None` for a keyed set (which has no seed).
    pub fn seed(&self) -> Option<u64> {
        self.members().seed()
    }
    /// Whether this snapshot places by keyed-v1 (it was built with a secret).
    pub fn is_keyed(&self) -> bool {
        self.members().is_keyed()
    }
    /// How keys and nodes are hashed.
    pub fn hashing(&self) -> Hashing {
        self.members().hashing()
    }
    /// The placement version.
    pub fn placement(&self) -> Placement {
        self.members().placement()
    }
    /// The kernel lookups run on.
    pub fn backend(&self) -> Backend {
        self.members().backend()
    }
    /// Increases by one with every published change of the owning set.
    pub fn generation(&self) -> u64 {
        self.members().generation()
    }

    // ---- what only one mode has ----

    /// A table's partition of `key`; [`Error::WrongMode`] for another mode.
    pub fn partition(&self, key: &[u8]) -> Result<u32> {
        match &self.0 {
            Kind::Table(t) => Ok(t.partition(key)),
            _ => Err(Error::WrongMode {
                operation: "partition()",
                needs: Mode::Table,
                actual: self.mode(),
            }),
        }
    }
    /// A table's `log2` of its partition count.
    pub fn partition_bits(&self) -> Option<u8> {
        self.as_table().map(TableSnapshot::partition_bits)
    }
    /// A table's partition count.
    pub fn partitions(&self) -> Option<usize> {
        self.as_table().map(TableSnapshot::partitions)
    }
    /// A table's nodes stored per partition.
    pub fn replicas(&self) -> Option<usize> {
        self.as_table().map(TableSnapshot::replicas)
    }
    /// Whether a table's stored lists keep distinct failure domains.
    pub fn distinct_domains(&self) -> Option<bool> {
        self.as_table().map(TableSnapshot::distinct_domains)
    }
    /// A balanced table's balance (`None` for an unbalanced table or another mode).
    pub fn balance(&self) -> Option<longstraw::balanced::Balance> {
        self.as_table().and_then(TableSnapshot::balance)
    }
    /// A skeleton's shape (fan-out bits and levels).
    pub fn shape(&self) -> Option<SkeletonShape> {
        self.as_skeleton().map(SkeletonSnapshot::shape)
    }
}
