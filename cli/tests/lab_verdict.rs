//! `lab`'s recommendation comes from the measured rows and the stated
//! priorities: rows made up here change the verdict when their numbers do.

use longstraw_cli::lab::verdict::{full_order, recommend, Criterion};
use longstraw_cli::lab::{run_with, Corpus, Moved, Row};
use longstraw_membership::{Membership, Mode, NodeSpec};

fn moved(stray: f64) -> Moved {
    Moved {
        moved: 0.2 + stray,
        optimum: 0.2,
        stray,
    }
}

fn row(name: &str, weighted: bool, stray: f64, max_over_mean: f64, lookup_ns: f64, memory_bytes: usize) -> Row {
    Row {
        name: name.into(),
        note: String::new(),
        weighted,
        shares: vec![0.25; 4],
        max_over_mean,
        cv: 0.0,
        add: moved(stray),
        remove: moved(0.0),
        reweight: weighted.then(|| moved(0.0)),
        lookup_ns,
        memory_bytes,
    }
}

fn rows() -> Vec<Row> {
    vec![
        row("hrw", true, 0.0, 1.010, 300.0, 64),
        row("ring", true, 0.0, 1.120, 20.0, 8192),
        row("maglev", false, 0.17, 1.140, 5.0, 2048),
    ]
}

const KEYS: usize = 1_000_000;

#[test]
fn the_verdict_follows_the_rows() {
    let default = full_order(&[]);
    assert_eq!(default, Criterion::ALL);
    let v = recommend(&rows(), KEYS, false, &[]);
    assert_eq!(v.pick, "hrw", "{:#?}", v.reasons);
    assert!(v.reasons[0].contains("maglev"), "{:#?}", v.reasons);
    assert!(
        v.reasons
            .iter()
            .any(|r| r.starts_with("balance:") && r.contains("ring 1.1200")),
        "{:#?}",
        v.reasons
    );

    // The ring balances as well as HRW: now speed decides, and the ring is faster.
    let mut r = rows();
    r[1].max_over_mean = 1.012;
    assert_eq!(recommend(&r, KEYS, false, &[]).pick, "ring");

    // HRW moves keys between untouched nodes: it is out on moves.
    let mut r = rows();
    r[0].add = moved(0.05);
    let v = recommend(&r, KEYS, false, &[]);
    assert_eq!(v.pick, "ring", "{:#?}", v.reasons);
    assert!(v
        .reasons
        .iter()
        .any(|x| x.starts_with("moves:") && x.contains("out: hrw 0.0500")));

    // HRW gets fast: it stays the pick even with speed first.
    let mut r = rows();
    r[0].lookup_ns = 19.0;
    assert_eq!(recommend(&r, KEYS, false, &[Criterion::Speed]).pick, "hrw");
}

#[test]
fn the_verdict_follows_the_priorities_and_the_weights() {
    // Speed first, weights differ: maglev ignores weights, so the ring.
    assert_eq!(recommend(&rows(), KEYS, false, &[Criterion::Speed]).pick, "ring");
    // Equal weights: maglev may compete, and is fastest.
    let v = recommend(&rows(), KEYS, true, &[Criterion::Speed]);
    assert_eq!(v.pick, "maglev", "{:#?}", v.reasons);
    assert_eq!(
        v.priorities,
        [
            Criterion::Speed,
            Criterion::Moves,
            Criterion::Balance,
            Criterion::Memory
        ]
    );
    // Memory first: HRW's 64 bytes.
    assert_eq!(recommend(&rows(), KEYS, true, &[Criterion::Memory]).pick, "hrw");
    // Equal weights, moves first: maglev's stray moves put it out.
    let v = recommend(&rows(), KEYS, true, &[]);
    assert!(
        v.reasons
            .iter()
            .any(|x| x.starts_with("moves:") && x.contains("out: maglev 0.1700")),
        "{:#?}",
        v.reasons
    );
}

/// The lab names its changes, its machine and backend, the file's balance, and Maglev's fixed size.
#[test]
fn the_report_says_what_it_measured() {
    let m = Membership {
        seed: 7,
        placement: longstraw::Placement::V1,
        mode: Mode::Table {
            bits: Some(9),
            replicas: 1,
            distinct_domains: false,
            balance: Some(1.1),
        },
        secret: None,
        nodes: ["a", "b", "c"].iter().map(|id| NodeSpec::new(*id, 1.0, None)).collect(),
    };
    let r = run_with(&m, &Corpus::synthetic(20_000), &[Criterion::Balance]).unwrap();
    assert_eq!(r.changes.removed, "c");
    assert_eq!(r.changes.reweighted, "a");
    assert_eq!((r.changes.reweighted_from, r.changes.reweighted_to), (1.0, 2.0));
    assert_eq!(r.changes.added, "lab-added-node");
    assert!(!r.machine.backend.is_empty() && !r.machine.cpu.is_empty());
    let balanced = r.rows.iter().find(|x| x.name == "longstraw balanced").unwrap();
    assert_eq!(balanced.note, "2^9 partitions, balance 1.1 (the file's)");
    let maglev = r.rows.iter().find(|x| x.name == "maglev").unwrap();
    // The next prime of at least 100 x 4 (the fleet after the add) is 401.
    assert!(maglev.note.contains("M = 401 fixed"), "{}", maglev.note);
    assert_eq!(maglev.memory_bytes, 401 * 4);
    assert_eq!(r.recommendation.priorities[0], Criterion::Balance);
    assert!(r.rows.iter().any(|x| x.name == r.recommendation.pick));
}
