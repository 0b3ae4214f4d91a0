//! `longstraw_result`: every way a call can fail, as a stable integer code.

use std::cell::RefCell;
use std::ffi::{c_char, c_int, CString};

use longstraw_set::Error;

/// The outcome of a longstraw call. `LONGSTRAW_OK` (0) means success; every
/// other value names one kind of failure. When a call fails it writes nothing
/// to its out-parameters. Codes are stable: a code is never renumbered or
/// reused, and new codes are only added at the end.
///
/// `longstraw_result_str` turns a code into an English sentence.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum longstraw_result {
    /// Success.
    LONGSTRAW_OK = 0,
    /// A required pointer argument was NULL (a NULL data pointer is only
    /// allowed together with a length of 0).
    LONGSTRAW_NULL_ARGUMENT = 1,
    /// A pointer was not aligned for its type (for example a `uint64_t *`
    /// offsets array at an odd address).
    LONGSTRAW_MISALIGNED_POINTER = 2,
    /// A node id was empty or longer than 65535 bytes.
    LONGSTRAW_INVALID_NODE_ID = 3,
    /// A weight was NaN, infinite, negative (including -0.0), or outside
    /// [2^-64, 2^64] while not exactly 0.
    LONGSTRAW_INVALID_WEIGHT = 4,
    /// A node with this id is already in the set.
    LONGSTRAW_DUPLICATE_NODE = 5,
    /// No node with this id is in the set.
    LONGSTRAW_UNKNOWN_NODE = 6,
    /// The node's id hashes to the same value as another node's under this
    /// seed; pick another seed or id.
    LONGSTRAW_HASH_COLLISION = 7,
    /// No node can own a key: the set is empty or every node has weight 0.
    LONGSTRAW_NO_ELIGIBLE_NODE = 8,
    /// More than 4294967295 nodes.
    LONGSTRAW_TOO_MANY_NODES = 9,
    /// A node index is not below the snapshot's node count.
    LONGSTRAW_INDEX_OUT_OF_RANGE = 10,
    /// An output buffer is too small for the whole answer (see
    /// `longstraw_snapshot_rank`).
    LONGSTRAW_BUFFER_TOO_SMALL = 11,
    /// Two lengths that must agree do not (for example the output array of
    /// `longstraw_snapshot_owners` and the number of keys).
    LONGSTRAW_LENGTH_MISMATCH = 12,
    /// The offsets of a packed key batch decrease or run past the key bytes.
    LONGSTRAW_BAD_OFFSETS = 13,
    /// A placement version this build of longstraw does not know.
    LONGSTRAW_UNKNOWN_PLACEMENT = 14,
    /// The `LONGSTRAW_BACKEND` environment variable names a backend that is
    /// unknown or not supported by this CPU.
    LONGSTRAW_BACKEND_UNAVAILABLE = 15,
    /// An allocation whose size the caller chose (such as a partition
    /// table's rows) failed; nothing was changed.
    LONGSTRAW_OUT_OF_MEMORY = 16,
    /// A bug in longstraw: an internal panic was caught at the library
    /// boundary. Please report it. The handles involved are still usable.
    LONGSTRAW_INTERNAL_ERROR = 17,
    /// A partition-table, skeleton or bounded-load parameter (partition bits,
    /// replicas per partition, skeleton fan-out or levels, balance factor) is
    /// out of its documented range.
    LONGSTRAW_INVALID_PARAMETER = 18,
    /// A failure domain label was longer than 65535 bytes.
    LONGSTRAW_INVALID_DOMAIN = 19,
    /// A membership file could not be read, parsed, validated or written;
    /// `longstraw_last_error_message` names the file, the line and the field
    /// (docs/MEMBERSHIP.md).
    LONGSTRAW_BAD_FILE = 20,
    /// A keyed-v1 secret was not exactly `LONGSTRAW_SECRET_LEN` (16) bytes.
    LONGSTRAW_INVALID_SECRET = 21,
    /// Two options that cannot be used together were given (for example a
    /// balance and `LONGSTRAW_TABLE_DISTINCT_DOMAINS`, or a seed and a
    /// secret); `longstraw_last_error_message` says which.
    LONGSTRAW_CONFLICTING_OPTIONS = 22,
    /// A call that needs one placement mode (such as
    /// `longstraw_snapshot_partition`, which needs a table) was given a
    /// snapshot of another mode; `longstraw_last_error_message` says which.
    LONGSTRAW_WRONG_MODE = 23,
}

