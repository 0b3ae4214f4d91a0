//! `longstraw check` lists every problem of a file at once, shows a balanced
//! table's balance, names a keyed file's secret source instead of a seed,
//! and says io errors plainly.

use std::path::Path;
use std::process::{Command, Output};

fn longstraw(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_longstraw"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn check_lists_every_problem_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let text = "seed = \"+5\"\n\
                [[nodes]]\nid = \"a\"\nweight = -1\n\
                [[nodes]]\nid_hex = \"+1+2\"\nweight = \"2\"\n\
                [[nodes]]\nid = \"c\"\nweight = 9007199254740993\n";
    let path = write(dir.path(), "bad.toml", text);
    let out = longstraw(&["check", "-m", &path], &[]);
    assert!(!out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let want = [
        format!("{path}:1: seed: "),
        format!("{path}:4: nodes[0].weight: invalid weight"),
        format!("{path}:6: nodes[1].id_hex: \"+1+2\" is not hex"),
        format!("{path}:7: nodes[1].weight: must be a number such as 2 or 0.5, not a string"),
        format!("{path}:10: nodes[2].weight: the integer 9007199254740993 is not exactly a 64-bit float"),
    ];
    assert_eq!(lines.len(), want.len(), "{stdout}");
    for (line, want) in lines.iter().zip(&want) {
        assert!(line.starts_with(want.as_str()), "{line}\nwanted {want}");
    }
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr, format!("longstraw: {path}: 5 problems\n"));

    // Problems between nodes, once every node is valid: all of them too.
    let dup = write(
        dir.path(),
        "dup.toml",
        "[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n",
    );
    let out = longstraw(&["check", "-m", &dup], &[]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout,
        format!(
            "{dup}:6: nodes[2]: duplicate node \"a\" (first at line 2)\n{dup}:8: nodes[3]: duplicate node \"b\" (first at line 4)\n"
        )
    );
    // Loading the same file reports the first of them, in the same words.
    let out = longstraw(&["owner", "-m", &dup, "k"], &[]);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!("longstraw: {dup}:6: nodes[2]: duplicate node \"a\" (first at line 2)\n")
    );
}

#[test]
fn check_shows_the_balance_of_a_balanced_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "t.toml",
        "mode = \"table\"\n[table]\nbits = 6\nbalance = 1.25\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n",
    );
    let out = longstraw(&["check", "-m", &path], &[]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("mode: table, 2^6 = 64 partitions, 1 replicas, balance 1.25 (balanced table)\n"),
        "{stdout}"
    );
}

#[test]
fn check_names_a_keyed_files_secret_source_not_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "k.toml",
        "[secret]\nenv = \"LONGSTRAW_CHECK_SECRET\"\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n",
    );
    let secret = "c22e0102030405060708090a0b0c0d0e";
    let out = longstraw(&["check", "-m", &path], &[("LONGSTRAW_CHECK_SECRET", secret)]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.starts_with(
            "ok: 2 nodes (0 drained), keyed (secret from environment variable LONGSTRAW_CHECK_SECRET), placement 1\n"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("seed") && !stdout.contains("c22e"), "{stdout}");
    let unkeyed = write(dir.path(), "u.toml", "seed = 9\n[[nodes]]\nid = \"a\"\n");
    let stdout = String::from_utf8(longstraw(&["check", "-m", &unkeyed], &[]).stdout).unwrap();
    assert!(
        stdout.starts_with("ok: 1 nodes (0 drained), seed 9, placement 1\n"),
        "{stdout}"
    );
}

#[test]
fn io_errors_are_plain_words() {
    let out = longstraw(&["check", "-m", "/nonexistent/m.toml"], &[]);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "longstraw: /nonexistent/m.toml: No such file or directory\n"
    );
}
