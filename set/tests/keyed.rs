//! keyed-v1 (SPEC.md §15) through the owned set: the frozen vectors on every
//! backend, secret hygiene, and the attack the secret defeats.

mod common;

use std::collections::HashMap;

use longstraw_set::{Backend, Error, Options, Rendezvous, Secret, SkeletonOptions, SkeletonShape, TableOptions};
use serde_json::Value;

mod attack {
    //! Keys an attacker builds against a known v1 seed (docs/THREAT-MODEL.md).
    include!("attack/families.rs");
}

fn vectors() -> Value {
    let path = format!("{}/tests/vectors/keyed-v1.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).expect("valid JSON")
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn indices(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

fn secret_of(hex: &str) -> Secret {
    Secret::from_bytes(&unhex(hex)).unwrap()
}

type Node = (Vec<u8>, f64, Option<Vec<u8>>);

fn nodes_of(case: &Value) -> Vec<Node> {
    case["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let weight = f64::from_bits(u64::from_str_radix(n["weight_bits"].as_str().unwrap(), 16).unwrap());
            (
                unhex(n["id_hex"].as_str().unwrap()),
                weight,
                n["domain_hex"].as_str().map(unhex),
            )
        })
        .collect()
}

/// What a mode answers for one key: (partition, owner, ranked, distinct).
type Answer = (Option<u32>, Option<u32>, Vec<u32>, Vec<u32>);

fn answers(case: &Value, backend: Backend) -> Vec<Answer> {
    let set = Options {
        secret: Some(secret_of(case["secret_hex"].as_str().unwrap())),
        backend: Some(backend),
        ..Options::default()
    };
    let nodes = nodes_of(case);
    let depth = case["depth"].as_u64().unwrap() as usize;
    let k = case["k"].as_u64().unwrap() as usize;
    let keys: Vec<Vec<u8>> = case["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|key| unhex(key["key_hex"].as_str().unwrap()))
        .collect();
    let lookup = |owner: &dyn Fn(&[u8]) -> Option<u32>,
                  top: &dyn Fn(&[u8], &mut [u32]) -> usize,
                  distinct: &dyn Fn(&[u8], &mut [u32]) -> usize,
                  partition: &dyn Fn(&[u8]) -> Option<u32>| {
        keys.iter()
            .map(|key| {
                let mut ranked = vec![0; depth];
                let n = top(key, &mut ranked);
                ranked.truncate(n);
                let mut kept = vec![0; k];
                let n = distinct(key, &mut kept);
                kept.truncate(n);
                (partition(key), owner(key), ranked, kept)
            })
            .collect()
    };
    match case["mode"].as_str().unwrap() {
        "flat" => {
            let r = Rendezvous::flat(std::iter::empty::<&[u8]>(), set).unwrap();
            r.update(|u| {
                for (id, w, domain) in &nodes {
                    match domain {
                        Some(d) => u.add_in_domain(id, *w, d)?,
                        None => u.add(id, *w)?,
                    }
                }
                Ok(())
            })
            .unwrap();
            let s = r.snapshot();
            lookup(
                &|key| s.owner_index(key).ok(),
                &|key, out| s.top_k_into(key, out),
                &|key, out| s.top_k_distinct_into(key, out),
                &|_| None,
            )
        }
        "table" => {
            let options = TableOptions {
                partition_bits: Some(case["bits"].as_u64().unwrap() as u8),
                replicas: depth,
                ..TableOptions::default()
            };
            let t = Rendezvous::new(nodes, set, options.into()).unwrap();
            let s = t.snapshot();
            lookup(
                &|key| s.owner_index(key).ok(),
                &|key, out| s.top_k_into(key, out),
                &|key, out| s.top_k_distinct_into(key, out),
                &|key| s.partition(key).ok(),
            )
        }
        "skeleton" => {
            let shape = SkeletonShape::new(
                case["fanout_bits"].as_u64().unwrap() as u8,
                case["levels"].as_u64().unwrap() as u8,
            )
            .unwrap();
            let options = SkeletonOptions { shape: Some(shape) };
            let sk = Rendezvous::new(nodes, set, options.into()).unwrap();
            let s = sk.snapshot();
            lookup(
                &|key| s.owner_index(key).ok(),
                &|key, out| s.top_k_into(key, out),
                &|key, out| s.top_k_distinct_into(key, out),
                &|_| None,
            )
        }
        mode => panic!("unknown mode {mode}"),
    }
}

#[test]
fn every_backend_reproduces_the_keyed_vectors() {
    let v = vectors();
    let mut checked = 0;
    for backend in Backend::available() {
        for case in v["cases"].as_array().unwrap() {
            let got = answers(case, backend);
            for (key, (partition, owner, ranked, distinct)) in case["keys"].as_array().unwrap().iter().zip(got) {
                let at = format!("{} on {} key {}", case["name"], backend.name(), key["key_hex"]);
                assert_eq!(owner, key["owner"].as_u64().map(|o| o as u32), "owner: {at}");
                assert_eq!(ranked, indices(&key["ranked"]), "ranked: {at}");
                assert_eq!(distinct, indices(&key["distinct"]), "distinct: {at}");
                if let Some(p) = key.get("partition") {
                    assert_eq!(partition, p.as_u64().map(|p| p as u32), "partition: {at}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 300, "only {checked} keys checked");
}

#[test]
fn a_secret_excludes_a_seed_and_needs_sixteen_bytes() {
    let secret = Secret::from_bytes(&[9; 16]).unwrap();
    let both = Options {
        seed: Some(1),
        secret: Some(secret),
        ..Options::default()
    };
    let err = Rendezvous::flat(["a"], both).unwrap_err();
    assert_eq!(err, Error::Core(longstraw::Error::SeedWithSecret));
    let err = Secret::from_bytes(&[9; 15]).unwrap_err();
    assert_eq!(err, longstraw::Error::BadSecretLength { len: 15 });
}

#[test]
fn the_secret_never_shows_in_debug_or_errors() {
    let bytes = [0x5Au8; 16];
    let secret = Secret::from_bytes(&bytes).unwrap();
    let options = Options {
        secret: Some(secret),
        ..Options::default()
    };
    let r = Rendezvous::flat(["a", "b"], options.clone()).unwrap();
    let err = r.add("a", 1.0).unwrap_err();
    let k0 = u64::from_le_bytes([0x5A; 8]);
    for shown in [
        format!("{options:?}"),
        format!("{r:?}"),
        format!("{:?}", r.snapshot()),
        format!("{err} {err:?}"),
    ] {
        for leak in ["5a5a", "5A5A", "90,", &k0.to_string(), &format!("{k0:x}")] {
            assert!(!shown.contains(leak), "{leak} in {shown}");
        }
    }
    assert!(r.snapshot().is_keyed());
    assert_eq!(r.snapshot().options().secret.unwrap().expose_bytes(), bytes);
}

#[test]
fn tables_and_skeletons_of_a_keyed_set_stay_keyed() {
    let secret = Secret::from_bytes(&[3; 16]).unwrap();
    let set = Options {
        secret: Some(secret),
        ..Options::default()
    };
    let ids: Vec<String> = (0..20).map(|i| format!("n{i}")).collect();
    let flat = Rendezvous::flat(&ids, set.clone()).unwrap().snapshot();
    let table = common::keyed(
        &ids,
        set.clone(),
        TableOptions {
            partition_bits: Some(0),
            ..TableOptions::default()
        },
    )
    .unwrap();
    let skeleton = common::keyed(&ids, set, SkeletonOptions { shape: None }).unwrap();
    assert!(table.snapshot().is_keyed() && skeleton.snapshot().is_keyed());
    assert_eq!(table.snapshot().members().options(), flat.options());
    // A flat skeleton (levels 0 for 20 nodes) is v1's ranking, keyed the same way.
    for i in 0..200 {
        let key = format!("k{i}");
        assert_eq!(
            skeleton.snapshot().owner_index(key.as_bytes()).unwrap(),
            flat.owner_index(key.as_bytes()).unwrap()
        );
    }
}

// ---- the attack, and what the secret does to it ----

const NODES: usize = 10;
const ATTACK_KEYS: usize = 10_000;

fn node_ids() -> Vec<String> {
    (0..NODES).map(|i| format!("cache-{i}")).collect()
}

/// Chi-square of `counts` against a uniform spread. With `NODES - 1 = 9`
/// degrees of freedom the statistic has mean 9 and standard deviation
/// sqrt(18) = 4.24 for any sample size; the bound is mean + 6 sd = 34.5,
/// which a uniform spread exceeds with probability below 1e-6.
fn chi_square_uniform(counts: &[u64]) -> (f64, f64) {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    let stat = counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
    let dof = (counts.len() - 1) as f64;
    (stat, dof + 6.0 * (2.0 * dof).sqrt())
}

fn owner_counts(set: &Rendezvous, keys: &[Vec<u8>]) -> Vec<u64> {
    let snap = set.snapshot();
    let mut counts = vec![0u64; NODES];
    for key in keys {
        counts[snap.owner_index(key).unwrap() as usize] += 1;
    }
    counts
}

/// Secrets drawn without looking at the keys (the attacker does not know them).
fn secrets(n: usize) -> Vec<Secret> {
    let mut state = 0x7365_6372_6574_7321u64;
    (0..n)
        .map(|_| {
            let mut bytes = [0u8; 16];
            for chunk in bytes.chunks_mut(8) {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                chunk.copy_from_slice(&longstraw::mix(state).to_le_bytes());
            }
            Secret::from_bytes(&bytes).unwrap()
        })
        .collect()
}

fn keyed(secret: Secret) -> Rendezvous {
    let options = Options {
        secret: Some(secret),
        ..Options::default()
    };
    Rendezvous::flat(node_ids(), options).unwrap()
}

fn check_spread(name: &str, keys: &[Vec<u8>]) {
    let v1 = Rendezvous::flat(node_ids(), Options::default()).unwrap();
    let pile = owner_counts(&v1, keys);
    assert_eq!(
        pile.iter().max(),
        Some(&(keys.len() as u64)),
        "{name}: the attack must pile up under v1"
    );
    for secret in secrets(4) {
        let counts = owner_counts(&keyed(secret), keys);
        let (stat, bound) = chi_square_uniform(&counts);
        println!("{name}: keyed counts {counts:?}, chi-square {stat:.2} (bound {bound:.1}, 9 dof)");
        assert!(stat < bound, "{name}: chi-square {stat} >= {bound}: {counts:?}");
    }
}

#[test]
fn keys_crafted_against_seed_zero_spread_evenly_under_a_secret() {
    let v1 = Rendezvous::flat(node_ids(), Options::default()).unwrap();
    let snap = v1.snapshot();
    let keys = attack::brute_force_onto(ATTACK_KEYS, |key| snap.owner_index(key).unwrap() == 0);
    check_spread("brute force vs seed 0", &keys);
}

#[test]
fn colliding_xxh3_keys_spread_evenly_under_a_secret() {
    let keys = attack::xxh3_colliding_family(ATTACK_KEYS);
    let first = xxhash_rust::xxh3::xxh3_64_with_seed(&keys[0], 0);
    let distinct: std::collections::HashSet<&Vec<u8>> = keys.iter().collect();
    assert_eq!(distinct.len(), keys.len(), "the family's keys are distinct");
    assert!(
        keys.iter().all(|k| xxhash_rust::xxh3::xxh3_64_with_seed(k, 0) == first),
        "the family must collide under XXH3 seed 0"
    );
    check_spread("XXH3 collisions vs seed 0", &keys);
}

/// Two independent secrets place a key on the same node with probability
/// 1/n. With N keys the agreement rate's standard deviation is
/// sqrt(p (1 - p) / N) = 0.00095 for p = 0.1, N = 100,000; allow 6 of them.
#[test]
fn two_secrets_agree_on_about_one_key_in_n() {
    let keys: Vec<Vec<u8>> = (0..100_000).map(|i| format!("object-{i}").into_bytes()).collect();
    let s = secrets(2);
    let (a, b) = (keyed(s[0]).snapshot(), keyed(s[1]).snapshot());
    let mut agree_by_owner: HashMap<bool, u64> = HashMap::new();
    for key in &keys {
        let same = a.owner(key).unwrap().id() == b.owner(key).unwrap().id();
        *agree_by_owner.entry(same).or_default() += 1;
    }
    let n = keys.len() as f64;
    let rate = agree_by_owner.get(&true).copied().unwrap_or(0) as f64 / n;
    let p = 1.0 / NODES as f64;
    let bound = 6.0 * (p * (1.0 - p) / n).sqrt();
    println!("two secrets agree on {rate:.4} of keys (expected {p}, +-{bound:.4})");
    assert!((rate - p).abs() < bound, "agreement {rate} not within {bound} of {p}");
}

#[test]
fn batch_owners_agree_with_single_lookups_on_every_backend() {
    let keys: Vec<Vec<u8>> = (0..300).map(|i| format!("batch-{i}").into_bytes()).collect();
    let (bytes, offsets) = {
        let mut bytes = Vec::new();
        let mut offsets = vec![0u64];
        for k in &keys {
            bytes.extend_from_slice(k);
            offsets.push(bytes.len() as u64);
        }
        (bytes, offsets)
    };
    let packed = longstraw::PackedKeys::new(&bytes, &offsets).unwrap();
    for backend in Backend::available() {
        // n = 5 takes the keys-in-lanes batch kernel; n = 40 the per-key one.
        for n in [5, 40] {
            let options = Options {
                secret: Some(secrets(1)[0]),
                backend: Some(backend),
                ..Options::default()
            };
            let ids: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
            let snap = Rendezvous::flat(&ids, options).unwrap().snapshot();
            let mut out = vec![0u32; keys.len()];
            snap.owners_into(&packed, &mut out).unwrap();
            for (key, got) in keys.iter().zip(out) {
                assert_eq!(got, snap.owner_index(key).unwrap(), "{} n={n}", backend.name());
            }
            assert_eq!(snap.seed(), None);
        }
    }
}

/// Chi-square of `counts` against `expected` (one entry per node). With 9
/// degrees of freedom the bound is 9 + 6 sqrt(18) = 34.5, as above.
fn chi_square_against(counts: &[u64], expected: &[f64]) -> f64 {
    counts
        .iter()
        .zip(expected)
        .map(|(&c, &e)| (c as f64 - e).powi(2) / e)
        .sum()
}

/// In a keyed table the attack keys fall into partitions uniformly, so a
/// node's expected count is its share of partitions; in a keyed skeleton
/// each level's race is proportional to weight, so the spread is uniform.
#[test]
fn attack_keys_spread_in_keyed_tables_and_skeletons() {
    let families = [
        ("XXH3 collisions", attack::xxh3_colliding_family(ATTACK_KEYS)),
        ("brute force", {
            let v1 = Rendezvous::flat(node_ids(), Options::default()).unwrap().snapshot();
            attack::brute_force_onto(ATTACK_KEYS, |key| v1.owner_index(key).unwrap() == 0)
        }),
    ];
    for secret in secrets(2) {
        let set = Options {
            secret: Some(secret),
            ..Options::default()
        };
        let table = common::keyed(
            node_ids(),
            set.clone(),
            TableOptions {
                partition_bits: Some(10),
                ..TableOptions::default()
            },
        )
        .unwrap();
        let table = common::table_snapshot(&table);
        let mut share = [0u64; NODES];
        for p in 0..1u32 << 10 {
            share[table.row(p)[0] as usize] += 1;
        }
        let skeleton = common::keyed(
            node_ids(),
            set,
            SkeletonOptions {
                shape: Some(SkeletonShape::new(1, 2).unwrap()),
            },
        )
        .unwrap()
        .snapshot();
        for (name, keys) in &families {
            let total = keys.len() as f64;
            let mut in_table = vec![0u64; NODES];
            let mut in_skeleton = vec![0u64; NODES];
            for key in keys {
                in_table[table.owner_index(key).unwrap() as usize] += 1;
                in_skeleton[skeleton.owner_index(key).unwrap() as usize] += 1;
            }
            let expected: Vec<f64> = share.iter().map(|&s| total * s as f64 / 1024.0).collect();
            let uniform = vec![total / NODES as f64; NODES];
            let bound = 9.0 + 6.0 * 18f64.sqrt();
            let (t, k) = (
                chi_square_against(&in_table, &expected),
                chi_square_against(&in_skeleton, &uniform),
            );
            println!("{name}: keyed table chi-square {t:.2}, keyed skeleton {k:.2} (bound {bound:.1})");
            assert!(t < bound, "{name} table: {in_table:?} vs {expected:?}");
            assert!(k < bound, "{name} skeleton: {in_skeleton:?}");
        }
    }
}
