//! tests/vectors/bounded-v1.json (SPEC.md §16): scripted single-threaded
//! acquire / release / add / remove / set_weight sequences, with the node
//! each acquire must return and the in-flight total after every step. The
//! expected values come from tests/spec (the independent implementation).

use std::collections::HashMap;

use longstraw::Secret;
use longstraw_set::{BoundedLoad, Error, Options, OwnedLease};
use serde_json::Value;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn bits(v: &Value) -> f64 {
    f64::from_bits(u64::from_str_radix(v.as_str().unwrap(), 16).unwrap())
}

fn build(case: &Value) -> BoundedLoad {
    let options = match case["secret_hex"].as_str() {
        Some(secret) => Options {
            secret: Some(Secret::from_bytes(&hex(secret)).unwrap()),
            ..Options::default()
        },
        None => Options {
            seed: Some(case["seed"].as_str().unwrap().parse().unwrap()),
            ..Options::default()
        },
    };
    let nodes: Vec<(Vec<u8>, f64)> = case["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (hex(n["id_hex"].as_str().unwrap()), bits(&n["weight_bits"])))
        .collect();
    BoundedLoad::with_weights(nodes, options, bits(&case["balance_factor_bits"])).unwrap()
}

#[test]
fn bounded_v1_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/bounded-v1.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(v["placement"], "bounded-v1");
    let mut checked = 0;
    for case in v["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let b = build(case);
        let mut leases: HashMap<u64, OwnedLease> = HashMap::new();
        for (i, op) in case["ops"].as_array().unwrap().iter().enumerate() {
            let id = || hex(op["id_hex"].as_str().unwrap());
            match op["op"].as_str().unwrap() {
                "acquire" => {
                    let got = b.acquire_owned(&hex(op["key_hex"].as_str().unwrap()));
                    match op["node_hex"].as_str() {
                        Some(want) => {
                            let lease = got.unwrap_or_else(|e| panic!("{name} op {i}: {e}"));
                            assert_eq!(lease.node_id(), &hex(want)[..], "{name} op {i}: acquired node");
                            leases.insert(i as u64, lease);
                        }
                        None => assert!(
                            matches!(got, Err(Error::Core(longstraw::Error::NoEligibleNodes))),
                            "{name} op {i}: expected no eligible node, got {got:?}"
                        ),
                    }
                }
                "release" => drop(leases.remove(&op["acquire"].as_u64().unwrap()).expect("a live lease")),
                "add" => b.add(id(), bits(&op["weight_bits"])).unwrap(),
                "remove" => b.remove(id()).unwrap(),
                "set_weight" => b.set_weight(id(), bits(&op["weight_bits"])).unwrap(),
                other => panic!("{name} op {i}: unknown op {other}"),
            }
            assert_eq!(
                b.in_flight(),
                op["in_flight"].as_u64().unwrap(),
                "{name} op {i}: in_flight"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} ops checked");
}
