//! `longstraw_options`: every set-wide option of a new set in one struct, and
//! the two constructors that take it. The struct only carries values: the
//! set validates them (`Options::hashing`, `ModeOptions`, `TableOptions`,
//! `SkeletonOptions`), so this module converts and checks nothing else than
//! what C alone can get wrong (the struct's size, a flag that is neither 0
//! nor 1, an option of another mode).

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

use longstraw_membership::SecretSource;
use longstraw_set::{
    Balance, ModeOptions, Options, Placement, Rendezvous, Secret, SkeletonOptions, SkeletonShape, TableOptions,
};

use crate::boundary::{boundary, in_slice, FfiResult, Out};
use crate::held::Held;
use crate::rendezvous::{longstraw_rendezvous, LONGSTRAW_AUTO, LONGSTRAW_TABLE_DISTINCT_DOMAINS};
use crate::result::longstraw_result::{self, *};
use crate::result::record_message;
use crate::snapshot::{longstraw_mode, longstraw_snapshot, view};
use crate::version::LONGSTRAW_PLACEMENT_VERSION;

/// Every set-wide option of a new set (`longstraw_rendezvous_new`,
/// `longstraw_rendezvous_new_from`).
///
/// Fill it with `longstraw_options_init(&o, sizeof o)` (the defaults below),
/// then change the fields you need:
///
/// ```c
/// longstraw_options o;
/// longstraw_options_init(&o, sizeof o);
/// o.mode = LONGSTRAW_MODE_TABLE;
/// o.replicas = 3;
/// ```
///
/// `struct_size` lets the struct grow in later versions without breaking
/// callers built against this one: the library reads the first
/// `struct_size` bytes and gives every field beyond them its default. A
/// `struct_size` smaller than this version's `sizeof(longstraw_options)` is
/// refused (`LONGSTRAW_INVALID_PARAMETER`). A larger one, from a caller
/// built against a newer header, is accepted only when every byte past the
/// fields this library knows is zero (options it does not know are left
/// unset); a non-zero byte there is refused, never silently ignored.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct longstraw_options {
    /// The size of the caller's struct in bytes (`sizeof(longstraw_options)`
    /// as the caller was compiled); `longstraw_options_init` sets it.
    pub struct_size: u32,
    /// The placement version (default `LONGSTRAW_PLACEMENT_VERSION`); pin it
    /// so that an upgrade of longstraw never moves keys.
    pub placement: u32,
    /// The seed of placement v1; read only when `has_seed` is 1. The seed
    /// changes every placement; all users of one cluster must agree on it.
    pub seed: u64,
    /// 1: `seed` is given (0 included); 0 (default): no seed, which is seed
    /// 0 for an unkeyed set. A seed together with a secret is refused by the
    /// set (`LONGSTRAW_CONFLICTING_OPTIONS`), even a seed of 0: a keyed set
    /// has no seed.
    pub has_seed: u32,
    /// The placement mode, a `longstraw_mode` value (default
    /// `LONGSTRAW_MODE_FLAT`). A set's mode and shape never change.
    pub mode: u32,
    /// A keyed-v1 secret (SPEC.md section 15) of `secret_len` bytes, exactly
    /// `LONGSTRAW_SECRET_LEN` (16) uniformly random ones, or NULL (default)
    /// for none. Keys and node ids are then hashed with SipHash-2-4 under the
    /// secret, so whoever chooses keys cannot steer them onto one node. The
    /// bytes are copied and never returned, logged or put in a message.
    pub secret: *const u8,
    /// The length of `secret` in bytes (0 when `secret` is NULL).
    pub secret_len: usize,
    /// A secret file instead of `secret` (NULL by default): a NUL-terminated
    /// path (relative to the current directory) of a file holding the
    /// 16-byte secret as 32 hexadecimal digits, as for a membership file's
    /// `[secret] file`. It is read once, and the set remembers the file so
    /// that `longstraw_rendezvous_save_file` names it again. Give `secret`
    /// or `secret_file`, not both.
    pub secret_file: *const c_char,
    /// Table mode: nodes stored per partition, 1 (default) to
    /// `LONGSTRAW_MAX_REPLICAS`; `top_k` up to this many is a table read.
    pub replicas: usize,
    /// Table mode: 0.0 (default) for a plain table; 1.0 to 4.0 (held to
    /// millionths) for a balanced one (SPEC.md section 17): at each replica
    /// rank no node holds more than `ceil(balance * P * w_i / W)` partitions.
    /// Lookups on a balanced table return at most `replicas` nodes, and every
    /// change places every partition again.
    pub balance: f64,
    /// Table mode: 0 (default) or `LONGSTRAW_TABLE_DISTINCT_DOMAINS`.
    pub table_flags: u32,
    /// Table mode: `P = 2^partition_bits` partitions, 0 to
    /// `LONGSTRAW_MAX_PARTITION_BITS`, or `LONGSTRAW_AUTO` (default) for
    /// `clamp(ceil(log2(n)) + 6, 10, 20)` with n the node count at creation
    /// (give it explicitly for a fleet that starts small and grows).
    pub partition_bits: u8,
    /// Skeleton mode: `2^fanout_bits` children per group, 1 to 6 (0 to 6 and
    /// ignored when `levels` is 0), or `LONGSTRAW_AUTO` (default).
    pub fanout_bits: u8,
    /// Skeleton mode: levels of groups, 0 to 5, or `LONGSTRAW_AUTO`
    /// (default). `fanout_bits` and `levels` are both `LONGSTRAW_AUTO` (the
    /// shallowest tree whose leaf groups average at most 64 nodes for the
    /// node count at creation) or both given.
    pub levels: u8,
}

