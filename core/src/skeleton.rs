//! Skeleton HRW (SPEC.md §11): O(fan-out * levels + leaf size) lookups.
//!
//! Nodes are the leaves of a virtual tree. A node's group at level `l` is the
//! top `l * fanout_bits` bits of its node hash, so the tree is a pure function
//! of the member set and the seed: no positions, no insertion order. A lookup
//! runs the placement v1 weighted race among the non-empty children of the
//! current group, each weighted by its subtree's total weight, level by level,
//! then the v1 ranking among the nodes of the chosen leaf group.
//!
//! Storage is caller-owned: node hashes sorted ascending, their weights, the
//! map from sorted position to the caller's node index, and the groups that
//! [`build_groups`] writes.
//!
//! This module is the tree. The weighted race each level runs (its bounds,
//! the scalar race and the column race) is the core's `race` module, shared
//! with the SIMD kernels, which race a level over the plain columns that
//! [`write_group_columns`] writes.

use crate::backend::Backend;
use crate::error::Error;
use crate::limits::COLUMN_RACE_MAX;
use crate::node_table::{NodeTable, Shape, TableSummary};
use crate::order::{rank_order, Ranked};
use crate::packed::{KeyOffset, PackedKeys};
use crate::race::scalar::{race_groups, race_tight};
use crate::race::Columns;
use crate::score::mix;

pub use crate::limits::{MAX_FANOUT_BITS, MAX_LEVELS};
#[doc(hidden)]
pub use crate::race::scalar::{race_bounded, race_exact};

/// Added to the seed before hashing a group, so group hashes are unrelated to node hashes.
pub const GROUP_SEED_OFFSET: u64 = 0x5851_F42D_4C95_7F2D;

/// The tree's shape: `levels` levels of groups above the nodes, each group
/// with up to `2^fanout_bits` children. `levels == 0` is flat placement v1.
///
/// Deeper trees look up faster and move more keys on a membership change
/// (BENCHMARKS.md has the measured trade-off).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SkeletonShape {
    fanout_bits: u8,
    levels: u8,
}

impl SkeletonShape {
    /// Flat placement v1 (no groups).
    pub const FLAT: SkeletonShape = SkeletonShape {
        fanout_bits: 0,
        levels: 0,
    };

    /// A shape with fan-out `2^fanout_bits` and `levels` (0 to 5) levels.
    /// `fanout_bits` is 1 to 6, or 0 to 6 when `levels` is 0, where it is
    /// ignored (SPEC.md §11): one range in every language, so that a value
    /// that means nothing is still never a silent typo.
    pub const fn new(fanout_bits: u8, levels: u8) -> Result<SkeletonShape, Error> {
        if levels > MAX_LEVELS || fanout_bits > MAX_FANOUT_BITS || (levels > 0 && fanout_bits == 0) {
            return Err(Error::BadSkeletonShape { fanout_bits, levels });
        }
        let fanout_bits = if levels == 0 { 0 } else { fanout_bits };
        Ok(SkeletonShape { fanout_bits, levels })
    }

    /// The default shape for about `n` nodes: the shallowest tree whose leaf
    /// groups average at most 64 nodes, with fan-out 64 at one level and 16
    /// deeper. Keep the shape fixed for a fleet's lifetime: changing it moves
    /// most keys.
    pub const fn for_nodes(n: usize) -> SkeletonShape {
        if n <= 256 {
            SkeletonShape::FLAT
        } else if n <= 64 * 64 {
            SkeletonShape {
                fanout_bits: 6,
                levels: 1,
            }
        } else if n <= 64 * 256 {
            SkeletonShape {
                fanout_bits: 4,
                levels: 2,
            }
        } else if n <= 64 * 4096 {
            SkeletonShape {
                fanout_bits: 4,
                levels: 3,
            }
        } else {
            SkeletonShape {
                fanout_bits: 4,
                levels: 4,
            }
        }
    }

