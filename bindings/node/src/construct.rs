//! Reading `(nodes, options)` for the `Rendezvous`, `Table` and `Skeleton`
//! constructors: the options they share, and the ones each adds.

use longstraw_set::{Error as SetError, Options};
use napi::sys;

use crate::alloc;
use crate::error::{codes, JsErr, Kind, Res};
use crate::js::{Js, JsType, KeyBuf};

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

const SHARED_OPTIONS: [&str; 5] = ["weights", "seed", "placement", "domains", "secret"];

/// Reads `nodes` and `options` (undefined or a plain object). `extra` names
/// the options only this constructor takes; `read_extra` reads them from the
/// options object (it is not called when options is undefined).
pub fn read(
    js: Js,
    nodes: sys::napi_value,
    options: sys::napi_value,
    extra: &[&str],
    read_extra: impl FnOnce(sys::napi_value) -> Res<()>,
) -> Res<Nodes> {
    let items = js.array(nodes, &|| "nodes".into())?;
    let mut ids = Vec::new();
    let mut buf = KeyBuf::default();
    for at in 0..items.len() {
        let id = js.bytes(items.get(at)?, &mut buf, &|| format!("nodes[{at}]"))?;
        let mut owned = Vec::new();
        alloc::extend(&mut owned, id, "a node id")?;
        alloc::push(&mut ids, owned, "node ids")?;
    }
    let mut out = Nodes {
        weights: alloc::filled(ids.len(), 1.0, "weights")?,
        ids,
        domains: None,
        set: Options::default(),
    };
    match js.type_of(options)? {
        JsType::Undefined => {}
        JsType::Object if !js.is_array(options)? => {
            for name in js.property_names(options)? {
                if !SHARED_OPTIONS.contains(&name.as_str()) && !extra.contains(&name.as_str()) {
                    let known: Vec<&str> = SHARED_OPTIONS.iter().chain(extra).copied().collect();
                    return Err(JsErr::new(
                        Kind::Type,
                        codes::INVALID_OPTION,
                        format!("unknown option {name:?} (known: {})", known.join(", ")),
                    ));
                }
            }
            let seed = js.get(options, c"seed")?;
            out.set.seed = js.seed(seed)?;
            let seed_given = js.type_of(seed)? != JsType::Undefined;
            crate::keyed::read_secret(js, js.get(options, c"secret")?, seed_given, &mut out.set)?;
            out.set.placement = js.placement(js.get(options, c"placement")?)?;
            read_weights(js, js.get(options, c"weights")?, &mut out)?;
            read_domains(js, js.get(options, c"domains")?, &mut out)?;
            read_extra(options)?;
        }
        _ => return Err(js.wrong_type(options, &|| "options".into(), "an object")),
    }
    Ok(out)
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

fn read_weights(js: Js, w: sys::napi_value, out: &mut Nodes) -> Res<()> {
    if js.type_of(w)? == JsType::Undefined {
        return Ok(());
    }
    let given = js.array(w, &|| "options.weights".into())?;
    check_len("weights", given.len(), out.ids.len())?;
    for (at, slot) in out.weights.iter_mut().enumerate() {
        let what = || format!("options.weights[{at}]");
        *slot = js.weight(given.get(at)?, &what)?;
        longstraw::validate_weight(*slot).map_err(|e| JsErr::from(e).context(what()))?;
    }
    Ok(())
}

fn read_domains(js: Js, d: sys::napi_value, out: &mut Nodes) -> Res<()> {
    if js.type_of(d)? == JsType::Undefined {
        return Ok(());
    }
    let given = js.array(d, &|| "options.domains".into())?;
    check_len("domains", given.len(), out.ids.len())?;
    let mut labels = Vec::new();
    for at in 0..given.len() {
        let label = js.domain(given.get(at)?, &|| format!("options.domains[{at}]"))?;
        alloc::push(&mut labels, label, "domain labels")?;
    }
    out.domains = Some(labels);
    Ok(())
}

impl Js {
    /// A failure domain label: a string, Buffer or Uint8Array of 1 to 65535
    /// bytes, or `null`/`undefined` for none.
    pub fn domain(self, v: sys::napi_value, what: &dyn Fn() -> String) -> Res<Option<Vec<u8>>> {
        if matches!(self.type_of(v)?, JsType::Undefined | JsType::Null) {
            return Ok(None);
        }
        let mut buf = KeyBuf::default();
        let label = self.bytes(v, &mut buf, what)?;
        if label.is_empty() || label.len() > longstraw::MAX_NODE_ID_LEN {
            return Err(JsErr::from(SetError::InvalidDomain { len: label.len() }).context(what()));
        }
        Ok(Some(label.to_vec()))
    }

    /// A small non-negative integer option (partition bits, replicas,
    /// fan-out bits, levels), or `None` when undefined. `max` is the largest
    /// value the type holds; the core checks the real range.
    pub fn param(self, v: sys::napi_value, what: &str, max: u32) -> Res<Option<u32>> {
        match self.type_of(v)? {
            JsType::Undefined => Ok(None),
            JsType::Number => {
                let mut x = f64::NAN;
                // SAFETY: `v` is a number.
                unsafe { sys::napi_get_value_double(self.env, v, &mut x) };
                if x.fract() == 0.0 && (0.0..=f64::from(max)).contains(&x) {
                    Ok(Some(x as u32))
                } else {
                    Err(JsErr::new(
                        Kind::Range,
                        codes::INVALID_PARAMETER,
                        format!(
                            "options.{what} must be an integer from 0 to {max}; got {}",
                            crate::js::show_number(x)
                        ),
                    ))
                }
            }
            _ => Err(self.wrong_type(v, &|| format!("options.{what}"), "a non-negative integer")),
        }
    }

    /// A boolean option, `false` when undefined.
    pub fn flag(self, v: sys::napi_value, what: &str) -> Res<bool> {
        match self.type_of(v)? {
            JsType::Undefined => Ok(false),
            JsType::Boolean => {
                let mut b = false;
                // SAFETY: `v` is a boolean.
                unsafe { sys::napi_get_value_bool(self.env, v, &mut b) };
                Ok(b)
            }
            _ => Err(self.wrong_type(v, &|| format!("options.{what}"), "a boolean")),
        }
    }
}
