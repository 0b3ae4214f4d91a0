//! Membership files (docs/MEMBERSHIP.md) for Node: `Rendezvous.load(path)`,
//! `Table.load`, `Skeleton.load` and `.save(path)`. `longstraw-membership`
//! parses, validates and writes the file for every language; this module
//! only converts its errors (code `ERR_LONGSTRAW_BAD_FILE`, a message naming
//! the file, line and field).

use longstraw_membership::{Loaded, Membership};
use longstraw_set::{Rendezvous, Skeleton, Table};

use crate::error::{JsErr, Kind, Res};

/// The stable `code` of every membership file error.
pub const BAD_FILE: &str = "ERR_LONGSTRAW_BAD_FILE";

fn bad(e: impl std::fmt::Display) -> JsErr {
    JsErr::new(Kind::Error, BAD_FILE, e.to_string())
}

fn load(path: &str, wanted: &str) -> Res<Loaded> {
    let loaded = longstraw_membership::load(path).map_err(bad)?;
    let (found, mode) = match &loaded {
        Loaded::Flat(_) => ("Rendezvous", "flat"),
        Loaded::Table(_) => ("Table", "table"),
        Loaded::Skeleton(_) => ("Skeleton", "skeleton"),
    };
    if found != wanted {
        return Err(bad(format!(
            "{path}: the file's mode is \"{mode}\"; load it with {found}.load, not {wanted}.load"
        )));
    }
    Ok(loaded)
}

/// A flat file's set.
pub fn load_flat(path: &str) -> Res<Rendezvous> {
    match load(path, "Rendezvous")? {
        Loaded::Flat(set) => Ok(set),
        _ => unreachable!("the mode was checked"),
    }
}

/// A table file's set.
pub fn load_table(path: &str) -> Res<Table> {
    match load(path, "Table")? {
        Loaded::Table(set) => Ok(set),
        _ => unreachable!("the mode was checked"),
    }
}

/// A skeleton file's set.
pub fn load_skeleton(path: &str) -> Res<Skeleton> {
    match load(path, "Skeleton")? {
        Loaded::Skeleton(set) => Ok(set),
        _ => unreachable!("the mode was checked"),
    }
}

/// Writes `m` to `path` (a temporary file renamed over it).
pub fn save(m: Membership, path: &str) -> Res<()> {
    m.write(path).map_err(bad)
}