use longstraw_result::*;

/// Every code, in numeric order.
const ALL_CODES: [longstraw_result; 24] = [
    LONGSTRAW_OK,
    LONGSTRAW_NULL_ARGUMENT,
    LONGSTRAW_MISALIGNED_POINTER,
    LONGSTRAW_INVALID_NODE_ID,
    LONGSTRAW_INVALID_WEIGHT,
    LONGSTRAW_DUPLICATE_NODE,
    LONGSTRAW_UNKNOWN_NODE,
    LONGSTRAW_HASH_COLLISION,
    LONGSTRAW_NO_ELIGIBLE_NODE,
    LONGSTRAW_TOO_MANY_NODES,
    LONGSTRAW_INDEX_OUT_OF_RANGE,
    LONGSTRAW_BUFFER_TOO_SMALL,
    LONGSTRAW_LENGTH_MISMATCH,
    LONGSTRAW_BAD_OFFSETS,
    LONGSTRAW_UNKNOWN_PLACEMENT,
    LONGSTRAW_BACKEND_UNAVAILABLE,
    LONGSTRAW_OUT_OF_MEMORY,
    LONGSTRAW_INTERNAL_ERROR,
    LONGSTRAW_INVALID_PARAMETER,
    LONGSTRAW_INVALID_DOMAIN,
    LONGSTRAW_BAD_FILE,
    LONGSTRAW_INVALID_SECRET,
    LONGSTRAW_CONFLICTING_OPTIONS,
    LONGSTRAW_WRONG_MODE,
];

impl longstraw_result {
    /// The description `longstraw_result_str` returns, NUL-terminated.
    pub const fn message(self) -> &'static str {
        match self {
            LONGSTRAW_OK => "success\0",
            LONGSTRAW_NULL_ARGUMENT => "a required pointer argument is NULL\0",
            LONGSTRAW_MISALIGNED_POINTER => "a pointer is not aligned for its type\0",
            LONGSTRAW_INVALID_NODE_ID => "invalid node id: ids are 1 to 65535 bytes\0",
            LONGSTRAW_INVALID_WEIGHT => {
                "invalid weight: weights must be 0 or a finite number in [2^-64, 2^64] (not NaN, not negative, not -0.0)\0"
            }
            LONGSTRAW_DUPLICATE_NODE => "duplicate node: a node with this id is already in the set\0",
            LONGSTRAW_UNKNOWN_NODE => "unknown node: no node with this id is in the set\0",
            LONGSTRAW_HASH_COLLISION => {
                "hash collision: this node id has the same hash as another node's under this seed; use another seed or id\0"
            }
            LONGSTRAW_NO_ELIGIBLE_NODE => {
                "no eligible node: the set is empty or every node has weight 0\0"
            }
            LONGSTRAW_TOO_MANY_NODES => "too many nodes: at most 4294967295 are allowed\0",
            LONGSTRAW_INDEX_OUT_OF_RANGE => "node index out of range for this snapshot\0",
            LONGSTRAW_BUFFER_TOO_SMALL => "output buffer too small for the whole answer\0",
            LONGSTRAW_LENGTH_MISMATCH => "length mismatch between two arrays that must agree\0",
            LONGSTRAW_BAD_OFFSETS => {
                "bad key offsets: offsets must be non-decreasing and within the key bytes\0"
            }
            LONGSTRAW_UNKNOWN_PLACEMENT => "unknown placement version (this build knows: 1)\0",
            LONGSTRAW_BACKEND_UNAVAILABLE => {
                "LONGSTRAW_BACKEND names an unknown backend or one this CPU does not support\0"
            }
            LONGSTRAW_OUT_OF_MEMORY => "out of memory\0",
            LONGSTRAW_INTERNAL_ERROR => {
                "internal error: a bug in longstraw was caught at the library boundary; please report it\0"
            }
            LONGSTRAW_INVALID_PARAMETER => {
                "invalid parameter: a partition-table, skeleton or bounded-load parameter is out of its documented range\0"
            }
            LONGSTRAW_INVALID_DOMAIN => "invalid domain label: labels are 1 to 65535 bytes (length 0 means no label)\0",
            LONGSTRAW_BAD_FILE => "bad membership file: longstraw_last_error_message names the line and the field\0",
            LONGSTRAW_INVALID_SECRET => "invalid secret: a keyed-v1 secret is exactly 16 bytes (128 bits)\0",
            LONGSTRAW_CONFLICTING_OPTIONS => {
                "conflicting options: two options that cannot be used together were given (longstraw_last_error_message says which)\0"
            }
            LONGSTRAW_WRONG_MODE => {
                "wrong mode: this call needs a set of another placement mode (longstraw_last_error_message says which)\0"
            }
        }
    }
}

