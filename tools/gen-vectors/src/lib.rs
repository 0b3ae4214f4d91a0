//! The generator of `tests/vectors/placement-v1.json`.
//!
//! Every input is derived from fixed constants and a fixed PRNG, so the output
//! is a pure function of this file and the scalar oracle.

use std::fmt::Write;

use longstraw::{key_hash, ln, node_hash, pair_score, weighted_score, NodeTable, Ranked};

/// SplitMix64: a fixed, documented PRNG for the generated inputs.
struct Prng(u64);

impl Prng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        longstraw::mix(self.0)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A weight as JSON: the readable value next to its exact bit pattern.
fn weight_json(w: f64) -> String {
    format!("\"weight\": {w:?}, \"weight_bits\": \"{:016x}\"", w.to_bits())
}

struct Case {
    name: String,
    seed: u64,
    nodes: Vec<(Vec<u8>, f64)>,
    keys: Vec<Vec<u8>>,
    /// How many ranked nodes to record per key (all of them when >= n).
    depth: usize,
}

const SEEDS: [u64; 4] = [0, 1, 0x8000_0000_0000_3039, u64::MAX];

fn names(prefix: &str, n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|i| format!("{prefix}{i}").into_bytes()).collect()
}

fn standard_keys(rng: &mut Prng, count: usize) -> Vec<Vec<u8>> {
    let mut keys: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"a".to_vec(),
        b"user:42".to_vec(),
        "ключ-κλειδί-鍵".as_bytes().to_vec(),
        vec![0u8, 255, 0, 1],
        vec![b'x'; 240],
        vec![b'y'; 241],
        rng.bytes(1000),
    ];
    let mut i = 0;
    while keys.len() < count {
        keys.push(match i % 3 {
            0 => format!("{}", rng.below(1_000_000)).into_bytes(),
            1 => {
                let len = rng.below(40) as usize;
                rng.bytes(len)
            }
            _ => format!("object/{:x}/part-{}", rng.next(), i).into_bytes(),
        });
        i += 1;
    }
    keys
}

