//! What a set handle (`longstraw_rendezvous`, `longstraw_table`,
//! `longstraw_skeleton`) owns: the set, and the secret source of the
//! membership file it was loaded from, so that saving it names that source
//! again (the secret itself is never held here or written).

use longstraw_membership::SecretSource;

use crate::boundary::{handle, FfiResult};

/// The boxed value behind a set handle.
pub(crate) struct Held<T> {
    pub(crate) set: T,
    /// Where a keyed file said its secret comes from; `None` for a set built in code.
    pub(crate) secret: Option<SecretSource>,
}

impl<T> Held<T> {
    /// A set built in code: no secret source is known.
    pub(crate) fn new(set: T) -> Held<T> {
        Held { set, secret: None }
    }

    /// A set loaded from a membership file that named `secret` (or none).
    pub(crate) fn loaded(set: T, secret: Option<SecretSource>) -> Held<T> {
        Held { set, secret }
    }

    /// Boxes the value as the opaque handle type `H`; free it with [`free`].
    pub(crate) fn into_raw<H>(self) -> *mut H {
        Box::into_raw(Box::new(self)).cast::<H>()
    }
}

/// Borrows what a handle of type `H` holds.
///
/// # Safety
/// `ptr` must be NULL or a live handle made by [`Held::into_raw`] with this `T`.
pub(crate) unsafe fn held<'a, H, T>(ptr: *const H) -> FfiResult<&'a Held<T>> {
    // SAFETY: forwarded contract; the handle is a cast Box<Held<T>>.
    unsafe { handle::<H, Held<T>>(ptr) }
}

/// Drops what a handle holds. NULL is ignored.
///
/// # Safety
/// `ptr` must be NULL or a live handle made by [`Held::into_raw`] with this
/// `T`, not used again afterwards.
pub(crate) unsafe fn free<H, T>(ptr: *mut H) {
    if !ptr.is_null() {
        // SAFETY: made by Box::into_raw in Held::into_raw; the caller gives
        // up its last use of it here.
        drop(unsafe { Box::from_raw(ptr.cast::<Held<T>>()) });
    }
}
