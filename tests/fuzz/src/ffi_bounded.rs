//! `ffi_bounded`: random sequences of the C ABI's bounded-load calls
//! (`longstraw_bounded_*`, seeded and keyed) with NULL, misaligned and valid
//! arguments, against a [`BoundedLoad`] mirror driven through the same
//! sequence. Every code is a stable one and equals the mirror's; nothing is
//! written on failure; the node id a lease hands out stays readable after its
//! node is removed and after the set is freed, until the lease is released
//! (AddressSanitizer checks the reads).

use arbitrary::{Result, Unstructured};
use longstraw_ffi::longstraw_result::{self, *};
use longstraw_ffi::*;
use longstraw_set::{BoundedLoad, Options, OwnedLease, Placement, Secret, MIN_BALANCE_FACTOR};

use crate::ffi_calls::{code_of, ptr_kind, stable, Ptr, Slot};
use crate::input;

/// A lease from the C ABI, its mirror, and the id bytes it handed out.
struct Held {
    lease: *mut longstraw_lease,
    id: *const u8,
    id_len: usize,
    mirror: OwnedLease,
}

impl Held {
    fn check_id(&self, what: &str) {
        // SAFETY: the C ABI documents the id as valid until the lease is released.
        let id = unsafe { std::slice::from_raw_parts(self.id, self.id_len) };
        assert_eq!(id, self.mirror.node_id(), "{what}: the lease's id bytes");
    }
}

fn factor(u: &mut Unstructured<'_>) -> Result<f64> {
    Ok(*u.choose(&[
        1.25,
        1.25,
        1.25,
        2.0,
        MIN_BALANCE_FACTOR,
        1.0,
        f64::NAN,
        -1.0,
        f64::INFINITY,
    ])?)
}

/// Bytes passed as `(ptr, len)`: NULL with a non-zero length sometimes.
fn pass(bytes: &[u8], kind: Ptr) -> (*const u8, usize) {
    match kind {
        Ptr::Null if !bytes.is_empty() => (std::ptr::null(), bytes.len()),
        _ => (bytes.as_ptr(), bytes.len()),
    }
}

fn null_refusal(bytes: &[u8], kind: Ptr) -> Option<longstraw_result> {
    matches!(kind, Ptr::Null if !bytes.is_empty()).then_some(LONGSTRAW_NULL_ARGUMENT)
}

