//! Every limit and every error margin of the core, each defined once.
//!
//! Limits are the bounds on inputs and shapes that modules check and error
//! messages quote; they live here so that `error` depends on no placement
//! module. The public ones are re-exported where users find them (the crate
//! root, `partition`, `skeleton`, `balanced`). Margins are the widening factors of the weighted race's cheap
//! bounds ([`crate::race`] and its lane forms in `arch`): each covers one
//! approximation, so each has its own value, and each value is part of a
//! proof written next to it. Changing a margin does not change placement
//! (the exact race decides whatever the bounds leave open), but a margin too
//! small would let a bound exclude the true winner: every one must keep its
//! written justification.

// ---------------------------------------------------------------- limits

/// The longest node id, in bytes (SPEC.md §2).
pub const MAX_NODE_ID_LEN: usize = 65_535;
/// The largest number of nodes in one table.
pub const MAX_NODES: usize = u32::MAX as usize;
/// The smallest non-zero weight, 2^-64.
pub const MIN_WEIGHT: f64 = 1.0 / 18_446_744_073_709_551_616.0;
/// The largest weight, 2^64.
pub const MAX_WEIGHT: f64 = 18_446_744_073_709_551_616.0;
/// The length of a keyed-v1 secret in bytes: SipHash-2-4's 128-bit key.
pub const SECRET_LEN: usize = 16;
/// The most partition bits: `P <= 2^24` partitions.
pub const MAX_PARTITION_BITS: u8 = 24;
/// The most replicas a table stores per partition.
pub const MAX_REPLICAS: usize = 32;
/// The smallest balance, in millionths: 1.0 (every node at most its fair share, rounded up).
pub const MIN_BALANCE_MILLIONTHS: u32 = 1_000_000;
/// The largest balance, in millionths: 4.0 (a plain table is already within about 1.5).
pub const MAX_BALANCE_MILLIONTHS: u32 = 4_000_000;
/// The largest skeleton fan-out is `2^MAX_FANOUT_BITS` = 64.
pub const MAX_FANOUT_BITS: u8 = 6;
/// The most skeleton levels of groups above the nodes.
pub const MAX_LEVELS: u8 = 5;
/// Most children of one group the column race races (larger groups are
/// impossible: the fan-out is at most `2^MAX_FANOUT_BITS`).
pub(crate) const COLUMN_RACE_MAX: usize = 1 << MAX_FANOUT_BITS;
/// Largest weighted top-k served by the SIMD candidate race; larger ones go
/// to the oracle.
pub(crate) const WEIGHTED_K_MAX: usize = 16;
/// Candidates a SIMD weighted race keeps (then it prunes; if still full, the
/// oracle answers). Above [`WEIGHTED_K_MAX`], so a top-k race has room for
/// near-ties beyond its k-th place.
pub(crate) const RACE_CANDIDATES: usize = 24;

// ------------------------------------------------ the spec's own ln error

/// Absolute widening of `-ln u` for the spec's fixed-point excess: the
/// spec's `-ln_u` (SPEC.md §5.2) never rounds down and exceeds the true
/// `-ln u` by less than `2^-60` (15.4 units of `2^-64`); `2^-58` covers that
/// four times over. Used by the float-`ln` and quick intervals
/// ([`crate::race::bounds`]) and by the lanes' upper bound (`arch::lane_race`).
pub(crate) const LN_EXCESS_ABS: f64 = 1.0 / (1u64 << 58) as f64;

// ------------------------------------ the scalar series race (race::scalar)

/// Relative slack of the scalar race's third-order series bounds
/// (`upper_bound`, `lower_bound` in [`crate::race::scalar`]), applied to the
/// series and again to its product with `1 / w`. Each side is at most a
/// dozen f64 roundings of `2^-53` (the series' terms are all positive, so
/// they do not cancel), `fl(1 / w)` and the spec's own two roundings of `E`
/// included: below `2^-49`, so `2^-40` leaves a factor of 500.
pub(crate) const SERIES_REL: f64 = 1.0 / (1u64 << 40) as f64;
/// Absolute slack of the scalar race's series bounds and of its pass-1 upper
/// bound `(SERIES_ABS - t_floor) / w`: covers the spec's `ln_u` excess
/// (below `2^-60`) with a factor of 1024.
pub(crate) const SERIES_ABS: f64 = 1.0 / (1u64 << 50) as f64;
/// Relative widening of the runner-up's pass-1 bound before it is compared
/// with the leader's lower bound (`4 * SERIES_REL` = `2^-38`): the pass-1
/// bound `(SERIES_ABS - t_floor) * inv` is off by three roundings of
/// `2^-53` (the subtraction, the product and `fl(1 / w)`), far below `2^-38`.
pub(crate) const RUNNER_UP_REL: f64 = 4.0 * SERIES_REL;

