//! Incremental == fresh: after any sequence of single membership changes,
//! each published snapshot (flat, table and skeleton) equals one built from
//! scratch over the same members, in its data and in every lookup (changes share
//! structure with the previous snapshot and patch the skeleton's tree
//! instead of rebuilding it).

mod common;

use longstraw::{Ranked, TableSummary};
use longstraw_set::{
    Lookup, Members, ModeOptions, Options, Rendezvous, SkeletonOptions, SkeletonShape, SkeletonSnapshot, Snapshot,
    TableOptions, TableSnapshot,
};
use proptest::prelude::*;

const WEIGHTS: [f64; 5] = [0.0, 0.5, 1.0, 2.0, 3.0];
const LABELS: [Option<&[u8]>; 3] = [None, Some(b"rack-a"), Some(b"rack-b")];

#[derive(Clone, Debug)]
enum Op {
    Add { weight: usize, label: usize },
    Remove { pick: usize },
    SetWeight { pick: usize, weight: usize },
    SetDomain { pick: usize, label: usize },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..WEIGHTS.len(), 0..LABELS.len()).prop_map(|(weight, label)| Op::Add { weight, label }),
        any::<usize>().prop_map(|pick| Op::Remove { pick }),
        (any::<usize>(), 0..WEIGHTS.len()).prop_map(|(pick, weight)| Op::SetWeight { pick, weight }),
        (any::<usize>(), 0..LABELS.len()).prop_map(|(pick, label)| Op::SetDomain { pick, label }),
    ]
}

/// The three owned structures under test, changed in step.
struct Sets {
    flat: Rendezvous,
    table: Rendezvous,
    skeleton: Rendezvous,
    table_options: TableOptions,
    skeleton_options: SkeletonOptions,
}

/// The members as `(id, weight, label)`, in node index order.
fn triples(s: &Members) -> Vec<(Vec<u8>, f64, Option<Vec<u8>>)> {
    s.nodes()
        .map(|n| (n.id().to_vec(), n.weight(), n.domain().map(<[u8]>::to_vec)))
        .collect()
}

fn keys() -> Vec<Vec<u8>> {
    (0..48).map(|i| format!("key-{i}").into_bytes()).collect()
}

fn same_members(changed: &Members, fresh: &Members, gone: &[Vec<u8>]) {
    assert_eq!(triples(changed), triples(fresh));
    assert_eq!(changed.members().hashes(), fresh.members().hashes());
    assert_eq!(changed.members().domain_ids(), fresh.members().domain_ids());
    assert_eq!(changed.eligible(), fresh.eligible());
    // The summary a change keeps up to date equals the core's full scan.
    let scanned = TableSummary::of(changed.members().hashes(), Some(changed.members().weights())).unwrap();
    assert_eq!(changed.members().table().summary(), scanned);
    for (i, id) in changed.members().ids().iter().enumerate() {
        assert_eq!(changed.index_of(id), Some(i as u32));
    }
    for id in gone {
        if !fresh.contains(id) {
            assert_eq!(changed.index_of(id), None);
        }
    }
}

fn same_flat_lookups(changed: &Snapshot, fresh: &Snapshot) {
    for key in keys() {
        assert_eq!(changed.owner_index(&key).ok(), fresh.owner_index(&key).ok());
        let (mut a, mut b) = ([0u32; 4], [0u32; 4]);
        assert_eq!(changed.top_k_into(&key, &mut a), fresh.top_k_into(&key, &mut b));
        assert_eq!(a, b);
        let (mut a, mut b) = ([0u32; 3], [0u32; 3]);
        assert_eq!(
            changed.top_k_distinct_into(&key, &mut a),
            fresh.top_k_distinct_into(&key, &mut b)
        );
        assert_eq!(a, b);
    }
}

