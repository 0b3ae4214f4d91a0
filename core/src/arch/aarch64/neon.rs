//! NEON: 2 u64 lanes. NEON has no 64-bit lane multiply, so `z * c` is built
//! from a widening 32x32 multiply and the two 32-bit cross products (the
//! trick xxh3's NEON path uses).

use core::arch::aarch64::*;

use crate::arch::Vector;

/// Two u64 lanes in a NEON register.
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint64x2_t);

const TWO_53: f64 = 9_007_199_254_740_992.0;
/// 2^-54, exactly.
const TWO_NEG_54: f64 = 1.0 / 18_014_398_509_481_984.0;

// SAFETY: every method uses NEON only, which every aarch64 CPU supports (it
// is part of the target's baseline).
unsafe impl Vector for Neon {
    const LANES: usize = 2;
    type Mask = uint64x2_t;

    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { Neon(vdupq_n_u64(x)) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: the caller guarantees the pointer range is valid (no alignment needed); NEON is part of the aarch64 baseline.
        unsafe { Neon(vld1q_u64(p)) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: the caller guarantees the pointer range is valid (no alignment needed); NEON is part of the aarch64 baseline.
        unsafe { vst1q_u64(p, self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { Neon(veorq_u64(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { Neon(vaddq_u64(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn shr<const S: i32>(self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { Neon(vshrq_n_u64::<S>(self.0)) }
    }
    #[inline(always)]
    unsafe fn mul_const(self, c: u64) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe {
            let z = self.0;
            let z_lo = vmovn_u64(z);
            let z_hi = vshrn_n_u64::<32>(z);
            let c_lo = vdup_n_u32(c as u32);
            let c_hi = vdup_n_u32((c >> 32) as u32);
            let ll = vmull_u32(z_lo, c_lo);
            let cross = vmla_u32(vmul_u32(z_hi, c_lo), z_lo, c_hi);
            Neon(vaddq_u64(ll, vshll_n_u32::<32>(cross)))
        }
    }
    #[inline(always)]
    unsafe fn ordered(self) -> Self {
        self
    }
    #[inline(always)]
    unsafe fn gt_ordered(self, other: Self) -> uint64x2_t {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { vcgtq_u64(self.0, other.0) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> uint64x2_t {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { vceqq_u64(self.0, other.0) }
    }
    #[inline(always)]
    unsafe fn mask_or(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { vorrq_u64(a, b) }
    }
    #[inline(always)]
    unsafe fn mask_and(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { vandq_u64(a, b) }
    }
    #[inline(always)]
    unsafe fn select(mask: uint64x2_t, a: Self, b: Self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { Neon(vbslq_u64(mask, a.0, b.0)) }
    }
    #[inline(always)]
    unsafe fn mask_bits(mask: uint64x2_t) -> u32 {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { ((vgetq_lane_u64::<0>(mask) & 1) | ((vgetq_lane_u64::<1>(mask) & 1) << 1)) as u32 }
    }
    #[inline(always)]
    unsafe fn race_filter(scores: Self, weights: *const f64, bound: f64) -> u32 {
        // SAFETY: the caller guarantees the pointer range is valid (no alignment needed); NEON is part of the aarch64 baseline.
        unsafe {
            // k < 2^53 converts exactly.
            let k = vcvtq_f64_u64(vshrq_n_u64::<11>(veorq_u64(scores.0, vdupq_n_u64(u64::MAX))));
            let w = vld1q_f64(weights);
            let limit = vmulq_f64(w, vdupq_n_f64(bound * TWO_53));
            Self::mask_bits(vcleq_f64(k, limit))
        }
    }
    #[inline(always)]
    unsafe fn race_key(scores: Self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe {
            // k < 2^53 converts exactly; k (1 + k / 2^54), the scaling exact.
            let k = vcvtq_f64_u64(vshrq_n_u64::<11>(veorq_u64(scores.0, vdupq_n_u64(u64::MAX))));
            let q = vaddq_f64(vdupq_n_f64(1.0), vmulq_f64(k, vdupq_n_f64(TWO_NEG_54)));
            Neon(vreinterpretq_u64_f64(vmulq_f64(k, q)))
        }
    }
    #[inline(always)]
    unsafe fn mul_f64(self, other: Self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe {
            Neon(vreinterpretq_u64_f64(vmulq_f64(
                vreinterpretq_f64_u64(self.0),
                vreinterpretq_f64_u64(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn add_f64(self, other: Self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe {
            Neon(vreinterpretq_u64_f64(vaddq_f64(
                vreinterpretq_f64_u64(self.0),
                vreinterpretq_f64_u64(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn div_f64_approx(self, other: Self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe {
            Neon(vreinterpretq_u64_f64(vdivq_f64(
                vreinterpretq_f64_u64(self.0),
                vreinterpretq_f64_u64(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn min_f64(self, other: Self) -> Self {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe {
            Neon(vreinterpretq_u64_f64(vminq_f64(
                vreinterpretq_f64_u64(self.0),
                vreinterpretq_f64_u64(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn reduce_min_f64(self) -> f64 {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { vminvq_f64(vreinterpretq_f64_u64(self.0)) }
    }
    #[inline(always)]
    unsafe fn lt_f64(self, other: Self) -> uint64x2_t {
        // SAFETY: NEON is part of the aarch64 baseline.
        unsafe { vcltq_f64(vreinterpretq_f64_u64(self.0), vreinterpretq_f64_u64(other.0)) }
    }
}

crate::arch::entry_points!(Neon, "neon");
