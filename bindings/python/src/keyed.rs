//! The `secret` argument (keyed-v1, docs/SPEC.md §15): bytes in, a core
//! `Secret` out. The bytes never reach a message, a repr or a pickle.

use longstraw_set::Secret;
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::convert::Seed;
use crate::error::{core_to_py, wrong_type};
use pyo3::exceptions::PyTypeError as PicklingRefused;

/// A `secret` argument: a bytes-like object of exactly 16 bytes.
pub(crate) struct SecretArg(pub Secret);

impl<'a, 'py> FromPyObject<'a, 'py> for SecretArg {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<pyo3::types::PyString>() {
            // Text is usually a password, not 128 random bits: refuse it
            // rather than encode it.
            return Err(PyTypeError::new_err(
                "secret must be 16 random bytes (bytes, bytearray or memoryview), not str; \
                 use os.urandom(16) and keep it in your secret store",
            ));
        }
        let buffer =
            PyBuffer::<u8>::get(&obj).map_err(|_| wrong_type("secret", "a bytes-like object of 16 bytes", &obj))?;
        let bytes = buffer.to_vec(obj.py())?;
        Secret::from_bytes(&bytes).map(SecretArg).map_err(core_to_py)
    }
}

/// A `seed` argument, any integer in [0, 2^64 - 1]. `Option<SeedArg>` is
/// `None` when it was not given (or given as `None`): a secret excludes
/// even an explicit `seed=0`.
pub(crate) struct SeedArg(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for SeedArg {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Seed::extract(obj).map(|s| SeedArg(s.0))
    }
}

/// The error a keyed set raises when pickled (or copied through
/// `__reduce__`): a pickle would have to contain the secret.
pub(crate) fn refuse_pickle() -> PyErr {
    PicklingRefused::new_err(
        "a keyed set (built with secret=...) cannot be pickled or copied: the pickle would contain \
         the secret. Rebuild it where it is needed from the nodes and the secret in your secret store",
    )
}
