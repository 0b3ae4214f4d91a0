//! Membership files (docs/MEMBERSHIP.md) from C: load a set of whatever mode
//! a file names, from a path or from bytes in memory, and save a set.
//!
//! A failure is `LONGSTRAW_BAD_FILE`, with the reason (naming the file, the
//! line and the field, never a secret) in `longstraw_last_error_message`.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

use longstraw_membership::Membership;

use crate::boundary::{boundary, in_slice, FfiResult, Out};
use crate::held::{held, Held};
use crate::rendezvous::longstraw_rendezvous;
use crate::result::longstraw_result::{self, *};
use crate::result::record_message;

/// `LONGSTRAW_BAD_FILE`, with `e` as the message.
pub(crate) fn bad(e: impl std::fmt::Display) -> longstraw_result {
    record_message(e.to_string());
    LONGSTRAW_BAD_FILE
}

/// A NUL-terminated UTF-8 argument (a path, an environment variable name);
/// NULL is `None`.
///
/// # Safety
/// `text` must be NULL or a NUL-terminated string.
pub(crate) unsafe fn text_arg<'a>(text: *const c_char, what: &str) -> FfiResult<Option<&'a str>> {
    if text.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let text = unsafe { CStr::from_ptr(text) };
    text.to_str()
        .map(Some)
        .map_err(|_| bad(format!("the {what} is not UTF-8")))
}

/// Builds the set a parsed membership describes and hands it to `out`, with
/// the secret source it names (made absolute by the parser), which the set
/// remembers for saving.
pub(crate) fn build(m: Membership, origin: &str, out: Out<*mut longstraw_rendezvous>) -> FfiResult {
    let set = m.build().map_err(|mut e| {
        e.origin = origin.to_string();
        bad(e)
    })?;
    // SAFETY: checked by Out::new; validity is the caller's contract.
    unsafe { out.write(Held::into_raw(set, m.secret)) };
    Ok(())
}

/// Loads a membership file into a new node set of the mode the file names
/// (`mode = "flat"`, `"table"` or `"skeleton"`; `longstraw_rendezvous_mode`
/// tells which). The file may be a regular file or a pipe, read once. A keyed
/// file's secret is read from the source it names (a relative `secret.file`
/// is relative to the membership file's folder), and the set remembers that
/// source for `longstraw_rendezvous_save_file`.
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_rendezvous_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT` (path or out is NULL),
/// `LONGSTRAW_BAD_FILE` (unreadable, not UTF-8, bad TOML, an unknown field,
/// an invalid or duplicate node, an unreadable or malformed secret;
/// `longstraw_last_error_message` names the file, the line and the field).
/// Thread-safe.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string; `out` must be NULL or
/// valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_load_file(
    path: *const c_char,
    out: *mut *mut longstraw_rendezvous,
) -> longstraw_result {
    boundary(|| {
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let path = unsafe { text_arg(path, "path")? }.ok_or(LONGSTRAW_NULL_ARGUMENT)?;
        #[cfg(target_arch = "wasm32")]
        crate::wasm::refuse_files()?;
        let m = Membership::read(path).map_err(bad)?;
        build(m, path, out)
    })
}

/// Loads the content of a membership file from memory (`data_len` bytes of
/// UTF-8 at `data`, as `longstraw_rendezvous_load_file` reads them from a
/// file) into a new node set of the mode it names. A relative `secret.file`
/// in it is relative to the current working folder; `secret.env` names an
/// environment variable, as in a file. Messages name the origin `<bytes>`.
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_rendezvous_free`.
///
/// Errors: those of `longstraw_rendezvous_load_file`. Thread-safe.
///
/// # Safety
/// `data` must be NULL or point to `data_len` readable bytes; `out` must be
/// NULL or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_load_bytes(
    data: *const u8,
    data_len: usize,
    out: *mut *mut longstraw_rendezvous,
) -> longstraw_result {
    const ORIGIN: &str = "<bytes>";
    boundary(|| {
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let data = unsafe { in_slice(data, data_len)? };
        let m = Membership::parse_bytes(data, ORIGIN).map_err(bad)?;
        build(m, ORIGIN, out)
    })
}

