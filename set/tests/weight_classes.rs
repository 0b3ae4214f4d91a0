//! A flat set with few distinct weights keeps its eligible nodes grouped by
//! weight for the core's class race. After every change (adds, removes,
//! reweights, drains, a ninth distinct weight and back) each snapshot's
//! owner and top-3 equal the spec's brute-force ranking over its own columns.

use longstraw::{rank_order, Ranked};
use longstraw_set::{ModeOptions, Options, Rendezvous};

/// SplitMix64, for reproducible choices.
struct Prng(u64);

impl Prng {
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

fn check(set: &Rendezvous, step: usize) {
    let snap = set.snapshot();
    let table = snap.members().table();
    let (hashes, weights) = (table.hashes(), table.weights().expect("a set has weights"));
    for k in 0..64 {
        let key = format!("key-{step}-{k}");
        let kh = table.key_hash(key.as_bytes());
        let mut want: Vec<Ranked> = (0..hashes.len())
            .filter(|&i| weights[i] != 0.0)
            .map(|i| Ranked::weighted(kh, hashes[i], weights[i], i as u32))
            .collect();
        want.sort_by(rank_order);
        assert_eq!(
            snap.owner_index(key.as_bytes()).ok(),
            want.first().map(|r| r.index),
            "step {step}: owner of {key}"
        );
        let mut top = [0u32; 3];
        let n = snap.top_k_into(key.as_bytes(), &mut top);
        let want3: Vec<u32> = want.iter().take(3).map(|r| r.index).collect();
        assert_eq!(&top[..n], &want3[..], "step {step}: top-3 of {key}");
    }
}

#[test]
fn snapshots_with_weight_classes_rank_as_the_spec_after_every_change() {
    let palette = [0.0, 0.5, 1.0, 2.0, 3.0, 1e-6];
    let mut rng = Prng(0x31_0101);
    let nodes: Vec<(String, f64, Option<String>)> = (0..120)
        .map(|i| (format!("node-{i}"), palette[1 + i % 4], None))
        .collect();
    let set = Rendezvous::new(nodes, Options::default(), ModeOptions::Flat).expect("a valid set");
    let mut next = 120;
    let mut live: Vec<String> = (0..120).map(|i| format!("node-{i}")).collect();
    check(&set, 0);
    for step in 1..150 {
        match rng.below(5) {
            0 => {
                let id = format!("node-{next}");
                next += 1;
                set.add(&id, palette[rng.below(palette.len())]).expect("add");
                live.push(id);
            }
            1 if live.len() > 2 => {
                let id = live.swap_remove(rng.below(live.len()));
                set.remove(&id).expect("remove");
            }
            2 if step % 30 == 2 => {
                // Nine distinct weights, then back to few.
                for (j, id) in live.iter().take(9).enumerate() {
                    set.set_weight(id, 10.0 + j as f64).expect("reweight");
                }
                check(&set, step);
                for id in live.iter().take(9) {
                    set.set_weight(id, 1.0).expect("reweight");
                }
            }
            _ => {
                let id = &live[rng.below(live.len())];
                set.set_weight(id, palette[rng.below(palette.len())]).expect("reweight");
            }
        }
        check(&set, step);
    }
}
