//! Building answers: node ids, numbers, arrays, typed arrays and objects
//! made with Node-API directly, and `Raw`, which returns such a value from a
//! `#[napi]` method as it is.

use std::ffi::CStr;
use std::ptr;

use napi::bindgen_prelude::{ToNapiValue, TypeName, ValueType};
use napi::sys;

use super::compiled::Compiled;
use super::{check, slice_or_empty_mut, Cx};
use crate::error::{codes, JsErr, Kind, Res};

/// A JavaScript value made during the current call; returned as is.
pub struct Raw(pub sys::napi_value);

impl ToNapiValue for Raw {
    unsafe fn to_napi_value(_env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        Ok(val.0)
    }
}

impl TypeName for Raw {
    fn type_name() -> &'static str {
        "unknown"
    }
    fn value_type() -> ValueType {
        ValueType::Unknown
    }
}

/// The JavaScript object for a value of a `#[napi]` class (or any value
/// napi-rs converts), made during the current call.
pub fn instance<T: ToNapiValue>(cx: Cx, value: T) -> Res<sys::napi_value> {
    // SAFETY: `cx` is the live environment of the current call (or of an
    // async task's completion), which is what napi-rs's conversion needs.
    unsafe { T::to_napi_value(cx.0, value) }.map_err(|e| JsErr::new(Kind::Error, codes::INTERNAL, e.reason))
}

/// A promise rejection carrying the JavaScript error object for `e` (a
/// TypeError or RangeError keeps its constructor and `code`).
pub fn rejection(cx: Cx, e: &JsErr) -> napi::Error {
    let value = e.to_js(cx.0);
    // SAFETY: `value` was just created in this environment.
    let unknown = unsafe { napi::bindgen_prelude::Unknown::from_raw_unchecked(cx.0, value) };
    napi::Error::from_unknown_without_coercion(unknown)
}

/// A number for a `u32`.
pub fn uint(cx: Cx, x: u32) -> Res<sys::napi_value> {
    let mut out = ptr::null_mut();
    // SAFETY: creates a number in the current call's scope.
    let status = unsafe { sys::napi_create_uint32(cx.0, x, &mut out) };
    check(status, "create_uint32")?;
    Ok(out)
}

/// A number.
pub fn number(cx: Cx, x: f64) -> Res<sys::napi_value> {
    let mut out = ptr::null_mut();
    // SAFETY: creates a number in the current call's scope.
    let status = unsafe { sys::napi_create_double(cx.0, x, &mut out) };
    check(status, "create_double")?;
    Ok(out)
}

/// A bigint for a `u64`.
pub fn bigint(cx: Cx, x: u64) -> Res<sys::napi_value> {
    let mut out = ptr::null_mut();
    // SAFETY: creates a bigint in the current call's scope.
    let status = unsafe { sys::napi_create_bigint_uint64(cx.0, x, &mut out) };
    check(status, "create_bigint_uint64")?;
    Ok(out)
}

/// `true` or `false`.
pub fn boolean(cx: Cx, x: bool) -> Res<sys::napi_value> {
    let mut out = ptr::null_mut();
    // SAFETY: fetches a boolean singleton of the current call's environment.
    let status = unsafe { sys::napi_get_boolean(cx.0, x, &mut out) };
    check(status, "get_boolean")?;
    Ok(out)
}

/// `null`.
pub fn null(cx: Cx) -> Res<sys::napi_value> {
    let mut out = ptr::null_mut();
    // SAFETY: fetches the `null` singleton of the current call's environment.
    let status = unsafe { sys::napi_get_null(cx.0, &mut out) };
    check(status, "get_null")?;
    Ok(out)
}

/// `undefined`.
pub fn undefined(cx: Cx) -> Res<sys::napi_value> {
    let mut out = ptr::null_mut();
    // SAFETY: fetches the `undefined` singleton of the current call's environment.
    let status = unsafe { sys::napi_get_undefined(cx.0, &mut out) };
    check(status, "get_undefined")?;
    Ok(out)
}

