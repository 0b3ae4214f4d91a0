//! `ffi`: random sequences of exported C calls on valid and invalid handles,
//! lengths, NULLs and out-parameters (misaligned ones too), each checked
//! against a mirror built with `longstraw-set` directly. The contract holds
//! for every call: the code is a stable one (never
//! `LONGSTRAW_INTERNAL_ERROR`), the code equals the mirror's, nothing is
//! written on failure, and ids read back from old snapshots stay valid after
//! their set changed or was freed. Run under AddressSanitizer by `make fuzz`.

use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use longstraw::{PackedKeys, SkeletonShape};
use longstraw_ffi::longstraw_result::{self, *};
use longstraw_ffi::*;
use longstraw_set::{Members, ModeOptions, Options, Rendezvous, SkeletonOptions, Snapshot, TableOptions};

use crate::input;

/// A C set handle (one handle type for every mode) and the Rust set that
/// mirrors it, by the mode both were made in.
enum Set {
    Flat(*mut longstraw_rendezvous, Rendezvous),
    Table(*mut longstraw_rendezvous, Rendezvous),
    Skeleton(*mut longstraw_rendezvous, Rendezvous),
}

impl Set {
    fn handle(&self) -> *mut longstraw_rendezvous {
        match self {
            Set::Flat(h, _) | Set::Table(h, _) | Set::Skeleton(h, _) => *h,
        }
    }
}

/// A snapshot the mirror took at the same moment.
#[derive(Clone)]
struct Mirror(Arc<Snapshot>);

impl Mirror {
    fn members(&self) -> &Members {
        self.0.members()
    }
    fn mode(&self) -> longstraw_mode {
        self.0.mode().into()
    }
    fn owner(&self, key: &[u8]) -> Option<u32> {
        self.0.owner_index(key).ok()
    }
    fn top_k(&self, key: &[u8], k: usize, distinct: bool) -> Vec<u32> {
        let mut out = vec![0; k];
        let n = if distinct {
            self.0.top_k_distinct_into(key, &mut out)
        } else {
            self.0.top_k_into(key, &mut out)
        };
        out.truncate(n);
        out
    }
}

/// A code from the library: a stable one (one `longstraw_result_str` describes), never an internal error.
pub(crate) fn stable(code: longstraw_result, what: &str) -> longstraw_result {
    let n = code as i32;
    assert!(n >= 0, "{what}: code {n} is not a longstraw_result");
    assert_ne!(
        code, LONGSTRAW_INTERNAL_ERROR,
        "{what}: internal error (a caught panic)"
    );
    // SAFETY: a static NUL-terminated string for every integer.
    let text = unsafe { std::ffi::CStr::from_ptr(longstraw_result_str(n)) };
    assert!(
        !text.to_bytes().starts_with(b"unknown longstraw_result"),
        "{what}: code {n} has no description"
    );
    code
}

/// The mirror's outcome as the C code it must map to.
pub(crate) fn code_of<T>(r: &longstraw_set::Result<T>) -> longstraw_result {
    match r {
        Ok(_) => LONGSTRAW_OK,
        Err(e) => e.clone().into(),
    }
}

/// How an argument pointer is passed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ptr {
    Valid,
    Null,
    /// One byte past an aligned address: in bounds, misaligned for anything wider than a byte.
    Misaligned,
}

pub(crate) fn ptr_kind(u: &mut Unstructured<'_>) -> Result<Ptr> {
    Ok(match u.int_in_range(0..=15u8)? {
        0 => Ptr::Null,
        1 => Ptr::Misaligned,
        _ => Ptr::Valid,
    })
}

/// An out-parameter slot filled with a sentinel, handed out as `kind` says.
pub(crate) struct Slot<T: Copy> {
    buf: Vec<u64>,
    sentinel: T,
    kind: Ptr,
}

impl<T: Copy + PartialEq + std::fmt::Debug> Slot<T> {
    pub(crate) fn new(sentinel: T, kind: Ptr) -> Slot<T> {
        let words = std::mem::size_of::<T>().div_ceil(8) + 1;
        let mut s = Slot {
            buf: vec![0x5A5A_5A5A_5A5A_5A5A; words],
            sentinel,
            kind,
        };
        // SAFETY: the buffer holds at least one T at the aligned start.
        unsafe { s.buf.as_mut_ptr().cast::<T>().write(sentinel) };
        s
    }
    pub(crate) fn ptr(&mut self) -> *mut T {
        match self.kind {
            Ptr::Valid => self.buf.as_mut_ptr().cast(),
            Ptr::Null => std::ptr::null_mut(),
            Ptr::Misaligned => self.buf.as_mut_ptr().cast::<u8>().wrapping_add(1).cast(),
        }
    }
    pub(crate) fn get(&self) -> T {
        match self.kind {
            // A byte-aligned T handed out one byte in: the library wrote it there.
            // SAFETY: within the buffer; every byte pattern read here is a valid T.
            Ptr::Misaligned => unsafe { self.buf.as_ptr().cast::<u8>().add(1).cast::<T>().read_unaligned() },
            // SAFETY: initialised in `new`, possibly overwritten with a T.
            _ => unsafe { self.buf.as_ptr().cast::<T>().read() },
        }
    }
    /// The code a NULL or misaligned slot must produce, if any.
    pub(crate) fn refusal(&self) -> Option<longstraw_result> {
        match self.kind {
            Ptr::Valid => None,
            Ptr::Null => Some(LONGSTRAW_NULL_ARGUMENT),
            Ptr::Misaligned if std::mem::align_of::<T>() > 1 => Some(LONGSTRAW_MISALIGNED_POINTER),
            Ptr::Misaligned => None,
        }
    }
    /// Asserts nothing was written (the sentinel and the guard words are intact).
    pub(crate) fn untouched(&self, what: &str) {
        let fresh = Slot::new(self.sentinel, self.kind);
        assert_eq!(self.buf, fresh.buf, "{what}: an out-parameter was written on failure");
    }
}

