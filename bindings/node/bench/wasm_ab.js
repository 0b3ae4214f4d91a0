'use strict'
// Two WebAssembly builds of the addon side by side, rounds interleaved (A, B, A, B, ...) so that a
// loaded machine slows both alike: owner() at n = 10 and 100, and ownerIndices per key at n = 100 and
// 4096 (plain and weighted). For choosing the Cargo profile of the wasm build (size against speed).
// Each DIR holds a build's loader and module (napi build -o DIR; run scripts/wasi-fast-path.js on its
// longstraw.wasi.cjs for the owner() fast path); NODE_PATH must reach bindings/node/node_modules.
//
//   NODE_PATH=bindings/node/node_modules node bindings/node/bench/wasm_ab.js DIR_A DIR_B [rounds]
const os = require('node:os')
const path = require('node:path')

const [dirA, dirB] = process.argv.slice(2, 4)
const ROUNDS = Number(process.argv[4] || 60)
// Short windows, many rounds: on a shared machine the best windows are the ones nothing preempted.
const MS = Number(process.env.WASM_AB_MS || 2)
if (!dirA || !dirB) throw new Error('usage: wasm_ab.js DIR_A DIR_B [rounds]')
const builds = [dirA, dirB].map((d) => require(path.resolve(d, 'longstraw.wasi.cjs')))

/** ns per call of f(i) over `count` calls, run for at least `ms`. */
function timed (f, count, ms) {
  let sink = 0
  let calls = 0
  const start = process.hrtime.bigint()
  let elapsed = 0
  while (elapsed < ms * 1e6) {
    for (let i = 0; i < count; i++) sink += f(i) ? 1 : 0
    calls += count
    elapsed = Number(process.hrtime.bigint() - start)
  }
  if (sink < 0) console.log(sink)
  return elapsed / calls
}

const keys = Array.from({ length: 10000 }, (_, i) => `user:${i}`)
const offsets = new Uint32Array(keys.length + 1)
for (let i = 0, at = 0; i < keys.length; i++) { at += Buffer.byteLength(keys[i]); offsets[i + 1] = at }
const bytes = Buffer.from(keys.join(''))
const nodesOf = (n) => Array.from({ length: n }, (_, i) => `cache-${i}`)
const cases = []
for (const n of [10, 100]) {
  const sets = builds.map((b) => new b.Rendezvous(nodesOf(n)))
  cases.push({ name: `owner() n=${n}, ns/call`, run: (k) => timed((i) => sets[k].owner(keys[i]), 2000, MS) })
}
for (const [n, options, mode] of [[100, {}, 'plain'], [4096, {}, 'plain'], [4096, { weights: nodesOf(4096).map((_, i) => 1 + (i % 7)) }, 'weighted']]) {
  const snaps = builds.map((b) => new b.Rendezvous(nodesOf(n), options).snapshot())
  const few = n > 1000 ? 64 : 1000
  cases.push({
    name: `ownerIndices n=${n} ${mode}, ns/key`,
    run: (k) => timed(() => snaps[k].ownerIndices(bytes, offsets.subarray(0, few + 1)), 1, MS) / few
  })
}
const best = cases.map(() => [Infinity, Infinity])
for (let r = 0; r < ROUNDS; r++) {
  cases.forEach((c, i) => { for (const k of (r % 2 ? [1, 0] : [0, 1])) best[i][k] = Math.min(best[i][k], c.run(k)) })
}
console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; best of ${ROUNDS} interleaved rounds`)
console.log(`A = ${dirA}\nB = ${dirB}\n`)
console.log('| case | A | B | B / A |')
console.log('| --- | --- | --- | --- |')
cases.forEach((c, i) => console.log(`| ${c.name} | ${best[i][0].toFixed(1)} | ${best[i][1].toFixed(1)} | ${(best[i][1] / best[i][0]).toFixed(3)} |`))
