//! The demo corpus, placed by the Rust set: the reference that `make demo-c`
//! and `make demo-go` compare the C and Go output with, line by line.
//!
//! `cargo run --release -p longstraw-ffi --example corpus`

use longstraw_set::{Options, Rendezvous, Snapshot};

const NODES: usize = 10;
const KEYS: usize = 100_000;

fn id(snap: &Snapshot, index: u32) -> String {
    String::from_utf8_lossy(snap.node(index).expect("index from this snapshot").id()).into_owned()
}

fn main() {
    let ids: Vec<String> = (0..NODES).map(|i| format!("cache-{i}")).collect();
    let keys: Vec<String> = (0..KEYS).map(|i| format!("user:{i}")).collect();
    let set = Rendezvous::flat(&ids, Options::default()).expect("valid nodes");
    let before = set.snapshot();
    println!("corpus: {NODES} nodes cache-0..cache-9, {KEYS} keys user:0..user:99999, seed 0, placement v1");
    for key in keys.iter().take(8).chain(std::iter::once(&"user:42".to_owned())) {
        let owner = before.owner(key.as_bytes()).expect("non-empty set");
        let top: Vec<String> = before
            .top_k(key.as_bytes(), 3)
            .iter()
            .map(|n| id(&before, n.index()))
            .collect();
        println!("{key} -> {} (top 3: {})", id(&before, owner.index()), top.join(" "));
    }
    let owners = before.owners(&keys).expect("non-empty set");
    let mut counts = [0usize; NODES];
    for &o in &owners {
        counts[o as usize] += 1;
    }
    for (i, c) in counts.iter().enumerate() {
        println!("{} owns {c}", id(&before, i as u32));
    }
    set.remove("cache-3").expect("present");
    let after = set.snapshot();
    let moved: Vec<(u32, u32)> = keys
        .iter()
        .zip(&owners)
        .map(|(k, &o)| (o, after.owner(k.as_bytes()).expect("non-empty").index()))
        .filter(|&(o, n)| id(&before, o) != id(&after, n))
        .collect();
    let all_from_3 = moved.iter().all(|&(o, _)| id(&before, o) == "cache-3");
    println!(
        "remove cache-3: {} keys moved, all from cache-3: {all_from_3}",
        moved.len()
    );
}
