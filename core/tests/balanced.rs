//! Balanced partition tables against a brute-force greedy over all
//! (partition, node) pairs, written from SPEC.md §17 rather than from the
//! deferred-acceptance code it checks.

mod common;

use std::cmp::Ordering;

use common::*;
use longstraw::balanced::{self, Balance, BalancedBuffers, BalancedLayout, BalancedReport, Cursor, Held, NodeSlot};
use longstraw::partition::NO_NODE;
use longstraw::{pair_score, weighted_score, Backend, NodeTable};

/// Builds with freshly sized buffers.
fn build(table: &NodeTable<'_>, bits: u8, replicas: usize, balance: Balance) -> (Vec<u32>, BalancedReport) {
    let layout = BalancedLayout::of(table, bits, replicas, balance).unwrap();
    let mut rows = vec![0; layout.rows];
    let mut candidates = vec![0; layout.candidates];
    let mut cursors = vec![Cursor::default(); layout.cursors];
    let mut holders = vec![Held::EMPTY; layout.holders];
    let mut slots = vec![NodeSlot::default(); layout.slots];
    let report = balanced::build(
        table,
        bits,
        replicas,
        balance,
        &mut rows,
        BalancedBuffers {
            candidates: &mut candidates,
            cursors: &mut cursors,
            holders: &mut holders,
            slots: &mut slots,
        },
    )
    .unwrap();
    (rows, report)
}

/// §17.2 for integer weights, in exact integer arithmetic.
fn integer_caps(millionths: u32, bits: u8, weights: &[u64]) -> Vec<u64> {
    let total: u128 = weights.iter().map(|&w| w as u128).sum();
    weights
        .iter()
        .map(|&w| {
            let need = millionths as u128 * (1u128 << bits) * w as u128;
            need.div_ceil(1_000_000 * total) as u64
        })
        .collect()
}

fn weight_of(table: &NodeTable<'_>, i: u32) -> f64 {
    table.weights().map_or(1.0, |w| w[i as usize])
}

/// §17.3: the pair order. The weighted score always (no equal-weight shortcut).
fn pair_order(table: &NodeTable<'_>, a: (u32, u32), b: (u32, u32)) -> Ordering {
    let key = |(p, i): (u32, u32)| {
        let kh = table.hashing().partition_key_hash(p);
        let score = pair_score(kh, table.hashes()[i as usize]);
        (
            weighted_score(score, weight_of(table, i)),
            score,
            table.hashes()[i as usize],
            i,
            p,
        )
    };
    let (ka, kb) = (key(a), key(b));
    kb.0.partial_cmp(&ka.0)
        .unwrap()
        .then(kb.1.cmp(&ka.1))
        .then(kb.2.cmp(&ka.2))
        .then(ka.3.cmp(&kb.3))
        .then(ka.4.cmp(&kb.4))
}

/// §17.4: rank by rank, the greedy over every allowed pair in pair order,
/// then the leftovers on their best allowed node.
fn greedy(table: &NodeTable<'_>, bits: u8, replicas: usize, caps: &[u64]) -> (Vec<u32>, usize) {
    let partitions = 1u32 << bits;
    let n = table.hashes().len() as u32;
    let eligible: Vec<u32> = (0..n).filter(|&i| weight_of(table, i) != 0.0).collect();
    let mut pairs: Vec<(u32, u32)> = (0..partitions)
        .flat_map(|p| eligible.iter().map(move |&i| (p, i)))
        .collect();
    pairs.sort_by(|&a, &b| pair_order(table, a, b));
    let mut rows = vec![NO_NODE; partitions as usize * replicas];
    let mut over = 0;
    for rank in 0..replicas.min(eligible.len()) {
        let mut load = vec![0u64; n as usize];
        let allowed =
            |rows: &[u32], p: u32, i: u32| !rows[p as usize * replicas..p as usize * replicas + rank].contains(&i);
        for &(p, i) in &pairs {
            let at = p as usize * replicas + rank;
            if rows[at] == NO_NODE && allowed(&rows, p, i) && load[i as usize] < caps[i as usize] {
                rows[at] = i;
                load[i as usize] += 1;
            }
        }
        for &(p, i) in &pairs {
            let at = p as usize * replicas + rank;
            if rows[at] == NO_NODE && allowed(&rows, p, i) {
                rows[at] = i;
                over += 1;
            }
        }
    }
    (rows, over)
}

