//! Reading JavaScript strings, and UTF-8 from their UTF-16 code units.
//!
//! Strings are read as UTF-16: Node-API's UTF-8 reader measures the whole
//! string (`Utf8Length`), then walks it character by character
//! (`WriteUtf8`), and replaces a lone surrogate with U+FFFD, which then had
//! to be told apart from a real U+FFFD. Its UTF-16 reader is a length
//! (stored in the string) and a copy. Under `perf`, `Utf8Length` +
//! `WriteUtf8` were 19% of `owners(string[])`; the units also show a lone
//! surrogate exactly, where it is.
//!
//! A short key is read in one call into a fixed array: Node-API copies at
//! most the array's room and says how many units it copied, and fewer than
//! the room means the whole string. Otherwise Node-API is asked for the
//! length first, then the units are read into a buffer of that size, so a
//! long string is never cut short. (A stack-buffer path once read at most
//! 255 bytes and, when a multi-byte character straddled that limit, took
//! the shorter prefix for the whole string; counting UTF-16 units, which
//! Node-API copies one for one, cannot do that.) Every caller-sized
//! allocation is fallible.

use std::ptr;

use napi::sys;

use super::{check, Cx};
use crate::error::{codes, JsErr, Kind, Res};

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

/// The length in UTF-16 units of `v`, or `None` when `v` is not a string.
fn utf16_len(cx: Cx, v: sys::napi_value) -> Res<Option<usize>> {
    let mut len = 0usize;
    // SAFETY: `v` belongs to the current call; a null buffer asks for the
    // length. A value that is not a string only sets `napi_string_expected`.
    let status = unsafe { sys::napi_get_value_string_utf16(cx.0, v, ptr::null_mut(), 0, &mut len) };
    if status == sys::Status::napi_string_expected {
        return Ok(None);
    }
    check(status, "get_value_string_utf16")?;
    Ok(Some(len))
}

fn short_read(len: usize, written: usize, what: &dyn Fn() -> String) -> Res<()> {
    if written == len {
        return Ok(());
    }
    Err(JsErr::new(
        Kind::Error,
        codes::INTERNAL,
        format!("{}: Node-API read {written} of {len} UTF-16 units", what()),
    ))
}

/// The UTF-8 bytes of a string, refusing lone surrogates; `None` when `v`
/// is not a string. A string of fewer than `SHORT_UNITS` units is read in
/// one Node-API call into `buf`'s arrays, so that a per-key lookup
/// allocates nothing; a longer one is measured first, then read whole.
pub fn utf8<'b>(cx: Cx, v: sys::napi_value, buf: &'b mut KeyBuf, what: &dyn Fn() -> String) -> Res<Option<&'b [u8]>> {
    let mut written = 0usize;
    // SAFETY: `short_units` holds `SHORT_UNITS + 1` units; Node-API copies at
    // most `SHORT_UNITS` units and a zero, and says how many it copied. A
    // value that is not a string only sets `napi_string_expected`.
    let status = unsafe {
        sys::napi_get_value_string_utf16(cx.0, v, buf.short_units.as_mut_ptr(), SHORT_UNITS + 1, &mut written)
    };
    if status == sys::Status::napi_string_expected {
        return Ok(None);
    }
    check(status, "get_value_string_utf16")?;
    if written < SHORT_UNITS {
        // Fewer units than the room for them: the whole string was copied
        // (a longer one fills the room), so no pair of surrogates was split.
        let units = &buf.short_units[..written];
        let n = encode(units, &mut buf.short_utf8).map_err(|e| utf16_error(e, units, what))?;
        return Ok(Some(&buf.short_utf8[..n]));
    }
    buf.utf8.clear();
    if !append_string(cx, v, &mut buf.units, &mut buf.utf8, what)? {
        return Ok(None);
    }
    Ok(Some(buf.utf8.as_slice()))
}

/// Appends the UTF-8 bytes of `v` to `out` when `v` is a string (then
/// `Ok(true)`); `Ok(false)`, with nothing appended, for any other value.
/// A lone surrogate is a `TypeError`. `units` is scratch space.
pub fn append_string(
    cx: Cx,
    v: sys::napi_value,
    units: &mut Vec<u16>,
    out: &mut Vec<u8>,
    what: &dyn Fn() -> String,
) -> Res<bool> {
    if !utf16_into(cx, v, units, what)? {
        return Ok(false);
    }
    append_utf8_or_throw(units, out, what)?;
    Ok(true)
}

