//! Writes the golden vector files in tests/vectors from the scalar code paths.
//!
//! `cargo run -p longstraw-gen-vectors` writes all of them;
//! `cargo run -p longstraw-gen-vectors -- [--check] [FILE...]` writes (or, with
//! `--check`, compares) the named files, chosen by file name:
//! placement-v1.json, table-v1.json, skeleton-v1.json, domains-v1.json,
//! placement-v1-edges.json, table-balanced-v1.json,
//! keyed-v1.json. Files that tests/spec writes from the independent
//! implementation (table-balanced-caps-v1.json) are only checked: `--check`
//! reads them and compares every value with what the code computes.
//! `--search-ties` reruns the (slow) search for the
//! tie cases of placement-v1-edges.json and prints its constants.
//! The files are frozen: never regenerate one to make a test pass.

use std::path::Path;
use std::process::ExitCode;

/// Writes one vectors file's text.
type Generator = fn() -> String;

/// File name -> generator.
const FILES: [(&str, Generator); 7] = [
    ("placement-v1.json", longstraw_gen_vectors::placement_v1),
    ("table-v1.json", longstraw_gen_vectors::table_v1),
    ("skeleton-v1.json", longstraw_gen_vectors::skeleton_v1),
    ("domains-v1.json", longstraw_gen_vectors::domains_v1),
    ("placement-v1-edges.json", longstraw_gen_vectors::placement_v1_edges),
    ("table-balanced-v1.json", longstraw_gen_vectors::table_balanced_v1),
    ("keyed-v1.json", longstraw_gen_vectors::keyed_v1),
];

/// Checks one file that this tool does not write; `Ok` holds how many entries it checked.
type Checker = fn(&str) -> Result<usize, String>;

/// File name -> checker, for the files that tests/spec writes.
const CHECKED: [(&str, Checker); 1] = [(
    "table-balanced-caps-v1.json",
    longstraw_gen_vectors::check_table_balanced,
)];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--search-ties") {
        longstraw_gen_vectors::print_tie_search();
        return ExitCode::SUCCESS;
    }
    let check = args.iter().any(|a| a == "--check");
    let mut paths: Vec<String> = args.iter().filter(|a| !a.starts_with("--")).cloned().collect();
    if paths.is_empty() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors");
        paths = FILES.iter().map(|(name, _)| format!("{dir}/{name}")).collect();
        if check {
            paths.extend(CHECKED.iter().map(|(name, _)| format!("{dir}/{name}")));
        }
    }
    let mut ok = true;
    for path in &paths {
        let name = Path::new(path).file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some((_, verify)) = CHECKED.iter().find(|(n, _)| *n == name) {
            if !check {
                eprintln!("{path}: written by tests/spec, not by this tool; only --check reads it");
                ok = false;
                continue;
            }
            match std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|t| verify(&t))
            {
                Ok(n) => println!("{path}: the code agrees ({n} entries)"),
                Err(e) => {
                    eprintln!("{path}: {e}");
                    ok = false;
                }
            }
            continue;
        }
        let Some((_, generate)) = FILES.iter().find(|(n, _)| *n == name) else {
            eprintln!(
                "{path}: unknown vectors file (known: {})",
                FILES.map(|(n, _)| n).join(", ")
            );
            ok = false;
            continue;
        };
        let text = generate();
        if check {
            match std::fs::read_to_string(path) {
                Ok(existing) if existing == text => println!("{path}: up to date"),
                Ok(_) => {
                    eprintln!("{path}: differs from what the code generates; placement has drifted");
                    ok = false;
                }
                Err(e) => {
                    eprintln!("{path}: {e}");
                    ok = false;
                }
            }
        } else if let Err(e) = std::fs::write(path, text) {
            eprintln!("{path}: {e}");
            ok = false;
        } else {
            println!("wrote {path}");
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