#[test]
fn equals_the_greedy_over_all_pairs() {
    let mut rng = Prng(0xba1a_2ced);
    let mut cases = 0;
    let mut overflowing = 0;
    for _ in 0..400 {
        let n = 1 + (rng.next() % 12) as usize;
        let bits = (rng.next() % 7) as u8;
        let replicas = 1 + (rng.next() % 4) as usize;
        let mut weights: Vec<u64> = (0..n).map(|_| [0, 1, 1, 2, 3, 7][(rng.next() % 6) as usize]).collect();
        weights[0] = weights[0].max(1); // a table with no eligible node is a build error elsewhere
        let millionths = [1_000_000, 1_010_000, 1_050_000, 1_100_000, 1_333_333][(rng.next() % 5) as usize];
        let fw: Vec<f64> = weights.iter().map(|&w| w as f64).collect();
        let nodes = Nodes::named("bal-", n, rng.next()).with_weights(&fw);
        let table = nodes.table();
        let balance = Balance::from_millionths(millionths).unwrap();
        let caps = integer_caps(millionths, bits, &weights);
        let (expected, expected_over) = greedy(&table, bits, replicas, &caps);
        for backend in Backend::available() {
            let (rows, report) = build(&table.with_backend(backend), bits, replicas, balance);
            assert_eq!(
                rows, expected,
                "n={n} bits={bits} r={replicas} w={weights:?} b={millionths} {backend:?}"
            );
            assert_eq!(report.over_cap, expected_over);
        }
        cases += 1;
        overflowing += (expected_over > 0) as usize;
    }
    // The leftover rule must be exercised, not only described.
    assert!(overflowing > 0, "no case overflowed: the leftover path went untested");
    assert!(overflowing < cases / 2, "{overflowing} of {cases} overflowed");
}

/// Larger tables with tight caps, where partitions are turned down by many
/// nodes and rank deep into their lists (past the SIMD refill).
#[test]
fn equals_the_greedy_when_partitions_rank_deep() {
    let mut rng = Prng(0xdee9);
    for round in 0..6 {
        let n = 40 + (rng.next() % 40) as usize;
        let bits = 8;
        let replicas = 1 + round % 2;
        let weights: Vec<u64> = (0..n).map(|i| if i % 7 == 0 { 5 } else { 1 }).collect();
        let fw: Vec<f64> = weights.iter().map(|&w| w as f64).collect();
        let nodes = Nodes::named("deep-", n, rng.next()).with_weights(&fw);
        let table = nodes.table();
        let caps = integer_caps(1_000_000, bits, &weights);
        let (expected, expected_over) = greedy(&table, bits, replicas, &caps);
        let (rows, report) = build(&table, bits, replicas, Balance::from_millionths(1_000_000).unwrap());
        assert_eq!(rows, expected, "n={n} replicas={replicas}");
        assert_eq!(report.over_cap, expected_over);
    }
}

