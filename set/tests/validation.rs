//! tests/validation/rules.json: every input rule that applies to the Rust
//! set, with the error variant and a message fragment. The table is shared by
//! every language's tests.

mod common;

use longstraw::{PackedKeys, Placement, SkeletonShape};
use longstraw_set::{Error, ModeOptions, Options, Rendezvous, SkeletonOptions, TableOptions};
use serde_json::Value;

fn table() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/validation/rules.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("rules.json")).expect("valid JSON")
}

/// A table byte string: a JSON string, or `{"len": N}` for N bytes of 'x'.
fn bytes_of(v: &Value) -> Vec<u8> {
    match v.as_str() {
        Some(s) => s.as_bytes().to_vec(),
        None => vec![b'x'; v["len"].as_u64().unwrap() as usize],
    }
}

fn weight_of(v: &Value) -> f64 {
    if let Some(f) = v.as_f64() {
        return f;
    }
    match v.as_str().unwrap() {
        "nan" => f64::NAN,
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "-0.0" => -0.0,
        hex => hex_float(hex),
    }
}

/// A C99 hex float such as `0x1.0000000000001p+64`.
fn hex_float(s: &str) -> f64 {
    let (mantissa, exp) = s.trim_start_matches("0x").split_once('p').unwrap();
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = u64::from_str_radix(&format!("{int}{frac}"), 16).unwrap();
    let exp: i32 = exp.parse::<i32>().unwrap() - 4 * frac.len() as i32;
    // Two exact steps: 2^-1074 alone is below f64's normal range, so one powi would underflow.
    digits as f64 * 2f64.powi(exp / 2) * 2f64.powi(exp - exp / 2)
}

fn one() -> Rendezvous {
    Rendezvous::flat(["a"], Options::default()).unwrap()
}

fn run(op: &str, c: &Value) -> Result<(), Error> {
    let n = |name: &str| c[name].as_u64().unwrap();
    match op {
        "ids" => {
            let ids: Vec<Vec<u8>> = c["ids"].as_array().unwrap().iter().map(bytes_of).collect();
            Rendezvous::flat(ids, Options::default()).map(drop)
        }
        "remove" => one().remove(bytes_of(&c["id"])),
        "weight" => {
            Rendezvous::with_weights([("a", weight_of(&c["weight"]))], Options::default(), ModeOptions::Flat).map(drop)
        }
        "partition_bits" => {
            let options = TableOptions {
                partition_bits: Some(n("bits") as u8),
                ..TableOptions::default()
            };
            common::table(["a"], options).map(drop)
        }
        "replicas" => {
            let options = TableOptions {
                partition_bits: Some(4),
                replicas: n("replicas") as usize,
                ..TableOptions::default()
            };
            common::table(["a"], options).map(drop)
        }
        "shape" => {
            let shape = &c["shape"];
            let shape = SkeletonShape::new(shape[0].as_u64().unwrap() as u8, shape[1].as_u64().unwrap() as u8)?;
            let options = SkeletonOptions { shape: Some(shape) };
            common::skeleton(["a"], options).map(drop)
        }
        "domain" => Rendezvous::flat(Vec::<&str>::new(), Options::default())
            .unwrap()
            .add_in_domain("a", 1.0, bytes_of(&c["label"])),
        "placement" => Placement::from_number(n("placement") as u32)
            .map(drop)
            .map_err(Error::from),
        "offsets" => {
            let offsets: Vec<u64> = c["offsets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o.as_u64().unwrap())
                .collect();
            let bytes = c["bytes"].as_str().unwrap().as_bytes();
            let keys = PackedKeys::new(bytes, &offsets)?;
            let mut out = vec![0u32; keys.len()];
            one().snapshot().owners_into(&keys, &mut out)
        }
        other => panic!("unknown op {other}"),
    }
}

/// Whether an error is of the table's class (named in `classes.*.rust`).
fn is_class(e: &Error, class: &str) -> bool {
    use longstraw::Error as Core;
    matches!(
        (class, e),
        (
            "InvalidNodeId",
            Error::Core(Core::EmptyNodeId | Core::NodeIdTooLong { .. })
        ) | ("DuplicateNode", Error::DuplicateNode { .. })
            | ("UnknownNode", Error::UnknownNode { .. })
            | ("InvalidWeight", Error::Core(Core::InvalidWeight { .. }))
            | (
                "BadShape",
                Error::Core(Core::BadPartitionBits { .. } | Core::BadReplicas { .. } | Core::BadSkeletonShape { .. })
            )
            | ("InvalidDomain", Error::InvalidDomain { .. })
            | ("UnknownPlacement", Error::Core(Core::UnknownPlacement { .. }))
            | ("BadOffsets", Error::Core(Core::BadOffsets { .. }))
    )
}

fn fragment(m: &Value) -> &str {
    match m {
        Value::String(s) => s,
        Value::Object(o) => o
            .get("rust")
            .or_else(|| o.get("default"))
            .and_then(Value::as_str)
            .unwrap_or(""),
        _ => "",
    }
}

#[test]
fn every_rule_for_rust() {
    let t = table();
    let mut checked = 0;
    for rule in t["rules"].as_array().unwrap() {
        for (i, c) in rule["cases"].as_array().unwrap().iter().enumerate() {
            let langs = c.get("langs").unwrap_or(&rule["langs"]);
            if !langs.as_array().unwrap().iter().any(|l| l == "rust") {
                continue;
            }
            checked += 1;
            let name = rule["rule"].as_str().unwrap();
            let got = run(rule["op"].as_str().unwrap(), c);
            if c["ok"] == true {
                assert!(got.is_ok(), "{name} #{i}: {got:?}");
                continue;
            }
            let class = t["classes"][c["error"].as_str().unwrap()]["rust"].as_str().unwrap();
            let err = got.expect_err(&format!("{name} #{i}: no error"));
            assert!(is_class(&err, class), "{name} #{i}: {err:?} is not {class}");
            let text = err.to_string();
            assert!(text.contains(fragment(&c["message"])), "{name} #{i}: {text:?}");
            assert!(text.len() < 400, "{name} #{i}: a message of {} bytes", text.len());
        }
    }
    assert!(checked >= 40, "only {checked} cases for rust");
}
