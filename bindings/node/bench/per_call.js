'use strict'
// The per-call cost of owner(), for instruction counts and memory; timings come from
// bench/strings/node_strings.js (which measures this build and a baseline in one run).
//
//   node bench/per_call.js loop ADDON CALL COUNT    one call kind COUNT times after a warm-up
//                                                   (run under callgrind; see per_call_callgrind.sh)
//   node --expose-gc bench/per_call.js memory ADDON N
//                                                   the heap the id strings owner() hands out keep,
//                                                   per node, once every node of an N-node skeleton set was returned
const path = require('node:path')

const [mode, addon, arg, countArg] = process.argv.slice(2)
const lib = require(path.resolve(addon))
let sink = 0

if (mode === 'loop') {
  const nodes = Array.from({ length: 10 }, (_, i) => `10.0.0.${i}:11211`)
  const set = new lib.Rendezvous(nodes)
  const snap = set.snapshot()
  const keys = Array.from({ length: 1000 }, (_, i) => `user:${i}:${(i * 2654435761) >>> 0}`)
  const calls = {
    trivial: (k) => lib.backend(),
    owner: (k) => set.owner(k),
    'snapshot.owner': (k) => snap.owner(k),
    'snapshot.ownerIndex': (k) => snap.ownerIndex(k) + '',
  }
  const f = calls[arg]
  const run = (count) => { for (let i = 0; i < count; i++) sink ^= f(keys[i % 1000]).length }
  run(50_000) // warm-up: the loop and the call are optimised before the counted part
  run(Number(countArg))
} else if (mode === 'memory') {
  const n = Number(arg)
  const nodes = Array.from({ length: n }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:11211`)
  // A skeleton, so that a lookup at this size is fast; owner() works alike in every mode.
  const set = lib.Rendezvous.skeleton(nodes)
  const heap = () => { global.gc(); global.gc(); return process.memoryUsage().heapUsed }
  const before = heap()
  const seen = new Set()
  for (let i = 0; seen.size < n; i++) seen.add(set.owner(`key-${i}`))
  seen.clear()
  const after = heap()
  // `nodes` and `set` stay alive until here, so that only what owner() made is counted.
  console.log(JSON.stringify({ n: Math.min(nodes.length, set.size), heapBefore: before, heapAfter: after, bytesPerNode: (after - before) / n }))
} else {
  console.error('usage: see the comment at the top')
  process.exit(2)
}
if (sink === 0.5) console.log(sink)
