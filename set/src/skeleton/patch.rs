//! One membership change patched into a skeleton's tree, instead of sorting
//! the nodes and building every group again.
//!
//! The tree is a pure function of the sorted node hashes and their weights
//! (SPEC.md §11), so a change of one node touches only the groups on its
//! path: the group of its hash prefix at each level. Those are recomputed
//! exactly as `build_groups` computes them (weights summed over the group's
//! nodes in ascending hash order), so the patched tree equals a fresh build
//! bit for bit; the tests below check that after random change sequences.

use longstraw::skeleton::{group_hash, GroupLink};
use longstraw::{Group, TableSummary};

use super::SkeletonSnapshot;
use crate::change::Applied;
use crate::error::Result;

/// How a change moved the sorted node positions at or after `at`.
#[derive(Clone, Copy, Debug)]
enum Shift {
    Inserted { at: usize },
    Removed { at: usize },
    None,
}

impl SkeletonSnapshot {
    /// Patches the sorted arrays and the tree after `applied` changed the
    /// members; `removed_hash` is a removed node's hash. `Ok(false)` when the
    /// tree does not hold what the members say it should (a bug): the
    /// caller then builds it from scratch rather than publish a wrong tree.
    pub(super) fn patch(&mut self, applied: Applied, removed_hash: Option<u64>) -> Result<bool> {
        let (hash, shift) = match applied {
            Applied::Relabelled => return Ok(true),
            Applied::Added { index } => {
                let i = index as usize;
                let (hash, weight) = (self.members.hashes()[i], self.members.weights()[i]);
                let at = self.nodes.partition_point(|h| h < hash);
                let group = match self.shape.levels() {
                    0 => (0, self.nodes.len()),
                    levels => self.node_range(hash, levels),
                };
                let shape = self.shape;
                self.nodes.insert(shape, at, group, (hash, weight, index))?;
                (hash, Shift::Inserted { at })
            }
            Applied::Removed { index } => {
                let Some((hash, at)) = removed_hash.and_then(|h| Some((h, self.sorted_position(h)?))) else {
                    return Ok(false);
                };
                self.nodes.remove(at, index)?;
                (hash, Shift::Removed { at })
            }
            Applied::Reweighted { index, .. } => {
                let i = index as usize;
                let hash = self.members.hashes()[i];
                let Some(at) = self.sorted_position(hash) else {
                    return Ok(false);
                };
                self.nodes.set_weight(at, self.members.weights()[i])?;
                (hash, Shift::None)
            }
        };
        self.patch_path(hash, shift)?;
        Ok(true)
    }

    fn sorted_position(&self, hash: u64) -> Option<usize> {
        self.nodes.position(hash)
    }

    /// The sorted positions of the nodes in the group of `hash` at `level`.
    fn node_range(&self, hash: u64, level: u8) -> (usize, usize) {
        let (shape, prefix) = (self.shape, self.shape.prefix(hash, level));
        let lo = self.nodes.partition_point(|h| shape.prefix(h, level) < prefix);
        let hi = self.nodes.partition_point(|h| shape.prefix(h, level) <= prefix);
        (lo, hi)
    }

    /// Recomputes the group of `hash` at every level, adding or dropping
    /// groups that appear or empty, then re-links the child ranges.
    fn patch_path(&mut self, hash: u64, shift: Shift) -> Result<()> {
        let levels = self.shape.levels();
        if levels == 0 {
            return Ok(());
        }
        let leaf_level = levels as usize;
        let own_leaf_prefix = self.shape.prefix(hash, levels);
        // Leaf groups hold node positions: the ones after the change shift.
        let (at, delta): (usize, i64) = match shift {
            Shift::Inserted { at } => (at, 1),
            Shift::Removed { at } => (at, -1),
            Shift::None => (0, 0),
        };
        if delta != 0 {
            let (lo, hi) = (self.level_starts[leaf_level], self.level_starts[leaf_level + 1]);
            let links = &mut self.group_links.edit()?[lo..hi];
            let leaves = self.groups.edit()?[lo..hi]
                .iter_mut()
                .zip(links)
                .zip(&self.group_prefixes[lo..hi]);
            for ((group, link), &prefix) in leaves {
                if prefix != own_leaf_prefix && group.start as usize >= at {
                    group.start = (group.start as i64 + delta) as u32;
                    group.end = (group.end as i64 + delta) as u32;
                    (link.start, link.end) = (group.start, group.end);
                }
            }
        }
        let mut relink = false;
        for level in 1..=levels {
            relink |= self.patch_group(hash, level)?;
        }
        if relink {
            self.relink_children()?;
        }
        Ok(())
    }

    /// Recomputes the group of `hash` at `level`; true when a group was
    /// added or dropped (the child ranges then need re-linking).
    fn patch_group(&mut self, hash: u64, level: u8) -> Result<bool> {
        let (l, last_level) = (level as usize, self.shape.levels() as usize);
        let prefix = self.shape.prefix(hash, level);
        let (lo, hi) = self.node_range(hash, level);
        let (first, last) = (self.level_starts[l], self.level_starts[l + 1]);
        let found = self.group_prefixes[first..last].binary_search(&prefix);
        match (found, lo < hi) {
            (Ok(j), true) => {
                let g = first + j;
                let (start, end) = (self.groups[g].start, self.groups[g].end);
                let mut group = self.group_over(level, prefix, lo, hi)?;
                if l < last_level {
                    (group.start, group.end) = (start, end);
                }
                self.group_inv_weights.edit()?[g] = group.inv_weight;
                self.group_links.edit()?[g] = GroupLink::of(&group);
                self.groups.edit()?[g] = group;
                Ok(false)
            }
            (Ok(j), false) => {
                let g = first + j;
                self.groups.remove(g)?;
                self.group_prefixes.remove(g)?;
                self.group_hashes.remove(g)?;
                self.group_inv_weights.remove(g)?;
                self.group_links.remove(g)?;
                for s in &mut self.level_starts[l + 1..=last_level + 1] {
                    *s -= 1;
                }
                Ok(true)
            }
            (Err(j), true) => {
                let g = first + j;
                let group = self.group_over(level, prefix, lo, hi)?;
                self.groups.insert(g, group)?;
                self.group_prefixes.insert(g, prefix)?;
                self.group_hashes.insert(g, group.hash)?;
                self.group_inv_weights.insert(g, group.inv_weight)?;
                self.group_links.insert(g, GroupLink::of(&group))?;
                for s in &mut self.level_starts[l + 1..=last_level + 1] {
                    *s += 1;
                }
                Ok(true)
            }
            (Err(_), false) => Ok(false),
        }
    }

