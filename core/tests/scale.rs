//! Partition tables, skeleton HRW and failure domains against plain
//! reference implementations written from SPEC.md §10-§12.

mod common;

use std::collections::BTreeMap;

use common::*;
use longstraw::domains::{top_k_distinct, top_k_distinct_of_hash};
use longstraw::partition::{self, partition_key_hash, partition_of, NO_NODE};
use longstraw::skeleton::{build_groups, group_hash, race_bounded, race_exact, write_group_columns};
use longstraw::{key_hash, node_hash, Backend, Group, NodeTable, PartitionTable, Ranked, Skeleton, SkeletonShape};

fn ranking(table: &NodeTable<'_>, kh: u64) -> Vec<u32> {
    let mut buf = vec![Ranked::EMPTY; table.eligible()];
    let n = table.oracle_top_k(kh, &mut buf);
    buf[..n].iter().map(|r| r.index).collect()
}

fn random_weights(rng: &mut Prng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| match rng.next() % 6 {
            0 => 0.0,
            1 => 1.0,
            2 => (1 + rng.next() % 8) as f64,
            3 => 1e-9 * (1 + rng.next() % 1000) as f64,
            4 => 1e12,
            _ => (rng.next() % 1000 + 1) as f64 / 7.0,
        })
        .collect()
}

// ---- partition tables ----

#[test]
fn partition_of_takes_the_top_bits() {
    assert_eq!(partition_of(u64::MAX, 0), 0);
    assert_eq!(partition_of(u64::MAX, 1), 1);
    assert_eq!(partition_of(0x8000_0000_0000_0000, 1), 1);
    assert_eq!(partition_of(0x7FFF_FFFF_FFFF_FFFF, 1), 0);
    assert_eq!(partition_of(0xABCD_0000_0000_0000, 16), 0xABCD);
    assert_eq!(partition_of(0xABCD_E000_0000_0000, 20), 0xABCDE);
    assert_eq!(partition_key_hash(7, 3), key_hash(&[7, 0, 0, 0], 3));
}

#[test]
fn default_bits_follow_the_documented_formula() {
    assert_eq!(partition::default_partition_bits(0), 10);
    assert_eq!(partition::default_partition_bits(16), 10);
    assert_eq!(partition::default_partition_bits(17), 11);
    assert_eq!(partition::default_partition_bits(1000), 16);
    assert_eq!(partition::default_partition_bits(1024), 16);
    assert_eq!(partition::default_partition_bits(10_000), 20);
    assert_eq!(partition::default_partition_bits(1 << 20), 20);
}

fn check_rows(nodes: &Nodes, domains: Option<&[u32]>, bits: u8, replicas: usize, rows: &[u32], what: &str) {
    let table = nodes.table();
    for p in 0..1u32 << bits {
        let kh = partition_key_hash(p, nodes.seed);
        let want: Vec<u32> = match domains {
            None => ranking(&table, kh).into_iter().take(replicas).collect(),
            Some(d) => firstn_reference(&table, kh, d, replicas),
        };
        let row = &rows[p as usize * replicas..(p as usize + 1) * replicas];
        let got: Vec<u32> = row.iter().copied().filter(|&i| i != NO_NODE).collect();
        assert_eq!(got, want, "{what}: partition {p}");
        assert!(row[got.len()..].iter().all(|&i| i == NO_NODE));
    }
}

#[test]
fn every_partition_is_ranked_like_its_key() {
    let mut rng = Prng(11);
    for (n, weighted, replicas, bits) in [(1, false, 1, 0), (7, false, 3, 6), (40, true, 2, 7), (3, true, 5, 5)] {
        let mut nodes = Nodes::named("n", n, 9);
        if weighted {
            nodes = nodes.with_weights(&random_weights(&mut rng, n));
        }
        let mut rows = vec![0u32; (1 << bits) * replicas];
        partition::build(&nodes.table(), None, bits, replicas, &mut rows).unwrap();
        check_rows(&nodes, None, bits, replicas, &rows, "build");
        let t = PartitionTable::new(nodes.table(), None, bits, replicas, &rows).unwrap();
        for i in 0..500 {
            let key = format!("key-{i}").into_bytes();
            let p = t.partition(&key);
            let want = ranking(&nodes.table(), partition_key_hash(p, nodes.seed));
            assert_eq!(t.owner(&key).ok(), want.first().copied());
            // Past the stored replicas the table ranks the partition in full.
            let mut out = vec![0u32; n + 2];
            let got = t.top_k(&key, &mut out);
            assert_eq!(&out[..got], &want[..], "n={n} key {i}");
        }
    }
}

