//! `Rendezvous`: the mutable node set, of any placement mode (flat, table,
//! skeleton). Every lookup runs on the snapshot current at the time of the
//! call.
//!
//! Its per-key methods and its properties are installed natively (see
//! `node_api::methods`); the `#[napi]` items here are those napi-rs runs.

use std::sync::Arc;

use longstraw_membership::{Membership, SecretSource};
use longstraw_set::{Mode, Rendezvous as SetRendezvous, Snapshot as SetSnapshot};
use napi::bindgen_prelude::*;
use napi::sys;
use napi_derive::napi;

use crate::batch::{self, Answer, OwnersTask};
use crate::construct;
use crate::error::{OrThrow, Res};
use crate::load_async::LoadTask;
use crate::membership_file;
use crate::node_api::branded::IdCache;
use crate::node_api::external::Reported;
use crate::node_api::methods::{self, Receiver};
use crate::node_api::out::Raw;
use crate::node_api::strings::KeyBuf;
use crate::node_api::{args, new_target, out, Cx};
use crate::snapshot::Snapshot;
use crate::table_build::BuildTask;

/// A set of nodes that places keys by rendezvous hashing, in one of three
/// modes (`mode`): flat (`new Rendezvous`), a partition table
/// (`Rendezvous.table`) or a skeleton tree (`Rendezvous.skeleton`). The
/// same nodes and options give the same answers in every longstraw binding.
#[napi(custom_finalize)]
pub struct Rendezvous {
    inner: SetRendezvous,
    external: Reported,
    /// Where the secret of a set loaded from a keyed file comes from; `save` writes it again.
    secret_source: Option<SecretSource>,
    ids: IdCache,
}

impl ObjectFinalize for Rendezvous {
    fn finalize(self, env: Env) -> Result<()> {
        self.external.release(env.raw());
        Ok(())
    }
}

impl Rendezvous {
    /// Wraps a built set, reporting its memory to the engine.
    pub fn wrap(env: &Env, inner: SetRendezvous, secret_source: Option<SecretSource>) -> Rendezvous {
        let external = Reported::new(env.raw(), &inner.load());
        Rendezvous {
            inner,
            external,
            secret_source,
            ids: IdCache::default(),
        }
    }

    fn build(env: &Env, nodes: Unknown<'_>, options: Unknown<'_>, mode: Mode) -> Result<Self> {
        build(Cx::of(env), nodes.raw(), options.raw(), mode)
            .map(|set| Rendezvous::wrap(env, set, None))
            .or_throw(env)
    }
}

/// Reads `(nodes, options)` for a set of `mode` and builds it.
pub fn build(cx: Cx, nodes: sys::napi_value, options: sys::napi_value, mode: Mode) -> Res<SetRendezvous> {
    let (given, shape) = construct::read_set(cx, nodes, options, mode)?;
    Ok(SetRendezvous::new(given.triples(), given.set.clone(), shape)?)
}

impl Receiver for Rendezvous {
    const CLASS: &'static std::ffi::CStr = c"Rendezvous";
    fn with_snapshot<R>(&self, f: impl FnOnce(&SetSnapshot) -> R) -> R {
        f(&self.inner.load())
    }
    fn with_shared<R>(&self, f: impl FnOnce(&Arc<SetSnapshot>) -> R) -> R {
        f(&self.inner.load())
    }
    fn id_cache(&self) -> &IdCache {
        &self.ids
    }
}

fn node_id(cx: Cx, node: sys::napi_value) -> Res<Vec<u8>> {
    Ok(args::bytes(cx, node, &mut KeyBuf::default(), &|| "node".into())?.to_vec())
}

