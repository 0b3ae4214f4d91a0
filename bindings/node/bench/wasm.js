'use strict'
// The WebAssembly build (longstraw-wasm32-wasi) against the native addon, in one process and one run:
// owner() per key at n = 10 and 100 (with the 10-line pure-JS HRW of bench.js as a yardstick), and a
// packed batch (ownerIndices) at n = 4096. Both builds are loaded directly, not through the loader, so
// that they sit side by side; the wasm one must have been built (make build-node-wasm).
// owner() in wasm is measured twice: with its fast path (a string key encoded into wasm memory and
// looked up by a plain export; src/node_api/branded/fast.rs) and, in a child process started with
// LONGSTRAW_NODE_WASM_FAST=0, through emnapi's Node-API glue only. A breakdown puts the parts of one
// call side by side: the lookup itself (ownerIndices over 10000 packed keys, per key), and the rest
// (for the fast path: the key copy, the call, the id cache; for emnapi, its glue).
//
//   node bindings/node/bench/wasm.js [--quick] [--json FILE]   (Markdown tables on stdout, for bench/record.py)
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const PKG = path.join(__dirname, '..')
const QUICK = process.argv.includes('--quick')
const jsonAt = process.argv.indexOf('--json')
const platform = `${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : ''}`
const native = require(path.join(PKG, `longstraw.${platform}.node`))
const CHILD = process.argv.includes('--emnapi-child')
if (CHILD && process.env.LONGSTRAW_NODE_WASM_FAST !== '0') throw new Error('--emnapi-child needs LONGSTRAW_NODE_WASM_FAST=0')
const wasm = require(path.join(PKG, 'longstraw.wasi.cjs'))
const fastPath = String(wasm.Rendezvous.prototype.owner).includes('fastIndex')
if (fastPath === CHILD) throw new Error(`the fast path of owner() is ${fastPath ? 'on' : 'off'} in the ${CHILD ? 'emnapi-only child' : 'main run'}`)

function fnv1a (s) {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) }
  return h >>> 0
}
function mix32 (x) {
  x ^= x >>> 16; x = Math.imul(x, 0x7feb352d); x ^= x >>> 15; x = Math.imul(x, 0x846ca68b); x ^= x >>> 16
  return x >>> 0
}
class JsHrw {
  constructor (nodes) { this.nodes = nodes; this.hashes = nodes.map(fnv1a) }
  owner (key) {
    const k = fnv1a(key); const h = this.hashes
    let best = -1; let at = 0
    for (let i = 0; i < h.length; i++) { const s = mix32(k ^ h[i]); if (s > best) { best = s; at = i } }
    return this.nodes[at]
  }
}

/** ns per call of `f(i)`, `i` cycling through 0..count-1: the best of ROUNDS windows of at least WINDOW_MS
 * each. On a shared machine the best short windows are the ones nothing preempted (long rounds always
 * include other processes' time). */
const ROUNDS = QUICK ? 10 : 60
const WINDOW_MS = 2
function nsPer (f, count) {
  const chunk = Math.min(256, count)
  let best = Infinity
  let sink = 0
  let i = 0
  for (let round = 0; round < ROUNDS; round++) {
    let calls = 0
    const start = process.hrtime.bigint()
    let elapsed = 0
    while (elapsed < WINDOW_MS * 1e6) {
      for (let j = 0; j < chunk; j++) {
        sink += f(i) ? 1 : 0
        if (++i === count) i = 0
      }
      calls += chunk
      elapsed = Number(process.hrtime.bigint() - start)
    }
    best = Math.min(best, elapsed / calls)
  }
  if (sink < 0) console.log(sink)
  return best
}