// --------------------------------- the SIMD table race (race::bounds, arch)

/// Relative widening of the float-`ln` interval ([`crate::race::bounds`]'s
/// `interval`): its `ln` has relative error below `2^-42` (the atanh series
/// tail is below `2^-44`), and the reciprocal and products add a few
/// roundings of `2^-53`; `2^-36 = 64 * 2^-42` covers both.
pub(crate) const LN_INTERVAL_REL: f64 = 1.0 / (1u64 << 36) as f64;
/// `1 + 2^-48`: the factor by which `race_margin` widens a bound before it
/// goes to `Vector::race_filter`. It covers the rounding of the widening
/// and of the filter's product `fl(bound' * 2^53 * w)`: a cleared lane still
/// has `v = k / 2^53 > bound * w * (1 + 2^-49)`, so the spec's `E` (at least
/// `fl(v / w)`, its fixed point never rounding down) surely exceeds `bound`
/// (the proof is at `race_margin`).
pub(crate) const RACE_FILTER_MARGIN: f64 = 1.0 + 1.0 / (1u64 << 48) as f64;
/// `1 - 2^-50`: shrinks the quick interval's lower bound. It covers the
/// five roundings of `2^-53` of the bound and the two of the spec's
/// `E = fl(fl(L) / w)` (seven roundings, below `2^-50`).
pub(crate) const QUICK_LO: f64 = 1.0 - 1.0 / (1u64 << 50) as f64;
/// `1 + 2^-40`: widens the quick interval's upper bound. It covers the six
/// roundings of the bound and the two of `E` (`2^-50` together) a thousand
/// times over.
pub(crate) const QUICK_HI: f64 = 1.0 + 1.0 / (1u64 << 40) as f64;

// --------------------------------------- the column race (arch::column_race)

/// `2^-53 (1 - 2^-40)`: scales a group's `fl(p fl(1 / W))` to a lower bound
/// of its `E` in the column race. The race key `p` is at most `2^53 P (1 +
/// 2^-51)` with `P = x + x^2 / 2 <= -ln u`; `fl(1 / W)` and the two products
/// add three roundings of `2^-53`, and the spec's `E` is at least `-ln u / W
/// (1 - 2^-53)`: below `2^-49` together, so `2^-40` covers them 500 times
/// over. No approximate division takes part, unlike the lane race's
/// [`LANE_E_LOW`].
pub(crate) const COLUMN_E_LOW: f64 = (1.0 - 1.0 / (1u64 << 40) as f64) / (1u64 << 53) as f64;

// ------------------------------------------- the lane race (arch::lane_race)

/// `2^-53 (1 + 2^-48)`: scales a lane's race key `p + 2` to an upper bound
/// of `P = x + x^2 / 2`. `p` falls short of `2^53 P` by at most 2 (backends
/// may halve `k`; the `+ 2` covers that) and a relative `2^-52`; `2^-48`
/// covers the relative part and the two roundings of `fl(fl(p + 2) LANE_P_UP)`.
pub(crate) const LANE_P_UP: f64 = (1.0 + 1.0 / (1u64 << 48) as f64) / (1u64 << 53) as f64;
/// `2^-53 (1 - 2^-11)`: scales a lane's `p / w` to a lower bound of `E`.
/// The approximate division (`2^-14`), the lane comparisons (`2^-52`) and
/// `p`'s excess (`2^-51`) together stay far below `2^-11`.
pub(crate) const LANE_E_LOW: f64 = (1.0 - 1.0 / (1u64 << 11) as f64) / (1u64 << 53) as f64;
/// `1 + 2^-11`: widens a lane's upper bound of `E`. It covers two
/// approximate divisions (`2^-14` each) and a dozen roundings.
pub(crate) const LANE_E_HIGH: f64 = 1.0 + 1.0 / (1u64 << 11) as f64;
/// Lanes give an upper bound of `E` only below this `P = x + x^2 / 2`, so
/// that the divisor `3 (1 - P)` of the series tail is at least `0.75` and
/// keeps its precision; above it (only in tiny races) the bound is `inf`.
pub(crate) const LANE_P_MAX: f64 = 0.75;
