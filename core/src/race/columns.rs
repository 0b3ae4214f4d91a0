//! One skeleton level's race over its group columns, on the scalar backend:
//! the same contract as the SIMD column kernel (`arch::column_race`).
//!
//! A level races at most [`COLUMN_RACE_MAX`] children, so every bound fits a
//! stack array and the decision is a few branch-free scans. Where the bounds
//! cannot decide, the caller runs [`race_tight`](super::scalar::race_tight).

use super::scalar::{lower_bound, one_minus_u, one_minus_u_floor, upper_bound};
use super::Columns;
use crate::limits::{COLUMN_RACE_MAX, RUNNER_UP_REL, SERIES_ABS};
use crate::score::pair_score;

/// The low bits of a leader key that hold the child's index.
const INDEX_BITS: u64 = COLUMN_RACE_MAX as u64 - 1;

/// The column race on the scalar backend, decided from exact pair scores and
/// first-order bounds refined by [`upper_bound`]. `Some(winner)` when the
/// bounds prove it, `None` when [`race_tight`](super::scalar::race_tight)
/// must decide (near-ties, no eligible child, or more than
/// [`COLUMN_RACE_MAX`] children).
pub(crate) fn race_columns_scalar(key_hash: u64, columns: Columns<'_>) -> Option<usize> {
    let Columns { hashes, inv_weights } = columns;
    let n = hashes.len();
    if n == 0 || n > COLUMN_RACE_MAX || inv_weights.len() != n {
        return None;
    }
    let mut scores = [0u64; COLUMN_RACE_MAX];
    for (s, &h) in scores.iter_mut().zip(hashes) {
        *s = pair_score(key_hash, h);
    }
    decide_columns(&scores[..n], inv_weights)
}

/// An f64 as a u64 with the same order (for non-NaN values), so the
/// reductions below are integer max scans the compiler vectorises.
#[inline(always)]
fn ordered_bits(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

/// The decision of [`race_groups`](super::scalar::race_groups) from raw scores, refined: a child whose
/// first-order bound does not clear the leader gets the third-order bound of
/// [`race_tight`](super::scalar::race_tight) before giving up. Drained children (`inv_weight == 0`) get
/// key 0, below every eligible child.
#[inline(always)]
fn decide_columns(scores: &[u64], inv_weights: &[f64]) -> Option<usize> {
    let n = scores.len();
    let mut his = [f64::NAN; COLUMN_RACE_MAX];
    let mut keys = [0u64; COLUMN_RACE_MAX];
    for (i, (((h, k), &s), &inv)) in his
        .iter_mut()
        .zip(keys.iter_mut())
        .zip(scores)
        .zip(inv_weights)
        .enumerate()
    {
        let hi = (SERIES_ABS - one_minus_u_floor(s)) * inv;
        *h = if inv == 0.0 { f64::NAN } else { hi };
        // The low 6 bits name the child (lower index wins a tie), so one
        // integer max finds the leader. Dropping them may pick a child
        // within 2^-46 of the true leader; the check below then fails
        // (the true leader's bound reaches the chosen one's) and the exact
        // race decides.
        let index = (COLUMN_RACE_MAX - 1 - i) as u64;
        *k = if inv == 0.0 {
            0
        } else {
            (ordered_bits(hi) & !INDEX_BITS) | index
        };
    }
    let his = &his[..n];
    let best_key = keys.iter().fold(0, |m, &k| m.max(k));
    if best_key == 0 {
        return None;
    }
    let best = COLUMN_RACE_MAX - 1 - (best_key & INDEX_BITS) as usize;
    if best >= n {
        return None;
    }
    let lo = lower_bound(one_minus_u(scores[best]), inv_weights[best]);
    // Pass 1's bound, widened as in `race`; drained children (NaN) never
    // count, the leader always does.
    let contenders = his
        .iter()
        .fold(0u32, |c, &h| c + u32::from(h + h.abs() * RUNNER_UP_REL >= lo));
    if contenders <= 1 {
        return Some(best);
    }
    for (j, &h) in his.iter().enumerate() {
        if j != best && h + h.abs() * RUNNER_UP_REL >= lo && upper_bound(one_minus_u(scores[j]), inv_weights[j]) >= lo {
            return None;
        }
    }
    Some(best)
}
