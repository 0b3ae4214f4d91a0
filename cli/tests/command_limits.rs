//! The command's edges: a huge `-k`, an endless line, a reader that goes
//! away, one flag for key files and one JSON shape for keys and ids.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use longstraw_cli::stream::for_each_chunk_limited;
use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_longstraw"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write(dir: &Path, name: &str, body: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p.display().to_string()
}

const FLEET: &str = "[[nodes]]\nid = \"a\"\ndomain = \"r1\"\n[[nodes]]\nid = \"b\"\ndomain = \"r2\"\n[[nodes]]\nid_hex = \"ff01\"\ndomain = \"r2\"\n";

/// A k beyond the node count gives every eligible node (as `top_k` does), never an abort.
#[test]
fn a_huge_k_is_the_whole_ranking() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "m.toml", FLEET.as_bytes());
    let all = run(&["top-k", "-m", &m, "-k", "3", "user:1", "user:2"]);
    assert!(all.status.success());
    assert_eq!(text(&all.stdout).lines().next().unwrap().split('\t').count(), 4);
    for k in ["1099511627776", "18446744073709551615"] {
        for distinct in [false, true] {
            let mut args = vec!["top-k", "-m", &m, "-k", k, "user:1", "user:2"];
            if distinct {
                args.push("--distinct");
            }
            let out = run(&args);
            assert_eq!(out.status.code(), Some(0), "-k {k}: {}", text(&out.stderr));
            if !distinct {
                assert_eq!(out.stdout, all.stdout, "-k {k}");
            }
        }
        // Through stdin too (the streaming path keeps per-thread scratch).
        let out = Command::new(env!("CARGO_BIN_EXE_longstraw"))
            .args(["top-k", "-m", &m, "-k", k, "--keys", &m])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "-k {k}: {}", text(&out.stderr));
        // And as a plan's replica count.
        let out = run(&[
            "plan",
            "--from",
            &m,
            "--to",
            &m,
            "--keys",
            &m,
            "--replicas",
            k,
            "--plain",
        ]);
        assert_eq!(out.status.code(), Some(0), "--replicas {k}: {}", text(&out.stderr));
    }
}

/// A line with no end (/dev/zero) is a clear error naming the line and the limit, not an abort.
#[test]
fn an_endless_line_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "m.toml", FLEET.as_bytes());
    if Path::new("/dev/zero").exists() {
        for args in [
            vec!["top-k", "-m", &m, "--keys", "/dev/zero"],
            vec!["owner", "-m", &m, "--keys", "/dev/zero"],
            vec!["plan", "--from", &m, "--to", &m, "--keys", "/dev/zero"],
            vec!["lab", "-m", &m, "--keys", "/dev/zero"],
        ] {
            let out = run(&args);
            let e = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {e}");
            assert!(
                e.contains("/dev/zero: line 1: longer than the limit of 16777216 bytes"),
                "{args:?}: {e}"
            );
        }
    }
    // The line number is the long line's, after short ones.
    let mut body = b"a\nb\r\n\nc\n".to_vec();
    body.extend(std::iter::repeat_n(b'x', (1 << 24) + 1));
    body.extend_from_slice(b"\nd\n");
    let keys = write(dir.path(), "long.txt", &body);
    let out = run(&["owner", "-m", &m, "--keys", &keys]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("long.txt: line 5: longer than the limit"),
        "{}",
        text(&out.stderr)
    );
    // A line of exactly the limit is a key.
    let mut body = vec![b'y'; 1 << 24];
    body.extend_from_slice(b"\r\nz");
    let keys = write(dir.path(), "limit.txt", &body);
    let out = run(&["owner", "-m", &m, "--keys", &keys, "-f", "summary"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("keys\t2\n"));
}

#[test]
fn the_line_limit_counts_lines_across_chunks() {
    for (input, limit, line) in [
        (&b"ab\ncd\nefghij\n"[..], 4, Some(3)),
        (b"ab\ncd\nefgh\r\n", 4, None),
        (b"ab\ncd\nefghi", 4, Some(3)),
        (b"\n\n\n\n12345", 4, Some(5)),
    ] {
        let mut states = [0usize];
        let r = for_each_chunk_limited(
            input,
            limit,
            &mut states,
            &mut std::io::sink(),
            &indicatif::ProgressBar::hidden(),
            |_, _, _| {},
        );
        match line {
            None => assert!(r.is_ok()),
            Some(n) => {
                let e = r.unwrap_err().to_string();
                assert!(
                    e.starts_with(&format!("line {n}: longer than the limit of {limit} bytes")),
                    "{e}"
                );
            }
        }
    }
}

