//! Partition tables (SPEC.md §10): O(1) lookups with exact HRW at partition granularity.
//!
//! A key goes to one of `P = 2^bits` partitions by the top `bits` bits of its
//! key hash. Partition `p` is placed like the key whose bytes are `p` as a
//! 4-byte little-endian integer, by the placement v1 ranking. A table stores
//! the first `replicas` nodes of each partition's ranking, so a lookup is one
//! hash, one shift and one load.
//!
//! Everything here works on caller-owned storage: `rows` holds
//! `P * replicas` node indices, row-major, padded with [`NO_NODE`] when fewer
//! nodes are eligible than `replicas`. The incremental functions patch rows
//! after one membership change and touch only the partitions whose stored
//! ranking changes.

use crate::domains::{insert_distinct, top_k_distinct_of_hash};
use crate::error::Error;
use crate::hash::key_hash;
use crate::node_table::NodeTable;
use crate::order::{insert_bounded, ranks_before, Ranked};
use crate::packed::{KeyOffset, PackedKeys};
use crate::race::scalar::surely_after;

pub use crate::limits::{MAX_PARTITION_BITS, MAX_REPLICAS};
/// Padding in a row when fewer nodes are eligible than the table's replicas.
pub const NO_NODE: u32 = u32::MAX;

/// The partition of a key hash: its top `bits` bits (0 when `bits == 0`).
#[inline(always)]
pub const fn partition_of(key_hash: u64, bits: u8) -> u32 {
    match key_hash.checked_shr(64 - bits as u32) {
        Some(p) if bits > 0 => p as u32,
        _ => 0,
    }
}

/// The key hash a partition is placed by: the key hash of `p` as 4 little-endian bytes.
#[inline]
pub fn partition_key_hash(partition: u32, seed: u64) -> u64 {
    key_hash(&partition.to_le_bytes(), seed)
}

/// The default partition bits for `n` nodes: `clamp(ceil(log2(n)) + 6, 10, 20)`.
///
/// That gives 64 to 128 partitions per node up to 8192 nodes (worst node load
/// about 1.3-1.5x the mean), and 2^20 partitions above. The table is meant for
/// up to about 10^4 nodes: a full build costs `P * n` pair scores.
pub const fn default_partition_bits(n: usize) -> u8 {
    let log2 = if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    };
    let bits = log2 + 6;
    if bits < 10 {
        10
    } else if bits > 20 {
        20
    } else {
        bits as u8
    }
}

/// Checks a table's shape and returns `P * replicas`, the length `rows` must have.
pub fn rows_len(bits: u8, replicas: usize) -> Result<usize, Error> {
    if bits > MAX_PARTITION_BITS {
        return Err(Error::BadPartitionBits { bits });
    }
    if replicas == 0 || replicas > MAX_REPLICAS {
        return Err(Error::BadReplicas { replicas });
    }
    Ok((1usize << bits) * replicas)
}

/// A read-only partition table over caller-owned rows and nodes.
#[derive(Clone, Copy, Debug)]
pub struct PartitionTable<'a> {
    nodes: NodeTable<'a>,
    domains: Option<&'a [u32]>,
    bits: u8,
    replicas: usize,
    rows: &'a [u32],
}

impl<'a> PartitionTable<'a> {
    /// A view of `rows` (built by [`build`] for the same nodes, domains, `bits`
    /// and `replicas`). With `domains`, rows hold at most one node per failure
    /// domain (SPEC.md §12).
    ///
    /// Rows that were not built for these nodes are not unsafe, but lookups
    /// then return unspecified indices.
    pub fn new(
        nodes: NodeTable<'a>,
        domains: Option<&'a [u32]>,
        bits: u8,
        replicas: usize,
        rows: &'a [u32],
    ) -> Result<Self, Error> {
        check_domains(&nodes, domains)?;
        let len = rows_len(bits, replicas)?;
        if rows.len() != len {
            return Err(Error::LengthMismatch {
                expected: len,
                actual: rows.len(),
            });
        }
        Ok(PartitionTable {
            nodes,
            domains,
            bits,
            replicas,
            rows,
        })
    }

