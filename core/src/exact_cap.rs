//! The per-node cap of a balanced table, `ceil(balance * P * w_i / W)`,
//! computed exactly (SPEC.md §17.2).
//!
//! Every valid weight is an integer multiple of 2^-116 below 2^65, so weights
//! and their sum are exact integers in units of 2^-116, and the cap is the
//! least integer `c` with `c * 10^6 * W >= B * P * w_i` (balance `B / 10^6`).
//! A float estimate picks `c`, and exact 320-bit products settle it, so no
//! rounding of any float can change a cap.

use core::cmp::Ordering;

/// Weights in units of 2^-116 (the smallest weight is 2^-64 = 2^52 units).
const UNIT_EXP: i32 = 116;
const LIMBS: usize = 5;

/// An unsigned 320-bit integer, least significant limb first. Products of
/// caps, balances, partition counts and weight sums stay below 2^260.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct U320([u64; LIMBS]);

impl U320 {
    pub(crate) const ZERO: U320 = U320([0; LIMBS]);

    /// A valid weight (SPEC.md §5.1) in units of 2^-116, exactly.
    pub(crate) fn of_weight(weight: f64) -> U320 {
        if weight == 0.0 {
            return U320::ZERO;
        }
        let bits = weight.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i32;
        let mantissa = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
        // weight = mantissa * 2^(exp - 1075); a valid weight has exp >= 1023 - 64.
        let shift = (exp - 1075 + UNIT_EXP).max(0) as u32;
        U320([mantissa, 0, 0, 0, 0]).shl(shift)
    }

    fn shl(self, shift: u32) -> U320 {
        let (limbs, bits) = ((shift / 64) as usize, shift % 64);
        let mut out = [0u64; LIMBS];
        for i in (limbs..LIMBS).rev() {
            let lo = self.0[i - limbs];
            let below = if bits > 0 && i > limbs {
                self.0[i - limbs - 1] >> (64 - bits)
            } else {
                0
            };
            out[i] = (lo << bits) | below;
        }
        U320(out)
    }

    pub(crate) fn add(self, other: U320) -> U320 {
        let mut out = [0u64; LIMBS];
        let mut carry = false;
        for (o, (a, b)) in out.iter_mut().zip(self.0.iter().zip(other.0.iter())) {
            let (s1, c1) = a.overflowing_add(*b);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *o = s2;
            carry = c1 || c2;
        }
        U320(out)
    }

    fn mul_u64(self, m: u64) -> U320 {
        let mut out = [0u64; LIMBS];
        let mut carry = 0u128;
        for (o, a) in out.iter_mut().zip(self.0.iter()) {
            let t = *a as u128 * m as u128 + carry;
            *o = t as u64;
            carry = t >> 64;
        }
        U320(out)
    }

    fn shr(self, shift: u32) -> U320 {
        let (limbs, bits) = ((shift / 64) as usize, shift % 64);
        let mut out = [0u64; LIMBS];
        for (i, o) in out.iter_mut().enumerate().take(LIMBS.saturating_sub(limbs)) {
            let hi = self.0[i + limbs];
            let above = if bits > 0 && i + limbs + 1 < LIMBS {
                self.0[i + limbs + 1] << (64 - bits)
            } else {
                0
            };
            *o = (hi >> bits) | above;
        }
        U320(out)
    }

    /// The number of significant bits (0 for zero).
    fn bit_len(&self) -> u32 {
        for i in (0..LIMBS).rev() {
            if self.0[i] != 0 {
                return 64 * i as u32 + (64 - self.0[i].leading_zeros());
            }
        }
        0
    }

    /// Whether bit `i` is set.
    fn bit(&self, i: u32) -> bool {
        (self.0[(i / 64) as usize] >> (i % 64)) & 1 == 1
    }

    /// Whether any bit below bit `i` is set.
    fn any_below(&self, i: u32) -> bool {
        let (limbs, bits) = ((i / 64) as usize, i % 64);
        self.0[..limbs].iter().any(|&l| l != 0) || (bits > 0 && self.0[limbs] << (64 - bits) != 0)
    }

    /// The `f64` nearest to this many units of 2^-116, ties to even. Every
    /// value this module builds (a weight, or a sum of at most 2^32 weights)
    /// lies in `[2^-64, 2^97)`, where the result is a normal `f64`.
    pub(crate) fn to_f64(self) -> f64 {
        let len = self.bit_len();
        if len <= 53 {
            return self.0[0] as f64 * pow2(-UNIT_EXP);
        }
        let shift = len - 53;
        let mut mantissa = self.shr(shift).0[0];
        // Round to nearest: up when the dropped bits exceed half a unit, or
        // equal it and the kept mantissa is odd.
        if self.bit(shift - 1) && (self.any_below(shift - 1) || mantissa & 1 == 1) {
            mantissa += 1; // 2^53 at most, still exact as an f64
        }
        mantissa as f64 * pow2(shift as i32 - UNIT_EXP)
    }

