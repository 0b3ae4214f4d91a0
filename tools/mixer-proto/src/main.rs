use proto_mixer::{Isa, MIXERS, Mixer, NODE_SEED_XOR, Rng};
use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};
use std::hint::black_box;
use std::time::Instant;
use xxhash_rust::xxh3::xxh3_64_with_seed;

const SEED: u64 = 0x1234_5678_9abc_def0;
const ISAS: [Isa; 3] = [Isa::Scalar, Isa::Avx2, Isa::Avx512];

fn key_hash(k: &str) -> u64 { xxh3_64_with_seed(k.as_bytes(), SEED) }
fn node_hash(id: &[u8]) -> u64 { xxh3_64_with_seed(id, SEED ^ NODE_SEED_XOR) }
fn node_hashes(n: usize) -> Vec<u64> { (0..n).map(|i| node_hash(format!("node-{i}").as_bytes())).collect() }
fn mixer_by_name(s: &str) -> Mixer { *MIXERS.iter().find(|m| m.name().ends_with(s)).expect("mixer") }
fn isa_by_name(s: &str) -> Isa { *ISAS.iter().find(|i| format!("{i:?}").eq_ignore_ascii_case(s)).expect("isa") }
/// z such that P(|Z| > z) = alpha / m  (two-sided Bonferroni over m tests)
fn bonf_z(alpha: f64, m: f64) -> f64 { Normal::new(0.0, 1.0).unwrap().inverse_cdf(1.0 - alpha / (2.0 * m)) }

fn verify() {
    let mut rng = Rng(7);
    for &isa in ISAS.iter().filter(|i| i.available()) {
        for m in MIXERS {
            let mut checked = 0;
            for n in [1usize, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1000, 4096, 4099] {
                for t in 0..200 {
                    let mut nh: Vec<u64> = (0..n).map(|_| rng.next()).collect();
                    if t % 10 == 0 && n > 2 { nh[n - 1] = nh[n / 2]; } // force duplicate -> tie
                    let kh = rng.next();
                    let want = proto_mixer::scalar::argmax(|z| m.scalar(z), kh, &nh);
                    assert_eq!(m.argmax(isa, kh, &nh), want, "{} {isa:?} argmax n={n}", m.name());
                    let mut out = vec![0u64; n];
                    m.scores(isa, kh, &nh, &mut out);
                    for j in 0..n { assert_eq!(out[j], m.scalar(kh ^ nh[j]), "{} {isa:?} score", m.name()); }
                    checked += n;
                }
            }
            println!("verify {:12} {isa:?}: OK ({checked} scores + argmax)", m.name());
        }
    }
}

fn bench(runs: usize) {
    println!("mixer        isa      n     ns/score(min of {runs})  (all runs)");
    for n in [4096usize, 64] {
        let nh: Vec<u64> = (0..n).map(|i| node_hash(format!("node-{i}").as_bytes())).collect();
        let keys: Vec<u64> = (0..(32_000_000 / n).max(1)).map(|k| key_hash(&k.to_string())).collect();
        for m in MIXERS {
            for &isa in ISAS.iter().filter(|i| i.available()) {
                let mut times = vec![];
                for _ in 0..runs {
                    let t = Instant::now();
                    let mut acc = 0usize;
                    for &kh in &keys { acc = acc.wrapping_add(m.argmax(isa, black_box(kh), &nh).0); }
                    black_box(acc);
                    times.push(t.elapsed().as_secs_f64() * 1e9 / (keys.len() * n) as f64);
                }
                let min = times.iter().cloned().fold(f64::MAX, f64::min);
                let all: Vec<String> = times.iter().map(|t| format!("{t:.3}")).collect();
                println!("{:12} {:7} {n:5}  {min:.3}  [{}]", m.name(), format!("{isa:?}"), all.join(" "));
            }
        }
    }
}

/// Fixed workload for instruction counting under callgrind: `count <mixer> <isa> <keys>` at n=4096.
fn count(m: Mixer, isa: Isa, keys: usize) {
    let nh: Vec<u64> = (0..4096).map(|i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
    let mut acc = 0usize;
    for k in 0..keys { acc = acc.wrapping_add(m.argmax(isa, black_box(k as u64 * 0x2545F4914F6CDD1D), &nh).0); }
    println!("{acc}");
}

fn par_map<T: Send, F: Fn(usize) -> T + Sync>(parts: usize, f: F) -> Vec<T> {
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..parts).map(|p| { let f = &f; s.spawn(move || f(p)) }).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    })
}
const THREADS: usize = 2;

