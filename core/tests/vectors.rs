//! tests/vectors/placement-v1.json, reproduced by the oracle and by every
//! backend this CPU supports.

use longstraw::{key_hash, ln, node_hash, pair_score, weighted_score, Backend, NodeTable, PackedKeys, Ranked};
use serde_json::Value;

fn vectors() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/placement-v1.json");
    let text = std::fs::read_to_string(path).expect("tests/vectors/placement-v1.json");
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

fn f64_bits(v: &Value) -> f64 {
    f64::from_bits(u64::from_str_radix(v.as_str().unwrap(), 16).unwrap())
}

#[test]
fn components() {
    let v = vectors();
    assert_eq!(v["placement"], 1);
    for c in v["key_hashes"].as_array().unwrap() {
        assert_eq!(
            key_hash(&unhex(c["key_hex"].as_str().unwrap()), u64s(&c["seed"])),
            u64s(&c["key_hash"])
        );
    }
    for c in v["node_hashes"].as_array().unwrap() {
        assert_eq!(
            node_hash(&unhex(c["id_hex"].as_str().unwrap()), u64s(&c["seed"])),
            u64s(&c["node_hash"])
        );
    }
    for c in v["pair_scores"].as_array().unwrap() {
        assert_eq!(
            pair_score(u64s(&c["key_hash"]), u64s(&c["node_hash"])),
            u64s(&c["score"])
        );
    }
    for c in v["ln"].as_array().unwrap() {
        let score = u64s(&c["score"]);
        assert_eq!(
            ln::ln_unit(score).to_bits(),
            f64_bits(&c["ln_u_bits"]).to_bits(),
            "score {score}"
        );
        assert_eq!(
            weighted_score(score, 3.0).to_bits(),
            f64_bits(&c["weighted_by_3"]).to_bits()
        );
    }
}

#[test]
fn cases_on_every_backend() {
    let v = vectors();
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    let backends: Vec<Backend> = Backend::available().collect();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let seed = u64s(&case["seed"]);
        let depth = case["depth"].as_u64().unwrap() as usize;
        let nodes = case["nodes"].as_array().unwrap();
        let hashes: Vec<u64> = nodes
            .iter()
            .map(|n| node_hash(&unhex(n["id_hex"].as_str().unwrap()), seed))
            .collect();
        let weights: Vec<f64> = nodes.iter().map(|n| f64_bits(&n["weight_bits"])).collect();
        let table = NodeTable::new(seed, &hashes, Some(&weights)).unwrap();
        let keys: Vec<Vec<u8>> = case["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| unhex(k["key_hex"].as_str().unwrap()))
            .collect();
        let mut packed = Vec::new();
        let mut offsets = vec![0u64];
        for k in &keys {
            packed.extend_from_slice(k);
            offsets.push(packed.len() as u64);
        }
        let batch = PackedKeys::new(&packed, &offsets).unwrap();
        for backend in &backends {
            let t = table.with_backend(*backend);
            let mut batch_out = vec![0u32; keys.len()];
            let batch_ok = t.owners(&batch, &mut batch_out);
            for (i, (k, key)) in case["keys"].as_array().unwrap().iter().zip(&keys).enumerate() {
                let want_owner = k["owner"].as_u64().map(|o| o as u32);
                let want: Vec<u32> = k["ranked"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u32)
                    .collect();
                assert_eq!(
                    t.owner(key).ok(),
                    want_owner,
                    "{name} key {} on {}",
                    k["key_hex"],
                    backend.name()
                );
                if let Some(want_owner) = want_owner {
                    assert_eq!(batch_out[i], want_owner, "{name} batch on {}", backend.name());
                } else {
                    assert!(batch_ok.is_err());
                }
                let mut buf = vec![Ranked::EMPTY; depth];
                let n = t.top_k(key, &mut buf);
                let got: Vec<u32> = buf[..n].iter().map(|r| r.index).collect();
                assert_eq!(got, want, "{name} key {} ranked on {}", k["key_hex"], backend.name());
            }
        }
    }
}
