//! Shared inputs for the scale benchmarks and simulations.

use longstraw_set::{Options, Skeleton, SkeletonOptions, SkeletonShape, Table, TableOptions};

/// `count` node ids like a real fleet's: `10.a.b.c:11211`.
pub fn node_ids(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| format!("10.{}.{}.{}:11211", i >> 16, (i >> 8) & 255, i & 255))
        .collect()
}

/// `count` keys of 12 to 16 bytes, like `user:12345678`.
pub fn keys(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| format!("user:{}", i.wrapping_mul(2654435761) % 100_000_000))
        .collect()
}

/// A table with the default partition bits for `n` and `replicas` stored.
pub fn table(n: usize, replicas: usize) -> Table {
    Table::new(
        node_ids(n),
        TableOptions {
            replicas,
            ..TableOptions::default()
        },
    )
    .expect("valid nodes")
}

/// A skeleton of `n` nodes with `shape` (`None`: the default for `n`).
pub fn skeleton(n: usize, shape: Option<SkeletonShape>) -> Skeleton {
    Skeleton::new(
        node_ids(n),
        SkeletonOptions {
            set: Options::default(),
            shape,
        },
    )
    .expect("valid nodes")
}

/// Seconds since `start`, as milliseconds.
pub fn ms(start: std::time::Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}
