//! Membership files (docs/MEMBERSHIP.md) from C: load a set, save a set or a
//! snapshot.
//!
//! Every call takes a caller-owned `message` buffer: on `LONGSTRAW_BAD_FILE`
//! it receives the reason, naming the file, line and field, NUL-terminated
//! and cut to `message_len` bytes. `(NULL, 0)` asks for no message.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

use longstraw_membership::{Loaded, Membership, SecretSource};
use longstraw_set::{Rendezvous, Skeleton, Table};

use crate::boundary::{boundary, out_slice, FfiResult, Out};
use crate::held::{held, Held};
use crate::mode::{longstraw_mode, view, View};
use crate::rendezvous::longstraw_rendezvous;
use crate::result::longstraw_result::{self, *};
use crate::skeleton::longstraw_skeleton;
use crate::snapshot::longstraw_snapshot;
use crate::table::longstraw_table;

/// Copies `text` into the caller's buffer, cut to fit, NUL-terminated.
fn write_message(buf: &mut [u8], text: &str) {
    let Some(room) = buf.len().checked_sub(1) else { return };
    let n = text.len().min(room);
    buf[..n].copy_from_slice(&text.as_bytes()[..n]);
    buf[n] = 0;
}

/// The path as UTF-8.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string.
unsafe fn path_arg<'a>(path: *const c_char, message: &mut [u8]) -> FfiResult<&'a str> {
    if path.is_null() {
        return Err(LONGSTRAW_NULL_ARGUMENT);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let text = unsafe { CStr::from_ptr(path) };
    text.to_str().map_err(|_| {
        write_message(message, "the path is not UTF-8");
        LONGSTRAW_BAD_FILE
    })
}

/// An optional NUL-terminated argument (a secret file path or an environment
/// variable name) as UTF-8; NULL is `None`.
///
/// # Safety
/// `text` must be NULL or a NUL-terminated string.
unsafe fn optional_arg<'a>(text: *const c_char, what: &str, message: &mut [u8]) -> FfiResult<Option<&'a str>> {
    if text.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let text = unsafe { CStr::from_ptr(text) };
    text.to_str().map(Some).map_err(|_| {
        write_message(message, &format!("the {what} is not UTF-8"));
        LONGSTRAW_BAD_FILE
    })
}

fn bad(message: &mut [u8], e: impl std::fmt::Display) -> longstraw_result {
    write_message(message, &e.to_string());
    LONGSTRAW_BAD_FILE
}

/// Reads and builds a membership file, or writes why not. Also returns the
/// secret source the file names (absolute, as the parser resolved it), which
/// the set handle keeps for saving.
fn load(path: &str, message: &mut [u8]) -> FfiResult<(Loaded, Option<SecretSource>)> {
    let m = Membership::read(path).map_err(|e| bad(message, e))?;
    let set = m.build().map_err(|mut e| {
        e.origin = path.to_string();
        bad(message, e)
    })?;
    // The parser joins a relative secret file to the membership file's folder,
    // which is itself relative when `path` is: made absolute here, so that a
    // file saved into another folder still names the same secret file.
    let secret = match m.secret {
        Some(SecretSource::File(file)) if file.is_relative() => {
            Some(SecretSource::File(std::path::absolute(&file).unwrap_or(file)))
        }
        other => other,
    };
    Ok((set, secret))
}

fn wrong_mode(message: &mut [u8], path: &str, found: &Loaded, wanted: &str) -> longstraw_result {
    let found = match found {
        Loaded::Flat(_) => "flat",
        Loaded::Table(_) => "table",
        Loaded::Skeleton(_) => "skeleton",
    };
    bad(
        message,
        format!("{path}: the file's mode is \"{found}\"; load it as a {found} set, not a {wanted}"),
    )
}

/// The mode a membership file declares (`mode = ...`), after validating the whole file.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_BAD_FILE` (with a message).
///
/// # Safety
/// `path` must be a NUL-terminated string, `mode` writable, and `message`
/// NULL (with `message_len` 0) or writable for `message_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_file_mode(
    path: *const c_char,
    mode: *mut longstraw_mode,
    message: *mut c_char,
    message_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let message = unsafe { out_slice(message.cast::<u8>(), message_len)? };
        let out = Out::new(mode)?;
        // SAFETY: forwarded contract.
        let path = unsafe { path_arg(path, message)? };
        let m = Membership::read(path).map_err(|e| bad(message, e))?;
        let value = match m.mode {
            longstraw_membership::Mode::Flat => longstraw_mode::LONGSTRAW_MODE_FLAT,
            longstraw_membership::Mode::Table { .. } => longstraw_mode::LONGSTRAW_MODE_TABLE,
            longstraw_membership::Mode::Skeleton { .. } => longstraw_mode::LONGSTRAW_MODE_SKELETON,
        };
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(value) };
        Ok(())
    })
}

