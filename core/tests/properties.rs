//! Placement properties and statistics (issue: placement v1). Every bound is derived from the sample size.

mod common;

use common::*;
use longstraw::{pair_score, NodeTable, Ranked};

const KEYS: usize = 60_000;

#[test]
fn order_independence() {
    let nodes = Nodes::named("node-", 37, 5);
    let mut rev = Nodes::from_ids(nodes.ids.iter().rev().cloned().collect(), 5);
    rev.weights = nodes.weights.iter().rev().copied().collect();
    let mut shuffled_w = Nodes::named("node-", 37, 5);
    let ws: Vec<f64> = (0..37).map(|i| [0.0, 1.0, 2.5, 7.0][i % 4]).collect();
    shuffled_w = shuffled_w.with_weights(&ws);
    let mut rev_w = Nodes::from_ids(shuffled_w.ids.iter().rev().cloned().collect(), 5);
    rev_w.weights = ws.iter().rev().copied().collect();
    for key in keys(5_000) {
        assert_eq!(nodes.top_ids(&key, 37), rev.top_ids(&key, 37));
        assert_eq!(shuffled_w.top_ids(&key, 37), rev_w.top_ids(&key, 37));
    }
}

#[test]
fn adding_a_node_moves_keys_only_to_it_and_about_one_over_n_plus_one() {
    for n in [1usize, 9, 50] {
        let mut nodes = Nodes::named("node-", n, 0);
        let keys = keys(KEYS);
        let before: Vec<_> = keys.iter().map(|k| nodes.owner(k)).collect();
        nodes.add(b"newcomer", 1.0);
        let mut moved = 0;
        for (k, b) in keys.iter().zip(&before) {
            let a = nodes.owner(k);
            if &a != b {
                assert_eq!(a, b"newcomer");
                moved += 1;
            }
        }
        let p = 1.0 / (n + 1) as f64;
        let frac = moved as f64 / KEYS as f64;
        assert!(
            (frac - p).abs() < six_sigma(p, KEYS),
            "n={n}: moved {frac}, expected {p}"
        );
    }
}

#[test]
fn removing_a_node_moves_exactly_its_keys_spread_evenly() {
    let n = 20;
    let mut nodes = Nodes::named("node-", n, 1);
    let keys = keys(KEYS * 2);
    let before: Vec<_> = keys.iter().map(|k| nodes.owner(k)).collect();
    nodes.remove(b"node-7");
    let mut counts = vec![0u64; n];
    let mut moved = 0;
    for (k, b) in keys.iter().zip(&before) {
        let a = nodes.owner(k);
        if b == b"node-7" {
            assert_ne!(a, b"node-7");
            let idx: usize = std::str::from_utf8(&a[5..]).unwrap().parse().unwrap();
            counts[idx] += 1;
            moved += 1;
        } else {
            assert_eq!(&a, b, "a key of a surviving node moved");
        }
    }
    counts.remove(7);
    let e = moved as f64 / (n - 1) as f64;
    let chi = chi_square(&counts, &vec![e; n - 1]);
    assert!(
        chi < chi_square_bound(n - 2),
        "chi-square {chi} over {} survivors",
        n - 1
    );
}

fn shares(weights: &[f64], n_keys: usize) -> Vec<f64> {
    let nodes = Nodes::named("w-", weights.len(), 3).with_weights(weights);
    let table = nodes.table();
    let mut counts = vec![0usize; weights.len()];
    for k in keys(n_keys) {
        counts[table.owner(&k).unwrap() as usize] += 1;
    }
    counts.iter().map(|&c| c as f64 / n_keys as f64).collect()
}

#[test]
fn weights_give_proportional_shares() {
    for weights in [vec![1.0, 2.0], vec![1.0, 2.0, 3.0], vec![0.5, 0.0, 4.0, 1e-3, 2.0]] {
        let n_keys = 200_000;
        let total: f64 = weights.iter().sum();
        for (w, got) in weights.iter().zip(shares(&weights, n_keys)) {
            let p = w / total;
            // The biased `w * u` rule gives 0.75 for 1:2; 6 sigma here is about 0.006.
            assert!(
                (got - p).abs() <= six_sigma(p, n_keys),
                "weights {weights:?}: share {got} for w={w}, expected {p}"
            );
        }
    }
}

#[test]
fn reweighting_moves_keys_only_to_or_from_that_node() {
    let mut nodes = Nodes::named("node-", 12, 9);
    let keys = keys(KEYS);
    let before: Vec<_> = keys.iter().map(|k| nodes.owner(k)).collect();
    nodes.weights[4] = 3.0; // node-4 up
    let up: Vec<_> = keys.iter().map(|k| nodes.owner(k)).collect();
    for (b, a) in before.iter().zip(&up) {
        if a != b {
            assert_eq!(a, b"node-4");
        }
    }
    nodes.weights[4] = 0.25; // node-4 down
    let down: Vec<_> = keys.iter().map(|k| nodes.owner(k)).collect();
    for (b, a) in before.iter().zip(&down) {
        if a != b {
            assert_eq!(b, b"node-4");
        }
    }
    // Share after the increase: 3 / (11 + 3).
    let share = up.iter().filter(|o| o.as_slice() == b"node-4").count() as f64 / KEYS as f64;
    let p = 3.0 / 14.0;
    assert!((share - p).abs() < six_sigma(p, KEYS), "{share} vs {p}");
}