impl From<Error> for longstraw_result {
    fn from(e: Error) -> Self {
        // The set's own words, for longstraw_last_error_message (a core
        // error records its own in the conversion below).
        if !matches!(e, Error::Core(_)) {
            record_message(e.to_string());
        }
        match e {
            Error::Core(core) => core.into(),
            Error::DuplicateNode { .. } => LONGSTRAW_DUPLICATE_NODE,
            Error::UnknownNode { .. } => LONGSTRAW_UNKNOWN_NODE,
            Error::HashCollision { .. } => LONGSTRAW_HASH_COLLISION,
            Error::Backend { .. } => LONGSTRAW_BACKEND_UNAVAILABLE,
            Error::InvalidDomain { .. } => LONGSTRAW_INVALID_DOMAIN,
            Error::OutOfMemory { .. } => LONGSTRAW_OUT_OF_MEMORY,
            Error::ConflictingOptions { .. } => LONGSTRAW_CONFLICTING_OPTIONS,
            Error::InvalidBalanceFactor { .. } => LONGSTRAW_INVALID_PARAMETER,
            Error::WrongMode { .. } => LONGSTRAW_WRONG_MODE,
            Error::InconsistentLoads { .. } => LONGSTRAW_INVALID_PARAMETER,
            // A variant added to the set later that this layer does not map
            // yet is a bug here, not the caller's fault.
            _ => LONGSTRAW_INTERNAL_ERROR,
        }
    }
}

impl From<longstraw::Error> for longstraw_result {
    fn from(e: longstraw::Error) -> Self {
        use longstraw::Error as E;
        // The core's own words, so that a binding over the C library shows the
        // same text as the others. The one failure a well-formed lookup meets,
        // no eligible node, says no more than its code, so lookups on an empty
        // set never allocate.
        if !matches!(e, E::NoEligibleNodes) {
            record_message(e.to_string());
        }
        match e {
            E::EmptyNodeId | E::NodeIdTooLong { .. } => LONGSTRAW_INVALID_NODE_ID,
            E::InvalidWeight { .. } => LONGSTRAW_INVALID_WEIGHT,
            E::TooManyNodes { .. } => LONGSTRAW_TOO_MANY_NODES,
            E::LengthMismatch { .. } => LONGSTRAW_LENGTH_MISMATCH,
            E::NoEligibleNodes => LONGSTRAW_NO_ELIGIBLE_NODE,
            E::BadOffsets { .. } => LONGSTRAW_BAD_OFFSETS,
            E::UnknownPlacement { .. } => LONGSTRAW_UNKNOWN_PLACEMENT,
            E::BadPartitionBits { .. } | E::BadReplicas { .. } | E::BadSkeletonShape { .. } | E::BadBalance { .. } => {
                LONGSTRAW_INVALID_PARAMETER
            }
            // Node storage is sorted by the set, never by the caller: unsorted input is a bug here.
            E::NodesNotSorted { .. } => LONGSTRAW_INTERNAL_ERROR,
            E::BadSecretLength { .. } => LONGSTRAW_INVALID_SECRET,
            E::SeedWithSecret => LONGSTRAW_CONFLICTING_OPTIONS,
        }
    }
}

