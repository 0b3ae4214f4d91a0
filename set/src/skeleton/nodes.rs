//! A skeleton's nodes in hash order, stored in chunks that successive
//! snapshots share: a change copies the chunk it touches, not the whole
//! array.
//!
//! Each chunk holds a run of whole leaf groups (a leaf group never spans two
//! chunks), so a lookup's leaf race still reads one contiguous slice. Node
//! positions stay global (`0..len` across the chunks, in hash order); the
//! chunk of a position is a binary search over the chunks' first positions.

use std::sync::Arc;

use longstraw::skeleton::{Leaf, LeafSource};
use longstraw::SkeletonShape;

use crate::error::Result;

/// Nodes per chunk a build aims at; a chunk that grows past
/// `SPLIT_AT` nodes is split in two at a leaf group boundary.
const TARGET: usize = 4096;
const SPLIT_AT: usize = 4 * TARGET;
/// `first_chunk` has one entry per `2^BLOCK_BITS` positions.
const BLOCK_BITS: u32 = 10;

/// One run of whole leaf groups: hashes ascending, their weights, and each
/// node's index in the members. Each column is shared on its own, so that
/// renumbering the indices after a removal leaves the hashes and weights shared.
#[derive(Clone, Debug)]
struct Chunk {
    hashes: Arc<Vec<u64>>,
    weights: Arc<Vec<f64>>,
    order: Arc<Vec<u32>>,
}

impl Chunk {
    fn of(hashes: &[u64], weights: &[f64], order: &[u32]) -> Result<Chunk> {
        Ok(Chunk {
            hashes: Arc::new(crate::alloc::copied(hashes)?),
            weights: Arc::new(crate::alloc::copied(weights)?),
            order: Arc::new(crate::alloc::copied(order)?),
        })
    }
    fn len(&self) -> usize {
        self.hashes.len()
    }
}

/// The nodes of a skeleton in hash order, in shared chunks.
#[derive(Clone, Debug, Default)]
pub(crate) struct SortedNodes {
    chunks: Vec<Chunk>,
    /// The global position of each chunk's first node.
    starts: Vec<usize>,
    /// The chunk holding position `b << BLOCK_BITS`, for each `b`: a
    /// lookup finds its chunk from there in a step or two, without a
    /// binary search over `starts`.
    first_chunk: Vec<u32>,
    len: usize,
}

/// This snapshot's own copy of a chunk's column (copied, with room for one
/// more node, while another snapshot shares it).
fn own<T: Clone>(column: &mut Arc<Vec<T>>) -> Result<&mut Vec<T>> {
    if Arc::get_mut(column).is_none() {
        *column = Arc::new(crate::alloc::cloned_with_room(column, 1)?);
    }
    Ok(Arc::get_mut(column).expect("a fresh copy has one owner"))
}

/// Inserts `item` at `at`, growing `column` fallibly.
fn insert<T>(column: &mut Vec<T>, at: usize, item: T) -> Result<()> {
    crate::alloc::reserve_one(column)?;
    column.insert(at, item);
    Ok(())
}

impl SortedNodes {
    /// Chunks over nodes sorted by hash, cut between leaf groups of `shape`.
    pub(crate) fn of(shape: SkeletonShape, hashes: &[u64], weights: &[f64], order: &[u32]) -> Result<SortedNodes> {
        let mut nodes = SortedNodes {
            chunks: Vec::new(),
            starts: Vec::new(),
            first_chunk: Vec::new(),
            len: hashes.len(),
        };
        let mut lo = 0;
        while lo < hashes.len() {
            let hi = cut(shape, hashes, lo, (lo + TARGET).min(hashes.len()));
            nodes.starts.push(lo);
            nodes
                .chunks
                .push(Chunk::of(&hashes[lo..hi], &weights[lo..hi], &order[lo..hi])?);
            lo = hi;
        }
        nodes.index_blocks()?;
        Ok(nodes)
    }

