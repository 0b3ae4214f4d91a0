//! The weighted owner of a table whose eligible nodes are grouped by weight
//! ([`crate::classes`]): the plain argmax's loop over each class, with no
//! horizontal reduction per class, then one vector pass that reduces every
//! class's lanes to its leader, and one bound check over the leaders.
//!
//! Within one class the weighted score is non-decreasing in the raw score
//! and equal weighted scores are broken by raw score (SPEC.md §5.2, §6), so
//! the class's largest raw score (its leader) ranks before every other node
//! of the class: only the leaders, one per class, can own the key.
//! [`Vector::row_maxima`] puts `LANES` classes' leaders in one vector. Each
//! leader gets the lane race's bounds of `E = -weighted_score` (see
//! [`super::lane_race`]): an upper bound `fl(H fl(fl(1 / w) LANE_E_HIGH))`
//! with `H` from [`neg_ln_upper`], and a lower bound `fl(p fl(fl(1 / w)
//! LANE_E_LOW))`, both scales made once when the layout is built (see
//! [`crate::classes::ClassHeader`]). Each is three roundings (`3 2^-53`)
//! from the lane race's `fl(fl(H / w) LANE_E_HIGH)` and `fl(fl(p / w)
//! LANE_E_LOW)`, whose proofs allow an approximate division (`2^-14`) in
//! their place, so the same margins of `2^-11` pay for them. Let `m` be the
//! smallest upper bound; the owner's `E` is at most `m`, so its lower bound
//! is too. If exactly one leader has a lower bound at most `m`, every other
//! leader (and so every other node) has `E > m`: that one is the owner,
//! with no tie-break and no logarithm. Otherwise (near-ties, a raw score
//! held by two lanes of a class, duplicated hashes) the caller runs the
//! exact race.
//!
//! Lanes past the end of a class hold the score 0 (the lowest), never a copy
//! of a node: a copy would tie with its original and send the lookup to the
//! exact race. The class's real leader is at least as good, so such a lane
//! never changes the leader's score; if they tie (a real score 0), the
//! leader's lane is not unique and the exact race decides. Rows past the
//! last class hold score 0 too, and their scales are `+inf` (an infinite
//! upper bound, which leaves `m` alone); their lanes are masked off.

use core::mem::MaybeUninit;

use super::kernels::{Argmax, IOTA};
use super::lane_race::{neg_ln_upper, splat_f64};
use super::{mix, Vector};
use crate::classes::MAX_WEIGHT_CLASSES;
use crate::table::TableColumns;

/// The ordered scores of the nodes `i..i + LANES` of `hashes` that exist,
/// the lowest score (0) in lanes past the end.
///
/// # Safety
/// `i < hashes.len()` or the lanes are all past the end (`i >= hashes.len()`
/// reads nothing); the ISA of `V` is supported.
#[inline(always)]
unsafe fn partial<V: Vector>(key: V, hashes: &[u64], i: usize) -> V {
    let n = hashes.len();
    let len = n.saturating_sub(i).min(V::LANES);
    // SAFETY: `load_tail` reads `i..i + len <= n`; `wrapping_add` never forms
    // an out-of-bounds pointer with `add`; IOTA holds 16 >= LANES values;
    // ISA by the caller.
    unsafe {
        let s = mix(key.xor(V::load_tail(hashes.as_ptr().wrapping_add(i), len, 0))).ordered();
        let live = V::splat(len as u64)
            .ordered()
            .gt_ordered(V::load(IOTA.as_ptr()).ordered());
        V::select(live, s, V::splat(0).ordered())
    }
}

/// Every lane's best ordered score and where it is in `hashes`: the two
/// accumulators of the plain argmax (see [`Argmax`]). `hashes` is not empty.
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
unsafe fn lane_bests<V: Vector>(key: V, hashes: &[u64]) -> Argmax<V> {
    let n = hashes.len();
    let lanes = V::LANES;
    let chunk = 2 * lanes;
    let hp = hashes.as_ptr();
    // SAFETY: full chunks read `i..i + chunk <= n`; partial ones go through
    // `partial`; ISA by the caller.
    unsafe {
        let mut acc = if n >= chunk {
            Argmax::first(
                mix(key.xor(V::load(hp))).ordered(),
                mix(key.xor(V::load(hp.add(lanes)))).ordered(),
            )
        } else {
            Argmax::first(partial(key, hashes, 0), partial(key, hashes, lanes))
        };
        let mut i = chunk;
        while i + chunk <= n {
            let s0 = mix(key.xor(V::load(hp.add(i)))).ordered();
            let s1 = mix(key.xor(V::load(hp.add(i + lanes)))).ordered();
            acc.step(s0, s1, i);
            i += chunk;
        }
        if i < n {
            acc.step(partial(key, hashes, i), partial(key, hashes, i + lanes), i);
        }
        acc
    }
}

