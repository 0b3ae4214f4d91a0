//! One skeleton level's race over its group columns, in vector lanes: the
//! SIMD form of [`crate::race::columns`]. It reads a plain [`Columns`] view
//! (hashes and `1 / weight`s), never skeleton types.

use super::lane_race::{neg_ln_upper, splat_f64};
use super::{mix, Vector};
use crate::limits::{COLUMN_RACE_MAX, LANE_E_HIGH, LANE_E_LOW};
use crate::race::Columns;

/// One level's group race over its columns, on `V`'s lanes: `Some(winner)`
/// when the bounds prove it, `None` when the caller's exact race must decide
/// (near-ties, no eligible child, or more than [`COLUMN_RACE_MAX`] children).
/// The scalar backend's form is [`crate::race::columns::race_columns_scalar`].
///
/// Every child gets an upper bound `UB` and a lower bound `LB` of its `E =
/// -weighted_score` in vector arithmetic (see [`super::lane_race`]; with
/// `inv = fl(1 / w)` the division by `w` is a product, off by `2^-53`).
/// Let `m` be the smallest `UB`, held by child `a`: `LB_a <= E_a <= m`. If
/// every other child has `LB > m`, it ranks after `a`, so `a` wins. Drained
/// children (`inv == 0`) and the lanes past the end get `LB = UB = inf`.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
pub(crate) unsafe fn race_columns<V: Vector>(key_hash: u64, columns: Columns<'_>) -> Option<usize> {
    let Columns { hashes, inv_weights } = columns;
    let n = hashes.len();
    if n == 0 || n > COLUMN_RACE_MAX || inv_weights.len() != n {
        return None;
    }
    let lanes = V::LANES;
    let mut lows = [0u64; COLUMN_RACE_MAX];
    // SAFETY: `load_tail` reads `i..i + len <= n` of both columns (whose
    // lengths are `n`); the stores write `i..i + LANES <= COLUMN_RACE_MAX`
    // (LANES divides 64); ISA by the caller.
    unsafe {
        let key = V::splat(key_hash);
        let (hp, ip) = (hashes.as_ptr(), inv_weights.as_ptr().cast::<u64>());
        let inf = splat_f64::<V>(f64::INFINITY);
        let mut m = inf;
        let mut i = 0;
        while i < n {
            let len = (n - i).min(lanes);
            let inv = V::load_tail(ip.wrapping_add(i), len, 0);
            let p = V::race_key(mix(key.xor(V::load_tail(hp.wrapping_add(i), len, 0))));
            let drained = inv.eq(V::splat(0));
            let upper = neg_ln_upper(p).mul_f64(inv).mul_f64(splat_f64(LANE_E_HIGH));
            m = m.min_f64(V::select(drained, inf, upper));
            let lower = p.mul_f64(inv).mul_f64(splat_f64(LANE_E_LOW));
            V::select(drained, inf, lower).store(lows.as_mut_ptr().add(i));
            i += lanes;
        }
        let m = m.reduce_min_f64();
        if m == f64::INFINITY {
            return None;
        }
        let m = splat_f64::<V>(m);
        let mut near = 0u64;
        let mut i = 0;
        while i < n {
            let beyond = V::mask_bits(m.lt_f64(V::load(lows.as_ptr().add(i))));
            near |= u64::from(!beyond & ((1u32 << lanes) - 1)) << i;
            i += lanes;
        }
        // Lanes past the end hold `inf`, which is beyond every finite `m`.
        (near.count_ones() == 1).then_some(near.trailing_zeros() as usize)
    }
}
