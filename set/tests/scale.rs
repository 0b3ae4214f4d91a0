//! The owned partition table, skeleton and failure domains.

mod common;

use longstraw_set::{Options, Rendezvous, SkeletonOptions, SkeletonShape, TableOptions, TableSnapshot};

fn ids(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("node-{i}")).collect()
}

fn table_opts(bits: u8, replicas: usize) -> TableOptions {
    TableOptions {
        partition_bits: Some(bits),
        replicas,
        ..TableOptions::default()
    }
}

/// Partition p's expected list: the flat placement-v1 ranking of its 4-byte key.
fn flat_partition(r: &Rendezvous, p: u32, k: usize) -> Vec<Vec<u8>> {
    r.snapshot()
        .top_k(&p.to_le_bytes(), k)
        .iter()
        .map(|n| n.id().to_vec())
        .collect()
}

fn row_ids(t: &TableSnapshot, p: u32) -> Vec<Vec<u8>> {
    t.row(p)
        .iter()
        .map(|&i| t.members().ids()[i as usize].to_vec())
        .collect()
}

#[test]
fn table_rows_are_flat_hrw_of_the_partition_key_through_changes() {
    let (bits, replicas) = (7u8, 3usize);
    let t = common::table(ids(20), table_opts(bits, replicas)).unwrap();
    let flat = Rendezvous::flat(ids(20), Options::default()).unwrap();
    let check = |what: &str| {
        let snap = common::table_snapshot(&t);
        for p in 0..1u32 << bits {
            assert_eq!(
                row_ids(&snap, p),
                flat_partition(&flat, p, replicas),
                "{what}: partition {p}"
            );
        }
        for i in 0..300 {
            let key = format!("key-{i}");
            let p = snap.partition(key.as_bytes());
            assert_eq!(
                snap.owner(key.as_bytes()).unwrap().id(),
                &flat_partition(&flat, p, 1)[0][..]
            );
            let long: Vec<Vec<u8>> = snap.top_k(key.as_bytes(), 6).iter().map(|n| n.id().to_vec()).collect();
            assert_eq!(long, flat_partition(&flat, p, 6), "{what}: top 6 past the stored 3");
        }
    };
    check("built");
    for (t_op, f_op) in [
        (t.add("node-20", 2.0), flat.add("node-20", 2.0)),
        (t.remove("node-3"), flat.remove("node-3")),
        (t.set_weight("node-7", 0.0), flat.set_weight("node-7", 0.0)),
        (t.set_weight("node-8", 5.0), flat.set_weight("node-8", 5.0)),
        (t.set_weight("node-8", 0.5), flat.set_weight("node-8", 0.5)),
        (t.set_weight("node-7", 1.0), flat.set_weight("node-7", 1.0)),
    ] {
        t_op.unwrap();
        f_op.unwrap();
        check("after a change");
    }
    t.update(|u| {
        u.add("a", 1.0)?;
        u.remove("node-0")?;
        u.set_weight("a", 3.0)
    })
    .unwrap();
    flat.update(|u| {
        u.add("a", 1.0)?;
        u.remove("node-0")?;
        u.set_weight("a", 3.0)
    })
    .unwrap();
    check("after an update");
    assert_eq!(common::table_snapshot(&t).generation(), 7);
}

#[test]
fn removing_a_node_moves_exactly_its_partitions_and_adding_only_what_it_wins() {
    let t = common::table(ids(50), table_opts(12, 1)).unwrap();
    let before = common::table_snapshot(&t);
    t.remove("node-9").unwrap();
    let after = common::table_snapshot(&t);
    for p in 0..before.partitions() as u32 {
        let (b, a) = (&row_ids(&before, p)[0], &row_ids(&after, p)[0]);
        assert_eq!(b != a, b == b"node-9", "partition {p}");
    }
    t.add("node-9", 1.0).unwrap();
    let back = common::table_snapshot(&t);
    for p in 0..before.partitions() as u32 {
        assert_eq!(row_ids(&back, p), row_ids(&before, p));
    }
}