/// Loads a flat membership file (`mode = "flat"`) into a new node set; free it
/// with `longstraw_rendezvous_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_BAD_FILE` (unreadable, bad
/// TOML, an unknown field, an invalid or duplicate node, another mode; the
/// message names the line and the field), `LONGSTRAW_BACKEND_UNAVAILABLE`.
///
/// # Safety
/// As `longstraw_file_mode`; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_load_file(
    path: *const c_char,
    out: *mut *mut longstraw_rendezvous,
    message: *mut c_char,
    message_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let message = unsafe { out_slice(message.cast::<u8>(), message_len)? };
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let path = unsafe { path_arg(path, message)? };
        match load(path, message)? {
            (Loaded::Flat(set), secret) => {
                // SAFETY: checked by Out::new; validity is this function's contract.
                unsafe { out.write(Held::loaded(set, secret).into_raw::<longstraw_rendezvous>()) };
                Ok(())
            }
            (other, _) => Err(wrong_mode(message, path, &other, "flat set (longstraw_rendezvous)")),
        }
    })
}

/// Loads a table membership file (`mode = "table"`); free the table with
/// `longstraw_table_free`. Errors as `longstraw_rendezvous_load_file`.
///
/// # Safety
/// As `longstraw_rendezvous_load_file`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_load_file(
    path: *const c_char,
    out: *mut *mut longstraw_table,
    message: *mut c_char,
    message_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let message = unsafe { out_slice(message.cast::<u8>(), message_len)? };
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let path = unsafe { path_arg(path, message)? };
        match load(path, message)? {
            (Loaded::Table(set), secret) => {
                // SAFETY: checked by Out::new; validity is this function's contract.
                unsafe { out.write(Held::loaded(set, secret).into_raw::<longstraw_table>()) };
                Ok(())
            }
            (other, _) => Err(wrong_mode(message, path, &other, "table (longstraw_table)")),
        }
    })
}

/// Loads a skeleton membership file (`mode = "skeleton"`); free it with
/// `longstraw_skeleton_free`. Errors as `longstraw_rendezvous_load_file`.
///
/// # Safety
/// As `longstraw_rendezvous_load_file`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_load_file(
    path: *const c_char,
    out: *mut *mut longstraw_skeleton,
    message: *mut c_char,
    message_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let message = unsafe { out_slice(message.cast::<u8>(), message_len)? };
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let path = unsafe { path_arg(path, message)? };
        match load(path, message)? {
            (Loaded::Skeleton(set), secret) => {
                // SAFETY: checked by Out::new; validity is this function's contract.
                unsafe { out.write(Held::loaded(set, secret).into_raw::<longstraw_skeleton>()) };
                Ok(())
            }
            (other, _) => Err(wrong_mode(message, path, &other, "skeleton (longstraw_skeleton)")),
        }
    })
}

/// Saves a snapshot of any mode as a membership file (written to a temporary
/// file and renamed, so readers never see half a file). The file pins the
/// seed, the placement version and the mode's shape: loading it gives the
/// same placement.
///
/// A snapshot does not know where a keyed set's secret comes from, so saving
/// a keyed snapshot fails (with a message saying so): save the set instead,
/// with `longstraw_rendezvous_save_file` (or the table or skeleton one),
/// which names the source.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_BAD_FILE` (cannot write; a
/// keyed snapshot).
///
/// # Safety
/// `s` must be a live snapshot handle; the rest as `longstraw_file_mode`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_snapshot_save_file(
    s: *const longstraw_snapshot,
    path: *const c_char,
    message: *mut c_char,
    message_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let message = unsafe { out_slice(message.cast::<u8>(), message_len)? };
        // SAFETY: forwarded contract.
        let snap = unsafe { view(s)? };
        // SAFETY: forwarded contract.
        let path = unsafe { path_arg(path, message)? };
        let m = match snap {
            View::Flat(f) => Membership::of_snapshot(f),
            View::Table(t) => Membership::of_table(t),
            View::Skeleton(k) => Membership::of_skeleton(k),
        };
        m.write(path).map_err(|e| bad(message, e))
    })
}

