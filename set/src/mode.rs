//! The three ways a set places keys, and what each one is shaped by.

use std::fmt;
use std::str::FromStr;

use crate::skeleton::SkeletonOptions;
use crate::table::TableOptions;

/// How a set places keys (SPEC.md §6, §10, §11). Membership files, every
/// language and the C ABI use these names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every node races for every key: exact HRW, O(n) per lookup.
    Flat,
    /// A partition table: O(1) lookups, each partition placed by HRW.
    Table,
    /// Skeleton (hierarchical) HRW for the largest fleets.
    Skeleton,
}

impl Mode {
    /// The mode's name: `"flat"`, `"table"` or `"skeleton"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Flat => "flat",
            Mode::Table => "table",
            Mode::Skeleton => "skeleton",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of the three modes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMode;

impl fmt::Display for UnknownMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown mode (expected \"flat\", \"table\" or \"skeleton\")")
    }
}

impl std::error::Error for UnknownMode {}

impl FromStr for Mode {
    type Err = UnknownMode;
    fn from_str(s: &str) -> Result<Mode, UnknownMode> {
        match s {
            "flat" => Ok(Mode::Flat),
            "table" => Ok(Mode::Table),
            "skeleton" => Ok(Mode::Skeleton),
            _ => Err(UnknownMode),
        }
    }
}

/// A mode with its shape: what a set is built with besides its nodes and
/// [`crate::Options`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModeOptions {
    /// [`Mode::Flat`].
    #[default]
    Flat,
    /// [`Mode::Table`], shaped by its options.
    Table(TableOptions),
    /// [`Mode::Skeleton`], shaped by its options.
    Skeleton(SkeletonOptions),
}

impl ModeOptions {
    /// The mode these options build.
    pub fn mode(&self) -> Mode {
        match self {
            ModeOptions::Flat => Mode::Flat,
            ModeOptions::Table(_) => Mode::Table,
            ModeOptions::Skeleton(_) => Mode::Skeleton,
        }
    }
}

impl From<TableOptions> for ModeOptions {
    fn from(o: TableOptions) -> Self {
        ModeOptions::Table(o)
    }
}

impl From<SkeletonOptions> for ModeOptions {
    fn from(o: SkeletonOptions) -> Self {
        ModeOptions::Skeleton(o)
    }
}