/// A node id as JavaScript sees it: a string when the bytes are UTF-8,
/// otherwise a Buffer.
pub fn id(cx: Cx, bytes: &[u8]) -> Res<sys::napi_value> {
    let mut out = ptr::null_mut();
    // emnapi (the WebAssembly build) ends a Latin-1 string at its first NUL
    // even when given the length, so there an ASCII id goes through UTF-8,
    // which keeps every byte.
    if bytes.is_ascii() && cfg!(not(target_family = "wasm")) {
        // ASCII is Latin-1 too: V8 copies it instead of decoding UTF-8.
        // SAFETY: `bytes` holds the given number of one-byte characters.
        let status =
            unsafe { sys::napi_create_string_latin1(cx.0, bytes.as_ptr().cast(), bytes.len() as isize, &mut out) };
        check(status, "create_string_latin1")?;
    } else if std::str::from_utf8(bytes).is_ok() {
        // SAFETY: `bytes` is valid UTF-8 of the given length.
        let status =
            unsafe { sys::napi_create_string_utf8(cx.0, bytes.as_ptr().cast(), bytes.len() as isize, &mut out) };
        check(status, "create_string_utf8")?;
    } else {
        let mut data = ptr::null_mut();
        // SAFETY: copies `bytes` into a new Buffer.
        let status =
            unsafe { sys::napi_create_buffer_copy(cx.0, bytes.len(), bytes.as_ptr().cast(), &mut data, &mut out) };
        check(status, "create_buffer_copy")?;
    }
    Ok(out)
}

/// A JavaScript array of the `len` values of `items`. Its elements are
/// defined, never set: no setter a user put on `Array.prototype` or
/// `Object.prototype` runs or changes the answer (see `compiled`).
pub fn array_of(cx: Cx, items: impl Iterator<Item = Res<sys::napi_value>>, len: usize) -> Res<sys::napi_value> {
    match Compiled::get(cx) {
        Some(compiled) => compiled.array_of(items, len),
        None => defined_array(cx, items, len),
    }
}

/// `array_of` without the compiled functions (where they could not be
/// compiled): each element is defined by `napi_define_properties` under its
/// index as a name, which is slower but runs no setter either.
fn defined_array(cx: Cx, items: impl Iterator<Item = Res<sys::napi_value>>, len: usize) -> Res<sys::napi_value> {
    const CHUNK: usize = 64;
    let mut arr = ptr::null_mut();
    // SAFETY: creates a new array in the current call's scope.
    let status = unsafe { sys::napi_create_array_with_length(cx.0, len, &mut arr) };
    check(status, "create_array_with_length")?;
    let mut names = [[0u8; 12]; CHUNK];
    let mut values = [ptr::null_mut(); CHUNK];
    let mut items = items.enumerate().peekable();
    while items.peek().is_some() {
        let mut n = 0;
        while n < CHUNK {
            let Some((i, item)) = items.next() else { break };
            values[n] = item?;
            // A decimal index (at most 10 digits) and its terminating zero.
            let digits = i.to_string();
            names[n] = [0; 12];
            names[n][..digits.len()].copy_from_slice(digits.as_bytes());
            n += 1;
        }
        let descriptors: Vec<sys::napi_property_descriptor> = (0..n)
            .map(|j| sys::napi_property_descriptor {
                utf8name: names[j].as_ptr().cast(),
                name: ptr::null_mut(),
                method: None,
                getter: None,
                setter: None,
                value: values[j],
                attributes: sys::PropertyAttributes::writable
                    | sys::PropertyAttributes::enumerable
                    | sys::PropertyAttributes::configurable,
                data: ptr::null_mut(),
            })
            .collect();
        // SAFETY: `arr` is the fresh array; each descriptor names a
        // zero-terminated decimal index and a value of this call.
        let status = unsafe { sys::napi_define_properties(cx.0, arr, n, descriptors.as_ptr()) };
        check(status, "define_properties")?;
    }
    Ok(arr)
}

