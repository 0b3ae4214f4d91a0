//! `make demo` (Rust part): place a corpus of keys, then show what moves when
//! the membership changes, next to `hash mod n`.

use longstraw::key_hash;
use longstraw_set::{Options, Rendezvous, Snapshot};

const KEYS: usize = 100_000;

fn owners(snap: &Snapshot, keys: &[String]) -> Vec<Vec<u8>> {
    keys.iter()
        .map(|k| snap.owner(k.as_bytes()).expect("non-empty set").id().to_vec())
        .collect()
}

/// The node each key gets under `hash mod n` (compared by id, not by position).
fn mod_n<'a>(keys: &[String], ids: &'a [String]) -> Vec<&'a str> {
    keys.iter()
        .map(|k| ids[(key_hash(k.as_bytes(), 0) % ids.len() as u64) as usize].as_str())
        .collect()
}

fn moved<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

fn pct(x: usize) -> String {
    format!("{:5.2}%", 100.0 * x as f64 / KEYS as f64)
}

fn bar(share: f64, scale: f64) -> String {
    "#".repeat((share * scale).round() as usize)
}

fn show_shares(title: &str, snap: &Snapshot, keys: &[String]) {
    println!("  {title}");
    let own = owners(snap, keys);
    for node in snap.nodes() {
        let n = own.iter().filter(|o| o.as_slice() == node.id()).count();
        let share = n as f64 / KEYS as f64;
        println!(
            "    {:<8} w={:<4} {:6.2}% {}",
            String::from_utf8_lossy(node.id()),
            node.weight(),
            100.0 * share,
            bar(share, 120.0)
        );
    }
}

/// The cross-language check of `make demo`: every language writes the owners of
/// the same keys to `build/demo/placements-<lang>.txt`, and `make demo` compares them.
fn write_placements(r: &Rendezvous) {
    let snap = r.load();
    let mut text = String::new();
    for i in 0..20 {
        let key = format!("user:{i}");
        let owner = snap.owner(key.as_bytes()).expect("non-empty set");
        text.push_str(&format!("{key}\t{}\n", String::from_utf8_lossy(owner.id())));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../build/demo");
    if std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(dir.join("placements-rust.txt"), text))
        .is_err()
    {
        eprintln!("could not write build/demo/placements-rust.txt");
    }
}

fn main() {
    let keys: Vec<String> = (0..KEYS).map(|i| format!("user:{i}")).collect();
    let ids: Vec<String> = (0..10).map(|i| format!("cache-{i}")).collect();
    let r = Rendezvous::flat(&ids, Options::default()).expect("valid nodes");
    println!(
        "longstraw demo (Rust): {KEYS} keys over {} nodes, backend {}",
        ids.len(),
        r.load().backend().name()
    );
    println!(
        "  user:42 -> {}",
        String::from_utf8_lossy(r.load().owner(b"user:42").unwrap().id())
    );
    let top: Vec<String> = r
        .load()
        .top_k(b"user:42", 3)
        .iter()
        .map(|n| String::from_utf8_lossy(n.id()).into_owned())
        .collect();
    println!("  user:42 replicas (top 3) -> {}", top.join(", "));
    show_shares("shares with 10 equal nodes:", &r.load(), &keys);
    write_placements(&r);

    let before = owners(&r.load(), &keys);
    let mod_before = mod_n(&keys, &ids);

    println!("\n  what moves                          longstraw     hash mod n   ideal");
    r.add("cache-10", 1.0).unwrap();
    let after = owners(&r.load(), &keys);
    let ids11: Vec<String> = (0..11).map(|i| format!("cache-{i}")).collect();
    let only_to_new = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .all(|(_, a)| a == b"cache-10");
    println!(
        "  add cache-10 (10 -> 11 nodes)      {}       {}       {}   (moved keys all went to cache-10: {only_to_new})",
        pct(moved(&before, &after)),
        pct(moved(&mod_before, &mod_n(&keys, &ids11))),
        pct(KEYS / 11)
    );
    r.remove("cache-10").unwrap();

    r.remove("cache-3").unwrap();
    let after = owners(&r.load(), &keys);
    let ids9: Vec<String> = ids.iter().filter(|i| *i != "cache-3").cloned().collect();
    let only_from_gone = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .all(|(b, _)| b == b"cache-3");
    println!(
        "  remove cache-3 (10 -> 9 nodes)     {}       {}       {}   (moved keys all came from cache-3: {only_from_gone})",
        pct(moved(&before, &after)),
        pct(moved(&mod_before, &mod_n(&keys, &ids9))),
        pct(KEYS / 10)
    );
    r.add("cache-3", 1.0).unwrap();

    r.set_weight("cache-5", 2.0).unwrap();
    let after = owners(&r.load(), &keys);
    let only_to_5 = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .all(|(_, a)| a == b"cache-5");
    println!(
        "  reweight cache-5 1 -> 2            {}          n/a       {}   (moved keys all went to cache-5: {only_to_5})",
        pct(moved(&before, &after)),
        pct(KEYS * 9 / 110) // from 1/10 of the keys to 2/11 of them
    );
    show_shares(
        "\n  shares after cache-5 gets weight 2 (ideal 18.18% for cache-5, 9.09% for the rest):",
        &r.load(),
        &keys,
    );
}
