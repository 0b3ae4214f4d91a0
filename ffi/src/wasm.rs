//! What a WebAssembly host needs beyond the C ABI: memory in the module's
//! linear memory to pass keys, ids and out-parameters through.
//!
//! A wasm host (wazero in Go, wasmtime in Python) cannot hand the module a
//! pointer to its own memory; it allocates a buffer here, copies bytes in,
//! passes the buffer's offset to an export, and frees it. Built only for
//! `target_arch = "wasm32"`.
//!
//! A panic in wasm traps (the target aborts on panic, so the boundary's
//! `catch_unwind` catches nothing) and leaves the instance unusable: the host
//! discards a trapped instance and reports the trap as an error.

use std::alloc::{alloc, dealloc, Layout};

/// Every buffer is aligned for the widest out-parameter (`u64`, `f64`).
const ALIGN: usize = 8;

/// Allocates `size` bytes (at least 1) aligned to 8 in linear memory and
/// returns their offset, or 0 when memory cannot grow. Release with
/// `longstraw_wasm_free(ptr, size)` and the same size.
#[unsafe(no_mangle)]
pub extern "C" fn longstraw_wasm_alloc(size: usize) -> *mut u8 {
    match Layout::from_size_align(size.max(1), ALIGN) {
        // SAFETY: the layout has a non-zero size.
        Ok(layout) => unsafe { alloc(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// Releases a buffer from `longstraw_wasm_alloc`. NULL is ignored.
///
/// # Safety
/// `ptr` must be NULL or come from `longstraw_wasm_alloc(size)` with this
/// `size`, and not be used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_wasm_free(ptr: *mut u8, size: usize) {
    if ptr.is_null() {
        return;
    }
    if let Ok(layout) = Layout::from_size_align(size.max(1), ALIGN) {
        // SAFETY: the caller passes a pointer from longstraw_wasm_alloc with
        // the size it asked for, so this is the layout it was allocated with.
        unsafe { dealloc(ptr, layout) };
    }
}

/// The file exports (`longstraw_rendezvous_load_file`, `_save_file`) refuse
/// to run inside WebAssembly: the module is given no file system, so a path
/// would name nothing, and a host error such as "No such file or directory"
/// for a file that exists would mislead. The host reads and writes the file.
pub(crate) fn refuse_files() -> crate::boundary::FfiResult {
    crate::result::record_message(
        "membership files are not read or written inside WebAssembly: the host reads the file and passes its bytes to \
         longstraw_rendezvous_load_bytes"
            .to_string(),
    );
    Err(crate::result::longstraw_result::LONGSTRAW_BAD_FILE)
}

/// Hosts lay `longstraw_options` out by hand (the Go runner writes it into
/// linear memory at fixed offsets), so its wasm32 size is pinned here: a
/// field added to the struct fails this build until the hosts follow.
const _: () = assert!(core::mem::size_of::<crate::options::longstraw_options>() == 56);

/// Parses membership file content as `longstraw_wasm_load_bytes_read` does
/// and names the secret file it must be built with, for a host that reads
/// that file for the module: `*out` receives a buffer from
/// `longstraw_wasm_alloc` holding `secret.file` exactly as the file writes it
/// (UTF-8, no NUL terminator, relative or not) of `*out_len` bytes, which the
/// host frees with `longstraw_wasm_free(*out, *out_len)`; or NULL when no file
/// is read (an unkeyed membership, or a secret in an environment variable). A
/// bad file fails as the load would.
///
/// The module has no file system and no path rules of the host's: the host
/// resolves the path as a native load does (a relative one against the
/// folder of the membership file at `path`, or, for content with no file
/// (`path` NULL), against the current directory; then made absolute), reads
/// the file there and passes the resolved path back as `secret_path`.
///
/// # Safety
/// `data` must be NULL or point to `data_len` readable bytes; `path` must be
/// NULL or a NUL-terminated string; `out` and `out_len` must be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_wasm_secret_file(
    data: *const u8,
    data_len: usize,
    path: *const core::ffi::c_char,
    out: *mut *mut u8,
    out_len: *mut usize,
) -> crate::result::longstraw_result {
    use crate::boundary::{boundary, Out};
    use crate::result::longstraw_result::LONGSTRAW_OUT_OF_MEMORY;
    boundary(|| {
        let (out, out_len) = (Out::new(out)?, Out::new(out_len)?);
        // SAFETY: forwarded contract.
        let m = unsafe { parse_loaded(data, data_len, path)? }.0;
        let file = match &m.secret {
            Some(longstraw_membership::SecretSource::File(file)) => file.as_os_str().as_encoded_bytes(),
            _ => {
                // SAFETY: checked by Out::new.
                unsafe {
                    out.write(std::ptr::null_mut());
                    out_len.write(0);
                }
                return Ok(());
            }
        };
        let p = longstraw_wasm_alloc(file.len());
        if p.is_null() {
            return Err(LONGSTRAW_OUT_OF_MEMORY);
        }
        // SAFETY: p was just allocated with room for file.len() bytes and does
        // not overlap file; the out-pointers were checked by Out::new.
        unsafe {
            std::ptr::copy_nonoverlapping(file.as_ptr(), p, file.len());
            out.write(p);
            out_len.write(file.len());
        }
        Ok(())
    })
}

/// What a host found at the secret file it resolved from the one
/// `longstraw_wasm_secret_file` named, for `longstraw_wasm_load_bytes_read`:
/// the membership crate's `SecretFileRead`, by number.
const READ_CONTENT: u32 = 0;
const READ_DIRECTORY: u32 = 1;
const READ_DEVICE: u32 = 2;
const READ_SOCKET: u32 = 3;
const READ_STALLED: u32 = 4;
const READ_FAILED: u32 = 5;

/// Loads membership file content that the host read (the module reads no
/// file) into a new node set: what `longstraw_rendezvous_load_file` does once
/// it has read the file at `path`, with the same messages naming `path`
/// (`path` NULL: what `longstraw_rendezvous_load_bytes` does, the messages
/// naming `<data>`), with a keyed file's secret file read by the host too.
///
/// `secret_path` is where the host resolved the membership's `secret.file`
/// (see `longstraw_wasm_secret_file`): the set remembers that path as its
/// secret source (a later save writes it, as natively) and the messages name
/// it. NULL keeps `secret.file` as written (content a set rendered, which
/// names the path it remembers); it is ignored for a membership that reads
/// no secret file. `read` says what the host found there, `content` holds
/// what it read (`read` 0: all of the regular file or pipe, or its first
/// 4097 bytes or more) or the OS's message (`read` 5). `read` 1 is a
/// directory, 2 a device, 3 a socket, 4 a pipe that gave no data for 10 s.
/// The messages, the size limit and the secret's format are the native
/// load's. For a membership that reads no secret file, `read` 0 with no
/// content. `LONGSTRAW_INVALID_PARAMETER` for another `read`.
///
/// # Safety
/// `data` must be NULL or point to `data_len` readable bytes, `content` to
/// `content_len`; `path` and `secret_path` must be NULL or NUL-terminated
/// strings; `out` must be NULL or writable.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the C ABI's flat arguments, as a wasm host passes them
pub unsafe extern "C" fn longstraw_wasm_load_bytes_read(
    data: *const u8,
    data_len: usize,
    path: *const core::ffi::c_char,
    secret_path: *const core::ffi::c_char,
    read: u32,
    content: *const u8,
    content_len: usize,
    out: *mut *mut crate::rendezvous::longstraw_rendezvous,
) -> crate::result::longstraw_result {
    use crate::boundary::{boundary, in_slice, Out};
    use crate::membership_file::bad;
    use crate::result::longstraw_result::LONGSTRAW_INVALID_PARAMETER;
    use longstraw_membership::SecretFileRead;
    boundary(|| {
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let content = unsafe { in_slice(content, content_len)? };
        let found = match read {
            READ_CONTENT => SecretFileRead::Content(content.to_vec()),
            READ_DIRECTORY => SecretFileRead::Directory,
            READ_DEVICE => SecretFileRead::Device,
            READ_SOCKET => SecretFileRead::Socket,
            READ_STALLED => SecretFileRead::Stalled,
            READ_FAILED => SecretFileRead::Failed(String::from_utf8_lossy(content).into_owned()),
            _ => return Err(LONGSTRAW_INVALID_PARAMETER),
        };
        // SAFETY: forwarded contract.
        let (m, origin) = unsafe { parse_resolved(data, data_len, path, secret_path)? };
        let with_origin = |mut e: longstraw_membership::Error| {
            e.origin = origin.to_string();
            bad(e)
        };
        let secret = m.read_secret_with(|_| found).map_err(with_origin)?;
        let set = m.build_keyed(secret, None).map_err(with_origin)?;
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(crate::held::Held::into_raw(set, m.secret)) };
        Ok(())
    })
}

/// Membership file content parsed as the file at `path` (NULL: as bytes,
/// named `<data>`), its `secret.file` kept as written, and the name its
/// errors give.
///
/// # Safety
/// `data` must be NULL or point to `data_len` readable bytes; `path` must be
/// NULL or a NUL-terminated string.
unsafe fn parse_loaded<'a>(
    data: *const u8,
    data_len: usize,
    path: *const core::ffi::c_char,
) -> crate::boundary::FfiResult<(longstraw_membership::Membership, &'a str)> {
    use crate::boundary::in_slice;
    use crate::membership_file::{bad, text_arg};
    // SAFETY: forwarded contract.
    let (data, path) = unsafe { (in_slice(data, data_len)?, text_arg(path, "path")?) };
    let origin = path.unwrap_or("<data>");
    let m = longstraw_membership::Membership::parse_bytes_as_written(data, origin).map_err(bad)?;
    Ok((m, origin))
}