    /// Bits of the node hash consumed per level.
    pub const fn fanout_bits(self) -> u8 {
        self.fanout_bits
    }
    /// The most children of a group: `2^fanout_bits`.
    pub const fn fanout(self) -> usize {
        1 << self.fanout_bits
    }
    /// Levels of groups above the nodes.
    pub const fn levels(self) -> u8 {
        self.levels
    }

    /// The prefix that names a node's group at `level` (1-based).
    #[inline]
    pub const fn prefix(self, node_hash: u64, level: u8) -> u64 {
        node_hash >> (64 - level as u32 * self.fanout_bits as u32)
    }

    /// An upper bound on the groups of a tree over `n` nodes: `sum(min(n, fanout^l))`.
    pub fn max_groups(self, n: usize) -> usize {
        (1..=self.levels as u32)
            .map(|l| n.min(1usize << (l * self.fanout_bits as u32)))
            .sum()
    }
}

/// The hash of the group at `level` named by `prefix` (SPEC.md §11.2).
#[inline]
pub const fn group_hash(seed: u64, level: u8, prefix: u64) -> u64 {
    mix(mix(((level as u64) << 32) | prefix) ^ seed.wrapping_add(GROUP_SEED_OFFSET))
}

/// One group of the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Group {
    /// [`group_hash`] of the group.
    pub hash: u64,
    /// The sum of its nodes' weights, added in ascending node-hash order.
    pub weight: f64,
    /// `1 / weight` (0 when the weight is 0).
    pub inv_weight: f64,
    /// Its children: groups `start..end` one level down, or, at the last
    /// level, sorted node positions `start..end`.
    pub start: u32,
    /// End of the children range.
    pub end: u32,
    /// Its nodes' eligible count and weight shape.
    pub summary: TableSummary,
}

impl Group {
    /// A placeholder for caller-provided storage.
    pub const EMPTY: Group = Group {
        hash: 0,
        weight: 0.0,
        inv_weight: 0.0,
        start: 0,
        end: 0,
        summary: TableSummary {
            eligible: 0,
            shape: Shape::AllEqual,
        },
    };
}

/// Writes the groups of the tree over nodes whose hashes are sorted strictly
/// ascending, level 1 first, and returns how many were written (at most
/// [`SkeletonShape::max_groups`]).
///
/// `seed` is §11.2's seed: the v1 seed, or keyed-v1's derived group seed
/// ([`crate::Hashing::group_seed`]).
pub fn build_groups(
    seed: u64,
    shape: SkeletonShape,
    hashes: &[u64],
    weights: &[f64],
    groups: &mut [Group],
) -> Result<usize, Error> {
    TableSummary::of(hashes, Some(weights))?;
    if let Some(at) = hashes.windows(2).position(|w| w[0] >= w[1]) {
        return Err(Error::NodesNotSorted { at: at + 1 });
    }
    let levels = shape.levels as usize;
    if levels == 0 {
        return Ok(0);
    }
    let need = shape.max_groups(hashes.len());
    if groups.len() < need {
        return Err(Error::LengthMismatch {
            expected: need,
            actual: groups.len(),
        });
    }
    let mut level_start = [0usize; MAX_LEVELS as usize + 2];
    let mut out = 0;
    for level in 1..=shape.levels {
        level_start[level as usize] = out;
        let mut i = 0;
        while i < hashes.len() {
            let prefix = shape.prefix(hashes[i], level);
            let mut j = i + 1;
            while j < hashes.len() && shape.prefix(hashes[j], level) == prefix {
                j += 1;
            }
            let mut weight = 0.0;
            for &w in &weights[i..j] {
                weight += w;
            }
            groups[out] = Group {
                hash: group_hash(seed, level, prefix),
                weight,
                inv_weight: if weight == 0.0 { 0.0 } else { 1.0 / weight },
                start: i as u32,
                end: j as u32,
                summary: TableSummary::of(&hashes[i..j], Some(&weights[i..j]))?,
            };
            out += 1;
            i = j;
        }
    }
    level_start[levels + 1] = out;
    // Turn node ranges into child-group ranges, top down: level l + 1 still
    // holds node ranges while level l is converted.
    for level in 1..levels {
        let mut child = level_start[level + 1];
        for g in level_start[level]..level_start[level + 1] {
            let end = groups[g].end;
            let first = child;
            while child < level_start[level + 2] && groups[child].start < end {
                child += 1;
            }
            groups[g].start = first as u32;
            groups[g].end = child as u32;
        }
    }
    Ok(out)
}