    /// The nodes.
    pub fn nodes(&self) -> NodeTable<'a> {
        self.nodes
    }
    /// The partition bits.
    pub fn bits(&self) -> u8 {
        self.bits
    }
    /// The number of partitions, `2^bits`.
    pub fn partitions(&self) -> usize {
        1 << self.bits
    }
    /// How many nodes each row stores.
    pub fn replicas(&self) -> usize {
        self.replicas
    }
    /// The partition of a key.
    #[inline]
    pub fn partition(&self, key: &[u8]) -> u32 {
        partition_of(self.nodes.key_hash(key), self.bits)
    }

    /// The stored ranking of partition `p`: its first `min(replicas, eligible)` nodes.
    #[inline]
    pub fn row(&self, p: u32) -> &'a [u32] {
        let start = p as usize * self.replicas;
        let row = self.rows.get(start..start + self.replicas).unwrap_or(&[]);
        let filled = row.iter().position(|&i| i == NO_NODE).unwrap_or(row.len());
        &row[..filled]
    }

    /// The owner of a key hash, or `None` when no node is eligible.
    #[inline(always)]
    pub fn owner_of_hash(&self, key_hash: u64) -> Option<u32> {
        let p = partition_of(key_hash, self.bits) as usize;
        match self.rows.get(p * self.replicas) {
            Some(&i) if i != NO_NODE => Some(i),
            _ => None,
        }
    }

    /// The owner of a key.
    #[inline(always)]
    pub fn owner(&self, key: &[u8]) -> Result<u32, Error> {
        self.owner_of_hash(self.nodes.key_hash(key))
            .ok_or(Error::NoEligibleNodes)
    }

    /// Writes the first `out.len()` nodes of the key's partition ranking and
    /// returns how many were written. Up to `replicas` come from the row; a
    /// longer request ranks the partition over all nodes (O(n)).
    pub fn top_k(&self, key: &[u8], out: &mut [u32]) -> usize {
        self.top_k_of_hash(self.nodes.key_hash(key), out)
    }

    /// [`PartitionTable::top_k`] for a key hash.
    pub fn top_k_of_hash(&self, key_hash: u64, out: &mut [u32]) -> usize {
        let p = partition_of(key_hash, self.bits);
        let row = self.row(p);
        if out.len() <= row.len() || row.len() < self.replicas {
            let n = out.len().min(row.len());
            out[..n].copy_from_slice(&row[..n]);
            return n;
        }
        let pkh = self.nodes.hashing().partition_key_hash(p);
        match self.domains {
            None => rank_into(&self.nodes, pkh, out),
            Some(domains) => {
                // Past the stored replicas: rank the partition over all nodes.
                let mut buf = [Ranked::EMPTY; MAX_REPLICAS];
                let k = out.len().min(MAX_REPLICAS);
                let n = top_k_distinct_of_hash(&self.nodes, pkh, domains, &mut buf[..k]).unwrap_or(0);
                for (o, r) in out.iter_mut().zip(&buf[..n]) {
                    *o = r.index;
                }
                n
            }
        }
    }

    /// The failure domains the rows respect, if any.
    pub fn domains(&self) -> Option<&'a [u32]> {
        self.domains
    }

    /// The owner of each key of a packed batch.
    pub fn owners<O: KeyOffset>(&self, keys: &PackedKeys<'_, O>, out: &mut [u32]) -> Result<(), Error> {
        if out.len() != keys.len() {
            return Err(Error::LengthMismatch {
                expected: keys.len(),
                actual: out.len(),
            });
        }
        let hashing = self.nodes.hashing();
        for (slot, key) in out.iter_mut().zip(keys.iter()) {
            *slot = self
                .owner_of_hash(hashing.key_hash(key))
                .ok_or(Error::NoEligibleNodes)?;
        }
        Ok(())
    }
}