const keys = Array.from({ length: 10000 }, (_, i) => `user:${i}`)
const nodesOf = (n) => Array.from({ length: n }, (_, i) => `cache-${i}`)
if (CHILD) {
  const out = {}
  for (const n of [10, 100]) {
    const rw = new wasm.Rendezvous(nodesOf(n))
    out[n] = nsPer((i) => rw.owner(keys[i]), keys.length)
  }
  console.log(JSON.stringify(out))
  process.exit(0)
}
const { spawnSync } = require('node:child_process')
const child = spawnSync(process.execPath, ['--no-warnings', __filename, '--emnapi-child', ...(QUICK ? ['--quick'] : [])], {
  encoding: 'utf8', env: { ...process.env, LONGSTRAW_NODE_WASM_FAST: '0' }
})
if (child.status !== 0) throw new Error(`the emnapi-only run failed: ${child.stderr}`)
const emnapiNs = JSON.parse(child.stdout)
const packedKeys = (list) => {
  const offsets = new Uint32Array(list.length + 1)
  for (let i = 0, at = 0; i < list.length; i++) { at += Buffer.byteLength(list[i]); offsets[i + 1] = at }
  return { bytes: Buffer.from(list.join('')), offsets }
}
const results = { owner: [], breakdown: [], batch: [] }
for (const n of [10, 100]) {
  const nodes = nodesOf(n)
  const rn = new native.Rendezvous(nodes)
  const rw = new wasm.Rendezvous(nodes)
  const js = new JsHrw(nodes)
  for (let i = 0; i < 1000; i++) if (rn.owner(keys[i]) !== rw.owner(keys[i])) throw new Error(`owners differ at n=${n}`)
  const row = {
    n,
    native_ns: nsPer((i) => rn.owner(keys[i]), keys.length),
    wasm_ns: nsPer((i) => rw.owner(keys[i]), keys.length),
    wasm_emnapi_ns: emnapiNs[n],
    js_hrw_ns: nsPer((i) => js.owner(keys[i]), keys.length)
  }
  row.wasm_over_native = row.wasm_ns / row.native_ns
  row.wasm_emnapi_over_native = row.wasm_emnapi_ns / row.native_ns
  row.wasm_over_js_hrw = row.wasm_ns / row.js_hrw_ns
  results.owner.push(row)
  // The parts of one wasm owner() call.
  const sw = rw.snapshot()
  const { bytes, offsets } = packedKeys(keys)
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true })
  const scratch = new Uint8Array(memory.buffer, 0, 3072)
  const encoder = new TextEncoder()
  const parts = {
    n,
    lookup_ns: nsPer(() => sw.ownerIndices(bytes, offsets), 1) / keys.length,
    encode_ns: nsPer((i) => encoder.encodeInto(keys[i], scratch).written, keys.length)
  }
  parts.fast_rest_ns = row.wasm_ns - parts.lookup_ns
  parts.emnapi_glue_ns = row.wasm_emnapi_ns - parts.lookup_ns
  results.breakdown.push(parts)
}
{
  const n = 4096
  const nodes = Array.from({ length: n }, (_, i) => `cache-${i}`)
  const weighted = { weights: nodes.map((_, i) => 1 + (i % 7)) }
  const batchKeys = keys.slice(0, 256)
  const bytes = Buffer.from(batchKeys.join(''))
  const offsets = new Uint32Array(batchKeys.length + 1)
  for (let i = 0, at = 0; i < batchKeys.length; i++) { at += Buffer.byteLength(batchKeys[i]); offsets[i + 1] = at }
  for (const [mode, options] of [['plain', {}], ['weighted', weighted]]) {
    const sn = new native.Rendezvous(nodes, options).snapshot()
    const sw = new wasm.Rendezvous(nodes, options).snapshot()
    const a = sn.ownerIndices(bytes, offsets); const b = sw.ownerIndices(bytes, offsets)
    if (a.some((v, i) => v !== b[i])) throw new Error(`batch owners differ (${mode})`)
    const row = {
      n,
      mode,
      keys: batchKeys.length,
      native_ns_per_key: nsPer(() => sn.ownerIndices(bytes, offsets), 1) / batchKeys.length,
      wasm_ns_per_key: nsPer(() => sw.ownerIndices(bytes, offsets), 1) / batchKeys.length
    }
    row.wasm_over_native = row.wasm_ns_per_key / row.native_ns_per_key
    results.batch.push(row)
  }
}
const f1 = (x) => x.toFixed(1)
const f2 = (x) => x.toFixed(2)
console.log(`node ${process.version}, ${os.cpus()[0].model}, load average ${os.loadavg().map(f2).join(' ')}`)
console.log(`backends: native ${native.backend()}, wasm ${wasm.backend()}; wasm module ${fs.statSync(path.join(PKG, 'longstraw.wasm32-wasi.wasm')).size} bytes`)
console.log(`\n## owner(key), ns per call (best of ${ROUNDS} windows of ${WINDOW_MS} ms, 10000 string keys)\n`)
console.log('wasm: with the fast path (a plain export); wasm via emnapi: LONGSTRAW_NODE_WASM_FAST=0, in a child process.\n')
console.log('| n | native | wasm | wasm via emnapi | pure-JS HRW | wasm / native | wasm via emnapi / native | wasm / JS HRW |')
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |')
for (const r of results.owner) {
  console.log(`| ${r.n} | ${f1(r.native_ns)} | ${f1(r.wasm_ns)} | ${f1(r.wasm_emnapi_ns)} | ${f1(r.js_hrw_ns)} | ${f2(r.wasm_over_native)} | ${f2(r.wasm_emnapi_over_native)} | ${f2(r.wasm_over_js_hrw)} |`)
}
console.log('\n## where one wasm owner() call goes, ns\n')
console.log('lookup: ownerIndices over the 10000 keys packed, per key (hashing and the race in wasm, no per-key glue);')
console.log('fast path, the rest: owner() minus the lookup (copying the key into wasm memory, the export call, the')
console.log('receiver state, the id cache); encodeInto: what copying takes instead for a key that is not short ASCII')
console.log('(the keys here are); emnapi glue: owner() via emnapi minus the lookup.\n')
console.log('| n | lookup | fast path: the rest | encodeInto | emnapi: glue |')
console.log('| --- | --- | --- | --- | --- |')
for (const p of results.breakdown) {
  console.log(`| ${p.n} | ${f1(p.lookup_ns)} | ${f1(p.fast_rest_ns)} | ${f1(p.encode_ns)} | ${f1(p.emnapi_glue_ns)} |`)
}
console.log(`\n## ownerIndices, ns per key (best of ${ROUNDS} windows of ${WINDOW_MS} ms): 256 packed keys, n = 4096\n`)
console.log('| mode | native | wasm | wasm / native |')
console.log('| --- | --- | --- | --- |')
for (const r of results.batch) {
  console.log(`| ${r.mode} | ${f1(r.native_ns_per_key)} | ${f1(r.wasm_ns_per_key)} | ${f2(r.wasm_over_native)} |`)
}
if (jsonAt > 0) fs.writeFileSync(process.argv[jsonAt + 1], JSON.stringify(results, null, 2) + '\n')
