//! The pair score and the weighted score (SPEC.md §4, §5).

use crate::ln::ln_unit;

/// First multiplier of the mixer (Stafford's "Mix13", also the SplitMix64 finalizer).
pub const MIX_MUL_1: u64 = 0xBF58_476D_1CE4_E5B9;
/// Second multiplier of the mixer.
pub const MIX_MUL_2: u64 = 0x94D0_49BB_1331_11EB;

/// The 64-bit finalizer applied to `key_hash ^ node_hash`.
///
/// It is a bijection on u64, so two nodes with distinct node hashes never get
/// the same score for a key. XOR alone is linear: the ranking of two nodes
/// would then not depend on the key at all.
#[inline(always)]
pub const fn mix(x: u64) -> u64 {
    let mut z = x;
    z ^= z >> 30;
    z = z.wrapping_mul(MIX_MUL_1);
    z ^= z >> 27;
    z = z.wrapping_mul(MIX_MUL_2);
    z ^ (z >> 31)
}

/// The raw score of a (key, node) pair. The largest score wins.
#[inline(always)]
pub const fn pair_score(key_hash: u64, node_hash: u64) -> u64 {
    mix(key_hash ^ node_hash)
}

/// The weighted score `ln(u) / weight` of a raw score (SPEC.md §5).
///
/// `u = ((score >> 11) + 1) / 2^53` lies in `(0, 1]`, so the result is `<= 0`
/// and the largest weighted score wins. `weight` must be a valid non-zero
/// weight (see [`crate::validate_weight`]); nodes with weight 0 are never scored.
#[inline]
pub fn weighted_score(score: u64, weight: f64) -> f64 {
    ln_unit(score) / weight
}
