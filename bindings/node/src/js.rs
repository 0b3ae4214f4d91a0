//! Reading JavaScript values without silent coercion, and writing node ids back.
//!
//! These helpers use Node-API directly, so that a bad value gets a precise
//! error and caller-sized allocations are fallible.

use std::ptr;

use napi::sys;

use crate::error::{codes, JsErr, Kind, Res};
use crate::utf16::{Utf16Error, MAX_UTF8_PER_UNIT};

/// The Node-API environment of the current call, with the checks every
/// helper needs. Only valid during that call.
#[derive(Clone, Copy)]
pub struct Js {
    pub env: sys::napi_env,
}

/// Fails with an internal error (or lets a pending JS exception through,
/// see `JsErr::throw`) when a Node-API call does not return `napi_ok`.
fn check(status: sys::napi_status, what: &str) -> Res<()> {
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

/// Where a string key's UTF-8 bytes live while the call borrows them;
/// reused across the keys of one call.
pub struct KeyBuf {
    utf8: Vec<u8>,
    units: Vec<u16>,
    /// Short strings are read and encoded here, without allocating.
    short_units: [u16; SHORT_UNITS + 1],
    short_utf8: [u8; SHORT_UNITS * MAX_UTF8_PER_UNIT],
}

/// Strings of up to this many UTF-16 units are read into `KeyBuf`'s arrays.
const SHORT_UNITS: usize = 64;

impl Default for KeyBuf {
    fn default() -> KeyBuf {
        KeyBuf {
            utf8: Vec::new(),
            units: Vec::new(),
            short_units: [0; SHORT_UNITS + 1],
            short_utf8: [0; SHORT_UNITS * MAX_UTF8_PER_UNIT],
        }
    }
}

/// A JavaScript array whose elements are read on demand.
pub struct Items {
    js: Js,
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
        check(
            unsafe { sys::napi_get_element(self.js.env, self.array, i as u32, &mut e) },
            "get_element",
        )?;
        Ok(e)
    }
}

