//! Returning values that were built with Node-API directly.

use napi::bindgen_prelude::{Result, ToNapiValue, TypeName, ValueType};
use napi::sys;

/// A JavaScript value made during the current call; returned as is.
pub struct Raw(pub sys::napi_value);

impl ToNapiValue for Raw {
    unsafe fn to_napi_value(_env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
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