/// A new zero-filled Uint32Array and its elements, to fill in place. Call
/// `publish` on the array once filled, before JavaScript reads it.
pub fn new_u32_array<'a>(cx: Cx, len: usize) -> Res<(sys::napi_value, &'a mut [u32])> {
    let mut data: *mut std::ffi::c_void = ptr::null_mut();
    let mut buffer = ptr::null_mut();
    let byte_len = len
        .checked_mul(4)
        .ok_or_else(|| JsErr::new(Kind::Range, codes::LENGTH_MISMATCH, format!("{len} keys is too many")))?;
    // SAFETY: creates a new ArrayBuffer of `byte_len` zeroed bytes.
    let status = unsafe { sys::napi_create_arraybuffer(cx.0, byte_len, &mut data, &mut buffer) };
    check(status, "create_arraybuffer")?;
    let mut array = ptr::null_mut();
    // SAFETY: `buffer` holds exactly `len` u32 elements from offset 0.
    let status =
        unsafe { sys::napi_create_typedarray(cx.0, sys::TypedarrayType::uint32_array, len, buffer, 0, &mut array) };
    check(status, "create_typedarray")?;
    // SAFETY: the new buffer's memory is ours alone until we return, and
    // ArrayBuffer memory is aligned for any element type.
    Ok((array, unsafe { slice_or_empty_mut(data.cast(), len) }))
}

/// Makes what Rust wrote into a typed array's elements (through the slice of
/// `new_u32_array` or `args::u32_array_mut`) visible to JavaScript.
///
/// Natively the slice is the typed array's own memory, and this does nothing.
/// Under WebAssembly (emnapi) an ArrayBuffer lives outside the module's
/// memory: the data pointer Node-API hands out points at a copy in wasm
/// memory, taken when the pointer was asked for, and writes to it reach the
/// ArrayBuffer only through `emnapi_sync_memory`. An answer returned without
/// it would be the zeros (or the caller's old values) it started with.
pub fn publish(cx: Cx, array: sys::napi_value, len: usize) -> Res<()> {
    #[cfg(target_family = "wasm")]
    if len > 0 {
        // (An empty array has no copy in wasm memory, and nothing to copy.)
        let mut array = array;
        // SAFETY: `array` is a typed array of the current call; `usize::MAX`
        // as the length (-1 as a wasm32 size) copies the whole view back.
        let status = unsafe { emnapi_sync_memory(cx.0, false, &mut array, 0, usize::MAX) };
        check(status, "emnapi_sync_memory")?;
    }
    #[cfg(not(target_family = "wasm"))]
    let _ = (cx, array, len);
    Ok(())
}

#[cfg(target_family = "wasm")]
unsafe extern "C" {
    /// emnapi: copies between an ArrayBuffer (or view) and its copy in wasm
    /// memory; `js_to_wasm` false copies the wasm copy out to JavaScript.
    fn emnapi_sync_memory(
        env: sys::napi_env,
        js_to_wasm: bool,
        arraybuffer_or_view: *mut sys::napi_value,
        byte_offset: usize,
        length: usize,
    ) -> sys::napi_status;
}

/// A plain object with the given data properties, defined (no setter a
/// user put on `Object.prototype` runs).
pub fn object(cx: Cx, properties: &[(&CStr, sys::napi_value)]) -> Res<sys::napi_value> {
    let mut obj = ptr::null_mut();
    // SAFETY: creates a plain object in the current call's scope.
    let status = unsafe { sys::napi_create_object(cx.0, &mut obj) };
    check(status, "create_object")?;
    for (name, value) in properties {
        let property = sys::napi_property_descriptor {
            utf8name: name.as_ptr(),
            name: ptr::null_mut(),
            method: None,
            getter: None,
            setter: None,
            value: *value,
            attributes: sys::PropertyAttributes::writable
                | sys::PropertyAttributes::enumerable
                | sys::PropertyAttributes::configurable,
            data: ptr::null_mut(),
        };
        // SAFETY: `obj` is the fresh object, `value` a value of this call and
        // `name` zero-terminated.
        let status = unsafe { sys::napi_define_properties(cx.0, obj, 1, &property) };
        check(status, "define_properties")?;
    }
    Ok(obj)
}
