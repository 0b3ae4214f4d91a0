//! `owner(key)`, the most called method, as a small JavaScript function
//! over two native calls, so that a call does less than the generic native
//! callback of `methods`:
//!
//! - **The receiver** is checked once per object. The first call on an
//!   object checks its napi-rs type tag natively (the same check, and the
//!   same TypeError for a foreign `this`, as every other method), then
//!   stamps the object with a class-private field (`#state`) holding an
//!   external pointer to the Rust value. Later calls read that field in
//!   JavaScript; only this module's closure can read or write it, so it
//!   cannot be forged, and an object without it (another class, a proxy, a
//!   primitive) takes the native check again.
//! - **The answer** is the node id string made once per node: the state
//!   holds an array with one slot per node of the snapshot it was filled
//!   from, and the native call that finds the owner's index replaces that
//!   array whenever the receiver's snapshot is another one than the one it
//!   was filled from. A slot holds 0 until the id is first returned; an id
//!   that is not UTF-8 comes back as a new Buffer each time (a Buffer can be
//!   changed by its caller, so it is never shared).
//!
//! The array has no prototype, so a patched `Array.prototype` cannot change
//! an answer; the class is built when the addon loads, from constant source. Where that fails,
//! `owner` stays the generic native method of `methods`.

use std::cell::RefCell;
use std::ffi::c_void;
use std::ptr;
use std::sync::Arc;

use longstraw_set::Snapshot;
use napi::sys;

use super::compiled::{clear_exception, function};
use super::methods::{finish, foreign, receiver, Receiver};
use super::strings::KeyBuf;
use super::types::{self, JsType};
use super::{args, check, out, Cx};
use crate::error::{codes, JsErr, Kind, Res};

#[cfg(target_family = "wasm")]
pub mod fast;

/// `(stamp, ownerIndex, idOf)` → the `owner` method of one class. Each call
/// makes a new class, so each class has its own private name.
const FACTORY: &str = r#"(function ownerMethod (stamp, ownerIndex, idOf) {
  let owner
  class Receiver { constructor (object) { return object } }
  class Stamped extends Receiver {
    #state
    constructor (object, state) { super(object); this.#state = state }
    static {
      const stateOf = (object) => {
        if (((typeof object === 'object' && object !== null) || typeof object === 'function') && #state in object) {
          return object.#state
        }
        const state = { handle: stamp(object), ids: [] }
        try { new Stamped(object, state) } catch {}
        return state
      }
      owner = {
        owner (key) {
          const state = stateOf(this)
          const index = ownerIndex(state.handle, key, state)
          const cached = state.ids[index]
          if (cached !== 0) return cached
          const id = idOf(state.handle, index)
          if (typeof id === 'string') state.ids[index] = id
          return id
        }
      }.owner
    }
  }
  return owner
})"#;

/// `zeros(n)`: an array of `n` zeros without a prototype, so that neither
/// its writes nor its reads ever reach `Array.prototype`
/// (`Object.setPrototypeOf` is read once, when the addon loads).
const ZEROS: &str = r#"(() => {
  const setPrototypeOf = Object.setPrototypeOf
  return function zeros (n) {
    const a = []
    setPrototypeOf(a, null)
    for (let i = 0; i < n; i++) a[i] = 0
    return a
  }
})()"#;

/// What a receiver keeps for its `owner` method: the snapshot whose node
/// ids its JavaScript id array holds, and the function that makes a new
/// array. Used on the JavaScript thread only.
#[derive(Default)]
pub struct IdCache {
    filled_from: RefCell<Option<Arc<Snapshot>>>,
}

/// The class value an external handle points at.
///
/// # Safety
/// `handle` must be an external made by `stamp::<C>` for an object that is
/// still alive (the caller holds it: it is the call's `this`).
unsafe fn unpack<'a, C: Receiver>(env: sys::napi_env, handle: sys::napi_value) -> Res<&'a C> {
    let mut data: *mut c_void = ptr::null_mut();
    // SAFETY: `handle` belongs to the running call; a value that is not an
    // external only fails the call.
    let status = unsafe { sys::napi_get_value_external(env, handle, &mut data) };
    check(status, "get_value_external")?;
    if data.is_null() {
        return Err(JsErr::new(Kind::Error, codes::INTERNAL, "empty external handle"));
    }
    // SAFETY: upheld by the caller: the external points at the live `C`
    // napi-rs wrapped in the object that holds it.
    Ok(unsafe { &*(data as *const C) })
}

/// The arguments of a call (missing ones are `undefined`).
///
/// # Safety
/// `env` and `info` must be those of the running callback.
unsafe fn arguments<const N: usize>(env: sys::napi_env, info: sys::napi_callback_info) -> [sys::napi_value; N] {
    let mut argc = N;
    let mut a = [ptr::null_mut(); N];
    // SAFETY: upheld by the caller; `a` has room for `argc` values.
    unsafe { sys::napi_get_cb_info(env, info, &mut argc, a.as_mut_ptr(), ptr::null_mut(), ptr::null_mut()) };
    a
}

