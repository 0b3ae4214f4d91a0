//! A natural logarithm that is bit-identical everywhere (SPEC.md §5.2).
//!
//! Placement must not depend on the platform's libm, on FMA contraction or on
//! the compiler. So `ln(u)` is computed in 128-bit fixed point with integer
//! operations only, and converted to `f64` once, by one correctly rounded
//! integer-to-float conversion and one exact scaling by a power of two.
//!
//! The fixed-point result has an absolute error below 2^-60, while two
//! consecutive inputs `u` differ in `ln(u)` by at least 2^-53. So the fixed-point
//! values are strictly monotone in `u`, and the final rounding to `f64` keeps
//! them monotone non-decreasing.

/// `round(ln(2) * 2^64)`.
pub const LN2_Q64: u128 = 0xB172_17F7_D1CF_79AC;

/// Number of terms after the first in the `atanh` series.
pub const SERIES_TERMS: usize = 20;

/// `SERIES[j] = floor(2^64 / (2j + 1))` for `j = 0..=SERIES_TERMS`.
pub const SERIES: [u128; SERIES_TERMS + 1] = series();

const fn series() -> [u128; SERIES_TERMS + 1] {
    let mut out = [0u128; SERIES_TERMS + 1];
    let mut j = 0;
    while j <= SERIES_TERMS {
        out[j] = (1u128 << 64) / (2 * j as u128 + 1);
        j += 1;
    }
    out
}

/// The 53-bit integer `m` in `[1, 2^53]` that a raw score maps to: `u = m / 2^53`.
#[inline(always)]
pub const fn unit_numerator(score: u64) -> u64 {
    (score >> 11) + 1
}

/// `-ln(m / 2^53)` in unsigned Q64 fixed point, for `m` in `[1, 2^53]`.
///
/// Values of `m` outside that range are clamped into it; the placement code
/// only ever passes `unit_numerator(score)`.
pub fn neg_ln_q64(m: u64) -> u128 {
    let m = if m == 0 {
        1
    } else if m > 1 << 53 {
        1 << 53
    } else {
        m
    };
    // m = x * 2^e with x in [1, 2).
    let e = 63 - m.leading_zeros();
    let x_q63 = (m as u128) << (63 - e);
    // ln(x) = 2 atanh(s), s = (x - 1) / (x + 1) in [0, 1/3).
    let num = x_q63 - (1u128 << 63);
    let den = x_q63 + (1u128 << 63);
    let s = (num << 64) / den;
    let t = (s * s) >> 64;
    let mut acc = SERIES[SERIES_TERMS];
    let mut j = SERIES_TERMS;
    while j > 0 {
        j -= 1;
        acc = ((acc * t) >> 64) + SERIES[j];
    }
    let ln_x = (s * acc) >> 63;
    // -ln(u) = (53 - e) ln 2 - ln(x) >= 0, since ln(x) < ln(2).
    (53 - e) as u128 * LN2_Q64 - ln_x
}

/// `ln(u)` as an `f64`, where `u = unit_numerator(score) / 2^53` is in `(0, 1]`.
///
/// The result is `0.0` (never `-0.0`) when `u == 1` and negative otherwise.
#[inline]
pub fn ln_unit(score: u64) -> f64 {
    let q = neg_ln_q64(unit_numerator(score));
    if q == 0 {
        0.0
    } else {
        // `u128 as f64` rounds to nearest, ties to even; the scaling is exact.
        -((q as f64) * TWO_POW_NEG_64)
    }
}

/// 2^-64, exactly.
const TWO_POW_NEG_64: f64 = 1.0 / 18_446_744_073_709_551_616.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_of_the_range() {
        assert_eq!(ln_unit(u64::MAX), 0.0);
        assert!(ln_unit(u64::MAX).is_sign_positive());
        // m = 1: ln(2^-53) = -53 ln 2 = -36.73680056967710...
        let lowest = ln_unit(0);
        assert!((lowest - (-36.736_800_569_677_1)).abs() < 1e-12, "{lowest}");
    }

    #[test]
    fn series_constants() {
        assert_eq!(SERIES[0], 1u128 << 64);
        assert_eq!(SERIES[1], 0x5555_5555_5555_5555);
    }
}
