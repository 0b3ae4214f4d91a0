//! Releasing the GIL safely when the interpreter may be exiting.
//!
//! Why: at exit, CPython 3.11 ends daemon threads by calling
//! `pthread_exit` in any thread that tries to take the GIL back once
//! finalization has begun. `pthread_exit` unwinds the stack with a forced
//! unwind; when that unwind reaches the Rust frames of a call that released
//! the GIL (a batch of 256+ keys, `Table()`, add, remove, set_weight), Rust
//! cannot let it pass, and glibc aborts with "FATAL: exception not rethrown"
//! (exit code 134).
//!
//! The fix: every GIL-released call goes through [`detach`], which counts it
//! as in flight. An `atexit` hook (registered on import; atexit runs before
//! finalization, after non-daemon threads are joined) stops new calls from
//! releasing the GIL and then waits, with the GIL released, until the calls
//! in flight have taken the GIL back. After that no thread is inside Rust
//! without the GIL, so finalization never unwinds through a Rust frame of
//! ours. Calls made after the hook keep the GIL for their whole duration
//! (slower for other threads, but the process is exiting).

use std::sync::{Condvar, Mutex, MutexGuard};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

struct State {
    exiting: bool,
    in_flight: usize,
}

static STATE: Mutex<State> = Mutex::new(State {
    exiting: false,
    in_flight: 0,
});
static IDLE: Condvar = Condvar::new();

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Runs `f` with the GIL released, unless the interpreter is exiting, in
/// which case `f` runs with the GIL held.
pub(crate) fn detach<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> T {
    detach_with(py, |_| f())
}

/// As [`detach`]; `f` is told whether it runs with the GIL held (so that it
/// does not block on a lock whose holder may need the GIL).
pub(crate) fn detach_with<T: Send>(py: Python<'_>, f: impl FnOnce(bool) -> T + Send) -> T {
    {
        let mut s = state();
        if s.exiting {
            drop(s);
            return f(true);
        }
        s.in_flight += 1;
    }
    // Counted out on drop, after `py.detach` has taken the GIL back (or
    // unwound from a panic): only then is this thread safe from finalization.
    struct InFlight;
    impl Drop for InFlight {
        fn drop(&mut self) {
            let mut s = state();
            s.in_flight -= 1;
            if s.in_flight == 0 {
                IDLE.notify_all();
            }
        }
    }
    let _counted = InFlight;
    py.detach(|| f(false))
}

/// Takes `lock` for a call that holds the GIL while the interpreter exits. It
/// cannot wait: the holder may be a GIL-released call that needs the GIL back.
pub(crate) fn try_lock_exiting<'a, T>(lock: &'a Mutex<T>) -> PyResult<MutexGuard<'a, T>> {
    match lock.try_lock() {
        Ok(guard) => Ok(guard),
        Err(std::sync::TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
            "the interpreter is exiting while another thread changes this set; change not applied",
        )),
    }
}

/// The exit guard's state, locked across a `fork()` (see `crate::fork`), so
/// that the child never inherits it locked by a thread it does not have.
pub(crate) struct Held(MutexGuard<'static, State>);

pub(crate) fn lock_for_fork() -> Held {
    Held(state())
}

/// In the child after a fork: the calls in flight were other threads', which
/// the child does not have (its atexit hook must not wait for them).
pub(crate) fn reset_in_child(mut held: Held) {
    held.0.in_flight = 0;
}

/// The atexit hook: no new GIL-released calls, then wait for those in flight.
#[pyfunction]
fn _longstraw_quiesce(py: Python<'_>) {
    state().exiting = true;
    // Wait without the GIL: the calls in flight need it to finish.
    py.detach(|| {
        let mut s = state();
        while s.in_flight > 0 {
            s = IDLE.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    });
}

/// Registers the hook with `atexit` (and exposes it as
/// `_longstraw._longstraw_quiesce`, so that a test can unregister it and show
/// the abort it prevents).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let hook = wrap_pyfunction!(_longstraw_quiesce, m)?;
    m.setattr("_longstraw_quiesce", hook.clone())?; // not in __all__: private
    m.py().import("atexit")?.call_method1("register", (hook,))?;
    Ok(())
}
