//! A typed array over a detached ArrayBuffer (transferred to a worker,
//! `structuredClone(..., { transfer })`, or `ArrayBuffer.prototype.transfer`)
//! reports length 0. Read as a key or a batch it would be an empty key or an
//! empty batch: a silent wrong answer. It is a TypeError instead.

use napi::sys;

use crate::error::{codes, JsErr, Kind, Res};
use crate::js::Js;

impl Js {
    /// An error when `buffer` (a typed array's ArrayBuffer) is detached.
    pub(crate) fn require_attached(self, buffer: sys::napi_value, what: &dyn Fn() -> String) -> Res<()> {
        if buffer.is_null() {
            return Ok(());
        }
        let mut detached = false;
        // SAFETY: `env` and `buffer` belong to the current call; `detached` is a valid out-pointer.
        let status = unsafe { sys::napi_is_detached_arraybuffer(self.env, buffer, &mut detached) };
        if status == sys::Status::napi_ok && detached {
            return Err(JsErr::new(
                Kind::Type,
                codes::INVALID_ARG_TYPE,
                format!(
                    "{} is a view of a detached ArrayBuffer (its memory was transferred); pass a live buffer",
                    what()
                ),
            ));
        }
        Ok(())
    }
}