#[test]
fn incremental_changes_match_a_fresh_build_and_touch_only_changed_rows() {
    let mut rng = Prng(5);
    for use_domains in [false, true] {
        let (bits, replicas) = (8u8, 3usize);
        let mut nodes = Nodes::named("node-", 30, 2);
        let mut domains: Vec<u32> = (0..30).map(|i| i % 7).collect();
        let dom = |d: &Vec<u32>| if use_domains { Some(d.clone()) } else { None };
        let mut rows = vec![0u32; (1 << bits) * replicas];
        partition::build(&nodes.table(), dom(&domains).as_deref(), bits, replicas, &mut rows).unwrap();
        for step in 0..60 {
            let before = rows.clone();
            let what;
            let changed = match rng.next() % 3 {
                0 => {
                    let id = format!("new-{step}");
                    let w = random_weights(&mut rng, 1)[0];
                    nodes.add(id.as_bytes(), w);
                    domains.push((rng.next() % 9) as u32);
                    what = format!("add {id} w={w}");
                    let index = nodes.ids.len() as u32 - 1;
                    let c = partition::on_add(
                        &nodes.table(),
                        dom(&domains).as_deref(),
                        bits,
                        replicas,
                        &mut rows,
                        index,
                    )
                    .unwrap();
                    // Only rows that now list the newcomer changed, and all of them.
                    let listing = rows.chunks(replicas).filter(|r| r.contains(&index)).count();
                    assert_eq!(c, listing, "{what}");
                    c
                }
                1 if nodes.ids.len() > 1 => {
                    let i = (rng.next() % nodes.ids.len() as u64) as usize;
                    what = format!("remove {}", String::from_utf8_lossy(&nodes.ids[i]));
                    let listing = before.chunks(replicas).filter(|r| r.contains(&(i as u32))).count();
                    nodes.ids.remove(i);
                    nodes.hashes.remove(i);
                    nodes.weights.remove(i);
                    domains.remove(i);
                    let c = partition::on_remove(
                        &nodes.table(),
                        dom(&domains).as_deref(),
                        bits,
                        replicas,
                        &mut rows,
                        i as u32,
                    )
                    .unwrap();
                    assert_eq!(c, listing, "{what}");
                    c
                }
                _ => {
                    let i = (rng.next() % nodes.ids.len() as u64) as usize;
                    let old = nodes.weights[i];
                    nodes.weights[i] = random_weights(&mut rng, 1)[0];
                    what = format!("reweight {i} {old} -> {}", nodes.weights[i]);
                    partition::on_reweight(
                        &nodes.table(),
                        dom(&domains).as_deref(),
                        bits,
                        replicas,
                        &mut rows,
                        i as u32,
                        old,
                    )
                    .unwrap()
                }
            };
            check_rows(&nodes, dom(&domains).as_deref(), bits, replicas, &rows, &what);
            let mut fresh = vec![0u32; rows.len()];
            partition::build(&nodes.table(), dom(&domains).as_deref(), bits, replicas, &mut fresh).unwrap();
            assert_eq!(rows, fresh, "{what}");
            assert!(changed <= 1 << bits);
        }
    }
}

#[test]
fn bad_table_shapes_are_errors() {
    let nodes = Nodes::named("n", 3, 0);
    let mut rows = vec![0u32; 4];
    assert!(partition::build(&nodes.table(), None, 25, 1, &mut rows).is_err());
    assert!(partition::build(&nodes.table(), None, 2, 0, &mut rows).is_err());
    assert!(partition::build(&nodes.table(), None, 2, 33, &mut rows).is_err());
    assert!(partition::build(&nodes.table(), None, 3, 1, &mut rows).is_err());
    assert!(PartitionTable::new(nodes.table(), Some(&[1, 2]), 2, 1, &rows).is_err());
    let msg = longstraw::Error::BadPartitionBits { bits: 25 }.to_string();
    assert!(msg.contains("25"), "{msg}");
}

