//! Balanced partition tables (SPEC.md §17, `table-balanced-v1`).
//!
//! Each replica rank of each partition goes to a node under a per-node cap
//! `ceil(balance * P * w_i / W)`. Partitions propose to nodes in their own
//! HRW order and each node keeps the best pairs it has room for (deferred
//! acceptance). The pairs are totally ordered by one shared score, so this
//! equals the greedy over all (partition, node) pairs in that order, and
//! the result does not depend on the order in which partitions propose.
//!
//! Nothing here allocates: the caller sizes the buffers with
//! [`BalancedLayout::of`]. A build needs scratch proportional to `P` (each
//! node's accepted pairs and each partition's next candidates), which is why
//! the owned table (`longstraw-set`) holds the buffers and calls in here.

use crate::error::Error;
use crate::exact_cap::{cap, U320};
use crate::node_table::{NodeTable, Shape};
use crate::order::{insert_bounded, ranks_before, Ranked};
use crate::partition::{rows_len, standing, top_after, MAX_REPLICAS, NO_NODE};
use crate::score::{pair_score, weighted_score};

pub use crate::limits::{MAX_BALANCE_MILLIONTHS, MIN_BALANCE_MILLIONTHS};

/// How many nodes a partition ranks at a time once its first `replicas`
/// choices are used up. Most partitions never get that far, so the first
/// window holds only `replicas` (for one replica, the owner's fast path).
const REFILL: usize = 8;

/// Up to this ranking depth a refill asks the backend's top-k for the whole
/// prefix; deeper it ranks after the last node with a scalar scan.
const SIMD_RANK_MAX: usize = 32;

/// A balance factor, held exactly as an integer number of millionths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Balance {
    millionths: u32,
}

impl Balance {
    /// `floor(balance * 10^6 + 0.5)` (one IEEE-754 double multiplication, then
    /// rounding half up), which must lie in `[10^6, 4 * 10^6]`.
    pub fn new(balance: f64) -> Result<Balance, Error> {
        let scaled = balance * 1_000_000.0;
        // In this range `scaled + 0.5` is exact (below 2^23, a multiple of 2^-30),
        // so truncating it rounds half up; NaN fails the comparison.
        let lowest = MIN_BALANCE_MILLIONTHS as f64 - 0.5;
        let highest = MAX_BALANCE_MILLIONTHS as f64 + 0.5;
        if !(scaled >= lowest && scaled < highest) {
            return Err(Error::BadBalance { balance });
        }
        Ok(Balance {
            millionths: (scaled + 0.5) as u32,
        })
    }

    /// A balance of `millionths / 10^6`.
    pub fn from_millionths(millionths: u32) -> Result<Balance, Error> {
        if (MIN_BALANCE_MILLIONTHS..=MAX_BALANCE_MILLIONTHS).contains(&millionths) {
            Ok(Balance { millionths })
        } else {
            Err(Error::BadBalance {
                balance: millionths as f64 / 1_000_000.0,
            })
        }
    }

    /// The balance in millionths.
    pub fn millionths(&self) -> u32 {
        self.millionths
    }

    /// The balance as a float (for display).
    pub fn as_f64(&self) -> f64 {
        self.millionths as f64 / 1_000_000.0
    }
}

/// One pair a node holds at the rank being placed, with its order key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Held {
    weighted: f64,
    score: u64,
    partition: u32,
}

impl Held {
    /// A placeholder for caller-provided buffers.
    pub const EMPTY: Held = Held {
        weighted: f64::NEG_INFINITY,
        score: 0,
        partition: u32::MAX,
    };
}

/// A node's cap and where its held pairs live in the holders buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeSlot {
    cap: u32,
    len: u32,
    start: usize,
}

/// Where a partition is in its own ranking while it proposes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    key_hash: u64,
    /// Ranking position of the window's first entry (0: the ranking's start).
    start: u32,
    /// Whether the window reaches the ranking's end.
    ended: bool,
    /// Entries in the window.
    len: u32,
    /// Next position inside the window.
    next: u32,
    /// The last node the partition proposed to (or skipped).
    last: u32,
}

