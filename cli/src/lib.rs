//! The `longstraw` command as a library: lookups, `check`, the migration
//! planner and the placement lab, so that tests can call them directly.
#![warn(missing_docs)]

pub mod app;
pub mod check;
pub mod lab;
pub mod lookup;
pub mod plan;
pub mod render;
pub mod stream;
