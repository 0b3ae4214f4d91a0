//! A keyed flat set whose secret is read from a secret file by the
//! membership layer (one reader and one set of messages for every face), so
//! that a C caller such as a load balancer's configuration never holds the
//! secret's bytes.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

use longstraw_membership::SecretSource;
use longstraw_set::{ModeOptions, Options, Placement, Rendezvous};

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
        let set = Rendezvous::with_weights(std::iter::empty::<(&[u8], f64)>(), options, ModeOptions::Flat)?;
        let ptr = Held::into_raw(set, Some(source));
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(ptr) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rendezvous::{longstraw_rendezvous_free, longstraw_rendezvous_snapshot};
    use crate::result::longstraw_last_error_message;
    use crate::snapshot::longstraw_snapshot_free;
    use crate::snapshot::longstraw_snapshot_is_keyed;
    use std::ffi::CString;

    fn last_message() -> String {
        // SAFETY: the library returns a valid NUL-terminated string for this thread.
        unsafe { CStr::from_ptr(longstraw_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn a_keyed_set_from_a_secret_file_and_clear_refusals() {
        let dir = std::env::temp_dir().join(format!("longstraw-keyed-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good");
        std::fs::write(&good, "000102030405060708090a0b0c0d0e0f\n").unwrap();
        let bad = dir.join("bad");
        std::fs::write(&bad, "zz0102030405060708090a0b0c0d0eq\n").unwrap();
        let path = |p: &std::path::Path| CString::new(p.to_str().unwrap()).unwrap();
        let mut set = std::ptr::null_mut();
        // SAFETY: every pointer is a live local or a handle made here.
        unsafe {
            assert_eq!(
                longstraw_rendezvous_new_keyed_file(path(&good).as_ptr(), 1, &mut set),
                LONGSTRAW_OK
            );
            let mut snap = std::ptr::null();
            assert_eq!(longstraw_rendezvous_snapshot(set, &mut snap), LONGSTRAW_OK);
            let mut keyed = 0u32;
            assert_eq!(longstraw_snapshot_is_keyed(snap, &mut keyed), LONGSTRAW_OK);
            assert_eq!(keyed, 1);
            longstraw_snapshot_free(snap);
            longstraw_rendezvous_free(set);

            let mut none = std::ptr::null_mut();
            assert_eq!(
                longstraw_rendezvous_new_keyed_file(path(&bad).as_ptr(), 1, &mut none),
                LONGSTRAW_INVALID_SECRET
            );
            assert!(none.is_null());
            let message = last_message();
            assert!(message.contains("32 hexadecimal digits"), "{message}");
            assert!(!message.contains("zz01"), "the message quotes the file: {message}");
            assert_eq!(
                longstraw_rendezvous_new_keyed_file(path(&dir.join("missing")).as_ptr(), 1, &mut none),
                LONGSTRAW_INVALID_SECRET
            );
            assert!(last_message().contains("missing"));
            assert_eq!(
                longstraw_rendezvous_new_keyed_file(std::ptr::null(), 1, &mut none),
                LONGSTRAW_NULL_ARGUMENT
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
