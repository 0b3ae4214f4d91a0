//! The scalar weighted race (SPEC.md §6): the winner among a few weighted
//! candidates, exactly as the spec orders them, without the fixed-point
//! logarithm unless two candidates nearly tie.
//!
//! Write `t = 1 - u` for the race's `u` (SPEC.md §5.2). Since `-ln(1 - t) =
//! t + t^2/2 + t^3/3 + ...`, the cheap bounds are truncated series:
//! `t` alone (pass 1), then third-order bounds ([`upper_bound`],
//! [`lower_bound`]), each widened by [`SERIES_REL`] and [`SERIES_ABS`].
//! Only when those leave two candidates overlapping does [`race_tight`]
//! compute the exact standings.
//!
//! Used by the skeleton's level races (over groups, and where the column
//! race cannot decide), by the column race for its bounds
//! ([`crate::race::columns`]) and by partition tables ([`surely_after`]).

use super::TWO_POW_NEG_53;
use crate::limits::{COLUMN_RACE_MAX, RUNNER_UP_REL, SERIES_ABS, SERIES_REL};
use crate::order::{rank_order, ranks_before, Ranked};
use crate::score::pair_score;

/// `t = 1 - u` for the race's `u = ((score >> 11) + 1) / 2^53`, exactly.
#[inline(always)]
pub(crate) fn one_minus_u(score: u64) -> f64 {
    ((1u64 << 53) - ((score >> 11) + 1)) as f64 * TWO_POW_NEG_53
}

/// `t = 1 - u` rounded down to a multiple of 2^-52, with integer operations
/// and one exact subtraction (no int-to-float conversion, whose false
/// register dependency serialises the hot loop). `t * 2^53 = !score >> 11`,
/// so its top 52 bits are the mantissa of `1 + t`.
#[inline(always)]
pub(crate) fn one_minus_u_floor(score: u64) -> f64 {
    f64::from_bits(0x3FF0_0000_0000_0000 | (!score >> 12)) - 1.0
}

/// An upper bound of the spec's `ln_u(score) / w`, from `-ln(1 - t) >= t + t^2/2 + t^3/3`.
#[inline(always)]
pub(crate) fn upper_bound(t: f64, inv_weight: f64) -> f64 {
    let series = t * (1.0 + t * (0.5 + t * (1.0 / 3.0)));
    -(series * (1.0 - SERIES_REL) - SERIES_ABS) * inv_weight * (1.0 - SERIES_REL)
}

/// A lower bound of the spec's `ln_u(score) / w`, from
/// `-ln(1 - t) <= t + t^2/2 + t^3 / (3 (1 - t))`.
#[inline(always)]
pub(crate) fn lower_bound(t: f64, inv_weight: f64) -> f64 {
    let series = t * (1.0 + t * (0.5 + t / (3.0 * (1.0 - t))));
    -(series * (1.0 + SERIES_REL) + SERIES_ABS) * inv_weight * (1.0 + SERIES_REL)
}

/// Whether the node `(hash, weight)` surely ranks after `(other_hash,
/// other_weight)` for this key hash, decided from the cheap bounds alone;
/// `false` means "not sure", never "ranks before".
#[inline]
pub(crate) fn surely_after(key_hash: u64, hash: u64, weight: f64, other_hash: u64, other_weight: f64) -> bool {
    if weight == 0.0 {
        return true;
    }
    if other_weight == 0.0 {
        return false;
    }
    let hi = upper_bound(one_minus_u(pair_score(key_hash, hash)), 1.0 / weight);
    let lo = lower_bound(one_minus_u(pair_score(key_hash, other_hash)), 1.0 / other_weight);
    hi < lo
}

/// The winner of the placement v1 weighted race among `len` candidates
/// `(hash, weight, 1 / weight)` (weight 0 never wins), exactly as SPEC.md §6
/// orders them.
///
/// The fixed-point logarithm is slow, so the race first brackets every
/// candidate's weighted score with two cheap series bounds; only when the
/// runner-up's upper bound reaches the leader's lower bound (rare) does it
/// compute the exact scores.
#[inline]
pub(crate) fn race(key_hash: u64, len: usize, item: impl Fn(usize) -> (u64, f64, f64)) -> Option<usize> {
    // Pass 1, the hot loop: `-ln(u) >= t >= t_floor` gives the upper bound
    // `(SERIES_ABS - t_floor) / w` with one subtraction and one multiplication.
    let mut best = usize::MAX;
    let mut best_hi = f64::NEG_INFINITY;
    let mut best_t = 0.0;
    let mut best_inv = 0.0;
    let mut second_hi = f64::NEG_INFINITY;
    for i in 0..len {
        let (hash, weight, inv) = item(i);
        if weight == 0.0 {
            continue;
        }
        let t = one_minus_u_floor(pair_score(key_hash, hash));
        let hi = (SERIES_ABS - t) * inv;
        if hi > best_hi {
            second_hi = best_hi;
            (best, best_hi, best_t, best_inv) = (i, hi, t, inv);
        } else if hi > second_hi {
            second_hi = hi;
        }
    }
    if best == usize::MAX {
        return None;
    }
    // Widen the runner-up's bound by far more than the rounding of pass 1.
    if second_hi + second_hi.abs() * RUNNER_UP_REL < lower_bound(best_t, best_inv) {
        return Some(best);
    }
    race_tight(key_hash, len, item)
}

