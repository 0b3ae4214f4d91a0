//! The placement algorithms, written once for every [`Vector`] type.
//!
//! * Owner, equal weights: a branch-free argmax with two accumulators (score
//!   and index lanes), reduced at the end; ties go to the lowest index.
//! * Top-k and drained tables: a threshold scan. The k-th best raw score so
//!   far is broadcast; a vector of scores is tested against it, and only
//!   lanes above it (rare after the first few vectors) leave the loop for an
//!   exact insertion with the oracle's order.
//! * Weighted: a threshold scan with [`Vector::race_filter`]; candidates get
//!   logarithm-free intervals, the last survivors float-`ln` ones and, only
//!   for near-ties, the exact `ln` (see [`crate::race::bounds`]).
//! * Batches: one dispatch per batch; for small equal-weight tables the keys
//!   go in the lanes and the loop runs over the nodes.
//!
//! Every function here is `unsafe` only because it calls [`Vector`] methods:
//! callers must hold the ISA (see [`Vector`]).

use super::{mix, Vector};
use crate::classes::MAX_WEIGHT_CLASSES;
use crate::limits::{RACE_CANDIDATES, WEIGHTED_K_MAX};
use crate::oracle;
use crate::order::{ranks_before, Ranked};
use crate::packed::{KeyOffset, PackedKeys};
use crate::race::bounds::{interval, quick_interval, race_margin};
use crate::score::{pair_score, weighted_score};
use crate::table::{Shape, TableColumns};

