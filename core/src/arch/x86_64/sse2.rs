//! SSE2: 2 u64 lanes. SSE2 has neither a 64-bit compare nor a 64-bit
//! multiply: compares combine 32-bit halves, multiplies use 3 `pmuludq`.

use core::arch::x86_64::*;

use crate::arch::Vector;

/// Two u64 lanes in an SSE2 register.
#[derive(Clone, Copy)]
pub(crate) struct Sse2(__m128i);

/// Flips the sign bit of both 32-bit halves, so signed 32-bit compares order
/// the halves as unsigned.
const HALF_SIGNS: i64 = 0x8000_0000_8000_0000_u64 as i64;
/// The bits of 2^52 as an f64.
const TWO_52_BITS: i64 = 0x4330_0000_0000_0000;
const TWO_52: f64 = 4_503_599_627_370_496.0;

// SAFETY: every method uses SSE2 only, which every x86_64 CPU supports.
unsafe impl Vector for Sse2 {
    const LANES: usize = 2;
    type Mask = __m128i;

    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { Sse2(_mm_set1_epi64x(x as i64)) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: the caller guarantees the pointer range is valid (no alignment needed); SSE2 is part of the x86_64 baseline.
        unsafe { Sse2(_mm_loadu_si128(p.cast())) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: the caller guarantees the pointer range is valid (no alignment needed); SSE2 is part of the x86_64 baseline.
        unsafe { _mm_storeu_si128(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { Sse2(_mm_xor_si128(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { Sse2(_mm_add_epi64(self.0, other.0)) }
    }
    #[inline(always)]
    unsafe fn shr<const S: i32>(self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { Sse2(_mm_srli_epi64::<S>(self.0)) }
    }
    #[inline(always)]
    unsafe fn mul_const(self, c: u64) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let z = self.0;
            let lo = _mm_set1_epi64x(c as u32 as i64);
            let hi = _mm_set1_epi64x((c >> 32) as i64);
            let ll = _mm_mul_epu32(z, lo);
            let cross = _mm_add_epi64(_mm_mul_epu32(_mm_srli_epi64::<32>(z), lo), _mm_mul_epu32(z, hi));
            Sse2(_mm_add_epi64(ll, _mm_slli_epi64::<32>(cross)))
        }
    }
    #[inline(always)]
    unsafe fn ordered(self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { Sse2(_mm_xor_si128(self.0, _mm_set1_epi64x(HALF_SIGNS))) }
    }
    #[inline(always)]
    unsafe fn gt_ordered(self, other: Self) -> __m128i {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let gt = _mm_cmpgt_epi32(self.0, other.0);
            let eq = _mm_cmpeq_epi32(self.0, other.0);
            // High dword: hi_gt | (hi_eq & lo_gt); then copy it to both dwords.
            let r = _mm_or_si128(gt, _mm_and_si128(eq, _mm_slli_epi64::<32>(gt)));
            _mm_shuffle_epi32::<0b11_11_01_01>(r)
        }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> __m128i {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let e = _mm_cmpeq_epi32(self.0, other.0);
            _mm_and_si128(e, _mm_shuffle_epi32::<0b10_11_00_01>(e))
        }
    }
    #[inline(always)]
    unsafe fn mask_or(a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { _mm_or_si128(a, b) }
    }
    #[inline(always)]
    unsafe fn mask_and(a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { _mm_and_si128(a, b) }
    }
    #[inline(always)]
    unsafe fn select(mask: __m128i, a: Self, b: Self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { Sse2(_mm_or_si128(_mm_and_si128(mask, a.0), _mm_andnot_si128(mask, b.0))) }
    }
    #[inline(always)]
    unsafe fn mask_bits(mask: __m128i) -> u32 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { _mm_movemask_pd(_mm_castsi128_pd(mask)) as u32 }
    }
    #[inline(always)]
    unsafe fn race_filter(scores: Self, weights: *const f64, bound: f64) -> u32 {
        // SAFETY: the caller guarantees the pointer range is valid (no alignment needed); SSE2 is part of the x86_64 baseline.
        unsafe {
            // k / 2 (< 2^52) as an exact f64: or in the exponent of 2^52, subtract 2^52.
            let half_k = _mm_srli_epi64::<12>(_mm_xor_si128(scores.0, _mm_set1_epi64x(-1)));
            let half_k = _mm_sub_pd(
                _mm_castsi128_pd(_mm_or_si128(half_k, _mm_set1_epi64x(TWO_52_BITS))),
                _mm_set1_pd(TWO_52),
            );
            let w = _mm_loadu_pd(weights);
            // k/2 > fl(bound 2^52 w) implies k > fl(bound 2^53 w) (exact scaling).
            let limit = _mm_mul_pd(w, _mm_set1_pd(bound * TWO_52));
            _mm_movemask_pd(_mm_cmple_pd(half_k, limit)) as u32
        }
    }
    #[inline(always)]
    unsafe fn race_key(scores: Self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            // h = floor(k / 2) exactly, as in `race_filter`; then
            // 2h (1 + 2h / 2^54) = h (2 + h / 2^52), the scaling exact.
            let h = _mm_srli_epi64::<12>(_mm_xor_si128(scores.0, _mm_set1_epi64x(-1)));
            let h = _mm_sub_pd(
                _mm_castsi128_pd(_mm_or_si128(h, _mm_set1_epi64x(TWO_52_BITS))),
                _mm_set1_pd(TWO_52),
            );
            let q = _mm_add_pd(_mm_set1_pd(2.0), _mm_mul_pd(h, _mm_set1_pd(1.0 / TWO_52)));
            Sse2(_mm_castpd_si128(_mm_mul_pd(h, q)))
        }
    }
    #[inline(always)]
    unsafe fn mul_f64(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            Sse2(_mm_castpd_si128(_mm_mul_pd(
                _mm_castsi128_pd(self.0),
                _mm_castsi128_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn add_f64(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            Sse2(_mm_castpd_si128(_mm_add_pd(
                _mm_castsi128_pd(self.0),
                _mm_castsi128_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn div_f64_approx(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            Sse2(_mm_castpd_si128(_mm_div_pd(
                _mm_castsi128_pd(self.0),
                _mm_castsi128_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn min_f64(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            Sse2(_mm_castpd_si128(_mm_min_pd(
                _mm_castsi128_pd(self.0),
                _mm_castsi128_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn reduce_min_f64(self) -> f64 {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe {
            let v = _mm_castsi128_pd(self.0);
            _mm_cvtsd_f64(_mm_min_sd(v, _mm_unpackhi_pd(v, v)))
        }
    }
    #[inline(always)]
    unsafe fn lt_f64(self, other: Self) -> __m128i {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { _mm_castpd_si128(_mm_cmplt_pd(_mm_castsi128_pd(self.0), _mm_castsi128_pd(other.0))) }
    }
}

crate::arch::entry_points!(Sse2, "sse2");
