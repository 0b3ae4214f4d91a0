//! A fast path for the common large file: the settings, then only plain
//! `[[nodes]]` blocks, as [`Membership::to_toml`] writes them.
//!
//! The settings before the first `[[nodes]]` line go through the TOML reader
//! as always. The node blocks are read here only when every line is in a
//! strict subset of TOML whose meaning is plain: `[[nodes]]`, blank lines,
//! whole-line comments, and `id`, `id_hex`, `weight`, `domain`, `domain_hex`
//! with a basic string without escapes or a plain decimal number. Anything
//! else, and any node the full reader would refuse or could read
//! differently, gives `None`, and the whole text is read by the TOML reader
//! instead, which then also gives every error. So this path never changes
//! what a file means or what its errors say; it only reads it faster.

use crate::model::{Membership, NodeSpec};

/// The membership, when the text is in the subset and valid; `None` otherwise.
pub(crate) fn parse(text: &str, origin: &str) -> Option<Membership> {
    let start = first_nodes_line(text)?;
    let (settings, blocks) = text.split_at(start);
    // The settings must not mention nodes in any form (`nodes = [...]`, a
    // spaced header): the full reader decides what that means.
    if settings.contains("nodes") || settings.contains('\r') {
        return None;
    }
    let first_line = settings.bytes().filter(|&b| b == b'\n').count() + 1;
    let nodes = nodes(blocks, first_line)?;
    let m = Membership::parse_all_toml(settings, origin).ok()?;
    if !m.nodes.is_empty() {
        return None;
    }
    Some(Membership { nodes, ..m })
}

/// The offset of the first line that is exactly `[[nodes]]`.
fn first_nodes_line(text: &str) -> Option<usize> {
    if text.starts_with("[[nodes]]\n") {
        return Some(0);
    }
    text.find("\n[[nodes]]\n").map(|i| i + 1)
}

#[derive(Default)]
struct Block {
    id: Option<(Vec<u8>, usize)>,
    weight: Option<f64>,
    domain: Option<Vec<u8>>,
}

fn nodes(blocks: &str, first_line: usize) -> Option<Vec<NodeSpec>> {
    let mut out = Vec::new();
    let mut block: Option<Block> = None;
    for (i, line) in blocks.split('\n').enumerate() {
        let number = first_line + i;
        if line.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f) {
            return None;
        }
        let trimmed = line.trim_matches([' ', '\t']);
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if line == "[[nodes]]" {
            if let Some(b) = block.take() {
                out.push(finish(b)?);
            }
            block = Some(Block::default());
            continue;
        }
        let b = block.as_mut()?;
        let (key, value) = line.split_once('=')?;
        let (key, value) = (key.trim_matches([' ', '\t']), value.trim_matches([' ', '\t']));
        match key {
            "id" if b.id.is_none() => b.id = Some((plain_string(value)?.as_bytes().to_vec(), number)),
            "id_hex" if b.id.is_none() => {
                b.id = Some((crate::parse::parse_hex(plain_string(value)?).ok()?, number));
            }
            "weight" if b.weight.is_none() => b.weight = Some(weight(value)?),
            "domain" if b.domain.is_none() => b.domain = Some(plain_string(value)?.as_bytes().to_vec()),
            "domain_hex" if b.domain.is_none() => b.domain = Some(crate::parse::parse_hex(plain_string(value)?).ok()?),
            // A repeated or unknown key, or both forms of one: the full reader names it.
            _ => return None,
        }
    }
    if let Some(b) = block.take() {
        out.push(finish(b)?);
    }
    Some(out)
}

fn finish(b: Block) -> Option<NodeSpec> {
    let (id, line) = b.id?;
    if id.is_empty() {
        return None;
    }
    if let Some(d) = &b.domain {
        if d.is_empty() || d.len() > 65_535 {
            return None;
        }
    }
    Some(NodeSpec {
        id,
        weight: b.weight.unwrap_or(1.0),
        domain: b.domain,
        line,
    })
}