// ---- the bounded race ----

#[test]
fn the_bounded_race_is_the_exact_race() {
    let mut rng = Prng(77);
    for round in 0..20_000 {
        let n = 1 + (rng.next() % 20) as usize;
        let hashes: Vec<u64> = (0..n).map(|_| rng.next()).collect();
        let weights: Vec<f64> = match round % 4 {
            0 => vec![1.0; n],
            1 => random_weights(&mut rng, n),
            // Nearly equal weights: the bounds must still decide correctly.
            2 => (0..n).map(|i| 1000.0 + (i % 3) as f64 * 1e-9).collect(),
            _ => (0..n).map(|i| (i + 1) as f64).collect(),
        };
        let kh = rng.next();
        assert_eq!(
            race_bounded(kh, &hashes, &weights),
            race_exact(kh, &hashes, &weights),
            "round {round}"
        );
    }
    // Exact ties in the weighted score (same u, equal weights) must fall
    // back to the raw score, then the hash: build them by inverting the mixer.
    for round in 0..2000u64 {
        let kh = Prng(round).next();
        let base = Prng(round + 1_000_000).next();
        let targets = [base, base ^ 1, base ^ 0x7FF, base ^ (1 << 40)];
        let hashes: Vec<u64> = targets.iter().map(|&s| unmix(s) ^ kh).collect();
        for (h, &s) in hashes.iter().zip(&targets) {
            assert_eq!(longstraw::pair_score(kh, *h), s);
        }
        let weights = [3.0, 3.0, 3.0, 3.0];
        assert_eq!(race_bounded(kh, &hashes, &weights), race_exact(kh, &hashes, &weights));
    }
}

fn unxorshift(z: u64, r: u32) -> u64 {
    let mut x = z;
    let mut shift = r;
    while shift < 64 {
        x = z ^ (x >> r);
        shift += r;
    }
    x
}

fn inverse(a: u64) -> u64 {
    let mut x = a; // Newton: correct to 3 bits for odd a, doubles each step
    for _ in 0..6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
    }
    x
}

fn unmix(z: u64) -> u64 {
    let mut x = unxorshift(z, 31);
    x = x.wrapping_mul(inverse(longstraw::MIX_MUL_2));
    x = unxorshift(x, 27);
    x = x.wrapping_mul(inverse(longstraw::MIX_MUL_1));
    unxorshift(x, 30)
}

// ---- skeleton ----

struct OwnedSkeleton {
    seed: u64,
    hashes: Vec<u64>,
    weights: Vec<f64>,
    index: Vec<u32>,
    groups: Vec<Group>,
    shape: SkeletonShape,
}

impl OwnedSkeleton {
    fn new(nodes: &Nodes, shape: SkeletonShape) -> Self {
        let mut order: Vec<u32> = (0..nodes.hashes.len() as u32).collect();
        order.sort_by_key(|&i| nodes.hashes[i as usize]);
        let hashes: Vec<u64> = order.iter().map(|&i| nodes.hashes[i as usize]).collect();
        let weights: Vec<f64> = order.iter().map(|&i| nodes.weights[i as usize]).collect();
        let mut groups = vec![Group::EMPTY; shape.max_groups(hashes.len())];
        let used = build_groups(nodes.seed, shape, &hashes, &weights, &mut groups).unwrap();
        groups.truncate(used);
        OwnedSkeleton {
            seed: nodes.seed,
            hashes,
            weights,
            index: order,
            groups,
            shape,
        }
    }