/// Lane indices 0, 1, 2, ... for the argmax index accumulators.
pub(super) static IOTA: [u64; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// Equal-weight tables up to this size run batches with keys in lanes.
const KEYS_IN_LANES_MAX_NODES: usize = 24;

/// The plain argmax's two accumulators: for the first and the second
/// vector of every chunk of `2 LANES` nodes, each lane's best score so far
/// (in [`Vector::ordered`] form) and the index of its chunk's first node.
/// (Chunk starts, not node indices: one broadcast per chunk serves both
/// accumulators, which keeps the loop's constants in registers.)
#[derive(Clone, Copy)]
pub(super) struct Argmax<V> {
    /// Best ordered scores of the first vectors.
    pub(super) b0: V,
    /// Their chunks' starts.
    pub(super) i0: V,
    /// Best ordered scores of the second vectors.
    pub(super) b1: V,
    /// Their chunks' starts.
    pub(super) i1: V,
}

impl<V: Vector> Argmax<V> {
    /// The accumulators after the first chunk (ordered scores `b0`, `b1`),
    /// which starts at index 0.
    ///
    /// # Safety
    /// The ISA of `V` is supported.
    #[inline(always)]
    pub(super) unsafe fn first(b0: V, b1: V) -> Self {
        // SAFETY: forwarded caller guarantee.
        unsafe {
            let zero = V::splat(0);
            Argmax {
                b0,
                i0: zero,
                b1,
                i1: zero,
            }
        }
    }

    /// Takes the chunk that starts at index `start`: ordered scores `s0`
    /// (nodes `start..start + LANES`) and `s1` (the next `LANES`). A lane
    /// moves only to a strictly higher score, so on a tie it keeps the
    /// earlier (lower) index.
    ///
    /// # Safety
    /// The ISA of `V` is supported.
    #[inline(always)]
    pub(super) unsafe fn step(&mut self, s0: V, s1: V, start: usize) {
        // SAFETY: forwarded caller guarantee.
        unsafe {
            let start = V::splat(start as u64);
            let g0 = s0.gt_ordered(self.b0);
            let g1 = s1.gt_ordered(self.b1);
            self.b0 = V::select(g0, s0, self.b0);
            self.i0 = V::select(g0, start, self.i0);
            self.b1 = V::select(g1, s1, self.b1);
            self.i1 = V::select(g1, start, self.i1);
        }
    }

    /// The node index of every lane's best, in the first and the second
    /// accumulator.
    ///
    /// # Safety
    /// The ISA of `V` is supported.
    #[inline(always)]
    pub(super) unsafe fn positions(&self) -> (V, V) {
        // SAFETY: IOTA holds 16 >= 2 * LANES values; ISA by the caller.
        unsafe {
            (
                self.i0.add(V::load(IOTA.as_ptr())),
                self.i1.add(V::load(IOTA.as_ptr().add(V::LANES))),
            )
        }
    }

    /// The two accumulators merged lane by lane: the higher score, then the
    /// lower index; `(ordered scores, node indices)`.
    ///
    /// # Safety
    /// The ISA of `V` is supported; indices are below `2^63` (so `ordered`
    /// keeps their order).
    #[inline(always)]
    pub(super) unsafe fn merge(self) -> (V, V) {
        // SAFETY: forwarded caller guarantee.
        unsafe {
            let (i0, i1) = self.positions();
            let take = V::mask_or(
                self.b1.gt_ordered(self.b0),
                V::mask_and(self.b1.eq(self.b0), i0.ordered().gt_ordered(i1.ordered())),
            );
            (V::select(take, self.b1, self.b0), V::select(take, i1, i0))
        }
    }
}

/// The mixed scores of nodes `i..i + LANES`.
///
/// # Safety
/// `i + LANES <= hashes.len()` and the ISA of `V` is supported.
#[inline(always)]
unsafe fn scores_at<V: Vector>(key: V, hashes: &[u64], i: usize) -> V {
    debug_assert!(i + V::LANES <= hashes.len());
    // SAFETY: in bounds by the caller's guarantee; ISA by the trait contract.
    unsafe { mix(key.xor(V::load(hashes.as_ptr().add(i)))) }
}

/// The owner of `key_hash`; `None` when no node is eligible.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
pub(crate) unsafe fn owner<V: Vector>(table: &TableColumns<'_>, key_hash: u64) -> Option<u32> {
    if table.summary.eligible == 0 || !weights_fit(table) {
        return oracle::owner(table, key_hash);
    }
    // SAFETY: forwarded caller guarantee.
    unsafe {
        match table.summary.shape {
            Shape::AllEqual => Some(argmax::<V>(table.hashes, key_hash)),
            Shape::EqualWithDrained => {
                let mut best = [Ranked::EMPTY];
                (top_k_plain::<V>(table, key_hash, &mut best) == 1).then_some(best[0].index)
            }
            // The lane race proves the owner unless two nodes nearly tie.
            // (A match, not a closure: closures would not inherit the target features.)
            // With weight classes, their lane bests race (bounds only), and
            // near-ties go to the class leaders' exact race.
            Shape::Weighted if has_full_classes::<V>(table) => match super::class_race::owner::<V>(table, key_hash) {
                Some(owner) => Some(owner),
                None => match owner_by_class::<V>(table, key_hash) {
                    Some(owner) => Some(owner),
                    None => owner_weighted::<V>(table, key_hash),
                },
            },
            Shape::Weighted => match super::lane_race::owner::<V>(table, key_hash) {
                Some(owner) => Some(owner),
                None => owner_weighted::<V>(table, key_hash),
            },
        }
    }
}

/// The best `out.len()` eligible nodes, best first; returns how many.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
pub(crate) unsafe fn top_k<V: Vector>(table: &TableColumns<'_>, key_hash: u64, out: &mut [Ranked]) -> usize {
    let k = out.len();
    if k == 0 || k >= table.eligible() || !weights_fit(table) {
        // Empty, or the full ranking: the oracle's sort is the work either way.
        return oracle::top_k(table, key_hash, out);
    }
    // SAFETY: forwarded caller guarantee.
    unsafe {
        match table.summary.shape {
            Shape::AllEqual | Shape::EqualWithDrained => top_k_plain::<V>(table, key_hash, out),
            Shape::Weighted if k <= WEIGHTED_K_MAX => top_k_weighted::<V>(table, key_hash, out),
            Shape::Weighted => oracle::top_k(table, key_hash, out),
        }
    }
}

/// Whether the class race should run: the table has weight classes that
/// hold two vectors of nodes each on average (smaller classes cost more in
/// per-class work than the lane race spends on the whole table), and
/// vectors have at least 4 lanes (with 2, the lane race's vector filter
/// skips more work than the class race saves: SSE2 at n = 512 ran 13% more
/// instructions with the class race).
#[inline(always)]
fn has_full_classes<V: Vector>(table: &TableColumns<'_>) -> bool {
    V::LANES >= 4
        && table
            .classes
            .is_some_and(|c| c.hashes.len() >= c.count() * 2 * V::LANES)
}

/// The owner of every key in `keys` (`u32::MAX` where none is eligible).
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
pub(crate) unsafe fn owners<V: Vector, O: KeyOffset>(
    table: &TableColumns<'_>,
    keys: &PackedKeys<'_, O>,
    out: &mut [u32],
) {
    let n = table.hashes.len();
    // SAFETY: forwarded caller guarantee.
    unsafe {
        if table.summary.shape == Shape::AllEqual && n > 0 && n <= KEYS_IN_LANES_MAX_NODES {
            owners_keys_in_lanes::<V, O>(table, keys, out);
            return;
        }
        for (slot, key) in out.iter_mut().zip(keys.iter()) {
            *slot = owner::<V>(table, table.hashing.key_hash(key)).unwrap_or(u32::MAX);
        }
    }
}

/// Whether the weights (when present) cover every node, so the kernels may
/// read `weights[i]` for every node `i`. `crate::NodeTable::from_summary` does not
/// check this; a mismatched table falls back to the oracle.
#[inline(always)]
fn weights_fit(table: &TableColumns<'_>) -> bool {
    table.weights.is_none_or(|w| w.len() >= table.hashes.len())
}

/// The ordered scores of a partial chunk from node `i` (`i < hashes.len() <
/// i + 2 * LANES`), lanes past the end filled with node 0's hash.
///
/// # Safety
/// The ISA of `V` is supported. (A helper, not a closure: closures would not
/// inherit the caller's target features and the intrinsics would not inline.)
#[inline(always)]
unsafe fn tail_scores<V: Vector>(key: V, hashes: &[u64], i: usize) -> (V, V) {
    let lanes = V::LANES;
    let rest = hashes.len() - i;
    let p = hashes.as_ptr();
    // SAFETY: each `load_tail` reads only the remaining values; `wrapping_add`
    // never forms an out-of-bounds pointer with `add` (the second half may
    // start at the end, with length 0); ISA by the caller.
    unsafe {
        let first = V::load_tail(p.wrapping_add(i), rest.min(lanes), hashes[0]);
        let second = V::load_tail(p.wrapping_add(i + lanes), rest.saturating_sub(lanes), hashes[0]);
        (mix(key.xor(first)).ordered(), mix(key.xor(second)).ordered())
    }
}

/// Plain argmax over all nodes: highest score, ties to the lowest index.
///
/// Full chunks of `2 * LANES` nodes are read in place; in a partial chunk
/// (the tail, or all of a small table) the lanes past the end are filled
/// with node 0's hash. Such a lane scores exactly like node 0 with a larger
/// index, so it never wins: node 0 (or something better) always beats it.
///
/// # Safety
/// `hashes` is not empty; the ISA of `V` is supported.
#[inline(always)]
unsafe fn argmax<V: Vector>(hashes: &[u64], key_hash: u64) -> u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { argmax_scored::<V>(hashes, key_hash).1 }
}

