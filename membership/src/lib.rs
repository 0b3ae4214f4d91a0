//! # longstraw-membership
//!
//! The one membership file of longstraw (docs/MEMBERSHIP.md): a TOML file
//! with the seed, the placement version, the mode (flat, table or skeleton)
//! and the nodes with their weights and failure domains. Every language
//! (Rust, C, Go, Python, Node and the `longstraw` command) reads and writes
//! it through this crate, so the same file gives the same placement
//! everywhere.
//!
//! ```
//! use longstraw_membership::{Membership, Mode};
//!
//! let text = r#"
//! seed = 7
//! mode = "flat"
//!
//! [[nodes]]
//! id = "cache-a"
//!
//! [[nodes]]
//! id = "cache-b"
//! weight = 2.0
//! domain = "rack-1"
//! "#;
//! let membership = Membership::parse(text, "example.toml").unwrap();
//! let set = membership.build().unwrap();
//! assert_eq!(set.mode(), longstraw_membership::SetMode::Flat);
//! assert_eq!(set.snapshot().len(), 2);
//! assert_eq!(membership.mode, Mode::Flat);
//! // Saving writes every setting explicitly, so reloading gives the same placement.
//! let again = Membership::parse(&Membership::of(&set.snapshot()).to_toml(), "again").unwrap();
//! assert_eq!(again, membership);
//! ```
#![warn(missing_docs)]

mod atomic;
mod build;
mod check;
#[cfg(all(test, unix))]
mod doc_messages;
mod error;
mod fast;
mod input;
mod model;
mod parse;
mod secret;
mod write;

pub use check::check;
pub use error::{Error, ErrorKind, Result};
pub use input::SecretFileRead;
/// The set and snapshot types a membership builds (from `longstraw-set`),
/// so that a caller of this crate needs no second import. `SetMode` is the
/// set's mode tag; [`Mode`] is the file's mode with its shape.
pub use longstraw_set::{Mode as SetMode, Rendezvous, Snapshot};
pub use model::{Membership, Mode, NodeSpec, SecretSource, FORMAT_VERSION};

use std::path::Path;

/// Reads, validates and builds the set a membership file describes.
pub fn load(path: impl AsRef<Path>) -> Result<Rendezvous> {
    let path = path.as_ref();
    Membership::read(path)?.build().map_err(|mut e| {
        e.origin = path.display().to_string();
        e
    })
}

/// Parses, validates and builds the set that membership file content
/// describes (for a caller that read the file itself, or holds the text in
/// memory). `origin` names the content in errors. A relative `secret.file`
/// is read relative to the current directory.
pub fn load_bytes(data: &[u8], origin: &str) -> Result<Rendezvous> {
    Membership::parse_bytes(data, origin)?.build()
}
