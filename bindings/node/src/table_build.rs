//! `Rendezvous.tableAsync(nodes, options)`: a table-mode set built on the
//! libuv thread pool.
//!
//! Building ranks every partition over every node (seconds at 10^4 nodes),
//! so `Rendezvous.table` blocks the event loop for that long. `tableAsync`
//! reads the arguments on the JavaScript thread (they are JavaScript
//! values), then builds on the pool and resolves with the set.

use longstraw_set::{ModeOptions, Rendezvous as SetRendezvous};
use napi::bindgen_prelude::*;

use crate::construct::Nodes;
use crate::error::{JsErr, Res};
use crate::rendezvous::Rendezvous;

/// The arguments of one call, or the error reading them.
pub struct BuildTask {
    input: Option<(Nodes, ModeOptions)>,
    failed: Option<JsErr>,
}

impl BuildTask {
    pub fn new(input: Res<(Nodes, ModeOptions)>) -> AsyncTask<BuildTask> {
        AsyncTask::new(match input {
            Ok(input) => BuildTask {
                input: Some(input),
                failed: None,
            },
            Err(e) => BuildTask {
                input: None,
                failed: Some(e),
            },
        })
    }
}

impl Task for BuildTask {
    type Output = SetRendezvous;
    type JsValue = Rendezvous;

    fn compute(&mut self) -> napi::Result<SetRendezvous> {
        let Some((given, shape)) = self.input.take() else {
            return Err(napi::Error::from_reason("argument error"));
        };
        SetRendezvous::new(given.triples(), given.set.clone(), shape).map_err(|e| {
            let e = JsErr::from(e);
            let reason = e.message.clone();
            self.failed = Some(e);
            napi::Error::from_reason(reason)
        })
    }

    fn resolve(&mut self, env: Env, output: SetRendezvous) -> napi::Result<Rendezvous> {
        Ok(Rendezvous::wrap(&env, output, None))
    }

    fn reject(&mut self, env: Env, err: napi::Error) -> napi::Result<Rendezvous> {
        match self.failed.take() {
            Some(e) => Err(crate::batch::reject_with(&env, e)),
            None => Err(err),
        }
    }
}
