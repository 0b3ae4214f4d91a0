//! Times loading a flat membership file of N `[[nodes]]` (id and weight):
//! `cargo run --release -p longstraw-membership --example load_time -- N`.
//! Prints the file size and the seconds spent reading, parsing (TOML and
//! validation) and building the set.

use std::fmt::Write as _;
use std::time::Instant;

use longstraw_membership::Membership;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(1_000_000, |a| a.parse().expect("N: a node count"));
    let mut text = String::from("seed = 7\nmode = \"flat\"\n");
    for i in 0..n {
        let _ = write!(text, "\n[[nodes]]\nid = \"node-{i:08}\"\nweight = {}.5\n", 1 + i % 7);
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("big.toml");
    std::fs::write(&path, &text).expect("the file is written");

    let start = Instant::now();
    let toml_only: toml::Table = toml::from_str(&text).expect("TOML");
    let toml_s = start.elapsed().as_secs_f64();
    drop(toml_only);

    let start = Instant::now();
    let m = Membership::read(&path).expect("a valid file");
    let read_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let loaded = m.build().expect("a valid set");
    let build_s = start.elapsed().as_secs_f64();
    drop(loaded);
    let start = Instant::now();
    let loaded = longstraw_membership::load(&path).expect("a valid file");
    let load_s = start.elapsed().as_secs_f64();
    drop(loaded);
    println!(
        "nodes {n}, {:.1} MB: toml::Table alone {toml_s:.3} s; read+parse {read_s:.3} s; build {build_s:.3} s; load (both) {load_s:.3} s",
        text.len() as f64 / 1e6
    );
}
