//! tests/vectors/{table,skeleton,domains}-v1.json, reproduced on every
//! backend this CPU supports.

use longstraw::domains::top_k_distinct_of_hash;
use longstraw::partition::{self, partition_key_hash, partition_of};
use longstraw::skeleton::{build_groups, group_hash, write_group_columns};
use longstraw::{key_hash, node_hash, Backend, Group, NodeTable, PartitionTable, Ranked, Skeleton, SkeletonShape};
use serde_json::Value;

fn vectors(name: &str) -> Value {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).expect("valid JSON")
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn u64s(v: &Value) -> u64 {
    v.as_str().expect("u64 as a decimal string").parse().unwrap()
}

fn indices(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

fn owner(v: &Value) -> Option<u32> {
    v.as_u64().map(|o| o as u32)
}

struct Case {
    seed: u64,
    hashes: Vec<u64>,
    weights: Vec<f64>,
    domains: Vec<u32>,
}

fn case_nodes(case: &Value) -> Case {
    let seed = u64s(&case["seed"]);
    let nodes = case["nodes"].as_array().unwrap();
    let hashes = nodes
        .iter()
        .map(|n| node_hash(&unhex(n["id_hex"].as_str().unwrap()), seed))
        .collect();
    let weights = nodes
        .iter()
        .map(|n| f64::from_bits(u64::from_str_radix(n["weight_bits"].as_str().unwrap(), 16).unwrap()))
        .collect();
    // Labels to u32s: equal exactly within a domain, unlabelled nodes alone.
    let mut labels: Vec<String> = Vec::new();
    let domains = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| match n.get("domain_hex").and_then(Value::as_str) {
            Some(d) => match labels.iter().position(|l| l == d) {
                Some(p) => p as u32,
                None => {
                    labels.push(d.to_owned());
                    labels.len() as u32 - 1
                }
            },
            None => 1_000_000 + i as u32,
        })
        .collect();
    Case {
        seed,
        hashes,
        weights,
        domains,
    }
}

struct Tree {
    hashes: Vec<u64>,
    weights: Vec<f64>,
    order: Vec<u32>,
    groups: Vec<Group>,
}

fn tree(c: &Case, shape: SkeletonShape) -> Tree {
    let mut order: Vec<u32> = (0..c.hashes.len() as u32).collect();
    order.sort_by_key(|&i| c.hashes[i as usize]);
    let hashes: Vec<u64> = order.iter().map(|&i| c.hashes[i as usize]).collect();
    let weights: Vec<f64> = order.iter().map(|&i| c.weights[i as usize]).collect();
    let mut groups = vec![Group::EMPTY; shape.max_groups(hashes.len())];
    let used = build_groups(c.seed, shape, &hashes, &weights, &mut groups).unwrap();
    groups.truncate(used);
    Tree {
        hashes,
        weights,
        order,
        groups,
    }
}

#[test]
fn table_vectors() {
    let v = vectors("table-v1.json");
    assert_eq!(v["placement"], "table-v1");
    for c in v["partition_of"].as_array().unwrap() {
        let bits = c["bits"].as_u64().unwrap() as u8;
        assert_eq!(
            partition_of(u64s(&c["key_hash"]), bits) as u64,
            c["partition"].as_u64().unwrap()
        );
    }
    for c in v["partition_key_hashes"].as_array().unwrap() {
        let p = c["partition"].as_u64().unwrap() as u32;
        assert_eq!(partition_key_hash(p, u64s(&c["seed"])), u64s(&c["key_hash"]));
    }
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let c = case_nodes(case);
        let bits = case["bits"].as_u64().unwrap() as u8;
        let depth = case["depth"].as_u64().unwrap() as usize;
        for backend in Backend::available() {
            let nodes = NodeTable::new(c.seed, &c.hashes, Some(&c.weights))
                .unwrap()
                .with_backend(backend);
            let mut rows = vec![0u32; (1 << bits) * depth];
            partition::build(&nodes, None, bits, depth, &mut rows).unwrap();
            let t = PartitionTable::new(nodes, None, bits, depth, &rows).unwrap();
            if let Some(parts) = case.get("partitions") {
                for (p, want) in parts.as_array().unwrap().iter().enumerate() {
                    assert_eq!(t.row(p as u32), &indices(want)[..], "{name} partition {p}");
                }
            }
            for k in case["keys"].as_array().unwrap() {
                let key = unhex(k["key_hex"].as_str().unwrap());
                assert_eq!(t.partition(&key) as u64, k["partition"].as_u64().unwrap(), "{name}");
                assert_eq!(t.owner(&key).ok(), owner(&k["owner"]), "{name} on {}", backend.name());
                let mut out = vec![0u32; depth];
                let n = t.top_k(&key, &mut out);
                assert_eq!(out[..n], indices(&k["ranked"])[..], "{name} on {}", backend.name());
            }
        }
    }
}

