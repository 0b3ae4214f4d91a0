//! Membership files (docs/MEMBERSHIP.md) for Node: `Rendezvous.load(path)`,
//! `Rendezvous.loadAsync(path)`, `Rendezvous.loads(data)` and
//! `.save(path, { secretFile, secretEnv })`. `longstraw-membership` parses,
//! validates and writes the file for every language, and holds the rule for
//! naming a keyed set's secret source; this module only converts its errors
//! (code `ERR_LONGSTRAW_BAD_FILE`, a message naming the file, line and field)
//! and the save options.

use std::path::PathBuf;

use longstraw_membership::{Membership, Rendezvous, SecretSource};
use napi::sys;

use crate::error::{JsErr, Kind, Res};
use crate::node_api::types::{self, JsType};
use crate::node_api::{args, Cx};

/// The stable `code` of every membership file error.
pub const BAD_FILE: &str = "ERR_LONGSTRAW_BAD_FILE";

fn bad(e: impl std::fmt::Display) -> JsErr {
    JsErr::new(Kind::Error, BAD_FILE, e.to_string())
}

/// A set read from a file, with the secret source the file named (`None`
/// for an unkeyed file): a keyed set saves it again.
pub struct FromFile {
    pub set: Rendezvous,
    pub secret_source: Option<SecretSource>,
}

/// Reads, validates and builds the file at `path`, in the mode it names
/// (blocking: it may wait on a FIFO or a slow disk, so `loadAsync` runs it
/// on the thread pool).
pub fn load(path: &str) -> Res<FromFile> {
    let membership = Membership::read(path).map_err(bad)?;
    let set = membership.build().map_err(|mut e| {
        e.origin = path.to_string();
        bad(e)
    })?;
    Ok(FromFile {
        set,
        secret_source: membership.secret,
    })
}

/// Parses, validates and builds membership file content (`loads`). A
/// relative `secret.file` in it is read relative to the current directory.
pub fn load_bytes(data: &[u8]) -> Res<FromFile> {
    let membership = Membership::parse_bytes(data, "<data>").map_err(bad)?;
    let set = membership.build().map_err(bad)?;
    Ok(FromFile {
        set,
        secret_source: membership.secret,
    })
}

/// The `data` argument of `loads`: a string (its UTF-8 bytes) or a Buffer
/// or Uint8Array (the bytes as they are; the parser checks they are UTF-8).
pub fn data_arg(cx: Cx, v: sys::napi_value) -> Res<Vec<u8>> {
    let mut buf = crate::node_api::strings::KeyBuf::default();
    let bytes = args::bytes(cx, v, &mut buf, &|| "data".into())
        .map_err(|_| args::wrong_type(cx, v, &|| "data".into(), "a string, Buffer or Uint8Array"))?;
    let mut owned = Vec::new();
    crate::alloc::extend(&mut owned, bytes, "membership data")?;
    Ok(owned)
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
