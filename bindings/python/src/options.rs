//! The set-wide keyword arguments (`seed`, `secret`, `placement`), declared
//! once for every constructor: `Rendezvous(...)`, `Rendezvous.table(...)`,
//! `Rendezvous.skeleton(...)` and `BoundedLoad(...)` take them as
//! `**options` and read them here, into one `longstraw_set::Options`.
//!
//! A new set-wide option is, in this file, a field of [`SetOptions`], its arm
//! in [`SetOptions::parse`], its line in [`SetOptions::into_options`] and in
//! [`keywords`] (which `repr` and `pickle` read), and its name in
//! [`set_options_signature`]; in the stub, its key in `_SetOptions`
//! (stubtest and tests/test_options.py check the two agree).

use longstraw_set::Options;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert::PlacementArg;
use crate::keyed::{SecretArg, SeedArg};

/// The set-wide keywords and their defaults as `help()` and
/// `__text_signature__` show them, in the order of the fields of
/// [`SetOptions`]. A macro, not a `const`, so that `concat!` can put it into
/// each constructor's signature line.
macro_rules! set_options_signature {
    () => {
        "seed=None, secret=None, placement=1"
    };
}
pub(crate) use set_options_signature;

/// The set-wide keyword arguments of a constructor, parsed. `Default` is
/// every option left out.
#[derive(Default)]
pub(crate) struct SetOptions {
    /// `seed=None`: any integer in [0, 2^64 - 1]; `None` is seed 0 (a
    /// secret excludes even an explicit `seed=0`).
    seed: Option<SeedArg>,
    /// `secret=None`: 16 bytes selecting keyed-v1; never shown anywhere.
    secret: Option<SecretArg>,
    /// `placement=1`: the placement version.
    placement: PlacementArg,
}

impl SetOptions {
    /// Reads the `**options` of `function` (as Python's own errors name it,
    /// e.g. `Rendezvous.table()`). An unknown keyword is a `TypeError` naming
    /// it (only its name: a misspelt `secret` keeps its value unseen), as
    /// for a function with named parameters, and it is reported before any
    /// bad value. A bad value raises what a named parameter would: its
    /// type's error, a `TypeError` prefixed with `argument '<name>': `.
    pub(crate) fn parse(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<SetOptions> {
        let mut options = SetOptions::default();
        let mut bad_value = None;
        for (name, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
            let name = name.cast_into::<PyString>()?;
            let parsed = match name.to_str()? {
                "seed" => argument(&value, "seed").map(|v| options.seed = v),
                "secret" => argument(&value, "secret").map(|v| options.secret = v),
                "placement" => argument(&value, "placement").map(|v| options.placement = v),
                unknown => {
                    return Err(PyTypeError::new_err(format!(
                        "{function} got an unexpected keyword argument '{unknown}'"
                    )))
                }
            };
            if let Err(e) = parsed {
                bad_value.get_or_insert(e);
            }
        }
        match bad_value {
            Some(e) => Err(e),
            None => Ok(options),
        }
    }

    /// The set's options. Whether a seed and a secret together are an error
    /// is the set's to decide, when it is built.
    pub(crate) fn into_options(self) -> Options {
        Options {
            seed: self.seed.map(|s| s.0),
            secret: self.secret.map(|s| s.0),
            placement: self.placement.0,
            ..Options::default()
        }
    }
}

/// One keyword of [`keywords`]: a value, or a secret that is never shown.
pub(crate) enum Keyword<'py> {
    Value(Bound<'py, PyAny>),
    Hidden,
}

/// The set-wide keywords that build a set placing like one of `options`, in
/// signature order, for `repr` and `pickle`. A keyed set has no seed and its
/// secret is [`Keyword::Hidden`]: `repr` shows `secret=<hidden>` and
/// `pickle` refuses.
pub(crate) fn keywords<'py>(py: Python<'py>, options: &Options) -> PyResult<Vec<(&'static str, Keyword<'py>)>> {
    let mut out = Vec::new();
    if let Some(seed) = options.seed {
        out.push(("seed", Keyword::Value(seed.into_pyobject(py)?.into_any())));
    }
    if options.secret.is_some() {
        out.push(("secret", Keyword::Hidden));
    }
    let placement = options.placement.number().into_pyobject(py)?.into_any();
    out.push(("placement", Keyword::Value(placement)));
    Ok(out)
}

/// `value` extracted as the keyword `name`, with the error a named
/// parameter of a `#[pyfunction]` gives.
fn argument<'a, 'py, T>(value: &'a Bound<'py, PyAny>, name: &str) -> PyResult<T>
where
    T: FromPyObject<'a, 'py, Error = PyErr>,
{
    value.extract::<T>().map_err(|e| {
        let py = value.py();
        if e.get_type(py).is(py.get_type::<PyTypeError>()) {
            let named = PyTypeError::new_err(format!("argument '{name}': {}", e.value(py)));
            named.set_cause(py, e.cause(py));
            named
        } else {
            e
        }
    })
}
