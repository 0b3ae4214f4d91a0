'use strict'
// The per-call cost of the lookup methods (owner, a snapshot's ownerIndex, topK(key, 3)) next to a trivial
// call of the same addon (backend()), at n = 10 and n = 100, for this build and, with --baseline, another
// build measured in the same process: each row of the baseline runs right before the same row of this
// build, so both see the same load.
//
//   node bindings/node/bench/per_call_lookups.js [--quick] [--baseline path/to/other/longstraw.node] \
//     | python3 bench/record.py --run node-per-call --command '...'
//   node bindings/node/bench/per_call_lookups.js loop ADDON CALL N COUNT
//                              one call kind (trivial, owner, ownerIndex, topK3) COUNT times at n = N after a
//                              warm-up, for instruction counts (run it under callgrind)
const os = require('node:os')
const path = require('node:path')

const KEY_COUNT = 10_000
const PER_SAMPLE = 1000
const MIN_SAMPLES = 20
let sink = 0
const consume = (x) => { sink ^= typeof x === 'number' ? x : x.length }

const keys = Array.from({ length: KEY_COUNT }, (_, i) => `user:${i}:${(i * 2654435761) >>> 0}`)
const nodesOf = (n) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}:11211`)

/** The call kinds, for `lib` at `n` nodes. */
function calls (lib, n) {
  const set = new lib.Rendezvous(nodesOf(n))
  const snap = set.snapshot()
  return {
    trivial: () => lib.backend(),
    owner: (k) => set.owner(k),
    'snapshot.owner': (k) => snap.owner(k),
    ownerIndex: (k) => snap.ownerIndex(k),
    topK3: (k) => set.topK(k, 3),
    'snapshot.topK3': (k) => snap.topK(k, 3)
  }
}

const LABEL = {
  trivial: 'backend() (a trivial call of the addon)',
  owner: 'rendezvous.owner(key)',
  'snapshot.owner': 'snapshot.owner(key)',
  ownerIndex: 'snapshot.ownerIndex(key)',
  topK3: 'rendezvous.topK(key, 3)',
  'snapshot.topK3': 'snapshot.topK(key, 3)'
}

if (process.argv[2] === 'loop') {
  const [, , , addon, call, n, count] = process.argv
  const f = calls(require(path.resolve(addon)), Number(n))[call]
  const run = (c) => { for (let i = 0; i < c; i++) consume(f(keys[i % KEY_COUNT])) }
  run(50_000) // warm-up: the loop and the call are optimised before the counted part
  run(Number(count))
  if (sink === 0.5) console.log(sink)
  process.exit(0)
}

const QUICK = process.argv.includes('--quick')
const MIN_MS = QUICK ? 200 : 1500
const BASELINE = process.argv.includes('--baseline') ? process.argv[process.argv.indexOf('--baseline') + 1] : null

// The fastest of many short samples: on a shared, loaded machine most samples are preempted, and the
// fastest one is the least disturbed.
function best (f) {
  let window = 0
  const sample = () => {
    const from = window
    window = (window + PER_SAMPLE) % KEY_COUNT
    for (let i = from; i < from + PER_SAMPLE; i++) consume(f(keys[i]))
  }
  sample()
  let fastest = Infinity
  let samples = 0
  const until = process.hrtime.bigint() + BigInt(MIN_MS * 1e6)
  while (samples < MIN_SAMPLES || process.hrtime.bigint() < until) {
    const start = process.hrtime.bigint()
    sample()
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - start) / PER_SAMPLE)
    samples++
  }
  return fastest
}

const current = require(path.join(__dirname, '..'))
const baseline = BASELINE ? require(path.resolve(BASELINE)) : null
const cpu = os.cpus()[0]?.model || 'unknown CPU'
console.log(`# longstraw Node per-call cost: node ${process.version}, ${os.platform()}-${os.arch()}, ${cpu} (${os.cpus().length} cores), backend ${current.backend()}`)
console.log(`- ${KEY_COUNT} keys (\`user:<i>:<h>\`), fastest of >= ${MIN_SAMPLES} samples of ${PER_SAMPLE} calls over ${MIN_MS / 1000} s per row; load average at start ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`)
if (BASELINE) console.log(`- rows named \`before:\` run \`${BASELINE}\` (another build of the addon) in this same process, each right before the same row of this build`)
for (const n of [10, 100]) {
  const now = calls(current, n)
  const then = baseline ? calls(baseline, n) : null
  const rows = []
  for (const name of Object.keys(now)) {
    if (then) rows.push([`before: ${LABEL[name]}`, best(then[name]), 'before'])
    rows.push([LABEL[name], best(now[name]), 'after'])
  }
  const trivial = { before: rows.find((r) => r[0] === `before: ${LABEL.trivial}`)?.[1], after: rows.find((r) => r[0] === LABEL.trivial)[1] }
  console.log(`\n## n = ${n}, time per call\n`)
  console.log('| call | time per call | minus backend() of its build |')
  console.log('|---|---:|---:|')
  for (const [name, ns, build] of rows) console.log(`| ${name} | ${ns.toFixed(1)} ns | ${(ns - trivial[build]).toFixed(1)} ns |`)
}
console.log(`\n- load average at end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`)
if (sink === 0.5) console.log(sink)
