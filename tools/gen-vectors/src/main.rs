//! Writes tests/vectors/placement-v1.json from the scalar oracle.
//!
//! `cargo run -p longstraw-gen-vectors -- tests/vectors/placement-v1.json`
//! writes the file; with `--check` it fails if the file differs from what it
//! would write. The file is frozen: never regenerate it to make a test pass.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let path =
        args.iter().find(|a| !a.starts_with("--")).cloned().unwrap_or_else(|| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors/placement-v1.json").to_owned()
        });
    let text = longstraw_gen_vectors::placement_v1();
    if check {
        match std::fs::read_to_string(&path) {
            Ok(existing) if existing == text => {
                println!("{path}: up to date");
                ExitCode::SUCCESS
            }
            Ok(_) => {
                eprintln!("{path}: differs from what the oracle generates; placement v1 has drifted");
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                ExitCode::FAILURE
            }
        }
    } else {
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {path}");
        ExitCode::SUCCESS
    }
}