    fn view(&self) -> Skeleton<'_> {
        let t = NodeTable::new(self.seed, &self.hashes, Some(&self.weights)).unwrap();
        Skeleton::new(t, self.shape, &self.index, &self.groups).unwrap()
    }

    /// Flat group hashes and inverse weights for [`Skeleton::with_group_columns`].
    fn columns(&self) -> (Vec<u64>, Vec<f64>) {
        let mut hashes = vec![0; self.groups.len()];
        let mut inv_weights = vec![0.0; self.groups.len()];
        write_group_columns(&self.groups, &mut hashes, &mut inv_weights).unwrap();
        (hashes, inv_weights)
    }
}

/// SPEC.md §11 written as plainly as possible: group by prefix, sum weights
/// in ascending hash order, race with exact scores, recurse.
fn skeleton_reference(nodes: &Nodes, shape: SkeletonShape, kh: u64, k: usize) -> Vec<u32> {
    let all: Vec<u32> = (0..nodes.hashes.len() as u32).collect();
    let mut out = Vec::new();
    reference_fill(nodes, shape, kh, 1, &all, k, &mut out);
    out
}

fn reference_fill(
    nodes: &Nodes,
    shape: SkeletonShape,
    kh: u64,
    level: u8,
    members: &[u32],
    k: usize,
    out: &mut Vec<u32>,
) {
    if out.len() >= k {
        return;
    }
    if level > shape.levels() {
        let hashes: Vec<u64> = members.iter().map(|&i| nodes.hashes[i as usize]).collect();
        let weights: Vec<f64> = members.iter().map(|&i| nodes.weights[i as usize]).collect();
        let t = NodeTable::new(nodes.seed, &hashes, Some(&weights)).unwrap();
        for j in ranking(&t, kh) {
            if out.len() < k {
                out.push(members[j as usize]);
            }
        }
        return;
    }
    let mut groups: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
    for &i in members {
        groups
            .entry(shape.prefix(nodes.hashes[i as usize], level))
            .or_default()
            .push(i);
    }
    let mut ranked: Vec<(Ranked, Vec<u32>)> = Vec::new();
    for (prefix, mut ms) in groups {
        ms.sort_by_key(|&i| nodes.hashes[i as usize]);
        let w: f64 = ms.iter().fold(0.0, |acc, &i| acc + nodes.weights[i as usize]);
        if w > 0.0 {
            let gh = group_hash(nodes.seed, level, prefix);
            ranked.push((Ranked::weighted(kh, gh, w, 0), ms));
        }
    }
    ranked.sort_by(|a, b| longstraw::rank_order(&a.0, &b.0));
    for (_, ms) in ranked {
        reference_fill(nodes, shape, kh, level + 1, &ms, k, out);
    }
}

#[test]
fn skeleton_matches_the_reference() {
    let mut rng = Prng(3);
    let shapes = [(0, 0), (1, 1), (2, 2), (3, 1), (4, 2), (2, 4), (6, 1), (1, 5)];
    for (case, &(bits, levels)) in shapes.iter().enumerate() {
        for weighted in [false, true] {
            let n = [1usize, 5, 40, 150][case % 4];
            let mut nodes = Nodes::named("sk-", n, case as u64);
            if weighted {
                nodes = nodes.with_weights(&random_weights(&mut rng, n));
            }
            let shape = SkeletonShape::new(bits, levels).unwrap();
            let sk = OwnedSkeleton::new(&nodes, shape);
            let view = sk.view();
            let (column_hashes, column_inv_weights) = sk.columns();
            let column_views: Vec<Skeleton<'_>> = Backend::available()
                .map(|b| {
                    view.with_backend(b)
                        .with_group_columns(&column_hashes, &column_inv_weights)
                        .unwrap()
                })
                .collect();
            let eligible = nodes.weights.iter().filter(|&&w| w != 0.0).count();
            for i in 0..300 {
                let key = format!("k{i}").into_bytes();
                let kh = key_hash(&key, nodes.seed);
                let want = skeleton_reference(&nodes, shape, kh, eligible);
                assert_eq!(want.len(), eligible);
                assert_eq!(view.owner(&key).ok(), want.first().copied(), "{shape:?} n={n} key {i}");
                for v in &column_views {
                    let backend = v.nodes().backend().name();
                    let got = v.owner(&key).ok();
                    assert_eq!(
                        got,
                        want.first().copied(),
                        "{shape:?} n={n} key {i}, columns on {backend}"
                    );
                }
                let mut buf = vec![Ranked::EMPTY; eligible];
                let got = view.top_k(&key, &mut buf);
                let got: Vec<u32> = buf[..got].iter().map(|r| r.index).collect();
                assert_eq!(got, want, "{shape:?} n={n} key {i} ranking");
                if levels == 0 {
                    assert_eq!(want, ranking(&nodes.table(), kh), "levels 0 is flat v1");
                }
            }
        }
    }
}

