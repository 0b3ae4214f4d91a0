//! Placement versions.

use crate::error::Error;

/// A placement version: a frozen definition of where every key goes.
///
/// Every constructor in every language takes one and defaults to
/// [`Placement::V1`]. When a later version exists, users can keep pinning v1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Placement {
    /// Placement v1 (docs/SPEC.md, tests/vectors/placement-v1.json).
    #[default]
    V1,
}

impl Placement {
    /// The newest placement version this build knows.
    pub const LATEST: Placement = Placement::V1;

    /// The version number.
    pub const fn number(self) -> u32 {
        match self {
            Placement::V1 => 1,
        }
    }

    /// The placement version with this number.
    pub const fn from_number(version: u32) -> Result<Placement, Error> {
        match version {
            1 => Ok(Placement::V1),
            _ => Err(Error::UnknownPlacement { version }),
        }
    }
}