/// `stamp(object)`: after the type-tag check, an external pointing at the
/// `C` that `object` wraps.
unsafe extern "C" fn stamp<C: Receiver>(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let result = std::panic::catch_unwind(|| {
        // SAFETY: Node-API calls this with the running callback's `env` and `info`.
        let [object] = unsafe { arguments::<1>(env, info) };
        // A class method's `this` may be any value (`undefined` too), which
        // the type-tag check would not take.
        if !matches!(types::type_of(Cx(env), object)?, JsType::Object | JsType::Function) {
            return Err(foreign::<C>());
        }
        // SAFETY: the reference is used only within this callback.
        let this: &C = unsafe { receiver::<C>(env, object) }?;
        // A new state (with an empty id array) comes with each stamp: the
        // next `ownerIndex` fills it.
        *this.id_cache().filled_from.borrow_mut() = None;
        let mut handle = ptr::null_mut();
        // SAFETY: an external without a finalizer: the object owns the `C`,
        // and the external is only reachable through that object's private
        // field, so it never outlives the `C`.
        let status = unsafe {
            sys::napi_create_external(env, this as *const C as *mut c_void, None, ptr::null_mut(), &mut handle)
        };
        check(status, "create_external")?;
        Ok(handle)
    });
    finish(env, result)
}

/// `ownerIndex(handle, key, state)`: the index of `key`'s owner in the
/// receiver's current snapshot; first replaces `state.ids` by an array of
/// zeros when that snapshot is not the one the array was filled from.
unsafe extern "C" fn owner_index<C: Receiver>(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let result = std::panic::catch_unwind(|| {
        // SAFETY: Node-API calls this with the running callback's `env` and `info`.
        let [handle, key, state] = unsafe { arguments::<3>(env, info) };
        // SAFETY: only `FACTORY`'s closure calls this, with the handle of the
        // call's `this`, which it holds.
        let this: &C = unsafe { unpack::<C>(env, handle) }?;
        let cx = Cx(env);
        this.with_shared(|snap| {
            let mut buf = KeyBuf::default();
            let index = snap.owner_index(args::bytes(cx, key, &mut buf, &|| "key".into())?)?;
            let cache = this.id_cache();
            let current = cache
                .filled_from
                .borrow()
                .as_ref()
                .is_some_and(|s| Arc::ptr_eq(s, snap));
            if !current {
                let ids = zeros(cx, snap.len())?;
                // SAFETY: `state` is the closure's own plain object, whose
                // `ids` is an own data property: no setter runs.
                let status = unsafe { sys::napi_set_named_property(env, state, c"ids".as_ptr(), ids) };
                check(status, "set_named_property")?;
                *cache.filled_from.borrow_mut() = Some(Arc::clone(snap));
            }
            out::uint(cx, index)
        })
    });
    finish(env, result)
}

/// `idOf(handle, index)`: the id of node `index` of the snapshot the
/// state's array was filled from, which is the receiver's current one (no
/// JavaScript but `FACTORY`'s runs between `ownerIndex` and this call).
unsafe extern "C" fn id_of<C: Receiver>(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let result = std::panic::catch_unwind(|| {
        // SAFETY: Node-API calls this with the running callback's `env` and `info`.
        let [handle, index] = unsafe { arguments::<2>(env, info) };
        // SAFETY: as in `owner_index`.
        let this: &C = unsafe { unpack::<C>(env, handle) }?;
        let cx = Cx(env);
        let index = args::count(cx, index, "index")?;
        this.with_shared(|snap| {
            let filled_from = this.id_cache().filled_from.borrow();
            let node = match filled_from.as_ref() {
                Some(s) if Arc::ptr_eq(s, snap) => u32::try_from(index).ok().and_then(|i| snap.node(i)),
                _ => None,
            };
            match node {
                Some(node) => out::id(cx, node.id()),
                None => Err(JsErr::new(
                    Kind::Error,
                    codes::INTERNAL,
                    format!("node index {index} does not belong to the current snapshot"),
                )),
            }
        })
    });
    finish(env, result)
}

/// A new array of `n` zeros, made by `ZEROS`.
fn zeros(cx: Cx, n: usize) -> Res<sys::napi_value> {
    let Some(make) = ZEROS_FN.with(|f| f.get()).filter(|f| f.0 == cx.0).map(|f| f.1) else {
        return Err(JsErr::new(
            Kind::Error,
            codes::INTERNAL,
            "the id array helper is missing",
        ));
    };
    let mut function = ptr::null_mut();
    let mut undefined = ptr::null_mut();
    let mut result = ptr::null_mut();
    let len = out::number(cx, n as f64)?;
    // SAFETY: the reference belongs to this environment and is never
    // deleted before it is torn down; the argument is a value of this call.
    let status = unsafe {
        let got = sys::napi_get_reference_value(cx.0, make, &mut function);
        sys::napi_get_undefined(cx.0, &mut undefined);
        if got != sys::Status::napi_ok || function.is_null() {
            got
        } else {
            sys::napi_call_function(cx.0, undefined, function, 1, &len, &mut result)
        }
    };
    check(status, "call_function zeros")?;
    Ok(result)
}