/// A read-only skeleton over caller-owned storage.
#[derive(Clone, Copy, Debug)]
pub struct Skeleton<'a> {
    nodes: NodeTable<'a>,
    shape: SkeletonShape,
    index: &'a [u32],
    groups: &'a [Group],
    root_end: usize,
    columns: Option<GroupColumns<'a>>,
    links: Option<&'a [GroupLink]>,
    /// The sorted nodes, when they are not `nodes`' and `index`'s slices.
    leaves: Option<&'a dyn LeafSource>,
    /// How many nodes.
    len: usize,
}

/// The sorted nodes `lo..hi` of one leaf group, as contiguous slices.
#[derive(Clone, Copy, Debug)]
pub struct Leaf<'a> {
    /// Their hashes, ascending.
    pub hashes: &'a [u64],
    /// Their weights (`None`: all 1).
    pub weights: Option<&'a [f64]>,
    /// The caller's index of each.
    pub index: &'a [u32],
}

/// Sorted node storage in pieces, each a run of whole leaf groups, so that
/// an owner can share the pieces a change does not touch between versions
/// ([`Skeleton::over_leaves`]). Positions are global: `0..len` across the
/// pieces, in node-hash order, as [`build_groups`] numbers them.
pub trait LeafSource: core::fmt::Debug + Sync {
    /// The nodes at positions `lo..hi`, which lie in one piece (they are
    /// one leaf group, or the whole set when the shape has no levels);
    /// `None` if they do not.
    fn leaf(&self, lo: usize, hi: usize) -> Option<Leaf<'_>>;
}

/// What a lookup reads of a group once a level's race chose it: its
/// children's range and, at the last level, its nodes' summary. 16 bytes,
/// so the links of all 16 children of a fan-out-16 group fill 4 cache lines,
/// which a lookup fetches while the race runs (see [`write_group_links`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct GroupLink {
    /// [`Group::start`].
    pub start: u32,
    /// [`Group::end`].
    pub end: u32,
    /// [`Group::summary`].
    pub summary: TableSummary,
}

impl GroupLink {
    /// A placeholder for caller-provided storage.
    pub const EMPTY: GroupLink = GroupLink::of(&Group::EMPTY);

    /// The link of `group`.
    #[inline]
    pub const fn of(group: &Group) -> GroupLink {
        GroupLink {
            start: group.start,
            end: group.end,
            summary: group.summary,
        }
    }
}

/// Copies every group's children range and summary into `links`
/// (`groups.len()` of them), for [`Skeleton::with_group_links`].
pub fn write_group_links(groups: &[Group], links: &mut [GroupLink]) -> Result<(), Error> {
    if links.len() != groups.len() {
        return Err(Error::LengthMismatch {
            expected: groups.len(),
            actual: links.len(),
        });
    }
    for (g, l) in groups.iter().zip(links.iter_mut()) {
        *l = GroupLink::of(g);
    }
    Ok(())
}

