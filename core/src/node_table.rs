//! A read-only view of a node table and the placement operations on it.

use crate::backend::Backend;
use crate::error::Error;
use crate::keyed::Hashing;
use crate::limits::MAX_NODES;
use crate::oracle;
use crate::order::Ranked;
use crate::packed::{KeyOffset, PackedKeys};
use crate::weight::validate_weight;

/// Checks a node count against [`MAX_NODES`].
pub fn validate_node_count(len: usize) -> Result<(), Error> {
    if len > MAX_NODES {
        Err(Error::TooManyNodes { len })
    } else {
        Ok(())
    }
}

/// How a table's weights are shaped, which decides the fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Every node has the same non-zero weight: the raw score alone ranks.
    AllEqual,
    /// Every eligible node has the same weight, but some have weight 0.
    EqualWithDrained,
    /// At least two distinct non-zero weights.
    Weighted,
}

/// What validation learned about a table; cached by owners of node storage so
/// that each lookup does not re-validate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSummary {
    /// How many nodes have a non-zero weight.
    pub eligible: u32,
    /// The weight shape.
    pub shape: Shape,
}

impl TableSummary {
    /// Validates a table's weights and counts its eligible nodes.
    ///
    /// `weights == None` means every node has weight 1.
    pub fn of(hashes: &[u64], weights: Option<&[f64]>) -> Result<TableSummary, Error> {
        validate_node_count(hashes.len())?;
        let Some(weights) = weights else {
            return Ok(TableSummary {
                eligible: hashes.len() as u32,
                shape: Shape::AllEqual,
            });
        };
        if weights.len() != hashes.len() {
            return Err(Error::LengthMismatch {
                expected: hashes.len(),
                actual: weights.len(),
            });
        }
        let mut eligible = 0u32;
        let mut first: Option<f64> = None;
        let mut distinct = false;
        for &w in weights {
            validate_weight(w)?;
            if w == 0.0 {
                continue;
            }
            eligible += 1;
            match first {
                None => first = Some(w),
                Some(f) if f != w => distinct = true,
                Some(_) => {}
            }
        }
        let shape = if distinct {
            Shape::Weighted
        } else if eligible as usize == hashes.len() {
            Shape::AllEqual
        } else {
            Shape::EqualWithDrained
        };
        Ok(TableSummary { eligible, shape })
    }
}

/// A read-only node table: node hashes, optional weights, how they were
/// hashed (a v1 seed or a keyed-v1 secret), and the kernel to run. It borrows caller-owned storage and
/// never allocates; `longstraw-set` owns the storage for most users.
///
/// Node hashes must be distinct (SPEC.md §6): owners of node storage reject a
/// node whose hash collides with another's when it joins.
#[derive(Clone, Copy, Debug)]
pub struct NodeTable<'a> {
    pub(crate) hashing: Hashing,
    pub(crate) hashes: &'a [u64],
    pub(crate) weights: Option<&'a [f64]>,
    pub(crate) summary: TableSummary,
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
            hashing: Hashing::Seeded(seed),
            hashes,
            weights,
            summary,
            backend: Backend::detect(),
        }
    }

    /// The same view running on another backend.
    #[inline]
    pub fn with_backend(self, backend: Backend) -> Self {
        NodeTable { backend, ..self }
    }

    /// The same view hashing keys with `hashing`. The node hashes must have
    /// been computed with the same `hashing` ([`Hashing::node_hash`]).
    #[inline]
    pub fn with_hashing(self, hashing: Hashing) -> Self {
        NodeTable { hashing, ..self }
    }

    /// The v1 seed, or `None` for a keyed-v1 table.
    pub fn seed(&self) -> Option<u64> {
        self.hashing.seed()
    }
    /// How keys, partitions and groups are hashed.
    pub fn hashing(&self) -> Hashing {
        self.hashing
    }
    /// The key hash of `key` in this table (SPEC.md §3 or §15).
    #[inline]
    pub fn key_hash(&self, key: &[u8]) -> u64 {
        self.hashing.key_hash(key)
    }
    /// The node hashes.
    pub fn hashes(&self) -> &'a [u64] {
        self.hashes
    }
    /// The weights, or `None` when all are 1.
    pub fn weights(&self) -> Option<&'a [f64]> {
        self.weights
    }
    /// The validation summary.
    pub fn summary(&self) -> TableSummary {
        self.summary
    }
    /// The backend that runs lookups.
    pub fn backend(&self) -> Backend {
        self.backend
    }
    /// How many nodes can be chosen (non-zero weight).
    pub fn eligible(&self) -> usize {
        self.summary.eligible as usize
    }

    /// The index of the node that owns `key`.
    #[inline]
    pub fn owner(&self, key: &[u8]) -> Result<u32, Error> {
        self.owner_of_hash(self.hashing.key_hash(key))
            .ok_or(Error::NoEligibleNodes)
    }

    /// The owner for a key hash, or `None` when no node is eligible.
    #[inline]
    pub fn owner_of_hash(&self, key_hash: u64) -> Option<u32> {
        if self.summary.eligible == 0 {
            return None;
        }
        self.backend.owner(self, key_hash)
    }

    /// Writes the best `out.len()` eligible nodes for `key`, best first, and
    /// returns how many were written (fewer when fewer nodes are eligible).
    /// `out[0]` is always the owner. With `out.len() >= eligible()` this is
    /// the full ranking.
    #[inline]
    pub fn top_k(&self, key: &[u8], out: &mut [Ranked]) -> usize {
        self.top_k_of_hash(self.hashing.key_hash(key), out)
    }

    /// [`NodeTable::top_k`] for a key hash.
    #[inline]
    pub fn top_k_of_hash(&self, key_hash: u64, out: &mut [Ranked]) -> usize {
        if self.summary.eligible == 0 || out.is_empty() {
            return 0;
        }
        self.backend.top_k(self, key_hash, out)
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
        if self.summary.eligible == 0 {
            return Err(Error::NoEligibleNodes);
        }
        self.backend.owners(self, keys, out);
        Ok(())
    }

    /// The scalar oracle's owner, whatever the backend: the reference that
    /// every backend is tested against.
    pub fn oracle_owner(&self, key_hash: u64) -> Option<u32> {
        if self.summary.eligible == 0 {
            return None;
        }
        oracle::owner(self, key_hash)
    }

    /// The scalar oracle's top-k.
    pub fn oracle_top_k(&self, key_hash: u64, out: &mut [Ranked]) -> usize {
        if self.summary.eligible == 0 {
            return 0;
        }
        oracle::top_k(self, key_hash, out)
    }

    #[inline(always)]
    pub(crate) fn weight(&self, i: usize) -> f64 {
        match self.weights {
            Some(w) => w[i],
            None => 1.0,
        }
    }
}