#[napi]
impl Rendezvous {
    /// `new Rendezvous(nodes, { weights, seed, placement, domains, secret })`:
    /// a flat set, where every node races for every key.
    ///
    /// `nodes`: ids as strings (UTF-8), Buffers or Uint8Arrays. `weights`: one
    /// number per node (default 1; 0 drains a node). `seed`: a safe-integer
    /// number or a bigint below 2^64 (default 0). `placement`: 1. `domains`:
    /// one failure domain label (string, Buffer, Uint8Array) or `null` per
    /// node. `secret`: 16 bytes for keyed placement (excludes `seed`).
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "nodes: Array<string | Buffer | Uint8Array>, options?: SetOptions"
    )]
    pub fn new(env: &Env, this: This<'_>, nodes: Unknown<'_>, options: Unknown<'_>) -> Result<Self> {
        new_target::require_new(Cx::of(env), this.object.raw(), c"Rendezvous").or_throw(env)?;
        Rendezvous::build(env, nodes, options, Mode::Flat)
    }

    /// `Rendezvous.table(nodes, options)`: a partition table. Each key
    /// belongs to one of `2^bits` partitions and each partition's nodes are
    /// ranked by rendezvous hashing, so a lookup is a table read. The options
    /// of `new Rendezvous`, plus `bits` (0 to 24; default `clamp(ceil(log2(n))
    /// + 6, 10, 20)`), `replicas` (1 to 32, default 1: `topK` up to this many
    /// is a table read), `distinctDomains` (store at most one node per
    /// domain) and `balance` (1.0 to 4.0: a balanced table, SPEC.md section
    /// 17). Building ranks every partition over every node, on every core:
    /// see `tableAsync`.
    #[napi(
        catch_unwind,
        factory,
        ts_args_type = "nodes: Array<string | Buffer | Uint8Array>, options?: SetOptions & { bits?: number; replicas?: number; distinctDomains?: boolean; balance?: number }"
    )]
    pub fn table(env: &Env, nodes: Unknown<'_>, options: Unknown<'_>) -> Result<Self> {
        Rendezvous::build(env, nodes, options, Mode::Table)
    }

    /// `Rendezvous.tableAsync(nodes, options)`: the same set as
    /// `Rendezvous.table(nodes, options)`, built on the thread pool so that
    /// the event loop keeps turning. Bad arguments reject the promise with
    /// the error `table` would throw.
    #[napi(
        catch_unwind,
        ts_args_type = "nodes: Array<string | Buffer | Uint8Array>, options?: SetOptions & { bits?: number; replicas?: number; distinctDomains?: boolean; balance?: number }",
        ts_return_type = "Promise<Rendezvous>"
    )]
    pub fn table_async(env: &Env, nodes: Unknown<'_>, options: Unknown<'_>) -> AsyncTask<BuildTask> {
        BuildTask::new(construct::read_set(
            Cx::of(env),
            nodes.raw(),
            options.raw(),
            Mode::Table,
        ))
    }

    /// `Rendezvous.skeleton(nodes, options)`: skeleton (hierarchical)
    /// rendezvous hashing for the largest fleets. Nodes are the leaves of a
    /// virtual tree that depends only on the membership, and a lookup races
    /// the children level by level. The options of `new Rendezvous`, plus the
    /// tree's shape: `2^fanoutBits` children per group (1 to 6) and `levels`
    /// levels of groups (0 to 5; 0 is flat). Give both or neither; the
    /// default is the shallowest tree whose leaf groups average at most 64
    /// nodes.
    #[napi(
        catch_unwind,
        factory,
        ts_args_type = "nodes: Array<string | Buffer | Uint8Array>, options?: SetOptions & { fanoutBits?: number; levels?: number }"
    )]
    pub fn skeleton(env: &Env, nodes: Unknown<'_>, options: Unknown<'_>) -> Result<Self> {
        Rendezvous::build(env, nodes, options, Mode::Skeleton)
    }

    /// `Rendezvous.load(path)`: the set a membership file (docs/MEMBERSHIP.md)
    /// describes, in the mode it names; the same file gives the same
    /// placement in every language. A bad file throws an Error with code
    /// `ERR_LONGSTRAW_BAD_FILE` whose message names the line and the field.
    /// It blocks the event loop until the file (and a keyed file's secret)
    /// has been read and the set built: use `loadAsync` where that may wait
    /// (a FIFO, a network file system, a large file).
    #[napi(catch_unwind, factory, ts_args_type = "path: string")]
    pub fn load(env: &Env, path: Unknown<'_>) -> Result<Self> {
        membership_file::path_arg(Cx::of(env), path.raw())
            .and_then(|path| membership_file::load(&path))
            .map(|from| Rendezvous::wrap(env, from.set, from.secret_source))
            .or_throw(env)
    }

    /// `Rendezvous.loadAsync(path)`: `load` on the libuv thread pool, so the
    /// event loop keeps turning while the file and its secret are read and
    /// the set is built. A bad file rejects with the error `load` would throw.
    #[napi(catch_unwind, ts_args_type = "path: string", ts_return_type = "Promise<Rendezvous>")]
    pub fn load_async(env: &Env, path: Unknown<'_>) -> AsyncTask<LoadTask> {
        AsyncTask::new(LoadTask {
            path: membership_file::path_arg(Cx::of(env), path.raw()),
            failed: None,
        })
    }

    /// `Rendezvous.loads(data)`: the set the content of a membership file
    /// describes (a string, or its bytes as a Buffer or Uint8Array). A
    /// relative `secret.file` in it is read relative to the current
    /// directory; `secret.env` works as in a file. Errors are those of `load`.
    #[napi(catch_unwind, factory, ts_args_type = "data: string | Buffer | Uint8Array")]
    pub fn loads(env: &Env, data: Unknown<'_>) -> Result<Self> {
        membership_file::data_arg(Cx::of(env), data.raw())
            .and_then(|data| membership_file::load_bytes(&data))
            .map(|from| Rendezvous::wrap(env, from.set, from.secret_source))
            .or_throw(env)
    }

    /// Saves the current membership as a membership file that pins the seed,
    /// the placement version, the mode and its shape (written to a temporary
    /// file, then renamed). A keyed set writes where its secret is read from,
    /// never the secret: the source of the file it was loaded from, or the
    /// one named by `options.secretFile` (a path; a relative one is read
    /// relative to the saved file's folder) or `options.secretEnv` (an
    /// environment variable).
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, options?: { secretFile?: string; secretEnv?: string }"
    )]
    pub fn save(&self, env: &Env, path: Unknown<'_>, options: Unknown<'_>) -> Result<()> {
        let membership = Membership::of(&self.inner.snapshot());
        let cx = Cx::of(env);
        membership_file::path_arg(cx, path.raw())
            .and_then(|path| Ok((path, membership_file::save_options(cx, options.raw())?)))
            .and_then(|(path, o)| membership_file::save(membership, self.secret_source.as_ref(), o, &path))
            .or_throw(env)
    }

    /// Adds a node (weight 1 unless given).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array, weight?: number")]
    pub fn add(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        let cx = Cx::of(env);
        (|| -> Res<()> {
            let id = node_id(cx, node.raw())?;
            let w = args::weight_or_one(cx, weight.raw(), &|| "weight".into())?;
            Ok(self.inner.add(&id, w)?)
        })()
        .or_throw(env)
    }

    /// Adds a node with a weight in a failure domain (a rack, a zone: a
    /// string, Buffer or Uint8Array of 1 to 65535 bytes). `topKDistinct`
    /// takes at most one node per domain.
    #[napi(
        catch_unwind,
        ts_args_type = "node: string | Buffer | Uint8Array, weight: number, domain: string | Buffer | Uint8Array"
    )]
    pub fn add_in_domain(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>, domain: Unknown<'_>) -> Result<()> {
        let cx = Cx::of(env);
        (|| -> Res<()> {
            let id = node_id(cx, node.raw())?;
            let w = args::weight(cx, weight.raw(), &|| "weight".into())?;
            let label = args::domain(cx, domain.raw(), &|| "domain".into())?.ok_or_else(|| {
                args::wrong_type(cx, domain.raw(), &|| "domain".into(), "a string, Buffer or Uint8Array")
            })?;
            Ok(self.inner.add_in_domain(&id, w, &label)?)
        })()
        .or_throw(env)
    }

    /// Removes a node (for a table, only its partitions move).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array")]
    pub fn remove(&self, env: &Env, node: Unknown<'_>) -> Result<()> {
        let cx = Cx::of(env);
        (|| -> Res<()> { Ok(self.inner.remove(node_id(cx, node.raw())?)?) })().or_throw(env)
    }

    /// Changes a node's weight (0 drains it: it keeps its index but owns nothing).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array, weight: number")]
    pub fn set_weight(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        let cx = Cx::of(env);
        (|| -> Res<()> {
            let id = node_id(cx, node.raw())?;
            let w = args::weight(cx, weight.raw(), &|| "weight".into())?;
            Ok(self.inner.set_weight(id, w)?)
        })()
        .or_throw(env)
    }

    /// Sets a node's failure domain, or with `null` clears it (the node is
    /// then a domain of its own).
    #[napi(
        catch_unwind,
        ts_args_type = "node: string | Buffer | Uint8Array, domain: string | Buffer | Uint8Array | null"
    )]
    pub fn set_domain(&self, env: &Env, node: Unknown<'_>, domain: Unknown<'_>) -> Result<()> {
        let cx = Cx::of(env);
        (|| -> Res<()> {
            let id = node_id(cx, node.raw())?;
            let label = args::domain(cx, domain.raw(), &|| "domain".into())?;
            Ok(self.inner.set_domain(id, label.as_deref())?)
        })()
        .or_throw(env)
    }

    /// The current membership, frozen. Use it to keep indices and ids together.
    #[napi(catch_unwind)]
    pub fn snapshot(&self, env: &Env) -> Snapshot {
        Snapshot::from_shared(env.raw(), self.inner.snapshot())
    }

    /// Zero-copy batch over the current snapshot. Returns `{ indices, snapshot }`:
    /// `indices[i]` is a position in `snapshot.nodes`, whatever changes later.
    #[napi(
        catch_unwind,
        ts_args_type = "bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array",
        ts_return_type = "{ indices: Uint32Array; snapshot: Snapshot }"
    )]
    pub fn owner_indices(&self, env: &Env, bytes: Unknown<'_>, offsets: Unknown<'_>) -> Result<Raw> {
        let cx = Cx::of(env);
        (|| -> Res<sys::napi_value> {
            let snap = self.inner.snapshot();
            let indices = methods::owner_indices_into(cx, &snap, bytes.raw(), offsets.raw(), out::undefined(cx)?)?;
            let snapshot = out::instance(cx, Snapshot::from_shared(cx.0, snap))?;
            batch::with_snapshot(cx, indices, snapshot)
        })()
        .map(Raw)
        .or_throw(env)
    }

    /// `ownerIndices` on the thread pool; resolves to `{ indices, snapshot }`.
    #[napi(
        catch_unwind,
        ts_args_type = "bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array",
        ts_return_type = "Promise<{ indices: Uint32Array; snapshot: Snapshot }>"
    )]
    pub fn owner_indices_async(&self, env: &Env, bytes: Unknown<'_>, offsets: Unknown<'_>) -> AsyncTask<OwnersTask> {
        AsyncTask::new(OwnersTask::packed(
            Cx::of(env),
            self.inner.snapshot(),
            bytes.raw(),
            offsets.raw(),
            Answer::IndicesWithSnapshot,
        ))
    }

    /// `owners` on the thread pool.
    #[napi(
        catch_unwind,
        ts_args_type = "keys: Array<string | Buffer | Uint8Array>",
        ts_return_type = "Promise<Array<string | Buffer>>"
    )]
    pub fn owners_async(&self, env: &Env, keys: Unknown<'_>) -> AsyncTask<OwnersTask> {
        AsyncTask::new(OwnersTask::keys(Cx::of(env), self.inner.snapshot(), keys.raw()))
    }
}
