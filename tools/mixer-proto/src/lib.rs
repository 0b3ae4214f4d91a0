//! Prototype HRW score mixers for `longstraw`: score = MIX(kh ^ nh), owner = argmax score.
//!
//! Candidates (all bijective on u64):
//!  * `Mix13`    – Stafford variant 13 / splitmix64 finalizer (64x64 multiplies).
//!  * `M32x3`    – xorshift-multiply, 3 rounds, multipliers are 32-bit odd constants, so each
//!    64-bit multiply is 2 x (32x32->64) products (pmuludq / umull).
//!  * `Feistel5` – 5-round balanced Feistel on 32-bit halves, F(x) = lo32(x*K) ^ hi32(x*K)
//!    (one 32x32->64 product per round).
//!  * `Ident`    – no mixing (score = kh ^ nh). Deliberately bad control.
//!
//! Every mixer has a scalar version and AVX2 / AVX-512 kernels (argmax + batch scores).
//! Argmax semantics everywhere: largest unsigned score, ties -> lowest index.

pub const NODE_SEED_XOR: u64 = 0x9E37_79B9_7F4A_7C15;

pub mod scalar {
    #[inline(always)]
    pub fn mix13(mut z: u64) -> u64 {
        z ^= z >> 30;
        z = z.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z ^= z >> 27;
        z = z.wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub const M32_K: [u64; 3] = [0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D];
    #[inline(always)]
    pub fn m32x3(mut z: u64) -> u64 {
        z ^= z >> 33;
        z = z.wrapping_mul(M32_K[0]);
        z ^= z >> 31;
        z = z.wrapping_mul(M32_K[1]);
        z ^= z >> 30;
        z = z.wrapping_mul(M32_K[2]);
        z ^ (z >> 32)
    }

    pub const FEISTEL_K: [u64; 5] = [0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F, 0x1656_67B1];
    /// One round: (H, L) -> (L, H ^ F(L)), F(L) = lo32(L*K) ^ hi32(L*K).
    #[inline(always)]
    pub fn feistel5(mut z: u64) -> u64 {
        for k in FEISTEL_K {
            let p = (z as u32 as u64) * k;
            z = z.rotate_left(32) ^ ((p ^ (p >> 32)) & 0xffff_ffff);
        }
        z
    }

    #[inline(always)]
    pub fn ident(z: u64) -> u64 {
        z
    }

    #[inline(always)]
    pub fn argmax<F: Fn(u64) -> u64>(mix: F, kh: u64, nh: &[u64]) -> (usize, u64) {
        let mut best = (0usize, mix(kh ^ nh[0]));
        for (i, &h) in nh.iter().enumerate().skip(1) {
            let s = mix(kh ^ h);
            if s > best.1 {
                best = (i, s);
            }
        }
        best
    }
}

#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use core::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx2")]
    fn xs<const S: i32>(z: __m256i) -> __m256i {
        _mm256_xor_si256(z, _mm256_srli_epi64::<S>(z))
    }
    /// z * c mod 2^64 for a full 64-bit constant c: 3 x pmuludq.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn mul64c(z: __m256i, c: u64) -> __m256i {
        let cl = _mm256_set1_epi64x(c as u32 as i64);
        let ch = _mm256_set1_epi64x((c >> 32) as i64);
        let ll = _mm256_mul_epu32(z, cl);
        let hl = _mm256_mul_epu32(_mm256_srli_epi64::<32>(z), cl);
        let lh = _mm256_mul_epu32(z, ch);
        _mm256_add_epi64(ll, _mm256_slli_epi64::<32>(_mm256_add_epi64(hl, lh)))
    }
    /// z * c mod 2^64 for c < 2^32: 2 x pmuludq.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn mul32c(z: __m256i, c: u64) -> __m256i {
        let cv = _mm256_set1_epi64x(c as i64);
        let ll = _mm256_mul_epu32(z, cv);
        let hl = _mm256_mul_epu32(_mm256_srli_epi64::<32>(z), cv);
        _mm256_add_epi64(ll, _mm256_slli_epi64::<32>(hl))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn mix13(z: __m256i) -> __m256i {
        let z = mul64c(xs::<30>(z), 0xbf58_476d_1ce4_e5b9);
        let z = mul64c(xs::<27>(z), 0x94d0_49bb_1331_11eb);
        xs::<31>(z)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn m32x3(z: __m256i) -> __m256i {
        let k = super::scalar::M32_K;
        let z = mul32c(xs::<33>(z), k[0]);
        let z = mul32c(xs::<31>(z), k[1]);
        let z = mul32c(xs::<30>(z), k[2]);
        xs::<32>(z)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn feistel5(mut z: __m256i) -> __m256i {
        let zero = _mm256_setzero_si256();
        for k in super::scalar::FEISTEL_K {
            let p = _mm256_mul_epu32(z, _mm256_set1_epi64x(k as i64));
            let f = _mm256_xor_si256(p, _mm256_srli_epi64::<32>(p));
            let f = _mm256_blend_epi32::<0b1010_1010>(f, zero); // keep low dword of each lane
            z = _mm256_xor_si256(_mm256_shuffle_epi32::<0b1011_0001>(z), f); // rot32 ^ F
        }
        z
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn ident(z: __m256i) -> __m256i {
        z
    }

    macro_rules! kernels {
        ($argmax:ident, $scores:ident, $mix:ident, $smix:path) => {
            /// Argmax over node hashes (AVX2, 2 x 4 lanes).
            ///
            /// # Safety
            /// The CPU must support AVX2.
            #[target_feature(enable = "avx2")]
            pub unsafe fn $argmax(kh: u64, nh: &[u64]) -> (usize, u64) {
                let n = nh.len();
                if n < 8 {
                    return crate::scalar::argmax($smix, kh, nh);
                }
                let p = nh.as_ptr() as *const __m256i;
                let khv = _mm256_set1_epi64x(kh as i64);
                let sign = _mm256_set1_epi64x(i64::MIN);
                let score = |i: usize| {
                    let x = _mm256_xor_si256(khv, unsafe { _mm256_loadu_si256(p.add(i / 4)) });
                    _mm256_xor_si256($mix(x), sign) // sign-flipped for signed compare
                };
                let (mut b0, mut b1) = (score(0), score(4));
                let (mut i0, mut i1) = (_mm256_setr_epi64x(0, 1, 2, 3), _mm256_setr_epi64x(4, 5, 6, 7));
                let step = _mm256_set1_epi64x(8);
                let (mut c0, mut c1) = (i0, i1);
                let mut i = 8;
                while i + 8 <= n {
                    c0 = _mm256_add_epi64(c0, step);
                    c1 = _mm256_add_epi64(c1, step);
                    let (s0, s1) = (score(i), score(i + 4));
                    let g0 = _mm256_cmpgt_epi64(s0, b0);
                    let g1 = _mm256_cmpgt_epi64(s1, b1);
                    b0 = _mm256_blendv_epi8(b0, s0, g0);
                    i0 = _mm256_blendv_epi8(i0, c0, g0);
                    b1 = _mm256_blendv_epi8(b1, s1, g1);
                    i1 = _mm256_blendv_epi8(i1, c1, g1);
                    i += 8;
                }
                // Vector reduction: keep (larger score, then smaller index).
                let better = |(b, x): (__m256i, __m256i), (c, y): (__m256i, __m256i)| {
                    let take = _mm256_or_si256(
                        _mm256_cmpgt_epi64(c, b),
                        _mm256_and_si256(_mm256_cmpeq_epi64(c, b), _mm256_cmpgt_epi64(x, y)),
                    );
                    (_mm256_blendv_epi8(b, c, take), _mm256_blendv_epi8(x, y, take))
                };
                let (b, x) = better((b0, i0), (b1, i1));
                let (b, x) = better((b, x), (_mm256_permute4x64_epi64::<0x4E>(b), _mm256_permute4x64_epi64::<0x4E>(x)));
                let (b, x) = better((b, x), (_mm256_shuffle_epi32::<0x4E>(b), _mm256_shuffle_epi32::<0x4E>(x)));
                let mut best = (_mm256_extract_epi64::<0>(x) as usize, (_mm256_extract_epi64::<0>(b) as u64) ^ (1 << 63));
                for j in i..n {
                    let s = $smix(kh ^ nh[j]);
                    if s > best.1 {
                        best = (j, s);
                    }
                }
                best
            }
            /// All scores (AVX2). `out.len() >= nh.len()`.
            ///
            /// # Safety
            /// The CPU must support AVX2.
            #[target_feature(enable = "avx2")]
            pub unsafe fn $scores(kh: u64, nh: &[u64], out: &mut [u64]) {
                assert!(out.len() >= nh.len());
                let khv = _mm256_set1_epi64x(kh as i64);
                let mut i = 0;
                while i + 4 <= nh.len() {
                    let x = _mm256_xor_si256(khv, unsafe { _mm256_loadu_si256(nh.as_ptr().add(i) as *const __m256i) });
                    unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(i) as *mut __m256i, $mix(x)) };
                    i += 4;
                }
                for j in i..nh.len() {
                    out[j] = $smix(kh ^ nh[j]);
                }
            }
        };
    }
    kernels!(argmax_mix13, scores_mix13, mix13, crate::scalar::mix13);
    kernels!(argmax_m32x3, scores_m32x3, m32x3, crate::scalar::m32x3);
    kernels!(argmax_feistel5, scores_feistel5, feistel5, crate::scalar::feistel5);
    kernels!(argmax_ident, scores_ident, ident, crate::scalar::ident);
}

