//! Cheap, proven bounds on the weighted score, so that the exact fixed-point
//! `ln` (SPEC.md §5.2, some 150 cycles) runs only when two nodes are too
//! close to call.
//!
//! Write `E = -weighted_score(score, w) >= 0` (smaller `E` ranks first). The
//! weighted kernels work in two stages:
//!
//! 1. A SIMD filter, `Vector::race_filter` (in `arch`), uses the bound
//!    `-ln(u) >= 1 - u` (no logarithm at all) to drop every node whose `E`
//!    surely exceeds the current bound `B`.
//! 2. Nodes that pass get a logarithm-free interval from [`quick_interval`];
//!    the candidates still alive after the scan get the tight interval
//!    `[lo, hi]` around `E` from
//!    [`interval`]: a float `ln` with relative error below `2^-42`, widened by
//!    `2^-36` relatively and `2^-58` absolutely, which covers the spec's own
//!    error (at most 15.4 units of `2^-64`, always upward) and every rounding.
//!    `B` becomes the best (or k-th best) `hi`.
//!
//! At the end only candidates with `lo <= B` can still be the answer; the
//! exact `ln` runs only if two of them overlap.

use super::TWO_POW_NEG_53;
use crate::limits::{LN_EXCESS_ABS, LN_INTERVAL_REL, QUICK_HI, QUICK_LO, RACE_FILTER_MARGIN};
use crate::ln::unit_numerator;

/// `ln 2`, rounded to nearest.
const LN2: f64 = core::f64::consts::LN_2;

/// The bound handed to `Vector::race_filter` (in `arch`) for a current
/// best (or k-th best) upper bound `bound`.
///
/// The filter clears a lane when `k > fl(bound' * 2^53 * w)`. With
/// `bound' = fl(bound * (1 + 2^-48))` that gives `v = k / 2^53 > bound * w *
/// (1 + 2^-49)`, and since the spec's `fl(-ln_u)` is at least `v` (its
/// fixed point never rounds down, and `v` is a float), `E = fl(fl(-ln_u) / w)
/// >= fl(v / w) > bound`: the lane loses to the candidate that set `bound`.
#[inline(always)]
pub(crate) fn race_margin(bound: f64) -> f64 {
    bound * RACE_FILTER_MARGIN
}

/// `-ln(m / 2^53)` for `m` in `[1, 2^53]`, relative error below `2^-42`.
///
/// `m = x * 2^e` with `x` in `[sqrt(1/2), sqrt(2)]`; `ln x = 2 atanh(s)` with
/// `s = (x - 1) / (x + 1)`, `|s| <= 0.1716`, summed to `s^15` (the tail is
/// below `2^-44` relatively). `x - 1` is exact, and `|ln x| <= ln(2) / 2`, so
/// the sum `(53 - e) ln 2 - ln x` cancels at most a factor of 2 whenever
/// `e != 53` (and is just `-ln x` when `e == 53`).
#[inline]
fn neg_ln_unit(m: u64) -> f64 {
    let mut e = 63 - m.leading_zeros() as i32;
    // 2^-e, exactly; `m` is exact as an f64 (m <= 2^53).
    let mut x = m as f64 * f64::from_bits(((1023 - e) as u64) << 52);
    if x > core::f64::consts::SQRT_2 {
        x *= 0.5;
        e += 1;
    }
    let s = (x - 1.0) / (x + 1.0);
    let t = s * s;
    let p = 1.0 / 3.0
        + t * (1.0 / 5.0 + t * (1.0 / 7.0 + t * (1.0 / 9.0 + t * (1.0 / 11.0 + t * (1.0 / 13.0 + t * (1.0 / 15.0))))));
    let ln_x = 2.0 * s + 2.0 * s * t * p;
    (53 - e) as f64 * LN2 - ln_x
}

/// An interval `[lo, hi]` that contains `-weighted_score(score, weight)`, for
/// a non-zero valid weight. Its relative width is about `2^-34`.
#[inline]
pub(crate) fn interval(score: u64, weight: f64) -> (f64, f64) {
    let l = neg_ln_unit(unit_numerator(score));
    let lo_l = l * (1.0 - LN_INTERVAL_REL) - LN_EXCESS_ABS;
    let hi_l = l * (1.0 + LN_INTERVAL_REL) + LN_EXCESS_ABS;
    // One division; the reciprocal and the products add a few 2^-53 roundings.
    let inverse = 1.0 / weight;
    let lo = if lo_l > 0.0 {
        lo_l * inverse * (1.0 - LN_INTERVAL_REL)
    } else {
        0.0
    };
    let hi = hi_l * inverse * (1.0 + LN_INTERVAL_REL);
    (lo, hi)
}

