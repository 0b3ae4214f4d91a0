//! Kernel selection. Today only the scalar oracle; SIMD backends plug in here.

use crate::oracle;
use crate::order::Ranked;
use crate::packed::{KeyOffset, PackedKeys};
use crate::table::NodeTable;

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
}

impl BackendKind {
    /// Every kind, best last.
    pub const ALL: [BackendKind; 5] = [
        BackendKind::Scalar,
        BackendKind::Sse2,
        BackendKind::Neon,
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

    /// The backend of this kind, if this CPU supports it.
    pub fn new(kind: BackendKind) -> Option<Backend> {
        match kind {
            BackendKind::Scalar => Some(Backend::SCALAR),
            _ => None,
        }
    }

    /// The best backend this CPU supports.
    pub fn detect() -> Backend {
        Backend::SCALAR
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
    pub(crate) fn owner(self, table: &NodeTable<'_>, key_hash: u64) -> Option<u32> {
        oracle::owner(table, key_hash)
    }

    #[inline]
    pub(crate) fn top_k(self, table: &NodeTable<'_>, key_hash: u64, out: &mut [Ranked]) -> usize {
        oracle::top_k(table, key_hash, out)
    }

    pub(crate) fn owners<O: KeyOffset>(self, table: &NodeTable<'_>, keys: &PackedKeys<'_, O>, out: &mut [u32]) {
        for (slot, key) in out.iter_mut().zip(keys.iter()) {
            let kh = crate::hash::key_hash(key, table.seed);
            *slot = self.owner(table, kh).unwrap_or(u32::MAX);
        }
    }
}
