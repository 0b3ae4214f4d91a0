//! TOML text to a validated [`Membership`], with errors naming line and field.
//!
//! Every scalar is read as whatever TOML value it is ([`Val`]) and its type is
//! checked here, so that a value of the wrong type gets an error naming the
//! field and the form it needs. [`Membership::parse_all`] collects every
//! problem of the text instead of stopping at the first.

use std::cell::Cell;
use std::fmt;
use std::path::{Path, PathBuf};

use longstraw::{Placement, SkeletonShape};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Membership, Mode, NodeSpec, SecretSource, FORMAT_VERSION};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    format: Option<Spanned<Val>>,
    seed: Option<Spanned<Val>>,
    placement: Option<Spanned<Val>>,
    mode: Option<Spanned<Val>>,
    table: Option<Spanned<RawTable>>,
    skeleton: Option<Spanned<RawSkeleton>>,
    secret: Option<Spanned<RawSecret>>,
    #[serde(default)]
    nodes: Vec<Spanned<RawNode>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    bits: Option<Spanned<Val>>,
    replicas: Option<Spanned<Val>>,
    distinct_domains: Option<Spanned<Val>>,
    balance: Option<Spanned<Val>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSkeleton {
    fanout_bits: Option<Spanned<Val>>,
    levels: Option<Spanned<Val>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSecret {
    file: Option<Spanned<Val>>,
    env: Option<Spanned<Val>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNode {
    id: Option<Spanned<Val>>,
    id_hex: Option<Spanned<Val>>,
    weight: Option<Spanned<Val>>,
    domain: Option<Spanned<Val>>,
    domain_hex: Option<Spanned<Val>>,
}

/// Only the mode and which sections there are: read again, leniently, when
/// the strict read fails, so that a section in the wrong mode is named as
/// such rather than by a field the section does not have.
#[derive(Deserialize)]
struct RawSections {
    mode: Option<Spanned<Val>>,
    table: Option<Spanned<IgnoredAny>>,
    skeleton: Option<Spanned<IgnoredAny>>,
}

/// Any TOML value; its type is checked by the field that reads it.
enum Val {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    Other(&'static str),
}

impl Val {
    /// What the value is, for "must be ..., not ..." messages.
    fn kind(&self) -> &'static str {
        match self {
            Val::Int(_) => "an integer",
            Val::Float(_) => "a float",
            Val::Str(_) => "a string",
            Val::Bool(_) => "a boolean",
            Val::Other(what) => what,
        }
    }
}

impl<'de> Deserialize<'de> for Val {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Val, D::Error> {
        struct AnyValue;
        impl<'de> Visitor<'de> for AnyValue {
            type Value = Val;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a TOML value")
            }
            fn visit_i64<E>(self, v: i64) -> std::result::Result<Val, E> {
                Ok(Val::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> std::result::Result<Val, E> {
                Ok(i64::try_from(v).map_or(Val::Other("an integer above 2^63-1"), Val::Int))
            }
            fn visit_f64<E>(self, v: f64) -> std::result::Result<Val, E> {
                Ok(Val::Float(v))
            }
            fn visit_bool<E>(self, v: bool) -> std::result::Result<Val, E> {
                Ok(Val::Bool(v))
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<Val, E> {
                Ok(Val::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<Val, E> {
                Ok(Val::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Val, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Val::Other("an array"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Val, A::Error> {
                // A TOML date-time reaches serde as a map with one private key.
                let mut what = "a table";
                while let Some(key) = map.next_key::<String>()? {
                    if key.contains("datetime") {
                        what = "a date-time";
                    }
                    map.next_value::<IgnoredAny>()?;
                }
                Ok(Val::Other(what))
            }
        }
        deserializer.deserialize_any(AnyValue)
    }
}

/// Byte offsets to 1-based lines, and errors located in the text.
struct Source<'a> {
    origin: &'a str,
    text: &'a str,
    /// The last offset asked for and its line: offsets are asked for in
    /// about file order, so counting from there keeps a whole parse O(n).
    cursor: Cell<(usize, usize)>,
}

fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

impl<'a> Source<'a> {
    fn new(origin: &'a str, text: &'a str) -> Source<'a> {
        Source {
            origin,
            text,
            cursor: Cell::new((0, 1)),
        }
    }

    fn line_of(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let offset = offset.min(bytes.len());
        let (at, line) = self.cursor.get();
        let line = if offset >= at {
            line + newlines(&bytes[at..offset])
        } else {
            line - newlines(&bytes[offset..at])
        };
        self.cursor.set((offset, line));
        line
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

    /// "FIELD: must be EXPECTED, not KIND" for a value of the wrong type.
    fn wrong_type(&self, v: &Spanned<Val>, field: impl Into<String>, expected: &str) -> Error {
        let message = format!("must be {expected}, not {}", v.get_ref().kind());
        self.at(v, field, ErrorKind::Syntax(message))
    }

    fn int(&self, v: &Spanned<Val>, field: &str, expected: &str) -> Result<i64> {
        match v.get_ref() {
            Val::Int(i) => Ok(*i),
            _ => Err(self.wrong_type(v, field, expected)),
        }
    }

    fn string<'v>(&self, v: &'v Spanned<Val>, field: impl Into<String>, expected: &str) -> Result<&'v str> {
        match v.get_ref() {
            Val::Str(s) => Ok(s),
            _ => Err(self.wrong_type(v, field, expected)),
        }
    }

    /// An integer in `lo..=hi`.
    fn ranged(&self, v: &Spanned<Val>, field: &str, lo: i64, hi: i64) -> Result<i64> {
        let expected = format!("an integer from {lo} to {hi}");
        let i = self.int(v, field, &expected)?;
        if (lo..=hi).contains(&i) {
            Ok(i)
        } else {
            Err(self.invalid(v, field, format!("{i} is out of range ({lo} to {hi})")))
        }
    }

    /// A weight or cap factor: an integer (exactly a float) or a float.
    fn number(&self, v: &Spanned<Val>, field: &str) -> Result<f64> {
        match v.get_ref() {
            Val::Float(f) => Ok(*f),
            Val::Int(i) => {
                let f = *i as f64;
                // Above 2^53 only some integers are floats; a nearby one would be silently used.
                if f as i128 == i128::from(*i) {
                    Ok(f)
                } else {
                    Err(self.invalid(
                        v,
                        field,
                        format!(
                            "the integer {i} is not exactly a 64-bit float (the nearest one is {}; above 2^53 \
                             not every integer is one): write the value meant",
                            f as i128
                        ),
                    ))
                }
            }
            _ => Err(self.wrong_type(v, field, NUMBER)),
        }
    }

    /// The key on the line an error from the TOML parser points at, for errors that do not name it.
    fn key_on_line(&self, line: usize) -> Option<String> {
        let text = self.text.lines().nth(line.checked_sub(1)?)?;
        let (key, _) = text.split_once('=')?;
        let key = key.trim().trim_matches('"');
        (!key.is_empty()).then(|| key.to_string())
    }
}

const NUMBER: &str = "a number such as 2 or 0.5";
const SEED: &str =
    "an integer from 0 to 2^63-1, or a string of decimal digits or of 0x and hex digits (\"18446744073709551615\", \"0xff\")";
const TEXT: &str = "a string";
const HEX: &str = "a string of hex digit pairs such as \"00ff\"";

/// Keeps the value of a check, or records its error.
fn keep<T>(errors: &mut Vec<Error>, r: Result<T>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            errors.push(e);
            None
        }
    }
}

impl Membership {
    /// Reads and validates a membership file (the first problem is the error).
    ///
    /// The file may be a regular file or a pipe (such as `<(command)` or a
    /// FIFO); it is read once, with the limits docs/MEMBERSHIP.md gives.
    pub fn read(path: impl AsRef<Path>) -> Result<Membership> {
        Membership::read_all(path).map_err(first)
    }

    /// Reads a membership file and validates all of it: every problem of the
    /// text, in file order, rather than the first one only.
    pub fn read_all(path: impl AsRef<Path>) -> std::result::Result<Membership, Vec<Error>> {
        let path = path.as_ref();
        let origin = crate::input::origin(path);
        let text =
            crate::input::read_membership_file(path).map_err(|kind| vec![Error::new(&origin, None, None, kind)])?;
        Membership::parse_file_text(&text, path)
    }

    /// Parses the content of the membership file at `path`, which the caller
    /// read itself (a WebAssembly host, whose module reads no membership
    /// file): what [`Membership::read`] does once it has read the file, with
    /// the same messages, and a relative `secret.file` made absolute against
    /// the file's folder.
    pub fn parse_file_bytes(data: &[u8], path: impl AsRef<Path>) -> Result<Membership> {
        let path = path.as_ref();
        let origin = crate::input::origin(path);
        let mut membership = Membership::parse_bytes_as_written(data, &origin)?;
        membership
            .absolute_secret_file(Some(path.parent().unwrap_or(Path::new(""))))
            .map_err(|e| Error::new(&origin, None, Some("secret.file".into()), ErrorKind::Io(e)))?;
        Ok(membership)
    }

    fn parse_file_text(text: &str, path: &Path) -> std::result::Result<Membership, Vec<Error>> {
        let origin = crate::input::origin(path);
        let mut membership = Membership::parse_all(text, &origin)?;
        membership
            .absolute_secret_file(Some(path.parent().unwrap_or(Path::new(""))))
            .map_err(|e| vec![Error::new(&origin, None, Some("secret.file".into()), ErrorKind::Io(e))])?;
        Ok(membership)
    }

    /// Parses and validates membership file content held in memory (UTF-8
    /// text); `origin` names it in errors. A relative `secret.file` becomes
    /// absolute against the current directory, so that a set remembering the
    /// source finds it again.
    pub fn parse_bytes(data: &[u8], origin: &str) -> Result<Membership> {
        let mut membership = Membership::parse_bytes_as_written(data, origin)?;
        membership
            .absolute_secret_file(None)
            .map_err(|e| Error::new(origin, None, Some("secret.file".into()), ErrorKind::Io(e)))?;
        Ok(membership)
    }

    /// Parses and validates membership file content (UTF-8 text) as
    /// [`Membership::parse_bytes`] and [`Membership::parse_file_bytes`] do,
    /// `origin` naming it in errors, but keeps `secret.file` exactly as the
    /// text writes it, relative or not: for a caller that resolves the path by
    /// rules of its own (a WebAssembly host, whose file system and path rules
    /// the module does not have), and then names the resolved path with
    /// [`Membership::name_secret_source`].
    pub fn parse_bytes_as_written(data: &[u8], origin: &str) -> Result<Membership> {
        let text = std::str::from_utf8(data).map_err(|_| Error::new(origin, None, None, crate::input::not_text()))?;
        Membership::parse(text, origin)
    }

    /// Makes a relative `secret.file` absolute: against `folder` (the
    /// membership file's; `""` for a file named with no folder) and then the
    /// current directory, or against the current directory alone (`None`,
    /// content with no file). Absolute, so that a set remembering this source
    /// finds it again from any working folder and saves it to any file.
    fn absolute_secret_file(&mut self, folder: Option<&Path>) -> std::io::Result<()> {
        if let Some(SecretSource::File(file)) = &mut self.secret {
            if file.is_relative() {
                *file = match folder {
                    Some(folder) => std::path::absolute(folder.join(&*file))?,
                    None => std::path::absolute(&*file)?,
                };
            }
        }
        Ok(())
    }

    /// Parses and validates membership text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Membership> {
        Membership::parse_all(text, origin).map_err(first)
    }

    /// Parses and validates membership text, collecting every problem (each
    /// naming its line and field) instead of stopping at the first. A text
    /// that is not TOML, or has an unknown field, gives that one error.
    pub fn parse_all(text: &str, origin: &str) -> std::result::Result<Membership, Vec<Error>> {
        if let Some(m) = crate::fast::parse(text, origin) {
            return Ok(m);
        }
        Membership::parse_all_toml(text, origin)
    }

    /// [`Membership::parse_all`] through the TOML reader, for every text.
    pub(crate) fn parse_all_toml(text: &str, origin: &str) -> std::result::Result<Membership, Vec<Error>> {
        let src = Source::new(origin, text);
        let raw: RawFile = toml::from_str(text).map_err(|e| vec![toml_error(&src, e)])?;
        let mut errors = Vec::new();
        let e = &mut errors;

        if let Some(format) = &raw.format {
            let check = src.int(format, "format", "the integer 1").and_then(|v| {
                if v == i64::from(FORMAT_VERSION) {
                    Ok(())
                } else {
                    Err(src.invalid(
                        format,
                        "format",
                        format!("format {v} is unknown (this build reads format {FORMAT_VERSION})"),
                    ))
                }
            });
            keep(e, check);
        }
        let seed = match &raw.seed {
            None => Some(0),
            Some(s) => keep(e, parse_seed(&src, s)),
        };
        let placement = match &raw.placement {
            None => Some(Placement::default()),
            Some(p) => keep(e, parse_placement(&src, p)),
        };
        let mode = parse_mode(&src, &raw, e);
        let secret = keep(e, parse_secret(&src, &raw));
        let mut nodes = Vec::with_capacity(raw.nodes.len());
        for (i, node) in raw.nodes.iter().enumerate() {
            if let Some(n) = parse_node(&src, i, node, e) {
                nodes.push(n);
            }
        }
        match (seed, placement, mode, secret) {
            (Some(seed), Some(placement), Some(mode), Some(secret)) if errors.is_empty() => Ok(Membership {
                seed,
                placement,
                mode,
                secret,
                nodes,
            }),
            _ => Err(errors),
        }
    }
}

fn first(mut errors: Vec<Error>) -> Error {
    errors.swap_remove(0)
}

/// An error of the TOML reader (syntax, unknown field, a section of the wrong
/// shape), with the line and the key it points at.
fn toml_error(src: &Source<'_>, e: toml::de::Error) -> Error {
    if let Some(misplaced) = misplaced_section(src) {
        return misplaced;
    }
    let line = e.span().map(|s| src.line_of(s.start));
    let field = line.and_then(|l| src.key_on_line(l));
    Error::new(
        src.origin,
        line,
        field,
        ErrorKind::Syntax(e.message().trim().to_string()),
    )
}

/// A `[table]` or `[skeleton]` section in a file of another mode.
fn misplaced_section(src: &Source<'_>) -> Option<Error> {
    let raw: RawSections = toml::from_str(src.text).ok()?;
    let name = match &raw.mode {
        None => "flat",
        Some(m) => match m.get_ref() {
            Val::Str(s) => s.as_str(),
            _ => return None,
        },
    };
    let sections = [
        ("table", raw.table.map(|t| t.span())),
        ("skeleton", raw.skeleton.map(|s| s.span())),
    ];
    sections.into_iter().find_map(|(section, span)| {
        let span = span.filter(|_| name != section)?;
        Some(Error::new(
            src.origin,
            Some(src.line_of(span.start)),
            Some(section.to_string()),
            ErrorKind::Invalid(misplaced_message(section, name)),
        ))
    })
}

fn misplaced_message(section: &str, mode: &str) -> String {
    format!("a [{section}] section does not belong to mode {mode:?} (it needs mode = \"{section}\")")
}

fn parse_seed(src: &Source<'_>, s: &Spanned<Val>) -> Result<u64> {
    match s.get_ref() {
        Val::Int(v) => u64::try_from(*v)
            .map_err(|_| src.invalid(s, "seed", format!("seed {v} is negative (seeds are 0 to 2^64-1)"))),
        Val::Str(t) => {
            let parsed = match t.strip_prefix("0x") {
                Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    u64::from_str_radix(hex, 16).ok()
                }
                None if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => t.parse::<u64>().ok(),
                _ => None,
            };
            parsed.ok_or_else(|| {
                src.invalid(
                    s,
                    "seed",
                    format!("seed {t:?} is not a decimal or 0x-hex number from 0 to 2^64-1 (digits only, no sign)"),
                )
            })
        }
        _ => Err(src.wrong_type(s, "seed", SEED)),
    }
}

fn parse_placement(src: &Source<'_>, p: &Spanned<Val>) -> Result<Placement> {
    let latest = Placement::LATEST.number();
    let v = src.int(p, "placement", &format!("an integer from 1 to {latest}"))?;
    u32::try_from(v)
        .ok()
        .and_then(|v| Placement::from_number(v).ok())
        .ok_or_else(|| {
            src.invalid(
                p,
                "placement",
                format!("placement version {v} is unknown (this build knows 1 to {latest})"),
            )
        })
}

fn parse_mode(src: &Source<'_>, raw: &RawFile, e: &mut Vec<Error>) -> Option<Mode> {
    let name = match &raw.mode {
        None => "flat",
        Some(m) => keep(e, src.string(m, "mode", "\"flat\", \"table\" or \"skeleton\""))?,
    };
    let misplaced = |section: &str, line: usize| {
        Error::new(
            src.origin,
            Some(line),
            Some(section.to_string()),
            ErrorKind::Invalid(misplaced_message(section, name)),
        )
    };
    let known = matches!(name, "flat" | "table" | "skeleton");
    if known && name != "table" {
        if let Some(t) = &raw.table {
            e.push(misplaced("table", src.line_of(t.span().start)));
            return None;
        }
    }
    if known && name != "skeleton" {
        if let Some(s) = &raw.skeleton {
            e.push(misplaced("skeleton", src.line_of(s.span().start)));
            return None;
        }
    }
    match name {
        "flat" => Some(Mode::Flat),
        "table" => {
            let Some(t) = raw.table.as_ref().map(|t| t.get_ref()) else {
                return Some(Mode::Table {
                    bits: None,
                    replicas: 1,
                    distinct_domains: false,
                    balance: None,
                });
            };
            let before = e.len();
            let bits = t
                .bits
                .as_ref()
                .and_then(|b| keep(e, src.ranged(b, "table.bits", 0, 24)))
                .map(|b| b as u8);
            let replicas = t
                .replicas
                .as_ref()
                .map_or(Some(1), |r| keep(e, src.ranged(r, "table.replicas", 1, 32)))
                .unwrap_or(1) as usize;
            let distinct_domains = match &t.distinct_domains {
                None => false,
                Some(d) => match d.get_ref() {
                    Val::Bool(b) => *b,
                    _ => {
                        e.push(src.wrong_type(d, "table.distinct_domains", "true or false"));
                        false
                    }
                },
            };
            let balance = t.balance.as_ref().and_then(|b| {
                let check = src.number(b, "table.balance").and_then(|v| {
                    if v.is_finite() && v >= 1.0 {
                        Ok(v)
                    } else {
                        Err(src.invalid(b, "table.balance", format!("{v} is not a cap factor (1.0 or more)")))
                    }
                });
                keep(e, check)
            });
            (e.len() == before).then_some(Mode::Table {
                bits,
                replicas,
                distinct_domains,
                balance,
            })
        }
        "skeleton" => {
            let Some(spanned) = raw.skeleton.as_ref() else {
                return Some(Mode::Skeleton { shape: None });
            };
            let s = spanned.get_ref();
            let part = |v: &Option<Spanned<Val>>, field: &str, lo: i64, hi: i64, e: &mut Vec<Error>| match v {
                Some(v) => keep(e, src.ranged(v, field, lo, hi)).map(|v| v as u8),
                None => {
                    e.push(src.invalid(
                        spanned,
                        field,
                        format!("is missing: a [skeleton] section gives both fanout_bits and levels ({field} is {lo} to {hi})"),
                    ));
                    None
                }
            };
            let fanout_bits = part(&s.fanout_bits, "skeleton.fanout_bits", 0, 6, e);
            let levels = part(&s.levels, "skeleton.levels", 0, 5, e);
            let (fanout_bits, levels) = (fanout_bits?, levels?);
            let shape = SkeletonShape::new(fanout_bits, levels)
                .map_err(|err| src.at(spanned, "skeleton", ErrorKind::Set(err.into())));
            keep(e, shape).map(|shape| Mode::Skeleton { shape: Some(shape) })
        }
        other => {
            let m = raw.mode.as_ref().expect("only a written mode can be unknown");
            e.push(src.invalid(
                m,
                "mode",
                format!("mode {other:?} is unknown (use \"flat\", \"table\" or \"skeleton\")"),
            ));
            None
        }
    }
}

fn parse_secret(src: &Source<'_>, raw: &RawFile) -> Result<Option<SecretSource>> {
    let Some(secret) = &raw.secret else { return Ok(None) };
    if let Some(seed) = &raw.seed {
        return Err(src.invalid(seed, "seed", "a keyed set ([secret]) has no seed; remove one of them"));
    }
    let s = secret.get_ref();
    let path_or_name = "a string: a path or a variable name";
    let file = s
        .file
        .as_ref()
        .map(|f| src.string(f, "secret.file", path_or_name))
        .transpose()?;
    let env = s
        .env
        .as_ref()
        .map(|v| src.string(v, "secret.env", path_or_name))
        .transpose()?;
    match (file, env) {
        (Some(file), None) if !file.is_empty() => {
            crate::input::refuse_nul(Path::new(file))
                .map_err(|kind| src.at(s.file.as_ref().expect("a file"), "secret.file", kind))?;
            Ok(Some(SecretSource::File(PathBuf::from(file))))
        }
        (None, Some(env)) if !env.is_empty() => Ok(Some(SecretSource::Env(env.to_string()))),
        _ => Err(src.invalid(
            secret,
            "secret",
            "name exactly one non-empty source: file = \"PATH\" or env = \"VARIABLE\" (never the secret itself)",
        )),
    }
}

/// One node; its problems (every field's) go to `e`.
fn parse_node(src: &Source<'_>, i: usize, node: &Spanned<RawNode>, e: &mut Vec<Error>) -> Option<NodeSpec> {
    let n = node.get_ref();
    let field = |name: &str| format!("nodes[{i}].{name}");
    let before = e.len();
    let id = match (&n.id, &n.id_hex) {
        (Some(id), None) => keep(
            e,
            src.string(id, field("id"), TEXT)
                .map(|s| (s.as_bytes().to_vec(), id.span())),
        ),
        (None, Some(hex)) => keep(
            e,
            src.string(hex, field("id_hex"), HEX)
                .and_then(|t| parse_hex(t).map_err(|m| src.invalid(hex, field("id_hex"), m)))
                .map(|bytes| (bytes, hex.span())),
        ),
        _ => {
            e.push(src.invalid(
                node,
                format!("nodes[{i}]"),
                "give exactly one of id = \"TEXT\" or id_hex = \"HEX\"",
            ));
            None
        }
    };
    let line = id.as_ref().map(|(_, span)| src.line_of(span.start));
    let weight = match &n.weight {
        None => Some(1.0),
        Some(w) => keep(
            e,
            src.number(w, &field("weight")).and_then(|v| {
                longstraw::validate_weight(v).map_err(|err| src.at(w, field("weight"), ErrorKind::Set(err.into())))
            }),
        ),
    };
    let domain = match (&n.domain, &n.domain_hex) {
        (None, None) => None,
        (Some(d), None) => keep(
            e,
            src.string(d, field("domain"), TEXT).map(|s| (s.as_bytes().to_vec(), d)),
        ),
        (None, Some(hex)) => keep(
            e,
            src.string(hex, field("domain_hex"), HEX)
                .and_then(|t| parse_hex(t).map_err(|m| src.invalid(hex, field("domain_hex"), m)))
                .map(|bytes| (bytes, hex)),
        ),
        (Some(d), Some(_)) => {
            e.push(src.invalid(d, field("domain"), "give at most one of domain and domain_hex"));
            None
        }
    };
    if let Some((d, at)) = &domain {
        if d.is_empty() || d.len() > 65_535 {
            e.push(src.at(
                at,
                field("domain"),
                ErrorKind::Set(longstraw_set::Error::InvalidDomain { len: d.len() }),
            ));
        }
    }
    if e.len() > before {
        return None;
    }
    Some(NodeSpec {
        id: id?.0,
        weight: weight?,
        domain: domain.map(|(d, _)| d),
        line: line?,
    })
}

/// Pairs of hex digits (0-9, a-f, A-F) and nothing else.
pub(crate) fn parse_hex(text: &str) -> std::result::Result<Vec<u8>, String> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) || !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err(format!(
            "{text:?} is not hex: give pairs of hex digits (0-9, a-f, A-F) and nothing else"
        ));
    }
    Ok(digits
        .chunks_exact(2)
        .map(|pair| (crate::secret::hex_value(pair[0]) << 4) | crate::secret::hex_value(pair[1]))
        .collect())
}
