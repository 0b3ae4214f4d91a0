//! The weighted owner as a race inside the vector lanes, so that
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
//! At the end every lane's best gets an upper bound of `E`
//! ([`upper_bounds`]), and every lane's first node a lower bound that
//! holds for every node the lane dropped behind it ([`beyond`]); both are
//! vector arithmetic with approximate divisions (a relative `2^-14`, paid
//! for by margins of `2^-11`). If exactly one lane's best can be below the
//! smallest upper bound `m`, and that lane's runner-up cannot, that best
//! ranks before every other node: it is the owner, with no tie-break, no
//! scalar pass over the lanes and no logarithm. Otherwise (near-ties
//! within about `2^-10` plus `x^2 / 3`, duplicated hashes; rare) the
//! caller runs the exact race.
//!
//! After the first [`PREFIX_CHUNKS`] chunks the lanes are only updated for
//! chunks in which some lane passes [`Vector::race_filter`] at `m` (a node
//! that fails it has `E > m`, so it loses to the node holding `m`, which
//! the final check covers), which keeps the loop nearly as cheap as the
//! plain argmax for large tables.

use super::kernels::IOTA;
use super::{mix, Vector};
use crate::limits::{LANE_E_HIGH, LANE_E_LOW, LANE_P_MAX, LANE_P_UP, LN_EXCESS_ABS};
use crate::race::bounds::race_margin;
use crate::table::TableColumns;

/// Chunks raced in every lane before the filter takes over. A chunk in
/// the filter phase that lets a lane through costs the race of that chunk,
/// a new bound and a mispredicted branch, which with `m` nodes seen
/// happens with probability about `2 LANES / m` per chunk; racing a chunk
/// costs about 40 more vector instructions than filtering it.
const PREFIX_CHUNKS: usize = 6;

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

    /// Lanes holding one vector of nodes (keys, weights, indices): what
    /// [`Standings::take`] makes of empty lanes, without the comparisons.
    ///
    /// # Safety
    /// The ISA of `V` is supported.
    #[inline(always)]
    unsafe fn first(key: V, weight: V, index: V) -> Self {
        // SAFETY: forwarded caller guarantee.
        unsafe {
            let empty = Self::new();
            // Weights are +0.0 or positive (validated), so a zero weight has bits 0.
            let drained = weight.eq(V::splat(0));
            Standings {
                key: V::select(drained, empty.key, key),
                weight,
                index,
                ..empty
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

/// An upper bound of `E` for every lane's best node, `inf` for an empty
/// lane or where none is given (`P >= LANE_P_MAX`: only in tiny races).
///
/// Why: the lane's `p` is at least the true `2^53 P` (`P = x + x^2 / 2`)
/// less 2 (a backend may use `2 floor(k / 2)` for `k`, and `dp / dk <= 2`)
/// and a relative `2^-52`, so `fl(fl(p + 2) LANE_P_UP) >= P`. Since `x <= P`,
/// `-ln(1 - x) = P + sum_{j >= 3} x^j / j <= P + P^3 / (3 (1 - P))`. The
/// spec's `E = fl(fl(L) / w)` with `fl(L) <= (-ln u + 2^-60) (1 + 2^-53)`.
/// Two approximate divisions (`2^-14` each) and a dozen roundings stay far
/// below `LANE_E_HIGH - 1`.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn upper_bounds<V: Vector>(s: &Standings<V>) -> V {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        neg_ln_upper(s.key)
            .div_f64_approx(s.weight)
            .mul_f64(splat_f64(LANE_E_HIGH))
    }
}

/// For race keys `key` ([`Vector::race_key`]): an upper bound `H` of
/// `-ln u` plus the spec's excess (`2^-60`), within a relative `2^-13`
/// (one approximate division), or `inf` where `P >= LANE_P_MAX`. Then
/// `fl(fl(H / w) LANE_E_HIGH) >= E` even with an approximate division by `w`
/// (see [`upper_bounds`]).
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
pub(crate) unsafe fn neg_ln_upper<V: Vector>(key: V) -> V {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        let c = splat_f64::<V>;
        let p = key.add_f64(c(2.0)).mul_f64(c(LANE_P_UP));
        let p3 = p.mul_f64(p).mul_f64(p);
        let tail = p3.div_f64_approx(c(3.0).add_f64(p.mul_f64(c(-3.0))));
        let neg_ln = p.add_f64(tail).add_f64(c(LN_EXCESS_ABS));
        V::select(p.lt_f64(c(LANE_P_MAX)), neg_ln, c(f64::INFINITY))
    }
}

/// Every lane `x`.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
pub(crate) unsafe fn splat_f64<V: Vector>(x: f64) -> V {
    // SAFETY: forwarded caller guarantee.
    unsafe { V::splat(x.to_bits()) }
}

/// The smallest upper bound of `E` among the lanes' best nodes (see
/// [`upper_bounds`]): the node that has it beats every node whose `E`
/// exceeds it.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn best_upper_bound<V: Vector>(lanes: &(Standings<V>, Standings<V>)) -> f64 {
    // SAFETY: forwarded caller guarantee.
    unsafe { upper_bounds(&lanes.0).min_f64(upper_bounds(&lanes.1)).reduce_min_f64() }
}

