//! `Table.create(nodes, options)`: a table built on the libuv thread pool.
//!
//! Building ranks every partition over every node (seconds at 10^4 nodes), so
//! the constructor blocks the event loop for that long. `create` reads the
//! arguments on the JavaScript thread (they are JavaScript values), then
//! builds on the pool and resolves with the `Table`.

use longstraw_set::{Table as SetTable, TableOptions};
use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::construct::Nodes;
use crate::error::JsErr;
use crate::node_api::Cx;
use crate::table::{read_input, Table};

/// The arguments of one `Table.create` call, or the error reading them.
pub struct BuildTableTask {
    input: Option<(Nodes, TableOptions)>,
    failed: Option<JsErr>,
}

impl Task for BuildTableTask {
    type Output = SetTable;
    type JsValue = Table;

    fn compute(&mut self) -> napi::Result<SetTable> {
        let Some((given, shape)) = self.input.take() else {
            return Err(napi::Error::from_reason("argument error"));
        };
        SetTable::with_domains(given.triples(), shape).map_err(|e| {
            let e = JsErr::from(e);
            let reason = e.message.clone();
            self.failed = Some(e);
            napi::Error::from_reason(reason)
        })
    }

    fn resolve(&mut self, env: Env, output: SetTable) -> napi::Result<Table> {
        Ok(Table::from_set(&env, output))
    }

    fn reject(&mut self, env: Env, err: napi::Error) -> napi::Result<Table> {
        match self.failed.take() {
            Some(e) => Err(crate::batch::reject_with(&env, e)),
            None => Err(err),
        }
    }
}

#[napi]
impl Table {
    /// `Table.create(nodes, options)`: the same table as `new Table(nodes,
    /// options)`, built on the thread pool so that the event loop keeps
    /// turning. Bad arguments reject the promise with the error the
    /// constructor would throw.
    #[napi(
        catch_unwind,
        ts_args_type = "nodes: Array<string | Buffer | Uint8Array>, options?: { weights?: number[]; seed?: number | bigint; placement?: number; domains?: Array<string | Buffer | Uint8Array | null>; bits?: number; replicas?: number; distinctDomains?: boolean; balance?: number; secret?: Buffer | Uint8Array }",
        ts_return_type = "Promise<Table>"
    )]
    pub fn create(env: &Env, nodes: Unknown<'_>, options: Unknown<'_>) -> AsyncTask<BuildTableTask> {
        let cx = Cx::of(env);
        let task = match read_input(cx, nodes.raw(), options.raw()) {
            Ok(input) => BuildTableTask {
                input: Some(input),
                failed: None,
            },
            Err(e) => BuildTableTask {
                input: None,
                failed: Some(e),
            },
        };
        AsyncTask::new(task)
    }
}