thread_local! {
    /// `ZEROS` compiled in the environment of this thread, and that environment.
    static ZEROS_FN: std::cell::Cell<Option<(sys::napi_env, sys::napi_ref)>> = const { std::cell::Cell::new(None) };
}

unsafe extern "C" fn forget(env: *mut c_void) {
    let _ = ZEROS_FN.try_with(|c| {
        if c.get().is_some_and(|f| f.0.cast() == env) {
            c.set(None);
        }
    });
}

type Callback = unsafe extern "C" fn(sys::napi_env, sys::napi_callback_info) -> sys::napi_value;

fn native(cx: Cx, name: &std::ffi::CStr, callback: Callback) -> Res<sys::napi_value> {
    let mut f = ptr::null_mut();
    // SAFETY: a function from a callback with the Node-API signature, without data.
    let status = unsafe {
        sys::napi_create_function(
            cx.0,
            name.as_ptr(),
            name.to_bytes().len() as isize,
            Some(callback),
            ptr::null_mut(),
            &mut f,
        )
    };
    check(status, "create_function")?;
    Ok(f)
}

/// Compiles `ZEROS` for this environment; `false` when it could not be.
fn install_zeros(env: sys::napi_env) -> bool {
    if ZEROS_FN.with(|f| f.get()).is_some_and(|f| f.0 == env) {
        return true;
    }
    let Some(zeros) = function(env, ZEROS) else {
        return false;
    };
    let mut reference = ptr::null_mut();
    // SAFETY: `zeros` is a live function of `env`; the reference lives as
    // long as the environment (`forget` drops it at teardown).
    if unsafe { sys::napi_create_reference(env, zeros, 1, &mut reference) } != sys::Status::napi_ok {
        return false;
    }
    ZEROS_FN.with(|f| f.set(Some((env, reference))));
    // SAFETY: `env` is live; the hook runs on this thread at teardown. (The
    // hook is imported from emnapi's `napi` module under wasm: see `compiled`.)
    unsafe { super::compiled::add_env_cleanup_hook(env, Some(forget), env.cast()) };
    true
}

/// Defines `owner` on the prototype of class `C` as the JavaScript method
/// of `FACTORY`. `false` (with nothing defined) when that cannot be done;
/// the caller then installs the generic native `owner`.
pub fn install_owner<C: Receiver>(cx: Cx, exports: sys::napi_value) -> bool {
    define_owner::<C>(cx, exports, FACTORY, &[])
}

/// Defines `owner` on the prototype of class `C` as the function `source`
/// evaluates to, called with `(stamp, ownerIndex, idOf, ...extra)`.
fn define_owner<C: Receiver>(cx: Cx, exports: sys::napi_value, source: &str, extra: &[sys::napi_value]) -> bool {
    let env = cx.0;
    let done = (|| -> Option<()> {
        if !install_zeros(env) {
            return None;
        }
        let factory = function(env, source)?;
        let mut made = vec![
            native(cx, c"stamp", stamp::<C>).ok()?,
            native(cx, c"ownerIndex", owner_index::<C>).ok()?,
            native(cx, c"idOf", id_of::<C>).ok()?,
        ];
        made.extend_from_slice(extra);
        let mut undefined = ptr::null_mut();
        let mut owner = ptr::null_mut();
        // SAFETY: `factory` is the function `source` evaluates to; the
        // arguments are values of this environment.
        let status = unsafe {
            sys::napi_get_undefined(env, &mut undefined);
            sys::napi_call_function(env, undefined, factory, made.len(), made.as_ptr(), &mut owner)
        };
        if status != sys::Status::napi_ok {
            return None;
        }
        let proto = args::get(cx, args::get(cx, exports, C::CLASS).ok()?, c"prototype").ok()?;
        let property = sys::napi_property_descriptor {
            utf8name: c"owner".as_ptr(),
            name: ptr::null_mut(),
            method: None,
            getter: None,
            setter: None,
            value: owner,
            // As a class method: writable and configurable, not enumerable.
            attributes: sys::PropertyAttributes::writable | sys::PropertyAttributes::configurable,
            data: ptr::null_mut(),
        };
        // SAFETY: `proto` is the class prototype; the descriptor names a
        // zero-terminated name and a value of this call.
        let status = unsafe { sys::napi_define_properties(env, proto, 1, &property) };
        (status == sys::Status::napi_ok).then_some(())
    })();
    if done.is_none() {
        clear_exception(env);
    }
    done.is_some()
}
