//! `plan --replicas K` compares exactly the replica sets it says it compares.
//!
//! For random memberships (random nodes, weights and failure domains, then a
//! random change) every listed key's `from` and `to` must be the `top_k` or
//! `top_k_distinct` answer of the old and new set, as the plan's rule claims,
//! and every key it does not list must keep the same set. The expected sets
//! come from direct `top_k` / `top_k_distinct` calls on sets built with the
//! set crate (not from the planner or the membership crate it uses), and the
//! distinct sets are checked once more against the plain ranking filtered to
//! the first node of each domain.

use std::collections::BTreeMap;

use indicatif::ProgressBar;
use longstraw_cli::plan::{plan_lines, replica_rules, MovesFormat, Nodes, ReplicaRule, Request};
use longstraw_membership::{Membership, Mode, NodeSpec};
use longstraw_set::{ModeOptions, Options, Rendezvous, TableOptions};
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

/// (id, weight, domain)
type Node = (Vec<u8>, f64, Option<Vec<u8>>);

fn membership(seed: u64, nodes: &[Node], mode: Mode) -> Membership {
    Membership {
        seed,
        placement: longstraw::Placement::V1,
        mode,
        secret: None,
        nodes: nodes
            .iter()
            .map(|(id, w, d)| NodeSpec::new(id.clone(), *w, d.clone()))
            .collect(),
    }
}

fn table_mode(replicas: usize, distinct: bool) -> Mode {
    Mode::Table {
        bits: Some(8),
        replicas,
        distinct_domains: distinct,
        balance: None,
    }
}

