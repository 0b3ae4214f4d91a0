//! Reading `(nodes, options)` for `new Rendezvous` (flat),
//! `Rendezvous.table`, `Rendezvous.skeleton` and `BoundedLoad`: the options
//! they share, and the ones each mode adds.

use longstraw::Placement;
use longstraw_set::{Mode, ModeOptions, Options, Secret, SkeletonOptions, SkeletonShape, TableOptions};
use napi::sys;
use napi_derive::napi;

use crate::alloc;
use crate::error::{codes, JsErr, Kind, Res};
use crate::node_api::strings::KeyBuf;
use crate::node_api::types::{self, JsType};
use crate::node_api::{args, Cx};

/// The nodes and shared options of a constructor call.
pub struct Nodes {
    pub ids: Vec<Vec<u8>>,
    pub weights: Vec<f64>,
    /// One label (or none) per node; `None` when `options.domains` was not given.
    pub domains: Option<Vec<Option<Vec<u8>>>>,
    pub set: Options,
}

impl Nodes {
    /// `(id, weight, domain)` of every node.
    pub fn triples(&self) -> impl Iterator<Item = (&[u8], f64, Option<&[u8]>)> + '_ {
        self.ids.iter().enumerate().map(|(i, id)| {
            let domain = self.domains.as_ref().and_then(|d| d[i].as_deref());
            (id.as_slice(), self.weights[i], domain)
        })
    }
}

/// Declares the options every constructor takes, each once: its field of
/// [`SetOptions`] (and so its line of the `SetOptions` interface napi writes
/// into index.d.ts, with its TypeScript type and its doc, given as a string
/// so that napi copies it as written), its JavaScript name in the "unknown
/// option" message, and its reader. The reader gets the
/// value (`undefined` when not given) and the number of nodes; options are
/// read in the order declared here.
macro_rules! set_options {
    ($(
        $field:ident: $ty:ty, js $js:tt, ts $ts:tt, doc $doc:tt, read $read:expr;
    )*) => {
        /// The options every constructor takes (`SetOptions` in the TypeScript
        /// types); each mode and `BoundedLoad` add their own.
        #[napi(object, object_from_js = false, object_to_js = false)]
        #[derive(Default)]
        pub struct SetOptions {
            $(
                #[doc = $doc]
                #[napi(js_name = $js, ts_type = $ts)]
                pub $field: Option<$ty>,
            )*
        }

        impl SetOptions {
            /// The JavaScript names, in the order they are read.
            const NAMES: &'static [&'static str] = &[$($js),*];

            /// Reads every shared option from `options` (a plain object).
            fn read(cx: Cx, options: sys::napi_value, nodes: usize) -> Res<SetOptions> {
                Ok(SetOptions {
                    $($field: {
                        const NAME: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(concat!($js, "\0").as_bytes()) {
                            Ok(name) => name,
                            Err(_) => panic!("an option name has no NUL"),
                        };
                        let read: fn(Cx, sys::napi_value, usize) -> Res<Option<$ty>> = $read;
                        read(cx, args::get(cx, options, NAME)?, nodes)?
                    },)*
                })
            }
        }
    };
}

set_options! {
    weights: Vec<f64>, js "weights", ts "number[]",
        doc "One number per node (default 1; 0 drains a node).",
        read read_weights;
    seed: u64, js "seed", ts "number | bigint",
        doc "A safe-integer number or a bigint below 2^64 (default 0).",
        read |cx, v, _| args::seed(cx, v);
    placement: Placement, js "placement", ts "number",
        doc "The placement version (1).",
        read |cx, v, _| args::placement(cx, v).map(Some);
    domains: Vec<Option<Vec<u8>>>, js "domains", ts "Array<string | Buffer | Uint8Array | null>",
        doc "One failure domain label (string, Buffer, Uint8Array) or `null` per node.",
        read read_domains;
    secret: Secret, js "secret", ts "Buffer | Uint8Array",
        doc "16 secret bytes: keyed placement (keyed-v1, docs/SPEC.md section 15); excludes `seed`.",
        read |cx, v, _| crate::keyed::read_secret(cx, v);
}

impl SetOptions {
    /// The options of the set itself (those that are not one value per node).
    fn into_set(self) -> Options {
        Options {
            seed: self.seed,
            secret: self.secret,
            placement: self.placement.unwrap_or_default(),
            ..Options::default()
        }
    }
}

/// Reads `nodes` and `options` (undefined or a plain object). `extra` names
/// the options only this constructor takes; `read_extra` reads them from the
/// options object (it is not called when options is undefined).
pub fn read(
    cx: Cx,
    nodes: sys::napi_value,
    options: sys::napi_value,
    extra: &[&str],
    read_extra: impl FnOnce(sys::napi_value) -> Res<()>,
) -> Res<Nodes> {
    let items = args::array(cx, nodes, &|| "nodes".into())?;
    let mut ids = Vec::new();
    let mut buf = KeyBuf::default();
    for at in 0..items.len() {
        let id = args::bytes(cx, items.get(at)?, &mut buf, &|| format!("nodes[{at}]"))?;
        let mut owned = Vec::new();
        alloc::extend(&mut owned, id, "a node id")?;
        alloc::push(&mut ids, owned, "node ids")?;
    }
    let known: Vec<&str> = SetOptions::NAMES.iter().chain(extra).copied().collect();
    let mut given = SetOptions::default();
    if let Some(options) = args::options(cx, options, &known)? {
        given = SetOptions::read(cx, options, ids.len())?;
        read_extra(options)?;
    }
    let weights = match given.weights.take() {
        Some(w) => w,
        None => alloc::filled(ids.len(), 1.0, "weights")?,
    };
    let domains = given.domains.take();
    Ok(Nodes {
        ids,
        weights,
        domains,
        set: given.into_set(),
    })
}