/// The lanes whose `(key, weight)` provably rank after a node with `E <=
/// bound`: every node a lane dropped behind that slot has `E >= p / w 2^-53
/// (1 - 2^-49)` (see [`decide`]), and `fl(fl(p / w) LANE_E_LOW)` is below that
/// (an approximate division is off by at most `2^-14`). An empty slot
/// (key 1, weight 0) has an infinite bound.
/// (A function, not a closure: closures would not inherit the target features.)
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn beyond<V: Vector>(bound: V, key: V, weight: V) -> u32 {
    // SAFETY: forwarded caller guarantee.
    unsafe { V::mask_bits(bound.lt_f64(key.div_f64_approx(weight).mul_f64(V::splat(LANE_E_LOW.to_bits())))) }
}

/// The owner, if the bounds prove it (see the module docs).
///
/// Let `m` be the smallest upper bound of the lanes' best nodes, held by
/// lane `a`. Take a node `j` other than lane `a`'s best, in a lane whose
/// first node other than that best (by `p / w`) is `f`. Then `p_j / w_j >=
/// (p_f / w_f) (1 - 2^-52)`; `p_j` exceeds `2^53 (x + x^2 / 2)` by at most
/// `2^-51` relatively; and the spec's `E_j >= (x_j + x_j^2 / 2) / w_j (1 -
/// 2^-53)^2` (see [`crate::race::bounds::quick_interval`]). So `E_j >= p_f / w_f
/// 2^-53 (1 - 2^-49)`, which [`beyond`] compares with `m`. Lane `a`'s own
/// best has a lower bound at most `m`, so it is the one lane whose first
/// node is not beyond `m`; if its runner-up is, its best is the owner,
/// with no tie-break and no logarithm.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn decide<V: Vector>(lanes: &(Standings<V>, Standings<V>)) -> Option<u32> {
    let l = V::LANES;
    // SAFETY: `index` holds 16 >= 2 * LANES values; ISA by the caller.
    unsafe {
        let m = best_upper_bound(lanes);
        if m == f64::INFINITY {
            return None;
        }
        let m = V::splat(m.to_bits());
        let all = (1u32 << (2 * l)) - 1;
        let near = all & !(beyond(m, lanes.0.key, lanes.0.weight) | (beyond(m, lanes.1.key, lanes.1.weight) << l));
        let seconds_beyond = beyond(m, lanes.0.second_key, lanes.0.second_weight)
            | (beyond(m, lanes.1.second_key, lanes.1.second_weight) << l);
        if near.count_ones() != 1 || seconds_beyond & near == 0 {
            return None;
        }
        let mut index = [0u64; 16];
        lanes.0.index.store(index.as_mut_ptr());
        lanes.1.index.store(index.as_mut_ptr().add(l));
        index.get(near.trailing_zeros() as usize).map(|&i| i as u32)
    }
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
pub(crate) unsafe fn owner<V: Vector>(table: &TableColumns<'_>, key_hash: u64) -> Option<u32> {
    let hashes = table.hashes;
    let weights = table.weights?;
    let n = hashes.len();
    let lanes = V::LANES;
    let chunk = 2 * lanes;
    let hp = hashes.as_ptr();
    let wp = weights.as_ptr().cast::<u64>();
    // SAFETY: full chunks read `i..i + chunk <= n <= weights.len()`; the
    // tail reads `i..n` through `load_tail` (`wrapping_add` never forms an
    // out-of-bounds pointer with `add`); IOTA holds 16 >= 2 * LANES values;
    // ISA by the caller.
    unsafe {
        let key = V::splat(key_hash);
        // The first chunk (whole, or all of a small table) fills empty lanes.
        let (s, w) = if n >= chunk {
            (
                (mix(key.xor(V::load(hp))), mix(key.xor(V::load(hp.add(lanes))))),
                (V::load(wp), V::load(wp.add(lanes))),
            )
        } else {
            // Lanes past the end get weight 0: they never enter a slot.
            let (first, second) = (n.min(lanes), n.saturating_sub(lanes));
            (
                (
                    mix(key.xor(V::load_tail(hp, first, 0))),
                    mix(key.xor(V::load_tail(hp.wrapping_add(lanes), second, 0))),
                ),
                (
                    V::load_tail(wp, first, 0),
                    V::load_tail(wp.wrapping_add(lanes), second, 0),
                ),
            )
        };
        let mut standings = (
            Standings::first(V::race_key(s.0), w.0, V::load(IOTA.as_ptr())),
            Standings::first(V::race_key(s.1), w.1, V::load(IOTA.as_ptr().add(lanes))),
        );
        let mut i = chunk;
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
            let mut bar = race_margin(best_upper_bound(&standings));
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
                    bar = race_margin(best_upper_bound(&standings));
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
        decide(&standings)
    }
}
