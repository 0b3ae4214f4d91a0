//! Finds node ids whose raw scores for one key share their top 53 bits, so
//! that at equal weights their weighted scores tie exactly (SPEC.md §6 rule 2).
//!
//! A birthday search: `f(x) = score(key, id(x)) >> 11` maps 53-bit values to
//! 53-bit values, and Brent's cycle finding gives `x != y` with `f(x) == f(y)`
//! after about 2^27 evaluations and no memory. The generator does not run it
//! (it takes seconds); `gen-vectors --search-ties` prints the constants that
//! `edges.rs` records, and `edges.rs` re-checks each pair when it runs.

use longstraw::{key_hash, node_hash, pair_score};

/// The node id for search point `x`: `tie-` and 14 lowercase hex digits.
pub fn tie_id(x: u64) -> [u8; 18] {
    let mut id = *b"tie-00000000000000";
    for (i, byte) in id[4..].iter_mut().enumerate() {
        let nibble = (x >> (4 * (13 - i))) & 0xF;
        *byte = b"0123456789abcdef"[nibble as usize];
    }
    id
}

/// `score(key, tie_id(x))` for a key hash and seed.
pub fn tie_score(key_hash: u64, seed: u64, x: u64) -> u64 {
    pair_score(key_hash, node_hash(&tie_id(x), seed))
}

/// Two search points whose scores share their top 53 bits, starting the walk at `start`.
pub fn find_tie(key: &[u8], seed: u64, start: u64) -> Option<(u64, u64)> {
    let kh = key_hash(key, seed);
    let f = |x: u64| tie_score(kh, seed, x) >> 11;
    // Brent: the cycle length `lam`.
    let (mut power, mut lam) = (1u64, 1u64);
    let mut tortoise = start;
    let mut hare = f(start);
    while tortoise != hare {
        if power == lam {
            tortoise = hare;
            power *= 2;
            lam = 0;
        }
        hare = f(hare);
        lam += 1;
    }
    // Walk two pointers `lam` apart until their images meet: the points just
    // before the meeting are distinct and collide.
    let mut a = start;
    let mut b = start;
    for _ in 0..lam {
        b = f(b);
    }
    if a == b {
        return None; // the start lies on the cycle: no tail, no collision
    }
    loop {
        let (fa, fb) = (f(a), f(b));
        if fa == fb {
            return Some((a, b));
        }
        a = fa;
        b = fb;
    }
}
