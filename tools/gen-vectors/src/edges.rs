//! The generator of `tests/vectors/placement-v1-edges.json` (SPEC.md §14):
//! cases for the rules of placement v1 that placement-v1.json leaves loose.
//!
//! - exact weighted-score ties between equal-weight nodes (flat and skeleton),
//!   found by `tie_search` and recorded here as constants;
//! - skeleton group weights whose sum depends on the summation order;
//! - `neg_ln_q64` at every range-reduction boundary, on dense runs, and at
//!   inputs where a rounded `C[j]` or a dropped series term changes the result;
//! - seeds 2^63 and 2^64 - 1, node ids of 1 and 65,535 bytes, and keys of every
//!   XXH3 length class up to 1 MiB.
//!
//! Long byte strings are written as a rule, `{"len": N, "start": S}`: byte `i`
//! is `(S + i) mod 251` ([`generated_bytes`]).

use std::fmt::Write;

use longstraw::ln::{neg_ln_q64, SERIES, SERIES_TERMS};
use longstraw::skeleton::build_groups;
use longstraw::{key_hash, ln, node_hash, Backend, Group, NodeTable, Ranked, Skeleton, SkeletonShape, MAX_NODE_ID_LEN};

use crate::tie_search::{find_tie, tie_id, tie_score};
use crate::{hex, standard_keys, weight_json, Prng};

/// The byte string `{"len": len, "start": start}` stands for.
pub fn generated_bytes(len: usize, start: usize) -> Vec<u8> {
    (0..len).map(|i| ((start + i) % 251) as u8).collect()
}

/// A byte string as it is written: short ones as hex, long ones as a rule.
#[derive(Clone)]
enum Bytes {
    Hex(Vec<u8>),
    Rule { len: usize, start: usize },
}

/// Above this length a byte string is written as a rule.
const HEX_LIMIT: usize = 64;

impl Bytes {
    fn rule(len: usize, start: usize) -> Bytes {
        if len <= HEX_LIMIT {
            Bytes::Hex(generated_bytes(len, start))
        } else {
            Bytes::Rule { len, start }
        }
    }
    fn bytes(&self) -> Vec<u8> {
        match self {
            Bytes::Hex(b) => b.clone(),
            Bytes::Rule { len, start } => generated_bytes(*len, *start),
        }
    }
    /// `"<what>_hex": "..."` or `"<what>_gen": {"len": N, "start": S}`.
    fn json(&self, what: &str) -> String {
        match self {
            Bytes::Hex(b) => format!("\"{what}_hex\": \"{}\"", hex(b)),
            Bytes::Rule { len, start } => format!("\"{what}_gen\": {{\"len\": {len}, \"start\": {start}}}"),
        }
    }
}

const SEED_TOP_BIT: u64 = 1 << 63;
const EDGE_SEEDS: [u64; 3] = [0, SEED_TOP_BIT, u64::MAX];

/// Lengths around every XXH3-64 code path: 0, 1-3, 4-8, 9-16, 17-128 (steps
/// at 32, 64, 96), 129-240 (16-byte rounds), and above 240 the 64-byte stripes,
/// 1024-byte blocks and the last partial stripe, up to 1 MiB.
const KEY_LENGTHS: [usize; 46] = [
    0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 143, 144, 145, 239, 240,
    241, 255, 256, 257, 319, 320, 321, 1023, 1024, 1025, 1088, 2048, 4096, 65535, 65536, 1_048_575, 1_048_576,
];

// ---- ties ----------------------------------------------------------------

/// One tie: a key, a seed, the skeleton shape whose leaf group must hold both
/// nodes (none for flat), and the two `tie_search` points whose scores for
/// the key share their top 53 bits.
pub(crate) struct Tie {
    pub key: &'static [u8],
    pub seed: u64,
    pub shape: Option<(u8, u8)>,
    pub a: u64,
    pub b: u64,
}