/// The first `out.len()` nodes of a key hash's ranking, without allocating:
/// `MAX_REPLICAS` at a time, each round keeping the best nodes that rank
/// after the previous round's last.
pub(crate) fn rank_into(nodes: &NodeTable<'_>, key_hash: u64, out: &mut [u32]) -> usize {
    let mut buf = [Ranked::EMPTY; MAX_REPLICAS];
    let mut n = 0;
    let mut last = None;
    while n < out.len() {
        let k = (out.len() - n).min(MAX_REPLICAS);
        let got = top_after(nodes, key_hash, last, &mut buf[..k]);
        for r in &buf[..got] {
            out[n] = r.index;
            n += 1;
        }
        if got < k {
            break;
        }
        last = Some(buf[got - 1]);
    }
    n
}

/// The standing of node `i` for a key hash, computed as the spec defines it
/// (the weighted race, which orders equal weights exactly like raw scores).
#[inline]
pub(crate) fn standing(nodes: &NodeTable<'_>, key_hash: u64, i: u32) -> Option<Ranked> {
    let w = nodes.weight(i as usize);
    (w != 0.0).then(|| Ranked::weighted(key_hash, nodes.hashes()[i as usize], w, i))
}

/// The best `out.len()` eligible nodes that rank strictly after `after`
/// (all of them when `after` is `None`), best first; returns how many.
pub(crate) fn top_after(nodes: &NodeTable<'_>, key_hash: u64, after: Option<Ranked>, out: &mut [Ranked]) -> usize {
    let k = out.len();
    if k == 0 {
        return 0;
    }
    let mut len = 0;
    for i in 0..nodes.hashes().len() as u32 {
        let Some(c) = standing(nodes, key_hash, i) else {
            continue;
        };
        if after.is_some_and(|a| !ranks_before(&a, &c)) {
            continue;
        }
        len = insert_bounded(out, len, c);
    }
    len
}

/// Fills `row` with the first `row.len()` nodes of the ranking of `key_hash`,
/// padded with [`NO_NODE`].
fn fill_row(nodes: &NodeTable<'_>, domains: Option<&[u32]>, key_hash: u64, row: &mut [u32]) {
    let mut buf = [Ranked::EMPTY; MAX_REPLICAS];
    let k = row.len().min(MAX_REPLICAS);
    let n = if let Some(domains) = domains {
        top_k_distinct_of_hash(nodes, key_hash, domains, &mut buf[..k]).unwrap_or(0)
    } else if k == 1 {
        match nodes.owner_of_hash(key_hash) {
            Some(i) => {
                buf[0].index = i;
                1
            }
            None => 0,
        }
    } else {
        nodes.top_k_of_hash(key_hash, &mut buf[..k])
    };
    for (at, slot) in row.iter_mut().enumerate() {
        *slot = if at < n { buf[at].index } else { NO_NODE };
    }
}

/// Builds every row of a table: `rows.len()` must be `2^bits * replicas`.
/// Uses the nodes' backend (the SIMD kernels where available).
pub fn build(
    nodes: &NodeTable<'_>,
    domains: Option<&[u32]>,
    bits: u8,
    replicas: usize,
    rows: &mut [u32],
) -> Result<(), Error> {
    check(nodes, domains, bits, replicas, rows)?;
    build_range(nodes, domains, bits, replicas, 0, rows)
}

