//! One skeleton level's race over its group columns, in vector lanes: the
//! SIMD form of [`crate::race::columns`]. It reads a plain [`Columns`] view
//! (hashes and `1 / weight`s), never skeleton types.

use core::mem::MaybeUninit;

use super::lane_race::splat_f64;
use super::{mix, Vector};
use crate::limits::{COLUMN_E_LOW, COLUMN_RACE_MAX};
use crate::race::scalar::{lower_bound, one_minus_u, upper_bound};
use crate::race::Columns;
use crate::score::pair_score;

/// One level's group race over its columns, on `V`'s lanes: `Some(winner)`
/// when the bounds prove it, `None` when the caller's exact race must decide
/// (near-ties, no eligible child, or more than [`COLUMN_RACE_MAX`] children).
/// The scalar backend's form is [`crate::race::columns::race_columns_scalar`].
///
/// Every child gets a lower bound `LB` of its `E = -weighted_score` in
/// vector arithmetic: `fl(fl(p fl(1 / W)) COLUMN_E_LOW)`, with `p` the race
/// key ([`Vector::race_key`], at most `2^53 (x + x^2 / 2) (1 + 2^-51)`,
/// `x = 1 - u`, and `x + x^2 / 2 <= -ln u`); [`COLUMN_E_LOW`] covers the
/// roundings. The child `a` with the smallest `LB` (the first, on equal
/// bounds) gets the scalar race's upper bound `UB_a >= E_a` (one series,
/// tight to about `2^-40`). If every other child has `LB > UB_a`, each has
/// `E > E_a`, so `a` wins. The few children whose `LB` (tight only to a
/// relative `x^2 / 3`) reaches `UB_a` get the scalar race's third-order
/// lower bound instead; if one still reaches `UB_a` (a near-tie), the caller
/// decides. Drained children (`inv == 0`) and the lanes past the end get
/// `LB = inf`. A lookup thus pays for series bounds of one or two children
/// per level; every other child costs a mix, a conversion and two products.
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
    // Every lane up to `end` is written before it is read (LANES divides 64).
    let mut lows = MaybeUninit::<[u64; COLUMN_RACE_MAX]>::uninit();
    let lows = lows.as_mut_ptr().cast::<u64>();
    let end = n.div_ceil(lanes) * lanes;
    let full = n - n % lanes;
    // SAFETY: the loads read `i..i + LANES <= full <= n` (or, for the
    // tail, `i..n` through `load_tail`) of both columns, whose lengths are
    // `n`; the stores and loads of `lows` stay below `end <= COLUMN_RACE_MAX`,
    // and every lane loaded from it was stored first; ISA by the caller.
    let (a, m) = unsafe {
        let key = V::splat(key_hash);
        let (hp, ip) = (hashes.as_ptr(), inv_weights.as_ptr().cast::<u64>());
        let mut m = splat_f64::<V>(f64::INFINITY);
        let mut i = 0;
        while i < full {
            let low = lower_bounds(key, V::load(hp.add(i)), V::load(ip.add(i)));
            m = m.min_f64(low);
            low.store(lows.add(i));
            i += lanes;
        }
        if i < n {
            let len = n - i;
            let low = lower_bounds(key, V::load_tail(hp.add(i), len, 0), V::load_tail(ip.add(i), len, 0));
            m = m.min_f64(low);
            low.store(lows.add(i));
        }
        let m = m.reduce_min_f64();
        if m == f64::INFINITY {
            return None;
        }
        // The leader: the first lane holding the smallest bound (bitwise:
        // the minimum is one of the lanes).
        let mv = splat_f64::<V>(m);
        let mut i = 0;
        let a = loop {
            if i >= end {
                return None;
            }
            let eq = V::mask_bits(V::load(lows.add(i)).eq(mv));
            if eq != 0 {
                break i + eq.trailing_zeros() as usize;
            }
            i += lanes;
        };
        (a, m)
    };
    let (&hash, &inv) = (hashes.get(a)?, inv_weights.get(a)?);
    let upper = -lower_bound(one_minus_u(pair_score(key_hash, hash)), inv);
    if upper.is_nan() || upper < m {
        return None; // cannot happen (LB_a <= E_a <= UB_a); never trust it
    }
    let mut near = 0u64;
    // SAFETY: as above: `lows` is written up to `end`; ISA by the caller.
    unsafe {
        let ub = splat_f64::<V>(upper);
        let mut i = 0;
        while i < end {
            let beyond = V::mask_bits(ub.lt_f64(V::load(lows.add(i))));
            near |= u64::from(!beyond & ((1u32 << lanes) - 1)) << i;
            i += lanes;
        }
        // Lanes past the end hold `inf`, which is beyond every finite `UB`.
        if near == 1u64 << a {
            return Some(a);
        }
        near &= !(1u64 << a);
    }
    // A few children whose first-order `LB` reaches `UB_a` (about one race
    // in 150 at fan-out 16): the scalar race's third-order lower bound of
    // their `E` (`-upper_bound`), which leaves only near-ties undecided.
    while near != 0 {
        let b = near.trailing_zeros() as usize;
        let (&hash, &inv) = (hashes.get(b)?, inv_weights.get(b)?);
        if inv == 0.0 || -upper_bound(one_minus_u(pair_score(key_hash, hash)), inv) <= upper {
            return None;
        }
        near &= near - 1;
    }
    Some(a)
}

/// The lower bound `LB` of `E` of each lane's child (see [`race_columns`]),
/// `inf` where `inv` is 0 (a drained child, or a lane past the end).
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn lower_bounds<V: Vector>(key: V, hashes: V, inv: V) -> V {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        let p = V::race_key(mix(key.xor(hashes)));
        let low = p.mul_f64(inv).mul_f64(splat_f64(COLUMN_E_LOW));
        V::select(inv.eq(V::splat(0)), splat_f64(f64::INFINITY), low)
    }
}