/// [`parse_loaded`], with a `secret.file` replaced by the host's resolution
/// of it, `secret_path` (NULL: kept as written; ignored when the membership
/// reads no secret file).
///
/// # Safety
/// As [`parse_loaded`]; `secret_path` must be NULL or a NUL-terminated string.
unsafe fn parse_resolved<'a>(
    data: *const u8,
    data_len: usize,
    path: *const core::ffi::c_char,
    secret_path: *const core::ffi::c_char,
) -> crate::boundary::FfiResult<(longstraw_membership::Membership, &'a str)> {
    use crate::membership_file::{bad, text_arg};
    // SAFETY: forwarded contract.
    let (mut m, origin) = unsafe { parse_loaded(data, data_len, path)? };
    // SAFETY: forwarded contract.
    let secret_path = unsafe { text_arg(secret_path, "secret path")? };
    if let (Some(file), Some(longstraw_membership::SecretSource::File(_))) = (secret_path, &m.secret) {
        m.name_secret_source(Some(file.into()), None).map_err(bad)?;
    }
    Ok((m, origin))
}

/// The members of a snapshot in one buffer, so that a host reads a set's
/// nodes with one call instead of two per node: for each node in index
/// order, its id length (u32, little-endian), its id, its weight (f64,
/// little-endian), its domain label length (u32, 0 for none) and its label.
/// `*out` receives a buffer from `longstraw_wasm_alloc` of `*out_len` bytes;
/// the host frees it with `longstraw_wasm_free(*out, *out_len)`.
///
/// # Safety
/// `s` must be NULL or a live snapshot; `out` and `out_len` must be NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_wasm_snapshot_members(
    s: *const crate::snapshot::longstraw_snapshot,
    out: *mut *mut u8,
    out_len: *mut usize,
) -> crate::result::longstraw_result {
    use crate::boundary::{boundary, Out};
    use crate::result::longstraw_result::LONGSTRAW_OUT_OF_MEMORY;
    boundary(|| {
        // SAFETY: forwarded contract.
        let snap = unsafe { crate::snapshot::snap(s)? };
        let (out, out_len) = (Out::new(out)?, Out::new(out_len)?);
        let mut buf: Vec<u8> = Vec::new();
        for node in snap.nodes() {
            let label = node.domain().unwrap_or_default();
            let need = 16 + node.id().len() + label.len();
            buf.try_reserve(need).map_err(|_| LONGSTRAW_OUT_OF_MEMORY)?;
            buf.extend_from_slice(&(node.id().len() as u32).to_le_bytes());
            buf.extend_from_slice(node.id());
            buf.extend_from_slice(&node.weight().to_le_bytes());
            buf.extend_from_slice(&(label.len() as u32).to_le_bytes());
            buf.extend_from_slice(label);
        }
        let p = longstraw_wasm_alloc(buf.len());
        if p.is_null() {
            return Err(LONGSTRAW_OUT_OF_MEMORY);
        }
        // SAFETY: p was just allocated with room for buf.len() bytes and does
        // not overlap buf; the out-pointers were checked by Out::new.
        unsafe {
            std::ptr::copy_nonoverlapping(buf.as_ptr(), p, buf.len());
            out.write(p);
            out_len.write(buf.len());
        }
        Ok(())
    })
}

