//! The raw Node-API layer: the only code in this crate that calls `napi_*`
//! functions directly. napi-rs converts the rest.
//!
//! It exists for speed and for precise errors: a per-key lookup through a
//! generated napi-rs method paid more for its borrow bookkeeping than for the
//! lookup, and napi-rs's own conversions coerce or report values less
//! exactly. It is split by job:
//!
//! - `types`: what a JavaScript value is (`typeof`, arrays, typed arrays,
//!   detached buffers), and how it is described in an error message;
//! - `strings`: reading strings as UTF-16 and encoding them as UTF-8;
//! - `args`: reading arguments (keys, ids, counts, seeds, weights, options,
//!   typed arrays) into Rust values, with the binding's errors;
//! - `out`: building answers (ids, arrays, typed arrays, objects);
//! - `compiled`: two JavaScript helpers that batches call per chunk;
//! - `external`: native memory reported to V8's garbage collector;
//! - `methods`: the per-key methods, installed on the class prototypes as
//!   direct callbacks (their only body);
//! - `branded`: `owner`, `ownerIndex`, `topK`, `topKDistinct` and `rank` as
//!   JavaScript methods over native calls, with the receiver checked once per
//!   object and each node id string made once;
//! - `receivers`: getters guarded against a foreign `this`;
//! - `new_target`: constructors called without `new` throw, as an ES class's do.
//!
//! Every function takes the current call's `Cx`, and every value it takes
//! or returns belongs to that call.

pub mod args;
pub mod branded;
pub mod compiled;
pub mod external;
pub mod methods;
pub mod new_target;
pub mod out;
pub mod receivers;
pub mod strings;
pub mod types;

use napi::sys;

use crate::error::{codes, JsErr, Kind, Res};

/// The Node-API environment of the current call (or finalizer). Only valid
/// during that call; it carries no behaviour of its own.
#[derive(Clone, Copy)]
pub struct Cx(pub sys::napi_env);

impl Cx {
    /// The environment a `#[napi]` method was called with.
    pub fn of(env: &napi::Env) -> Cx {
        Cx(env.raw())
    }
}

/// Fails with an internal error (or lets a pending JS exception through,
/// see `JsErr::throw`) when a Node-API call does not return `napi_ok`.
pub(crate) fn check(status: sys::napi_status, what: &str) -> Res<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(JsErr::new(
            Kind::Error,
            codes::INTERNAL,
            format!("Node-API call failed ({what}, status {status})"),
        ))
    }
}

/// # Safety
/// `data` must point at `len` initialised elements that stay valid for `'a`,
/// or be null with `len == 0`.
pub(crate) unsafe fn slice_or_empty<'a, T>(data: *const T, len: usize) -> &'a [T] {
    if data.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: upheld by the caller.
        unsafe { std::slice::from_raw_parts(data, len) }
    }
}

/// # Safety
/// As `slice_or_empty`, and nothing else may access the memory during `'a`.
pub(crate) unsafe fn slice_or_empty_mut<'a, T>(data: *mut T, len: usize) -> &'a mut [T] {
    if data.is_null() || len == 0 {
        &mut []
    } else {
        // SAFETY: upheld by the caller.
        unsafe { std::slice::from_raw_parts_mut(data, len) }
    }
}
