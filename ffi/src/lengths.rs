//! Id and label lengths from C, checked against their limits before any
//! pointer is turned into a slice: an id length of `SIZE_MAX` is an invalid
//! id (or an unknown node), never a `LONGSTRAW_LENGTH_MISMATCH`, which would
//! blame the caller's buffer handling for what is a bad value.

use longstraw::MAX_NODE_ID_LEN;

use crate::boundary::{in_slice, FfiResult};
use crate::result::longstraw_result::{
    self, LONGSTRAW_INVALID_DOMAIN, LONGSTRAW_INVALID_NODE_ID, LONGSTRAW_UNKNOWN_NODE,
};
use crate::result::record_message;

/// The longest domain label (SPEC.md §12), the same limit as an id.
const MAX_LABEL_LEN: usize = MAX_NODE_ID_LEN;

/// An id argument; `too_long` is the operation's error for an id longer than
/// any id can be (`LONGSTRAW_INVALID_NODE_ID` on add, `LONGSTRAW_UNKNOWN_NODE`
/// where the id must name a node already in the set).
///
/// # Safety
/// `id` must be NULL or point to `len` bytes.
pub(crate) unsafe fn id_arg<'a>(id: *const u8, len: usize, too_long: longstraw_result) -> FfiResult<&'a [u8]> {
    if len > MAX_NODE_ID_LEN {
        // The set's words for an id that is too long to add (the same text every language shows).
        if too_long == LONGSTRAW_INVALID_NODE_ID {
            record_message(longstraw::Error::NodeIdTooLong { len }.to_string());
        } else if too_long == LONGSTRAW_UNKNOWN_NODE {
            // The set's words for an id it does not hold (the id cut short, and its length).
            // SAFETY: forwarded contract: `id` is NULL or points to `len` readable bytes.
            if let Ok(bytes) = unsafe { in_slice(id, len) } {
                record_message(longstraw_set::Error::UnknownNode { id: bytes.to_vec() }.to_string());
            }
        }
        return Err(too_long);
    }
    // SAFETY: forwarded contract.
    unsafe { in_slice(id, len) }
}

/// A domain label argument (length 0 is no label).
///
/// # Safety
/// `label` must be NULL or point to `len` bytes.
pub(crate) unsafe fn label_arg<'a>(label: *const u8, len: usize) -> FfiResult<&'a [u8]> {
    if len > MAX_LABEL_LEN {
        record_message(longstraw_set::Error::InvalidDomain { len }.to_string());
        return Err(LONGSTRAW_INVALID_DOMAIN);
    }
    // SAFETY: forwarded contract.
    unsafe { in_slice(label, len) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_too_long_to_be_in_the_set_gets_the_sets_unknown_node_message() {
        let id = vec![b'x'; 70000];
        // SAFETY: `id` is 70000 readable bytes.
        let got = unsafe { id_arg(id.as_ptr(), id.len(), LONGSTRAW_UNKNOWN_NODE) };
        assert_eq!(got.err(), Some(LONGSTRAW_UNKNOWN_NODE));
        // SAFETY: the library's message is a NUL-terminated string valid until the next call.
        let text = unsafe { std::ffi::CStr::from_ptr(crate::result::longstraw_last_error_message()) };
        let text = text.to_str().unwrap();
        let want = longstraw_set::Error::UnknownNode { id }.to_string();
        assert_eq!(text, want);
        assert!(
            text.starts_with("unknown node \"x") && text.ends_with("... (70000 bytes)"),
            "{text}"
        );
    }
}