    /// Rebuilds `first_chunk` after `starts` changed: O(len / 2^BLOCK_BITS
    /// + chunks).
    fn index_blocks(&mut self) -> Result<()> {
        let blocks = self.len.div_ceil(1 << BLOCK_BITS);
        let mut first = crate::alloc::with_capacity(blocks)?;
        let mut c = 0;
        for b in 0..blocks {
            let at = b << BLOCK_BITS;
            while c + 1 < self.starts.len() && self.starts[c + 1] <= at {
                c += 1;
            }
            first.push(c as u32);
        }
        self.first_chunk = first;
        Ok(())
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// How many chunks.
    #[cfg(test)]
    pub(crate) fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// The chunk holding position `at` (`at < len`).
    #[inline]
    fn chunk_of(&self, at: usize) -> usize {
        let mut c = self.first_chunk.get(at >> BLOCK_BITS).map_or(0, |&c| c as usize);
        while self.starts.get(c + 1).is_some_and(|&s| s <= at) {
            c += 1;
        }
        c
    }

    /// The hash at position `at`.
    pub(crate) fn hash(&self, at: usize) -> u64 {
        let c = self.chunk_of(at);
        self.chunks[c].hashes[at - self.starts[c]]
    }

    /// The first position whose hash is not below `hash`... generalised: the
    /// first position at which `pred` turns false (`pred` true on a prefix).
    pub(crate) fn partition_point(&self, pred: impl Fn(u64) -> bool) -> usize {
        // The first chunk whose first hash fails `pred`; the point lies in
        // the chunk before it (or is its start).
        let c = self.chunks.partition_point(|ch| pred(ch.hashes[0]));
        if c == 0 {
            return 0;
        }
        let ch = &self.chunks[c - 1];
        self.starts[c - 1] + ch.hashes.partition_point(|&h| pred(h))
    }

    /// The position of `hash`, if a node has it.
    pub(crate) fn position(&self, hash: u64) -> Option<usize> {
        let at = self.partition_point(|h| h < hash);
        (at < self.len && self.hash(at) == hash).then_some(at)
    }

    /// The hashes and weights of positions `lo..hi`, copied out (they may
    /// span chunks).
    pub(crate) fn copy_range(&self, lo: usize, hi: usize) -> (Vec<u64>, Vec<f64>) {
        let mut hashes = Vec::with_capacity(hi - lo);
        let mut weights = Vec::with_capacity(hi - lo);
        let mut at = lo;
        while at < hi {
            let c = self.chunk_of(at);
            let (start, ch) = (self.starts[c], &self.chunks[c]);
            let end = (start + ch.len()).min(hi);
            hashes.extend_from_slice(&ch.hashes[at - start..end - start]);
            weights.extend_from_slice(&ch.weights[at - start..end - start]);
            at = end;
        }
        (hashes, weights)
    }

    /// Every hash, weight and member index, in order (for tests).
    #[cfg(test)]
    pub(crate) fn to_vecs(&self) -> (Vec<u64>, Vec<f64>, Vec<u32>) {
        let mut out = (Vec::new(), Vec::new(), Vec::new());
        for ch in &self.chunks {
            out.0.extend_from_slice(&ch.hashes);
            out.1.extend_from_slice(&ch.weights);
            out.2.extend_from_slice(&ch.order);
        }
        out
    }

    /// Whether chunk `c` of `self` and of `other` are one shared allocation
    /// (hashes, weights and indices alike).
    #[cfg(test)]
    pub(crate) fn shares_chunk(&self, other: &SortedNodes, c: usize) -> bool {
        let (a, b) = (&self.chunks[c], &other.chunks[c]);
        Arc::ptr_eq(&a.hashes, &b.hashes) && Arc::ptr_eq(&a.weights, &b.weights) && Arc::ptr_eq(&a.order, &b.order)
    }

    /// Inserts a node at position `at`, into the chunk of its leaf group
    /// (the group's nodes are `group_lo..group_hi` before the insertion;
    /// empty when the node starts a new group).
    pub(crate) fn insert(
        &mut self,
        shape: SkeletonShape,
        at: usize,
        group: (usize, usize),
        node: (u64, f64, u32),
    ) -> Result<()> {
        if self.chunks.is_empty() {
            self.chunks.push(Chunk::of(&[node.0], &[node.1], &[node.2])?);
            self.starts.push(0);
            self.len = 1;
            return self.index_blocks();
        }
        // A node joining a group goes into the group's chunk; a node
        // starting a group goes at the end of the chunk before `at` when
        // `at` begins a chunk (either chunk keeps leaf groups whole).
        let c = if group.0 < group.1 {
            self.chunk_of(group.0)
        } else if at == 0 {
            0
        } else {
            self.chunk_of(at - 1)
        };
        let local = at - self.starts[c];
        let ch = &mut self.chunks[c];
        insert(own(&mut ch.hashes)?, local, node.0)?;
        insert(own(&mut ch.weights)?, local, node.1)?;
        insert(own(&mut ch.order)?, local, node.2)?;
        for s in &mut self.starts[c + 1..] {
            *s += 1;
        }
        self.len += 1;
        if self.chunks[c].len() > SPLIT_AT {
            self.split(shape, c)?;
        }
        self.index_blocks()
    }

    /// Splits chunk `c` at the leaf group boundary nearest its middle.
    fn split(&mut self, shape: SkeletonShape, c: usize) -> Result<()> {
        let ch = self.chunks[c].clone();
        let mid = cut(shape, &ch.hashes, 0, ch.len() / 2);
        if mid == 0 || mid == ch.len() {
            return Ok(()); // one leaf group: it stays whole
        }
        let left = Chunk::of(&ch.hashes[..mid], &ch.weights[..mid], &ch.order[..mid])?;
        let right = Chunk::of(&ch.hashes[mid..], &ch.weights[mid..], &ch.order[mid..])?;
        crate::alloc::reserve_one(&mut self.chunks)?;
        crate::alloc::reserve_one(&mut self.starts)?;
        self.chunks[c] = left;
        self.chunks.insert(c + 1, right);
        self.starts.insert(c + 1, self.starts[c] + mid);
        Ok(())
    }

    /// Removes the node at position `at`, whose member index was `index`:
    /// the member indices above it move down by one, in every chunk that
    /// has one (the hashes and weights of the other chunks stay shared).
    pub(crate) fn remove(&mut self, at: usize, index: u32) -> Result<()> {
        let c = self.chunk_of(at);
        let local = at - self.starts[c];
        {
            let ch = &mut self.chunks[c];
            own(&mut ch.hashes)?.remove(local);
            own(&mut ch.weights)?.remove(local);
            own(&mut ch.order)?.remove(local);
        }
        for s in &mut self.starts[c + 1..] {
            *s -= 1;
        }
        self.len -= 1;
        if self.chunks[c].len() == 0 {
            self.chunks.remove(c);
            self.starts.remove(c);
        }
        self.index_blocks()?;
        let renumber = |o: u32| o - u32::from(o > index);
        for ch in &mut self.chunks {
            if !ch.order.iter().any(|&o| o > index) {
                continue;
            }
            match Arc::get_mut(&mut ch.order) {
                Some(order) => order.iter_mut().for_each(|o| *o = renumber(*o)),
                // A shared chunk is copied renumbered, in one pass.
                None => {
                    let mut copy = crate::alloc::with_capacity(ch.order.len() + 1)?;
                    copy.extend(ch.order.iter().map(|&o| renumber(o)));
                    ch.order = Arc::new(copy);
                }
            }
        }
        Ok(())
    }

    /// Sets the weight at position `at`.
    pub(crate) fn set_weight(&mut self, at: usize, weight: f64) -> Result<()> {
        let c = self.chunk_of(at);
        let local = at - self.starts[c];
        own(&mut self.chunks[c].weights)?[local] = weight;
        Ok(())
    }
}

/// The first leaf group boundary at or after `at` in `hashes[lo..]` (a
/// position where the leaf prefix changes), or `hashes.len()`.
fn cut(shape: SkeletonShape, hashes: &[u64], lo: usize, at: usize) -> usize {
    let levels = shape.levels();
    if levels == 0 {
        return hashes.len(); // one leaf: the whole set
    }
    if at <= lo || at >= hashes.len() {
        return at.max(lo).min(hashes.len());
    }
    let prefix = |h: u64| shape.prefix(h, levels);
    let mut at = at;
    while at < hashes.len() && prefix(hashes[at]) == prefix(hashes[at - 1]) {
        at += 1;
    }
    at
}

impl LeafSource for SortedNodes {
    #[inline]
    fn leaf(&self, lo: usize, hi: usize) -> Option<Leaf<'_>> {
        if lo >= hi {
            return None;
        }
        let c = self.chunk_of(lo);
        let (&start, ch) = (self.starts.get(c)?, self.chunks.get(c)?);
        let range = lo - start..hi - start;
        Some(Leaf {
            hashes: ch.hashes.get(range.clone())?,
            weights: Some(ch.weights.get(range.clone())?),
            index: ch.order.get(range)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use longstraw::skeleton::build_groups;
    use longstraw::{Group, NodeTable, Ranked, Skeleton, TableSummary};

    use crate::{ModeOptions, Options, Rendezvous, SkeletonOptions, Snapshot};

    /// `chunk_of` (the block table) names the chunk a binary search over the
    /// chunk starts names, at every position, after inserts that split a
    /// chunk and removals.
    #[test]
    fn chunk_of_follows_splits_and_removals() {
        let shape = longstraw::SkeletonShape::new(4, 3).unwrap();
        let mut hashes: Vec<u64> = (0..20_000u64).map(|i| longstraw::mix(i ^ 0x5EED)).collect();
        hashes.sort_unstable();
        let weights = vec![1.0; hashes.len()];
        let order: Vec<u32> = (0..hashes.len() as u32).collect();
        let mut nodes = super::SortedNodes::of(shape, &hashes, &weights, &order).unwrap();
        let check = |nodes: &super::SortedNodes| {
            for at in 0..nodes.len() {
                let searched = nodes.starts.partition_point(|&s| s <= at) - 1;
                assert_eq!(nodes.chunk_of(at), searched, "position {at}");
            }
        };
        check(&nodes);
        // 13,000 new nodes below the second chunk's first hash: the first
        // chunk grows past SPLIT_AT and splits.
        let chunks = nodes.chunk_count();
        let limit = nodes.chunks[1].hashes[0];
        for i in 0..13_000u64 {
            let h = longstraw::mix(i ^ 0xADD) % limit;
            let at = nodes.partition_point(|x| x < h);
            nodes.insert(shape, at, (at, at), (h, 1.0, 20_000 + i as u32)).unwrap();
        }
        assert!(nodes.chunk_count() > chunks, "a chunk split");
        check(&nodes);
        for i in 0..2_000u64 {
            let at = (longstraw::mix(i) % nodes.len() as u64) as usize;
            let index = nodes.to_vecs().2[at];
            nodes.remove(at, index).unwrap();
        }
        check(&nodes);
    }

    fn nodes_of(snap: &Snapshot) -> &super::SortedNodes {
        &snap.as_skeleton().expect("a skeleton-mode set").nodes
    }

    /// Chunks of `after` that are the same allocations as in `before`.
    fn shared(before: &Snapshot, after: &Snapshot) -> usize {
        let (a, b) = (nodes_of(before), nodes_of(after));
        assert_eq!(a.chunk_count(), b.chunk_count());
        (0..a.chunk_count()).filter(|&c| a.shares_chunk(b, c)).count()
    }

    /// A change copies the one chunk of sorted nodes it touches and shares
    /// every other with the snapshot before it (a removal also renumbers
    /// the member indices above the removed node, in every chunk).
    #[test]
    fn a_change_at_scale_shares_every_chunk_it_does_not_touch() {
        let n = 100_000;
        let ids: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
        let mode = ModeOptions::Skeleton(SkeletonOptions::default());
        let set = Rendezvous::with_weights(ids.iter().map(|id| (id, 1.0)), Options::default(), mode).unwrap();
        let start = set.snapshot();
        let chunks = nodes_of(&start).chunk_count();
        // Whole leaf groups of about 25 nodes, about 4096 nodes per chunk.
        assert!((n / 4096..=n / 4096 + 2).contains(&chunks), "{chunks} chunks");

        set.add("node-new", 2.0).unwrap();
        let added = set.snapshot();
        assert_eq!(shared(&start, &added), chunks - 1);

        set.set_weight("node-17", 3.0).unwrap();
        let reweighted = set.snapshot();
        assert_eq!(shared(&added, &reweighted), chunks - 1);

        // The last node added has the highest index: no index moves.
        set.remove("node-new").unwrap();
        let removed = set.snapshot();
        assert_eq!(shared(&reweighted, &removed), chunks - 1);
        // Any other removal renumbers the indices above it, and only those.
        set.remove("node-5").unwrap();
        let renumbered = set.snapshot();
        let (a, b) = (nodes_of(&removed), nodes_of(&renumbered));
        let hashes_shared = (0..chunks)
            .filter(|&c| std::sync::Arc::ptr_eq(&a.chunks[c].hashes, &b.chunks[c].hashes))
            .count();
        assert_eq!(hashes_shared, chunks - 1);

        // Placement is the core's over one contiguous copy of the same
        // members (no chunks, no group columns or links).
        let members = renumbered.members();
        let (hashes, weights) = (members.hashes(), members.weights());
        let mut order: Vec<u32> = (0..hashes.len() as u32).collect();
        order.sort_unstable_by_key(|&i| hashes[i as usize]);
        let sorted: Vec<u64> = order.iter().map(|&i| hashes[i as usize]).collect();
        let sorted_weights: Vec<f64> = order.iter().map(|&i| weights[i as usize]).collect();
        let shape = renumbered.as_skeleton().unwrap().shape();
        let mut groups = vec![Group::EMPTY; shape.max_groups(sorted.len())];
        let seed = members.hashing().group_seed();
        let used = build_groups(seed, shape, &sorted, &sorted_weights, &mut groups).unwrap();
        groups.truncate(used);
        let summary = TableSummary::of(&sorted, Some(&sorted_weights)).unwrap();
        let table = NodeTable::from_summary(0, &sorted, Some(&sorted_weights), summary).with_hashing(members.hashing());
        let core = Skeleton::new(table, shape, &order, &groups).unwrap();
        let chunked = renumbered.as_skeleton().unwrap();
        for i in 0..4000 {
            let key = format!("key-{i}");
            let key = key.as_bytes();
            assert_eq!(chunked.owner_index(key).unwrap(), core.owner(key).unwrap(), "owner");
            let mut expected = [Ranked::EMPTY; 4];
            assert_eq!(core.top_k(key, &mut expected), 4);
            let mut got = [0u32; 4];
            assert_eq!(chunked.top_k_into(key, &mut got), 4);
            assert_eq!(got, expected.map(|r| r.index), "top_k");
        }
    }
}
