//! The owned balanced table: every change equals a fresh build, options and
//! errors behave, and lists stop at the stored ranks.

mod common;

use longstraw_set::{Balance, Error, TableOptions, TableSnapshot};

fn opts(bits: u8, replicas: usize, balance: f64) -> TableOptions {
    TableOptions {
        partition_bits: Some(bits),
        replicas,
        balance: Some(Balance::new(balance).unwrap()),
        ..TableOptions::default()
    }
}

/// Every partition's stored ids, so tables with different index orders compare.
fn rows_by_id(s: &TableSnapshot) -> Vec<Vec<Vec<u8>>> {
    (0..s.partitions() as u32)
        .map(|p| s.row(p).iter().map(|&i| s.node(i).unwrap().id().to_vec()).collect())
        .collect()
}

fn fresh(s: &TableSnapshot, o: TableOptions) -> longstraw_set::Rendezvous {
    let nodes: Vec<(Vec<u8>, f64)> = s.nodes().map(|n| (n.id().to_vec(), n.weight())).collect();
    common::table_weighted(nodes, o).unwrap()
}

/// One membership change.
type Step = Box<dyn Fn(&longstraw_set::Rendezvous)>;

#[test]
fn every_change_equals_a_fresh_build() {
    for (replicas, balance) in [(1, 1.0), (2, 1.05), (3, 1.1)] {
        let o = opts(10, replicas, balance);
        let nodes: Vec<(String, f64)> = (0..40).map(|i| (format!("n{i}"), 1.0 + (i % 3) as f64)).collect();
        let t = common::table_weighted(nodes, o).unwrap();
        let steps: Vec<Step> = vec![
            Box::new(|t| t.add("new-a", 2.0).unwrap()),
            Box::new(|t| t.remove("n7").unwrap()),
            Box::new(|t| t.set_weight("n3", 5.0).unwrap()),
            Box::new(|t| t.set_weight("n4", 0.0).unwrap()),
            Box::new(|t| {
                t.update(|u| {
                    u.add("new-b", 1.0)?;
                    u.remove("n0")
                })
                .unwrap()
            }),
        ];
        for step in steps {
            step(&t);
            let s = common::table_snapshot(&t);
            assert_eq!(rows_by_id(&s), rows_by_id(&common::table_snapshot(&fresh(&s, o))));
        }
        // The drained node holds nothing at any rank.
        let s = common::table_snapshot(&t);
        let drained = s.index_of(b"n4").unwrap();
        assert!((0..s.partitions() as u32).all(|p| !s.row(p).contains(&drained)));
    }
}

#[test]
fn lists_are_the_stored_ranks() {
    let t = common::table((0..10).map(|i| format!("n{i}")), opts(8, 2, 1.05)).unwrap();
    let s = common::table_snapshot(&t);
    for key in ["a", "b", "user:42"] {
        let p = s.partition(key.as_bytes());
        let ids: Vec<u32> = s.top_k(key.as_bytes(), 5).iter().map(|n| n.index()).collect();
        assert_eq!(ids, s.row(p), "top_k past replicas must not mix in the plain ranking");
        assert_eq!(s.owner_index(key.as_bytes()).unwrap(), s.row(p)[0]);
    }
    assert_eq!(s.balance(), Some(Balance::new(1.05).unwrap()));
}

#[test]
fn balance_with_distinct_domains_is_refused() {
    let o = TableOptions {
        distinct_domains: true,
        ..opts(8, 2, 1.05)
    };
    let err =
        common::table_domains([("a", 1.0, Some("r1")), ("b", 1.0, Some("r2"))], Default::default(), o).unwrap_err();
    assert!(matches!(err, Error::ConflictingOptions { .. }), "{err}");
}

#[test]
fn caps_hold_on_the_owned_table() {
    let t = common::table((0..100).map(|i| format!("n{i}")), opts(12, 1, 1.01)).unwrap();
    let s = common::table_snapshot(&t);
    let mut load = vec![0u32; 100];
    for p in 0..s.partitions() as u32 {
        load[s.row(p)[0] as usize] += 1;
    }
    // ceil(1.01 * 4096 / 100) = ceil(41.3696) = 42, and the 100 caps sum past 4096.
    assert!(load.iter().all(|&l| l <= 42), "{:?}", load.iter().max());
    assert_eq!(load.iter().sum::<u32>(), 4096);
}

#[test]
fn the_threaded_build_equals_the_core_build() {
    use longstraw::balanced::{self, BalancedBuffers, BalancedLayout, Cursor, Held, NodeSlot};
    // 2^16 partitions x 100 nodes is past the threshold where the set splits the pair scoring.
    let (bits, replicas, balance) = (16, 2, Balance::new(1.02).unwrap());
    let t = common::table((0..100).map(|i| format!("n{i}")), opts(bits, replicas, 1.02)).unwrap();
    let s = common::table_snapshot(&t);
    let table = s.members().table();
    let layout = BalancedLayout::of(&table, bits, replicas, balance).unwrap();
    let mut rows = vec![0; layout.rows];
    let buffers = BalancedBuffers {
        candidates: &mut vec![0; layout.candidates],
        cursors: &mut vec![Cursor::default(); layout.cursors],
        holders: &mut vec![Held::EMPTY; layout.holders],
        slots: &mut vec![NodeSlot::default(); layout.slots],
    };
    balanced::build(&table, bits, replicas, balance, &mut rows, buffers).unwrap();
    for (p, expected) in rows.chunks_exact(replicas).enumerate() {
        assert_eq!(s.row(p as u32), expected, "partition {p}");
    }
}