fn same_table(changed: &TableSnapshot, fresh: &TableSnapshot) {
    for p in 0..changed.partitions() as u32 {
        assert_eq!(changed.row(p), fresh.row(p), "partition {p}");
    }
    for key in keys() {
        assert_eq!(changed.owner_index(&key).ok(), fresh.owner_index(&key).ok());
    }
}

fn same_skeleton(changed: &SkeletonSnapshot, fresh: &SkeletonSnapshot) {
    assert_eq!(changed.tree_bytes(), fresh.tree_bytes());
    for key in keys() {
        assert_eq!(changed.owner_index(&key).ok(), fresh.owner_index(&key).ok());
        let (mut a, mut b) = ([u32::MAX; 5], [u32::MAX; 5]);
        assert_eq!(changed.top_k_into(&key, &mut a), fresh.top_k_into(&key, &mut b));
        assert_eq!(a, b);
        let (mut a, mut b) = ([u32::MAX; 3], [u32::MAX; 3]);
        assert_eq!(
            changed.top_k_distinct_into(&key, &mut a),
            fresh.top_k_distinct_into(&key, &mut b)
        );
        assert_eq!(a, b);
    }
    let mut ranks = [Ranked::EMPTY; 64];
    let view = changed.view();
    let n = view.top_k_of_hash(7, &mut ranks);
    assert_eq!(n, changed.eligible().min(64));
}

fn run(start: usize, ops: &[Op], shape: SkeletonShape) {
    let ids: Vec<String> = (0..start).map(|i| format!("node-{i}")).collect();
    let table_options = TableOptions {
        partition_bits: Some(6),
        replicas: 2,
        ..TableOptions::default()
    };
    let skeleton_options = SkeletonOptions { shape: Some(shape) };
    let sets = Sets {
        flat: Rendezvous::flat(&ids, Options::default()).unwrap(),
        table: common::table(&ids, table_options).unwrap(),
        skeleton: common::skeleton(&ids, skeleton_options).unwrap(),
        table_options,
        skeleton_options,
    };
    let mut next = start;
    let mut gone: Vec<Vec<u8>> = Vec::new();
    for op in ops {
        let members = sets.flat.snapshot();
        let pick = |p: usize| members.members().ids()[p % members.len()].to_vec();
        let result = match *op {
            Op::Add { weight, label } => {
                next += 1;
                let id = format!("node-{next}");
                let w = WEIGHTS[weight];
                match LABELS[label] {
                    Some(d) => [
                        sets.flat.add_in_domain(&id, w, d),
                        sets.table.add_in_domain(&id, w, d),
                        sets.skeleton.add_in_domain(&id, w, d),
                    ],
                    None => [sets.flat.add(&id, w), sets.table.add(&id, w), sets.skeleton.add(&id, w)],
                }
            }
            _ if members.is_empty() => continue,
            Op::Remove { pick: p } => {
                let id = pick(p);
                gone.push(id.clone());
                [sets.flat.remove(&id), sets.table.remove(&id), sets.skeleton.remove(&id)]
            }
            Op::SetWeight { pick: p, weight } => {
                let (id, w) = (pick(p), WEIGHTS[weight]);
                [
                    sets.flat.set_weight(&id, w),
                    sets.table.set_weight(&id, w),
                    sets.skeleton.set_weight(&id, w),
                ]
            }
            Op::SetDomain { pick: p, label } => {
                let (id, d) = (pick(p), LABELS[label]);
                [
                    sets.flat.set_domain(&id, d),
                    sets.table.set_domain(&id, d),
                    sets.skeleton.set_domain(&id, d),
                ]
            }
        };
        assert_eq!(result, [Ok(()), Ok(()), Ok(())], "{op:?}");
        check(&sets, &gone);
    }
}

