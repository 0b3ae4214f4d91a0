//! The weighted race (SPEC.md §6) and its proven bounds: the maths that the
//! SIMD kernels (`arch`), the skeleton's level races and partition tables
//! share.
//!
//! The exact weighted score needs the fixed-point logarithm (SPEC.md §5.2,
//! some 150 cycles). Every race here first brackets each candidate's score
//! with cheap bounds and computes exact scores only for candidates those
//! bounds cannot separate, so the answer is always the spec's, bit for bit.
//!
//! * [`bounds`]: intervals around `-weighted_score` for the SIMD table
//!   kernels (quick series, float `ln`) and the race filter's margin.
//! * [`scalar`]: the scalar race among a few candidates (series bounds, then
//!   the exact standings), and the pairwise test partition tables use.
//! * [`columns`]: one skeleton level's race over a [`Columns`] view, the
//!   scalar form of the SIMD column kernels.
//!
//! Every margin these bounds use is defined, and justified, in
//! [`crate::limits`]. The lane forms of the bounds (vector arithmetic over
//! `arch::Vector`) live in `arch`, which depends on this module and never
//! the other way round.

pub(crate) mod bounds;
pub(crate) mod columns;
pub(crate) mod scalar;

/// `2^-53`, exactly: the step of the race's `u` and `1 - u` (SPEC.md §5.2).
pub(crate) const TWO_POW_NEG_53: f64 = 1.0 / (1u64 << 53) as f64;

/// Candidates of one race as plain columns: `hashes[i]` and `inv_weights[i]`
/// (`1 / weight`, 0 for a drained candidate) describe candidate `i`. This is
/// what the column kernels read: no skeleton or group types.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Columns<'a> {
    /// The candidates' hashes (node or group hashes).
    pub(crate) hashes: &'a [u64],
    /// `1 / weight` of each candidate, 0 when its weight is 0.
    pub(crate) inv_weights: &'a [f64],
}