/// [`argmax`], with the winner's raw score: `(score, index)`.
///
/// # Safety
/// `hashes` is not empty; the ISA of `V` is supported.
#[inline(always)]
unsafe fn argmax_scored<V: Vector>(hashes: &[u64], key_hash: u64) -> (u64, u32) {
    let n = hashes.len();
    let lanes = V::LANES;
    let chunk = 2 * lanes;
    // SAFETY: full chunks have `i + chunk <= n`, partial ones go through
    // `tail_scores` (0 < n - i < chunk); IOTA has 16 >= chunk entries; ISA by the caller.
    unsafe {
        let key = V::splat(key_hash);
        let (b0, b1) = if n >= chunk {
            (
                scores_at(key, hashes, 0).ordered(),
                scores_at(key, hashes, lanes).ordered(),
            )
        } else {
            tail_scores(key, hashes, 0)
        };
        let mut acc = Argmax::first(b0, b1);
        let mut i = chunk;
        while i + chunk <= n {
            let s0 = scores_at(key, hashes, i).ordered();
            let s1 = scores_at(key, hashes, i + lanes).ordered();
            acc.step(s0, s1, i);
            i += chunk;
        }
        if i < n {
            let (s0, s1) = tail_scores(key, hashes, i);
            acc.step(s0, s1, i);
        }
        let (scores, index) = acc.merge();
        let (score, best) = V::reduce_argmax(scores, index);
        (score, best as u32)
    }
}