/// Found by `gen-vectors --search-ties`; re-checked by [`checked_tie`].
pub(crate) const TIES: [Tie; 4] = [
    Tie {
        key: b"tie-key-flat",
        seed: 0,
        shape: None,
        a: TIE_A0,
        b: TIE_B0,
    },
    Tie {
        key: b"tie-key-flat",
        seed: u64::MAX,
        shape: None,
        a: TIE_A1,
        b: TIE_B1,
    },
    Tie {
        key: b"tie-key-skeleton",
        seed: 0,
        shape: Some((1, 2)),
        a: TIE_A2,
        b: TIE_B2,
    },
    Tie {
        key: b"tie-key-skeleton",
        seed: SEED_TOP_BIT,
        shape: Some((2, 1)),
        a: TIE_A3,
        b: TIE_B3,
    },
];
const TIE_A0: u64 = 0xa5465c773f48e;
const TIE_B0: u64 = 0x2353ef62e0f48;
const TIE_A1: u64 = 0xbde6001afcab4;
const TIE_B1: u64 = 0x20e23a9e3bcf0;
const TIE_A2: u64 = 0xc53c55cb31474;
const TIE_B2: u64 = 0x1aae0f1f480970;
const TIE_A3: u64 = 0x152300c3eb0a74;
const TIE_B3: u64 = 0x8aca63c60efd2;

fn same_leaf(seed: u64, shape: Option<(u8, u8)>, a: u64, b: u64) -> bool {
    let Some((f, l)) = shape else { return true };
    let shape = SkeletonShape::new(f, l).expect("valid shape");
    shape.prefix(node_hash(&tie_id(a), seed), l) == shape.prefix(node_hash(&tie_id(b), seed), l)
}

fn is_tie(t: &Tie) -> bool {
    let kh = key_hash(t.key, t.seed);
    let (sa, sb) = (tie_score(kh, t.seed, t.a), tie_score(kh, t.seed, t.b));
    t.a != t.b && sa != sb && sa >> 11 == sb >> 11 && same_leaf(t.seed, t.shape, t.a, t.b)
}

/// Runs the tie searches and prints the constants of `TIES` (edges.rs).
pub fn print_tie_search() {
    for (i, t) in TIES.iter().enumerate() {
        for start in 1u64.. {
            let Some((a, b)) = find_tie(t.key, t.seed, start) else {
                continue;
            };
            if same_leaf(t.seed, t.shape, a, b) {
                println!("const TIE_A{i}: u64 = {a:#x};\nconst TIE_B{i}: u64 = {b:#x};");
                break;
            }
        }
    }
}

// ---- neg_ln_q64 -------------------------------------------------------------

/// `neg_ln_q64` as SPEC.md §5.2 writes it but with other series constants or
/// fewer terms: a deliberately wrong variant, used only to pick the inputs
/// where such a mistake shows.
fn neg_ln_q64_variant(m: u64, c: &[u128]) -> u128 {
    let e = 63 - m.leading_zeros();
    let x = (m as u128) << (63 - e);
    let s = ((x - (1 << 63)) << 64) / (x + (1 << 63));
    let t = (s * s) >> 64;
    let mut acc = c[c.len() - 1];
    for &cj in c[..c.len() - 1].iter().rev() {
        acc = ((acc * t) >> 64) + cj;
    }
    (53 - e) as u128 * ln::LN2_Q64 - ((s * acc) >> 63)
}

/// `C[j]` rounded to nearest instead of floored.
fn rounded_series() -> [u128; SERIES_TERMS + 1] {
    let mut c = [0u128; SERIES_TERMS + 1];
    for (j, cj) in c.iter_mut().enumerate() {
        let d = 2 * j as u128 + 1;
        *cj = ((1u128 << 64) + d / 2) / d;
    }
    c
}

/// The first `count` inputs `m`, scanning down from `from`, where `variant`
/// disagrees with §5.2.
fn biting_inputs(from: u64, count: usize, variant: impl Fn(u64) -> u128) -> Vec<u64> {
    (1..=from)
        .rev()
        .filter(|&m| variant(m) != neg_ln_q64(m))
        .take(count)
        .collect()
}