#[cfg(target_arch = "x86_64")]
pub mod avx512 {
    use core::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn xs<const S: u32>(z: __m512i) -> __m512i {
        _mm512_xor_si512(z, _mm512_srli_epi64::<S>(z))
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn mulc(z: __m512i, c: u64) -> __m512i {
        _mm512_mullo_epi64(z, _mm512_set1_epi64(c as i64)) // vpmullq
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub fn mix13(z: __m512i) -> __m512i {
        let z = mulc(xs::<30>(z), 0xbf58_476d_1ce4_e5b9);
        let z = mulc(xs::<27>(z), 0x94d0_49bb_1331_11eb);
        xs::<31>(z)
    }
    /// On AVX-512 the 32-bit-constant multiplies also use vpmullq (same result, fewer uops).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub fn m32x3(z: __m512i) -> __m512i {
        let k = super::scalar::M32_K;
        let z = mulc(xs::<33>(z), k[0]);
        let z = mulc(xs::<31>(z), k[1]);
        let z = mulc(xs::<30>(z), k[2]);
        xs::<32>(z)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub fn feistel5(mut z: __m512i) -> __m512i {
        for k in super::scalar::FEISTEL_K {
            let p = _mm512_mul_epu32(z, _mm512_set1_epi64(k as i64));
            let f = _mm512_xor_si512(p, _mm512_srli_epi64::<32>(p));
            let r = _mm512_rol_epi64::<32>(z);
            z = _mm512_mask_xor_epi32(r, 0x5555, r, f); // xor F into the low dword only
        }
        z
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub fn ident(z: __m512i) -> __m512i {
        z
    }

    macro_rules! kernels {
        ($argmax:ident, $scores:ident, $mix:ident, $smix:path) => {
            /// Argmax over node hashes (AVX-512F+DQ, 2 x 8 lanes).
            ///
            /// # Safety
            /// The CPU must support AVX-512F and AVX-512DQ.
            #[target_feature(enable = "avx512f,avx512dq")]
            pub unsafe fn $argmax(kh: u64, nh: &[u64]) -> (usize, u64) {
                let n = nh.len();
                if n < 16 {
                    return crate::scalar::argmax($smix, kh, nh);
                }
                let p = nh.as_ptr();
                let khv = _mm512_set1_epi64(kh as i64);
                let score = |i: usize| $mix(_mm512_xor_si512(khv, unsafe { _mm512_loadu_si512(p.add(i) as *const _) }));
                let (mut b0, mut b1) = (score(0), score(8));
                let (mut i0, mut i1) = (
                    _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
                    _mm512_setr_epi64(8, 9, 10, 11, 12, 13, 14, 15),
                );
                let step = _mm512_set1_epi64(16);
                let (mut c0, mut c1) = (i0, i1);
                let mut i = 16;
                while i + 16 <= n {
                    c0 = _mm512_add_epi64(c0, step);
                    c1 = _mm512_add_epi64(c1, step);
                    let (s0, s1) = (score(i), score(i + 8));
                    let g0 = _mm512_cmpgt_epu64_mask(s0, b0);
                    let g1 = _mm512_cmpgt_epu64_mask(s1, b1);
                    b0 = _mm512_mask_mov_epi64(b0, g0, s0);
                    i0 = _mm512_mask_mov_epi64(i0, g0, c0);
                    b1 = _mm512_mask_mov_epi64(b1, g1, s1);
                    i1 = _mm512_mask_mov_epi64(i1, g1, c1);
                    i += 16;
                }
                // Vector reduction: keep (larger score, then smaller index).
                let take = _mm512_cmpgt_epu64_mask(b1, b0)
                    | (_mm512_cmpeq_epu64_mask(b1, b0) & _mm512_cmplt_epu64_mask(i1, i0));
                let b = _mm512_mask_mov_epi64(b0, take, b1);
                let x = _mm512_mask_mov_epi64(i0, take, i1);
                let m = _mm512_reduce_max_epu64(b);
                let eq = _mm512_cmpeq_epu64_mask(b, _mm512_set1_epi64(m as i64));
                let mut best = (_mm512_mask_reduce_min_epu64(eq, x) as usize, m);
                for j in i..n {
                    let s = $smix(kh ^ nh[j]);
                    if s > best.1 {
                        best = (j, s);
                    }
                }
                best
            }
            /// All scores (AVX-512). `out.len() >= nh.len()`.
            ///
            /// # Safety
            /// The CPU must support AVX-512F and AVX-512DQ.
            #[target_feature(enable = "avx512f,avx512dq")]
            pub unsafe fn $scores(kh: u64, nh: &[u64], out: &mut [u64]) {
                assert!(out.len() >= nh.len());
                let khv = _mm512_set1_epi64(kh as i64);
                let mut i = 0;
                while i + 8 <= nh.len() {
                    let x = _mm512_xor_si512(khv, unsafe { _mm512_loadu_si512(nh.as_ptr().add(i) as *const _) });
                    unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(i) as *mut _, $mix(x)) };
                    i += 8;
                }
                for j in i..nh.len() {
                    out[j] = $smix(kh ^ nh[j]);
                }
            }
        };
    }
    kernels!(argmax_mix13, scores_mix13, mix13, crate::scalar::mix13);
    kernels!(argmax_m32x3, scores_m32x3, m32x3, crate::scalar::m32x3);
    kernels!(argmax_feistel5, scores_feistel5, feistel5, crate::scalar::feistel5);
    kernels!(argmax_ident, scores_ident, ident, crate::scalar::ident);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mixer {
    Mix13,
    M32x3,
    Feistel5,
    Ident,
}
pub const MIXERS: [Mixer; 4] = [Mixer::Mix13, Mixer::M32x3, Mixer::Feistel5, Mixer::Ident];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    Scalar,
    Avx2,
    Avx512,
}
impl Isa {
    pub fn available(self) -> bool {
        match self {
            Isa::Scalar => true,
            Isa::Avx2 => is_x86_feature_detected!("avx2"),
            Isa::Avx512 => is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512dq"),
        }
    }
    pub fn best() -> Isa {
        [Isa::Avx512, Isa::Avx2].into_iter().find(|i| i.available()).unwrap_or(Isa::Scalar)
    }
}

impl Mixer {
    pub fn name(self) -> &'static str {
        match self {
            Mixer::Mix13 => "A mix13",
            Mixer::M32x3 => "B1 m32x3",
            Mixer::Feistel5 => "B2 feistel5",
            Mixer::Ident => "BAD ident",
        }
    }
    #[inline]
    pub fn scalar(self, z: u64) -> u64 {
        match self {
            Mixer::Mix13 => scalar::mix13(z),
            Mixer::M32x3 => scalar::m32x3(z),
            Mixer::Feistel5 => scalar::feistel5(z),
            Mixer::Ident => scalar::ident(z),
        }
    }
    /// Argmax with the chosen ISA. Panics if the ISA is not available.
    pub fn argmax(self, isa: Isa, kh: u64, nh: &[u64]) -> (usize, u64) {
        assert!(isa.available() && !nh.is_empty());
        // SAFETY: feature availability checked above.
        unsafe {
            match (isa, self) {
                (Isa::Scalar, Mixer::Mix13) => scalar::argmax(scalar::mix13, kh, nh),
                (Isa::Scalar, Mixer::M32x3) => scalar::argmax(scalar::m32x3, kh, nh),
                (Isa::Scalar, Mixer::Feistel5) => scalar::argmax(scalar::feistel5, kh, nh),
                (Isa::Scalar, Mixer::Ident) => scalar::argmax(scalar::ident, kh, nh),
                (Isa::Avx2, Mixer::Mix13) => avx2::argmax_mix13(kh, nh),
                (Isa::Avx2, Mixer::M32x3) => avx2::argmax_m32x3(kh, nh),
                (Isa::Avx2, Mixer::Feistel5) => avx2::argmax_feistel5(kh, nh),
                (Isa::Avx2, Mixer::Ident) => avx2::argmax_ident(kh, nh),
                (Isa::Avx512, Mixer::Mix13) => avx512::argmax_mix13(kh, nh),
                (Isa::Avx512, Mixer::M32x3) => avx512::argmax_m32x3(kh, nh),
                (Isa::Avx512, Mixer::Feistel5) => avx512::argmax_feistel5(kh, nh),
                (Isa::Avx512, Mixer::Ident) => avx512::argmax_ident(kh, nh),
            }
        }
    }
    pub fn scores(self, isa: Isa, kh: u64, nh: &[u64], out: &mut [u64]) {
        assert!(isa.available());
        unsafe {
            match (isa, self) {
                (Isa::Scalar, m) => nh.iter().zip(out.iter_mut()).for_each(|(&h, o)| *o = m.scalar(kh ^ h)),
                (Isa::Avx2, Mixer::Mix13) => avx2::scores_mix13(kh, nh, out),
                (Isa::Avx2, Mixer::M32x3) => avx2::scores_m32x3(kh, nh, out),
                (Isa::Avx2, Mixer::Feistel5) => avx2::scores_feistel5(kh, nh, out),
                (Isa::Avx2, Mixer::Ident) => avx2::scores_ident(kh, nh, out),
                (Isa::Avx512, Mixer::Mix13) => avx512::scores_mix13(kh, nh, out),
                (Isa::Avx512, Mixer::M32x3) => avx512::scores_m32x3(kh, nh, out),
                (Isa::Avx512, Mixer::Feistel5) => avx512::scores_feistel5(kh, nh, out),
                (Isa::Avx512, Mixer::Ident) => avx512::scores_ident(kh, nh, out),
            }
        }
    }
}

/// Test/bench RNG (splitmix64).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        scalar::mix13(self.0)
    }
}