/// Asks the CPU to start loading the cache lines of `items` (at most
/// `MAX_PREFETCH_LINES` of them) without waiting for them: a lookup issues
/// these before the race whose result picks one of them, so the miss
/// overlaps the race instead of following it.
#[inline(always)]
fn prefetch<T>(items: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        const LINE: usize = 64;
        let bytes = core::mem::size_of_val(items).min(MAX_PREFETCH_LINES * LINE);
        let first = items.as_ptr() as usize & !(LINE - 1);
        let end = items.as_ptr() as usize + bytes;
        let mut line = first;
        while line < end {
            // SAFETY: a prefetch is a hint that never faults and reads nothing
            // into the program's state, whatever the address; SSE (which
            // `_mm_prefetch` needs) is part of the x86_64 baseline.
            unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(line as *const i8) };
            line += LINE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = items;
}

/// The most cache lines one [`prefetch`] asks for (a leaf group of many
/// nodes is read by its race in order anyway; the first lines matter).
/// Only x86_64 prefetches (other targets compile [`prefetch`] to nothing).
#[cfg(target_arch = "x86_64")]
const MAX_PREFETCH_LINES: usize = 16;

/// The groups' hashes and `1 / weight`s as two flat arrays in group order
/// (see [`write_group_columns`]), so that one level's race is a SIMD kernel
/// over contiguous lanes instead of a walk over [`Group`] records.
#[derive(Clone, Copy, Debug)]
pub struct GroupColumns<'a> {
    hashes: &'a [u64],
    inv_weights: &'a [f64],
}

/// Copies every group's hash and `inv_weight` into two flat arrays of
/// `groups.len()` values each, for [`Skeleton::with_group_columns`].
pub fn write_group_columns(groups: &[Group], hashes: &mut [u64], inv_weights: &mut [f64]) -> Result<(), Error> {
    for len in [hashes.len(), inv_weights.len()] {
        if len != groups.len() {
            return Err(Error::LengthMismatch {
                expected: groups.len(),
                actual: len,
            });
        }
    }
    for ((g, h), inv) in groups.iter().zip(hashes.iter_mut()).zip(inv_weights.iter_mut()) {
        *h = g.hash;
        *inv = g.inv_weight;
    }
    Ok(())
}

impl<'a> Skeleton<'a> {
    /// A view. `nodes` holds the hashes sorted ascending and their weights;
    /// `index[i]` is the caller's index of sorted node `i`; `groups` is what
    /// [`build_groups`] wrote for them. Mismatched parts are not unsafe, but
    /// placements are then unspecified.
    #[inline]
    pub fn new(
        nodes: NodeTable<'a>,
        shape: SkeletonShape,
        index: &'a [u32],
        groups: &'a [Group],
    ) -> Result<Self, Error> {
        let n = nodes.hashes().len();
        if index.len() != n {
            return Err(Error::LengthMismatch {
                expected: n,
                actual: index.len(),
            });
        }
        let root_end = match (shape.levels, groups.first()) {
            (0, _) | (_, None) => groups.len(),
            (1, Some(_)) => groups.len(),
            (_, Some(first)) => (first.start as usize).min(groups.len()),
        };
        if shape.levels > 0 && n > 0 && groups.is_empty() {
            return Err(Error::LengthMismatch {
                expected: shape.max_groups(n),
                actual: 0,
            });
        }
        Ok(Skeleton {
            nodes,
            shape,
            index,
            groups,
            root_end,
            columns: None,
            links: None,
            leaves: None,
            len: n,
        })
    }

    /// A view over `len` sorted nodes stored in pieces: `leaves` gives
    /// each leaf group's nodes as slices. `nodes` carries the hashing, the
    /// backend and the summary of all `len` nodes (its own node slices are
    /// not read); `groups` is what [`build_groups`] wrote for them.
    #[inline]
    pub fn over_leaves(
        nodes: NodeTable<'a>,
        len: usize,
        shape: SkeletonShape,
        leaves: &'a dyn LeafSource,
        groups: &'a [Group],
    ) -> Result<Self, Error> {
        let meta = NodeTable::from_summary(0, &[], None, nodes.summary())
            .with_hashing(nodes.hashing())
            .with_backend(nodes.backend());
        let view = Skeleton::new(meta, shape, &[], groups)?;
        if shape.levels > 0 && len > 0 && groups.is_empty() {
            return Err(Error::LengthMismatch {
                expected: shape.max_groups(len),
                actual: 0,
            });
        }
        Ok(Skeleton {
            leaves: Some(leaves),
            len,
            ..view
        })
    }

