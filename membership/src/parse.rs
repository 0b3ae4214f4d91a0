//! TOML text to a validated [`Membership`], with errors naming line and field.

use std::path::{Path, PathBuf};

use longstraw::{Placement, SkeletonShape};
use serde::Deserialize;
use toml::Spanned;

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Membership, Mode, NodeSpec, SecretSource, FORMAT_VERSION};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    format: Option<Spanned<i64>>,
    seed: Option<Spanned<RawSeed>>,
    placement: Option<Spanned<i64>>,
    mode: Option<Spanned<String>>,
    table: Option<Spanned<RawTable>>,
    skeleton: Option<Spanned<RawSkeleton>>,
    secret: Option<Spanned<RawSecret>>,
    #[serde(default)]
    nodes: Vec<Spanned<RawNode>>,
}

/// A seed: a TOML integer (0 to 2^63-1) or a string for the full u64 range.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawSeed {
    Int(i64),
    Text(String),
}

/// A weight: TOML integers (`weight = 2`) are accepted as well as floats.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawNumber {
    Int(i64),
    Float(f64),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    bits: Option<Spanned<i64>>,
    replicas: Option<Spanned<i64>>,
    distinct_domains: Option<bool>,
    balance: Option<Spanned<RawNumber>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSkeleton {
    fanout_bits: Spanned<i64>,
    levels: Spanned<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSecret {
    file: Option<Spanned<String>>,
    env: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNode {
    id: Option<Spanned<String>>,
    id_hex: Option<Spanned<String>>,
    weight: Option<Spanned<RawNumber>>,
    domain: Option<Spanned<String>>,
    domain_hex: Option<Spanned<String>>,
}

/// Byte offsets to 1-based lines, and errors located in the text.
struct Source<'a> {
    origin: &'a str,
    text: &'a str,
}

impl Source<'_> {
    fn line_of(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
    }

    fn at<T>(&self, spanned: &Spanned<T>, field: impl Into<String>, kind: ErrorKind) -> Error {
        Error::new(
            self.origin,
            Some(self.line_of(spanned.span().start)),
            Some(field.into()),
            kind,
        )
    }

    fn invalid<T>(&self, spanned: &Spanned<T>, field: impl Into<String>, message: impl Into<String>) -> Error {
        self.at(spanned, field, ErrorKind::Invalid(message.into()))
    }

    /// The key on the line an error from the TOML parser points at, for errors that do not name it.
    fn key_on_line(&self, line: usize) -> Option<String> {
        let text = self.text.lines().nth(line.checked_sub(1)?)?;
        let (key, _) = text.split_once('=')?;
        let key = key.trim().trim_matches('"');
        (!key.is_empty()).then(|| key.to_string())
    }
}

impl Membership {
    /// Reads and validates a membership file.
    pub fn read(path: impl AsRef<Path>) -> Result<Membership> {
        let path = path.as_ref();
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| Error::new(&origin, None, None, ErrorKind::Io(e)))?;
        let mut membership = Membership::parse(&text, &origin)?;
        if let Some(SecretSource::File(file)) = &mut membership.secret {
            if file.is_relative() {
                let folder = path.parent().unwrap_or(Path::new(""));
                *file = folder.join(&*file);
            }
        }
        Ok(membership)
    }

    /// Parses and validates membership text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Membership> {
        let src = Source { origin, text };
        let raw: RawFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| src.line_of(s.start));
            let field = line.and_then(|l| src.key_on_line(l));
            Error::new(origin, line, field, ErrorKind::Syntax(e.message().trim().to_string()))
        })?;

        if let Some(format) = &raw.format {
            if *format.get_ref() != i64::from(FORMAT_VERSION) {
                return Err(src.invalid(
                    format,
                    "format",
                    format!(
                        "format {} is unknown (this build reads format {FORMAT_VERSION})",
                        format.get_ref()
                    ),
                ));
            }
        }
        let seed = match &raw.seed {
            None => 0,
            Some(s) => parse_seed(s.get_ref()).map_err(|m| src.invalid(s, "seed", m))?,
        };
        let placement = match &raw.placement {
            None => Placement::default(),
            Some(p) => u32::try_from(*p.get_ref())
                .ok()
                .and_then(|v| Placement::from_number(v).ok())
                .ok_or_else(|| {
                    src.invalid(
                        p,
                        "placement",
                        format!(
                            "placement version {} is unknown (this build knows 1 to {})",
                            p.get_ref(),
                            Placement::LATEST.number()
                        ),
                    )
                })?,
        };
        let mode = parse_mode(&src, &raw)?;
        let secret = parse_secret(&src, &raw)?;
        let nodes = raw
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| parse_node(&src, i, node))
            .collect::<Result<Vec<_>>>()?;
        Ok(Membership {
            seed,
            placement,
            mode,
            secret,
            nodes,
        })
    }
}

