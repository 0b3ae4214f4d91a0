//! The C ABI of longstraw (liblongstraw). The header `include/longstraw.h`
//! is generated from this crate by cbindgen; see `ffi/README.md` for the
//! conventions.
//!
//! Handles: a `longstraw_rendezvous` is a mutable node set of any placement
//! mode (a boxed set, see `held`); a `longstraw_snapshot` is one immutable
//! membership of it (an `Arc` turned into a raw pointer); a
//! `longstraw_bounded` is a bounded-load set. Every export runs inside
//! [`boundary::boundary`], so a panic becomes `LONGSTRAW_INTERNAL_ERROR`
//! instead of unwinding into C.
#![allow(non_camel_case_types)]
#![deny(unsafe_op_in_unsafe_fn)]

mod boundary;
mod bounded;
mod bounded_rule;
mod held;
mod lengths;
mod membership_file;
mod options;
mod rendezvous;
mod result;
mod snapshot;
mod version;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use bounded::*;
pub use bounded_rule::*;
pub use membership_file::*;
pub use options::*;
pub use rendezvous::*;
pub use result::*;
pub use snapshot::*;
pub use version::*;
#[cfg(target_arch = "wasm32")]
pub use wasm::*;