    /// The nodes at sorted positions `lo..hi` (one leaf group).
    #[inline]
    fn leaf_at(&self, lo: usize, hi: usize) -> Option<Leaf<'a>> {
        match self.leaves {
            Some(leaves) => leaves.leaf(lo, hi),
            None => Some(Leaf {
                hashes: self.nodes.hashes().get(lo..hi)?,
                weights: match self.nodes.weights() {
                    Some(w) => Some(w.get(lo..hi)?),
                    None => None,
                },
                index: self.index.get(lo..hi)?,
            }),
        }
    }

    /// The same view, reading each chosen group's children range and
    /// summary from `links` as [`write_group_links`] wrote them for this
    /// view's groups (16 bytes each, fetched while a level's race runs)
    /// instead of from the group's record. Results are identical with or
    /// without them; they are used together with the group columns.
    #[inline]
    pub fn with_group_links(self, links: &'a [GroupLink]) -> Result<Self, Error> {
        if links.len() != self.groups.len() {
            return Err(Error::LengthMismatch {
                expected: self.groups.len(),
                actual: links.len(),
            });
        }
        Ok(Skeleton {
            links: Some(links),
            ..self
        })
    }

    /// The same view, racing each level on its backend's SIMD kernel over
    /// `hashes` and `inv_weights` as [`write_group_columns`] wrote them for
    /// this view's groups. Results are identical with or without them.
    #[inline]
    pub fn with_group_columns(self, hashes: &'a [u64], inv_weights: &'a [f64]) -> Result<Self, Error> {
        for len in [hashes.len(), inv_weights.len()] {
            if len != self.groups.len() {
                return Err(Error::LengthMismatch {
                    expected: self.groups.len(),
                    actual: len,
                });
            }
        }
        Ok(Skeleton {
            columns: Some(GroupColumns { hashes, inv_weights }),
            ..self
        })
    }

    /// The shape.
    pub fn shape(&self) -> SkeletonShape {
        self.shape
    }
    /// The nodes in sorted order.
    pub fn nodes(&self) -> NodeTable<'a> {
        self.nodes
    }
    /// The groups.
    pub fn groups(&self) -> &'a [Group] {
        self.groups
    }
    /// The backend running the leaf level.
    pub fn with_backend(self, backend: Backend) -> Self {
        Skeleton {
            nodes: self.nodes.with_backend(backend),
            ..self
        }
    }

    /// The owner of a key.
    #[inline]
    pub fn owner(&self, key: &[u8]) -> Result<u32, Error> {
        self.owner_of_hash(self.nodes.key_hash(key))
            .ok_or(Error::NoEligibleNodes)
    }

    /// The owner of a key hash, or `None` when no node is eligible.
    pub fn owner_of_hash(&self, key_hash: u64) -> Option<u32> {
        if self.nodes.eligible() == 0 {
            return None;
        }
        if let (Some(cols), Some(links)) = (self.columns, self.links) {
            return self.owner_linked(key_hash, cols, links);
        }
        let (mut lo, mut hi) = (0usize, self.root_end);
        let mut summary = self.nodes.summary();
        let mut leaf = (0usize, self.len);
        for level in 1..=self.shape.levels {
            let gs = self.groups.get(lo..hi)?;
            let c = match self.columns {
                Some(cols) => {
                    let columns = Columns {
                        hashes: cols.hashes.get(lo..hi)?,
                        inv_weights: cols.inv_weights.get(lo..hi)?,
                    };
                    level_race(self.nodes.backend(), key_hash, columns, gs)?
                }
                None => race_groups(key_hash, gs.len(), |i| (gs[i].hash, gs[i].weight, gs[i].inv_weight))?,
            };
            let g = &gs[c];
            (lo, hi) = (g.start as usize, g.end as usize);
            if level == self.shape.levels {
                leaf = (lo, hi);
                summary = g.summary;
            }
        }
        self.leaf_owner(key_hash, leaf.0, leaf.1, summary)
    }

    /// [`Skeleton::owner_of_hash`] over the group columns and links: per
    /// level, the links of every child are fetched while the children race,
    /// and at the leaf, the caller indices while the nodes race, so that each
    /// level costs one round of cache misses instead of two.
    #[inline]
    fn owner_linked(&self, key_hash: u64, cols: GroupColumns<'a>, links: &'a [GroupLink]) -> Option<u32> {
        let (mut lo, mut hi) = (0usize, self.root_end);
        let mut summary = self.nodes.summary();
        for _ in 0..self.shape.levels {
            let children = links.get(lo..hi)?;
            prefetch(children);
            let columns = Columns {
                hashes: cols.hashes.get(lo..hi)?,
                inv_weights: cols.inv_weights.get(lo..hi)?,
            };
            let c = match self.nodes.backend().group_race(key_hash, columns) {
                Some(c) => c,
                None => level_fallback(key_hash, self.groups.get(lo..hi)?)?,
            };
            let link = children.get(c)?;
            (lo, hi, summary) = (link.start as usize, link.end as usize, link.summary);
        }
        if self.shape.levels == 0 {
            (lo, hi) = (0, self.len);
        }
        self.leaf_owner(key_hash, lo, hi, summary)
    }

    /// The race winner among groups `lo..hi` (one level's children), as
    /// [`Skeleton::owner_of_hash`] runs it; `None` when none has weight.
    #[inline]
    fn race_children(&self, key_hash: u64, lo: usize, hi: usize) -> Option<usize> {
        let gs = self.groups.get(lo..hi)?;
        match self.columns {
            Some(cols) => {
                let columns = Columns {
                    hashes: cols.hashes.get(lo..hi)?,
                    inv_weights: cols.inv_weights.get(lo..hi)?,
                };
                level_race(self.nodes.backend(), key_hash, columns, gs)
            }
            None => race_groups(key_hash, gs.len(), |i| (gs[i].hash, gs[i].weight, gs[i].inv_weight)),
        }
    }

    /// The v1 race over one leaf's nodes.
    #[inline]
    fn leaf_race(&self, nodes: Leaf<'a>, summary: TableSummary) -> NodeTable<'a> {
        NodeTable::from_summary(0, nodes.hashes, nodes.weights, summary)
            .with_hashing(self.nodes.hashing())
            .with_backend(self.nodes.backend())
    }

    /// The caller's index of the owner among sorted nodes `lo..hi` (one
    /// leaf group): every shape, weighted too, on the table's dispatched
    /// kernel; the caller indices are fetched while it runs.
    #[inline]
    fn leaf_owner(&self, key_hash: u64, lo: usize, hi: usize, summary: TableSummary) -> Option<u32> {
        let nodes = self.leaf_at(lo, hi)?;
        prefetch(nodes.index);
        let i = self.leaf_race(nodes, summary).owner_of_hash(key_hash)?;
        nodes.index.get(i as usize).copied()
    }

    /// Writes the first `out.len()` nodes of the key's skeleton ranking (SPEC.md
    /// §11.4: children in race order, depth first) and returns how many.
    /// `out[i].index` is the caller's node index; the other fields are the
    /// node's standing in its leaf group.
    pub fn top_k(&self, key: &[u8], out: &mut [Ranked]) -> usize {
        self.top_k_of_hash(self.nodes.key_hash(key), out)
    }

    /// [`Skeleton::top_k`] for a key hash.
    pub fn top_k_of_hash(&self, key_hash: u64, out: &mut [Ranked]) -> usize {
        if self.nodes.eligible() == 0 {
            return 0;
        }
        let n = self.len;
        self.fill(key_hash, 0, (0, self.root_end), (0, n), self.nodes.summary(), out)
    }

    /// The first `out.len()` nodes of the skeleton ranking that are each the
    /// first of their failure domain (CRUSH `firstn`, SPEC.md §12).
    /// `domains` is indexed by the caller's node index.
    pub fn top_k_distinct_of_hash(&self, key_hash: u64, domains: &[u32], out: &mut [Ranked]) -> Result<usize, Error> {
        let n = self.len;
        if domains.len() != n {
            return Err(Error::LengthMismatch {
                expected: n,
                actual: domains.len(),
            });
        }
        if self.nodes.eligible() == 0 {
            return Ok(0);
        }
        let mut filled = 0;
        self.fill_from(
            key_hash,
            0,
            (0, self.root_end),
            (0, n),
            self.nodes.summary(),
            out,
            &mut filled,
            Some(domains),
        );
        Ok(filled)
    }

    #[allow(clippy::too_many_arguments)]
    fn fill_from(
        &self,
        key_hash: u64,
        level: u8,
        children: (usize, usize),
        leaf: (usize, usize),
        summary: TableSummary,
        out: &mut [Ranked],
        filled: &mut usize,
        domains: Option<&[u32]>,
    ) {
        if *filled == out.len() {
            return;
        }
        if level == self.shape.levels {
            let Some(domains) = domains else {
                *filled += self.fill(key_hash, level, children, leaf, summary, &mut out[*filled..]);
                return;
            };
            // Firstn within the leaf, skipping domains taken by earlier leaves.
            let (taken, rest) = out.split_at_mut(*filled);
            let domain_of = |i: u32| domains.get(i as usize).copied().unwrap_or(u32::MAX);
            let mut len = 0;
            let Some(nodes) = self.leaf_at(leaf.0, leaf.1) else {
                return;
            };
            for (j, (&h, &i)) in nodes.hashes.iter().zip(nodes.index).enumerate() {
                let w = nodes.weights.map_or(1.0, |w| w.get(j).copied().unwrap_or(0.0));
                if w == 0.0 || taken.iter().any(|r| domain_of(r.index) == domain_of(i)) {
                    continue;
                }
                len = crate::domains::insert_distinct(rest, len, Ranked::weighted(key_hash, h, w, i), domain_of);
            }
            *filled += len;
            return;
        }
        let Some(gs) = self.groups.get(children.0..children.1) else {
            return;
        };
        let mut ranks = [Ranked::EMPTY; 1 << MAX_FANOUT_BITS];
        let m = rank_groups(key_hash, gs, &mut ranks);
        for r in &ranks[..m] {
            let g = &gs[r.index as usize];
            let range = (g.start as usize, g.end as usize);
            self.fill_from(key_hash, level + 1, range, range, g.summary, out, filled, domains);
            if *filled == out.len() {
                break;
            }
        }
    }

    fn fill(
        &self,
        key_hash: u64,
        level: u8,
        children: (usize, usize),
        leaf: (usize, usize),
        summary: TableSummary,
        out: &mut [Ranked],
    ) -> usize {
        if out.is_empty() {
            return 0;
        }
        if level == self.shape.levels {
            let Some(nodes) = self.leaf_at(leaf.0, leaf.1) else {
                return 0;
            };
            prefetch(nodes.index);
            let n = self.leaf_race(nodes, summary).top_k_of_hash(key_hash, out);
            for r in &mut out[..n] {
                r.index = nodes.index.get(r.index as usize).copied().unwrap_or(u32::MAX);
            }
            return n;
        }
        let Some(gs) = self.groups.get(children.0..children.1) else {
            return 0;
        };
        // The race winner is the first child in race order (§11.3), and most
        // requests fill from its subtree alone: descend into it first, as
        // `owner` does, and rank every child only when it falls short.
        let links = self.links.and_then(|l| l.get(children.0..children.1));
        if let Some(links) = links {
            prefetch(links);
        }
        let first = self.race_children(key_hash, children.0, children.1);
        let mut n = 0;
        let link = first.and_then(|c| match links {
            Some(links) => links.get(c).copied(),
            None => gs.get(c).map(GroupLink::of),
        });
        if let Some(link) = link {
            let range = (link.start as usize, link.end as usize);
            n = self.fill(key_hash, level + 1, range, range, link.summary, out);
            if n == out.len() {
                return n;
            }
        }
        let mut ranks = [Ranked::EMPTY; 1 << MAX_FANOUT_BITS];
        let m = rank_groups(key_hash, gs, &mut ranks);
        let skip = match first {
            Some(c) if m > 0 && ranks[0].index as usize == c => 1,
            // The race and the ranking disagree (they must not): rank from scratch.
            _ => {
                n = 0;
                0
            }
        };
        for r in &ranks[skip..m] {
            let g = &gs[r.index as usize];
            let range = (g.start as usize, g.end as usize);
            n += self.fill(key_hash, level + 1, range, range, g.summary, &mut out[n..]);
            if n == out.len() {
                break;
            }
        }
        n
    }

    /// The owner of each key of a packed batch.
    pub fn owners<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<(), Error> {
        if out.len() != keys.len() {
            return Err(Error::LengthMismatch {
                expected: keys.len(),
                actual: out.len(),
            });
        }
        let hashing = self.nodes.hashing();
        for (slot, key) in out.iter_mut().zip(keys.iter()) {
            *slot = self
                .owner_of_hash(hashing.key_hash(key))
                .ok_or(Error::NoEligibleNodes)?;
        }
        Ok(())
    }
}

