//! Shape limits that both their modules and the error messages quote, kept
//! apart so that `error` depends on no placement module.

/// The largest skeleton fan-out is `2^MAX_FANOUT_BITS` = 64.
pub const MAX_FANOUT_BITS: u8 = 6;
/// The most skeleton levels of groups above the nodes.
pub const MAX_LEVELS: u8 = 5;