/// The size of the struct this library knows.
const KNOWN_SIZE: usize = size_of::<longstraw_options>();

/// The smallest `struct_size` accepted: the struct of the first version
/// that had it. When a field is appended, this stays as it is (write it as
/// `offset_of!(longstraw_options, <the first appended field>)`), and a
/// caller's shorter struct gets the appended fields' defaults.
const MIN_SIZE: usize = KNOWN_SIZE;

/// A `struct_size` above this is not a size of `longstraw_options` at all
/// (a field left uninitialised), so its bytes are not read.
const MAX_SIZE: usize = 4096;

impl Default for longstraw_options {
    fn default() -> Self {
        longstraw_options {
            struct_size: MIN_SIZE as u32,
            placement: LONGSTRAW_PLACEMENT_VERSION,
            seed: 0,
            has_seed: 0,
            mode: longstraw_mode::LONGSTRAW_MODE_FLAT as u32,
            secret: std::ptr::null(),
            secret_len: 0,
            secret_file: std::ptr::null(),
            replicas: 1,
            balance: 0.0,
            table_flags: 0,
            partition_bits: LONGSTRAW_AUTO,
            fanout_bits: LONGSTRAW_AUTO,
            levels: LONGSTRAW_AUTO,
        }
    }
}

fn invalid(message: String) -> longstraw_result {
    record_message(message);
    LONGSTRAW_INVALID_PARAMETER
}

fn conflicting(message: &str) -> longstraw_result {
    record_message(message.into());
    LONGSTRAW_CONFLICTING_OPTIONS
}

fn check_size(size: usize) -> FfiResult {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(invalid(format!(
            "longstraw_options.struct_size is {size}; this library needs at least {MIN_SIZE} \
             (sizeof(longstraw_options)): fill the struct with longstraw_options_init(&o, sizeof o)"
        )));
    }
    Ok(())
}