/// Builds the rows of partitions `first..first + rows.len() / replicas`, so that
/// callers can split a build across threads.
pub fn build_range(
    nodes: &NodeTable<'_>,
    domains: Option<&[u32]>,
    bits: u8,
    replicas: usize,
    first: u32,
    rows: &mut [u32],
) -> Result<(), Error> {
    check_domains(nodes, domains)?;
    let total = rows_len(bits, replicas)?;
    let end = first as usize * replicas + rows.len();
    if !rows.len().is_multiple_of(replicas) || end > total {
        return Err(Error::LengthMismatch {
            expected: total - (first as usize * replicas).min(total),
            actual: rows.len(),
        });
    }
    let hashing = nodes.hashing();
    for (p, row) in (first..).zip(rows.chunks_exact_mut(replicas)) {
        fill_row(nodes, domains, hashing.partition_key_hash(p), row);
    }
    Ok(())
}

fn check_domains(nodes: &NodeTable<'_>, domains: Option<&[u32]>) -> Result<(), Error> {
    match domains {
        Some(d) if d.len() != nodes.hashes().len() => Err(Error::LengthMismatch {
            expected: nodes.hashes().len(),
            actual: d.len(),
        }),
        _ => Ok(()),
    }
}

fn check(nodes: &NodeTable<'_>, domains: Option<&[u32]>, bits: u8, replicas: usize, rows: &[u32]) -> Result<(), Error> {
    check_domains(nodes, domains)?;
    let len = rows_len(bits, replicas)?;
    if rows.len() != len {
        return Err(Error::LengthMismatch {
            expected: len,
            actual: rows.len(),
        });
    }
    Ok(())
}

/// Inserts `x` into a row whose entries rank best first, if it belongs in the
/// row's first `row.len()` places. Returns whether the row changed.
fn insert(nodes: &NodeTable<'_>, domains: Option<&[u32]>, key_hash: u64, row: &mut [u32], x: Ranked) -> bool {
    if let Some(domains) = domains {
        return insert_in_domains(nodes, domains, key_hash, row, x);
    }
    let k = row.len();
    let filled = row.iter().position(|&i| i == NO_NODE).unwrap_or(k);
    let rank_of = |i: u32| standing(nodes, key_hash, i).unwrap_or(Ranked::EMPTY);
    if filled == k && !ranks_before(&x, &rank_of(row[k - 1])) {
        return false;
    }
    let mut pos = filled.min(k - 1);
    while pos > 0 && ranks_before(&x, &rank_of(row[pos - 1])) {
        row[pos] = row[pos - 1];
        pos -= 1;
    }
    row[pos] = x.index;
    true
}

/// Whether node `index` surely ranks after a full row's last entry: most
/// rows, decided without the exact logarithm.
#[inline]
fn surely_not_entering(nodes: &NodeTable<'_>, key_hash: u64, row: &[u32], index: u32) -> bool {
    let last = row[row.len() - 1];
    if last == NO_NODE {
        return false;
    }
    let h = nodes.hashes();
    let (Some(&hx), Some(&hl)) = (h.get(index as usize), h.get(last as usize)) else {
        return false;
    };
    surely_after(
        key_hash,
        hx,
        nodes.weight(index as usize),
        hl,
        nodes.weight(last as usize),
    )
}

/// [`insert`] for rows that hold at most one node per domain.
fn insert_in_domains(nodes: &NodeTable<'_>, domains: &[u32], key_hash: u64, row: &mut [u32], x: Ranked) -> bool {
    let mut ranks = [Ranked::EMPTY; MAX_REPLICAS];
    let k = row.len().min(MAX_REPLICAS);
    let mut len = 0;
    for &i in row.iter().take_while(|&&i| i != NO_NODE) {
        ranks[len] = standing(nodes, key_hash, i).unwrap_or(Ranked::EMPTY);
        len += 1;
    }
    let domain_of = |i: u32| domains.get(i as usize).copied().unwrap_or(u32::MAX);
    let new_len = insert_distinct(&mut ranks[..k], len, x, domain_of);
    let mut changed = new_len != len;
    for (at, slot) in row.iter_mut().enumerate().take(k) {
        let v = if at < new_len { ranks[at].index } else { NO_NODE };
        changed |= *slot != v;
        *slot = v;
    }
    changed
}