fn ln_inputs() -> Vec<u64> {
    let top = 1u64 << 53;
    let mut ms: Vec<u64> = Vec::new();
    for e in 0..=53u32 {
        let p = 1u64 << e;
        ms.extend([p - 1, p, p + 1].into_iter().filter(|&m| (1..=top).contains(&m)));
    }
    ms.extend(1..=512);
    ms.extend(top - 1023..=top);
    let rounded = rounded_series();
    for from in [top - 1024, (1 << 40) - 1, (1 << 20) - 1] {
        ms.extend(biting_inputs(from, 4, |m| neg_ln_q64_variant(m, &rounded)));
        ms.extend(biting_inputs(from, 4, |m| {
            neg_ln_q64_variant(m, &SERIES[..SERIES_TERMS])
        }));
    }
    let mut rng = Prng(0x6E65_675F_6C6E_3634); // "neg_ln64"
    for _ in 0..256 {
        let e = rng.below(53);
        ms.push((1u64 << e) + rng.below(1u64 << e));
    }
    ms.sort_unstable();
    ms.dedup();
    ms
}

// ---- group sums -------------------------------------------------------------

/// Weights whose sequential sum in ascending-hash order differs from the sum
/// in any other order, pairwise or compensated: an ulp-sized weight after a
/// large one is lost, before it, it counts.
const SUM_PALETTE: [f64; 6] = [
    1.0,
    1.0 / 9_007_199_254_740_992.0,
    3.0 / 18_014_398_509_481_984.0,
    0.1,
    0.7,
    1e-16,
];

fn seq_sum(ws: impl Iterator<Item = f64>) -> f64 {
    ws.fold(0.0, |acc, w| acc + w)
}

fn pairwise_sum(ws: &[f64]) -> f64 {
    match ws.len() {
        0 => 0.0,
        1 => ws[0],
        n => pairwise_sum(&ws[..n / 2]) + pairwise_sum(&ws[n / 2..]),
    }
}

