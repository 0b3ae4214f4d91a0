'use strict'
// String batches, Node rows: `owners(array_of_strings)` and the per-call cost of
// `owner()`, side by side in one run with their baselines: the zero-copy
// packed batch `ownerIndices`, and a trivial call of the same addon
// (`backend()`). n = 10 nodes; ns per key (per call for the per-key rows).
//
//   node bench/strings/node_strings.js [--quick] [--baseline path/to/other/longstraw.node] \
//     | python3 bench/record.py --run node-strings --command '...'
//
// --baseline loads another build of the addon (for example main before this
// change) and measures its rows in the same run, each next to this build's.
const os = require('node:os')
const path = require('node:path')
const longstraw = require(path.join(__dirname, '..', '..', 'bindings', 'node'))
const { backend } = longstraw

const QUICK = process.argv.includes('--quick')
const BASELINE = process.argv.includes('--baseline') ? process.argv[process.argv.indexOf('--baseline') + 1] : null
const N = 10
const KEY_COUNT = 50_000
const MIN_SAMPLES = 20
const MIN_MS = QUICK ? 300 : 2000
const PER_SAMPLE = 1000 // keys per sample of the per-key rows

// The fastest of many short samples: on a shared, loaded machine most
// samples are preempted, and the fastest one is the least disturbed. A
// sample is one call of `fn`, which handles `keyCount` keys.
function bestPerKey (fn, keyCount) {
  fn()
  let best = Infinity
  const until = process.hrtime.bigint() + BigInt(MIN_MS * 1e6)
  let samples = 0
  while (samples < MIN_SAMPLES || process.hrtime.bigint() < until) {
    const start = process.hrtime.bigint()
    fn()
    best = Math.min(best, Number(process.hrtime.bigint() - start) / keyCount)
    samples++
  }
  return best
}

let sink = 0
const consume = (x) => { sink ^= typeof x === 'string' ? x.length : x.length | 0 }

function main () {
  const keys = Array.from({ length: KEY_COUNT }, (_, i) => `user:${i}:${(i * 2654435761) >>> 0}`)
  const wide = Array.from({ length: KEY_COUNT }, (_, i) => `ключ-${i}-键-${(i * 2654435761) >>> 0}`)
  const bytes = Buffer.from(keys.join(''))
  const offsets = new Uint32Array(KEY_COUNT + 1)
  keys.forEach((k, i) => { offsets[i + 1] = offsets[i] + Buffer.byteLength(k) })
  const out = new Uint32Array(KEY_COUNT)
  const nodes = Array.from({ length: N }, (_, i) => `10.0.0.${i}:11211`)
  // Per-key rows: each sample runs PER_SAMPLE calls, on the next window of keys.
  let window = 0
  const perKey = (f) => () => {
    const from = window
    window = (window + PER_SAMPLE) % KEY_COUNT
    for (let i = from; i < from + PER_SAMPLE; i++) consume(f(keys[i]))
  }
  const contenders = (lib, label) => {
    const ls = new lib.Rendezvous(nodes)
    const snap = ls.snapshot()
    return [
      [`${label}backend() (a trivial call of the addon)`, [() => { for (let i = 0; i < PER_SAMPLE; i++) consume(lib.backend()) }, PER_SAMPLE]],
      [`${label}rendezvous.owner(key)`, [perKey((k) => ls.owner(k)), PER_SAMPLE]],
      [`${label}snapshot.owner(key)`, [perKey((k) => snap.owner(k)), PER_SAMPLE]],
      [`${label}snapshot.ownerIndex(key)`, [perKey((k) => snap.ownerIndex(k) + ''), PER_SAMPLE]],
      [`${label}ownerIndices (zero-copy, out)`, [() => consume(snap.ownerIndices(bytes, offsets, out)), KEY_COUNT]],
      [`${label}rendezvous.owners(string[])`, [() => consume(ls.owners(keys)), KEY_COUNT]],
      [`${label}snapshot.owners(string[])`, [() => consume(snap.owners(keys)), KEY_COUNT]],
      [`${label}rendezvous.owners(non-ASCII string[])`, [() => consume(ls.owners(wide)), KEY_COUNT]]
    ]
  }
  // Each row is measured right after the same row of the baseline, so that
  // both see the same load on the machine.
  const current = contenders(longstraw, '')
  const before = BASELINE ? contenders(require(path.resolve(BASELINE)), 'baseline: ') : []
  const rows = []
  const measured = []
  current.forEach(([name, [fn, count]], i) => {
    if (before[i]) measured.push([before[i][0], bestPerKey(...before[i][1])])
    rows.push([name, bestPerKey(fn, count)])
  })
  rows.push(...measured)
  const byName = Object.fromEntries(rows)
  const batch = byName['ownerIndices (zero-copy, out)']
  const trivial = byName['backend() (a trivial call of the addon)']

  const cpu = os.cpus()[0]?.model || 'unknown CPU'
  console.log(`# longstraw Node string batches: node ${process.version}, ${os.platform()}-${os.arch()}, ${cpu} (${os.cpus().length} cores), backend ${backend()}`)
  console.log(`- n = ${N} nodes, ${KEY_COUNT} keys (\`user:<i>:<h>\`, ~${Math.round(bytes.length / KEY_COUNT)} bytes; non-ASCII \`ключ-<i>-键-<h>\`), fastest of >= ${MIN_SAMPLES} samples over ${MIN_MS / 1000} s per row (per-key rows: ${PER_SAMPLE} calls a sample; batch rows: one call of ${KEY_COUNT} keys); load average at end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`)
  if (BASELINE) console.log(`- rows named \`baseline:\` run \`${BASELINE}\` (another build of the addon) in this same process\n`)
  console.log(`## n = ${N}, time per key\n`)
  console.log('| call | time per key | its time / the zero-copy batch | its time - backend() of its build |')
  console.log('|---|---:|---:|---:|')
  for (const [name, ns] of rows) {
    const own = name.startsWith('baseline: ') ? byName['baseline: backend() (a trivial call of the addon)'] : trivial
    console.log(`| ${name} | ${ns.toFixed(1)} ns | ${(ns / batch).toFixed(2)} | ${(ns - own).toFixed(1)} ns |`)
  }
  const owners = byName['rendezvous.owners(string[])']
  const owner = byName['rendezvous.owner(key)']
  console.log('\n## goals\n')
  if (BASELINE) {
    const before = byName['baseline: rendezvous.owners(string[])']
    const beforeOwner = byName['baseline: rendezvous.owner(key)'] - byName['baseline: backend() (a trivial call of the addon)']
    console.log(`- owners(string[]): baseline ${before.toFixed(1)} ns per key, now ${owners.toFixed(1)} ns (${(before / owners).toFixed(2)}x faster)`)
    console.log(`- owner() minus backend(): baseline ${beforeOwner.toFixed(1)} ns, now ${(owner - trivial).toFixed(1)} ns`)
  }
  console.log(`- owners(array_of_strings) <= 60 ns per key: ${owners.toFixed(1)} ns, ${owners <= 60 ? 'met' : 'not met'}`)
  console.log(`- owner() <= backend() + 60 ns: ${owner.toFixed(1)} ns vs ${trivial.toFixed(1)} ns + 60 ns, ${owner <= trivial + 60 ? 'met' : 'not met'}`)
  if (sink === 0.5) console.log(sink)
}

main()
