//! Times loading a flat membership file of N `[[nodes]]` (id and weight):
//! `cargo run --release -p longstraw-membership --example load_time -- N`.
//! Prints the file size and the seconds spent reading, parsing (TOML and
//! validation) and building the set: wall clock, and this thread's CPU time
//! (which a busy machine inflates less).

use std::fmt::Write as _;
use std::time::Instant;

/// This thread's CPU time in seconds.
fn cpu() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` is a valid timespec for clock_gettime to write.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }
    #[cfg(not(target_os = "linux"))]
    {
        f64::NAN
    }
}

/// Runs `f`, returning its value, the wall-clock seconds and the CPU seconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (wall, c) = (Instant::now(), cpu());
    let v = f();
    (v, wall.elapsed().as_secs_f64(), cpu() - c)
}

use longstraw_membership::Membership;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(1_000_000, |a| a.parse().expect("N: a node count"));
    let mut text = String::from("seed = 7\nmode = \"flat\"\n");
    for i in 0..n {
        let _ = write!(text, "\n[[nodes]]\nid = \"node-{i:08}\"\nweight = {}.5\n", 1 + i % 7);
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("big.toml");
    std::fs::write(&path, &text).expect("the file is written");

    let (table, toml_w, toml_c) = timed(|| toml::from_str::<toml::Table>(&text).expect("TOML"));
    drop(table);
    let (m, read_w, read_c) = timed(|| Membership::read(&path).expect("a valid file"));
    let (loaded, build_w, build_c) = timed(|| m.build().expect("a valid set"));
    drop(loaded);
    let (bulk, bulk_w, bulk_c) = timed(|| {
        longstraw_set::Rendezvous::with_weights(
            m.nodes.iter().map(|n| (n.id.as_slice(), n.weight)),
            longstraw_set::Options {
                seed: Some(m.seed),
                ..Default::default()
            },
            longstraw_set::ModeOptions::Flat,
        )
        .expect("a valid set")
    });
    drop(bulk);
    let (loaded, load_w, load_c) = timed(|| longstraw_membership::load(&path).expect("a valid file"));
    drop(loaded);
    println!(
        "nodes {n}, {:.1} MB (wall s / cpu s): toml::Table alone {toml_w:.3} / {toml_c:.3}; \
         read+parse {read_w:.3} / {read_c:.3}; build {build_w:.3} / {build_c:.3} \
         (Rendezvous::with_weights alone {bulk_w:.3} / {bulk_c:.3}); load {load_w:.3} / {load_c:.3}",
        text.len() as f64 / 1e6
    );
}