/// Reads the UTF-16 code units of `v` into `units` when `v` is a string
/// (then `Ok(true)`); `Ok(false)` for any other value.
pub fn utf16_into(cx: Cx, v: sys::napi_value, units: &mut Vec<u16>, what: &dyn Fn() -> String) -> Res<bool> {
    let Some(len) = utf16_len(cx, v)? else {
        return Ok(false);
    };
    units.clear();
    let room = len.saturating_add(1); // Node-API always writes a terminating zero
    units
        .try_reserve_exact(room)
        .map_err(|_| crate::alloc::out_of_memory(&what(), room.saturating_mul(2)))?;
    let mut written = 0usize;
    // SAFETY: `units` has capacity for `room` units; Node-API writes at
    // most `room - 1` units and a zero, and reports how many units it
    // wrote before the zero, which are then initialised.
    let status = unsafe { sys::napi_get_value_string_utf16(cx.0, v, units.as_mut_ptr(), room, &mut written) };
    check(status, "get_value_string_utf16")?;
    short_read(len, written, what)?;
    // SAFETY: see above: `written == len < room <= capacity` units are initialised.
    unsafe { units.set_len(len) };
    Ok(true)
}

/// The UTF-16 code units of a string (for messages and property names).
pub fn utf16(cx: Cx, v: sys::napi_value) -> Res<Vec<u16>> {
    let mut units = Vec::new();
    if !utf16_into(cx, v, &mut units, &|| "a string".into())? {
        return Err(JsErr::new(Kind::Error, codes::INTERNAL, "expected a string"));
    }
    Ok(units)
}

/// `String(v)` for a bigint (whose conversion cannot throw); `None` on failure.
pub fn coerce_to_string(cx: Cx, v: sys::napi_value) -> Option<String> {
    let mut s = ptr::null_mut();
    // SAFETY: `v` belongs to the current call; only called for bigints,
    // whose conversion to string runs no user code.
    if unsafe { sys::napi_coerce_to_string(cx.0, v, &mut s) } != sys::Status::napi_ok {
        return None;
    }
    Some(String::from_utf16_lossy(&utf16(cx, s).ok()?))
}

