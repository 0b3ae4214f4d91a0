//! The owned skeleton: O(fan-out * levels + leaf size) lookups for the
//! largest fleets, lock-free readers (SPEC.md §11).

use longstraw::skeleton::MAX_LEVELS;
use longstraw::skeleton::{build_groups, write_group_columns, write_group_links, GroupLink};
use longstraw::{Group, KeyOffset, NodeTable, PackedKeys, Ranked, SkeletonShape, TableSummary};

use crate::change::{apply, Change};
use crate::column::Column;
use crate::error::Result;
use crate::members::{Members, Node};

mod nodes;
mod patch;

use nodes::SortedNodes;

/// Small top-k requests are ranked in a stack buffer; larger ones allocate.
const STACK_RANKS: usize = 32;

/// How a skeleton-mode set is shaped. The shape is fixed for its lifetime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkeletonOptions {
    /// Fan-out and levels; `None` picks [`SkeletonShape::for_nodes`] of the
    /// initial node count. Deeper trees are faster and move more keys on a
    /// change (BENCHMARKS.md has the trade-off).
    pub shape: Option<SkeletonShape>,
}

/// One immutable membership with its tree: a skeleton-mode
/// [`crate::Snapshot`]'s mode-specific part ([`crate::Snapshot::as_skeleton`]).
///
/// Skeleton (hierarchical) HRW: O(fan-out * levels + leaf size) lookups for
/// the largest fleets. Its placement differs from flat HRW's (unless the
/// shape has 0 levels).
#[derive(Clone, Debug)]
pub struct SkeletonSnapshot {
    members: Members,
    shape: SkeletonShape,
    /// Node hashes, ascending; weights and caller indices in the same order,
    /// in chunks of whole leaf groups that the next snapshot shares until a
    /// change touches them.
    nodes: SortedNodes,
    groups: Column<Group>,
    /// Each group's hash prefix, and where each level's groups start
    /// (`level_starts[l]`, level 1 at 0, one past the last level at the
    /// end): what a change needs to find the groups on a node's path.
    group_prefixes: Column<u64>,
    level_starts: [usize; MAX_LEVELS as usize + 2],
    /// The groups' hashes and `1 / weight`s, flat, for the SIMD level race.
    group_hashes: Column<u64>,
    group_inv_weights: Column<f64>,
    /// Each group's children range and summary, 16 bytes, for the lookup.
    group_links: Column<GroupLink>,
    sorted_summary: TableSummary,
}

impl SkeletonSnapshot {
    /// A skeleton over `members`, its tree built from scratch.
    pub(crate) fn build(members: Members, options: SkeletonOptions) -> Result<SkeletonSnapshot> {
        let shape = options.shape.unwrap_or_else(|| SkeletonShape::for_nodes(members.len()));
        let mut snap = SkeletonSnapshot {
            members,
            shape,
            nodes: SortedNodes::default(),
            groups: Column::new(),
            group_prefixes: Column::new(),
            level_starts: [0; MAX_LEVELS as usize + 2],
            group_hashes: Column::new(),
            group_inv_weights: Column::new(),
            group_links: Column::new(),
            sorted_summary: TableSummary {
                eligible: 0,
                shape: longstraw::Shape::AllEqual,
            },
        };
        snap.rebuild()?;
        Ok(snap)
    }

    /// `self` with one change, patched along the changed node's path.
    pub(crate) fn changed(&self, change: Change<'_>) -> Result<SkeletonSnapshot> {
        let mut next = self.try_clone()?;
        let removed_hash = match change {
            Change::Remove { id } => next.members.index_of(id).map(|i| next.members.hashes()[i as usize]),
            _ => None,
        };
        // `apply` seals the members; only the generation is left to set.
        let applied = apply(&mut next.members, change)?;
        next.members.set_generation(self.members.generation() + 1);
        if !next.patch(applied, removed_hash)? {
            debug_assert!(false, "the tree disagreed with its members");
            next.rebuild()?;
        }
        // The summary does not depend on the order of the weights.
        next.sorted_summary = next.members.summary();
        Ok(next)
    }

