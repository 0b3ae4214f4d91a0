//! The generator of keyed-v1.json (SPEC.md §15): placement v1's flat,
//! weighted, top-k, table, skeleton and domain rules over keyed hashes, from
//! the scalar code paths of the core.

use std::fmt::Write;

use longstraw::domains::top_k_distinct_of_hash;
use longstraw::partition::{self, partition_of};
use longstraw::skeleton::{build_groups, group_hash};
use longstraw::{Backend, Group, Hashing, NodeTable, PartitionTable, Ranked, Secret, Skeleton, SkeletonShape};

use super::scale::{list, weights_for};
use super::{hex, names, standard_keys, weight_json, Prng};

/// The public test secrets of the vectors: the SipHash reference key
/// 00..0f, all zeros, all ones and one PRNG draw.
fn secrets(rng: &mut Prng) -> Vec<[u8; 16]> {
    vec![
        core::array::from_fn(|i| i as u8),
        [0; 16],
        [0xFF; 16],
        core::array::from_fn(|_| rng.next() as u8),
    ]
}

fn hashing(secret: &[u8; 16]) -> Hashing {
    Hashing::keyed(Secret::from_bytes(secret).expect("16 bytes"))
}

/// Every case is one mode over one keyed node set.
enum Mode {
    Flat,
    Table { bits: u8 },
    Skeleton { shape: SkeletonShape },
}

struct Case {
    mode: Mode,
    secret: [u8; 16],
    ids: Vec<Vec<u8>>,
    weights: Vec<f64>,
    domains: Vec<Option<Vec<u8>>>,
    /// `ranked` depth, and `k` of `distinct`.
    depth: usize,
    k: usize,
    keys: Vec<Vec<u8>>,
}

impl Case {
    /// Labels as u32s: equal exactly within one domain; unlabelled nodes alone.
    fn domain_ids(&self) -> Vec<u32> {
        let mut seen: Vec<&[u8]> = Vec::new();
        let mut own = 1u32 << 31;
        self.domains
            .iter()
            .map(|d| match d {
                Some(d) => match seen.iter().position(|s| s == d) {
                    Some(i) => i as u32,
                    None => {
                        seen.push(d);
                        seen.len() as u32 - 1
                    }
                },
                None => {
                    own += 1;
                    own
                }
            })
            .collect()
    }

    fn nodes_json(&self) -> String {
        let rows: Vec<String> = (0..self.ids.len())
            .map(|i| {
                let domain = self.domains[i]
                    .as_ref()
                    .map_or("null".to_owned(), |d| format!("\"{}\"", hex(d)));
                format!(
                    "       {{\"id_hex\": \"{}\", {}, \"domain_hex\": {domain}}}",
                    hex(&self.ids[i]),
                    weight_json(self.weights[i])
                )
            })
            .collect();
        format!("     \"nodes\": [\n{}\n     ],\n", rows.join(",\n"))
    }

