'use strict'
// longstraw (native, via napi-rs) against what a Node user would pick instead:
// hashring (ketama), consistent-hash, a 10-line pure-JS HRW and a JS jump hash.
// One run, side by side; ns per key and each alternative's time relative to
// longstraw (a ratio > 1 means longstraw is that many times faster).
//
//   node bindings/node/bench/bench.js [--quick]
const os = require('node:os')
const HashRing = require('hashring')
const ConsistentHash = require('consistent-hash')
const { Rendezvous, backend } = require('..')

const QUICK = process.argv.includes('--quick')
const SIZES = [10, 100, 1000]
const KEY_COUNT = 50_000 // more than hashring's 5000-entry LRU cache, so lookups are computed
const MIN_MS = QUICK ? 60 : 450

// ---- the pure-JS baselines ----

// FNV-1a over UTF-16 code units, and a 32-bit finaliser (lowbias32).
function fnv1a (s) {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) }
  return h >>> 0
}
function mix32 (x) {
  x ^= x >>> 16; x = Math.imul(x, 0x7feb352d); x ^= x >>> 15; x = Math.imul(x, 0x846ca68b); x ^= x >>> 16
  return x >>> 0
}

// The 10-line HRW people write: unweighted, 32-bit scores.
class JsHrw {
  constructor (nodes) { this.nodes = nodes; this.hashes = nodes.map(fnv1a) }
  owner (key) {
    const k = fnv1a(key); const h = this.hashes
    let best = -1; let at = 0
    for (let i = 0; i < h.length; i++) { const s = mix32(k ^ h[i]); if (s > best) { best = s; at = i } }
    return this.nodes[at]
  }

  topK (key, k) {
    // Keep the best k in a small sorted array: O(n k), no sort of all n.
    const kh = fnv1a(key); const h = this.hashes
    const scores = []; const idx = []
    for (let i = 0; i < h.length; i++) {
      const s = mix32(kh ^ h[i])
      if (scores.length === k && s <= scores[k - 1]) continue
      let j = scores.length < k ? scores.length : k - 1
      while (j > 0 && scores[j - 1] < s) { scores[j] = scores[j - 1]; idx[j] = idx[j - 1]; j-- }
      scores[j] = s; idx[j] = i
    }
    return idx.map((i) => this.nodes[i])
  }
}

// Jump consistent hash (Lamping & Veach) with a 32-bit xorshift stream seeded
// by the key hash instead of the 64-bit LCG (BigInt would dominate the time).
class JsJump {
  constructor (nodes) { this.nodes = nodes }
  owner (key) {
    let x = mix32(fnv1a(key)) || 1
    let b = -1; let j = 0
    const n = this.nodes.length
    while (j < n) {
      b = j
      x ^= x << 13; x ^= x >>> 17; x ^= x << 5
      j = Math.floor((b + 1) * (4294967296 / ((x >>> 0) + 1)))
    }
    return this.nodes[b]
  }
}

// ---- timing ----

// The best of ROUNDS short rounds, each at least MIN_MS / ROUNDS long: on a
// shared machine the minimum is the least disturbed estimate.
const ROUNDS = 15

function timePerKey (fn, keyCount) {
  fn() // warm up
  let best = Infinity
  for (let round = 0; round < ROUNDS; round++) {
    let passes = 0
    const start = process.hrtime.bigint()
    let elapsed = 0
    do {
      fn()
      passes++
      elapsed = Number(process.hrtime.bigint() - start) / 1e6
    } while (elapsed < MIN_MS / ROUNDS)
    best = Math.min(best, (elapsed * 1e6) / (passes * keyCount))
  }
  return best
}

async function timePerKeyAsync (fn, keyCount) {
  await fn()
  let best = Infinity
  for (let round = 0; round < ROUNDS; round++) {
    let passes = 0
    const start = process.hrtime.bigint()
    let elapsed = 0
    do {
      await fn()
      passes++
      elapsed = Number(process.hrtime.bigint() - start) / 1e6
    } while (elapsed < MIN_MS / ROUNDS)
    best = Math.min(best, (elapsed * 1e6) / (passes * keyCount))
  }
  return best
}

let sink = 0
const consume = (x) => { sink ^= typeof x === 'string' ? x.length : x.length | 0 }

module.exports = { JsHrw, JsJump }