/// The buffer lengths a balanced build needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BalancedLayout {
    /// `P * replicas`: the rows.
    pub rows: usize,
    /// Candidate node indices: `P * depth`.
    pub candidates: usize,
    /// Cursors: `P`.
    pub cursors: usize,
    /// Held pairs: the sum over nodes of `min(cap_i, P)`, at most `4P + n`.
    pub holders: usize,
    /// Node slots: `n`.
    pub slots: usize,
    /// Candidates kept per partition.
    pub depth: usize,
}

/// Caller-owned scratch, each of the length [`BalancedLayout`] gives.
pub struct BalancedBuffers<'a> {
    /// Candidate node indices.
    pub candidates: &'a mut [u32],
    /// Cursors.
    pub cursors: &'a mut [Cursor],
    /// Held pairs.
    pub holders: &'a mut [Held],
    /// Node slots.
    pub slots: &'a mut [NodeSlot],
}

/// What a build did beyond the rule's promise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BalancedReport {
    /// Pairs placed over their node's cap because every node the partition
    /// may use at that rank was full (SPEC.md §17.4). Always 0 for rank 0,
    /// and 0 for rank `r` whenever the caps without the `r` largest still sum
    /// to at least `P`.
    pub over_cap: usize,
}

/// Every node's cap, `ceil(balance * P * w_i / W)` exactly (0 for drained
/// nodes), written to `caps`, which must have one entry per node.
pub fn caps(nodes: &NodeTable<'_>, bits: u8, balance: Balance, caps: &mut [u64]) -> Result<(), Error> {
    let n = nodes.hashes().len();
    if caps.len() != n {
        return Err(Error::LengthMismatch {
            expected: n,
            actual: caps.len(),
        });
    }
    for_each_cap(nodes, bits, balance, |i, c| caps[i] = c);
    Ok(())
}

/// Calls `f(i, cap_i)` for every node, in index order.
fn for_each_cap(nodes: &NodeTable<'_>, bits: u8, balance: Balance, mut f: impl FnMut(usize, u64)) {
    let n = nodes.hashes().len();
    let (mut total, mut total_f64) = (U320::ZERO, 0.0f64);
    for i in 0..n {
        total = total.add(U320::of_weight(nodes.weight(i)));
        total_f64 += nodes.weight(i);
    }
    let scale = balance.millionths as f64 * (1u64 << bits) as f64 / 1_000_000.0;
    for i in 0..n {
        let w = nodes.weight(i);
        f(
            i,
            cap(
                balance.millionths,
                bits,
                U320::of_weight(w),
                total,
                scale * w / total_f64,
            ),
        );
    }
}

impl BalancedLayout {
    /// The buffers a build of this table needs.
    pub fn of(nodes: &NodeTable<'_>, bits: u8, replicas: usize, balance: Balance) -> Result<Self, Error> {
        let rows = rows_len(bits, replicas)?;
        let partitions = 1usize << bits;
        let n = nodes.hashes().len();
        let mut holders = 0usize;
        for_each_cap(nodes, bits, balance, |_, c| {
            holders += c.min(partitions as u64) as usize
        });
        let depth = depth(replicas);
        Ok(BalancedLayout {
            rows,
            candidates: partitions * depth,
            cursors: partitions,
            holders,
            slots: n,
            depth,
        })
    }
}

/// The shared score of a pair: SPEC.md §17.3. In a table whose eligible
/// nodes share one weight the weighted score is monotone in the raw score,
/// so it is left at 0 and the raw score decides, as in the ranking.
#[inline]
fn held(nodes: &NodeTable<'_>, equal: bool, key_hash: u64, node: u32, partition: u32) -> Held {
    let score = pair_score(key_hash, nodes.hashes()[node as usize]);
    let weighted = if equal {
        0.0
    } else {
        weighted_score(score, nodes.weight(node as usize))
    };
    Held {
        weighted,
        score,
        partition,
    }
}

/// Whether `a` comes before `b` in one node's order: weighted score
/// descending, raw score descending, partition ascending.
#[inline]
fn before(a: &Held, b: &Held) -> bool {
    if a.weighted != b.weighted {
        return a.weighted > b.weighted;
    }
    if a.score != b.score {
        return a.score > b.score;
    }
    a.partition < b.partition
}

/// A node's held pairs, kept as a heap with the last-ranked pair on top.
struct Holders<'b>(&'b mut [Held]);

