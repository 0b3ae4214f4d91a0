//! The weighted owner as a race inside the vector lanes (issue 14), so that
//! a lookup leaves the vector loop at most a handful of times and takes no
//! logarithm at all unless two nodes are nearly tied.
//!
//! Every lane keeps its best node and its runner-up under the surrogate
//! `S = p / w`, where `p` ([`Vector::race_key`]) is at most about
//! `2^53 (x + x^2 / 2)`, `x = 1 - u`. Since `-ln u = x + x^2/2 + x^3/3 + ...`,
//! `S` is a lower bound of `2^53 E` (`E = -weighted_score`, smaller wins)
//! that is tight to a relative `x^2 / 3`, and the winner of a race has a
//! small `x`. Lanes compare `p1 / w1 < p2 / w2` as `p1 w2 < p2 w1`: no
//! division, and because rounding is monotone, "smaller" is never wrong
//! (a rounded product is below the other only if the exact one is), while
//! "not smaller" means at most a relative `2^-52` smaller. So every node a
//! lane dropped has `S` at least its lane's runner-up's (or, outside the
//! leader's lane, its best's) times `1 - 2^-52`: no chain of comparisons
//! adds up errors.
//!
//! At the end the leader `c` (smallest `S` of the lanes' bests) gets the
//! rigorous upper bound `hi >= E_c` of [`neg_ln_upper`] over `w_c`. If every other
//! lane's first node, and the leader lane's runner-up, has a lower bound of
//! `E` above `hi`, then every other node ranks after `c` and `c` is the
//! owner: no tie-break and no logarithm needed. Otherwise (near-ties,
//! duplicated hashes; rare) the caller runs the exact race.
//!
//! After the first [`PREFIX_CHUNKS`] chunks the lanes are only updated for
//! chunks in which some lane passes [`Vector::race_filter`] at the leader's
//! `hi` (a node that fails it has `E > hi >= E_leader`, so it loses to a
//! node the final check covers), which keeps the loop as cheap as the
//! weighted filter was for large tables.

use super::bounds::race_margin;
use super::kernels::IOTA;
use super::{mix, Vector};
use crate::node_table::NodeTable;
use crate::score::pair_score;

/// Chunks raced in every lane before the filter takes over. Each chunk in
/// the filter phase that lets a lane through costs a pass over the lanes
/// (about 150 instructions and a mispredicted branch), which with `m`
/// nodes seen happens with probability about `2 LANES / m` per chunk;
/// racing a chunk costs about 40 more vector instructions than filtering
/// it. The two meet at about 6 chunks.
const PREFIX_CHUNKS: usize = 6;

/// `2^-53 (1 - 2^-45)`: turns a lane's `p` into a lower bound of `E w` (see [`decide`]).
const LOWER: f64 = (1.0 - 1.0 / (1u64 << 45) as f64) / (1u64 << 53) as f64;

/// Every lane's best node (key `p`, weight, index) and runner-up (key,
/// weight) under `p / w`; f64 values as bits. An empty slot has key 1 and
/// weight 0 (`S` infinite), so a weight-0 node never enters one.
#[derive(Clone, Copy)]
struct Standings<V> {
    key: V,
    weight: V,
    index: V,
    second_key: V,
    second_weight: V,
}

impl<V: Vector> Standings<V> {
    /// Empty lanes.
    ///
    /// # Safety
    /// The ISA of `V` is supported.
    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: forwarded caller guarantee.
        unsafe {
            let (one, zero) = (V::splat(1f64.to_bits()), V::splat(0f64.to_bits()));
            Standings {
                key: one,
                weight: zero,
                index: zero,
                second_key: one,
                second_weight: zero,
            }
        }
    }

    /// Races one vector of nodes (keys, weights, indices) into the lanes.
    ///
    /// # Safety
    /// The ISA of `V` is supported.
    #[inline(always)]
    unsafe fn take(&mut self, key: V, weight: V, index: V) {
        // SAFETY: forwarded caller guarantee.
        unsafe {
            let better = key.mul_f64(self.weight).lt_f64(self.key.mul_f64(weight));
            let before_second = key.mul_f64(self.second_weight).lt_f64(self.second_key.mul_f64(weight));
            let second_key = V::select(before_second, key, self.second_key);
            let second_weight = V::select(before_second, weight, self.second_weight);
            self.second_key = V::select(better, self.key, second_key);
            self.second_weight = V::select(better, self.weight, second_weight);
            self.key = V::select(better, key, self.key);
            self.weight = V::select(better, weight, self.weight);
            self.index = V::select(better, index, self.index);
        }
    }
}