    /// The group named `prefix` at `level` over sorted nodes `lo..hi`, as
    /// `build_groups` computes it (children: the node range; an upper
    /// level's caller replaces them with its child-group range).
    fn group_over(&self, level: u8, prefix: u64, lo: usize, hi: usize) -> Result<Group> {
        let (hashes, weights) = self.nodes.copy_range(lo, hi);
        let mut weight = 0.0;
        for &w in &weights {
            weight += w;
        }
        Ok(Group {
            hash: group_hash(self.members.hashing().group_seed(), level, prefix),
            weight,
            inv_weight: if weight == 0.0 { 0.0 } else { 1.0 / weight },
            start: lo as u32,
            end: hi as u32,
            summary: TableSummary::of(&hashes, Some(&weights))?,
        })
    }

    /// Points every upper-level group at its children one level down: the
    /// groups whose prefix, shortened by one level, is its own.
    fn relink_children(&mut self) -> Result<()> {
        let bits = self.shape.fanout_bits() as u32;
        let (prefixes, groups, links) = (&self.group_prefixes, self.groups.edit()?, self.group_links.edit()?);
        for l in 1..self.shape.levels() as usize {
            let (children_end, mut child) = (self.level_starts[l + 2], self.level_starts[l + 1]);
            for g in self.level_starts[l]..self.level_starts[l + 1] {
                let first = child;
                while child < children_end && prefixes[child] >> bits == prefixes[g] {
                    child += 1;
                }
                groups[g].start = first as u32;
                groups[g].end = child as u32;
                (links[g].start, links[g].end) = (first as u32, child as u32);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::SkeletonOptions;
    use crate::{ModeOptions, Options, Rendezvous, SkeletonShape};

    /// splitmix64: a fixed sequence, so a failure names its case.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    const WEIGHTS: [f64; 5] = [0.0, 0.5, 1.0, 2.0, 3.0];

    /// After every change of a random sequence, the patched tree equals the
    /// tree built from scratch over the same members, field by field.
    #[test]
    fn a_patched_tree_equals_a_fresh_build_after_every_change() {
        let shapes = [(1, 1), (1, 3), (2, 2), (4, 2), (6, 1), (1, 5)];
        for (case, &(bits, levels)) in shapes.iter().enumerate() {
            let mut rng = Rng(case as u64);
            let shape = SkeletonShape::new(bits, levels).unwrap();
            let options = ModeOptions::Skeleton(SkeletonOptions { shape: Some(shape) });
            let start: Vec<String> = (0..rng.below(20)).map(|i| format!("n{i}")).collect();
            let s = Rendezvous::with_weights(start.iter().map(|id| (id, 1.0)), Options::default(), options).unwrap();
            let mut next_id = start.len();
            for step in 0..400 {
                let snap = s.snapshot();
                let members = snap.members().ids().to_vec();
                let pick = |rng: &mut Rng| String::from_utf8(members[rng.below(members.len())].to_vec()).unwrap();
                match rng.below(if members.is_empty() { 1 } else { 4 }) {
                    0 => {
                        next_id += 1;
                        let w = WEIGHTS[rng.below(WEIGHTS.len())];
                        s.add(format!("n{next_id}"), w).unwrap();
                    }
                    1 => s.remove(pick(&mut rng)).unwrap(),
                    2 => {
                        let w = WEIGHTS[rng.below(WEIGHTS.len())];
                        s.set_weight(pick(&mut rng), w).unwrap();
                    }
                    _ => s.set_domain(pick(&mut rng), Some(b"rack")).unwrap(),
                }
                let published = s.snapshot();
                let patched = published.as_skeleton().expect("a skeleton-mode set");
                assert_eq!(published.generation(), snap.generation() + 1);
                let mut fresh = patched.try_clone().unwrap();
                fresh.rebuild().unwrap();
                let at = format!("shape {bits}x{levels}, step {step}, {} nodes", published.len());
                assert_eq!(patched.nodes.to_vecs(), fresh.nodes.to_vecs(), "{at}");
                assert_eq!(patched.groups[..], fresh.groups[..], "{at}");
                assert_eq!(patched.group_prefixes[..], fresh.group_prefixes[..], "{at}");
                assert_eq!(patched.level_starts, fresh.level_starts, "{at}");
                assert_eq!(patched.group_hashes[..], fresh.group_hashes[..], "{at}");
                assert_eq!(patched.group_inv_weights[..], fresh.group_inv_weights[..], "{at}");
                assert_eq!(patched.group_links[..], fresh.group_links[..], "{at}");
                assert_eq!(patched.sorted_summary, fresh.sorted_summary, "{at}");
            }
        }
    }
}