/// Patches `rows` after node `index` joined `nodes` (no other node's index
/// changed). Only partitions that the new node enters change: it is compared
/// with each row's last entry. Returns how many rows changed.
pub fn on_add(
    nodes: &NodeTable<'_>,
    domains: Option<&[u32]>,
    bits: u8,
    replicas: usize,
    rows: &mut [u32],
    index: u32,
) -> Result<usize, Error> {
    check(nodes, domains, bits, replicas, rows)?;
    let hashing = nodes.hashing();
    let mut changed = 0;
    if nodes.weight(index as usize) == 0.0 {
        return Ok(0); // never ranked
    }
    for (p, row) in (0u32..).zip(rows.chunks_exact_mut(replicas)) {
        let kh = hashing.partition_key_hash(p);
        if domains.is_none() && surely_not_entering(nodes, kh, row, index) {
            continue;
        }
        if let Some(x) = standing(nodes, kh, index) {
            changed += insert(nodes, domains, kh, row, x) as usize;
        }
    }
    Ok(changed)
}

/// Patches `rows` after node `removed` left: `nodes` is the set without it,
/// where every index above `removed` moved down by one. Only rows that listed
/// it are re-ranked. Returns how many rows changed.
pub fn on_remove(
    nodes: &NodeTable<'_>,
    domains: Option<&[u32]>,
    bits: u8,
    replicas: usize,
    rows: &mut [u32],
    removed: u32,
) -> Result<usize, Error> {
    check(nodes, domains, bits, replicas, rows)?;
    let hashing = nodes.hashing();
    let mut changed = 0;
    for (p, row) in (0u32..).zip(rows.chunks_exact_mut(replicas)) {
        let mut listed = false;
        for slot in row.iter_mut() {
            if *slot == removed {
                listed = true;
            } else if *slot != NO_NODE && *slot > removed {
                *slot -= 1;
            }
        }
        if listed {
            fill_row(nodes, domains, hashing.partition_key_hash(p), row);
            changed += 1;
        }
    }
    Ok(changed)
}

/// Patches `rows` after node `index`'s weight changed from `old_weight` to its
/// weight in `nodes`. A heavier node can only enter rows or move up in them;
/// a lighter one can only fall out of or move down in rows that list it, and
/// only those are re-ranked. Returns how many rows changed.
pub fn on_reweight(
    nodes: &NodeTable<'_>,
    domains: Option<&[u32]>,
    bits: u8,
    replicas: usize,
    rows: &mut [u32],
    index: u32,
    old_weight: f64,
) -> Result<usize, Error> {
    check(nodes, domains, bits, replicas, rows)?;
    let new_weight = nodes.weight(index as usize);
    if new_weight == old_weight {
        return Ok(0);
    }
    let heavier = new_weight > old_weight;
    let hashing = nodes.hashing();
    let mut changed = 0;
    let mut before = [NO_NODE; MAX_REPLICAS];
    for (p, row) in (0u32..).zip(rows.chunks_exact_mut(replicas)) {
        let listed = row.iter().position(|&i| i == index);
        if listed.is_none() && !heavier {
            continue;
        }
        let kh = hashing.partition_key_hash(p);
        if listed.is_none() && domains.is_none() && surely_not_entering(nodes, kh, row, index) {
            continue;
        }
        before[..replicas].copy_from_slice(row);
        match (listed, standing(nodes, kh, index)) {
            (Some(at), Some(x)) if heavier => {
                // Everyone else keeps their order; the node can only move up.
                row.copy_within(at + 1.., at);
                row[replicas - 1] = NO_NODE;
                insert(nodes, domains, kh, row, x);
            }
            (Some(_), _) => fill_row(nodes, domains, kh, row),
            (None, Some(x)) => {
                insert(nodes, domains, kh, row, x);
            }
            (None, None) => {}
        }
        changed += (row != &before[..replicas]) as usize;
    }
    Ok(changed)
}