/// Saves a node set's current membership as a membership file (written to a
/// temporary file and renamed, so readers never see half a file). The file
/// pins the mode and its shape, the seed, the placement version and every
/// node: loading it gives the same placement.
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
/// source for an unkeyed set; `longstraw_last_error_message` says which).
/// Thread-safe (concurrent saves to one path leave one whole file).
///
/// # Safety
/// `r` must be NULL or a live handle; `path`, `secret_file` and `secret_env`
/// must be NULL or NUL-terminated strings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_save_file(
    r: *const longstraw_rendezvous,
    path: *const c_char,
    secret_file: *const c_char,
    secret_env: *const c_char,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let (h, path, file, env) = unsafe {
            (
                held(r)?,
                text_arg(path, "path")?.ok_or(LONGSTRAW_NULL_ARGUMENT)?,
                text_arg(secret_file, "secret file path")?,
                text_arg(secret_env, "secret environment variable name")?,
            )
        };
        #[cfg(target_arch = "wasm32")]
        crate::wasm::refuse_files()?;
        let mut m = Membership::of(&h.set.snapshot());
        if let (Some(_), Some(source)) = (&m.secret, &h.secret) {
            m.secret = Some(source.clone());
        }
        m.name_secret_source(file.map(PathBuf::from), env.map(str::to_string))
            .map_err(bad)?;
        m.write(path).map_err(bad)
    })
}

/// Renders a node set's current membership as the content of a membership
/// file, for a host that writes the file itself (a WebAssembly host, whose
/// module has no file system). It is what `longstraw_rendezvous_save_file`
/// would write to `origin`, which names the file in messages only; the
/// secret source arguments and their errors are those of `_save_file`.
///
/// On success `*out` and `*out_len` receive a buffer the caller owns and
/// must release with `longstraw_bytes_free(*out, *out_len)`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT` (`r`, `origin`, `out` or `out_len` is
/// NULL), `LONGSTRAW_BAD_FILE` (no, two or an empty secret source; a source
/// for an unkeyed set; `longstraw_last_error_message` says which).
/// Thread-safe.
///
/// # Safety
/// `r` must be NULL or a live handle; `origin`, `secret_file` and
/// `secret_env` must be NULL or NUL-terminated strings; `out` and `out_len`
/// must be NULL or valid for writing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_save_bytes(
    r: *const longstraw_rendezvous,
    origin: *const c_char,
    secret_file: *const c_char,
    secret_env: *const c_char,
    out: *mut *mut u8,
    out_len: *mut usize,
) -> longstraw_result {
    boundary(|| {
        let (out, out_len) = (Out::new(out)?, Out::new(out_len)?);
        // SAFETY: forwarded contract.
        let (h, origin, file, env) = unsafe {
            (
                held(r)?,
                text_arg(origin, "path")?.ok_or(LONGSTRAW_NULL_ARGUMENT)?,
                text_arg(secret_file, "secret file path")?,
                text_arg(secret_env, "secret environment variable name")?,
            )
        };
        let mut m = Membership::of(&h.set.snapshot());
        if let (Some(_), Some(source)) = (&m.secret, &h.secret) {
            m.secret = Some(source.clone());
        }
        m.name_secret_source(file.map(PathBuf::from), env.map(str::to_string))
            .map_err(bad)?;
        let text = m.to_file_text(origin).map_err(bad)?.into_bytes().into_boxed_slice();
        let len = text.len();
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe {
            out_len.write(len);
            out.write(Box::into_raw(text).cast::<u8>());
        }
        Ok(())
    })
}

