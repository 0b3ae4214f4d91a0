//! The set's error type: the core's errors plus membership errors.

use std::fmt;

/// Every way a set operation can fail.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// An error from the placement core (bad weight, bad id length, empty set, ...).
    Core(longstraw::Error),
    /// A node with this id is already in the set.
    DuplicateNode {
        /// The id.
        id: Vec<u8>,
    },
    /// No node with this id is in the set.
    UnknownNode {
        /// The id.
        id: Vec<u8>,
    },
    /// Two distinct ids have the same node hash under this seed. Placement
    /// would not have a total order, so the second is rejected.
    HashCollision {
        /// The id being added.
        id: Vec<u8>,
        /// The id already in the set.
        existing: Vec<u8>,
    },
    /// A failure domain label that is empty or longer than 65,535 bytes.
    InvalidDomain {
        /// The label's length in bytes.
        len: usize,
    },
    /// An allocation whose size the caller chose (such as a table's rows)
    /// failed. The set is unchanged.
    OutOfMemory {
        /// The bytes that could not be allocated.
        bytes: usize,
    },
    /// A bounded-load balance factor that is not finite or below
    /// [`crate::MIN_BALANCE_FACTOR`] (SPEC.md §16).
    InvalidBalanceFactor {
        /// The rejected value.
        factor: f64,
    },
    /// `LONGSTRAW_BACKEND` names a backend that is unknown or unavailable here.
    Backend {
        /// The value of the variable.
        value: String,
        /// Why it was refused.
        reason: &'static str,
    },
    /// Two table options that cannot be combined (for example a balanced
    /// table that also keeps distinct failure domains).
    ConflictingOptions {
        /// Which options, in words.
        what: &'static str,
    },
    /// An operation that only one mode has (a table's `partition`), asked
    /// of a set or snapshot of another mode.
    WrongMode {
        /// The operation, as faces name it (`partition()`).
        operation: &'static str,
        /// The mode it needs.
        needs: crate::Mode,
        /// The mode this set has.
        actual: crate::Mode,
    },
}

/// `Result` with this crate's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<longstraw::Error> for Error {
    fn from(e: longstraw::Error) -> Self {
        Error::Core(e)
    }
}

/// How many characters (or bytes, in hex) of an id a message quotes; every
/// binding cuts ids the same way, so a 64 KiB id never becomes a 64 KiB message.
const SHOWN: usize = 60;

/// Renders an id for a message: text when it is UTF-8, hex otherwise, cut
/// after [`SHOWN`] characters (bytes for hex) with its length noted.
pub(crate) fn show_id(id: &[u8]) -> String {
    let more = |shown: usize| {
        if shown < id.len() {
            format!("... ({} bytes)", id.len())
        } else {
            String::new()
        }
    };
    match std::str::from_utf8(id) {
        Ok(s) => {
            let head: String = s.chars().take(SHOWN).collect();
            format!("{head:?}{}", more(head.len()))
        }
        Err(_) => {
            let hex: String = id.iter().take(SHOWN / 2).map(|b| format!("{b:02x}")).collect();
            format!("0x{hex}{}", more(SHOWN / 2))
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Core(e) => e.fmt(f),
            Error::DuplicateNode { id } => write!(f, "duplicate node {}", show_id(id)),
            Error::UnknownNode { id } => write!(f, "unknown node {}", show_id(id)),
            Error::HashCollision { id, existing } => write!(
                f,
                "node {} has the same hash as node {} under this seed; use another seed or id",
                show_id(id),
                show_id(existing)
            ),
            Error::InvalidDomain { len } => write!(
                f,
                "domain label is {len} bytes long (labels are 1 to 65535 bytes; use no label for none)"
            ),
            Error::OutOfMemory { bytes } => write!(f, "out of memory: cannot allocate {bytes} bytes"),
            Error::InvalidBalanceFactor { factor } => write!(
                f,
                "invalid balance factor {factor:?}: it must be finite and at least 1 + 2^-16 (1.25 is usual)"
            ),
            Error::Backend { value, reason } => {
                write!(f, "LONGSTRAW_BACKEND={value:?}: {reason}")
            }
            Error::ConflictingOptions { what } => write!(f, "conflicting table options: {what}"),
            Error::WrongMode {
                operation,
                needs,
                actual,
            } => write!(f, "{operation} needs a {needs}-mode set; this set is {actual}"),
        }
    }
}

impl std::error::Error for Error {}