/// The `ffi` target.
pub fn check(data: &[u8]) {
    let mut state = State::default();
    let _ = state.run(&mut Unstructured::new(data));
    state.release();
}

#[derive(Default)]
struct State {
    sets: Vec<Set>,
    snaps: Vec<(*const longstraw_snapshot, Mirror)>,
}

/// A snapshot handle argument: a live one, NULL, or a misaligned pointer (no handle is).
enum SnapArg {
    Live(usize),
    Null,
    BadTag,
}

impl State {
    fn release(&mut self) {
        for (s, _) in self.snaps.drain(..) {
            // SAFETY: live handles, each released once.
            unsafe { longstraw_snapshot_free(s) };
        }
        for set in self.sets.drain(..) {
            free_set(set);
        }
    }

    fn snap_arg(&self, u: &mut Unstructured<'_>) -> Result<SnapArg> {
        Ok(match u.int_in_range(0..=15u8)? {
            0 => SnapArg::Null,
            1 => SnapArg::BadTag,
            _ if self.snaps.is_empty() => SnapArg::Null,
            _ => SnapArg::Live(u.choose_index(self.snaps.len())?),
        })
    }

    fn snap_ptr(&self, a: &SnapArg) -> *const longstraw_snapshot {
        match a {
            SnapArg::Live(i) => self.snaps[*i].0,
            SnapArg::Null => std::ptr::null(),
            // A misaligned pointer is refused before it is dereferenced.
            SnapArg::BadTag => 0x1003 as *const longstraw_snapshot,
        }
    }

