//! The `secret` option (keyed-v1, docs/SPEC.md §15): a Buffer or Uint8Array
//! of 16 bytes in, a core `Secret` out.
//!
//! No message here ever shows any part of the value given as the secret: a
//! wrong value is described by its type only (`describe_type_only`), never by
//! its content, since a hex string or a number given by mistake is the
//! secret itself.

use longstraw_set::Secret;
use napi::sys;

use crate::error::{codes, JsErr, Kind, Res};
use crate::node_api::types::{self, JsType};
use crate::node_api::{args, Cx};

const EXPECTED: &str = "a Buffer or Uint8Array of 16 random bytes";

/// Reads `options.secret` (`None` for `undefined`). (A secret excludes any
/// seed, even 0: `longstraw-set` decides that when the set is built.)
pub fn read_secret(cx: Cx, v: sys::napi_value) -> Res<Option<Secret>> {
    let t = types::type_of(cx, v)?;
    if t == JsType::Undefined {
        return Ok(None);
    }
    let Some(bytes) = args::byte_array_or_none(cx, v, &|| "options.secret".into())? else {
        // A string is usually a password or hex text, not 128 random bits:
        // only bytes are taken, and the string itself is never shown.
        let hint = if t == JsType::String {
            " (for a secret written as 32 hexadecimal digits, pass Buffer.from(text, 'hex'))"
        } else {
            ""
        };
        return Err(JsErr::new(
            Kind::Type,
            codes::INVALID_ARG_TYPE,
            format!(
                "options.secret must be {EXPECTED}; got {}{hint}",
                types::describe_type_only(cx, v)
            ),
        ));
    };
    let secret = Secret::from_bytes(bytes).map_err(|e| JsErr::from(e).context("options.secret"))?;
    Ok(Some(secret))
}
