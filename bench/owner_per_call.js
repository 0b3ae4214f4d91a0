'use strict'
// Node's per-call cost of `owner`, for side-by-side runs (`make bench-java` starts it between its own
// rounds, beside bench/src/bin/owner_per_call.rs and bench/owner_per_call.py):
//
//   node bench/owner_per_call.js <calls per sample> <samples> <n>...
//
// For each n: a flat set of n nodes `cache-0`.. `cache-{n-1}` (weight 1, seed 0, the detected
// backend), keys `user:0`..`user:1023` cycled, as the Rust and Java measurements use, passed as
// Buffers (bytes, as Rust and Java pass them) and as strings (what most Node callers pass). Subjects:
// `Rendezvous.owner` (returns the id, a string) and `Snapshot.ownerIndex` (returns a number). Samples
// alternate between subjects and node counts, after one untimed sample each (which also lets V8
// optimise the loops). Each line printed is `<subject> n=<n> backend=<name> ns=<median wall ns per
// call> cpu_ns=<median on-CPU ns per call>`. On-CPU time is the main thread's run time from
// /proc/thread-self/schedstat (read synchronously, so on that thread), which leaves out the time the
// thread waited for a core; process.cpuUsage() would add V8's helper threads.
const fs = require('node:fs')
const path = require('node:path')

const lib = require(path.join(__dirname, '..', 'bindings', 'node'))

/** This thread's time on a CPU so far, in ns (Linux), or 0 when unknown. */
function cpuNs() {
  try {
    return Number(fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0])
  } catch {
    return 0
  }
}

/** The middle value (the upper one of the two middles for an even count), as the Rust side takes it. */
function median(v) {
  const s = [...v].sort((a, b) => a - b)
  return s[s.length >> 1]
}

const args = process.argv.slice(2)
if (args.length < 3) {
  console.error('usage: node bench/owner_per_call.js <calls per sample> <samples> <n>...')
  process.exit(2)
}
const calls = Number(args[0])
const samples = Number(args[1])
const ns = args.slice(2).map(Number)
const strings = Array.from({ length: 1024 }, (_, i) => `user:${i}`)
const buffers = strings.map((s) => Buffer.from(s, 'utf8'))
let sink = 0

// One loop per subject rather than one loop over a closure: a call site shared by every subject
// would be megamorphic and slow them all down.
const loops = {
  node_owner: (set, snap) => { let x = 0; for (let i = 0; i < calls; i++) x ^= set.owner(buffers[i & 1023]).length; sink ^= x },
  node_owner_index: (set, snap) => { let x = 0; for (let i = 0; i < calls; i++) x += snap.ownerIndex(buffers[i & 1023]); sink ^= x },
  node_owner_str: (set, snap) => { let x = 0; for (let i = 0; i < calls; i++) x ^= set.owner(strings[i & 1023]).length; sink ^= x },
  node_owner_index_str: (set, snap) => { let x = 0; for (let i = 0; i < calls; i++) x += snap.ownerIndex(strings[i & 1023]); sink ^= x },
}
const subjects = []
for (const n of ns) {
  const set = new lib.Rendezvous(Array.from({ length: n }, (_, i) => `cache-${i}`))
  const snap = set.snapshot()
  for (const [name, loop] of Object.entries(loops)) subjects.push({ name, n, set, snap, loop, wall: [], cpu: [] })
}
for (let sample = 0; sample <= samples; sample++) {
  for (const s of subjects) {
    const c0 = cpuNs()
    const w0 = process.hrtime.bigint()
    s.loop(s.set, s.snap)
    const w = Number(process.hrtime.bigint() - w0)
    const c = cpuNs() - c0
    if (sample > 0) {
      s.wall.push(w / calls)
      s.cpu.push(c / calls)
    }
  }
}
for (const s of subjects) {
  console.log(`${s.name} n=${s.n} backend=${s.set.backend} ns=${median(s.wall).toFixed(2)} cpu_ns=${median(s.cpu).toFixed(2)}`)
}
if (sink === 0.5) console.log(sink)
