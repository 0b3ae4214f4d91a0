//! Version numbers: of this library, and of the placement it implements.

use std::ffi::c_char;

use longstraw_set::Placement;

use crate::boundary::boundary_value;

/// The major version of this header (a test ties it to Cargo.toml).
pub const LONGSTRAW_VERSION_MAJOR: u32 = 0;
/// The minor version of this header.
pub const LONGSTRAW_VERSION_MINOR: u32 = 2;
/// The patch version of this header.
pub const LONGSTRAW_VERSION_PATCH: u32 = 0;

/// The newest placement version this header describes. Placement versions
/// are frozen: a set created with placement 1 puts every key on the same
/// node in every release of longstraw.
pub const LONGSTRAW_PLACEMENT_VERSION: u32 = 1;

/// The longest node id, in bytes.
pub const LONGSTRAW_MAX_NODE_ID_LEN: usize = 65535;

/// The library's version as one number, `major * 10000 + minor * 100 +
/// patch`: the same encoding as the `LONGSTRAW_VERSION_NUMBER` macro, so a
/// program can check that the library it loaded matches the header it was
/// compiled with.
#[unsafe(no_mangle)]
pub extern "C" fn longstraw_version() -> u32 {
    boundary_value(0, version_number)
}

/// The library's version as a static NUL-terminated string such as "0.2.0".
/// Never free it.
#[unsafe(no_mangle)]
pub extern "C" fn longstraw_version_string() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The newest placement version this library knows (1 in every 0.x and 1.x
/// release). Pass the version you depend on in `longstraw_options.placement`
/// rather than this value, so that an upgrade never moves keys.
#[unsafe(no_mangle)]
pub extern "C" fn longstraw_placement_version() -> u32 {
    boundary_value(0, || Placement::LATEST.number())
}

fn version_number() -> u32 {
    let part = |s: &str| s.parse::<u32>().unwrap_or(0);
    part(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
        + part(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + part(env!("CARGO_PKG_VERSION_PATCH"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_constants_match_cargo_toml() {
        let v = |s: &str| s.parse::<u32>().unwrap();
        assert_eq!(LONGSTRAW_VERSION_MAJOR, v(env!("CARGO_PKG_VERSION_MAJOR")));
        assert_eq!(LONGSTRAW_VERSION_MINOR, v(env!("CARGO_PKG_VERSION_MINOR")));
        assert_eq!(LONGSTRAW_VERSION_PATCH, v(env!("CARGO_PKG_VERSION_PATCH")));
        // The composite number only encodes minor and patch below 100.
        const { assert!(LONGSTRAW_VERSION_MINOR < 100 && LONGSTRAW_VERSION_PATCH < 100) };
        assert_eq!(
            longstraw_version(),
            LONGSTRAW_VERSION_MAJOR * 10000 + LONGSTRAW_VERSION_MINOR * 100 + LONGSTRAW_VERSION_PATCH
        );
        // SAFETY: a static NUL-terminated string.
        let s = unsafe { std::ffi::CStr::from_ptr(longstraw_version_string()) };
        assert_eq!(s.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn placement_constant_matches_the_core() {
        assert_eq!(LONGSTRAW_PLACEMENT_VERSION, Placement::LATEST.number());
        assert_eq!(longstraw_placement_version(), LONGSTRAW_PLACEMENT_VERSION);
        assert_eq!(LONGSTRAW_MAX_NODE_ID_LEN, longstraw::MAX_NODE_ID_LEN);
    }
}
