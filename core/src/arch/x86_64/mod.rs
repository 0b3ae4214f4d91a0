//! x86_64 backends: SSE2 (the x86_64 baseline), AVX2, AVX-512 (F + DQ + VL).

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse2;

cpufeatures::new!(has_avx2, "avx2");
cpufeatures::new!(has_avx512, "avx512f", "avx512dq", "avx512vl");

/// Whether this CPU (and OS) supports AVX2. Detected once, then cached.
pub(crate) fn avx2_supported() -> bool {
    has_avx2::get()
}

/// Whether this CPU (and OS) supports AVX-512 F, DQ and VL. Detected once, then cached.
pub(crate) fn avx512_supported() -> bool {
    has_avx512::get()
}