/// The weighted owner through the table's weight classes (see
/// [`crate::classes`]): the plain argmax of every class, then a race of
/// the class leaders, logarithm-free unless two leaders' intervals overlap.
/// `None` when the table has no classes or they disagree with it (the
/// caller then runs the lane race).
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn owner_by_class<V: Vector>(table: &TableColumns<'_>, key_hash: u64) -> Option<u32> {
    let classes = table.classes?;
    let count = classes.count();
    let mut score = [0u64; MAX_WEIGHT_CLASSES];
    let mut at = [0usize; MAX_WEIGHT_CLASSES];
    let mut lo = [f64::INFINITY; MAX_WEIGHT_CLASSES];
    let mut hi_min = f64::INFINITY;
    let mut best = usize::MAX;
    let mut seen = 0;
    for c in 0..count {
        let (hashes, start, _, inverse) = classes.class(c)?;
        if hashes.is_empty() {
            continue;
        }
        // SAFETY: `hashes` is not empty; ISA by the caller.
        let (s, i) = unsafe { argmax_scored::<V>(hashes, key_hash) };
        let (l, h) = quick_interval(s, inverse);
        score[c] = s;
        at[c] = start + i as usize;
        lo[c] = l;
        seen += hashes.len();
        if h < hi_min {
            hi_min = h;
            best = c;
        }
    }
    if best == usize::MAX || seen != table.eligible() {
        return None;
    }
    let member = |c: usize| {
        classes
            .members
            .get(at[c])
            .copied()
            .filter(|&m| (m as usize) < table.hashes.len())
    };
    // A leader whose lower bound exceeds the smallest upper bound has a
    // strictly smaller weighted score than that leader's: it loses.
    if lo[..count].iter().filter(|&&l| l <= hi_min).count() == 1 {
        return member(best);
    }
    // Near: the float `ln` intervals (relative width about 2^-34) of the
    // leaders still in the race; a leader out of it gets an infinite bound.
    let quick_min = hi_min;
    hi_min = f64::INFINITY;
    for c in 0..count {
        if lo[c] > quick_min {
            lo[c] = f64::INFINITY;
            continue;
        }
        let (_, _, weight, _) = classes.class(c)?;
        let (l, h) = interval(score[c], weight);
        lo[c] = l;
        if h < hi_min {
            hi_min = h;
            best = c;
        }
    }
    if lo[..count].iter().filter(|&&l| l <= hi_min).count() == 1 {
        return member(best);
    }
    // Still near: the exact standings of the leaders that may win.
    let mut winner: Option<Ranked> = None;
    for c in 0..count {
        if lo[c] > hi_min {
            continue;
        }
        let m = member(c)?;
        let (_, _, weight, _) = classes.class(c)?;
        let node_hash = *table.hashes.get(m as usize)?;
        let r = Ranked {
            weighted: weighted_score(score[c], weight),
            score: score[c],
            node_hash,
            index: m,
        };
        if winner.is_none_or(|w| ranks_before(&r, &w)) {
            winner = Some(r);
        }
    }
    winner.map(|w| w.index)
}

/// [`ranks_before`] for equal-weight standings (whose `weighted` is 0.0):
/// raw score, then node hash, descending, then index ascending.
#[inline(always)]
fn before_plain(a: &Ranked, b: &Ranked) -> bool {
    (a.score, a.node_hash, !a.index) > (b.score, b.node_hash, !b.index)
}

/// Inserts the equal-weight standing `c` into the sorted `out[..*len]`,
/// keeping at most `out.len()`.
#[inline]
fn insert(out: &mut [Ranked], len: &mut usize, c: Ranked) {
    let k = out.len();
    if *len == k && !before_plain(&c, &out[k - 1]) {
        return;
    }
    let mut pos = if *len < k { *len } else { k - 1 };
    while pos > 0 && before_plain(&c, &out[pos - 1]) {
        out[pos] = out[pos - 1];
        pos -= 1;
    }
    out[pos] = c;
    if *len < k {
        *len += 1;
    }
}

/// Whether node `i` is eligible in an equal-weight table (`weights` is
/// `None` when every node is).
#[inline(always)]
fn eligible(weights: Option<&[f64]>, i: usize) -> bool {
    weights.is_none_or(|w| w[i] != 0.0)
}

/// Inserts the eligible nodes of the lanes set in `bits`, from node `base`;
/// returns the new threshold (the k-th best raw score).
#[inline(never)]
fn admit_plain(
    out: &mut [Ranked],
    hashes: &[u64],
    weights: Option<&[f64]>,
    key_hash: u64,
    base: usize,
    mut bits: u32,
) -> u64 {
    let mut len = out.len();
    while bits != 0 {
        let j = base + bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if eligible(weights, j) {
            insert(out, &mut len, Ranked::unweighted(key_hash, hashes[j], j as u32));
        }
    }
    out[out.len() - 1].score
}

