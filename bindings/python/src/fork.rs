//! `os.fork()` while other threads change sets.
//!
//! `fork()` copies only the thread that calls it. A lock held at that moment
//! by another thread stays held in the child forever, and simply resetting it
//! there is unsafe, because it may guard a half-applied change. So every
//! membership change runs inside one process-wide gate, and
//! `os.register_at_fork` hooks (registered on import) close it around a fork:
//!
//! - `before`: stop new changes from starting, wait (with the GIL released)
//!   until the changes in flight are done, then hold the gate and the exit
//!   guard's state lock across the fork;
//! - `after_in_parent`: reopen the gate;
//! - `after_in_child`: the child has only the forking thread, so nothing is
//!   in flight there: reset the counts and reopen the gate.
//!
//! At the fork no thread is inside a change, so every set's writer lock is
//! free in the child and its membership is whole.

use std::cell::RefCell;
use std::sync::{Condvar, Mutex, MutexGuard};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

struct Gate {
    /// Changes between `enter` and `leave`.
    changing: usize,
    /// A fork is waiting for (or holding) the gate: no change may start.
    forking: bool,
}

static GATE: Mutex<Gate> = Mutex::new(Gate {
    changing: 0,
    forking: false,
});
static MOVED: Condvar = Condvar::new();

fn gate() -> MutexGuard<'static, Gate> {
    GATE.lock().unwrap_or_else(|p| p.into_inner())
}

thread_local! {
    /// The locks `before` holds across the fork, released by the `after` hook
    /// on the same thread (in the parent, and in the child's copy of it).
    static HELD: RefCell<Option<(MutexGuard<'static, Gate>, crate::exit_guard::Held)>> =
        const { RefCell::new(None) };
}

/// Marks one change in flight until dropped.
pub(crate) struct Changing(());

impl Drop for Changing {
    fn drop(&mut self) {
        let mut g = gate();
        g.changing -= 1;
        if g.changing == 0 {
            MOVED.notify_all();
        }
    }
}

/// Enters the gate for one change, waiting while a fork holds it. Call it
/// without the GIL: the forking thread may need the GIL to finish.
pub(crate) fn enter() -> Changing {
    let mut g = gate();
    while g.forking {
        g = MOVED.wait(g).unwrap_or_else(|p| p.into_inner());
    }
    g.changing += 1;
    Changing(())
}

/// As [`enter`], for a change that holds the GIL (the interpreter is
/// exiting): it cannot wait, since a fork in progress needs the GIL.
pub(crate) fn try_enter() -> PyResult<Changing> {
    let busy = || PyRuntimeError::new_err("a fork is in progress while the interpreter exits; change not applied");
    let mut g = match GATE.try_lock() {
        Ok(g) => g,
        Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return Err(busy()),
    };
    if g.forking {
        return Err(busy());
    }
    g.changing += 1;
    Ok(Changing(()))
}

#[pyfunction]
fn _longstraw_before_fork(py: Python<'_>) {
    // Wait for the changes in flight without the GIL: they take it to publish.
    py.detach(|| {
        let mut g = gate();
        g.forking = true;
        while g.changing > 0 {
            g = MOVED.wait(g).unwrap_or_else(|p| p.into_inner());
        }
    });
    // `forking` keeps new changes out, so `changing` stays 0. Other threads
    // hold the gate's lock only briefly and without needing the GIL, and the
    // exit guard's lock is taken with the GIL held (or briefly by the atexit
    // hook), so both are taken here with the GIL held.
    let held = gate();
    let exit = crate::exit_guard::lock_for_fork();
    HELD.with(|h| *h.borrow_mut() = Some((held, exit)));
}

#[pyfunction]
fn _longstraw_after_fork_in_parent() {
    if let Some((mut g, exit)) = HELD.with(|h| h.borrow_mut().take()) {
        drop(exit);
        g.forking = false;
        drop(g);
        MOVED.notify_all();
    }
}

#[pyfunction]
fn _longstraw_after_fork_in_child() {
    if let Some((mut g, exit)) = HELD.with(|h| h.borrow_mut().take()) {
        // Only this thread exists in the child: nothing is in flight.
        crate::exit_guard::reset_in_child(exit);
        g.forking = false;
        g.changing = 0;
    }
}

/// Registers the hooks with `os.register_at_fork`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let kwargs = pyo3::types::PyDict::new(m.py());
    kwargs.set_item("before", wrap_pyfunction!(_longstraw_before_fork, m)?)?;
    kwargs.set_item("after_in_parent", wrap_pyfunction!(_longstraw_after_fork_in_parent, m)?)?;
    kwargs.set_item("after_in_child", wrap_pyfunction!(_longstraw_after_fork_in_child, m)?)?;
    m.py()
        .import("os")?
        .call_method("register_at_fork", (), Some(&kwargs))?;
    Ok(())
}
