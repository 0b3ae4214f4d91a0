//! The operator guide's example through the binary: `plan --replicas 2` on a
//! file with failure domains names its rule or refuses, and every row agrees
//! with the `top-k` answer (plain or `--distinct`) it claims to follow, as
//! the `top-k` subcommand prints it for the old and the new file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_longstraw"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `top-k -k 2 [--distinct]` for every key of `keys`: key -> nodes.
fn top_k(members: &str, keys: &str, distinct: bool) -> HashMap<String, Vec<String>> {
    let mut args = vec!["top-k", "-m", members, "-k", "2", "--keys-file", keys];
    if distinct {
        args.push("--distinct");
    }
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| {
            let mut f = l.split('\t');
            let key = f.next().unwrap().to_string();
            (key, f.map(str::to_string).collect())
        })
        .collect()
}

#[test]
fn the_guide_example_plans_what_top_k_says() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys.txt");
    std::fs::write(&keys, (1..=5000).map(|i| format!("user:{i}\n")).collect::<String>()).unwrap();
    let keys = keys.to_str().unwrap();
    let old = root().join("docs/examples/members.toml");
    let new = root().join("docs/examples/members-plus-e.toml");
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let plan = |extra: &[&str]| {
        let mut args = vec![
            "plan",
            "--from",
            old,
            "--to",
            new,
            "--keys",
            keys,
            "--replicas",
            "2",
            "--moves",
            "jsonl",
        ];
        args.extend_from_slice(extra);
        run(&args)
    };

    // The file has domains and a flat mode says nothing about replica sets: no guessing.
    let out = plan(&[]);
    let user4: Vec<String> = text(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"user:4\""))
        .map(str::to_string)
        .collect();
    assert!(
        !out.status.success(),
        "plan --replicas 2 on a file with domains picked a rule by itself; user:4 -> {user4:?}, \
         while top-k -k 2 gives old {:?}, new {:?}",
        top_k(old, keys, false)["user:4"],
        top_k(new, keys, false)["user:4"]
    );
    let e = text(&out.stderr);
    assert!(e.contains("--distinct") && e.contains("--plain"), "{e}");

    for (flag, distinct) in [("--plain", false), ("--distinct", true)] {
        let out = plan(&[flag]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let summary = text(&out.stderr);
        let rule = if distinct { "top-k --distinct" } else { "top-k" };
        assert!(summary.contains(&format!("replica_rule\t{rule}\t({flag}")), "{summary}");
        let (was, now) = (top_k(old, keys, distinct), top_k(new, keys, distinct));
        let rows: HashMap<String, Value> = text(&out.stdout)
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (v["key"].as_str().unwrap().to_string(), v)
            })
            .collect();
        for (key, before) in &was {
            let after = &now[key];
            let list = |v: &Value| -> Vec<String> {
                v.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap().to_string())
                    .collect()
            };
            match rows.get(key) {
                Some(row) => {
                    assert_eq!(
                        (&list(&row["from"]), &list(&row["to"])),
                        (before, after),
                        "{flag} {key}"
                    );
                }
                None => {
                    let (mut x, mut y) = (before.clone(), after.clone());
                    x.sort();
                    y.sort();
                    assert!(x == y && before[0] == after[0], "{flag} {key}: changed but not listed");
                }
            }
        }
        // user:4 keeps cache-d in plain top-k and cache-b in distinct top-k.
        let row = &rows["user:4"];
        let dropped = row["drop"][0].as_str().unwrap();
        assert_eq!(dropped, if distinct { "cache-d" } else { "cache-b" });
    }

    // The CSV carries the old and new sets too, and `source` is empty on drop rows.
    let out = run(&[
        "plan",
        "--from",
        old,
        "--to",
        new,
        "--keys",
        keys,
        "--replicas",
        "2",
        "--plain",
        "--moves",
        "csv",
    ]);
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("key,key_hex,action,node,source,from_1,from_2,to_1,to_2")
    );
    let user4: Vec<&str> = lines.filter(|l| l.starts_with("user:4,")).collect();
    assert_eq!(
        user4,
        [
            "user:4,,create,cache-e,cache-d,cache-d,cache-b,cache-e,cache-d",
            "user:4,,drop,cache-b,,cache-d,cache-b,cache-e,cache-d"
        ]
    );
    // And the text format.
    let out = run(&[
        "plan",
        "--from",
        old,
        "--to",
        new,
        "--keys",
        keys,
        "--replicas",
        "2",
        "--plain",
        "--moves",
        "text",
    ]);
    assert!(
        text(&out.stdout)
            .lines()
            .any(|l| l == "user:4\tcache-d,cache-b\tcache-e,cache-d\tcache-e\tcache-b"),
        "{}",
        text(&out.stdout)
    );
}

/// Every subcommand's help prints, and plan's and lab's say what their output means.
#[test]
fn every_subcommand_has_help() {
    for sub in ["owner", "top-k", "check", "plan", "lab"] {
        let out = run(&[sub, "--help"]);
        assert!(out.status.success() && out.stdout.len() > 200, "{sub}");
    }
    let plan = text(&run(&["plan", "--help"]).stdout);
    for needle in [
        "replica_rule",
        "--plain",
        "--distinct",
        "on a `drop` row it is empty",
        "from_1..from_K",
    ] {
        assert!(plan.contains(needle), "plan --help lacks {needle:?}");
    }
    let lab = text(&run(&["lab", "--help"]).stdout);
    assert!(
        lab.contains("--priority") && lab.contains("fixed across the changes"),
        "{lab}"
    );
    let top = text(&run(&["--help"]).stdout);
    assert!(top.contains("{\"hex\": \"...\"}"), "{top}");
}
