//! Reading arguments into Rust values, without silent coercion: keys and
//! node ids, packed batches, counts, seeds, weights, placement versions,
//! domain labels, arrays and option objects. A wrong value is a TypeError or
//! RangeError that names the argument (`what`) and describes the value.

use std::ptr;

use napi::sys;

use super::types::{self, JsType, TypedArray};
use super::{check, slice_or_empty, slice_or_empty_mut, strings, Cx};
use crate::error::{codes, JsErr, Kind, Res};
use crate::node_api::strings::KeyBuf;

/// "`what` must be `expected`; got <the value described>".
pub fn wrong_type(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String, expected: &str) -> JsErr {
    JsErr::type_error(format!("{} must be {expected}; got {}", what(), types::describe(cx, v)))
}

/// The bytes a typed array of element type `kind` holds, or `None` for any
/// other value; an error when its memory was detached.
fn typed<'a, T>(
    cx: Cx,
    v: sys::napi_value,
    kind: sys::napi_typedarray_type,
    what: &dyn Fn() -> String,
) -> Res<Option<&'a [T]>> {
    match types::live_typed_array(cx, v, what)? {
        Some(TypedArray { kind: k, len, data, .. }) if k == kind => {
            // SAFETY: the typed array's memory stays valid and in place for
            // the whole native call: no JavaScript runs before the call
            // returns, so it cannot be detached or resized meanwhile, and
            // the caller's `'a` does not outlive the call. A typed array's
            // byte offset is a multiple of its element size, so the pointer
            // is aligned for `T` (the element type of `kind`).
            Ok(Some(unsafe { slice_or_empty(data.cast::<T>(), len) }))
        }
        _ => Ok(None),
    }
}

/// The bytes of a key or node id: a string (as UTF-8), a Buffer or a
/// Uint8Array. A typed array is borrowed, not copied.
pub fn bytes<'b>(cx: Cx, v: sys::napi_value, buf: &'b mut KeyBuf, what: &dyn Fn() -> String) -> Res<&'b [u8]> {
    // Strings first: most keys are strings, and the read tells them apart.
    if let Some(bytes) = strings::utf8(cx, v, buf, what)? {
        return Ok(bytes);
    }
    match typed(cx, v, sys::TypedarrayType::uint8_array, what)? {
        Some(bytes) => Ok(bytes),
        None => Err(wrong_type(cx, v, what, "a string, Buffer or Uint8Array")),
    }
}

/// The bytes of a Buffer or Uint8Array (packed key bytes).
pub fn byte_array<'a>(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<&'a [u8]> {
    typed(cx, v, sys::TypedarrayType::uint8_array, what)?
        .ok_or_else(|| wrong_type(cx, v, what, "a Buffer or Uint8Array"))
}

/// The bytes of a Buffer or Uint8Array, or `None` for any other value
/// (which the caller describes itself).
pub fn byte_array_or_none<'a>(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<Option<&'a [u8]>> {
    typed(cx, v, sys::TypedarrayType::uint8_array, what)
}

/// The integer offsets of a packed key batch, borrowed from a typed array.
pub enum OffsetsRef<'a> {
    U32(&'a [u32]),
    U64(&'a [u64]),
}

impl OffsetsRef<'_> {
    /// How many keys the offsets delimit.
    pub fn keys(&self) -> usize {
        match self {
            OffsetsRef::U32(o) => o.len(),
            OffsetsRef::U64(o) => o.len(),
        }
        .saturating_sub(1)
    }

    /// The memory the offsets occupy (to check an output does not alias it).
    pub fn span(&self) -> (usize, usize) {
        match self {
            OffsetsRef::U32(o) => span(o),
            OffsetsRef::U64(o) => span(o),
        }
    }
}

/// The offsets of a packed batch: a Uint32Array or a BigUint64Array.
pub fn offsets<'a>(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<OffsetsRef<'a>> {
    if let Some(o) = typed(cx, v, sys::TypedarrayType::uint32_array, what)? {
        return Ok(OffsetsRef::U32(o));
    }
    match typed(cx, v, sys::TypedarrayType::biguint64_array, what)? {
        Some(o) => Ok(OffsetsRef::U64(o)),
        None => Err(wrong_type(cx, v, what, "a Uint32Array or BigUint64Array")),
    }
}

/// A Uint32Array to write into. The caller must not pass the same memory as
/// an input it reads through another slice (see `span`), and calls
/// `out::publish` on the array after writing (under WebAssembly the slice is
/// a copy). Under WebAssembly the slice is also a fresh copy of what
/// JavaScript last wrote, so it reads values JavaScript wrote before the call.
pub fn u32_array_mut<'a>(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<&'a mut [u32]> {
    match types::live_typed_array(cx, v, what)? {
        Some(TypedArray {
            kind: sys::TypedarrayType::uint32_array,
            len,
            data,
            ..
        }) => {
            // SAFETY: as in `typed`; nothing else reads or writes the array
            // during the native call.
            Ok(unsafe { slice_or_empty_mut(data.cast(), len) })
        }
        _ => Err(wrong_type(cx, v, what, "a Uint32Array")),
    }
}