#[test]
fn no_node_exceeds_its_cap_and_drained_nodes_hold_nothing() {
    let mut rng = Prng(7);
    for _ in 0..40 {
        let n = 20 + (rng.next() % 200) as usize;
        let bits = 8 + (rng.next() % 5) as u8;
        let replicas = 1 + (rng.next() % 3) as usize;
        let weights: Vec<f64> = (0..n)
            .map(|_| [0.0, 1.0, 2.0, 0.5, 3.25][(rng.next() % 5) as usize])
            .collect();
        let nodes = Nodes::named("cap-", n, rng.next()).with_weights(&weights);
        let table = nodes.table();
        for millionths in [1_000_000, 1_010_000, 1_050_000] {
            let balance = Balance::from_millionths(millionths).unwrap();
            let mut caps = vec![0; n];
            balanced::caps(&table, bits, balance, &mut caps).unwrap();
            let (rows, report) = build(&table, bits, replicas, balance);
            // §17.4's guarantee: caps hold at rank r when the caps without the r largest sum to >= P.
            let mut sorted = caps.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let total: u64 = caps.iter().sum();
            for rank in 0..replicas {
                let mut load = vec![0u64; n];
                for row in rows.chunks_exact(replicas) {
                    assert_ne!(row[rank], NO_NODE, "every partition is placed at every rank");
                    load[row[rank] as usize] += 1;
                }
                let promised = total - sorted[..rank].iter().sum::<u64>() >= 1 << bits;
                if promised {
                    for (i, (&l, &c)) in load.iter().zip(&caps).enumerate() {
                        assert!(l <= c, "node {i} holds {l} > cap {c} at rank {rank}");
                    }
                }
                for (i, &w) in weights.iter().enumerate() {
                    if w == 0.0 {
                        assert_eq!(load[i], 0, "drained node {i} holds partitions");
                    }
                }
            }
            for row in rows.chunks_exact(replicas) {
                let mut seen = row.to_vec();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), replicas, "a row repeats a node: {row:?}");
            }
            if replicas == 1 {
                assert_eq!(report.over_cap, 0);
            }
        }
    }
}

#[test]
fn balance_is_validated_and_held_to_millionths() {
    assert_eq!(Balance::new(1.05).unwrap().millionths(), 1_050_000);
    assert_eq!(Balance::new(1.0).unwrap().millionths(), 1_000_000);
    assert_eq!(Balance::new(4.0).unwrap().millionths(), 4_000_000);
    assert_eq!(Balance::new(1.0000004).unwrap().millionths(), 1_000_000);
    assert_eq!(Balance::new(1.0000005).unwrap().millionths(), 1_000_001);
    for bad in [f64::NAN, f64::INFINITY, -1.0, 0.0, 0.99, 0.9999994, 4.0000006, 1e300] {
        assert!(
            matches!(Balance::new(bad), Err(longstraw::Error::BadBalance { .. })),
            "{bad} was accepted"
        );
    }
    assert!(Balance::from_millionths(999_999).is_err());
    assert!(Balance::from_millionths(4_000_001).is_err());
}