    fn cmp(&self, other: &U320) -> Ordering {
        for i in (0..LIMBS).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

/// 2^e as an `f64`, for `e` in the normal range.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// The `f64` nearest to the exact real sum of `weights` (ties to even), the
/// `W` of bounded loads (SPEC.md §16.1). The weights must be valid (SPEC.md
/// §2; drained ones add 0). Unlike an `f64` running sum, it does not depend
/// on the order of the weights.
pub fn weight_sum(weights: impl IntoIterator<Item = f64>) -> f64 {
    weights
        .into_iter()
        .fold(U320::ZERO, |t, w| t.add(U320::of_weight(w)))
        .to_f64()
}

/// `ceil(millionths * 2^bits * weight / (10^6 * total))`, exactly, where
/// `total` is the exact sum of all weights (non-zero) and `total_f64` a float
/// approximation of it used only to guess.
pub(crate) fn cap(millionths: u32, bits: u8, weight: U320, total: U320, guess: f64) -> u64 {
    if weight == U320::ZERO {
        return 0;
    }
    let need = weight.mul_u64(millionths as u64).shl(bits as u32);
    let per_unit = total.mul_u64(1_000_000);
    let enough = |c: u64| per_unit.mul_u64(c).cmp(&need) != Ordering::Less;
    let mut c = if guess.is_finite() && guess > 0.0 {
        guess.min(1e15) as u64 + 1
    } else {
        1
    };
    while !enough(c) {
        c += 1;
    }
    while c > 0 && enough(c - 1) {
        c -= 1;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(millionths: u32, bits: u8, weights: &[f64]) -> [u64; 8] {
        let total = weights.iter().fold(U320::ZERO, |t, &w| t.add(U320::of_weight(w)));
        let mut out = [0; 8];
        for (o, &w) in out.iter_mut().zip(weights) {
            // A deliberately bad guess: the exact steps must still land on the cap.
            *o = cap(millionths, bits, U320::of_weight(w), total, 1.0);
        }
        out
    }

    #[test]
    fn exact_multiples_are_not_rounded_up() {
        // 1.0 * 1024 * 1 / 4 = 256 exactly; 1.25 * 1024 / 4 = 320 exactly.
        assert_eq!(caps(1_000_000, 10, &[1.0; 4])[..4], [256; 4]);
        assert_eq!(caps(1_250_000, 10, &[1.0; 4])[..4], [320; 4]);
        // 1.05 * 65536 / 1000 = 68.8128 -> 69 (the example).
        let total = U320::of_weight(1000.0);
        assert_eq!(cap(1_050_000, 16, U320::of_weight(1.0), total, 68.8), 69);
    }

    #[test]
    fn the_weight_sum_is_the_nearest_f64_in_any_order() {
        // 0.1 + 0.2 + 0.3 is 0.6000000000000001 in that order and 0.6 in the
        // reverse one; the exact sum of the three f64 values is nearest 0.6.
        assert_eq!(weight_sum([0.1, 0.2, 0.3]), 0.6);
        assert_eq!(weight_sum([0.3, 0.2, 0.1]), 0.6);
        assert_eq!(weight_sum([0.1, 0.0, 0.2]), 0.30000000000000004);
        // 1 + 2^-53 is a tie between 1 and 1 + 2^-52: to even, 1. With a
        // third term 2^-64 just above the tie, it rounds up.
        let eps = f64::EPSILON;
        assert_eq!(weight_sum([1.0, eps / 2.0]), 1.0);
        assert_eq!(weight_sum([1.0, eps / 2.0, crate::MIN_WEIGHT]), 1.0 + eps);
        // 1 + 3 * 2^-53 is a tie between 1 + 2^-52 and 1 + 2^-51: to even, the latter.
        assert_eq!(weight_sum([1.0 + eps, eps / 2.0]), 1.0 + 2.0 * eps);
        // The extremes: exact where an f64 sum is exact.
        assert_eq!(weight_sum([crate::MIN_WEIGHT]), crate::MIN_WEIGHT);
        assert_eq!(weight_sum([crate::MAX_WEIGHT; 3]), 3.0 * crate::MAX_WEIGHT);
        assert_eq!(weight_sum([crate::MAX_WEIGHT, crate::MIN_WEIGHT]), crate::MAX_WEIGHT);
        assert_eq!(weight_sum([2.5; 7]), 17.5);
    }

    #[test]
    fn tiny_and_huge_weights_are_exact() {
        let min = crate::MIN_WEIGHT;
        let max = crate::MAX_WEIGHT;
        // The small node's share is 2^-128 of the total: a cap of 1, never 0.
        let c = caps(1_000_000, 24, &[min, max]);
        assert_eq!(c[..2], [1, 1 << 24]);
        // Three equal thirds of 3 partitions: exactly 1 each.
        assert_eq!(caps(1_000_000, 0, &[3.5, 3.5, 3.5])[..3], [1, 1, 1]);
        // Weights 1:3 of 4 partitions: 1 and 3 exactly; at 1.000001, 2 and 4.
        assert_eq!(caps(1_000_000, 2, &[1.0, 3.0])[..2], [1, 3]);
        assert_eq!(caps(1_000_001, 2, &[1.0, 3.0])[..2], [2, 4]);
    }
}
