//! The `longstraw` binary end to end: answers checked against the frozen
//! vectors, streaming, and every error path (bad files, empty corpora, keys
//! that are not UTF-8, an unknown node in a change).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn longstraw(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_longstraw"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = longstraw(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn fails(args: &[&str], stdin: &[u8]) -> String {
    let out = longstraw(args, stdin);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// `owner` and `top-k` over stdin give the vector answers for fixtures of every mode.
#[test]
fn owner_and_top_k_give_the_vector_answers() {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/membership/manifest.json")).unwrap()).unwrap();
    let mut checked = 0;
    for f in manifest["fixtures"].as_array().unwrap() {
        let vectors = f["vectors"].as_str().unwrap();
        if vectors == "domains-v1.json" {
            continue;
        }
        let case = {
            let text = std::fs::read_to_string(root().join("tests/vectors").join(vectors)).unwrap();
            let v: Value = serde_json::from_str(&text).unwrap();
            v["cases"][f["case"].as_u64().unwrap() as usize].clone()
        };
        let ids: Vec<Vec<u8>> = case["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| hex(n["id_hex"].as_str().unwrap()))
            .collect();
        // Keys with a newline cannot travel as lines; the rest can, whatever their bytes.
        let keys: Vec<(Vec<u8>, &Value)> = case["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| (hex(k["key_hex"].as_str().unwrap()), k))
            .filter(|(k, v)| !k.contains(&b'\n') && k.last() != Some(&b'\r') && !v["owner"].is_null())
            .collect();
        if keys.is_empty() {
            continue;
        }
        let mut input = Vec::new();
        for (k, _) in &keys {
            input.extend_from_slice(k);
            input.push(b'\n');
        }
        let file = root().join("tests/membership").join(f["file"].as_str().unwrap());
        let file = file.to_str().unwrap();
        let out = ok(&["top-k", "-m", file, "-k", "3", "-f", "json"], &input);
        let lines: Vec<Value> = out
            .split(|&c| c == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        assert_eq!(lines.len(), keys.len());
        for ((_, want), got) in keys.iter().zip(&lines) {
            let ranked: Vec<&Vec<u8>> = want["ranked"]
                .as_array()
                .unwrap()
                .iter()
                .take(3)
                .map(|i| &ids[i.as_u64().unwrap() as usize])
                .collect();
            let nodes: Vec<Vec<u8>> = got["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| match n {
                    Value::String(s) => s.as_bytes().to_vec(),
                    o => hex(o["hex"].as_str().unwrap()),
                })
                .collect();
            assert_eq!(nodes.iter().collect::<Vec<_>>(), ranked, "{file}");
            checked += 1;
        }
        let owners = ok(&["owner", "-m", file], &input);
        let first_lines = owners.split(|&c| c == b'\n').filter(|l| !l.is_empty()).count();
        assert_eq!(first_lines, keys.len());
    }
    assert!(checked > 500, "only {checked} keys checked");
}

#[test]
fn keys_are_bytes_and_lines_map_to_keys_as_documented() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(
        dir.path(),
        "m.toml",
        "[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid_hex = \"ff00\"\n",
    );
    // Invalid UTF-8, an empty line (the empty key), CRLF, and a last line with no newline.
    let input = b"\xff\xfekey\n\nwin\r\nlast";
    let out = ok(&["owner", "-m", &m], input);
    let lines: Vec<&[u8]> = out.split(|&c| c == b'\n').filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with(b"\xff\xfekey\t"));
    assert!(lines[1].starts_with(b"\t"));
    assert!(lines[2].starts_with(b"win\t"));
    assert!(lines[3].starts_with(b"last\t"));
    // The same key by argument gives the same owner as by line.
    assert_eq!(
        ok_args(&["owner", "-m", &m, "win"]),
        lines[2].iter().copied().chain([b'\n']).collect::<Vec<u8>>()
    );
    let json = String::from_utf8(ok(&["owner", "-m", &m, "-f", "json"], b"\xff\n")).unwrap();
    assert!(json.starts_with("{\"key\":{\"hex\":\"ff\"},\"owner\":"), "{json}");
    // A file of keys works like stdin.
    let keys = dir.path().join("keys");
    std::fs::write(&keys, input).unwrap();
    assert_eq!(
        ok(&["owner", "-m", &m, "--keys-file", keys.to_str().unwrap()], b""),
        out
    );
}

fn ok_args(args: &[&str]) -> Vec<u8> {
    ok(args, b"")
}

