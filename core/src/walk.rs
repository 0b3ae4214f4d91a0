//! Walking a key's ranking one node at a time, past a prefix that `top_k`
//! already produced, without a buffer (SPEC.md §16: bounded loads walk on
//! only while the nodes they meet are full, which is almost never far).

use crate::node_table::NodeTable;
use crate::oracle::candidate;
use crate::order::{ranks_before, Ranked};

impl NodeTable<'_> {
    /// The eligible node that comes right after `after` in the ranking of
    /// `key_hash`, or `None` when `after` is the last. `after` must be an
    /// entry of this table's ranking for the same key hash (from
    /// [`NodeTable::top_k_of_hash`] or an earlier call of this function).
    ///
    /// One scalar pass over the table: O(n) per step, no allocation.
    pub fn next_in_ranking_of_hash(&self, key_hash: u64, after: &Ranked) -> Option<Ranked> {
        let mut best: Option<Ranked> = None;
        for i in 0..self.columns.hashes.len() {
            let Some(c) = candidate(&self.columns, key_hash, i) else {
                continue;
            };
            if ranks_before(after, &c) && best.is_none_or(|b| ranks_before(&c, &b)) {
                best = Some(c);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use crate::hash::node_hash;
    use crate::node_table::NodeTable;
    use crate::order::Ranked;

    fn walk_matches_top_k(weights: Option<&[f64]>, n: usize) {
        let mut hashes = [0u64; 40];
        for (i, h) in hashes.iter_mut().enumerate().take(n) {
            *h = node_hash(&(i as u32).to_le_bytes(), 7);
        }
        let table = NodeTable::new(7, &hashes[..n], weights).unwrap();
        for key in 0u64..200 {
            let kh = crate::hash::key_hash(&key.to_le_bytes(), 7);
            let mut full = [Ranked::EMPTY; 40];
            let len = table.top_k_of_hash(kh, &mut full[..n]);
            let mut walked = 1;
            let mut at = full[0];
            while let Some(next) = table.next_in_ranking_of_hash(kh, &at) {
                assert_eq!(next, full[walked], "key {key} step {walked}");
                walked += 1;
                at = next;
            }
            assert_eq!(walked, len);
        }
    }

    #[test]
    fn walking_one_step_at_a_time_reproduces_the_full_ranking() {
        walk_matches_top_k(None, 40);
        let mut drained = [1.0; 40];
        drained[3] = 0.0;
        drained[17] = 0.0;
        walk_matches_top_k(Some(&drained), 40);
        let weighted: [f64; 40] = core::array::from_fn(|i| [0.5, 1.0, 2.0, 0.0][i % 4]);
        walk_matches_top_k(Some(&weighted), 40);
    }
}
