//! # longstraw
//!
//! Rendezvous hashing (highest random weight, HRW) with a placement that is
//! frozen at the byte level (`docs/SPEC.md`), so that every language and every
//! CPU puts each key on the same node, in every future version.
//!
//! This crate is the only place placement logic lives. It is `no_std`, never
//! allocates and never panics on any input. It works on borrowed node tables;
//! the `longstraw-set` crate owns node storage for most users.
//!
//! ```
//! use longstraw::{key_hash, node_hash, NodeTable, Ranked};
//!
//! let seed = 0;
//! let ids: [&[u8]; 3] = [b"cache-a", b"cache-b", b"cache-c"];
//! let hashes = ids.map(|id| node_hash(id, seed));
//! let table = NodeTable::new(seed, &hashes, None).unwrap();
//!
//! let owner = table.owner(b"user:42").unwrap() as usize;
//! let mut top = [Ranked::EMPTY; 2];
//! assert_eq!(table.top_k(b"user:42", &mut top), 2);
//! assert_eq!(top[0].index as usize, owner);
//! # let _ = key_hash(b"", seed);
//! ```
#![no_std]
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
// A build without a vector backend (wasm32 without simd128, other targets)
// leaves the kernels in `arch` and the bounds only they use unreferenced.
#![cfg_attr(
    not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(dead_code, unused_imports, unused_macros)
)]

mod arch;
mod backend;
pub mod balanced;
mod classes;
pub mod domains;
mod error;
mod exact_cap;
mod hash;
mod keyed;
mod limits;
pub mod ln;
mod node_table;
mod oracle;
mod order;
mod packed;
pub mod partition;
mod placement;
mod race;
mod score;
pub mod skeleton;
mod table;
mod walk;
mod weight;

pub use backend::{Backend, BackendKind};
pub use classes::{class_layout_len, group_by_weight, ClassHeader, WeightClasses, MAX_WEIGHT_CLASSES};
pub use error::{Error, WeightError};
pub use exact_cap::weight_sum;
pub use hash::{key_hash, node_hash, validate_node_id, MAX_NODE_ID_LEN, NODE_SEED_OFFSET};
pub use keyed::{Hashing, Keyed, Secret, SECRET_LEN};
pub use limits::MAX_NODES;
pub use node_table::{validate_node_count, NodeTable, Shape, TableSummary};
pub use order::{rank_order, ranks_before, Ranked};
pub use packed::{KeyOffset, PackedKeys};
pub use partition::{PartitionTable, MAX_PARTITION_BITS, MAX_REPLICAS, NO_NODE};
pub use placement::Placement;
pub use score::{mix, pair_score, weighted_score, MIX_MUL_1, MIX_MUL_2};
pub use skeleton::{Group, GroupColumns, Skeleton, SkeletonShape};
pub use weight::{validate_weight, MAX_WEIGHT, MIN_WEIGHT};