/// Load spread: counts per node, N keys "0".."N-1".
fn load(m: Mixer, nh: &[u64], nkeys: usize) -> (f64, f64, f64, f64) { load_with(m, nh, nkeys, |k| key_hash(&k.to_string())) }
fn load_with<K: Fn(usize) -> u64 + Sync>(m: Mixer, nh: &[u64], nkeys: usize, kf: K) -> (f64, f64, f64, f64) {
    let n = nh.len();
    let isa = Isa::best();
    let parts = par_map(THREADS, |p| {
        let mut c = vec![0u64; n];
        for k in (p..nkeys).step_by(THREADS) { c[m.argmax(isa, kf(k), nh).0] += 1; }
        c
    });
    let counts: Vec<u64> = (0..n).map(|i| parts.iter().map(|c| c[i]).sum()).collect();
    let mean = nkeys as f64 / n as f64;
    let chi2: f64 = counts.iter().map(|&c| (c as f64 - mean).powi(2) / mean).sum();
    let p = 1.0 - ChiSquared::new((n - 1) as f64).unwrap().cdf(chi2);
    let mx = *counts.iter().max().unwrap() as f64 / mean;
    let mn = *counts.iter().min().unwrap() as f64 / mean;
    (mx, mn, chi2, p)
}

/// P(MIX(kh^a) > MIX(kh^b)) over the key hashes; returns z-score (sigma = 0.5/sqrt(N)).
fn pair_z(m: Mixer, khs: &[u64], a: u64, b: u64) -> f64 {
    let wins: usize = khs.iter().filter(|&&kh| m.scalar(kh ^ a) > m.scalar(kh ^ b)).count();
    let n = khs.len() as f64;
    (wins as f64 / n - 0.5) / (0.5 / n.sqrt())
}

fn fairness(m: Mixer, khs: &[u64], rawkeys: &[u64]) -> Vec<(&'static str, usize, f64)> {
    // (a) ids one bit apart: "node-i" with one bit of one byte flipped
    let mut bitpairs = vec![];
    for i in 0..8 {
        let id = format!("node-{i}").into_bytes();
        for byte in 0..id.len() { for bit in 0..8 {
            let mut id2 = id.clone(); id2[byte] ^= 1 << bit;
            bitpairs.push((node_hash(&id), node_hash(&id2)));
        } }
    }
    // (b) random pairs among node-0..node-999
    let nh = node_hashes(1000);
    let mut rng = Rng(99);
    let randpairs: Vec<(u64, u64)> = (0..256).map(|_| {
        let i = (rng.next() % 1000) as usize; let mut j = (rng.next() % 1000) as usize;
        if j == i { j = (i + 1) % 1000 }; (nh[i], nh[j]) }).collect();
    // (c) stress: RAW node hashes one bit apart (bypasses XXH3, tests MIX itself)
    let rawpairs: Vec<(u64, u64)> = (0..4).flat_map(|t| { let base = Rng(1000 + t).next(); (0..64).map(move |b| (base, base ^ (1u64 << b))) }).collect();
    let mut res = vec![];
    // (d) STRESS: random node pairs but UNHASHED keys kh = 0..N-1 (the XOR symmetry argument no longer applies)
    let rk = randpairs.clone();
    for (name, pairs, keys) in [("ids 1 bit apart", bitpairs, khs), ("random pairs", randpairs, khs), ("raw nh 1 bit apart", rawpairs, khs), ("STRESS raw kh=k", rk, rawkeys)] {
        let zs = par_map(THREADS, |p| pairs.iter().skip(p).step_by(THREADS).map(|&(a, b)| pair_z(m, keys, a, b).abs()).fold(0.0, f64::max));
        res.push((name, pairs.len(), zs.into_iter().fold(0.0, f64::max)));
    }
    res
}

/// Worst |P(out bit j flips | in bit i flipped) - 0.5| over 64x64, flipping bits of kh (or nh).
fn avalanche(m: Mixer, samples: usize, flip_node: bool) -> f64 {
    let worst = par_map(THREADS, |p| {
        let mut w: f64 = 0.0;
        for b in (p..64).step_by(THREADS) {
            let mut rng = Rng(0xA5A5 + b as u64 + 1000 * flip_node as u64);
            let mut cnt = [0u32; 64];
            for _ in 0..samples {
                let (kh, nh) = (rng.next(), rng.next());
                let (kh2, nh2) = if flip_node { (kh, nh ^ (1 << b)) } else { (kh ^ (1 << b), nh) };
                let d = m.scalar(kh ^ nh) ^ m.scalar(kh2 ^ nh2);
                for (o, c) in cnt.iter_mut().enumerate() { *c += ((d >> o) & 1) as u32; }
            }
            for c in cnt { w = w.max((c as f64 / samples as f64 - 0.5).abs()); }
        }
        w
    });
    worst.into_iter().fold(0.0, f64::max)
}

