'use strict'
// The cost of the calls that answer arrays (topK(key, 3), topK(key, 20), rank, owners() of 4096 and of 50
// keys, the `nodes` getter), for this build and another build of the addon (--baseline) in the same process. Each
// round measures every row of both builds, the baseline right before this build; a row's number is the
// median over the rounds of each round's fastest sample, so both builds see the same load.
//
//   node bindings/node/bench/arrays.js --baseline path/to/other/longstraw.node [--rounds 7] [--quick]
const os = require('node:os')
const path = require('node:path')

const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const BASELINE = option('--baseline', null)
const ROUNDS = Number(option('--rounds', 7))
const MS = args.includes('--quick') ? 100 : 400
const N = 100
const BATCH = 4096
const KEY_COUNT = 10_000

let sink = 0
const consume = (x) => { sink ^= x.length }
const keys = Array.from({ length: KEY_COUNT }, (_, i) => `user:${i}:${(i * 2654435761) >>> 0}`)
const batches = Array.from({ length: 8 }, (_, b) => keys.slice(b * 1000, b * 1000 + BATCH).concat(keys).slice(0, BATCH))

function rows (lib) {
  const set = new lib.Rendezvous(Array.from({ length: N }, (_, i) => `10.0.${i >> 8}.${i & 255}:11211`))
  const snap = set.snapshot()
  return {
    'topK(key, 3)': [(i) => set.topK(keys[i % KEY_COUNT], 3), 1],
    'topK(key, 20)': [(i) => set.topK(keys[i % KEY_COUNT], 20), 1],
    'snapshot.topK(key, 20)': [(i) => snap.topK(keys[i % KEY_COUNT], 20), 1],
    'rank(key) (100 ids)': [(i) => set.rank(keys[i % KEY_COUNT]), 1],
    [`owners(${BATCH} keys)`]: [(i) => set.owners(batches[i % batches.length]), BATCH],
    'owners(50 keys)': [(i) => set.owners(batches[i % batches.length].slice(0, 50)), 50],
    nodes: [() => set.nodes, 1]
  }
}

/** The fastest sample (ns per call, or per key for a batch) over MS milliseconds. */
function fastest ([f, perCall]) {
  const calls = perCall === 1 ? 1000 : 4
  let best = Infinity
  let i = 0
  for (let w = 0; w < calls; w++) consume(f(i++))
  const until = process.hrtime.bigint() + BigInt(MS * 1e6)
  let samples = 0
  while (samples < 10 || process.hrtime.bigint() < until) {
    const start = process.hrtime.bigint()
    for (let c = 0; c < calls; c++) consume(f(i++))
    best = Math.min(best, Number(process.hrtime.bigint() - start) / (calls * perCall))
    samples++
  }
  return best
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1] }
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ')

const now = rows(require(path.join(__dirname, '..')))
const then = BASELINE ? rows(require(path.resolve(BASELINE))) : null
const results = Object.fromEntries(Object.keys(now).map((k) => [k, { before: [], after: [] }]))
console.log(`# longstraw Node: calls answering arrays, n = ${N}, node ${process.version}, ${os.cpus()[0]?.model} (${os.cpus().length} cores)`)
console.log(`- ${ROUNDS} rounds, each row's fastest sample over ${MS} ms per round; median over rounds; load average at start ${load()}`)
for (let r = 0; r < ROUNDS; r++) {
  for (const name of Object.keys(now)) {
    if (then) results[name].before.push(fastest(then[name]))
    results[name].after.push(fastest(now[name]))
  }
}
console.log('\n| call | before | after | after / before | per |')
console.log('|---|---:|---:|---:|---|')
for (const [name, { before, after }] of Object.entries(results)) {
  const b = before.length ? median(before) : NaN
  const a = median(after)
  console.log(`| ${name} | ${b.toFixed(1)} ns | ${a.toFixed(1)} ns | ${(a / b).toFixed(3)} | ${now[name][1] === 1 ? 'call' : 'key'} |`)
}
console.log(`\n- load average at end ${load()}`)
if (sink === 0.5) console.log(sink)
