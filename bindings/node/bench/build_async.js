'use strict'
// Building a large table-mode set, `Rendezvous.table` (on the JavaScript thread) against
// `Rendezvous.tableAsync` (on the libuv thread pool), side by side in one run. A 1 ms interval
// timer runs throughout; the table reports the build time, how many times the timer
// fired during the build and the longest gap between two turns of the event loop.
//
//   node bindings/node/bench/build_async.js [nodes...]
const { Rendezvous, backend } = require('..')

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0)
const SIZES = sizes.length ? sizes : [1000, 3000]

async function measure (build) {
  let ticks = 0
  let last = process.hrtime.bigint()
  let longest = 0n
  const timer = setInterval(() => {
    const now = process.hrtime.bigint()
    if (now - last > longest) longest = now - last
    last = now
    ticks++
  }, 1)
  // Let the timer start turning before the build begins.
  await new Promise((resolve) => setTimeout(resolve, 5))
  ticks = 0
  longest = 0n
  last = process.hrtime.bigint()
  const start = process.hrtime.bigint()
  await build()
  const end = process.hrtime.bigint()
  if (end - last > longest) longest = end - last
  clearInterval(timer)
  return { ms: Number(end - start) / 1e6, ticks, gapMs: Number(longest) / 1e6 }
}

async function main () {
  console.log(`Table-mode build, sync vs thread pool (backend ${backend()}, default bits)`)
  console.log()
  console.log('| nodes | build | time | timer ticks during the build | longest event-loop gap |')
  console.log('|---|---|---|---|---|')
  for (const n of SIZES) {
    const ids = Array.from({ length: n }, (_, i) => `node-${i}`)
    const rows = [
      ['Rendezvous.table', () => Promise.resolve(Rendezvous.table(ids))],
      ['Rendezvous.tableAsync', () => Rendezvous.tableAsync(ids)]
    ]
    for (const [name, build] of rows) {
      const r = await measure(build)
      console.log(`| ${n} | ${name} | ${r.ms.toFixed(1)} ms | ${r.ticks} | ${r.gapMs.toFixed(1)} ms |`)
    }
  }
}

main()
