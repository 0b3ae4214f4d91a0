//! The membership fixtures in `tests/membership/` are the frozen vector cases
//! written as membership files. Every language loads them and must give the
//! vectors' answers; this test checks that each fixture says exactly what its
//! vector case says (read straight from the JSON, not through the writer), and
//! that the Rust load answers as the vectors do.
//!
//! `cargo test -p longstraw-membership --test vector_fixtures -- --ignored`
//! rewrites the fixtures (they are new files, not frozen vectors).

use std::path::{Path, PathBuf};

use longstraw::{Placement, SkeletonShape};
use longstraw_membership::{Membership, Mode, NodeSpec, Snapshot};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn vectors(file: &str) -> Value {
    let text = std::fs::read_to_string(root().join("tests/vectors").join(file)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Which vector cases become fixtures: every table, skeleton and domain case,
/// and every fourth flat case (all seeds, sizes and weight mixes still appear).
fn selected() -> Vec<(&'static str, usize)> {
    let mut out = Vec::new();
    for file in [
        "placement-v1.json",
        "table-v1.json",
        "skeleton-v1.json",
        "domains-v1.json",
    ] {
        let n = vectors(file)["cases"].as_array().unwrap().len();
        let step = if file == "placement-v1.json" { 4 } else { 1 };
        out.extend((0..n).step_by(step).map(|i| (file, i)));
    }
    out
}

fn fixture_name(file: &str, case: usize) -> String {
    format!("{}-{case:03}.toml", file.trim_end_matches(".json"))
}

/// The membership a vector case describes, read from the JSON alone.
fn expected(file: &str, case: &Value) -> Membership {
    let mode = match (file, case["mode"].as_str()) {
        ("table-v1.json", _) | (_, Some("table")) => Mode::Table {
            bits: Some(case["bits"].as_u64().unwrap() as u8),
            replicas: 1,
            distinct_domains: false,
            balance: None,
        },
        ("skeleton-v1.json", _) | (_, Some("skeleton")) => Mode::Skeleton {
            shape: Some(
                SkeletonShape::new(
                    case["fanout_bits"].as_u64().unwrap() as u8,
                    case["levels"].as_u64().unwrap() as u8,
                )
                .unwrap(),
            ),
        },
        _ => Mode::Flat,
    };
    let nodes = case["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let weight = f64::from_bits(u64::from_str_radix(n["weight_bits"].as_str().unwrap(), 16).unwrap());
            NodeSpec::new(
                hex(n["id_hex"].as_str().unwrap()),
                weight,
                n["domain_hex"].as_str().map(hex),
            )
        })
        .collect();
    Membership {
        seed: case["seed"].as_str().unwrap().parse().unwrap(),
        placement: Placement::V1,
        mode,
        secret: None,
        nodes,
    }
}

fn indices(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap() as u32)
        .collect()
}

fn check_answers(file: &str, case: &Value, snap: &Snapshot) -> usize {
    let mut checked = 0;
    for key in case["keys"].as_array().unwrap() {
        let bytes = hex(key["key_hex"].as_str().unwrap());
        if let Some(distinct) = key.get("distinct") {
            let want = indices(distinct);
            let mut out = vec![0u32; case["k"].as_u64().unwrap() as usize];
            let n = snap.top_k_distinct_into(&bytes, &mut out);
            assert_eq!(&out[..n], &want[..], "{file} {} distinct", case["name"]);
            checked += 1;
            continue;
        }
        let owner = snap.owner_index(&bytes).ok();
        assert_eq!(
            owner,
            key["owner"].as_u64().map(|o| o as u32),
            "{file} {} owner",
            case["name"]
        );
        let want = indices(&key["ranked"]);
        let mut out = vec![0u32; want.len()];
        let n = snap.top_k_into(&bytes, &mut out);
        assert_eq!(&out[..n], &want[..], "{file} {} ranked", case["name"]);
        checked += 1;
    }
    checked
}

#[test]
fn every_fixture_is_its_vector_case_and_loads_to_its_answers() {
    let mut cases = 0;
    let mut keys = 0;
    for (file, index) in selected() {
        let case = &vectors(file)["cases"][index];
        let path = root().join("tests/membership").join(fixture_name(file, index));
        let read = Membership::read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read, expected(file, case), "{}", path.display());
        let snap = read.build().unwrap().snapshot();
        keys += check_answers(file, case, &snap);
        cases += 1;
    }
    assert!(cases >= 100 && keys >= 1000, "only {cases} cases, {keys} keys");
}

#[test]
fn the_manifest_lists_every_fixture() {
    let text = std::fs::read_to_string(root().join("tests/membership/manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let listed: Vec<(String, usize)> = manifest["fixtures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["vectors"].as_str().unwrap().to_string(),
                f["case"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    let wanted: Vec<(String, usize)> = selected().into_iter().map(|(f, i)| (f.to_string(), i)).collect();
    assert_eq!(listed, wanted);
}

#[test]
#[ignore = "rewrites tests/membership/; run by hand after changing the selection"]
fn regenerate_fixtures() {
    let dir = root().join("tests/membership");
    std::fs::create_dir_all(&dir).unwrap();
    let mut entries = Vec::new();
    for (file, index) in selected() {
        let case = &vectors(file)["cases"][index];
        let name = fixture_name(file, index);
        let header = format!("# vector case {file} #{index}: {}\n", case["name"].as_str().unwrap());
        std::fs::write(dir.join(&name), header + &expected(file, case).to_toml()).unwrap();
        entries.push(serde_json::json!({"file": name, "vectors": file, "case": index}));
    }
    let manifest = serde_json::json!({
        "_comment": "Membership fixtures: each file is one case of tests/vectors/<vectors> as a membership file. Loading it in any language must give that case's answers (owner and ranked, or distinct for domains-v1 with the case's k). Written by membership/tests/vector_fixtures.rs.",
        "fixtures": entries,
    });
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest).unwrap() + "\n",
    )
    .unwrap();
}
