//! `Table`: a partition table (O(1) lookups, exact HRW per partition).

use longstraw_membership::{Loaded, SecretSource};
use longstraw_set::{Table as SetTable, TableOptions};
use napi::bindgen_prelude::*;
use napi::sys;
use napi_derive::napi;

use crate::batch::OwnersTask;
use crate::construct;
use crate::error::{OrThrow, Res};
use crate::external::Reported;
use crate::load_async::{FileSet, LoadTask};
use crate::lookup;
use crate::members;
use crate::membership_file::{FromFile, Wanted};
use crate::modes::Current;
use crate::node_api::out::Raw;
use crate::node_api::{args, Cx};
use crate::snapshot::Snapshot;

/// A partition table: each key belongs to one of `2^partitionBits`
/// partitions (by its key hash) and each partition's nodes are ranked by
/// rendezvous hashing, so a lookup is a table read. Removing a node moves
/// exactly its partitions; adding one moves only the partitions it wins.
#[napi(custom_finalize)]
pub struct Table {
    inner: SetTable,
    external: Reported,
    /// Where the secret of a set loaded from a keyed file comes from; `save` writes it again.
    secret_source: Option<SecretSource>,
}

impl ObjectFinalize for Table {
    fn finalize(self, env: Env) -> Result<()> {
        self.external.release(env.raw());
        Ok(())
    }
}

impl Table {
    /// Wraps a built set, reporting its memory to the engine.
    pub(crate) fn from_set(env: &Env, inner: SetTable) -> Table {
        let external = inner.with_view(|view| Reported::new(env.raw(), view));
        Table {
            inner,
            external,
            secret_source: None,
        }
    }

    /// The set whose current snapshot the per-key lookups run on.
    pub fn current(&self) -> &SetTable {
        &self.inner
    }
}

impl FileSet for Table {
    const WANTED: Wanted = Wanted::Table;

    fn wrap(env: &Env, from: FromFile<Loaded>) -> Table {
        let Loaded::Table(inner) = from.set else {
            unreachable!("the mode was checked")
        };
        let external = inner.with_view(|view| Reported::new(env.raw(), view));
        Table {
            inner,
            external,
            secret_source: from.secret_source,
        }
    }
}

fn construct(cx: Cx, nodes: sys::napi_value, options: sys::napi_value) -> Res<SetTable> {
    let (given, shape) = read_input(cx, nodes, options)?;
    Ok(SetTable::with_domains(given.triples(), shape)?)
}

/// Reads `(nodes, options)` into owned values (on the JavaScript thread), so
/// that the build itself may run anywhere (see `Table.create`).
pub(crate) fn read_input(
    cx: Cx,
    nodes: sys::napi_value,
    options: sys::napi_value,
) -> Res<(construct::Nodes, TableOptions)> {
    let mut shape = TableOptions::default();
    let extra = ["balance", "bits", "replicas", "distinctDomains"];
    let given = construct::read(cx, nodes, options, &extra, |o| {
        shape.partition_bits = args::param(cx, args::get(cx, o, c"bits")?, "bits", u8::MAX.into())?.map(|b| b as u8);
        if let Some(r) = args::param(cx, args::get(cx, o, c"replicas")?, "replicas", u32::MAX)? {
            shape.replicas = r as usize;
        }
        shape.distinct_domains = args::flag(cx, args::get(cx, o, c"distinctDomains")?, "distinctDomains")?;
        shape.balance = crate::balance::balance_option(cx, args::get(cx, o, c"balance")?)?;
        Ok(())
    })?;
    shape.set = given.set;
    Ok((given, shape))
}

impl crate::node_api::methods::Receiver for Table {
    const CLASS: &'static std::ffi::CStr = c"Table";
    fn with_view<R>(&self, f: impl FnOnce(crate::modes::View<'_>) -> R) -> R {
        self.inner.with_view(f)
    }
}

#[napi]
impl Table {
    /// `Table.load(path)`: the set a membership file (docs/MEMBERSHIP.md) of
    /// this class's mode describes; the same file gives the same placement in
    /// every language. A bad file throws an Error with code
    /// `ERR_LONGSTRAW_BAD_FILE` whose message names the line and the field.
    /// It blocks the event loop until the file (and a keyed file's secret)
    /// has been read and the set built: use `loadAsync` where that may wait
    /// (a FIFO, a network file system, a large file).
    #[napi(catch_unwind, factory, ts_args_type = "path: string")]
    pub fn load(env: &Env, path: Unknown<'_>) -> Result<Self> {
        crate::membership_file::path_arg(Cx::of(env), path.raw())
            .and_then(|path| crate::membership_file::load(&path, Wanted::Table))
            .map(|from| Table::wrap(env, from))
            .or_throw(env)
    }