/// The integer offsets of a packed key batch, borrowed from a typed array.
pub enum OffsetsRef<'a> {
    U32(&'a [u32]),
    U64(&'a [u64]),
}

impl Js {
    pub fn type_of(self, v: sys::napi_value) -> Res<JsType> {
        let mut t = 0;
        // SAFETY: `env` and `v` belong to the current call.
        check(unsafe { sys::napi_typeof(self.env, v, &mut t) }, "typeof")?;
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

    pub fn is_array(self, v: sys::napi_value) -> Res<bool> {
        let mut yes = false;
        // SAFETY: `env` and `v` belong to the current call.
        check(unsafe { sys::napi_is_array(self.env, v, &mut yes) }, "is_array")?;
        Ok(yes)
    }

    /// `(element type, elements, data pointer)` of a typed array, or `None`.
    fn typed_array(self, v: sys::napi_value) -> Res<Option<(i32, usize, *mut u8)>> {
        Ok(self
            .typed_array_and_buffer(v)?
            .map(|(kind, len, data, _)| (kind, len, data)))
    }

    /// `typed_array` for reading: an error when its ArrayBuffer is detached
    /// (see `detached.rs`), which would otherwise read as 0 bytes.
    fn live_typed_array(self, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<Option<(i32, usize, *mut u8)>> {
        match self.typed_array_and_buffer(v)? {
            None => Ok(None),
            Some((kind, len, data, buffer)) => {
                self.require_attached(buffer, what)?;
                Ok(Some((kind, len, data)))
            }
        }
    }

    /// `typed_array` plus the typed array's ArrayBuffer.
    #[allow(clippy::type_complexity)]
    fn typed_array_and_buffer(self, v: sys::napi_value) -> Res<Option<(i32, usize, *mut u8, sys::napi_value)>> {
        let mut yes = false;
        // SAFETY: `env` and `v` belong to the current call.
        check(
            unsafe { sys::napi_is_typedarray(self.env, v, &mut yes) },
            "is_typedarray",
        )?;
        if !yes {
            return Ok(None);
        }
        let mut kind = 0;
        let mut len = 0usize;
        let mut data: *mut std::ffi::c_void = ptr::null_mut();
        let mut buffer = ptr::null_mut();
        let mut offset = 0usize;
        // SAFETY: `v` is a typed array (checked above); every out-pointer is valid.
        check(
            unsafe {
                sys::napi_get_typedarray_info(self.env, v, &mut kind, &mut len, &mut data, &mut buffer, &mut offset)
            },
            "get_typedarray_info",
        )?;
        Ok(Some((kind, len, data.cast(), buffer)))
    }

    /// A short description of a value for error messages: its type and,
    /// for primitives, the value itself.
    pub fn describe(self, v: sys::napi_value) -> String {
        let Ok(t) = self.type_of(v) else {
            return "a value".into();
        };
        match t {
            JsType::Undefined => "undefined".into(),
            JsType::Null => "null".into(),
            JsType::Boolean => {
                let mut b = false;
                // SAFETY: `v` is a boolean.
                unsafe { sys::napi_get_value_bool(self.env, v, &mut b) };
                format!("boolean {b}")
            }
            JsType::Number => format!("number {}", show_number(self.number(v))),
            JsType::BigInt => match self.coerce_to_string(v) {
                Some(s) => format!("bigint {s}n"),
                None => "a bigint".into(),
            },
            JsType::String => match self.utf16(v) {
                Ok(units) => format!("string {}", show_utf16(&units)),
                Err(_) => "a string".into(),
            },
            JsType::Symbol => "a symbol".into(),
            JsType::Function => "a function".into(),
            JsType::External => "an external".into(),
            JsType::Object => {
                if let Ok(Some((kind, _, _))) = self.typed_array(v) {
                    format!("a {}", typed_array_name(kind))
                } else if self.is_array(v).unwrap_or(false) {
                    "an array".into()
                } else {
                    "an object".into()
                }
            }
        }
    }

    /// The type of a value for an error message, never its content: for a
    /// value that may be a secret, where even a prefix of it must not be shown.
    pub fn describe_type_only(self, v: sys::napi_value) -> &'static str {
        let Ok(t) = self.type_of(v) else {
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
            JsType::Object => {
                if let Ok(Some((kind, _, _))) = self.typed_array(v) {
                    typed_array_article_name(kind)
                } else if self.is_array(v).unwrap_or(false) {
                    "an array"
                } else {
                    "an object"
                }
            }
        }
    }

    /// The bytes of a Buffer or Uint8Array, or `None` for any other value
    /// (which the caller describes itself).
    pub fn byte_array_or_none<'a>(self, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<Option<&'a [u8]>> {
        match self.live_typed_array(v, what)? {
            // SAFETY: as in `bytes`: valid for the current native call, which
            // the caller's lifetime must not outlive.
            Some((sys::TypedarrayType::uint8_array, len, data)) => Ok(Some(unsafe { slice_or_empty(data, len) })),
            _ => Ok(None),
        }
    }

    fn coerce_to_string(self, v: sys::napi_value) -> Option<String> {
        let mut s = ptr::null_mut();
        // SAFETY: `v` belongs to the current call; only called for bigints,
        // whose conversion to string cannot throw.
        if unsafe { sys::napi_coerce_to_string(self.env, v, &mut s) } != sys::Status::napi_ok {
            return None;
        }
        let units = self.utf16(s).ok()?;
        Some(String::from_utf16_lossy(&units))
    }

    fn number(self, v: sys::napi_value) -> f64 {
        let mut x = f64::NAN;
        // SAFETY: callers check that `v` is a number.
        unsafe { sys::napi_get_value_double(self.env, v, &mut x) };
        x
    }

    /// The UTF-16 code units of a string.
    fn utf16(self, v: sys::napi_value) -> Res<Vec<u16>> {
        let mut len = 0usize;
        // SAFETY: `v` is a string; a null buffer asks for the length.
        check(
            unsafe { sys::napi_get_value_string_utf16(self.env, v, ptr::null_mut(), 0, &mut len) },
            "get_value_string_utf16",
        )?;
        let mut units = vec![0u16; len + 1];
        let mut written = 0usize;
        // SAFETY: `units` has room for `len` units and the terminating zero.
        check(
            unsafe { sys::napi_get_value_string_utf16(self.env, v, units.as_mut_ptr(), units.len(), &mut written) },
            "get_value_string_utf16",
        )?;
        units.truncate(written);
        Ok(units)
    }

    /// The UTF-8 bytes of a string, refusing lone surrogates.
    ///
    /// Read as `utf16_into` reads (length first, then exactly that many
    /// units); a string of up to `SHORT_UNITS` units goes into `buf`'s
    /// arrays, so that a per-key lookup allocates nothing.
    /// `None` when `v` is not a string.
    fn string<'b>(self, v: sys::napi_value, buf: &'b mut KeyBuf, what: &dyn Fn() -> String) -> Res<Option<&'b [u8]>> {
        let mut len = 0usize;
        // SAFETY: `v` belongs to the current call; a null buffer asks for the
        // length. A value that is not a string only sets `napi_string_expected`.
        let status = unsafe { sys::napi_get_value_string_utf16(self.env, v, ptr::null_mut(), 0, &mut len) };
        if status == sys::Status::napi_string_expected {
            return Ok(None);
        }
        check(status, "get_value_string_utf16")?;
        if len > SHORT_UNITS {
            buf.utf8.clear();
            if !self.append_string(v, &mut buf.units, &mut buf.utf8, what)? {
                return Ok(None);
            }
            return Ok(Some(buf.utf8.as_slice()));
        }
        let mut written = 0usize;
        // SAFETY: `short_units` holds `SHORT_UNITS + 1 >= len + 1` units; Node-API
        // writes at most `len` units and a zero.
        check(
            unsafe {
                sys::napi_get_value_string_utf16(self.env, v, buf.short_units.as_mut_ptr(), len + 1, &mut written)
            },
            "get_value_string_utf16",
        )?;
        if written != len {
            return Err(JsErr::new(
                Kind::Error,
                codes::INTERNAL,
                format!("{}: Node-API read {written} of {len} UTF-16 units", what()),
            ));
        }
        let units = &buf.short_units[..len];
        let n = crate::utf16::encode(units, &mut buf.short_utf8).map_err(|e| utf16_error(e, units, what))?;
        Ok(Some(&buf.short_utf8[..n]))
    }

    /// Appends the UTF-8 bytes of `v` to `out` when `v` is a string (then
    /// `Ok(true)`); `Ok(false)`, with nothing appended, for any other value.
    /// A lone surrogate is a `TypeError`. `units` is scratch space.
    pub fn append_string(
        self,
        v: sys::napi_value,
        units: &mut Vec<u16>,
        out: &mut Vec<u8>,
        what: &dyn Fn() -> String,
    ) -> Res<bool> {
        if !self.utf16_into(v, units, what)? {
            return Ok(false);
        }
        append_utf8(units, out, what)?;
        Ok(true)
    }

    /// Reads the UTF-16 code units of `v` into `units` when `v` is a string
    /// (then `Ok(true)`); `Ok(false)` for any other value.
    ///
    /// Strings are read as UTF-16 (see `utf16`): Node-API is asked for the
    /// length first, then the units are read into a buffer of that size, so
    /// a long string is never cut short. (A stack-buffer path once read at
    /// most 255 bytes and, when a multi-byte character straddled that limit,
    /// took the shorter prefix for the whole string.) Every allocation is
    /// fallible.
    pub fn utf16_into(self, v: sys::napi_value, units: &mut Vec<u16>, what: &dyn Fn() -> String) -> Res<bool> {
        let mut len = 0usize;
        // SAFETY: `v` belongs to the current call; a null buffer asks for the
        // length. A value that is not a string only sets `napi_string_expected`.
        let status = unsafe { sys::napi_get_value_string_utf16(self.env, v, ptr::null_mut(), 0, &mut len) };
        if status == sys::Status::napi_string_expected {
            return Ok(false);
        }
        check(status, "get_value_string_utf16")?;
        units.clear();
        let room = len.saturating_add(1); // Node-API always writes a terminating zero
        units
            .try_reserve_exact(room)
            .map_err(|_| crate::alloc::out_of_memory(&what(), room.saturating_mul(2)))?;
        let mut written = 0usize;
        // SAFETY: `units` has capacity for `room` units; Node-API writes at
        // most `room - 1` units and a zero, and reports how many units it
        // wrote before the zero, which are then initialised.
        check(
            unsafe { sys::napi_get_value_string_utf16(self.env, v, units.as_mut_ptr(), room, &mut written) },
            "get_value_string_utf16",
        )?;
        if written != len {
            return Err(JsErr::new(
                Kind::Error,
                codes::INTERNAL,
                format!("{}: Node-API read {written} of {len} UTF-16 units", what()),
            ));
        }
        // SAFETY: see above: `written == len < room <= capacity` units are initialised.
        unsafe { units.set_len(len) };
        Ok(true)
    }

    /// A number for a `u32`.
    pub fn uint(self, x: u32) -> Res<sys::napi_value> {
        let mut out = ptr::null_mut();
        // SAFETY: creates a number in the current call's scope.
        check(
            unsafe { sys::napi_create_uint32(self.env, x, &mut out) },
            "create_uint32",
        )?;
        Ok(out)
    }

    /// A new array of `len` holes.
    pub fn new_array(self, len: usize) -> Res<sys::napi_value> {
        let mut arr = ptr::null_mut();
        // SAFETY: creates a new array in the current call's scope.
        check(
            unsafe { sys::napi_create_array_with_length(self.env, len, &mut arr) },
            "create_array_with_length",
        )?;
        Ok(arr)
    }

    /// The bytes of a key or node id: a string (as UTF-8), a Buffer or a
    /// Uint8Array. A typed array is borrowed, not copied.
    pub fn bytes<'b>(self, v: sys::napi_value, buf: &'b mut KeyBuf, what: &dyn Fn() -> String) -> Res<&'b [u8]> {
        // Strings first: most keys are strings, and the read tells them apart.
        if let Some(bytes) = self.string(v, buf, what)? {
            return Ok(bytes);
        }
        match self.type_of(v)? {
            JsType::Object => match self.live_typed_array(v, what)? {
                Some((sys::TypedarrayType::uint8_array, len, data)) => {
                    // SAFETY: the typed array's memory stays valid and in place
                    // for the whole native call: no JavaScript runs before we
                    // return, so it cannot be detached or resized meanwhile.
                    Ok(unsafe { slice_or_empty(data, len) })
                }
                _ => Err(self.wrong_type(v, what, "a string, Buffer or Uint8Array")),
            },
            _ => Err(self.wrong_type(v, what, "a string, Buffer or Uint8Array")),
        }
    }

    /// The bytes of a Buffer or Uint8Array (packed key bytes).
    pub fn byte_array<'a>(self, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<&'a [u8]> {
        match self.live_typed_array(v, what)? {
            // SAFETY: as in `bytes`: valid for the current native call, which
            // the caller's lifetime must not outlive.
            Some((sys::TypedarrayType::uint8_array, len, data)) => Ok(unsafe { slice_or_empty(data, len) }),
            _ => Err(self.wrong_type(v, what, "a Buffer or Uint8Array")),
        }
    }

    /// The offsets of a packed batch: a Uint32Array or a BigUint64Array.
    pub fn offsets<'a>(self, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<OffsetsRef<'a>> {
        match self.live_typed_array(v, what)? {
            // SAFETY: as in `bytes`. A typed array's byte offset is a multiple
            // of its element size, so the pointer is aligned.
            Some((sys::TypedarrayType::uint32_array, len, data)) => {
                Ok(OffsetsRef::U32(unsafe { slice_or_empty(data.cast(), len) }))
            }
            // SAFETY: as above.
            Some((sys::TypedarrayType::biguint64_array, len, data)) => {
                Ok(OffsetsRef::U64(unsafe { slice_or_empty(data.cast(), len) }))
            }
            _ => Err(self.wrong_type(v, what, "a Uint32Array or BigUint64Array")),
        }
    }

    /// A Uint32Array to write into.
    pub fn u32_array_mut<'a>(self, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<&'a mut [u32]> {
        match self.live_typed_array(v, what)? {
            Some((sys::TypedarrayType::uint32_array, len, data)) => {
                // SAFETY: as in `offsets`; nothing else reads or writes the
                // array during the native call. The caller must not pass the
                // same memory as an input it reads through another slice.
                Ok(unsafe { slice_or_empty_mut(data.cast(), len) })
            }
            _ => Err(self.wrong_type(v, what, "a Uint32Array")),
        }
    }

    /// Whether two typed arrays share memory (an output must not alias an input).
    pub fn overlaps(a: &[u8], b: &[u32]) -> bool {
        let (a0, a1) = (a.as_ptr() as usize, a.as_ptr() as usize + a.len());
        let (b0, b1) = (b.as_ptr() as usize, b.as_ptr() as usize + std::mem::size_of_val(b));
        a0 < b1 && b0 < a1
    }

    pub fn wrong_type(self, v: sys::napi_value, what: &dyn Fn() -> String, expected: &str) -> JsErr {
        JsErr::type_error(format!("{} must be {expected}; got {}", what(), self.describe(v)))
    }

    /// A seed: a non-negative safe-integer number, or a bigint in u64 range.
    pub fn seed(self, v: sys::napi_value) -> Res<u64> {
        match self.type_of(v)? {
            JsType::Undefined => Ok(0),
            JsType::Number => {
                let x = self.number(v);
                if x.fract() != 0.0 || !x.is_finite() {
                    return Err(JsErr::new(
                        Kind::Range,
                        codes::INVALID_SEED,
                        format!("seed {} is not an integer", show_number(x)),
                    ));
                }
                if !(0.0..=MAX_SAFE_INTEGER).contains(&x) {
                    return Err(JsErr::new(
                        Kind::Range,
                        codes::INVALID_SEED,
                        format!(
                            "seed {} is outside 0..=2^53-1 (pass a bigint for seeds up to 2^64-1)",
                            show_number(x)
                        ),
                    ));
                }
                Ok(x as u64)
            }
            JsType::BigInt => {
                let mut value = 0u64;
                let mut lossless = false;
                // SAFETY: `v` is a bigint.
                check(
                    unsafe { sys::napi_get_value_bigint_uint64(self.env, v, &mut value, &mut lossless) },
                    "get_value_bigint_uint64",
                )?;
                if lossless {
                    Ok(value)
                } else {
                    // A value just out of range is shown; a longer one may be a
                    // 128-bit secret given as the seed by mistake, and is not.
                    let shown = match self.coerce_to_string(v) {
                        Some(s) if s.trim_start_matches('-').len() <= 20 => format!("seed {s}n"),
                        _ => "seed (a bigint of more than 20 digits)".into(),
                    };
                    Err(JsErr::new(
                        Kind::Range,
                        codes::INVALID_SEED,
                        format!("{shown} is outside 0n..=2n**64n-1n"),
                    ))
                }
            }
            // Only the type: a string here may be a secret given as the seed.
            _ => Err(JsErr::type_error(format!(
                "seed must be a number or bigint; got {}",
                self.describe_type_only(v)
            ))),
        }
    }

    /// A weight: any JavaScript number (the core decides which are valid).
    pub fn weight(self, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<f64> {
        match self.type_of(v)? {
            JsType::Number => Ok(self.number(v)),
            _ => Err(self.wrong_type(v, what, "a number")),
        }
    }

    /// A count (such as `k`): a non-negative integer number. Values above
    /// `u32::MAX` are capped, since no set has more nodes than that.
    pub fn count(self, v: sys::napi_value, what: &str) -> Res<usize> {
        match self.type_of(v)? {
            JsType::Number => {
                let x = self.number(v);
                if x.fract() != 0.0 || !x.is_finite() || x < 0.0 {
                    return Err(JsErr::new(
                        Kind::Range,
                        codes::INVALID_COUNT,
                        format!("{what} must be a non-negative integer; got {}", show_number(x)),
                    ));
                }
                Ok(x.min(u32::MAX as f64) as usize)
            }
            _ => Err(self.wrong_type(v, &|| what.into(), "a non-negative integer")),
        }
    }

    /// A placement version number.
    pub fn placement(self, v: sys::napi_value) -> Res<longstraw::Placement> {
        match self.type_of(v)? {
            JsType::Undefined => Ok(longstraw::Placement::V1),
            JsType::Number => {
                let x = self.number(v);
                if x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x) {
                    Ok(longstraw::Placement::from_number(x as u32)?)
                } else {
                    Err(JsErr::new(
                        Kind::Range,
                        codes::UNKNOWN_PLACEMENT,
                        format!("unknown placement version {} (this build knows: 1)", show_number(x)),
                    ))
                }
            }
            _ => Err(self.wrong_type(v, &|| "placement".into(), "a number")),
        }
    }

    /// An array, read one element at a time (so that a huge or holey array
    /// fails on its first bad element, before anything is allocated for it).
    pub fn array(self, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<Items> {
        if self.type_of(v)? != JsType::Object || !self.is_array(v)? {
            return Err(self.wrong_type(v, what, "an array"));
        }
        let mut len = 0u32;
        // SAFETY: `v` is an array.
        check(
            unsafe { sys::napi_get_array_length(self.env, v, &mut len) },
            "get_array_length",
        )?;
        Ok(Items {
            js: self,
            array: v,
            len,
        })
    }

    /// The named own and inherited enumerable string keys of an object.
    pub fn property_names(self, v: sys::napi_value) -> Res<Vec<String>> {
        let mut names = ptr::null_mut();
        // SAFETY: `v` is an object.
        check(
            unsafe { sys::napi_get_property_names(self.env, v, &mut names) },
            "get_property_names",
        )?;
        let names = self.array(names, &|| "property names".into())?;
        (0..names.len())
            .map(|i| Ok(String::from_utf16_lossy(&self.utf16(names.get(i)?)?)))
            .collect()
    }

    pub fn get(self, obj: sys::napi_value, name: &std::ffi::CStr) -> Res<sys::napi_value> {
        let mut out = ptr::null_mut();
        // SAFETY: `obj` is an object and `name` is zero-terminated.
        check(
            unsafe { sys::napi_get_named_property(self.env, obj, name.as_ptr(), &mut out) },
            "get_named_property",
        )?;
        Ok(out)
    }

    /// A JavaScript array of `len` values.
    pub fn array_of(self, items: impl Iterator<Item = Res<sys::napi_value>>, len: usize) -> Res<sys::napi_value> {
        let mut arr = ptr::null_mut();
        // SAFETY: creates a new array in the current call's scope.
        check(
            unsafe { sys::napi_create_array_with_length(self.env, len, &mut arr) },
            "create_array_with_length",
        )?;
        for (i, item) in items.enumerate() {
            let item = item?;
            // SAFETY: `arr` is a fresh array; `i` is below `len` (< 2^32).
            check(
                unsafe { sys::napi_set_element(self.env, arr, i as u32, item) },
                "set_element",
            )?;
        }
        Ok(arr)
    }

    /// A new zero-filled Uint32Array and its elements, to fill in place.
    pub fn new_u32_array<'a>(self, len: usize) -> Res<(sys::napi_value, &'a mut [u32])> {
        let mut data: *mut std::ffi::c_void = ptr::null_mut();
        let mut buffer = ptr::null_mut();
        let byte_len = len
            .checked_mul(4)
            .ok_or_else(|| JsErr::new(Kind::Range, codes::LENGTH_MISMATCH, format!("{len} keys is too many")))?;
        // SAFETY: creates a new ArrayBuffer of `byte_len` zeroed bytes.
        check(
            unsafe { sys::napi_create_arraybuffer(self.env, byte_len, &mut data, &mut buffer) },
            "create_arraybuffer",
        )?;
        let mut array = ptr::null_mut();
        // SAFETY: `buffer` holds exactly `len` u32 elements from offset 0.
        check(
            unsafe {
                sys::napi_create_typedarray(self.env, sys::TypedarrayType::uint32_array, len, buffer, 0, &mut array)
            },
            "create_typedarray",
        )?;
        // SAFETY: the new buffer's memory is ours alone until we return, and
        // ArrayBuffer memory is aligned for any element type.
        Ok((array, unsafe { slice_or_empty_mut(data.cast(), len) }))
    }

    /// `null`.
    pub fn null(self) -> Res<sys::napi_value> {
        let mut out = ptr::null_mut();
        // SAFETY: fetches the `null` singleton of the current call's environment.
        check(unsafe { sys::napi_get_null(self.env, &mut out) }, "get_null")?;
        Ok(out)
    }

    /// A node id as JavaScript sees it: a string when the bytes are UTF-8,
    /// otherwise a Buffer.
    pub fn id(self, bytes: &[u8]) -> Res<sys::napi_value> {
        let mut out = ptr::null_mut();
        if bytes.is_ascii() {
            // ASCII is Latin-1 too: V8 copies it instead of decoding UTF-8.
            // SAFETY: `bytes` holds the given number of one-byte characters.
            check(
                unsafe {
                    sys::napi_create_string_latin1(self.env, bytes.as_ptr().cast(), bytes.len() as isize, &mut out)
                },
                "create_string_latin1",
            )?;
        } else if std::str::from_utf8(bytes).is_ok() {
            // SAFETY: `bytes` is valid UTF-8 of the given length.
            check(
                unsafe {
                    sys::napi_create_string_utf8(self.env, bytes.as_ptr().cast(), bytes.len() as isize, &mut out)
                },
                "create_string_utf8",
            )?;
        } else {
            let mut data = ptr::null_mut();
            // SAFETY: copies `bytes` into a new Buffer.
            check(
                unsafe {
                    sys::napi_create_buffer_copy(self.env, bytes.len(), bytes.as_ptr().cast(), &mut data, &mut out)
                },
                "create_buffer_copy",
            )?;
        }
        Ok(out)
    }
}

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// # Safety
/// `data` must point at `len` initialised bytes that stay valid for `'a`, or be null with `len == 0`.
unsafe fn slice_or_empty<'a, T>(data: *const T, len: usize) -> &'a [T] {
    if data.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: upheld by the caller.
        unsafe { std::slice::from_raw_parts(data, len) }
    }
}

