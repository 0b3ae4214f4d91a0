//! The per-key lookups `owner(key)`, a snapshot's `ownerIndex(key)`,
//! `topK(key, k)`, `topKDistinct(key, k)` and `rank(key)` as small
//! JavaScript methods over native calls, so that a call does less than the
//! generic native callback of `methods`:
//!
//! - **The receiver** is checked once per object. The first call on an
//!   object checks its napi-rs type tag natively (the same check, and the
//!   same TypeError for a foreign `this`, as every other method), then
//!   stamps the object with a class-private field (`#state`) holding an
//!   external pointer to the Rust value. Later calls read that field in
//!   JavaScript; only this module's closure can read or write it, so it
//!   cannot be forged, and an object without it (another class, a proxy, a
//!   primitive) takes the native check again. All the methods of a class
//!   come from one closure and share that state.
//! - **The answer** is made of node id strings made once per node: the state
//!   holds an array with one slot per node of the snapshot it was filled
//!   from, and each native call that answers node indices (`ownerIndex`, the
//!   ranked calls) replaces that array whenever the receiver's snapshot is
//!   another one than the one it was filled from. A slot holds 0 until the id
//!   is first returned; an id that is not UTF-8 comes back as a new Buffer
//!   each time (a Buffer can be changed by its caller, so it is never shared).
//!   A ranked answer of up to `RANKED_MAX` ids is an array literal of those
//!   strings; a longer one is built natively, with its elements defined
//!   (`out::array_of`).
//! - **The arguments** are read and checked natively, as the generic methods
//!   read them, so the errors are the same.
//!
//! The arrays have no prototype, so a patched `Array.prototype` cannot change
//! an answer; the class is built when the addon loads, from constant source.
//! Where that fails, the methods stay the generic native ones of `methods`.
//! The WebAssembly build adds one hook to the same template (see `fast`).

use std::cell::RefCell;
use std::ffi::{c_void, CStr};
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
use crate::lookup;

#[cfg(target_family = "wasm")]
pub mod fast;

/// The most ids a ranked answer (`topK`, `topKDistinct`, `rank`) gathers in
/// JavaScript (`FACTORY`'s array literals go up to this many); a longer one
/// is built natively, as before.
const RANKED_MAX: usize = 16;

/// `(stamp, ownerIndex, idOf, topK, topKDistinct, rank, rankedMax, addressOf,
/// fastIndex)` → the lookup methods of one class. Each call makes a new
/// class, so each class has its own private name.
///
/// `addressOf` and `fastIndex` are the hook of the WebAssembly build (see
/// `fast`), which passes them and replaces each `/* hook: ... */` comment by its line
/// (`fast::HOOK`):
/// `owner` and `ownerIndex` then first offer the key to
/// `fastIndex(address, key)`, which answers the owner's index or -1 for "ask
/// the Node-API path". The native build passes neither and keeps the comment.
///
/// A ranked method's native call writes node indices into `scratch` and
/// answers how many; their ids come from the same per-node strings as
/// `owner`'s, gathered into `found` (no prototype, so its writes and reads
/// never reach `Array.prototype`), and the answer is an array literal of
/// them, whose elements are defined rather than set, so no setter a user
/// put on `Array.prototype` runs. No user code runs between the native call
/// and the answer, so a re-entrant call cannot overwrite `scratch` or
/// `found` while they are read. An answer longer than `RANKED_MAX` ids comes
/// back from the native call as the finished array, as before.
const FACTORY: &str = r#"(function lookupMethods (stamp, ownerIndex, idOf, topK, topKDistinct, rank, rankedMax, addressOf, fastIndex) {
  const scratch = new Uint32Array(rankedMax)
  const found = []
  Object.setPrototypeOf(found, null)
  let methods
  class Receiver { constructor (object) { return object } }
  class Stamped extends Receiver {
    #state
    constructor (object, state) { super(object); this.#state = state }
    static {
      const stateOf = (object) => {
        if (((typeof object === 'object' && object !== null) || typeof object === 'function') && #state in object) {
          return object.#state
        }
        const handle = stamp(object)
        const state = { handle, address: addressOf === undefined ? 0 : addressOf(handle), ids: [] }
        try { new Stamped(object, state) } catch {}
        return state
      }
      const idAt = (state, index) => {
        const cached = state.ids[index]
        if (cached !== 0) return cached
        const id = idOf(state.handle, index)
        if (typeof id === 'string') state.ids[index] = id
        return id
      }
      const list = (state, n) => {
        if (typeof n !== 'number') return n
        const f = found
        for (let i = 0; i < n; i++) f[i] = idAt(state, scratch[i])
        switch (n) {
          case 0: return []
          case 1: return [f[0]]
          case 2: return [f[0], f[1]]
          case 3: return [f[0], f[1], f[2]]
          case 4: return [f[0], f[1], f[2], f[3]]
          case 5: return [f[0], f[1], f[2], f[3], f[4]]
          case 6: return [f[0], f[1], f[2], f[3], f[4], f[5]]
          case 7: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6]]
          case 8: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]]
          case 9: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]]
          case 10: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]]
          case 11: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]]
          case 12: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11]]
          case 13: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12]]
          case 14: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13]]
          case 15: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13], f[14]]
          case 16: return [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13], f[14], f[15]]
        }
      }
      methods = {
        owner (key) {
          const state = stateOf(this)
          let index = -1
          /* hook: the WebAssembly fast index */
          if (index < 0) index = ownerIndex(state.handle, key, state)
          return idAt(state, index)
        },
        ownerIndex (key) {
          const state = stateOf(this)
          let index = -1
          /* hook: the WebAssembly fast index */
          if (index < 0) index = ownerIndex(state.handle, key, state)
          return index
        },
        topK (key, k) {
          const state = stateOf(this)
          return list(state, topK(state.handle, key, k, state, scratch))
        },
        topKDistinct (key, k) {
          const state = stateOf(this)
          return list(state, topKDistinct(state.handle, key, k, state, scratch))
        },
        rank (key) {
          const state = stateOf(this)
          return list(state, rank(state.handle, key, undefined, state, scratch))
        }
      }
    }
  }
  return methods
})"#;

