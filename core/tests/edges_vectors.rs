//! tests/vectors/placement-v1-edges.json (SPEC.md §14), reproduced on every
//! backend this CPU supports: exact ties, order-sensitive group sums,
//! `neg_ln_q64`, extreme seeds, id lengths and every XXH3 key length class.

use longstraw::skeleton::{build_groups, write_group_columns};
use longstraw::{key_hash, ln, node_hash, Backend, Group, NodeTable, PackedKeys, Ranked, Skeleton, SkeletonShape};
use serde_json::Value;

fn edges() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/placement-v1-edges.json");
    let text = std::fs::read_to_string(path).expect("tests/vectors/placement-v1-edges.json");
    serde_json::from_str(&text).expect("valid JSON")
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// An entry's `<what>_hex`, or its `<what>_gen` rule: byte i is (start + i) mod 251.
fn entry_bytes(entry: &Value, what: &str) -> Vec<u8> {
    if let Some(hex) = entry.get(format!("{what}_hex")).and_then(Value::as_str) {
        return unhex(hex);
    }
    let rule = &entry[format!("{what}_gen")];
    let (len, start) = (
        rule["len"].as_u64().unwrap() as usize,
        rule["start"].as_u64().unwrap() as usize,
    );
    (0..len).map(|i| ((start + i) % 251) as u8).collect()
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

fn bits(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap(), 16).unwrap()
}

#[test]
fn components() {
    let v = edges();
    assert_eq!(v["placement"], "placement-v1-edges");
    let key_hashes = v["key_hashes"].as_array().unwrap();
    assert!(key_hashes.iter().any(|e| entry_bytes(e, "key").len() == 1 << 20));
    for e in key_hashes {
        let key = entry_bytes(e, "key");
        assert_eq!(
            key_hash(&key, u64s(&e["seed"])),
            u64s(&e["key_hash"]),
            "key of {} bytes",
            key.len()
        );
    }
    for e in v["node_hashes"].as_array().unwrap() {
        let id = entry_bytes(e, "id");
        assert_eq!(
            node_hash(&id, u64s(&e["seed"])),
            u64s(&e["node_hash"]),
            "id of {} bytes",
            id.len()
        );
    }
    let lns = v["neg_ln_q64"].as_array().unwrap();
    assert!(lns.len() > 1000);
    for e in lns {
        let m = u64s(&e["m"]);
        let want: u128 = e["neg_ln_q64"].as_str().unwrap().parse().unwrap();
        assert_eq!(ln::neg_ln_q64(m), want, "m = {m}");
        assert_eq!(ln::ln_unit((m - 1) << 11).to_bits(), bits(&e["ln_u_bits"]), "m = {m}");
    }
}

struct Nodes {
    seed: u64,
    hashes: Vec<u64>,
    weights: Vec<f64>,
}

fn nodes_of(case: &Value) -> Nodes {
    let seed = u64s(&case["seed"]);
    let nodes = case["nodes"].as_array().unwrap();
    Nodes {
        seed,
        hashes: nodes.iter().map(|n| node_hash(&entry_bytes(n, "id"), seed)).collect(),
        weights: nodes.iter().map(|n| f64::from_bits(bits(&n["weight_bits"]))).collect(),
    }
}

