//! Small JavaScript functions that the binding calls instead of making
//! Node-API calls per element: the batch `owners()` calls `pack` and
//! `gather` once per chunk of keys, and every array the binding returns is
//! made by `list`, or by `bare` and `seal`.
//!
//! Node-API reads an array element (`napi_get_element`) and sets one
//! (`napi_set_element`) through V8's generic property lookup. Under `perf`,
//! with the strings already read as UTF-16 (see `strings`), those two calls were
//! the largest shares of `owners(string[])`. A JavaScript loop does the same
//! element accesses on V8's fast paths. Each environment compiles the
//! functions when the addon loads (`napi_run_script` on constant source, no
//! user input); where that fails, the batch falls back to Node-API calls.
//!
//! **No answer is ever set into an array that has a prototype.** Setting an
//! element that an array does not have yet (`napi_set_element`, or `a[i] = v`
//! in JavaScript) runs any setter for that index on `Array.prototype` or
//! `Object.prototype`, which user code may define: the element is then
//! whatever the setter made of it (or missing, so that reading it runs the
//! matching getter). So answers are made in one of two ways, each of which
//! defines the elements:
//!
//! - `list(...values)` (natively, up to `LIST_MAX` values): a rest parameter
//!   is a new array whose elements are the arguments, defined.
//! - Otherwise the values are set into a `bare()` array, which has no
//!   prototype (so no setter can be reached), and `seal` copies them into
//!   the answer in a way that defines each element (see `COPY`).
//!
//! Under WebAssembly, emnapi's `napi_call_function` gathers the arguments
//! with `args.push(...)`, which runs those same setters: there a helper gets
//! its inputs as the elements of a `bare()` array passed as `this`, and is
//! called with no arguments (`Compiled::call_with_this`). Natively, the
//! arguments of `napi_call_function` reach the function without any
//! JavaScript running.
//!
//! The builtins the functions use (`Object.setPrototypeOf`,
//! `Object.getPrototypeOf`, `Reflect.apply`, `Reflect.ownKeys`,
//! `Array.prototype.concat`, `Array`) are read once, when the addon loads; no function
//! reads a global or a prototype property later, so user code that patches
//! builtins afterwards cannot change an answer.

use std::cell::Cell;
use std::ptr;

use napi::sys;

use super::types::{self, JsType};
use super::{check, out, Cx};
use crate::error::{codes, JsErr, Kind, Res};

/// `pack()` with `this` = `[keys, start, end, lengths]`: joins the strings
/// `keys[start..j)` into one string, where `j <= end` is the first index whose
/// value is not a string; writes the UTF-16 length of key `start + i` to
/// `lengths[i]` and `j` to `lengths[end - start]`. Each element is read once.
const PACK: &str = "(function pack() {\n\
  'use strict';\n\
  const keys = this[0], start = this[1], end = this[2], lengths = this[3];\n\
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

/// How `seal` and `gather` copy a `bare()` array into the answer:
/// `list(...found)` (a rest parameter defines each element) for up to
/// 8192 elements, so that the arguments stay small on the stack, and
/// `concat` with the bare array as `this` for more (it has no `constructor`
/// and no `Symbol.isConcatSpreadable` to look up, so the answer is a plain
/// new array, each element defined).
const COPY: &str = "\
  const setPrototypeOf = Object.setPrototypeOf, apply = Reflect.apply, concat = Array.prototype.concat;\n\
  const list = function (...values) { return values; };\n\
  const copy = (found) => (found.length <= 8192 ? apply(list, undefined, found) : apply(concat, found, []));\n";

/// `gather()` with `this` = `[ids, indices, length]`: a new array of
/// `ids[indices[i]]` for `i < length`. A large batch is written straight
/// into a new array when neither `Array.prototype` nor `Object.prototype`
/// has an own property whose name starts with a digit (every index does),
/// and `Array.prototype` still inherits from `Object.prototype` directly
/// (whose own prototype cannot change): then writing a missing element
/// defines it, and no user code runs during the loop to change that. Otherwise
/// the ids are gathered into a `bare` array and copied as `seal` does.
const GATHER: &str = concat!(
    "(() => {\n",
    "  const getPrototypeOf = Object.getPrototypeOf, ownKeys = Reflect.ownKeys, ArrayOf = Array;\n",
    "  const arrayPrototype = Array.prototype, objectPrototype = Object.prototype;\n",
    "  const indexFree = (o) => {\n",
    "    const keys = ownKeys(o);\n",
    "    for (let i = 0; i < keys.length; i++) {\n",
    "      const k = keys[i];\n",
    "      if (typeof k === 'string' && k.length > 0 && k.charCodeAt(0) >= 48 && k.charCodeAt(0) <= 57) return false;\n",
    "    }\n",
    "    return true;\n",
    "  };\n",
    "  const COPY_LINES",
    "  return function gather() {\n",
    "    'use strict';\n",
    "    const ids = this[0], indices = this[1], length = this[2];\n",
    "    if (length >= 1024 && getPrototypeOf(arrayPrototype) === objectPrototype &&\n",
    "        indexFree(arrayPrototype) && indexFree(objectPrototype)) {\n",
    "      const out = new ArrayOf(length);\n",
    "      for (let i = 0; i < length; i++) out[i] = ids[indices[i]];\n",
    "      return out;\n",
    "    }\n",
    "    const found = [];\n",
    "    setPrototypeOf(found, null);\n",
    "    for (let i = 0; i < length; i++) found[i] = ids[indices[i]];\n",
    "    return copy(found);\n",
    "  };\n",
    "})()"
);

/// `bare()`: a new empty array without a prototype.
const BARE: &str = "(() => {\n\
  const setPrototypeOf = Object.setPrototypeOf;\n\
  return function bare() { const a = []; setPrototypeOf(a, null); return a; };\n\
})()";

