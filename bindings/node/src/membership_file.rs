//! Membership files (docs/MEMBERSHIP.md) for Node: `Rendezvous.load(path)`,
//! `Table.load`, `Skeleton.load`, their `loadAsync` forms and
//! `.save(path, { secretFile, secretEnv })`. `longstraw-membership` parses,
//! validates and writes the file for every language, and holds the rule for
//! naming a keyed set's secret source; this module only converts its errors
//! (code `ERR_LONGSTRAW_BAD_FILE`, a message naming the file, line and field)
//! and the save options.

use std::path::PathBuf;

use longstraw_membership::{Loaded, Membership, SecretSource};
use napi::sys;

use crate::error::{JsErr, Kind, Res};
use crate::node_api::types::{self, JsType};
use crate::node_api::{args, Cx};

/// The stable `code` of every membership file error.
pub const BAD_FILE: &str = "ERR_LONGSTRAW_BAD_FILE";

fn bad(e: impl std::fmt::Display) -> JsErr {
    JsErr::new(Kind::Error, BAD_FILE, e.to_string())
}

/// Which class a file is loaded with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    Flat,
    Table,
    Skeleton,
}

impl Wanted {
    fn class(self) -> &'static str {
        match self {
            Wanted::Flat => "Rendezvous",
            Wanted::Table => "Table",
            Wanted::Skeleton => "Skeleton",
        }
    }
}

/// A set read from a file, with the secret source the file named (`None`
/// for an unkeyed file): a keyed set saves it again.
pub struct FromFile<T> {
    pub set: T,
    pub secret_source: Option<SecretSource>,
}

/// Reads, validates and builds the file at `path` (blocking: it may wait on
/// a FIFO or a slow disk, so `loadAsync` runs it on the thread pool).
pub fn load(path: &str, wanted: Wanted) -> Res<FromFile<Loaded>> {
    let membership = Membership::read(path).map_err(bad)?;
    let loaded = membership.build().map_err(|mut e| {
        e.origin = path.to_string();
        bad(e)
    })?;
    let (found, mode) = match &loaded {
        Loaded::Flat(_) => (Wanted::Flat, "flat"),
        Loaded::Table(_) => (Wanted::Table, "table"),
        Loaded::Skeleton(_) => (Wanted::Skeleton, "skeleton"),
    };
    if found != wanted {
        return Err(bad(format!(
            "{path}: the file's mode is \"{mode}\"; load it with {}.load, not {}.load",
            found.class(),
            wanted.class()
        )));
    }
    Ok(FromFile {
        set: loaded,
        secret_source: membership.secret,
    })
}

/// The `path` argument of `load`, `loadAsync` and `save`: a string without
/// NUL (the operating system would read the path only up to it, so another
/// file).
pub fn path_arg(cx: Cx, v: sys::napi_value) -> Res<String> {
    args::string_without_nul(
        cx,
        v,
        &|| "path".into(),
        "contains a NUL character; a path ends at the first NUL, so it would name another file",
    )
}

/// Where the secret of a keyed set is to be read from when the saved file is
/// loaded: `save`'s `{ secretFile, secretEnv }`.
#[derive(Default)]
pub struct SaveOptions {
    file: Option<PathBuf>,
    env: Option<String>,
}

const SAVE_OPTIONS: [&str; 2] = ["secretFile", "secretEnv"];

/// Reads `save`'s options: undefined, or an object with at most
/// `secretFile` and `secretEnv` (strings).
pub fn save_options(cx: Cx, v: sys::napi_value) -> Res<SaveOptions> {
    let mut out = SaveOptions::default();
    let Some(v) = args::options(cx, v, &SAVE_OPTIONS)? else {
        return Ok(out);
    };
    out.file = string_option(cx, args::get(cx, v, c"secretFile")?, "secretFile")?.map(PathBuf::from);
    out.env = string_option(cx, args::get(cx, v, c"secretEnv")?, "secretEnv")?;
    Ok(out)
}

fn string_option(cx: Cx, v: sys::napi_value, name: &str) -> Res<Option<String>> {
    if types::type_of(cx, v)? == JsType::Undefined {
        return Ok(None);
    }
    let what = || format!("options.{name}");
    args::string_without_nul(
        cx,
        v,
        &what,
        "contains a NUL character, which no file name or environment variable has",
    )
    .map(Some)
}

/// Writes `m` to `path` (a temporary file renamed over it). A keyed set
/// saves the source it was loaded from (`remembered`) unless `options` names
/// another; `Membership::name_secret_source` holds the rule and the messages.
pub fn save(mut m: Membership, remembered: Option<&SecretSource>, options: SaveOptions, path: &str) -> Res<()> {
    if let (Some(_), Some(source)) = (&m.secret, remembered) {
        m.secret = Some(source.clone());
    }
    m.name_secret_source(options.file, options.env).map_err(|mut e| {
        e.origin = path.to_string();
        bad(e)
    })?;
    m.write(path).map_err(bad)
}
