//! The set's unsafe code under membership changes, sized to run under Miri
//! (`make test-miri`, `make test-miri-full`); natively it runs at the larger
//! sizes as an ordinary test.
//!
//! What the unsafe code relies on, and what each test drives:
//! - the id columns hold uncounted copies of the id map's `Arc`s
//!   (`mapped_id.rs`): a snapshot held across adds, removes and weight
//!   changes must keep reading its own ids after the nodes left, the
//!   snapshots in between were dropped and ids of the same bytes came back
//!   as new allocations;
//! - the copy-on-write columns and the sharded id map share memory between
//!   snapshots (`column.rs`, `shared_map.rs`): a change to one snapshot's
//!   copy must leave every other snapshot's arrays and map as they were,
//!   also once the map has split into shards;
//! - a bounded-load lease points at its node's counter without a count
//!   (`bounded.rs`): it must release cleanly after its node was removed,
//!   also while other threads acquire and change the set.
//!
//! Expected values come from the test's own record of the membership (ids,
//! weights, order) and from a fresh build of the same members, never from
//! the snapshot under test.

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::thread;

use longstraw_set::{
    BoundedLoad, Lookup, Members, ModeOptions, Options, Rendezvous, SkeletonOptions, Snapshot, TableOptions,
};

/// Under `MIRI_FULL=1` (make test-miri-full) the Miri run takes the larger
/// sizes; natively the tests always do.
fn full() -> bool {
    !cfg!(miri) || std::env::var_os("MIRI_FULL").is_some()
}

/// Nodes in the held set: enough for the id and hash maps to split into
/// shards (more than 1,024 entries) in the full sizes.
fn nodes() -> usize {
    if full() {
        1100
    } else {
        12
    }
}

/// SplitMix64: a fixed-seed stream for reproducible changes.
struct Stream(u64);
impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The members a snapshot should have, in node order, kept by the test.
type Record = Vec<(Vec<u8>, f64)>;

/// Every id, weight and index of `snap` is what `record` says, and its id
/// lookups and owners agree with a fresh build of the same members.
fn matches(snap: &Members, record: &Record) {
    assert_eq!(snap.len(), record.len());
    let ids: Vec<&[u8]> = snap.members().ids().iter().map(|id| &id[..]).collect();
    let want: Vec<&[u8]> = record.iter().map(|(id, _)| &id[..]).collect();
    assert_eq!(ids, want, "the held snapshot's id column");
    let weights: Vec<f64> = record.iter().map(|&(_, w)| w).collect();
    assert_eq!(snap.members().weights(), &weights[..]);
    for (i, (id, _)) in record.iter().enumerate() {
        assert_eq!(snap.index_of(id), Some(i as u32), "id map entry of {i}");
        assert_eq!(snap.node(i as u32).unwrap().id(), &id[..]);
    }
    // Clones of the column's ids are counted copies that outlive the borrow.
    let cloned: Vec<Arc<[u8]>> = snap.members().ids().iter().step_by(5).cloned().collect();
    for (c, (id, _)) in cloned.iter().zip(record.iter().step_by(5)) {
        assert_eq!(&c[..], &id[..]);
    }
    // The owners read the shared hash and weight columns; they must be
    // members with weight, and (where the interpreter's time allows a fresh
    // build) the owners a fresh build of the same members gives.
    let keys = if full() { 8 } else { 2 };
    let fresh = full().then(|| {
        Rendezvous::with_weights(
            record.iter().map(|(id, w)| (id, *w)),
            Options::default(),
            ModeOptions::Flat,
        )
        .unwrap()
        .snapshot()
    });
    for k in 0..keys {
        let key = format!("key-{k}");
        let Ok(owner) = snap.owner(key.as_bytes()) else {
            assert!(record.iter().all(|&(_, w)| w == 0.0), "no owner for {key}");
            continue;
        };
        assert!(record.iter().any(|(id, w)| &id[..] == owner.id() && *w > 0.0));
        if let Some(fresh) = &fresh {
            assert_eq!(owner.id(), fresh.owner(key.as_bytes()).unwrap().id(), "owner of {key}");
        }
    }
}

/// A chain of changes (adds, removes, weight changes, removed ids added
/// back as new allocations) with snapshots held at every step, dropped in
/// an order unrelated to the one they were taken in; every held snapshot
/// must still read the members it had.
#[test]
fn held_snapshots_keep_their_ids_and_columns_through_changes() {
    let n = nodes();
    let steps = if full() { 200 } else { 20 };
    let mut record: Record = (0..n).map(|i| (format!("node-{i}").into_bytes(), 1.0)).collect();
    let set = Rendezvous::with_weights(
        record.iter().map(|(id, w)| (id, *w)),
        Options::default(),
        ModeOptions::Flat,
    )
    .unwrap();
    let mut held: Vec<(Arc<Snapshot>, Record)> = vec![(set.snapshot(), record.clone())];
    let mut gone: Vec<Vec<u8>> = Vec::new();
    let mut s = Stream(7);
    let mut next = n;
    for step in 0..steps {
        match s.below(4) {
            0 if !gone.is_empty() => {
                // The same bytes again: a new allocation the old snapshots must not see.
                let id = gone.swap_remove(s.below(gone.len()));
                set.add(&id, 3.0).unwrap();
                record.push((id, 3.0));
            }
            0 | 1 => {
                let id = format!("new-{next}").into_bytes();
                next += 1;
                set.add(&id, 2.0).unwrap();
                record.push((id, 2.0));
            }
            2 if !record.is_empty() => {
                let (id, _) = record.remove(s.below(record.len()));
                set.remove(&id).unwrap();
                gone.push(id);
            }
            _ if !record.is_empty() => {
                let at = s.below(record.len());
                let w = [0.0, 0.5, 4.0][s.below(3)];
                set.set_weight(&record[at].0, w).unwrap();
                record[at].1 = w;
            }
            _ => continue,
        }
        held.push((set.snapshot(), record.clone()));
        if step % 3 == 2 {
            // Drop a snapshot from the middle: the ones before and after
            // share its columns and map shards.
            let (snap, rec) = held.remove(s.below(held.len()));
            matches(snap.members(), &rec);
        }
    }
    while !held.is_empty() {
        let (snap, rec) = held.remove(s.below(held.len()));
        matches(snap.members(), &rec);
    }
}