#[test]
fn skeleton_ignores_insertion_order() {
    let nodes = Nodes::named("node-", 200, 1);
    let mut rev = Nodes::from_ids(nodes.ids.iter().rev().cloned().collect(), 1);
    rev.weights = nodes.weights.iter().rev().copied().collect();
    let shape = SkeletonShape::new(3, 2).unwrap();
    let (a, b) = (OwnedSkeleton::new(&nodes, shape), OwnedSkeleton::new(&rev, shape));
    for key in keys(2000) {
        let ia = a.view().owner(&key).unwrap() as usize;
        let ib = b.view().owner(&key).unwrap() as usize;
        assert_eq!(nodes.ids[ia], rev.ids[ib]);
    }
}

#[test]
fn skeleton_shares_follow_weights() {
    // Each node's share of keys is w_i / W; bound: 6 sigma of a binomial.
    let n = 64;
    let weights: Vec<f64> = (0..n).map(|i| [1.0, 2.0, 4.0][i % 3]).collect();
    let nodes = Nodes::named("w-", n, 4).with_weights(&weights);
    let sk = OwnedSkeleton::new(&nodes, SkeletonShape::new(2, 2).unwrap());
    let total: f64 = weights.iter().sum();
    let keys = keys(200_000);
    let mut counts = vec![0usize; n];
    for k in &keys {
        counts[sk.view().owner(k).unwrap() as usize] += 1;
    }
    for i in 0..n {
        let p = weights[i] / total;
        let frac = counts[i] as f64 / keys.len() as f64;
        assert!((frac - p).abs() < six_sigma(p, keys.len()), "node {i}: {frac} vs {p}");
    }
}

#[test]
fn skeleton_errors() {
    assert!(SkeletonShape::new(0, 1).is_err());
    assert!(SkeletonShape::new(7, 1).is_err());
    assert!(SkeletonShape::new(2, 6).is_err());
    assert_eq!(SkeletonShape::new(3, 0).unwrap(), SkeletonShape::FLAT);
    // One range for fanout_bits everywhere: 0 to 6 when levels = 0 (SPEC.md §11).
    assert_eq!(SkeletonShape::new(0, 0).unwrap(), SkeletonShape::FLAT);
    assert_eq!(SkeletonShape::new(6, 0).unwrap(), SkeletonShape::FLAT);
    assert!(SkeletonShape::new(7, 0).is_err());
    assert!(SkeletonShape::new(u8::MAX, 0).is_err());
    let mut groups = vec![Group::EMPTY; 8];
    let shape = SkeletonShape::new(1, 2).unwrap();
    assert!(build_groups(0, shape, &[2, 1], &[1.0, 1.0], &mut groups).is_err());
    assert!(build_groups(0, shape, &[1, 1], &[1.0, 1.0], &mut groups).is_err());
    assert!(build_groups(0, shape, &[1, 2], &[1.0, f64::NAN], &mut groups).is_err());
    assert!(build_groups(0, shape, &[1, 2], &[1.0, 1.0], &mut groups[..1]).is_err());
    let empty = NodeTable::new(0, &[], None).unwrap();
    let sk = Skeleton::new(empty, shape, &[], &[]).unwrap();
    assert!(sk.owner(b"x").is_err());
}

// ---- failure domains ----

fn firstn_reference(table: &NodeTable<'_>, kh: u64, domains: &[u32], k: usize) -> Vec<u32> {
    let mut used = Vec::new();
    let mut out = Vec::new();
    for i in ranking(table, kh) {
        if out.len() == k {
            break;
        }
        if !used.contains(&domains[i as usize]) {
            used.push(domains[i as usize]);
            out.push(i);
        }
    }
    out
}