/// The replica sets of every key under one membership, by direct set-crate calls.
fn expected_sets(
    seed: u64,
    nodes: &[Node],
    table: Option<(usize, bool)>,
    rule: ReplicaRule,
    k: usize,
    keys: &[Vec<u8>],
) -> Vec<Vec<Vec<u8>>> {
    let options = Options {
        seed: Some(seed),
        ..Options::default()
    };
    let entries = nodes.iter().map(|(id, w, d)| (id.as_slice(), *w, d.as_deref()));
    let ids = |v: Vec<longstraw_set::Node<'_>>| v.iter().map(|n| n.id().to_vec()).collect::<Vec<_>>();
    match table {
        None => {
            let set = Rendezvous::flat(std::iter::empty::<&[u8]>(), options).unwrap();
            set.update(|u| {
                for (id, w, d) in entries {
                    match d {
                        Some(d) => u.add_in_domain(id, w, d)?,
                        None => u.add(id, w)?,
                    }
                }
                Ok(())
            })
            .unwrap();
            let s = set.snapshot();
            keys.iter()
                .map(|key| {
                    let plain = ids(s.top_k(key, k));
                    let distinct = ids(s.top_k_distinct(key, k));
                    // The distinct set is the ranking's first node of each domain (CRUSH firstn).
                    let domain_of = |id: &Vec<u8>| nodes.iter().find(|n| &n.0 == id).unwrap().2.clone();
                    let mut seen = Vec::new();
                    let firstn: Vec<Vec<u8>> = ids(s.rank(key))
                        .into_iter()
                        .filter(|id| {
                            let d = domain_of(id);
                            let fresh = d.is_none() || !seen.contains(&d);
                            seen.push(d);
                            fresh
                        })
                        .take(k)
                        .collect();
                    if nodes.iter().any(|n| n.2.is_some()) {
                        assert_eq!(distinct, firstn, "top_k_distinct against the filtered ranking");
                    }
                    match rule {
                        ReplicaRule::Plain => plain,
                        ReplicaRule::Distinct => distinct,
                    }
                })
                .collect()
        }
        Some((replicas, distinct_domains)) => {
            let t = Rendezvous::new(
                entries,
                options,
                ModeOptions::Table(TableOptions {
                    partition_bits: Some(8),
                    replicas,
                    distinct_domains,
                    ..TableOptions::default()
                }),
            )
            .unwrap();
            let s = t.snapshot();
            keys.iter()
                .map(|key| match rule {
                    ReplicaRule::Plain => ids(s.top_k(key, k)),
                    ReplicaRule::Distinct => ids(s.top_k_distinct(key, k)),
                })
                .collect()
        }
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

fn random_nodes(rng: &mut Rng, domains: u64) -> Vec<Node> {
    let n = 2 + rng.below(24) as usize;
    (0..n)
        .map(|i| {
            let w = [0.0, 0.5, 1.0, 1.0, 2.0, 3.5][rng.below(6) as usize];
            let d = (domains > 0).then(|| format!("rack-{}", rng.below(domains)).into_bytes());
            (format!("n{i}").into_bytes(), w, d)
        })
        .collect()
}

fn random_change(rng: &mut Rng, nodes: &mut Vec<Node>, domains: u64) {
    for step in 0..=rng.below(4) {
        match rng.below(4) {
            0 => {
                let d = (domains > 0).then(|| format!("rack-{}", rng.below(domains + 1)).into_bytes());
                nodes.push((format!("new-{step}").into_bytes(), 1.0 + rng.below(3) as f64, d));
            }
            1 if nodes.len() > 2 => {
                let i = rng.below(nodes.len() as u64) as usize;
                nodes.remove(i);
            }
            2 if domains > 0 => {
                let i = rng.below(nodes.len() as u64) as usize;
                nodes[i].2 = Some(format!("rack-{}", rng.below(domains + 1)).into_bytes());
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

/// Plans `keys` and checks every row (and every unlisted key) against the expected sets.
#[allow(clippy::too_many_arguments)]
fn check_round(
    what: &str,
    seed: u64,
    (old, old_table): (&[Node], Option<(usize, bool)>),
    (new, new_table): (&[Node], Option<(usize, bool)>),
    flag: Option<ReplicaRule>,
    k: usize,
    keys: &[Vec<u8>],
) {
    let mode = |t: Option<(usize, bool)>| t.map_or(Mode::Flat, |(r, d)| table_mode(r, d));
    let a = membership(seed, old, mode(old_table)).build().unwrap().snapshot();
    let b = membership(seed, new, mode(new_table)).build().unwrap().snapshot();
    let rules = replica_rules((&a, "old.toml"), (&b, "new.toml"), flag).unwrap();
    if let Some(f) = flag {
        assert_eq!((rules.old, rules.new), (f, f), "{what}");
    }
    let nodes = Nodes::of(&a, &b);
    let request = Request {
        replicas: Some(k),
        rules: (rules.old, rules.new),
        moves: Some(MovesFormat::Jsonl),
    };
    let input: Vec<u8> = keys.iter().flat_map(|k| k.iter().copied().chain([b'\n'])).collect();
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
    let rows: BTreeMap<Vec<u8>, Value> = out
        .split(|&c| c == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: Value = serde_json::from_slice(l).unwrap();
            (id_of(&v["key"]), v)
        })
        .collect();
    let before = expected_sets(seed, old, old_table, rules.old, k, keys);
    let after = expected_sets(seed, new, new_table, rules.new, k, keys);
    let mut listed = 0;
    for ((key, was), now) in keys.iter().zip(&before).zip(&after) {
        let (mut x, mut y) = (was.clone(), now.clone());
        x.sort();
        y.sort();
        let changed = was.first() != now.first() || x != y;
        match rows.get(key) {
            Some(row) => {
                listed += 1;
                let list = |name: &str| row[name].as_array().unwrap().iter().map(id_of).collect::<Vec<_>>();
                assert_eq!(
                    (&list("from"), &list("to")),
                    (was, now),
                    "{what}: key {} follows old {} / new {}",
                    String::from_utf8_lossy(key),
                    rules.old.command(),
                    rules.new.command()
                );
                assert!(changed, "{what}: a key whose set did not change is listed");
                let create: Vec<Vec<u8>> = now.iter().filter(|n| !was.contains(n)).cloned().collect();
                let drop: Vec<Vec<u8>> = was.iter().filter(|o| !now.contains(o)).cloned().collect();
                assert_eq!((list("create"), list("drop")), (create, drop), "{what}");
            }
            None => assert!(
                !changed,
                "{what}: key {} changed but is not listed",
                String::from_utf8_lossy(key)
            ),
        }
    }
    assert_eq!(listed, rows.len(), "{what}: rows for keys that were not asked");
}

#[test]
fn every_plan_row_follows_the_rule_it_claims() {
    let mut rng = Rng(2026);
    let keys: Vec<Vec<u8>> = (0..3000).map(|i| format!("user:{i}").into_bytes()).collect();
    let mut rounds = 0;
    for round in 0..24 {
        let seed = rng.next();
        let domains = [0, 1, 2, 3, 5][rng.below(5) as usize];
        let old = random_nodes(&mut rng, domains);
        let mut new = old.clone();
        random_change(&mut rng, &mut new, domains);
        let k = 1 + rng.below(4) as usize;
        for flag in [ReplicaRule::Plain, ReplicaRule::Distinct] {
            let what = format!("flat round {round} k {k} {flag:?} domains {domains}");
            check_round(&what, seed, (&old, None), (&new, None), Some(flag), k, &keys);
            rounds += 1;
        }
        if domains == 0 {
            // No domains: no flag needed, and the rule is plain.
            check_round("no domains", seed, (&old, None), (&new, None), None, k, &keys);
        }
        // Tables say their rule themselves (`table.distinct_domains`), and may change it.
        let (d_old, d_new) = (rng.below(2) == 1, rng.below(2) == 1);
        let what = format!("table round {round} k {k} distinct {d_old} -> {d_new}");
        check_round(
            &what,
            seed,
            (&old, Some((k, d_old))),
            (&new, Some((k, d_new))),
            None,
            k,
            &keys,
        );
        rounds += 1;
    }
    assert_eq!(rounds, 72);
}

#[test]
fn the_rule_is_never_guessed() {
    let nodes: Vec<Node> = (0..6)
        .map(|i| {
            (
                format!("n{i}").into_bytes(),
                1.0,
                Some(format!("rack-{}", i % 3).into_bytes()),
            )
        })
        .collect();
    let flat = membership(1, &nodes, Mode::Flat).build().unwrap().snapshot();
    let e = replica_rules((&flat, "a.toml"), (&flat, "b.toml"), None).unwrap_err();
    assert!(
        e.contains("a.toml has failure domains") && e.contains("--distinct") && e.contains("--plain"),
        "{e}"
    );
    let skeleton = membership(1, &nodes, Mode::Skeleton { shape: None })
        .build()
        .unwrap()
        .snapshot();
    assert!(replica_rules((&skeleton, "a.toml"), (&skeleton, "b.toml"), None).is_err());
    // A table says its rule; a flag that contradicts it is refused, one that agrees is fine.
    let distinct = membership(1, &nodes, table_mode(3, true)).build().unwrap().snapshot();
    let r = replica_rules((&distinct, "a.toml"), (&distinct, "b.toml"), None).unwrap();
    assert_eq!((r.old, r.new), (ReplicaRule::Distinct, ReplicaRule::Distinct));
    assert!(r.why.contains("table.distinct_domains = true"), "{}", r.why);
    let e = replica_rules((&distinct, "a.toml"), (&distinct, "b.toml"), Some(ReplicaRule::Plain)).unwrap_err();
    assert!(e.contains("--plain contradicts a.toml"), "{e}");
    assert!(replica_rules(
        (&distinct, "a.toml"),
        (&distinct, "b.toml"),
        Some(ReplicaRule::Distinct)
    )
    .is_ok());
    // A flat file with domains next to a table still needs the flag.
    assert!(replica_rules((&flat, "a.toml"), (&distinct, "b.toml"), None).is_err());
    // Without domains both rules give the same sets: no flag needed.
    let bare: Vec<Node> = nodes.iter().map(|(id, w, _)| (id.clone(), *w, None)).collect();
    let bare = membership(1, &bare, Mode::Flat).build().unwrap().snapshot();
    let r = replica_rules((&bare, "a.toml"), (&bare, "b.toml"), None).unwrap();
    assert_eq!((r.old, r.new), (ReplicaRule::Plain, ReplicaRule::Plain));
}