/// The leader: the lane (of both halves, half 0 first) whose best node has
/// the smallest `p / w`, that node's index and weight, and an upper bound
/// of its `-ln u`;
/// `None` if no lane holds a node. The quotients may be approximate, but
/// any lane would do: [`decide`] proves its answer, and the smallest
/// `p / w` only makes the proof succeed.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn leader<V: Vector>(lanes: &(Standings<V>, Standings<V>), hashes: &[u64], key_hash: u64) -> Option<Leader> {
    let mut index = [0u64; 16];
    let mut weight = [0u64; 16];
    let l = V::LANES;
    // SAFETY: each array holds 16 >= 2 * LANES values; ISA by the caller.
    unsafe {
        // An empty lane's quotient is 1 / 0 = inf.
        let q0 = lanes.0.key.div_f64_approx(lanes.0.weight);
        let q1 = lanes.1.key.div_f64_approx(lanes.1.weight);
        let best = q0.min_f64(q1).reduce_min_f64();
        if best == f64::INFINITY {
            return None;
        }
        let best = V::splat(best.to_bits());
        let lane = (V::mask_bits(q0.eq(best)) | (V::mask_bits(q1.eq(best)) << l)).trailing_zeros() as usize;
        lanes.0.index.store(index.as_mut_ptr());
        lanes.1.index.store(index.as_mut_ptr().add(l));
        lanes.0.weight.store(weight.as_mut_ptr());
        lanes.1.weight.store(weight.as_mut_ptr().add(l));
        let (index, weight) = (*index.get(lane)?, f64::from_bits(*weight.get(lane)?));
        Some(Leader {
            lane,
            index,
            weight,
            neg_ln_hi: neg_ln_upper(pair_score(key_hash, *hashes.get(index as usize)?)),
        })
    }
}

/// A lane race's leader (see [`leader`]).
#[derive(Clone, Copy)]
struct Leader {
    lane: usize,
    index: u64,
    weight: f64,
    /// An upper bound of the spec's `fl(-ln u)` ([`neg_ln_upper`]), so
    /// `E <= fl(neg_ln_hi / weight)` (rounding is monotone).
    neg_ln_hi: f64,
}

/// `2^-53`, exactly.
const TWO_NEG_53: f64 = 1.0 / (1u64 << 53) as f64;
/// Absolute widening: covers the spec's fixed-point excess (below `2^-60`).
const ABS: f64 = 1.0 / (1u64 << 58) as f64;
/// Relative widening: covers the spec's final rounding (`2^-53`) and the
/// handful of roundings below (each `2^-53`) many times over.
const REL_HI: f64 = 1.0 + 1.0 / (1u64 << 46) as f64;

/// An upper bound of the spec's `fl(-ln u)` (`u = unit_numerator(score) /
/// 2^53`, SPEC.md §5.2), without a division when `x = 1 - u <= 1/4` (the
/// usual case for a race's leader).
///
/// For `x <= 1/4`: `-ln(1 - x) = x + x^2/2 + x^3/3 + sum_{j >= 4} x^j / j`
/// and the tail is at most `x^4 / (4 (1 - x)) <= x^4 / 3`. Otherwise
/// `-ln(1 - x) <= x + x^2 / (2 (1 - x))` (term by term). The polynomial is
/// evaluated with positive terms only (a relative error below `2^-49`);
/// `ABS` covers the spec's excess and `REL_HI` its rounding and ours.
#[inline(never)]
pub(crate) fn neg_ln_upper(score: u64) -> f64 {
    let k = !score >> 11;
    // Exact: k < 2^53.
    let x = k as f64 * TWO_NEG_53;
    let series = if k <= 1 << 51 {
        x + x * x * (0.5 + x * (1.0 / 3.0 + x * (1.0 / 3.0)))
    } else {
        let m = ((1u64 << 53) - k) as f64;
        x + 0.5 * x * (k as f64 / m)
    };
    (series + ABS) * REL_HI
}