fn kahan_sum(ws: &[f64]) -> f64 {
    let (mut sum, mut c) = (0.0f64, 0.0f64);
    for &w in ws {
        let y = w - c;
        let t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    sum
}

fn neumaier_sum(ws: &[f64]) -> f64 {
    let (mut sum, mut c) = (0.0f64, 0.0f64);
    for &w in ws {
        let t = sum + w;
        c += if sum.abs() >= w.abs() {
            (sum - t) + w
        } else {
            (w - t) + sum
        };
        sum = t;
    }
    sum + c
}

/// Whether every other order gives a different sum than §11.1's (weights in
/// ascending node-hash order; `by_index` is the same weights in node-list order).
fn order_sensitive(sorted: &[f64], by_index: &[f64]) -> bool {
    let spec = seq_sum(sorted.iter().copied());
    other_sums(sorted, by_index)
        .iter()
        .all(|&other| other.to_bits() != spec.to_bits())
}

// ---- cases ------------------------------------------------------------------

struct Case {
    name: String,
    rule: &'static str,
    seed: u64,
    shape: Option<SkeletonShape>,
    ids: Vec<Bytes>,
    weights: Vec<f64>,
    keys: Vec<Bytes>,
}

impl Case {
    fn flat(name: String, rule: &'static str, seed: u64, ids: Vec<Bytes>, weights: Vec<f64>) -> Case {
        Case {
            name,
            rule,
            seed,
            shape: None,
            ids,
            weights,
            keys: Vec::new(),
        }
    }
}

fn hex_ids(prefix: &str, n: usize) -> Vec<Bytes> {
    (0..n)
        .map(|i| Bytes::Hex(format!("{prefix}{i}").into_bytes()))
        .collect()
}

fn some_keys(rng: &mut Prng, n: usize) -> Vec<Bytes> {
    standard_keys(rng, n).into_iter().map(Bytes::Hex).collect()
}

fn tie_cases(rng: &mut Prng) -> Vec<Case> {
    let mut out = Vec::new();
    for t in &TIES {
        assert!(
            is_tie(t),
            "TIES entry for {:?} seed {} is not a tie: rerun --search-ties",
            t.key,
            t.seed
        );
        let mut ids = vec![Bytes::Hex(tie_id(t.a).to_vec()), Bytes::Hex(tie_id(t.b).to_vec())];
        ids.extend(hex_ids("tie-other-", 4));
        let mode = if t.shape.is_some() { "skeleton" } else { "flat" };
        // All weights equal (the fast path), and the tied pair at 2.5 among other weights.
        for (label, weights) in [
            ("equal weights", vec![1.0; 6]),
            ("tied pair at 2.5", vec![2.5, 2.5, 1.0, 4.0, 2.5, 0.5]),
        ] {
            let mut keys = vec![Bytes::Hex(t.key.to_vec())];
            keys.extend(some_keys(rng, 4));
            out.push(Case {
                name: format!("tie {mode} seed={} {label}", t.seed),
                rule: "tie",
                seed: t.seed,
                shape: t.shape.map(|(f, l)| SkeletonShape::new(f, l).expect("valid shape")),
                ids: ids.clone(),
                weights,
                keys,
            });
        }
    }
    out
}

fn group_sum_cases(rng: &mut Prng) -> Vec<Case> {
    let mut out = Vec::new();
    for (c, (f, l, n, seed)) in [
        (1u8, 1u8, 12usize, 0u64),
        (1, 2, 16, u64::MAX),
        (2, 1, 24, SEED_TOP_BIT),
    ]
    .into_iter()
    .enumerate()
    {
        let shape = SkeletonShape::new(f, l).expect("valid shape");
        let ids = hex_ids(&format!("sum{c}-"), n);
        let hashes: Vec<u64> = ids.iter().map(|id| node_hash(&id.bytes(), seed)).collect();
        // Draw weights until every level-1 group's sum depends on the order
        // (level-1 groups are the ones that see every node below them).
        let weights = loop {
            let weights: Vec<f64> = (0..n).map(|_| SUM_PALETTE[rng.below(6) as usize]).collect();
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| hashes[i]);
            let mut all = true;
            for prefix in 0..1u64 << f {
                let members: Vec<usize> = order
                    .iter()
                    .copied()
                    .filter(|&i| shape.prefix(hashes[i], 1) == prefix)
                    .collect();
                let sorted: Vec<f64> = members.iter().map(|&i| weights[i]).collect();
                let mut by_index = members.clone();
                by_index.sort_unstable();
                let by_index: Vec<f64> = by_index.iter().map(|&i| weights[i]).collect();
                all &= members.len() >= 3 && order_sensitive(&sorted, &by_index);
            }
            if all {
                break weights;
            }
        };
        let mut keys = some_keys(rng, 8);
        keys.truncate(8);
        out.push(Case {
            name: format!("group sums fanout_bits={f} levels={l} n={n}"),
            rule: "group-sum",
            seed,
            shape: Some(shape),
            ids,
            weights,
            keys,
        });
    }
    out
}

/// Exact ties between nodes of different weights whose raw scores lie on
/// both sides of 2^63: equal-weight ties share their top 53 bits and so their
/// sign bit, which leaves a signed rule-2 comparison unseen; these do not.
/// Node 0 (weight 1) has the larger raw score for the case's first key, and
/// node 1's weight is chosen so that its weighted score equals node 0's.
fn unequal_tie_cases(rng: &mut Prng) -> Vec<Case> {
    let mut out = Vec::new();
    for seed in [0, u64::MAX] {
        let (a, b) = (b"tie-unequal-a".to_vec(), b"tie-unequal-b".to_vec());
        let (ha, hb) = (node_hash(&a, seed), node_hash(&b, seed));
        let (key, w_b) = (0u32..)
            .find_map(|i| {
                let key = format!("tie-unequal-key-{i}").into_bytes();
                let kh = key_hash(&key, seed);
                let (sa, sb) = (longstraw::pair_score(kh, ha), longstraw::pair_score(kh, hb));
                if sa < SEED_TOP_BIT || sb >= SEED_TOP_BIT {
                    return None;
                }
                let q = longstraw::weighted_score(sa, 1.0);
                exact_weight_for(sb, q).map(|w| (key, w))
            })
            .expect("a key with an exact tie");
        let mut ids = vec![Bytes::Hex(a), Bytes::Hex(b)];
        ids.extend(hex_ids("tie-unequal-other-", 3));
        let mut keys = vec![Bytes::Hex(key)];
        keys.extend(some_keys(rng, 4));
        out.push(Case {
            name: format!("tie flat seed={seed} unequal weights, scores on both sides of 2^63"),
            rule: "tie",
            seed,
            shape: None,
            ids,
            weights: vec![1.0, w_b, 0.5, 1.0, 2.0],
            keys,
        });
    }
    out
}

