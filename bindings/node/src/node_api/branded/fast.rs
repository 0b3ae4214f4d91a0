//! WebAssembly only: `owner(key)` and a snapshot's `ownerIndex(key)` for a
//! string key without emnapi.
//!
//! Under WebAssembly every Node-API call is JavaScript glue (emnapi): one
//! `ownerIndex` call spent most of its time there (handle scopes, the
//! callback info, reading the string, the external, the answer, and the
//! error slot each call writes), not in the lookup. So the loader hands the
//! addon its own WebAssembly exports once, when it loads (the installer,
//! `__longstrawWasmFastPath`, that the build adds to napi-rs's loader; see
//! `bindings/node/scripts/wasi-fast-path.js`), and the methods are made
//! again from `FACTORY` with its hook, `fastIndex(address, key)` (made by
//! `HOOK_SOURCE`), which `owner` and `ownerIndex` try first: it encodes a string key with
//! `TextEncoder.encodeInto` straight into a scratch area in wasm memory and
//! calls a plain export, `longstraw_node_owner_fast_<class>(receiver, len)`,
//! which answers with the owner's index, or -1 for "ask the Node-API path".
//! (A short ASCII key is copied by a JavaScript loop instead: cheaper than
//! the call into `encodeInto`.)
//! Where the installer is never called (another loader, the browser), the
//! methods of `FACTORY` without the hook stay, with the same answers. The
//! ranked methods (`topK`, `topKDistinct`, `rank`) have no hook: they take
//! the Node-API path of `FACTORY` in both cases.
//!
//! What makes an answer right, and a pointer safe:
//!
//! - **The receiver pointer** is the address of the Rust value napi-rs wraps
//!   in the object (`addressOf`, after the same type-tag check as `stamp`),
//!   kept in the object's class-private state next to the external handle
//!   `FACTORY` already keeps there. Only the closure can read that state, and
//!   it passes the address only while running a method whose `this` is that
//!   object, so the object (and the value it owns, boxed, never moved) is
//!   alive for the whole call. No JavaScript runs inside the export (it
//!   imports nothing and calls nothing back), so no finalizer can free the
//!   value meanwhile. Each class has its own export, so a pointer is never
//!   read as the other class.
//! - **The set changing** never gives a stale answer: the export looks the
//!   key up in the receiver's *current* snapshot (a `Rendezvous` loads it
//!   on every call, as every other method does), and answers only when that
//!   snapshot is the one whose ids the state's array holds (`IdCache`, which
//!   keeps that snapshot alive, so a new snapshot can never reuse its
//!   address). Otherwise it answers -1 and the Node-API `ownerIndex` runs,
//!   which refills the array for the current snapshot, as before. A new state
//!   (each `stamp`) clears `IdCache` first, so its first call always takes
//!   the Node-API path.
//! - **The key** is read by the export only from its own scratch area, whose
//!   length it checks; JavaScript passes only how many bytes it wrote.
//!   `encodeInto` writes U+FFFD for a lone surrogate, which the Node-API path
//!   refuses with a TypeError: a key whose bytes hold U+FFFD (real or not)
//!   takes the Node-API path, which tells the two apart. Keys that are not
//!   strings, or longer than `MAX_UNITS` UTF-16 units, take it too.
//! - **Errors** (no eligible node, ...) are not reported by the export: it
//!   answers -1, and the Node-API path throws the binding's error.
//! - **One set of methods per class.** The loader calls the installer before
//!   it returns the exports, so no object exists yet and no code holds the
//!   `FACTORY` methods it replaces (all of a class's, from one closure); the installer deletes itself and refuses
//!   to run twice. (Two closures stamping one object would each keep an id
//!   array while `IdCache` remembers only one snapshot.)
//! - **The scratch area** is a thread-local array whose address is taken on
//!   the JavaScript thread, the only thread that runs JavaScript (and so the
//!   export) for this instance; emnapi's worker threads run only Rust. The
//!   view over it lives on the module's shared memory (this build is
//!   threaded), which growing never detaches. Were the memory not shared, a
//!   detached view would make `encodeInto` read less than the whole key, and
//!   the call would take the Node-API path; the ASCII loop, whose stores
//!   would be lost silently, runs only over shared memory.