impl Holders<'_> {
    fn push(&mut self, len: usize, x: Held) {
        let h = &mut *self.0;
        let mut at = len;
        h[at] = x;
        while at > 0 {
            let parent = (at - 1) / 2;
            if !before(&h[parent], &h[at]) {
                break;
            }
            h.swap(parent, at);
            at = parent;
        }
    }

    fn replace_top(&mut self, len: usize, x: Held) -> Held {
        let h = &mut *self.0;
        let out = h[0];
        h[0] = x;
        let mut at = 0;
        loop {
            let (l, r) = (2 * at + 1, 2 * at + 2);
            let mut worst = at;
            if l < len && before(&h[worst], &h[l]) {
                worst = l;
            }
            if r < len && before(&h[worst], &h[r]) {
                worst = r;
            }
            if worst == at {
                break;
            }
            h.swap(worst, at);
            at = worst;
        }
        out
    }
}

/// Builds a balanced table into `rows` (`P * replicas`, row-major like a
/// plain table, padded with [`NO_NODE`] past the eligible nodes).
pub fn build(
    nodes: &NodeTable<'_>,
    bits: u8,
    replicas: usize,
    balance: Balance,
    rows: &mut [u32],
    buffers: BalancedBuffers<'_>,
) -> Result<BalancedReport, Error> {
    prepare_range(nodes, replicas, 0, buffers.candidates, buffers.cursors)?;
    build_prepared(nodes, bits, replicas, balance, rows, buffers)
}

/// [`build`] after [`prepare_range`] loaded every partition (the buffers'
/// candidates and cursors are used as they are).
pub fn build_prepared(
    nodes: &NodeTable<'_>,
    bits: u8,
    replicas: usize,
    balance: Balance,
    rows: &mut [u32],
    buffers: BalancedBuffers<'_>,
) -> Result<BalancedReport, Error> {
    let layout = BalancedLayout::of(nodes, bits, replicas, balance)?;
    let checks = [
        (layout.rows, rows.len()),
        (layout.candidates, buffers.candidates.len()),
        (layout.cursors, buffers.cursors.len()),
        (layout.holders, buffers.holders.len()),
        (layout.slots, buffers.slots.len()),
    ];
    for (expected, actual) in checks {
        if expected != actual {
            return Err(Error::LengthMismatch { expected, actual });
        }
    }
    let partitions = 1usize << bits;
    let BalancedBuffers {
        candidates,
        cursors,
        holders,
        slots,
    } = buffers;
    let mut start = 0usize;
    for_each_cap(nodes, bits, balance, |i, c| {
        let room = c.min(partitions as u64) as usize;
        slots[i] = NodeSlot {
            cap: room as u32,
            len: 0,
            start,
        };
        start += room;
    });
    rows.fill(NO_NODE);
    let mut placer = Placer {
        nodes,
        equal: nodes.summary().shape != Shape::Weighted,
        replicas,
        depth: layout.depth,
        candidates,
        cursors,
        holders,
        slots,
    };
    let mut report = BalancedReport::default();
    if nodes.eligible() == 0 {
        return Ok(report);
    }
    for rank in 0..replicas.min(nodes.eligible()) {
        placer.place_rank(rows, rank);
        report.over_cap += placer.place_leftovers(rows, rank);
    }
    Ok(report)
}

struct Placer<'n, 'b> {
    nodes: &'n NodeTable<'n>,
    equal: bool,
    replicas: usize,
    depth: usize,
    candidates: &'b mut [u32],
    cursors: &'b mut [Cursor],
    holders: &'b mut [Held],
    slots: &'b mut [NodeSlot],
}

impl Placer<'_, '_> {
    /// Points partition `p`'s window at the start of its ranking.
    fn load_start(&mut self, p: usize) {
        let depth = self.depth;
        load_start(
            self.nodes,
            self.replicas,
            &mut self.cursors[p],
            &mut self.candidates[p * depth..(p + 1) * depth],
        );
    }

    /// Points partition `p` back at the start of its ranking.
    fn rewind(&mut self, p: usize) {
        if self.cursors[p].start != 0 {
            self.load_start(p);
        } else {
            self.cursors[p].next = 0;
        }
    }

