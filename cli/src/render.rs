//! How keys and node ids are written: raw bytes in text output, one JSON
//! shape for both (a string, or `{"hex": ...}` for bytes that are not
//! UTF-8), quoted CSV fields.

use std::fmt::Write as _;

/// Hex digits of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// A name for people: the text when it is UTF-8, `0x` and hex otherwise.
pub fn show(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => format!("0x{}", hex(bytes)),
    }
}

/// The one JSON shape of a node id or a key in every subcommand's output: a
/// string when the bytes are UTF-8, `{"hex": "..."}` (lowercase hex of the
/// bytes) otherwise.
pub fn json_id(bytes: &[u8]) -> serde_json::Value {
    match std::str::from_utf8(bytes) {
        Ok(s) => serde_json::Value::String(s.to_string()),
        Err(_) => serde_json::json!({ "hex": hex(bytes) }),
    }
}

/// One CSV field (RFC 4180 quoting when needed).
pub fn csv_field(out: &mut Vec<u8>, text: &str) {
    if text.contains([',', '"', '\n', '\r']) {
        out.push(b'"');
        out.extend_from_slice(text.replace('"', "\"\"").as_bytes());
        out.push(b'"');
    } else {
        out.extend_from_slice(text.as_bytes());
    }
}

/// A key as two CSV fields, `key,key_hex`: the text, or an empty text and the hex when it is not UTF-8.
pub fn csv_key(out: &mut Vec<u8>, key: &[u8]) {
    match std::str::from_utf8(key) {
        Ok(s) => {
            csv_field(out, s);
            out.push(b',');
        }
        Err(_) => {
            out.push(b',');
            out.extend_from_slice(hex(key).as_bytes());
        }
    }
}
