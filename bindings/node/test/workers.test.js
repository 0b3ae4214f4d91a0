'use strict'
// The addon in worker_threads: same answers as the main thread, async calls
// inside workers, and workers that end with work in flight.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Worker } = require('node:worker_threads')
const { Rendezvous } = require('..')

const ADDON = path.join(__dirname, '..')
const NODES = Array.from({ length: 37 }, (_, i) => `node-${i}`)
const KEYS = Array.from({ length: 5000 }, (_, i) => `key:${i}`)

function runWorker (code, workerData) {
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData })
    let result
    w.on('message', (m) => { result = m })
    w.on('error', reject)
    w.on('exit', (code) => code === 0 ? resolve(result) : reject(new Error(`worker exited with ${code}`)))
  })
}

const WORKER = `
  const { parentPort, workerData } = require('node:worker_threads')
  const { Rendezvous } = require(workerData.addon)
  ;(async () => {
    const r = new Rendezvous(workerData.nodes, { seed: workerData.seed })
    const sync = r.owners(workerData.keys)
    const viaAsync = await r.ownersAsync(workerData.keys)
    let err
    try { r.owner(42) } catch (e) { err = e.constructor.name + ' ' + e.code }
    parentPort.postMessage({ sync, viaAsync, err, top: r.topK(workerData.keys[0], 3) })
  })()
`

test('workers compute the same placements as the main thread', async () => {
  const seed = 2n ** 63n + 5n
  const r = new Rendezvous(NODES, { seed })
  const expected = r.owners(KEYS)
  const results = await Promise.all(Array.from({ length: 4 }, () =>
    runWorker(WORKER, { addon: ADDON, nodes: NODES, keys: KEYS, seed })))
  for (const res of results) {
    assert.deepEqual(res.sync, expected)
    assert.deepEqual(res.viaAsync, expected)
    assert.equal(res.err, 'TypeError ERR_LONGSTRAW_INVALID_ARG_TYPE')
    assert.deepEqual(res.top, r.topK(KEYS[0], 3))
  }
})

test('terminating workers with async batches in flight does not crash the process', async () => {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads')
    const { Rendezvous } = require(workerData.addon)
    const r = new Rendezvous(Array.from({ length: 200 }, (_, i) => 'n' + i))
    const n = 200000
    const bytes = Buffer.alloc(n * 8, 'k')
    const offsets = new Uint32Array(n + 1).map((_, i) => i * 8)
    for (let i = 0; i < 4; i++) r.ownerIndicesAsync(bytes, offsets)
    parentPort.postMessage('started')
    setInterval(() => {}, 1000)
  `
  for (let i = 0; i < 3; i++) {
    const w = new Worker(code, { eval: true, workerData: { addon: ADDON } })
    await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject) })
    await w.terminate()
  }
  // Still alive and still correct.
  assert.equal(new Rendezvous(['a']).owner('k'), 'a')
})
