//! WebAssembly simd128: 2 u64 lanes. It has a 64-bit lane multiply
//! (`i64x2.mul`) and a signed 64-bit compare, but no unsigned compare and no
//! integer-to-f64 conversion of 64-bit lanes: unsigned compares flip the
//! sign bit, conversions use the exponent trick of the SSE2 backend.
//!
//! Every intrinsic here that touches no memory is a safe function under the
//! `simd128` feature, which this module is only compiled with (see
//! [`super`]); the memory ones are `unsafe` and documented.

use core::arch::wasm32::*;

use crate::arch::Vector;

/// Two u64 lanes in a simd128 register.
#[derive(Clone, Copy)]
pub(crate) struct Simd128(v128);

/// The sign bit of a u64: xored in, signed compares order lanes as unsigned.
const SIGN: u64 = 1 << 63;
/// The bits of 2^52 as an f64.
const TWO_52_BITS: u64 = 0x4330_0000_0000_0000;
const TWO_52: f64 = 4_503_599_627_370_496.0;

/// `floor(k / 2)` as an exact f64, where `k = !score >> 11` (so `1 - u = k /
/// 2^53`): `k / 2 < 2^52`, so or-ing in the exponent of 2^52 and subtracting
/// 2^52 converts it exactly.
#[inline(always)]
fn half_k(scores: v128) -> v128 {
    let h = u64x2_shr(v128_not(scores), 12);
    f64x2_sub(v128_or(h, u64x2_splat(TWO_52_BITS)), f64x2_splat(TWO_52))
}

// SAFETY: every method uses simd128 only, and this module is compiled only
// when the build enables simd128 (a module using it does not load on an
// engine without it, so running this code proves the support).
unsafe impl Vector for Simd128 {
    const LANES: usize = 2;
    type Mask = v128;

    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Simd128(u64x2_splat(x))
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: the caller guarantees `p..p + 2` is readable; `v128_load` needs no alignment.
        unsafe { Simd128(v128_load(p.cast())) }
    }
    #[inline(always)]
    unsafe fn load_tail(p: *const u64, len: usize, fill: u64) -> Self {
        match len {
            0 => Simd128(u64x2_splat(fill)),
            // SAFETY: the caller guarantees `p..p + 1` is readable (no alignment needed).
            1 => Simd128(u64x2_replace_lane::<1>(unsafe { v128_load64_zero(p) }, fill)),
            // SAFETY: the caller guarantees `p..p + len` is readable, `len <= LANES`.
            _ => unsafe { Self::load(p) },
        }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: the caller guarantees `p..p + 2` is writable; `v128_store` needs no alignment.
        unsafe { v128_store(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        Simd128(v128_xor(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        Simd128(i64x2_add(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn shr<const S: i32>(self) -> Self {
        Simd128(u64x2_shr(self.0, S as u32))
    }
    #[inline(always)]
    unsafe fn mul_const(self, c: u64) -> Self {
        Simd128(i64x2_mul(self.0, u64x2_splat(c)))
    }
    #[inline(always)]
    unsafe fn ordered(self) -> Self {
        Simd128(v128_xor(self.0, u64x2_splat(SIGN)))
    }
    #[inline(always)]
    unsafe fn gt_ordered(self, other: Self) -> v128 {
        i64x2_gt(self.0, other.0)
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> v128 {
        i64x2_eq(self.0, other.0)
    }
    #[inline(always)]
    unsafe fn mask_or(a: v128, b: v128) -> v128 {
        v128_or(a, b)
    }
    #[inline(always)]
    unsafe fn mask_and(a: v128, b: v128) -> v128 {
        v128_and(a, b)
    }
    #[inline(always)]
    unsafe fn select(mask: v128, a: Self, b: Self) -> Self {
        Simd128(v128_bitselect(a.0, b.0, mask))
    }
    #[inline(always)]
    unsafe fn mask_bits(mask: v128) -> u32 {
        u32::from(i64x2_bitmask(mask))
    }
    #[inline(always)]
    unsafe fn reduce_argmax(scores: Self, index: Self) -> (u64, u64) {
        let s = scores.0;
        let (s0, s1) = (i64x2_extract_lane::<0>(s), i64x2_extract_lane::<1>(s));
        let (i0, i1) = (u64x2_extract_lane::<0>(index.0), u64x2_extract_lane::<1>(index.0));
        // Ordered lanes compare as i64; the lower index wins a tie.
        let (best, at) = if s1 > s0 || (s1 == s0 && i1 < i0) {
            (s1, i1)
        } else {
            (s0, i0)
        };
        (best as u64 ^ SIGN, at)
    }
    #[inline(always)]
    unsafe fn race_filter(scores: Self, weights: *const f64, bound: f64) -> u32 {
        // SAFETY: the caller guarantees `weights..weights + 2` is readable (no alignment needed).
        let w = unsafe { v128_load(weights.cast()) };
        // k/2 > fl(bound 2^52 w) implies k > fl(bound 2^53 w) (exact scaling).
        let limit = f64x2_mul(w, f64x2_splat(bound * TWO_52));
        u32::from(i64x2_bitmask(f64x2_le(half_k(scores.0), limit)))
    }
    #[inline(always)]
    unsafe fn race_key(scores: Self) -> Self {
        // h = floor(k / 2) exactly; then 2h (1 + 2h / 2^54) = h (2 + h / 2^52),
        // the scaling exact.
        let h = half_k(scores.0);
        let q = f64x2_add(f64x2_splat(2.0), f64x2_mul(h, f64x2_splat(1.0 / TWO_52)));
        Simd128(f64x2_mul(h, q))
    }
    #[inline(always)]
    unsafe fn mul_f64(self, other: Self) -> Self {
        Simd128(f64x2_mul(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn add_f64(self, other: Self) -> Self {
        Simd128(f64x2_add(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn div_f64_approx(self, other: Self) -> Self {
        Simd128(f64x2_div(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn min_f64(self, other: Self) -> Self {
        // `pmin` is `other < self ? other : self`: the minimum without NaN
        // lanes, and one instruction on x86 engines (`f64x2.min` is several).
        Simd128(f64x2_pmin(self.0, other.0))
    }
    #[inline(always)]
    unsafe fn reduce_min_f64(self) -> f64 {
        f64x2_extract_lane::<0>(self.0).min(f64x2_extract_lane::<1>(self.0))
    }
    #[inline(always)]
    unsafe fn lt_f64(self, other: Self) -> v128 {
        f64x2_lt(self.0, other.0)
    }
}

crate::arch::entry_points!(Simd128, "simd128");