    /// `self` with several membership changes (made by `f` on the members),
    /// then the tree built from scratch once.
    pub(crate) fn updated(&self, f: impl FnOnce(&mut Members) -> Result<()>) -> Result<SkeletonSnapshot> {
        let mut next = self.try_clone()?;
        f(&mut next.members)?;
        next.members.seal(self.members.generation() + 1)?;
        next.rebuild()?;
        Ok(next)
    }
}

impl SkeletonSnapshot {
    /// Sorts the nodes by hash and rebuilds the groups: O(n log n).
    fn rebuild(&mut self) -> Result<()> {
        let hashes = self.members.hashes();
        let weights = self.members.weights();
        let mut order: Vec<u32> = (0..hashes.len() as u32).collect();
        order.sort_unstable_by_key(|&i| hashes[i as usize]);
        let sorted_hashes: Vec<u64> = order.iter().map(|&i| hashes[i as usize]).collect();
        let sorted_weights: Vec<f64> = order.iter().map(|&i| weights[i as usize]).collect();
        let mut groups = vec![Group::EMPTY; self.shape.max_groups(hashes.len())];
        let used = build_groups(
            self.members.hashing().group_seed(),
            self.shape,
            &sorted_hashes,
            &sorted_weights,
            &mut groups,
        )?;
        groups.truncate(used);
        groups.shrink_to_fit();
        let mut group_hashes = vec![0; used];
        let mut group_inv_weights = vec![0.0; used];
        write_group_columns(&groups, &mut group_hashes, &mut group_inv_weights)?;
        let mut group_links = vec![GroupLink::EMPTY; used];
        write_group_links(&groups, &mut group_links)?;
        self.group_links = Column::from_vec(group_links);
        self.groups = Column::from_vec(groups);
        self.group_hashes = Column::from_vec(group_hashes);
        self.group_inv_weights = Column::from_vec(group_inv_weights);
        self.sorted_summary = TableSummary::of(&sorted_hashes, Some(&sorted_weights))?;
        self.index_groups(&sorted_hashes);
        self.nodes = SortedNodes::of(self.shape, &sorted_hashes, &sorted_weights, &order)?;
        debug_assert_eq!(self.group_prefixes.len(), used);
        Ok(())
    }

    /// Fills `group_prefixes` and `level_starts` for the groups `build_groups`
    /// wrote: level by level, one group per distinct prefix, ascending.
    fn index_groups(&mut self, sorted_hashes: &[u64]) {
        let mut prefixes = Vec::with_capacity(self.groups.len());
        self.level_starts = [0; MAX_LEVELS as usize + 2];
        let levels = self.shape.levels();
        for level in 1..=levels {
            self.level_starts[level as usize] = prefixes.len();
            let mut last = None;
            for &h in sorted_hashes {
                let prefix = self.shape.prefix(h, level);
                if last != Some(prefix) {
                    prefixes.push(prefix);
                    last = Some(prefix);
                }
            }
        }
        self.level_starts[levels as usize + 1] = prefixes.len();
        self.group_prefixes = Column::from_vec(prefixes);
    }

    /// A private copy to change: it shares every array with `self` until a
    /// change copies (fallibly) the ones it touches.
    fn try_clone(&self) -> Result<SkeletonSnapshot> {
        Ok(SkeletonSnapshot {
            members: self.members.try_clone()?,
            ..self.clone()
        })
    }