    /// The case as JSON, its answers from the scalar code paths.
    fn json(&self) -> String {
        let h = hashing(&self.secret);
        let hashes: Vec<u64> = self.ids.iter().map(|id| h.node_hash(id)).collect();
        let table = NodeTable::new(0, &hashes, Some(&self.weights))
            .expect("generated nodes are valid")
            .with_hashing(h)
            .with_backend(Backend::SCALAR);
        let domains = self.domain_ids();
        let depth = self.depth;
        let (params, name) = match self.mode {
            Mode::Flat => (String::new(), "flat"),
            Mode::Table { bits } => (format!(", \"bits\": {bits}"), "table"),
            Mode::Skeleton { shape } => (
                format!(
                    ", \"fanout_bits\": {}, \"levels\": {}",
                    shape.fanout_bits(),
                    shape.levels()
                ),
                "skeleton",
            ),
        };
        let weighted = if self.weights.iter().all(|&w| w == 1.0) {
            "plain"
        } else {
            "weighted"
        };
        let mut t = String::new();
        let _ = writeln!(
            t,
            "    {{\"name\": \"{name} {weighted} n={}\", \"mode\": \"{name}\", \"secret_hex\": \"{}\"{params}, \"depth\": {depth}, \"k\": {},",
            self.ids.len(),
            hex(&self.secret),
            self.k
        );
        t.push_str(&self.nodes_json());

        // Per-mode lookups: (partition, ranked, distinct) of a key.
        let mut rows_buf = Vec::new();
        let mut skel_parts = None;
        match self.mode {
            Mode::Table { bits } => {
                rows_buf = vec![0u32; (1usize << bits) * depth];
                partition::build(&table, None, bits, depth, &mut rows_buf).expect("valid shape");
            }
            Mode::Skeleton { shape } => {
                let mut order: Vec<u32> = (0..hashes.len() as u32).collect();
                order.sort_by_key(|&i| hashes[i as usize]);
                let sorted: Vec<u64> = order.iter().map(|&i| hashes[i as usize]).collect();
                let sorted_w: Vec<f64> = order.iter().map(|&i| self.weights[i as usize]).collect();
                let mut groups = vec![Group::EMPTY; shape.max_groups(sorted.len())];
                let used = build_groups(h.group_seed(), shape, &sorted, &sorted_w, &mut groups).expect("valid");
                groups.truncate(used);
                skel_parts = Some((sorted, sorted_w, order, groups));
            }
            Mode::Flat => {}
        }
        let keys: Vec<String> = self
            .keys
            .iter()
            .map(|key| {
                let kh = h.key_hash(key);
                let mut ranks = vec![Ranked::EMPTY; depth];
                let mut distinct = vec![Ranked::EMPTY; self.k];
                let (partition, ranked, owner, got_distinct) = match self.mode {
                    Mode::Flat => {
                        let n = table.oracle_top_k(kh, &mut ranks);
                        let owner = table.oracle_owner(kh);
                        let d = top_k_distinct_of_hash(&table, kh, &domains, &mut distinct).expect("sized");
                        (None, indices(&ranks[..n]), owner, d)
                    }
                    Mode::Table { bits } => {
                        let view = PartitionTable::new(table, None, bits, depth, &rows_buf).expect("sized");
                        let mut out = vec![0u32; depth];
                        let n = view.top_k(key, &mut out);
                        out.truncate(n);
                        let p = partition_of(kh, bits);
                        let pkh = h.partition_key_hash(p);
                        let d = top_k_distinct_of_hash(&table, pkh, &domains, &mut distinct).expect("sized");
                        (Some(p), out, view.owner(key).ok(), d)
                    }
                    Mode::Skeleton { shape } => {
                        let (sorted, sorted_w, order, groups) = skel_parts.as_ref().expect("built above");
                        let nodes = NodeTable::new(0, sorted, Some(sorted_w))
                            .expect("valid")
                            .with_hashing(h)
                            .with_backend(Backend::SCALAR);
                        let view = Skeleton::new(nodes, shape, order, groups).expect("built together");
                        let n = view.top_k(key, &mut ranks);
                        let d = view.top_k_distinct_of_hash(kh, &domains, &mut distinct).expect("sized");
                        (None, indices(&ranks[..n]), view.owner(key).ok(), d)
                    }
                };
                assert_eq!(owner, ranked.first().copied(), "top_k[0] must be the owner");
                assert_eq!(owner, distinct.first().filter(|_| got_distinct > 0).map(|r| r.index));
                let owner = owner.map_or("null".to_owned(), |o| o.to_string());
                let partition = partition.map_or(String::new(), |p| format!(", \"partition\": {p}"));
                format!(
                    "       {{\"key_hex\": \"{}\"{partition}, \"owner\": {owner}, \"ranked\": [{}], \"distinct\": [{}]}}",
                    hex(key),
                    list(&ranked),
                    list(&indices(&distinct[..got_distinct]))
                )
            })
            .collect();
        t.push_str("     \"keys\": [\n");
        t.push_str(&keys.join(",\n"));
        t.push_str("\n     ]}");
        t
    }
}

fn indices(ranks: &[Ranked]) -> Vec<u32> {
    ranks.iter().map(|r| r.index).collect()
}