/// The address range `[start, end)` a slice occupies.
pub fn span<T>(s: &[T]) -> (usize, usize) {
    let start = s.as_ptr() as usize;
    (start, start + std::mem::size_of_val(s))
}

/// Whether two address ranges share memory (an output must not alias an input).
pub fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A seed: a non-negative safe-integer number, or a bigint in u64 range;
/// `None` for `undefined` (not given).
pub fn seed(cx: Cx, v: sys::napi_value) -> Res<Option<u64>> {
    match types::type_of(cx, v)? {
        JsType::Undefined => Ok(None),
        JsType::Number => {
            let x = types::number(cx, v);
            if x.fract() != 0.0 || !x.is_finite() {
                return Err(JsErr::new(
                    Kind::Range,
                    codes::INVALID_SEED,
                    format!("seed {} is not an integer", types::show_number(x)),
                ));
            }
            if !(0.0..=MAX_SAFE_INTEGER).contains(&x) {
                return Err(JsErr::new(
                    Kind::Range,
                    codes::INVALID_SEED,
                    format!(
                        "seed {} is outside 0..=2^53-1 (pass a bigint for seeds up to 2^64-1)",
                        types::show_number(x)
                    ),
                ));
            }
            Ok(Some(x as u64))
        }
        JsType::BigInt => {
            let mut value = 0u64;
            let mut lossless = false;
            // SAFETY: `v` is a bigint; both out-pointers are valid.
            let status = unsafe { sys::napi_get_value_bigint_uint64(cx.0, v, &mut value, &mut lossless) };
            check(status, "get_value_bigint_uint64")?;
            if lossless {
                return Ok(Some(value));
            }
            // A value just out of range is shown; a longer one may be a
            // 128-bit secret given as the seed by mistake, and is not.
            let shown = match strings::coerce_to_string(cx, v) {
                Some(s) if s.trim_start_matches('-').len() <= 20 => format!("seed {s}n"),
                _ => "seed (a bigint of more than 20 digits)".into(),
            };
            Err(JsErr::new(
                Kind::Range,
                codes::INVALID_SEED,
                format!("{shown} is outside 0n..=2n**64n-1n"),
            ))
        }
        // Only the type: a string here may be a secret given as the seed.
        _ => Err(JsErr::type_error(format!(
            "seed must be a number or bigint; got {}",
            types::describe_type_only(cx, v)
        ))),
    }
}

