//! The panic boundary and the checks every pointer from C goes through.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::result::longstraw_result::{self, *};
use crate::result::settle_failure;

/// What the body of an export returns before it becomes a code.
pub(crate) type FfiResult<T = ()> = Result<T, longstraw_result>;

/// Runs the body of an export, turning a panic into
/// `LONGSTRAW_INTERNAL_ERROR` instead of unwinding into C (undefined
/// behaviour) or aborting the host process.
pub(crate) fn boundary(body: impl FnOnce() -> FfiResult) -> longstraw_result {
    // AssertUnwindSafe: the only state a body shares with other calls is a
    // set, and a set publishes a change only after building it completely on
    // a private copy, so a panic part-way leaves nothing half-written.
    let code = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return LONGSTRAW_OK,
        Ok(Err(code)) => code,
        Err(_) => LONGSTRAW_INTERNAL_ERROR,
    };
    // Only failures touch the last error message, so that lookups stay free of it.
    settle_failure();
    code
}

/// Like [`boundary`] for the few exports that return a value instead of a
/// code: a panic yields `fallback`.
pub(crate) fn boundary_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

fn check_aligned<T>(ptr: *const T) -> FfiResult {
    if ptr.is_aligned() {
        Ok(())
    } else {
        Err(LONGSTRAW_MISALIGNED_POINTER)
    }
}

/// The largest element count a slice of `T` may have (Rust's `isize::MAX`
/// bytes limit); a larger length cannot describe real memory.
fn check_len<T>(len: usize) -> FfiResult {
    let size = std::mem::size_of::<T>().max(1);
    if len <= isize::MAX as usize / size {
        Ok(())
    } else {
        Err(LONGSTRAW_LENGTH_MISMATCH)
    }
}

/// An input array from C. `(NULL, 0)` is the empty slice; `(NULL, n > 0)`
/// is `LONGSTRAW_NULL_ARGUMENT`.
///
/// # Safety
/// When `ptr` is not NULL it must point to `len` initialised `T`s that stay
/// valid and unmodified for `'a`.
pub(crate) unsafe fn in_slice<'a, T>(ptr: *const T, len: usize) -> FfiResult<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(LONGSTRAW_NULL_ARGUMENT);
    }
    check_aligned(ptr)?;
    check_len::<T>(len)?;
    // SAFETY: non-null, aligned, length within isize::MAX bytes; validity
    // for `len` elements is the caller's contract (documented in the header).
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// An output array from C, with the same NULL rules as [`in_slice`].
///
/// # Safety
/// When `ptr` is not NULL it must point to `len` writable `T`s, valid for
/// `'a` and overlapping no other argument.
pub(crate) unsafe fn out_slice<'a, T>(ptr: *mut T, len: usize) -> FfiResult<&'a mut [T]> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(LONGSTRAW_NULL_ARGUMENT);
    }
    check_aligned(ptr)?;
    check_len::<T>(len)?;
    // SAFETY: as in `in_slice`, plus exclusivity, which the header requires
    // (outputs must not overlap inputs).
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// A checked out-parameter. Writing goes through the raw pointer, so two
/// out-parameters that alias each other are not undefined behaviour here.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    /// Checks `ptr` (not NULL, aligned) without writing to it.
    pub(crate) fn new(ptr: *mut T) -> FfiResult<Out<T>> {
        if ptr.is_null() {
            return Err(LONGSTRAW_NULL_ARGUMENT);
        }
        check_aligned(ptr)?;
        Ok(Out(ptr))
    }

    /// Stores `value`.
    ///
    /// # Safety
    /// The pointer given to [`Out::new`] must be valid for a write of `T`.
    pub(crate) unsafe fn write(self, value: T) {
        // SAFETY: checked non-null and aligned in `new`; validity is the
        // caller's contract. `write` does not drop the old (possibly
        // uninitialised) value.
        unsafe { self.0.write(value) }
    }
}

/// Borrows a handle created by this library.
///
/// # Safety
/// `ptr` must be NULL or a live pointer of the right type from this library.
pub(crate) unsafe fn handle<'a, H, T>(ptr: *const H) -> FfiResult<&'a T> {
    if ptr.is_null() {
        return Err(LONGSTRAW_NULL_ARGUMENT);
    }
    // SAFETY: the opaque `H` pointers handed to C are casts of pointers to
    // `T` made by this library (Box::into_raw / Arc::into_raw), still live by
    // the caller's contract.
    Ok(unsafe { &*ptr.cast::<T>() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_internal_error() {
        let code = boundary(|| panic!("deliberate test panic"));
        assert_eq!(code, LONGSTRAW_INTERNAL_ERROR);
        assert_eq!(boundary_value(7, || panic!("deliberate test panic")), 7);
    }

    #[test]
    fn null_and_empty_slices() {
        // SAFETY: (NULL, 0) and (NULL, 3) never dereference.
        unsafe {
            assert_eq!(in_slice::<u8>(std::ptr::null(), 0), Ok(&[][..]));
            assert_eq!(in_slice::<u8>(std::ptr::null(), 3), Err(LONGSTRAW_NULL_ARGUMENT));
        }
    }

    #[test]
    fn misaligned_and_impossible_lengths_are_refused() {
        let words = [0u64; 2];
        let odd = words.as_ptr().cast::<u8>().wrapping_add(1).cast::<u64>();
        // SAFETY: both calls fail their checks before touching memory.
        unsafe {
            assert_eq!(in_slice(odd, 1), Err(LONGSTRAW_MISALIGNED_POINTER));
            assert_eq!(in_slice(words.as_ptr(), usize::MAX / 2), Err(LONGSTRAW_LENGTH_MISMATCH));
        }
    }
}
