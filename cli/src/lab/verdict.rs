//! `lab`'s recommendation: computed from the measured rows and the user's
//! priorities, with every step of the reasoning kept for printing.
//!
//! The rule: rows that ignore weights are set aside when the file's weights
//! differ. Then, criterion by criterion in priority order, the rows within a
//! stated tolerance of the best one stay and the others are dropped (the
//! tolerances absorb sampling and timing noise). Among the rows left, the
//! best on the first priority wins; rows still tied keep the lab's order.

use serde::Serialize;

use super::Row;

/// What matters when picking a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Criterion {
    /// Keys a change moved between nodes it did not touch (stray moves).
    Moves,
    /// The worst node's share against its weight share (max/mean).
    Balance,
    /// Lookup time per key.
    Speed,
    /// Bytes of lookup state.
    Memory,
}

impl Criterion {
    /// Every criterion, in the default priority order.
    pub const ALL: [Criterion; 4] = [
        Criterion::Moves,
        Criterion::Balance,
        Criterion::Speed,
        Criterion::Memory,
    ];

    fn name(self) -> &'static str {
        match self {
            Criterion::Moves => "moves",
            Criterion::Balance => "balance",
            Criterion::Speed => "speed",
            Criterion::Memory => "memory",
        }
    }
}

/// The recommendation and how it was reached.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The priorities applied, most important first (the user's, then the rest in default order).
    pub priorities: Vec<Criterion>,
    /// One line per step.
    pub reasons: Vec<String>,
    /// The recommended placement's row name.
    pub pick: String,
}

/// The full priority order: `given` first (duplicates dropped), then the rest in default order.
pub fn full_order(given: &[Criterion]) -> Vec<Criterion> {
    let mut order: Vec<Criterion> = Vec::new();
    for &c in given.iter().chain(Criterion::ALL.iter()) {
        if !order.contains(&c) {
            order.push(c);
        }
    }
    order
}

/// Recommends one of `rows` (`keys`: the corpus size, for the noise
/// tolerances; `weights_equal`: whether every node of the file has the same
/// weight). `rows` must not be empty.
pub fn recommend(rows: &[Row], keys: usize, weights_equal: bool, given: &[Criterion]) -> Verdict {
    let priorities = full_order(given);
    let mut reasons = Vec::new();
    let mut left: Vec<&Row> = rows.iter().collect();
    if !weights_equal {
        let (kept, out): (Vec<&Row>, Vec<&Row>) = left.iter().partition(|r| r.weighted);
        if !kept.is_empty() && !out.is_empty() {
            reasons.push(format!(
                "weights: the file's weights differ, so rows that ignore weights are out: {}",
                names(&out)
            ));
            left = kept;
        }
    }
    // Moves are compared over the changes every row left can make.
    let with_reweight = left.iter().all(|r| r.reweight.is_some());
    let n = rows.first().map_or(1, |r| r.shares.len().max(1));
    let keys = keys.max(1) as f64;
    let metric = |c: Criterion, r: &Row| -> f64 {
        match c {
            Criterion::Moves => {
                let mut changes = vec![&r.add, &r.remove];
                if with_reweight {
                    changes.extend(r.reweight.as_ref());
                }
                changes.iter().map(|m| m.stray).sum()
            }
            Criterion::Balance => r.max_over_mean,
            Criterion::Speed => r.lookup_ns,
            Criterion::Memory => r.memory_bytes as f64,
        }
    };
    for &c in &priorities {
        let best = left.iter().map(|r| metric(c, r)).fold(f64::INFINITY, f64::min);
        let (limit, rule) = match c {
            Criterion::Moves => {
                let tol = 0.001 + 4.0 * (best / keys).sqrt();
                (
                    best + tol,
                    format!(
                        "keys moved between nodes the change did not touch, summed over add, remove{} \
                         (fractions of all keys; 0 is the minimum); kept: within {tol:.4} of the best",
                        if with_reweight { " and 2x weight" } else { "" }
                    ),
                )
            }
            Criterion::Balance => {
                let tol = 0.01 + 4.0 * (n as f64 / keys).sqrt();
                (
                    best + tol,
                    format!("max/mean share against weight; kept: within {tol:.4} of the best"),
                )
            }
            Criterion::Speed => (
                best * 1.5,
                "ns per lookup on one thread; kept: at most 1.5x the fastest".to_string(),
            ),
            Criterion::Memory => (
                (best * 2.0).max(best + 65_536.0),
                "bytes of lookup state; kept: at most 2x the smallest, or 64 KiB more".to_string(),
            ),
        };
        let best_row = left
            .iter()
            .find(|r| metric(c, r) == best)
            .map_or("", |r| r.name.as_str());
        let (kept, out): (Vec<&Row>, Vec<&Row>) = left.iter().partition(|r| metric(c, r) <= limit);
        let show = |v: &[&Row]| {
            v.iter()
                .map(|r| format!("{} {}", r.name, value(c, metric(c, r))))
                .collect::<Vec<_>>()
                .join(", ")
        };
        reasons.push(format!(
            "{}: {rule}; best {} ({best_row}); kept {}{}",
            c.name(),
            value(c, best),
            show(&kept),
            if out.is_empty() {
                String::new()
            } else {
                format!("; out: {}", show(&out))
            }
        ));
        left = kept;
    }
    let first = priorities[0];
    let best = left.iter().map(|r| metric(first, r)).fold(f64::INFINITY, f64::min);
    let pick = left
        .iter()
        .find(|r| metric(first, r) == best)
        .map_or_else(String::new, |r| r.name.clone());
    if left.len() > 1 {
        reasons.push(format!(
            "left: {}; the best of them on {} is {pick}",
            names(&left),
            first.name()
        ));
    }
    Verdict {
        priorities,
        reasons,
        pick,
    }
}

fn names(rows: &[&Row]) -> String {
    rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", ")
}

fn value(c: Criterion, v: f64) -> String {
    match c {
        Criterion::Moves | Criterion::Balance => format!("{v:.4}"),
        Criterion::Speed => format!("{v:.1} ns"),
        Criterion::Memory => super::human_bytes(v as usize),
    }
}