fn parse_seed(seed: &RawSeed) -> std::result::Result<u64, String> {
    match seed {
        RawSeed::Int(v) => u64::try_from(*v).map_err(|_| format!("seed {v} is negative (seeds are 0 to 2^64-1)")),
        RawSeed::Text(t) => {
            let parsed = match t.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => t.parse::<u64>(),
            };
            parsed.map_err(|_| format!("seed {t:?} is not a decimal or 0x-hex number from 0 to 2^64-1"))
        }
    }
}

fn number(n: &RawNumber) -> f64 {
    match n {
        RawNumber::Int(v) => *v as f64,
        RawNumber::Float(v) => *v,
    }
}

fn small_int<T: TryFrom<i64>>(src: &Source<'_>, v: &Spanned<i64>, field: &str, range: &str) -> Result<T> {
    T::try_from(*v.get_ref()).map_err(|_| src.invalid(v, field, format!("{} is out of range ({range})", v.get_ref())))
}

fn parse_mode(src: &Source<'_>, raw: &RawFile) -> Result<Mode> {
    let name = raw.mode.as_ref().map_or("flat", |m| m.get_ref().as_str());
    let misplaced = |section: &str, spanned_line: usize| {
        Error::new(
            src.origin,
            Some(spanned_line),
            Some(section.to_string()),
            ErrorKind::Invalid(format!(
                "a [{section}] section needs mode = \"{section}\" (the mode is \"{name}\")"
            )),
        )
    };
    if name != "table" {
        if let Some(t) = &raw.table {
            return Err(misplaced("table", src.line_of(t.span().start)));
        }
    }
    if name != "skeleton" {
        if let Some(s) = &raw.skeleton {
            return Err(misplaced("skeleton", src.line_of(s.span().start)));
        }
    }
    match name {
        "flat" => Ok(Mode::Flat),
        "table" => {
            let Some(t) = raw.table.as_ref().map(|t| t.get_ref()) else {
                return Ok(Mode::Table {
                    bits: None,
                    replicas: 1,
                    distinct_domains: false,
                    balance: None,
                });
            };
            let bits = t
                .bits
                .as_ref()
                .map(|b| small_int::<u8>(src, b, "table.bits", "0 to 24"))
                .transpose()?;
            let replicas = t
                .replicas
                .as_ref()
                .map(|r| small_int::<usize>(src, r, "table.replicas", "1 to 32"))
                .transpose()?
                .unwrap_or(1);
            if let Some(r) = &t.replicas {
                if !(1..=32).contains(r.get_ref()) {
                    return Err(src.invalid(
                        r,
                        "table.replicas",
                        format!("{} is out of range (1 to 32)", r.get_ref()),
                    ));
                }
            }
            if let Some(b) = &t.bits {
                if *b.get_ref() > 24 {
                    return Err(src.invalid(b, "table.bits", format!("{} is out of range (0 to 24)", b.get_ref())));
                }
            }
            let balance = match &t.balance {
                None => None,
                Some(b) => {
                    let v = number(b.get_ref());
                    if !(v.is_finite() && v >= 1.0) {
                        return Err(src.invalid(b, "table.balance", format!("{v} is not a cap factor (1.0 or more)")));
                    }
                    Some(v)
                }
            };
            Ok(Mode::Table {
                bits,
                replicas,
                distinct_domains: t.distinct_domains.unwrap_or(false),
                balance,
            })
        }
        "skeleton" => {
            let Some(s) = raw.skeleton.as_ref().map(|s| s.get_ref()) else {
                return Ok(Mode::Skeleton { shape: None });
            };
            let fanout_bits = small_int::<u8>(src, &s.fanout_bits, "skeleton.fanout_bits", "1 to 6")?;
            let levels = small_int::<u8>(src, &s.levels, "skeleton.levels", "0 to 5")?;
            let shape = SkeletonShape::new(fanout_bits, levels)
                .map_err(|e| src.at(&s.fanout_bits, "skeleton", ErrorKind::Set(e.into())))?;
            Ok(Mode::Skeleton { shape: Some(shape) })
        }
        other => {
            let m = raw.mode.as_ref().expect("only a written mode can be unknown");
            Err(src.invalid(
                m,
                "mode",
                format!("mode {other:?} is unknown (use \"flat\", \"table\" or \"skeleton\")"),
            ))
        }
    }
}

