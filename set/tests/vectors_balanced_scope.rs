//! tests/vectors/table-balanced-scope-v1.json (SPEC.md §17.5): balanced
//! tables with a secret (keyed-v1 hashes) and `top_k_distinct` on a balanced
//! table (§12 over the stored row). The expected values come from tests/spec
//! (the independent implementation).

use longstraw::balanced::Balance;
use longstraw::Secret;
use longstraw_set::{Options, Rendezvous, TableOptions};
use serde_json::Value;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn indices(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

#[test]
fn table_balanced_scope_v1_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/table-balanced-scope-v1.json"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(v["placement"], "table-balanced-scope-v1");
    let mut checked = 0;
    for case in v["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let set = match case["secret_hex"].as_str() {
            Some(secret) => Options {
                secret: Some(Secret::from_bytes(&hex(secret)).unwrap()),
                ..Options::default()
            },
            None => Options {
                seed: Some(case["seed"].as_str().unwrap().parse().unwrap()),
                ..Options::default()
            },
        };
        let options = TableOptions {
            partition_bits: Some(case["bits"].as_u64().unwrap() as u8),
            replicas: case["replicas"].as_u64().unwrap() as usize,
            distinct_domains: false,
            balance: Some(Balance::from_millionths(case["balance_millionths"].as_u64().unwrap() as u32).unwrap()),
        };
        let nodes: Vec<(Vec<u8>, f64, Option<Vec<u8>>)> = case["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                let w = f64::from_bits(u64::from_str_radix(n["weight_bits"].as_str().unwrap(), 16).unwrap());
                (hex(n["id_hex"].as_str().unwrap()), w, n["domain_hex"].as_str().map(hex))
            })
            .collect();
        let table = Rendezvous::new(nodes.clone(), set, options.into()).unwrap();
        let snap = table.snapshot();
        let snap = snap.as_table().expect("a table-mode set");
        let ids = |xs: &[usize]| -> Vec<Vec<u8>> { xs.iter().map(|&i| nodes[i].0.clone()).collect() };
        let got = |xs: Vec<longstraw_set::Node<'_>>| -> Vec<Vec<u8>> { xs.iter().map(|n| n.id().to_vec()).collect() };
        let k = case["k"].as_u64().unwrap() as usize;
        for key in case["keys"].as_array().unwrap() {
            let bytes = hex(key["key_hex"].as_str().unwrap());
            let at = format!("{name}, key {}", key["key_hex"]);
            assert_eq!(
                snap.partition(&bytes) as u64,
                key["partition"].as_u64().unwrap(),
                "{at}: partition"
            );
            assert_eq!(got(snap.top_k(&bytes, 64)), ids(&indices(&key["list"])), "{at}: list");
            assert_eq!(
                got(snap.top_k_distinct(&bytes, k)),
                ids(&indices(&key["distinct"])),
                "{at}: distinct"
            );
            checked += 1;
        }
        for (p, row) in case["rows"].as_array().unwrap().iter().enumerate() {
            let stored: Vec<Vec<u8>> = snap
                .row(p as u32)
                .iter()
                .map(|&i| snap.members().ids()[i as usize].to_vec())
                .collect();
            assert_eq!(stored, ids(&indices(row)), "{name}: partition {p}");
        }
    }
    assert!(checked > 100, "only {checked} keys checked");
}
