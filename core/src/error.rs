//! The one error type of the core.

use core::fmt;

use crate::limits::{MAX_FANOUT_BITS, MAX_LEVELS, MAX_PARTITION_BITS, MAX_REPLICAS, SECRET_LEN};

/// Why a weight was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightError {
    /// NaN.
    NaN,
    /// +inf or -inf.
    Infinite,
    /// Below zero, including -0.0.
    Negative,
    /// Positive but below 2^-64 (this includes every subnormal).
    TooSmall,
    /// Above 2^64.
    TooLarge,
}

/// Everything that can go wrong in the core. Nothing in the core panics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Error {
    /// A node id of zero bytes.
    EmptyNodeId,
    /// A node id longer than [`crate::MAX_NODE_ID_LEN`] bytes.
    NodeIdTooLong {
        /// The id's length in bytes.
        len: usize,
    },
    /// A weight that is not 0 or a normal f64 in `[2^-64, 2^64]`.
    InvalidWeight {
        /// The rejected value.
        weight: f64,
        /// What was wrong with it.
        reason: WeightError,
    },
    /// More than `u32::MAX` nodes.
    TooManyNodes {
        /// How many were given.
        len: usize,
    },
    /// Two slices that must have the same length do not.
    LengthMismatch {
        /// What was expected.
        expected: usize,
        /// What was given.
        actual: usize,
    },
    /// No node has a non-zero weight (or there are no nodes at all).
    NoEligibleNodes,
    /// The offsets of a packed key batch are not non-decreasing, or run past the bytes.
    BadOffsets {
        /// The position in the offsets array where the problem was found.
        at: usize,
    },
    /// A partition table with more than [`crate::MAX_PARTITION_BITS`] bits.
    BadPartitionBits {
        /// The requested bits.
        bits: u8,
    },
    /// A partition table storing 0 or more than [`crate::MAX_REPLICAS`] replicas per partition.
    BadReplicas {
        /// The requested replicas.
        replicas: usize,
    },
    /// A skeleton shape outside fan-out bits 1..=6 and levels 0..=5.
    BadSkeletonShape {
        /// The requested fan-out bits.
        fanout_bits: u8,
        /// The requested levels.
        levels: u8,
    },
    /// Node hashes given to the skeleton builder are not strictly ascending.
    NodesNotSorted {
        /// The first position out of order.
        at: usize,
    },
    /// A placement version this build does not know.
    UnknownPlacement {
        /// The requested version.
        version: u32,
    },
    /// A balanced table's balance outside `[1, 4]` (or not a number).
    BadBalance {
        /// The requested balance.
        balance: f64,
    },
    /// A keyed-v1 secret that is not [`crate::SECRET_LEN`] bytes long.
    BadSecretLength {
        /// The given length in bytes (never the bytes).
        len: usize,
    },
    /// Both a seed and a secret were given: a keyed-v1 set has no seed.
    SeedWithSecret,
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WeightError::NaN => "it is NaN",
            WeightError::Infinite => "it is infinite",
            WeightError::Negative => "it is negative",
            WeightError::TooSmall => "it is below 2^-64 (weights must be 0 or in [2^-64, 2^64])",
            WeightError::TooLarge => "it is above 2^64 (weights must be 0 or in [2^-64, 2^64])",
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::EmptyNodeId => f.write_str("node id is empty (ids are 1 to 65535 bytes)"),
            Error::NodeIdTooLong { len } => {
                write!(f, "node id is {len} bytes long (ids are 1 to 65535 bytes)")
            }
            Error::InvalidWeight { weight, reason } => {
                write!(f, "invalid weight {weight:?}: {reason}")
            }
            Error::TooManyNodes { len } => {
                write!(f, "{len} nodes given; at most 4294967295 are allowed")
            }
            Error::LengthMismatch { expected, actual } => {
                write!(f, "length mismatch: expected {expected}, got {actual}")
            }
            Error::NoEligibleNodes => f.write_str("no eligible node: the set is empty or every node has weight 0"),
            Error::BadOffsets { at } => write!(
                f,
                "bad key offsets at position {at}: offsets must be non-decreasing and within the key bytes"
            ),
            Error::BadPartitionBits { bits } => write!(
                f,
                "partition bits {bits} out of range (0 to {}: at most 2^{} partitions)",
                MAX_PARTITION_BITS, MAX_PARTITION_BITS
            ),
            Error::BadReplicas { replicas } => write!(
                f,
                "replicas {replicas} out of range (1 to {} per partition)",
                MAX_REPLICAS
            ),
            Error::BadSkeletonShape { fanout_bits, levels } => write!(
                f,
                "skeleton shape fanout_bits={fanout_bits} levels={levels} out of range \
                 (levels 0 to {}; fanout_bits 1 to {} when levels > 0, 0 to {} when levels = 0)",
                MAX_LEVELS, MAX_FANOUT_BITS, MAX_FANOUT_BITS
            ),
            Error::NodesNotSorted { at } => {
                write!(f, "node hashes are not strictly ascending at position {at}")
            }
            Error::UnknownPlacement { version } => {
                write!(f, "unknown placement version {version} (this build knows: 1)")
            }
            Error::BadBalance { balance } => write!(
                f,
                "balance {balance:?} out of range (a finite number from 1.0 to 4.0, held to millionths)"
            ),
            Error::BadSecretLength { len } => write!(
                f,
                "secret is {len} bytes long; a keyed-v1 secret is exactly {} bytes (128 bits)",
                SECRET_LEN
            ),
            Error::SeedWithSecret => f.write_str(
                "give either a seed (placement v1) or a secret (keyed-v1), not both: a keyed set has no seed",
            ),
        }
    }
}