#[test]
fn table_default_bits_and_balance() {
    let t = common::table(ids(1000), TableOptions::default()).unwrap();
    let s = common::table_snapshot(&t);
    assert_eq!(s.partition_bits(), 16);
    let mut load = vec![0usize; 1000];
    for p in 0..s.partitions() as u32 {
        load[s.row(p)[0] as usize] += 1;
    }
    let mean = s.partitions() as f64 / 1000.0;
    let worst = *load.iter().max().unwrap() as f64 / mean;
    // Binomial(65536, 1/1000): the max of 1000 loads is about mean + 3.3 sd (1.4x).
    assert!(worst < 1.6, "worst/mean {worst}");
    assert!(worst > 1.1, "worst/mean {worst} is too good to be HRW");
}

#[test]
fn table_errors_name_the_bad_value() {
    let e = common::table(ids(3), table_opts(25, 1)).unwrap_err().to_string();
    assert!(e.contains("25"), "{e}");
    let e = common::table(ids(3), table_opts(4, 0)).unwrap_err().to_string();
    assert!(e.contains("replicas 0"), "{e}");
    let t = common::table(ids(3), table_opts(4, 1)).unwrap();
    assert!(t.remove("nope").unwrap_err().to_string().contains("nope"));
    assert!(t.add("node-1", 1.0).is_err());
    assert!(t.set_weight("node-1", -0.0).is_err());
    assert_eq!(
        common::table_snapshot(&t).generation(),
        0,
        "failed changes publish nothing"
    );
    let empty = common::table(Vec::<String>::new(), table_opts(4, 2)).unwrap();
    assert!(empty.snapshot().owner(b"k").is_err());
    assert!(empty.snapshot().top_k(b"k", 3).is_empty());
}

#[test]
fn table_with_distinct_domains() {
    let nodes: Vec<(String, f64, Option<String>)> = (0..24)
        .map(|i| (format!("n{i}"), 1.0, Some(format!("rack-{}", i % 4))))
        .collect();
    let opts = TableOptions {
        distinct_domains: true,
        ..table_opts(8, 3)
    };
    let t = common::table_domains(nodes.clone(), Options::default(), opts).unwrap();
    let flat = Rendezvous::flat(nodes.iter().map(|n| n.0.clone()), Options::default()).unwrap();
    for (id, _, d) in &nodes {
        flat.set_domain(id, d.as_deref().map(str::as_bytes)).unwrap();
    }
    let check = |t: &Rendezvous, flat: &Rendezvous| {
        let s = common::table_snapshot(t);
        for p in 0..s.partitions() as u32 {
            let want: Vec<Vec<u8>> = flat
                .snapshot()
                .top_k_distinct(&p.to_le_bytes(), 3)
                .iter()
                .map(|n| n.id().to_vec())
                .collect();
            assert_eq!(row_ids(&s, p), want, "partition {p}");
            let racks: std::collections::HashSet<_> = s.row(p).iter().map(|&i| s.node(i).unwrap().domain()).collect();
            assert_eq!(racks.len(), s.row(p).len());
        }
    };
    check(&t, &flat);
    t.add_in_domain("x", 3.0, "rack-1").unwrap();
    flat.add_in_domain("x", 3.0, "rack-1").unwrap();
    check(&t, &flat);
    t.remove("n5").unwrap();
    flat.remove("n5").unwrap();
    check(&t, &flat);
    t.set_weight("n6", 4.0).unwrap();
    flat.set_weight("n6", 4.0).unwrap();
    check(&t, &flat);
    t.set_domain("n7", Some(b"rack-9")).unwrap();
    flat.set_domain("n7", Some(b"rack-9")).unwrap();
    check(&t, &flat);
}