/// A logarithm-free interval `[lo, hi]` around `-weighted_score(score,
/// weight)`, from the series `-ln(1 - x) = x + x^2/2 + x^3/3 + ...` with
/// `x = 1 - u`: `x + x^2/2 <= -ln(u) <= x + x^2 / (2(1 - x))`. Its relative
/// width is about `x^2 / 2`, so it is tight exactly for the nodes that win a
/// race (small `x`) and lets the scan skip the float `ln` of [`interval`];
/// that runs only for the few candidates still alive at the end.
///
/// `inverse` is `fl(1 / weight)` for a non-zero valid weight.
///
/// Why it brackets the spec's value `E = fl(fl(L) / w)`, `L` the spec's
/// fixed-point `-ln(u)`: `L >= -ln(u) >= x + x^2/2`, so (rounding is
/// monotone) `E >= (x + x^2/2) / w * (1 - 2^-53)^2`, while `lo` is that
/// value after five roundings of `2^-53` and a factor `1 - 2^-50`. Above,
/// `L <= -ln(u) + 2^-60` (the spec's excess), `x / (1 - x) = k / m` with
/// `m = 2^53 - k`, and `E` adds two roundings; `hi` adds `2^-58` and `2^-40`
/// relatively, which covers its own six roundings too.
#[inline(always)]
pub(crate) fn quick_interval(score: u64, inverse: f64) -> (f64, f64) {
    let k = !score >> 11;
    let m = (1u64 << 53) - k;
    // Both convert exactly (k < 2^53, 1 <= m <= 2^53), and `x` is exact.
    let (k, m) = (k as f64, m as f64);
    let x = k * TWO_POW_NEG_53;
    let half_x = 0.5 * x;
    let lo = (x + half_x * x) * inverse * QUICK_LO;
    let hi = (x + half_x * (k / m) + LN_EXCESS_ABS) * inverse * QUICK_HI;
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::weighted_score;

    fn check(score: u64, w: f64) {
        let e = -weighted_score(score, w);
        let (lo, hi) = interval(score, w);
        assert!(lo <= e && e <= hi, "score {score:#x} w {w}: {lo} {e} {hi}");
        assert!(
            hi - lo <= e * 1e-9 + 1e-16 / w,
            "too wide at {score:#x} w {w}: {lo} {e} {hi}"
        );
    }

    /// The quick interval brackets the exact score everywhere.
    fn check_quick(score: u64, w: f64) {
        let e = -weighted_score(score, w);
        let (lo, hi) = quick_interval(score, 1.0 / w);
        assert!(lo <= e && e <= hi, "quick: score {score:#x} w {w}: {lo} {e} {hi}");
    }

    #[test]
    fn brackets_the_exact_score() {
        let weights = [
            1.0,
            3.0,
            1e-19,
            5.421_010_862_427_522e-20,
            1.844_674_407_370_955_2e19,
            0.7,
        ];
        let mut z = 1u64;
        for _ in 0..20_000 {
            z = crate::score::mix(z.wrapping_add(0x9E37_79B9_7F4A_7C15));
            for w in weights {
                check_quick(z, w);
                check_quick(z | 0xFFFF_FFFF_FFF0_0000, w);
                check_quick(z >> 40, w);
                check(z, w);
                // Near u = 1 and u = 0, and around every power of two of m.
                check(z | 0xFFFF_FFFF_FFF0_0000, w);
                check(z >> 40, w);
            }
        }
        for b in 0..64 {
            for d in [0u64, 1, 2047, 2048, 4095] {
                for w in weights {
                    check_quick((1u64 << b).wrapping_sub(d), w);
                    check_quick((1u64 << b).wrapping_add(d), w);
                    check((1u64 << b).wrapping_sub(d), w);
                    check((1u64 << b).wrapping_add(d), w);
                }
            }
        }
        for w in weights {
            check_quick(u64::MAX, w);
            check_quick(0, w);
            check(u64::MAX, w);
            check(0, w);
        }
    }
}
