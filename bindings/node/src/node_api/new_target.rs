//! Class constructors called without `new`.
//!
//! An ES class called without `new` throws a TypeError. A constructor that
//! napi-rs generates does not: it wraps whatever `this` the call had (the
//! module's exports object, for `longstraw.Rendezvous(nodes)`) and returns
//! it. napi-rs hands the Rust constructor no `napi_callback_info`, so
//! `napi_get_new_target` cannot be asked; the constructor checks its `this`
//! instead. A call made with `new` (or `Reflect.construct`, or `super()` in
//! a subclass) gets a fresh object that inherits from the class's prototype
//! and wraps nothing yet. Any other `this` (undefined, the exports object,
//! a plain object, an instance that already wraps a set) gets V8's own
//! TypeError for a class, and nothing is wrapped.

use std::ffi::CStr;
use std::ptr;

use napi::sys;

use super::types::{type_of, JsType};
use super::{check, Cx};
use crate::error::{codes, JsErr, Kind, Res};

/// Fails with the TypeError V8 throws for the ES class `class` called
/// without `new`, unless `this` is an instance of the napi-rs class `class`
/// that does not wrap a value yet.
pub fn require_new(cx: Cx, this: sys::napi_value, class: &'static CStr) -> Res<()> {
    if constructing(cx, this, class)? {
        Ok(())
    } else {
        let name = class.to_str().unwrap_or("longstraw object");
        Err(JsErr::new(
            Kind::Type,
            codes::INVALID_ARG_TYPE,
            format!("Class constructor {name} cannot be invoked without 'new'"),
        ))
    }
}

/// Whether `this` is what a construct call of `class` passes its constructor.
fn constructing(cx: Cx, this: sys::napi_value, class: &'static CStr) -> Res<bool> {
    if type_of(cx, this)? != JsType::Object {
        return Ok(false);
    }
    // napi-rs keys its constructors by the class name with its NUL.
    let key = std::str::from_utf8(class.to_bytes_with_nul()).unwrap_or_default();
    let Some(reference) = napi::__private::get_class_constructor(key) else {
        return Err(JsErr::new(
            Kind::Error,
            codes::INTERNAL,
            format!("the class {} is not registered", class.to_str().unwrap_or("?")),
        ));
    };
    let mut constructor = ptr::null_mut();
    // SAFETY: `reference` is napi-rs's reference to the class in this
    // environment (its registry is per thread, like the environment), and
    // `constructor` is a valid out-pointer.
    let status = unsafe { sys::napi_get_reference_value(cx.0, reference, &mut constructor) };
    check(status, "get the class")?;
    let mut inherits = false;
    // SAFETY: `this` and `constructor` belong to the current call; `inherits`
    // is a valid out-pointer. A throwing `Symbol.hasInstance` or proxy trap
    // leaves its exception pending, which `check` lets through.
    let status = unsafe { sys::napi_instanceof(cx.0, this, constructor, &mut inherits) };
    check(status, "instanceof")?;
    if !inherits {
        return Ok(false);
    }
    let mut wrapped = ptr::null_mut();
    // SAFETY: `this` is an object of the current call; `wrapped` is a valid
    // out-pointer, only compared with null. An object that wraps nothing
    // makes the call fail without throwing.
    let status = unsafe { sys::napi_unwrap(cx.0, this, &mut wrapped) };
    Ok(status != sys::Status::napi_ok || wrapped.is_null())
}