#[test]
fn rendezvous_domains_firstn_and_fewer_domains_than_k() {
    let r = Rendezvous::flat(Vec::<String>::new(), Options::default()).unwrap();
    for i in 0..9 {
        r.add_in_domain(format!("n{i}"), 1.0, format!("zone-{}", i % 3))
            .unwrap();
    }
    let s = r.snapshot();
    for i in 0..200 {
        let key = format!("k{i}");
        let got = s.top_k_distinct(key.as_bytes(), 5);
        assert_eq!(got.len(), 3, "three zones, so three replicas");
        assert_eq!(got[0].id(), s.owner(key.as_bytes()).unwrap().id());
        let zones: std::collections::HashSet<_> = got.iter().map(|n| n.domain().unwrap()).collect();
        assert_eq!(zones.len(), 3);
    }
    assert!(r
        .set_domain("n1", Some(b""))
        .unwrap_err()
        .to_string()
        .contains("0 bytes"));
    // Unlabelled nodes are domains of their own.
    r.set_domain("n0", None).unwrap();
    assert_eq!(r.snapshot().node(0).unwrap().domain(), None);
    assert!(r.snapshot().top_k_distinct(b"k", 9).len() == 4);
}

#[test]
fn skeleton_api_matches_the_core_and_survives_changes() {
    let opts = SkeletonOptions {
        shape: Some(SkeletonShape::new(2, 2).unwrap()),
    };
    let s = common::skeleton(ids(100), opts).unwrap();
    let snap = common::skeleton_snapshot(&s);
    for i in 0..500 {
        let key = format!("k{i}");
        let owner = snap.owner(key.as_bytes()).unwrap();
        let top = snap.top_k(key.as_bytes(), 3);
        assert_eq!(top[0].id(), owner.id());
        assert_eq!(snap.rank(key.as_bytes()).len(), 100);
    }
    s.add("new", 1.0).unwrap();
    s.remove("node-0").unwrap();
    s.set_weight("node-1", 0.0).unwrap();
    let after = common::skeleton_snapshot(&s);
    assert_eq!(after.len(), 100);
    assert_eq!(after.eligible(), 99);
    for i in 0..500 {
        let key = format!("k{i}");
        assert_ne!(after.owner(key.as_bytes()).unwrap().id(), b"node-1");
        assert_ne!(after.owner(key.as_bytes()).unwrap().id(), b"node-0");
    }
    // Insertion order does not matter.
    let reversed = common::skeleton_snapshot(&common::skeleton(ids(100).into_iter().rev(), opts).unwrap());
    for i in 0..500 {
        let key = format!("k{i}");
        assert_eq!(
            snap.owner(key.as_bytes()).unwrap().id(),
            reversed.owner(key.as_bytes()).unwrap().id()
        );
    }
    let offsets: Vec<u32> = (0..=3).map(|i| i * 2).collect();
    let batch = longstraw::PackedKeys::new(b"k0k1k2", &offsets).unwrap();
    let mut out = [0u32; 3];
    snap.owners_into(&batch, &mut out).unwrap();
    assert_eq!(out.to_vec(), snap.owners(["k0", "k1", "k2"]).unwrap());
    assert_eq!(out[0], snap.owner_index(b"k0").unwrap());
}

#[test]
fn skeleton_moves_about_levels_plus_one_over_n_on_add() {
    // Moved fraction on adding one node to n: optimal 1/(n+1); the skeleton
    // moves at most about (levels + 1) times that.
    let n = 256;
    let keys: Vec<String> = (0..40_000).map(|i| format!("key-{i}")).collect();
    for (bits, levels, bound) in [(4u8, 0u8, 1.0f64), (4, 1, 2.2), (2, 2, 3.2)] {
        let opts = SkeletonOptions {
            shape: Some(SkeletonShape::new(bits, levels).unwrap()),
        };
        let s = common::skeleton(ids(n), opts).unwrap();
        let before = common::skeleton_snapshot(&s);
        s.add("newcomer", 1.0).unwrap();
        let after = common::skeleton_snapshot(&s);
        let moved = keys
            .iter()
            .filter(|k| before.owner(k.as_bytes()).unwrap().id() != after.owner(k.as_bytes()).unwrap().id())
            .count() as f64;
        let optimal = keys.len() as f64 / (n + 1) as f64;
        // Six sigma of the moved count, on top of the expected ratio.
        let slack = 6.0 * (optimal * bound).sqrt();
        assert!(
            moved <= optimal * bound + slack,
            "levels {levels}: moved {moved} vs optimal {optimal}"
        );
        if levels == 0 {
            assert!(moved >= optimal - 6.0 * optimal.sqrt());
        }
    }
}
