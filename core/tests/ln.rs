//! `ln_u`: accuracy against the platform's `ln` (an independent source) and
//! monotonicity across every range-reduction boundary (SPEC.md §5.2).

mod common;

use common::Prng;
use longstraw::ln::{ln_unit, neg_ln_q64};

fn score_of(m: u64) -> u64 {
    (m - 1) << 11
}

fn check_close(m: u64) {
    let got = ln_unit(score_of(m));
    let u = m as f64 / 9_007_199_254_740_992.0; // exact: m <= 2^53
    let want = u.ln();
    // The fixed-point result is within 2^-60 absolute; the platform ln is within an ulp or so.
    let tol = 2f64.powi(-58) + 4.0 * want.abs() * f64::EPSILON;
    assert!((got - want).abs() <= tol, "m={m}: {got:e} vs {want:e}");
}

#[test]
fn matches_the_platform_ln_within_the_documented_error() {
    let mut rng = Prng(7);
    for _ in 0..200_000 {
        let m = (rng.next() >> 11) + 1;
        check_close(m);
    }
    for e in 0..=53u32 {
        let p = 1u64 << e;
        for m in p.saturating_sub(50).max(1)..=(p + 50).min(1 << 53) {
            check_close(m);
        }
    }
}

#[test]
fn monotone_across_every_boundary() {
    for e in 0..=53u32 {
        let p = 1u64 << e;
        let lo = p.saturating_sub(5_000).max(1);
        let hi = (p + 5_000).min(1 << 53);
        let mut prev_q = neg_ln_q64(lo);
        let mut prev = ln_unit(score_of(lo));
        for m in lo + 1..=hi {
            let q = neg_ln_q64(m);
            let v = ln_unit(score_of(m));
            assert!(q < prev_q, "fixed point not strictly decreasing at m={m}");
            assert!(v >= prev, "ln_u decreased at m={m}: {prev:e} -> {v:e}");
            // Consecutive values are more than 2^-54 apart in exact arithmetic (>= 1024 units).
            assert!(prev_q - q >= 1000, "gap too small at m={m}: {}", prev_q - q);
            prev_q = q;
            prev = v;
        }
    }
}

#[test]
fn monotone_on_random_consecutive_pairs() {
    let mut rng = Prng(99);
    for _ in 0..500_000 {
        let m = (rng.next() >> 11).max(1);
        if m >= 1 << 53 {
            continue;
        }
        assert!(ln_unit(score_of(m)) <= ln_unit(score_of(m + 1)), "m={m}");
        assert!(neg_ln_q64(m) > neg_ln_q64(m + 1), "m={m}");
    }
}

#[test]
fn scores_sharing_the_top_53_bits_share_ln() {
    assert_eq!(ln_unit(0).to_bits(), ln_unit(2047).to_bits());
    assert_ne!(ln_unit(2047).to_bits(), ln_unit(2048).to_bits());
    assert_eq!(ln_unit(u64::MAX), 0.0);
}
