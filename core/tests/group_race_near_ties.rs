//! One skeleton level's group race over columns (upper and lower
//! bounds in vector arithmetic, the exact race only for near-ties) against
//! the exact race, on every backend, for sibling groups whose weighted
//! scores are planted within a relative 0 to 10^-2 of each other, with
//! drained siblings, tiny `1 - u`, and every fan-out up to 64.

use longstraw::skeleton::{race_columns_on, race_exact};
use longstraw::{Backend, MAX_WEIGHT, MIN_WEIGHT};

mod common;

use common::{hash_with_tiny_one_minus_u, neg_ln, Prng, NEAR_TIE_GAPS as GAPS};

#[test]
fn near_tied_siblings_match_the_exact_race_on_every_backend() {
    let mut rng = Prng(0x14_0003);
    let mut checked = 0;
    for trial in 0..6000 {
        let n = 1 + rng.below(64);
        let key_hash = rng.next();
        let mut hashes: Vec<u64> = (0..n).map(|_| rng.next()).collect();
        let mut weights: Vec<f64> = (0..n).map(|_| 1.0 + rng.below(1000) as f64).collect();
        if trial % 4 == 0 {
            for w in weights.iter_mut().step_by(3) {
                *w = 0.0;
            }
        }
        let others_best = (0..n)
            .filter(|&i| weights[i] != 0.0)
            .map(|i| neg_ln(key_hash, hashes[i]) / weights[i])
            .fold(f64::INFINITY, f64::min);
        let target = if others_best.is_finite() {
            others_best * 0.5
        } else {
            1.0
        };
        let mut at = vec![rng.below(n)];
        if n > 1 {
            let b = rng.below(n);
            if b != at[0] {
                at.push(b);
            }
        }
        if trial % 3 == 1 {
            // Tiny 1 - u: the bounds are then nearly exact.
            for &j in &at {
                hashes[j] = hash_with_tiny_one_minus_u(&mut rng, key_hash);
            }
        }
        let mut valid = true;
        for (r, &j) in at.iter().enumerate() {
            let gap = if r == 0 {
                0.0
            } else {
                GAPS[rng.below(GAPS.len())] * if rng.next() & 1 == 0 { 1.0 } else { -1.0 }
            };
            let w = neg_ln(key_hash, hashes[j]) * (1.0 + gap) / target;
            valid &= (MIN_WEIGHT..=MAX_WEIGHT).contains(&w);
            weights[j] = w;
        }
        if !valid {
            continue;
        }
        let want = race_exact(key_hash, &hashes, &weights);
        for backend in Backend::available() {
            assert_eq!(
                race_columns_on(backend, key_hash, &hashes, &weights),
                want,
                "trial {trial} n={n} on {}: leaders at {at:?}",
                backend.name()
            );
        }
        checked += 1;
    }
    assert!(checked > 5000, "only {checked} races were checked");
}
