//! Failure domains (SPEC.md §12): at most one replica per domain, CRUSH
//! `firstn` over the placement v1 ranking.
//!
//! Domains are `u32` labels, one per node: two nodes share a failure domain
//! exactly when their labels are equal. Walking the ranking and keeping the
//! first node of each domain not yet taken is the same as keeping each
//! domain's best node and ranking those, which is what the bounded insertion
//! below does in one pass.

use crate::error::Error;
use crate::node_table::NodeTable;
use crate::order::{ranks_before, Ranked};

/// Inserts candidate `c` (of domain `d`) into `out[..len]`, kept sorted best
/// first with at most one entry per domain and at most `out.len()` entries.
/// Returns the new length.
#[inline]
pub(crate) fn insert_distinct(out: &mut [Ranked], len: usize, c: Ranked, domain_of: impl Fn(u32) -> u32) -> usize {
    let k = out.len();
    let d = domain_of(c.index);
    let (mut pos, new_len) = match out[..len].iter().position(|r| domain_of(r.index) == d) {
        // The domain is listed: `c` replaces its entry only if it ranks before it.
        Some(at) if ranks_before(&c, &out[at]) => (at, len),
        Some(_) => return len,
        None if len == k && !ranks_before(&c, &out[k - 1]) => return len,
        None if len == k => (k - 1, len),
        None => (len, len + 1),
    };
    while pos > 0 && ranks_before(&c, &out[pos - 1]) {
        out[pos] = out[pos - 1];
        pos -= 1;
    }
    out[pos] = c;
    new_len
}

/// The first `out.len()` nodes of the key hash's ranking that are each the
/// first of their domain, best first; returns how many (fewer when fewer
/// domains have an eligible node).
pub fn top_k_distinct_of_hash(
    table: &NodeTable<'_>,
    key_hash: u64,
    domains: &[u32],
    out: &mut [Ranked],
) -> Result<usize, Error> {
    let n = table.hashes().len();
    if domains.len() != n {
        return Err(Error::LengthMismatch {
            expected: n,
            actual: domains.len(),
        });
    }
    if out.is_empty() {
        return Ok(0);
    }
    let mut len = 0;
    for i in 0..n as u32 {
        let w = table.weight(i as usize);
        if w == 0.0 {
            continue;
        }
        let c = Ranked::weighted(key_hash, table.hashes()[i as usize], w, i);
        len = insert_distinct(out, len, c, |j| domains[j as usize]);
    }
    Ok(len)
}

/// [`top_k_distinct_of_hash`] for a key.
pub fn top_k_distinct(table: &NodeTable<'_>, key: &[u8], domains: &[u32], out: &mut [Ranked]) -> Result<usize, Error> {
    top_k_distinct_of_hash(table, table.key_hash(key), domains, out)
}