/// Appends the UTF-8 encoding of a string's `units` to `out`; a lone
/// surrogate is a `TypeError` naming `what`.
pub fn append_utf8_or_throw(units: &[u16], out: &mut Vec<u8>, what: &dyn Fn() -> String) -> Res<()> {
    append_utf8(units, out).map_err(|e| utf16_error(e, units, what))
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

/// A string for an error message: quoted, lone surrogates escaped, cut at 60 units.
pub fn show_utf16(units: &[u16]) -> String {
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

/// Why a string has no UTF-8 encoding here.
enum Utf16Error {
    /// An unpaired surrogate `unit` at UTF-16 index `at`.
    LoneSurrogate { at: usize, unit: u16 },
    /// The output could not grow by `bytes`.
    OutOfMemory { bytes: usize },
}

/// The most UTF-8 bytes one UTF-16 unit becomes (a surrogate pair: 2 units, 4 bytes).
const MAX_UTF8_PER_UNIT: usize = 3;

/// Appends the UTF-8 encoding of `units` to `out`, growing it fallibly.
/// On error, `out` is as it was.
fn append_utf8(units: &[u16], out: &mut Vec<u8>) -> Result<(), Utf16Error> {
    if units.iter().all(|&u| u < 0x80) {
        reserve(out, units.len())?;
        out.extend(units.iter().map(|&u| u as u8));
        return Ok(());
    }
    let start = out.len();
    reserve(out, units.len().saturating_mul(MAX_UTF8_PER_UNIT))?;
    // Byte by byte into the reserved room (a copy call per character was
    // most of the time under `perf`).
    let mut at = 0usize;
    while at < units.len() {
        let u = units[at];
        if u < 0x80 {
            out.push(u as u8);
        } else if u < 0x800 {
            out.extend([0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
        } else if !(0xD800..0xE000).contains(&u) {
            out.extend([
                0xE0 | (u >> 12) as u8,
                0x80 | ((u >> 6) & 0x3F) as u8,
                0x80 | (u & 0x3F) as u8,
            ]);
        } else {
            let Some(c) = pair(u, units.get(at + 1).copied()) else {
                out.truncate(start);
                return Err(Utf16Error::LoneSurrogate { at, unit: u });
            };
            out.extend([
                0xF0 | (c >> 18) as u8,
                0x80 | ((c >> 12) & 0x3F) as u8,
                0x80 | ((c >> 6) & 0x3F) as u8,
                0x80 | (c & 0x3F) as u8,
            ]);
            at += 1;
        }
        at += 1;
    }
    Ok(())
}

/// The code point of a high surrogate `high` followed by the low surrogate `next`.
fn pair(high: u16, next: Option<u16>) -> Option<u32> {
    let low = next.filter(|l| (0xDC00..0xE000).contains(l))?;
    (high < 0xDC00).then(|| 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00))
}

/// Writes the UTF-8 encoding of `units` to the start of `out`, which must
/// hold `MAX_UTF8_PER_UNIT` bytes per unit; returns how many it wrote.
fn encode(units: &[u16], out: &mut [u8]) -> Result<usize, Utf16Error> {
    assert!(out.len() >= units.len().saturating_mul(MAX_UTF8_PER_UNIT));
    let mut at = 0usize;
    let mut w = 0usize;
    while at < units.len() {
        let u = units[at];
        if u < 0x80 {
            out[w] = u as u8;
            w += 1;
        } else if u < 0x800 {
            out[w] = 0xC0 | (u >> 6) as u8;
            out[w + 1] = 0x80 | (u & 0x3F) as u8;
            w += 2;
        } else if !(0xD800..0xE000).contains(&u) {
            out[w] = 0xE0 | (u >> 12) as u8;
            out[w + 1] = 0x80 | ((u >> 6) & 0x3F) as u8;
            out[w + 2] = 0x80 | (u & 0x3F) as u8;
            w += 3;
        } else {
            let Some(c) = pair(u, units.get(at + 1).copied()) else {
                return Err(Utf16Error::LoneSurrogate { at, unit: u });
            };
            out[w] = 0xF0 | (c >> 18) as u8;
            out[w + 1] = 0x80 | ((c >> 12) & 0x3F) as u8;
            out[w + 2] = 0x80 | ((c >> 6) & 0x3F) as u8;
            out[w + 3] = 0x80 | (c & 0x3F) as u8;
            w += 4;
            at += 1;
        }
        at += 1;
    }
    Ok(w)
}

fn reserve(out: &mut Vec<u8>, more: usize) -> Result<(), Utf16Error> {
    out.try_reserve(more).map_err(|_| Utf16Error::OutOfMemory {
        bytes: out.len().saturating_add(more),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8_of(s: &str) -> Vec<u8> {
        let units: Vec<u16> = s.encode_utf16().collect();
        let mut out = b"prefix".to_vec();
        assert!(append_utf8(&units, &mut out).is_ok());
        out
    }

    #[test]
    fn matches_rusts_utf8_for_every_width() {
        for s in [
            "",
            "plain ascii",
            "é",
            "€uro",
            "😀 pair",
            "a\u{fffd}b",
            "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
        ] {
            assert_eq!(utf8_of(s), [b"prefix".as_slice(), s.as_bytes()].concat(), "{s:?}");
        }
        let long: String = "ключ-键-😀-".repeat(500);
        assert_eq!(utf8_of(&long)[6..], *long.as_bytes());
    }

    #[test]
    fn every_code_point_encodes_as_rust_does() {
        let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
        assert_eq!(utf8_of(&all)[6..], *all.as_bytes());
    }

    #[test]
    fn lone_surrogates_are_found_where_they_are() {
        let cases: [(&[u16], usize, u16); 4] = [
            (&[0xD800], 0, 0xD800),
            (&[0x61, 0xDC00, 0x62], 1, 0xDC00),
            (&[0xD83D, 0xDE00, 0xD83D], 2, 0xD83D),
            (&[0xD83D, 0x61], 0, 0xD83D),
        ];
        for (units, want_at, want_unit) in cases {
            let mut out = b"kept".to_vec();
            let result = append_utf8(units, &mut out);
            assert_eq!(out, b"kept", "{units:x?}");
            match result {
                Err(Utf16Error::LoneSurrogate { at, unit }) => {
                    assert_eq!((at, unit), (want_at, want_unit), "{units:x?}")
                }
                _ => panic!("{units:x?} must be refused"),
            }
        }
    }
}
