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
    follow_process(cx)?;
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
    follow_process(cx)?;
    args::string_without_nul(
        cx,
        v,
        &|| "path".into(),
        "contains a NUL character; a path ends at the first NUL, so it would name another file",
    )
}

/// Makes relative paths (the `path` argument, a `secret.file` in the file,
/// `secretFile`) resolve against Node's `process.cwd()`, and a `secret.env`
/// read Node's `process.env`, as in the native addon. Natively those are the
/// process's own, and this does nothing. The WebAssembly build sees them
/// through WASI, which keeps its own working directory (`/` at start) and a
/// copy of the environment taken at load, and follows neither
/// `process.chdir` nor later changes to `process.env`. So each call that
/// reads or writes a file first sets both from Node's; without that a
/// relative path would name another file, and a variable set after the
/// addon loaded would be missing.
fn follow_process(cx: Cx) -> Res<()> {
    #[cfg(target_family = "wasm")]
    {
        use crate::node_api::check;
        let fail = |what: &str| {
            JsErr::new(
                Kind::Error,
                crate::error::codes::INTERNAL,
                format!("cannot follow Node's process for files: {what}"),
            )
        };
        let text = |v, what: &str| args::string_without_nul(cx, v, &|| what.to_string(), "contains a NUL character");
        let mut global = std::ptr::null_mut();
        // SAFETY: fetches the global object of the current call's environment.
        check(unsafe { sys::napi_get_global(cx.0, &mut global) }, "get_global")?;
        let process = args::get(cx, global, c"process")?;
        // No Node `process` (a browser page or a Web Worker): there is nothing to follow. WASI's own
        // working directory and empty environment stand, so a relative path or a `secret.env` names
        // nothing there, and reading it fails with the error that names it.
        if types::type_of(cx, process)? != JsType::Object {
            return Ok(());
        }
        let cwd_fn = args::get(cx, process, c"cwd")?;
        let mut dir = std::ptr::null_mut();
        // SAFETY: calls `process.cwd()` with no arguments; every value belongs to this call.
        let status = unsafe { sys::napi_call_function(cx.0, process, cwd_fn, 0, std::ptr::null(), &mut dir) };
        check(status, "call process.cwd")?;
        let dir = text(dir, "process.cwd()")?;
        std::env::set_current_dir(&dir).map_err(|e| fail(&format!("{dir}: {e}")))?;

        let env = args::get(cx, process, c"env")?;
        let mut names = std::ptr::null_mut();
        // SAFETY: `env` is an object of this call (process.env).
        let status = unsafe { sys::napi_get_property_names(cx.0, env, &mut names) };
        check(status, "get_property_names")?;
        let mut count = 0u32;
        // SAFETY: `names` is the array just returned.
        let status = unsafe { sys::napi_get_array_length(cx.0, names, &mut count) };
        check(status, "get_array_length")?;
        let mut seen = std::collections::HashSet::new();
        for i in 0..count {
            let mut name = std::ptr::null_mut();
            // SAFETY: `i` is below the array's length.
            let status = unsafe { sys::napi_get_element(cx.0, names, i, &mut name) };
            check(status, "get_element")?;
            let mut value = std::ptr::null_mut();
            // SAFETY: `name` is a key of `env`; reading it gives its (string) value.
            let status = unsafe { sys::napi_get_property(cx.0, env, name, &mut value) };
            check(status, "get_property")?;
            // A name or value WASI cannot hold (empty, with '=' or NUL) is left out.
            let (Ok(name), Ok(value)) = (
                text(name, "a name in process.env"),
                text(value, "a value in process.env"),
            ) else {
                continue;
            };
            if name.is_empty() || name.contains('=') {
                continue;
            }
            if std::env::var_os(&name).is_none_or(|old| old != *value) {
                std::env::set_var(&name, &value);
            }
            seen.insert(name);
        }
        for (name, _) in std::env::vars_os() {
            if name.to_str().is_none_or(|n| !seen.contains(n)) {
                std::env::remove_var(&name);
            }
        }
    }
    #[cfg(not(target_family = "wasm"))]
    let _ = cx;
    Ok(())
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