#[test]
fn top_k_is_a_stable_prefix_and_slides_up_on_failure() {
    for weighted in [false, true] {
        let mut nodes = Nodes::named("node-", 25, 11);
        if weighted {
            let ws: Vec<f64> = (0..25).map(|i| 1.0 + (i % 5) as f64).collect();
            nodes = nodes.with_weights(&ws);
        }
        for key in keys(2_000) {
            let full = nodes.top_ids(&key, 25);
            assert_eq!(full.len(), 25);
            for k in 0..25 {
                assert_eq!(nodes.top_ids(&key, k), full[..k]);
            }
            assert_eq!(nodes.owner(&key), full[0]);
            let mut without = Nodes::from_ids(nodes.ids.clone(), nodes.seed).with_weights(&nodes.weights);
            without.remove(&full[0]);
            assert_eq!(without.top_ids(&key, 24), full[1..]);
        }
    }
}

fn assert_uniform(nodes: &Nodes, n_keys: usize) {
    let table = nodes.table();
    let n = nodes.ids.len();
    let mut counts = vec![0u64; n];
    for k in keys(n_keys) {
        counts[table.owner(&k).unwrap() as usize] += 1;
    }
    let e = n_keys as f64 / n as f64;
    let chi = chi_square(&counts, &vec![e; n]);
    assert!(
        chi < chi_square_bound(n - 1),
        "chi-square {chi} for n={n} (bound {})",
        chi_square_bound(n - 1)
    );
}

#[test]
fn uniform_with_low_entropy_names() {
    for n in [2usize, 10, 100, 1000] {
        assert_uniform(&Nodes::named("node-", n, 0), 200 * n.max(500));
    }
}

#[test]
fn uniform_with_ids_one_bit_apart() {
    let base = b"server-01".to_vec();
    let mut ids = vec![base.clone()];
    for bit in 0..base.len() * 8 {
        let mut id = base.clone();
        id[bit / 8] ^= 1 << (bit % 8);
        ids.push(id);
    }
    assert_uniform(&Nodes::from_ids(ids, 0), 200_000);
}

#[test]
fn pairwise_fairness() {
    // Any two nodes beat each other about half the time, including ids one bit apart.
    let pairs: [(&[u8], &[u8]); 4] = [
        (b"node-1", b"node-0"),
        (b"a", b"b"),
        (b"node-A", b"node-@"),
        (b"x", b"xx"),
    ];
    let n_keys = 100_000;
    for (a, b) in pairs {
        let nodes = Nodes::from_ids(vec![a.to_vec(), b.to_vec()], 0);
        let wins = keys(n_keys).iter().filter(|k| nodes.owner(k) == a).count();
        let frac = wins as f64 / n_keys as f64;
        assert!((frac - 0.5).abs() < six_sigma(0.5, n_keys), "{a:?} vs {b:?}: {frac}");
    }
}

#[test]
fn pair_score_avalanche() {
    // Flipping one input bit flips each output bit with probability 1/2.
    let samples = 4_000;
    let mut rng = Prng(42);
    let mut flips = vec![[0u32; 64]; 128];
    for _ in 0..samples {
        let (k, n) = (rng.next(), rng.next());
        let base = pair_score(k, n);
        for (bit, row) in flips.iter_mut().enumerate() {
            let s = if bit < 64 {
                pair_score(k ^ (1 << bit), n)
            } else {
                pair_score(k, n ^ (1 << (bit - 64)))
            };
            let diff = base ^ s;
            for (out, f) in row.iter_mut().enumerate() {
                *f += ((diff >> out) & 1) as u32;
            }
        }
    }
    // 8192 (input, output) bit pairs: allow 6 sigma.
    let bound = six_sigma(0.5, samples);
    for (bit, row) in flips.iter().enumerate() {
        for (out, &f) in row.iter().enumerate() {
            let p = f as f64 / samples as f64;
            assert!((p - 0.5).abs() < bound, "input bit {bit} -> output bit {out}: {p}");
        }
    }
}

#[test]
fn linear_score_would_fail_the_uniformity_test() {
    // The statistics above can fail: XOR without the mixer sends almost every key to one node.
    let nodes = Nodes::named("node-", 10, 0);
    let mut counts = [0u64; 10];
    for k in keys(20_000) {
        let kh = kh(&k, 0);
        let best = (0..10).max_by_key(|&i| kh ^ nodes.hashes[i]).unwrap();
        counts[best] += 1;
    }
    let chi = chi_square(&counts, &[2_000.0; 10]);
    assert!(
        chi > chi_square_bound(9),
        "the XOR score should be detected as non-uniform ({chi})"
    );
}

#[test]
fn empty_and_drained_sets() {
    let t = NodeTable::new(0, &[], None).unwrap();
    assert!(t.owner(b"k").is_err());
    let mut buf = [Ranked::EMPTY; 3];
    assert_eq!(t.top_k(b"k", &mut buf), 0);
    let hashes = [1u64, 2, 3];
    let t = NodeTable::new(0, &hashes, Some(&[0.0, 0.0, 0.0])).unwrap();
    assert!(t.owner(b"k").is_err());
    assert_eq!(t.top_k(b"k", &mut buf), 0);
    let t = NodeTable::new(0, &hashes, Some(&[0.0, 5.0, 0.0])).unwrap();
    assert_eq!(t.owner(b"k"), Ok(1));
    assert_eq!(t.top_k(b"k", &mut buf), 1);
    assert_eq!(t.top_k(b"k", &mut []), 0);
}
