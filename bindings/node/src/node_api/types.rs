//! What a JavaScript value is: its `typeof`, whether it is an array or a
//! typed array (and whether that typed array's memory is still attached),
//! and how an error message describes it.

use std::ptr;

use napi::sys;

use super::{check, strings, Cx};
use crate::error::{codes, JsErr, Kind, Res};

/// The JavaScript type of a value, as `typeof` would report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsType {
    Undefined,
    Null,
    Boolean,
    Number,
    String,
    Symbol,
    Object,
    Function,
    External,
    BigInt,
}

pub fn type_of(cx: Cx, v: sys::napi_value) -> Res<JsType> {
    let mut t = 0;
    // SAFETY: `cx` and `v` belong to the current call; `t` is a valid out-pointer.
    let status = unsafe { sys::napi_typeof(cx.0, v, &mut t) };
    check(status, "typeof")?;
    Ok(match t {
        sys::ValueType::napi_undefined => JsType::Undefined,
        sys::ValueType::napi_null => JsType::Null,
        sys::ValueType::napi_boolean => JsType::Boolean,
        sys::ValueType::napi_number => JsType::Number,
        sys::ValueType::napi_string => JsType::String,
        sys::ValueType::napi_symbol => JsType::Symbol,
        sys::ValueType::napi_function => JsType::Function,
        sys::ValueType::napi_external => JsType::External,
        sys::ValueType::napi_bigint => JsType::BigInt,
        _ => JsType::Object,
    })
}

pub fn is_array(cx: Cx, v: sys::napi_value) -> Res<bool> {
    let mut yes = false;
    // SAFETY: `cx` and `v` belong to the current call; `yes` is a valid out-pointer.
    let status = unsafe { sys::napi_is_array(cx.0, v, &mut yes) };
    check(status, "is_array")?;
    Ok(yes)
}

/// The value of a number (NaN for a value that is not one).
pub fn number(cx: Cx, v: sys::napi_value) -> f64 {
    let mut x = f64::NAN;
    // SAFETY: `v` belongs to the current call; a value that is not a number
    // only sets `napi_number_expected` and leaves `x` as it was.
    unsafe { sys::napi_get_value_double(cx.0, v, &mut x) };
    x
}

/// The value of a boolean (false for a value that is not one).
pub fn boolean(cx: Cx, v: sys::napi_value) -> bool {
    let mut b = false;
    // SAFETY: as in `number`: a value that is not a boolean leaves `b` false.
    unsafe { sys::napi_get_value_bool(cx.0, v, &mut b) };
    b
}

/// A typed array: its element type, element count, data and ArrayBuffer.
#[derive(Clone, Copy)]
pub struct TypedArray {
    pub kind: sys::napi_typedarray_type,
    pub len: usize,
    pub data: *mut u8,
    pub buffer: sys::napi_value,
}

/// The typed array `v` is, or `None` for any other value. Its memory may be
/// detached (length 0): see `live_typed_array` for reading.
pub fn typed_array(cx: Cx, v: sys::napi_value) -> Res<Option<TypedArray>> {
    let mut yes = false;
    // SAFETY: `cx` and `v` belong to the current call.
    let status = unsafe { sys::napi_is_typedarray(cx.0, v, &mut yes) };
    check(status, "is_typedarray")?;
    if !yes {
        return Ok(None);
    }
    let mut kind = 0;
    let mut len = 0usize;
    let mut data: *mut std::ffi::c_void = ptr::null_mut();
    let mut buffer = ptr::null_mut();
    let mut offset = 0usize;
    // SAFETY: `v` is a typed array (checked above); every out-pointer is valid.
    let status =
        unsafe { sys::napi_get_typedarray_info(cx.0, v, &mut kind, &mut len, &mut data, &mut buffer, &mut offset) };
    check(status, "get_typedarray_info")?;
    Ok(Some(TypedArray {
        kind,
        len,
        data: data.cast(),
        buffer,
    }))
}