/// A valid weight `w` with `weighted_score(score, w) == q` exactly, if one
/// lies within a few ulps of `ln_u(score) / q`.
fn exact_weight_for(score: u64, q: f64) -> Option<f64> {
    if q == 0.0 {
        return None;
    }
    let guess = ln::ln_unit(score) / q;
    (-8i64..=8)
        .map(|d| f64::from_bits((guess.to_bits() as i64 + d) as u64))
        .find(|&w| w > 0.0 && longstraw::validate_weight(w).is_ok() && longstraw::weighted_score(score, w) == q)
}

/// Every other summation of a group's weights (see [`order_sensitive`]).
fn other_sums(sorted: &[f64], by_index: &[f64]) -> [f64; 5] {
    [
        seq_sum(sorted.iter().rev().copied()),
        seq_sum(by_index.iter().copied()),
        pairwise_sum(sorted),
        kahan_sum(sorted),
        neumaier_sum(sorted),
    ]
}

/// The first id `<prefix><i>` whose node hash has top `bits` bits equal to `top`.
fn id_in_group(prefix: &str, seed: u64, bits: u32, top: u64) -> Vec<u8> {
    (0u32..)
        .map(|i| format!("{prefix}{i}").into_bytes())
        .find(|id| node_hash(id, seed) >> (64 - bits) == top)
        .expect("some id lands in every group")
}

/// A skeleton (fanout_bits 2, levels 1) where the summation order decides
/// rankings, not just the group weights: group 0 holds order-sensitive
/// weights with §11.1 sum `W`; groups 1 and 2 hold one node each, whose
/// weight is chosen so that for one key the group's weighted score equals
/// group 0's exactly. §11.3 (rule 2 of §6) then decides by raw group score;
/// any other sum `W' != W` decides by rule 1 instead. Group 1 has the larger
/// raw score for its key (a `W' > W` flips that pair), group 2 the smaller
/// one (a `W' < W` flips that pair).
fn group_sum_flip_case(rng: &mut Prng) -> Case {
    let seed = 0x005E_ED0F_F11B;
    let n = 10;
    let mut ids: Vec<Vec<u8>> = Vec::new();
    for i in 0u32.. {
        let id = format!("flip-{i}").into_bytes();
        if node_hash(&id, seed) >> 62 == 0 {
            ids.push(id);
            if ids.len() == n {
                break;
            }
        }
    }
    let hashes: Vec<u64> = ids.iter().map(|id| node_hash(id, seed)).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| hashes[i]);
    let (weights, spec_sum, others) = loop {
        let weights: Vec<f64> = (0..n).map(|_| SUM_PALETTE[rng.below(6) as usize]).collect();
        let sorted: Vec<f64> = order.iter().map(|&i| weights[i]).collect();
        if order_sensitive(&sorted, &weights) {
            break (
                weights.clone(),
                seq_sum(sorted.iter().copied()),
                other_sums(&sorted, &weights),
            );
        }
    };
    let group0_hash = longstraw::skeleton::group_hash(seed, 1, 0);
    let mut out_ids: Vec<Bytes> = ids.into_iter().map(Bytes::Hex).collect();
    let mut out_weights = weights;
    let mut keys = Vec::new();
    for (group, b_wins_tie) in [(1u64, true), (2u64, false)] {
        let b_id = id_in_group(&format!("flip-g{group}-"), seed, 2, group);
        // Group `group` holds only this node, so its weight is the node's.
        let b_group_hash = longstraw::skeleton::group_hash(seed, 1, group);
        let (key, w_b) = (0u32..)
            .find_map(|i| {
                let key = format!("flip-key-{group}-{i}").into_bytes();
                let kh = key_hash(&key, seed);
                let (s_a, s_b) = (
                    longstraw::pair_score(kh, group0_hash),
                    longstraw::pair_score(kh, b_group_hash),
                );
                let q = longstraw::weighted_score(s_a, spec_sum);
                // Every other sum must move group 0's weighted score.
                let moves = others.iter().all(|&w| longstraw::weighted_score(s_a, w) != q);
                if (s_b > s_a) != b_wins_tie || !moves {
                    return None;
                }
                exact_weight_for(s_b, q).map(|w| (key, w))
            })
            .expect("a key with an exact tie");
        out_ids.push(Bytes::Hex(b_id));
        out_weights.push(w_b);
        keys.push(Bytes::Hex(key));
    }
    keys.extend(some_keys(rng, 4));
    Case {
        name: "group sums decide a ranking fanout_bits=2 levels=1".into(),
        rule: "group-sum",
        seed,
        shape: Some(SkeletonShape::new(2, 1).expect("valid shape")),
        ids: out_ids,
        weights: out_weights,
        keys,
    }
}