use std::cell::UnsafeCell;
use std::ptr;
use std::sync::Arc;

use longstraw_set::Snapshot as SetSnapshot;
use napi::sys;

use super::{arguments, define_methods, finish, native, unpack, Callback, Receiver, FACTORY};
use crate::node_api::compiled::{clear_exception, function};
use crate::node_api::types::{self, JsType};
use crate::node_api::{args, check, out, Cx};
use crate::rendezvous::Rendezvous;
use crate::snapshot::Snapshot;

/// The longest string key (in UTF-16 units) the fast path takes: its UTF-8
/// (at most 3 bytes per unit) always fits the scratch area.
const MAX_UNITS: usize = 1024;
const SCRATCH_LEN: usize = 3 * MAX_UNITS;

/// The answer that sends the call to the Node-API path.
const SLOW: i32 = -1;

thread_local! {
    /// Where JavaScript writes a key's UTF-8 before calling the export. One
    /// per thread: only the JavaScript thread that loaded the module (the
    /// one that asked for its address) writes it or calls the exports.
    static SCRATCH: UnsafeCell<[u8; SCRATCH_LEN]> = const { UnsafeCell::new([0; SCRATCH_LEN]) };
}

/// The comment in `FACTORY` (in `owner` and `ownerIndex`) that `HOOK_LINE`
/// replaces.
const HOOK: &str = "/* hook: the WebAssembly fast index */";

/// The line that replaces `FACTORY`'s `HOOK` comments: a key first goes to
/// `fastIndex` (made by `HOOK_SOURCE`).
const HOOK_LINE: &str = "index = fastIndex(state.address, key)";

/// `(fastExport, memory, scratchAt, scratchLen, maxUnits)` → the hook
/// `FACTORY` takes as `fastIndex(address, key)`: a string key is written to
/// the scratch area and offered to the class's export; -1 sends the call to
/// the Node-API path. The builtins it uses are captured when the addon
/// loads, so user code that patches them later cannot change an answer.
const HOOK_SOURCE: &str = r#"(function fastIndexHook (fastExport, memory, scratchAt, scratchLen, maxUnits) {
  const encode = TextEncoder.prototype.encodeInto.bind(new TextEncoder())
  const view = () => new Uint8Array(memory.buffer, scratchAt, scratchLen)
  let scratch = view()
  // Shared memory is never detached, so stores into the view always land; only then are short ASCII
  // keys copied by the loop below, which costs less than a call into encodeInto.
  const shared = typeof SharedArrayBuffer === 'function' && memory.buffer instanceof SharedArrayBuffer
  return function fastIndex (address, key) {
    if (typeof key !== 'string' || key.length > maxUnits) return -1
    const n = key.length
    let ascii = shared && n <= 64
    for (let i = 0; ascii && i < n; i++) {
      const c = key.charCodeAt(i)
      if (c > 0x7f) ascii = false
      else scratch[i] = c
    }
    if (ascii) return fastExport(address, n)
    const done = encode(key, scratch)
    if (done.read === n) return fastExport(address, done.written)
    scratch = view()
    return -1
  }
})"#;