#[test]
fn skeleton_vectors() {
    let v = vectors("skeleton-v1.json");
    assert_eq!(v["placement"], "skeleton-v1");
    for c in v["group_hashes"].as_array().unwrap() {
        let level = c["level"].as_u64().unwrap() as u8;
        assert_eq!(
            group_hash(u64s(&c["seed"]), level, u64s(&c["prefix"])),
            u64s(&c["group_hash"])
        );
    }
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let c = case_nodes(case);
        let shape = SkeletonShape::new(
            case["fanout_bits"].as_u64().unwrap() as u8,
            case["levels"].as_u64().unwrap() as u8,
        )
        .unwrap();
        let depth = case["depth"].as_u64().unwrap() as usize;
        let tr = tree(&c, shape);
        let weights: Vec<String> = tr
            .groups
            .iter()
            .map(|g| format!("{:016x}", g.weight.to_bits()))
            .collect();
        let mut want_weights: Vec<String> = case["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["weight_bits"].as_str().unwrap().to_owned())
            .collect();
        // Group listing order in the file is by level then prefix, as built.
        assert_eq!(weights, std::mem::take(&mut want_weights), "{name} group weights");
        for backend in Backend::available() {
            let nodes = NodeTable::new(c.seed, &tr.hashes, Some(&tr.weights))
                .unwrap()
                .with_backend(backend);
            let view = Skeleton::new(nodes, shape, &tr.order, &tr.groups).unwrap();
            let mut column_hashes = vec![0u64; tr.groups.len()];
            let mut column_inv_weights = vec![0f64; tr.groups.len()];
            write_group_columns(&tr.groups, &mut column_hashes, &mut column_inv_weights).unwrap();
            let columns = view.with_group_columns(&column_hashes, &column_inv_weights).unwrap();
            for k in case["keys"].as_array().unwrap() {
                let key = unhex(k["key_hex"].as_str().unwrap());
                assert_eq!(
                    view.owner(&key).ok(),
                    owner(&k["owner"]),
                    "{name} on {}",
                    backend.name()
                );
                assert_eq!(
                    columns.owner(&key).ok(),
                    owner(&k["owner"]),
                    "{name} on {} with group columns",
                    backend.name()
                );
                let mut out = vec![Ranked::EMPTY; depth];
                let n = view.top_k(&key, &mut out);
                let got: Vec<u32> = out[..n].iter().map(|r| r.index).collect();
                assert_eq!(got, indices(&k["ranked"]), "{name} on {}", backend.name());
            }
        }
    }
}

#[test]
fn domains_vectors() {
    let v = vectors("domains-v1.json");
    assert_eq!(v["placement"], "domains-v1");
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 9);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let c = case_nodes(case);
        let k = case["k"].as_u64().unwrap() as usize;
        let nodes = NodeTable::new(c.seed, &c.hashes, Some(&c.weights)).unwrap();
        let skeleton = case.get("levels").map(|levels| {
            let shape = SkeletonShape::new(
                case["fanout_bits"].as_u64().unwrap() as u8,
                levels.as_u64().unwrap() as u8,
            )
            .unwrap();
            (shape, tree(&c, shape))
        });
        for key_case in case["keys"].as_array().unwrap() {
            let key = unhex(key_case["key_hex"].as_str().unwrap());
            let kh = key_hash(&key, c.seed);
            let mut out = vec![Ranked::EMPTY; k];
            let n = match case["mode"].as_str().unwrap() {
                "flat" => top_k_distinct_of_hash(&nodes, kh, &c.domains, &mut out).unwrap(),
                "table" => {
                    let bits = case["bits"].as_u64().unwrap() as u8;
                    let pkh = partition_key_hash(partition_of(kh, bits), c.seed);
                    top_k_distinct_of_hash(&nodes, pkh, &c.domains, &mut out).unwrap()
                }
                "skeleton" => {
                    let (shape, tr) = skeleton.as_ref().unwrap();
                    let t = NodeTable::new(c.seed, &tr.hashes, Some(&tr.weights)).unwrap();
                    let view = Skeleton::new(t, *shape, &tr.order, &tr.groups).unwrap();
                    view.top_k_distinct_of_hash(kh, &c.domains, &mut out).unwrap()
                }
                other => panic!("unknown mode {other}"),
            };
            let got: Vec<u32> = out[..n].iter().map(|r| r.index).collect();
            assert_eq!(got, indices(&key_case["distinct"]), "{name}");
        }
    }
}