/// The `ffi_bounded` target.
pub fn check(data: &[u8]) {
    let _ = run(&mut Unstructured::new(data));
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let c = factor(u)?;
    let placement = if u.ratio(1, 8)? { u.int_in_range(0..=3u32)? } else { 1 };
    let keyed: bool = u.arbitrary()?;
    let mut out = Slot::<*mut longstraw_bounded>::new(std::ptr::dangling_mut(), ptr_kind(u)?);
    let (code, want) = if keyed {
        let len = if u.ratio(3, 4)? {
            16
        } else {
            u.int_in_range(0..=33usize)?
        };
        let secret = (0..len).map(|_| u.arbitrary::<u8>()).collect::<Result<Vec<u8>>>()?;
        let null_secret = u.ratio(1, 16)?;
        let ptr = if null_secret { std::ptr::null() } else { secret.as_ptr() };
        // A seed with a secret is refused by the set (the mirror says how).
        let seed: u64 = if u.ratio(1, 8)? { u.arbitrary()? } else { 0 };
        // SAFETY: `ptr` is NULL or points at `len` readable bytes; `out` is a slot of ours.
        let code = unsafe { longstraw_bounded_new(seed, ptr, len, placement, c, out.ptr()) };
        let want = out
            .refusal()
            .or((null_secret && len != 0).then_some(LONGSTRAW_NULL_ARGUMENT))
            .map(Err)
            .unwrap_or_else(|| {
                let options = (|| -> longstraw_set::Result<Options> {
                    Ok(Options {
                        seed: (seed != 0).then_some(seed),
                        // A NULL secret of length 0 is no secret.
                        secret: if null_secret {
                            None
                        } else {
                            Some(Secret::from_bytes(&secret)?)
                        },
                        placement: Placement::from_number(placement)?,
                        ..Options::default()
                    })
                })();
                Ok(options.and_then(|o| BoundedLoad::new(std::iter::empty::<&[u8]>(), o, c)))
            });
        (code, want)
    } else {
        let seed: u64 = u.arbitrary()?;
        // SAFETY: `out` is a slot of ours.
        let code = unsafe { longstraw_bounded_new(seed, std::ptr::null(), 0, placement, c, out.ptr()) };
        let want = out.refusal().map(Err).unwrap_or_else(|| {
            Ok(Placement::from_number(placement)
                .map_err(longstraw_set::Error::from)
                .and_then(|placement| {
                    let options = Options {
                        seed: (seed != 0).then_some(seed),
                        placement,
                        ..Options::default()
                    };
                    BoundedLoad::new(std::iter::empty::<&[u8]>(), options, c)
                }))
        });
        (code, want)
    };
    let code = stable(code, "bounded_new");
    let mirror = match want {
        Err(refused) => {
            assert_eq!(code, refused, "bounded_new");
            out.untouched("bounded_new");
            return Ok(());
        }
        Ok(built) => {
            assert_eq!(code, code_of(&built), "bounded_new (c {c}, placement {placement})");
            match built {
                Ok(m) => m,
                Err(_) => {
                    out.untouched("bounded_new");
                    return Ok(());
                }
            }
        }
    };
    let b = out.get();
    let mut held: Vec<Held> = Vec::new();
    for _ in 0..48 {
        if u.is_empty() {
            break;
        }
        match u.int_in_range(0..=9u8)? {
            0..=2 => {
                let (id, w, kind) = (input::id(u)?, input::weight(u)?, ptr_kind(u)?);
                let (p, len) = pass(&id, kind);
                let op = u.int_in_range(0..=2u8)?;
                // SAFETY: `b` is live; `p` is NULL or points at `len` bytes.
                let code = stable(
                    unsafe {
                        match op {
                            0 => longstraw_bounded_add(b, p, len, w),
                            1 => longstraw_bounded_remove(b, p, len),
                            _ => longstraw_bounded_set_weight(b, p, len, w),
                        }
                    },
                    "bounded change",
                );
                let want = null_refusal(&id, kind).unwrap_or_else(|| {
                    code_of(&match op {
                        0 => mirror.add(&id, w),
                        1 => mirror.remove(&id),
                        _ => mirror.set_weight(&id, w),
                    })
                });
                assert_eq!(code, want, "bounded change {op} of {id:?} weight {w}");
            }
            3..=5 => {
                let key = input::key(u)?;
                let key_kind = ptr_kind(u)?;
                let mut lease = Slot::<*mut longstraw_lease>::new(std::ptr::dangling_mut(), ptr_kind(u)?);
                let mut id = Slot::<*const u8>::new(std::ptr::dangling(), ptr_kind(u)?);
                let mut id_len = Slot::<usize>::new(usize::MAX, ptr_kind(u)?);
                let (p, len) = pass(&key, key_kind);
                // SAFETY: `b` is live; `p` is NULL or points at `len` bytes; the outs are slots of ours.
                let code = stable(
                    unsafe { longstraw_bounded_acquire(b, p, len, lease.ptr(), id.ptr(), id_len.ptr()) },
                    "acquire",
                );
                let refused = null_refusal(&key, key_kind)
                    .or(lease.refusal())
                    .or(id.refusal())
                    .or(id_len.refusal());
                match refused.map(Err).unwrap_or_else(|| Ok(mirror.acquire_owned(&key))) {
                    Err(want) => {
                        assert_eq!(code, want, "acquire refused");
                        lease.untouched("acquire");
                        id.untouched("acquire");
                        id_len.untouched("acquire");
                    }
                    Ok(Err(e)) => {
                        assert_eq!(code, code_of::<()>(&Err(e)), "acquire {key:?}");
                        lease.untouched("acquire");
                        id.untouched("acquire");
                        id_len.untouched("acquire");
                    }
                    Ok(Ok(m)) => {
                        assert_eq!(code, LONGSTRAW_OK, "acquire {key:?}");
                        let h = Held {
                            lease: lease.get(),
                            id: id.get(),
                            id_len: id_len.get(),
                            mirror: m,
                        };
                        h.check_id("acquire");
                        held.push(h);
                    }
                }
            }
            6 if !held.is_empty() => {
                let h = held.swap_remove(u.choose_index(held.len())?);
                h.check_id("before release");
                assert_eq!(
                    // SAFETY: a lease from longstraw_bounded_acquire, released once.
                    stable(unsafe { longstraw_bounded_release(h.lease) }, "release"),
                    LONGSTRAW_OK
                );
                drop(h.mirror);
            }
            6 => {
                // SAFETY: NULL is refused.
                let code = unsafe { longstraw_bounded_release(std::ptr::null_mut()) };
                assert_eq!(stable(code, "release NULL"), LONGSTRAW_NULL_ARGUMENT);
            }
            7 => {
                let mut n = Slot::<u64>::new(u64::MAX, ptr_kind(u)?);
                // SAFETY: `b` is live; `n` is a slot of ours.
                let code = stable(unsafe { longstraw_bounded_in_flight(b, n.ptr()) }, "in_flight");
                match n.refusal() {
                    Some(want) => {
                        assert_eq!(code, want, "in_flight refused");
                        n.untouched("in_flight");
                    }
                    None => {
                        assert_eq!(code, LONGSTRAW_OK, "in_flight");
                        assert_eq!(n.get(), mirror.in_flight(), "in_flight");
                        assert_eq!(n.get(), held.len() as u64, "in_flight counts the leases held");
                    }
                }
            }
            8 => {
                let (snap_now, want) = mirror.loads_with_snapshot();
                let cap = u.int_in_range(0..=want.len() + 2)?;
                let kind = ptr_kind(u)?;
                let mut loads = vec![u64::MAX; cap + 1];
                let loads_ptr = match kind {
                    Ptr::Valid => loads.as_mut_ptr(),
                    Ptr::Null => std::ptr::null_mut(),
                    Ptr::Misaligned => loads.as_mut_ptr().cast::<u8>().wrapping_add(1).cast(),
                };
                let mut snap = Slot::<*const longstraw_snapshot>::new(std::ptr::dangling(), ptr_kind(u)?);
                let mut count = Slot::<usize>::new(usize::MAX, ptr_kind(u)?);
                // SAFETY: `b` is live; `loads_ptr` is NULL or `cap` u64s (misaligned ones are refused unread).
                let code = stable(
                    unsafe { longstraw_bounded_loads(b, snap.ptr(), loads_ptr, cap, count.ptr()) },
                    "loads",
                );
                let buffer_refusal = match kind {
                    _ if cap == 0 => None,
                    Ptr::Valid => None,
                    Ptr::Null => Some(LONGSTRAW_NULL_ARGUMENT),
                    Ptr::Misaligned => Some(LONGSTRAW_MISALIGNED_POINTER),
                };
                match buffer_refusal.or(snap.refusal()).or(count.refusal()) {
                    Some(refused) => {
                        assert_eq!(code, refused, "loads refused");
                        assert!(loads.iter().all(|&l| l == u64::MAX), "loads written on failure");
                        snap.untouched("loads");
                        count.untouched("loads");
                    }
                    None => {
                        assert_eq!(code, LONGSTRAW_OK, "loads");
                        assert_eq!(count.get(), want.len(), "loads count");
                        let written = cap.min(want.len());
                        if matches!(kind, Ptr::Valid) {
                            assert_eq!(loads[..written], want[..written], "loads");
                            assert!(loads[written..].iter().all(|&l| l == u64::MAX), "loads past the count");
                        }
                        let s = snap.get();
                        let mut len = usize::MAX;
                        // SAFETY: a snapshot handle just returned, freed once below.
                        unsafe {
                            assert_eq!(longstraw_snapshot_len(s, &mut len), LONGSTRAW_OK);
                            longstraw_snapshot_free(s);
                        }
                        assert_eq!(len, snap_now.len(), "the loads' snapshot");
                    }
                }
            }
            _ => {}
        }
    }
    // The set goes first; its leases still read their ids and release cleanly.
    // SAFETY: `b` is live and not used after this.
    unsafe { longstraw_bounded_free(b) };
    drop(mirror);
    for h in held {
        h.check_id("after the set was freed");
        assert_eq!(
            // SAFETY: a lease from longstraw_bounded_acquire, released once.
            stable(unsafe { longstraw_bounded_release(h.lease) }, "release after free"),
            LONGSTRAW_OK
        );
    }
    Ok(())
}