fn seed_cases(rng: &mut Prng) -> Vec<Case> {
    let mut out = Vec::new();
    for seed in [SEED_TOP_BIT, u64::MAX] {
        for (label, weights) in [
            ("plain", vec![1.0; 9]),
            ("weighted", vec![1.0, 2.0, 0.0, 0.5, 3.0, 1e-9, 1e9, 2.5, 1.0]),
        ] {
            let mut c = Case::flat(format!("seed={seed} {label}"), "seed", seed, hex_ids("s-", 9), weights);
            c.keys = some_keys(rng, 10);
            out.push(c);
        }
        let mut c = Case::flat(
            format!("seed={seed} skeleton"),
            "seed",
            seed,
            hex_ids("sk-", 20),
            vec![1.0; 20],
        );
        c.shape = Some(SkeletonShape::new(2, 2).expect("valid shape"));
        c.keys = some_keys(rng, 10);
        out.push(c);
    }
    out
}

fn id_length_cases(rng: &mut Prng) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, seed) in EDGE_SEEDS.into_iter().enumerate() {
        let ids = vec![
            Bytes::Hex(vec![0x00]),
            Bytes::Hex(vec![0xFF]),
            Bytes::Hex(b"a".to_vec()),
            Bytes::rule(MAX_NODE_ID_LEN, 0),
            Bytes::rule(MAX_NODE_ID_LEN, 1),
            Bytes::rule(MAX_NODE_ID_LEN - 1, 0),
            Bytes::rule(2, 7),
        ];
        let weights = if i == 1 {
            vec![1.0, 2.0, 0.5, 1.0, 3.0, 1.5, 1.0]
        } else {
            vec![1.0; 7]
        };
        let mut c = Case::flat(
            format!("id lengths 1 and 65535 seed={seed}"),
            "id-length",
            seed,
            ids,
            weights,
        );
        c.keys = some_keys(rng, 8);
        out.push(c);
    }
    out
}

fn key_length_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for seed in [0, u64::MAX] {
        let mut c = Case::flat(
            format!("key lengths 0 to 1 MiB seed={seed}"),
            "key-length",
            seed,
            hex_ids("k-", 5),
            vec![1.0, 2.0, 1.0, 0.5, 3.0],
        );
        c.keys = KEY_LENGTHS.iter().map(|&len| Bytes::rule(len, len % 251)).collect();
        out.push(c);
    }
    out
}

// ---- writing ----------------------------------------------------------------

