//! Key and node hashing (SPEC.md §3).

use xxhash_rust::xxh3::xxh3_64_with_seed;

use crate::error::Error;

/// Added to the user's seed, modulo 2^64, before hashing a node id.
///
/// Keys and node ids are hashed under different seeds so that a key whose
/// bytes equal a node id does not get the degenerate input `kh ^ nh == 0`.
/// The constant is the 64-bit golden ratio, `floor(2^64 / phi)`.
pub const NODE_SEED_OFFSET: u64 = 0x9E37_79B9_7F4A_7C15;

pub use crate::limits::MAX_NODE_ID_LEN;

/// Checks a node id's length: 1 to [`MAX_NODE_ID_LEN`] bytes.
pub fn validate_node_id(id: &[u8]) -> Result<(), Error> {
    match id.len() {
        0 => Err(Error::EmptyNodeId),
        len if len > MAX_NODE_ID_LEN => Err(Error::NodeIdTooLong { len }),
        _ => Ok(()),
    }
}

/// The hash of a key: XXH3-64 of the key's bytes under `seed`.
#[inline]
pub fn key_hash(key: &[u8], seed: u64) -> u64 {
    xxh3_64_with_seed(key, seed)
}

/// The hash of a node id: XXH3-64 of the id's bytes under
/// `seed + NODE_SEED_OFFSET` (wrapping).
///
/// This does not check the id's length; [`validate_node_id`] does.
#[inline]
pub fn node_hash(id: &[u8], seed: u64) -> u64 {
    xxh3_64_with_seed(id, seed.wrapping_add(NODE_SEED_OFFSET))
}