fn labels(rng: &mut Prng, n: usize, racks: u64) -> Vec<Option<Vec<u8>>> {
    (0..n)
        .map(|_| match rng.below(5) {
            0 => None,
            _ => Some(format!("zone-{}", rng.below(racks)).into_bytes()),
        })
        .collect()
}

fn cases(rng: &mut Prng, secrets: &[[u8; 16]]) -> Vec<Case> {
    let mut out = Vec::new();
    // (mode, n, weight kind, labelled)
    let flat: [(usize, usize, bool); 10] = [
        (0, 0, false),
        (1, 0, false),
        (2, 0, true),
        (5, 1, false),
        (9, 0, true),
        (17, 1, true),
        (33, 0, false),
        (64, 1, false),
        (100, 0, true),
        (257, 1, false),
    ];
    for (c, &(n, kind, labelled)) in flat.iter().enumerate() {
        out.push(case(rng, Mode::Flat, secrets[c % secrets.len()], n, kind, labelled, 16));
    }
    let tables: [(usize, u8, usize, bool); 6] = [
        (1, 0, 0, false),
        (3, 2, 1, true),
        (8, 6, 0, false),
        (13, 4, 1, true),
        (40, 8, 0, true),
        (0, 3, 0, false),
    ];
    for (c, &(n, bits, kind, labelled)) in tables.iter().enumerate() {
        out.push(case(
            rng,
            Mode::Table { bits },
            secrets[(c + 1) % secrets.len()],
            n,
            kind,
            labelled,
            12,
        ));
    }
    let skeletons: [(usize, u8, u8, usize, bool); 6] = [
        (1, 1, 1, 0, false),
        (6, 1, 2, 1, true),
        (20, 2, 1, 0, false),
        (50, 3, 2, 1, true),
        (130, 2, 3, 0, true),
        (0, 2, 2, 0, false),
    ];
    for (c, &(n, bits, levels, kind, labelled)) in skeletons.iter().enumerate() {
        let shape = SkeletonShape::new(bits, levels).expect("valid shape");
        out.push(case(
            rng,
            Mode::Skeleton { shape },
            secrets[(c + 2) % secrets.len()],
            n,
            kind,
            labelled,
            12,
        ));
    }
    out
}

fn case(rng: &mut Prng, mode: Mode, secret: [u8; 16], n: usize, kind: usize, labelled: bool, keys: usize) -> Case {
    let weights = weights_for(rng, n, kind);
    let domains = if labelled {
        let racks = 1 + rng.below(4);
        labels(rng, n, racks)
    } else {
        vec![None; n]
    };
    let k = 1 + rng.below(4) as usize;
    Case {
        mode,
        secret,
        ids: names("k-", n),
        weights,
        domains,
        depth: 6,
        k,
        keys: standard_keys(rng, keys),
    }
}