fn check(sets: &Sets, gone: &[Vec<u8>]) {
    let flat = sets.flat.snapshot();
    let nodes = triples(flat.members());
    let fresh_flat = Rendezvous::with_weights(
        nodes.iter().map(|(id, w, _)| (id, *w)),
        Options::default(),
        ModeOptions::Flat,
    )
    .unwrap();
    for (id, _, label) in &nodes {
        if let Some(label) = label {
            fresh_flat.set_domain(id, Some(label)).unwrap();
        }
    }
    let fresh_flat = fresh_flat.snapshot();
    same_members(flat.members(), fresh_flat.members(), gone);
    same_flat_lookups(&flat, &fresh_flat);

    let with_domains = || nodes.iter().map(|(id, w, d)| (id.clone(), *w, d.clone()));
    let table = common::table_snapshot(&sets.table);
    let fresh_table = common::table_snapshot(
        &Rendezvous::new(with_domains(), Options::default(), sets.table_options.into()).unwrap(),
    );
    same_members(table.members(), fresh_table.members(), gone);
    same_table(&table, &fresh_table);

    let skeleton = common::skeleton_snapshot(&sets.skeleton);
    let fresh_skeleton = common::skeleton_snapshot(
        &Rendezvous::new(with_domains(), Options::default(), sets.skeleton_options.into()).unwrap(),
    );
    same_members(skeleton.members(), fresh_skeleton.members(), gone);
    same_skeleton(&skeleton, &fresh_skeleton);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn changes_equal_a_fresh_build(
        start in 0usize..40,
        ops in prop::collection::vec(op(), 1..40),
        shape in prop_oneof![Just((1u8, 3u8)), Just((2, 2)), Just((4, 1)), Just((1, 5)), Just((0, 0))],
    ) {
        run(start, &ops, SkeletonShape::new(shape.0, shape.1).unwrap());
    }
}

/// A larger set, where the id and hash maps have split into shards and
/// changes copy one shard of each.
#[test]
fn changes_on_a_sharded_set_equal_a_fresh_build() {
    let ops: Vec<Op> = (0..60)
        .map(|i| match i % 4 {
            0 => Op::Remove { pick: i * 7919 },
            1 => Op::Add {
                weight: i % 5,
                label: 0,
            },
            2 => Op::SetWeight {
                pick: i * 104_729,
                weight: i % 5,
            },
            _ => Op::SetDomain {
                pick: i * 31,
                label: i % 3,
            },
        })
        .collect();
    run(3000, &ops, SkeletonShape::new(4, 2).unwrap());
}

/// A snapshot held across changes keeps every id it had, byte for byte, after
/// those nodes left and the snapshots in between were dropped (the id
/// columns hold uncounted pointers that each snapshot's own id map keeps
/// alive; run under valgrind, this would show a read of freed memory).
#[test]
fn an_old_snapshot_keeps_its_ids_after_every_node_left() {
    let ids: Vec<String> = (0..3000).map(|i| format!("node-{i}")).collect();
    let flat = Rendezvous::flat(&ids, Options::default()).unwrap();
    let skeleton = common::skeleton(&ids, SkeletonOptions::default()).unwrap();
    let (old_flat, old_skeleton) = (flat.snapshot(), skeleton.snapshot());
    for (i, id) in ids.iter().enumerate() {
        flat.remove(id).unwrap();
        skeleton.remove(id).unwrap();
        if i % 2 == 0 {
            // Ids coming back are new allocations; the old snapshots must not see them.
            flat.add(id, 2.0).unwrap();
            flat.remove(id).unwrap();
        }
    }
    assert!(flat.is_empty() && skeleton.is_empty());
    for members in [old_flat.members(), old_skeleton.members()] {
        let held: Vec<&[u8]> = members.members().ids().iter().map(|id| &id[..]).collect();
        let expected: Vec<&[u8]> = ids.iter().map(String::as_bytes).collect();
        assert_eq!(held, expected);
        let cloned = members.members().ids()[7].clone();
        assert_eq!(&cloned[..], b"node-7");
        assert_eq!(members.index_of(b"node-2999"), Some(2999));
        assert_eq!(members.node(5).unwrap().id(), b"node-5");
    }
}