/// `"..."` with no escape, quote or control character inside.
fn plain_string(value: &str) -> Option<&str> {
    let inner = value.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains(['"', '\\'])).then_some(inner)
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, a valid weight; an integer must be exactly a float.
fn weight(value: &str) -> Option<f64> {
    let unsigned = value.strip_prefix('-').unwrap_or(value);
    let (whole, fraction) = match unsigned.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (unsigned, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (whole.len() > 1 && whole.starts_with('0')) {
        return None;
    }
    let v = match fraction {
        Some(f) if digits(f) => value.parse::<f64>().ok()?,
        Some(_) => return None,
        None => {
            let i: i64 = value.parse().ok()?;
            let f = i as f64;
            if f as i128 != i128::from(i) {
                return None;
            }
            f
        }
    };
    longstraw::validate_weight(v).ok()
}

#[cfg(test)]
mod tests {
    use crate::model::{Membership, Mode, NodeSpec, SecretSource};

    /// SplitMix64, for reproducible variety.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[(self.next() % items.len() as u64) as usize]
        }
    }

    fn same(text: &str) -> bool {
        let fast = super::parse(text, "t");
        let full = Membership::parse_all_toml(text, "t");
        match (&fast, &full) {
            (Some(f), Ok(m)) => {
                assert_eq!(f, m, "{text}");
                let lines = |m: &Membership| m.nodes.iter().map(|n| n.line).collect::<Vec<_>>();
                assert_eq!(lines(f), lines(m), "{text}");
                true
            }
            (Some(_), Err(e)) => panic!("the fast path accepted what the TOML reader refuses ({e:?}):\n{text}"),
            (None, _) => false,
        }
    }

    #[test]
    fn saved_files_take_the_fast_path_and_read_the_same() {
        let mut rng = Rng(7);
        let ids = [
            "a",
            "node-1",
            "caf\u{e9}",
            "with space",
            "q\"uote",
            "back\\slash",
            "tab\there",
            "=",
            "#x",
            "[[nodes]]",
        ];
        let weights = [1.0, 2.0, 0.5, 0.0, 1e-5, 3e20, 0.1, 9_007_199_254_740_992.0, 7.25];
        let mut taken = 0;
        for round in 0..300 {
            let nodes = (0..1 + rng.next() % 6)
                .map(|i| {
                    let id = match rng.next() % 4 {
                        0 => vec![0xff, i as u8],
                        _ => format!("{}-{round}-{i}", rng.pick(&ids)).into_bytes(),
                    };
                    let weight = weights[(rng.next() % weights.len() as u64) as usize];
                    let domain = match rng.next() % 3 {
                        0 => None,
                        1 => Some(rng.pick(&ids).as_bytes().to_vec()),
                        _ => Some(vec![0xfe, 0x01]),
                    };
                    NodeSpec::new(id, weight, domain)
                })
                .collect();
            let m = Membership {
                seed: rng.next(),
                placement: longstraw::Placement::V1,
                mode: match rng.next() % 3 {
                    0 => Mode::Flat,
                    1 => Mode::Table {
                        bits: Some(4),
                        replicas: 2,
                        distinct_domains: false,
                        balance: None,
                    },
                    _ => Mode::Skeleton { shape: None },
                },
                secret: rng.next().is_multiple_of(4).then(|| SecretSource::Env("S".into())),
                nodes,
            };
            let m = Membership {
                seed: if m.secret.is_some() { 0 } else { m.seed },
                ..m
            };
            let text = m.to_toml();
            if same(&text) {
                taken += 1;
                assert_eq!(super::parse(&text, "t").unwrap(), m);
            }
        }
        assert!(taken > 30, "only {taken} of 300 took the fast path");
    }

    #[test]
    fn edited_files_read_the_same_or_take_the_full_reader() {
        let base = "seed = 3\nmode = \"flat\"\n\n[[nodes]]\nid = \"a\"\nweight = 2\n\n[[nodes]]\nid_hex = \"00ff\"\ndomain = \"r\"\n";
        let lines: Vec<&str> = base.split('\n').collect();
        let edits = [
            "",
            "  ",
            "\t# c",
            "# \u{1}",
            "[[nodes]]",
            "[[ nodes ]]",
            "[table]",
            "id = \"b\"",
            "weight = 1e3",
            "weight = +1",
            "weight = 1_0",
            "weight = 01",
            "weight = 1.",
            "weight = -0",
            "weight = -0.0",
            "weight = 9007199254740993",
            "weight = 9223372036854775808",
            "weight = nan",
            "weight = -1",
            "weight = \"2\"",
            "domain = \"\"",
            "domain_hex = \"zz\"",
            "id = 'lit'",
            "id = \"x\" # c",
            "id = \"\"",
            "\"id\" = \"q\"",
            "id.x = 1",
            "wieght = 1",
            "nodes = []",
            "weight = 1\r",
            "  weight = 3",
            "weight=4",
            "id = \"\"\"x\"\"\"",
            "bits = [",
            "[[nodes]] # c",
            "x = \"\"\"",
            "domain = \"d\\\"",
        ];
        let mut taken = 0;
        let mut total = 0;
        for at in 0..=lines.len() {
            for edit in edits {
                let mut edited = lines.clone();
                edited.insert(at, edit);
                total += 1;
                if same(&edited.join("\n")) {
                    taken += 1;
                }
                let mut replaced = lines.clone();
                if at < replaced.len() {
                    replaced[at] = edit;
                    total += 1;
                    if same(&replaced.join("\n")) {
                        taken += 1;
                    }
                }
            }
        }
        assert!(taken > 20 && taken < total, "{taken} of {total}");
    }
}