/// Top-k (k >= 1) for equal-weight tables, with or without drained nodes.
///
/// # Safety
/// The ISA of `V` is supported; `out` is not empty.
#[inline(always)]
unsafe fn top_k_plain<V: Vector>(table: &TableColumns<'_>, key_hash: u64, out: &mut [Ranked]) -> usize {
    let hashes = table.hashes;
    let n = hashes.len();
    let k = out.len();
    let weights = match table.summary.shape {
        Shape::AllEqual => None,
        _ => table.weights,
    };
    // The first k eligible nodes fill the list.
    let (mut len, mut i) = (0, 0);
    while len < k && i < n {
        if eligible(weights, i) {
            insert(out, &mut len, Ranked::unweighted(key_hash, hashes[i], i as u32));
        }
        i += 1;
    }
    if len < k {
        return len;
    }
    let mut threshold = out[k - 1].score;
    let lanes = V::LANES;
    // SAFETY: `i + 2 * lanes <= n` for both loads; ISA by the caller.
    unsafe {
        let key = V::splat(key_hash);
        let mut bar = V::splat(threshold).ordered();
        while i + 2 * lanes <= n {
            let s0 = scores_at(key, hashes, i).ordered();
            let s1 = scores_at(key, hashes, i + lanes).ordered();
            let bits = V::mask_bits(s0.gt_ordered(bar)) | (V::mask_bits(s1.gt_ordered(bar)) << lanes);
            if bits != 0 {
                threshold = admit_plain(out, hashes, weights, key_hash, i, bits);
                bar = V::splat(threshold).ordered();
            }
            i += 2 * lanes;
        }
        if i < n {
            // The tail; lanes past the end are masked off.
            let (s0, s1) = tail_scores(key, hashes, i);
            let bits = V::mask_bits(s0.gt_ordered(bar)) | (V::mask_bits(s1.gt_ordered(bar)) << lanes);
            let bits = bits & ((1u32 << (n - i)) - 1);
            if bits != 0 {
                admit_plain(out, hashes, weights, key_hash, i, bits);
            }
        }
    }
    k
}

/// A node still in the weighted race, with bounds on `E = -weighted_score`.
#[derive(Clone, Copy)]
struct Candidate {
    lo: f64,
    hi: f64,
    index: u32,
}

/// The candidates of a weighted race, sorted by `hi`, and the race's bound:
/// the k-th smallest `hi` (infinite until k candidates are known). A node
/// whose `E` surely exceeds the bound is out: k candidates beat it.
struct Race {
    cands: [Candidate; RACE_CANDIDATES],
    len: usize,
    k: usize,
    bound: f64,
}

impl Race {
    fn new(k: usize) -> Race {
        Race {
            cands: [Candidate {
                lo: 0.0,
                hi: 0.0,
                index: 0,
            }; RACE_CANDIDATES],
            len: 0,
            k,
            bound: f64::INFINITY,
        }
    }

    /// Considers node `j` with the logarithm-free [`quick_interval`];
    /// `false` when the candidate list overflowed.
    #[inline]
    fn admit(&mut self, j: usize, score: u64, weight: f64) -> bool {
        let (lo, hi) = quick_interval(score, 1.0 / weight);
        if lo > self.bound {
            return true;
        }
        if self.len == RACE_CANDIDATES {
            let bound = self.bound;
            let mut kept = 0;
            for r in 0..self.len {
                if self.cands[r].lo <= bound {
                    self.cands[kept] = self.cands[r];
                    kept += 1;
                }
            }
            self.len = kept;
            if kept == RACE_CANDIDATES {
                return false;
            }
        }
        let mut pos = self.len;
        while pos > 0 && self.cands[pos - 1].hi > hi {
            self.cands[pos] = self.cands[pos - 1];
            pos -= 1;
        }
        self.cands[pos] = Candidate {
            lo,
            hi,
            index: j as u32,
        };
        self.len += 1;
        if self.len >= self.k {
            self.bound = self.cands[self.k - 1].hi;
        }
        true
    }

