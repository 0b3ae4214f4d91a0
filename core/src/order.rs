//! The total order on candidates (SPEC.md §6).

use core::cmp::Ordering;

use crate::score::{pair_score, weighted_score};

/// One node's standing for one key: everything the order compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    /// The weighted score `ln(u) / w` (for equal-weight tables the order does
    /// not need it and it is left as `0.0`; see [`Ranked::weighted`]).
    pub weighted: f64,
    /// The raw pair score.
    pub score: u64,
    /// The node's hash.
    pub node_hash: u64,
    /// The node's position in the table.
    pub index: u32,
}

impl Ranked {
    /// A placeholder for caller-provided buffers; never a real result.
    pub const EMPTY: Ranked = Ranked {
        weighted: f64::NEG_INFINITY,
        score: 0,
        node_hash: 0,
        index: u32::MAX,
    };

    /// The standing of node `index` with hash `node_hash` and weight `weight` for a key hash.
    #[inline]
    pub fn weighted(key_hash: u64, node_hash: u64, weight: f64, index: u32) -> Ranked {
        let score = pair_score(key_hash, node_hash);
        Ranked {
            weighted: weighted_score(score, weight),
            score,
            node_hash,
            index,
        }
    }

    /// The standing of node `index` in a table whose eligible nodes all have
    /// the same weight, where the weighted score is monotone in the raw score
    /// and need not be computed.
    #[inline]
    pub fn unweighted(key_hash: u64, node_hash: u64, index: u32) -> Ranked {
        Ranked {
            weighted: 0.0,
            score: pair_score(key_hash, node_hash),
            node_hash,
            index,
        }
    }
}

/// `Ordering::Less` when `a` ranks before (is better than) `b`.
///
/// Weighted score descending, then raw score descending, then node hash
/// descending. Raw scores of distinct node hashes never tie (the mixer is a
/// bijection), so the last step only decides between entries with the same
/// node hash, which a valid table never has; the index then keeps the result
/// deterministic.
#[inline]
pub fn rank_order(a: &Ranked, b: &Ranked) -> Ordering {
    if a.weighted > b.weighted {
        return Ordering::Less;
    }
    if a.weighted < b.weighted {
        return Ordering::Greater;
    }
    b.score
        .cmp(&a.score)
        .then(b.node_hash.cmp(&a.node_hash))
        .then(a.index.cmp(&b.index))
}

/// Whether `a` ranks strictly before `b`.
#[inline(always)]
pub fn ranks_before(a: &Ranked, b: &Ranked) -> bool {
    rank_order(a, b) == Ordering::Less
}

/// Inserts `c` into `out[..len]`, which is kept sorted best first and holds at
/// most `out.len()` entries; returns the new length. A candidate that ranks
/// after a full buffer's last entry is dropped. `out` must not be empty.
#[inline]
pub(crate) fn insert_bounded(out: &mut [Ranked], len: usize, c: Ranked) -> usize {
    let k = out.len();
    if len == k && !ranks_before(&c, &out[k - 1]) {
        return len;
    }
    let mut pos = if len < k { len } else { k - 1 };
    while pos > 0 && ranks_before(&c, &out[pos - 1]) {
        out[pos] = out[pos - 1];
        pos -= 1;
    }
    out[pos] = c;
    if len < k {
        len + 1
    } else {
        len
    }
}
