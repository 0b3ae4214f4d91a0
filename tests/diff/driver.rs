//! Rust driver of the cross-language differential test (tests/diff): runs the
//! cases through `longstraw-set` and prints the canonical answer lines.
//! Built as an example of the ffi crate, which already depends on the set.

use std::fmt::Write as _;
use std::io::Write as _;

use longstraw_set::{Error, Options, Rendezvous};

fn unhex(field: &str) -> Vec<u8> {
    if field == "." {
        return Vec::new();
    }
    (0..field.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&field[i..i + 2], 16).expect("hex"))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return ".".into();
    }
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn class(e: &Error) -> &'static str {
    use longstraw::Error as Core;
    match e {
        Error::Core(Core::EmptyNodeId | Core::NodeIdTooLong { .. }) => "invalid_node_id",
        Error::Core(Core::InvalidWeight { .. }) => "invalid_weight",
        Error::Core(Core::NoEligibleNodes) => "no_eligible",
        Error::DuplicateNode { .. } => "duplicate_node",
        Error::InvalidDomain { .. } => "invalid_domain",
        Error::HashCollision { .. } => "hash_collision",
        _ => "other",
    }
}

struct Set {
    no: String,
    seed: u64,
    nodes: Vec<(Vec<u8>, f64, Option<Vec<u8>>)>,
    keys: Vec<(Vec<u8>, usize)>,
}

fn run(out: &mut String, set: &Set) {
    let r = Rendezvous::flat(
        std::iter::empty::<&[u8]>(),
        Options {
            seed: Some(set.seed),
            ..Options::default()
        },
    )
    .expect("an empty set");
    for (id, weight, domain) in &set.nodes {
        let added = match domain {
            Some(d) => r.add_in_domain(id, *weight, d),
            None => r.add(id, *weight),
        };
        if let Err(e) = added {
            let _ = writeln!(out, "b {} BUILD {}", set.no, class(&e));
            return;
        }
    }
    let snap = r.snapshot();
    let ids = |nodes: Vec<longstraw_set::Node<'_>>| {
        let joined: Vec<String> = nodes.iter().map(|n| hex(n.id())).collect();
        if joined.is_empty() {
            "-".to_string()
        } else {
            joined.join(",")
        }
    };
    for (i, (key, k)) in set.keys.iter().enumerate() {
        match snap.owner(key) {
            Ok(owner) => {
                let _ = writeln!(
                    out,
                    "b {} K{i} {} {} {}",
                    set.no,
                    hex(owner.id()),
                    ids(snap.top_k(key, *k)),
                    ids(snap.top_k_distinct(key, *k))
                );
            }
            Err(e) => {
                let _ = writeln!(out, "b {} K{i} ERR {}", set.no, class(&e));
            }
        }
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: diff_driver CASES");
    let text = std::fs::read_to_string(path).expect("read cases");
    let mut out = String::new();
    let mut set: Option<Set> = None;
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        match f[0] {
            "S" => {
                set = Some(Set {
                    no: f[1].into(),
                    seed: f[2].parse().expect("seed"),
                    nodes: Vec::new(),
                    keys: Vec::new(),
                })
            }
            "N" => set.as_mut().expect("S first").nodes.push((
                unhex(f[1]),
                f[2].parse().expect("weight"),
                (f[3] != "-").then(|| unhex(f[3])),
            )),
            "K" => set
                .as_mut()
                .expect("S first")
                .keys
                .push((unhex(f[1]), f[2].parse().expect("k"))),
            "E" => run(&mut out, set.as_ref().expect("S first")),
            _ => {}
        }
    }
    std::io::stdout().write_all(out.as_bytes()).expect("write");
}
