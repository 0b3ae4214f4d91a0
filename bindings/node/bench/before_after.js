'use strict'
// Two builds of the addon in one process, side by side: per-call and batch lookups of a flat set,
// ns per key, best of interleaved rounds (A, B, A, B, ...), so both see the same machine state.
//
//   node bindings/node/bench/before_after.js OLD.node NEW.node [--quick]
//
// Build OLD from an older checkout (`cargo build --release -p longstraw-node`, then copy
// target/release/liblongstraw_node.so to OLD.node). Only `new Rendezvous(nodes)`, `owner`, `topK`,
// `owners`, `snapshot()` and `ownerIndices` are used, which every build has.
const os = require('node:os')
const path = require('node:path')

const [oldPath, newPath] = process.argv.slice(2).filter((a) => !a.startsWith('--'))
if (!oldPath || !newPath) {
  console.error('usage: node before_after.js OLD.node NEW.node [--quick]')
  process.exit(2)
}
const QUICK = process.argv.includes('--quick')
const ROUNDS = QUICK ? 5 : 15
const MIN_MS = QUICK ? 10 : 40
const builds = { before: require(path.resolve(oldPath)), after: require(path.resolve(newPath)) }

const KEYS = Array.from({ length: 50_000 }, (_, i) => `user:${i * 7919}:session`)
const packed = Buffer.from(KEYS.join(''))
const offsets = new Uint32Array(KEYS.length + 1)
for (let i = 0, at = 0; i < KEYS.length; i++) { at += Buffer.byteLength(KEYS[i]); offsets[i + 1] = at }
const out = new Uint32Array(KEYS.length)
let sink = 0

/** ns per key of one timed stretch of at least MIN_MS. */
function once (fn, perCall) {
  let calls = 0
  const start = process.hrtime.bigint()
  let elapsed = 0n
  do { fn(); calls++; elapsed = process.hrtime.bigint() - start } while (elapsed < BigInt(MIN_MS) * 1_000_000n)
  return Number(elapsed) / (calls * perCall)
}

const cases = []
for (const n of [10, 1000]) {
  const nodes = Array.from({ length: n }, (_, i) => `node-${i}`)
  const sets = {}
  for (const [name, lib] of Object.entries(builds)) {
    const set = new lib.Rendezvous(nodes)
    sets[name] = { set, snap: set.snapshot() }
  }
  const per = 1000
  const few = KEYS.slice(0, per)
  cases.push([`owner(key) n=${n}`, ({ set }) => () => { for (let i = 0; i < per; i++) sink ^= set.owner(few[i]).length }, per])
  cases.push([`topK(key, 3) n=${n}`, ({ set }) => () => { for (let i = 0; i < per; i++) sink ^= set.topK(few[i], 3).length }, per])
  cases.push([`snapshot.owner(key) n=${n}`, ({ snap }) => () => { for (let i = 0; i < per; i++) sink ^= snap.owner(few[i]).length }, per])
  cases.push([`owners(string[]) n=${n}`, ({ set }) => () => { sink ^= set.owners(KEYS).length }, KEYS.length])
  cases.push([`ownerIndices(bytes, offsets, out) n=${n}`, ({ snap }) => () => { sink ^= snap.ownerIndices(packed, offsets, out).length }, KEYS.length])
  for (const c of cases.slice(-5)) c.push(sets)
}

console.log(`# before: ${oldPath}\n# after: ${newPath}`)
console.log(`# node ${process.version}, ${os.cpus()[0].model.trim()} (${os.cpus().length} cores), best of ${ROUNDS} interleaved rounds, ns per key`)
console.log('\n| operation | before | after | after / before |\n|---|---:|---:|---:|')
for (const [name, make, perCall, sets] of cases) {
  const best = { before: Infinity, after: Infinity }
  const fns = { before: make(sets.before), after: make(sets.after) }
  fns.before(); fns.after()
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 ? ['after', 'before'] : ['before', 'after']) best[side] = Math.min(best[side], once(fns[side], perCall))
  }
  console.log(`| ${name} | ${best.before.toFixed(1)} | ${best.after.toFixed(1)} | ${(best.after / best.before).toFixed(2)} |`)
}
console.log(`\n# load average at end: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`)
if (sink === 0.5) console.log(sink)