fn quality(only: Option<Mixer>) {
    let alpha = 0.001;
    let aval_n = 100_000usize;
    let zav = bonf_z(alpha, 4096.0);
    let ztyp = bonf_z(1.0, 4096.0);
    println!("# avalanche: {aval_n} samples per input bit; sd = {:.5}; typical max over 4096 pairs ~ {:.5} (z={ztyp:.2}); bound (alpha={alpha}, Bonferroni) {:.5} (z={zav:.2})",
        0.5 / (aval_n as f64).sqrt(), ztyp * 0.5 / (aval_n as f64).sqrt(), zav * 0.5 / (aval_n as f64).sqrt());
    let nfair = 1_000_000usize;
    let khs: Vec<u64> = (0..nfair).map(|k| key_hash(&k.to_string())).collect();
    let rawkeys: Vec<u64> = (0..nfair as u64).collect();
    let deep = 2_000_000usize;
    for m in MIXERS.iter().copied().filter(|m| only.map_or(true, |o| o == *m)) {
        println!("\n== {} ==", m.name());
        let (ak, an) = (avalanche(m, aval_n, false), avalanche(m, aval_n, true));
        println!("avalanche worst bias: flip kh bits {ak:.5}, flip nh bits {an:.5}  [{}]", if ak.max(an) <= zav * 0.5 / (aval_n as f64).sqrt() { "PASS" } else { "FAIL" });
        let ad = avalanche(m, deep, false);
        let zd = bonf_z(alpha, 4096.0) * 0.5 / (deep as f64).sqrt();
        println!("avalanche DEEP ({deep} samples/bit, flip kh): worst bias {ad:.5} (typ max {:.5}, bound {zd:.5}) [{}]", ztyp * 0.5 / (deep as f64).sqrt(), if ad <= zd { "PASS" } else { "FAIL" });
        for (n, nkeys) in [(10usize, 2_000_000usize), (100, 10_000_000), (1000, 10_000_000)] {
            let t = Instant::now();
            let (mx, mn, chi2, p) = load(m, &node_hashes(n), nkeys);
            let mean = nkeys as f64 / n as f64;
            let z = bonf_z(alpha, n as f64);
            let band = z * (mean * (1.0 - 1.0 / n as f64)).sqrt() / mean;
            let ok = mx <= 1.0 + band && mn >= 1.0 - band && p > alpha;
            println!("load n={n:4} N={nkeys:8}: max/mean {mx:.4} min/mean {mn:.4} (bound 1±{band:.4}, z={z:.2}) chi2={chi2:.1} df={} p={p:.3e} [{}] ({:.1}s)",
                n - 1, if ok { "PASS" } else { "FAIL" }, t.elapsed().as_secs_f64());
        }
        // stress: raw structured node hashes nh = i (bypasses XXH3)
        let raw: Vec<u64> = (0..100u64).collect();
        let (mx, mn, _, p) = load(m, &raw, 10_000_000);
        let band = bonf_z(alpha, 100.0) * (1e5f64 * 0.99).sqrt() / 1e5;
        println!("load STRESS raw nh=0..99 N=1e7: max/mean {mx:.4} min/mean {mn:.4} p={p:.3e} [{}]", if mx <= 1.0 + band && mn >= 1.0 - band && p > alpha { "PASS" } else { "FAIL" });
        let (mx, mn, _, p) = load_with(m, &node_hashes(100), 10_000_000, |k| k as u64);
        println!("load STRESS raw kh=0..1e7-1, n=100: max/mean {mx:.4} min/mean {mn:.4} p={p:.3e} [{}]", if mx <= 1.0 + band && mn >= 1.0 - band && p > alpha { "PASS" } else { "FAIL" });
        for (name, pairs, z) in fairness(m, &khs, &rawkeys) {
            let zb = bonf_z(alpha, pairs as f64);
            println!("fairness {name:20} {pairs:4} pairs, N={nfair}: worst |dev| = {z:.2} sigma (typ max {:.2}, bound {zb:.2}; brief's fixed 4.5) [{}]",
                bonf_z(1.0, pairs as f64), if z <= zb.max(4.5) { "PASS" } else { "FAIL" });
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(|s| s.as_str()) {
        Some("verify") => verify(),
        Some("bench") => bench(args.get(2).map_or(5, |s| s.parse().unwrap())),
        Some("count") => count(mixer_by_name(&args[2]), isa_by_name(&args[3]), args[4].parse().unwrap()),
        Some("quality") => quality(args.get(2).map(|s| mixer_by_name(s))),
        _ => eprintln!("usage: proto_mixer verify | bench [runs] | quality [mixer] | count <mix13|m32x3|feistel5|ident> <scalar|avx2|avx512> <keys>"),
    }
}
