//! AVX-512 (F + DQ + VL): 8 u64 lanes, native 64-bit multiply (`vpmullq`),
//! unsigned compares into mask registers, exact u64 to f64 conversion.

use core::arch::x86_64::*;

use crate::arch::Vector;

/// Eight u64 lanes in an AVX-512 register.
#[derive(Clone, Copy)]
pub(crate) struct Avx512(__m512i);

const TWO_53: f64 = 9_007_199_254_740_992.0;
/// 2^-54, exactly.
const TWO_NEG_54: f64 = 1.0 / 18_014_398_509_481_984.0;

// SAFETY: every method uses AVX-512 F/DQ (and SSE2) instructions only. They
// are reached only through the entry points below, which run with those
// features enabled and whose callers hold a `Backend` that detected them.
unsafe impl Vector for Avx512 {
    const LANES: usize = 8;
    type Mask = __mmask8;

    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: AVX-512F is supported (trait contract).
        Avx512(unsafe { _mm512_set1_epi64(x as i64) })
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: readable by the caller's guarantee; AVX-512F by the trait contract.
        Avx512(unsafe { _mm512_loadu_si512(p.cast()) })
    }
    #[inline(always)]
    unsafe fn load_tail(p: *const u64, len: usize, fill: u64) -> Self {
        let mask = ((1u32 << len.min(8)) - 1) as __mmask8;
        // SAFETY: masked-off lanes are not accessed (no fault); `p..p + len`
        // is readable by the caller's guarantee; AVX-512F by the trait contract.
        Avx512(unsafe { _mm512_mask_loadu_epi64(_mm512_set1_epi64(fill as i64), mask, p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: writable by the caller's guarantee; AVX-512F by the trait contract.
        unsafe { _mm512_storeu_si512(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F is supported (trait contract).
        Avx512(unsafe { _mm512_xor_si512(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512F is supported (trait contract).
        Avx512(unsafe { _mm512_add_epi64(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn shr<const S: i32>(self) -> Self {
        // The immediate form takes a u32 const; the count form folds to the same instruction.
        // SAFETY: AVX-512F is supported (trait contract).
        Avx512(unsafe { _mm512_srl_epi64(self.0, _mm_set_epi64x(0, S as i64)) })
    }
    #[inline(always)]
    unsafe fn mul_const(self, c: u64) -> Self {
        // SAFETY: AVX-512DQ is supported (trait contract).
        Avx512(unsafe { _mm512_mullo_epi64(self.0, _mm512_set1_epi64(c as i64)) })
    }
    #[inline(always)]
    unsafe fn ordered(self) -> Self {
        self
    }
    #[inline(always)]
    unsafe fn gt_ordered(self, other: Self) -> __mmask8 {
        // SAFETY: AVX-512F is supported (trait contract).
        unsafe { _mm512_cmpgt_epu64_mask(self.0, other.0) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> __mmask8 {
        // SAFETY: AVX-512F is supported (trait contract).
        unsafe { _mm512_cmpeq_epu64_mask(self.0, other.0) }
    }
    #[inline(always)]
    unsafe fn mask_or(a: __mmask8, b: __mmask8) -> __mmask8 {
        a | b
    }
    #[inline(always)]
    unsafe fn mask_and(a: __mmask8, b: __mmask8) -> __mmask8 {
        a & b
    }
    #[inline(always)]
    unsafe fn select(mask: __mmask8, a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F is supported (trait contract).
        Avx512(unsafe { _mm512_mask_mov_epi64(b.0, mask, a.0) })
    }
    #[inline(always)]
    unsafe fn mask_bits(mask: __mmask8) -> u32 {
        mask as u32
    }
    #[inline(always)]
    unsafe fn reduce_argmax(scores: Self, index: Self) -> (u64, u64) {
        // SAFETY: AVX-512F is supported (trait contract).
        unsafe {
            let best = _mm512_reduce_max_epu64(scores.0);
            let holders = _mm512_cmpeq_epu64_mask(scores.0, _mm512_set1_epi64(best as i64));
            (best, _mm512_mask_reduce_min_epu64(holders, index.0))
        }
    }
    #[inline(always)]
    unsafe fn row_maxima(rows: &[Self]) -> Self {
        // SAFETY: `rows` holds 8 vectors by the caller's guarantee (checked
        // by the slice pattern); AVX-512F by the trait contract.
        unsafe {
            let [r0, r1, r2, r3, r4, r5, r6, r7, ..] = rows else {
                unreachable!("row_maxima takes 8 rows")
            };
            // Blocks of `quad(pair(r0, r1), pair(r2, r3))`: rows 0-1 (halves
            // of lanes 0-3, 4-7), rows 2-3 (the same); one more `quad` of
            // that and its rows 4-7 twin leaves lane r = row r's maximum.
            let low = quad(pair(r0.0, r1.0), pair(r2.0, r3.0));
            let high = quad(pair(r4.0, r5.0), pair(r6.0, r7.0));
            Avx512(quad(low, high))
        }
    }
    #[inline(always)]
    unsafe fn race_filter(scores: Self, weights: *const f64, bound: f64) -> u32 {
        // SAFETY: AVX-512F/DQ by the trait contract; `weights..weights + 8`
        // is readable by the caller's guarantee.
        unsafe {
            // k < 2^53 converts exactly.
            let k = _mm512_cvtepu64_pd(_mm512_srli_epi64::<11>(_mm512_xor_si512(
                scores.0,
                _mm512_set1_epi64(-1),
            )));
            let limit = _mm512_mul_pd(_mm512_loadu_pd(weights), _mm512_set1_pd(bound * TWO_53));
            _mm512_cmp_pd_mask::<_CMP_LE_OQ>(k, limit) as u32
        }
    }
    #[inline(always)]
    unsafe fn race_key(scores: Self) -> Self {
        // SAFETY: AVX-512F/DQ by the trait contract.
        unsafe {
            // k < 2^53 converts exactly; k + k^2 / 2^54 with one rounding (FMA).
            let k = _mm512_cvtepu64_pd(_mm512_srli_epi64::<11>(_mm512_xor_si512(
                scores.0,
                _mm512_set1_epi64(-1),
            )));
            let half_k_scaled = _mm512_mul_pd(k, _mm512_set1_pd(TWO_NEG_54));
            Avx512(_mm512_castpd_si512(_mm512_fmadd_pd(half_k_scaled, k, k)))
        }
    }
    #[inline(always)]
    unsafe fn mul_f64(self, other: Self) -> Self {
        // SAFETY: AVX-512F by the trait contract.
        unsafe {
            Avx512(_mm512_castpd_si512(_mm512_mul_pd(
                _mm512_castsi512_pd(self.0),
                _mm512_castsi512_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn add_f64(self, other: Self) -> Self {
        // SAFETY: AVX-512F by the trait contract.
        unsafe {
            Avx512(_mm512_castpd_si512(_mm512_add_pd(
                _mm512_castsi512_pd(self.0),
                _mm512_castsi512_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn div_f64_approx(self, other: Self) -> Self {
        // SAFETY: AVX-512F by the trait contract.
        unsafe {
            // `vrcp14pd`: relative error below 2^-14, 1 / 0 = inf; a few cycles, not a division's 20.
            Avx512(_mm512_castpd_si512(_mm512_mul_pd(
                _mm512_castsi512_pd(self.0),
                _mm512_rcp14_pd(_mm512_castsi512_pd(other.0)),
            )))
        }
    }
    #[inline(always)]
    unsafe fn min_f64(self, other: Self) -> Self {
        // SAFETY: AVX-512F by the trait contract.
        unsafe {
            Avx512(_mm512_castpd_si512(_mm512_min_pd(
                _mm512_castsi512_pd(self.0),
                _mm512_castsi512_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn reduce_min_f64(self) -> f64 {
        // SAFETY: AVX-512F by the trait contract.
        unsafe { _mm512_reduce_min_pd(_mm512_castsi512_pd(self.0)) }
    }
    #[inline(always)]
    unsafe fn lt_f64(self, other: Self) -> __mmask8 {
        // SAFETY: AVX-512F by the trait contract.
        unsafe { _mm512_cmp_pd_mask::<_CMP_LT_OQ>(_mm512_castsi512_pd(self.0), _mm512_castsi512_pd(other.0)) }
    }
}

/// 128-bit block `k` of the result: `[max(x[2k], x[2k + 1]), max(y[2k], y[2k + 1])]`.
/// (A function, not a closure: closures would not inherit the target features.)
///
/// # Safety
/// AVX-512F is supported.
#[inline(always)]
unsafe fn pair(x: __m512i, y: __m512i) -> __m512i {
    // SAFETY: forwarded caller guarantee.
    unsafe { _mm512_max_epu64(_mm512_unpacklo_epi64(x, y), _mm512_unpackhi_epi64(x, y)) }
}

/// With 128-bit blocks `x = [x0, x1, x2, x3]` and `y` likewise:
/// `max([x0, x2, y0, y2], [x1, x3, y1, y3])`.
///
/// # Safety
/// AVX-512F is supported.
#[inline(always)]
unsafe fn quad(x: __m512i, y: __m512i) -> __m512i {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        _mm512_max_epu64(
            _mm512_shuffle_i64x2::<0b10_00_10_00>(x, y),
            _mm512_shuffle_i64x2::<0b11_01_11_01>(x, y),
        )
    }
}

crate::arch::entry_points!(Avx512, "avx512f,avx512dq,avx512vl");