/// The first snapshot outlives every node leaving and coming back, and
/// every snapshot taken in between (the uncounted ids must stay alive
/// through the held snapshot's own id map alone).
#[test]
fn the_first_snapshot_outlives_every_node() {
    let n = nodes();
    let ids: Vec<Vec<u8>> = (0..n).map(|i| format!("node-{i}").into_bytes()).collect();
    let record: Record = ids.iter().map(|id| (id.clone(), 1.0)).collect();
    let flat = Rendezvous::flat(&ids, Options::default()).unwrap();
    let skeleton = common::skeleton(&ids, SkeletonOptions::default()).unwrap();
    let table = common::table(
        &ids,
        TableOptions {
            partition_bits: Some(4),
            ..TableOptions::default()
        },
    )
    .unwrap();
    let (old_flat, old_skeleton, old_table) = (flat.snapshot(), skeleton.snapshot(), table.snapshot());
    for (i, id) in ids.iter().enumerate() {
        flat.remove(id).unwrap();
        skeleton.remove(id).unwrap();
        if i + 1 < ids.len() {
            table.remove(id).unwrap();
        }
        if i % 2 == 0 {
            flat.add(id, 2.0).unwrap();
            flat.set_weight(id, 0.5).unwrap();
            flat.remove(id).unwrap();
        }
    }
    assert!(flat.is_empty() && skeleton.is_empty());
    matches(old_flat.members(), &record);
    matches(old_skeleton.members(), &record);
    matches(old_table.members(), &record);
    drop((flat, skeleton, table));
    // The sets are gone; the snapshots alone keep their ids.
    matches(old_flat.members(), &record);
    matches(old_skeleton.members(), &record);
}

/// Leases keep pointing at their nodes' counters while those nodes are
/// removed, re-added and reweighted; every lease releases cleanly and the
/// counts return to 0.
#[test]
fn leases_release_after_their_nodes_left() {
    let n = if full() { 64 } else { 6 };
    let ids: Vec<String> = (0..n).map(|i| format!("node-{i}")).collect();
    let b = BoundedLoad::new(&ids, Options::default(), 1.25).unwrap();
    let mut leases = Vec::new();
    let mut owned = Vec::new();
    for k in 0..(4 * n) {
        let key = format!("key-{k}");
        if k % 2 == 0 {
            leases.push(b.acquire(key.as_bytes()).unwrap());
        } else {
            owned.push(b.acquire_owned(key.as_bytes()).unwrap());
        }
    }
    let held: HashMap<Vec<u8>, usize> = leases
        .iter()
        .map(|l| l.node_id().to_vec())
        .chain(owned.iter().map(|l| l.node_id().to_vec()))
        .fold(HashMap::new(), |mut m, id| {
            *m.entry(id).or_insert(0) += 1;
            m
        });
    for (i, id) in ids.iter().enumerate() {
        match i % 3 {
            0 => b.remove(id).unwrap(),
            1 => b.set_weight(id, 0.0).unwrap(),
            _ => {
                b.remove(id).unwrap();
                b.add(id, 2.0).unwrap();
            }
        }
    }
    // The leases still name their nodes, whose counters were retired or replaced.
    let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
    for id in leases
        .iter()
        .map(|l| l.node_id())
        .chain(owned.iter().map(|l| l.node_id()))
    {
        *seen.entry(id.to_vec()).or_insert(0) += 1;
    }
    assert_eq!(seen, held);
    assert_eq!(b.in_flight(), 4 * n as u64);
    drop(leases);
    // Owned leases outlive the set.
    drop(b);
    drop(owned);
}

/// Two threads acquire and release while the main thread adds, removes and
/// reweights nodes: the snapshot swap, the retired counters and the leases'
/// uncounted pointers under real concurrency (Miri also checks for data
/// races).
#[test]
fn acquires_race_membership_changes() {
    let (rounds, changes) = if full() { (200, 40) } else { (12, 6) };
    let b = Arc::new(BoundedLoad::new(["a", "b", "c"], Options::default(), 1.25).unwrap());
    let workers: Vec<_> = (0..2)
        .map(|t| {
            let b = b.clone();
            thread::spawn(move || {
                for done in 0..rounds {
                    let key = format!("key-{t}-{done}");
                    let l1 = b.acquire(key.as_bytes()).unwrap();
                    let l2 = b.acquire_owned(key.as_bytes()).unwrap();
                    assert!(!l1.node_id().is_empty() && !l2.node_id().is_empty());
                    drop(l1);
                    drop(l2);
                }
            })
        })
        .collect();
    for i in 0..changes {
        let id = format!("x-{i}");
        b.add(&id, 1.0).unwrap();
        b.set_weight("b", [0.0, 1.0, 2.0][i % 3]).unwrap();
        if i % 2 == 1 {
            b.remove(format!("x-{}", i - 1)).unwrap();
        }
        thread::yield_now();
    }
    for w in workers {
        w.join().unwrap();
    }
    assert_eq!(b.in_flight(), 0);
    assert!(b.loads().iter().all(|(_, load)| *load == 0));
}
