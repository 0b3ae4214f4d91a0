//! `Rendezvous.loadAsync(path)`: a membership file read and built on the
//! libuv thread pool.
//!
//! Reading may wait: on a FIFO (a secret source written once by another
//! process), a network file system, or a large file. The synchronous `load`
//! blocks the event loop for that long; `loadAsync` reads and builds on the
//! pool and resolves with the set, so timers and I/O keep running.

use napi::bindgen_prelude::*;

use crate::error::{JsErr, Res};
use crate::membership_file::{load, FromFile};
use crate::rendezvous::Rendezvous;

/// One `loadAsync(path)` call.
pub struct LoadTask {
    /// The path, or the error reading the argument (the promise rejects with it).
    pub path: Res<String>,
    pub failed: Option<JsErr>,
}

impl Task for LoadTask {
    type Output = FromFile;
    type JsValue = Rendezvous;

    fn compute(&mut self) -> napi::Result<FromFile> {
        let result = match &self.path {
            Ok(path) => load(path),
            Err(e) => Err(e.clone()),
        };
        result.map_err(|e| {
            let reason = e.message.clone();
            self.failed = Some(e);
            napi::Error::from_reason(reason)
        })
    }

    fn resolve(&mut self, env: Env, output: FromFile) -> napi::Result<Rendezvous> {
        Ok(Rendezvous::wrap(&env, output.set, output.secret_source))
    }

    fn reject(&mut self, env: Env, err: napi::Error) -> napi::Result<Rendezvous> {
        match self.failed.take() {
            Some(e) => Err(crate::batch::reject_with(&env, e)),
            None => Err(err),
        }
    }
}