/// One level's race over `columns` (the columns of `gs`) as a lookup runs
/// it: the backend's column kernel, then, where its bounds cannot decide,
/// the exact race.
#[inline(always)]
fn level_race(backend: Backend, key_hash: u64, columns: Columns<'_>, gs: &[Group]) -> Option<usize> {
    match backend.group_race(key_hash, columns) {
        Some(c) => Some(c),
        None => level_fallback(key_hash, gs),
    }
}

/// [`level_race`] where the backend's kernel could not decide (near-ties:
/// about one level race in 500 at fan-out 16).
#[cold]
#[inline(never)]
fn level_fallback(key_hash: u64, gs: &[Group]) -> Option<usize> {
    race_tight(key_hash, gs.len(), |i| (gs[i].hash, gs[i].weight, gs[i].inv_weight))
}

/// The non-empty groups among `gs`, in race order; `index` is the position in `gs`.
fn rank_groups(key_hash: u64, gs: &[Group], ranks: &mut [Ranked]) -> usize {
    let mut m = 0;
    for (i, g) in gs.iter().enumerate().take(ranks.len()) {
        if g.weight != 0.0 {
            ranks[m] = Ranked::weighted(key_hash, g.hash, g.weight, i as u32);
            m += 1;
        }
    }
    ranks[..m].sort_unstable_by(rank_order);
    m
}

/// One level's race as [`Skeleton::owner_of_hash`] runs it over group
/// columns on `backend` (the column kernel, then the exact race where it
/// cannot decide), for tests against [`race_exact`].
#[doc(hidden)]
pub fn race_columns_on(backend: Backend, key_hash: u64, hashes: &[u64], weights: &[f64]) -> Option<usize> {
    let mut inv = [0.0; COLUMN_RACE_MAX];
    let inv = inv.get_mut(..weights.len())?;
    for (i, &w) in inv.iter_mut().zip(weights) {
        *i = if w == 0.0 { 0.0 } else { 1.0 / w };
    }
    let columns = Columns {
        hashes,
        inv_weights: inv,
    };
    backend
        .group_race(key_hash, columns)
        .or_else(|| race_tight(key_hash, hashes.len(), |i| (hashes[i], weights[i], inv[i])))
}