fn parse_secret(src: &Source<'_>, raw: &RawFile) -> Result<Option<SecretSource>> {
    let Some(secret) = &raw.secret else { return Ok(None) };
    if let Some(seed) = &raw.seed {
        return Err(src.invalid(seed, "seed", "a keyed set ([secret]) has no seed; remove one of them"));
    }
    let s = secret.get_ref();
    match (&s.file, &s.env) {
        (Some(file), None) if !file.get_ref().is_empty() => Ok(Some(SecretSource::File(PathBuf::from(file.get_ref())))),
        (None, Some(env)) if !env.get_ref().is_empty() => Ok(Some(SecretSource::Env(env.get_ref().clone()))),
        _ => Err(src.invalid(
            secret,
            "secret",
            "name exactly one non-empty source: file = \"PATH\" or env = \"VARIABLE\" (never the secret itself)",
        )),
    }
}

fn parse_node(src: &Source<'_>, i: usize, node: &Spanned<RawNode>) -> Result<NodeSpec> {
    let n = node.get_ref();
    let field = |name: &str| format!("nodes[{i}].{name}");
    let (id, line) = match (&n.id, &n.id_hex) {
        (Some(id), None) => (id.get_ref().as_bytes().to_vec(), src.line_of(id.span().start)),
        (None, Some(hex)) => (
            parse_hex(hex.get_ref()).map_err(|m| src.invalid(hex, field("id_hex"), m))?,
            src.line_of(hex.span().start),
        ),
        _ => {
            return Err(src.invalid(
                node,
                format!("nodes[{i}]"),
                "give exactly one of id = \"TEXT\" or id_hex = \"HEX\"",
            ))
        }
    };
    let weight = match &n.weight {
        None => 1.0,
        Some(w) => {
            let v = number(w.get_ref());
            longstraw::validate_weight(v).map_err(|e| src.at(w, field("weight"), ErrorKind::Set(e.into())))?
        }
    };
    let domain = match (&n.domain, &n.domain_hex) {
        (None, None) => None,
        (Some(d), None) => Some(d.get_ref().as_bytes().to_vec()),
        (None, Some(hex)) => Some(parse_hex(hex.get_ref()).map_err(|m| src.invalid(hex, field("domain_hex"), m))?),
        (Some(d), Some(_)) => return Err(src.invalid(d, field("domain"), "give at most one of domain and domain_hex")),
    };
    if let Some(d) = &domain {
        if d.is_empty() || d.len() > 65_535 {
            let at = n
                .domain
                .as_ref()
                .map(|s| s.span())
                .or(n.domain_hex.as_ref().map(|s| s.span()));
            let line = at.map(|s| src.line_of(s.start));
            return Err(Error::new(
                src.origin,
                line,
                Some(field("domain")),
                ErrorKind::Set(longstraw_set::Error::InvalidDomain { len: d.len() }),
            ));
        }
    }
    Ok(NodeSpec {
        id,
        weight,
        domain,
        line,
    })
}

fn parse_hex(text: &str) -> std::result::Result<Vec<u8>, String> {
    let bad = || format!("{text:?} is not an even number of hex digits");
    if !text.len().is_multiple_of(2) {
        return Err(bad());
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .ok_or_else(bad)
        })
        .collect()
}