/// A weight: any JavaScript number (the core decides which are valid).
pub fn weight(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<f64> {
    match types::type_of(cx, v)? {
        JsType::Number => Ok(types::number(cx, v)),
        _ => Err(wrong_type(cx, v, what, "a number")),
    }
}

/// A weight argument that defaults to 1 when `undefined`.
pub fn weight_or_one(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<f64> {
    match types::type_of(cx, v)? {
        JsType::Undefined => Ok(1.0),
        _ => weight(cx, v, what),
    }
}

/// A count (such as `k`): a non-negative integer number. Values above
/// `u32::MAX` are capped, since no set has more nodes than that.
pub fn count(cx: Cx, v: sys::napi_value, what: &str) -> Res<usize> {
    match types::type_of(cx, v)? {
        JsType::Number => {
            let x = types::number(cx, v);
            if x.fract() != 0.0 || !x.is_finite() || x < 0.0 {
                return Err(JsErr::new(
                    Kind::Range,
                    codes::INVALID_COUNT,
                    format!("{what} must be a non-negative integer; got {}", types::show_number(x)),
                ));
            }
            Ok(x.min(u32::MAX as f64) as usize)
        }
        _ => Err(wrong_type(cx, v, &|| what.into(), "a non-negative integer")),
    }
}

/// A placement version number (`undefined`: version 1).
pub fn placement(cx: Cx, v: sys::napi_value) -> Res<longstraw::Placement> {
    match types::type_of(cx, v)? {
        JsType::Undefined => Ok(longstraw::Placement::V1),
        JsType::Number => {
            let x = types::number(cx, v);
            if x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x) {
                Ok(longstraw::Placement::from_number(x as u32)?)
            } else {
                Err(JsErr::new(
                    Kind::Range,
                    codes::UNKNOWN_PLACEMENT,
                    format!(
                        "unknown placement version {} (this build knows: 1)",
                        types::show_number(x)
                    ),
                ))
            }
        }
        _ => Err(wrong_type(cx, v, &|| "placement".into(), "a number")),
    }
}

/// A failure domain label: a string, Buffer or Uint8Array of 1 to 65535
/// bytes, or `null`/`undefined` for none.
pub fn domain(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<Option<Vec<u8>>> {
    if matches!(types::type_of(cx, v)?, JsType::Undefined | JsType::Null) {
        return Ok(None);
    }
    let mut buf = KeyBuf::default();
    let label = bytes(cx, v, &mut buf, what)?;
    if label.is_empty() || label.len() > longstraw::MAX_NODE_ID_LEN {
        return Err(JsErr::from(longstraw_set::Error::InvalidDomain { len: label.len() }).context(what()));
    }
    Ok(Some(label.to_vec()))
}

/// A small non-negative integer option (partition bits, replicas, fan-out
/// bits, levels), or `None` when undefined. `max` is the largest value the
/// type holds; the core checks the real range.
pub fn param(cx: Cx, v: sys::napi_value, what: &str, max: u32) -> Res<Option<u32>> {
    match types::type_of(cx, v)? {
        JsType::Undefined => Ok(None),
        JsType::Number => {
            let x = types::number(cx, v);
            if x.fract() == 0.0 && (0.0..=f64::from(max)).contains(&x) {
                Ok(Some(x as u32))
            } else {
                Err(JsErr::new(
                    Kind::Range,
                    codes::INVALID_PARAMETER,
                    format!(
                        "options.{what} must be an integer from 0 to {max}; got {}",
                        types::show_number(x)
                    ),
                ))
            }
        }
        _ => Err(wrong_type(
            cx,
            v,
            &|| format!("options.{what}"),
            "a non-negative integer",
        )),
    }
}

/// A boolean option, `false` when undefined.
pub fn flag(cx: Cx, v: sys::napi_value, what: &str) -> Res<bool> {
    match types::type_of(cx, v)? {
        JsType::Undefined => Ok(false),
        JsType::Boolean => Ok(types::boolean(cx, v)),
        _ => Err(wrong_type(cx, v, &|| format!("options.{what}"), "a boolean")),
    }
}

/// A JavaScript array whose elements are read on demand (so that a huge or
/// holey array fails on its first bad element, before anything is allocated
/// for it).
pub struct Items {
    cx: Cx,
    array: sys::napi_value,
    len: u32,
}

impl Items {
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Element `i` (below `len`); a getter may throw, which is reported.
    pub fn get(&self, i: usize) -> Res<sys::napi_value> {
        let mut e = ptr::null_mut();
        // SAFETY: `array` is an array of the current call; `i < len <= u32::MAX`.
        let status = unsafe { sys::napi_get_element(self.cx.0, self.array, i as u32, &mut e) };
        check(status, "get_element")?;
        Ok(e)
    }
}

/// An array argument.
pub fn array(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<Items> {
    if types::type_of(cx, v)? != JsType::Object || !types::is_array(cx, v)? {
        return Err(wrong_type(cx, v, what, "an array"));
    }
    let mut len = 0u32;
    // SAFETY: `v` is an array; `len` is a valid out-pointer.
    let status = unsafe { sys::napi_get_array_length(cx.0, v, &mut len) };
    check(status, "get_array_length")?;
    Ok(Items { cx, array: v, len })
}

/// An options argument: `None` for `undefined`, else a plain object (not an
/// array) whose own and inherited enumerable keys are all in `known`.
pub fn options(cx: Cx, v: sys::napi_value, known: &[&str]) -> Res<Option<sys::napi_value>> {
    match types::type_of(cx, v)? {
        JsType::Undefined => return Ok(None),
        JsType::Object if !types::is_array(cx, v)? => {}
        _ => return Err(wrong_type(cx, v, &|| "options".into(), "an object")),
    }
    let mut names = ptr::null_mut();
    // SAFETY: `v` is an object; `names` is a valid out-pointer.
    let status = unsafe { sys::napi_get_property_names(cx.0, v, &mut names) };
    check(status, "get_property_names")?;
    let names = array(cx, names, &|| "property names".into())?;
    for i in 0..names.len() {
        let name = String::from_utf16_lossy(&strings::utf16(cx, names.get(i)?)?);
        if !known.contains(&name.as_str()) {
            return Err(JsErr::new(
                Kind::Type,
                codes::INVALID_OPTION,
                format!("unknown option {name:?} (known: {})", known.join(", ")),
            ));
        }
    }
    Ok(Some(v))
}

/// Property `name` of `obj` (a getter may run and throw, which is reported).
pub fn get(cx: Cx, obj: sys::napi_value, name: &std::ffi::CStr) -> Res<sys::napi_value> {
    let mut out = ptr::null_mut();
    // SAFETY: `obj` is an object of the current call and `name` is zero-terminated.
    let status = unsafe { sys::napi_get_named_property(cx.0, obj, name.as_ptr(), &mut out) };
    check(status, "get_named_property")?;
    Ok(out)
}

/// A string argument without NUL (a path or a variable name: the operating
/// system would read it only up to the NUL, so another name).
pub fn string_without_nul(cx: Cx, v: sys::napi_value, what: &dyn Fn() -> String, nul: &str) -> Res<String> {
    if types::type_of(cx, v)? != JsType::String {
        return Err(wrong_type(cx, v, what, "a string"));
    }
    let mut buf = KeyBuf::default();
    let bytes = bytes(cx, v, &mut buf, what)?;
    if bytes.contains(&0) {
        return Err(JsErr::new(
            Kind::Type,
            codes::INVALID_STRING,
            format!("{} {nul}", what()),
        ));
    }
    // `bytes` refuses lone surrogates, so the UTF-8 is valid.
    Ok(String::from_utf8_lossy(bytes).into_owned())
}
