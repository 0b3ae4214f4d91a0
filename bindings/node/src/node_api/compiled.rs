//! Two small JavaScript functions that the batch `owners()` calls once per
//! chunk of keys, instead of making Node-API calls per key.
//!
//! Node-API reads an array element (`napi_get_element`) and sets one
//! (`napi_set_element`) through V8's generic property lookup. Under `perf`,
//! with the strings already read as UTF-16 (see `strings`), those two calls were
//! the largest shares of `owners(string[])`. A JavaScript loop does the same
//! element accesses on V8's fast paths. Each environment compiles the
//! functions when the addon loads (`napi_run_script` on constant source, no
//! user input); where that fails, the batch falls back to Node-API calls.
//!
//! Neither function reads a global or a prototype property besides what
//! `napi_get_element` and `napi_set_element` would read (array elements, and
//! the array prototype for holes): lengths come in as arguments, output
//! arrays and typed arrays are made natively. So user code that patches
//! builtins cannot change an answer.

use std::cell::Cell;
use std::ptr;

use napi::sys;

use super::types::{self, JsType};
use super::{out, Cx};
use crate::error::{codes, JsErr, Kind, Res};

/// `pack(keys, start, end, lengths)`: joins the strings `keys[start..j)`
/// into one string, where `j <= end` is the first index whose value is not a
/// string; writes the UTF-16 length of key `start + i` to `lengths[i]` and
/// `j` to `lengths[end - start]`. Each element is read once.
const PACK: &str = "(function pack(keys, start, end, lengths) {\n\
  let joined = '';\n\
  let i = start;\n\
  for (; i < end; i++) {\n\
    const key = keys[i];\n\
    if (typeof key !== 'string') break;\n\
    lengths[i - start] = key.length;\n\
    joined += key;\n\
  }\n\
  lengths[end - start] = i;\n\
  return joined;\n\
})";

/// `gather(out, ids, indices, length)`: `out[i] = ids[indices[i]]` for `i < length`.
const GATHER: &str = "(function gather(out, ids, indices, length) {\n\
  for (let i = 0; i < length; i++) out[i] = ids[indices[i]];\n\
  return out;\n\
})";

#[derive(Clone, Copy)]
struct Functions {
    env: sys::napi_env,
    pack: sys::napi_ref,
    gather: sys::napi_ref,
}

thread_local! {
    /// The functions compiled in the environment of this thread (the main
    /// thread and each worker have their own environment).
    static COMPILED: Cell<Option<Functions>> = const { Cell::new(None) };
}

/// Compiles the functions for `env`, at load. A failure is not an error:
/// batches then use Node-API calls only.
pub fn install(env: sys::napi_env) {
    match (compile(env, PACK), compile(env, GATHER)) {
        (Some(pack), Some(gather)) => {
            COMPILED.with(|c| c.set(Some(Functions { env, pack, gather })));
            // SAFETY: `env` is live; the hook runs on this thread when the
            // environment is torn down, after which its references are gone.
            unsafe { add_env_cleanup_hook(env, Some(forget), env.cast()) };
        }
        _ => clear_exception(env),
    }
}

#[cfg(not(target_family = "wasm"))]
pub(super) use sys::napi_add_env_cleanup_hook as add_env_cleanup_hook;

// Under emnapi (wasm32-wasip1-threads) the cleanup hooks are imported from the
// `napi` module, not `env` where napi-sys declares every other function; the
// emnapi archive and the napi crate both import them from there.
#[cfg(target_family = "wasm")]
#[link(wasm_import_module = "napi")]
unsafe extern "C" {
    #[link_name = "napi_add_env_cleanup_hook"]
    pub(super) fn add_env_cleanup_hook(
        env: sys::napi_env,
        fun: Option<unsafe extern "C" fn(arg: *mut std::ffi::c_void)>,
        arg: *mut std::ffi::c_void,
    ) -> sys::napi_status;
}