/// The filter bound for the rest of the scan: the leader's `hi`, widened
/// by [`race_margin`].
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn filter_bound<V: Vector>(lanes: &(Standings<V>, Standings<V>), hashes: &[u64], key_hash: u64) -> f64 {
    // SAFETY: forwarded caller guarantee.
    match unsafe { leader(lanes, hashes, key_hash) } {
        // fl(neg_ln_hi / w) >= E: rounding is monotone.
        Some(leader) => race_margin(leader.neg_ln_hi / leader.weight),
        None => f64::INFINITY,
    }
}

/// The owner, if the bounds prove it (see the module docs).
///
/// Why the check is enough: take a node `j` other than the leader `c`, in
/// a lane whose first node other than `c` (by `p / w`) is `f`. Then
/// `p_j / w_j >= (p_f / w_f) (1 - 2^-52)`; `p_j` exceeds `2^53 (x + x^2 /
/// 2)` by at most `2^-51` relatively; and the spec's `E_j >= (x_j + x_j^2 /
/// 2) / w_j (1 - 2^-53)^2` (see [`super::bounds::quick_interval`]). So
/// `E_j >= p_f / w_f 2^-53 (1 - 2^-49)`. With `H` =
/// [`Leader::neg_ln_hi`], `E_c <= (H / w_c) (1 + 2^-53)`. The test
/// `fl(H w_f) < fl(p_f fl(w_c LOWER))` implies `H w_f < p_f w_c 2^-53 (1 -
/// 2^-45) (1 + 2^-51)`, hence `E_j > E_c`: no division
/// needed. An empty slot (key 1, weight 0) passes: `0 < fl(w_c LOWER)`.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn decide<V: Vector>(lanes: &(Standings<V>, Standings<V>), hashes: &[u64], key_hash: u64) -> Option<u32> {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        let leader = leader(lanes, hashes, key_hash)?;
        let hi = V::splat(leader.neg_ln_hi.to_bits());
        let lower = V::splat((leader.weight * LOWER).to_bits());
        let l = V::LANES;
        let firsts =
            beyond(hi, lower, lanes.0.key, lanes.0.weight) | (beyond(hi, lower, lanes.1.key, lanes.1.weight) << l);
        let seconds = beyond(hi, lower, lanes.0.second_key, lanes.0.second_weight)
            | (beyond(hi, lower, lanes.1.second_key, lanes.1.second_weight) << l);
        let all = (1u32 << (2 * l)) - 1;
        let own = 1u32 << leader.lane;
        (firsts | own == all && seconds & own != 0).then_some(leader.index as u32)
    }
}

/// The lanes whose `(key, weight)` provably ranks after the leader:
/// `hi w < key lower` (see [`decide`]).
/// (A function, not a closure: closures would not inherit the target features.)
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn beyond<V: Vector>(hi: V, lower: V, key: V, weight: V) -> u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { V::mask_bits(hi.mul_f64(weight).lt_f64(key.mul_f64(lower))) }
}

/// Races the chunk of nodes `i..i + 2 LANES` (hashes `h`, weights `w` as bits).
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn take_chunk<V: Vector>(lanes: &mut (Standings<V>, Standings<V>), s: (V, V), w: (V, V), i: usize) {
    // SAFETY: IOTA holds 16 >= 2 * LANES values; ISA by the caller.
    unsafe {
        let base = V::splat(i as u64);
        let index0 = base.add(V::load(IOTA.as_ptr()));
        let index1 = base.add(V::load(IOTA.as_ptr().add(V::LANES)));
        lanes.0.take(V::race_key(s.0), w.0, index0);
        lanes.1.take(V::race_key(s.1), w.1, index1);
    }
}