thread_local! {
    /// The message of the last failed call on this thread, and whether the
    /// call now running recorded it.
    static LAST_ERROR: RefCell<(CString, bool)> = RefCell::new((CString::default(), false));
}

/// Records the message of the error the running call fails with (the text of
/// the Rust layer, so that every language shows the same words).
pub(crate) fn record_message(text: String) {
    let text = CString::new(text.replace('\0', " ")).unwrap_or_default();
    let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = (text, true));
}

/// Called when a call fails: a message recorded by an earlier call is not
/// this failure's, so it is cleared.
pub(crate) fn settle_failure() {
    let _ = LAST_ERROR.try_with(|last| {
        let mut last = last.borrow_mut();
        if !last.1 {
            last.0 = CString::default();
        }
        last.1 = false;
    });
}

/// The message of the last call on this thread that failed, in the words of
/// the Rust layer (the same text every language shows), e.g. "conflicting
/// table options: a balanced table cannot also keep distinct failure
/// domains"; "" when that failure has no more to say than
/// `longstraw_result_str`. Like `errno`, it is meaningful right after a
/// failed call only: a successful call leaves it as it was.
///
/// Returns a NUL-terminated string owned by the library, valid on this
/// thread until its next longstraw call; never free it. It never contains a
/// secret.
#[unsafe(no_mangle)]
pub extern "C" fn longstraw_last_error_message() -> *const c_char {
    const EMPTY: &str = "\0";
    LAST_ERROR
        .try_with(|last| last.borrow().0.as_ptr())
        .unwrap_or(EMPTY.as_ptr().cast())
}

/// Describes a result code in one English sentence.
///
/// Returns a NUL-terminated string with static lifetime: never free it. Any
/// integer is accepted; a value that is not a `longstraw_result` code gets
/// "unknown longstraw_result code". Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn longstraw_result_str(result: c_int) -> *const c_char {
    const UNKNOWN: &str = "unknown longstraw_result code\0";
    let text = usize::try_from(result)
        .ok()
        .and_then(|i| ALL_CODES.get(i))
        .map_or(UNKNOWN, |r| r.message());
    text.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_dense_and_messages_terminated() {
        for (i, r) in ALL_CODES.iter().enumerate() {
            assert_eq!(*r as usize, i, "{r:?} is out of order");
            let m = r.message();
            assert!(m.ends_with('\0') && !m[..m.len() - 1].contains('\0'));
        }
    }

    #[test]
    fn every_code_has_a_distinct_message() {
        let mut seen = std::collections::HashSet::new();
        for r in ALL_CODES {
            assert!(seen.insert(r.message()), "{r:?} repeats a message");
        }
    }

    #[test]
    fn core_errors_map_to_their_codes() {
        use longstraw::Error as E;
        assert_eq!(
            longstraw_result::from(E::TooManyNodes { len: 1 << 33 }),
            LONGSTRAW_TOO_MANY_NODES
        );
        assert_eq!(
            longstraw_result::from(E::NodeIdTooLong { len: 70000 }),
            LONGSTRAW_INVALID_NODE_ID
        );
    }
}