/// The owner of `key_hash` in a table with weight classes, or `None` when
/// the bounds cannot decide, the table has no classes (or more than
/// `2 LANES`, or an empty one), or they disagree with it (the caller then
/// runs the class leaders' exact race and the lane race).
///
/// # Safety
/// The ISA of `V` is supported.
#[inline(always)]
pub(crate) unsafe fn owner<V: Vector>(table: &TableColumns<'_>, key_hash: u64) -> Option<u32> {
    let classes = table.classes?;
    let count = classes.count();
    let lanes = V::LANES;
    if count == 0 || count > 2 * lanes || lanes > 8 {
        return None;
    }
    // Per class: its accumulators (ordered scores b0, b1, indices i0, i1),
    // 8 values each; written for every class `c < count` before any read.
    let mut saved = MaybeUninit::<[[u64; 32]; MAX_WEIGHT_CLASSES]>::uninit();
    let saved = saved.as_mut_ptr().cast::<u64>();
    // SAFETY: `saved` holds 4 parts of 8 >= LANES values per class and
    // `c < count <= MAX_WEIGHT_CLASSES`; every part read below (`c <
    // count`) was written first. `rows` and the scales hold
    // `MAX_WEIGHT_CLASSES = 8` values: `row_maxima` and the loads read
    // `LANES <= 8` from 0 and, only when `count > LANES` (so `LANES <= 4`),
    // `LANES` more from `LANES`. `leaders` holds 16 values, `0..LANES`
    // written and, when `count > LANES`, `LANES..2 LANES`; `c < count`
    // reads one of those. ISA by the caller.
    unsafe {
        let key = V::splat(key_hash);
        let zero = V::splat(0).ordered();
        // Each class's lanes' maxima; `zero` past the last class.
        let mut rows = [zero; MAX_WEIGHT_CLASSES];
        let mut start = 0;
        for (c, &end) in classes.ends().iter().enumerate() {
            let hashes = classes.hashes.get(start..end as usize)?;
            if hashes.is_empty() {
                return None;
            }
            start = end as usize;
            let acc = lane_bests::<V>(key, hashes);
            let out = saved.add(c * 32);
            acc.b0.store(out);
            acc.b1.store(out.add(8));
            // Chunk starts: the leader's lane adds its offset at the end.
            acc.i0.store(out.add(16));
            acc.i1.store(out.add(24));
            rows[c] = V::select(acc.b1.gt_ordered(acc.b0), acc.b1, acc.b0);
        }
        if start != table.eligible() {
            return None;
        }
        // The leaders of classes `0..LANES`, and of `LANES..2 LANES` when
        // there are more classes than lanes (rows past the last class are
        // `zero`, with infinite scales).
        let (upper_scales, lower_scales) = classes.scales();
        let two = count > lanes;
        let best0 = V::row_maxima(&rows);
        let p0 = V::race_key(best0.ordered());
        let lower0 = p0.mul_f64(V::load(lower_scales.as_ptr().cast()));
        let mut m = neg_ln_upper(p0).mul_f64(V::load(upper_scales.as_ptr().cast()));
        let mut leaders = MaybeUninit::<[u64; 16]>::uninit();
        let leaders = leaders.as_mut_ptr().cast::<u64>();
        best0.store(leaders);
        let mut lower1 = splat_f64::<V>(f64::INFINITY);
        if two {
            let best1 = V::row_maxima(&rows[lanes..]);
            let p1 = V::race_key(best1.ordered());
            lower1 = p1.mul_f64(V::load(lower_scales.as_ptr().add(lanes).cast()));
            m = m.min_f64(neg_ln_upper(p1).mul_f64(V::load(upper_scales.as_ptr().add(lanes).cast())));
            best1.store(leaders.add(lanes));
        }
        let m = m.reduce_min_f64();
        if m == f64::INFINITY {
            return None;
        }
        // Bit `c`: class `c`'s leader may be at most `m` (not provably beyond it).
        let bound = splat_f64::<V>(m);
        let beyond = V::mask_bits(bound.lt_f64(lower0)) | (V::mask_bits(bound.lt_f64(lower1)) << lanes);
        let near = !beyond & ((1u32 << count) - 1);
        // Exactly one bit (`count_ones` is not one instruction without popcnt).
        if near == 0 || near & (near - 1) != 0 {
            return None;
        }
        let c = near.trailing_zeros() as usize;
        // The leader's lane in its class: exactly one lane holds its score.
        let leader = V::splat(*leaders.add(c));
        let holders = V::mask_bits(V::load(saved.add(c * 32)).eq(leader))
            | (V::mask_bits(V::load(saved.add(c * 32 + 8)).eq(leader)) << lanes);
        if holders == 0 || holders & (holders - 1) != 0 {
            return None;
        }
        let at = holders.trailing_zeros() as usize;
        let (part, lane) = (2 + at / lanes, at % lanes);
        let start = match c {
            0 => 0,
            _ => *classes.ends().get(c - 1)? as usize,
        };
        // Lane `at` of the two accumulators is node `at` of its chunk.
        let position = *saved.add(c * 32 + part * 8 + lane) as usize + at + start;
        classes
            .members
            .get(position)
            .copied()
            .filter(|&i| (i as usize) < table.hashes.len())
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::x86_64::{avx2::Avx2, avx512::Avx512};
    use super::Vector;
    use crate::{Backend, BackendKind};

    /// Values around the sign bit (where `ordered` flips on AVX2) and the
    /// extremes, mixed with a linear congruential sequence.
    fn value(i: u64) -> u64 {
        match i % 7 {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << 63,
            3 => (1 << 63) - 1,
            _ => i
                .wrapping_mul(0x5851_F42D_4C95_7F2D)
                .wrapping_add(0x1405_7B7E_F767_814F)
                .rotate_left((i % 64) as u32),
        }
    }

    /// Lane `r` of `row_maxima` against the largest lane of row `r`,
    /// computed here with `u64::max`.
    ///
    /// # Safety
    /// The ISA of `V` is supported.
    unsafe fn check<V: Vector>() {
        let lanes = V::LANES;
        for trial in 0..500u64 {
            let mut values = [[0u64; 8]; 8];
            for (r, row) in values.iter_mut().enumerate() {
                for (l, v) in row.iter_mut().enumerate().take(lanes) {
                    *v = value(trial * 131 + (r * 8 + l) as u64 * (trial % 5 + 1));
                }
            }
            // SAFETY: each row holds 8 >= LANES values; ISA by the caller.
            let rows: [V; 8] = core::array::from_fn(|r| unsafe { V::load(values[r].as_ptr()).ordered() });
            let mut out = [0u64; 8];
            // SAFETY: `rows` holds 8 >= LANES vectors; ISA by the caller.
            unsafe { V::row_maxima(&rows).ordered().store(out.as_mut_ptr()) };
            for r in 0..lanes {
                let want = values[r][..lanes].iter().copied().fold(0, u64::max);
                assert_eq!(out[r], want, "trial {trial}, row {r}, {lanes} lanes");
            }
        }
    }

    #[target_feature(enable = "avx2")]
    unsafe fn check_avx2() {
        // SAFETY: AVX2 is enabled here, and the caller checked the CPU.
        unsafe { check::<Avx2>() }
    }

    #[target_feature(enable = "avx512f,avx512dq,avx512vl")]
    unsafe fn check_avx512() {
        // SAFETY: AVX-512 is enabled here, and the caller checked the CPU.
        unsafe { check::<Avx512>() }
    }

    #[test]
    fn row_maxima_puts_each_rows_largest_lane_in_that_lane() {
        if Backend::new(BackendKind::Avx2).is_some() {
            // SAFETY: the CPU supports AVX2.
            unsafe { check_avx2() }
        }
        if Backend::new(BackendKind::Avx512).is_some() {
            // SAFETY: the CPU supports AVX-512 F, DQ and VL.
            unsafe { check_avx512() }
        }
    }
}
