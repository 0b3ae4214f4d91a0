//! `packed`: the packed-batch parser ([`PackedKeys`], used by every batch
//! call) on random bytes and offsets of each offset type, against a model of
//! the rule; then the batch lookups of the core, the set and the C ABI on the
//! accepted batches, including lengths near `usize::MAX`.

use arbitrary::{Result, Unstructured};
use longstraw::{Error, KeyOffset, NodeTable, PackedKeys};
use longstraw_ffi::longstraw_result::{self, *};
use longstraw_set::{ModeOptions, Options, Rendezvous};

use crate::input;

/// An offset: mostly inside the bytes, sometimes past them or near the top of its type.
fn offset(u: &mut Unstructured<'_>, len: usize, top: u64) -> Result<u64> {
    Ok(match u.int_in_range(0..=15u8)? {
        0 => top,
        1 => top - u64::from(u.int_in_range(0..=3u8)?),
        2 => len as u64 + 1,
        3 => u.arbitrary()?,
        _ => u.int_in_range(0..=len as u64)?,
    })
}

/// The rule of SPEC.md §8 written out: the keys, or the position of the
/// first offset that is past the bytes or below the one before it.
fn model<'a>(bytes: &'a [u8], offsets: &[u64]) -> std::result::Result<Vec<&'a [u8]>, usize> {
    for (at, &o) in offsets.iter().enumerate() {
        if o > bytes.len() as u64 || (at > 0 && o < offsets[at - 1]) {
            return Err(at);
        }
    }
    Ok(offsets
        .windows(2)
        .map(|w| &bytes[w[0] as usize..w[1] as usize])
        .collect())
}

fn check_parser<O: KeyOffset + std::fmt::Debug>(bytes: &[u8], offsets: &[O], wide: &[u64]) {
    let want = model(bytes, wide);
    match PackedKeys::new(bytes, offsets) {
        Ok(p) => {
            let keys = want.unwrap_or_else(|at| panic!("accepted {offsets:?} over {} bytes; bad at {at}", bytes.len()));
            assert_eq!(p.len(), keys.len(), "len");
            assert_eq!(p.is_empty(), keys.is_empty(), "is_empty");
            assert!(p.iter().eq(keys.iter().copied()), "iter");
            for (i, k) in keys.iter().enumerate() {
                assert_eq!(p.get(i), Some(*k), "get({i})");
            }
            assert_eq!(p.get(keys.len()), None, "get past the end");
            assert_eq!(p.get(usize::MAX), None, "get(usize::MAX)");
        }
        Err(Error::BadOffsets { at }) => assert_eq!(want.err(), Some(at), "refused {offsets:?} at {at}"),
        Err(e) => panic!("unexpected error {e:?}"),
    }
}

/// The `packed` target.
pub fn check(data: &[u8]) {
    let _ = run(&mut Unstructured::new(data));
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let len = u.int_in_range(0..=40usize)?;
    let bytes: Vec<u8> = (0..len).map(|_| u.arbitrary()).collect::<Result<_>>()?;
    let count = u.int_in_range(0..=12usize)?;
    let kind = u.int_in_range(0..=2u8)?;
    let top = match kind {
        0 => u64::from(u32::MAX),
        _ => u64::MAX,
    };
    let mut wide: Vec<u64> = (0..count).map(|_| offset(u, len, top)).collect::<Result<_>>()?;
    if kind == 0 {
        wide.iter_mut().for_each(|o| *o = u64::from(*o as u32));
    }
    match kind {
        0 => check_parser(&bytes, &wide.iter().map(|&o| o as u32).collect::<Vec<u32>>(), &wide),
        1 => check_parser(&bytes, &wide, &wide),
        _ => check_parser(&bytes, &wide.iter().map(|&o| o as usize).collect::<Vec<usize>>(), &wide),
    }
    lookups(u, &bytes, &wide)
}

