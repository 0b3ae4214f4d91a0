//! Design screen for 32x32->64-only mixers: worst avalanche bias, 1e5 samples/input bit.
//! Random-function expectation ~0.006 (bound 0.0082). Everything >0.01 was rejected.
//! `cargo run --release --example screen`
#[inline(always)] fn r(z: u64, c: u64) -> u64 { z.wrapping_add((z as u32 as u64) * c) }
#[inline(always)] fn rx(z: u64, c: u64) -> u64 { z ^ ((z as u32 as u64) * c) }
const C: [u64; 6] = [0x9E3779B0, 0x85EBCA76, 0xC2B2AE3C, 0x27D4EB2E, 0x165667B0, 0xD3A2646C];
fn mix13(mut z: u64) -> u64 { z ^= z >> 30; z = z.wrapping_mul(0xbf58476d1ce4e5b9); z ^= z >> 27; z = z.wrapping_mul(0x94d049bb133111eb); z ^ (z >> 31) }
fn rot(k: usize, fin: bool) -> impl Fn(u64) -> u64 { move |mut z| { for i in 0..k { z = r(z, C[i]).rotate_left(32); } if fin { z ^= z >> 32 } z } }
fn xs(k: usize, sh: u32) -> impl Fn(u64) -> u64 { move |mut z| { for i in 0..k { z ^= z >> sh; z = r(z, C[i]); } z ^ (z >> sh) } }
fn xsx(k: usize, sh: u32) -> impl Fn(u64) -> u64 { move |mut z| { for i in 0..k { z ^= z >> sh; z = rx(z, C[i]); } z ^ (z >> sh) } }
const K: [u64; 4] = [0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D, 0x27D4EB2F];
#[inline(always)] fn t(z: u64, k1: u64, k2: u64) -> u64 { ((z as u32 as u64) * k1) ^ (((z >> 32) * k2) << 32) }
fn tx(a: u32, b: u32, c: u32) -> impl Fn(u64) -> u64 { move |mut z| { z ^= z >> a; z = t(z, K[0], K[1]); z ^= z >> b; z = t(z, K[2], K[3]); z ^ (z >> c) } }
fn xss(s: [u32; 4]) -> impl Fn(u64) -> u64 { move |mut z| { for i in 0..3 { z ^= z >> s[i]; z = r(z, C[i]); } z ^ (z >> s[3]) } }
fn xss4(s: [u32; 5]) -> impl Fn(u64) -> u64 { move |mut z| { for i in 0..4 { z ^= z >> s[i]; z = r(z, C[i]); } z ^ (z >> s[4]) } }
const KK: [u64; 8] = [0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D, 0x27D4EB2F, 0x165667B1, 0xD3A2646D, 0xFD7046C5, 0xB55A4F09];
// Feistel, F(L) = hi32(L*K): z = rot32(z) ^ ((L*K) >> 32)
fn fh(k: usize) -> impl Fn(u64) -> u64 { move |mut z| { for i in 0..k { let p = (z as u32 as u64) * KK[i]; z = z.rotate_left(32) ^ (p >> 32); } z } }
// Feistel, F(L) = hi32(L*K) ^ lo32(L*K)
fn ff(k: usize) -> impl Fn(u64) -> u64 { move |mut z| { for i in 0..k { let p = (z as u32 as u64) * KK[i]; z = z.rotate_left(32) ^ ((p ^ (p >> 32)) & 0xffff_ffff); } z } }
// mix13 shape but multiply by 32-bit odd constants (2 pmuludq per multiply)
fn m32(sh: &'static [u32], ks: &'static [u64]) -> impl Fn(u64) -> u64 { move |mut z| { for i in 0..ks.len() { z ^= z >> sh[i]; z = z.wrapping_mul(ks[i]); } z ^ (z >> sh[ks.len()]) } }
fn sm(mut s: u64) -> impl FnMut() -> u64 { move || { s = s.wrapping_add(0x9E3779B97F4A7C15); mix13(s) } }
fn aval(f: &dyn Fn(u64) -> u64, n: usize) -> f64 {
    let mut rng = sm(42); let mut worst: f64 = 0.0;
    for b in 0..64 { let mut cnt = [0u32; 64];
        for _ in 0..n { let x = rng(); let d = f(x) ^ f(x ^ (1 << b)); for o in 0..64 { cnt[o] += ((d >> o) & 1) as u32; } }
        for o in 0..64 { worst = worst.max((cnt[o] as f64 / n as f64 - 0.5).abs()); } }
    worst
}
fn main() {
    let n = 100_000;
    let mut c: Vec<(String, Box<dyn Fn(u64) -> u64>)> = vec![("mix13 (reference)".into(), Box::new(mix13))];
    // additive Feistel-ish: z += lo(z)*C (C even), rot32  -- differences stay ~additive: fails
    for k in [3, 4, 5] { c.push((format!("add-rot x{k}"), Box::new(rot(k, true)))); }
    // xorshift + z += lo(z)*C / z ^= lo(z)*C
    c.push(("xs-add x3 >>32".into(), Box::new(xs(3, 32)))); c.push(("xs-add x4 >>32".into(), Box::new(xs(4, 32))));
    c.push(("xs-xor x4 >>32".into(), Box::new(xsx(4, 32))));
    c.push(("xs-add x3 47/32/29/32".into(), Box::new(xss([47, 32, 29, 32]))));
    c.push(("xs-add x4 48/16/48/16/32".into(), Box::new(xss4([48, 16, 48, 16, 32]))));
    // both halves multiplied (triangular), xxh32-avalanche-like
    c.push(("two-half 15/13/16".into(), Box::new(tx(15, 13, 16)))); c.push(("two-half 32/15/32".into(), Box::new(tx(32, 15, 32))));
    // Feistel
    for k in [4, 5] { c.push((format!("feistel F=hi32 x{k}"), Box::new(fh(k)))); }
    for k in [3, 4, 5, 6] { c.push((format!("feistel F=lo^hi x{k}"), Box::new(ff(k)))); }
    // mix13 shape with 32-bit multipliers (each 64-bit multiply = 2 pmuludq)
    c.push(("m32 x2 30/27/31".into(), Box::new(m32(&[30, 27, 31], &[0x9E3779B1, 0x85EBCA77]))));
    c.push(("m32 x3 32/29/32/29".into(), Box::new(m32(&[32, 29, 32, 29], &[0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D]))));
    c.push(("m32 x3 33/31/30/32 (=B1)".into(), Box::new(m32(&[33, 31, 30, 32], &[0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D]))));
    for (name, f) in &c { println!("{name:28} worst avalanche bias {:.5}", aval(f.as_ref(), n)); }
}