    fn run(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        for _ in 0..48 {
            if u.is_empty() {
                break;
            }
            match u.int_in_range(0..=15u8)? {
                0 => self.new_flat(u)?,
                1 => self.new_from_snapshot(u)?,
                2..=5 => self.change(u)?,
                6 => self.add_batch(u)?,
                7 => self.take_snapshot(u)?,
                8..=12 => self.lookup(u)?,
                13 => self.describe(u)?,
                14 if !self.snaps.is_empty() => {
                    let i = u.choose_index(self.snaps.len())?;
                    let (s, _) = self.snaps.swap_remove(i);
                    // SAFETY: a live handle, released once.
                    unsafe { longstraw_snapshot_free(s) };
                }
                15 if !self.sets.is_empty() => {
                    let i = u.choose_index(self.sets.len())?;
                    free_set(self.sets.swap_remove(i));
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn new_flat(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        let seed: Option<u64> = if u.arbitrary()? { Some(u.arbitrary()?) } else { None };
        let placement: u32 = *u.choose(&[1, 1, 1, 0, 2, u32::MAX])?;
        let opts = longstraw_options {
            has_seed: seed.is_some().into(),
            seed: seed.unwrap_or(0),
            placement,
            ..longstraw_options::default()
        };
        let mut out = Slot::new(std::ptr::null_mut::<longstraw_rendezvous>(), ptr_kind(u)?);
        // SAFETY: `opts` is a live local; the out slot is NULL, misaligned (refused) or writable.
        let code = stable(unsafe { longstraw_rendezvous_new(&opts, out.ptr()) }, "rendezvous_new");
        let want = out.refusal().unwrap_or(if placement == 1 {
            LONGSTRAW_OK
        } else {
            LONGSTRAW_UNKNOWN_PLACEMENT
        });
        assert_eq!(code, want, "rendezvous_new(placement {placement})");
        if code != LONGSTRAW_OK {
            out.untouched("rendezvous_new");
            return Ok(());
        }
        let mirror = Rendezvous::flat(
            std::iter::empty::<&[u8]>(),
            Options {
                seed,
                ..Options::default()
            },
        )
        .expect("empty set");
        self.sets.push(Set::Flat(out.get(), mirror));
        Ok(())
    }

    fn new_from_snapshot(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        let arg = self.snap_arg(u)?;
        let s = self.snap_ptr(&arg);
        let mirror = match &arg {
            SnapArg::Live(i) => Some(self.snaps[*i].1.clone()),
            _ => None,
        };
        let nodes = |m: &Mirror| -> Vec<(Vec<u8>, f64, Option<Vec<u8>>)> {
            m.members()
                .nodes()
                .map(|n| (n.id().to_vec(), n.weight(), n.domain().map(<[u8]>::to_vec)))
                .collect()
        };
        let options = |m: &Mirror| m.members().options();
        if u.arbitrary()? {
            let bits: u8 = *u.choose(&[0, 1, 3, 5, 6, 255, 25])?;
            let replicas: usize = *u.choose(&[1, 1, 2, 3, 32, 0, 33, usize::MAX])?;
            let flags: u32 = *u.choose(&[0, 0, 1, 2])?;
            let opts = longstraw_options {
                mode: longstraw_mode::LONGSTRAW_MODE_TABLE as u32,
                partition_bits: bits,
                replicas,
                table_flags: flags,
                ..longstraw_options::default()
            };
            let mut out = Slot::new(std::ptr::null_mut::<longstraw_rendezvous>(), ptr_kind(u)?);
            // SAFETY: `s` is live, NULL or refused by its tag; `opts` is a live local; the out slot as in `new_flat`.
            let code = stable(
                unsafe { longstraw_rendezvous_new_from(s, &opts, out.ptr()) },
                "table_new",
            );
            let want = match &mirror {
                None => Err(if matches!(arg, SnapArg::Null) {
                    LONGSTRAW_NULL_ARGUMENT
                } else {
                    LONGSTRAW_MISALIGNED_POINTER
                }),
                Some(_) if out.refusal().is_some() => Err(out.refusal().unwrap_or(LONGSTRAW_OK)),
                Some(_) if flags > 1 => Err(LONGSTRAW_INVALID_PARAMETER),
                Some(m) => Rendezvous::new(
                    nodes(m),
                    options(m),
                    ModeOptions::Table(TableOptions {
                        partition_bits: (bits != 255).then_some(bits),
                        replicas,
                        distinct_domains: flags == 1,
                        balance: None,
                    }),
                )
                .map_err(|e| e.into()),
            };
            match want {
                Ok(table) => {
                    assert_eq!(code, LONGSTRAW_OK, "table_new({bits}, {replicas}, {flags})");
                    self.sets.push(Set::Table(out.get(), table));
                }
                Err(w) => {
                    assert_eq!(code, w, "table_new({bits}, {replicas}, {flags})");
                    out.untouched("table_new");
                }
            }
        } else {
            let fanout: u8 = *u.choose(&[0, 1, 2, 3, 7, 255])?;
            let levels: u8 = *u.choose(&[0, 1, 2, 3, 6, 255])?;
            let opts = longstraw_options {
                mode: longstraw_mode::LONGSTRAW_MODE_SKELETON as u32,
                fanout_bits: fanout,
                levels,
                ..longstraw_options::default()
            };
            let mut out = Slot::new(std::ptr::null_mut::<longstraw_rendezvous>(), ptr_kind(u)?);
            // SAFETY: as for the table.
            let code = stable(
                unsafe { longstraw_rendezvous_new_from(s, &opts, out.ptr()) },
                "skeleton_new",
            );
            let shape = match (fanout, levels) {
                (255, 255) => Ok(None),
                (255, _) | (_, 255) => Err(LONGSTRAW_INVALID_PARAMETER),
                (f, l) => SkeletonShape::new(f, l).map(Some).map_err(|e| e.into()),
            };
            let want = match (&mirror, shape) {
                (None, _) => Err(if matches!(arg, SnapArg::Null) {
                    LONGSTRAW_NULL_ARGUMENT
                } else {
                    LONGSTRAW_MISALIGNED_POINTER
                }),
                (Some(_), _) if out.refusal().is_some() => Err(out.refusal().unwrap_or(LONGSTRAW_OK)),
                (Some(_), Err(e)) => Err(e),
                (Some(m), Ok(shape)) => {
                    Rendezvous::new(nodes(m), options(m), ModeOptions::Skeleton(SkeletonOptions { shape }))
                        .map_err(|e| e.into())
                }
            };
            match want {
                Ok(sk) => {
                    assert_eq!(code, LONGSTRAW_OK, "skeleton_new({fanout}, {levels})");
                    self.sets.push(Set::Skeleton(out.get(), sk));
                }
                Err(w) => {
                    assert_eq!(code, w, "skeleton_new({fanout}, {levels})");
                    out.untouched("skeleton_new");
                }
            }
        }
        Ok(())
    }

    fn change(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        let null_set = self.sets.is_empty() || u.ratio(1, 16)?;
        let which = if null_set {
            None
        } else {
            Some(u.choose_index(self.sets.len())?)
        };
        let id = input::id(u)?;
        let id_ptr = ptr_kind(u)?;
        // An id pointer that is NULL with a length, or a length of SIZE_MAX.
        let (ip, il) = match id_ptr {
            Ptr::Null if !id.is_empty() => (std::ptr::null(), id.len()),
            Ptr::Misaligned => (std::ptr::null(), usize::MAX),
            _ => (id.as_ptr(), id.len()),
        };
        let weight = input::weight(u)?;
        let domain = input::domain(u)?.unwrap_or_default();
        let op = u.int_in_range(0..=4u8)?;
        let code = match which.map(|i| &self.sets[i]) {
            None => {
                // SAFETY: a NULL handle with a valid id: refused before anything is read.
                let code = unsafe { longstraw_rendezvous_remove(std::ptr::null_mut(), b"node-1".as_ptr(), 6) };
                assert_eq!(stable(code, "remove on NULL"), LONGSTRAW_NULL_ARGUMENT);
                return Ok(());
            }
            Some(set) => {
                let (dp, dl) = (domain.as_ptr(), domain.len());
                let h = set.handle();
                // SAFETY: live handle; ids and labels point to their bytes (or are NULL with a length).
                unsafe {
                    match op {
                        0 => longstraw_rendezvous_add(h, ip, il, weight),
                        1 => longstraw_rendezvous_add_in_domain(h, ip, il, weight, dp, dl),
                        2 => longstraw_rendezvous_remove(h, ip, il),
                        3 => longstraw_rendezvous_set_weight(h, ip, il, weight),
                        _ => longstraw_rendezvous_set_domain(h, ip, il, dp, dl),
                    }
                }
            }
        };
        let code = stable(code, "change");
        let set = &self.sets[which.expect("checked above")];
        let label = (!domain.is_empty()).then_some(domain.as_slice());
        // What the mirror answers; the C-only checks (id pointer and length) come first.
        let too_long = if op <= 1 {
            LONGSTRAW_INVALID_NODE_ID
        } else {
            LONGSTRAW_UNKNOWN_NODE
        };
        let want = match id_ptr {
            Ptr::Misaligned => too_long,
            Ptr::Null if !id.is_empty() && id.len() > longstraw::MAX_NODE_ID_LEN => too_long,
            Ptr::Null if !id.is_empty() => LONGSTRAW_NULL_ARGUMENT,
            _ if (op == 1 || op == 4) && domain.len() > longstraw::MAX_NODE_ID_LEN => LONGSTRAW_INVALID_DOMAIN,
            _ => macro_mirror(set, op, &id, weight, label),
        };
        if id.len() > longstraw::MAX_NODE_ID_LEN && matches!(id_ptr, Ptr::Valid) {
            assert_eq!(code, too_long, "change {op} with a {} byte id", id.len());
        } else {
            assert_eq!(
                code,
                want,
                "change {op} on {id:?} weight {weight:?} domain len {}",
                domain.len()
            );
        }
        Ok(())
    }

    fn add_batch(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        if self.sets.is_empty() {
            return Ok(());
        }
        let which = u.choose_index(self.sets.len())?;
        let count = u.int_in_range(0..=4usize)?;
        let mut ids = Vec::new();
        let mut offsets = vec![0u64];
        let mut weights = Vec::new();
        for _ in 0..count {
            let id = input::id(u)?;
            ids.extend_from_slice(&id[..id.len().min(64)]);
            offsets.push(ids.len() as u64);
            weights.push(input::weight(u)?);
        }
        if u.ratio(1, 6)? {
            // Out of order or past the end: BAD_OFFSETS.
            let i = u.choose_index(offsets.len())?;
            offsets[i] = u.arbitrary()?;
        }
        let weights_len = match u.int_in_range(0..=5u8)? {
            0 => 0,
            1 => weights.len() + 1,
            _ => weights.len(),
        };
        weights.resize(weights_len, 1.0);
        let (wp, wl) = if weights_len == 0 {
            (std::ptr::null(), 0)
        } else {
            (weights.as_ptr(), weights_len)
        };
        // Labels in the packed layout too (an empty label is none), for the `_in_domains` variants.
        let with_domains = u.arbitrary::<bool>()?;
        let mut labels = Vec::new();
        let mut label_offsets = vec![0u64];
        for _ in 0..count + usize::from(u.ratio(1, 8)?) {
            labels.extend_from_slice(&input::domain(u)?.unwrap_or_default());
            label_offsets.push(labels.len() as u64);
        }
        let (lp, ll, lo, lol) = (
            labels.as_ptr(),
            labels.len(),
            label_offsets.as_ptr(),
            label_offsets.len(),
        );
        let (ip, il, op, ol) = (ids.as_ptr(), ids.len(), offsets.as_ptr(), offsets.len());
        // SAFETY: live handle; every array points to its stated length.
        let (lp, ll, lo, lol) = if with_domains {
            (lp, ll, lo, lol)
        } else {
            (std::ptr::null(), 0, std::ptr::null(), 0)
        };
        let h = self.sets[which].handle();
        // SAFETY: a live handle from this mirror, with pointers to live bytes and their lengths.
        let code = unsafe { longstraw_rendezvous_add_batch(h, ip, il, op, ol, wp, wl, lp, ll, lo, lol) };
        let code = stable(code, "add_batch");
        let label_keys = PackedKeys::new(&labels, &label_offsets);
        let want = match PackedKeys::new(&ids, &offsets) {
            Err(_) => LONGSTRAW_BAD_OFFSETS,
            _ if with_domains && label_keys.is_err() => LONGSTRAW_BAD_OFFSETS,
            Ok(p) if wl != 0 && wl != p.len() => LONGSTRAW_LENGTH_MISMATCH,
            Ok(p) if with_domains && label_keys.as_ref().map_or(0, |l| l.len()) != p.len() => LONGSTRAW_LENGTH_MISMATCH,
            Ok(p) => {
                #[allow(clippy::type_complexity)]
                let nodes: Vec<(&[u8], f64, Option<&[u8]>)> = p
                    .iter()
                    .enumerate()
                    .map(|(i, id)| {
                        let w = weights.get(i).copied().filter(|_| wl != 0).unwrap_or(1.0);
                        let label = label_keys
                            .as_ref()
                            .ok()
                            .filter(|_| with_domains)
                            .and_then(|l| l.get(i))
                            .filter(|l| !l.is_empty());
                        (id, w, label)
                    })
                    .collect();
                macro_rules! add_all {
                    ($m:expr) => {
                        $m.update(|up| {
                            nodes.iter().try_for_each(|&(id, w, d)| match d {
                                Some(d) => up.add_in_domain(id, w, d),
                                None => up.add(id, w),
                            })
                        })
                    };
                }
                code_of(&match &self.sets[which] {
                    Set::Flat(_, m) => add_all!(m),
                    Set::Table(_, m) => add_all!(m),
                    Set::Skeleton(_, m) => add_all!(m),
                })
            }
        };
        assert_eq!(
            code, want,
            "add_batch of {count} ids, offsets {offsets:?}, {wl} weights"
        );
        Ok(())
    }

    fn take_snapshot(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        if self.sets.is_empty() {
            return Ok(());
        }
        let which = u.choose_index(self.sets.len())?;
        let mut out = Slot::new(std::ptr::null::<longstraw_snapshot>(), ptr_kind(u)?);
        let mut len = Slot::new(usize::MAX, ptr_kind(u)?);
        let h = self.sets[which].handle();
        // SAFETY: live handle; slots NULL, misaligned (refused) or writable.
        let (code, len_code) = unsafe {
            (
                longstraw_rendezvous_snapshot(h, out.ptr()),
                longstraw_rendezvous_len(h, len.ptr()),
            )
        };
        let mirror = match &self.sets[which] {
            Set::Flat(_, m) | Set::Table(_, m) | Set::Skeleton(_, m) => Mirror(m.snapshot()),
        };
        assert_eq!(stable(len_code, "len"), len.refusal().unwrap_or(LONGSTRAW_OK), "len");
        if len_code == LONGSTRAW_OK {
            assert_eq!(len.get(), mirror.members().len(), "len");
        } else {
            len.untouched("len");
        }
        assert_eq!(
            stable(code, "snapshot"),
            out.refusal().unwrap_or(LONGSTRAW_OK),
            "snapshot"
        );
        if code == LONGSTRAW_OK {
            self.snaps.push((out.get(), mirror));
        } else {
            out.untouched("snapshot");
        }
        Ok(())
    }

    fn lookup(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        let arg = self.snap_arg(u)?;
        let s = self.snap_ptr(&arg);
        let handle_refusal = match arg {
            SnapArg::Live(_) => None,
            SnapArg::Null => Some(LONGSTRAW_NULL_ARGUMENT),
            SnapArg::BadTag => Some(LONGSTRAW_MISALIGNED_POINTER),
        };
        let mirror = match arg {
            SnapArg::Live(i) => Some(self.snaps[i].1.clone()),
            _ => None,
        };
        let key = input::key(u)?;
        let key_null = u.ratio(1, 16)? && !key.is_empty();
        let (kp, kl) = if key_null {
            (std::ptr::null(), key.len())
        } else {
            (key.as_ptr(), key.len())
        };
        let eligible = mirror.as_ref().map_or(0, |m| m.members().eligible());
        match u.int_in_range(0..=2u8)? {
            0 => {
                let mut index = Slot::new(u32::MAX, ptr_kind(u)?);
                let mut id = Slot::new(std::ptr::null::<u8>(), ptr_kind(u)?);
                let mut id_len = Slot::new(usize::MAX, ptr_kind(u)?);
                // SAFETY: `s` live, NULL or refused by its tag; key as stated; slots as in `new_flat`.
                let code = stable(
                    unsafe { longstraw_snapshot_owner(s, kp, kl, index.ptr(), id.ptr(), id_len.ptr()) },
                    "owner",
                );
                let want = handle_refusal
                    .or(key_null.then_some(LONGSTRAW_NULL_ARGUMENT))
                    .or(index.refusal())
                    .or(id.refusal())
                    .or(id_len.refusal());
                let m = mirror.as_ref();
                match (want, m.and_then(|m| m.owner(&key))) {
                    (Some(w), _) => assert_eq!(code, w, "owner"),
                    (None, None) => assert_eq!(code, LONGSTRAW_NO_ELIGIBLE_NODE, "owner"),
                    (None, Some(o)) => {
                        assert_eq!(code, LONGSTRAW_OK, "owner");
                        assert_eq!(index.get(), o, "owner index");
                        let node = m.and_then(|m| m.members().node(o)).expect("mirror node");
                        // SAFETY: the id points into the live snapshot (ASan checks it still does).
                        let got = unsafe { std::slice::from_raw_parts(id.get(), id_len.get()) };
                        assert_eq!(got, node.id(), "owner id");
                    }
                }
                if code != LONGSTRAW_OK {
                    index.untouched("owner index");
                    id.untouched("owner id");
                    id_len.untouched("owner id_len");
                }
            }
            op => {
                // top_k (op 1, or rank) and top_k_distinct (op 2).
                let rank = op == 1 && u.arbitrary()?;
                let k = u.int_in_range(0..=eligible + 2)?;
                let out_kind = if k == 0 { Ptr::Valid } else { ptr_kind(u)? };
                let mut buf = vec![u32::MAX; k + 1];
                let out = match out_kind {
                    Ptr::Valid => buf.as_mut_ptr(),
                    Ptr::Null => std::ptr::null_mut(),
                    Ptr::Misaligned => buf.as_mut_ptr().cast::<u8>().wrapping_add(1).cast(),
                };
                let mut written = Slot::new(usize::MAX, ptr_kind(u)?);
                // SAFETY: `out` is NULL, misaligned (refused) or k + 1 writable u32s.
                let code = stable(
                    unsafe {
                        match (op, rank) {
                            (1, false) => longstraw_snapshot_top_k(s, kp, kl, out, k, written.ptr()),
                            (1, true) => longstraw_snapshot_rank(s, kp, kl, out, k, written.ptr()),
                            _ => longstraw_snapshot_top_k_distinct(s, kp, kl, out, k, written.ptr()),
                        }
                    },
                    "top_k",
                );
                let out_refusal = match out_kind {
                    Ptr::Valid => None,
                    Ptr::Null => Some(LONGSTRAW_NULL_ARGUMENT),
                    Ptr::Misaligned => Some(LONGSTRAW_MISALIGNED_POINTER),
                };
                let want = handle_refusal
                    .or(key_null.then_some(LONGSTRAW_NULL_ARGUMENT))
                    .or(out_refusal)
                    .or(written.refusal())
                    .or((rank && k < eligible).then_some(LONGSTRAW_BUFFER_TOO_SMALL))
                    .unwrap_or(LONGSTRAW_OK);
                assert_eq!(code, want, "top_k op {op} rank {rank} k {k}");
                if code == LONGSTRAW_OK {
                    let m = mirror.expect("a live snapshot");
                    let expect = m.top_k(&key, k, op == 2);
                    assert_eq!(written.get(), expect.len(), "written");
                    assert_eq!(buf[..expect.len()], expect[..], "top_k op {op}");
                    assert_eq!(buf[k], u32::MAX, "wrote past k");
                } else {
                    assert!(buf.iter().all(|&x| x == u32::MAX), "top_k wrote on failure");
                    written.untouched("written");
                }
            }
        }
        Ok(())
    }

    fn describe(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        let arg = self.snap_arg(u)?;
        let s = self.snap_ptr(&arg);
        let handle_refusal = match arg {
            SnapArg::Live(_) => None,
            SnapArg::Null => Some(LONGSTRAW_NULL_ARGUMENT),
            SnapArg::BadTag => Some(LONGSTRAW_MISALIGNED_POINTER),
        };
        let mirror = match arg {
            SnapArg::Live(i) => Some(self.snaps[i].1.clone()),
            _ => None,
        };
        let len = mirror.as_ref().map_or(0, |m| m.members().len());
        let index: u32 = if u.ratio(1, 4)? {
            u.arbitrary()?
        } else {
            u.int_in_range(0..=len as u32)?
        };
        match u.int_in_range(0..=6u8)? {
            0 => {
                let mut id = Slot::new(std::ptr::null::<u8>(), ptr_kind(u)?);
                let mut id_len = Slot::new(usize::MAX, ptr_kind(u)?);
                let mut weight = Slot::new(-7.0f64, ptr_kind(u)?);
                // SAFETY: as in `lookup`.
                let code = stable(
                    unsafe { longstraw_snapshot_node(s, index, id.ptr(), id_len.ptr(), weight.ptr()) },
                    "node",
                );
                let node = mirror.as_ref().and_then(|m| m.members().node(index));
                let want = handle_refusal
                    .or(id.refusal())
                    .or(id_len.refusal())
                    .or(weight.refusal())
                    .or(node.is_none().then_some(LONGSTRAW_INDEX_OUT_OF_RANGE))
                    .unwrap_or(LONGSTRAW_OK);
                assert_eq!(code, want, "node({index})");
                if let (LONGSTRAW_OK, Some(n)) = (code, node) {
                    assert_eq!(
                        // SAFETY: points into the live snapshot.
                        unsafe { std::slice::from_raw_parts(id.get(), id_len.get()) },
                        n.id(),
                        "node id"
                    );
                    assert_eq!(weight.get().to_bits(), n.weight().to_bits(), "node weight");
                } else {
                    id.untouched("node id");
                    id_len.untouched("node id_len");
                    weight.untouched("node weight");
                }
            }
            1 => {
                let mut domain = Slot::new(std::ptr::null::<u8>(), ptr_kind(u)?);
                let mut domain_len = Slot::new(usize::MAX, ptr_kind(u)?);
                // SAFETY: as in `lookup`.
                let code = stable(
                    unsafe { longstraw_snapshot_domain(s, index, domain.ptr(), domain_len.ptr()) },
                    "domain",
                );
                let node = mirror.as_ref().and_then(|m| m.members().node(index));
                let want = handle_refusal
                    .or(domain.refusal())
                    .or(domain_len.refusal())
                    .or(node.is_none().then_some(LONGSTRAW_INDEX_OUT_OF_RANGE))
                    .unwrap_or(LONGSTRAW_OK);
                assert_eq!(code, want, "domain({index})");
                if let (LONGSTRAW_OK, Some(n)) = (code, node) {
                    let got = if domain.get().is_null() {
                        assert_eq!(domain_len.get(), 0, "a NULL label has length 0");
                        None
                    } else {
                        // SAFETY: points into the live snapshot.
                        Some(unsafe { std::slice::from_raw_parts(domain.get(), domain_len.get()) })
                    };
                    assert_eq!(got, n.domain(), "domain label");
                } else {
                    domain.untouched("domain");
                    domain_len.untouched("domain_len");
                }
            }
            2 => {
                let id = input::id(u)?;
                let mut out = Slot::new(u32::MAX, ptr_kind(u)?);
                // SAFETY: as in `lookup`.
                let code = stable(
                    unsafe { longstraw_snapshot_index_of(s, id.as_ptr(), id.len(), out.ptr()) },
                    "index_of",
                );
                let found = mirror.as_ref().and_then(|m| m.members().index_of(&id));
                let want = handle_refusal
                    .or(out.refusal())
                    .or(found.is_none().then_some(LONGSTRAW_UNKNOWN_NODE))
                    .unwrap_or(LONGSTRAW_OK);
                assert_eq!(code, want, "index_of");
                if code == LONGSTRAW_OK {
                    assert_eq!(Some(out.get()), found, "index_of");
                } else {
                    out.untouched("index_of");
                }
            }
            3 => {
                let mut mode = Slot::new(u32::MAX, ptr_kind(u)?);
                // SAFETY: as in `lookup`; the mode is a 4-byte C enum.
                let code = stable(unsafe { longstraw_snapshot_mode(s, mode.ptr().cast()) }, "mode");
                assert_eq!(code, handle_refusal.or(mode.refusal()).unwrap_or(LONGSTRAW_OK), "mode");
                match &mirror {
                    Some(m) if code == LONGSTRAW_OK => assert_eq!(mode.get(), m.mode() as u32, "mode"),
                    _ => mode.untouched("mode"),
                }
            }
            4 => {
                let mut seed = Slot::new(u64::MAX - 3, ptr_kind(u)?);
                let mut placement = Slot::new(u32::MAX, ptr_kind(u)?);
                let mut backend = Slot::new(std::ptr::null::<std::ffi::c_char>(), ptr_kind(u)?);
                // SAFETY: as in `lookup`.
                let (a, b, c) = unsafe {
                    (
                        longstraw_snapshot_seed(s, seed.ptr()),
                        longstraw_snapshot_placement(s, placement.ptr()),
                        longstraw_snapshot_backend(s, backend.ptr()),
                    )
                };
                assert_eq!(
                    stable(a, "seed"),
                    handle_refusal.or(seed.refusal()).unwrap_or(LONGSTRAW_OK),
                    "seed"
                );
                assert_eq!(
                    stable(b, "placement"),
                    handle_refusal.or(placement.refusal()).unwrap_or(LONGSTRAW_OK),
                    "placement"
                );
                assert_eq!(
                    stable(c, "backend"),
                    handle_refusal.or(backend.refusal()).unwrap_or(LONGSTRAW_OK),
                    "backend"
                );
                match &mirror {
                    Some(m) if a == LONGSTRAW_OK => assert_eq!(seed.get(), m.members().seed().unwrap_or(0), "seed"),
                    _ => seed.untouched("seed"),
                }
                match &mirror {
                    Some(m) if b == LONGSTRAW_OK => {
                        assert_eq!(placement.get(), m.members().placement().number(), "placement")
                    }
                    _ => placement.untouched("placement"),
                }
                if c == LONGSTRAW_OK {
                    // SAFETY: a static NUL-terminated name.
                    let name = unsafe { std::ffi::CStr::from_ptr(backend.get()) };
                    let want = mirror.as_ref().map(|m| m.members().backend().name());
                    assert_eq!(name.to_str().ok(), want, "backend name");
                } else {
                    backend.untouched("backend");
                }
            }
            5 => self.shape(u)?,
            _ => {
                let mut gen = Slot::new(u64::MAX - 1, ptr_kind(u)?);
                let mut eligible = Slot::new(usize::MAX, ptr_kind(u)?);
                // SAFETY: as in `lookup`.
                let (a, b) = unsafe {
                    (
                        longstraw_snapshot_generation(s, gen.ptr()),
                        longstraw_snapshot_eligible(s, eligible.ptr()),
                    )
                };
                assert_eq!(
                    stable(a, "generation"),
                    handle_refusal.or(gen.refusal()).unwrap_or(LONGSTRAW_OK)
                );
                assert_eq!(
                    stable(b, "eligible"),
                    handle_refusal.or(eligible.refusal()).unwrap_or(LONGSTRAW_OK)
                );
                match &mirror {
                    Some(m) if a == LONGSTRAW_OK => assert_eq!(gen.get(), m.members().generation(), "generation"),
                    _ => gen.untouched("generation"),
                }
                match &mirror {
                    Some(m) if b == LONGSTRAW_OK => assert_eq!(eligible.get(), m.members().eligible(), "eligible"),
                    _ => eligible.untouched("eligible"),
                }
            }
        }
        Ok(())
    }
}

impl State {
    /// `longstraw_snapshot_table_shape`, `longstraw_snapshot_skeleton_shape`
    /// and `longstraw_snapshot_partition` against the mirror: each answers on
    /// its own mode and is `LONGSTRAW_WRONG_MODE` on the others.
    fn shape(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        if self.sets.is_empty() {
            let code = u.arbitrary::<i32>()?;
            // SAFETY: any integer gets a static NUL-terminated string.
            let text = unsafe { std::ffi::CStr::from_ptr(longstraw_result_str(code)) };
            assert!(!text.to_bytes().is_empty(), "result_str({code}) is empty");
            return Ok(());
        }
        let which = u.choose_index(self.sets.len())?;
        let mut snap = std::ptr::null();
        // SAFETY: live handle, writable out-parameter.
        let code = unsafe { longstraw_rendezvous_snapshot(self.sets[which].handle(), &mut snap) };
        assert_eq!(stable(code, "snapshot"), LONGSTRAW_OK, "snapshot");
        let set = &self.sets[which];
        let mut bits = Slot::new(0xEEu8, ptr_kind(u)?);
        let mut replicas = Slot::new(usize::MAX, ptr_kind(u)?);
        let mut flags = Slot::new(u32::MAX, ptr_kind(u)?);
        let mut balance = Slot::new(-1.0f64, ptr_kind(u)?);
        // SAFETY: live snapshot; slots NULL, misaligned (refused) or writable.
        let code = stable(
            unsafe { longstraw_snapshot_table_shape(snap, bits.ptr(), replicas.ptr(), flags.ptr(), balance.ptr()) },
            "table_shape",
        );
        let refusal = bits
            .refusal()
            .or(replicas.refusal())
            .or(flags.refusal())
            .or(balance.refusal());
        let want = refusal.unwrap_or(if matches!(set, Set::Table(..)) {
            LONGSTRAW_OK
        } else {
            LONGSTRAW_WRONG_MODE
        });
        assert_eq!(code, want, "table_shape");
        match set {
            Set::Table(_, m) if code == LONGSTRAW_OK => {
                let snap = m.snapshot();
                let t = snap.as_table().expect("a table");
                assert_eq!(bits.get(), t.partition_bits(), "table bits");
                assert_eq!(replicas.get(), t.replicas(), "table replicas");
                assert_eq!(flags.get(), u32::from(t.distinct_domains()), "table flags");
                assert_eq!(balance.get(), t.balance().map_or(0.0, |b| b.as_f64()), "table balance");
            }
            _ => {
                bits.untouched("bits");
                replicas.untouched("replicas");
                flags.untouched("flags");
                balance.untouched("balance");
            }
        }
        let mut fanout = Slot::new(0xEEu8, ptr_kind(u)?);
        let mut levels = Slot::new(0xEEu8, ptr_kind(u)?);
        // SAFETY: as above.
        let code = stable(
            unsafe { longstraw_snapshot_skeleton_shape(snap, fanout.ptr(), levels.ptr()) },
            "skeleton_shape",
        );
        let want = fanout
            .refusal()
            .or(levels.refusal())
            .unwrap_or(if matches!(set, Set::Skeleton(..)) {
                LONGSTRAW_OK
            } else {
                LONGSTRAW_WRONG_MODE
            });
        assert_eq!(code, want, "skeleton_shape");
        match set {
            Set::Skeleton(_, m) if code == LONGSTRAW_OK => {
                let shape = m.snapshot().shape().expect("a skeleton");
                let want_fanout = if shape.levels() == 0 { 0 } else { shape.fanout_bits() };
                assert_eq!(
                    (fanout.get(), levels.get()),
                    (want_fanout, shape.levels()),
                    "skeleton shape"
                );
            }
            _ => {
                fanout.untouched("fanout");
                levels.untouched("levels");
            }
        }
        let key = input::id(u)?;
        let mut partition = Slot::new(u32::MAX, ptr_kind(u)?);
        // SAFETY: as above; the key points to its bytes.
        let code = stable(
            unsafe { longstraw_snapshot_partition(snap, key.as_ptr(), key.len(), partition.ptr()) },
            "partition",
        );
        match set {
            Set::Table(_, m) => {
                assert_eq!(code, partition.refusal().unwrap_or(LONGSTRAW_OK), "partition");
                if code == LONGSTRAW_OK {
                    assert_eq!(Ok(partition.get()), m.snapshot().partition(&key), "partition");
                } else {
                    partition.untouched("partition");
                }
            }
            _ => {
                assert_eq!(code, partition.refusal().unwrap_or(LONGSTRAW_WRONG_MODE), "partition");
                partition.untouched("partition");
            }
        }
        // SAFETY: the live snapshot taken above, released once.
        unsafe { longstraw_snapshot_free(snap) };
        Ok(())
    }
}

/// The mirror's answer to one change, as a C code.
fn macro_mirror(set: &Set, op: u8, id: &[u8], weight: f64, label: Option<&[u8]>) -> longstraw_result {
    macro_rules! apply {
        ($m:expr) => {
            match (op, label) {
                (0, _) | (1, None) => code_of(&$m.add(id, weight)),
                (1, Some(d)) => code_of(&$m.add_in_domain(id, weight, d)),
                (2, _) => code_of(&$m.remove(id)),
                (3, _) => code_of(&$m.set_weight(id, weight)),
                _ => code_of(&$m.set_domain(id, label)),
            }
        };
    }
    match set {
        Set::Flat(_, m) => apply!(m),
        Set::Table(_, m) => apply!(m),
        Set::Skeleton(_, m) => apply!(m),
    }
}

fn free_set(set: Set) {
    // SAFETY: live handles, each released once; snapshots taken from them stay valid.
    unsafe { longstraw_rendezvous_free(set.handle()) }
}
