//! A node table's columns, as the kernels and the oracle read them: node
//! hashes, optional weights, how keys are hashed and what validation learned
//! ([`TableSummary`]). No backend and no placement operations, so the
//! kernels (`arch`) and the oracle depend on this plain view, never on
//! [`crate::NodeTable`], which owns the dispatch.

use crate::classes::WeightClasses;
use crate::error::Error;
use crate::keyed::Hashing;
use crate::limits::MAX_NODES;
use crate::weight::validate_weight;

/// Checks a node count against [`MAX_NODES`].
// On 32-bit targets (wasm32) `MAX_NODES` is `usize::MAX`, so no count exceeds it.
#[allow(clippy::absurd_extreme_comparisons)]
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

/// A node table's plain columns: what every kernel reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableColumns<'a> {
    /// How keys are hashed (a v1 seed or a keyed-v1 secret).
    pub(crate) hashing: Hashing,
    /// The node hashes.
    pub(crate) hashes: &'a [u64],
    /// The weights, or `None` when all are 1.
    pub(crate) weights: Option<&'a [f64]>,
    /// The validation summary of `hashes` and `weights`.
    pub(crate) summary: TableSummary,
    /// The eligible nodes grouped by weight, when the owner of the storage
    /// keeps them (tables with few distinct weights).
    pub(crate) classes: Option<WeightClasses<'a>>,
}

impl TableColumns<'_> {
    /// How many nodes can be chosen (non-zero weight).
    #[inline(always)]
    pub(crate) fn eligible(&self) -> usize {
        self.summary.eligible as usize
    }

    /// The weight of node `i` (1 when the table has no weights).
    #[inline(always)]
    pub(crate) fn weight(&self, i: usize) -> f64 {
        match self.weights {
            Some(w) => w[i],
            None => 1.0,
        }
    }
}