async function main () {
  const keys = Array.from({ length: KEY_COUNT }, (_, i) => `user:${i}:${(i * 2654435761) >>> 0}`)
  const bytes = Buffer.from(keys.join(''))
  const offsets = new Uint32Array(KEY_COUNT + 1)
  keys.forEach((k, i) => { offsets[i + 1] = offsets[i] + Buffer.byteLength(k) })
  const out = new Uint32Array(KEY_COUNT)
  const results = [] // { op, impl, n, ns }

  for (const n of SIZES) {
    const nodes = Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}:11211`)
    const ls = new Rendezvous(nodes)
    const snap = ls.snapshot()
    const ring = new HashRing(nodes)
    const ch = new ConsistentHash({ range: 1_000_003 })
    for (const node of nodes) ch.add(node)
    const hrw = new JsHrw(nodes)
    const jump = new JsJump(nodes)

    // Per-key loops run over as many keys as fit in ~10 ms, but never fewer
    // than 6000, so that hashring's 5000-entry LRU cache never answers.
    const each = (f) => {
      const t0 = process.hrtime.bigint()
      for (let i = 0; i < 200; i++) consume(f(keys[i]))
      const est = Number(process.hrtime.bigint() - t0) / 200
      const count = Math.max(6000, Math.min(KEY_COUNT, Math.round(10e6 / est)))
      return [() => { for (let i = 0; i < count; i++) consume(f(keys[i])) }, count]
    }
    const add = (op, impl, ns) => results.push({ op, impl, n, ns })

    add('owner(key)', 'longstraw', timePerKey(...each((k) => ls.owner(k))))
    add('owner(key)', 'longstraw snapshot.ownerIndex', timePerKey(...each((k) => snap.ownerIndex(k) + '')))
    add('owner(key)', 'hashring', timePerKey(...each((k) => ring.get(k))))
    add('owner(key)', 'consistent-hash', timePerKey(...each((k) => ch.get(k))))
    add('owner(key)', 'pure-JS HRW', timePerKey(...each((k) => hrw.owner(k))))
    add('owner(key)', 'JS jump', timePerKey(...each((k) => jump.owner(k))))

    add('topK(key, 3)', 'longstraw', timePerKey(...each((k) => ls.topK(k, 3))))
    add('topK(key, 3)', 'hashring', timePerKey(...each((k) => ring.range(k, 3))))
    add('topK(key, 3)', 'consistent-hash', timePerKey(...each((k) => ch.get(k, 3))))
    add('topK(key, 3)', 'pure-JS HRW', timePerKey(...each((k) => hrw.topK(k, 3))))

    // Batches of 50000 keys (5000 at n=1000, to keep rounds short); zero-copy views.
    const bc = n >= 1000 ? 5000 : KEY_COUNT
    const bBytes = bytes.subarray(0, offsets[bc])
    const bOffsets = offsets.subarray(0, bc + 1)
    const bOut = out.subarray(0, bc)
    const bKeys = keys.slice(0, bc)
    add('batch', 'longstraw ownerIndices (zero-copy, out)', timePerKey(() => consume(snap.ownerIndices(bBytes, bOffsets, bOut)), bc))
    add('batch', 'longstraw ownerIndices (new array)', timePerKey(() => consume(snap.ownerIndices(bBytes, bOffsets)), bc))
    add('batch', 'longstraw owners(string[])', timePerKey(() => consume(ls.owners(bKeys)), bc))
    add('batch', 'longstraw ownerIndicesAsync', await timePerKeyAsync(async () => consume(await snap.ownerIndicesAsync(bBytes, bOffsets)), bc))
    add('batch', 'pure-JS HRW loop', timePerKey(...each((k) => hrw.owner(k))))
    add('batch', 'JS jump loop', timePerKey(...each((k) => jump.owner(k))))
    add('batch', 'hashring loop', timePerKey(...each((k) => ring.get(k))))
  }

  const cpu = os.cpus()[0]?.model || 'unknown CPU'
  console.log(`# longstraw Node benchmark: node ${process.version}, ${os.platform()}-${os.arch()}, ${cpu} (${os.cpus().length} cores), backend ${backend()}, load average at end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`)
  console.log(`# ${KEY_COUNT} distinct keys (~${Math.round(bytes.length / KEY_COUNT)} bytes), best of ${ROUNDS} rounds of >= ${MIN_MS / ROUNDS} ms per cell; ns per key (ratio = that / longstraw; > 1 means longstraw is faster)\n`)
  const baseFor = (op, n) => results.find((r) => r.op === op && r.n === n && r.impl.startsWith('longstraw')).ns
  for (const op of ['owner(key)', 'topK(key, 3)', 'batch']) {
    console.log(`## ${op}${op === 'batch' ? ' (ratio vs the zero-copy ownerIndices)' : ''}\n`)
    console.log(`| implementation | ${SIZES.map((n) => `n=${n}`).join(' | ')} |`)
    console.log(`|---|${SIZES.map(() => '---:').join('|')}|`)
    const impls = [...new Set(results.filter((r) => r.op === op).map((r) => r.impl))]
    for (const impl of impls) {
      const cells = SIZES.map((n) => {
        const r = results.find((x) => x.op === op && x.impl === impl && x.n === n)
        const ratio = r.ns / baseFor(op, n)
        return `${r.ns.toFixed(1)} ns (${ratio.toFixed(2)}x)`
      })
      console.log(`| ${impl} | ${cells.join(' | ')} |`)
    }
    console.log('')
  }
  const at = (op, impl, n) => results.find((r) => r.op === op && r.impl === impl && r.n === n).ns
  const o100 = at('owner(key)', 'longstraw', 100)
  console.log('## goals\n')
  console.log(`- owner() at n=100 >= 10x hashring: ${(at('owner(key)', 'hashring', 100) / o100).toFixed(1)}x`)
  console.log(`- owner() at n=100 faster than pure-JS HRW: ${(at('owner(key)', 'pure-JS HRW', 100) / o100).toFixed(2)}x`)
  console.log(`- zero-copy batch per key at n=10 <= 30 ns: ${at('batch', 'longstraw ownerIndices (zero-copy, out)', 10).toFixed(1)} ns`)
  if (sink === 0.5) console.log(sink)
}

if (require.main === module) main().catch((e) => { console.error(e); process.exitCode = 1 })