#[test]
fn distinct_domains_is_firstn_over_the_ranking() {
    let mut rng = Prng(8);
    for round in 0..200 {
        let n = 1 + (rng.next() % 40) as usize;
        let mut nodes = Nodes::named("d-", n, round);
        if round % 2 == 1 {
            nodes = nodes.with_weights(&random_weights(&mut rng, n));
        }
        let ndom = 1 + rng.next() % 6;
        let domains: Vec<u32> = (0..n).map(|_| (rng.next() % ndom) as u32).collect();
        let t = nodes.table();
        for key in keys(50) {
            let kh = key_hash(&key, nodes.seed);
            for k in [1usize, 2, 3, 8] {
                let mut buf = vec![Ranked::EMPTY; k];
                let got = top_k_distinct(&t, &key, &domains, &mut buf).unwrap();
                let got: Vec<u32> = buf[..got].iter().map(|r| r.index).collect();
                let want = firstn_reference(&t, kh, &domains, k);
                assert_eq!(got, want, "round {round} k={k}");
                // Replica 0 is the owner whenever anything is eligible.
                assert_eq!(got.first().copied(), t.owner(&key).ok());
            }
        }
    }
}

#[test]
fn a_failed_domain_shifts_later_replicas_up() {
    let nodes = Nodes::named("r-", 12, 0);
    let domains: Vec<u32> = (0..12).map(|i| i / 3).collect(); // 4 racks of 3
    for key in keys(500) {
        let mut buf = [Ranked::EMPTY; 3];
        let n = top_k_distinct(&nodes.table(), &key, &domains, &mut buf).unwrap();
        let before: Vec<u32> = buf[..n].iter().map(|r| r.index).collect();
        // Drain the whole rack of replica 0.
        let rack = domains[before[0] as usize];
        let weights: Vec<f64> = (0..12).map(|i| if domains[i] == rack { 0.0 } else { 1.0 }).collect();
        let t = NodeTable::new(0, &nodes.hashes, Some(&weights)).unwrap();
        let n = top_k_distinct_of_hash(&t, key_hash(&key, 0), &domains, &mut buf).unwrap();
        let after: Vec<u32> = buf[..n].iter().map(|r| r.index).collect();
        assert_eq!(&after[..2], &before[1..], "replicas 1 and 2 become 0 and 1");
    }
    // The skeleton: firstn over its own ranking.
    let mut rng = Prng(21);
    for shape in [(0, 0), (2, 1), (1, 3)] {
        let shape = SkeletonShape::new(shape.0, shape.1).unwrap();
        let nodes = Nodes::named("s-", 60, 3).with_weights(&random_weights(&mut rng, 60));
        let domains: Vec<u32> = (0..60).map(|_| (rng.next() % 7) as u32).collect();
        let sk = OwnedSkeleton::new(&nodes, shape);
        let eligible = nodes.weights.iter().filter(|&&w| w != 0.0).count();
        for key in keys(200) {
            let kh = key_hash(&key, 3);
            let full = skeleton_reference(&nodes, shape, kh, eligible);
            let mut want = Vec::new();
            for i in full {
                if want.len() < 4 && !want.iter().any(|&j: &u32| domains[j as usize] == domains[i as usize]) {
                    want.push(i);
                }
            }
            let mut buf = [Ranked::EMPTY; 4];
            let n = sk.view().top_k_distinct_of_hash(kh, &domains, &mut buf).unwrap();
            let got: Vec<u32> = buf[..n].iter().map(|r| r.index).collect();
            assert_eq!(got, want, "{shape:?}");
        }
    }
    // Fewer domains than k: one node per domain, no more.
    let mut buf = [Ranked::EMPTY; 6];
    assert_eq!(top_k_distinct(&nodes.table(), b"k", &domains, &mut buf).unwrap(), 4);
    assert!(top_k_distinct(&nodes.table(), b"k", &domains[..3], &mut buf).is_err());
    let _ = node_hash(b"", 0);
}
