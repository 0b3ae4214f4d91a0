//! The scalar oracle: placement written as plainly as the spec states it.
//! Every other code path is tested bit for bit against these functions.

use crate::order::{insert_bounded, rank_order, ranks_before, Ranked};
use crate::table::{Shape, TableColumns};

#[inline(always)]
pub(crate) fn candidate(table: &TableColumns<'_>, key_hash: u64, i: usize) -> Option<Ranked> {
    let node_hash = table.hashes[i];
    match table.summary.shape {
        Shape::AllEqual => Some(Ranked::unweighted(key_hash, node_hash, i as u32)),
        Shape::EqualWithDrained => (table.weight(i) != 0.0).then(|| Ranked::unweighted(key_hash, node_hash, i as u32)),
        Shape::Weighted => {
            let w = table.weight(i);
            (w != 0.0).then(|| Ranked::weighted(key_hash, node_hash, w, i as u32))
        }
    }
}

/// The best eligible node, or `None` if there is none.
pub fn owner(table: &TableColumns<'_>, key_hash: u64) -> Option<u32> {
    let mut best: Option<Ranked> = None;
    for i in 0..table.hashes.len() {
        if let Some(c) = candidate(table, key_hash, i) {
            if best.is_none_or(|b| ranks_before(&c, &b)) {
                best = Some(c);
            }
        }
    }
    best.map(|b| b.index)
}

/// The best `out.len()` eligible nodes, best first; returns how many.
pub fn top_k(table: &TableColumns<'_>, key_hash: u64, out: &mut [Ranked]) -> usize {
    let k = out.len();
    if k == 0 {
        return 0;
    }
    if k >= table.eligible() {
        // Full ranking: collect, then sort (no allocation: `sort_unstable_by`
        // is in core, and the order is total so instability is invisible).
        let mut n = 0;
        for i in 0..table.hashes.len() {
            if let Some(c) = candidate(table, key_hash, i) {
                out[n] = c;
                n += 1;
            }
        }
        out[..n].sort_unstable_by(rank_order);
        return n;
    }
    // Bounded insertion: out[..len] stays sorted.
    let mut len = 0;
    for i in 0..table.hashes.len() {
        let Some(c) = candidate(table, key_hash, i) else {
            continue;
        };
        len = insert_bounded(out, len, c);
    }
    len
}