/// Copies a keyed set's 16-byte secret to `out` (`out_len` must be 16), so
/// that a host holding the set in several instances of this module builds
/// every copy with the secret the first copy read, instead of reading its
/// source again (a FIFO gives its content once; a rotated file would give
/// another secret). The bytes stay in the host's process, as they do in a
/// native build; the host must never show them. `LONGSTRAW_INVALID_PARAMETER`
/// for a set with no secret.
///
/// # Safety
/// `r` must be NULL or a live set; `out` must be NULL or point to `out_len`
/// writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_wasm_rendezvous_secret(
    r: *const crate::rendezvous::longstraw_rendezvous,
    out: *mut u8,
    out_len: usize,
) -> crate::result::longstraw_result {
    use crate::boundary::{boundary, out_slice};
    use crate::result::longstraw_result::{LONGSTRAW_INVALID_PARAMETER, LONGSTRAW_LENGTH_MISMATCH};
    boundary(|| {
        // SAFETY: forwarded contract.
        let (held, out) = unsafe { (crate::held::held(r)?, out_slice(out, out_len)?) };
        let secret = held
            .set
            .snapshot()
            .options()
            .secret
            .ok_or(LONGSTRAW_INVALID_PARAMETER)?;
        let bytes = secret.expose_bytes();
        if out.len() != bytes.len() {
            return Err(LONGSTRAW_LENGTH_MISMATCH);
        }
        out.copy_from_slice(&bytes);
        Ok(())
    })
}