    /// Loads the next `REFILL` nodes of `p`'s ranking after its last.
    fn refill(&mut self, p: usize) {
        let depth = self.depth;
        let cursor = &mut self.cursors[p];
        let start = cursor.start + cursor.len;
        let window = &mut self.candidates[p * depth..(p + 1) * depth];
        let got = if start as usize + REFILL <= SIMD_RANK_MAX {
            // Near the ranking's start the backend's top-k (SIMD) is cheaper
            // than a scalar scan, even though it ranks the entries before too.
            let mut buf = [Ranked::EMPTY; SIMD_RANK_MAX];
            let end = self
                .nodes
                .top_k_of_hash(cursor.key_hash, &mut buf[..start as usize + REFILL]);
            let fresh = buf.get(start as usize..end).unwrap_or(&[]);
            for (slot, r) in window.iter_mut().zip(fresh) {
                *slot = r.index;
            }
            fresh.len()
        } else {
            let mut buf = [Ranked::EMPTY; REFILL];
            let got = ranked_after(self.nodes, self.equal, cursor.key_hash, cursor.last, &mut buf);
            for (slot, r) in window.iter_mut().zip(&buf[..got]) {
                *slot = r.index;
            }
            got
        };
        cursor.start = start;
        cursor.ended = got < REFILL;
        cursor.len = got as u32;
        cursor.next = 0;
    }

    /// The next node of partition `p`'s ranking that none of its earlier
    /// ranks holds, or `None` at the ranking's end.
    fn next_candidate(&mut self, rows: &[u32], p: usize, rank: usize) -> Option<u32> {
        let earlier = p * self.replicas..p * self.replicas + rank;
        loop {
            let cursor = &self.cursors[p];
            if cursor.next == cursor.len {
                if cursor.ended || cursor.last == NO_NODE && cursor.len == 0 {
                    return None;
                }
                self.refill(p);
                continue;
            }
            let node = self.candidates[p * self.depth + cursor.next as usize];
            let cursor = &mut self.cursors[p];
            cursor.next += 1;
            cursor.last = node;
            if !rows[earlier.clone()].contains(&node) {
                return Some(node);
            }
        }
    }

    /// Deferred acceptance for one rank: every partition proposes down its
    /// ranking until a node keeps it; a node over its cap lets its
    /// last-ranked pair go, which then proposes on.
    fn place_rank(&mut self, rows: &mut [u32], rank: usize) {
        let replicas = self.replicas;
        for slot in self.slots.iter_mut() {
            slot.len = 0;
        }
        for p in 0..self.cursors.len() {
            self.rewind(p);
        }
        for first in 0..self.cursors.len() {
            let mut p = first;
            while let Some(node) = self.next_candidate(rows, p, rank) {
                let pair = held(self.nodes, self.equal, self.cursors[p].key_hash, node, p as u32);
                let slot = &mut self.slots[node as usize];
                let (start, len, cap) = (slot.start, slot.len as usize, slot.cap as usize);
                let mut heap = Holders(&mut self.holders[start..start + cap]);
                if len < cap {
                    heap.push(len, pair);
                    slot.len += 1;
                    rows[p * replicas + rank] = node;
                    break;
                }
                if cap > 0 && before(&pair, &heap.0[0]) {
                    let out = heap.replace_top(len, pair);
                    rows[p * replicas + rank] = node;
                    rows[out.partition as usize * replicas + rank] = NO_NODE;
                    p = out.partition as usize;
                }
            }
        }
    }

    /// Partitions that every allowed node turned down take their best
    /// allowed node over its cap (SPEC.md §17.4); returns how many.
    fn place_leftovers(&mut self, rows: &mut [u32], rank: usize) -> usize {
        let replicas = self.replicas;
        let mut over = 0;
        for p in 0..self.cursors.len() {
            if rows[p * replicas + rank] != NO_NODE {
                continue;
            }
            self.rewind(p);
            if let Some(node) = self.next_candidate(rows, p, rank) {
                rows[p * replicas + rank] = node;
                over += 1;
            }
        }
        over
    }
}

