//! Kernel selection: which instruction set runs lookups.
//!
//! A [`Backend`] value proves that the CPU supports its kernels (it is only
//! built by [`Backend::new`] after run-time detection), so the dispatch below
//! may call the `#[target_feature]` entry points of `crate::arch`. The best
//! backend is detected once per process and cached ([`Backend::detect`]).

use core::sync::atomic::{AtomicU8, Ordering};

use crate::oracle;
use crate::order::Ranked;
use crate::packed::{KeyOffset, PackedKeys};
use crate::race::columns::race_columns_scalar;
use crate::race::Columns;
use crate::table::TableColumns;

/// Which kernel runs lookups. A value of this type proves the CPU supports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Backend {
    kind: BackendKind,
}

/// The kernels longstraw knows, available or not on this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BackendKind {
    /// The portable scalar oracle.
    Scalar,
    /// x86_64 SSE2.
    Sse2,
    /// x86_64 AVX2.
    Avx2,
    /// x86_64 AVX-512 (F, DQ, VL).
    Avx512,
    /// aarch64 NEON.
    Neon,
    /// WebAssembly simd128 (wasm32 builds with `-C target-feature=+simd128`).
    Simd128,
}

impl BackendKind {
    /// Every kind, best last.
    pub const ALL: [BackendKind; 6] = [
        BackendKind::Scalar,
        BackendKind::Sse2,
        BackendKind::Neon,
        BackendKind::Simd128,
        BackendKind::Avx2,
        BackendKind::Avx512,
    ];

    /// The name used by `LONGSTRAW_BACKEND` and `backend()` queries.
    pub const fn name(self) -> &'static str {
        match self {
            BackendKind::Scalar => "scalar",
            BackendKind::Sse2 => "sse2",
            BackendKind::Avx2 => "avx2",
            BackendKind::Avx512 => "avx512",
            BackendKind::Neon => "neon",
            BackendKind::Simd128 => "simd128",
        }
    }

    /// Parses a name; `None` for anything else (including `auto`).
    pub fn from_name(name: &str) -> Option<BackendKind> {
        BackendKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl Backend {
    /// The portable scalar backend, available everywhere.
    pub const SCALAR: Backend = Backend {
        kind: BackendKind::Scalar,
    };

    /// The backend of this kind, if this CPU (and this build's target) supports it.
    pub fn new(kind: BackendKind) -> Option<Backend> {
        supported(kind).then_some(Backend { kind })
    }

    /// The best backend this CPU supports, detected on the first call and cached.
    pub fn detect() -> Backend {
        static BEST: AtomicU8 = AtomicU8::new(UNKNOWN);
        let cached = BEST.load(Ordering::Relaxed);
        if let Some(&kind) = BackendKind::ALL.get(cached as usize) {
            return Backend { kind };
        }
        let best = BackendKind::ALL
            .into_iter()
            .rev()
            .find(|&k| supported(k))
            .unwrap_or(BackendKind::Scalar);
        let position = BackendKind::ALL.iter().position(|&k| k == best).unwrap_or(0);
        BEST.store(position as u8, Ordering::Relaxed);
        Backend { kind: best }
    }

    /// Every backend this CPU supports.
    pub fn available() -> impl Iterator<Item = Backend> {
        BackendKind::ALL.into_iter().filter_map(Backend::new)
    }

    /// Which kernel this is.
    pub fn kind(self) -> BackendKind {
        self.kind
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        self.kind.name()
    }

    #[inline]
    pub(crate) fn owner(self, table: &TableColumns<'_>, key_hash: u64) -> Option<u32> {
        dispatch!(self, owner(table, key_hash), oracle::owner(table, key_hash))
    }

    #[inline]
    pub(crate) fn top_k(self, table: &TableColumns<'_>, key_hash: u64, out: &mut [Ranked]) -> usize {
        dispatch!(self, top_k(table, key_hash, out), oracle::top_k(table, key_hash, out))
    }

    /// One skeleton level's first-order group race; `None` when it cannot decide.
    #[inline(always)]
    pub(crate) fn group_race(self, key_hash: u64, columns: Columns<'_>) -> Option<usize> {
        dispatch!(
            self,
            group_race(key_hash, columns),
            race_columns_scalar(key_hash, columns)
        )
    }

    pub(crate) fn owners<O: KeyOffset>(self, table: &TableColumns<'_>, keys: &PackedKeys<'_, O>, out: &mut [u32]) {
        dispatch!(self, owners(table, keys, out), {
            for (slot, key) in out.iter_mut().zip(keys.iter()) {
                let kh = table.hashing.key_hash(key);
                *slot = oracle::owner(table, kh).unwrap_or(u32::MAX);
            }
        })
    }
}

/// `BEST` before detection ran (not a position in `BackendKind::ALL`).
const UNKNOWN: u8 = u8::MAX;

/// Whether this CPU and build support `kind` (the detection is cached by `cpufeatures`).
fn supported(kind: BackendKind) -> bool {
    match kind {
        BackendKind::Scalar => true,
        BackendKind::Sse2 => cfg!(target_arch = "x86_64"),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Avx2 => crate::arch::x86_64::avx2_supported(),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Avx512 => crate::arch::x86_64::avx512_supported(),
        BackendKind::Neon => cfg!(target_arch = "aarch64"),
        // WebAssembly has no run-time detection: a module built with simd128
        // does not load on an engine without it, so running proves support.
        BackendKind::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
        #[allow(unreachable_patterns)]
        _ => false,
    }
}

/// Calls `$call` on the kernel module of `$backend`, or evaluates `$scalar`.
macro_rules! dispatch {
    ($backend:expr, $name:ident($($arg:expr),*), $scalar:expr) => {
        match $backend.kind {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Backend` of this kind exists only when
            // `supported(kind)` held, i.e. the CPU runs SSE2.
            BackendKind::Sse2 => unsafe { crate::arch::x86_64::sse2::$name($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above; `supported` detected AVX2 at run time.
            BackendKind::Avx2 => unsafe { crate::arch::x86_64::avx2::$name($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above; `supported` detected AVX-512 at run time.
            BackendKind::Avx512 => unsafe { crate::arch::x86_64::avx512::$name($($arg),*) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: as above; every aarch64 CPU runs NEON.
            BackendKind::Neon => unsafe { crate::arch::aarch64::neon::$name($($arg),*) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            // SAFETY: as above; the module was compiled with simd128, so it runs only where the engine has it.
            BackendKind::Simd128 => unsafe { crate::arch::wasm32::simd128::$name($($arg),*) },
            _ => $scalar,
        }
    };
}
use dispatch;
