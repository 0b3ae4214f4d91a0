//! The lab reproduces the founding documents' figures on 10^6 synthetic keys.
//!
//! Bounds come from the sample sizes, not from a run of the code:
//! - a share estimated from N keys has standard deviation sqrt(p(1-p)/N);
//!   we allow 5 of them (a false failure is then below 1 in 10^6);
//! - a ring with V points per node gives each node a sum of V exponential
//!   arcs, so its share has CV 1/sqrt(V); counting N keys over n nodes adds
//!   Poisson noise n/N in the variance: CV = sqrt(1/V + n/N). The CV measured
//!   over n nodes has relative standard error about 1/sqrt(2(n-1)); we allow 4.

use longstraw_cli::lab::{run, Corpus, Report, Row};
use longstraw_membership::{Membership, Mode, NodeSpec};

const KEYS: usize = 1_000_000;

fn fleet(weights: &[f64]) -> Membership {
    Membership {
        seed: 0,
        placement: longstraw::Placement::V1,
        mode: Mode::Flat,
        secret: None,
        nodes: weights
            .iter()
            .enumerate()
            .map(|(i, &w)| NodeSpec::new(format!("node-{i}"), w, None))
            .collect(),
    }
}

fn row<'a>(r: &'a Report, name: &str) -> &'a Row {
    r.rows.iter().find(|x| x.name == name).unwrap()
}

fn five_sigma(p: f64, n: usize) -> f64 {
    5.0 * (p * (1.0 - p) / n as f64).sqrt()
}

#[test]
fn ring_spread_is_about_one_over_sqrt_v_and_hrw_moves_the_minimum() {
    let n = 100;
    let r = run(&fleet(&vec![1.0; n]), &Corpus::synthetic(KEYS)).unwrap();
    let rel = 4.0 / (2.0 * (n as f64 - 1.0)).sqrt();
    for (name, v) in [("ring V=100", 100.0), ("ring V=256", 256.0)] {
        let expected = (1.0 / v + n as f64 / KEYS as f64).sqrt();
        let cv = row(&r, name).cv;
        println!(
            "{name}: load spread (CV) {cv:.4}, expected {expected:.4} (documents: ~{:.0}%)",
            100.0 / v.sqrt()
        );
        assert!(
            (cv - expected).abs() <= rel * expected,
            "{name}: cv {cv} vs {expected} ± {:.1}%",
            rel * 100.0
        );
    }

    let flat = row(&r, "longstraw flat");
    // Flat HRW's shares are multinomial: CV is the key-counting noise alone.
    let poisson = (n as f64 / KEYS as f64).sqrt();
    assert!(flat.cv <= poisson * (1.0 + rel), "flat cv {} vs {poisson}", flat.cv);

    // Add: the new node takes about 1/(n+1) of the keys, all of them to it.
    let p = 1.0 / (n as f64 + 1.0);
    println!("HRW add: moved {:.5}, expected 1/(n+1) = {p:.5}", flat.add.moved);
    assert!((flat.add.moved - p).abs() <= five_sigma(p, KEYS));
    assert_eq!(flat.add.stray, 0.0);
    // Remove: exactly the removed node's keys move.
    println!(
        "HRW remove: moved {:.6}, removed node held {:.6}",
        flat.remove.moved, flat.remove.optimum
    );
    assert_eq!(flat.remove.moved, flat.remove.optimum);
    assert_eq!(flat.remove.stray, 0.0);
    // Reweight: keys move only to the changed node, about the optimum.
    let rw = flat.reweight.as_ref().unwrap();
    println!(
        "HRW 2x weight: moved {:.5}, optimum {:.5}, stray {}",
        rw.moved, rw.optimum, rw.stray
    );
    assert_eq!(rw.stray, 0.0);
    assert!((rw.moved - rw.optimum).abs() <= five_sigma(rw.optimum, KEYS));
    // The table is HRW per partition: changes move only to or from the changed node too.
    let table = row(&r, "longstraw table");
    assert_eq!(
        table.add.stray + table.remove.stray + table.reweight.as_ref().unwrap().stray,
        0.0
    );
    assert_eq!(table.remove.moved, table.remove.optimum);
    // mod n moves nearly everything on an add: (n)/(n+1) of the keys.
    let m = row(&r, "mod n");
    assert!((m.add.moved - n as f64 / (n as f64 + 1.0)).abs() <= five_sigma(0.99, KEYS));
}

#[test]
fn w_times_u_gives_three_quarters_where_hrw_gives_two_thirds() {
    let r = run(&fleet(&[1.0, 2.0]), &Corpus::synthetic(KEYS)).unwrap();
    let wu = row(&r, "w*u shortcut").shares[1];
    let hrw = row(&r, "longstraw flat").shares[1];
    println!("weights 1:2, heavier node: w*u {wu:.5} (documents: 0.75), HRW {hrw:.5} (2/3)");
    assert!((wu - 0.75).abs() <= five_sigma(0.75, KEYS), "w*u {wu}");
    assert!((hrw - 2.0 / 3.0).abs() <= five_sigma(2.0 / 3.0, KEYS), "hrw {hrw}");
}

#[test]
fn the_lab_refuses_what_it_cannot_measure() {
    assert!(run(&fleet(&[1.0]), &Corpus::synthetic(10))
        .unwrap_err()
        .contains("at least 2 nodes"));
    assert!(run(&fleet(&[1.0, 1.0]), &Corpus::synthetic(0))
        .unwrap_err()
        .contains("empty"));
    assert!(run(&fleet(&[0.0, 1.0]), &Corpus::synthetic(10))
        .unwrap_err()
        .contains("positive"));
}