/// The best `out.len()` eligible nodes of a ranking after node `last`, best
/// first. With one shared weight the raw score alone orders them (no
/// logarithm), as in the ranking itself.
fn ranked_after(nodes: &NodeTable<'_>, equal: bool, key_hash: u64, last: u32, out: &mut [Ranked]) -> usize {
    if !equal {
        return match standing(nodes, key_hash, last) {
            Some(after) => top_after(nodes, key_hash, Some(after), out),
            None => 0,
        };
    }
    let hashes = nodes.hashes();
    let after = Ranked::unweighted(key_hash, hashes[last as usize], last);
    let drained = nodes.summary().shape != Shape::AllEqual;
    let mut len = 0;
    for (i, &h) in (0u32..).zip(hashes) {
        if drained && nodes.weight(i as usize) == 0.0 {
            continue;
        }
        let c = Ranked::unweighted(key_hash, h, i);
        if ranks_before(&after, &c) {
            len = insert_bounded(out, len, c);
        }
    }
    len
}

/// Points a partition's window at the start of its ranking: its first
/// `replicas` nodes (for one replica, the owner's fast path).
fn load_start(nodes: &NodeTable<'_>, replicas: usize, cursor: &mut Cursor, window: &mut [u32]) {
    let got = if replicas == 1 {
        match nodes.owner_of_hash(cursor.key_hash) {
            Some(i) => {
                window[0] = i;
                1
            }
            None => 0,
        }
    } else {
        let mut buf = [Ranked::EMPTY; MAX_REPLICAS];
        let got = nodes.top_k_of_hash(cursor.key_hash, &mut buf[..replicas]);
        for (slot, r) in window.iter_mut().zip(&buf[..got]) {
            *slot = r.index;
        }
        got
    };
    *cursor = Cursor {
        key_hash: cursor.key_hash,
        start: 0,
        ended: got < replicas,
        len: got as u32,
        next: 0,
        last: NO_NODE,
    };
}

/// Candidates kept per partition.
fn depth(replicas: usize) -> usize {
    replicas.max(REFILL)
}

/// Loads every partition's start from `plain`, the rows of a plain table
/// ([`crate::partition::build`], or patched by its `on_add`, `on_remove`,
/// `on_reweight`) for the same nodes and `replicas`, without domains: they
/// hold exactly each partition's first `replicas` nodes, so no pair is scored.
pub fn prepare_from_rows(
    nodes: &NodeTable<'_>,
    replicas: usize,
    plain: &[u32],
    candidates: &mut [u32],
    cursors: &mut [Cursor],
) -> Result<(), Error> {
    let depth = depth(replicas);
    if replicas == 0 || replicas > MAX_REPLICAS {
        return Err(Error::BadReplicas { replicas });
    }
    for (expected, actual) in [
        (cursors.len() * depth, candidates.len()),
        (cursors.len() * replicas, plain.len()),
    ] {
        if expected != actual {
            return Err(Error::LengthMismatch { expected, actual });
        }
    }
    let hashing = nodes.hashing();
    let windows = candidates.chunks_exact_mut(depth);
    for ((p, cursor), (window, row)) in (0u32..)
        .zip(cursors.iter_mut())
        .zip(windows.zip(plain.chunks_exact(replicas)))
    {
        let got = row.iter().take_while(|&&i| i != NO_NODE).count();
        window[..got].copy_from_slice(&row[..got]);
        *cursor = Cursor {
            key_hash: hashing.partition_key_hash(p),
            start: 0,
            ended: got < replicas,
            len: got as u32,
            next: 0,
            last: NO_NODE,
        };
    }
    Ok(())
}

/// Loads the start of the rankings of partitions `first..first + cursors.len()`
/// (`candidates` holds `depth` entries per partition, see [`BalancedLayout`]),
/// the part of a build that scores every pair, so that callers can split it
/// across threads before [`build_prepared`].
pub fn prepare_range(
    nodes: &NodeTable<'_>,
    replicas: usize,
    first: u32,
    candidates: &mut [u32],
    cursors: &mut [Cursor],
) -> Result<(), Error> {
    let depth = depth(replicas);
    if replicas == 0 || replicas > MAX_REPLICAS {
        return Err(Error::BadReplicas { replicas });
    }
    if candidates.len() != cursors.len() * depth {
        return Err(Error::LengthMismatch {
            expected: cursors.len() * depth,
            actual: candidates.len(),
        });
    }
    let hashing = nodes.hashing();
    for ((p, cursor), window) in (first..)
        .zip(cursors.iter_mut())
        .zip(candidates.chunks_exact_mut(depth))
    {
        cursor.key_hash = hashing.partition_key_hash(p);
        load_start(nodes, replicas, cursor, window);
    }
    Ok(())
}