    /// `Table.loadAsync(path)`: `load` on the libuv thread pool, so the
    /// event loop keeps turning while the file and its secret are read and
    /// the set is built. A bad file rejects with the error `load` would throw.
    #[napi(catch_unwind, ts_args_type = "path: string", ts_return_type = "Promise<Table>")]
    pub fn load_async(env: &Env, path: Unknown<'_>) -> AsyncTask<LoadTask<Table>> {
        LoadTask::new(crate::membership_file::path_arg(Cx::of(env), path.raw()))
    }

    /// Saves the current membership as a membership file that pins the seed,
    /// the placement version and the shape (written to a temporary file, then
    /// renamed). A keyed set writes where its secret is read from, never the
    /// secret: the source of the file it was loaded from, or the one named by
    /// `options.secretFile` (a path; a relative one is read relative to the
    /// saved file's folder) or `options.secretEnv` (an environment variable).
    #[napi(
        catch_unwind,
        ts_args_type = "path: string, options?: { secretFile?: string; secretEnv?: string }"
    )]
    pub fn save(&self, env: &Env, path: Unknown<'_>, options: Unknown<'_>) -> Result<()> {
        let membership = longstraw_membership::Membership::of_table(&self.inner.snapshot());
        let cx = Cx::of(env);
        crate::membership_file::path_arg(cx, path.raw())
            .and_then(|path| Ok((path, crate::membership_file::save_options(cx, options.raw())?)))
            .and_then(|(path, o)| crate::membership_file::save(membership, self.secret_source.as_ref(), o, &path))
            .or_throw(env)
    }

    /// `new Table(nodes, { weights, seed, placement, domains, bits, replicas, distinctDomains })`.
    /// `new Table(nodes, { weights, seed, placement, domains, bits, replicas, distinctDomains, balance })`.
    ///
    /// The options of `Rendezvous`, plus: `bits`, the table has `2^bits`
    /// partitions (0 to 24; default `clamp(ceil(log2(n)) + 6, 10, 20)` for
    /// the n nodes given: pass it for a fleet that starts small and grows);
    /// `replicas`, nodes stored per partition (1 to 32, default 1: `topK` up
    /// to this many is a table read); `distinctDomains`, store at most one
    /// node per failure domain (then `topKDistinct` is the table read);
    /// `balance` (1.0 to 4.0), a balanced table (SPEC.md section 17): no node
    /// holds more than `ceil(balance * P * w / W)` partitions per replica
    /// rank, lists stop at `replicas` and every change places every partition
    /// again (from an incrementally patched plain ranking).
    /// Building ranks every partition over every node, on every core; a
    /// table is meant for up to about 10^4 nodes.
    #[napi(
        catch_unwind,
        constructor,
        ts_args_type = "nodes: Array<string | Buffer | Uint8Array>, options?: { weights?: number[]; seed?: number | bigint; placement?: number; domains?: Array<string | Buffer | Uint8Array | null>; bits?: number; replicas?: number; distinctDomains?: boolean; balance?: number; secret?: Buffer | Uint8Array }"
    )]
    pub fn new(env: &Env, nodes: Unknown<'_>, options: Unknown<'_>) -> Result<Self> {
        construct(Cx::of(env), nodes.raw(), options.raw())
            .map(|inner| {
                let external = inner.with_view(|view| Reported::new(env.raw(), view));
                Table {
                    inner,
                    external,
                    secret_source: None,
                }
            })
            .or_throw(env)
    }

    /// Partition bits: the table has `2^partitionBits` partitions.
    #[napi(catch_unwind, getter)]
    pub fn partition_bits(&self) -> u32 {
        self.inner.load().partition_bits().into()
    }

    /// Nodes stored per partition.
    #[napi(catch_unwind, getter)]
    pub fn replicas(&self) -> u32 {
        self.inner.load().replicas() as u32
    }

    /// Whether the stored nodes are at most one per failure domain.
    #[napi(catch_unwind, getter)]
    pub fn distinct_domains(&self) -> bool {
        self.inner.load().distinct_domains()
    }

    /// The balance of a balanced table (SPEC.md section 17), `null` for a plain one.
    #[napi(catch_unwind, getter)]
    pub fn balance(&self) -> Option<f64> {
        self.inner.load().balance().map(|b| b.as_f64())
    }

    /// Adds a node (weight 1 unless given).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array, weight?: number")]
    pub fn add(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        members::add(Cx::of(env), &self.inner, node.raw(), weight.raw()).or_throw(env)
    }

    /// Adds a node in a failure domain (a rack, a zone: a string, Buffer or
    /// Uint8Array of 1 to 65535 bytes), weight 1 unless given. `topKDistinct`
    /// takes at most one node per domain.
    #[napi(
        catch_unwind,
        ts_args_type = "node: string | Buffer | Uint8Array, domain: string | Buffer | Uint8Array, weight?: number"
    )]
    pub fn add_in_domain(&self, env: &Env, node: Unknown<'_>, domain: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        members::add_in_domain(Cx::of(env), &self.inner, node.raw(), domain.raw(), weight.raw()).or_throw(env)
    }

    /// Removes a node. Only its partitions move.
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array")]
    pub fn remove(&self, env: &Env, node: Unknown<'_>) -> Result<()> {
        members::remove(Cx::of(env), &self.inner, node.raw()).or_throw(env)
    }

    /// Changes a node's weight (0 drains it: it keeps its index but owns nothing).
    #[napi(catch_unwind, ts_args_type = "node: string | Buffer | Uint8Array, weight: number")]
    pub fn set_weight(&self, env: &Env, node: Unknown<'_>, weight: Unknown<'_>) -> Result<()> {
        members::set_weight(Cx::of(env), &self.inner, node.raw(), weight.raw()).or_throw(env)
    }

    /// Sets a node's failure domain, or with `null` clears it (the node is
    /// then a domain of its own).
    #[napi(
        catch_unwind,
        ts_args_type = "node: string | Buffer | Uint8Array, domain: string | Buffer | Uint8Array | null"
    )]
    pub fn set_domain(&self, env: &Env, node: Unknown<'_>, domain: Unknown<'_>) -> Result<()> {
        members::set_domain(Cx::of(env), &self.inner, node.raw(), domain.raw()).or_throw(env)
    }

    /// The current membership, frozen. Use it to keep indices and ids together.
    #[napi(catch_unwind)]
    pub fn snapshot(&self, env: &Env) -> Snapshot {
        members::snapshot(env.raw(), &self.inner)
    }

    /// How many nodes, including drained ones.
    #[napi(catch_unwind, getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// Node ids in index order.
    #[napi(catch_unwind, getter, ts_return_type = "Array<string | Buffer>")]
    pub fn nodes(&self, env: &Env) -> Result<Raw> {
        self.inner
            .with_view(|v| lookup::nodes(Cx::of(env), v))
            .map(Raw)
            .or_throw(env)
    }

    /// Weights in index order.
    #[napi(catch_unwind, getter)]
    pub fn weights(&self) -> Vec<f64> {
        self.inner.with_view(|v| v.members().weights().to_vec())
    }

    /// Each node's failure domain label in index order (`null` for none).
    #[napi(catch_unwind, getter, ts_return_type = "Array<string | Buffer | null>")]
    pub fn domains(&self, env: &Env) -> Result<Raw> {
        self.inner
            .with_view(|v| lookup::domains(Cx::of(env), v))
            .map(Raw)
            .or_throw(env)
    }

    /// The seed, as a bigint; `null` for a keyed set (built with a secret, it has no seed).
    #[napi(catch_unwind, getter)]
    pub fn seed(&self) -> Option<BigInt> {
        self.inner.with_view(|v| v.members().seed().map(BigInt::from))
    }

    /// Whether keys are placed by keyed-v1 (the set was built with `secret`).
    #[napi(catch_unwind, getter)]
    pub fn is_keyed(&self) -> bool {
        self.inner.with_view(|v| v.members().is_keyed())
    }

    /// The placement version.
    #[napi(catch_unwind, getter)]
    pub fn placement(&self) -> u32 {
        self.inner.with_view(|v| v.members().placement().number())
    }

    /// The kernel lookups run on.
    #[napi(catch_unwind, getter)]
    pub fn backend(&self) -> &'static str {
        self.inner.with_view(|v| v.members().backend().name())
    }

    /// The owner of each key.
    #[napi(
        catch_unwind,
        ts_args_type = "keys: Array<string | Buffer | Uint8Array>",
        ts_return_type = "Array<string | Buffer>"
    )]
    pub fn owners(&self, env: &Env, keys: Unknown<'_>) -> Result<Raw> {
        self.inner
            .with_view(|v| crate::str_batch::owners(Cx::of(env), v, keys.raw()))
            .map(Raw)
            .or_throw(env)
    }

    /// Zero-copy batch over the current snapshot. Returns `{ indices, snapshot }`:
    /// `indices[i]` is a position in `snapshot.nodes`, whatever changes later.
    #[napi(
        catch_unwind,
        ts_args_type = "bytes: Buffer | Uint8Array, offsets: Uint32Array | BigUint64Array",
        ts_return_type = "{ indices: Uint32Array; snapshot: Snapshot }"
    )]
    pub fn owner_indices(&self, env: &Env, bytes: Unknown<'_>, offsets: Unknown<'_>) -> Result<Raw> {
        members::owner_indices(Cx::of(env), &self.inner, bytes.raw(), offsets.raw())
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
        members::owner_indices_async(Cx::of(env), &self.inner, bytes.raw(), offsets.raw())
    }

    /// `owners` on the thread pool.
    #[napi(
        catch_unwind,
        ts_args_type = "keys: Array<string | Buffer | Uint8Array>",
        ts_return_type = "Promise<Array<string | Buffer>>"
    )]
    pub fn owners_async(&self, env: &Env, keys: Unknown<'_>) -> AsyncTask<OwnersTask> {
        members::owners_async(Cx::of(env), &self.inner, keys.raw())
    }
}