/// `typed_array` for reading: a typed array over a detached ArrayBuffer
/// (transferred to a worker, `structuredClone(..., { transfer })`,
/// `ArrayBuffer.prototype.transfer`) reports length 0, so read as a key or a
/// batch it would be an empty key or an empty batch, a silent wrong answer.
/// It is a TypeError naming `what` instead.
pub fn live_typed_array(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<Option<TypedArray>> {
    let Some(array) = typed_array(cx, v)? else {
        return Ok(None);
    };
    if !array.buffer.is_null() {
        let mut detached = false;
        // SAFETY: `cx` and the buffer belong to the current call; `detached` is a valid out-pointer.
        let status = unsafe { sys::napi_is_detached_arraybuffer(cx.0, array.buffer, &mut detached) };
        if status == sys::Status::napi_ok && detached {
            return Err(JsErr::new(
                Kind::Type,
                codes::INVALID_ARG_TYPE,
                format!(
                    "{} is a view of a detached ArrayBuffer (its memory was transferred); pass a live buffer",
                    what()
                ),
            ));
        }
    }
    Ok(Some(array))
}

/// A short description of a value for error messages: its type and, for
/// primitives, the value itself.
pub fn describe(cx: Cx, v: sys::napi_value) -> String {
    let Ok(t) = type_of(cx, v) else {
        return "a value".into();
    };
    match t {
        JsType::Boolean => format!("boolean {}", boolean(cx, v)),
        JsType::Number => format!("number {}", show_number(number(cx, v))),
        JsType::BigInt => match strings::coerce_to_string(cx, v) {
            Some(s) => format!("bigint {s}n"),
            None => "a bigint".into(),
        },
        JsType::String => match strings::utf16(cx, v) {
            Ok(units) => format!("string {}", strings::show_utf16(&units)),
            Err(_) => "a string".into(),
        },
        JsType::Object => match typed_array(cx, v) {
            Ok(Some(a)) => typed_array_name(a.kind).into(),
            _ if is_array(cx, v).unwrap_or(false) => "an array".into(),
            _ => "an object".into(),
        },
        _ => describe_type_only(cx, v).into(),
    }
}

/// The type of a value for an error message, never its content: for a value
/// that may be a secret, where even a prefix of it must not be shown.
pub fn describe_type_only(cx: Cx, v: sys::napi_value) -> &'static str {
    let Ok(t) = type_of(cx, v) else {
        return "a value";
    };
    match t {
        JsType::Undefined => "undefined",
        JsType::Null => "null",
        JsType::Boolean => "a boolean",
        JsType::Number => "a number",
        JsType::BigInt => "a bigint",
        JsType::String => "a string",
        JsType::Symbol => "a symbol",
        JsType::Function => "a function",
        JsType::External => "an external",
        JsType::Object => match typed_array(cx, v) {
            Ok(Some(a)) => typed_array_name(a.kind),
            _ if is_array(cx, v).unwrap_or(false) => "an array",
            _ => "an object",
        },
    }
}

/// A typed array's class with its article ("a Uint8Array", "an Int8Array").
fn typed_array_name(kind: sys::napi_typedarray_type) -> &'static str {
    use sys::TypedarrayType as T;
    match kind {
        T::int8_array => "an Int8Array",
        T::uint8_array => "a Uint8Array",
        T::uint8_clamped_array => "a Uint8ClampedArray",
        T::int16_array => "an Int16Array",
        T::uint16_array => "a Uint16Array",
        T::int32_array => "an Int32Array",
        T::uint32_array => "a Uint32Array",
        T::float32_array => "a Float32Array",
        T::float64_array => "a Float64Array",
        T::bigint64_array => "a BigInt64Array",
        T::biguint64_array => "a BigUint64Array",
        _ => "a typed array",
    }
}

/// A number the way JavaScript prints it (enough for error messages).
pub fn show_number(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if x == 0.0 && x.is_sign_negative() {
        "-0".into()
    } else {
        format!("{x}")
    }
}