/// `zeros()` with `this` = `n`: an array of `n` zeros without a prototype,
/// so that neither its writes nor its reads ever reach `Array.prototype`
/// (`Object.setPrototypeOf` is read once, when the addon loads). `n` comes
/// as `this`, not as an argument: under WebAssembly, emnapi gathers the
/// arguments of a call with `args.push`, which runs setters a user put on
/// `Array.prototype`.
const ZEROS: &str = r#"(() => {
  const setPrototypeOf = Object.setPrototypeOf
  return function zeros () {
    'use strict'
    const n = this
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
/// receiver's current snapshot (see `refresh`).
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
            refresh(cx, this, snap, state)?;
            out::uint(cx, index)
        })
    });
    finish(env, result)
}

/// Replaces `state.ids` by an array of zeros when `snap` is not the
/// snapshot the array was filled from, so that the indices the call answers
/// name slots of that array.
fn refresh<C: Receiver>(cx: Cx, this: &C, snap: &Arc<Snapshot>, state: sys::napi_value) -> Res<()> {
    let cache = this.id_cache();
    let current = cache
        .filled_from
        .borrow()
        .as_ref()
        .is_some_and(|s| Arc::ptr_eq(s, snap));
    if !current {
        let ids = zeros(cx, snap.len())?;
        // SAFETY: `state` is the closure's own plain object, whose `ids` is
        // an own data property: no setter runs.
        let status = unsafe { sys::napi_set_named_property(cx.0, state, c"ids".as_ptr(), ids) };
        check(status, "set_named_property")?;
        *cache.filled_from.borrow_mut() = Some(Arc::clone(snap));
    }
    Ok(())
}

/// Which ranked method a `ranked` callback serves.
const TOP_K: u8 = 0;
const TOP_K_DISTINCT: u8 = 1;
const RANK: u8 = 2;