/// `seal()` with `this` = an array made by `bare`: a new array of its
/// elements (see `COPY`).
const SEAL: &str = concat!(
    "(() => {\n",
    "  const COPY_LINES",
    "  return function seal() { 'use strict'; return copy(this); };\n",
    "})()"
);

/// The source of a function, with `COPY` in place of `const COPY_LINES`.
fn with_copy(source: &str) -> String {
    source.replace("const COPY_LINES", COPY)
}

/// `list(...values)`: a new array of the arguments.
const LIST: &str = "(function list(...values) { return values; })";

/// The most values `Compiled::array_of` passes to `list` at once (natively);
/// a longer answer goes through `bare` and `seal`.
pub const LIST_MAX: usize = 1024;

#[derive(Clone, Copy)]
struct Functions {
    env: sys::napi_env,
    pack: sys::napi_ref,
    gather: sys::napi_ref,
    bare: sys::napi_ref,
    seal: sys::napi_ref,
    list: sys::napi_ref,
}

thread_local! {
    /// The functions compiled in the environment of this thread (the main
    /// thread and each worker have their own environment).
    static COMPILED: Cell<Option<Functions>> = const { Cell::new(None) };
}

/// Compiles the functions for `env`, at load. A failure is not an error:
/// batches then use Node-API calls only.
pub fn install(env: sys::napi_env) {
    let compiled = [PACK, &with_copy(GATHER), BARE, &with_copy(SEAL), LIST].map(|source| compile(env, source));
    match compiled {
        [Some(pack), Some(gather), Some(bare), Some(seal), Some(list)] => {
            COMPILED.with(|c| {
                c.set(Some(Functions {
                    env,
                    pack,
                    gather,
                    bare,
                    seal,
                    list,
                }))
            });
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

    /// Calls a compiled function with `this` and the given arguments.
    fn call(
        self,
        reference: sys::napi_ref,
        this: Option<sys::napi_value>,
        args: &[sys::napi_value],
        name: &str,
    ) -> Res<sys::napi_value> {
        let env = self.cx.0;
        let mut function = ptr::null_mut();
        let mut out = ptr::null_mut();
        // SAFETY: the reference belongs to this environment and is never
        // deleted; `this` and the arguments are values of the current call.
        let status = unsafe {
            let got = sys::napi_get_reference_value(env, reference, &mut function);
            let this = match this {
                Some(this) => this,
                None => {
                    let mut undefined = ptr::null_mut();
                    sys::napi_get_undefined(env, &mut undefined);
                    undefined
                }
            };
            if got != sys::Status::napi_ok || function.is_null() {
                got
            } else {
                sys::napi_call_function(env, this, function, args.len(), args.as_ptr(), &mut out)
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

    /// Calls a compiled function with no arguments and `this` = a `bare()`
    /// array of `args`, so that no JavaScript that user code can reach
    /// handles the arguments on the way (see the module's notes).
    fn call_with_this(self, reference: sys::napi_ref, args: &[sys::napi_value], name: &str) -> Res<sys::napi_value> {
        let this = self.bare()?;
        for (i, &arg) in args.iter().enumerate() {
            self.set(this, i, arg)?;
        }
        self.call(reference, Some(this), &[], name)
    }

    /// A new empty array without a prototype (see `BARE`).
    fn bare(self) -> Res<sys::napi_value> {
        self.call(self.functions.bare, None, &[], "bare")
    }

    /// Sets element `i` of an array made by `bare`.
    fn set(self, bare: sys::napi_value, i: usize, value: sys::napi_value) -> Res<()> {
        let index = u32::try_from(i).map_err(|_| {
            JsErr::new(
                Kind::Range,
                codes::LENGTH_MISMATCH,
                format!("{i} elements is too many for an array"),
            )
        })?;
        // SAFETY: `bare` is an array of this call without a prototype, so
        // this defines its element `i` and runs no setter.
        let status = unsafe { sys::napi_set_element(self.cx.0, bare, index, value) };
        check(status, "set_element")
    }

    /// See `PACK`; `lengths` must hold `end - start + 1` elements.
    pub fn pack(self, keys: sys::napi_value, start: u32, end: u32, lengths: sys::napi_value) -> Res<sys::napi_value> {
        let (start, end) = (out::uint(self.cx, start)?, out::uint(self.cx, end)?);
        self.call_with_this(self.functions.pack, &[keys, start, end, lengths], "pack")
    }

    /// See `GATHER`: the answer, a new array.
    pub fn gather(self, ids: sys::napi_value, indices: sys::napi_value, length: u32) -> Res<sys::napi_value> {
        let length = out::uint(self.cx, length)?;
        self.call_with_this(self.functions.gather, &[ids, indices, length], "gather")
    }

    /// A new array of the `len` values of `items`, each element defined (no
    /// setter runs; see the module's notes).
    pub fn array_of(self, items: impl Iterator<Item = Res<sys::napi_value>>, len: usize) -> Res<sys::napi_value> {
        if cfg!(not(target_family = "wasm")) && len <= LIST_MAX {
            let mut values = [ptr::null_mut(); LIST_MAX];
            let mut n = 0;
            for item in items {
                let slot = values
                    .get_mut(n)
                    .ok_or_else(|| JsErr::new(Kind::Error, codes::INTERNAL, "more array elements than announced"))?;
                *slot = item?;
                n += 1;
            }
            return self.call(self.functions.list, None, &values[..n], "list");
        }
        let bare = self.bare()?;
        for (i, item) in items.enumerate() {
            self.set(bare, i, item?)?;
        }
        self.call(self.functions.seal, Some(bare), &[], "seal")
    }
}
