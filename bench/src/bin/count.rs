//! Runs a fixed number of lookups, for instruction counting under callgrind:
//! `count <backend> <plain|weighted4|weighted_distinct|top3|top3_weighted4> <n> <lookups>`.
//! Two runs with different key counts, subtracted, cancel the setup cost
//! (see BENCHMARKS.md).

use std::hint::black_box;

use longstraw::Ranked;
use longstraw_bench::{backend_named, keys, Layout, Nodes};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: count <backend> <plain|weighted4|weighted_distinct|top3|top3_weighted4> <n> <lookups>";
    if args.len() != 5 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let backend = backend_named(&args[1]).unwrap_or_else(|| {
        eprintln!("backend {} is unknown or not supported here", args[1]);
        std::process::exit(2);
    });
    let (layout, top3) = match args[2].as_str() {
        "plain" => (Layout::Plain, false),
        "weighted4" => (Layout::FourClasses, false),
        "weighted_distinct" => (Layout::AllDistinct, false),
        "top3" => (Layout::Plain, true),
        "top3_weighted4" => (Layout::FourClasses, true),
        other => {
            eprintln!("unknown operation {other}; {usage}");
            std::process::exit(2);
        }
    };
    let n: usize = args[3].parse().expect("n");
    let count: usize = args[4].parse().expect("keys");
    let nodes = Nodes::new(n, layout);
    let table = nodes.table(backend);
    // A fixed pool, cycled: the setup is the same for every `count`.
    let keys = keys(1024);
    let mut sum = 0u64;
    let mut top = [Ranked::EMPTY; 3];
    for k in keys.iter().cycle().take(count) {
        if top3 {
            sum += table.top_k(black_box(k), &mut top) as u64 + top[2].index as u64;
        } else {
            sum += table.owner(black_box(k)).expect("eligible") as u64;
        }
    }
    println!("{sum}");
}
