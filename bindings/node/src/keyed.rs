//! The `secret` option (keyed-v1, docs/SPEC.md §15): a Buffer or Uint8Array
//! of 16 bytes in, a core `Secret` out. The bytes never reach a message.

use longstraw_set::{Hashing, Options, Secret};
use napi::sys;

use crate::error::{JsErr, Res};
use crate::js::{Js, JsType};

/// Reads `options.secret` into `set`. `seed_given` says whether
/// `options.seed` was present: a secret excludes any seed, even 0.
pub fn read_secret(js: Js, v: sys::napi_value, seed_given: bool, set: &mut Options) -> Res<()> {
    if js.type_of(v)? == JsType::Undefined {
        return Ok(());
    }
    // A string is usually a password, not 128 random bits: only bytes are taken.
    let bytes = js.byte_array(v, &|| "options.secret (16 random bytes)".into())?;
    let secret = Secret::from_bytes(bytes).map_err(|e| JsErr::from(e).context("options.secret"))?;
    Hashing::select(seed_given.then_some(set.seed), Some(secret)).map_err(JsErr::from)?;
    set.secret = Some(secret);
    Ok(())
}