fn check_len(what: &str, given: usize, nodes: usize) -> Res<()> {
    if given == nodes {
        return Ok(());
    }
    Err(JsErr::new(
        Kind::Range,
        codes::LENGTH_MISMATCH,
        format!("options.{what} has {given} entries but nodes has {nodes}"),
    ))
}

fn read_weights(cx: Cx, w: sys::napi_value, nodes: usize) -> Res<Option<Vec<f64>>> {
    if types::type_of(cx, w)? == JsType::Undefined {
        return Ok(None);
    }
    let given = args::array(cx, w, &|| "options.weights".into())?;
    check_len("weights", given.len(), nodes)?;
    let mut weights = alloc::filled(nodes, 1.0, "weights")?;
    for (at, slot) in weights.iter_mut().enumerate() {
        let what = || format!("options.weights[{at}]");
        *slot = args::weight(cx, given.get(at)?, &what)?;
        longstraw::validate_weight(*slot).map_err(|e| JsErr::from(e).context(what()))?;
    }
    Ok(Some(weights))
}

fn read_domains(cx: Cx, d: sys::napi_value, nodes: usize) -> Res<Option<Vec<Option<Vec<u8>>>>> {
    if types::type_of(cx, d)? == JsType::Undefined {
        return Ok(None);
    }
    let given = args::array(cx, d, &|| "options.domains".into())?;
    check_len("domains", given.len(), nodes)?;
    let mut labels = Vec::new();
    for at in 0..given.len() {
        let label = args::domain(cx, given.get(at)?, &|| format!("options.domains[{at}]"))?;
        alloc::push(&mut labels, label, "domain labels")?;
    }
    Ok(Some(labels))
}

/// The options only a table-mode set takes.
const TABLE_OPTIONS: [&str; 4] = ["balance", "bits", "replicas", "distinctDomains"];
/// The options only a skeleton-mode set takes.
const SKELETON_OPTIONS: [&str; 2] = ["fanoutBits", "levels"];

/// Reads `(nodes, options)` for a set of `mode`: the nodes, the shared
/// options and the mode's own.
pub fn read_set(cx: Cx, nodes: sys::napi_value, options: sys::napi_value, mode: Mode) -> Res<(Nodes, ModeOptions)> {
    let mut shape = match mode {
        Mode::Flat => ModeOptions::Flat,
        Mode::Table => ModeOptions::Table(TableOptions::default()),
        Mode::Skeleton => ModeOptions::Skeleton(SkeletonOptions::default()),
    };
    let extra: &[&str] = match mode {
        Mode::Flat => &[],
        Mode::Table => &TABLE_OPTIONS,
        Mode::Skeleton => &SKELETON_OPTIONS,
    };
    let given = read(cx, nodes, options, extra, |o| match &mut shape {
        ModeOptions::Flat => Ok(()),
        ModeOptions::Table(t) => read_table(cx, o, t),
        ModeOptions::Skeleton(k) => read_skeleton(cx, o, k),
    })?;
    Ok((given, shape))
}

fn read_table(cx: Cx, o: sys::napi_value, t: &mut TableOptions) -> Res<()> {
    t.partition_bits = args::param(cx, args::get(cx, o, c"bits")?, "bits", u8::MAX.into())?.map(|b| b as u8);
    if let Some(r) = args::param(cx, args::get(cx, o, c"replicas")?, "replicas", u32::MAX)? {
        t.replicas = r as usize;
    }
    t.distinct_domains = args::flag(cx, args::get(cx, o, c"distinctDomains")?, "distinctDomains")?;
    t.balance = crate::balance::balance_option(cx, args::get(cx, o, c"balance")?)?;
    Ok(())
}

fn read_skeleton(cx: Cx, o: sys::napi_value, k: &mut SkeletonOptions) -> Res<()> {
    let fanout_bits = args::param(cx, args::get(cx, o, c"fanoutBits")?, "fanoutBits", u8::MAX.into())?;
    let levels = args::param(cx, args::get(cx, o, c"levels")?, "levels", u8::MAX.into())?;
    k.shape = match (fanout_bits, levels) {
        (None, None) => None,
        (Some(f), Some(l)) => Some(SkeletonShape::new(f as u8, l as u8).map_err(JsErr::from)?),
        _ => {
            return Err(JsErr::new(
                Kind::Range,
                codes::INVALID_PARAMETER,
                "options.fanoutBits and options.levels go together: give both or neither",
            ))
        }
    };
    Ok(())
}