/// `longstraw_wasm_load_bytes_read` for a keyed membership whose secret the
/// host already has (from `longstraw_wasm_rendezvous_secret` of the first
/// copy): the secret source the file names (with `secret_path` as there) is
/// remembered, not read. A secret for an unkeyed membership is an error.
///
/// # Safety
/// `data` must be NULL or point to `data_len` readable bytes, `secret` to
/// `secret_len`; `path` and `secret_path` must be NULL or NUL-terminated
/// strings; `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_wasm_load_bytes_keyed(
    data: *const u8,
    data_len: usize,
    path: *const core::ffi::c_char,
    secret_path: *const core::ffi::c_char,
    secret: *const u8,
    secret_len: usize,
    out: *mut *mut crate::rendezvous::longstraw_rendezvous,
) -> crate::result::longstraw_result {
    use crate::boundary::{boundary, in_slice, Out};
    use crate::membership_file::bad;
    boundary(|| {
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let secret = unsafe { in_slice(secret, secret_len)? };
        let secret = longstraw::Secret::from_bytes(secret).map_err(crate::result::longstraw_result::from)?;
        // SAFETY: forwarded contract.
        let (m, origin) = unsafe { parse_resolved(data, data_len, path, secret_path)? };
        let set = m.build_keyed(Some(secret), None).map_err(|mut e| {
            e.origin = origin.to_string();
            bad(e)
        })?;
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(crate::held::Held::into_raw(set, m.secret)) };
        Ok(())
    })
}

/// Checks a failure-domain label's length as a set does (1 to 65535 bytes),
/// for a host whose language tells "no label" (`None`) from an empty label:
/// the C ABI reads a label of length 0 as no label, so such a host asks here
/// before passing an empty label and gets `LONGSTRAW_INVALID_DOMAIN` with the
/// set's message.
#[unsafe(no_mangle)]
pub extern "C" fn longstraw_wasm_check_label(len: usize) -> crate::result::longstraw_result {
    crate::boundary::boundary(|| {
        if len == 0 || len > longstraw::MAX_NODE_ID_LEN {
            crate::result::record_message(longstraw_set::Error::InvalidDomain { len }.to_string());
            return Err(crate::result::longstraw_result::LONGSTRAW_INVALID_DOMAIN);
        }
        Ok(())
    })
}

/// `longstraw_bounded_new` with `has_seed` saying whether a seed was given
/// (1) or not (0), as `longstraw_options.has_seed` does for the other sets:
/// a seed of 0 given next to a secret is then refused as any other seed is
/// (`LONGSTRAW_CONFLICTING_OPTIONS`), as the hosts' native faces refuse it.
///
/// # Safety
/// As `longstraw_bounded_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_wasm_bounded_new(
    has_seed: u32,
    seed: u64,
    secret: *const u8,
    secret_len: usize,
    placement: u32,
    balance_factor: f64,
    out: *mut *mut crate::bounded::longstraw_bounded,
) -> crate::result::longstraw_result {
    use crate::boundary::{boundary, Out};
    boundary(|| {
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let mut options = unsafe { crate::bounded::options(seed, secret, secret_len, placement)? };
        if has_seed != 0 {
            options.seed = Some(seed);
        }
        let set = longstraw_set::BoundedLoad::new(std::iter::empty::<&[u8]>(), options, balance_factor)?;
        let ptr = Box::into_raw(Box::new(set)).cast::<crate::bounded::longstraw_bounded>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}