/// Releases a buffer from `longstraw_rendezvous_save_bytes`. NULL is ignored.
///
/// # Safety
/// `data` must be NULL or a buffer `longstraw_rendezvous_save_bytes` gave,
/// with the length it gave, not released before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_bytes_free(data: *mut u8, len: usize) {
    if data.is_null() {
        return;
    }
    // SAFETY: the caller's contract: a boxed slice of `len` bytes from
    // longstraw_rendezvous_save_bytes, released once.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(data, len)) });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::longstraw_last_error_message;

    fn c(text: &str) -> std::ffi::CString {
        std::ffi::CString::new(text).unwrap()
    }

    fn last_message() -> String {
        // SAFETY: the message is NUL-terminated and lives until the next call on this thread.
        unsafe { CStr::from_ptr(longstraw_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    /// The rendered text is byte for byte what `_save_file` writes, and a
    /// keyed set with no source fails with `_save_file`'s message.
    #[test]
    fn save_bytes_is_save_file_without_the_file() {
        let dir = std::env::temp_dir().join(format!("longstraw-save-bytes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let members = b"format = 1\nseed = 7\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\nweight = 2.5\n";
        let mut r: *mut longstraw_rendezvous = std::ptr::null_mut();
        // SAFETY: valid buffers and out-pointer.
        let code = unsafe { longstraw_rendezvous_load_bytes(members.as_ptr(), members.len(), &mut r) };
        assert_eq!(code, LONGSTRAW_OK);
        let path = dir.join("saved.toml");
        let cpath = c(path.to_str().unwrap());
        // SAFETY: a live handle and NUL-terminated strings.
        let code = unsafe { longstraw_rendezvous_save_file(r, cpath.as_ptr(), std::ptr::null(), std::ptr::null()) };
        assert_eq!(code, LONGSTRAW_OK);
        let (mut out, mut len) = (std::ptr::null_mut::<u8>(), 0usize);
        // SAFETY: as above, and writable out-pointers.
        let code = unsafe {
            longstraw_rendezvous_save_bytes(
                r,
                cpath.as_ptr(),
                std::ptr::null(),
                std::ptr::null(),
                &mut out,
                &mut len,
            )
        };
        assert_eq!(code, LONGSTRAW_OK);
        // SAFETY: the library gave `len` bytes at `out`.
        let text = unsafe { std::slice::from_raw_parts(out, len) }.to_vec();
        // SAFETY: the buffer and length the library gave, released once.
        unsafe { longstraw_bytes_free(out, len) };
        assert_eq!(text, std::fs::read(&path).unwrap());
        // Naming a source for an unkeyed set fails as _save_file does.
        let env = c("X");
        // SAFETY: as above.
        let code = unsafe {
            longstraw_rendezvous_save_bytes(r, cpath.as_ptr(), std::ptr::null(), env.as_ptr(), &mut out, &mut len)
        };
        assert_eq!(code, LONGSTRAW_BAD_FILE);
        let bytes_message = last_message();
        // SAFETY: as above.
        let code = unsafe { longstraw_rendezvous_save_file(r, cpath.as_ptr(), std::ptr::null(), env.as_ptr()) };
        assert_eq!(code, LONGSTRAW_BAD_FILE);
        assert_eq!(bytes_message, last_message());
        assert!(bytes_message.contains("not keyed"), "{bytes_message}");
        // NULL arguments.
        // SAFETY: NULL is checked before any use.
        let code = unsafe {
            longstraw_rendezvous_save_bytes(
                r,
                cpath.as_ptr(),
                std::ptr::null(),
                std::ptr::null(),
                std::ptr::null_mut(),
                &mut len,
            )
        };
        assert_eq!(code, LONGSTRAW_NULL_ARGUMENT);
        // SAFETY: NULL is ignored.
        unsafe { longstraw_bytes_free(std::ptr::null_mut(), 0) };
        // SAFETY: the handle from load_bytes, freed once.
        unsafe { crate::rendezvous::longstraw_rendezvous_free(r) };
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
