//! The `balance` option of `Table` (SPEC.md section 17).

use longstraw_set::Balance;
use napi::sys;

use crate::error::{JsErr, Res};
use crate::js::{Js, JsType};

/// `undefined` (a plain table) or a number from 1 to 4, held to millionths;
/// anything else is a TypeError, a number out of range (NaN included) a RangeError.
pub fn balance_option(js: Js, v: sys::napi_value) -> Res<Option<Balance>> {
    if js.type_of(v)? == JsType::Undefined {
        return Ok(None);
    }
    let value = js.weight(v, &|| "options.balance".into())?;
    Balance::new(value)
        .map(Some)
        .map_err(|e| JsErr::from(e).context("options.balance"))
}