fn list(xs: &[u32]) -> String {
    xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

/// The case's groups (level, prefix, weight bits) as §11.1 defines them, from
/// the core's `build_groups`, and the keys' rankings from the skeleton.
fn skeleton_json(case: &Case, shape: SkeletonShape, hashes: &[u64], depth: usize) -> (String, Vec<String>) {
    let mut order: Vec<u32> = (0..hashes.len() as u32).collect();
    order.sort_by_key(|&i| hashes[i as usize]);
    let sorted: Vec<u64> = order.iter().map(|&i| hashes[i as usize]).collect();
    let weights: Vec<f64> = order.iter().map(|&i| case.weights[i as usize]).collect();
    let mut groups = vec![Group::EMPTY; shape.max_groups(sorted.len())];
    let used = build_groups(case.seed, shape, &sorted, &weights, &mut groups).expect("valid nodes");
    groups.truncate(used);
    let mut listed = Vec::new();
    for level in 1..=shape.levels() {
        let mut prefixes: Vec<u64> = sorted.iter().map(|&h| shape.prefix(h, level)).collect();
        prefixes.dedup();
        listed.extend(prefixes.into_iter().map(|p| (level, p)));
    }
    assert_eq!(listed.len(), groups.len(), "one group per (level, prefix)");
    let groups_json: Vec<String> = listed
        .iter()
        .zip(&groups)
        .map(|(&(level, prefix), g)| {
            format!(
                "{{\"level\": {level}, \"prefix\": \"{prefix}\", \"weight_bits\": \"{:016x}\"}}",
                g.weight.to_bits()
            )
        })
        .collect();
    let table = NodeTable::new(case.seed, &sorted, Some(&weights))
        .expect("valid nodes")
        .with_backend(Backend::SCALAR);
    let view = Skeleton::new(table, shape, &order, &groups).expect("built together");
    let keys = case
        .keys
        .iter()
        .map(|key| {
            let bytes = key.bytes();
            let mut out = vec![Ranked::EMPTY; depth];
            let got = view.top_k(&bytes, &mut out);
            let ranked: Vec<u32> = out[..got].iter().map(|r| r.index).collect();
            let owner = view.owner(&bytes).map_or("null".to_owned(), |o| o.to_string());
            format!(
                "       {{{}, \"owner\": {owner}, \"ranked\": [{}]}}",
                key.json("key"),
                list(&ranked)
            )
        })
        .collect();
    (format!("     \"groups\": [{}],\n", groups_json.join(", ")), keys)
}

fn case_json(case: &Case) -> String {
    let byte_ids: Vec<Vec<u8>> = case.ids.iter().map(Bytes::bytes).collect();
    let hashes: Vec<u64> = byte_ids.iter().map(|id| node_hash(id, case.seed)).collect();
    let depth = case.ids.len();
    let mut t = String::new();
    let mode = match case.shape {
        None => "\"mode\": \"flat\"".to_owned(),
        Some(s) => format!(
            "\"mode\": \"skeleton\", \"fanout_bits\": {}, \"levels\": {}",
            s.fanout_bits(),
            s.levels()
        ),
    };
    let _ = writeln!(
        t,
        "    {{\"name\": \"{}\", \"rule\": \"{}\", {mode}, \"seed\": \"{}\", \"depth\": {depth},",
        case.name, case.rule, case.seed
    );
    let nodes: Vec<String> = case
        .ids
        .iter()
        .zip(&case.weights)
        .map(|(id, &w)| format!("       {{{}, {}}}", id.json("id"), weight_json(w)))
        .collect();
    let _ = writeln!(t, "     \"nodes\": [\n{}\n     ],", nodes.join(",\n"));
    let keys: Vec<String> = match case.shape {
        Some(shape) => {
            let (groups, keys) = skeleton_json(case, shape, &hashes, depth);
            t.push_str(&groups);
            keys
        }
        None => {
            let table = NodeTable::new(case.seed, &hashes, Some(&case.weights)).expect("valid nodes");
            case.keys
                .iter()
                .map(|key| {
                    let (owner, ranked) = crate::ranked_json(&table, &key.bytes(), depth);
                    format!(
                        "       {{{}, \"owner\": {owner}, \"ranked\": [{ranked}]}}",
                        key.json("key")
                    )
                })
                .collect()
        }
    };
    let _ = write!(t, "     \"keys\": [\n{}\n     ]}}", keys.join(",\n"));
    t
}

fn section(s: &mut String, name: &str, rows: &[String], last: bool) {
    let _ = write!(
        s,
        "  \"{name}\": [\n{}\n  ]{}\n",
        rows.join(",\n"),
        if last { "" } else { "," }
    );
}

/// tests/vectors/placement-v1-edges.json.
pub fn placement_v1_edges() -> String {
    let mut rng = Prng(0x6564_6765_735F_7631); // "edges_v1"
    let mut s = String::from("{\n");
    s.push_str(
        "  \"_comment\": \"longstraw placement v1 edge vectors, SPEC.md section 14. FROZEN: never edit or regenerate to \
make a test pass. Generated by tools/gen-vectors from the scalar oracle. Same encoding as placement-v1.json (bytes hex, \
u64 and neg_ln_q64 values decimal strings, weights as f64 bit patterns next to a readable value), except that a byte \
string longer than 64 bytes is written as a rule: 'key_gen' / 'id_gen' {'len': N, 'start': S} is the N bytes whose \
byte i is (S + i) mod 251. 'neg_ln_q64' lists m, neg_ln_q64(m) and the bits of ln_u((m - 1) << 11). Each case has a \
'rule' (tie, group-sum, seed, id-length, key-length) and a 'mode' (flat, or skeleton with 'fanout_bits', 'levels' and \
'groups' as in skeleton-v1.json); 'ranked' is the whole ranking (depth = number of nodes). Node references are \
indices into the case's 'nodes'.\",\n",
    );
    s.push_str("  \"placement\": \"placement-v1-edges\",\n");

    let mut rows = Vec::new();
    for (i, &len) in KEY_LENGTHS.iter().enumerate() {
        let key = Bytes::rule(len, i);
        let bytes = key.bytes();
        for seed in EDGE_SEEDS {
            rows.push(format!(
                "    {{{}, \"seed\": \"{seed}\", \"key_hash\": \"{}\"}}",
                key.json("key"),
                key_hash(&bytes, seed)
            ));
        }
    }
    section(&mut s, "key_hashes", &rows, false);

    rows.clear();
    let ids = [
        Bytes::Hex(vec![0x00]),
        Bytes::Hex(vec![0x80]),
        Bytes::Hex(vec![0xFF]),
        Bytes::Hex(b"n".to_vec()),
        Bytes::rule(MAX_NODE_ID_LEN - 1, 3),
        Bytes::rule(MAX_NODE_ID_LEN, 0),
        Bytes::rule(MAX_NODE_ID_LEN, 250),
    ];
    for id in &ids {
        let bytes = id.bytes();
        for seed in EDGE_SEEDS {
            rows.push(format!(
                "    {{{}, \"seed\": \"{seed}\", \"node_hash\": \"{}\"}}",
                id.json("id"),
                node_hash(&bytes, seed)
            ));
        }
    }
    section(&mut s, "node_hashes", &rows, false);

    rows.clear();
    for m in ln_inputs() {
        let v = ln::ln_unit((m - 1) << 11);
        rows.push(format!(
            "    {{\"m\": \"{m}\", \"neg_ln_q64\": \"{}\", \"ln_u_bits\": \"{:016x}\"}}",
            neg_ln_q64(m),
            v.to_bits()
        ));
    }
    section(&mut s, "neg_ln_q64", &rows, false);

    let mut cases = tie_cases(&mut rng);
    cases.extend(unequal_tie_cases(&mut rng));
    cases.extend(group_sum_cases(&mut rng));
    cases.push(group_sum_flip_case(&mut rng));
    cases.extend(seed_cases(&mut rng));
    cases.extend(id_length_cases(&mut rng));
    cases.extend(key_length_cases());
    let rows: Vec<String> = cases.iter().map(case_json).collect();
    section(&mut s, "cases", &rows, true);
    s.push_str("}\n");
    s
}
