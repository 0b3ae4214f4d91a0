//! The weighted owner of a table whose eligible nodes are grouped by weight
//! ([`crate::classes`]): the plain argmax's loop over each class, with no
//! horizontal reduction per class, then one bound check over every class's
//! lanes.
//!
//! Within one class the weighted score is non-decreasing in the raw score
//! and equal weighted scores are broken by raw score (SPEC.md §5.2, §6), so
//! a node that a lane of its class beat on raw score ranks after the lane's
//! best: only the lane bests, one per lane and class, can own the key. Each
//! gets the lane race's bounds of `E = -weighted_score` (see
//! [`super::lane_race`]: an upper bound from [`neg_ln_upper`], a lower bound
//! `p / w` times `LANE_E_LOW`, with approximate divisions paid for by
//! margins of `2^-11`). Let `m` be the smallest upper bound; the owner's
//! `E` is at most `m`, so its lower bound is too. If exactly one lane best
//! has a lower bound at most `m`, every other lane best (and so every other
//! node) has `E > m`: that one is the owner, with no tie-break and no
//! logarithm. Otherwise (near-ties, equal `u` within a class, duplicated
//! hashes) the caller runs the exact race.
//!
//! Lanes past the end of a class hold the score 0 (the lowest), never a copy
//! of a node: a copy would tie with its original and send the lookup to the
//! exact race. Such a lane's bounds are those of a node with score 0 in the
//! class, which the class's real best is at least as good as, so it can
//! neither be the one lane left nor lower `m` below the owner's `E`.

use super::kernels::IOTA;
use super::lane_race::{neg_ln_upper, splat_f64};
use super::{mix, Vector};
use crate::classes::MAX_WEIGHT_CLASSES;
use crate::limits::{LANE_E_HIGH, LANE_E_LOW};
use crate::table::TableColumns;

/// The ordered scores of the nodes `i..i + LANES` of `hashes` that exist,
/// the lowest score (0) in lanes past the end.
///
/// # Safety
/// `i < hashes.len()` or the lanes are all past the end (`i >= hashes.len()`
/// reads nothing); the ISA of `V` is supported.
#[inline(always)]
unsafe fn partial<V: Vector>(key: V, hashes: &[u64], i: usize) -> V {
    let n = hashes.len();
    let len = n.saturating_sub(i).min(V::LANES);
    // SAFETY: `load_tail` reads `i..i + len <= n`; `wrapping_add` never forms
    // an out-of-bounds pointer with `add`; IOTA holds 16 >= LANES values;
    // ISA by the caller.
    unsafe {
        let s = mix(key.xor(V::load_tail(hashes.as_ptr().wrapping_add(i), len, 0))).ordered();
        let live = V::splat(len as u64)
            .ordered()
            .gt_ordered(V::load(IOTA.as_ptr()).ordered());
        V::select(live, s, V::splat(0).ordered())
    }
}

