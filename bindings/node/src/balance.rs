//! The `balance` option of a table-mode set (SPEC.md section 17).

use longstraw_set::Balance;
use napi::sys;

use crate::error::{JsErr, Res};
use crate::node_api::types::{self, JsType};
use crate::node_api::{args, Cx};

/// `undefined` (a plain table) or a number from 1 to 4, held to millionths;
/// anything else is a TypeError, a number out of range (NaN included) a RangeError.
pub fn balance_option(cx: Cx, v: sys::napi_value) -> Res<Option<Balance>> {
    if types::type_of(cx, v)? == JsType::Undefined {
        return Ok(None);
    }
    let value = args::weight(cx, v, &|| "options.balance".into())?;
    Balance::new(value)
        .map(Some)
        .map_err(|e| JsErr::from(e).context("options.balance"))
}
