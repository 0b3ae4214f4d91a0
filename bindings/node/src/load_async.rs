//! `Rendezvous.loadAsync(path)`, `Table.loadAsync` and `Skeleton.loadAsync`:
//! a membership file read and built on the libuv thread pool.
//!
//! Reading may wait: on a FIFO (a secret source written once by another
//! process), a network file system, or a large file. The synchronous `load`
//! blocks the event loop for that long; `loadAsync` reads and builds on the
//! pool and resolves with the set, so timers and I/O keep running.

use std::marker::PhantomData;

use longstraw_membership::Loaded;
use napi::bindgen_prelude::*;

use crate::error::{JsErr, Res};
use crate::membership_file::{load, FromFile, Wanted};

/// A class a membership file loads into.
pub trait FileSet: Sized {
    /// The file mode the class takes.
    const WANTED: Wanted;
    /// Wraps the built set (on the JavaScript thread).
    fn wrap(env: &Env, from: FromFile<Loaded>) -> Self;
}

/// One `loadAsync(path)` call.
pub struct LoadTask<T> {
    /// The path, or the error reading the argument (the promise rejects with it).
    path: Res<String>,
    failed: Option<JsErr>,
    // `fn() -> T`: the task holds no `T`, so it is `Send` whatever `T` is.
    class: PhantomData<fn() -> T>,
}

impl<T: FileSet + ToNapiValue + TypeName> LoadTask<T> {
    pub fn new(path: Res<String>) -> AsyncTask<LoadTask<T>> {
        AsyncTask::new(LoadTask {
            path,
            failed: None,
            class: PhantomData,
        })
    }
}

impl<T: FileSet + ToNapiValue + TypeName> Task for LoadTask<T> {
    type Output = FromFile<Loaded>;
    type JsValue = T;

    fn compute(&mut self) -> napi::Result<FromFile<Loaded>> {
        let result = match &self.path {
            Ok(path) => load(path, T::WANTED),
            Err(e) => Err(e.clone()),
        };
        result.map_err(|e| {
            let reason = e.message.clone();
            self.failed = Some(e);
            napi::Error::from_reason(reason)
        })
    }

    fn resolve(&mut self, env: Env, output: FromFile<Loaded>) -> napi::Result<T> {
        Ok(T::wrap(&env, output))
    }

    fn reject(&mut self, env: Env, err: napi::Error) -> napi::Result<T> {
        match self.failed.take() {
            Some(e) => Err(crate::batch::reject_with(&env, e)),
            None => Err(err),
        }
    }
}
