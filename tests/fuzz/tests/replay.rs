//! Replays every file of `fuzz/corpus/<target>/` through its check (so
//! `cargo test` catches a regression that `make fuzz` once found), then runs
//! each target briefly on seeded pseudo-random inputs.

use std::path::PathBuf;

use longstraw_fuzz_checks::{run, TARGETS};

fn corpus(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

#[test]
fn every_corpus_file_passes_its_check() {
    for target in TARGETS {
        let dir = corpus(target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (the corpus of target {target} is missing)", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: no corpus files", dir.display());
        for f in &files {
            let data = std::fs::read(f).expect("a corpus file");
            run(target, &data);
        }
        println!("{target}: replayed {} corpus files", files.len());
    }
}

/// splitmix64: a fixed input stream, the same on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn every_target_runs_briefly_on_random_inputs() {
    let runs: usize = std::env::var("FUZZ_REPLAY_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    for target in TARGETS {
        let started = std::time::Instant::now();
        let mut state = 0x1057_57A4u64 ^ target.len() as u64;
        for _ in 0..runs {
            let len = (next(&mut state) % 512) as usize;
            let data: Vec<u8> = (0..len).map(|_| next(&mut state) as u8).collect();
            run(target, &data);
        }
        println!("{target}: {runs} random inputs in {:.2?}", started.elapsed());
    }
}
