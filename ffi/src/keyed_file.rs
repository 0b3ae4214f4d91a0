//! A keyed flat set whose secret is read from a secret file by the
//! membership layer (one reader and one set of messages for every face), so
//! that a C caller such as a load balancer's configuration never holds the
//! secret's bytes.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

use longstraw_membership::SecretSource;
use longstraw_set::{Options, Placement, Rendezvous};

use crate::boundary::{boundary, Out};
use crate::held::Held;
use crate::rendezvous::longstraw_rendezvous;
use crate::result::longstraw_result::*;
use crate::result::{longstraw_result, record_message};

/// Creates an empty keyed flat set (keyed-v1, SPEC.md section 15) whose
/// secret is read once from the secret file `secret_file` (a NUL-terminated
/// path; the file holds the 16-byte secret as 32 hexadecimal digits, as for
/// a membership file's `[secret] file`; a relative path is relative to the
/// current directory). The set remembers the file as its secret source, so
/// `longstraw_rendezvous_save_file` names it again.
///
/// On success `*out` receives a handle to release with
/// `longstraw_rendezvous_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_SECRET` (the file
/// cannot be read or does not hold a secret: `longstraw_last_error_message`
/// says why, naming the file and never its content),
/// `LONGSTRAW_UNKNOWN_PLACEMENT`, `LONGSTRAW_BACKEND_UNAVAILABLE`.
///
/// # Safety
/// `secret_file` must be NULL or a NUL-terminated string; `out` must be NULL
/// or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_new_keyed_file(
    secret_file: *const c_char,
    placement: u32,
    out: *mut *mut longstraw_rendezvous,
) -> longstraw_result {
    boundary(|| {
        let out = Out::new(out)?;
        if secret_file.is_null() {
            return Err(LONGSTRAW_NULL_ARGUMENT);
        }
        // SAFETY: non-NULL and NUL-terminated by the caller's contract.
        let path = unsafe { CStr::from_ptr(secret_file) };
        let Ok(path) = path.to_str() else {
            record_message("the secret file's path is not UTF-8".into());
            return Err(LONGSTRAW_INVALID_SECRET);
        };
        let path = PathBuf::from(path);
        let source = SecretSource::File(std::path::absolute(&path).unwrap_or(path));
        let secret = source.read().map_err(|why| {
            record_message(why);
            LONGSTRAW_INVALID_SECRET
        })?;
        let options = Options {
            secret: Some(secret),
            placement: Placement::from_number(placement)?,
            ..Options::default()
        };
        let set = Rendezvous::new(std::iter::empty::<&[u8]>(), options)?;
        let ptr = Held::loaded(set, Some(source)).into_raw::<longstraw_rendezvous>();
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}
