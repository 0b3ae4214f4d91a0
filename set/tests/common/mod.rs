//! Shorthands the set tests share: build a set of one mode from ids or
//! `(id, weight)` / `(id, weight, domain)` nodes with default [`Options`].
#![allow(dead_code)]

use longstraw_set::{ModeOptions, Options, Rendezvous, Result, SkeletonOptions, TableOptions};

/// A table-mode set of ids with weight 1.
pub fn table<I: IntoIterator<Item = T>, T: AsRef<[u8]>>(ids: I, options: TableOptions) -> Result<Rendezvous> {
    Rendezvous::with_weights(ids.into_iter().map(|id| (id, 1.0)), Options::default(), options.into())
}

/// A table-mode set of `(id, weight)` nodes.
pub fn table_weighted<I: IntoIterator<Item = (T, f64)>, T: AsRef<[u8]>>(
    nodes: I,
    options: TableOptions,
) -> Result<Rendezvous> {
    Rendezvous::with_weights(nodes, Options::default(), options.into())
}

/// A table-mode set of `(id, weight, domain)` nodes.
pub fn table_domains<I, T, D>(nodes: I, set: Options, options: TableOptions) -> Result<Rendezvous>
where
    I: IntoIterator<Item = (T, f64, Option<D>)>,
    T: AsRef<[u8]>,
    D: AsRef<[u8]>,
{
    Rendezvous::new(nodes, set, options.into())
}

/// A skeleton-mode set of ids with weight 1.
pub fn skeleton<I: IntoIterator<Item = T>, T: AsRef<[u8]>>(ids: I, options: SkeletonOptions) -> Result<Rendezvous> {
    Rendezvous::with_weights(ids.into_iter().map(|id| (id, 1.0)), Options::default(), options.into())
}

/// A flat set of `(id, weight)` nodes.
pub fn flat_weighted<I: IntoIterator<Item = (T, f64)>, T: AsRef<[u8]>>(nodes: I, set: Options) -> Result<Rendezvous> {
    Rendezvous::with_weights(nodes, set, ModeOptions::Flat)
}

/// A table-mode set's current table snapshot.
pub fn table_snapshot(set: &Rendezvous) -> longstraw_set::TableSnapshot {
    set.snapshot().as_table().expect("a table-mode set").clone()
}

/// A skeleton-mode set's current skeleton snapshot.
pub fn skeleton_snapshot(set: &Rendezvous) -> longstraw_set::SkeletonSnapshot {
    set.snapshot().as_skeleton().expect("a skeleton-mode set").clone()
}

/// A set of ids with weight 1, with these options, in this mode.
pub fn keyed<I: IntoIterator<Item = T>, T: AsRef<[u8]>>(
    ids: I,
    set: Options,
    mode: impl Into<ModeOptions>,
) -> Result<Rendezvous> {
    Rendezvous::with_weights(ids.into_iter().map(|id| (id, 1.0)), set, mode.into())
}