    /// The core's view.
    #[inline]
    pub fn view(&self) -> longstraw::Skeleton<'_> {
        // Validated once per snapshot: a lookup must not scan the weights.
        let nodes = NodeTable::from_summary(0, &[], None, self.sorted_summary)
            .with_hashing(self.members.hashing())
            .with_backend(self.members.backend());
        longstraw::Skeleton::over_leaves(nodes, self.nodes.len(), self.shape, &self.nodes, &self.groups)
            .and_then(|s| s.with_group_columns(&self.group_hashes, &self.group_inv_weights))
            .and_then(|s| s.with_group_links(&self.group_links))
            .expect("built together")
    }

    crate::delegate::delegate_membership!();

    /// The membership (ids, weights, domains, flat lookups).
    pub fn members(&self) -> &Members {
        &self.members
    }
    /// The tree's shape.
    pub fn shape(&self) -> SkeletonShape {
        self.shape
    }
    /// Bytes held by the tree (sorted copies and groups), beyond the membership.
    pub fn tree_bytes(&self) -> usize {
        self.nodes.len() * 20
            + self.groups.len() * std::mem::size_of::<Group>()
            + self.group_hashes.len() * 8
            + self.group_inv_weights.len() * 8
            + self.group_links.len() * std::mem::size_of::<GroupLink>()
    }

    // ---- the membership, as on [`Members`] ----

    // ---- lookups ----

    /// The owner of `key`.
    #[inline]
    pub fn owner(&self, key: &[u8]) -> Result<Node<'_>> {
        let i = self.owner_index(key)?;
        Ok(self.members.node(i).expect("the tree holds indices of this snapshot"))
    }
    /// The owner's index.
    #[inline]
    pub fn owner_index(&self, key: &[u8]) -> Result<u32> {
        Ok(self.view().owner(key)?)
    }
    /// The first `out.len()` nodes of the key's skeleton ranking (children in
    /// race order, depth first); returns how many.
    pub fn top_k_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        let k = out.len().min(self.members.eligible());
        if k <= STACK_RANKS {
            let mut ranks = [Ranked::EMPTY; STACK_RANKS];
            self.fill_indices(key, &mut ranks[..k], out)
        } else {
            self.fill_indices(key, &mut vec![Ranked::EMPTY; k], out)
        }
    }

    fn fill_indices(&self, key: &[u8], ranks: &mut [Ranked], out: &mut [u32]) -> usize {
        let n = self.view().top_k(key, ranks);
        for (o, r) in out.iter_mut().zip(&ranks[..n]) {
            *o = r.index;
        }
        n
    }
    /// [`SkeletonSnapshot::top_k_into`] as nodes.
    pub fn top_k(&self, key: &[u8], k: usize) -> Vec<Node<'_>> {
        let mut idx = vec![0u32; k.min(self.members.eligible())];
        let n = self.top_k_into(key, &mut idx);
        self.members.nodes_of(&idx[..n])
    }
    /// The key's full skeleton ranking.
    pub fn rank(&self, key: &[u8]) -> Vec<Node<'_>> {
        self.top_k(key, self.members.eligible())
    }
    /// At most one node per failure domain, `firstn` over the skeleton ranking.
    pub fn top_k_distinct_into(&self, key: &[u8], out: &mut [u32]) -> usize {
        let Some(domains) = self.members.domain_ids() else {
            return self.top_k_into(key, out);
        };
        let mut ranks = vec![Ranked::EMPTY; out.len().min(self.members.eligible())];
        let kh = self.members.hashing().key_hash(key);
        let n = self.view().top_k_distinct_of_hash(kh, domains, &mut ranks).unwrap_or(0);
        for (o, r) in out.iter_mut().zip(&ranks[..n]) {
            *o = r.index;
        }
        n
    }
    /// [`SkeletonSnapshot::top_k_distinct_into`] as nodes.
    pub fn top_k_distinct(&self, key: &[u8], k: usize) -> Vec<Node<'_>> {
        let mut idx = vec![0u32; k.min(self.members.eligible())];
        let n = self.top_k_distinct_into(key, &mut idx);
        self.members.nodes_of(&idx[..n])
    }
    /// The owner index of each key of a packed batch.
    pub fn owners_into<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<()> {
        Ok(self.view().owners(keys, out)?)
    }
    /// The owner index of each key.
    pub fn owners<K: AsRef<[u8]>>(&self, keys: impl IntoIterator<Item = K>) -> Result<Vec<u32>> {
        let view = self.view();
        keys.into_iter().map(|k| Ok(view.owner(k.as_ref())?)).collect()
    }
}