/// The owner of `key_hash` in a weighted table, or `None` when the bounds
/// cannot decide (near-ties; the caller then runs the exact race).
///
/// # Safety
/// The ISA of `V` is supported; the table's weights cover every node.
#[inline(always)]
pub(crate) unsafe fn owner<V: Vector>(table: &NodeTable<'_>, key_hash: u64) -> Option<u32> {
    let hashes = table.hashes;
    let weights = table.weights?;
    let n = hashes.len();
    let lanes = V::LANES;
    let chunk = 2 * lanes;
    let hp = hashes.as_ptr();
    let wp = weights.as_ptr().cast::<u64>();
    // SAFETY: full chunks read `i..i + chunk <= n <= weights.len()`; the
    // tail reads `i..n` through `load_tail` (`wrapping_add` never forms an
    // out-of-bounds pointer with `add`); ISA by the caller.
    unsafe {
        let key = V::splat(key_hash);
        let mut standings = (Standings::<V>::new(), Standings::<V>::new());
        let mut i = 0;
        let prefix_end = n.min(PREFIX_CHUNKS * chunk);
        while i + chunk <= prefix_end {
            let s = (
                mix(key.xor(V::load(hp.add(i)))),
                mix(key.xor(V::load(hp.add(i + lanes)))),
            );
            let w = (V::load(wp.add(i)), V::load(wp.add(i + lanes)));
            take_chunk(&mut standings, s, w, i);
            i += chunk;
        }
        if i + chunk <= n {
            let mut bar = filter_bound(&standings, hashes, key_hash);
            while i + chunk <= n {
                let s = (
                    mix(key.xor(V::load(hp.add(i)))),
                    mix(key.xor(V::load(hp.add(i + lanes)))),
                );
                let wf = weights.as_ptr().add(i);
                let bits = V::race_filter(s.0, wf, bar) | (V::race_filter(s.1, wf.add(lanes), bar) << lanes);
                if bits != 0 {
                    let w = (V::load(wp.add(i)), V::load(wp.add(i + lanes)));
                    take_chunk(&mut standings, s, w, i);
                    bar = filter_bound(&standings, hashes, key_hash);
                }
                i += chunk;
            }
        }
        if i < n {
            // Lanes past the end get weight 0: they never enter a slot.
            let rest = n - i;
            let (first, second) = (rest.min(lanes), rest.saturating_sub(lanes));
            let h = (
                V::load_tail(hp.wrapping_add(i), first, 0),
                V::load_tail(hp.wrapping_add(i + lanes), second, 0),
            );
            let s = (mix(key.xor(h.0)), mix(key.xor(h.1)));
            let w = (
                V::load_tail(wp.wrapping_add(i), first, 0),
                V::load_tail(wp.wrapping_add(i + lanes), second, 0),
            );
            take_chunk(&mut standings, s, w, i);
        }
        decide(&standings, hashes, key_hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ln::ln_unit;

    /// `neg_ln_upper` bounds the spec's value from above, and tightly.
    fn check(score: u64) {
        let exact = -ln_unit(score);
        let upper = neg_ln_upper(score);
        assert!(upper >= exact, "score {score:#x}: {upper} < {exact}");
        let k = !score >> 11;
        let x = k as f64 / (1u64 << 53) as f64;
        // Slack of the series: x^4 / 3 below x = 1/4, sum_{j >= 3} x^j / 2 above; plus the widening.
        let slack = if k <= 1 << 51 {
            x.powi(4) / 3.0
        } else {
            x.powi(3) / 2.0 / (1.0 - x)
        };
        assert!(
            upper <= (exact + slack) * (1.0 + 1e-12) + 1e-16,
            "score {score:#x}: {upper} too far above {exact}"
        );
    }

    #[test]
    fn neg_ln_upper_brackets_the_spec() {
        let mut z = 7u64;
        for _ in 0..50_000 {
            z = crate::score::mix(z.wrapping_add(0x9E37_79B9_7F4A_7C15));
            check(z);
            check(z | 0xFFFF_FFFF_FFF0_0000);
            check(!(z >> 3));
            check(z >> 40);
        }
        for b in 0..64 {
            for d in [0u64, 1, 2047, 2048, 4095] {
                check((1u64 << b).wrapping_sub(d));
                check((1u64 << b).wrapping_add(d));
                check(!((1u64 << b).wrapping_sub(d)));
            }
        }
        for score in [0, u64::MAX, u64::MAX - 2048, !(1u64 << 62), !(3u64 << 61)] {
            check(score);
        }
    }
}
