//! Shared inputs for the scale benchmarks and simulations.

use longstraw_set::{ModeOptions, Options, Rendezvous, SkeletonOptions, SkeletonShape, TableOptions};

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

/// A set of `n` nodes of weight 1 in `mode`.
pub fn set(n: usize, mode: ModeOptions) -> Rendezvous {
    Rendezvous::with_weights(node_ids(n).into_iter().map(|id| (id, 1.0)), Options::default(), mode)
        .expect("valid nodes")
}

/// A table set with the default partition bits for `n` and `replicas` stored.
pub fn table(n: usize, replicas: usize) -> Rendezvous {
    set(
        n,
        ModeOptions::Table(TableOptions {
            replicas,
            ..TableOptions::default()
        }),
    )
}

/// A skeleton set of `n` nodes with `shape` (`None`: the default for `n`).
pub fn skeleton(n: usize, shape: Option<SkeletonShape>) -> Rendezvous {
    set(n, ModeOptions::Skeleton(SkeletonOptions { shape }))
}

/// Seconds since `start`, as milliseconds.
pub fn ms(start: std::time::Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}
