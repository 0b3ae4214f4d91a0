//! A read-only view of a node table and the placement operations on it.

use crate::backend::Backend;
use crate::classes::WeightClasses;
use crate::error::Error;
use crate::keyed::Hashing;
use crate::oracle;
use crate::order::Ranked;
use crate::packed::{KeyOffset, PackedKeys};
use crate::table::TableColumns;

pub use crate::table::{validate_node_count, Shape, TableSummary};

/// A read-only node table: node hashes, optional weights, how they were
/// hashed (a v1 seed or a keyed-v1 secret), and the kernel to run. It borrows caller-owned storage and
/// never allocates; `longstraw-set` owns the storage for most users.
///
/// Node hashes must be distinct (SPEC.md §6): owners of node storage reject a
/// node whose hash collides with another's when it joins.
#[derive(Clone, Copy, Debug)]
pub struct NodeTable<'a> {
    /// What the kernels read.
    pub(crate) columns: TableColumns<'a>,
    pub(crate) backend: Backend,
}

impl<'a> NodeTable<'a> {
    /// A validated view. `weights == None` means every node has weight 1.
    pub fn new(seed: u64, hashes: &'a [u64], weights: Option<&'a [f64]>) -> Result<Self, Error> {
        let summary = TableSummary::of(hashes, weights)?;
        Ok(Self::from_summary(seed, hashes, weights, summary))
    }

    /// A view over storage that was validated earlier with [`TableSummary::of`].
    ///
    /// Passing a summary that does not match the slices is not unsafe, but the
    /// placements are then unspecified.
    #[inline]
    pub fn from_summary(seed: u64, hashes: &'a [u64], weights: Option<&'a [f64]>, summary: TableSummary) -> Self {
        NodeTable {
            columns: TableColumns {
                hashing: Hashing::Seeded(seed),
                hashes,
                weights,
                summary,
                classes: None,
            },
            backend: Backend::detect(),
        }
    }

    /// The same view running on another backend.
    #[inline]
    pub fn with_backend(self, backend: Backend) -> Self {
        NodeTable { backend, ..self }
    }

    /// The same view with its eligible nodes also grouped by weight
    /// ([`crate::group_by_weight`]), which makes the weighted owner of a
    /// table with few distinct weights about as cheap as the plain one.
    /// Placement does not change. Ignored unless the table has at least two
    /// distinct non-zero weights.
    #[inline]
    pub fn with_classes(self, classes: WeightClasses<'a>) -> Self {
        NodeTable {
            columns: TableColumns {
                classes: Some(classes),
                ..self.columns
            },
            ..self
        }
    }

    /// The same view hashing keys with `hashing`. The node hashes must have
    /// been computed with the same `hashing` ([`Hashing::node_hash`]).
    #[inline]
    pub fn with_hashing(self, hashing: Hashing) -> Self {
        NodeTable {
            columns: TableColumns {
                hashing,
                ..self.columns
            },
            ..self
        }
    }

    /// The v1 seed, or `None` for a keyed-v1 table.
    pub fn seed(&self) -> Option<u64> {
        self.columns.hashing.seed()
    }
    /// How keys, partitions and groups are hashed.
    pub fn hashing(&self) -> Hashing {
        self.columns.hashing
    }
    /// The key hash of `key` in this table (SPEC.md §3 or §15).
    #[inline]
    pub fn key_hash(&self, key: &[u8]) -> u64 {
        self.columns.hashing.key_hash(key)
    }
    /// The node hashes.
    pub fn hashes(&self) -> &'a [u64] {
        self.columns.hashes
    }
    /// The weights, or `None` when all are 1.
    pub fn weights(&self) -> Option<&'a [f64]> {
        self.columns.weights
    }
    /// The validation summary.
    pub fn summary(&self) -> TableSummary {
        self.columns.summary
    }
    /// The backend that runs lookups.
    pub fn backend(&self) -> Backend {
        self.backend
    }
    /// How many nodes can be chosen (non-zero weight).
    pub fn eligible(&self) -> usize {
        self.columns.summary.eligible as usize
    }

    /// The index of the node that owns `key`.
    #[inline]
    pub fn owner(&self, key: &[u8]) -> Result<u32, Error> {
        self.owner_of_hash(self.columns.hashing.key_hash(key))
            .ok_or(Error::NoEligibleNodes)
    }

    /// The owner for a key hash, or `None` when no node is eligible.
    #[inline]
    pub fn owner_of_hash(&self, key_hash: u64) -> Option<u32> {
        if self.columns.summary.eligible == 0 {
            return None;
        }
        self.backend.owner(&self.columns, key_hash)
    }

    /// Writes the best `out.len()` eligible nodes for `key`, best first, and
    /// returns how many were written (fewer when fewer nodes are eligible).
    /// `out[0]` is always the owner. With `out.len() >= eligible()` this is
    /// the full ranking.
    #[inline]
    pub fn top_k(&self, key: &[u8], out: &mut [Ranked]) -> usize {
        self.top_k_of_hash(self.columns.hashing.key_hash(key), out)
    }

    /// [`NodeTable::top_k`] for a key hash.
    #[inline]
    pub fn top_k_of_hash(&self, key_hash: u64, out: &mut [Ranked]) -> usize {
        if self.columns.summary.eligible == 0 || out.is_empty() {
            return 0;
        }
        self.backend.top_k(&self.columns, key_hash, out)
    }

    /// The owner of each key of a packed batch, written to `out` (same length
    /// as the batch).
    pub fn owners<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<(), Error> {
        if out.len() != keys.len() {
            return Err(Error::LengthMismatch {
                expected: keys.len(),
                actual: out.len(),
            });
        }
        if keys.is_empty() {
            return Ok(());
        }
        if self.columns.summary.eligible == 0 {
            return Err(Error::NoEligibleNodes);
        }
        self.backend.owners(&self.columns, keys, out);
        Ok(())
    }

    /// The scalar oracle's owner, whatever the backend: the reference that
    /// every backend is tested against.
    pub fn oracle_owner(&self, key_hash: u64) -> Option<u32> {
        if self.columns.summary.eligible == 0 {
            return None;
        }
        oracle::owner(&self.columns, key_hash)
    }

    /// The scalar oracle's top-k.
    pub fn oracle_top_k(&self, key_hash: u64, out: &mut [Ranked]) -> usize {
        if self.columns.summary.eligible == 0 {
            return 0;
        }
        oracle::top_k(&self.columns, key_hash, out)
    }

    #[inline(always)]
    pub(crate) fn weight(&self, i: usize) -> f64 {
        self.columns.weight(i)
    }
}
