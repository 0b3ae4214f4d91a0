//! `plan` against a brute-force recomputation: every key placed under both
//! memberships through the set directly (not through the planner), on random
//! memberships and random changes. Every listed move must be real and none
//! may be missing; the per-node totals must match.

use std::collections::{BTreeMap, HashMap};

use indicatif::ProgressBar;
use longstraw_cli::plan::{plan_lines, MovesFormat, Nodes, ReplicaRule, Request};
use longstraw_membership::{Membership, Mode, NodeSpec};
use longstraw_set::{ModeOptions, Options, Rendezvous};
use serde_json::Value;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn membership(seed: u64, nodes: &[(Vec<u8>, f64)]) -> Membership {
    Membership {
        seed,
        placement: longstraw::Placement::V1,
        mode: Mode::Flat,
        secret: None,
        nodes: nodes
            .iter()
            .map(|(id, w)| NodeSpec::new(id.clone(), *w, None))
            .collect(),
    }
}

/// The set built directly, the independent side of the comparison.
fn direct(seed: u64, nodes: &[(Vec<u8>, f64)]) -> Rendezvous {
    Rendezvous::with_weights(
        nodes.iter().map(|(id, w)| (id.as_slice(), *w)),
        Options {
            seed: Some(seed),
            ..Options::default()
        },
        ModeOptions::Flat,
    )
    .unwrap()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A key as the planner lists it: its text, or `hex:` and its hex.
fn listed_key(v: &Value) -> String {
    match &v["key"] {
        Value::String(k) => k.clone(),
        Value::Object(o) => format!("hex:{}", o["hex"].as_str().unwrap()),
        _ => panic!("no key in {v}"),
    }
}

fn key_name(k: &[u8]) -> String {
    match std::str::from_utf8(k) {
        Ok(s) => s.to_string(),
        Err(_) => format!("hex:{}", hex(k)),
    }
}

fn id_of(v: &Value) -> Vec<u8> {
    match v {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Object(o) => {
            let h = o["hex"].as_str().unwrap();
            (0..h.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
                .collect()
        }
        other => panic!("not an id: {other}"),
    }
}

fn random_change(rng: &mut Rng, nodes: &mut Vec<(Vec<u8>, f64)>, serial: &mut u32) {
    for _ in 0..=rng.below(3) {
        match rng.below(3) {
            0 => {
                *serial += 1;
                nodes.push((format!("new-{serial}").into_bytes(), 0.5 + rng.below(4) as f64));
            }
            1 if nodes.len() > 2 => {
                let i = rng.below(nodes.len() as u64) as usize;
                nodes.remove(i);
            }
            _ => {
                let i = rng.below(nodes.len() as u64) as usize;
                nodes[i].1 = [0.0, 0.25, 1.0, 3.0][rng.below(4) as usize];
            }
        }
    }
    if nodes.iter().all(|n| n.1 == 0.0) {
        nodes[0].1 = 1.0;
    }
}

#[test]
fn every_listed_move_is_real_and_none_is_missing() {
    let mut rng = Rng(42);
    for round in 0..12 {
        let seed = rng.next();
        let n = 2 + rng.below(40) as usize;
        let mut old: Vec<(Vec<u8>, f64)> = (0..n)
            .map(|i| {
                let mut id = format!("n{i}").into_bytes();
                if i % 7 == 3 {
                    id.push(0xff); // ids need not be UTF-8
                }
                (id, 1.0 + rng.below(3) as f64)
            })
            .collect();
        if round % 3 == 0 {
            old[0].1 = 0.0; // a drained node
        }
        let mut new = old.clone();
        let mut serial = 0;
        random_change(&mut rng, &mut new, &mut serial);

        // Keys: text, bytes that are not UTF-8, the empty key; never a newline inside.
        let keys: Vec<Vec<u8>> = (0..20_000)
            .map(|i| match i % 5 {
                0 => vec![],
                1 => (0..1 + rng.below(12))
                    .map(|_| (rng.below(255) as u8).max(0x0b))
                    .collect(),
                _ => format!("key:{round}:{i}").into_bytes(),
            })
            .filter(|k| k.last() != Some(&b'\r'))
            .collect();
        let mut input = Vec::new();
        for k in &keys {
            input.extend_from_slice(k);
            input.push(b'\n');
        }

        for replicas in [None, Some(3)] {
            let a = membership(seed, &old).build().unwrap().snapshot();
            let b = membership(seed, &new).build().unwrap().snapshot();
            let nodes = Nodes::of(&a, &b);
            let request = Request {
                replicas,
                rules: (ReplicaRule::Plain, ReplicaRule::Plain),
                moves: Some(MovesFormat::Jsonl),
            };
            let mut out = Vec::new();
            let totals = plan_lines(
                &a,
                &b,
                &nodes,
                &request,
                input.as_slice(),
                &mut out,
                &ProgressBar::hidden(),
            )
            .unwrap();
            assert_eq!(totals.keys as usize, keys.len());

            let listed: BTreeMap<String, Value> = out
                .split(|&c| c == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| {
                    let v: Value = serde_json::from_slice(l).unwrap();
                    (listed_key(&v), v)
                })
                .collect();

            let (da, db) = (direct(seed, &old), direct(seed, &new));
            let (sa, sb) = (da.snapshot(), db.snapshot());
            let k = replicas.unwrap_or(1);
            let mut expected = BTreeMap::new();
            let mut out_per_node: HashMap<Vec<u8>, u64> = HashMap::new();
            for key in &keys {
                let before: Vec<Vec<u8>> = sa.top_k(key, k).iter().map(|n| n.id().to_vec()).collect();
                let after: Vec<Vec<u8>> = sb.top_k(key, k).iter().map(|n| n.id().to_vec()).collect();
                if before.first() != after.first() {
                    if let Some(f) = before.first() {
                        *out_per_node.entry(f.clone()).or_insert(0) += 1;
                    }
                }
                // Listed when the owner changes or, with replicas, when the set of holders does.
                let same_set = {
                    let (mut x, mut y) = (before.clone(), after.clone());
                    x.sort();
                    y.sort();
                    x == y
                };
                let changed = before.first() != after.first() || (replicas.is_some() && !same_set);
                if changed {
                    expected.insert(key_name(key), (before, after));
                }
            }
            let listed_keys: Vec<&String> = listed.keys().collect();
            let expected_keys: Vec<&String> = expected.keys().collect();
            assert_eq!(
                listed_keys, expected_keys,
                "round {round} replicas {replicas:?}: listed keys differ"
            );
            for (key, (before, after)) in &expected {
                let v = &listed[key];
                if replicas.is_some() {
                    let from: Vec<Vec<u8>> = v["from"].as_array().unwrap().iter().map(id_of).collect();
                    let to: Vec<Vec<u8>> = v["to"].as_array().unwrap().iter().map(id_of).collect();
                    assert_eq!((&from, &to), (before, after), "{key}");
                    let create: Vec<Vec<u8>> = v["create"].as_array().unwrap().iter().map(id_of).collect();
                    let drop: Vec<Vec<u8>> = v["drop"].as_array().unwrap().iter().map(id_of).collect();
                    let want_create: Vec<Vec<u8>> = after.iter().filter(|x| !before.contains(x)).cloned().collect();
                    let want_drop: Vec<Vec<u8>> = before.iter().filter(|x| !after.contains(x)).cloned().collect();
                    assert_eq!((create, drop), (want_create, want_drop), "{key}");
                } else {
                    let from = (!v["from"].is_null()).then(|| id_of(&v["from"]));
                    let to = (!v["to"].is_null()).then(|| id_of(&v["to"]));
                    assert_eq!((from.as_ref(), to.as_ref()), (before.first(), after.first()), "{key}");
                }
            }
            for (i, id) in nodes.ids.iter().enumerate() {
                assert_eq!(
                    totals.out[i],
                    out_per_node.get(id).copied().unwrap_or(0),
                    "out of {id:?}"
                );
            }
            assert_eq!(totals.moved, out_per_node.values().sum::<u64>());
            assert!(totals.optimum() <= totals.moved);
        }
    }
}

#[test]
fn a_plan_between_identical_files_moves_nothing() {
    let nodes: Vec<(Vec<u8>, f64)> = (0..10).map(|i| (format!("n{i}").into_bytes(), 1.0)).collect();
    let a = membership(3, &nodes).build().unwrap().snapshot();
    let b = membership(3, &nodes).build().unwrap().snapshot();
    let ids = Nodes::of(&a, &b);
    let request = Request {
        replicas: Some(2),
        rules: (ReplicaRule::Plain, ReplicaRule::Plain),
        moves: Some(MovesFormat::Csv),
    };
    let input: Vec<u8> = (0..5000).flat_map(|i| format!("k{i}\n").into_bytes()).collect();
    let mut out = Vec::new();
    let t = plan_lines(
        &a,
        &b,
        &ids,
        &request,
        input.as_slice(),
        &mut out,
        &ProgressBar::hidden(),
    )
    .unwrap();
    assert_eq!((t.keys, t.moved, t.optimum()), (5000, 0, 0));
    assert!(out.is_empty());
}
