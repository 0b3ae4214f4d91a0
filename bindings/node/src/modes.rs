//! A snapshot of any placement mode (flat, partition table, skeleton), so
//! that `Snapshot`, the lookups and the async batches are written once.

use std::sync::Arc;

use longstraw::{KeyOffset, PackedKeys};
use longstraw_set::{Result, SkeletonSnapshot, Snapshot as SetSnapshot, TableSnapshot};

/// An owned snapshot of any mode.
#[derive(Clone)]
pub enum Shared {
    Flat(Arc<SetSnapshot>),
    Table(Arc<TableSnapshot>),
    Skeleton(Arc<SkeletonSnapshot>),
}

/// A borrowed snapshot of any mode.
#[derive(Clone, Copy)]
pub enum View<'a> {
    Flat(&'a SetSnapshot),
    Table(&'a TableSnapshot),
    Skeleton(&'a SkeletonSnapshot),
}

impl Shared {
    pub fn view(&self) -> View<'_> {
        match self {
            Shared::Flat(s) => View::Flat(s),
            Shared::Table(t) => View::Table(t),
            Shared::Skeleton(k) => View::Skeleton(k),
        }
    }
}

impl<'a> View<'a> {
    /// `'flat'`, `'table'` or `'skeleton'`.
    pub fn mode(self) -> &'static str {
        match self {
            View::Flat(_) => "flat",
            View::Table(_) => "table",
            View::Skeleton(_) => "skeleton",
        }
    }

    /// The membership: ids, weights, domains, seed. Never used for lookups,
    /// which differ by mode.
    pub fn members(self) -> &'a SetSnapshot {
        match self {
            View::Flat(s) => s,
            View::Table(t) => t.members(),
            View::Skeleton(k) => k.members(),
        }
    }

    pub fn owner_index(self, key: &[u8]) -> Result<u32> {
        match self {
            View::Flat(s) => s.owner_index(key),
            View::Table(t) => t.owner_index(key),
            View::Skeleton(k) => k.owner_index(key),
        }
    }

    pub fn top_k_into(self, key: &[u8], out: &mut [u32]) -> usize {
        match self {
            View::Flat(s) => s.top_k_into(key, out),
            View::Table(t) => t.top_k_into(key, out),
            View::Skeleton(k) => k.top_k_into(key, out),
        }
    }

    pub fn top_k_distinct_into(self, key: &[u8], out: &mut [u32]) -> usize {
        match self {
            View::Flat(s) => s.top_k_distinct_into(key, out),
            View::Table(t) => t.top_k_distinct_into(key, out),
            View::Skeleton(k) => k.top_k_distinct_into(key, out),
        }
    }

    pub fn owners_into<O: KeyOffset>(self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
        match self {
            View::Flat(s) => s.owners_into(keys, out),
            View::Table(t) => t.owners_into(keys, out),
            View::Skeleton(k) => k.owners_into(keys, out),
        }
    }
}

/// A set whose current snapshot the per-key lookups run on.
pub trait Current {
    /// Runs `f` on the snapshot current now.
    fn with_view<R>(&self, f: impl FnOnce(View<'_>) -> R) -> R;
    /// The snapshot current now, shared.
    fn shared(&self) -> Shared;
}