    /// Admits the eligible nodes of the lanes set in `bits`, from node `base`;
    /// `scores[b]` is the raw score of node `base + b`.
    ///
    /// The lane with the smallest `(1 - u) / w` (a lower bound on `E`, and
    /// close to it where it matters) goes first, so the bound drops at once
    /// and the other lanes are usually turned away by the same cheap test
    /// the vector filter applies. The choice only orders the work, so it
    /// compares cross products instead of dividing.
    #[inline(never)]
    fn admit_lanes(&mut self, scores: &[u64; 16], weights: &[f64], base: usize, bits: u32) -> bool {
        if bits & bits.wrapping_sub(1) == 0 {
            // One lane (the usual case after the first chunk): nothing to order.
            let b = bits.trailing_zeros() as usize;
            let w = weights[base + b];
            return w == 0.0 || self.admit(base + b, scores[b], w);
        }
        let mut first = usize::MAX;
        let (mut first_k, mut first_w) = (1.0f64, 0.0f64);
        let mut rest = bits;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let w = weights[base + b];
            let k = (!scores[b] >> 11) as f64;
            // k / w < first_k / first_w (first_w = 0 makes the right side infinite).
            if w != 0.0 && k * first_w <= first_k * w {
                (first, first_k, first_w) = (b, k, w);
            }
        }
        if first == usize::MAX {
            return true;
        }
        if !self.admit(base + first, scores[first], first_w) {
            return false;
        }
        let mut rest = bits;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (w, score) = (weights[base + b], scores[b]);
            if b != first && w != 0.0 && !surely_loses(score, w, self.bound) && !self.admit(base + b, score, w) {
                return false;
            }
        }
        true
    }

    /// Replaces the survivors' quick intervals by the tight float-`ln` ones
    /// of [`interval`], re-sorts them, updates the bound and keeps only
    /// those that can still place; returns how many.
    fn refine(&mut self, hashes: &[u64], weights: &[f64], key_hash: u64) -> usize {
        let alive = self.survivors();
        for c in &mut self.cands[..alive] {
            let j = c.index as usize;
            (c.lo, c.hi) = interval(pair_score(key_hash, hashes[j]), weights[j]);
        }
        let cands = &mut self.cands[..alive];
        for i in 1..alive {
            let mut j = i;
            while j > 0 && cands[j - 1].hi > cands[j].hi {
                cands.swap(j, j - 1);
                j -= 1;
            }
        }
        if alive >= self.k {
            self.bound = self.cands[self.k - 1].hi;
        }
        self.survivors()
    }

    /// Moves the candidates that can still place (lo <= bound) to the front;
    /// returns how many.
    fn survivors(&mut self) -> usize {
        let mut kept = 0;
        for r in 0..self.len {
            if self.cands[r].lo <= self.bound {
                self.cands[kept] = self.cands[r];
                kept += 1;
            }
        }
        self.len = kept;
        kept
    }
}

/// The scalar form of [`Vector::race_filter`]: whether a node with this raw
/// score and weight surely ranks after the candidates that set `bound`.
#[inline(always)]
fn surely_loses(score: u64, weight: f64, bound: f64) -> bool {
    const TWO_53: f64 = 9_007_199_254_740_992.0;
    // k < 2^53 converts exactly; the product is rounded once, as in the filter.
    (!score >> 11) as f64 > race_margin(bound) * TWO_53 * weight
}

/// Lanes of a chunk passing the race filter at `bound` (both halves).
///
/// # Safety
/// `weights..weights + 2 * LANES` is readable; the ISA of `V` is supported.
#[inline(always)]
unsafe fn chunk_filter<V: Vector>(s: (V, V), weights: *const f64, bound: f64) -> u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { V::race_filter(s.0, weights, bound) | (V::race_filter(s.1, weights.add(V::LANES), bound) << V::LANES) }
}

/// [`admit_chunk_from`] for a full chunk read in place.
///
/// # Safety
/// `base + 2 * LANES <= weights.len()`; the ISA of `V` is supported.
#[inline(always)]
unsafe fn admit_chunk<V: Vector>(
    race: &mut Race,
    scores: &[u64; 16],
    weights: &[f64],
    base: usize,
    bits: u32,
    s: (V, V),
) -> bool {
    // SAFETY: forwarded caller guarantee.
    unsafe { admit_chunk_from::<V>(race, scores, &weights[base..], weights, base, bits, s) }
}

/// Admits the lanes set in `bits` of the chunk from node `base` (scores
/// `s`, stored in `scores`; `lane_weights` holds the chunk's weights from
/// its first lane). When many lanes pass (the first chunk passes them all),
/// the vector filter is first rerun at lower and lower bounds to single out
/// the few lanes with the smallest `(1 - u) / w`; their admission sets a
/// tight bound, and the rerun filter at that bound turns the other lanes
/// away, all without a scalar pass over every lane.
///
/// # Safety
/// `lane_weights` holds at least `2 * LANES` values; the ISA of `V` is supported.
#[inline(always)]
unsafe fn admit_chunk_from<V: Vector>(
    race: &mut Race,
    scores: &[u64; 16],
    lane_weights: &[f64],
    weights: &[f64],
    base: usize,
    bits: u32,
    s: (V, V),
) -> bool {
    debug_assert!(lane_weights.len() >= 2 * V::LANES);
    if bits.count_ones() <= 2 {
        return race.admit_lanes(scores, weights, base, bits);
    }
    let first = bits.trailing_zeros() as usize;
    let w = lane_weights[first];
    if w == 0.0 {
        return race.admit_lanes(scores, weights, base, bits);
    }
    let wp = lane_weights.as_ptr();
    // A lower bound on the first lane's `E`: the filter at it keeps roughly
    // the lanes whose lower bound is at most the first lane's.
    let mut t = (!scores[first] >> 11) as f64 / (9_007_199_254_740_992.0 * w);
    // SAFETY: `wp..wp + 2 * LANES` is readable (caller); ISA by the caller.
    let mut few = unsafe { chunk_filter(s, wp, t) } & bits;
    if few == 0 {
        few = bits;
    }
    // Bounded: equal lower bounds (duplicate hashes) never separate.
    for _ in 0..8 {
        if few.count_ones() <= 1 {
            break;
        }
        t *= 0.25;
        // SAFETY: as above.
        let fewer = unsafe { chunk_filter(s, wp, t) } & few;
        if fewer == 0 {
            break;
        }
        few = fewer;
    }
    if !race.admit_lanes(scores, weights, base, few) {
        return false;
    }
    // SAFETY: as above.
    let rest = unsafe { chunk_filter(s, wp, race_margin(race.bound)) } & bits & !few;
    rest == 0 || race.admit_lanes(scores, weights, base, rest)
}