/// Fills `*o` with every default (a flat set, placement
/// `LONGSTRAW_PLACEMENT_VERSION`, no seed, no secret, and the table and
/// skeleton shapes chosen by longstraw) and sets `o->struct_size` to `size`.
/// Pass `sizeof *o` as `size`: exactly `size` bytes are written, so a
/// program built against an older header (a shorter struct) is never
/// written past its end, and bytes past the fields this library knows are
/// zeroed, so a program built against a newer header gets its new options
/// unset.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT`, `LONGSTRAW_INVALID_PARAMETER` (`size`
/// smaller than this version's `sizeof(longstraw_options)`, or above 4096).
/// Thread-safe.
///
/// # Safety
/// `o` must be NULL or valid for writing `size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_options_init(o: *mut longstraw_options, size: usize) -> longstraw_result {
    boundary(|| {
        Out::new(o)?; // not NULL and aligned; written byte by byte below
        check_size(size)?;
        let defaults = longstraw_options {
            struct_size: size as u32,
            ..longstraw_options::default()
        };
        let known = size.min(KNOWN_SIZE);
        // SAFETY: `o` is non-NULL and aligned (Out::new) and writable for
        // `size` bytes by the caller's contract; `defaults` is a local of
        // KNOWN_SIZE bytes, and `known <= size` and `known <= KNOWN_SIZE`.
        unsafe {
            std::ptr::copy_nonoverlapping((&raw const defaults).cast::<u8>(), o.cast::<u8>(), known);
            std::ptr::write_bytes(o.cast::<u8>().add(known), 0, size - known);
        }
        Ok(())
    })
}

/// Reads a caller's struct by the forward-compatibility rule of
/// [`longstraw_options`]; NULL is every default.
///
/// # Safety
/// `o` must be NULL or point to a struct whose first `struct_size` bytes are
/// readable.
unsafe fn read(o: *const longstraw_options) -> FfiResult<longstraw_options> {
    if o.is_null() {
        return Ok(longstraw_options::default());
    }
    if !o.is_aligned() {
        return Err(LONGSTRAW_MISALIGNED_POINTER);
    }
    // SAFETY: non-NULL and aligned; every version of the struct starts with
    // its size, which the caller's contract makes readable.
    let size = unsafe { o.cast::<u32>().read() } as usize;
    check_size(size)?;
    let known = size.min(KNOWN_SIZE);
    // SAFETY: the caller's contract makes `size` bytes readable, and
    // `known <= size`.
    let tail = unsafe { std::slice::from_raw_parts(o.cast::<u8>().add(known), size - known) };
    if let Some(at) = tail.iter().position(|&b| b != 0) {
        return Err(invalid(format!(
            "longstraw_options sets byte {} of {size}, past the {KNOWN_SIZE} bytes of options this library \
             knows: it comes from a newer longstraw header; link the library of that version",
            known + at
        )));
    }
    // The fields the caller's struct has; the rest keep their defaults.
    let mut options = longstraw_options::default();
    // SAFETY: `known` bytes are readable at `o` (above) and writable in the
    // local `options` (`known <= KNOWN_SIZE`); every bit pattern is a valid
    // longstraw_options (integers, a double and raw pointers).
    unsafe { std::ptr::copy_nonoverlapping(o.cast::<u8>(), (&raw mut options).cast::<u8>(), known) };
    Ok(options)
}

/// The hashing the options give (seed, secret or secret file, placement),
/// and the secret file to remember. The seed-with-secret rule is the set's
/// (`Options::hashing`), decided when the set is built.
///
/// # Safety
/// `o.secret` must be NULL or readable for `o.secret_len` bytes;
/// `o.secret_file` NULL or NUL-terminated.
unsafe fn hashing(o: &longstraw_options) -> FfiResult<(Options, Option<SecretSource>)> {
    let seed = match o.has_seed {
        0 => None,
        1 => Some(o.seed),
        n => return Err(invalid(format!("longstraw_options.has_seed is {n}; it is 0 or 1"))),
    };
    if !o.secret.is_null() && !o.secret_file.is_null() {
        return Err(conflicting(
            "give either longstraw_options.secret or .secret_file, not both",
        ));
    }
    let (secret, source) = if !o.secret_file.is_null() {
        // SAFETY: non-NULL and NUL-terminated by the caller's contract.
        let Ok(path) = unsafe { CStr::from_ptr(o.secret_file) }.to_str() else {
            record_message("the secret file's path is not UTF-8".into());
            return Err(LONGSTRAW_INVALID_SECRET);
        };
        let path = PathBuf::from(path);
        let source = SecretSource::File(std::path::absolute(&path).unwrap_or(path));
        let secret = source.read().map_err(|why| {
            record_message(why);
            LONGSTRAW_INVALID_SECRET
        })?;
        (Some(secret), Some(source))
    } else if o.secret.is_null() {
        if o.secret_len != 0 {
            return Err(LONGSTRAW_NULL_ARGUMENT);
        }
        (None, None)
    } else {
        // SAFETY: readability of `secret_len` bytes is the caller's contract.
        let bytes = unsafe { in_slice(o.secret, o.secret_len)? };
        (Some(Secret::from_bytes(bytes)?), None)
    };
    let options = Options {
        seed,
        secret,
        placement: Placement::from_number(o.placement)?,
        ..Options::default()
    };
    Ok((options, source))
}

