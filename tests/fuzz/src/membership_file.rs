//! `membership`: the membership file parser. Arbitrary text never panics;
//! whatever parses saves to text that parses back to the same membership
//! (`parse(save(x)) == x`), generated memberships round-trip too, content
//! parsed from bytes reads as the same text does, and what builds is a set
//! of the file's mode and shape that describes the same nodes it was built
//! from.

use std::path::PathBuf;

use arbitrary::{Result, Unstructured};
use longstraw::{Backend, Placement, SkeletonShape};
use longstraw_membership::{Membership, Mode, NodeSpec, SecretSource, SetMode};

use crate::input;

/// The `membership` target: the first byte picks raw text or a generated membership.
pub fn check(data: &[u8]) {
    match data.split_first() {
        Some((&b, rest)) if b % 2 == 1 => {
            if let Ok(m) = generate(&mut Unstructured::new(rest)) {
                let text = m.to_toml();
                let back = Membership::parse(&text, "generated")
                    .unwrap_or_else(|e| panic!("the saved text of {m:?} does not parse: {e}\n{text}"));
                assert_eq!(back, m, "parse(save(x)) != x for\n{text}");
            }
        }
        Some((_, rest)) => text(&String::from_utf8_lossy(rest)),
        None => text(""),
    }
}

fn text(text: &str) {
    let parsed = Membership::parse(text, "fuzz");
    assert_eq!(
        Membership::parse_bytes(text.as_bytes(), "fuzz").ok(),
        parsed.as_ref().ok().cloned(),
        "parse_bytes and parse disagree on\n{text}"
    );
    let Ok(m) = parsed else { return };
    let saved = m.to_toml();
    let back = Membership::parse(&saved, "saved")
        .unwrap_or_else(|e| panic!("saved text does not parse: {e}\n--- input\n{text}\n--- saved\n{saved}"));
    assert_eq!(back, m, "parse(save(x)) != x\n--- input\n{text}\n--- saved\n{saved}");
    // Building ranks 2^bits partitions: only small tables here.
    // A keyed file would read its secret from a path or variable the input names: never built here.
    let small = m.secret.is_none()
        && m.nodes.len() <= 32
        && match m.mode {
            Mode::Table { bits, .. } => bits.is_none_or(|b| b <= 10),
            _ => true,
        };
    if small {
        if let Ok(loaded) = m.build_with(Some(Backend::SCALAR)) {
            assert_eq!(
                Membership::of(&loaded.snapshot()).nodes,
                m.nodes,
                "built nodes differ from the file's"
            );
            let snap = loaded.snapshot();
            assert_eq!(snap.seed(), Some(m.seed), "built seed");
            match m.mode {
                Mode::Flat => assert_eq!(snap.mode(), SetMode::Flat, "built mode"),
                Mode::Table {
                    bits,
                    replicas,
                    distinct_domains,
                    ..
                } => {
                    assert_eq!(snap.mode(), SetMode::Table, "built mode");
                    if bits.is_some() {
                        assert_eq!(snap.partition_bits(), bits, "built partition bits");
                    }
                    assert_eq!(snap.replicas(), Some(replicas), "built replicas");
                    assert_eq!(
                        snap.distinct_domains(),
                        Some(distinct_domains),
                        "built distinct_domains"
                    );
                }
                Mode::Skeleton { shape } => {
                    assert_eq!(snap.mode(), SetMode::Skeleton, "built mode");
                    if shape.is_some() {
                        assert_eq!(snap.shape(), shape, "built skeleton shape");
                    }
                }
            }
        }
    }
}

fn bytes(u: &mut Unstructured<'_>, max: usize) -> Result<Vec<u8>> {
    Ok(u.arbitrary::<Vec<u8>>()?.into_iter().take(max).collect())
}

fn generate(u: &mut Unstructured<'_>) -> Result<Membership> {
    let secret = match u.int_in_range(0..=5u8)? {
        // No path holds a NUL byte (the parser refuses one), so none is generated.
        0 => Some(SecretSource::File(PathBuf::from(
            String::from_utf8_lossy(&bytes(u, 12)?).replace('\0', "") + "k",
        ))),
        1 => Some(SecretSource::Env(
            String::from_utf8_lossy(&bytes(u, 12)?).into_owned() + "K",
        )),
        _ => None,
    };
    let mode = match u.int_in_range(0..=2u8)? {
        0 => Mode::Flat,
        1 => Mode::Table {
            bits: if u.arbitrary()? {
                Some(u.int_in_range(0..=24u8)?)
            } else {
                None
            },
            replicas: u.int_in_range(1..=32usize)?,
            distinct_domains: u.arbitrary()?,
            balance: if u.arbitrary()? {
                Some(1.0 + f64::from(u.int_in_range(0..=400u16)?) / 64.0)
            } else {
                None
            },
        },
        _ => Mode::Skeleton {
            shape: if u.arbitrary()? {
                Some(SkeletonShape::new(u.int_in_range(1..=6u8)?, u.int_in_range(0..=5u8)?).expect("in range"))
            } else {
                None
            },
        },
    };
    let count = u.int_in_range(0..=6usize)?;
    let nodes = (0..count)
        .map(|_| {
            let mut id = bytes(u, 20)?;
            if id.is_empty() {
                id.push(b'n');
            }
            let w = input::weight(u)?;
            let weight = if input::weight_is_valid(w) { w } else { 1.0 };
            let domain = if u.arbitrary()? {
                let mut d = bytes(u, 8)?;
                d.push(b'r');
                Some(d)
            } else {
                None
            };
            Ok(NodeSpec::new(id, weight, domain))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Membership {
        seed: if secret.is_some() { 0 } else { u.arbitrary()? },
        placement: Placement::V1,
        mode,
        secret,
        nodes,
    })
}
