//! AVX2: 4 u64 lanes. 64-bit multiplies take 3 `vpmuludq`; unsigned compares
//! flip the sign bit and use the signed `vpcmpgtq`.

use core::arch::x86_64::*;

use crate::arch::Vector;

/// Four u64 lanes in an AVX2 register.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(__m256i);

const TWO_52_BITS: i64 = 0x4330_0000_0000_0000;
const TWO_52: f64 = 4_503_599_627_370_496.0;

// SAFETY: every method uses AVX (and AVX2) instructions only. They are reached
// only through the entry points below, which run with AVX2 enabled and whose
// callers hold a `Backend` that detected AVX2.
unsafe impl Vector for Avx2 {
    const LANES: usize = 4;
    type Mask = __m256i;

    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: AVX2 is supported (trait contract).
        Avx2(unsafe { _mm256_set1_epi64x(x as i64) })
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: readable by the caller's guarantee; AVX by the trait contract.
        Avx2(unsafe { _mm256_loadu_si256(p.cast()) })
    }
    #[inline(always)]
    unsafe fn load_tail(p: *const u64, len: usize, fill: u64) -> Self {
        // SAFETY: `vpmaskmovq` does not access masked-off lanes (no fault);
        // `p..p + len` is readable by the caller's guarantee; AVX2 by the trait contract.
        unsafe {
            let mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(len as i64), _mm256_setr_epi64x(0, 1, 2, 3));
            let v = _mm256_maskload_epi64(p.cast(), mask);
            Avx2(_mm256_blendv_epi8(_mm256_set1_epi64x(fill as i64), v, mask))
        }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: writable by the caller's guarantee; AVX by the trait contract.
        unsafe { _mm256_storeu_si256(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 is supported (trait contract).
        Avx2(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX2 is supported (trait contract).
        Avx2(unsafe { _mm256_add_epi64(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn shr<const S: i32>(self) -> Self {
        // SAFETY: AVX2 is supported (trait contract).
        Avx2(unsafe { _mm256_srli_epi64::<S>(self.0) })
    }
    #[inline(always)]
    unsafe fn mul_const(self, c: u64) -> Self {
        // SAFETY: AVX2 is supported (trait contract).
        unsafe {
            let z = self.0;
            let lo = _mm256_set1_epi64x(c as u32 as i64);
            let hi = _mm256_set1_epi64x((c >> 32) as i64);
            let ll = _mm256_mul_epu32(z, lo);
            let cross = _mm256_add_epi64(
                _mm256_mul_epu32(_mm256_srli_epi64::<32>(z), lo),
                _mm256_mul_epu32(z, hi),
            );
            Avx2(_mm256_add_epi64(ll, _mm256_slli_epi64::<32>(cross)))
        }
    }
    #[inline(always)]
    unsafe fn ordered(self) -> Self {
        // SAFETY: AVX2 is supported (trait contract).
        Avx2(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi64x(i64::MIN)) })
    }
    #[inline(always)]
    unsafe fn gt_ordered(self, other: Self) -> __m256i {
        // SAFETY: AVX2 is supported (trait contract).
        unsafe { _mm256_cmpgt_epi64(self.0, other.0) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> __m256i {
        // SAFETY: AVX2 is supported (trait contract).
        unsafe { _mm256_cmpeq_epi64(self.0, other.0) }
    }
    #[inline(always)]
    unsafe fn mask_or(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is supported (trait contract).
        unsafe { _mm256_or_si256(a, b) }
    }
    #[inline(always)]
    unsafe fn mask_and(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is supported (trait contract).
        unsafe { _mm256_and_si256(a, b) }
    }
    #[inline(always)]
    unsafe fn select(mask: __m256i, a: Self, b: Self) -> Self {
        // SAFETY: AVX2 is supported (trait contract).
        Avx2(unsafe { _mm256_blendv_epi8(b.0, a.0, mask) })
    }
    #[inline(always)]
    unsafe fn mask_bits(mask: __m256i) -> u32 {
        // SAFETY: AVX is supported (trait contract).
        unsafe { _mm256_movemask_pd(_mm256_castsi256_pd(mask)) as u32 }
    }
    #[inline(always)]
    unsafe fn row_maxima(rows: &[Self]) -> Self {
        // SAFETY: `rows` holds 4 vectors by the caller's guarantee (checked
        // by the slice pattern); AVX2 by the trait contract.
        unsafe {
            let [a, b, c, d, ..] = rows else {
                unreachable!("row_maxima takes 4 rows")
            };
            // [max(a0, a1), max(b0, b1), max(a2, a3), max(b2, b3)], the same for c, d.
            let ab = max(_mm256_unpacklo_epi64(a.0, b.0), _mm256_unpackhi_epi64(a.0, b.0));
            let cd = max(_mm256_unpacklo_epi64(c.0, d.0), _mm256_unpackhi_epi64(c.0, d.0));
            Avx2(max(
                _mm256_permute2x128_si256::<0x20>(ab, cd),
                _mm256_permute2x128_si256::<0x31>(ab, cd),
            ))
        }
    }
    #[inline(always)]
    unsafe fn race_filter(scores: Self, weights: *const f64, bound: f64) -> u32 {
        // SAFETY: AVX2 by the trait contract; `weights..weights + 4` is
        // readable by the caller's guarantee.
        unsafe {
            // k / 2 (< 2^52) as an exact f64: or in the exponent of 2^52, subtract 2^52.
            let half_k = _mm256_srli_epi64::<12>(_mm256_xor_si256(scores.0, _mm256_set1_epi64x(-1)));
            let half_k = _mm256_sub_pd(
                _mm256_castsi256_pd(_mm256_or_si256(half_k, _mm256_set1_epi64x(TWO_52_BITS))),
                _mm256_set1_pd(TWO_52),
            );
            // k/2 > fl(bound 2^52 w) implies k > fl(bound 2^53 w) (exact scaling).
            let limit = _mm256_mul_pd(_mm256_loadu_pd(weights), _mm256_set1_pd(bound * TWO_52));
            _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_LE_OQ>(half_k, limit)) as u32
        }
    }
    #[inline(always)]
    unsafe fn race_key(scores: Self) -> Self {
        // SAFETY: AVX2 by the trait contract.
        unsafe {
            // h = floor(k / 2) exactly, as in `race_filter`; then
            // 2h (1 + 2h / 2^54) = h (2 + h / 2^52), the scaling exact.
            let h = _mm256_srli_epi64::<12>(_mm256_xor_si256(scores.0, _mm256_set1_epi64x(-1)));
            let h = _mm256_sub_pd(
                _mm256_castsi256_pd(_mm256_or_si256(h, _mm256_set1_epi64x(TWO_52_BITS))),
                _mm256_set1_pd(TWO_52),
            );
            let q = _mm256_add_pd(_mm256_set1_pd(2.0), _mm256_mul_pd(h, _mm256_set1_pd(1.0 / TWO_52)));
            Avx2(_mm256_castpd_si256(_mm256_mul_pd(h, q)))
        }
    }
    #[inline(always)]
    unsafe fn mul_f64(self, other: Self) -> Self {
        // SAFETY: AVX by the trait contract.
        unsafe {
            Avx2(_mm256_castpd_si256(_mm256_mul_pd(
                _mm256_castsi256_pd(self.0),
                _mm256_castsi256_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn add_f64(self, other: Self) -> Self {
        // SAFETY: AVX by the trait contract.
        unsafe {
            Avx2(_mm256_castpd_si256(_mm256_add_pd(
                _mm256_castsi256_pd(self.0),
                _mm256_castsi256_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn div_f64_approx(self, other: Self) -> Self {
        // SAFETY: AVX by the trait contract.
        unsafe {
            Avx2(_mm256_castpd_si256(_mm256_div_pd(
                _mm256_castsi256_pd(self.0),
                _mm256_castsi256_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn min_f64(self, other: Self) -> Self {
        // SAFETY: AVX by the trait contract.
        unsafe {
            Avx2(_mm256_castpd_si256(_mm256_min_pd(
                _mm256_castsi256_pd(self.0),
                _mm256_castsi256_pd(other.0),
            )))
        }
    }
    #[inline(always)]
    unsafe fn reduce_min_f64(self) -> f64 {
        // SAFETY: AVX by the trait contract.
        unsafe {
            let v = _mm256_castsi256_pd(self.0);
            let m = _mm_min_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd::<1>(v));
            _mm_cvtsd_f64(_mm_min_sd(m, _mm_unpackhi_pd(m, m)))
        }
    }
    #[inline(always)]
    unsafe fn lt_f64(self, other: Self) -> __m256i {
        // SAFETY: AVX by the trait contract.
        unsafe {
            _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_LT_OQ>(
                _mm256_castsi256_pd(self.0),
                _mm256_castsi256_pd(other.0),
            ))
        }
    }
}

/// The lane-wise maximum of two vectors in `ordered` form (sign bit flipped).
/// (A function, not a closure: closures would not inherit the target features.)
///
/// # Safety
/// AVX2 is supported.
#[inline(always)]
unsafe fn max(x: __m256i, y: __m256i) -> __m256i {
    // SAFETY: forwarded caller guarantee.
    unsafe { _mm256_blendv_epi8(x, y, _mm256_cmpgt_epi64(y, x)) }
}

crate::arch::entry_points!(Avx2, "avx2");