/// `longstraw owner ... | head -1`: the reader leaves, the command stops quietly with exit 0.
#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "m.toml", FLEET.as_bytes());
    let keys = write(
        dir.path(),
        "keys.txt",
        (0..400_000)
            .map(|i| format!("user:{i}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    for args in [
        vec!["owner", "-m", &m, "--keys", &keys],
        vec!["top-k", "-m", &m, "-k", "2", "--keys", &keys, "-f", "json"],
        vec!["plan", "--from", &m, "--to", &m, "--keys", &keys, "--moves", "csv"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_longstraw"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The reader is dropped here: the pipe is closed.
        let out = child.wait_with_output().unwrap();
        assert!(!first.is_empty());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        assert!(
            !text(&out.stderr).contains("Broken pipe"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// One flag for key files (`--keys FILE`) and one JSON shape for keys and ids everywhere.
#[test]
fn one_key_file_flag_and_one_json_shape() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "m.toml", FLEET.as_bytes());
    let other = write(
        dir.path(),
        "o.toml",
        b"[[nodes]]\nid_hex = \"ff01\"\n[[nodes]]\nid = \"c\"\n",
    );
    let mut body = Vec::new();
    for i in 0..200 {
        body.extend_from_slice(format!("k{i}").as_bytes());
        body.extend_from_slice(b"\xfe\n");
        body.extend_from_slice(format!("k{i}\n").as_bytes());
    }
    let keys = write(dir.path(), "keys.txt", &body);
    let owner = run(&["owner", "-m", &m, "--keys", &keys, "-f", "json"]);
    assert!(owner.status.success(), "{}", text(&owner.stderr));
    // The old flag name still works.
    assert_eq!(
        run(&["owner", "-m", &m, "--keys-file", &keys, "-f", "json"]).stdout,
        owner.stdout
    );
    let top = run(&["top-k", "-m", &m, "-k", "3", "--keys", &keys, "-f", "json"]);
    let plan = run(&[
        "plan",
        "--from",
        &m,
        "--to",
        &other,
        "--keys",
        &keys,
        "--replicas",
        "2",
        "--plain",
        "--moves",
        "jsonl",
    ]);
    assert!(plan.status.success(), "{}", text(&plan.stderr));
    let is_one_shape = |v: &Value| match v {
        Value::String(_) => true,
        Value::Object(o) => {
            o.len() == 1
                && o["hex"]
                    .as_str()
                    .is_some_and(|h| h.chars().all(|c| c.is_ascii_hexdigit()))
        }
        _ => false,
    };
    let (mut hex_keys, mut hex_ids) = (0, 0);
    for out in [&owner.stdout, &top.stdout, &plan.stdout] {
        for line in text(out).lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert!(is_one_shape(&v["key"]), "{line}");
            hex_keys += usize::from(v["key"].is_object());
            assert!(v.get("key_hex").is_none(), "{line}");
            for field in ["owner", "nodes", "from", "to", "create", "drop", "source"] {
                let ids = match &v.get(field) {
                    Some(Value::Array(a)) => a.clone(),
                    Some(Value::Null) | None => vec![],
                    Some(x) => vec![(*x).clone()],
                };
                for id in &ids {
                    assert!(is_one_shape(id), "{field} in {line}");
                    hex_ids += usize::from(id == &serde_json::json!({"hex": "ff01"}));
                }
            }
        }
    }
    assert!(hex_keys >= 400 && hex_ids > 100, "{hex_keys} {hex_ids}");
    // The lab names its nodes the same way.
    let lab = run(&["lab", "-m", &m, "--synthetic", "2000", "--json"]);
    assert!(lab.status.success(), "{}", text(&lab.stderr));
    let v: Value = serde_json::from_slice(&lab.stdout).unwrap();
    assert_eq!(v["nodes"][2], serde_json::json!({"hex": "ff01"}));
}