/// Runs the weighted race over every node; `false` if the candidate list
/// overflowed (many nodes within 2^-34 of each other, e.g. duplicated hashes).
///
/// # Safety
/// The ISA of `V` is supported; the table is `Weighted` and its weights cover
/// every node.
#[inline(always)]
unsafe fn run_race<V: Vector>(table: &TableColumns<'_>, key_hash: u64, race: &mut Race) -> bool {
    let hashes = table.hashes;
    let Some(weights) = table.weights else {
        return false;
    };
    let n = hashes.len();
    let lanes = V::LANES;
    let mut i = 0;
    // The raw scores of the chunk whose lanes go to `admit_lanes`.
    let mut scores = [0u64; 16];
    // SAFETY: `i + 2 * lanes <= n <= weights.len()` for every load; the
    // stores write `2 * lanes <= 16` values into `scores`; ISA by the caller.
    unsafe {
        let key = V::splat(key_hash);
        let mut bar = race_margin(race.bound);
        while i + 2 * lanes <= n {
            let s0 = scores_at(key, hashes, i);
            let s1 = scores_at(key, hashes, i + lanes);
            let w = weights.as_ptr().add(i);
            let bits = V::race_filter(s0, w, bar) | (V::race_filter(s1, w.add(lanes), bar) << lanes);
            if bits != 0 {
                s0.store(scores.as_mut_ptr());
                s1.store(scores.as_mut_ptr().add(lanes));
                if !admit_chunk::<V>(race, &scores, weights, i, bits, (s0, s1)) {
                    return false;
                }
                bar = race_margin(race.bound);
            }
            i += 2 * lanes;
        }
        if i < n {
            // The tail, from buffers; lanes past the end are masked off.
            let mut pad = [0u64; 16];
            let mut pad_weights = [0f64; 16];
            pad[..n - i].copy_from_slice(&hashes[i..]);
            pad_weights[..n - i].copy_from_slice(&weights[i..n]);
            let s0 = scores_at(key, &pad, 0);
            let s1 = scores_at(key, &pad, lanes);
            let w = pad_weights.as_ptr();
            let bits = V::race_filter(s0, w, bar) | (V::race_filter(s1, w.add(lanes), bar) << lanes);
            let bits = bits & ((1u32 << (n - i)) - 1);
            if bits != 0 {
                s0.store(scores.as_mut_ptr());
                s1.store(scores.as_mut_ptr().add(lanes));
                if !admit_chunk_from::<V>(race, &scores, &pad_weights, weights, i, bits, (s0, s1)) {
                    return false;
                }
            }
        }
    }
    true
}

/// The exact standing of node `j` (computes the fixed-point `ln`).
#[inline]
fn exact(table: &TableColumns<'_>, key_hash: u64, j: u32) -> Ranked {
    let j_us = j as usize;
    Ranked::weighted(key_hash, table.hashes[j_us], table.weight(j_us), j)
}

/// Owner of a weighted table.
///
/// # Safety
/// The ISA of `V` is supported; the table is `Weighted` with fitting weights.
#[inline(always)]
unsafe fn owner_weighted<V: Vector>(table: &TableColumns<'_>, key_hash: u64) -> Option<u32> {
    // SAFETY: forwarded caller guarantee.
    let mut race = Race::new(1);
    // SAFETY: forwarded caller guarantee.
    if !unsafe { run_race::<V>(table, key_hash, &mut race) } {
        return oracle::owner(table, key_hash);
    }
    let mut alive = race.survivors();
    if alive > 1 {
        let Some(weights) = table.weights else {
            return oracle::owner(table, key_hash);
        };
        alive = race.refine(table.hashes, weights, key_hash);
    }
    if alive == 1 {
        return Some(race.cands[0].index);
    }
    let mut best: Option<Ranked> = None;
    for c in &race.cands[..alive] {
        let r = exact(table, key_hash, c.index);
        if best.is_none_or(|b| ranks_before(&r, &b)) {
            best = Some(r);
        }
    }
    best.map(|b| b.index)
}

