//! Errors as JavaScript sees them: a constructor (Error, TypeError or
//! RangeError), a stable `code` and a message that names the bad value.

use longstraw_set::Error as SetError;
use napi::bindgen_prelude::*;
use napi::{JsError, JsRangeError, JsTypeError};

/// Which JavaScript constructor an error is thrown with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `Error`: the input was well-formed but the operation cannot be done.
    Error,
    /// `TypeError`: a value of the wrong type, or a malformed string.
    Type,
    /// `RangeError`: a value of the right type outside its allowed range.
    Range,
}

/// An error on its way to JavaScript.
#[derive(Clone, Debug)]
pub struct JsErr {
    pub kind: Kind,
    pub code: &'static str,
    pub message: String,
}

pub type Res<T> = std::result::Result<T, JsErr>;

impl JsErr {
    pub fn new(kind: Kind, code: &'static str, message: impl Into<String>) -> JsErr {
        JsErr {
            kind,
            code,
            message: message.into(),
        }
    }

    pub fn type_error(message: impl Into<String>) -> JsErr {
        JsErr::new(Kind::Type, codes::INVALID_ARG_TYPE, message)
    }

    /// Prefixes the message with where the bad value came from.
    pub fn context(mut self, what: impl std::fmt::Display) -> JsErr {
        self.message = format!("{what}: {}", self.message);
        self
    }

    fn napi_error(&self) -> napi::Error<&'static str> {
        napi::Error::new(self.code, self.message.clone())
    }

    /// Builds the JavaScript error object.
    pub fn to_js(&self, env: sys::napi_env) -> sys::napi_value {
        // SAFETY: `env` is the live environment of the current call.
        unsafe {
            match self.kind {
                Kind::Error => JsError::from(self.napi_error()).into_value(env),
                Kind::Type => JsTypeError::from(self.napi_error()).into_value(env),
                Kind::Range => JsRangeError::from(self.napi_error()).into_value(env),
            }
        }
    }

    /// Throws it into `env` and returns the error napi-rs expects when an
    /// exception is already pending (it does not throw a second one).
    pub fn throw(self, env: &Env) -> napi::Error {
        let raw = env.raw();
        // SAFETY: `raw` is the live environment of the current call.
        unsafe {
            match self.kind {
                Kind::Error => JsError::from(self.napi_error()).throw_into(raw),
                Kind::Type => JsTypeError::from(self.napi_error()).throw_into(raw),
                Kind::Range => JsRangeError::from(self.napi_error()).throw_into(raw),
            }
        }
        napi::Error::new(Status::PendingException, self.message)
    }
}

/// The stable `code` values. Never renamed; new ones may be added.
pub mod codes {
    pub const INVALID_ARG_TYPE: &str = "ERR_LONGSTRAW_INVALID_ARG_TYPE";
    pub const INVALID_STRING: &str = "ERR_LONGSTRAW_INVALID_STRING";
    pub const INVALID_OPTION: &str = "ERR_LONGSTRAW_INVALID_OPTION";
    pub const INVALID_SEED: &str = "ERR_LONGSTRAW_INVALID_SEED";
    pub const INVALID_COUNT: &str = "ERR_LONGSTRAW_INVALID_COUNT";
    pub const INVALID_WEIGHT: &str = "ERR_LONGSTRAW_INVALID_WEIGHT";
    pub const INVALID_NODE_ID: &str = "ERR_LONGSTRAW_INVALID_NODE_ID";
    pub const TOO_MANY_NODES: &str = "ERR_LONGSTRAW_TOO_MANY_NODES";
    pub const LENGTH_MISMATCH: &str = "ERR_LONGSTRAW_LENGTH_MISMATCH";
    pub const NO_ELIGIBLE_NODE: &str = "ERR_LONGSTRAW_NO_ELIGIBLE_NODE";
    pub const BAD_OFFSETS: &str = "ERR_LONGSTRAW_BAD_OFFSETS";
    pub const UNKNOWN_PLACEMENT: &str = "ERR_LONGSTRAW_UNKNOWN_PLACEMENT";
    pub const DUPLICATE_NODE: &str = "ERR_LONGSTRAW_DUPLICATE_NODE";
    pub const UNKNOWN_NODE: &str = "ERR_LONGSTRAW_UNKNOWN_NODE";
    pub const HASH_COLLISION: &str = "ERR_LONGSTRAW_HASH_COLLISION";
    pub const BACKEND: &str = "ERR_LONGSTRAW_BACKEND";
    pub const ALIASED_OUTPUT: &str = "ERR_LONGSTRAW_ALIASED_OUTPUT";
    pub const INTERNAL: &str = "ERR_LONGSTRAW_INTERNAL";
    pub const INVALID_PARAMETER: &str = "ERR_LONGSTRAW_INVALID_PARAMETER";
    pub const INVALID_DOMAIN: &str = "ERR_LONGSTRAW_INVALID_DOMAIN";
    pub const OUT_OF_MEMORY: &str = "ERR_LONGSTRAW_OUT_OF_MEMORY";
    pub const INVALID_SECRET: &str = "ERR_LONGSTRAW_INVALID_SECRET";
    pub const WRONG_MODE: &str = "ERR_LONGSTRAW_WRONG_MODE";
}