fn check_flat(name: &str, c: &Nodes, case: &Value, keys: &[Vec<u8>]) {
    let depth = case["depth"].as_u64().unwrap() as usize;
    let mut packed = Vec::new();
    let mut offsets = vec![0u64];
    for k in keys {
        packed.extend_from_slice(k);
        offsets.push(packed.len() as u64);
    }
    let batch = PackedKeys::new(&packed, &offsets).unwrap();
    for backend in Backend::available() {
        let t = NodeTable::new(c.seed, &c.hashes, Some(&c.weights))
            .unwrap()
            .with_backend(backend);
        let mut batch_out = vec![0u32; keys.len()];
        t.owners(&batch, &mut batch_out).unwrap();
        for (i, (k, key)) in case["keys"].as_array().unwrap().iter().zip(keys).enumerate() {
            let want_owner = k["owner"].as_u64().unwrap() as u32;
            assert_eq!(
                t.owner(key).ok(),
                Some(want_owner),
                "{name} key {i} on {}",
                backend.name()
            );
            assert_eq!(batch_out[i], want_owner, "{name} batch key {i} on {}", backend.name());
            let mut buf = vec![Ranked::EMPTY; depth];
            let n = t.top_k(key, &mut buf);
            let got: Vec<u32> = buf[..n].iter().map(|r| r.index).collect();
            assert_eq!(
                got,
                indices(&k["ranked"]),
                "{name} key {i} ranked on {}",
                backend.name()
            );
        }
    }
}

fn check_skeleton(name: &str, c: &Nodes, case: &Value, keys: &[Vec<u8>]) {
    let shape = SkeletonShape::new(
        case["fanout_bits"].as_u64().unwrap() as u8,
        case["levels"].as_u64().unwrap() as u8,
    )
    .unwrap();
    let depth = case["depth"].as_u64().unwrap() as usize;
    let mut order: Vec<u32> = (0..c.hashes.len() as u32).collect();
    order.sort_by_key(|&i| c.hashes[i as usize]);
    let hashes: Vec<u64> = order.iter().map(|&i| c.hashes[i as usize]).collect();
    let weights: Vec<f64> = order.iter().map(|&i| c.weights[i as usize]).collect();
    let mut groups = vec![Group::EMPTY; shape.max_groups(hashes.len())];
    let used = build_groups(c.seed, shape, &hashes, &weights, &mut groups).unwrap();
    groups.truncate(used);
    let got: Vec<u64> = groups.iter().map(|g| g.weight.to_bits()).collect();
    let want: Vec<u64> = case["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| bits(&g["weight_bits"]))
        .collect();
    assert_eq!(got, want, "{name}: group weights");
    let mut column_hashes = vec![0u64; groups.len()];
    let mut column_inv_weights = vec![0f64; groups.len()];
    write_group_columns(&groups, &mut column_hashes, &mut column_inv_weights).unwrap();
    for backend in Backend::available() {
        let table = NodeTable::new(c.seed, &hashes, Some(&weights))
            .unwrap()
            .with_backend(backend);
        let view = Skeleton::new(table, shape, &order, &groups).unwrap();
        let columns = view.with_group_columns(&column_hashes, &column_inv_weights).unwrap();
        for (i, (k, key)) in case["keys"].as_array().unwrap().iter().zip(keys).enumerate() {
            let want_owner = k["owner"].as_u64().unwrap() as u32;
            for (how, v) in [("records", &view), ("columns", &columns)] {
                assert_eq!(
                    v.owner(key).ok(),
                    Some(want_owner),
                    "{name} key {i} {how} on {}",
                    backend.name()
                );
                let mut buf = vec![Ranked::EMPTY; depth];
                let n = v.top_k(key, &mut buf);
                let got: Vec<u32> = buf[..n].iter().map(|r| r.index).collect();
                assert_eq!(got, indices(&k["ranked"]), "{name} key {i} {how} on {}", backend.name());
            }
        }
    }
}

#[test]
fn cases_on_every_backend() {
    let v = edges();
    let cases = v["cases"].as_array().unwrap();
    for rule in ["tie", "group-sum", "seed", "id-length", "key-length"] {
        assert!(cases.iter().any(|c| c["rule"] == rule), "no {rule} case");
    }
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let c = nodes_of(case);
        let keys: Vec<Vec<u8>> = case["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| entry_bytes(k, "key"))
            .collect();
        match case["mode"].as_str().unwrap() {
            "flat" => check_flat(name, &c, case, &keys),
            "skeleton" => check_skeleton(name, &c, case, &keys),
            mode => panic!("{name}: unknown mode {mode}"),
        }
    }
}