/// The mode and shape the options give. A shape field of another mode must
/// keep its default: C has one struct for every mode, and a value set for a
/// mode the set does not have is a mistake, not something to ignore.
fn mode(o: &longstraw_options) -> FfiResult<ModeOptions> {
    const FLAT: u32 = longstraw_mode::LONGSTRAW_MODE_FLAT as u32;
    const TABLE: u32 = longstraw_mode::LONGSTRAW_MODE_TABLE as u32;
    const SKELETON: u32 = longstraw_mode::LONGSTRAW_MODE_SKELETON as u32;
    let (name, table, skeleton) = match o.mode {
        FLAT => ("flat", false, false),
        TABLE => ("table", true, false),
        SKELETON => ("skeleton", false, true),
        n => return Err(invalid(format!("longstraw_options.mode is {n}, not a longstraw_mode"))),
    };
    let d = longstraw_options::default();
    let table_set = [
        ("replicas", o.replicas != d.replicas),
        ("balance", o.balance.to_bits() != d.balance.to_bits()),
        ("table_flags", o.table_flags != d.table_flags),
        ("partition_bits", o.partition_bits != d.partition_bits),
    ];
    let skeleton_set = [
        ("fanout_bits", o.fanout_bits != d.fanout_bits),
        ("levels", o.levels != d.levels),
    ];
    let stray = (!table)
        .then(|| table_set.iter().find(|f| f.1).map(|f| (f.0, "table")))
        .flatten()
        .or_else(|| {
            (!skeleton)
                .then(|| skeleton_set.iter().find(|f| f.1).map(|f| (f.0, "skeleton")))
                .flatten()
        });
    if let Some((field, of)) = stray {
        return Err(invalid(format!(
            "longstraw_options.{field} is an option of {of} mode; this set is {name} (leave it at its default)"
        )));
    }
    if table {
        if o.table_flags & !LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0 {
            return Err(invalid(format!(
                "longstraw_options.table_flags has unknown bits: {:#x}",
                o.table_flags
            )));
        }
        return Ok(ModeOptions::Table(TableOptions {
            partition_bits: (o.partition_bits != LONGSTRAW_AUTO).then_some(o.partition_bits),
            replicas: o.replicas,
            distinct_domains: o.table_flags & LONGSTRAW_TABLE_DISTINCT_DOMAINS != 0,
            // Exactly 0.0 is "no balance"; anything else (NaN included) is checked by the set.
            balance: if o.balance == 0.0 {
                None
            } else {
                Some(Balance::new(o.balance)?)
            },
        }));
    }
    if skeleton {
        let shape = match (o.fanout_bits == LONGSTRAW_AUTO, o.levels == LONGSTRAW_AUTO) {
            (true, true) => None,
            (false, false) => Some(SkeletonShape::new(o.fanout_bits, o.levels)?),
            _ => {
                return Err(invalid(
                    "longstraw_options.fanout_bits and .levels are both LONGSTRAW_AUTO or both given".into(),
                ))
            }
        };
        return Ok(ModeOptions::Skeleton(SkeletonOptions { shape }));
    }
    Ok(ModeOptions::Flat)
}