impl From<SetError> for JsErr {
    fn from(e: SetError) -> JsErr {
        use longstraw::Error as Core;
        let message = e.to_string();
        let (kind, code) = match &e {
            SetError::Core(core) => match core {
                Core::EmptyNodeId | Core::NodeIdTooLong { .. } => (Kind::Range, codes::INVALID_NODE_ID),
                Core::InvalidWeight { .. } => (Kind::Range, codes::INVALID_WEIGHT),
                Core::TooManyNodes { .. } => (Kind::Range, codes::TOO_MANY_NODES),
                Core::LengthMismatch { .. } => (Kind::Range, codes::LENGTH_MISMATCH),
                Core::NoEligibleNodes => (Kind::Error, codes::NO_ELIGIBLE_NODE),
                Core::BadOffsets { .. } => (Kind::Range, codes::BAD_OFFSETS),
                Core::UnknownPlacement { .. } => (Kind::Range, codes::UNKNOWN_PLACEMENT),
                Core::BadPartitionBits { .. }
                | Core::BadReplicas { .. }
                | Core::BadSkeletonShape { .. }
                | Core::BadBalance { .. } => (Kind::Range, codes::INVALID_PARAMETER),
                // The set sorts node storage itself; unsorted input is a bug in longstraw.
                Core::NodesNotSorted { .. } => (Kind::Error, codes::INTERNAL),
                Core::BadSecretLength { .. } => (Kind::Range, codes::INVALID_SECRET),
                Core::SeedWithSecret => (Kind::Type, codes::INVALID_OPTION),
            },
            SetError::DuplicateNode { .. } => (Kind::Error, codes::DUPLICATE_NODE),
            SetError::UnknownNode { .. } => (Kind::Error, codes::UNKNOWN_NODE),
            SetError::HashCollision { .. } => (Kind::Error, codes::HASH_COLLISION),
            SetError::Backend { .. } => (Kind::Error, codes::BACKEND),
            SetError::InvalidDomain { .. } => (Kind::Range, codes::INVALID_DOMAIN),
            SetError::ConflictingOptions { .. } => (Kind::Range, codes::INVALID_PARAMETER),
            SetError::OutOfMemory { .. } => (Kind::Error, codes::OUT_OF_MEMORY),
            SetError::InvalidBalanceFactor { .. } => (Kind::Range, codes::INVALID_PARAMETER),
            SetError::WrongMode { .. } => (Kind::Type, codes::WRONG_MODE),
            _ => (Kind::Error, codes::INTERNAL),
        };
        JsErr::new(kind, code, message)
    }
}

impl From<longstraw::Error> for JsErr {
    fn from(e: longstraw::Error) -> JsErr {
        SetError::Core(e).into()
    }
}

/// Turns a binding result into what a `#[napi]` function returns, throwing
/// the JavaScript error on the way.
pub trait OrThrow<T> {
    fn or_throw(self, env: &Env) -> napi::Result<T>;
}

impl<T> OrThrow<T> for Res<T> {
    #[inline]
    fn or_throw(self, env: &Env) -> napi::Result<T> {
        self.map_err(|e| e.throw(env))
    }
}