/// tests/vectors/keyed-v1.json.
pub fn keyed_v1() -> String {
    let mut rng = Prng(0x6B65_7965_6476_3121); // "keyedv1!"
    let secrets = secrets(&mut rng);
    let mut s = String::from("{\n");
    let _ = writeln!(
        s,
        "  \"_comment\": \"longstraw keyed placement (keyed-v1) golden vectors, SPEC.md section 15. FROZEN: never edit or \
regenerate to make a test pass. Generated by tools/gen-vectors from the scalar code paths. The secrets here are public \
test values; never use them in production. Bytes are hex, u64 values are decimal strings, weights are f64 bit patterns \
(hex) next to a readable value. 'derived' gives each secret's node key (16 bytes) and group seed; 'key_hashes', \
'node_hashes', 'partition_key_hashes' and 'group_hashes' check each hash. Each case names its 'mode' (flat; table with \
'bits'; skeleton with 'fanout_bits' and 'levels'), its 'secret_hex', 'depth' and 'k'; nodes carry 'domain_hex' (null: a \
domain of its own). For every key: 'owner', 'ranked' (the mode's ranking truncated to depth; all eligible nodes when \
depth >= that count), 'distinct' (the first k nodes of that ranking that are each the first of their domain, SPEC.md \
section 12) and, for tables, 'partition'. Node references are indices into the case's 'nodes'; owner is null when no \
node is eligible.\","
    );
    s.push_str("  \"placement\": \"keyed-v1\",\n  \"secret_len\": 16,\n  \"derived\": [\n");
    let rows: Vec<String> = secrets
        .iter()
        .map(|secret| {
            let h = hashing(secret);
            let node_key = node_key_bytes(secret);
            format!(
                "    {{\"secret_hex\": \"{}\", \"node_key_hex\": \"{}\", \"group_seed\": \"{}\"}}",
                hex(secret),
                hex(&node_key),
                h.group_seed()
            )
        })
        .collect();
    s.push_str(&rows.join(",\n"));

    s.push_str("\n  ],\n  \"key_hashes\": [\n");
    let mut rows = Vec::new();
    for i in 0..20usize {
        let key = match i {
            0 => Vec::new(),
            1 => b"user:42".to_vec(),
            2 => (0u8..15).collect(),
            3 => vec![b'z'; 4096],
            _ => {
                let len = rng.below(300) as usize;
                rng.bytes(len)
            }
        };
        let secret = &secrets[i % secrets.len()];
        rows.push(format!(
            "    {{\"secret_hex\": \"{}\", \"key_hex\": \"{}\", \"key_hash\": \"{}\"}}",
            hex(secret),
            hex(&key),
            hashing(secret).key_hash(&key)
        ));
    }
    s.push_str(&rows.join(",\n"));

    s.push_str("\n  ],\n  \"node_hashes\": [\n");
    rows.clear();
    for i in 0..12usize {
        let id = if i < 2 {
            b"node-0".to_vec()
        } else {
            let len = 1 + rng.below(64) as usize;
            rng.bytes(len)
        };
        let secret = &secrets[i % secrets.len()];
        rows.push(format!(
            "    {{\"secret_hex\": \"{}\", \"id_hex\": \"{}\", \"node_hash\": \"{}\"}}",
            hex(secret),
            hex(&id),
            hashing(secret).node_hash(&id)
        ));
    }
    s.push_str(&rows.join(",\n"));

    s.push_str("\n  ],\n  \"partition_key_hashes\": [\n");
    rows.clear();
    for (i, p) in [0u32, 1, 255, 256, 65_535, (1 << 24) - 1, 12_345, 7]
        .into_iter()
        .enumerate()
    {
        let secret = &secrets[i % secrets.len()];
        rows.push(format!(
            "    {{\"secret_hex\": \"{}\", \"partition\": {p}, \"key_hash\": \"{}\"}}",
            hex(secret),
            hashing(secret).partition_key_hash(p)
        ));
    }
    s.push_str(&rows.join(",\n"));

    s.push_str("\n  ],\n  \"group_hashes\": [\n");
    rows.clear();
    for i in 0..8usize {
        let level = 1 + (i % 5) as u8;
        let prefix = if i < 2 { [0, 0xFFFF_FFFF][i] } else { rng.next() >> 40 };
        let secret = &secrets[i % secrets.len()];
        rows.push(format!(
            "    {{\"secret_hex\": \"{}\", \"level\": {level}, \"prefix\": \"{prefix}\", \"group_hash\": \"{}\"}}",
            hex(secret),
            group_hash(hashing(secret).group_seed(), level, prefix)
        ));
    }
    s.push_str(&rows.join(",\n"));

    s.push_str("\n  ],\n  \"cases\": [\n");
    let texts: Vec<String> = cases(&mut rng, &secrets).iter().map(Case::json).collect();
    s.push_str(&texts.join(",\n"));
    s.push_str("\n  ]\n}\n");
    s
}

/// The node key of SPEC.md §15.2, as the 16 bytes a SipHash library takes.
fn node_key_bytes(secret: &[u8; 16]) -> [u8; 16] {
    let parent = Secret::from_bytes(secret).expect("16 bytes");
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&parent.siphash24(b"longstraw/keyed-v1/node-key/0").to_le_bytes());
    out[8..].copy_from_slice(&parent.siphash24(b"longstraw/keyed-v1/node-key/1").to_le_bytes());
    out
}