/// Writes `m` to `path`, naming the secret source of a keyed membership:
/// `secret_file` or `secret_env` when one is given (the rule and its messages
/// are the membership crate's), else the source `remembered` from the file the
/// set was loaded from.
///
/// # Safety
/// `path` must be a NUL-terminated string; `secret_file` and `secret_env`
/// NULL or NUL-terminated strings.
unsafe fn save(
    mut m: Membership,
    remembered: Option<&SecretSource>,
    path: *const c_char,
    secret_file: *const c_char,
    secret_env: *const c_char,
    message: &mut [u8],
) -> FfiResult {
    // SAFETY: forwarded contract.
    let (path, file, env) = unsafe {
        (
            path_arg(path, message)?,
            optional_arg(secret_file, "secret file path", message)?,
            optional_arg(secret_env, "secret environment variable name", message)?,
        )
    };
    if let (Some(_), Some(source)) = (&m.secret, remembered) {
        m.secret = Some(source.clone());
    }
    m.name_secret_source(file.map(PathBuf::from), env.map(str::to_string))
        .map_err(|e| bad(message, e))?;
    m.write(path).map_err(|e| bad(message, e))
}

/// Saves a flat node set's current membership as a membership file (written
/// to a temporary file and renamed). The file pins the seed, the placement
/// version and every node: loading it gives the same placement.
///
/// A keyed set's file names where its secret comes from, never the secret:
/// - `secret_file` (a path; a relative one is read relative to the saved
///   file's folder) or `secret_env` (an environment variable name) names the
///   source; give at most one of them, the other NULL;
/// - with both NULL, a set loaded from a keyed membership file names the
///   source that file named; a keyed set built in code has none, and the save
///   fails with a message that says so.
///
/// Naming a source for a set that is not keyed fails: the file would place
/// keys by a secret the set never used.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT` (`r` or `path` is NULL),
/// `LONGSTRAW_BAD_FILE` (cannot write; no, two or an empty secret source; a
/// source for an unkeyed set; with a message).
///
/// # Safety
/// `r` must be NULL or a live handle; `path` NULL or a NUL-terminated string;
/// `secret_file` and `secret_env` NULL or NUL-terminated strings; `message`
/// NULL (with `message_len` 0) or writable for `message_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_save_file(
    r: *const longstraw_rendezvous,
    path: *const c_char,
    secret_file: *const c_char,
    secret_env: *const c_char,
    message: *mut c_char,
    message_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let message = unsafe { out_slice(message.cast::<u8>(), message_len)? };
        // SAFETY: forwarded contract.
        let h = unsafe { held::<longstraw_rendezvous, Rendezvous>(r)? };
        let m = Membership::of_snapshot(&h.set.snapshot());
        // SAFETY: forwarded contract.
        unsafe { save(m, h.secret.as_ref(), path, secret_file, secret_env, message) }
    })
}

/// Saves a partition table's current membership and shape, as
/// `longstraw_rendezvous_save_file` (the same secret source rules).
///
/// # Safety
/// As `longstraw_rendezvous_save_file`, with `t` a table handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_table_save_file(
    t: *const longstraw_table,
    path: *const c_char,
    secret_file: *const c_char,
    secret_env: *const c_char,
    message: *mut c_char,
    message_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let message = unsafe { out_slice(message.cast::<u8>(), message_len)? };
        // SAFETY: forwarded contract.
        let h = unsafe { held::<longstraw_table, Table>(t)? };
        let m = Membership::of_table(&h.set.snapshot());
        // SAFETY: forwarded contract.
        unsafe { save(m, h.secret.as_ref(), path, secret_file, secret_env, message) }
    })
}

/// Saves a skeleton's current membership and shape, as
/// `longstraw_rendezvous_save_file` (the same secret source rules).
///
/// # Safety
/// As `longstraw_rendezvous_save_file`, with `sk` a skeleton handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_skeleton_save_file(
    sk: *const longstraw_skeleton,
    path: *const c_char,
    secret_file: *const c_char,
    secret_env: *const c_char,
    message: *mut c_char,
    message_len: usize,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let message = unsafe { out_slice(message.cast::<u8>(), message_len)? };
        // SAFETY: forwarded contract.
        let h = unsafe { held::<longstraw_skeleton, Skeleton>(sk)? };
        let m = Membership::of_skeleton(&h.set.snapshot());
        // SAFETY: forwarded contract.
        unsafe { save(m, h.secret.as_ref(), path, secret_file, secret_env, message) }
    })
}