fn cases() -> Vec<Case> {
    let mut rng = Prng(0x6C6F_6E67_7374_7261); // "longstra"
    let mut out = Vec::new();

    // Plain (all weights 1): sizes around every SIMD boundary, all seeds.
    for &n in &[
        1usize, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 300,
    ] {
        for (s, &seed) in SEEDS.iter().enumerate() {
            if n > 64 && s % 2 == 1 {
                continue;
            }
            let nodes = names("node-", n).into_iter().map(|id| (id, 1.0)).collect();
            let keys = standard_keys(&mut rng, if n > 64 { 12 } else { 16 });
            out.push(Case {
                name: format!("plain n={n} seed={seed}"),
                seed,
                nodes,
                keys,
                depth: 8,
            });
        }
    }

    // Node ids one bit apart, and binary ids.
    for &seed in &SEEDS[..2] {
        let base = b"node-A".to_vec();
        let mut nodes = vec![(base.clone(), 1.0)];
        for bit in 0..base.len() * 8 {
            let mut id = base.clone();
            id[bit / 8] ^= 1 << (bit % 8);
            nodes.push((id, 1.0));
        }
        let keys = standard_keys(&mut rng, 16);
        out.push(Case {
            name: format!("ids one bit apart seed={seed}"),
            seed,
            nodes,
            keys,
            depth: 49,
        });

        let nodes = (0..24)
            .map(|i| {
                let len = 1 + rng.below(300) as usize;
                let mut id = rng.bytes(len);
                id[0] = i as u8; // keeps ids distinct
                (id, 1.0)
            })
            .collect();
        let keys = standard_keys(&mut rng, 16);
        out.push(Case {
            name: format!("binary ids seed={seed}"),
            seed,
            nodes,
            keys,
            depth: 24,
        });
    }

    // A node id of the maximum length.
    let nodes = vec![(vec![b'L'; longstraw::MAX_NODE_ID_LEN], 1.0), (b"short".to_vec(), 1.0)];
    let keys = standard_keys(&mut rng, 16);
    out.push(Case {
        name: "max-length id".into(),
        seed: 7,
        nodes,
        keys,
        depth: 2,
    });

    // Weighted.
    let weight_sets: Vec<(&str, Vec<f64>)> = vec![
        ("1:2", vec![1.0, 2.0]),
        ("1:2:3", vec![1.0, 2.0, 3.0]),
        ("equal 2.5", vec![2.5; 6]),
        ("with drained", vec![1.0, 0.0, 2.0, 0.0, 3.0]),
        ("one eligible", vec![0.0, 0.0, 4.0, 0.0]),
        ("all drained", vec![0.0, 0.0, 0.0]),
        ("equal with drained", vec![1.0, 0.0, 1.0, 1.0, 0.0, 1.0]),
        ("1e-9..1e9", vec![1e-9, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e9]),
        ("extremes", vec![longstraw::MIN_WEIGHT, 1.0, longstraw::MAX_WEIGHT, 0.5]),
        (
            "near-equal",
            vec![
                1.0,
                f64::from_bits(1.0f64.to_bits() + 1),
                f64::from_bits(1.0f64.to_bits() - 1),
            ],
        ),
    ];
    for (label, weights) in weight_sets {
        for &seed in &SEEDS[..2] {
            let nodes = names("w-", weights.len())
                .into_iter()
                .zip(weights.iter().copied())
                .collect();
            let keys = standard_keys(&mut rng, 24);
            out.push(Case {
                name: format!("weighted {label} seed={seed}"),
                seed,
                nodes,
                keys,
                depth: 16,
            });
        }
    }
    // Many distinct weights, at several sizes.
    for &n in &[5usize, 17, 33, 64, 100, 200] {
        for &seed in &SEEDS[1..3] {
            let nodes = names("wn-", n)
                .into_iter()
                .map(|id| {
                    let w = match rng.below(6) {
                        0 => 0.0,
                        1 => 1.0,
                        2 => (1 + rng.below(10)) as f64,
                        3 => (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 100.0 + 1e-3,
                        4 => 10f64.powi(rng.below(19) as i32 - 9),
                        _ => 0.25 * (1 + rng.below(8)) as f64,
                    };
                    (id, w)
                })
                .collect();
            let keys = standard_keys(&mut rng, 12);
            out.push(Case {
                name: format!("weighted distinct n={n} seed={seed}"),
                seed,
                nodes,
                keys,
                depth: 8,
            });
        }
    }
    // Random configurations: sizes skewed small, any seed, half of them weighted.
    for c in 0..160 {
        let n = match rng.below(4) {
            0 => 1 + rng.below(8),
            1 => 1 + rng.below(40),
            2 => 1 + rng.below(130),
            _ => 1 + rng.below(300),
        } as usize;
        let seed = rng.next();
        let weighted = c % 2 == 1;
        let nodes = (0..n)
            .map(|i| {
                let id = if rng.below(4) == 0 {
                    let len = 1 + rng.below(20) as usize;
                    let mut id = rng.bytes(len);
                    id.extend_from_slice(format!("#{i}").as_bytes()); // keeps ids distinct
                    id
                } else {
                    format!("10.{}.{}.{}:{}", c, i / 256, i % 256, 11211).into_bytes()
                };
                let w = if !weighted {
                    1.0
                } else {
                    match rng.below(5) {
                        0 => 0.0,
                        1 => (1 + rng.below(4)) as f64,
                        _ => (1 + rng.below(1000)) as f64 / 64.0,
                    }
                };
                (id, w)
            })
            .collect();
        let keys = standard_keys(&mut rng, 9).split_off(1); // the empty key is covered above
        let kind = if weighted { "weighted" } else { "plain" };
        out.push(Case {
            name: format!("random {kind} #{c} n={n}"),
            seed,
            nodes,
            keys,
            depth: 5,
        });
    }
    out
}

fn ranked_json(table: &NodeTable<'_>, key: &[u8], depth: usize) -> (String, String) {
    let mut buf = vec![Ranked::EMPTY; depth.min(table.eligible())];
    let n = table.oracle_top_k(table.key_hash(key), &mut buf);
    let owner = table.oracle_owner(table.key_hash(key));
    assert_eq!(
        owner,
        buf.first().filter(|_| n > 0).map(|r| r.index),
        "top_k[0] must be the owner"
    );
    let owner = owner.map_or("null".to_owned(), |i| i.to_string());
    let ranked: Vec<String> = buf[..n].iter().map(|r| r.index.to_string()).collect();
    (owner, ranked.join(", "))
}

/// The whole vectors file, as text.
pub fn placement_v1() -> String {
    let mut s = String::new();
    s.push_str("{\n");
    s.push_str(
        "  \"_comment\": \"longstraw placement v1 golden vectors. FROZEN: never edit or regenerate to make a test pass; \
a new placement version gets a new file. Generated by tools/gen-vectors from the scalar oracle (docs/SPEC.md). \
Bytes are hex, u64 values are decimal strings, weights are f64 bit patterns (hex) next to a readable value. \
'owner' and 'ranked' are indices into the case's 'nodes' list; 'ranked' is the priority order, truncated to 'depth' \
(all eligible nodes when depth >= that count); owner is null when no node is eligible.\",\n",
    );
    s.push_str("  \"placement\": 1,\n");

    // Components, for debugging a reimplementation bottom-up.
    let mut rng = Prng(0x636F_6D70_6F6E_656E); // "componen"
    s.push_str("  \"key_hashes\": [\n");
    let mut rows = Vec::new();
    for i in 0..24 {
        let key = match i {
            0 => Vec::new(),
            1 => b"user:42".to_vec(),
            2 => vec![b'z'; 241],
            _ => {
                let len = rng.below(300) as usize;
                rng.bytes(len)
            }
        };
        let seed = SEEDS[i % 4];
        rows.push(format!(
            "    {{\"key_hex\": \"{}\", \"seed\": \"{seed}\", \"key_hash\": \"{}\"}}",
            hex(&key),
            key_hash(&key, seed)
        ));
    }
    s.push_str(&rows.join(",\n"));
    s.push_str("\n  ],\n  \"node_hashes\": [\n");
    rows.clear();
    for i in 0..16 {
        let id = if i == 0 {
            b"node-0".to_vec()
        } else {
            let len = 1 + rng.below(64) as usize;
            rng.bytes(len)
        };
        let seed = SEEDS[i % 4];
        rows.push(format!(
            "    {{\"id_hex\": \"{}\", \"seed\": \"{seed}\", \"node_hash\": \"{}\"}}",
            hex(&id),
            node_hash(&id, seed)
        ));
    }
    s.push_str(&rows.join(",\n"));
    s.push_str("\n  ],\n  \"pair_scores\": [\n");
    rows.clear();
    let mut pairs: Vec<(u64, u64)> = vec![
        (0, 0),
        (u64::MAX, 0),
        (1, 0),
        (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210),
    ];
    while pairs.len() < 24 {
        pairs.push((rng.next(), rng.next()));
    }
    for (kh, nh) in pairs {
        rows.push(format!(
            "    {{\"key_hash\": \"{kh}\", \"node_hash\": \"{nh}\", \"score\": \"{}\"}}",
            pair_score(kh, nh)
        ));
    }
    s.push_str(&rows.join(",\n"));
    s.push_str("\n  ],\n  \"ln\": [\n");
    rows.clear();
    let mut scores: Vec<u64> = vec![0, 2047, 2048, u64::MAX, u64::MAX - 2048, 1 << 63, (1 << 63) - 1];
    for e in 0..=53u32 {
        // Both sides of every range-reduction boundary: m = 2^e - 1, 2^e, 2^e + 1.
        for m in [(1u64 << e).saturating_sub(1).max(1), 1u64 << e, (1u64 << e) + 1] {
            if m <= 1 << 53 && e % 4 == 0 {
                scores.push((m - 1) << 11);
            }
        }
    }
    while scores.len() < 80 {
        scores.push(rng.next());
    }
    for score in scores {
        let v = ln::ln_unit(score);
        rows.push(format!(
            "    {{\"score\": \"{score}\", \"ln_u\": {v:?}, \"ln_u_bits\": \"{:016x}\", \"weighted_by_3\": \"{:016x}\"}}",
            v.to_bits(),
            weighted_score(score, 3.0).to_bits()
        ));
    }
    s.push_str(&rows.join(",\n"));
    s.push_str("\n  ],\n  \"cases\": [\n");

    let cases = cases();
    let mut case_texts = Vec::new();
    for case in &cases {
        let hashes: Vec<u64> = case.nodes.iter().map(|(id, _)| node_hash(id, case.seed)).collect();
        let weights: Vec<f64> = case.nodes.iter().map(|&(_, w)| w).collect();
        let table = NodeTable::new(case.seed, &hashes, Some(&weights)).expect("generated cases are valid");
        let mut c = String::new();
        let _ = writeln!(
            c,
            "    {{\"name\": \"{}\", \"seed\": \"{}\", \"depth\": {},",
            case.name, case.seed, case.depth
        );
        c.push_str("     \"nodes\": [\n");
        let nodes: Vec<String> = case
            .nodes
            .iter()
            .map(|(id, w)| format!("       {{\"id_hex\": \"{}\", {}}}", hex(id), weight_json(*w)))
            .collect();
        c.push_str(&nodes.join(",\n"));
        c.push_str("\n     ],\n     \"keys\": [\n");
        let keys: Vec<String> = case
            .keys
            .iter()
            .map(|key| {
                let (owner, ranked) = ranked_json(&table, key, case.depth);
                format!(
                    "       {{\"key_hex\": \"{}\", \"owner\": {owner}, \"ranked\": [{ranked}]}}",
                    hex(key)
                )
            })
            .collect();
        c.push_str(&keys.join(",\n"));
        c.push_str("\n     ]}");
        case_texts.push(c);
    }
    s.push_str(&case_texts.join(",\n"));
    s.push_str("\n  ]\n}\n");
    s
}

mod balanced;
mod edges;
mod scale;
pub mod tie_search;
pub use balanced::{check_table_balanced, table_balanced_v1};
pub use edges::{placement_v1_edges, print_tie_search};
pub use scale::{domains_v1, skeleton_v1, table_v1};

mod keyed;
pub use keyed::keyed_v1;