thread_local! {
    /// Whether the installer ran on this thread (it runs once, at load).
    static INSTALLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The name of the installer on the addon's exports (deleted once it ran).
const INSTALLER: &std::ffi::CStr = c"__longstrawWasmFastPath";

/// Whether a scratch key holds the UTF-8 of U+FFFD, which `encodeInto`
/// also writes for a lone surrogate.
fn holds_replacement(key: &[u8]) -> bool {
    key.windows(3).any(|w| w == [0xEF, 0xBF, 0xBD])
}

/// The fast answer for a key of `len` scratch bytes: the owner's index in
/// the receiver's current snapshot when that is the snapshot its id array
/// was filled from, else `SLOW`.
///
/// # Safety
/// `receiver` must point at a live `C` (see the module's notes: the
/// address `addressOf` gave for the object whose method is running).
unsafe fn fast_index<C: Receiver>(receiver: *const C, len: u32) -> i32 {
    let len = len as usize;
    if receiver.is_null() || len > SCRATCH_LEN {
        return SLOW;
    }
    // SAFETY: upheld by the caller; only shared references to a `C` exist
    // while JavaScript runs (every method takes `&self`).
    let this: &C = unsafe { &*receiver };
    SCRATCH.with(|scratch| {
        // SAFETY: JavaScript wrote the key before this call, and nothing
        // writes the scratch area while the export runs (this thread runs it,
        // and no other thread touches this thread's area).
        let key = unsafe { &(&*scratch.get())[..len] };
        if holds_replacement(key) {
            return SLOW;
        }
        this.with_shared(|snap| {
            if !filled_from(this, snap) {
                return SLOW;
            }
            snap.owner_index(key)
                .ok()
                .and_then(|index| i32::try_from(index).ok())
                .unwrap_or(SLOW)
        })
    })
}

/// Whether the receiver's id array was filled from `snap` (a borrow that
/// fails counts as no).
fn filled_from<C: Receiver>(this: &C, snap: &Arc<SetSnapshot>) -> bool {
    this.id_cache()
        .filled_from
        .try_borrow()
        .is_ok_and(|filled| filled.as_ref().is_some_and(|s| Arc::ptr_eq(s, snap)))
}

/// `fastIndex(receiver, len)` for `Rendezvous`; see `fast_index`.
///
/// # Safety
/// Called only by `HOOK_SOURCE`'s function (from `FACTORY`'s closure), with the
/// address `addressOf` gave for the `Rendezvous` whose method is running.
#[no_mangle]
pub unsafe extern "C" fn longstraw_node_owner_fast_rendezvous(receiver: *const Rendezvous, len: u32) -> i32 {
    // SAFETY: upheld by the caller.
    unsafe { fast_index(receiver, len) }
}

/// `fastIndex(receiver, len)` for `Snapshot`; see `fast_index`.
///
/// # Safety
/// As `longstraw_node_owner_fast_rendezvous`, for a `Snapshot`.
#[no_mangle]
pub unsafe extern "C" fn longstraw_node_owner_fast_snapshot(receiver: *const Snapshot, len: u32) -> i32 {
    // SAFETY: upheld by the caller.
    unsafe { fast_index(receiver, len) }
}

/// `addressOf(handle)`: the address of the `C` a handle made by `stamp::<C>`
/// points at.
unsafe extern "C" fn address_of<C: Receiver>(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let result = std::panic::catch_unwind(|| {
        // SAFETY: Node-API calls this with the running callback's `env` and `info`.
        let [handle] = unsafe { arguments::<1>(env, info) };
        // SAFETY: only `FACTORY`'s closure calls this, with the handle
        // `stamp` just made for an object it holds.
        let this: &C = unsafe { unpack::<C>(env, handle) }?;
        out::uint(Cx(env), this as *const C as usize as u32)
    });
    finish(env, result)
}

/// Adds the installer to the addon's exports (not enumerable; it deletes
/// itself when called).
pub fn define_installer(cx: Cx, exports: sys::napi_value) {
    let Ok(installer) = native(cx, c"installFastPath", install) else {
        clear_exception(cx.0);
        return;
    };
    let property = sys::napi_property_descriptor {
        utf8name: INSTALLER.as_ptr(),
        name: ptr::null_mut(),
        method: None,
        getter: None,
        setter: None,
        value: installer,
        attributes: sys::PropertyAttributes::configurable,
        data: ptr::null_mut(),
    };
    // SAFETY: `exports` is the module's exports object; the descriptor names
    // a zero-terminated name and a value of this call.
    if unsafe { sys::napi_define_properties(cx.0, exports, 1, &property) } != sys::Status::napi_ok {
        clear_exception(cx.0);
    }
}

/// `exports.__longstrawWasmFastPath(instanceExports, memory)`: installs the
/// fast `owner` on both classes, then deletes itself from `exports` (its
/// `this`). Returns whether the fast path is in place; where it cannot be
/// (an export missing, ...), the `owner` of `FACTORY` stays.
unsafe extern "C" fn install(env: sys::napi_env, info: sys::napi_callback_info) -> sys::napi_value {
    let result = std::panic::catch_unwind(|| {
        let cx = Cx(env);
        let mut argc = 2;
        let mut argv = [ptr::null_mut(); 2];
        let mut this = ptr::null_mut();
        // SAFETY: Node-API calls this with the running callback's `env` and
        // `info`; `argv` has room for `argc` values.
        let status =
            unsafe { sys::napi_get_cb_info(env, info, &mut argc, argv.as_mut_ptr(), &mut this, ptr::null_mut()) };
        check(status, "get_cb_info")?;
        let [instance_exports, memory] = argv;
        let first = !INSTALLED.with(|done| done.replace(true));
        let mut deleted = false;
        // SAFETY: `this` and the key are values of this call.
        let status = unsafe { sys::napi_delete_property(env, this, out::id(cx, INSTALLER.to_bytes())?, &mut deleted) };
        check(status, "delete_property")?;
        let installed = first && install_both(cx, this, instance_exports, memory).is_some();
        if !installed {
            clear_exception(env);
        }
        out::boolean(cx, installed)
    });
    finish(env, result)
}

fn install_both(
    cx: Cx,
    exports: sys::napi_value,
    instance_exports: sys::napi_value,
    memory: sys::napi_value,
) -> Option<()> {
    if types::type_of(cx, instance_exports).ok()? != JsType::Object
        || types::type_of(cx, memory).ok()? != JsType::Object
    {
        return None;
    }
    let export = |name: &std::ffi::CStr| -> Option<sys::napi_value> {
        let f = args::get(cx, instance_exports, name).ok()?;
        (types::type_of(cx, f).ok()? == JsType::Function).then_some(f)
    };
    let for_rendezvous = export(c"longstraw_node_owner_fast_rendezvous")?;
    let for_snapshot = export(c"longstraw_node_owner_fast_snapshot")?;
    let scratch_at = SCRATCH.with(|s| s.get() as usize as u32);
    let hook = function(cx.0, HOOK_SOURCE)?;
    let hook_for = |fast: sys::napi_value, address_of: Callback| -> Option<[sys::napi_value; 2]> {
        let made = [
            fast,
            memory,
            out::uint(cx, scratch_at).ok()?,
            out::uint(cx, SCRATCH_LEN as u32).ok()?,
            out::uint(cx, MAX_UNITS as u32).ok()?,
        ];
        let mut undefined = ptr::null_mut();
        let mut fast_index = ptr::null_mut();
        // SAFETY: `hook` is the function `HOOK_SOURCE` evaluates to; the arguments
        // are values of this call.
        let status = unsafe {
            sys::napi_get_undefined(cx.0, &mut undefined);
            sys::napi_call_function(cx.0, undefined, hook, made.len(), made.as_ptr(), &mut fast_index)
        };
        (status == sys::Status::napi_ok).then_some(())?;
        Some([native(cx, c"addressOf", address_of).ok()?, fast_index])
    };
    let rendezvous = hook_for(for_rendezvous, address_of::<Rendezvous>)?;
    let snapshot = hook_for(for_snapshot, address_of::<Snapshot>)?;
    // A class whose methods could not be defined keeps those of `FACTORY`
    // without the hook, which give the same answers.
    let source = FACTORY.replace(HOOK, HOOK_LINE);
    let a = define_methods::<Rendezvous>(cx, exports, &source, &rendezvous);
    let b = define_methods::<Snapshot>(cx, exports, &source, &snapshot);
    (a && b).then_some(())
}