/// # Safety
/// As `slice_or_empty`, and nothing else may access the memory during `'a`.
unsafe fn slice_or_empty_mut<'a, T>(data: *mut T, len: usize) -> &'a mut [T] {
    if data.is_null() || len == 0 {
        &mut []
    } else {
        // SAFETY: upheld by the caller.
        unsafe { std::slice::from_raw_parts_mut(data, len) }
    }
}

/// Appends the UTF-8 encoding of a string's `units` to `out`; a lone
/// surrogate is a `TypeError` naming `what`.
pub fn append_utf8(units: &[u16], out: &mut Vec<u8>, what: &dyn Fn() -> String) -> Res<()> {
    crate::utf16::append_utf8(units, out).map_err(|e| utf16_error(e, units, what))
}

fn utf16_error(e: Utf16Error, units: &[u16], what: &dyn Fn() -> String) -> JsErr {
    match e {
        Utf16Error::LoneSurrogate { at, unit } => JsErr::new(
            Kind::Type,
            codes::INVALID_STRING,
            format!(
                "{} {} has a lone surrogate U+{unit:04X} at index {at}; strings must be well-formed UTF-16 (use a Buffer for arbitrary bytes)",
                what(),
                show_utf16(units),
            ),
        ),
        Utf16Error::OutOfMemory { bytes } => crate::alloc::out_of_memory(&what(), bytes),
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

/// A string for an error message: quoted, lone surrogates escaped, cut at 60 units.
fn show_utf16(units: &[u16]) -> String {
    const SHOWN: usize = 60;
    let mut s = String::from("\"");
    for r in char::decode_utf16(units.iter().copied().take(SHOWN)) {
        match r {
            Ok(c) => s.extend(c.escape_debug()),
            Err(e) => s.push_str(&format!("\\u{{{:04x}}}", e.unpaired_surrogate())),
        }
    }
    s.push('"');
    if units.len() > SHOWN {
        s.push_str(&format!("... ({} UTF-16 units)", units.len()));
    }
    s
}

fn typed_array_article_name(kind: i32) -> &'static str {
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

fn typed_array_name(kind: i32) -> &'static str {
    use sys::TypedarrayType as T;
    match kind {
        T::int8_array => "Int8Array",
        T::uint8_array => "Uint8Array",
        T::uint8_clamped_array => "Uint8ClampedArray",
        T::int16_array => "Int16Array",
        T::uint16_array => "Uint16Array",
        T::int32_array => "Int32Array",
        T::uint32_array => "Uint32Array",
        T::float32_array => "Float32Array",
        T::float64_array => "Float64Array",
        T::bigint64_array => "BigInt64Array",
        T::biguint64_array => "BigUint64Array",
        _ => "typed array",
    }
}