/// A race survivor being ordered: bounds, and the exact standing once needed.
#[derive(Clone, Copy)]
struct Survivor {
    lo: f64,
    hi: f64,
    index: u32,
    exact: Option<Ranked>,
}

/// Whether survivor `a` ranks before survivor `b`. Disjoint intervals decide
/// (they agree with the exact order); overlapping ones use the exact standings.
fn survivor_before(table: &TableColumns<'_>, key_hash: u64, s: &mut [Survivor], a: usize, b: usize) -> bool {
    if s[a].hi < s[b].lo {
        return true;
    }
    if s[b].hi < s[a].lo {
        return false;
    }
    let (ia, ib) = (s[a].index, s[b].index);
    let ea = *s[a].exact.get_or_insert_with(|| exact(table, key_hash, ia));
    let eb = *s[b].exact.get_or_insert_with(|| exact(table, key_hash, ib));
    ranks_before(&ea, &eb)
}

/// Top-k of a weighted table, `1 <= k <= WEIGHTED_K_MAX`, `k < eligible`.
///
/// # Safety
/// The ISA of `V` is supported; the table is `Weighted` with fitting weights.
#[inline(always)]
unsafe fn top_k_weighted<V: Vector>(table: &TableColumns<'_>, key_hash: u64, out: &mut [Ranked]) -> usize {
    let k = out.len();
    // SAFETY: forwarded caller guarantee.
    let mut race = Race::new(k);
    // SAFETY: forwarded caller guarantee.
    if !unsafe { run_race::<V>(table, key_hash, &mut race) } {
        return oracle::top_k(table, key_hash, out);
    }
    let Some(weights) = table.weights else {
        return oracle::top_k(table, key_hash, out);
    };
    let alive = race.refine(table.hashes, weights, key_hash);
    let mut s = [Survivor {
        lo: 0.0,
        hi: 0.0,
        index: 0,
        exact: None,
    }; RACE_CANDIDATES];
    for (dst, c) in s.iter_mut().zip(&race.cands[..alive]) {
        *dst = Survivor {
            lo: c.lo,
            hi: c.hi,
            index: c.index,
            exact: None,
        };
    }
    let s = &mut s[..alive];
    for i in 1..alive {
        let mut j = i;
        while j > 0 && survivor_before(table, key_hash, s, j, j - 1) {
            s.swap(j, j - 1);
            j -= 1;
        }
    }
    let k = k.min(alive);
    for (slot, c) in out.iter_mut().zip(s.iter()).take(k) {
        *slot = c.exact.unwrap_or_else(|| exact(table, key_hash, c.index));
    }
    k
}

/// Batch owners for small equal-weight tables: `LANES` keys at a time, one
/// lane per key, looping over the nodes (no horizontal reduction).
///
/// # Safety
/// The ISA of `V` is supported; the table is `AllEqual` and not empty.
#[inline(always)]
unsafe fn owners_keys_in_lanes<V: Vector, O: KeyOffset>(
    table: &TableColumns<'_>,
    keys: &PackedKeys<'_, O>,
    out: &mut [u32],
) {
    let hashes = table.hashes;
    let lanes = V::LANES;
    let mut key_hashes = [0u64; 8];
    let mut winners = [0u64; 8];
    let mut keys_iter = keys.iter();
    for chunk in out.chunks_mut(lanes) {
        for (h, key) in key_hashes.iter_mut().zip(keys_iter.by_ref().take(chunk.len())) {
            *h = table.hashing.key_hash(key);
        }
        // SAFETY: the arrays hold 8 >= lanes values; ISA by the caller.
        unsafe {
            let kh = V::load(key_hashes.as_ptr());
            let mut best = mix(kh.xor(V::splat(hashes[0]))).ordered();
            let mut index = V::splat(0);
            for (j, &h) in hashes.iter().enumerate().skip(1) {
                let s = mix(kh.xor(V::splat(h))).ordered();
                let g = s.gt_ordered(best);
                best = V::select(g, s, best);
                index = V::select(g, V::splat(j as u64), index);
            }
            index.store(winners.as_mut_ptr());
        }
        for (slot, &w) in chunk.iter_mut().zip(&winners) {
            *slot = w as u32;
        }
    }
}
