//! What a `longstraw_rendezvous` handle owns: the set, and the secret source
//! of the membership file it was loaded from, so that saving it names that
//! source again (the secret itself is never held here or written).

use longstraw_membership::SecretSource;

use crate::boundary::{handle, FfiResult};
use crate::mode::Rendezvous;
use crate::rendezvous::longstraw_rendezvous;

/// The boxed value behind a set handle.
pub(crate) struct Held {
    pub(crate) set: Rendezvous,
    /// Where a keyed file said its secret comes from; `None` for a set built in code.
    pub(crate) secret: Option<SecretSource>,
}

impl Held {
    /// Boxes a set (and the secret source of the file it came from, if any)
    /// as a handle; free it with [`free`].
    pub(crate) fn into_raw(set: Rendezvous, secret: Option<SecretSource>) -> *mut longstraw_rendezvous {
        Box::into_raw(Box::new(Held { set, secret })).cast()
    }
}

/// Borrows what a handle holds.
///
/// # Safety
/// `ptr` must be NULL or a live handle made by [`Held::into_raw`].
pub(crate) unsafe fn held<'a>(ptr: *const longstraw_rendezvous) -> FfiResult<&'a Held> {
    // SAFETY: forwarded contract; the handle is a cast Box<Held>.
    unsafe { handle::<longstraw_rendezvous, Held>(ptr) }
}

/// Drops what a handle holds. NULL is ignored.
///
/// # Safety
/// `ptr` must be NULL or a live handle made by [`Held::into_raw`], not used
/// again afterwards.
pub(crate) unsafe fn free(ptr: *mut longstraw_rendezvous) {
    if !ptr.is_null() {
        // SAFETY: made by Box::into_raw in Held::into_raw; the caller gives
        // up its last use of it here.
        drop(unsafe { Box::from_raw(ptr.cast::<Held>()) });
    }
}