#[test]
fn summary_counts_every_key() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(
        dir.path(),
        "m.toml",
        "[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\nweight = 3\n",
    );
    let input: Vec<u8> = (0..40_000).flat_map(|i| format!("user:{i}\n").into_bytes()).collect();
    let out = String::from_utf8(ok(&["owner", "-m", &m, "-f", "summary"], &input)).unwrap();
    assert!(out.starts_with("keys\t40000\n"), "{out}");
    let b: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with("b\t"))
        .unwrap()
        .split('\t')
        .collect();
    let share: f64 = b[2].parse().unwrap();
    // 3/4 ± 5 sd of a binomial share over 40,000 keys.
    assert!(
        (share - 0.75).abs() < 5.0 * (0.75f64 * 0.25 / 40_000.0).sqrt(),
        "{share}"
    );
}

#[test]
fn check_reports_every_problem_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let dup = write(
        dir.path(),
        "dup.toml",
        "[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\n",
    );
    let out = longstraw(&["check", "-m", &dup], b"");
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("dup.toml:8: nodes[2]: duplicate node \"a\" (first at line 2)"),
        "{text}"
    );
    assert!(
        text.contains("dup.toml:11: nodes[3]: duplicate node \"b\" (first at line 5)"),
        "{text}"
    );
    let bad = write(dir.path(), "bad.toml", "seed = 1\n[[nodes]]\nid = \"a\"\nweight = -2\n");
    let e = String::from_utf8_lossy(&longstraw(&["check", "-m", &bad], b"").stdout).into_owned();
    assert!(e.contains("bad.toml:4: nodes[0].weight:"), "{e}");
    let good = write(
        dir.path(),
        "good.toml",
        "mode = \"table\"\n[table]\nbits = 8\n[[nodes]]\nid = \"a\"\ndomain = \"r1\"\n[[nodes]]\nid = \"b\"\nweight = 3.0\ndomain = \"r2\"\n",
    );
    let text = String::from_utf8(ok_args(&["check", "-m", &good])).unwrap();
    assert!(text.contains("mode: table, 2^8 = 256 partitions"), "{text}");
    assert!(text.contains("b\t3\tr2\t0.750000\t"), "{text}");
    let drained = write(dir.path(), "drained.toml", "[[nodes]]\nid = \"a\"\nweight = 0\n");
    assert!(fails(&["check", "-m", &drained], b"").contains("1 problem"));
    assert!(fails(&["owner", "-m", &drained, "k"], b"").contains("no eligible node"));
}

#[test]
fn bad_files_and_empty_corpora_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "m.toml", "[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n");
    let e = fails(&["owner", "-m", "/nonexistent.toml", "k"], b"");
    assert!(e.contains("/nonexistent.toml"), "{e}");
    let typo = write(dir.path(), "typo.toml", "[[nodes]]\nid = \"a\"\nwieght = 1\n");
    let e = fails(&["owner", "-m", &typo, "k"], b"");
    assert!(e.contains("typo.toml:3:") && e.contains("wieght"), "{e}");
    let not_toml = write(dir.path(), "x.toml", "[[nodes]\n");
    assert!(String::from_utf8_lossy(&longstraw(&["check", "-m", &not_toml], b"").stdout).contains("x.toml:1:"));
    let keyed = write(
        dir.path(),
        "k.toml",
        "[secret]\nenv = \"LONGSTRAW_TEST_SECRET\"\n[[nodes]]\nid = \"a\"\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_longstraw"))
        .args(["owner", "-m", &keyed, "k"])
        .env("LONGSTRAW_TEST_SECRET", "hunter2-hunter2-hunter2")
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && e.contains("hexadecimal") && !e.contains("hunter2"),
        "{e}"
    );
    // 32 hex digits make a keyed set: it answers, and differs from the unkeyed file on some key.
    let unkeyed = write(
        dir.path(),
        "u.toml",
        "[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"c\"\n",
    );
    let keyed3 = write(
        dir.path(),
        "k3.toml",
        "[secret]\nenv = \"LONGSTRAW_TEST_SECRET\"\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"c\"\n",
    );
    let keys: Vec<String> = (0..64).map(|i| format!("user:{i}")).collect();
    let owners = |file: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_longstraw"))
            .arg("owner")
            .args(["-m", file])
            .args(&keys)
            .env("LONGSTRAW_TEST_SECRET", "000102030405060708090a0b0c0d0e0f")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(!text.contains("000102030405"), "the secret was printed");
        text
    };
    // Independent placements over 3 nodes agree on a key with probability 1/3: all 64 agreeing is (1/3)^64.
    assert_ne!(owners(&keyed3), owners(&unkeyed));

    let empty = write(dir.path(), "empty.txt", "");
    let e = fails(&["plan", "--from", &m, "--to", &m, "--keys", &empty], b"");
    assert!(e.contains("empty"), "{e}");
    let e = fails(&["lab", "-m", &m, "--keys", &empty], b"");
    assert!(e.contains("empty"), "{e}");
    // No keys on stdin: nothing to answer, and that is not an error.
    assert!(ok(&["owner", "-m", &m], b"").is_empty());
    assert!(fails(&["top-k", "-m", &m, "-k", "0", "x"], b"").contains("-k"));
    assert!(fails(&["plan", "--from", &m, "--to", &m, "--partitions"], b"").contains("table"));
}