/// Forgets the functions of an environment that is being torn down, so that a
/// later environment on the same thread never sees its references.
unsafe extern "C" fn forget(env: *mut std::ffi::c_void) {
    // `try_with`: never panic across the C boundary, even during thread exit.
    let _ = COMPILED.try_with(|c| {
        if c.get().is_some_and(|f| f.env.cast() == env) {
            c.set(None);
        }
    });
}

/// The function a constant JavaScript source evaluates to, or `None`.
pub(crate) fn function(env: sys::napi_env, source: &str) -> Option<sys::napi_value> {
    let mut text = ptr::null_mut();
    let mut function = ptr::null_mut();
    // SAFETY: called during module initialisation with its live `env`;
    // `source` is a constant of the given length (no user input).
    let ok = unsafe {
        sys::napi_create_string_utf8(env, source.as_ptr().cast(), source.len() as isize, &mut text)
            == sys::Status::napi_ok
            && sys::napi_run_script(env, text, &mut function) == sys::Status::napi_ok
    };
    (ok && types::type_of(Cx(env), function).ok() == Some(JsType::Function)).then_some(function)
}

fn compile(env: sys::napi_env, source: &str) -> Option<sys::napi_ref> {
    let function = function(env, source)?;
    let mut reference = ptr::null_mut();
    // SAFETY: `function` is a live value of `env`; the reference is never deleted
    // (Node-API frees it with the environment).
    let ok = unsafe { sys::napi_create_reference(env, function, 1, &mut reference) } == sys::Status::napi_ok;
    ok.then_some(reference)
}

/// Clears an exception left pending by a failed set-up step at load.
pub(crate) fn clear_exception(env: sys::napi_env) {
    let mut pending = false;
    // SAFETY: `env` is live; clearing a pending exception is always allowed.
    unsafe {
        if sys::napi_is_exception_pending(env, &mut pending) == sys::Status::napi_ok && pending {
            let mut error = ptr::null_mut();
            sys::napi_get_and_clear_last_exception(env, &mut error);
        }
    }
}

/// The compiled functions of the current environment, if any.
#[derive(Clone, Copy)]
pub struct Compiled {
    cx: Cx,
    functions: Functions,
}

impl Compiled {
    pub fn get(cx: Cx) -> Option<Compiled> {
        let functions = COMPILED.with(Cell::get)?;
        (functions.env == cx.0).then_some(Compiled { cx, functions })
    }

    fn call(self, reference: sys::napi_ref, args: &[sys::napi_value], name: &str) -> Res<sys::napi_value> {
        let env = self.cx.0;
        let mut function = ptr::null_mut();
        let mut undefined = ptr::null_mut();
        let mut out = ptr::null_mut();
        // SAFETY: the reference belongs to this environment and is never
        // deleted; the arguments are values of the current call.
        let status = unsafe {
            let got = sys::napi_get_reference_value(env, reference, &mut function);
            sys::napi_get_undefined(env, &mut undefined);
            if got != sys::Status::napi_ok || function.is_null() {
                got
            } else {
                sys::napi_call_function(env, undefined, function, args.len(), args.as_ptr(), &mut out)
            }
        };
        if status != sys::Status::napi_ok || out.is_null() {
            // A getter on the keys array may throw: its exception stays
            // pending and is what JavaScript sees (see `JsErr::throw`).
            return Err(JsErr::new(
                Kind::Error,
                codes::INTERNAL,
                format!("Node-API call failed (call_function {name}, status {status})"),
            ));
        }
        Ok(out)
    }

    /// See `PACK`; `lengths` must hold `end - start + 1` elements.
    pub fn pack(self, keys: sys::napi_value, start: u32, end: u32, lengths: sys::napi_value) -> Res<sys::napi_value> {
        let (start, end) = (out::uint(self.cx, start)?, out::uint(self.cx, end)?);
        self.call(self.functions.pack, &[keys, start, end, lengths], "pack")
    }

    /// See `GATHER`.
    pub fn gather(self, out: sys::napi_value, ids: sys::napi_value, indices: sys::napi_value, length: u32) -> Res<()> {
        let length = out::uint(self.cx, length)?;
        self.call(self.functions.gather, &[out, ids, indices, length], "gather")
            .map(|_| ())
    }
}