/// `topK(handle, key, k, state, scratch)`, `topKDistinct(...)` and
/// `rank(handle, key, undefined, state, scratch)`: the arguments are read and
/// checked as the generic methods read them (`key`, then `k`); the ranked
/// node indices go to `scratch` and the answer is their count (see
/// `refresh`). An answer longer than `scratch` comes back as the finished
/// array of ids instead.
unsafe extern "C" fn ranked<C: Receiver, const WHICH: u8>(
    env: sys::napi_env,
    info: sys::napi_callback_info,
) -> sys::napi_value {
    let result = std::panic::catch_unwind(|| {
        // SAFETY: Node-API calls this with the running callback's `env` and `info`.
        let [handle, key, k, state, scratch] = unsafe { arguments::<5>(env, info) };
        // SAFETY: as in `owner_index`.
        let this: &C = unsafe { unpack::<C>(env, handle) }?;
        let cx = Cx(env);
        this.with_shared(|snap| {
            let mut buf = KeyBuf::default();
            let key = args::bytes(cx, key, &mut buf, &|| "key".into())?;
            let k = match WHICH {
                RANK => snap.eligible(),
                _ => args::count(cx, k, "k")?,
            };
            let distinct = WHICH == TOP_K_DISTINCT;
            let want = k.min(snap.eligible());
            let slots = args::u32_array_mut(cx, scratch, &|| "scratch".into())?;
            if want > slots.len() {
                return lookup::ranked(cx, snap, key, k, distinct);
            }
            let slots = &mut slots[..want];
            let n = if distinct {
                snap.top_k_distinct_into(key, slots)
            } else {
                snap.top_k_into(key, slots)
            };
            refresh(cx, this, snap, state)?;
            out::publish(cx, scratch, n)?;
            out::uint(cx, n as u32)
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
    let mut result = ptr::null_mut();
    let len = out::number(cx, n as f64)?;
    // SAFETY: the reference belongs to this environment and is never
    // deleted before it is torn down; `len` (the call's `this`) is a value
    // of this call.
    let status = unsafe {
        let got = sys::napi_get_reference_value(cx.0, make, &mut function);
        if got != sys::Status::napi_ok || function.is_null() {
            got
        } else {
            sys::napi_call_function(cx.0, len, function, 0, ptr::null(), &mut result)
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

/// The methods `FACTORY` makes that class `C` has: a snapshot's
/// `ownerIndex` too (a set's index would have no snapshot to refer to).
fn names<C: Receiver>() -> &'static [&'static CStr] {
    const SET: [&CStr; 4] = [c"owner", c"topK", c"topKDistinct", c"rank"];
    const SNAPSHOT: [&CStr; 5] = [c"owner", c"topK", c"topKDistinct", c"rank", c"ownerIndex"];
    if C::CLASS == c"Snapshot" {
        &SNAPSHOT
    } else {
        &SET
    }
}

/// Defines the lookup methods of `FACTORY` (`names`) on the prototype of
/// class `C`. `false` (with nothing defined) when that cannot be done; the
/// generic native methods of `methods` then stay.
pub fn install_owner<C: Receiver>(cx: Cx, exports: sys::napi_value) -> bool {
    define_methods::<C>(cx, exports, FACTORY, &[])
}

/// Defines the methods `source` (`FACTORY`, or it with its hook filled in)
/// makes, called with `(stamp, ownerIndex, idOf, topK, topKDistinct, rank,
/// rankedMax, ...hook)`, on the prototype of class `C`: all of them from one
/// call, so that one class-private state serves every method of an object.
fn define_methods<C: Receiver>(cx: Cx, exports: sys::napi_value, source: &str, hook: &[sys::napi_value]) -> bool {
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
            native(cx, c"topK", ranked::<C, TOP_K>).ok()?,
            native(cx, c"topKDistinct", ranked::<C, TOP_K_DISTINCT>).ok()?,
            native(cx, c"rank", ranked::<C, RANK>).ok()?,
            out::uint(cx, RANKED_MAX as u32).ok()?,
        ];
        made.extend_from_slice(hook);
        let mut undefined = ptr::null_mut();
        let mut methods = ptr::null_mut();
        // SAFETY: `factory` is the function `source` evaluates to; the
        // arguments are values of this environment.
        let status = unsafe {
            sys::napi_get_undefined(env, &mut undefined);
            sys::napi_call_function(env, undefined, factory, made.len(), made.as_ptr(), &mut methods)
        };
        if status != sys::Status::napi_ok {
            return None;
        }
        let proto = args::get(cx, args::get(cx, exports, C::CLASS).ok()?, c"prototype").ok()?;
        let mut properties = Vec::with_capacity(names::<C>().len());
        for name in names::<C>() {
            properties.push(sys::napi_property_descriptor {
                utf8name: name.as_ptr(),
                name: ptr::null_mut(),
                method: None,
                getter: None,
                setter: None,
                value: args::get(cx, methods, name).ok()?,
                // As a class method: writable and configurable, not enumerable.
                attributes: sys::PropertyAttributes::writable | sys::PropertyAttributes::configurable,
                data: ptr::null_mut(),
            });
        }
        // SAFETY: `proto` is the class prototype; each descriptor names a
        // zero-terminated name and a value of this call.
        let status = unsafe { sys::napi_define_properties(env, proto, properties.len(), properties.as_ptr()) };
        (status == sys::Status::napi_ok).then_some(())
    })();
    if done.is_none() {
        clear_exception(env);
    }
    done.is_some()
}