/// Every lane's best raw score (plain, not ordered) and its position in
/// `hashes`, over positions `lane, lane + LANES, ...` merged from the two
/// accumulators; ties go to the lower position. `hashes` is not empty.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn lane_bests<V: Vector>(key: V, hashes: &[u64]) -> (V, V) {
    let n = hashes.len();
    let lanes = V::LANES;
    let chunk = 2 * lanes;
    let hp = hashes.as_ptr();
    // SAFETY: full chunks read `i..i + chunk <= n`; partial ones go through
    // `partial`; IOTA holds 16 >= chunk values; ISA by the caller.
    unsafe {
        if n <= lanes {
            // One vector holds the whole class.
            return (partial(key, hashes, 0).ordered(), V::load(IOTA.as_ptr()));
        }
        let (mut b0, mut b1) = if n >= chunk {
            (
                mix(key.xor(V::load(hp))).ordered(),
                mix(key.xor(V::load(hp.add(lanes)))).ordered(),
            )
        } else {
            (partial(key, hashes, 0), partial(key, hashes, lanes))
        };
        let mut i0 = V::load(IOTA.as_ptr());
        let mut i1 = V::load(IOTA.as_ptr().add(lanes));
        let (mut c0, mut c1) = (i0, i1);
        let step = V::splat(chunk as u64);
        let mut i = chunk;
        while i < n {
            c0 = c0.add(step);
            c1 = c1.add(step);
            let (s0, s1) = if i + chunk <= n {
                (
                    mix(key.xor(V::load(hp.add(i)))).ordered(),
                    mix(key.xor(V::load(hp.add(i + lanes)))).ordered(),
                )
            } else {
                (partial(key, hashes, i), partial(key, hashes, i + lanes))
            };
            let g0 = s0.gt_ordered(b0);
            let g1 = s1.gt_ordered(b1);
            b0 = V::select(g0, s0, b0);
            i0 = V::select(g0, c0, i0);
            b1 = V::select(g1, s1, b1);
            i1 = V::select(g1, c1, i1);
            i += chunk;
        }
        // Positions are below 2^32, so `ordered` keeps their order.
        let take = V::mask_or(
            b1.gt_ordered(b0),
            V::mask_and(b1.eq(b0), i0.ordered().gt_ordered(i1.ordered())),
        );
        (V::select(take, b1, b0).ordered(), V::select(take, i1, i0))
    }
}

/// The owner of `key_hash` in a table with weight classes, or `None` when
/// the bounds cannot decide, the table has no classes, or they disagree
/// with it (the caller then runs the lane race and the exact race).
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
pub(crate) unsafe fn owner<V: Vector>(table: &TableColumns<'_>, key_hash: u64) -> Option<u32> {
    let classes = table.classes?;
    let count = classes.count();
    let lanes = V::LANES;
    let mut lower = [0u64; MAX_WEIGHT_CLASSES * 8];
    let mut position = [0u64; MAX_WEIGHT_CLASSES * 8];
    let mut seen = 0;
    // SAFETY: `lower` and `position` hold 8 lanes per class and `c < count
    // <= MAX_WEIGHT_CLASSES`, `LANES <= 8`; ISA by the caller.
    unsafe {
        let key = V::splat(key_hash);
        let mut m = splat_f64::<V>(f64::INFINITY);
        for c in 0..count {
            let (hashes, start, weight, _) = classes.class(c)?;
            let at = c * 8;
            if hashes.is_empty() {
                splat_f64::<V>(f64::INFINITY).store(lower.as_mut_ptr().add(at));
                continue;
            }
            seen += hashes.len();
            let (scores, pos) = lane_bests::<V>(key, hashes);
            let p = V::race_key(scores);
            let w = splat_f64::<V>(weight);
            m = m.min_f64(neg_ln_upper(p).div_f64_approx(w).mul_f64(splat_f64(LANE_E_HIGH)));
            p.div_f64_approx(w)
                .mul_f64(splat_f64(LANE_E_LOW))
                .store(lower.as_mut_ptr().add(at));
            pos.add(V::splat(start as u64)).store(position.as_mut_ptr().add(at));
        }
        if seen != table.eligible() {
            return None;
        }
        let m = m.reduce_min_f64();
        if m == f64::INFINITY {
            return None;
        }
        let bound = splat_f64::<V>(m);
        let all = (1u32 << lanes) - 1;
        let mut found = None;
        for c in 0..count {
            let at = c * 8;
            let near = all & !V::mask_bits(bound.lt_f64(V::load(lower.as_ptr().add(at))));
            if near == 0 {
                continue;
            }
            if found.is_some() || near.count_ones() != 1 {
                return None;
            }
            found = Some(at + near.trailing_zeros() as usize);
        }
        let at = *position.get(found?)? as usize;
        classes
            .members
            .get(at)
            .copied()
            .filter(|&i| (i as usize) < table.hashes.len())
    }
}