/// [`race`] among at most `2^MAX_FANOUT_BITS` sibling groups, without
/// data-dependent branches in the hot loop: every first-order bound goes to a
/// stack array, then two branch-free scans find the best and the runner-up.
#[inline]
pub(crate) fn race_groups(key_hash: u64, len: usize, item: impl Fn(usize) -> (u64, f64, f64)) -> Option<usize> {
    const MAX: usize = COLUMN_RACE_MAX;
    if len > MAX {
        return race(key_hash, len, item);
    }
    let mut his = [f64::NEG_INFINITY; MAX];
    for (i, hi) in his.iter_mut().enumerate().take(len) {
        let (hash, weight, inv) = item(i);
        let t = one_minus_u_floor(pair_score(key_hash, hash));
        // A drained group (weight 0) has inv_weight 0: send it to -inf.
        let drained = if weight == 0.0 { f64::NEG_INFINITY } else { 0.0 };
        *hi = (SERIES_ABS - t) * inv + drained;
    }
    let his = &his[..len];
    let best_hi = his.iter().fold(f64::NEG_INFINITY, |m, &h| m.max(h));
    if best_hi == f64::NEG_INFINITY {
        return None;
    }
    let best = his.iter().position(|&h| h == best_hi)?;
    let second_hi = his
        .iter()
        .enumerate()
        .fold(f64::NEG_INFINITY, |m, (i, &h)| if i == best { m } else { m.max(h) });
    let (hash, _, inv) = item(best);
    let t = one_minus_u(pair_score(key_hash, hash));
    if second_hi + second_hi.abs() * RUNNER_UP_REL < lower_bound(t, inv) {
        return Some(best);
    }
    race_tight(key_hash, len, item)
}

/// The race when the first-order bounds are too close to call: third-order
/// bounds, then, if still undecided, the exact scores.
#[cold]
pub(crate) fn race_tight(key_hash: u64, len: usize, item: impl Fn(usize) -> (u64, f64, f64)) -> Option<usize> {
    let mut best = usize::MAX;
    let mut best_hi = f64::NEG_INFINITY;
    let mut best_t = 0.0;
    let mut best_inv = 0.0;
    let mut second_hi = f64::NEG_INFINITY;
    for i in 0..len {
        let (hash, weight, inv) = item(i);
        if weight == 0.0 {
            continue;
        }
        let t = one_minus_u(pair_score(key_hash, hash));
        let hi = upper_bound(t, inv);
        if hi > best_hi {
            second_hi = best_hi;
            (best, best_hi, best_t, best_inv) = (i, hi, t, inv);
        } else if hi > second_hi {
            second_hi = hi;
        }
    }
    if best != usize::MAX && second_hi < lower_bound(best_t, best_inv) {
        return Some(best);
    }
    let mut winner: Option<Ranked> = None;
    for i in 0..len {
        let (hash, weight, _) = item(i);
        if weight == 0.0 {
            continue;
        }
        let c = Ranked::weighted(key_hash, hash, weight, i as u32);
        if winner.is_none_or(|w| ranks_before(&c, &w)) {
            winner = Some(c);
        }
    }
    winner.map(|w| w.index as usize)
}

/// The exact race, for tests of [`race`].
#[doc(hidden)]
pub fn race_exact(key_hash: u64, hashes: &[u64], weights: &[f64]) -> Option<usize> {
    (0..hashes.len())
        .filter(|&i| weights[i] != 0.0)
        .map(|i| Ranked::weighted(key_hash, hashes[i], weights[i], i as u32))
        .min_by(rank_order)
        .map(|r| r.index as usize)
}

/// The bounded race, for tests against [`race_exact`].
#[doc(hidden)]
pub fn race_bounded(key_hash: u64, hashes: &[u64], weights: &[f64]) -> Option<usize> {
    race(key_hash, hashes.len(), |i| {
        let w = weights[i];
        (hashes[i], w, if w == 0.0 { 0.0 } else { 1.0 / w })
    })
}
