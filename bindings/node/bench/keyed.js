'use strict'
// owner(key) for 16-byte keys, v1 against keyed-v1 (docs/SPEC.md §15), in ns per lookup. Each figure
// is the fastest of many short alternating batches, so that other jobs on a shared machine do not
// inflate it (see bench/runs/2026-12-01-keyed/README.md). Run: node bindings/node/bench/keyed.js
const crypto = require('node:crypto')
const { Rendezvous } = require('..')

const BATCH = 64
const ROUNDS = 10000
const keys = Array.from({ length: 4096 }, (_, i) => Buffer.from(`key:${String(i).padStart(12, '0')}`))

function fastestPair (a, b) {
  const best = [Infinity, Infinity]
  let sink = 0
  for (let r = 0; r < ROUNDS; r++) {
    ;[a, b].forEach((placer, which) => {
      const t0 = process.hrtime.bigint()
      for (let i = 0; i < BATCH; i++) sink += placer.owner(keys[(r * BATCH + i) & 4095]).length
      const ns = Number(process.hrtime.bigint() - t0) / BATCH
      if (ns < best[which]) best[which] = ns
    })
  }
  if (sink === -1) console.log(sink)
  return best
}

console.log('| n | v1 ns | keyed-v1 ns | extra |')
console.log('|---|---|---|---|')
for (const n of [10, 100, 1000]) {
  const nodes = Array.from({ length: n }, (_, i) => `node-${i}`)
  const [v1, keyed] = fastestPair(new Rendezvous(nodes), new Rendezvous(nodes, { secret: crypto.randomBytes(16) }))
  console.log(`| ${n} | ${v1.toFixed(0)} | ${keyed.toFixed(0)} | ${(keyed - v1 >= 0 ? '+' : '') + (keyed - v1).toFixed(0)} |`)
}