/// Batch owners through the core, the set and the C ABI agree with the
/// per-key owner, and refuse what the parser refuses, writing nothing then.
fn lookups(u: &mut Unstructured<'_>, bytes: &[u8], offsets: &[u64]) -> Result<()> {
    let nodes = u.int_in_range(0..=5usize)?;
    let ids: Vec<String> = (0..nodes).map(|i| format!("node-{i}")).collect();
    let weights: Vec<f64> = (0..nodes).map(|_| input::weight(u)).collect::<Result<_>>()?;
    let weights: Vec<f64> = weights
        .into_iter()
        .map(|w| if input::weight_is_valid(w) { w } else { 1.0 })
        .collect();
    let options = Options {
        backend: Some(input::backend(u)?),
        ..Options::default()
    };
    let set = Rendezvous::with_weights(ids.iter().zip(weights.iter().copied()), options, ModeOptions::Flat)
        .expect("valid nodes");
    let snap = set.snapshot();
    let keys = model(bytes, offsets);
    let out_len = match (&keys, u.int_in_range(0..=5u8)?) {
        (Ok(k), 0) => k.len() + 1,
        (Ok(k), 1) => k.len().saturating_sub(1),
        (Ok(k), _) => k.len(),
        (Err(_), _) => offsets.len().saturating_sub(1),
    };
    let eligible = weights.iter().any(|&w| w != 0.0);
    // What each layer must answer, from the model alone.
    let want: std::result::Result<Vec<u32>, longstraw_result> = match &keys {
        Err(_) => Err(LONGSTRAW_BAD_OFFSETS),
        Ok(k) if k.len() != out_len => Err(LONGSTRAW_LENGTH_MISMATCH),
        Ok(k) if k.is_empty() => Ok(Vec::new()),
        Ok(_) if !eligible => Err(LONGSTRAW_NO_ELIGIBLE_NODE),
        Ok(k) => Ok(k.iter().map(|key| snap.owner_index(key).expect("eligible")).collect()),
    };

    // The core, on the set's table.
    if let Ok(p) = PackedKeys::new(bytes, offsets) {
        let mut out = vec![u32::MAX; out_len];
        let got = snap.owners_into(&p, &mut out);
        match &want {
            Ok(w) => {
                got.unwrap_or_else(|e| panic!("owners_into: {e:?}"));
                assert_eq!(&out, w, "owners_into");
            }
            Err(_) => {
                assert!(got.is_err(), "owners_into accepted what the model refuses");
                assert!(out.iter().all(|&x| x == u32::MAX), "owners_into wrote on failure");
            }
        }
        let hashes: Vec<u64> = snap.nodes().map(|n| n.hash()).collect();
        let node_weights: Vec<f64> = snap.nodes().map(|n| n.weight()).collect();
        let table = NodeTable::new(0, &hashes, Some(&node_weights)).expect("valid");
        let mut again = vec![u32::MAX; out_len];
        assert_eq!(table.owners(&p, &mut again).is_ok(), want.is_ok(), "NodeTable::owners");
        if want.is_ok() {
            assert_eq!(again, out, "NodeTable::owners on the default backend");
        }
    }

    // The C ABI.
    let mut handle = std::ptr::null_mut();
    // SAFETY: `handle` is writable.
    let code = unsafe { longstraw_ffi::longstraw_rendezvous_new(std::ptr::null(), &mut handle) };
    assert_eq!(code, LONGSTRAW_OK);
    let r = handle;
    for (id, &w) in ids.iter().zip(&weights) {
        // SAFETY: live handle; id points to its bytes.
        let code = unsafe { longstraw_ffi::longstraw_rendezvous_add(r, id.as_ptr(), id.len(), w) };
        assert_eq!(code, LONGSTRAW_OK);
    }
    let mut s = std::ptr::null();
    assert_eq!(
        // SAFETY: live handle, writable out.
        unsafe { longstraw_ffi::longstraw_rendezvous_snapshot(r, &mut s) },
        LONGSTRAW_OK
    );
    let mut out = vec![u32::MAX; out_len];
    // SAFETY: every array is live for its stated length; `out` is separate.
    let code = unsafe {
        longstraw_ffi::longstraw_snapshot_owners(
            s,
            bytes.as_ptr(),
            bytes.len(),
            offsets.as_ptr(),
            offsets.len(),
            out.as_mut_ptr(),
            out.len(),
        )
    };
    match &want {
        Ok(w) => {
            assert_eq!(code, LONGSTRAW_OK, "longstraw_snapshot_owners");
            assert_eq!(&out, w, "longstraw_snapshot_owners");
        }
        Err(e) => {
            assert_eq!(code, *e, "longstraw_snapshot_owners code");
            assert!(
                out.iter().all(|&x| x == u32::MAX),
                "longstraw_snapshot_owners wrote on failure"
            );
        }
    }
    // Lengths no buffer can have are refused before any memory is touched:
    // the pointers below are valid for far fewer elements than stated.
    let huge = [
        usize::MAX,
        usize::MAX / 2,
        isize::MAX as usize,
        isize::MAX as usize / 4 + 1,
    ];
    let h = *u.choose(&huge)?;
    let mut one = [u32::MAX; 1];
    for (b, bl, o, ol, ou, oul) in [
        (bytes.as_ptr(), bytes.len(), offsets.as_ptr(), h, one.as_mut_ptr(), 1),
        (
            bytes.as_ptr(),
            bytes.len(),
            offsets.as_ptr(),
            offsets.len(),
            one.as_mut_ptr(),
            h,
        ),
    ] {
        // SAFETY: the stated lengths exceed isize::MAX bytes, which the ffi
        // refuses before making a slice.
        let code = unsafe { longstraw_ffi::longstraw_snapshot_owners(s, b, bl, o, ol, ou, oul) };
        assert_ne!(code, LONGSTRAW_OK, "a length of {h} was accepted");
        assert_eq!(one, [u32::MAX], "written on failure");
    }
    // NULL with a length is NULL_ARGUMENT; NULL with 0 is an empty array.
    // SAFETY: NULL pointers are checked before use.
    let code = unsafe {
        longstraw_ffi::longstraw_snapshot_owners(
            s,
            std::ptr::null(),
            3,
            offsets.as_ptr(),
            offsets.len(),
            out.as_mut_ptr(),
            out.len(),
        )
    };
    assert_eq!(code, LONGSTRAW_NULL_ARGUMENT, "NULL key bytes");
    // SAFETY: handles made above, each released once.
    unsafe {
        longstraw_ffi::longstraw_snapshot_free(s);
        longstraw_ffi::longstraw_rendezvous_free(r);
    }
    Ok(())
}