/// tests/vectors/table-balanced-v1.json on every backend.
#[test]
fn the_vectors_hold_on_every_backend() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/table-balanced-v1.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let weight =
        |n: &serde_json::Value| f64::from_bits(u64::from_str_radix(n["weight_bits"].as_str().unwrap(), 16).unwrap());
    let mut checked = 0;
    for c in v["caps"].as_array().unwrap() {
        let repeat = c["repeat"].as_u64().unwrap() as usize;
        let weights: Vec<f64> = c["weights"]
            .as_array()
            .unwrap()
            .iter()
            .map(weight)
            .collect::<Vec<_>>()
            .repeat(repeat);
        let hashes: Vec<u64> = (0..weights.len() as u64).collect();
        let table = NodeTable::new(0, &hashes, Some(&weights)).unwrap();
        let balance = Balance::from_millionths(c["balance_millionths"].as_u64().unwrap() as u32).unwrap();
        let mut caps = vec![0; weights.len()];
        balanced::caps(&table, c["bits"].as_u64().unwrap() as u8, balance, &mut caps).unwrap();
        let want: Vec<u64> = c["caps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(&caps[..want.len()], &want[..], "{c}");
        assert!(caps.windows(2).all(|w| repeat == 1 || w[0] == w[1]));
        checked += 1;
    }
    for case in v["cases"].as_array().unwrap() {
        let seed: u64 = case["seed"].as_str().unwrap().parse().unwrap();
        let nodes = case["nodes"].as_array().unwrap();
        let hashes: Vec<u64> = nodes
            .iter()
            .map(|n| {
                let id: Vec<u8> = (0..n["id_hex"].as_str().unwrap().len() / 2)
                    .map(|i| u8::from_str_radix(&n["id_hex"].as_str().unwrap()[2 * i..2 * i + 2], 16).unwrap())
                    .collect();
                longstraw::node_hash(&id, seed)
            })
            .collect();
        let weights: Vec<f64> = nodes.iter().map(weight).collect();
        let table = NodeTable::new(seed, &hashes, Some(&weights)).unwrap();
        let bits = case["bits"].as_u64().unwrap() as u8;
        let replicas = case["replicas"].as_u64().unwrap() as usize;
        let balance = Balance::from_millionths(case["balance_millionths"].as_u64().unwrap() as u32).unwrap();
        let want: Vec<Vec<u32>> = serde_json::from_value(case["rows"].clone()).unwrap();
        for backend in Backend::available() {
            let (rows, report) = build(&table.with_backend(backend), bits, replicas, balance);
            let got: Vec<Vec<u32>> = rows
                .chunks_exact(replicas)
                .map(|r| r.iter().copied().take_while(|&i| i != NO_NODE).collect())
                .collect();
            assert_eq!(got, want, "{} on {backend:?}", case["name"]);
            assert_eq!(report.over_cap as u64, case["over_cap"].as_u64().unwrap());
        }
        checked += 1;
    }
    assert_eq!(checked, 22, "the vector file lost entries");
}

/// Placing from a plain table's rows (as the owned table does after patching
/// them incrementally) gives the same table as a build from scratch.
#[test]
fn placing_from_patched_plain_rows_equals_a_build() {
    use longstraw::partition;
    let mut rng = Prng(0x9a7c);
    for _ in 0..30 {
        let n = 3 + (rng.next() % 40) as usize;
        let bits = (rng.next() % 9) as u8;
        let replicas = 1 + (rng.next() % 3) as usize;
        let mut weights: Vec<f64> = (0..n)
            .map(|_| [0.0, 1.0, 2.0, 0.5][(rng.next() % 4) as usize])
            .collect();
        weights[0] = 1.0;
        let nodes = Nodes::named("inc-", n, rng.next()).with_weights(&weights);
        let balance = Balance::from_millionths(1_020_000).unwrap();
        // Plain rows for all but the last node, then the last node added incrementally.
        let before = NodeTable::new(0, &nodes.table().hashes()[..n - 1], Some(&weights[..n - 1]))
            .unwrap()
            .with_hashing(nodes.table().hashing());
        let mut plain = vec![0; (1 << bits) * replicas];
        partition::build(&before, None, bits, replicas, &mut plain).unwrap();
        let table = nodes.table();
        partition::on_add(&table, None, bits, replicas, &mut plain, n as u32 - 1).unwrap();
        let layout = BalancedLayout::of(&table, bits, replicas, balance).unwrap();
        let mut candidates = vec![0; layout.candidates];
        let mut cursors = vec![Cursor::default(); layout.cursors];
        balanced::prepare_from_rows(&table, replicas, &plain, &mut candidates, &mut cursors).unwrap();
        let mut rows = vec![0; layout.rows];
        let buffers = BalancedBuffers {
            candidates: &mut candidates,
            cursors: &mut cursors,
            holders: &mut vec![Held::EMPTY; layout.holders],
            slots: &mut vec![NodeSlot::default(); layout.slots],
        };
        let report = balanced::build_prepared(&table, bits, replicas, balance, &mut rows, buffers).unwrap();
        let (fresh, fresh_report) = build(&table, bits, replicas, balance);
        assert_eq!(rows, fresh, "n={n} bits={bits} replicas={replicas}");
        assert_eq!(report, fresh_report);
    }
}
