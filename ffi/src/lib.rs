//! The C ABI of longstraw (liblongstraw). The header `include/longstraw.h`
//! is generated from this crate by cbindgen; see `ffi/README.md` for the
//! conventions.
//!
//! Handles: a `longstraw_rendezvous`, `longstraw_table` or
//! `longstraw_skeleton` is a mutable node set (a boxed
//! [`longstraw_set::Rendezvous`], [`longstraw_set::Table`] or
//! [`longstraw_set::Skeleton`]); a `longstraw_snapshot` is one immutable
//! membership of any of them (an `Arc` turned into a raw pointer, see `mode`).
//! Every export runs inside [`boundary::boundary`], so a panic becomes
//! `LONGSTRAW_INTERNAL_ERROR` instead of unwinding into C.
#![allow(non_camel_case_types)]
#![deny(unsafe_op_in_unsafe_fn)]

mod balanced;
mod boundary;
mod bounded;
mod bounded_rule;
mod held;
mod keyed;
mod keyed_file;
mod lengths;
mod members;
mod membership_file;
mod mode;
mod rendezvous;
mod result;
mod skeleton;
mod snapshot;
mod table;
mod version;

pub use balanced::*;
pub use bounded::*;
pub use bounded_rule::*;
pub use keyed::*;
pub use keyed_file::*;
pub use membership_file::*;
pub use mode::longstraw_mode;
pub use rendezvous::*;
pub use result::*;
pub use skeleton::*;
pub use snapshot::*;
pub use table::*;
pub use version::*;