#[test]
fn plan_prints_the_summary_and_the_moves() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(
        dir.path(),
        "old.toml",
        "[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"c\"\n",
    );
    let new = write(
        dir.path(),
        "new.toml",
        "[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"c\"\n[[nodes]]\nid = \"d\"\n",
    );
    let keys = dir.path().join("keys");
    std::fs::write(
        &keys,
        (0..30_000)
            .flat_map(|i| format!("k{i}\n").into_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let keys = keys.to_str().unwrap();
    let out = String::from_utf8(ok_args(&["plan", "--from", &old, "--to", &new, "--keys", keys])).unwrap();
    let get = |name: &str| -> u64 {
        out.lines()
            .find(|l| l.starts_with(&format!("{name}\t")))
            .unwrap()
            .split('\t')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap()
    };
    // Adding d moves only keys to d, and exactly as many as d gets: moved = optimum.
    let d: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with("d\t"))
        .unwrap()
        .split('\t')
        .collect();
    assert_eq!(d[1], "0");
    assert_eq!(get("moved"), d[4].parse::<u64>().unwrap());
    assert_eq!(get("moved"), get("optimum"));
    // 1/4 ± 5 sd of a binomial over 30,000 keys.
    let moved = get("moved") as f64 / 30_000.0;
    assert!(
        (moved - 0.25).abs() < 5.0 * (0.25f64 * 0.75 / 30_000.0).sqrt(),
        "{moved}"
    );
    // CSV moves to stdout, the summary to stderr.
    let csv = longstraw(
        &["plan", "--from", &old, "--to", &new, "--keys", keys, "--moves", "csv"],
        b"",
    );
    let text = String::from_utf8(csv.stdout).unwrap();
    assert!(text.starts_with("key,key_hex,from,to\n"));
    assert_eq!(text.lines().count() as u64 - 1, get("moved"));
    assert!(text.lines().skip(1).all(|l| l.ends_with(",d")));
    assert!(String::from_utf8_lossy(&csv.stderr).contains("optimum"));
    // Replicas: copies created on d, dropped elsewhere.
    let rep = String::from_utf8(ok_args(&[
        "plan",
        "--from",
        &old,
        "--to",
        &new,
        "--keys",
        keys,
        "--replicas",
        "2",
    ]))
    .unwrap();
    assert!(
        rep.contains("copies_created\t") && rep.contains("copies_dropped\t"),
        "{rep}"
    );
    // Partitions of two tables.
    let t_old = write(
        dir.path(),
        "told.toml",
        "mode = \"table\"\n[table]\nbits = 10\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n",
    );
    let t_new = write(
        dir.path(),
        "tnew.toml",
        "mode = \"table\"\n[table]\nbits = 10\n[[nodes]]\nid = \"a\"\n[[nodes]]\nid = \"b\"\n[[nodes]]\nid = \"c\"\n",
    );
    let p = String::from_utf8(ok_args(&["plan", "--from", &t_old, "--to", &t_new, "--partitions"])).unwrap();
    assert!(p.starts_with("partitions\t1024\n"), "{p}");
}

/// Two ids with equal node hashes under seed 0 (found offline; tests/c/test_api.c has the search).
const COLLIDE_A: &str = "e7002bcbbd9f33ac636f6c6c69646521";
const COLLIDE_B: &str = "7664c141ea2e9548636f6c6c69646521";

#[test]
fn check_names_hash_collisions_and_another_seed_fixes_them() {
    let dir = tempfile::tempdir().unwrap();
    let text = |seed: u64| {
        format!("seed = {seed}\n[[nodes]]\nid = \"x\"\n[[nodes]]\nid_hex = \"{COLLIDE_A}\"\n[[nodes]]\nid_hex = \"{COLLIDE_B}\"\n")
    };
    let bad = write(dir.path(), "collide.toml", &text(0));
    let out = longstraw(&["check", "-m", &bad], b"");
    assert!(!out.status.success());
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("collide.toml:7: nodes[2]: node 0x7664")
            && report.contains("same hash as node 0xe700")
            && report.contains("(the other node is at line 5)"),
        "{report}"
    );
    let e = fails(&["owner", "-m", &bad, "k"], b"");
    assert!(
        e.contains("collide.toml:7: nodes[2]:") && e.contains("same hash"),
        "{e}"
    );
    let good = write(dir.path(), "ok.toml", &text(1));
    assert!(String::from_utf8(ok_args(&["check", "-m", &good]))
        .unwrap()
        .starts_with("ok: 3 nodes"));
}