/// Creates an empty node set of any mode with the options `*opts` (NULL:
/// every default, an unkeyed flat set under seed 0).
///
/// The options choose the hashing (a seed, a secret or a secret file, and
/// the placement version), the mode and the mode's shape; see
/// `longstraw_options`. The kernel is chosen from the CPU, or from the
/// `LONGSTRAW_BACKEND` environment variable (scalar, sse2, avx2, avx512,
/// neon or auto) when it is set; it never changes placement. An automatic
/// table or skeleton shape is chosen for an empty set; to size it for a
/// membership, build the set with `longstraw_rendezvous_new_from`.
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_rendezvous_free`.
///
/// Errors: `LONGSTRAW_NULL_ARGUMENT` (out is NULL, or a NULL secret with a
/// non-zero length), `LONGSTRAW_INVALID_PARAMETER` (a `struct_size` this
/// library does not accept, or a mode, shape or flag out of range),
/// `LONGSTRAW_INVALID_SECRET` (a secret that is not 16 bytes, or a secret
/// file that cannot be read or holds no secret: the message names the file,
/// never its content), `LONGSTRAW_CONFLICTING_OPTIONS` (a seed with a
/// secret, a secret with a secret file, or a balance with
/// `LONGSTRAW_TABLE_DISTINCT_DOMAINS`), `LONGSTRAW_UNKNOWN_PLACEMENT`,
/// `LONGSTRAW_BACKEND_UNAVAILABLE`. `longstraw_last_error_message` says
/// which. Thread-safe.
///
/// # Safety
/// `opts` must be NULL or point to a struct readable for its `struct_size`
/// bytes, whose `secret` is NULL or readable for `secret_len` bytes and whose
/// `secret_file` is NULL or NUL-terminated; `out` must be NULL or valid for
/// writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_new(
    opts: *const longstraw_options,
    out: *mut *mut longstraw_rendezvous,
) -> longstraw_result {
    boundary(|| {
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let o = unsafe { read(opts)? };
        let mode = mode(&o)?;
        // SAFETY: forwarded contract.
        let (options, source) = unsafe { hashing(&o)? };
        let set = Rendezvous::new(std::iter::empty::<(&[u8], f64, Option<&[u8]>)>(), options, mode)?;
        // SAFETY: checked by Out::new; validity is this function's contract.
        unsafe { out.write(Held::into_raw(set, source)) };
        Ok(())
    })
}

/// Creates a node set of the mode and shape in `*opts` (NULL: every
/// default, a flat set) over the membership of `members`, a snapshot of any
/// mode: its nodes in the same index order, their weights and domain labels,
/// and its hashing (seed or secret), placement version and kernel. The new
/// set does not depend on `members` afterwards. This is how a table or
/// skeleton is built for an initial membership in one step: an automatic
/// shape is chosen for its node count, and a table ranks every partition
/// over every node once (P * n pair scores, on all cores; a table is meant
/// for up to about 10^4 nodes).
///
/// The hashing always comes from `members`: `opts` must leave `has_seed` 0
/// and `secret` and `secret_file` NULL, and its `placement` must be the
/// snapshot's; anything else is `LONGSTRAW_CONFLICTING_OPTIONS`.
///
/// On success `*out` receives a handle that the caller owns and must release
/// with `longstraw_rendezvous_free`.
///
/// Errors: those of `longstraw_rendezvous_new`, and
/// `LONGSTRAW_CONFLICTING_OPTIONS` for hashing options given here.
/// Thread-safe.
///
/// # Safety
/// `members` must be NULL or a live snapshot; `opts` as for
/// `longstraw_rendezvous_new`; `out` must be NULL or valid for writing one
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn longstraw_rendezvous_new_from(
    members: *const longstraw_snapshot,
    opts: *const longstraw_options,
    out: *mut *mut longstraw_rendezvous,
) -> longstraw_result {
    boundary(|| {
        // SAFETY: forwarded contract.
        let members = unsafe { view(members)? };
        let out = Out::new(out)?;
        // SAFETY: forwarded contract.
        let o = unsafe { read(opts)? };
        let mode = mode(&o)?;
        if o.has_seed != 0 || !o.secret.is_null() || o.secret_len != 0 || !o.secret_file.is_null() {
            return Err(conflicting(
                "a set built from a snapshot takes its seed or secret from that snapshot: \
                 leave has_seed 0 and secret and secret_file NULL",
            ));
        }
        let options = members.members().options();
        if o.placement != options.placement.number() {
            return Err(conflicting(&format!(
                "longstraw_options.placement is {}, but the snapshot's placement is {}",
                o.placement,
                options.placement.number()
            )));
        }
        let nodes = members.nodes().map(|n| (n.id(), n.weight(), n.domain()));
        let set = Rendezvous::new(nodes, options, mode)?;
        // SAFETY: checked by Out::new; validity is the caller's contract.
        unsafe { out.write(Held::into_raw(set, None)) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rendezvous::{longstraw_rendezvous_free, longstraw_rendezvous_snapshot};
    use crate::result::longstraw_last_error_message;
    use crate::snapshot::{longstraw_snapshot_free, longstraw_snapshot_is_keyed};
    use std::ffi::CString;

    fn last_message() -> String {
        // SAFETY: the library returns a valid NUL-terminated string for this thread.
        unsafe { CStr::from_ptr(longstraw_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    fn with_file(path: &CString) -> longstraw_options {
        longstraw_options {
            secret_file: path.as_ptr(),
            ..longstraw_options::default()
        }
    }

    #[test]
    fn a_keyed_set_from_a_secret_file_and_clear_refusals() {
        let dir = std::env::temp_dir().join(format!("longstraw-keyed-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good");
        std::fs::write(&good, "000102030405060708090a0b0c0d0e0f\n").unwrap();
        let bad = dir.join("bad");
        std::fs::write(&bad, "zz0102030405060708090a0b0c0d0eq\n").unwrap();
        let path = |p: &std::path::Path| CString::new(p.to_str().unwrap()).unwrap();
        let mut set = std::ptr::null_mut();
        // SAFETY: every pointer is a live local or a handle made here.
        unsafe {
            let good = path(&good);
            assert_eq!(longstraw_rendezvous_new(&with_file(&good), &mut set), LONGSTRAW_OK);
            let mut snap = std::ptr::null();
            assert_eq!(longstraw_rendezvous_snapshot(set, &mut snap), LONGSTRAW_OK);
            let mut keyed = 0u32;
            assert_eq!(longstraw_snapshot_is_keyed(snap, &mut keyed), LONGSTRAW_OK);
            assert_eq!(keyed, 1);
            longstraw_snapshot_free(snap);
            longstraw_rendezvous_free(set);

            let mut none = std::ptr::null_mut();
            let bad = path(&bad);
            assert_eq!(
                longstraw_rendezvous_new(&with_file(&bad), &mut none),
                LONGSTRAW_INVALID_SECRET
            );
            assert!(none.is_null());
            let message = last_message();
            assert!(message.contains("32 hexadecimal digits"), "{message}");
            assert!(!message.contains("zz01"), "the message quotes the file: {message}");
            let missing = path(&dir.join("missing"));
            assert_eq!(
                longstraw_rendezvous_new(&with_file(&missing), &mut none),
                LONGSTRAW_INVALID_SECRET
            );
            assert!(last_message().contains("missing"));
            let secret = [7u8; 16];
            let both = longstraw_options {
                secret: secret.as_ptr(),
                secret_len: 16,
                ..with_file(&good)
            };
            assert_eq!(
                longstraw_rendezvous_new(&both, &mut none),
                LONGSTRAW_CONFLICTING_OPTIONS
            );
            assert!(last_message().contains("not both"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn init_fills_the_defaults_and_zeroes_what_it_does_not_know() {
        #[repr(C, align(8))]
        struct Newer([u8; MIN_SIZE + 16]);
        let mut newer = Newer([0xA5; MIN_SIZE + 16]);
        let o = newer.0.as_mut_ptr().cast::<longstraw_options>();
        // SAFETY: `o` is writable for MIN_SIZE + 16 bytes.
        let code = unsafe { longstraw_options_init(o, MIN_SIZE + 16) };
        assert_eq!(code, LONGSTRAW_OK);
        assert!(newer.0[KNOWN_SIZE..].iter().all(|&b| b == 0));
        // SAFETY: just initialised.
        let o = unsafe { read(o) }.unwrap();
        assert_eq!(o.struct_size as usize, MIN_SIZE + 16);
        assert_eq!(mode(&o), Ok(ModeOptions::Flat));
        // SAFETY: a NULL output is refused before anything is written.
        let code = unsafe { longstraw_options_init(std::ptr::null_mut(), MIN_SIZE) };
        assert_eq!(code, LONGSTRAW_NULL_ARGUMENT);
    }
}
